"""The check, rules, schema and simulate commands, through typer's CliRunner."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.core.diagnostics import RULES

FIXTURES = Path(__file__).parent / "fixtures" / "rules"
WISH = FIXTURES / "W001_pass_holding_rank.jsonl"
CLEAN = FIXTURES / "W001_ok_plays_wished_rank.jsonl"
WARNING_ONLY = FIXTURES / "L004_unknown_event.jsonl"

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_clean_log_exits_0_with_summary() -> None:
    code, out, err = run("check", str(CLEAN))
    assert code == 0, err
    assert out == ""
    assert "1 file" in err and "no diagnostics" in err


def test_violation_exits_1_with_linter_line() -> None:
    code, out, err = run("check", str(WISH))
    assert code == 1
    [line] = out.splitlines()
    assert line.startswith(f"{WISH}:")
    path_line, rest = line.split(": W001 wish-ignored: ", 1)
    assert int(path_line.rsplit(":", 1)[1]) > 1
    assert "(game g1, round 1, trick 1, seat 1 " in rest
    assert "W001" in err and "wish-ignored" in err


def test_warnings_alone_exit_0() -> None:
    code, out, _ = run("check", str(WARNING_ONLY))
    assert code == 0
    assert "L004 unknown-event: [warning]" in out


def test_json_lines_format_has_the_documented_fields() -> None:
    code, out, _ = run("check", "--format", "json", str(WISH))
    assert code == 1
    [obj] = [json.loads(line) for line in out.splitlines()]
    assert set(obj) >= {"code", "name", "severity", "file", "line", "game", "round", "trick",
                        "seat", "player", "message"}
    assert (obj["code"], obj["name"], obj["severity"], obj["seat"]) == (
        "W001", "wish-ignored", "error", 1)


def test_sarif_format(tmp_path: Path) -> None:
    out_file = tmp_path / "out.sarif"
    code, _, _ = run("check", "--format", "sarif", "-o", str(out_file), str(WISH))
    assert code == 1
    sarif = json.loads(out_file.read_text())
    assert sarif["version"] == "2.1.0"
    run0 = sarif["runs"][0]
    assert [r["id"] for r in run0["tool"]["driver"]["rules"]] == list(RULES)
    [result] = run0["results"]
    assert result["ruleId"] == "W001"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] > 1


def test_github_format() -> None:
    code, out, _ = run("check", "--format", "github", str(WISH))
    assert code == 1
    assert out.startswith(f"::error file={WISH},line=")


def test_select_and_ignore_by_prefix() -> None:
    code, out, _ = run("check", "--ignore", "W", str(WISH))
    assert (code, out) == (0, "")
    code, out, _ = run("check", "--select", "P,S", str(WISH))
    assert (code, out) == (0, "")
    code, out, _ = run("check", "--select", "w00", str(WISH))
    assert code == 1 and "W001" in out


def test_unknown_select_prefix_is_a_usage_error() -> None:
    code, _, err = run("check", "--select", "Z9", str(WISH))
    assert code == 2
    assert "Z9" in err and "Traceback" not in err


def test_missing_path_exits_2_without_traceback() -> None:
    code, out, err = run("check", "no/such/file.jsonl")
    assert code == 2
    assert "no such file or directory" in err
    assert "Traceback" not in err + out


def test_directory_without_logs_exits_2(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    code, _, err = run("check", str(tmp_path))
    assert code == 2
    assert "no log files found" in err


def test_corrupt_gzip_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl.gz"
    bad.write_bytes(b"\x1f\x8bnot really gzip")
    code, _, err = run("check", str(bad))
    assert code == 2
    assert "cannot read" in err and "Traceback" not in err


def test_directory_is_searched_recursively_with_compression(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    data = WISH.read_bytes()
    with gzip.open(tmp_path / "a" / "b" / "x.jsonl.gz", "wb") as f:
        f.write(data)
    import zstandard

    (tmp_path / "a" / "y.jsonl.zst").write_bytes(zstandard.ZstdCompressor().compress(data))
    code, out, err = run("check", str(tmp_path))
    assert code == 1
    assert out.count("W001") == 2
    assert "2 files" in err


def test_rules_catalogue_and_one_rule() -> None:
    code, out, _ = run("rules")
    assert code == 0
    for c in ("L001", "W001", "S004"):
        assert c in out
    code, out, _ = run("rules", "w001")
    assert code == 0
    assert "W001 wish-ignored" in out and "Example" in out


def test_rules_unknown_code() -> None:
    code, _, err = run("rules", "Q123")
    assert code == 2 and "unknown code" in err


def test_schema_is_json() -> None:
    code, out, _ = run("schema")
    assert code == 0
    assert json.loads(out)["$schema"].startswith("https://json-schema.org/")


def test_simulate_is_reproducible_and_clean(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    code, _, said = run("simulate", "-n", "2", "--seed", "5", "-o", str(a))
    assert code == 0 and said.startswith("wrote 2 games to")
    assert run("simulate", "-n", "2", "--seed", "5", "-o", str(b), "-q")[:3:2] == (0, "")
    assert a.read_bytes() == b.read_bytes()
    code, out, err = run("check", str(a))
    assert (code, out) == (0, ""), err


def test_simulate_variants(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    code, _, err = run("simulate", "-n", "1", "--variant", "trichu", "--target", "3",
                       "-o", str(out))
    assert code == 0, err
    start = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert (start["variants"], start["target"], len(start["players"])) == (["trichu"], 3, 4)
    for bad in (["--variant", "tientsin", "--variant", "trichu"], ["--variant", "nonsense"],
                ["--variant", "trichu", "--target", "4"]):
        code, _, err = run("simulate", "-n", "1", "-o", str(tmp_path / "x.jsonl"), *bad)
        assert code == 2 and "error:" in err and "Traceback" not in err
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize("args", [["--help"], ["check", "--help"], ["rules", "--help"]])
def test_help(args: list[str]) -> None:
    code, out, _ = run(*args)
    assert code == 0 and "Usage" in out


def test_python_dash_m(tmp_path: Path) -> None:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "tichu_analyze", "check", "-q", str(WISH)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "W001" in proc.stdout


SAMPLE_TCH = Path(__file__).parents[1] / "sample_logs" / "2417500.tch"


def test_convert_tch_to_a_clean_format1_log(tmp_path: Path) -> None:
    out = tmp_path / "bsw.jsonl.gz"
    code, _, err = run("convert", str(SAMPLE_TCH), "-o", str(out))
    assert code == 0, err
    with gzip.open(out, "rt", encoding="utf-8") as f:
        events = [json.loads(line) for line in f]
    assert events[0]["type"] == "game_start" and events[0]["game"] == "2417500"
    assert sum(e["type"] == "round_end" for e in events) == 10
    code, out_text, _ = run("check", str(out))
    assert (code, out_text) == (0, "")


def test_convert_reports_unreadable_lines(tmp_path: Path) -> None:
    text = SAMPLE_TCH.read_bytes().decode("utf-8").splitlines()
    text[20] = "(9)nobody: ?? what is this"
    bad = tmp_path / "123.tch"
    bad.write_text("\n".join(text) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, _, err = run("convert", str(bad), "-o", str(out))
    assert code == 1
    assert f"{bad}:21: not understood" in err
    assert out.exists()


def test_convert_quiet_prints_only_what_went_wrong(tmp_path: Path) -> None:
    code, _, err = run("convert", str(SAMPLE_TCH), "-o", str(tmp_path / "a.jsonl"), "-q")
    assert (code, err) == (0, "")
    code, _, err = run("convert", str(SAMPLE_TCH), "-o", str(tmp_path / "b.jsonl"))
    assert code == 0 and err.startswith("wrote ") and "of 1 game to" in err
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    text = SAMPLE_TCH.read_bytes().decode("utf-8").splitlines()
    text[20] = "(9)nobody: ?? what is this"
    bad = tmp_path / "123.tch"
    bad.write_text("\n".join(text) + "\n", encoding="utf-8")
    code, _, err = run("convert", str(bad), "-o", str(tmp_path / "c.jsonl"), "-q")
    assert code == 1 and f"{bad}:21: not understood" in err and "wrote" not in err


def test_convert_without_tch_files(tmp_path: Path) -> None:
    code, _, err = run("convert", str(WISH), "-o", str(tmp_path / "x.jsonl"))
    assert code == 2 and "no .tch files" in err
    assert not (tmp_path / "x.jsonl").exists()


def test_a_log_named_twice_is_read_once(tmp_path: Path) -> None:
    """``check logs/ logs/day1/`` (or the same file twice) reads each file once: its
    findings are not repeated and it is counted once."""
    day = tmp_path / "logs" / "day1"
    day.mkdir(parents=True)
    log = day / "wish.jsonl"
    log.write_bytes(WISH.read_bytes())
    once = runner.invoke(app, ["check", str(log), "-f", "json"])
    twice = runner.invoke(app, ["check", str(tmp_path / "logs"), str(day), str(log),
                                str(day / ".." / "day1" / "wish.jsonl"), "-f", "json"])
    assert once.exit_code == twice.exit_code == 1, twice.output
    lines = [line for line in twice.stdout.splitlines() if line.startswith("{")]
    assert lines == [line for line in once.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1
    assert "1 file," in " ".join(twice.output.split())


@pytest.mark.parametrize("args", [
    ["check", str(WISH), "-o", "{out}/"],
    ["check", str(WISH), "--write-baseline", "{out}/"],
    ["replay", str(WISH), "-f", "html", "-o", "{out}/"],
    ["simulate", "-n", "1", "-o", "{out}/"],
    ["convert", str(Path(__file__).parent.parent / "sample_logs" / "2417500.tch"), "-o", "{out}/"],
    ["plot", str(WISH), "-k", "score", "-o", "{out}/"],
])
def test_an_option_that_takes_a_file_refuses_a_folder_name(tmp_path: Path,
                                                           args: list[str]) -> None:
    """``-o out/`` names a folder: it was written as a file named ``out`` (the slash is
    dropped on the way to a path). Now a usage error (exit 2), and nothing is written."""
    out = tmp_path / "out"
    result = runner.invoke(app, [a.replace("{out}", str(out)) for a in args])
    assert result.exit_code == 2, result.output
    assert "ends with '/', which names a folder" in " ".join(
        result.output.replace("│", " ").split())
    assert not out.exists() and list(tmp_path.iterdir()) == []
