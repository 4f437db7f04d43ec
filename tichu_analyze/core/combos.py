"""Combinations: classify a set of cards, compare combinations, find legal plays.

Pure functions over card masks (see ``cards``). rules.md sections 3, 4 and 6.

A combination is ``(kind, rank, length)`` plus the cards and, when the Phoenix
is inside a multi-card combination, the rank it stands for.

How the work is done:

- ``classify`` counts the cards per rank (the Mahjong counts as rank 1) and
  reads the counts: one rank -> pair/triple/four; all ranks distinct and
  consecutive -> straight (or straight flush); 3+2 -> full house; all pairs,
  consecutive -> stairs. With the Phoenix it adds one card of the rank the
  Phoenix stands for and reads again. Without a ``phoenix`` field the
  candidate ranks are those present or next to a present rank, tried from the
  highest down; for cards with the Phoenix the kind is fixed by the card count
  (pair, triple, stairs/straight by pattern, full house/straight by pattern)
  and within a kind a higher stand-in rank never gives a lower combination, so
  the first reading found is the highest.
- The searches (``can_play_rank``, ``legal_plays``) work on rank counts of the
  hand and enumerate windows of ranks (straights, stairs) and pairs of ranks
  (full houses), never subsets of cards.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum

from .cards import (
    ACE,
    BIT,
    DOG,
    DOG_RANK,
    DRAGON,
    DRAGON_RANK,
    MAHJONG,
    MAHJONG_RANK,
    PHOENIX,
    RANK,
    RANK_MASK,
    RANK_TOKENS,
    SUIT,
    SUIT_MASK,
    SUIT_NAMES,
    Mask,
    rank_name,
    rank_plural,
)


class Kind(IntEnum):
    """Combination types (rules.md section 3). Bombs last."""

    SINGLE = 1
    PAIR = 2
    STAIRS = 3
    TRIPLE = 4
    FULL_HOUSE = 5
    STRAIGHT = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def is_bomb(self) -> bool:
        return self >= Kind.FOUR_OF_A_KIND


@dataclass(frozen=True, slots=True)
class Combo:
    """A classified combination.

    ``rank``: the combination's rank as in rules.md section 3 (single: the
    card's rank, Dog 0, Mahjong 1, Dragon 15, a Phoenix single ``top + 0.5``
    or 1.5 when led; pair/triple/four: the rank; stairs/straight/straight
    flush: the highest rank; full house: the triple's rank). ``length``: the
    number of cards. ``phoenix``: the rank 2..14 the Phoenix stands for in a
    multi-card combination, else None.
    """

    kind: Kind
    rank: float
    length: int
    cards: Mask
    phoenix: int | None = None

    @property
    def is_bomb(self) -> bool:
        return self.kind >= Kind.FOUR_OF_A_KIND


# --- tables -----------------------------------------------------------------

_DOG_BIT = BIT[DOG]
_MAHJONG_BIT = BIT[MAHJONG]
_PHOENIX_BIT = BIT[PHOENIX]
_DRAGON_BIT = BIT[DRAGON]
_ALL_CARDS: Mask = (1 << 56) - 1

_RANKS_2_TO_A: int = sum(1 << r for r in range(2, ACE + 1))
"""Rank bits (bit ``r`` for rank ``r``) of the ranks the Phoenix may stand for."""

_MIN_STRAIGHT = 5


def _shift(rank: int) -> int:
    """Bit position of the lowest card of a normal ``rank`` (its Jade card)."""
    return 4 * rank - 6


def _build_lowest() -> tuple[tuple[int, ...], ...]:
    """Nibble (the four suits of one rank) -> k -> its k lowest bits (0 if fewer)."""
    table = []
    for nibble in range(16):
        bits = [1 << b for b in range(4) if nibble >> b & 1]
        table.append(tuple(sum(bits[:k]) if k <= len(bits) else 0 for k in range(5)))
    return tuple(table)


_LOWEST: tuple[tuple[int, ...], ...] = _build_lowest()


def _span(lo: int, hi: int) -> int:
    """Rank bits lo..hi."""
    return (2 << hi) - (1 << lo)


def _take(hand: Mask, rank: int, k: int) -> Mask:
    """The ``k`` lowest cards of ``rank`` (1..14) in ``hand``; the caller checks there are k."""
    if rank == MAHJONG_RANK:
        return _MAHJONG_BIT
    shift = _shift(rank)
    return _LOWEST[(hand >> shift) & 15][k] << shift


# --- classify ---------------------------------------------------------------


def classify(
    cards: Mask,
    phoenix: int | None = None,
    top: Combo | None = None,
    phoenix_bombs: bool = False,
) -> Combo | None:
    """The combination ``cards`` form (rules.md section 3), or None.

    ``phoenix_bombs``: the house rule ``phoenix-in-bombs`` (rules.md section 9),
    under which the Phoenix may complete a four of a kind or a straight flush.

    ``phoenix``: the rank 2..14 the Phoenix stands for in a multi-card play
    (the log's field); if the cards read that way form no combination, the
    answer is None. Without it the highest reading is taken. It is ignored on
    a play without the Phoenix and on the Phoenix single (the engine reports a
    misplaced field itself if it wants to).

    ``top``: the combination on the table; only the Phoenix single needs it
    (``top.rank + 0.5`` on a single, 1.5 when led or on anything else).
    """
    if cards <= 0 or cards > _ALL_CARDS:
        return None
    n = cards.bit_count()
    if n == 1:
        return _single(cards, top)
    if cards & (_DOG_BIT | _DRAGON_BIT):
        return None  # the Dog and the Dragon are singles only
    counts = [0] * (ACE + 1)
    present = 0
    rest = cards & ~_PHOENIX_BIT
    while rest:
        low = rest & -rest
        r = RANK[low.bit_length() - 1]
        counts[r] += 1
        present |= 1 << r
        rest ^= low
    if not cards & _PHOENIX_BIT:
        return _read(cards, n, counts, present, None)
    if phoenix is not None:
        if not 2 <= phoenix <= ACE:
            return None  # never the Mahjong's 1, never above A (rules.md 3)
        return _read_with_phoenix(cards, n, counts, present, phoenix, phoenix_bombs)
    # Highest reading: the stand-in is a rank present (pair, triple, full house,
    # stairs) or next to one (a straight's gap or end); try from the top down.
    candidates = (present | present << 1 | present >> 1) & _RANKS_2_TO_A
    while candidates:
        p = candidates.bit_length() - 1
        combo = _read_with_phoenix(cards, n, counts, present, p, phoenix_bombs)
        if combo is not None:
            return combo
        candidates ^= 1 << p
    return None


def _single(card: Mask, top: Combo | None) -> Combo:
    if card == _PHOENIX_BIT:
        # rules.md 5.3: half a rank above the single it is played on, 1.5 when led
        rank = top.rank + 0.5 if top is not None and top.kind == Kind.SINGLE else 1.5
        return Combo(Kind.SINGLE, rank, 1, card)
    return Combo(Kind.SINGLE, RANK[card.bit_length() - 1], 1, card)


def _read_with_phoenix(
    cards: Mask, n: int, counts: list[int], present: int, p: int, phoenix_bombs: bool = False
) -> Combo | None:
    counts[p] += 1
    try:
        return _read(cards, n, counts, present | 1 << p, p, phoenix_bombs)
    finally:
        counts[p] -= 1


def _read(
    cards: Mask,
    n: int,
    counts: list[int],
    present: int,
    p: int | None,
    phoenix_bombs: bool = False,
) -> Combo | None:
    """Classify by rank counts (the Phoenix, if any, already counted at rank ``p``)."""
    bomb_ok = p is None or phoenix_bombs  # never the Phoenix in a bomb, but by house rule
    distinct = present.bit_count()
    low = (present & -present).bit_length() - 1
    high = present.bit_length() - 1
    if distinct == 1:
        if low < 2:
            return None
        if n == 2:
            return Combo(Kind.PAIR, low, 2, cards, p)
        if n == 3:
            return Combo(Kind.TRIPLE, low, 3, cards, p)
        if n == 4 and bomb_ok:
            return Combo(Kind.FOUR_OF_A_KIND, low, 4, cards, p)
        return None
    run = present >> low
    consecutive = run & (run + 1) == 0
    if distinct == n:
        if n < _MIN_STRAIGHT or not consecutive:
            return None
        real = cards & ~_PHOENIX_BIT
        if bomb_ok and low >= 2 and any(not real & ~suit for suit in SUIT_MASK):
            return Combo(Kind.STRAIGHT_FLUSH, high, n, cards, p)
        return Combo(Kind.STRAIGHT, high, n, cards, p)
    if n == 5 and distinct == 2:
        if counts[high] == 3:
            return Combo(Kind.FULL_HOUSE, high, 5, cards, p)
        if counts[low] == 3:
            return Combo(Kind.FULL_HOUSE, low, 5, cards, p)
        return None
    if (
        n == 2 * distinct
        and consecutive
        and low >= 2
        and all(counts[r] == 2 for r in range(low, high + 1))
    ):
        return Combo(Kind.STAIRS, high, n, cards, p)
    return None


CLASSIFIED: dict[int, Combo | None] = {}
"""``classify(mask)`` of the cards seen so far (read by hot paths before calling
:func:`classified`)."""
_CLASSIFIED_LIMIT = 1 << 17


def classified(mask: int) -> Combo | None:
    """``classify(mask)`` (the Phoenix at its highest reading), remembered in the bounded
    memo :data:`CLASSIFIED`: a combination of cards alone depends on nothing else."""
    try:
        return CLASSIFIED[mask]
    except KeyError:
        if len(CLASSIFIED) >= _CLASSIFIED_LIMIT:
            CLASSIFIED.clear()
        combo = CLASSIFIED[mask] = classify(mask)
        return combo


# --- beats ------------------------------------------------------------------


def beats(combo: Combo, top: Combo) -> bool:
    """Whether ``combo`` may be played on ``top`` (rules.md section 4).

    Nothing is played on the Dog (5.2: not even a bomb) and the Dog beats
    nothing. Nothing but a bomb beats the Dragon (a Phoenix single on it is
    ranked 15.5 by ``classify`` but does not beat it, 5.3).
    """
    if _is_dog(top) or _is_dog(combo):
        return False
    if combo.is_bomb:
        if not top.is_bomb:
            return True
        if combo.kind != top.kind:
            return combo.kind == Kind.STRAIGHT_FLUSH
        if combo.kind == Kind.STRAIGHT_FLUSH:
            return (combo.length, combo.rank) > (top.length, top.rank)
        return combo.rank > top.rank
    if top.is_bomb or combo.kind != top.kind or combo.length != top.length:
        return False
    if combo.kind == Kind.SINGLE and top.cards == _DRAGON_BIT:
        return False
    return combo.rank > top.rank


def _is_dog(combo: Combo) -> bool:
    return combo.kind == Kind.SINGLE and combo.cards == _DOG_BIT


# --- describe ---------------------------------------------------------------


def describe(combo: Combo) -> str:
    """The combination in a player's words: ``"pair of 9s (Phoenix as 9)"``."""
    kind, rank = combo.kind, int(combo.rank)
    phoenix = "" if combo.phoenix is None else f" (Phoenix as {rank_name(combo.phoenix)})"
    if kind == Kind.SINGLE:
        if combo.cards == _DOG_BIT:
            return "Dog"
        if combo.cards == _DRAGON_BIT:
            return "Dragon"
        if combo.cards == _MAHJONG_BIT:
            return "Mahjong"
        if combo.cards == _PHOENIX_BIT:
            if rank > 14:  # on the Dragon, which it never beats (rules 5.3): no rank to name
                return "single Phoenix"
            return f"single Phoenix (as {RANK_TOKENS.get(rank, str(rank))}½)"
        return f"single {rank_name(rank)}"
    if kind == Kind.PAIR:
        return f"pair of {rank_plural(rank)}{phoenix}"
    if kind == Kind.TRIPLE:
        return f"triple of {rank_plural(rank)}{phoenix}"
    if kind == Kind.STAIRS:
        ranks = range(rank - combo.length // 2 + 1, rank + 1)
        return "stairs " + "-".join(rank_name(r) for r in ranks) + phoenix
    if kind == Kind.FULL_HOUSE:
        rest = combo.cards & ~RANK_MASK[rank] & ~_PHOENIX_BIT
        pair = RANK[(rest & -rest).bit_length() - 1] if rest else combo.phoenix or 0
        return f"full house {rank_plural(rank)} over {rank_plural(pair)}{phoenix}"
    low = rank - combo.length + 1
    if kind == Kind.STRAIGHT:
        return f"straight {rank_name(low)} to {rank_name(rank)}{phoenix}"
    if kind == Kind.FOUR_OF_A_KIND:
        return f"bomb: four {rank_plural(rank)}"
    suit = SUIT[(combo.cards & -combo.cards).bit_length() - 1]
    return f"bomb: straight flush {rank_name(low)} to {rank_name(rank)} in {SUIT_NAMES[suit]}"


# --- searching a hand -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Hand:
    """Rank counts of a hand, computed once per search."""

    cards: Mask
    counts: tuple[int, ...]
    """Rank 0..14 -> cards of that rank held (1: the Mahjong; 0 unused)."""
    present: int
    """Rank bits of the ranks held (bit 1: the Mahjong)."""
    pairs: int
    """Rank bits of the ranks held at least twice."""
    phoenix: bool


def _profile(hand: Mask) -> _Hand:
    counts = [0, hand >> MAHJONG & 1]
    present = counts[1] << 1
    pairs = 0
    for r in range(2, ACE + 1):
        c = ((hand >> _shift(r)) & 15).bit_count()
        counts.append(c)
        if c:
            present |= 1 << r
            if c >= 2:
                pairs |= 1 << r
    return _Hand(hand, tuple(counts), present, pairs, bool(hand & _PHOENIX_BIT))


def _first_above(rank: float, floor: int) -> int:
    """The lowest rank >= ``floor`` that is higher than ``rank``."""
    return max(floor, int(rank) + 1)


def _singles(h: _Hand, top: Combo | None) -> Iterator[Combo]:
    """Singles that can be led (``top`` None; the Dog apart) or beat the single ``top``."""
    if top is not None and top.cards == _DRAGON_BIT:
        return  # only a bomb beats the Dragon
    above = -1.0 if top is None else top.rank
    if h.counts[MAHJONG_RANK] and above < MAHJONG_RANK:
        yield Combo(Kind.SINGLE, MAHJONG_RANK, 1, _MAHJONG_BIT)
    for r in range(_first_above(above, 2), ACE + 1):
        if h.counts[r]:
            yield Combo(Kind.SINGLE, r, 1, _take(h.cards, r, 1))
    if h.phoenix:
        yield _single(_PHOENIX_BIT, top)
    if h.cards & _DRAGON_BIT:
        yield Combo(Kind.SINGLE, DRAGON_RANK, 1, _DRAGON_BIT)


def _groups(h: _Hand, kind: Kind, size: int, above: float) -> Iterator[Combo]:
    """Pairs (``size`` 2) or triples (3) above ``above``: real first, then with the Phoenix."""
    for r in range(_first_above(above, 2), ACE + 1):
        c = h.counts[r]
        if c >= size:
            yield Combo(kind, r, size, _take(h.cards, r, size))
        if h.phoenix and c >= size - 1:
            yield Combo(kind, r, size, _take(h.cards, r, size - 1) | _PHOENIX_BIT, r)


def _full_houses(h: _Hand, above: float) -> Iterator[Combo]:
    """Full houses above ``above``, one per (triple rank, pair rank, Phoenix rank)."""
    counts, cards = h.counts, h.cards
    for t in range(_first_above(above, 2), ACE + 1):
        ct = counts[t]
        if ct < 2:
            continue
        for q in range(2, ACE + 1):
            cq = counts[q]
            if q == t or cq == 0:
                continue
            if ct >= 3 and cq >= 2:
                yield Combo(Kind.FULL_HOUSE, t, 5, _take(cards, t, 3) | _take(cards, q, 2))
            if h.phoenix and cq >= 2:
                both = _take(cards, t, 2) | _take(cards, q, 2) | _PHOENIX_BIT
                yield Combo(Kind.FULL_HOUSE, t, 5, both, t)
            if h.phoenix and ct >= 3:
                both = _take(cards, t, 3) | _take(cards, q, 1) | _PHOENIX_BIT
                yield Combo(Kind.FULL_HOUSE, t, 5, both, q)


def _straights(h: _Hand, length: int, above: float, keep: int = 0,
               phoenix_bombs: bool = False) -> Iterator[Combo]:
    """Non-bomb straights of ``length`` above ``above``, one per (window, Phoenix rank).

    A window the hand holds entirely is played without the Phoenix, choosing
    suits that are not all one (else it is a straight flush, listed with the
    bombs); if every choice is a flush and the hand holds the Phoenix, the
    Phoenix replaces the highest card other than rank ``keep``. A window
    missing one rank (not the Mahjong's 1) is completed by the Phoenix. Under
    ``phoenix_bombs`` (rules.md 9.1) a Phoenix straight whose real cards share a
    suit is a straight flush: other suits are chosen where the hand has them, else
    the window gives no straight (the bomb is listed with the bombs).
    """
    cards = h.cards
    for high in range(_first_above(above, length), ACE + 1):
        low = high - length + 1
        window = _span(low, high)
        missing = window & ~h.present
        if missing == 0:
            chosen = 0
            for r in range(low, high + 1):
                chosen |= _take(cards, r, 1)
            if low >= 2 and any(not chosen & ~suit for suit in SUIT_MASK):
                chosen = _break_flush(cards, chosen, low, high)
            if chosen:
                yield Combo(Kind.STRAIGHT, high, length, chosen)
            elif h.phoenix and not phoenix_bombs:  # (with the house rule: a bomb)
                p = high if high != keep else high - 1
                chosen = 0
                for r in range(low, high + 1):
                    if r != p:
                        chosen |= _take(cards, r, 1)
                yield Combo(Kind.STRAIGHT, high, length, chosen | _PHOENIX_BIT, p)
        elif h.phoenix and missing & (missing - 1) == 0 and missing != 1 << MAHJONG_RANK:
            p = missing.bit_length() - 1
            chosen = 0
            for r in range(low, high + 1):
                if r != p:
                    chosen |= _take(cards, r, 1)
            if phoenix_bombs and low >= 2 and any(not chosen & ~suit for suit in SUIT_MASK):
                chosen = _break_flush(cards, chosen, low, high)
                if not chosen:
                    continue  # only the straight flush the Phoenix completes
            yield Combo(Kind.STRAIGHT, high, length, chosen | _PHOENIX_BIT, p)


def _break_flush(hand: Mask, chosen: Mask, low: int, high: int) -> Mask:
    """``chosen`` (one card per rank, all one suit) with one card swapped for another suit's; 0 if
    the hand has no other suit in the window."""
    for r in range(low, high + 1):
        others = hand & RANK_MASK[r] & ~chosen
        if others:
            return chosen & ~RANK_MASK[r] | (others & -others)
    return 0


def _stairs(h: _Hand, length: int, above: float) -> Iterator[Combo]:
    """Stairs of ``length`` cards above ``above``: a window of ranks each held twice, or all but
    one twice and that one once, completed by the Phoenix."""
    cards = h.cards
    n_pairs = length // 2
    for high in range(_first_above(above, n_pairs + 1), ACE + 1):
        low = high - n_pairs + 1
        window = _span(low, high)
        if window & ~h.present:
            continue
        short = window & ~h.pairs
        if short == 0:
            chosen = 0
            for r in range(low, high + 1):
                chosen |= _take(cards, r, 2)
            yield Combo(Kind.STAIRS, high, length, chosen)
        elif h.phoenix and short & (short - 1) == 0:
            p = short.bit_length() - 1
            chosen = _PHOENIX_BIT
            for r in range(low, high + 1):
                chosen |= _take(cards, r, 1 if r == p else 2)
            yield Combo(Kind.STAIRS, high, length, chosen, p)


def bombs_in(hand: Mask, phoenix_bombs: bool = False) -> list[Combo]:
    """Every bomb in ``hand`` with its cards: fours of a kind by rank, then straight flushes by
    length, then highest card (so the weakest bomb first). A run of 7 of one suit gives the
    straight flushes of 5, 6 and 7 cards it contains.

    ``phoenix_bombs``: the house rule ``phoenix-in-bombs`` (rules.md 9.1); the bombs the
    Phoenix completes are listed too (:func:`_with_phoenix_bombs`), in the same order."""
    bombs = [
        Combo(Kind.FOUR_OF_A_KIND, r, 4, RANK_MASK[r])
        for r in range(2, ACE + 1)
        if hand & RANK_MASK[r] == RANK_MASK[r]
    ]
    if phoenix_bombs and hand & _PHOENIX_BIT:
        return _with_phoenix_bombs(hand, bombs)
    flushes: list[Combo] = []
    for suit in range(4):
        bits = hand & SUIT_MASK[suit]
        if bits.bit_count() < _MIN_STRAIGHT:
            continue
        run_low = 0  # lowest rank of the current run, 0 when none
        for r in range(2, ACE + 2):
            held = r <= ACE and bits >> (_shift(r) + suit) & 1
            if held and not run_low:
                run_low = r
            elif not held and run_low:
                _add_flushes(flushes, suit, run_low, r - 1)
                run_low = 0
    flushes.sort(key=lambda c: (c.length, c.rank, c.cards))
    return bombs + flushes


def _with_phoenix_bombs(hand: Mask, fours: list[Combo]) -> list[Combo]:
    """:func:`bombs_in` under ``phoenix-in-bombs`` for a hand holding the Phoenix: its real
    bombs and those the Phoenix completes (three of a rank and the Phoenix; a run of one
    suit, 5 cards or longer, missing one rank 2..A that the Phoenix stands for)."""
    fours = fours + [
        Combo(Kind.FOUR_OF_A_KIND, r, 4, hand & RANK_MASK[r] | _PHOENIX_BIT, r)
        for r in range(2, ACE + 1)
        if (hand & RANK_MASK[r]).bit_count() == 3
    ]
    fours.sort(key=lambda c: (c.rank, c.cards))
    flushes = [b for b in bombs_in(hand) if b.kind == Kind.STRAIGHT_FLUSH]
    for suit in range(4):
        held = [r for r in range(2, ACE + 1) if hand >> (_shift(r) + suit) & 1]
        if len(held) < _MIN_STRAIGHT - 1:
            continue
        for low in range(2, ACE - _MIN_STRAIGHT + 2):
            chosen = 0
            gap = 0
            for high in range(low, ACE + 1):
                if high in held:
                    chosen |= 1 << (_shift(high) + suit)
                elif gap:
                    break
                else:
                    gap = high
                if gap and high - low + 1 >= _MIN_STRAIGHT:
                    flushes.append(Combo(Kind.STRAIGHT_FLUSH, high, high - low + 1,
                                         chosen | _PHOENIX_BIT, gap))
    flushes.sort(key=lambda c: (c.length, c.rank, c.cards))
    return fours + flushes


def _add_flushes(out: list[Combo], suit: int, low: int, high: int) -> None:
    """Every straight flush inside the run ``low``..``high`` of ``suit``."""
    for start in range(low, high - _MIN_STRAIGHT + 2):
        chosen = 0
        for end in range(start, high + 1):
            chosen |= 1 << (_shift(end) + suit)
            if end - start + 1 >= _MIN_STRAIGHT:
                out.append(Combo(Kind.STRAIGHT_FLUSH, end, end - start + 1, chosen))


def _same_kind(h: _Hand, top: Combo, keep: int = 0,
               phoenix_bombs: bool = False) -> Iterator[Combo]:
    """Non-bombs of ``top``'s kind and length from the hand that rank above it."""
    kind = top.kind
    if kind == Kind.SINGLE:
        yield from _singles(h, top)
    elif kind == Kind.PAIR:
        yield from _groups(h, Kind.PAIR, 2, top.rank)
    elif kind == Kind.TRIPLE:
        yield from _groups(h, Kind.TRIPLE, 3, top.rank)
    elif kind == Kind.FULL_HOUSE:
        yield from _full_houses(h, top.rank)
    elif kind == Kind.STRAIGHT:
        yield from _straights(h, top.length, top.rank, keep, phoenix_bombs)
    elif kind == Kind.STAIRS:
        yield from _stairs(h, top.length, top.rank)


# --- the wish and legal plays ----------------------------------------------


def can_play_rank(hand: Mask, rank: int, top: Combo | None,
                  phoenix_bombs: bool = False) -> Combo | None:
    """A combination from ``hand`` holding a real card of ``rank`` that the seat may play on
    ``top`` (None: leading), or None: the wish test of rules.md 6.2.

    Leading: the single card of ``rank``. Following: a non-bomb of the top's kind and
    length above it (the Phoenix completing it where needed), else the weakest bomb
    containing a card of ``rank`` that beats the top (under ``phoenix_bombs``, the house
    rule ``phoenix-in-bombs``, also a bomb the Phoenix completes: rules.md 9.1). A
    non-bomb without the Phoenix is preferred to one with it, and any non-bomb to a
    bomb. None on the Dog, and when the hand holds no card of ``rank`` (the Phoenix
    standing for it does not count).
    """
    if not 2 <= rank <= ACE:
        return None
    own = hand & RANK_MASK[rank]
    if not own:
        return None
    if top is None:
        return Combo(Kind.SINGLE, rank, 1, own & -own)
    if _is_dog(top):
        return None
    if not top.is_bomb:
        with_phoenix = None
        for combo in _same_kind(_profile(hand), top, rank, phoenix_bombs):
            if combo.cards & own:
                if combo.cards & _PHOENIX_BIT == 0:
                    return combo
                with_phoenix = with_phoenix or combo
        if with_phoenix is not None:
            return with_phoenix
    for bomb in bombs_in(hand, phoenix_bombs):
        if bomb.cards & own and beats(bomb, top):
            return bomb
    return None


def legal_plays(hand: Mask, top: Combo | None, phoenix_bombs: bool = False) -> list[Combo]:
    """Every combination ``hand`` can lead (``top`` None) or play on ``top`` (bombs included).

    The wish is not applied (combine with ``can_play_rank``). Non-bombs are listed one
    per (kind, rank, length, Phoenix rank) with one choice of suits (the lowest card
    ids), full houses also per pair rank; the Phoenix completes straights and stairs
    only where the hand lacks a card (and replaces a card of a straight whose every
    choice of suits is a flush; under ``phoenix_bombs`` neither where the real cards
    would all share a suit: that is a straight flush), while pairs, triples and full
    houses are also offered with the Phoenix beside real ones. Every bomb is listed with
    its actual cards (under ``phoenix_bombs`` those the Phoenix completes too). The Dog,
    Mahjong, Phoenix and Dragon singles are included where legal. Empty on the Dog.
    """
    if top is not None and _is_dog(top):
        return []
    if top is not None and top.is_bomb:
        return [b for b in bombs_in(hand, phoenix_bombs) if beats(b, top)]
    h = _profile(hand)
    if top is not None:
        return [*_same_kind(h, top, 0, phoenix_bombs), *bombs_in(hand, phoenix_bombs)]
    plays = list(_singles(h, None))
    if hand & _DOG_BIT:
        plays.append(Combo(Kind.SINGLE, DOG_RANK, 1, _DOG_BIT))
    plays += _groups(h, Kind.PAIR, 2, 0)
    plays += _groups(h, Kind.TRIPLE, 3, 0)
    plays += _full_houses(h, 0)
    n = hand.bit_count()
    for length in range(4, min(n, 2 * (ACE - 1)) + 1, 2):
        plays += _stairs(h, length, 0)
    for length in range(_MIN_STRAIGHT, min(n, ACE) + 1):
        plays += _straights(h, length, 0, 0, phoenix_bombs)
    plays += bombs_in(hand, phoenix_bombs)
    return plays
