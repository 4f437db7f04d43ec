"""Benchmark of `ingest` against `check` on one core: events/s, their ratio, peak memory.

    python benchmarks/bench_ingest.py [--games 400] [--repeat 3] [--sizes 1 4 12]
                                      [--players 2000] [--baseline PYTHON]

Writes a corpus of simulated games (benchmarks/corpus/, shared with bench_check.py)
and measures in this one run, pinned to one core, in CPU seconds (best of
``--repeat``), each installation in a fresh process of its own (this one too: the
process that wrote the corpora ran slower by up to 15%):

* check: the full replay with every rule checked, diagnostics discarded;
* steps: the same replay for a visitor that takes every step and does nothing with it
  (what the replay costs a dataset before any row is built: an upper bound of ingest);
* ingest: the same file replayed into a dataset (four tables, written and committed),
  serially in this process;
* encode: writing the Parquet files of that dataset again from their rows already in
  Arrow (the same files, codecs and row groups): what the files cost whatever builds
  the rows. Steps plus encode is a floor under ingest, so it bounds ingest / check;
* the ratio ingest / check of their events/s;
* ingest of as many games among many players (``--players``: each game's four drawn
  from a pool of that many names, as in an archive), where a dataset has a file per
  table and player, against check of those games;
* the peak memory (max RSS) of `ingest` in a fresh process for each of ``--sizes``
  (multiples of ``--games``: by default the corpus, 4 and 12 times as many games), to
  show that it does not grow with the input.

``--baseline PYTHON`` measures the same with another installation of tichu-analyze
(for example ``../baseline/.venv/bin/python``, or a venv of an older checkout) in the
same run, on the same files.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_check import corpus  # the same folder: run as a script

HERE = Path(__file__).parent

_PEAK = """
import resource, sys, tempfile
from pathlib import Path
from tichu_analyze.data.datasets import ingest
with tempfile.TemporaryDirectory(dir=sys.argv[2]) as d:
    ingest([Path(sys.argv[1])], Path(d) / "ds")
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def one_core() -> None:
    """Run this process (and its threads) on one core."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    """The least CPU time of ``repeat`` runs of ``fn``."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def pool_corpus(games: int, players: int, seed: int = 2026) -> Path:
    """A simulated log of ``games`` games among ``players`` names, written once and reused."""
    from tichu_analyze.readers.logfile import write_log
    from tichu_analyze.sim.simulate import simulate

    path = HERE / "corpus" / f"pool-{games}-{players}-{seed}.jsonl"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        write_log(simulate(games, seed, players=players), tmp)
        tmp.replace(path)
    return path


def measure(path: Path, repeat: int, pool: Path | None = None) -> dict[str, float]:
    """check and ingest on ``path`` (and on ``pool``) in this process: events and CPU
    seconds."""
    from tichu_analyze.core.visitor import DiagnosticVisitor, Visitor
    from tichu_analyze.data.datasets import ingest
    from tichu_analyze.readers.logfile import replay_file

    class Steps(Visitor):
        def visit_event(self, game: object, rnd: object, step: object) -> None:
            pass

    one_core()
    events = 0

    def check() -> None:
        nonlocal events
        events = replay_file(path, DiagnosticVisitor(lambda d: None)).events

    def ingest_once(log: Path) -> None:
        with tempfile.TemporaryDirectory(dir=HERE / "corpus") as d:
            ingest([log], Path(d) / "ds")

    check_s = best_of(repeat, check)
    steps_s = best_of(repeat, lambda: replay_file(path, Steps()))
    ingest_s = best_of(repeat, lambda: ingest_once(path))
    figures = {"events": events, "check_s": check_s, "steps_s": steps_s, "ingest_s": ingest_s}
    with tempfile.TemporaryDirectory(dir=HERE / "corpus") as d:
        ingest([path], Path(d) / "ds")
        figures["encode_s"] = encode_seconds(Path(d) / "ds", repeat)
    if pool is not None:
        figures["pool_events"] = replay_file(pool, DiagnosticVisitor(lambda d: None)).events
        figures["pool_check_s"] = best_of(
            repeat, lambda: replay_file(pool, DiagnosticVisitor(lambda d: None)))
        figures["pool_ingest_s"] = best_of(repeat, lambda: ingest_once(pool))
    return figures


def encode_seconds(dataset: Path, repeat: int) -> float:
    """CPU seconds to write the Parquet files of ``dataset`` again, from their rows read
    into Arrow beforehand (not timed): each file with its table's codec rule and row
    groups, as ``ingest`` writes them (the least of ``repeat`` runs)."""
    import pyarrow.parquet as pq

    from tichu_analyze.data.datasets import write_rows

    files = [(f.parent.parent.name, pq.read_table(f))
             for f in sorted(dataset.glob("*/*/*.parquet"))]
    with tempfile.TemporaryDirectory(dir=HERE / "corpus") as d:
        out = Path(d) / "again.parquet"
        return best_of(repeat, lambda: [write_rows(table, rows, out) for table, rows in files])


