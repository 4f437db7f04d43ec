"""The open-hand endgame solver (review/openhand.py) against the exhaustive oracle
(tests/openhand_oracle.py, which moves by feeding a real engine), its lines replayed by
the engine, and R002 on real Brettspielwelt endgames with an injected mistake.

``OPENHAND_CASES=N`` raises the number of random endgames per ruleset (default 60).
"""

from __future__ import annotations

import copy
import os
import random

import msgspec
import openhand_oracle as oracle
import pytest
from shared_data import SAMPLES

from tichu_analyze.core.engine import Engine
from tichu_analyze.core.events import EVENT_TYPES, Event, Pass, Play
from tichu_analyze.core.state import GameState, Phase, RoundState, Step
from tichu_analyze.core.visitor import Visitor
from tichu_analyze.readers.bsw import Unreadable, read_tch
from tichu_analyze.review.findings import Finding
from tichu_analyze.review.openhand import (
    LIMIT,
    OpenHandReview,
    Solver,
    _event,
    _position,
    cards_left,
    solve,
)
from tichu_analyze.sim.simulate import simulate

CASES = int(os.environ.get("OPENHAND_CASES", "60"))
BSW = SAMPLES / "bsw"


def _endgames(seed: int, count: int, lo: int, hi: int,
              variants: frozenset[str]) -> list[tuple[Engine, str]]:
    """Positions of simulated games with ``lo``..``hi`` cards left, as engines."""
    rng = random.Random(seed)
    found: list[tuple[Engine, str]] = []
    engine = Engine("sim", variants=variants)
    for d in simulate(200, seed):
        engine.feed(0, msgspec.convert(d, EVENT_TYPES[d["type"]]))
        game = engine.games.get(d["game"])
        rnd = game.round if game is not None else None
        if rnd is not None and rnd.phase == Phase.PLAY and lo <= cards_left(rnd) <= hi \
                and rng.random() < 0.25:
            found.append((oracle.isolated(engine, d["game"]), d["game"]))
            if len(found) >= count:
                break
    return found


@pytest.mark.parametrize("variants", [frozenset(), frozenset({"bsw"})], ids=["publisher", "bsw"])
def test_solver_equals_the_exhaustive_oracle(variants: frozenset[str]) -> None:
    positions = _endgames(11, CASES, 4, 6, variants)
    assert len(positions) == CASES
    for engine, gid in positions:
        rnd = engine.games[gid].round
        assert rnd is not None
        solution = solve(rnd, game=gid)
        assert solution is not None
        assert solution.value == oracle.value(engine, gid, oracle.root_answers(rnd))
        replay = copy.deepcopy(engine)
        for ev in solution.line:
            replay.feed(0, ev)
        done = replay.games[gid].round
        assert done is not None and done.score is not None
        assert tuple(done.score) == solution.score
        assert solution.score[0] - solution.score[1] == solution.value


def test_declines_beyond_the_limit_and_other_variants() -> None:
    (engine, gid), = _endgames(3, 1, LIMIT + 1, LIMIT + 4, frozenset())
    rnd = engine.games[gid].round
    assert rnd is not None
    assert solve(rnd) is None
    assert solve(rnd, limit=cards_left(rnd) + 1) is not None or cards_left(rnd) > 14
    (engine, gid), = _endgames(3, 1, 4, 6, frozenset({"wish-penalty-200"}))
    rnd = engine.games[gid].round
    assert rnd is not None and solve(rnd) is None


# ------------------------------------------------------------- real games


class _Steps(Visitor):
    def __init__(self) -> None:
        self.step: Step | None = None

    def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
        self.step = step


def _drive(engine: Engine, gid: str, events: list[Event], review: OpenHandReview,
           first_line: int) -> list[Finding]:
    """Feed ``events`` through a tracing copy of ``engine``, reviewing every decision."""
    seen = _Steps()
    live = Engine("review", seen, variants=engine.variants)
    live.games = {gid: copy.deepcopy(engine.games[gid])}
    findings = []
    for i, ev in enumerate(events):
        game = live.games[gid]
        rnd = game.round
        assert rnd is not None
        before = copy.deepcopy(rnd)
        live.feed(first_line + i, ev)
        assert seen.step is not None
        if isinstance(ev, (Play, Pass)):
            found = review.review(game, before, seen.step, rnd)
            if found is not None:
                findings.append(found)
    return findings


