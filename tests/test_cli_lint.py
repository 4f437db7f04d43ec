"""`check` run like a linter: configuration, baseline, statistics, colour, the full
format, the `games` listing, a closed standard output and the help texts."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.cli.app import Colour, _use_colour

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "sample_logs"
WISH = SAMPLES / "wish-ignored.jsonl"  # W001 at line 10
LATE = SAMPLES / "late-tichu.jsonl"  # C002 at line 12
BOMB = SAMPLES / "bomb-before-first-lead.jsonl"  # B002

runner = CliRunner()


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with logs in logs/ (W001, C002) and logs/old/ (W001)."""
    (tmp_path / "logs" / "old").mkdir(parents=True)
    shutil.copy(WISH, tmp_path / "logs" / "wish.jsonl")
    shutil.copy(LATE, tmp_path / "logs" / "late.jsonl")
    shutil.copy(WISH, tmp_path / "logs" / "old" / "wish.jsonl")
    return tmp_path


def codes(out: str) -> list[str]:
    return sorted(line.split(": ")[1].split()[0] for line in out.splitlines() if line)


# ------------------------------------------------------------------- configuration


def test_pyproject_table_is_found_walking_up(project: Path) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.tichu-analyze]\n'
                                            'select = ["C"]\n', encoding="utf-8")
    code, out, _ = run("check", str(project / "logs" / "old"), str(project / "logs"))
    assert code == 1
    assert codes(out) == ["C002"]


def test_tichu_analyze_toml_comes_before_pyproject(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.tichu-analyze]\nselect = ["C"]\n',
                                            encoding="utf-8")
    (project / "tichu-analyze.toml").write_text('select = ["W"]\n', encoding="utf-8")
    code, out, _ = run("check", str(project / "logs"))
    assert codes(out) == ["W001", "W001"]


def test_pyproject_without_the_table_is_passed_over(project: Path) -> None:
    (project / "logs" / "pyproject.toml").write_text('[project]\nname = "x"\n',
                                                     encoding="utf-8")
    (project / "tichu-analyze.toml").write_text('ignore = ["W"]\n', encoding="utf-8")
    _, out, _ = run("check", str(project / "logs"))
    assert codes(out) == ["C002"]


def test_isolated_and_config_option(project: Path, tmp_path: Path) -> None:
    (project / "tichu-analyze.toml").write_text('select = ["C"]\n', encoding="utf-8")
    _, out, _ = run("check", "--isolated", str(project / "logs"))
    assert codes(out) == ["C002", "W001", "W001"]
    other = tmp_path / "elsewhere.toml"
    other.write_text('select = ["W"]\n', encoding="utf-8")
    _, out, _ = run("check", "--config", str(other), str(project / "logs"))
    assert codes(out) == ["W001", "W001"]
    code, _, err = run("check", "--config", str(tmp_path / "none.toml"), str(project))
    assert code == 2 and "no such configuration file" in err


def test_command_line_overrides_the_file(project: Path) -> None:
    (project / "tichu-analyze.toml").write_text('select = ["C"]\nformat = "json"\n',
                                                encoding="utf-8")
    _, out, _ = run("check", str(project / "logs"))
    assert [json.loads(line)["code"] for line in out.splitlines()] == ["C002"]
    _, out, _ = run("check", "--select", "W", "-f", "text", str(project / "logs"))
    assert codes(out) == ["W001", "W001"]


def test_per_path_ignores(project: Path) -> None:
    (project / "tichu-analyze.toml").write_text('[per-path-ignores]\n"logs/old/*" = ["W"]\n'
                                                '"late.jsonl" = ["C002"]\n', encoding="utf-8")
    code, out, _ = run("check", str(project / "logs"))
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()] == [
        str(project / "logs" / "wish.jsonl")]


@pytest.mark.parametrize(("text", "expected"), [
    ('selct = ["W"]\n', "unknown key 'selct'"),
    ('select = ["Q9"]\n', "select: Q9: no diagnostic code starts with 'Q9'"),
    ('ignore = "W"\nvariants = ["no-such"]\n', "variants: unknown variant 'no-such'"),
    ('format = "xml"\n', "format: expected one of text, full, json, sarif, github"),
    ('jobs = -1\n', "jobs: expected a whole number >= 0"),
    ('[per-path-ignores]\n"old/*" = ["Z"]\n', "per-path-ignores: 'old/*': Z: no diagnostic"),
    ('select = [\n', "not valid TOML"),
])
def test_bad_configuration_is_exit_2_naming_file_and_key(
    project: Path, text: str, expected: str
) -> None:
    config = project / "tichu-analyze.toml"
    config.write_text(text, encoding="utf-8")
    code, out, err = run("check", str(project / "logs"))
    assert code == 2 and out == ""
    assert str(config) in flat(err) and expected in flat(err)
    assert "Traceback" not in err


