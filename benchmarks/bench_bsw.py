"""Checking Brettspielwelt .tch files: games/s, next to the same games as JSON lines.

    python benchmarks/bench_bsw.py [--games 2000] [--repeat 1] [--baseline PYTHON ...]

Writes simulated games as .tch files (one game per file, in BSW's style, via
``bsw.write_tch``) into benchmarks/corpus/tch-<games>-<seed>/ and adds the
real sample (sample_logs/2417500.tch); the same games, as the reader converts
them, go to one format-1 log beside it. Then checks the .tch folder and the
log, each in a fresh process, the way `tichu-analyze check` does (reading,
converting, replaying), and prints for each the games and events per second of
CPU time (the machine is shared: CPU time varies less than wall time), their
ratio, and the projected time for the 2.4 million games of the archive on 2
cores (`check --jobs 2`). ``--repeat``: runs of each, the fastest counts.

``--baseline PYTHON`` (may be repeated): also time the .tch folder under another
installation (e.g. the unchanged code's venv, ``/path/to/main/.venv/bin/python``;
code from before the visitor API runs too), and print the speed-up. Every
installation, this one included, is timed in a fresh process of its own, in two
passes over the same files: the first from a cold start, the second with the memos
(of combinations, of play lines) the first filled, as in a long run's steady state;
both are printed, and the projection uses the second.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "sample_logs" / "2417500.tch"
ARCHIVE = 2_400_000
CORES = 2


def corpus(games: int, seed: int = 2027) -> tuple[Path, Path]:
    """A folder of ``games`` simulated .tch files and the real sample, and the same
    games as one .jsonl file."""
    from tichu_analyze.readers.bsw import Unreadable, event_dict, read_tch, write_tch
    from tichu_analyze.readers.logfile import find_logs, tch_game_id, write_log
    from tichu_analyze.sim.simulate import simulate

    folder = HERE / "corpus" / f"tch-{games}-{seed}"
    jsonl = HERE / "corpus" / f"tch-{games}-{seed}-converted.jsonl"
    if not folder.exists() or not any(folder.iterdir()):
        folder.mkdir(parents=True, exist_ok=True)
        by_game: dict[str, list[dict[str, object]]] = {}
        for e in simulate(games, seed):
            by_game.setdefault(str(e["game"]), []).append(e)
        for n, evs in enumerate(by_game.values(), 1):
            (folder / f"{n:07d}.tch").write_text(write_tch(evs), encoding="utf-8")
    if not (folder / SAMPLE.name).exists():
        shutil.copyfile(SAMPLE, folder / SAMPLE.name)
    if not jsonl.exists():
        def converted() -> Iterator[dict[str, object]]:
            for path in find_logs([folder]):
                with open(path, "rb") as f:
                    for _, ev in read_tch(f, tch_game_id(path)):
                        if not isinstance(ev, Unreadable):
                            yield event_dict(ev)

        write_log(converted(), jsonl)
    return folder, jsonl


def check_all(paths: list[Path]) -> dict[str, float]:
    """Check ``paths`` one by one as `check` does; games, events, errors, CPU seconds."""
    from tichu_analyze.core.diagnostics import Diagnostic
    from tichu_analyze.readers.logfile import replay_file

    try:
        from tichu_analyze.core.visitor import DiagnosticVisitor
    except ImportError:  # a --baseline from before the visitor API: a report callback
        def DiagnosticVisitor(report):  # type: ignore[no-untyped-def] # noqa: N802
            return report

    errors = games = events = 0
    t = time.process_time()
    for p in paths:
        found: list[Diagnostic] = []
        stats = replay_file(p, DiagnosticVisitor(found.append))
        errors += sum(d.severity != "warning" for d in found)
        games += stats.games
        events += stats.events
    return {"games": games, "events": events, "errors": errors,
            "seconds": time.process_time() - t}


def worker(paths: list[Path]) -> None:
    """``--worker PATH...``: time the logs of the PATHs (files, or folders of .tch files),
    print the result as JSON."""
    from tichu_analyze.readers.logfile import find_logs

    logs = find_logs(paths)
    print(json.dumps({phase: check_all(logs) for phase in PHASES}))


PHASES = ("cold", "warm")
"""The two passes over the same logs in one process: the first from a cold start, the
second with the memos (of combinations, of play lines) the first filled, as in the
steady state of a long run such as the archive's."""


