"""The benchmark scripts still run against the library (tiny sizes, nothing timed).

Benchmarks are not type-checked with the package, so an API change could leave one
broken until someone measures again; this runs each once on a few games and checks
that it printed its rates. The figures themselves are never asserted.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from shared_data import SAMPLES

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize(("script", "args", "printed"), [
    ("bench_check.py", ["--games", "10", "--repeat", "1"], "events/s"),
    ("bench_bsw.py", ["--games", "10"], "games/s"),
    ("bench_ingest.py", ["--games", "10", "--repeat", "1"], "ingest / check"),
    ("bench_layout.py", ["--games", "40", "--players", "12", "--repeat", "1"], "files"),
    ("bench_scale.py", ["--tch-games", "30", "--log-games", "10"], "games/s per core"),
    ("bench_review.py", ["--games", "5", "--samples", str(SAMPLES / "bsw")], "decisions/s"),
])
def test_benchmark_script_runs(script: str, args: list[str], printed: str) -> None:
    if "--samples" in args and not (SAMPLES / "bsw").is_dir():
        pytest.skip("needs ../shared/samples/bsw")
    done = subprocess.run([sys.executable, str(BENCH / script), *args], cwd=BENCH,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert printed in done.stdout, done.stdout[-3000:]
    assert "Traceback" not in done.stderr
