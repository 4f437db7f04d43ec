"""The open-hand endgame solver (bridge's double-dummy analysis for Tichu) and the review
of decisions it drives (R002).

When few cards are left in a round, :func:`solve` searches the rest of the round with
every hand open: a minimax over the round's score difference (team 0, seats 0 and 2,
minus team 1), team 0 maximising, team 1 minimising, with alpha-beta, a transposition
table and move ordering. The rules come from the core: the moves are the state's own
queries (:meth:`RoundState.legal_plays`, :meth:`RoundState.may_pass`,
:meth:`RoundState.bomb_lands`, asked of a scratch state loaded with the position), the
score is :func:`~tichu_analyze.core.state.score_round`. The light position below applies
moves the way the engine does; ``tests/openhand_oracle.py`` (an exhaustive search that
feeds every move to a copy of the real engine) proves it.

The game tree (docs/review-openhand.md; the oracle uses the same):

* A node has one chooser. Normally the seat on turn: its moves are its legal plays
  (bombs included, the wish obeyed) and the pass when allowed.
* After each play that does not end the round (and is not the Dog), every *other* seat
  still holding cards, in order from the player's left, may answer with a bomb that
  lands, or decline (only seats holding such a bomb are asked); a bomb restarts the
  answers after it. A bomb later in the trick (after some passes) gives the same
  position as the same bomb answered at once, so this is the modelling choice of bomb
  timing: a bomb is decided right after a play (or on the bomber's turn), never
  between two passes; a seat never bombs its own play at once.
* When every other seat passed (the trick is over), the seat due to lead leads. Under
  ``bsw`` (rules 9.4) the winner may instead bomb its own trick, or pass to take it
  (offered only when it holds a bomb that would land: else taking and leading is the
  same as leading).
* A trick won by the Dragon: its winner chooses the opponent who receives it (under
  ``bsw`` it may also bomb it, while it holds cards and the round goes on).
* The Mahjong's player chooses the wish with the play: no wish, or a rank still held
  by some seat (a rank nobody holds can never bind anyone: it is the same as none).
* The Dog hands the lead as the rules say (no choice with four seats).
* The moves are the core's ``legal_plays``: one choice of suits per combination.

Supported: four seats under the publisher's rules and ``bsw``; other variants are
declined (None).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.cards import (
    BIT,
    DOG,
    DRAGON,
    MAHJONG,
    RANK_MASK,
    RANK_TOKENS,
    points,
    tokens_of,
)
from ..core.combos import Combo, beats, bombs_in, describe
from ..core.events import DragonGift, Event, Pass, Play
from ..core.state import (
    GameState,
    Phase,
    RoundScore,
    RoundState,
    Step,
    next_seat_table,
    round_over,
    score_round,
    team_victory,
)
from .findings import Finding

__all__ = ["LIMIT", "OpenHandReview", "Solution", "Solver", "solve"]

LIMIT = 10
"""Cards held in all by the seats still in the round up to which :func:`solve` searches
(measured by ``benchmarks/bench_endgame.py``: a round's review stays well under a second
on one core; docs/review-openhand.md)."""

SUPPORTED: tuple[frozenset[str], ...] = (frozenset(), frozenset({"bsw"}))
"""The variants solved: the publisher's rules and the Brettspielwelt platform's."""

_DOG_BIT = BIT[DOG]
_DRAGON_BIT = BIT[DRAGON]
_MAHJONG_BIT = BIT[MAHJONG]
_INF = 10_000
_NEXT = next_seat_table(4)

# moves: ("play", combo, wish) | ("pass",) | ("take",) | ("gift", to)
Move = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Solution:
    """The result of :func:`solve`: ``value`` (team 0's round score minus team 1's under
    best play from the position), ``score`` (a round score reaching it, per team),
    ``line`` (the principal variation as events the engine replays), ``nodes``
    (positions searched)."""

    value: int
    score: tuple[int, int]
    line: list[Event]
    nodes: int
    result: RoundScore | None = field(default=None, compare=False)


class _Pos:
    """A light position: what the rest of the round depends on."""

    __slots__ = ("hands", "top", "top_seat", "passed", "turn", "trick_over", "taken",
                 "after_dog", "wish", "out", "piles", "trick_cards", "dragon_due", "asking",
                 "over")

    def __init__(self) -> None:
        self.hands: tuple[int, ...] = (0, 0, 0, 0)
        self.top: Combo | None = None
        self.top_seat = -1
        self.passed = 0
        self.turn = -1
        self.trick_over = False
        self.taken = False
        self.after_dog = False
        self.wish: int | None = None
        self.out: tuple[int, ...] = ()
        self.piles: tuple[int, ...] = (0, 0, 0, 0)
        self.trick_cards = 0
        self.dragon_due = False
        self.asking: tuple[int, ...] = ()  # the seats still to answer the last play
        self.over = False

    def clone(self) -> _Pos:
        p = _Pos.__new__(_Pos)
        p.hands, p.top, p.top_seat, p.passed = self.hands, self.top, self.top_seat, self.passed
        p.turn, p.trick_over, p.taken, p.after_dog = (self.turn, self.trick_over, self.taken,
                                                      self.after_dog)
        p.wish, p.out, p.piles, p.trick_cards = self.wish, self.out, self.piles, self.trick_cards
        p.dragon_due, p.asking, p.over = self.dragon_due, self.asking, self.over
        return p

    @property
    def holding(self) -> int:
        return sum(1 << s for s in range(4) if self.hands[s])

    def next_leader(self) -> int:
        w = self.top_seat
        return w if self.hands[w] else _NEXT[self.holding][w]

    def key(self) -> tuple[Any, ...]:
        top = self.top
        return (self.hands, None if top is None else (top.cards, top.rank, top.kind),
                self.top_seat, self.passed, self.turn, self.trick_over, self.taken,
                self.after_dog, self.wish, self.out, tuple(points(p) for p in self.piles),
                points(self.trick_cards), self.dragon_due, self.asking, self.over)


def _position(rnd: RoundState, window: bool | None) -> _Pos:
    p = _Pos()
    p.hands = tuple(rnd.hands)
    p.top, p.top_seat, p.passed, p.turn = rnd.top, rnd.top_seat, rnd.passed, rnd.turn
    p.trick_over, p.taken, p.after_dog = rnd.trick_over, rnd.taken, rnd.after_dog
    p.wish, p.out, p.piles = rnd.wish, tuple(rnd.out), tuple(rnd.piles)
    p.trick_cards, p.dragon_due = rnd.trick_cards, rnd.dragon_due
    p.over = rnd.phase == Phase.OVER and not rnd.dragon_due
    fresh = rnd.top is not None and rnd.passed == 0 and not rnd.trick_over and not p.over
    if window is None:
        window = fresh
    if window and fresh:
        p.asking = _askers(p, rnd.top_seat)
    return p


def _askers(p: _Pos, player: int) -> tuple[int, ...]:
    """The seats after ``player`` (in order) holding a bomb that beats the top."""
    top = p.top
    assert top is not None
    seats = []
    for k in (1, 2, 3):
        s = (player + k) & 3
        hand = p.hands[s]
        if hand.bit_count() >= 4 and any(beats(b, top) for b in _bombs(hand)):
            seats.append(s)
    return tuple(seats)


_BOMBS: dict[int, list[Combo]] = {}


def _bombs(hand: int) -> list[Combo]:
    b = _BOMBS.get(hand)
    if b is None:
        if len(_BOMBS) > 1 << 16:
            _BOMBS.clear()
        b = _BOMBS[hand] = bombs_in(hand)
    return b


def supported(rnd: RoundState) -> bool:
    """Whether :func:`solve` handles the round's rules (four seats; publisher or bsw)."""
    return rnd.seats == 4 and rnd.dummy < 0 and rnd.rules.names in SUPPORTED


