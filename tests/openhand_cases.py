"""Hand-made endgame positions for the open-hand solver's tests: a real engine whose
round is set to a position given by its hands (rules.md, case by case)."""

from __future__ import annotations

from tichu_analyze.core.cards import CARD_BY_TOKEN
from tichu_analyze.core.engine import Engine
from tichu_analyze.core.events import GameStart, RoundStart
from tichu_analyze.core.state import Phase

GAME = "case"


def _mask(cards: str) -> int:
    return sum(1 << CARD_BY_TOKEN[t] for t in cards.split())


def position(hands: list[str], turn: int, *, out: tuple[int, ...] = (),
             calls: dict[int, str] | None = None, variants: frozenset[str] = frozenset(),
             piles: list[str] | None = None) -> Engine:
    """An engine whose round is in play: ``hands`` per seat (tokens), ``turn`` to lead,
    ``out`` the seats already out, ``calls`` per seat, ``piles`` the tricks taken."""
    engine = Engine("cases", variants=variants)
    engine.feed(1, GameStart(game=GAME, players=["Ana", "Ben", "Chloe", "Dev"],
                             variants=sorted(variants) or None))
    engine.feed(2, RoundStart(game=GAME, round=1))
    rnd = engine.games[GAME].round
    assert rnd is not None
    rnd.phase = Phase.PLAY
    rnd.hands = [_mask(h) for h in hands]
    rnd.holding = sum(1 << s for s in range(4) if rnd.hands[s])
    rnd.out = list(out)
    rnd.turn = turn
    rnd.played = [True] * 4
    rnd.trick = 5
    for seat, call in (calls or {}).items():
        rnd.calls[seat] = call
    if piles is not None:
        rnd.piles = [_mask(p) for p in piles]
    return engine
