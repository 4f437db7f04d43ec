"""The words of the audit view (``replay``) for the events whose meaning depends on the
rules in force: under ``bsw`` (rules.md 9.4) the winner's pass once every other seat
passed takes its trick, and is said so; under the publisher's rules the same pass is a
P006 and reads as a pass."""

from __future__ import annotations

from pathlib import Path

from test_bsw_rules import log, write
from typer.testing import CliRunner

from tichu_analyze.cli import app

# Ann leads the Mahjong, the three others pass, Ann passes (under bsw: takes the trick),
# then leads again.
SCRIPT = [(0, ["Mahjong"]), 1, 2, 3, 0, (0, ["Kj"])]


def _replay_text(path: Path) -> str:
    result = CliRunner().invoke(app, ["replay", str(path)], env={"NO_COLOR": "1",
                                                                  "COLUMNS": "200"})
    assert "Traceback" not in result.output
    return " ".join(result.output.split())


def test_the_winners_taking_pass_under_bsw_reads_as_taking_the_trick(tmp_path: Path) -> None:
    text = _replay_text(write(tmp_path, log(SCRIPT, ["bsw"])))
    line = len(log(SCRIPT, ["bsw"])) - 1  # the pass: the event before the last
    assert f"line {line} Ann (0) takes the trick of their Mahjong (a pass: bsw rules 9.4)" \
        in text
    assert "passes on their own" not in text and "P006" not in text


def test_the_same_pass_under_the_publishers_rules_is_a_pass(tmp_path: Path) -> None:
    text = _replay_text(write(tmp_path, log(SCRIPT)))
    assert "Ann (0) passes on their own Mahjong" in text and "P006" in text
    assert "takes the trick of their" not in text
