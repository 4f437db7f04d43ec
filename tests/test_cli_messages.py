"""What a new user runs into: clear messages for outputs that cannot be, inputs that hold
nothing, and commands that agree with each other."""

from __future__ import annotations

from pathlib import Path

import pytest
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


TCH = ROOT / "tests" / "fuzz" / "seeds" / "2417500.tch"


def test_convert_leaves_out_a_game_id_already_written(tmp_path: Path) -> None:
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "2417500.tch").write_bytes(TCH.read_bytes())
    one = runner.invoke(app, ["convert", str(tmp_path / "a"), "-o", str(tmp_path / "one.jsonl")])
    assert one.exit_code == 0, one.output
    result = runner.invoke(app, ["convert", str(tmp_path), "-o", str(tmp_path / "dup.jsonl")])
    assert result.exit_code == 1
    message = " ".join(result.output.split())
    assert (f"{tmp_path / 'b' / '2417500.tch'}: game 2417500 was already written from "
            f"{tmp_path / 'a' / '2417500.tch'}") in message
    assert (tmp_path / "dup.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()
    check = runner.invoke(app, ["check", str(tmp_path / "dup.jsonl"), "-q"])
    assert "L006" not in check.output


def test_convert_help_has_the_exit_status() -> None:
    result = runner.invoke(app, ["convert", "--help"], env={"COLUMNS": "200"})
    assert "Exit status: 0" in result.output and "130" in result.output


def test_a_truncated_gz_log_is_read_to_the_cut(tmp_path: Path) -> None:
    """As a truncated .zst: the lines before the cut are checked, the cut line is L001,
    and the file counts as read (it ended the whole file with 'cannot read')."""
    import gzip

    data = (SAMPLES / "wish-ignored-phoenix-pair.jsonl").read_bytes() * 3
    lines = data.count(b"\n")
    packed = gzip.compress(data)
    (tmp_path / "cut.jsonl.gz").write_bytes(packed[: len(packed) * 2 // 3])
    result = runner.invoke(app, ["check", str(tmp_path / "cut.jsonl.gz"), "-f", "json",
                                 "--select", "L001"])
    assert result.exit_code == 1, result.output
    assert "cannot read" not in result.output
    assert "1 file," in result.output and "0 of 1" not in result.output
    l001 = [line for line in result.output.splitlines() if '"L001"' in line]
    assert len(l001) == 1 and "truncated" in l001[0], result.output
    assert 1 < int(l001[0].split('"line": ')[1].split(",")[0]) <= lines  # at the cut


def test_games_and_plot_agree_that_a_tch_game_was_won(tmp_path: Path) -> None:
    """A .tch log records no game_end; the engine finds team 1 won (1110-590), as the
    datasets and 'plot --kind score' say: 'games' calls it complete."""
    from tichu_analyze.data.datasets import ingest, scan

    result = runner.invoke(app, ["games", str(TCH), "-f", "json"])
    assert result.exit_code == 0
    assert '"complete": true' in result.output and '"score": [590, 1110]' in result.output
    assert ingest([TCH], tmp_path / "ds").written
    won = scan(tmp_path / "ds", "games").collect()
    assert sorted(set(won.select("team", "won").iter_rows())) == [(0, False), (1, True)]


def test_a_file_without_games_and_a_folder_without_logs_are_said(tmp_path: Path) -> None:
    (tmp_path / "other.json").write_text('{"name": "not a game"}\n')
    result = runner.invoke(app, ["games", str(tmp_path / "other.json")])
    assert f"{tmp_path / 'other.json'}: no games found" in " ".join(result.output.split())
    (tmp_path / "empty").mkdir()
    result = runner.invoke(app, ["check", str(tmp_path / "empty")])
    assert result.exit_code == 2
    assert f"no log files found in {tmp_path / 'empty'}" in " ".join(result.output.split())


def test_an_unknown_game_lists_the_games_once_each(tmp_path: Path) -> None:
    from tichu_analyze.analysis.stats import Dataset
    from tichu_analyze.data.datasets import DatasetError, ingest
    from tichu_analyze.readers.logfile import find_logs

    assert ingest(find_logs([SAMPLES]), tmp_path / "ds").written
    with pytest.raises(DatasetError) as caught:
        Dataset.load(tmp_path / "ds").find_game("nosuch")
    listed = str(caught.value).split("the games are: ")[1].split(", ")
    assert len(listed) == len(set(listed))
    assert "g1" not in listed and f"{SAMPLES / 'card-not-held.jsonl'}:g1" in listed
    assert "2417500" in listed


def test_simulate_counts_the_games_on_a_bar(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar counts the games as they are written; it is shown on a terminal only."""
    import io

    from rich.console import Console
    from rich.progress import Progress

    from tichu_analyze.run import progress

    columns = progress.count_bar(True).columns
    bars: list[tuple[bool, Progress]] = []

    def recorded(show: bool) -> Progress:
        bar = Progress(*columns, console=Console(file=io.StringIO(), force_terminal=True))
        bars.append((show, bar))
        return bar

    monkeypatch.setattr(progress, "count_bar", recorded)
    result = runner.invoke(app, ["simulate", "-n", "3", "-o", str(tmp_path / "s.jsonl")])
    assert result.exit_code == 0, result.output
    [(show, bar)] = bars
    assert show is False  # not a terminal here
    assert bar.tasks[0].total == bar.tasks[0].completed == 3


def test_a_bad_choice_reads_naturally() -> None:
    result = runner.invoke(app, ["check", "--format", "xml", str(SAMPLES)])
    assert result.exit_code == 2
    message = " ".join(result.output.replace("│", " ").split())
    assert "'xml' is not one of 'text', 'full', 'json', 'sarif', 'github'" in message
    assert "Value error" not in message


def _on_a_terminal(args: list[str], stdout_too: bool) -> tuple[int, bytes, bytes]:
    """Run the command with stderr (and with ``stdout_too`` stdout) on a terminal of 100
    columns: its exit status, what went to stdout when not the terminal, and what the
    terminal got."""
    import os
    import pty
    import subprocess
    import sys

    master, slave = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tichu_analyze", *args],
            stdout=slave if stdout_too else subprocess.PIPE, stderr=slave,
            stdin=subprocess.DEVNULL, timeout=120, env={**os.environ, "COLUMNS": "100"})
        os.close(slave)
        terminal = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal's other end is closed: all is read
                break
            if not chunk:
                break
            terminal += chunk
    finally:
        os.close(master)
    return done.returncode, done.stdout or b"", terminal


@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"]])
def test_the_bar_is_drawn_on_a_terminal_stderr_and_never_in_the_output(
        tmp_path: Path, jobs: list[str]) -> None:
    """`check log > file` run from a terminal: the bar is on the terminal (stderr), the
    file holds the diagnostics alone (a clean log: nothing, not even an empty line)."""
    from tichu_analyze.readers.logfile import write_log
    from tichu_analyze.sim.simulate import simulate

    log = tmp_path / "clean.jsonl"
    write_log(simulate(30, 5), log)
    status, stdout, terminal = _on_a_terminal(["check", str(log), *jobs], stdout_too=False)
    assert status == 0
    assert stdout == b""
    assert b"replaying" in terminal  # the bar, on the terminal
    assert b"no diagnostics" in terminal  # and the summary


@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"]])
def test_diagnostics_on_the_terminal_of_the_bar_are_whole_lines(jobs: list[str]) -> None:
    """`check` in a terminal: each diagnostic is printed above the bar, on a line of its
    own, not after the bar's text on the bar's line."""
    import re

    from tichu_analyze.readers.logfile import check_file

    expected = [f"{d.file}:{d.line}: {d.code}" for f in sorted(SAMPLES.glob("*.jsonl"))
                for d in check_file(f)]
    status, _, terminal = _on_a_terminal(
        ["check", "--color", "never", str(SAMPLES), *jobs], stdout_too=True)
    assert status == 1
    shown = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", terminal).decode()
    lines = [line for line in re.split(r"[\r\n]", shown) if line]
    starts = [line.split(" ", 2)[0] + " " + line.split(" ", 2)[1] for line in lines
              if " " in line and line.split(" ", 1)[0].endswith(":")
              and ".jsonl:" in line.split(" ", 1)[0]]
    assert expected and starts == expected
    assert not [line for line in lines if "replaying" in line and ".jsonl:" in line]


def test_a_report_page_and_a_plot_show_a_spinner_on_a_terminal_and_not_in_a_pipe(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A report page or a plot takes seconds: on a terminal a spinner says what is being
    written, and is gone when it is; with stderr not a terminal there is no spinner, and
    the last line says "wrote ..."."""
    import re
    import subprocess
    import sys

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the logs' dataset
    page, image = tmp_path / "report.html", tmp_path / "calls.png"
    for args, shown in ((["report", str(SAMPLES), "-o", str(page)], "writing the report"),
                        (["plot", str(SAMPLES), "--kind", "calls", "-o", str(image)],
                         "drawing")):
        status, _, terminal = _on_a_terminal(args, stdout_too=False)
        assert status == 0
        text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", terminal).decode()
        assert shown in text and "wrote" in text
        piped = subprocess.run([sys.executable, "-m", "tichu_analyze", *args],
                               capture_output=True, text=True, timeout=120)
        assert piped.returncode == 0
        assert shown not in piped.stderr
        assert piped.stderr.splitlines()[-1].startswith("wrote")
    assert page.stat().st_size > 0 and image.stat().st_size > 0