def cards_left(rnd: RoundState) -> int:
    """The cards held in all by the seats still in the round."""
    return sum(h.bit_count() for h in rnd.hands)


class Solver:
    """A search over one round's endgames, keeping its transposition table between calls
    (the consecutive decisions of a round share most positions)."""

    def __init__(self, rnd: RoundState, limit: int = LIMIT) -> None:
        self.limit = limit
        self.rules = rnd.rules
        self.calls = list(rnd.calls)
        self.penalty = list(rnd.penalty)
        self.tt: dict[tuple[Any, ...], tuple[int, int, Move | None]] = {}
        self.nodes = 0
        q = self.q = RoundState(rnd.number, list(rnd.players), rules=rnd.rules)
        q.phase = Phase.PLAY
        self.bsw = rnd.rules.winner_bombs

    def fits(self, rnd: RoundState) -> bool:
        return (supported(rnd) and list(rnd.calls) == self.calls and rnd.rules == self.rules
                and rnd.phase in (Phase.PLAY, Phase.OVER)
                and (rnd.phase == Phase.PLAY or rnd.dragon_due)
                and cards_left(rnd) <= self.limit)

    # ------------------------------------------------------------ queries
    def _load(self, p: _Pos) -> RoundState:
        q = self.q
        q.hands = list(p.hands)
        q.top, q.top_seat, q.passed, q.turn = p.top, p.top_seat, p.passed, p.turn
        q.trick_over, q.taken, q.after_dog, q.wish = p.trick_over, p.taken, p.after_dog, p.wish
        q.holding = p.holding
        q.dragon_due = p.dragon_due
        q.dog_leads = (1 << p.turn) if p.after_dog and p.top is None else 0
        return q

    def chooser(self, p: _Pos) -> int:
        if p.dragon_due or (p.trick_over and p.top is not None and p.top.cards == _DRAGON_BIT):
            return p.top_seat
        if p.asking:
            return p.asking[0]
        if p.top is not None and p.trick_over:
            return p.next_leader()
        return p.turn

    def moves(self, p: _Pos) -> list[Move]:
        q = self._load(p)
        top = p.top
        if p.dragon_due or (p.trick_over and top is not None and top.cards == _DRAGON_BIT):
            w = p.top_seat
            out: list[Move] = [("gift", (w + 1) & 3), ("gift", (w + 3) & 3)]
            if self.bsw and not p.dragon_due and p.hands[w]:
                out += [("play", c, None) for c in q.legal_plays(w)]
            return out
        if p.asking:
            a = p.asking[0]
            bombs = [c for c in q.legal_plays(a) if c.is_bomb and q.bomb_lands(a, c)]
            return [("pass",)] + [("play", c, None) for c in bombs]
        seat = self.chooser(p)
        plays: list[Move] = []
        seen: set[tuple[int, float]] = set()
        for c in q.legal_plays(seat):
            k = (c.cards, c.rank)
            if k in seen:
                continue
            seen.add(k)
            if c.cards & _MAHJONG_BIT:
                left = 0
                for s in range(4):
                    left |= p.hands[s] if s != seat else p.hands[s] & ~c.cards
                plays.append(("play", c, None))
                plays += [("play", c, r) for r in range(2, 15) if left & RANK_MASK[r]]
            else:
                plays.append(("play", c, None))
        if top is not None and not p.trick_over:
            if q.may_pass(seat):
                plays.append(("pass",))
        elif top is not None and q.takes(seat) and any(
                m[1].is_bomb and q.bomb_lands(seat, m[1]) for m in plays):
            plays.append(("take",))
        return plays

    # ------------------------------------------------------------ applying
    def apply(self, p: _Pos, m: Move) -> _Pos:
        n = p.clone()
        kind = m[0]
        if kind == "pass":
            if n.asking:
                n.asking = n.asking[1:]
                return n
            seat = n.turn
            n.passed |= 1 << seat
            if n.holding & ~(1 << n.top_seat) & ~n.passed == 0:
                n.trick_over = True
                n.turn = n.next_leader()
            else:
                n.turn = _NEXT[n.holding][seat]
            return n
        if kind == "take":
            n.taken = True
            return n
        if kind == "gift":
            to = m[1]
            piles = list(n.piles)
            piles[to] |= n.trick_cards
            leader = n.next_leader()
            n.piles = tuple(piles)
            n.trick_cards, n.top, n.passed, n.trick_over, n.taken = 0, None, 0, False, False
            if n.dragon_due:
                n.dragon_due = False
                n.over = True
            else:
                n.turn = leader
            return n
        combo: Combo = m[1]
        seat = self.chooser(p)
        mask = combo.cards
        lead = n.top is None or (n.trick_over and not (
            combo.is_bomb and self._load(p).bomb_lands(seat, combo)))
        piles = list(n.piles)
        if lead and n.top is not None:  # the old trick goes to its winner
            piles[n.top_seat] |= n.trick_cards
            n.trick_cards = 0
        n.asking = ()
        hands = list(n.hands)
        hands[seat] ^= mask
        n.hands = tuple(hands)
        n.trick_cards |= mask
        n.top, n.top_seat, n.passed = combo, seat, 0
        n.trick_over = n.taken = n.after_dog = False
        if n.wish is not None and mask & RANK_MASK[n.wish]:
            n.wish = None
        if m[2] is not None:
            n.wish = m[2]
        if not hands[seat]:
            out = n.out = n.out + (seat,)
            if round_over(list(out), 4):
                if team_victory(list(out), 4):
                    n.over = True
                elif combo.cards == _DRAGON_BIT:
                    n.dragon_due = True
                else:
                    piles[seat] |= n.trick_cards
                    n.trick_cards, n.top = 0, None
                    n.over = True
                n.piles = tuple(piles)
                return n
        holding = n.holding
        if mask == _DOG_BIT:
            piles[seat] |= n.trick_cards
            n.trick_cards, n.top = 0, None
            mate = (seat + 2) & 3
            n.turn = mate if hands[mate] else _NEXT[holding][mate]
            n.after_dog = True
        else:
            n.turn = _NEXT[holding][seat]
            n.asking = _askers(n, seat)
        n.piles = tuple(piles)
        return n

    def result(self, p: _Pos) -> RoundScore:
        return score_round(list(p.out), self.calls, list(p.piles), list(p.hands),
                           self.penalty, self.rules)

    # ------------------------------------------------------------ search
    def search(self, p: _Pos, alpha: int, beta: int) -> int:
        self.nodes += 1
        if p.over:
            s = self.result(p).score
            return s[0] - s[1]
        key = p.key()
        entry = self.tt.get(key)
        best_move: Move | None = None
        if entry is not None:
            lo, hi, best_move = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha, beta = max(alpha, lo), min(beta, hi)
        else:
            lo, hi = -_INF, _INF
        a0, b0 = alpha, beta
        maxing = self.chooser(p) & 1 == 0
        moves = self._ordered(p, best_move)
        best = -_INF if maxing else _INF
        chosen: Move | None = None
        for m in moves:
            v = self.search(self.apply(p, m), alpha, beta)
            if maxing:
                if v > best:
                    best, chosen = v, m
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, chosen = v, m
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.tt[key] = (lo, hi, chosen)
        return best

    def _ordered(self, p: _Pos, first: Move | None) -> list[Move]:
        moves = self.moves(p)
        seat = self.chooser(p)
        hand = p.hands[seat]

        def rank(m: Move) -> tuple[int, int]:
            if m == first:
                return (-1, 0)
            if m[0] == "play":
                c: Combo = m[1]
                if c.cards == hand:
                    return (0, 0)
                return (2 if c.is_bomb else 1, -c.length)
            return (1, 1)

        moves.sort(key=rank)
        return moves

    def value(self, p: _Pos) -> int:
        return self.search(p, -_INF, _INF)

    def line(self, p: _Pos, value: int, game: str) -> tuple[list[Event], _Pos]:
        """The principal variation from ``p`` (of ``value``) as events, and its end."""
        events: list[Event] = []
        while not p.over:
            seat = self.chooser(p)
            for m in self._ordered(p, self.tt.get(p.key(), (0, 0, None))[2]):
                child = self.apply(p, m)
                if self.search(child, value - 1, value + 1) == value:
                    break
            else:  # (cannot happen: some move reaches the node's value)
                raise AssertionError("no move reaches the value")
            ev = _event(m, seat, p, game)
            if ev is not None:
                events.append(ev)
            p = child
        return events, p


