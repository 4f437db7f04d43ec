"""Benchmark of `check`: events per second against the parse-only rate, and peak memory.

    python benchmarks/bench_check.py [--games 400] [--repeat 3] [--baseline PYTHON ...]

Writes a corpus of simulated games (benchmarks/corpus/, reused when present),
then measures in this one run, on one core, in CPU seconds (best of ``--repeat``):

* parse-only: reading the same file line by line and decoding every line with
  msgspec (the JSON library the reader uses), generically and typed, and with
  orjson for comparison;
* check: the full replay with every rule checked, diagnostics discarded;
* the ratio check / parse-only;
* the peak memory (max RSS) of `check` in a fresh process on the corpus and on
  a corpus four times larger, to show that memory does not grow with the file.

``--baseline PYTHON`` (may be repeated): also time `check` under another
installation (e.g. the unchanged code's venv, ``/path/to/main/.venv/bin/python``)
on the same corpus, in a subprocess, alternating with this installation's runs
(the machine's load then weighs on both alike), and print the ratios. The
worker also runs code from before the visitor API (``replay_file(path, report)``).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import msgspec

try:
    from tichu_analyze.core.events import Event
    from tichu_analyze.readers.logfile import replay_file, write_log
    from tichu_analyze.sim.simulate import simulate
except ImportError:  # a baseline from before the role packages (--baseline)
    from tichu_analyze.events import Event  # type: ignore[no-redef]
    from tichu_analyze.logfile import replay_file, write_log  # type: ignore[no-redef]
    from tichu_analyze.simulate import simulate  # type: ignore[no-redef]

try:
    from tichu_analyze.core.visitor import DiagnosticVisitor
except ImportError:
    try:  # a baseline from before the role packages
        from tichu_analyze.visitor import DiagnosticVisitor  # type: ignore[no-redef]
    except ImportError:  # a baseline from before the visitor API (see check)
        DiagnosticVisitor = None  # type: ignore[assignment,misc]

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"


def corpus(games: int, seed: int = 2026) -> Path:
    """A simulated log of ``games`` games, written once and reused."""
    CORPUS.mkdir(exist_ok=True)
    path = CORPUS / f"sim-{games}-{seed}.jsonl"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        write_log(simulate(games, seed), tmp)
        tmp.replace(path)
    return path


def best_of(repeat: int, fn) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()  # CPU time: the machine is shared
        fn()
        best = min(best, time.process_time() - t)
    return best


def parse_generic(path: Path) -> None:
    decode = msgspec.json.Decoder().decode
    with open(path, "rb") as f:
        for line in f:
            decode(line)


def parse_typed(path: Path) -> None:
    decode = msgspec.json.Decoder(Event).decode
    with open(path, "rb") as f:
        for line in f:
            decode(line)


def parse_orjson(path: Path) -> None:
    import orjson

    loads = orjson.loads
    with open(path, "rb") as f:
        for line in f:
            loads(line)


def check(path: Path) -> None:
    found: list = []  # type: ignore[type-arg]
    if DiagnosticVisitor is not None:
        replay_file(path, DiagnosticVisitor(found.append))
    else:  # a baseline from before the visitor API: a report callback
        replay_file(path, found.append)  # type: ignore[arg-type]
    if any(d.severity != "warning" for d in found):
        raise SystemExit(f"the corpus {path} has error diagnostics: {found[:3]}")


def peak_memory_mib(path: Path) -> float:
    """Max RSS of a fresh process that checks ``path``."""
    code = (
        "import resource, sys; from pathlib import Path;"
        "from tichu_analyze.readers.logfile import replay_file;"
        "from tichu_analyze.core.visitor import Visitor;"
        "replay_file(Path(sys.argv[1]), Visitor());"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], check=True,
                         capture_output=True, text=True).stdout
    return int(out.strip()) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400, help="games in the corpus (>= 200)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (best kept)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--baseline", action="append", default=[], metavar="PYTHON",
                    help="another installation's python to time check under (repeatable)")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker is not None:  # one timed check of that file, as events/s
        seconds = best_of(1, lambda: check(args.worker))
        print(json.dumps({"seconds": seconds}))
        return

    path = corpus(args.games)
    with open(path, "rb") as f:
        events = sum(1 for line in f if line.strip())
    size = path.stat().st_size
    results: dict[str, float] = {}
    for name, fn in (
        ("parse_msgspec", parse_generic),
        ("parse_msgspec_typed", parse_typed),
        ("parse_orjson", parse_orjson),
        ("check", check),
    ):
        try:
            seconds = best_of(args.repeat, lambda fn=fn: fn(path))
        except ImportError:
            continue
        results[name] = events / seconds
    if args.baseline:
        # alternate: this installation, then each baseline, ``repeat`` times; best kept
        seconds = {"this": float("inf"), **{b: float("inf") for b in args.baseline}}
        for _ in range(args.repeat):
            seconds["this"] = min(seconds["this"], best_of(1, lambda: check(path)))
            for b in args.baseline:
                out = subprocess.run([b, __file__, "--worker", str(path)], check=True,
                                     capture_output=True, text=True).stdout
                seconds[b] = min(seconds[b], json.loads(out.strip().splitlines()[-1])["seconds"])
        results["check"] = events / min(seconds["this"], events / results["check"])
        baselines = {b: events / seconds[b] for b in args.baseline}
    else:
        baselines = {}
    ratio = results["check"] / results["parse_msgspec"]
    big = corpus(args.games * 4)
    mem_small = peak_memory_mib(path)
    mem_big = peak_memory_mib(big)
    resource.getrusage(resource.RUSAGE_SELF)

    if args.json:
        print(json.dumps({"events": events, "bytes": size, **results, "ratio": ratio,
                          "peak_mib": [mem_small, mem_big], "baselines": baselines}))
        return
    import tichu_analyze.core.engine

    build = ("compiled with mypyc" if tichu_analyze.core.engine.__file__.endswith(".so")
             else "pure Python")
    print(f"tichu_analyze: {build}; Python {sys.version.split()[0]}")
    print(f"corpus: {args.games} simulated games, {events:,} events, {size / 2**20:.1f} MiB")
    for name, rate in results.items():
        print(f"  {name:<22} {rate:>12,.0f} events/s")
    print(f"  check / parse-only (msgspec, generic) = {ratio:.2f}"
          f"  (typed: {results['check'] / results['parse_msgspec_typed']:.2f})")
    if "parse_orjson" in results:  # issue 25's measure: against orjson's parse-only rate
        print(f"  check / parse-only (orjson) = {results['check'] / results['parse_orjson']:.2f}")
    print(f"peak memory of check: {mem_small:.0f} MiB on {args.games} games, "
          f"{mem_big:.0f} MiB on {args.games * 4} games")
    for b, rate in baselines.items():
        print(f"  check under --baseline {b}: {rate:,.0f} events/s; this installation "
              f"/ baseline = {results['check'] / rate:.2f}")


if __name__ == "__main__":
    main()
