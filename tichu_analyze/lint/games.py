"""``tichu-analyze games``: what a log holds, one line per game.

Built on the public replay API (:func:`logfile.replay_file` with a visitor that is
told of every game's end) through :func:`summarize`, the one place that reads a
game's state.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..core.diagnostics import Diagnostic
from ..core.state import GameState, RoundState
from ..core.visitor import Visitor
from ..readers.logfile import replay_file
from .output import printable

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
    """The replayed final score per team: the sum of the rounds the replay scored (a
    round it could not score adds nothing); None in ``trichu`` (see ``persons``)."""
    line: int
    diagnostics: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SEVERITIES, 0))
    persons: dict[str, int] | None = None
    """``trichu`` (rules.md 9.3): each person's total instead of the teams' ``score``."""
    newcomers: list[tuple[int, int, str, int | None]] = field(default_factory=list)
    """(round, seat, name, line) of each player not in ``players`` who took a seat, at the
    first round they played: at its start (``round_start.players``; line None), or during
    it (``x_substitute``: its line)."""

    def as_dict(self) -> dict[str, object]:
        found: dict[str, object] = {
            "file": self.file, "game": self.game, "players": self.players,
            "rounds": self.rounds, "complete": self.complete, "score": self.score,
            "line": self.line, "diagnostics": self.diagnostics}
        if self.persons is not None:
            found["persons"] = self.persons
        if self.newcomers:
            found["newcomers"] = [
                {"round": r, "seat": s, "player": name} | ({} if at is None else {"line": at})
                for r, s, name, at in self.newcomers]
        return found


def summarize(game: GameState, file: str) -> GameSummary:
    """The listing of one game, from its final state. It is complete when its
    ``game_end`` was recorded or when the engine found it won (a team reached the target;
    ``trichu``: its rounds were played), as a ``.tch`` log's games are, which record no
    end: the same reading as the datasets' ``won`` (and ``plot --kind score``)."""
    score = game.totals
    over = game.ended or game.won_by is not None or game.person_winner is not None
    if game.rules.per_person:  # the teams change every round: the totals are per person
        persons = game.person_totals if game.person_totals is not None \
            else game.recorded_persons
        return GameSummary(file, game.id, list(game.players), game.rounds, over, None,
                           game.line, persons=dict(persons) if persons is not None else {})
    return GameSummary(file, game.id, list(game.players), game.rounds, over, list(score),
                       game.line)


class _Games(Visitor):
    """Summarizes every game as it ends and counts the diagnostics by game."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.found: list[GameSummary] = []
        self.by_game: Counter[tuple[str | None, str]] = Counter()
        self.newcomers: dict[str, list[tuple[int, int, str, int | None]]] = {}

    def begin_round(self, game: GameState, rnd: RoundState) -> None:
        self._note(game, rnd, [(None, seat, name) for seat, name in enumerate(rnd.players)])

    def end_round(self, game: GameState, rnd: RoundState) -> None:
        self._note(game, rnd, rnd.substitutes)  # (who took a seat during the round)

    def _note(self, game: GameState, rnd: RoundState,
              seated: list[tuple[int, int, str]] | list[tuple[None, int, str]]) -> None:
        found = self.newcomers.setdefault(game.id, [])
        seen = {n for _, _, n, _ in found} | set(game.players)
        for line, seat, name in seated:
            if name not in seen:
                found.append((rnd.number, seat, name, line))
                seen.add(name)

    def end_game(self, game: GameState) -> None:
        summary = summarize(game, self.file)
        summary.newcomers = self.newcomers.pop(game.id, [])
        self.found.append(summary)

    def visit_diagnostic(self, diag: Diagnostic) -> None:
        self.by_game[diag.game, str(diag.severity)] += 1


def list_games(path: Path, variants: frozenset[str] = frozenset(),
               outside: dict[str, int] | None = None) -> list[GameSummary]:
    """Every game of one log file, in the order they end (raises ``LogError``).

    ``outside``, if given, receives the number of diagnostics by severity that belong
    to none of the games listed (a line that is not JSON, events of a game whose
    ``game_start`` could not be read)."""
    visitor = _Games(str(path))
    replay_file(path, visitor, variants=variants)
    found, by_game = visitor.found, visitor.by_game
    for g in found:
        for sev in SEVERITIES:
            g.diagnostics[sev] = by_game.pop((g.game, sev), 0)
    if outside is not None:
        for (_, sev), n in by_game.items():
            outside[sev] = outside.get(sev, 0) + n
    found.sort(key=lambda g: g.line)
    return found


_SEVERITY_COLOUR = {"fatal": "\x1b[1;35m", "error": "\x1b[1;31m", "warning": "\x1b[1;33m"}
_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"


def severity_counts(counts: dict[str, int], colour: bool = False) -> str:
    """``1 error, 2 warnings`` (the severities found, worst first; empty if none);
    ``colour``: each in its ANSI colour, for a terminal."""
    return ", ".join(
        f"{_SEVERITY_COLOUR[sev]}{text}{_RESET}" if colour else text
        for sev in SEVERITIES if (n := counts.get(sev, 0))
        for text in (f"{n} {sev}{'s' * (n != 1)}",))


def as_text(g: GameSummary, colour: bool = False) -> str:
    """``file: game G: A, B, C, D; 8 rounds; complete; 1020-480; 1 error``.

    Names from the log are shown with control characters escaped; ``colour`` adds
    ANSI colours for a terminal."""
    def paint(text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if colour else text

    if g.score is None:
        score = "score unknown"
    else:  # 1020-480, but 120 to -20 (not 120--20) when a team is below zero
        score = (" to " if min(g.score) < 0 else "-").join(map(str, g.score))
    if g.persons:
        score = ", ".join(f"{printable(name)} {total}" for name, total in g.persons.items())
    state = paint("complete", "\x1b[32m") if g.complete else paint("incomplete", "\x1b[33m")
    rounds = f"{g.rounds} round{'s' * (g.rounds != 1)}"
    players = printable(", ".join(g.players) + "".join(
        f", then {name} (seat {seat}) "
        + (f"from round {r}" if at is None else f"during round {r} (line {at})")
        for r, seat, name, at in g.newcomers))
    file = paint(printable(g.file) + ":", _BOLD)
    return (f"{file} game {printable(g.game)}: {players}; "
            f"{rounds}; {state}; {score}; "
            f"{severity_counts(g.diagnostics, colour) or 'no diagnostics'}")