def test_unknown_key_in_pyproject_names_the_table(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.tichu-analyze]\ncolour = "yes"\n',
                                            encoding="utf-8")
    code, _, err = run("check", str(project / "logs"))
    assert code == 2
    assert f"{project / 'pyproject.toml'} [tool.tichu-analyze]: unknown key 'colour'" in flat(err)


def test_show_settings_names_each_source(project: Path) -> None:
    config = project / "tichu-analyze.toml"
    config.write_text('select = ["W", "c002"]\njobs = 2\n', encoding="utf-8")
    code, out, _ = run("check", "--show-settings", "--ignore", "W002", str(project / "logs"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"# configuration file: {config}"
    assert f'select = ["W", "C002"]  # {config}' in lines
    assert 'ignore = ["W002"]  # command line' in lines
    assert f"jobs = 2  # {config}" in lines
    assert 'format = "text"  # default' in lines
    code, out, _ = run("check", "--show-settings", "--isolated", str(project))
    assert "# configuration file: none" in out


def test_jobs_from_the_configuration(project: Path) -> None:
    (project / "tichu-analyze.toml").write_text("jobs = 2\n", encoding="utf-8")
    code, out, _ = run("check", str(project / "logs"))
    assert code == 1 and codes(out) == ["C002", "W001", "W001"]


# ------------------------------------------------------------------------ baseline


def test_baseline_survives_an_unrelated_edit_and_shows_only_new_findings(
    project: Path,
) -> None:
    base = project / "known.json"
    code, out, err = run("check", "--write-baseline", str(base), str(project / "logs"))
    assert code == 0 and out == ""
    assert "wrote 3 findings to the baseline" in flat(err)
    data = json.loads(base.read_text(encoding="utf-8"))
    assert {f["file"] for f in data["findings"]} == {
        "logs/wish.jsonl", "logs/late.jsonl", "logs/old/wish.jsonl"}
    assert "line" not in data["findings"][0]

    # an unrelated line inserted early moves every finding down one line
    log = project / "logs" / "wish.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(1, '{"type":"x_comment","game":"g1","text":"recorded by hand"}\n')
    log.write_text("".join(lines), encoding="utf-8")
    code, out, err = run("check", "--baseline", str(base), str(project / "logs"))
    assert code == 0, out
    assert out == ""
    assert "3 findings of 3 in the baseline" in flat(err) and "matched" in err

    # a new violation in a new log is the only one reported
    shutil.copy(BOMB, project / "logs" / "new.jsonl")
    code, out, err = run("check", "--baseline", str(base), str(project / "logs"))
    assert code == 1
    assert codes(out) == ["B002"]
    assert "new.jsonl" in out


def test_baseline_counts_repeated_findings(project: Path) -> None:
    base = project / "known.json"
    run("check", "--write-baseline", str(base), str(project / "logs" / "wish.jsonl"))
    # the same violation, twice in the same file, is a new finding the second time
    twice = project / "logs" / "wish.jsonl"
    text = WISH.read_text(encoding="utf-8")
    twice.write_text(text + text.replace('"g1"', '"g2"'), encoding="utf-8")
    code, out, _ = run("check", "--baseline", str(base), str(twice))
    assert code == 1 and len(out.splitlines()) == 1 and "game g2" in out


def test_bad_baseline_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    code, _, err = run("check", "--baseline", str(bad), str(WISH))
    assert code == 2 and "not a baseline" in err
    code, _, err = run("check", "--baseline", str(tmp_path / "none.json"), str(WISH))
    assert code == 2 and "cannot read the baseline" in err
    code, _, err = run("check", "--write-baseline", str(tmp_path / "no" / "b.json"), str(WISH))
    assert code == 2 and f"{tmp_path / 'no' / 'b.json'}: cannot write the baseline" in flat(err)
    assert f"(the folder {tmp_path / 'no'} does not exist)" in flat(err)
    code, _, err = run("check", "--baseline", str(bad), "--write-baseline", str(bad), str(WISH))
    assert code == 2 and "cannot be used together" in err


# ----------------------------------------------------------------- linter comforts


def test_statistics_counts_by_code() -> None:
    code, out, err = run("check", "--statistics", str(SAMPLES))
    assert code == 1
    lines = [line.split() for line in out.splitlines()]
    assert lines[0] == ["2", "W001", "wish-ignored", "[error]"]
    assert ["1", "P001", "card-not-held", "[fatal]"] in lines
    assert sum(int(line[0]) for line in lines) == 9
    assert "9 diagnostics" in err and "code" not in err  # no second table
    code, out, _ = run("check", "--statistics", "-f", "json", str(SAMPLES))
    rows = json.loads(out)
    assert rows[0] == {"code": "W001", "name": "wish-ignored", "severity": "error", "count": 2}


def test_exit_zero_and_output_format_alias() -> None:
    code, out, _ = run("check", "--exit-zero", "--output-format", "json", str(WISH))
    assert code == 0
    assert json.loads(out)["code"] == "W001"
    code, _, _ = run("check", "--exit-zero", str(SAMPLES / "missing.jsonl"))
    assert code == 2


def test_full_format_shows_the_event_and_the_one_before() -> None:
    code, out, _ = run("check", "--format", "full", str(WISH))
    assert code == 1
    source = WISH.read_text(encoding="utf-8").splitlines()
    head, before, at = out.splitlines()[:3]
    assert head.startswith(f"{WISH}:10: W001 wish-ignored:")
    assert before == f"       9 | {source[8]}"
    assert at == f"    > 10 | {source[9]}"


def test_full_format_escapes_control_characters(tmp_path: Path) -> None:
    log = tmp_path / "ctl.jsonl"
    log.write_text('{"type":"game_start"}\n{"type":\x1b[31m"x"}\n', encoding="utf-8")
    _, out, _ = run("check", "-f", "full", str(log))
    assert "\x1b" not in out and "\\x1b[31m" in out


def test_colour_on_and_off() -> None:
    code, out, _ = run("check", "--color", "always", str(WISH))
    assert "\x1b[1;31mW001\x1b[0m" in out
    _, out, _ = run("check", str(WISH))  # not a terminal
    assert "\x1b" not in out
    _, out, _ = run("check", "--color", "never", str(WISH))
    assert "\x1b" not in out
    _, out, _ = run("check", "--statistics", "--color", "always", str(WISH))
    assert "\x1b[1;31mW001" in out
    _, out, _ = run("check", "-f", "full", "--color", "always", str(WISH))
    assert "\x1b[1;31m>" in out


class _Terminal:
    def isatty(self) -> bool:
        return True


def test_colour_auto_follows_the_terminal_and_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert _use_colour(Colour.AUTO, _Terminal())  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "1")
    assert not _use_colour(Colour.AUTO, _Terminal())  # type: ignore[arg-type]
    assert _use_colour(Colour.ALWAYS, _Terminal())  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "")  # empty: not set (no-color.org)
    assert _use_colour(Colour.AUTO, _Terminal())  # type: ignore[arg-type]


