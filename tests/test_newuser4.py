"""What a game-server operator validating a pile of recorded games runs into (the fourth
new-user trial): outputs in folders that cannot be written, compressed logs cut short,
and the words of the reports."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tichu_analyze.cli import app

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "sample_logs"
WISH = SAMPLES / "wish-ignored.jsonl"

runner = CliRunner()


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_baseline_that_cannot_be_written_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    """Its temporary file could be neither made nor removed (a folder in the way, or a
    read-only file system): one error line naming the baseline, exit status 2."""
    (tmp_path / "afile").write_text("x")
    target = tmp_path / "afile" / "b.json"
    result = runner.invoke(app, ["check", str(WISH), "-q", "--write-baseline", str(target)])
    assert result.exit_code == 2, result.output
    assert f"{target}: cannot write the baseline: Not a directory" in flat(result.output)
    assert "Traceback" not in result.output and ".tmp" not in result.output
    assert (tmp_path / "afile").read_text() == "x"
