"""Sure outs: whether a seat could go out first whatever the unseen cards and however the
others played, judged only from what it could know (issue: "where a player lost points").

**What "sure" means here.** At a decision of seat S (S to play now, nobody out yet), S
holds a *sure out* when its hand splits into combinations ``c1, ..., ck`` such that

* ``c1`` is a play S may make now (a lead, or a play on the table's top; the open wish
  obeyed, as the engine's state says);
* every ``ci`` but the last is *unanswerable*: no other seat can play on it, not with a
  combination of its kind nor with a bomb, for **any** holding of the unseen cards that
  the hand sizes allow; so every other seat passes, S wins the trick and leads again
  (a Dragon's trick is given away, the lead stays with S);
* the Dog, which gives the lead away, can only be ``ck``; while the wish is open and S
  holds the wished rank, the next combination S leads holds it;
* ``ck`` goes out, whatever comes after it.

What S knows: its hand, the cards played (all cards that are in no hand), the cards it
gave in the exchange (each sits with its receiver until played), how many cards each seat
holds. The unseen cards are the others; any split of them that fits the hand sizes is
possible. Since nobody can answer an unanswerable combination, the others never play
during such a run, so the order of ``c2 .. c(k-1)`` does not matter.

The sequence is fixed: a line that needs a bomb to win back the lead after an answer is
not counted, so a sure out reported is always sure, and the check may miss a few.
Sure outs are looked for when S holds at most :data:`HAND_LIMIT` cards.

The combinations come from the core (``classify``, ``beats``, ``legal_plays``): no
second copy of the combination rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb

from ..core.cards import BIT, DOG, RANK_MASK, cards_of
from ..core.combos import Combo, beats, bombs_in, classified, classify, legal_plays
from ..core.state import Phase, RoundState

__all__ = ["HAND_LIMIT", "Knowledge", "is_sure_after", "sure_out"]

HAND_LIMIT = 8
"""Sure outs are looked for when the seat holds at most this many cards."""

EXACT_HANDS = 64
"""Up to this many possible hands of a seat, its answers are found by trying each hand.
Beyond, by the combinations its known cards and the unseen ones can form that fit in its
hand: exact but in one case, counted as an answer though it is none (a combination that
would fill the whole hand and needs the card the seat gave it, but the unseen cards could
form it only without that card), so never fewer answers than exist: a sure out found is
always sure."""

_DOG = BIT[DOG]


class Knowledge:
    """What seat ``seat`` knows of the other hands at a decision: per other seat holding
    cards, its hand size and the cards known to be there (those ``seat`` gave it and it
    has not played); ``unseen``, the rest of the cards in other hands."""

    def __init__(self, rnd: RoundState, seat: int) -> None:
        self.seat = seat
        self.phoenix_bombs = rnd.rules.phoenix_bombs
        in_hands = 0
        for hand in rnd.hands:
            in_hands |= hand
        others = in_hands & ~rnd.hands[seat]
        given = rnd.exchanges[seat] or {}
        self.seats: list[tuple[int, int, int]] = []  # (seat, hand size, known cards)
        known_all = 0
        for other in range(rnd.seats):
            if other == seat or not rnd.hands[other]:
                continue
            card = given.get(other)
            known = BIT[card] & others if card is not None else 0
            known_all |= known
            self.seats.append((other, rnd.hands[other].bit_count(), known))
        self.unseen = others & ~known_all
        self._answers: dict[tuple[int, float, int], bool] = {}
        self.bomb_threat = any(self._seat_bombs(size, known) for _, size, known in self.seats)
        """Some other seat may hold a bomb: every combination but a bomb is answerable."""

    def _seat_bombs(self, size: int, known: int) -> bool:
        free = size - known.bit_count()
        unseen = self.unseen
        if comb(unseen.bit_count(), free) <= EXACT_HANDS:
            return any(bombs_in(hand, self.phoenix_bombs)
                       for hand in _hands(unseen, known, free))
        return any(b.length <= size for b in bombs_in(unseen | known, self.phoenix_bombs))

    def answerable(self, combo: Combo) -> bool:
        """Whether some other seat could play on ``combo`` (with its kind or a bomb) for
        some holding the hand sizes allow."""
        if self.bomb_threat and not combo.is_bomb:
            return True
        key = (int(combo.kind), combo.rank, combo.length)
        found = self._answers.get(key)
        if found is None:
            found = self._answers[key] = any(
                self._seat_answers(size, known, combo) for _, size, known in self.seats)
        return found

    def _seat_answers(self, size: int, known: int, combo: Combo) -> bool:
        free = size - known.bit_count()
        unseen = self.unseen
        if comb(unseen.bit_count(), free) <= EXACT_HANDS:
            return any(legal_plays(hand, combo, self.phoenix_bombs)
                       for hand in _hands(unseen, known, free))
        # too many hands to try: a combination of the cards it may hold that fits in its
        # hand (one choice of suits per kind, rank and length: never an answer too few)
        return any(answer.length <= size
                   for answer in legal_plays(unseen | known, combo, self.phoenix_bombs))


def _hands(unseen: int, known: int, free: int) -> Iterator[int]:
    """Every hand of ``free`` unseen cards beside the ``known`` ones."""
    bits = [BIT[c] for c in cards_of(unseen)]
    for chosen in combinations(bits, free):
        hand = known
        for bit in chosen:
            hand |= bit
        yield hand


def _subsets(hand: int) -> list[int]:
    """Every non-empty part of ``hand``."""
    bits = [BIT[c] for c in cards_of(hand)]
    parts = [0]
    for bit in bits:
        parts += [p | bit for p in parts]
    return parts[1:]


def _open_wish(rnd: RoundState) -> int:
    """The cards of the open wish's rank (0 when none is open)."""
    return RANK_MASK[rnd.wish] if rnd.wish is not None else 0


