"""One legality path: the engine's checks and its state's queries are the same rules.

Random games are played from the queries alone (``RoundState.legal_plays``,
``may_pass``, ``gift_due``): every move they allow replays without a diagnostic. At
random points a move they do not allow is played instead (a combination of the seat's
that is not among its legal plays, or a pass where ``may_pass`` says no), and the
engine must report it, with one of the codes such a move can break. Under the
publisher's rules and the variants that change legality (rules.md 9.1, 9.4).
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tichu_analyze.core.cards import RANK_MASK, RANK_TOKENS, TOKENS, iter_cards
from tichu_analyze.core.combos import Combo, legal_plays
from tichu_analyze.core.diagnostics import Diagnostic
from tichu_analyze.core.engine import Engine
from tichu_analyze.core.events import EVENT_TYPES
from tichu_analyze.core.state import Phase, RoundState
from tichu_analyze.core.visitor import DiagnosticVisitor

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

VARIANT_SETS = [(), ("phoenix-in-bombs",), ("dog-can-be-bombed",), ("bsw",),
                ("bsw", "phoenix-in-bombs")]
PLAY_CODES = {"P002", "P003", "P004", "P005", "P007", "B001", "B002", "B003", "W001"}
"""What a play the queries do not allow can break (rules.md 8)."""
PASS_CODES = {"P003", "P006", "W001"}
"""What a pass the queries do not allow can break."""


def _event(obj: dict[str, Any]) -> Any:
    return msgspec.convert(obj, EVENT_TYPES[obj["type"]])


def _cards(mask: int) -> list[str]:
    return [TOKENS[c] for c in iter_cards(mask)]


def _play(seat: int, combo: Combo, rng: random.Random, rnd: RoundState) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "play", "game": "g", "seat": seat, "cards": _cards(combo.cards)}
    if combo.phoenix is not None and combo.length > 1:
        ev["phoenix"] = RANK_TOKENS[combo.phoenix]
    if "Mahjong" in ev["cards"] and rng.random() < 0.9:
        # mostly a rank the next seat holds, so that the wish binds someone
        held = [r for r in range(2, 15)
                if rnd.hands[(seat + 1) % rnd.seats] & RANK_MASK[r] & ~combo.cards]
        ev["wish"] = RANK_TOKENS[rng.choice(held) if held and rng.random() < 0.8
                                 else rng.randrange(2, 15)]
    return ev


class _Game:
    """One game of one round, fed event by event to an engine; its diagnostics."""

    def __init__(self, variants: tuple[str, ...], rng: random.Random) -> None:
        self.found: list[Diagnostic] = []
        self.engine = Engine("g.jsonl", DiagnosticVisitor(self.found.append))
        self.events: list[dict[str, Any]] = []
        self.feed({"type": "game_start", "game": "g", "players": ["A", "B", "C", "D"],
                   "variants": list(variants)})
        self.feed({"type": "round_start", "game": "g", "round": 1})
        deck = list(TOKENS)
        rng.shuffle(deck)
        hands = [deck[14 * s:14 * s + 14] for s in range(4)]
        self.feed({"type": "deal", "game": "g", "hands": [h[:8] for h in hands]})
        self.feed({"type": "deal", "game": "g", "hands": [h[8:] for h in hands]})
        for seat, hand in enumerate(hands):
            gift = rng.sample(hand, 3)
            others = [s for s in range(4) if s != seat]
            self.feed({"type": "exchange", "game": "g", "seat": seat,
                       "give": {str(to): card for to, card in zip(others, gift, strict=True)}})

    @property
    def round(self) -> RoundState:
        rnd = self.engine.games["g"].round
        assert rnd is not None
        return rnd

    def feed(self, ev: dict[str, Any]) -> list[Diagnostic]:
        before = len(self.found)
        self.events.append(ev)
        self.engine.feed(len(self.events), _event(ev))
        return self.found[before:]

    def replayed_with(self, ev: dict[str, Any]) -> list[Diagnostic]:
        """The diagnostics of ``ev`` played now, on a copy of the game (replayed)."""
        found: list[Diagnostic] = []
        engine = Engine("g.jsonl", DiagnosticVisitor(found.append))
        for n, old in enumerate(self.events, 1):
            engine.feed(n, _event(old))
        assert not found
        engine.feed(len(self.events) + 1, _event(ev))
        return found


def _legal_moves(rnd: RoundState, rng: random.Random) -> list[dict[str, Any]]:
    """Every move the queries allow now (a play per legal combination, passes, the gift)."""
    if rnd.gift_due():
        winner = rnd.top_seat
        moves = [{"type": "dragon_gift", "game": "g", "seat": winner, "to": to}
                 for to in rnd.opponents(winner)]
    else:
        moves = []
    for seat in range(rnd.seats):
        moves += [_play(seat, c, rng, rnd) for c in rnd.legal_plays(seat)]
        if rnd.may_pass(seat):
            moves.append({"type": "pass", "game": "g", "seat": seat})
    return moves


def _illegal_moves(rnd: RoundState, rng: random.Random) -> list[dict[str, Any]]:
    """Moves of seats holding cards that the queries do not allow now."""
    moves: list[dict[str, Any]] = []
    if rnd.gift_due():
        return moves  # (anything but the gift or a bomb is G002's, not ours here)
    for seat in range(rnd.seats):
        hand = rnd.hands[seat]
        if not hand:
            continue
        allowed = {(c.cards, c.phoenix) for c in rnd.legal_plays(seat)}
        moves += [_play(seat, c, rng, rnd)
                  for c in legal_plays(hand, None, rnd.rules.phoenix_bombs)
                  if (c.cards, c.phoenix) not in allowed]
        if not rnd.may_pass(seat):
            moves.append({"type": "pass", "game": "g", "seat": seat})
    return moves


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1),
       variants=st.sampled_from(VARIANT_SETS))
def test_moves_the_queries_allow_are_legal_and_the_others_are_reported(
        seed: int, variants: tuple[str, ...]) -> None:
    rng = random.Random(seed)
    game = _Game(variants, rng)
    checked = 0
    while game.round.phase is Phase.PLAY or game.round.dragon_due:
        rnd = game.round
        if checked < 3 and rng.random() < 0.15:
            wrong = _illegal_moves(rnd, rng)
            if wrong:
                ev = rng.choice(wrong)
                found = game.replayed_with(ev)
                codes = {d.code for d in found if d.severity != "warning"}
                expected = PASS_CODES if ev["type"] == "pass" else PLAY_CODES
                assert codes & expected, (ev, [(d.code, d.message) for d in found])
                checked += 1
        moves = _legal_moves(rnd, rng)
        assert moves, "the queries allow no move while the round is in play"
        # (mostly the seat due, now and then a bomb out of turn or the Dragon's gift)
        due = [m for m in moves if m.get("seat") == rnd.turn or m["type"] == "dragon_gift"]
        ev = rng.choice(due if due and rng.random() < 0.9 else moves)
        found = game.feed(ev)
        assert not found, (ev, [(d.code, d.message) for d in found])
    assert game.round.result is not None  # the round ended by the rules, and was scored
    assert sum(game.round.result.card_points) in (100, 200, 300)
