"""The exhaustive open-hand search that proves :mod:`tichu_analyze.review.openhand`.

No pruning and no memo: every move is an event fed to a deep copy of a real
:class:`~tichu_analyze.core.engine.Engine` (so the engine judges each move and scores the
round), and the moves come from the state's own queries, under the game tree of
docs/review-openhand.md: the seat on turn plays (``legal_plays``) or passes
(``may_pass``); after each play that leaves the round going (not the Dog), the other
seats holding cards, from the player's left, may answer with a bomb that lands
(``bomb_lands``), a bomb restarting the answers; the seat due to lead leads (under
``bsw`` the winner may also bomb its own trick, or pass to take it when it holds a bomb
that would land); the Dragon's winner chooses the opponent (under ``bsw`` it may bomb
instead while it holds cards and the round goes on); the Mahjong's player chooses the
wish: none, or a rank someone still holds.
"""

from __future__ import annotations

import copy

from tichu_analyze.core.cards import BIT, DRAGON, MAHJONG, RANK_MASK, RANK_TOKENS, tokens_of
from tichu_analyze.core.engine import Engine
from tichu_analyze.core.events import DragonGift, Event, Pass, Play
from tichu_analyze.core.state import Phase, RoundState

_DRAGON = BIT[DRAGON]


def _feed(engine: Engine, ev: Event) -> Engine:
    child = copy.deepcopy(engine)
    child.feed(0, ev)
    return child


def _play(game: str, seat: int, cards: int, phoenix: int | None, length: int,
          wish: int | None = None) -> Play:
    return Play(game=game, seat=seat, cards=tokens_of(cards),
                wish=None if wish is None else RANK_TOKENS[wish],
                phoenix=None if phoenix is None or length == 1
                else RANK_TOKENS[phoenix])  # type: ignore[arg-type]


def _after_play(game: str, child: Engine, player: int) -> tuple[int, ...] | None:
    """The answers due after ``player``'s play: the other seats holding cards, in order."""
    rnd = child.games[game].round
    assert rnd is not None
    if rnd.phase != Phase.PLAY or rnd.top is None:
        return None  # the round ended, or the Dog
    return tuple(s for s in ((player + k) % 4 for k in (1, 2, 3)) if rnd.hands[s])


def value(engine: Engine, game: str, answers: tuple[int, ...] | None = None) -> int:
    """Team 0's round score minus team 1's under best play from the engine's position;
    ``answers``: the seats still to answer the last play (None: none)."""
    rnd = engine.games[game].round
    assert rnd is not None
    if rnd.phase == Phase.OVER and not rnd.dragon_due:
        assert rnd.score is not None
        return rnd.score[0] - rnd.score[1]
    results: list[int] = []
    top = rnd.top
    if rnd.gift_due():
        winner = rnd.top_seat
        for to in ((winner + 1) % 4, (winner + 3) % 4):
            results.append(value(_feed(engine, DragonGift(game=game, seat=winner, to=to)), game))
        if rnd.rules.winner_bombs and not rnd.dragon_due and rnd.hands[winner]:
            for c in rnd.legal_plays(winner):
                ev = _play(game, winner, c.cards, c.phoenix, c.length)
                child = _feed(engine, ev)
                results.append(value(child, game, _after_play(game, child, winner)))
        chooser = winner
    elif answers:
        chooser = answers[0]
        results.append(value(engine, game, answers[1:]))
        for c in rnd.legal_plays(chooser):
            if c.is_bomb and rnd.bomb_lands(chooser, c):
                child = _feed(engine, _play(game, chooser, c.cards, c.phoenix, c.length))
                results.append(value(child, game, _after_play(game, child, chooser)))
    else:
        chooser = rnd.next_leader() if top is not None and rnd.trick_over else rnd.turn
        plays = rnd.legal_plays(chooser)
        for c in plays:
            wishes: list[int | None] = [None]
            if c.cards & BIT[MAHJONG]:
                left = 0
                for s in range(4):
                    left |= rnd.hands[s] & ~(c.cards if s == chooser else 0)
                wishes += [r for r in range(2, 15) if left & RANK_MASK[r]]
            for w in wishes:
                child = _feed(engine, _play(game, chooser, c.cards, c.phoenix, c.length, w))
                results.append(value(child, game, _after_play(game, child, chooser)))
        if top is not None and not rnd.trick_over and rnd.may_pass(chooser):
            results.append(value(_feed(engine, Pass(game=game, seat=chooser)), game))
        if top is not None and rnd.trick_over and rnd.takes(chooser) and any(
                c.is_bomb and rnd.bomb_lands(chooser, c) for c in plays):
            results.append(value(_feed(engine, Pass(game=game, seat=chooser)), game))
    assert results, "a node without moves"
    return max(results) if chooser % 2 == 0 else min(results)


def root_answers(rnd: RoundState) -> tuple[int, ...] | None:
    """The answers open at a position the engine reached (the default of ``solve``): after
    a play (a trick on the table, no pass since), every other seat holding cards."""
    if rnd.phase != Phase.PLAY or rnd.top is None or rnd.passed or rnd.trick_over:
        return None
    p = rnd.top_seat
    return tuple(s for s in ((p + k) % 4 for k in (1, 2, 3)) if rnd.hands[s])


def isolated(engine: Engine, game: str) -> Engine:
    """A copy of ``engine`` holding only ``game`` (cheaper to copy at every move)."""
    fresh = Engine("oracle", variants=engine.variants)
    fresh.games = {game: copy.deepcopy(engine.games[game])}
    return fresh
