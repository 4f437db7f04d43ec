"""The reviewer: replays games through the engine and looks at every decision.

:class:`Reviewer` is a :class:`~tichu_analyze.core.visitor.Visitor`. Before each ``play``
or ``pass`` of the play phase it holds a copy of the round as it was
(:meth:`~tichu_analyze.core.state.RoundState.copy`), hands it with the engine's step and
state to each :class:`~tichu_analyze.review.findings.DecisionReview`, and looks for the
sure outs given up (R001) itself; per round it may call ``per_round`` (the command line
puts the calls model there, R003). Findings whose cost depends on how the round ended
are finished when it ends.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from ..core.cards import format_cards
from ..core.combos import Combo
from ..core.events import Pass, Play
from ..core.state import GameState, Phase, RoundState, Step, call_value
from ..core.visitor import Visitor
from ..readers.logfile import replay_file
from .findings import DecisionReview, Finding
from .sureout import is_sure_after, sure_out

__all__ = ["Reviewer", "review_file", "sure_at"]

RoundReview = Callable[[GameState, RoundState, list[int]], list[Finding]]
"""A review of a whole round: given the game, the round at its end and the teams' game
totals before it."""


def _sequence(combos: Sequence[Combo]) -> str:
    return ", then ".join(format_cards(c.cards) for c in combos)


class Reviewer(Visitor):
    """Collects the findings of the games it follows in ``findings``.

    ``analyses``: the decision reviews to run; ``sure_outs``: look for sure outs given up
    (R001); ``per_round``: a review of each round once it ended."""

    def __init__(self, analyses: Sequence[DecisionReview] = (), *, sure_outs: bool = True,
                 per_round: RoundReview | None = None) -> None:
        self.analyses = list(analyses)
        self.sure_outs = sure_outs
        self.per_round = per_round
        self.findings: list[Finding] = []
        self._before: RoundState | None = None
        self._totals: list[int] = [0, 0]
        self._pending: list[tuple[int, list[Combo], Step, str]] = []

    def begin_round(self, game: GameState, rnd: RoundState) -> None:
        self._before = None
        self._totals = list(game.totals)
        self._pending = []

    def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
        before = self._before
        ev = step.event
        if (before is not None and not step.skipped and isinstance(ev, Play | Pass)
                and before.phase == Phase.PLAY):
            self._decision(game, before, step, rnd)
        self._before = rnd.copy() if rnd.phase == Phase.PLAY else None

    def _decision(self, game: GameState, before: RoundState, step: Step,
                  after: RoundState) -> None:
        seat = step.seat
        if seat is None:
            return
        for analysis in self.analyses:
            found = analysis.review(game, before, step, after)
            if found is not None:
                self.findings.append(found)
        if not self.sure_outs:
            return
        sure = sure_out(before, seat)
        if sure is None:
            return
        played = step.combo if isinstance(step.event, Play) else None
        if played is None and before.takes(seat):
            return  # bsw (9.4): the winner's pass that takes its trick; it leads next
        if is_sure_after(before, seat, played, after):
            return
        what = ("passing" if played is None else f"playing {format_cards(played.cards)}")
        self._pending.append((seat, sure, step, what))

    def end_round(self, game: GameState, rnd: RoundState) -> None:
        for seat, sure, step, what in self._pending:
            self.findings.append(_sure_out_given_up(game, rnd, seat, sure, step, what))
        self._pending = []
        if self.per_round is not None:
            self.findings.extend(self.per_round(game, rnd, self._totals))
        self._before = None


def _sure_out_given_up(game: GameState, rnd: RoundState, seat: int, sure: list[Combo],
                       step: Step, what: str) -> Finding:
    """The R001 finding, its cost read from how the round ended."""
    first = rnd.out[0] if rnd.out else None
    call = rnd.calls[seat]
    costs: list[str] = []
    cost: int | None = None
    if first == seat:
        outcome = "it went out first all the same"
        cost = 0
    elif first is None:
        outcome = "the round did not end"
    else:
        outcome = f"seat {first} ({rnd.occupants[first]}) went out first"
        costs.append("first place lost")
        if call is not None:
            value = call_value(call)
            name = "Grand Tichu" if call == "grand_tichu" else "Tichu"
            costs.append(f"the {name} failed ({-value:+d} instead of {value:+d})")
            cost = 2 * value
        if rnd.result is not None and rnd.result.double_victory and first % 2 != seat % 2:
            costs.append("the opponents made a double victory")
    detail = {"sure": [format_cards(c.cards) for c in sure], "cost_kinds": costs}
    message = (f"gave up a sure out: {_sequence(sure)} went out first whatever the others "
               f"held; after {what}, {outcome}"
               + (f": {', '.join(costs)}" if costs else ""))
    return Finding("R001", game.id, rnd.number, step.trick, seat,
                   rnd.occupants[seat], step.line, message, cost, False, detail)


def review_file(path: str | os.PathLike[str], analyses: Sequence[DecisionReview] = (), *,
                sure_outs: bool = True, per_round: RoundReview | None = None,
                variants: frozenset[str] = frozenset()) -> list[Finding]:
    """The findings of every game of one log file (``.tch`` too), in the order found.
    Raises :class:`~tichu_analyze.readers.logfile.LogError` when it cannot be read."""
    reviewer = Reviewer(analyses, sure_outs=sure_outs, per_round=per_round)
    replay_file(Path(path), reviewer, variants=variants)
    return reviewer.findings


class _At(Visitor):
    """Keeps the round as it was just before the event at ``line``."""

    def __init__(self, line: int) -> None:
        self.line = line
        self.found: tuple[GameState, RoundState, Step] | None = None
        self._before: RoundState | None = None

    def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
        if step.line == self.line and self.found is None and self._before is not None:
            self.found = (game, self._before, step)
        self._before = rnd.copy() if rnd.phase == Phase.PLAY else None


def sure_at(path: str | os.PathLike[str], line: int,
            variants: frozenset[str] = frozenset()
            ) -> tuple[GameState, RoundState, Step, list[Combo] | None] | None:
    """"From here, was it sure?": for the play or pass at ``line`` of a log, the round
    just before it, the step, and the sure sequence its seat held then (None: none).
    None when that line holds no play or pass of the play phase."""
    at = _At(line)
    replay_file(Path(path), at, variants=variants)
    if at.found is None:
        return None
    game, before, step = at.found
    if not isinstance(step.event, Play | Pass) or step.seat is None:
        return None
    return game, before, step, sure_out(before, step.seat)