# --------------------------------------------------------------------------- games


def test_games_text() -> None:
    code, out, err = run("games", str(SAMPLES / "simulated-5-games.jsonl"), str(WISH))
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 6
    assert lines[0].startswith(f"{SAMPLES / 'simulated-5-games.jsonl'}: game sim-2026-1: ")
    assert "; complete; " in lines[0] and lines[0].endswith("no diagnostics")
    assert lines[-1] == (f"{WISH}: game g1: Ana, Ben, Chloe, Dev; 1 round; incomplete; "
                         "200-0; 1 error")


def test_games_json_and_colour() -> None:
    code, out, _ = run("games", "-f", "json", str(SAMPLES / "card-not-held.jsonl"))
    assert code == 0
    [game] = [json.loads(line) for line in out.splitlines()]
    assert game["game"] == "g1" and game["players"] == ["Ana", "Ben", "Chloe", "Dev"]
    assert game["rounds"] == 2 and game["complete"] is False
    assert game["diagnostics"] == {"fatal": 1, "error": 1, "warning": 0}
    _, out, _ = run("games", "--color", "always", str(WISH))
    assert "\x1b[1;31m1 error\x1b[0m" in out


def test_games_unreadable_file_is_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl.gz"
    bad.write_bytes(b"not gzip at all")
    code, out, err = run("games", str(bad), str(WISH))
    assert code == 2 and "cannot read" in err and "game g1" in out


def test_replay_points_to_games(tmp_path: Path) -> None:
    code, _, err = run("replay", str(WISH), "--game", "nope")
    assert code == 2 and f"'tichu-analyze games {WISH}' lists them" in flat(err)
    code, _, err = run("replay", str(SAMPLES / "simulated-5-games.jsonl"))
    assert code == 2 and "holds 5 games" in flat(err) and "tichu-analyze games" in err
    assert "sim-2026-1" not in err


