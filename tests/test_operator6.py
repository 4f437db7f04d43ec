"""What a game-server operator wiring ``check`` into nightly validation and CI, and a
tournament director auditing a disputed round, run into (the sixth new-user trial)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from tichu_analyze.cli import app

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "sample_logs"
WISH = SAMPLES / "wish-ignored.jsonl"

runner = CliRunner()


def flat(text: str) -> str:
    return " ".join(text.split())


def _sarif_uris(output: str) -> list[str]:
    run = json.loads(output)["runs"][0]
    return [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in run["results"]]


def test_sarif_locations_are_uris_for_paths_with_spaces_hashes_and_absolute_paths(
        tmp_path: Path, monkeypatch) -> None:
    """SARIF's ``artifactLocation.uri`` is a URI reference (RFC 3986): a log named
    ``a b#1%.jsonl`` was written as is, so a code-scanning tool read ``#1%.jsonl`` as a
    fragment; an absolute path was a bare path, not a ``file://`` URI."""
    folder = tmp_path / "night logs"
    folder.mkdir()
    shutil.copy(WISH, folder / "a b#1%.jsonl")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["check", "night logs", "-q", "-f", "sarif"])
    assert result.exit_code == 1, result.output
    assert _sarif_uris(result.stdout) == ["night%20logs/a%20b%231%25.jsonl"]
    result = runner.invoke(app, ["check", str(folder), "-q", "-f", "sarif"])
    assert _sarif_uris(result.stdout) == [(folder / "a b#1%.jsonl").as_uri()]
    assert _sarif_uris(result.stdout)[0].startswith("file:///")
