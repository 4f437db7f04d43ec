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


@dataclass(frozen=True, slots=True)
class Advisory:
    """A code of the review's catalogue: advisory findings, not rule violations (a move
    that loses points breaks no rule). ``hindsight``: the finding looks at hidden hands."""

    code: str
    name: str
    when: str
    hindsight: bool
    doc: str


ADVISORIES: dict[str, Advisory] = {
    a.code: a
    for a in (
        Advisory("R001", "sure-out-given-up",
                 "a seat held a sure out (a fixed sequence of its plays that goes out first "
                 "whatever the unseen cards and however the others play, judged from what it "
                 "could know) and its play or pass gave it up", False, """
What: at this decision the seat could have played its hand out, going out first, whatever
the unseen cards were and however the others played (bombs included): every combination
but the last unanswerable by any holding the hand sizes allow, the last one going out.
Its play (or pass) gave that up. Judged only from what the seat could know: its hand, the
cards played, the cards it gave in the exchange, the hand sizes. The finding says what it
cost in the round as played: first place lost, a Tichu that failed (the cost is then the
call's swing, 200 for a Tichu, 400 for a Grand Tichu), the opponents' double victory.

Why sure: the sequence is fixed (a line that needs a bomb later to win the lead back is
not counted), so a sure out reported is always sure; a few may be missed. Looked for when
the seat holds at most 8 cards and nobody is out yet.

Example:
    seat 2 holds the Ace of Swords, the pair of Jacks and the 2 of Jade; the Dragon, the
    Phoenix and every bomb are gone: Ace, pair, 2 goes out first whatever happens.
    {"type":"play","game":"g1","seat":2,"cards":["2j"]}
    ^ R001: gave up a sure out: As, then Js Jr, then 2j went out first whatever the
      others held; after playing 2j, seat 3 went out first: first place lost

Near miss: the same seat leads the Ace first: no finding.
"""),
        Advisory("R002", "open-hand-points-lost",
                 "with all hands open, a play or pass near the end of a round lowered the best "
                 "result its team could force", True, """
What: when few cards are left (10 by default, --endgame-limit), the rest of the round is
solved with all hands open, as bridge's double-dummy tables do: the best round score each
team can force, bombs, the Dragon's gift, the Dog and the wish included. A play or pass
that lowers its team's forced result is reported with the points it cost and the play
that kept the result. Hindsight: the seat could not see the other hands, so every such
finding says "all hands open"; it shows what was possible, not what was knowable.

Example:
    with all hands open, passing lost 40 points: playing the single 9 (9s) kept a
    forced -60 for the team

Near miss: a play as good as the best line (another card of the same worth) is no
finding. docs/review-openhand.md gives the game tree and the measured limit.
"""),
        Advisory("R003", "call-against-the-data",
                 "a Grand Tichu or Tichu call (or its absence) worse, by the calls model of "
                 "real games, than the other choice beyond the model's uncertainty", False, """
What: each Grand Tichu decision (the first 8 cards) and Tichu decision (before the first
play) is set against how often hands like it went out first in a dataset of real games
(by strength band, the partner's call and the game score): calling is worth 200p - 100
points for a Tichu, 400p - 200 for a Grand Tichu (less the Tichu it forgoes). Flagged only
when the choice made is worse by more than two standard errors, in cells of 20 rounds or
more; the finding shows the uncertainty and the cell's size. The model is the shipped
reference (fitted on the project's 2,044 real Brettspielwelt games) or the user's own
dataset (--calls-model).
"""),
    )
}
"""The review's codes, in catalogue order."""