def _event(m: Move, seat: int, p: _Pos, game: str) -> Event | None:
    kind = m[0]
    if kind == "pass":
        return None if p.asking else Pass(game=game, seat=seat)
    if kind == "take":
        return Pass(game=game, seat=seat)
    if kind == "gift":
        return DragonGift(game=game, seat=seat, to=m[1])
    c: Combo = m[1]
    return Play(game=game, seat=seat, cards=tokens_of(c.cards),
                wish=None if m[2] is None else RANK_TOKENS[m[2]],
                phoenix=None if c.phoenix is None or c.length == 1
                else RANK_TOKENS[c.phoenix])  # type: ignore[arg-type]


def solve(rnd: RoundState, *, limit: int = LIMIT, game: str = "",
          window: bool | None = None, solver: Solver | None = None) -> Solution | None:
    """The best result each team can force from ``rnd`` with all hands open, or None
    (more than ``limit`` cards held, not in play, or rules not supported).

    ``window``: whether the answers (bombs) to the last play are still open; by default
    they are when the last event was a play (a trick on the table, no pass since).
    ``game``: the game id of the events of ``line``. ``solver``: one to reuse (its
    transposition table) across the positions of one round."""
    if solver is None:
        if not supported(rnd):
            return None
        solver = Solver(rnd, limit)
    if not solver.fits(rnd):
        return None
    p = _position(rnd, window)
    before = solver.nodes
    value = solver.value(p)
    line, end = solver.line(p, value, game)
    result = solver.result(end)
    return Solution(value, (result.score[0], result.score[1]), line, solver.nodes - before,
                    result)


