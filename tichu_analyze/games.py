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


def as_text(g: GameSummary) -> str:
    """``file: game G: A, B, C, D; 8 rounds; complete; 1020-480; 1 error``."""
    score = "-".join(map(str, g.score)) if g.score is not None else "score unknown"
    state = "complete" if g.complete else "incomplete"
    found = [f"{n} {sev}{'s' * (n != 1)}" for sev in SEVERITIES if (n := g.diagnostics[sev])]
    rounds = f"{g.rounds} round{'s' * (g.rounds != 1)}"
    return (f"{g.file}: game {g.game}: {', '.join(g.players)}; {rounds}; {state}; {score}; "
            f"{', '.join(found) or 'no diagnostics'}")
