"""Benchmark of archive-scale `check`: serial, `--jobs 2` and `--scheduler local` (two
Dask workers), on many `.tch` games and on one large JSON-lines log, in one run.

    python benchmarks/bench_scale.py [--tch-games 5000] [--log-games 1000] [--ingest]

Writes its corpora to benchmarks/corpus/ (reused when present): ``--tch-games``
simulated games as Brettspielwelt `.tch` files (one game per file, written with
``bsw.write_tch``) and ``--log-games`` simulated games as one `.jsonl` log (about
1,050 events per game: 1,000 games are over a million events). Then, for each
corpus, the same command three ways:

* serial: today's one-process path;
* ``--jobs 2``: two local worker processes (the driver's ProcessBackend);
* ``--scheduler local``: an embedded Dask LocalCluster of two single-threaded
  worker processes (the cluster's start is timed apart and left out of the rate).

Both kinds of workers are started and warmed on a few games before the timing (a
long run amortizes that), so the rates are those of a running pool or cluster.

Prints games/s, games/s per worker core, the speedups over serial, Dask against
``--jobs``, and the time 2.4 million `.tch` games would take at the measured Dask rate
per core on 2, 16 and 64 cores (assuming the rate per core holds). ``--ingest`` also
measures `ingest` the same three ways. On a shared machine the figures are noisy.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_check import corpus  # the same folder: run as a script

from tichu_analyze.core.visitor import DiagnosticVisitor
from tichu_analyze.data.datasets import ingest
from tichu_analyze.data.staging import ingest_staged
from tichu_analyze.readers.bsw import write_tch
from tichu_analyze.readers.logfile import find_logs
from tichu_analyze.run.driver import Backend, DaskBackend, ProcessBackend
from tichu_analyze.run.progress import progress_over
from tichu_analyze.sim.simulate import simulate

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"
ARCHIVE_GAMES = 2_400_000


def tch_corpus(games: int, seed: int = 77) -> Path:
    """``games`` simulated games as .tch files in one folder, written once and reused."""
    folder = CORPUS / f"tch-{games}-{seed}"
    if not folder.is_dir():
        tmp = folder.with_name(folder.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        game: list[dict[str, object]] = []
        for event in simulate(games, seed):
            if event["type"] == "game_start" and game:
                _write_game(tmp, game)
                game = []
            game.append(event)
        if game:
            _write_game(tmp, game)
        tmp.rename(folder)
    return folder


def _write_game(folder: Path, events: list[dict[str, object]]) -> None:
    (folder / f"{events[0]['game']}.tch").write_text(write_tch(events), encoding="utf-8")  # type: ignore[arg-type]


def timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def check_with(files: list[Path], jobs: int, on: Backend | None) -> Callable[[], None]:
    def go() -> None:
        games = 0
        quiet = DiagnosticVisitor(lambda d: None)
        stream = progress_over(files, quiet, show=False, jobs=jobs) if on is None \
            else _driven(files, on)
        for _, stats in stream:
            games += getattr(stats, "games", 0)
        assert games, "no game was replayed"
    return go


def _driven(files: list[Path], on: Backend, task_bytes: int | None = None):  # type: ignore[no-untyped-def]
    from tichu_analyze.run.driver import check_task, plan, run

    for result in run(plan(files, on.workers, task_bytes=task_bytes), check_task,
                      (frozenset(),), on):
        yield result.path, result.stats


def warm(files: list[Path], *backends: Backend) -> None:
    """Start the worker processes and let each replay a few games before the timing, as
    a long run amortizes them (the pool's first tasks pay its forked workers' first
    touches of memory; a Dask worker imports the package on its first task)."""
    for on in backends:
        for _ in _driven(files, on, task_bytes=1):  # one task a file
            pass


def ingest_with(files: list[Path], on: Backend | None, out: Path) -> Callable[[], None]:
    def go() -> None:
        shutil.rmtree(out, ignore_errors=True)
        if on is None:
            ingest(files, out)
        else:
            ingest_staged(files, out, on)
    return go


def measure(label: str, files: list[Path], games: int, dask: DaskBackend,
            with_ingest: bool, scratch: Path, warm_files: list[Path]) -> dict[str, float]:
    print(f"\n{label}: {games:,} games in {len(files):,} file(s), "
          f"{sum(f.stat().st_size for f in files) / 2**20:.0f} MiB")
    rates: dict[str, float] = {}
    jobs = ProcessBackend(2)
    try:
        warm(warm_files, jobs, dask)
        runs: list[tuple[str, Callable[[], None], int]] = [
            ("check serial", check_with(files, 1, None), 1),
            ("check --jobs 2", check_with(files, 2, jobs), 2),
            ("check --scheduler local", check_with(files, 2, dask), 2),
        ]
        if with_ingest:
            runs += [
                ("ingest serial", ingest_with(files, None, scratch / "s"), 1),
                ("ingest --jobs 2", ingest_with(files, jobs, scratch / "j"), 2),
                ("ingest --scheduler local", ingest_with(files, dask, scratch / "d"), 2),
            ]
        for name, fn, cores in runs:
            seconds = timed(fn)
            rates[name] = games / seconds
            print(f"  {name:<26} {seconds:7.1f} s  {games / seconds:8.0f} games/s  "
                  f"{games / seconds / cores:8.0f} games/s per core")
    finally:
        jobs.close()
    for what in ("check", "ingest"):
        if f"{what} serial" not in rates:
            continue
        serial = rates[f"{what} serial"]
        j, d = rates[f"{what} --jobs 2"], rates[f"{what} --scheduler local"]
        print(f"  {what}: speedup --jobs 2 {j / serial:.2f}x, Dask {d / serial:.2f}x "
              f"(targets >= 1.8x); Dask / --jobs {d / j:.2f} (target >= 0.85)")
    return rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tch-games", type=int, default=5000)
    ap.add_argument("--log-games", type=int, default=1000)
    ap.add_argument("--ingest", action="store_true", help="also measure ingest")
    args = ap.parse_args()

    import tichu_analyze.core.engine

    build = ("compiled with mypyc" if tichu_analyze.core.engine.__file__.endswith(".so")
             else "pure Python")
    print(f"tichu_analyze: {build}; Python {sys.version.split()[0]}; "
          f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start")
    tch = find_logs([tch_corpus(args.tch_games)])
    log = corpus(args.log_games, seed=78)
    with open(log, "rb") as f:
        events = sum(1 for _ in f)
    start = time.perf_counter()
    dask = DaskBackend("local", 2)
    print(f"Dask LocalCluster of 2 workers started in {time.perf_counter() - start:.1f} s")
    scratch = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    try:
        tch_rates = measure(".tch archive", tch, args.tch_games, dask, args.ingest, scratch,
                            tch[:8])
        measure(f"JSON-lines log ({events:,} events)", [log], args.log_games, dask,
                args.ingest, scratch, tch[:8])
    finally:
        dask.close()
        shutil.rmtree(scratch, ignore_errors=True)
    per_core = tch_rates["check --scheduler local"] / 2
    print(f"\nprojected `check` of {ARCHIVE_GAMES:,} .tch games at "
          f"{per_core:.0f} games/s per core (Dask, measured above):")
    for cores in (2, 16, 64):
        seconds = ARCHIVE_GAMES / (per_core * cores)
        print(f"  {cores:>2} cores: {seconds / 3600:6.2f} h ({seconds / 60:,.0f} min)")
    if "ingest --scheduler local" in tch_rates:
        per_core = tch_rates["ingest --scheduler local"] / 2
        print(f"projected `ingest` at {per_core:.0f} games/s per core: " + ", ".join(
            f"{c} cores {ARCHIVE_GAMES / (per_core * c) / 3600:.2f} h" for c in (2, 16, 64)))


if __name__ == "__main__":
    main()
