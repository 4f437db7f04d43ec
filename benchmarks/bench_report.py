"""Time and peak memory of ``tichu-analyze report`` as the dataset grows.

A base corpus is simulated (``tichu-analyze simulate``) and ingested once; the datasets
of 10,000 and 100,000 games are then made from its tables, each copy with new game ids
(as if the same games had been played again), so that building them takes seconds while
the report reads as many rows as a real dataset of that size. Each size is reported on
in a fresh process, as text and as one HTML page; the script prints the wall time, the
peak resident memory of that process, and the dataset's rows and size on disk.

    python benchmarks/bench_report.py                      # 10,000 and 100,000 games
    python benchmarks/bench_report.py --games 2000 5000    # smaller, quicker
    python benchmarks/bench_report.py --base 200           # a smaller base corpus

Memory should grow far less than the dataset: the tables the report prints do not grow
with the number of games.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

TABLES = ("plays", "rounds", "games", "violations")


def _cli() -> list[str]:
    return [sys.executable, "-m", "tichu_analyze"]


def base_dataset(root: Path, games: int, seed: int) -> Path:
    """Simulate ``games`` games and ingest them."""
    log = root / "base.jsonl"
    ds = root / "base"
    subprocess.run([*_cli(), "simulate", "-n", str(games), "--seed", str(seed), "-o",
                    str(log)], check=True, capture_output=True)
    subprocess.run([*_cli(), "ingest", "-q", str(log), "-o", str(ds)], check=True,
                   capture_output=True)
    return ds


def grown(base: Path, out: Path, copies: int) -> Path:
    """A dataset of ``copies`` copies of ``base``'s rows, the game ids made unique."""
    for table in TABLES:
        rows = pl.read_parquet(str(base / table / "**" / "*.parquet"), hive_partitioning=False)
        (out / table).mkdir(parents=True)
        for k in range(copies):
            copy = rows.with_columns((pl.col("game") + f"#{k}").alias("game"))
            copy.write_parquet(out / table / f"part-{k:05d}.parquet", compression="zstd",
                               row_group_size=50_000)  # as ingest writes them
    return out


def measure(args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of one ``tichu-analyze`` run."""
    code = (
        "import resource, sys, time\n"
        "from tichu_analyze.cli import app\n"
        "t = time.perf_counter()\n"
        "try:\n"
        f"    app({args!r})\n"
        "except SystemExit as e:\n"
        "    assert not e.code, e.code\n"
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True, env={**os.environ, "COLUMNS": "100"})
    seconds, kib = done.stdout.split()[-2:]
    return float(seconds), int(kib) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000],
                        help="dataset sizes in games (multiples of --base)")
    parser.add_argument("--base", type=int, default=500, help="games simulated")
    parser.add_argument("--seed", type=int, default=1)
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp:
        root = Path(tmp)
        t = time.perf_counter()
        base = base_dataset(root, ns.base, ns.seed)
        print(f"base corpus: {ns.base} simulated games, ingested in "
              f"{time.perf_counter() - t:.0f} s")
        print(f"{'games':>8} {'rounds rows':>12} {'plays rows':>11} {'on disk':>9} "
              f"{'text s':>7} {'text MiB':>9} {'html s':>7} {'html MiB':>9}")
        for n in ns.games:
            copies = max(1, n // ns.base)
            ds = grown(base, root / f"ds{n}", copies)
            rounds = pl.scan_parquet(str(ds / "rounds" / "*.parquet")).select(pl.len())
            plays = pl.scan_parquet(str(ds / "plays" / "*.parquet")).select(pl.len())
            size = sum(p.stat().st_size for p in ds.rglob("*.parquet")) / 2**20
            text_s, text_mib = measure(["report", str(ds), "-f", "text", "-o",
                                        str(root / "r.txt")])
            html_s, html_mib = measure(["report", str(ds), "-o", str(root / "r.html")])
            print(f"{copies * ns.base:>8} {rounds.collect().item():>12} "
                  f"{plays.collect().item():>11} {size:>7.0f}MB {text_s:>7.1f} "
                  f"{text_mib:>9.0f} {html_s:>7.1f} {html_mib:>9.0f}", flush=True)
            for p in sorted(ds.rglob("*"), reverse=True):
                p.unlink() if p.is_file() else p.rmdir()
    print(f"(peak memory: the process's maximum resident set, {resource.getpagesize()} B "
          "pages; one run per size)")


if __name__ == "__main__":
    main()
