"""The 56 Tichu cards: log tokens, ranks, points, and hands as bitmasks.

A card is a small int (``Card``), and a set of cards (a hand, a play, a pile) is
an int bitmask with bit ``card`` set, so the replay can add, remove and test
cards with single integer operations. Ids follow the order of ranks, so sorting
ids sorts cards for display:

====  ==========================================
id    card
====  ==========================================
0     Dog
1     Mahjong (rank 1)
2-53  normal cards: ``2 + (rank - 2) * 4 + suit``; suits j, s, p, r
54    Phoenix
55    Dragon
====  ==========================================
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Card = int
"""A card id, 0..55."""

Mask = int
"""A set of cards, bit ``card`` set for each card in it."""

DOG: Card = 0
MAHJONG: Card = 1
PHOENIX: Card = 54
DRAGON: Card = 55

SUITS = ("j", "s", "p", "r")
SUIT_NAMES = ("Jade", "Sword", "Pagoda", "Star")

ACE = 14
"""The highest normal rank. Normal ranks are 2..14 (J=11, Q=12, K=13, A=14)."""

RANK_TOKENS: dict[int, str] = {r: str(r) for r in range(2, 11)} | {
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
"""Rank (2..14) -> its token in logs (``"2"``..``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``)."""

RANK_BY_TOKEN: dict[str, int] = {t: r for r, t in RANK_TOKENS.items()}

DOG_RANK = 0
MAHJONG_RANK = 1
DRAGON_RANK = 15
PHOENIX_RANK = -1
"""Placeholder in ``RANK`` for the Phoenix, whose rank depends on the play."""


def card_of(rank: int, suit: int) -> Card:
    """The normal card of ``rank`` (2..14) and ``suit`` (0..3)."""
    return 2 + (rank - 2) * 4 + suit


def _build_tokens() -> tuple[str, ...]:
    tokens = ["Dog", "Mahjong"]
    for rank in range(2, ACE + 1):
        tokens.extend(RANK_TOKENS[rank] + suit for suit in SUITS)
    tokens += ["Phoenix", "Dragon"]
    return tuple(tokens)


TOKENS: tuple[str, ...] = _build_tokens()
"""Card id -> log token (``"2j"``, ``"10s"``, ``"Ar"``, ``"Phoenix"`` ...)."""

CARD_BY_TOKEN: dict[str, Card] = {t: c for c, t in enumerate(TOKENS)}
"""Log token -> card id; the 56 tokens are exactly the deck."""

RANK: tuple[int, ...] = (
    (DOG_RANK, MAHJONG_RANK)
    + tuple(2 + (c - 2) // 4 for c in range(2, 54))
    + (PHOENIX_RANK, DRAGON_RANK)
)
"""Card id -> rank (Dog 0, Mahjong 1, 2..14, Phoenix -1, Dragon 15)."""

SUIT: tuple[int, ...] = (-1, -1) + tuple((c - 2) % 4 for c in range(2, 54)) + (-1, -1)
"""Card id -> suit 0..3, or -1 for the special cards."""

BIT: tuple[Mask, ...] = tuple(1 << c for c in range(56))
DECK: Mask = (1 << 56) - 1
SPECIALS: Mask = BIT[DOG] | BIT[MAHJONG] | BIT[PHOENIX] | BIT[DRAGON]

RANK_MASK: tuple[Mask, ...] = (BIT[DOG], BIT[MAHJONG]) + tuple(
    0b1111 << card_of(r, 0) for r in range(2, ACE + 1)
)
"""Rank 0..14 -> the cards of that rank (the four suits for 2..14)."""

SUIT_MASK: tuple[Mask, ...] = tuple(
    sum(BIT[card_of(r, s)] for r in range(2, ACE + 1)) for s in range(4)
)

_FIVES = RANK_MASK[5]
_TENS_AND_KINGS = RANK_MASK[10] | RANK_MASK[13]


def points(mask: Mask) -> int:
    """Card points in ``mask``: 5 = 5, 10 and K = 10, Dragon +25, Phoenix -25."""
    total = 5 * (mask & _FIVES).bit_count() + 10 * (mask & _TENS_AND_KINGS).bit_count()
    if mask >> DRAGON & 1:
        total += 25
    if mask >> PHOENIX & 1:
        total -= 25
    return total


def mask_of(cards: Iterable[Card]) -> Mask:
    """The mask holding ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def iter_cards(mask: Mask) -> Iterator[Card]:
    """The cards of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: Mask) -> list[Card]:
    """The cards of ``mask`` as a sorted list."""
    return list(iter_cards(mask))


def tokens_of(mask: Mask) -> list[str]:
    """Log tokens of the cards in ``mask``, in rank order."""
    return [TOKENS[c] for c in iter_cards(mask)]


def format_cards(mask: Mask) -> str:
    """Cards for a message, in rank order: ``"8s 8p Phoenix"``; ``"no cards"`` when empty."""
    return " ".join(tokens_of(mask)) or "no cards"


_RANK_WORDS = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}


def rank_name(rank: int) -> str:
    """A rank in words: ``"8"``, ``"Jack"``, ``"Mahjong"``, ``"Dragon"``."""
    if rank == MAHJONG_RANK:
        return "Mahjong"
    if rank == DOG_RANK:
        return "Dog"
    if rank == DRAGON_RANK:
        return "Dragon"
    return _RANK_WORDS.get(rank, str(rank))


def rank_plural(rank: int) -> str:
    """A rank as a plural for messages: ``"8s"``, ``"Jacks"``, ``"Aces"``."""
    word = _RANK_WORDS.get(rank)
    return word + "s" if word else f"{rank}s"
