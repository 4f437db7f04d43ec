"""Combinations: classify, beats, describe, the wish test and legal plays (rules.md 3-6)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tichu_analyze.core.cards import CARD_BY_TOKEN, PHOENIX, RANK_MASK, Mask, cards_of, mask_of
from tichu_analyze.core.combos import (
    Combo,
    Kind,
    beats,
    bombs_in,
    can_play_rank,
    classify,
    describe,
    legal_plays,
)

S, P, ST, T, FH, STR, FOUR, SF = (
    Kind.SINGLE,
    Kind.PAIR,
    Kind.STAIRS,
    Kind.TRIPLE,
    Kind.FULL_HOUSE,
    Kind.STRAIGHT,
    Kind.FOUR_OF_A_KIND,
    Kind.STRAIGHT_FLUSH,
)


def m(tokens: str) -> Mask:
    """The mask of space-separated card tokens: ``m("8s 8p Phoenix")``."""
    return mask_of(CARD_BY_TOKEN[t] for t in tokens.split())


def c(tokens: str, phoenix: int | None = None, top: Combo | None = None) -> Combo:
    """The combination of ``tokens``, which must form one."""
    combo = classify(m(tokens), phoenix, top)
    assert combo is not None, tokens
    return combo


def key(combo: Combo | None) -> tuple[Kind, float, int, int | None] | None:
    return None if combo is None else (combo.kind, combo.rank, combo.length, combo.phoenix)


# --- classify ---------------------------------------------------------------

CLASSIFY = [
    # singles, special cards
    ("7s", None, (S, 7, 1, None)),
    ("Dog", None, (S, 0, 1, None)),
    ("Mahjong", None, (S, 1, 1, None)),
    ("Dragon", None, (S, 15, 1, None)),
    ("Phoenix", None, (S, 1.5, 1, None)),
    ("Phoenix", 9, (S, 1.5, 1, None)),  # field ignored on the Phoenix single
    # the Dog and the Dragon in nothing but a single
    ("Dog 2j", None, None),
    ("Dog Phoenix", None, None),
    ("Dragon Phoenix", None, None),
    ("Dragon Ar", None, None),
    ("10j Jj Qs Kp Dragon", None, None),
    ("Dog 2j 3s 4p 5r", None, None),
    # the Mahjong: a single or the bottom of a straight
    ("Mahjong 2j", None, None),
    ("Mahjong Phoenix", None, None),  # the Phoenix is never the Mahjong's 1
    ("Mahjong 2j 3s 4p 5r", None, (STR, 5, 5, None)),
    ("Mahjong 2j 3j 4j 5j", None, (STR, 5, 5, None)),  # never a straight flush
    ("Mahjong 2j 3s 4p", None, None),
    ("Mahjong 3s 4p 5r 6j", None, None),
    # pairs, triples
    ("8s 8p", None, (P, 8, 2, None)),
    ("8s 9p", None, None),
    ("8s Phoenix", None, (P, 8, 2, 8)),
    ("Ar Phoenix", None, (P, 14, 2, 14)),
    ("8s Phoenix", 8, (P, 8, 2, 8)),
    ("8s Phoenix", 9, None),  # the phoenix field makes no combination
    ("8s 8p", 9, (P, 8, 2, None)),  # field ignored without the Phoenix
    ("8s 8p 8r", None, (T, 8, 3, None)),
    ("8s 8p Phoenix", None, (T, 8, 3, 8)),
    ("8s 8p Phoenix", 8, (T, 8, 3, 8)),
    ("8s 8p Phoenix", 9, None),
    ("8s 8p Phoenix", 1, None),
    ("8s 8p Phoenix", 15, None),
    ("8s 8p 9r", None, None),
    # bombs: four of a kind, never with the Phoenix
    ("8j 8s 8p 8r", None, (FOUR, 8, 4, None)),
    ("5j 5s 5p Phoenix", None, None),
    ("5j 5s 5p Phoenix", 5, None),
    ("8j 8s 8p 8r Phoenix", None, None),
    ("8j 8s 8p 8r 9j", None, None),
    # full houses
    ("Kj Ks Kp 5p 5s", None, (FH, 13, 5, None)),
    ("5p 5s 5r Kj Ks", None, (FH, 5, 5, None)),
    ("Kj Ks Phoenix 5p 5s", None, (FH, 13, 5, 13)),  # the higher triple
    ("Kj Ks Phoenix 5p 5s", 13, (FH, 13, 5, 13)),
    ("Kj Ks Phoenix 5p 5s", 5, (FH, 5, 5, 5)),
    ("Kj Ks Phoenix 5p 5s", 9, None),
    ("Kj Ks Kp Phoenix 5s", None, (FH, 13, 5, 5)),  # Phoenix in the pair
    ("Kj Ks Kp 5s Phoenix", 13, None),  # four Kings and a 5
    ("2j 2s 2p Phoenix Ar", None, (FH, 2, 5, 14)),
    ("Kj Ks Kp Kr 5s", None, None),
    ("Kj Ks Kp 5s 6s", None, None),
    ("Kj Ks 5p 5s 6s", None, None),
    ("Kj Ks 5p 6s Phoenix", None, None),
    # stairs
    ("5j 5s 6j 6s", None, (ST, 6, 4, None)),
    ("5j 5s 6j 6s 7j 7s", None, (ST, 7, 6, None)),
    ("5j 5s 7j 7s", None, None),  # not consecutive
    ("5j 5s 6j 6s 8j 8s", None, None),
    ("5j 5s 6j 6s 6p", None, (FH, 6, 5, None)),
    ("5j 5s 6j 6s 6p 6r", None, None),
    ("5j 5s 5p 6j 6s 6p", None, None),  # two triples are no stairs
    ("5j 5s 6j Phoenix", None, (ST, 6, 4, 6)),
    ("5j Phoenix 6j 6s", None, (ST, 6, 4, 5)),
    ("5j 5s 6j 7j 7s Phoenix", None, (ST, 7, 6, 6)),  # the Phoenix in the middle pair
    ("5j 5s 6j 6s 7j Phoenix", None, (ST, 7, 6, 7)),
    ("5j 5s 6j 6s 7j Phoenix", 6, None),
    ("5j 5s 7j 7s Phoenix", None, (FH, 7, 5, 7)),  # a gap of a pair: full house, not stairs
    ("5j 5s 7j 7s 8j Phoenix", None, None),
    ("Kj Ks Aj As", None, (ST, 14, 4, None)),
    ("Kj Ks Aj Phoenix", None, (ST, 14, 4, 14)),
    # straights and the Phoenix at each position
    ("3j 4s 5p 6r 7j", None, (STR, 7, 5, None)),
    ("3j 4s 5p 6r 8j", None, None),
    ("3j 4s 5p 6r", None, None),
    ("Phoenix 3j 4s 5p 6r", None, (STR, 7, 5, 7)),  # extends the top
    ("Phoenix 3j 4s 5p 6r", 2, (STR, 6, 5, 2)),  # or, by the field, the bottom
    ("Phoenix 3j 4s 5p 6r", 5, None),
    ("Phoenix 3j 5p 6r 7j", None, (STR, 7, 5, 4)),  # fills the gap
    ("Phoenix 3j 4s 6r 7j", None, (STR, 7, 5, 5)),
    ("Phoenix 3j 5s 6r 8j", None, None),  # two gaps
    ("Phoenix 2j 3s 4p 5r", None, (STR, 6, 5, 6)),
    ("Mahjong 2j 3s 4p Phoenix", None, (STR, 5, 5, 5)),  # never the Mahjong's 1
    ("Mahjong Phoenix 3s 4p 5r", None, (STR, 5, 5, 2)),
    ("Mahjong 3s 4p 5r Phoenix", None, (STR, 5, 5, 2)),
    ("Mahjong 3s 4p 5r Phoenix", 6, None),
    ("Jj Qs Kp Ar Phoenix", None, (STR, 14, 5, 10)),  # never above A
    ("Jj Qs Kp Ar Phoenix", 14, None),
    ("10j Jj Qs Kp Ar", None, (STR, 14, 5, None)),
    ("10j Jj Qs Kp Ar Phoenix", None, (STR, 14, 6, 9)),
    (
        "Mahjong 2j 3s 4p 5r 6j 7s 8p 9r 10j Jj Qs Kp Ar",
        None,
        (STR, 14, 14, None),
    ),
    ("Mahjong 2j 3s 4p 5r 6j 7s 8p 9r 10j Jj Qs Kp Ar Phoenix", None, None),
    ("Mahjong 2j 3s 4p 5r 6j 7s 8p 9r 10j Jj Qs Kp Phoenix", None, (STR, 14, 14, 14)),
    # straight flushes: one suit, never with the Mahjong or the Phoenix
    ("3j 4j 5j 6j 7j", None, (SF, 7, 5, None)),
    ("3j 4j 5j 6j 7j 8j 9j", None, (SF, 9, 7, None)),
    ("3j 4j 5j 6j 7s", None, (STR, 7, 5, None)),
    ("3j 4j 5j 6j Phoenix", None, (STR, 7, 5, 7)),
    ("3j 4j 5j 6j 7j Phoenix", None, (STR, 8, 6, 8)),
    ("3j 4j 6j 7j Phoenix", None, (STR, 7, 5, 5)),
    ("10r Jr Qr Kr Ar", None, (SF, 14, 5, None)),
    ("3j 4j 5j 6j 8j", None, None),
    # nothing
    ("3j 3s 4p", None, None),
    ("3j 5s", None, None),
]


@pytest.mark.parametrize(("tokens", "phoenix", "expected"), CLASSIFY)
def test_classify(
    tokens: str, phoenix: int | None, expected: tuple[Kind, float, int, int | None] | None
) -> None:
    combo = classify(m(tokens), phoenix)
    assert key(combo) == expected
    if combo is not None:
        assert combo.cards == m(tokens)


@pytest.mark.parametrize(
    ("top", "rank"),
    [
        ("10s", 10.5),
        ("As", 14.5),
        ("2s", 2.5),
        ("Mahjong", 1.5),
        ("Dragon", 15.5),  # a rank, but beats() refuses it on the Dragon
        ("9j 9s", 1.5),  # not a single: as if led
        ("8j 8s 8p 8r", 1.5),
    ],
)
def test_phoenix_single_rank(top: str, rank: float) -> None:
    assert c("Phoenix", top=c(top)).rank == rank


def test_classify_rejects_empty_and_out_of_deck() -> None:
    assert classify(0) is None
    assert classify(1 << 56) is None


# --- beats ------------------------------------------------------------------

PHOENIX_ON_A = c("Phoenix", top=c("As"))
PHOENIX_LED = c("Phoenix")
PHOENIX_ON_10 = c("Phoenix", top=c("10s"))

BEATS = [
    # 4.1 same type, same length, higher
    (c("9s"), c("8s"), True),
    (c("8p"), c("8s"), False),
    (c("7p"), c("8s"), False),
    (c("9s 9p"), c("8s 8j"), True),
    (c("9s Phoenix"), c("8s 8j"), True),
    (c("8p Phoenix"), c("8s 8j"), False),
    (c("9s 9p"), c("8s"), False),  # other type
    (c("9j 9s 10j 10s"), c("5j 5s 6j 6s 7j 7s"), False),  # stairs of other length
    (c("9j 9s 10j 10s Jj Js"), c("5j 5s 6j 6s 7j 7s"), True),
    (c("4j 5s 6p 7r 8j 9s"), c("3j 4s 5p 6r 7j"), False),  # straight of other length
    (c("4j 5s 6p 7r 8j"), c("3j 4s 5p 6r 7j"), True),
    (c("4j 5s 6p 7r 8j"), c("Mahjong 2j 3s 4p 5r"), True),
    (c("2j 2s 2p Ar Aj"), c("Kj Ks Phoenix 5p 5s"), False),  # the triple decides
    (c("Aj As Ap 2r 2j"), c("Kj Ks Phoenix 5p 5s"), True),
    (c("Kj Ks Kp"), c("Qj Qs Phoenix"), True),
    (c("9s 9p"), c("8s 8j 8p"), False),
    # 5.3/5.4 the Phoenix and the Dragon
    (PHOENIX_ON_A, c("As"), True),
    (c("Phoenix", top=c("Dragon")), c("Dragon"), False),
    (c("Dragon"), PHOENIX_ON_A, True),
    (c("Dragon"), c("As"), True),
    (c("As"), c("Dragon"), False),
    (c("2s"), PHOENIX_LED, True),
    (c("Mahjong"), PHOENIX_LED, False),
    (c("Phoenix", top=c("Mahjong")), c("Mahjong"), True),
    (c("10j"), PHOENIX_ON_10, False),
    (c("Jj"), PHOENIX_ON_10, True),
    # 5.2 the Dog: nothing on it, it beats nothing
    (c("2s"), c("Dog"), False),
    (c("Dragon"), c("Dog"), False),
    (c("8j 8s 8p 8r"), c("Dog"), False),
    (c("Dog"), PHOENIX_LED, False),
    (c("Dog"), c("Mahjong"), False),
    # 4.2 bombs
    (c("2j 2s 2p 2r"), c("Dragon"), True),
    (c("2j 2s 2p 2r"), c("10j Jj Qs Kp Ar"), True),
    (c("2j 2s 2p 2r"), c("Aj As Ap Kr Kj"), True),
    (c("3j 3s 3p 3r"), c("2j 2s 2p 2r"), True),
    (c("2j 2s 2p 2r"), c("3j 3s 3p 3r"), False),
    (c("2j 3j 4j 5j 6j"), c("Aj As Ap Ar"), True),  # straight flush beats any four
    (c("Aj As Ap Ar"), c("2j 3j 4j 5j 6j"), False),
    (c("2j 3j 4j 5j 6j 7j"), c("9s 10s Js Qs Ks"), True),  # longer beats shorter
    (c("9s 10s Js Qs Ks"), c("2j 3j 4j 5j 6j 7j"), False),
    (c("3p 4p 5p 6p 7p"), c("2j 3j 4j 5j 6j"), True),  # same length: higher
    (c("2p 3p 4p 5p 6p"), c("2j 3j 4j 5j 6j"), False),
    (c("9s 10s Js Qs Ks"), c("2j 2s 2p 2r"), True),
    (c("Dragon"), c("2j 2s 2p 2r"), False),  # no non-bomb on a bomb
    (c("As Ap"), c("2j 2s 2p 2r"), False),
]


@pytest.mark.parametrize(("combo", "top", "expected"), BEATS, ids=lambda x: str(x)[:30])
def test_beats(combo: Combo, top: Combo, expected: bool) -> None:
    assert beats(combo, top) is expected


# --- describe ---------------------------------------------------------------

DESCRIBE = [
    (c("7s"), "single 7"),
    (c("Qs"), "single Queen"),
    (PHOENIX_ON_10, "single Phoenix (as 10½)"),
    (PHOENIX_ON_A, "single Phoenix (as A½)"),
    (PHOENIX_LED, "single Phoenix (as 1½)"),
    (c("Dog"), "Dog"),
    (c("Dragon"), "Dragon"),
    (c("Mahjong"), "Mahjong"),
    (c("9s 9p"), "pair of 9s"),
    (c("9s Phoenix"), "pair of 9s (Phoenix as 9)"),
    (c("Kj Phoenix"), "pair of Kings (Phoenix as King)"),
    (c("7j 7s 8j 8s 9j 9s"), "stairs 7-8-9"),
    (c("7j 7s 8j Phoenix"), "stairs 7-8 (Phoenix as 8)"),
    (c("Qj Qs Qp"), "triple of Queens"),
    (c("Kj Ks Kp 5p 5s"), "full house Kings over 5s"),
    (c("Kj Ks Phoenix 5p 5s"), "full house Kings over 5s (Phoenix as King)"),
    (c("Kj Ks Kp Phoenix 5s"), "full house Kings over 5s (Phoenix as 5)"),
    (c("3j 4s 5p 6r 7j"), "straight 3 to 7"),
    (c("Mahjong 2j 3s 4p 5r"), "straight Mahjong to 5"),
    (c("Mahjong 2j 3s 4p Phoenix"), "straight Mahjong to 5 (Phoenix as 5)"),
    (c("10j Jj Qs Kp Ar"), "straight 10 to Ace"),
    (c("8j 8s 8p 8r"), "bomb: four 8s"),
    (c("3j 4j 5j 6j 7j 8j"), "bomb: straight flush 3 to 8 in Jade"),
]


@pytest.mark.parametrize(("combo", "text"), DESCRIBE, ids=[t for _, t in DESCRIBE])
def test_describe(combo: Combo, text: str) -> None:
    assert describe(combo) == text


# --- can_play_rank: the wish (rules.md 6.2) ---------------------------------

CAN_PLAY = [
    # leading: the single always qualifies
    ("8s 9j", 8, None, (S, 8, 1, None)),
    ("9j Phoenix", 8, None, None),  # the Phoenix alone never binds
    ("8j 8s 8p 8r", 8, None, (S, 8, 1, None)),
    # singles
    ("8s 3j", 8, "7j", (S, 8, 1, None)),
    ("8s 3j", 8, "8j", None),
    ("8s 3j", 8, "Aj", None),
    ("2s", 2, "Phoenix", (S, 2, 1, None)),  # the Phoenix led is 1½
    ("As", 14, "Phoenix@As", None),  # a Phoenix on an Ace is above it
    ("As Dragon", 14, "Kj", (S, 14, 1, None)),
    ("Aj As Ap Ar", 14, "Dragon", (FOUR, 14, 4, None)),
    ("As", 14, "Dragon", None),
    ("8s", 8, "Dog", None),
    ("8j 8s 8p 8r", 8, "Dog", None),
    # pairs and triples, the Phoenix completing them
    ("8s Phoenix 3j", 8, "7j 7s", (P, 8, 2, 8)),
    ("8s 8p Phoenix", 8, "7j 7s", (P, 8, 2, None)),  # real pair preferred
    ("8s 3j", 8, "7j 7s", None),
    ("8s Phoenix", 8, "9j 9s", None),
    ("8s 8p Phoenix", 8, "7j 7s 7p", (T, 8, 3, 8)),
    ("8s Phoenix 9j 9s", 8, "7j 7s 7p", None),  # 9-9-Phoenix has no 8
    # full houses: the rank as the triple or as the pair
    ("Kj Ks Kp 9j 9s 3p", 9, "5j 5s 5p 2j 2s", (FH, 13, 5, None)),
    ("Kj Ks Kp 9j Phoenix", 9, "5j 5s 5p 2j 2s", (FH, 13, 5, 9)),
    ("Kj Ks 9j 9s Phoenix", 9, "5j 5s 5p 2j 2s", (FH, 9, 5, 9)),  # the weaker one first
    ("Kj Ks 9j 9s Phoenix", 9, "Jj Js Jp 2j 2s", (FH, 13, 5, 13)),
    ("9j 9s 9p 3j 3s", 9, "5j 5s 5p 2j 2s", (FH, 9, 5, None)),
    ("9j 9s Phoenix 3j 3s", 9, "5j 5s 5p 2j 2s", (FH, 9, 5, 9)),
    ("Kj Ks Kp 9j 3s", 9, "5j 5s 5p 2j 2s", None),
    ("4j 4s 4p 9j 9s", 9, "5j 5s 5p 2j 2s", None),  # 9s over 4s has no triple of 9
    ("4j 4s 4p 9j 9s 9p", 9, "5j 5s 5p 2j 2s", (FH, 9, 5, None)),
    # straights of exactly the top's length, through the rank
    ("3j 4s 5p 6r 7j 8s", 4, "2j 3s 4p 5r 6j", (STR, 7, 5, None)),
    ("3j 4s 5p 6r 7j 8s 9p", 3, "3p 4p 5s 6j 7s", None),  # no window through 3 above 7
    ("3j 4s 5p 6r 7j", 5, "2j 3s 4p 5r 6j 7s", None),  # too short
    ("3j 4s 5p 6r 7j 9s", 5, "2j 3s 4p 5r 6j 7s", None),
    ("3j 4s 5p 6r 7j 9s Phoenix", 5, "2j 3s 4p 5r 6j 7s", (STR, 8, 6, 8)),
    ("3j 4s 6r 7j Phoenix", 3, "2j 3s 4p 5r 6j", (STR, 7, 5, 5)),
    ("Mahjong 2j 3s 4p 5r 6j", 2, "Mahjong 2p 3p 4j 5j", (STR, 6, 5, None)),
    ("Mahjong 2j 3s 4p 5r", 2, "Mahjong 2p 3p 4j 5j", None),
    # a straight whose only suits are a flush: the Phoenix makes it a non-bomb
    ("3j 4j 5j 6j 7j Phoenix", 7, "2s 3s 4p 5r 6j", (STR, 7, 5, 6)),
    ("3j 4j 5j 6j 7j", 7, "2s 3s 4p 5r 6r", (SF, 7, 5, None)),
    # stairs of exactly the top's length, through the rank
    ("5j 5s 6j 6s 7j 7s", 7, "3j 3s 4j 4s", (ST, 7, 4, None)),
    ("5j 5s 6j 6s 7j", 7, "3j 3s 4j 4s", None),
    ("5j 5s 6j 6s 7j Phoenix", 7, "3j 3s 4j 4s", (ST, 7, 4, 7)),
    ("5j 5s 6j 7j 7s Phoenix", 7, "3j 3s 4j 4s 5p 5r", (ST, 7, 6, 6)),
    ("5j 5s 7j 7s Phoenix", 7, "3j 3s 4j 4s 5p 5r", None),
    ("5j 5s 6j 6s 7j 7s", 5, "3j 3s 4j 4s 5p 5r", (ST, 7, 6, None)),
    ("5j 5s 6j 6s 7j 7s", 5, "8j 8s 9j 9s 10p 10r", None),
    # bombs containing the rank
    ("8j 8s 8p 8r 3j", 8, "Aj As", (FOUR, 8, 4, None)),
    ("8j 8s 8p 8r", 8, "7j 7s", (P, 8, 2, None)),  # a non-bomb preferred
    ("8j 8s 8p 8r", 8, "9j 9s 9p 9r", None),  # nothing on a higher bomb
    ("8j 8s 8p 8r", 8, "2j 3j 4j 5j 6j", None),
    ("8j 8s 8p 8r", 8, "2j 2s 2p 2r", (FOUR, 8, 4, None)),
    ("3j 4j 5j 6j 7j", 5, "9j 9s 9p 9r", (SF, 7, 5, None)),
    ("3j 4j 5j 6j 7j 5s", 5, "9j 9s 9p 9r", (SF, 7, 5, None)),
    ("3j 4j 5j 6j 7j 9s", 9, "2j 2s 2p 2r", None),  # the 9 is not in the flush
    ("3j 4j 6j 7j 8j 5s", 5, "9j 9s 9p 9r", None),
    ("3j 4j 5j 6j 7j 8j", 3, "4s 5s 6s 7s 8s", (SF, 8, 6, None)),  # longer
    ("3j 4j 5j 6j 7j 8j", 8, "4s 5s 6s 7s 8s 9s", None),
    ("4j 5j 6j 7j 8j 9j", 9, "3s 4s 5s 6s 7s 8s", (SF, 9, 6, None)),
    ("8j 8s 8p 8r 9j 10j Jj Qj", 8, "Aj As Ap Ar", (SF, 12, 5, None)),
]


def _top(spec: str | None) -> Combo | None:
    if spec is None:
        return None
    if spec.startswith("Phoenix@"):
        return c("Phoenix", top=c(spec.removeprefix("Phoenix@")))
    return c(spec)


@pytest.mark.parametrize(("hand", "rank", "top", "expected"), CAN_PLAY)
def test_can_play_rank(
    hand: str, rank: int, top: str | None, expected: tuple[Kind, float, int, int | None] | None
) -> None:
    top_combo = _top(top)
    combo = can_play_rank(m(hand), rank, top_combo)
    assert key(combo) == expected
    if combo is not None:
        _check_play(combo, m(hand), top_combo)
        assert combo.cards & RANK_MASK[rank]


# --- legal_plays and bombs_in -----------------------------------------------


def test_legal_plays_on_dog_is_empty() -> None:
    assert legal_plays(m("8j 8s 8p 8r Dragon"), c("Dog")) == []


def test_legal_leads_include_specials() -> None:
    keys = {key(p) for p in legal_plays(m("Dog Mahjong Phoenix Dragon 2j"), None)}
    assert {(S, 0, 1, None), (S, 1, 1, None), (S, 1.5, 1, None), (S, 15, 1, None)} <= keys
    assert (STR, 5, 5, None) not in keys  # Mahjong 2 Phoenix: two ranks missing


def test_legal_plays_on_dragon_are_bombs() -> None:
    plays = legal_plays(m("Phoenix Aj As Ap Ar"), c("Dragon"))
    assert [key(p) for p in plays] == [(FOUR, 14, 4, None)]


def test_bombs_in_lists_every_straight_flush() -> None:
    bombs = bombs_in(m("3j 4j 5j 6j 7j 8j 9j 9s 9p 9r Phoenix"))
    assert [(b.kind, b.rank, b.length) for b in bombs] == [
        (FOUR, 9, 4),
        (SF, 7, 5),
        (SF, 8, 5),
        (SF, 9, 5),
        (SF, 8, 6),
        (SF, 9, 6),
        (SF, 9, 7),
    ]
    assert not bombs_in(m("3j 4j 5j 6j Phoenix 8j"))


def test_legal_plays_14_cards_are_sound() -> None:
    hand = m("Mahjong 2j 3j 4j 5j 6j 6s 7s 7p 8j 8s 8p 8r Phoenix")
    plays = legal_plays(hand, None)
    for play in plays:
        _check_play(play, hand, None)
    assert len({(p.kind, p.rank, p.length, p.phoenix, p.cards) for p in plays}) == len(plays)


# --- properties --------------------------------------------------------------


def _check_play(combo: Combo, hand: Mask, top: Combo | None) -> None:
    """``combo`` is made of ``hand``, reads back the same and may be played on ``top``."""
    assert combo.cards & ~hand == 0
    assert classify(combo.cards, combo.phoenix, top) == combo
    plain = classify(combo.cards, None, top)
    assert plain is not None and (plain.kind, plain.length) == (combo.kind, combo.length)
    assert top is None or beats(combo, top)


def _all_plays(hand: Mask, top: Combo | None) -> list[Combo]:
    """Every play of ``hand`` on ``top`` with every Phoenix reading, by brute force over subsets."""
    found = []
    cards = cards_of(hand)
    for size in range(1, len(cards) + 1):
        for subset in combinations(cards, size):
            mask = mask_of(subset)
            if PHOENIX in subset and size > 1:
                readings = [classify(mask, p) for p in range(2, 15)]
            else:
                readings = [classify(mask, None, top)]
            found += [r for r in readings if r and (top is None or beats(r, top))]
    return found


# Decks concentrated on a few ranks (or on two suits) make pairs, full houses,
# straights and bombs likely; the top's kind is drawn first so that every kind
# is on the table as often as singles.
_SPECIALS = [0, 1, 54, 55]
_SMALL_DECK = _SPECIALS + list(range(2 + 4 * 1, 2 + 4 * 7))  # ranks 3..8
_TWO_SUITS = _SPECIALS + [card for card in range(2, 38) if (card - 2) % 4 < 2]  # 2..10, j s
_TINY = [1, 54] + list(range(2 + 4 * 2, 2 + 4 * 6))  # Mahjong, Phoenix, ranks 4..7
_FLUSHY = [1, 54] + list(range(2, 54, 4)) + list(range(2 + 4 * 4 + 1, 2 + 4 * 7, 4))  # Jade, 6s..8s
_DECKS = [_SMALL_DECK, _TWO_SUITS, _TINY, _FLUSHY, list(range(56))]


@st.composite
def hands_and_tops(draw: st.DrawFn, max_size: int) -> tuple[Mask, Combo | None]:
    deck = draw(st.sampled_from(_DECKS))
    hand = draw(st.lists(st.sampled_from(deck), min_size=1, max_size=max_size, unique=True))
    rest = [card for card in deck if card not in hand]
    other = mask_of(draw(st.lists(st.sampled_from(rest), min_size=1, max_size=12, unique=True)))
    by_kind: dict[Kind, list[Combo]] = {}
    for lead in legal_plays(other, None):
        by_kind.setdefault(lead.kind, []).append(lead)
    kind = draw(st.sampled_from(sorted(by_kind)))
    top = draw(st.one_of(st.none(), st.sampled_from(by_kind[kind])))
    return mask_of(hand), top


@settings(max_examples=300, deadline=None)
@given(hands_and_tops(14))
def test_legal_plays_classify_back_and_beat(case: tuple[Mask, Combo | None]) -> None:
    hand, top = case
    for play in legal_plays(hand, top):
        _check_play(play, hand, top)


@settings(max_examples=300, deadline=None)
@given(hands_and_tops(8))
def test_legal_plays_and_wish_match_brute_force(case: tuple[Mask, Combo | None]) -> None:
    hand, top = case
    brute = _all_plays(hand, top)
    plays = legal_plays(hand, top)
    kinds = {(p.kind, p.rank, p.length) for p in plays}
    assert kinds == {(b.kind, b.rank, b.length) for b in brute}
    assert {p.cards for p in plays if p.is_bomb} == {b.cards for b in brute if b.is_bomb}
    for rank in range(2, 15):
        holding = [b for b in brute if b.cards & RANK_MASK[rank]]
        found = can_play_rank(hand, rank, top)
        assert (found is not None) == bool(holding), rank
        if found is not None:
            _check_play(found, hand, top)
            assert found.cards & RANK_MASK[rank]
            assert found.is_bomb == all(b.is_bomb for b in holding)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_SMALL_DECK), min_size=2, max_size=7, unique=True))
def test_classify_takes_the_highest_phoenix_reading(cards: list[int]) -> None:
    mask = mask_of(cards) | 1 << PHOENIX
    readings = [r for p in range(2, 15) if (r := classify(mask, p))]
    best = classify(mask)
    if not readings:
        assert best is None
    else:
        assert best is not None
        assert best.rank == max(r.rank for r in readings)
        assert best in readings


def test_bombs_in_with_phoenix_bombs_house_rule() -> None:
    """phoenix-in-bombs (rules.md 9.1): three of a rank and the Phoenix, and a one-suit run
    missing one rank, are bombs; every one classifies as the bomb it is listed as."""
    hand = m("3j 4j 5j 6j 8j 9s 9p 9r Phoenix")
    bombs = bombs_in(hand, phoenix_bombs=True)
    assert [(b.kind, b.rank, b.length, b.phoenix) for b in bombs] == [
        (FOUR, 9, 4, 9),
        (SF, 6, 5, 2),
        (SF, 7, 5, 7),
        (SF, 8, 5, 7),
        (SF, 8, 6, 7),
    ]
    for b in bombs:
        assert classify(b.cards, b.phoenix, None, phoenix_bombs=True) == b
    assert bombs_in(hand) == []


def test_wish_search_finds_phoenix_bombs_only_under_the_house_rule() -> None:
    hand = m("8j 8s 8p Phoenix 3j 5j")
    assert can_play_rank(hand, 8, c("As")) is None
    found = can_play_rank(hand, 8, c("As"), phoenix_bombs=True)
    assert found is not None and found.kind == FOUR and found.cards == m("8j 8s 8p Phoenix")
    assert not any(p.is_bomb for p in legal_plays(hand, c("As")))
    assert any(p.kind == FOUR for p in legal_plays(hand, c("As"), phoenix_bombs=True))
