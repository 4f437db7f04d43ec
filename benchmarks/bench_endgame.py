"""Benchmark of the open-hand endgame solver (review/openhand.py) on real BSW rounds.

    python benchmarks/bench_endgame.py [--files 60] [--oracle-max 6]

For each number of cards left (4 .. LIMIT + 2), the positions of real Brettspielwelt
rounds (``../shared/samples/bsw/``) where a seat on turn decides with that many cards
left (one per round and count): the solver's CPU time (mean, p95) and nodes, from a
fresh transposition table; up to ``--oracle-max`` cards also the exhaustive oracle
(tests/openhand_oracle.py) on the same positions, measured in the same run, and the
ratio oracle / solver. Then the cost per round of reviewing every decision from
LIMIT cards left on with one table per round (what ``OpenHandReview`` does).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "tests"))

import openhand_oracle as oracle  # noqa: E402
from shared_data import SAMPLES  # noqa: E402

from tichu_analyze.core.engine import Engine  # noqa: E402
from tichu_analyze.core.events import Pass, Play  # noqa: E402
from tichu_analyze.core.state import Phase  # noqa: E402
from tichu_analyze.readers.bsw import Unreadable, read_tch  # noqa: E402
from tichu_analyze.review.openhand import LIMIT, Solver, _position, cards_left  # noqa: E402


def positions(files: int, top: int) -> dict[int, list[tuple[Engine, str]]]:
    """Per cards left (4..top): engines at real decisions of a seat on turn."""
    found: dict[int, list[tuple[Engine, str]]] = {n: [] for n in range(4, top + 1)}
    for path in sorted((SAMPLES / "bsw").glob("*.tch"))[:files]:
        gid = path.stem
        engine = Engine("", variants=frozenset({"bsw"}))
        taken: set[tuple[int, int]] = set()
        for _line, ev in read_tch(path.read_bytes(), gid):
            if isinstance(ev, Unreadable):
                break
            game = engine.games.get(gid)
            rnd = game.round if game is not None else None
            if rnd is not None and rnd.phase == Phase.PLAY and isinstance(ev, (Play, Pass)):
                n = cards_left(rnd)
                if 4 <= n <= top and (rnd.number, n) not in taken:
                    taken.add((rnd.number, n))
                    found[n].append((oracle.isolated(engine, gid), gid))
            engine.feed(0, ev)
    return found


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=60)
    ap.add_argument("--oracle-max", type=int, default=6)
    ap.add_argument("--oracle-cases", type=int, default=15)
    args = ap.parse_args()
    found = positions(args.files, LIMIT + 2)
    print(f"LIMIT = {LIMIT}; real BSW positions from {args.files} files; CPU time, one core")
    print(" cards  positions   mean ms    p95 ms  mean nodes   oracle ms  oracle/solver")
    for n, cases in found.items():
        times, nodes = [], []
        for engine, gid in cases:
            rnd = engine.games[gid].round
            assert rnd is not None
            solver = Solver(rnd, limit=n)
            t = time.process_time()
            solver.value(_position(rnd, None))
            times.append(time.process_time() - t)
            nodes.append(solver.nodes)
        if not times:
            continue
        times.sort()
        mean = statistics.fmean(times)
        p95 = times[max(0, int(0.95 * len(times)) - 1)]
        extra = ""
        if n <= args.oracle_max:
            sub = cases[:args.oracle_cases]
            t = time.process_time()
            for engine, gid in sub:
                rnd = engine.games[gid].round
                assert rnd is not None
                oracle.value(engine, gid, oracle.root_answers(rnd))
            o = (time.process_time() - t) / len(sub)
            s = statistics.fmean(times[:len(sub)]) or 1e-9
            extra = f"  {o * 1000:10.1f}  {o / s:13.0f}"
        print(f"{n:6d} {len(cases):10d} {mean * 1000:9.1f} {p95 * 1000:9.1f} "
              f"{statistics.fmean(nodes):11.0f}{extra}")
    # a round's review from LIMIT cards on: every decision, one table per round
    rounds: dict[tuple[str, int], list[tuple[Engine, str]]] = {}
    for n in range(4, LIMIT + 1):
        for engine, gid in found[n]:
            rnd = engine.games[gid].round
            assert rnd is not None
            rounds.setdefault((gid, rnd.number), []).append((engine, gid))
    costs = []
    for cases in rounds.values():
        first = cases[0][0].games[cases[0][1]].round
        assert first is not None
        solver = Solver(first)
        t = time.process_time()
        for engine, gid in cases:
            rnd = engine.games[gid].round
            assert rnd is not None
            if solver.fits(rnd):
                solver.value(_position(rnd, False))
        costs.append(time.process_time() - t)
    costs.sort()
    print(f"review of a round from {LIMIT} cards left: {len(costs)} rounds, mean "
          f"{statistics.fmean(costs) * 1000:.0f} ms, p95 "
          f"{costs[max(0, int(0.95 * len(costs)) - 1)] * 1000:.0f} ms, "
          f"max {costs[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
