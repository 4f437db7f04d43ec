"""A visitor that keeps whole rounds: :class:`Recorder` and its :class:`RoundRecord`.

For consumers that look at a round as a whole once it is over (the audit view of
``tichu-analyze replay``, tests): a :class:`RoundRecord` is the engine's final
:class:`~tichu_analyze.core.state.RoundState` of the round with the
:class:`~tichu_analyze.core.state.Step` of each of its events and its
:class:`~tichu_analyze.core.state.Trick` records. Its other attributes read the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Diagnostic
from .events import Pass
from .state import GameState, Phase, RoundState, Step, Trick
from .visitor import Visitor

__all__ = ["Recorder", "RoundRecord"]


@dataclass(slots=True)
class RoundRecord:
    """One round as a :class:`Recorder` kept it."""

    game: str
    file: str
    state: RoundState
    steps: list[Step] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    hands_after: list[list[int]] = field(default_factory=list)
    """The hands after each step (``steps[i]``), when the recorder keeps them."""
    phase_after: list[Phase] = field(default_factory=list)
    """The round's phase after each step, when the recorder keeps the hands."""
    takes: set[int] = field(default_factory=set)
    """The steps (indexes in :attr:`steps`) at which the trick's winner took its trick with
    a pass (``bsw``, rules 9.4: :attr:`~tichu_analyze.core.state.RoundState.taken` became
    true), when the recorder keeps the hands."""
    dog_leads: dict[int, list[int]] = field(default_factory=dict)
    """Per trick of the Dog (its number), the seats the engine let lead next
    (:meth:`~tichu_analyze.core.state.RoundState.may_lead` right after it, rules 5.2, 9.2)."""
    game_totals: list[int] | None = None
    """The game's totals per team once the round was closed (``GameState.totals``: the
    rounds the replay scored so far)."""

    @property
    def round(self) -> int:
        return self.state.number

    @property
    def players(self) -> list[str]:
        """The names by seat in this round."""
        return self.state.players

    @property
    def line(self) -> int:
        """The line of the ``round_start``."""
        return self.state.line

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def hands8(self) -> list[int]:
        return self.state.dealt8

    @property
    def hands14(self) -> list[int]:
        return self.state.dealt

    @property
    def hands_played(self) -> list[int]:
        """The hands after the exchange (zeros when it was not completed)."""
        return self.state.exchanged_hands()

    @property
    def given(self) -> list[dict[int, int]]:
        """Per seat ``{to_seat: card}``; empty until every seat exchanged."""
        exchanges = self.state.exchanges
        if any(x is None for x in exchanges):
            return [{} for _ in exchanges]
        return [dict(x or {}) for x in exchanges]

    @property
    def calls(self) -> list[str | None]:
        return self.state.calls

    @property
    def finish_order(self) -> list[int]:
        result = self.state.result
        return list(result.finish_order) if result is not None else []

    @property
    def double_victory(self) -> bool:
        return self.state.double_victory

    @property
    def card_points(self) -> list[int]:
        result = self.state.result
        return result.card_points if result is not None else [0, 0]

    @property
    def call_points(self) -> list[int]:
        result = self.state.result
        return result.call_points if result is not None else [0, 0]

    @property
    def seat_calls(self) -> list[int]:
        """Per seat, what its call brought (the engine's
        :attr:`~tichu_analyze.core.state.RoundScore.seat_calls`: + made, - failed, 0 none)."""
        result = self.state.result
        return result.seat_calls if result is not None else [0] * self.state.seats

    @property
    def penalty(self) -> list[int]:
        """Per team, the points of the ``wish-penalty-200`` house rule."""
        result = self.state.result
        return result.penalty if result is not None else [0, 0]

    @property
    def pile_points(self) -> list[int]:
        result = self.state.result
        return result.pile_points if result is not None else [0] * self.state.seats

    @property
    def score(self) -> list[int] | None:
        return self.state.score

    @property
    def recorded_score(self) -> list[int] | None:
        return self.state.recorded_score

    @property
    def recorded_finish(self) -> list[int] | None:
        return self.state.recorded_finish

    @property
    def dragon_gifts(self) -> list[tuple[int, int]]:
        """``(winner, to)`` of every Dragon trick given."""
        return [(t.winner, t.taken_by) for t in self.tricks if t.dragon]

    @property
    def hands_end(self) -> list[int]:
        return list(self.state.hands)

    @property
    def table_end(self) -> int:
        """Cards of a trick still on the table when the round ended."""
        return self.state.trick_cards


class Recorder(Visitor):
    """Keeps every round (:attr:`rounds`), every game (:attr:`games`, in the order they
    ended) and every diagnostic (:attr:`diagnostics`). ``hands``: also keep the hands
    and the phase after every step (:attr:`RoundRecord.hands_after`,
    :attr:`RoundRecord.phase_after`)."""

    def __init__(self, hands: bool = False) -> None:
        self.rounds: list[RoundRecord] = []
        self.games: list[GameState] = []
        self.diagnostics: list[Diagnostic] = []
        self._hands = hands
        self._open: dict[str, RoundRecord] = {}

    def begin_round(self, game: GameState, rnd: RoundState) -> None:
        self._open[game.id] = RoundRecord(game.id, game.file, rnd)

    def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
        rec = self._open.get(game.id)
        if rec is not None and rnd is rec.state:
            rec.steps.append(step)
            if self._hands:
                rec.hands_after.append(list(rnd.hands))
                rec.phase_after.append(rnd.phase)
                if (rnd.taken and isinstance(step.event, Pass) and step.seat == step.top_seat
                        and not step.skipped and not step.diagnostics):
                    rec.takes.add(len(rec.steps) - 1)

    def visit_trick(self, game: GameState, rnd: RoundState, trick: Trick) -> None:
        rec = self._open.get(game.id)
        if rec is not None and rnd is rec.state:
            rec.tricks.append(trick)
            if trick.dog:
                rec.dog_leads[trick.number] = [s for s in range(rnd.seats) if rnd.may_lead(s)]

    def end_round(self, game: GameState, rnd: RoundState) -> None:
        rec = self._open.pop(game.id, None)
        if rec is not None:
            rec.game_totals = list(game.totals)
            self.round_recorded(rec)

    def end_game(self, game: GameState) -> None:
        self.games.append(game)

    def visit_diagnostic(self, diag: Diagnostic) -> None:
        self.diagnostics.append(diag)

    def round_recorded(self, rec: RoundRecord) -> None:
        """A round was closed; by default it is appended to :attr:`rounds`."""
        self.rounds.append(rec)