def _first_plays(rnd: RoundState, seat: int, only: int = 0) -> Iterator[tuple[int, Combo]]:
    """The parts of the seat's hand it may play now, with the combination each forms
    (``only``: just that part)."""
    hand = rnd.hands[seat]
    leading = rnd.may_lead(seat)
    top = None if leading else rnd.top
    if top is None and not leading:
        return
    bound = rnd.bound_by_wish(seat)
    wished = _open_wish(rnd)
    for part in [only] if only else _subsets(hand):
        if classified(part) is None:
            continue
        combo = classify(part, None, top, rnd.rules.phoenix_bombs)
        if combo is None:
            continue
        if top is not None and not beats(combo, top):
            continue
        if bound and not part & wished and (leading or not combo.is_bomb):
            continue
        yield part, combo


def _leads(hand: int, knowledge: Knowledge, must: int,
           memo: dict[tuple[int, int], list[Combo] | None]) -> list[Combo] | None:
    """A sure sequence of leads that plays out ``hand`` (the first holding a card of
    ``must`` when it is not 0), or None."""
    key = (hand, must)
    if key in memo:
        return memo[key]
    memo[key] = None  # (no cycles: each step plays cards)
    found: list[Combo] | None = None
    whole = classified(hand)
    if whole is not None and (not must or hand & must):
        found = [whole]
    else:
        for part in _subsets(hand):
            if part == hand or (must and not part & must) or part & _DOG:
                continue
            combo = classified(part)
            if combo is None or knowledge.answerable(combo):
                continue
            rest = _leads(hand & ~part, knowledge, 0, memo)
            if rest is not None:
                found = [combo, *rest]
                break
    memo[key] = found
    return found


def _applies(rnd: RoundState, seat: int) -> bool:
    return (rnd.phase == Phase.PLAY and not rnd.out and rnd.seats == 4 and rnd.dummy < 0
            and not rnd.rules.phoenix_bombs
            and 0 < rnd.hands[seat].bit_count() <= HAND_LIMIT
            and (rnd.may_lead(seat) or (rnd.turn == seat and rnd.top is not None
                                        and not rnd.trick_over)))


def sure_out(rnd: RoundState, seat: int) -> list[Combo] | None:
    """"From here, was it sure?": a sure sequence for ``seat`` to play out from the state
    ``rnd`` (the seat to play now), or None: none exists, someone is out, the seat holds
    more than :data:`HAND_LIMIT` cards, or it is not the seat's play."""
    if not _applies(rnd, seat):
        return None
    knowledge = Knowledge(rnd, seat)
    hand = rnd.hands[seat]
    wished = _open_wish(rnd)
    memo: dict[tuple[int, int], list[Combo] | None] = {}
    if knowledge.bomb_threat and not bombs_in(hand):
        # nothing but a bomb of its own goes unanswered: only going out in one play is sure
        whole = next((combo for part, combo in _first_plays(rnd, seat, hand) if part == hand),
                     None)
        return [whole] if whole is not None else None
    for part, combo in _first_plays(rnd, seat):
        if part == hand:
            return [combo]
        if part & _DOG or knowledge.answerable(combo):
            continue
        rest_hand = hand & ~part
        # a wish still open binds the next lead when the seat holds its rank
        must = wished & rest_hand if wished and not part & wished else 0
        rest = _leads(rest_hand, knowledge, must, memo)
        if rest is not None:
            return [combo, *rest]
    return None


def is_sure_after(before: RoundState, seat: int, played: Combo | None,
                  after: RoundState) -> bool:
    """Whether ``seat`` still held a sure out after its decision: it went out, or it
    played a combination nobody could answer (judged from ``before``) and can play its
    rest out as sure leads. A pass (``played`` None) gives the trick away."""
    if not after.hands[seat]:
        return True
    if played is None or played.cards & _DOG:
        return False
    knowledge = Knowledge(before, seat)
    if knowledge.answerable(played):
        return False
    rest = after.hands[seat]
    wished = _open_wish(after)
    return _leads(rest, knowledge, wished & rest, {}) is not None

