"""What a new user runs into: clear messages for outputs that cannot be, inputs that hold
nothing, and commands that agree with each other."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tichu_analyze.cli import app

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "sample_logs"

runner = CliRunner()


def test_ingest_into_a_file_says_so(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    result = runner.invoke(app, ["ingest", str(SAMPLES), "--out", str(tmp_path / "afile" / "sub")])
    assert result.exit_code == 2
    assert f"{tmp_path / 'afile'} is a file, not a folder" in result.output
    assert "Errno" not in result.output
    assert (tmp_path / "afile").read_text() == "x"
