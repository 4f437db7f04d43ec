"""An independent reading of the combinations, written from rules.md alone.

Plain and slow on purpose: it works on card tokens (``"8s"``, ``"Phoenix"``),
tries every rank the Phoenix could stand for, and searches the wish by
enumerating subsets of the hand. It shares no code with ``tichu_analyze.core.combos``;
``tests/test_combo_oracle.py`` compares the two.

Sections of ../shared/spec/rules.md: 3 (combinations), 4 (beating),
5 (Mahjong, Dog, Phoenix, Dragon), 6.2 (the wish search), 9.1 (phoenix-in-bombs).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

SPECIALS = ("Dog", "Mahjong", "Phoenix", "Dragon")
RANK_WORDS = {"J": 11, "Q": 12, "K": 13, "A": 14} | {str(r): r for r in range(2, 11)}
SUIT_LETTERS = "jspr"
ALL_TOKENS: tuple[str, ...] = (
    "Dog",
    "Mahjong",
    *(w + s for w in RANK_WORDS for s in SUIT_LETTERS),
    "Phoenix",
    "Dragon",
)

# Kinds, by the names of the spec's table (section 3).
SINGLE, PAIR, STAIRS, TRIPLE = "single", "pair", "stairs", "triple"
FULL_HOUSE, STRAIGHT, FOUR, STRAIGHT_FLUSH = "full house", "straight", "four", "straight flush"
BOMBS = (FOUR, STRAIGHT_FLUSH)


class Play(NamedTuple):
    """One reading of a set of cards: its kind, rank, number of cards, the Phoenix's rank."""

    kind: str
    rank: float
    length: int
    phoenix: int | None = None  # the rank the Phoenix stands for in a multi-card play
    phoenix_single: bool = False


def rank_of(token: str) -> int | None:
    """The rank 2..14 of a normal card, 1 for the Mahjong, None for the others."""
    if token == "Mahjong":
        return 1
    if token in SPECIALS:
        return None
    return RANK_WORDS[token[:-1]]


def suit_of(token: str) -> str | None:
    return None if token in SPECIALS else token[-1]


def _consecutive(ranks: list[int]) -> bool:
    ranks = sorted(ranks)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False))


def _shape(
    ranks: list[int], real_suits: list[str | None], with_phoenix: bool, phoenix_bombs: bool
) -> tuple[str, int] | None:
    """Kind and rank of 2+ cards given as ranks (the Phoenix already replaced by a rank).

    ``real_suits``: the suits of the cards other than the Phoenix (None for the Mahjong).
    """
    n = len(ranks)
    counts = Counter(ranks)
    bomb_allowed = not with_phoenix or phoenix_bombs  # section 3 / 9.1
    if len(counts) == 1:
        (r,) = counts
        if n == 2:
            return PAIR, r
        if n == 3:
            return TRIPLE, r
        if n == 4 and bomb_allowed:
            return FOUR, r
        return None
    if n == 5 and sorted(counts.values()) == [2, 3]:
        return FULL_HOUSE, max(counts, key=lambda k: counts[k])
    if n >= 4 and n % 2 == 0 and set(counts.values()) == {2} and _consecutive(list(counts)):
        return STAIRS, max(counts)
    if n >= 5 and set(counts.values()) == {1} and _consecutive(ranks):
        one_suit = None not in real_suits and len(set(real_suits)) == 1
        if one_suit and bomb_allowed:
            return STRAIGHT_FLUSH, max(ranks)
        return STRAIGHT, max(ranks)
    return None


def readings(
    tokens: Iterable[str], top: Play | None = None, phoenix_bombs: bool = False
) -> list[Play]:
    """Every combination the cards can be read as (one per rank the Phoenix may stand for)."""
    cards = list(tokens)
    n = len(cards)
    if n == 0:
        return []
    if n == 1:
        (t,) = cards
        if t == "Dog":
            return [Play(SINGLE, 0, 1)]
        if t == "Dragon":
            return [Play(SINGLE, 15, 1)]
        if t == "Phoenix":
            # 5.3: half a rank above the single it is played on; led (or on the Mahjong) 1.5
            if top is not None and top.kind == SINGLE:
                return [Play(SINGLE, top.rank + 0.5, 1, None, True)]
            return [Play(SINGLE, 1.5, 1, None, True)]
        r = rank_of(t)
        assert r is not None
        return [Play(SINGLE, r, 1)]
    if "Dog" in cards or "Dragon" in cards:  # only as singles
        return []
    real = [t for t in cards if t != "Phoenix"]
    real_ranks = [rank_of(t) for t in real]
    real_suits = [suit_of(t) for t in real]
    if "Phoenix" not in cards:
        shape = _shape([r for r in real_ranks if r is not None], real_suits, False, phoenix_bombs)
        return [] if shape is None else [Play(shape[0], shape[1], n)]
    out = []
    for v in range(2, 15):  # never the Mahjong's 1, never above the Ace
        ranks = [r for r in real_ranks if r is not None] + [v]
        shape = _shape(ranks, real_suits, True, phoenix_bombs)
        if shape is not None:
            out.append(Play(shape[0], shape[1], n, v))
    return out


