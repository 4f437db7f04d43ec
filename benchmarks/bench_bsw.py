"""Time to check Brettspielwelt .tch files, per 1,000 games.

    python benchmarks/bench_bsw.py [--games 300]

Writes simulated games as .tch files (one game per file, in BSW's style, via
``bsw.write_tch``) into benchmarks/corpus/tch-<games>/, then checks the whole
folder in this process the way `tichu-analyze check DIR` does (reading,
converting, replaying), and prints the seconds per 1,000 games, next to the
same games read as one format-1 log. The real sample (sample_logs/2417500.tch)
is timed too.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from tichu_analyze.bsw import write_tch
from tichu_analyze.logfile import find_logs, replay_file, write_log
from tichu_analyze.simulate import simulate
from tichu_analyze.visitor import DiagnosticVisitor

HERE = Path(__file__).parent
SAMPLE = HERE.parent / "sample_logs" / "2417500.tch"


def corpus(games: int, seed: int = 2027) -> tuple[Path, Path]:
    """A folder of ``games`` .tch files and the same games as one .jsonl file."""
    folder = HERE / "corpus" / f"tch-{games}-{seed}"
    jsonl = HERE / "corpus" / f"tch-{games}-{seed}.jsonl"
    if not folder.exists() or not jsonl.exists():
        folder.mkdir(parents=True, exist_ok=True)
        events = list(simulate(games, seed))
        write_log(events, jsonl)
        by_game: dict[str, list[dict]] = {}
        for e in events:
            by_game.setdefault(str(e["game"]), []).append(e)
        for n, (_, evs) in enumerate(by_game.items(), 1):
            (folder / f"{n:07d}.tch").write_text(write_tch(evs), encoding="utf-8")
    return folder, jsonl


def check_all(paths: list[Path]) -> tuple[int, int]:
    errors = 0
    games = 0
    for p in paths:
        found = []
        stats = replay_file(p, DiagnosticVisitor(found.append))
        errors += sum(d.severity != "warning" for d in found)
        games += stats.games
    return games, errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    folder, jsonl = corpus(args.games)
    files = find_logs([folder])

    t = time.perf_counter()
    games, errors = check_all(files)
    tch_seconds = time.perf_counter() - t
    t = time.perf_counter()
    check_all([jsonl])
    jsonl_seconds = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(20):
        check_all([SAMPLE])
    sample_seconds = (time.perf_counter() - t) / 20

    print(f"{games} simulated games as .tch files ({errors} error diagnostics)")
    print(f"  .tch, one file per game: {tch_seconds / games * 1000:6.1f} s per 1,000 games")
    print(f"  same games as .jsonl:    {jsonl_seconds / games * 1000:6.1f} s per 1,000 games")
    print(f"real sample 2417500.tch (10 rounds): {sample_seconds * 1000:.1f} ms "
          f"= {sample_seconds * 1000:.1f} s per 1,000 such games")


if __name__ == "__main__":
    main()
