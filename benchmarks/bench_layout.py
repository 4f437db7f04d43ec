"""Benchmark of the dataset layout with many players: files per table, and how fast
polars reads one player's rounds and everyone's, against one unpartitioned file.

    python benchmarks/bench_layout.py [--games 20000] [--players 5000] [--jobs 2]

Writes ``--games`` simulated games whose players are drawn from a pool of
``--players`` names (``simulate --players``) to benchmarks/corpus/ (reused), ingests
them with ``--jobs`` worker processes (the staged ingest: parts per task, compacted
per player partition at commit), then prints, per table, the files and partitions of
the dataset, and the best of ``--repeat`` times for polars to read

* one player's rounds (a filter on ``player``: the hive partition is pruned),
* all players' rounds,
* a per-player aggregate over all rounds (call success by player),

from the partitioned dataset and from the same rows written as one Parquet file.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

from tichu_analyze.data.datasets import TABLES, scan
from tichu_analyze.data.staging import ingest_staged
from tichu_analyze.readers.logfile import write_log
from tichu_analyze.run.driver import ProcessBackend
from tichu_analyze.sim.simulate import simulate

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"
FILES = 4  # the corpus is written as this many logs (in parallel)


def _write(args: tuple[Path, int, int, int]) -> None:
    path, games, seed, players = args
    tmp = path.with_suffix(".tmp")
    write_log(simulate(games, seed, players=players), tmp)
    tmp.replace(path)


def pool_corpus(games: int, players: int, jobs: int) -> list[Path]:
    folder = CORPUS / f"pool-{games}-{players}"
    folder.mkdir(parents=True, exist_ok=True)
    todo = [(folder / f"part-{k}.jsonl", games // FILES + (k < games % FILES), 500 + k, players)
            for k in range(FILES)]
    missing = [t for t in todo if not t[0].exists()]
    if missing:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            list(pool.map(_write, missing))
    return [t[0] for t in todo]


def best(repeat: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--players", type=int, default=5_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    t = time.perf_counter()
    logs = pool_corpus(args.games, args.players, args.jobs)
    print(f"corpus: {args.games:,} games among {args.players:,} players in {len(logs)} logs, "
          f"{sum(p.stat().st_size for p in logs) / 2**20:,.0f} MiB "
          f"(ready in {time.perf_counter() - t:.0f} s)")
    scratch = Path(tempfile.mkdtemp(prefix="bench-layout-"))
    try:
        dataset = scratch / "dataset"
        on = ProcessBackend(args.jobs)
        t = time.perf_counter()
        try:
            result = ingest_staged(logs, dataset, on)
        finally:
            on.close()
        print(f"ingest --jobs {args.jobs}: {time.perf_counter() - t:.0f} s, "
              + ", ".join(f"{result.rows[table]:,} {table}" for table in TABLES) + " rows")
        for table in TABLES:
            files = list((dataset / table).rglob("*.parquet"))
            partitions = {f.parent for f in files}
            print(f"  {table:<10} {len(files):>7,} files in {len(partitions):>6,} partitions")
        flat = scratch / "rounds.parquet"
        scan(dataset, "rounds").collect().write_parquet(flat)
        one = scan(dataset, "rounds").select("player").head(1).collect().item()

        def player(lf: pl.LazyFrame) -> object:
            return lf.filter(pl.col("player") == one).collect()

        def everyone(lf: pl.LazyFrame) -> object:
            return lf.collect()

        def calls(lf: pl.LazyFrame) -> object:
            return lf.group_by("player").agg(pl.col("call_success").mean()).collect()

        print(f"polars, best of {args.repeat} (seconds): partitioned dataset | one file "
              f"| ratio")
        for name, query in (("one player's rounds", player), ("all players' rounds", everyone),
                            ("call success by player", calls)):
            parted = best(args.repeat, lambda q=query: q(scan(dataset, "rounds")))
            single = best(args.repeat, lambda q=query: q(pl.scan_parquet(flat)))
            print(f"  {name:<24} {parted:8.3f} | {single:8.3f} | {parted / single:6.1f}x")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