def timed(python: str, *paths: Path) -> dict[str, dict[str, float]]:
    """:func:`worker` under ``python`` in a fresh process: every installation, this one
    included, is timed the same way (two passes, :data:`PHASES`)."""
    out = subprocess.run([python, str(Path(__file__).resolve()), "--worker", *map(str, paths)],
                         check=True, capture_output=True, text=True).stdout
    figures: dict[str, dict[str, float]] = json.loads(out.strip().splitlines()[-1])
    return figures


def line(label: str, r: dict[str, float]) -> str:
    rate = r["games"] / r["seconds"]
    return (f"  {label:<28} {rate:8,.0f} games/s {r['events'] / r['seconds']:10,.0f} events/s"
            f"  ({r['games']:,.0f} games, {r['seconds']:.1f} s CPU, {r['errors']:.0f} errors)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=1, help="runs; the fastest counts")
    ap.add_argument("--baseline", action="append", default=[], metavar="PYTHON",
                    help="another installation's python to compare with (repeatable)")
    ap.add_argument("--worker", type=Path, nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker is not None:
        worker(args.worker)
        return
    from tichu_analyze.readers.logfile import find_logs

    folder, jsonl = corpus(args.games)
    files = find_logs([folder])
    here = sys.executable
    best: dict[str, dict[str, float]] = {}

    def keep(name: str, r: dict[str, float]) -> None:
        if name not in best or r["seconds"] < best[name]["seconds"]:
            best[name] = r

    def keep_phases(name: str, r: dict[str, dict[str, float]]) -> None:
        for phase in PHASES:
            keep(f"{phase} {name}", r[phase])

    for _ in range(args.repeat):
        keep_phases("tch", timed(here, folder))
        keep_phases("jsonl", timed(here, jsonl))
        for b in args.baseline:
            keep_phases(f"baseline {b}", timed(b, folder))
        keep("sample", check_all([SAMPLE] * 20))

    print(f"corpus: {len(files):,} .tch files ({args.games:,} simulated games and the real "
          f"sample) and the same games as one JSON-lines log; Python "
          f"{sys.version.split()[0]}; each installation in a fresh process, two passes")
    for phase, what in (("cold", "first pass, from a cold start"),
                        ("warm", "second pass, memos filled: a long run's steady state")):
        tch, js = best[f"{phase} tch"], best[f"{phase} jsonl"]
        print(f"{what}:")
        print(line(".tch, one file per game", tch))
        print(line("same games as JSON lines", js))
        ratio = (tch["seconds"] / tch["games"]) / (js["seconds"] / js["games"])
        print(f"  .tch / JSON lines time per game = {ratio:.2f}")
        for name in args.baseline:
            b = best[f"{phase} baseline {name}"]
            print(line(".tch under --baseline", b) + f"  {name}")
            speedup = (b["seconds"] / b["games"]) / (tch["seconds"] / tch["games"])
            print(f"  speed-up over that baseline = {speedup:.2f}x")
    s = best["sample"]
    print(line("real sample 2417500.tch x20", s))
    tch = best["warm tch"]
    hours = ARCHIVE / (tch["games"] / tch["seconds"]) / CORES / 3600
    print(f"projected (steady state): {ARCHIVE:,} games on {CORES} cores (check --jobs {CORES}) "
          f"in about {hours:.1f} h (simulated games; the archive's average game may differ)")


if __name__ == "__main__":
    main()