def strength(play: Play) -> tuple[int, int, float]:
    """Sort key: bombs above non-bombs, straight flushes above fours, then length, then rank."""
    if play.kind == STRAIGHT_FLUSH:
        return (2, play.length, play.rank)
    if play.kind == FOUR:
        return (1, 0, play.rank)
    return (0, 0, play.rank)


def classify(
    tokens: Iterable[str],
    phoenix: int | None = None,
    top: Play | None = None,
    phoenix_bombs: bool = False,
) -> Play | None:
    """The combination of the cards: the ``phoenix`` reading if given, else the highest."""
    cards = list(tokens)
    options = readings(cards, top, phoenix_bombs)
    if phoenix is not None and len(cards) > 1 and "Phoenix" in cards:
        options = [p for p in options if p.phoenix == phoenix]
    if not options:
        return None
    return max(options, key=strength)


def _is_dragon(play: Play) -> bool:
    return play.kind == SINGLE and play.rank == 15 and not play.phoenix_single


def beats(play: Play, top: Play) -> bool:
    """Whether ``play`` may be played on ``top`` (section 4; 5.2 the Dog; 5.3/5.4)."""
    dog_top = top.kind == SINGLE and top.rank == 0
    dog_play = play.kind == SINGLE and play.rank == 0
    if dog_top or dog_play:
        return False  # nothing on the Dog, not even a bomb; the Dog only as a lead
    if play.kind in BOMBS:
        if top.kind not in BOMBS:
            return True
        return strength(play) > strength(top)
    if top.kind in BOMBS:
        return False
    if play.kind != top.kind or play.length != top.length:
        return False
    if play.phoenix_single and top.rank == 15:
        return False  # never the Dragon
    if _is_dragon(play):
        return not _is_dragon(top)  # 5.4: beats every single (even a Phoenix put on it)
    return play.rank > top.rank


def subsets(tokens: list[str], sizes: Iterable[int]) -> Iterator[tuple[str, ...]]:
    for k in sizes:
        yield from combinations(tokens, k)


def legal(cards: Iterable[str], top: Play | None, phoenix_bombs: bool = False) -> list[Play]:
    """The readings of ``cards`` that may be led (``top`` None) or played on ``top``."""
    options = readings(cards, top, phoenix_bombs)
    if top is None:
        return options
    return [p for p in options if beats(p, top)]


def _bomb_candidates(hand: list[str], phoenix_bombs: bool) -> Iterator[tuple[str, ...]]:
    """Every set of cards that could be a bomb: any four, or 5+ cards of one suit (+ Phoenix)."""
    yield from combinations(hand, 4)
    for s in SUIT_LETTERS:
        pool = [t for t in hand if suit_of(t) == s]
        if phoenix_bombs and "Phoenix" in hand:
            pool.append("Phoenix")
        yield from subsets(pool, range(5, len(pool) + 1))


def can_fulfil_wish(
    hand: Iterable[str], wish: int, top: Play | None, phoenix_bombs: bool = False
) -> bool:
    """6.2: does the hand hold a real card of ``wish`` and can it legally play it now?"""
    return _can_fulfil_wish(frozenset(hand), wish, top, phoenix_bombs)


@lru_cache(maxsize=4096)
def _can_fulfil_wish(hand: frozenset[str], wish: int, top: Play | None,
                     phoenix_bombs: bool) -> bool:
    cards = sorted(hand)
    if not any(rank_of(t) == wish for t in cards):
        return False  # the Phoenix alone never binds
    if top is None:
        return True  # leading: the single card always qualifies
    candidates: Iterator[tuple[str, ...]] = _bomb_candidates(cards, phoenix_bombs)
    if top.kind not in BOMBS:
        candidates = _chain(combinations(cards, top.length), candidates)
    for subset in candidates:
        if any(rank_of(t) == wish for t in subset) and legal(subset, top, phoenix_bombs):
            return True
    return False


def _chain(*its: Iterable[tuple[str, ...]]) -> Iterator[tuple[str, ...]]:
    for it in its:
        yield from it


def all_plays(
    hand: Iterable[str], top: Play | None, phoenix_bombs: bool = False
) -> list[tuple[tuple[str, ...], Play]]:
    """Every (cards, reading) the hand may lead or play on ``top``: all subsets (small hands)."""
    cards = list(hand)
    out = []
    for subset in subsets(cards, range(1, len(cards) + 1)):
        for p in legal(subset, top, phoenix_bombs):
            out.append((subset, p))
    return out