def _real_endgames(limit: int, wanted: int) -> list[tuple[Engine, str]]:
    """Positions of real BSW rounds where a seat on turn decides with ``limit`` cards
    left or fewer, one per round."""
    out: list[tuple[Engine, str]] = []
    for path in sorted(BSW.glob("*.tch"))[:40]:
        gid = path.stem
        engine = Engine("", variants=frozenset({"bsw"}))
        taken: set[int] = set()
        for _line, ev in read_tch(path.read_bytes(), gid, replay=None):
            if isinstance(ev, Unreadable):
                break
            game = engine.games.get(gid)
            rnd = game.round if game is not None else None
            if (rnd is not None and rnd.phase == Phase.PLAY and isinstance(ev, (Play, Pass))
                    and rnd.number not in taken and 5 <= cards_left(rnd) <= limit
                    and ev.seat == rnd.turn and rnd.top is not None and not rnd.trick_over):
                taken.add(rnd.number)
                out.append((oracle.isolated(engine, gid), gid))
                if len(out) >= wanted:
                    return out
            engine.feed(0, ev)
    return out


@pytest.mark.skipif(not BSW.is_dir(), reason="the real games (../shared/samples/bsw/) are not here")
def test_r002_at_an_injected_mistake_and_none_on_the_best_line() -> None:
    injected = clean = 0
    for engine, gid in _real_endgames(9, 40):
        rnd = engine.games[gid].round
        assert rnd is not None
        solver = Solver(rnd)
        p = _position(rnd, False)
        best = solver.value(p)
        sign = 1 if solver.chooser(p) % 2 == 0 else -1
        seat = solver.chooser(p)
        best_line, _ = solver.line(p, best, gid)
        # the best line: no finding anywhere on it
        assert _drive(engine, gid, best_line, OpenHandReview(), 1000) == []
        clean += 1
        for m in solver.moves(p):
            child = solver.apply(p, m)
            v = solver.value(child)
            if (best - v) * sign <= 0:
                continue
            mistake = _event(m, seat, p, gid)
            assert mistake is not None
            rest, _ = solver.line(child, v, gid)
            found = _drive(engine, gid, [mistake, *rest], OpenHandReview(), 1000)
            assert len(found) == 1, found
            f = found[0]
            assert (f.code, f.line, f.seat, f.cost, f.hindsight) == (
                "R002", 1000, seat, (best - v) * sign, True)
            assert "all hands open" in f.message
            assert f.detail["limit"] == LIMIT
            injected += 1
            break
    assert clean >= 20 and injected >= 5


# ------------------------------------------------------------- hand-made positions

from openhand_cases import GAME, position  # noqa: E402


def _both(engine: Engine) -> tuple[int, object]:
    rnd = engine.games[GAME].round
    assert rnd is not None
    solution = solve(rnd, game=GAME)
    assert solution is not None
    assert solution.value == oracle.value(engine, GAME, oracle.root_answers(rnd))
    return solution.value, solution


def test_double_victory_is_worth_more_than_card_points() -> None:
    # seat 0 is out; seat 2 goes out with its Ace before anyone: 200 for team 0, and
    # the Kings and tens the opponents hold count for nothing
    engine = position(["", "Kj Ks", "Ar", "10j 10s"], 2, out=(0,),
                      piles=["", "", "", "5j 5s"])
    value, solution = _both(engine)
    assert value == 200
    assert solution.score == (200, 0)  # type: ignore[attr-defined]


def test_a_tichu_broken_by_the_pair() -> None:
    # seat 1 called Tichu and holds the Ace; seat 0 leads its pair of Queens, which no
    # one beats, and goes out first: the Tichu is broken (-100)
    engine = position(["Qj Qs", "Aj", "3j", "4j"], 0, calls={1: "tichu"})
    value, solution = _both(engine)
    assert solution.result.seat_calls[1] == -100  # type: ignore[attr-defined]
    assert solution.line[0].cards == ["Qj", "Qs"]  # type: ignore[attr-defined]


def test_a_bomb_steals_the_last_trick() -> None:
    # seat 3 leads the Dragon to go out with its 2 after; seat 0's four 9s take it
    engine = position(["9j 9s 9p 9r", "3j", "Kj", "Dragon 2j"], 3, out=(),
                      piles=["", "", "", ""])
    value, solution = _both(engine)
    assert any(isinstance(e, Play) and len(e.cards) == 4
               for e in solution.line)  # type: ignore[attr-defined]


def test_the_dragon_gift_and_the_dog_and_the_wish() -> None:
    for hands, turn in ((["Dragon 3j", "5j Kj", "", "10j"], 0),   # the gift's receiver
                        (["Dog 4j", "Aj", "2j 3s", "Kj"], 0),     # the Dog to the partner
                        (["Mahjong 8j", "8s Aj", "9j", "2j Kj"], 0)):  # the wish binds
        engine = position(hands, turn, out=(2,) if not hands[2] else ())
        _both(engine)
