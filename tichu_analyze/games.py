"""``tichu-analyze games``: what a log holds, one line per game.

Built on the public replay API (:func:`logfile.replay_file` and its ``on_game``
records) through :func:`summarize`, the one place that reads a game's record.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostic
from .logfile import replay_file
from .output import printable
from .replay import GameRecord

SEVERITIES = ("fatal", "error", "warning")


@dataclass(slots=True)
class GameSummary:
    """One game of a log, as ``games`` lists it."""

    file: str
    game: str
    players: list[str]
    rounds: int
    complete: bool
    """A ``game_end`` was recorded."""
    score: list[int] | None
    """The replayed final score per team (the recorded one where the replay could not
    score every round); None when neither is known."""
    line: int
    diagnostics: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SEVERITIES, 0))

    def as_dict(self) -> dict[str, object]:
        return {"file": self.file, "game": self.game, "players": self.players,
                "rounds": self.rounds, "complete": self.complete, "score": self.score,
                "line": self.line, "diagnostics": self.diagnostics}


def summarize(rec: GameRecord, file: str) -> GameSummary:
    """The listing of one game's record."""
    score = rec.totals if rec.totals is not None else rec.recorded_score
    return GameSummary(file, rec.game, list(rec.players), rec.rounds, rec.ended,
                       list(score) if score is not None else None, rec.line)


def list_games(path: Path, variants: frozenset[str] = frozenset()) -> list[GameSummary]:
    """Every game of one log file, in the order they end (raises ``LogError``)."""
    found: list[GameSummary] = []
    by_game: Counter[tuple[str | None, str]] = Counter()

    def count(d: Diagnostic) -> None:
        by_game[d.game, str(d.severity)] += 1

    def add(rec: GameRecord) -> None:
        found.append(summarize(rec, str(path)))

    replay_file(path, count, trace=True, on_game=add, variants=variants)
    for g in found:
        for sev in SEVERITIES:
            g.diagnostics[sev] = by_game[g.game, sev]
    found.sort(key=lambda g: g.line)
    return found


_SEVERITY_COLOUR = {"fatal": "\x1b[1;35m", "error": "\x1b[1;31m", "warning": "\x1b[1;33m"}
_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"


def as_text(g: GameSummary, colour: bool = False) -> str:
    """``file: game G: A, B, C, D; 8 rounds; complete; 1020-480; 1 error``.

    Names from the log are shown with control characters escaped; ``colour`` adds
    ANSI colours for a terminal."""
    def paint(text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if colour else text

    score = "-".join(map(str, g.score)) if g.score is not None else "score unknown"
    state = paint("complete", "\x1b[32m") if g.complete else paint("incomplete", "\x1b[33m")
    found = [paint(f"{n} {sev}{'s' * (n != 1)}", _SEVERITY_COLOUR[sev])
             for sev in SEVERITIES if (n := g.diagnostics[sev])]
    rounds = f"{g.rounds} round{'s' * (g.rounds != 1)}"
    players = printable(", ".join(g.players))
    file = paint(printable(g.file) + ":", _BOLD)
    return (f"{file} game {printable(g.game)}: {players}; "
            f"{rounds}; {state}; {score}; {', '.join(found) or 'no diagnostics'}")
