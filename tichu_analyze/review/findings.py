"""The finding record that every review analysis returns, and the protocol of an analysis
that looks at one decision."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core.state import GameState, RoundState, Step

__all__ = ["DecisionReview", "Finding"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One place where a seat lost points, as the review proves or measures it.

    ``code`` is an ``R`` code; ``line`` the log line of the decision (1-based), ``trick``
    its trick (None before the first lead); ``cost`` the points it cost the seat's team
    (None when the cost is not a number of points); ``hindsight`` is True for findings
    that look at the hidden hands (open-hand endgames) and False for those judged only
    from what the seat could know; ``detail`` holds machine-readable extras (the line
    that kept the result, the uncertainty of a model, ...), JSON-serialisable.
    """

    code: str
    game: str
    round: int
    trick: int | None
    seat: int
    player: str
    line: int
    message: str
    cost: int | None = None
    hindsight: bool = False
    detail: dict[str, Any] = field(default_factory=dict)


class DecisionReview(Protocol):
    """An analysis of single decisions (a ``play`` or ``pass`` of a seat).

    ``before`` is a copy of the round's state just before the decision, ``after`` the
    engine's state right after it (read it, never change it); ``step`` the engine's step
    of the decision's event. Return the finding, or None.
    """

    def review(self, game: GameState, before: RoundState, step: Step,
               after: RoundState) -> Finding | None: ...