def peak_memory_mib(python: str, path: Path) -> float:
    """Max RSS of a fresh process of ``python`` that ingests ``path``."""
    out = subprocess.run([python, "-c", _PEAK, str(path), str(path.parent)], check=True,
                         capture_output=True,
                         text=True, cwd=tempfile.gettempdir()).stdout
    return int(out.strip().splitlines()[-1]) / 1024


def run(python: str, path: Path, repeat: int, pool: Path | None) -> dict[str, float]:
    """:func:`measure` under ``python`` (another installation) in a fresh process."""
    more = ["--pool", str(pool)] if pool is not None else []
    out = subprocess.run([python, __file__, "--measure", str(path), "--repeat", str(repeat),
                          *more],
                         check=True, capture_output=True, text=True,
                         cwd=tempfile.gettempdir(), env={**os.environ, "PYTHONPATH": str(HERE)})
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def report(name: str, r: dict[str, float], mem: dict[int, float]) -> None:
    check_rate, ingest_rate = r["events"] / r["check_s"], r["events"] / r["ingest_s"]
    print(f"{name}:")
    print(f"  check    {check_rate:>10,.0f} events/s  ({r['check_s']:.2f} s CPU)")
    if "steps_s" in r:
        steps_rate = r["events"] / r["steps_s"]
        print(f"  steps    {steps_rate:>10,.0f} events/s  ({r['steps_s']:.2f} s CPU)"
              f"  ({steps_rate / check_rate:.2f} of check: the bound of ingest)")
    print(f"  ingest   {ingest_rate:>10,.0f} events/s  ({r['ingest_s']:.2f} s CPU)")
    print(f"  ingest / check = {ingest_rate / check_rate:.2f}")
    if "encode_s" in r and "steps_s" in r:
        floor = r["steps_s"] + r["encode_s"]
        print(f"  encoding the dataset's Parquet files alone: {r['encode_s']:.2f} s CPU; steps + "
              f"encoding = {floor:.2f} s: ingest / check can be at most "
              f"{r['check_s'] / floor:.2f} whatever builds the rows")
    if "pool_ingest_s" in r:
        pool_check, pool_ingest = (r["pool_events"] / r["pool_check_s"],
                                   r["pool_events"] / r["pool_ingest_s"])
        print(f"  the same number of games among many players: check {pool_check:,.0f}, "
              f"ingest {pool_ingest:,.0f} events/s ({r['pool_ingest_s']:.2f} s CPU), "
              f"ingest / check = {pool_ingest / pool_check:.2f}")
    print("  peak memory of ingest: " + ", ".join(
        f"{mib:.0f} MiB on {games:,} games" for games, mib in mem.items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400, help="games in the corpus")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (best kept)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 4, 12], metavar="K",
                    help="peak memory on K times --games games, for each K")
    ap.add_argument("--players", type=int, default=2000, metavar="N",
                    help="also ingest as many games among N names (0: not)")
    ap.add_argument("--pool", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--baseline", metavar="PYTHON",
                    help="also measure the tichu-analyze installed for this interpreter")
    ap.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure is not None:  # a baseline run: print the figures as JSON
        print(json.dumps(measure(args.measure, args.repeat, args.pool)))
        return

    path = corpus(args.games)
    sizes = {args.games * k: corpus(args.games * k) for k in args.sizes}
    size = path.stat().st_size
    import tichu_analyze.core.engine

    build = ("compiled with mypyc" if tichu_analyze.core.engine.__file__.endswith(".so")
             else "pure Python")
    print(f"tichu_analyze: {build}; Python {sys.version.split()[0]}; one core, CPU time")
    pool = pool_corpus(args.games, args.players) if args.players else None
    here = run(sys.executable, path, args.repeat, pool)  # a fresh process, as the baseline
    print(f"corpus: {args.games} simulated games, {here['events']:,} events, "
          f"{size / 2**20:.1f} MiB" + (f"; and {args.games} among {args.players:,} names"
                                        if pool is not None else ""))
    report("this installation", here,
           {games: peak_memory_mib(sys.executable, p) for games, p in sizes.items()})
    if args.baseline:
        base = run(args.baseline, path, args.repeat, pool)
        report(f"baseline ({args.baseline})", base,
               {games: peak_memory_mib(args.baseline, p) for games, p in sizes.items()})
        print(f"ingest speed-up over the baseline = {base['ingest_s'] / here['ingest_s']:.2f}x"
              + (f"; among many players {base['pool_ingest_s'] / here['pool_ingest_s']:.2f}x"
                 if pool is not None else ""))


if __name__ == "__main__":
    main()