# ---------------------------------------------------------------- the review


def _words(m: Event | None) -> str:
    if isinstance(m, Play):
        from ..core.cards import CARD_BY_TOKEN
        from ..core.combos import classify
        mask = sum(1 << CARD_BY_TOKEN[t] for t in m.cards)
        combo = classify(mask)
        what = describe(combo) if combo is not None else "cards"
        wish = f", wishing for {m.wish}" if m.wish is not None else ""
        return f"playing the {what} ({' '.join(m.cards)}){wish}"
    if isinstance(m, Pass):
        return "passing"
    return "giving the Dragon's trick"


class OpenHandReview:
    """:class:`~tichu_analyze.review.findings.DecisionReview` of R002: a play or pass
    that, with all hands open, lost points for the seat's team against the best line of
    the endgame (at most :attr:`limit` cards left). Hindsight: the seat could not see
    the other hands. One transposition table per round."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._round: tuple[str, int, int] | None = None
        self._solver: Solver | None = None

    def _solver_for(self, game: GameState, rnd: RoundState) -> Solver | None:
        if not supported(rnd):
            return None
        key = (game.id, rnd.number, hash(rnd.rules.names))
        if self._round != key or self._solver is None or not self._solver.fits(rnd):
            self._round, self._solver = key, Solver(rnd, self.limit)
        return self._solver

    def review(self, game: GameState, before: RoundState, step: Step,
               after: RoundState) -> Finding | None:
        ev = step.event
        if not isinstance(ev, (Play, Pass)) or step.skipped or step.diagnostics:
            return None
        if before.phase != Phase.PLAY or cards_left(before) > self.limit:
            return None
        seat = ev.seat
        p = _position(before, False)
        solver = self._solver_for(game, before)
        if solver is None or not solver.fits(before):
            return None
        if solver.chooser(p) != seat or p.dragon_due:
            if before.top is None or before.passed or before.trick_over or seat == before.turn:
                return None
            # a bomb answering the last play at once (the answers before it declined)
            p = _position(before, True)
            while p.asking and p.asking[0] != seat:
                p.asking = p.asking[1:]
            if not p.asking:
                return None
        gid = game.id
        v_before = solver.value(p)
        if after.phase == Phase.OVER and not after.dragon_due:
            if after.score is None:
                return None
            v_after = after.score[0] - after.score[1]
        else:
            if not solver.fits(after):
                return None
            v_after = solver.value(_position(after, None))
        sign = 1 if seat % 2 == 0 else -1
        cost = (v_before - v_after) * sign
        if cost <= 0:
            return None
        line, end = solver.line(p, v_before, gid)
        result = solver.result(end)
        best = line[0] if line else None
        kept = v_before * sign
        note = ""
        if result.double_victory:
            note = " (double victory)"
        message = (f"with all hands open, {_words(ev)} lost {cost} points: "
                   f"{_words(best)} kept a forced {kept:+d} for the team"
                   f"{note}")
        player = before.occupants[seat] if seat < len(before.occupants) else str(seat)
        return Finding(
            code="R002", game=gid, round=before.number, trick=step.trick, seat=seat,
            player=player, line=step.line, message=message, cost=cost, hindsight=True,
            detail={"limit": self.limit, "before": kept, "after": v_after * sign,
                    "best": list(best.cards) if isinstance(best, Play) else [],
                    "line": [_event_dict(e) for e in line]})


def _event_dict(ev: Event) -> dict[str, Any]:
    if isinstance(ev, Play):
        d: dict[str, Any] = {"type": "play", "seat": ev.seat, "cards": list(ev.cards)}
        if ev.wish is not None:
            d["wish"] = ev.wish
        if ev.phoenix is not None:
            d["phoenix"] = ev.phoenix
        return d
    if isinstance(ev, Pass):
        return {"type": "pass", "seat": ev.seat}
    assert isinstance(ev, DragonGift)
    return {"type": "dragon_gift", "seat": ev.seat, "to": ev.to}