# ---------------------------------------------------------------------------- fixes


def test_check_without_paths(tmp_path: Path) -> None:
    code, _, err = run("check")
    assert code == 2 and "give the log files or directories to check" in flat(err)


def test_rules_accepts_a_codes_name() -> None:
    code, out, _ = run("rules", "wish-ignored")
    assert code == 0 and out.startswith("W001 wish-ignored")


def test_output_error_names_the_users_path(tmp_path: Path) -> None:
    target = tmp_path / "no" / "dir" / "x.txt"
    code, _, err = run("check", "-o", str(target), str(WISH))
    assert code == 2
    assert f"{target}: cannot write: No such file or directory" in flat(err)
    assert ".tmp" not in err
    code, _, err = run("simulate", "-n", "1", "-o", str(tmp_path / "no" / "x.jsonl"))
    assert code == 2 and ".tmp" not in err
    code, _, err = run("check", "-o", str(tmp_path), str(WISH))
    assert code == 2 and "is a directory" in err and "Traceback" not in err


def test_truncated_gzip_is_read_to_the_cut(tmp_path: Path) -> None:
    """As a truncated .zst: the games before the cut are checked, the cut line is L001
    (exit status 1), and the file counts as read."""
    whole = gzip.compress((SAMPLES / "simulated-5-games.jsonl").read_bytes())
    bad = tmp_path / "cut.jsonl.gz"
    bad.write_bytes(whole[: len(whole) // 2])
    code, out, err = run("check", str(bad), str(LATE))
    assert code == 1
    assert "cannot read" not in err and "2 files," in flat(err)
    assert "cut.jsonl.gz:" in out and "L001 invalid-json" in out
    code, _, err = run("check", str(bad))
    assert code == 1 and "1 file," in flat(err) and "0 of 1" not in flat(err)


def test_singular_wording(tmp_path: Path) -> None:
    one = tmp_path / "one.jsonl"
    one.write_text('{"type":"game_start","game":"g","players":["A","B","C","D"]}\n',
                   encoding="utf-8")
    _, _, err = run("check", str(one))
    assert "1 file, 1 game, 0 rounds, 1 event: no diagnostics" in flat(err)


COMMANDS = ["", "check", "games", "rules", "schema", "simulate", "ingest", "plot", "report",
            "replay", "convert"]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_placeholders_not_python_types(command: str) -> None:
    code, out, _ = run(*([command] if command else []), "--help",
                       env={"COLUMNS": "100", "TERMINAL_WIDTH": "100"})
    assert code == 0
    for python in ("<bool>", "<int", "<str>", "<path>", "list[", "{paths}", "x>=0", "<list"):
        assert python not in out, python


def test_top_level_help_keeps_each_command_on_one_line() -> None:
    _, out, _ = run("--help", env={"COLUMNS": "100", "TERMINAL_WIDTH": "100"})
    rows = [line for line in out.splitlines() if line.startswith("│ ")]
    commands = [r for r in rows if r[2:4].strip() and not r[2:].startswith("--")]
    assert any(r.startswith("│ replay ") for r in commands)
    for row in commands:
        assert row.rstrip("│ ").endswith("."), row  # no sentence carried to the next line


# ----------------------------------------------------------------- a closed output


def test_check_into_head_stops_quietly(tmp_path: Path) -> None:
    """`check ... | head -1`: many diagnostics, the reader goes away after one line."""
    text = WISH.read_text(encoding="utf-8")
    many = tmp_path / "many.jsonl"
    many.write_text("".join(text.replace('"g1"', f'"g{i}"') for i in range(800)),
                    encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "tichu_analyze", "check", str(SAMPLES),
                             str(many)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, cwd=tmp_path)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert first.startswith(str(SAMPLES).encode())
    assert err == b""
    assert proc.returncode in (0, 1)


def test_shell_pipeline_into_head(tmp_path: Path) -> None:
    if shutil.which("sh") is None or shutil.which("head") is None:
        pytest.skip("needs a POSIX shell with head")
    text = WISH.read_text(encoding="utf-8")
    (tmp_path / "many.jsonl").write_text(
        "".join(text.replace('"g1"', f'"g{i}"') for i in range(800)), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(["sh", "-c", f'"{sys.executable}" -m tichu_analyze check '
                           f'"{SAMPLES}" "{tmp_path}" | head -1'],
                          capture_output=True, env=env, timeout=120, check=False)
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 1
    assert done.stderr == b""
