"""What the command-line trials' tests share: the repository's sample logs, a CLI runner,
and a way to compare output whatever its line wrapping."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "sample_logs"
WISH = SAMPLES / "wish-ignored.jsonl"  # W001 at line 10

runner = CliRunner()


def flat(text: str) -> str:
    """``text`` with every run of white space (rich's line wrapping) made one space."""
    return " ".join(text.split())
