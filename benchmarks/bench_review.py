"""Reviewing real Brettspielwelt games: decisions reviewed per second, against `check`.

    python benchmarks/bench_review.py [--games 2044] [--repeat 1]

Takes the first ``--games`` real games of ../shared/samples/bsw/ and, in this process,
replays them once as `check` does (the baseline, measured in the same run), then reviews
them as `tichu-analyze review` does: the sure outs given up (R001) at every decision and
the calls against the shipped model (R003). Prints the decisions (plays and passes of
the play phase) per second of CPU time, the review's time per game, its ratio to
`check`, the findings per code, and the projected time for the 2.4 million games of the
archive on 2 cores. ``--repeat``: runs of each, the fastest counts.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLES = HERE.parent.parent / "shared" / "samples" / "bsw"
ARCHIVE = 2_400_000
CORES = 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2044)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--samples", type=Path, default=SAMPLES)
    args = parser.parse_args()

    from tichu_analyze.analysis.calls import reference
    from tichu_analyze.cli.review import calls_review
    from tichu_analyze.core.events import Pass, Play
    from tichu_analyze.core.state import GameState, Phase, RoundState, Step
    from tichu_analyze.core.visitor import DiagnosticVisitor
    from tichu_analyze.readers.logfile import replay_file
    from tichu_analyze.review.reviewer import Reviewer

    files = sorted(args.samples.glob("*.tch"))[: args.games]
    if not files:
        print(f"no .tch files in {args.samples}", file=sys.stderr)
        return 2

    class Counting(Reviewer):
        decisions = 0

        def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
            if isinstance(step.event, Play | Pass) and rnd.phase == Phase.PLAY:
                Counting.decisions += 1
            super().visit_event(game, rnd, step)

    def check() -> float:
        start = time.process_time()
        for path in files:
            replay_file(path, DiagnosticVisitor(lambda d: None))
        return time.process_time() - start

    table = reference()
    codes: Counter[str] = Counter()

    def review() -> float:
        Counting.decisions = 0
        codes.clear()
        start = time.process_time()
        for path in files:
            reviewer = Counting(per_round=calls_review(table))
            replay_file(path, reviewer)
            codes.update(f.code for f in reviewer.findings)
        return time.process_time() - start

    checked = min(check() for _ in range(args.repeat))
    reviewed = min(review() for _ in range(args.repeat))
    n = len(files)
    print(f"{n} real games, {Counting.decisions:,} decisions (plays and passes)")
    print(f"check:  {checked:8.2f} s CPU  {n / checked:8.1f} games/s")
    print(f"review: {reviewed:8.2f} s CPU  {n / reviewed:8.1f} games/s  "
          f"{Counting.decisions / reviewed:,.0f} decisions/s  "
          f"{1000 * reviewed / n:.1f} ms per game")
    print(f"review / check: {reviewed / checked:.2f}x the time of check")
    print("findings: " + ", ".join(f"{c} {k}" for c, k in sorted(codes.items())))
    hours = ARCHIVE * reviewed / n / CORES / 3600
    print(f"the archive's {ARCHIVE:,} games on {CORES} cores: about {hours:.1f} h")
    return 0


if __name__ == "__main__":
    sys.exit(main())
