"""Benchmark of Dask on real games: `check` and `ingest` serial, with `--jobs 2` and on a
Dask LocalCluster of two workers, on copies of the real Brettspielwelt games.

    python benchmarks/bench_dask.py [--copies 3] [--no-ingest]

Copies the real `.tch` games of ``../shared/samples/bsw/`` ``--copies`` times under new
names into a temporary folder (2,044 games a copy: 3 copies are about 6,000 games), starts
a LocalCluster of two single-threaded workers (its start-up is timed and printed apart,
and left out of the rates), warms both kinds of workers on a few files, then times each
way once (wall time; see ``bench_scale.measure``) and prints games/s and the speed-ups
over serial (issue 25's target: 1.6x on 2 workers). On a shared machine the figures are
noisy: run it when the machine is quiet, and more than once.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench_scale import measure  # the same folder: run as a script

from tichu_analyze.readers.logfile import find_logs
from tichu_analyze.run.driver import DaskBackend

HERE = Path(__file__).resolve().parent


def samples() -> Path:
    """``shared/samples/bsw`` beside the checkout or one of its parent folders."""
    for folder in HERE.parents:
        if (folder / "shared" / "samples").is_dir():
            return folder / "shared" / "samples" / "bsw"
    raise SystemExit("no ../shared/samples/ beside this checkout")


def real_copies(folder: Path, copies: int) -> list[Path]:
    """The real games copied ``copies`` times into ``folder`` (``k-<name>``)."""
    games = sorted(samples().glob("*.tch"))
    if not games:
        raise SystemExit(f"no .tch games in {samples()}")
    for k in range(copies):
        for game in games:
            shutil.copyfile(game, folder / f"{k}-{game.name}")
    return find_logs([folder])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--copies", type=int, default=3, help="copies of the real games")
    ap.add_argument("--no-ingest", action="store_true", help="measure check only")
    args = ap.parse_args()

    import tichu_analyze.core.engine

    build = ("compiled with mypyc" if tichu_analyze.core.engine.__file__.endswith(".so")
             else "pure Python")
    print(f"tichu_analyze: {build}; Python {sys.version.split()[0]}; "
          f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start")
    scratch = Path(tempfile.mkdtemp(prefix="bench-dask-"))
    try:
        (scratch / "games").mkdir()
        files = real_copies(scratch / "games", args.copies)
        start = time.perf_counter()
        dask = DaskBackend("local", 2)
        print(f"Dask LocalCluster of 2 workers started in {time.perf_counter() - start:.1f} s")
        try:
            measure(f"real .tch games x{args.copies}", files, len(files), dask,
                    not args.no_ingest, scratch, files[:8])
        finally:
            dask.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
