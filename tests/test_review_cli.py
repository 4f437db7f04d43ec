"""``tichu-analyze review`` end to end, and the calls review (R003) it adds to the
reviewer, on real Brettspielwelt games and the sample logs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from shared_data import SAMPLES
from typer.testing import CliRunner

from tichu_analyze.analysis.calls import BAND_HIGH, BAND_LOW, CallTable, Cell
from tichu_analyze.cli import app
from tichu_analyze.cli.review import calls_review
from tichu_analyze.core.events import Call
from tichu_analyze.readers.bsw import read_tch
from tichu_analyze.review.findings import ADVISORIES
from tichu_analyze.review.reviewer import review_file

pytestmark = pytest.mark.skipif(not (SAMPLES / "bsw").is_dir(),
                                reason="needs ../shared/samples/bsw")
REAL = SAMPLES / "bsw" / "1261030.tch"
SAMPLE_LOGS = Path(__file__).parent.parent / "sample_logs"
runner = CliRunner()
LINE = re.compile(r"^(?P<file>.+):(?P<line>\d+): (?P<code>R\d{3}) game (?P<game>\S+) "
                  r"round (?P<round>\d+)( trick \d+)? seat (?P<seat>\d) \((?P<player>.*?)\): "
                  r"(?P<message>.+)$")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_text_findings_are_linter_lines_and_the_summary_says_what_was_looked_at() -> None:
    code, out, err = run("review", str(REAL))
    assert code == 0, err
    lines = out.splitlines()
    assert lines
    parsed = [LINE.match(line) for line in lines]
    assert all(parsed), [line for line, m in zip(lines, parsed, strict=True) if not m]
    codes = {m["code"] for m in parsed if m}
    assert codes <= set(ADVISORIES) and "R001" in codes
    assert any(m["line"] == "251" and m["code"] == "R001" and m["player"] == "fontas"
               for m in parsed if m)
    assert "at most 8 cards" in err and "calls model: reference" in err
    assert "all hands open from 10 cards left" in err


def test_json_and_sarif_hold_the_same_findings() -> None:
    code, out, _ = run("review", str(REAL), "-f", "json", "-q")
    assert code == 0
    found = json.loads(out)
    assert found and {f["code"] for f in found} <= set(ADVISORIES)
    for f in found:
        assert f["file"] == str(REAL) and isinstance(f["line"], int) and f["game"] == "1261030"
        assert f["name"] == ADVISORIES[f["code"]].name
        assert f["hindsight"] is (f["code"] == "R002")
        if f["code"] == "R002":
            assert f["message"].startswith("with all hands open")
            assert f["detail"]["limit"] == 10
    code, out, _ = run("review", str(REAL), "-f", "sarif", "-q")
    assert code == 0
    sarif = json.loads(out)
    assert sarif["version"] == "2.1.0"
    results = sarif["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
            for r in results] == [(f["code"], f["line"]) for f in found]
    assert {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]} == set(ADVISORIES)


def test_select_and_ignore_keep_the_codes_asked_for() -> None:
    _, out, _ = run("review", str(REAL), "--select", "R001", "-f", "json", "-q")
    assert {f["code"] for f in json.loads(out)} == {"R001"}
    _, out, _ = run("review", str(REAL), "--ignore", "R001", "-f", "json", "-q")
    assert {f["code"] for f in json.loads(out)} == {"R002", "R003"}
    _, out, _ = run("review", str(REAL), "--select", "R002", "--endgame-limit", "6", "-f",
                    "json", "-q")
    small = json.loads(out)
    assert all(f["detail"]["limit"] == 6 for f in small)
    code, _, err = run("review", str(REAL), "--select", "W001")
    assert code == 2 and "no review code" in err


def test_at_a_line_says_whether_it_was_sure() -> None:
    code, out, _ = run("review", str(REAL), "--at", "251")
    assert code == 0
    assert "seat 0 (fontas) held a sure out: As Ap, then" in out
    code, out, _ = run("review", str(REAL), "--at", "250")
    assert code == 0 and "held no sure out here" in out
    code, _, err = run("review", str(REAL), str(SAMPLE_LOGS / "late-tichu.jsonl"), "--at", "3")
    assert code == 2 and "exactly one log" in err
    code, _, err = run("review", str(REAL), "--at", "1")
    assert code == 2 and "no play or pass" in err


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    code, out, err = run("review", str(tmp_path / "nosuch.jsonl"))
    assert code == 2 and out == "" and "Traceback" not in err
    code, _, err = run("review", str(REAL), "--calls-model", str(tmp_path))
    assert code == 2 and "not a dataset" in err and len(err.strip().splitlines()) == 1


def test_the_calls_model_can_be_the_users_own_dataset(tmp_path: Path) -> None:
    dataset = tmp_path / "ds"
    code, _, err = run("ingest", str(SAMPLE_LOGS), "--out", str(dataset), "-q")
    assert code == 0, err
    code, _, err = run("review", str(SAMPLE_LOGS), "--calls-model", str(dataset))
    assert code == 0, err
    assert f"calls model: {dataset}" in err


def test_rules_explains_the_review_codes() -> None:
    code, out, _ = run("rules", "R001")
    assert code == 0 and "advisory" in out and "sure out" in out
    code, out, _ = run("rules")
    assert "review codes" in out and "R003" in out


def test_a_call_the_model_says_loses_is_r003_at_its_line() -> None:
    # a model where no hand ever goes out first: every call loses, every pass is right
    cells = {(d, b, partner, score): Cell(1000, 0)
             for d in ("grand_tichu", "tichu") for b in range(BAND_LOW, BAND_HIGH + 1)
             for partner in (False, True) for score in ("behind", "level", "ahead")}
    table = CallTable(cells, {"games": 1, "seat_rounds": 1000})
    found = [f for f in review_file(REAL, sure_outs=False, per_round=calls_review(table))]
    calls = [(line, ev.seat) for line, ev in read_tch(REAL.read_bytes(), "1261030")
             if isinstance(ev, Call)]
    assert calls
    assert {(f.line, f.seat) for f in found} == set(calls)
    assert all(f.code == "R003" and "loses" in f.message and "±" in f.message for f in found)


def test_replay_marks_the_findings_under_their_events(tmp_path: Path) -> None:
    code, out, err = run("replay", str(REAL), "-r", "3", "--review", "--color", "never")
    assert code == 0, err
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("◆ R001"))
    assert "line 251" in lines[at - 1] and "fontas" in lines[at - 1]  # under its decision
    assert "review: 1 finding marked" in err
    page = tmp_path / "r11.html"
    code, _, err = run("replay", str(REAL), "-r", "11", "--review", "-f", "html", "-o",
                       str(page))
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert html.count('class="finding"') >= 1 and "all hands open" in html
    code, out, _ = run("replay", str(REAL), "-r", "3", "--color", "never")
    assert "◆" not in out  # without --review, nothing of it
