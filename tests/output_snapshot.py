"""The tool's outputs on the repository's inputs, written to a folder, to compare two builds.

    python tests/output_snapshot.py OUT [--tool PATH] [--quick]

runs ``check`` (every output format), ``ingest`` (each table's rows, sorted), ``convert``,
``replay`` (text and HTML) and ``report`` (text) on sample_logs/, the test fixtures and
the real games of ``../shared/samples/``, with the tool at ``--tool`` (default: the
``tichu-analyze`` beside this Python), and writes each output to a file of OUT.
``diff -r OUT1 OUT2`` then shows what a change moved. ``--quick`` leaves out the 2,044
real games (a minute of work). Not a test: a refactoring's witness.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from shared_data import SAMPLES

ROOT = Path(__file__).resolve().parent.parent


def _run(tool: str, args: list[str], out: Path, cwd: Path) -> None:
    """Run the tool; its stdout, stderr and exit status go to ``out``."""
    got = subprocess.run([tool, *args], cwd=cwd, capture_output=True, text=True,
                         env={"NO_COLOR": "1", "COLUMNS": "120", "PATH": "/usr/bin:/bin",
                              "HOME": str(cwd)})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(f"$ {' '.join(args)}\nexit {got.returncode}\n--- stdout\n{got.stdout}"
                   f"--- stderr\n{got.stderr}")


def _tables(dataset: Path, out: Path) -> None:
    """Each table of a dataset as sorted JSON lines."""
    import polars as pl

    out.mkdir(parents=True, exist_ok=True)
    for table in sorted(p for p in dataset.iterdir() if p.is_dir() and not p.name.startswith("_")):
        frame = pl.scan_parquet(table / "**" / "*.parquet", hive_partitioning=True).collect()
        frame = frame.select(sorted(frame.columns))
        frame.sort([c for c, t in frame.schema.items() if not t.is_nested()]).write_ndjson(
            out / f"{table.name}.jsonl")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--tool", default=str(Path(sys.executable).parent / "tichu-analyze"))
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    out: Path = args.out.resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    tool = args.tool
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        # the inputs, copied so that every path printed is relative and the same
        shutil.copytree(ROOT / "sample_logs", work / "sample_logs")
        shutil.copytree(ROOT / "tests" / "fixtures", work / "fixtures",
                        ignore=shutil.ignore_patterns("*.py", "*.md"))
        shutil.copy(SAMPLES / "2417500.tch", work / "2417500.tch")
        inputs = ["sample_logs", "fixtures", "2417500.tch"]
        if not args.quick:
            shutil.copytree(SAMPLES / "bsw", work / "bsw", ignore=shutil.ignore_patterns("*.json"))
            inputs.append("bsw")
        for name in inputs:
            for fmt in ("text", "full", "json", "sarif", "github"):
                _run(tool, ["check", name, "-f", fmt, "--exit-zero"],
                     out / "check" / f"{name}.{fmt}", work)
            _run(tool, ["check", name, "--statistics", "--exit-zero"],
                 out / "check" / f"{name}.statistics", work)
            _run(tool, ["games", name], out / "games" / name, work)
            _run(tool, ["convert", name, "-o", f"{name}.converted.jsonl"],
                 out / "convert" / f"{name}.log", work)
            converted = work / f"{name}.converted.jsonl"
            if converted.exists():
                shutil.copy(converted, out / "convert" / f"{name}.jsonl")
                _run(tool, ["check", converted.name, "-f", "json", "--exit-zero"],
                     out / "convert" / f"{name}.check", work)
        for name in ("sample_logs", "2417500.tch", *(["bsw"] if not args.quick else [])):
            dataset = work / f"{name}.dataset"
            _run(tool, ["ingest", name, "--out", dataset.name], out / "ingest" / f"{name}.log",
                 work)
            if dataset.exists():
                _tables(dataset, out / "ingest" / name)
                _run(tool, ["report", dataset.name, "-f", "text"],
                     out / "report" / f"{name}.txt", work)
        for log in sorted((work / "sample_logs").glob("*.jsonl")) + [work / "2417500.tch"]:
            rel = str(log.relative_to(work))
            _run(tool, ["replay", rel], out / "replay" / f"{log.name}.txt", work)
            _run(tool, ["replay", rel, "--format", "html", "-o", f"{log.name}.html"],
                 out / "replay" / f"{log.name}.html.log", work)
            html = work / f"{log.name}.html"
            if html.exists():
                shutil.copy(html, out / "replay" / f"{log.name}.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
