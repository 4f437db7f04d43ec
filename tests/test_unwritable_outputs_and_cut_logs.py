"""Validating a pile of recorded games: outputs in folders that cannot be written,
compressed logs cut short, and the words of the reports."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cli_helpers import ROOT, SAMPLES, WISH, flat, runner

from tichu_analyze.cli import app


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


def _json_diagnostics(output: str) -> list[dict[str, object]]:
    import json

    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def _zst(data: bytes, **options: object) -> bytes:
    import zstandard

    return zstandard.ZstdCompressor(**options).compress(data)  # type: ignore[arg-type]


CUT_WORDS = "the file ends inside its compressed data, before the end-of-stream marker"


@pytest.mark.parametrize("keep", [5, 10, 200])
def test_a_zst_log_cut_before_its_first_block_ends_is_not_an_empty_log(
        tmp_path: Path, keep: int) -> None:
    """Its bytes are all lost (a block is decompressed whole): it was read as a log with
    no lines, exit status 0. Now line 1 is L001 saying the file was cut."""
    packed = _zst((SAMPLES / "simulated-5-games.jsonl").read_bytes())
    assert len(packed) > 10_000 > keep
    (tmp_path / "cut.jsonl.zst").write_bytes(packed[:keep])
    result = runner.invoke(app, ["check", str(tmp_path / "cut.jsonl.zst"), "-f", "json"])
    assert result.exit_code == 1, result.output
    [d] = _json_diagnostics(result.output)
    assert (d["code"], d["line"]) == ("L001", 1) and CUT_WORDS in str(d["message"])


@pytest.mark.parametrize("keep", [3, 15])
def test_a_gz_log_cut_in_its_header_is_not_an_empty_log(tmp_path: Path, keep: int) -> None:
    import gzip

    packed = gzip.compress(WISH.read_bytes())
    (tmp_path / "cut.jsonl.gz").write_bytes(packed[:keep])
    result = runner.invoke(app, ["check", str(tmp_path / "cut.jsonl.gz"), "-f", "json"])
    assert result.exit_code == 1, result.output
    [d] = _json_diagnostics(result.output)
    assert (d["code"], d["line"]) == ("L001", 1) and CUT_WORDS in str(d["message"])
    assert "1 file, 0 games" in flat(result.output)


def test_a_zst_log_cut_after_a_whole_frame_says_where(tmp_path: Path) -> None:
    """Two frames, the second cut in its header: the first frame's lines are checked, and
    the line after them is L001 (before it, the cut fell at a line end: no line was
    unreadable, and nothing said the rest was lost)."""
    first = WISH.read_bytes()
    second = _zst((SAMPLES / "late-tichu.jsonl").read_bytes(), write_checksum=True)
    lines = first.count(b"\n")
    (tmp_path / "cut.jsonl.zst").write_bytes(_zst(first) + second[:12])
    result = runner.invoke(app, ["check", str(tmp_path / "cut.jsonl.zst"), "-f", "json"])
    assert result.exit_code == 1, result.output
    found = _json_diagnostics(result.output)
    assert [(d["code"], d["line"]) for d in found] == [("W001", 10), ("L001", lines + 1)]
    assert CUT_WORDS in str(found[1]["message"])


@pytest.mark.parametrize("options", [{}, {"write_checksum": True},
                                     {"write_content_size": False}])
def test_whole_zst_logs_of_several_frames_are_not_taken_for_cut(
        tmp_path: Path, options: dict[str, object]) -> None:
    data = (SAMPLES / "simulated-5-games.jsonl").read_bytes()
    half = data.index(b"\n", len(data) // 2) + 1
    (tmp_path / "whole.jsonl.zst").write_bytes(
        _zst(data[:half], **options) + _zst(data[half:], **options))
    whole = runner.invoke(app, ["check", str(tmp_path / "whole.jsonl.zst")])
    plain = runner.invoke(app, ["check", str(SAMPLES / "simulated-5-games.jsonl")])
    assert whole.exit_code == plain.exit_code == 0, whole.output
    assert "L001" not in whole.output and "5 games" in flat(whole.output)


def test_replay_counts_one_hidden_diagnostic_in_the_singular(tmp_path: Path) -> None:
    """One game of several is shown: an unreadable line (which names no game) is left out,
    with a note."""
    games = (SAMPLES / "simulated-5-games.jsonl").read_bytes()
    cut = games.index(b"\n", games.index(b'"game_end"')) + 1  # after the first game
    log = tmp_path / "junk-between.jsonl"
    log.write_bytes(games[:cut] + b"not json\n" + games[cut:])
    args = ["replay", str(log), "-g", "sim-2026-2", "-r", "1"]
    text = runner.invoke(app, [*args, "--color", "never"])
    assert text.exit_code == 0, text.output
    assert ("1 diagnostic on a line that names no game is not shown; 'tichu-analyze check' "
            "lists it") in flat(text.output)
    page = tmp_path / "r.html"
    html = runner.invoke(app, [*args, "-f", "html", "-o", str(page)])
    assert html.exit_code == 0, html.output
    assert "1 diagnostic on a line that names no game is not shown" in page.read_text()
    assert "1 diagnostics" not in page.read_text()


def test_the_report_names_its_filters_in_a_sentence(tmp_path: Path) -> None:
    """'Only the rounds game sim-2026-1.' read as a typo; the date filters likewise."""
    data = tmp_path / "ds"
    made = runner.invoke(app, ["ingest", str(SAMPLES / "simulated-5-games.jsonl"), "-o",
                               str(data), "-q"])
    assert made.exit_code == 0, made.output
    result = runner.invoke(app, ["report", str(data), "-f", "text", "-g", "sim-2026-1",
                                 "--since", "2023-11-01", "--until", "2023-12-31"])
    assert result.exit_code == 0, result.output
    assert ("Only the rounds of games from 2023-11-01 00:00 UTC; of games until 2023-12-31 "
            "23:59 UTC; of game sim-2026-1.") in flat(result.output)
    none = runner.invoke(app, ["report", str(data), "-f", "text", "--since", "2030-01-01"])
    assert none.exit_code == 2
    assert "no rounds match the filters (of games from 2030-01-01 00:00 UTC)" in flat(
        none.output)


def test_games_writes_a_score_below_zero_without_a_double_hyphen(tmp_path: Path) -> None:
    """Game sim-2026-2 cut after its first round, 200 to -100: '200--100' read as a typo."""
    lines = (SAMPLES / "simulated-5-games.jsonl").read_bytes().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines)
                 if b'"game_start"' in line and b'"sim-2026-2"' in line)
    end = next(i for i, line in enumerate(lines)
               if i > start and b'"round_end"' in line) + 1
    log = tmp_path / "short.jsonl"
    log.write_bytes(b"".join(lines[start:end]))
    result = runner.invoke(app, ["games", str(log), "--color", "never"])
    assert result.exit_code == 0, result.output
    assert "; 1 round; incomplete; 200 to -100; no diagnostics" in result.output
    whole = runner.invoke(app, ["games", str(SAMPLES / "wish-ignored.jsonl"), "--color", "never"])
    assert "; 200-0; " in whole.output


@pytest.mark.parametrize("command", [
    ["replay", str(SAMPLES / "simulated-5-games.jsonl"), "-g", "sim-2026-1"],
    ["report", str(SAMPLES / "simulated-5-games.jsonl"), "-f", "text"],
])
def test_long_text_into_head_ends_with_status_0(tmp_path: Path, command: list[str]) -> None:
    """The reader goes away after one line (... | head -1): no message, and status 0 as
    'check' and 'games' give, not rich's 1 (which 'replay' documents for nothing)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "tichu_analyze", *command],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            cwd=tmp_path)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=300)
    assert first.strip()
    assert b"Traceback" not in err and b"Broken pipe" not in err and b"Errno" not in err
    assert proc.returncode == 0, err


TCH = ROOT / "tests" / "fuzz" / "seeds" / "2417500.tch"


@pytest.mark.parametrize("command", [["simulate", "-n", "1"], ["convert", str(TCH)]])
def test_a_json_lines_output_named_tch_is_refused(tmp_path: Path, command: list[str]) -> None:
    """It was written, and every command then read it as a .tch file: 'check' found one
    L002 line and no game in what convert had just written."""
    target = tmp_path / "out.tch"
    result = runner.invoke(app, [*command, "-o", str(target)])
    assert result.exit_code == 2
    assert (f"{target}: a file named .tch is read as a Brettspielwelt log, and this output "
            "is a format-1 JSON-lines log; name it .jsonl") in flat(result.output)
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_a_text_report_into_a_folder_name_is_refused(tmp_path: Path) -> None:
    """'-o out/' wrote a file named 'out' and said 'wrote out/'."""
    target = f"{tmp_path / 'out'}/"
    result = runner.invoke(app, ["report", str(WISH), "-f", "text", "-o", target],
                           env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert result.exit_code == 2
    assert f"{target}: the text report is one file (a folder is for the html site)" in flat(
        result.output)
    assert not (tmp_path / "out").exists()


def test_an_unreadable_log_in_a_folder_is_named_without_errno(tmp_path: Path) -> None:
    (tmp_path / "gone.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    result = runner.invoke(app, ["check", str(tmp_path), "-q"])
    assert result.exit_code == 2
    assert f"error: {tmp_path / 'gone.jsonl'}: cannot read: No such file or directory" in flat(
        result.output)
    assert "Errno" not in result.output


def test_a_dataset_that_cannot_be_written_says_why_in_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only file system (as root, a read-only mount is the only kind): the reason,
    not '[Errno 30] Read-only file system: '/.../.ds.lock''."""
    import errno

    from tichu_analyze.data.datasets import DatasetWriter

    def refused(self: DatasetWriter, dest: Path) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(dest.parent / ".ds.lock"))

    monkeypatch.setattr(DatasetWriter, "_lock", refused)
    result = runner.invoke(app, ["ingest", str(WISH), "-o", str(tmp_path / "ds"), "-q"])
    assert result.exit_code == 2
    assert (f"{tmp_path / 'ds'}: cannot write the dataset: {os.strerror(errno.EROFS)}"
            in flat(result.output))
    assert "Errno" not in result.output and ".lock" not in result.output
    assert not (tmp_path / "ds").exists()


def test_simulate_says_it_was_interrupted(tmp_path: Path) -> None:
    """Ctrl-C once simulate has begun writing: it exited 130 without a word; now it says
    that the output is left as it was, as the other commands do."""
    import signal
    import time

    (tmp_path / "out.jsonl").write_text("old\n")
    p = subprocess.Popen([sys.executable, "-m", "tichu_analyze", "simulate", "-n", "100000",
                          "-o", "out.jsonl"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, start_new_session=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        while not any(tmp_path.glob(".out.jsonl.*.tmp")):  # writing has begun
            assert p.poll() is None
            time.sleep(0.05)
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode in (130, -signal.SIGINT), err
    assert "interrupted: out.jsonl is left as it was" in err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert (tmp_path / "out.jsonl").read_text() == "old\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["out.jsonl"]


def test_a_folder_with_an_index_html_and_other_files_is_not_replaced_by_a_site(
        tmp_path: Path) -> None:
    """'report -o ~/public_html/' replaced a whole folder of other files because it held an
    index.html; an earlier site (the index and its three folders) is still replaced."""
    data = tmp_path / "ds"
    assert runner.invoke(app, ["ingest", str(WISH), "-o", str(data), "-q"]).exit_code == 0
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<html>my page</html>")
    (web / "notes.txt").write_text("precious")
    result = runner.invoke(app, ["report", str(data), "-o", f"{web}/"])
    assert result.exit_code == 2
    assert (f"{web}: holds notes.txt, which a report site does not: it is not an earlier "
            "report site, and is not replaced") in flat(result.output)
    assert (web / "notes.txt").read_text() == "precious"
    assert (web / "index.html").read_text() == "<html>my page</html>"
    site = tmp_path / "site"
    for _ in range(2):  # written, then replaced
        again = runner.invoke(app, ["report", str(data), "-o", f"{site}/"])
        assert again.exit_code == 0, again.output
    assert sorted(e.name for e in site.iterdir()) == ["games", "index.html", "players",
                                                       "rounds"]


@pytest.mark.parametrize("options", [["check", "DIR", "-q", "-o"],
                                     ["check", "DIR", "-q", "--write-baseline"],
                                     ["replay", "LOG", "-o"]])
def test_an_output_that_is_a_log_read_is_refused(tmp_path: Path, options: list[str]) -> None:
    """'check day1.jsonl -o day1.jsonl' replaced the log with its (empty) diagnostics."""
    log = tmp_path / "day1.jsonl"
    log.write_bytes(WISH.read_bytes())
    given = {"DIR": str(tmp_path), "LOG": str(log)}
    result = runner.invoke(app, [given.get(o, o) for o in options] + [str(log)])
    assert result.exit_code == 2
    assert (f"{log}: is one of the logs read, and writing the output would replace it"
            in flat(result.output))
    assert log.read_bytes() == WISH.read_bytes()


def test_the_ingest_summary_says_which_tables_hold_a_row_per_player(tmp_path: Path) -> None:
    """Plays hold a row per play or pass and violations one per diagnostic: 'the tables
    hold a row per player' was true of two of the four."""
    result = runner.invoke(app, ["ingest", str(WISH), "-o", str(tmp_path / "ds")])
    assert result.exit_code == 0, result.output
    assert ("wrote 1 game to " in result.output and "(rows: plays 8, rounds 4, games 4, "
            "violations 1; rounds and games hold a row per player)" in flat(result.output))


def test_the_report_counts_the_files_its_games_come_from(tmp_path: Path) -> None:
    """Three logs ingested, one of them without a game: '2 files, 2 games' read as if a
    log had been lost; the files counted are those the games come from."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.jsonl").write_bytes(WISH.read_bytes())
    (logs / "b.jsonl").write_bytes((SAMPLES / "late-tichu.jsonl").read_bytes())
    (logs / "empty.jsonl").write_bytes(b"")
    data = tmp_path / "ds"
    assert runner.invoke(app, ["ingest", str(logs), "-o", str(data), "-q"]).exit_code == 0
    result = runner.invoke(app, ["report", str(data), "-f", "text"])
    assert result.exit_code == 0, result.output
    assert "2 games (0 played to the end) from 2 files, 2 rounds" in flat(result.output)
    page = tmp_path / "r.html"
    assert runner.invoke(app, ["report", str(data), "-o", str(page)]).exit_code == 0
    assert "2 games (0 played to the end) from 2 log files</li>" in page.read_text()


def test_an_ingest_with_an_unreadable_log_says_what_it_left(tmp_path: Path) -> None:
    """It said '1 file, ...' (as if one log were all) and 'DIR is left as it was' of a
    dataset that never existed."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "good.jsonl").write_bytes(WISH.read_bytes())
    (logs / "bad.jsonl.gz").write_bytes(b"not gzip at all")
    data = tmp_path / "ds"
    result = runner.invoke(app, ["ingest", str(logs), "-o", str(data)])
    assert result.exit_code == 2
    words = flat(result.output)
    assert "1 of 2 files read, 1 game," in words
    assert f"1 file could not be read: nothing was written, {data} was not created" in words
    assert not data.exists()
    assert runner.invoke(app, ["ingest", str(WISH), "-o", str(data), "-q"]).exit_code == 0
    again = runner.invoke(app, ["ingest", str(logs), "-o", str(data), "--append"])
    assert again.exit_code == 2
    assert f"nothing was written, {data} is left as it was" in flat(again.output)


@pytest.fixture
def stranger() -> Iterator[Callable[[bytes | None], str]]:
    """``serve(answer)``: the tcp:// address of a server that is not a Dask scheduler: it
    takes connections, reads, then answers ``answer`` (None: nothing, ever)."""
    import socket
    import threading

    listeners: list[socket.socket] = []
    held: list[socket.socket] = []

    def serve(answer: bytes | None) -> str:
        listener = socket.create_server(("127.0.0.1", 0))
        listeners.append(listener)

        def loop() -> None:
            while True:
                try:
                    conn, _ = listener.accept()
                    held.append(conn)
                    conn.recv(4096)
                    if answer is not None:
                        conn.sendall(answer)
                except OSError:  # closed at the end of the test
                    return

        threading.Thread(target=loop, daemon=True).start()
        return f"tcp://127.0.0.1:{listener.getsockname()[1]}"

    yield serve
    for s in [*listeners, *held]:
        s.close()


@pytest.mark.dask
@pytest.mark.parametrize(("answer", "words", "timeout"), [
    (None, "no answer as a Dask scheduler within 1 s (is it the scheduler's address, not "
           "the dashboard's?)", 1),
    # (an answer is read at once; the longer bound keeps a loaded machine from timing out)
    (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4,
     "the answer is not a Dask scheduler's (", 20),
])
def test_a_server_that_is_not_a_dask_scheduler_is_a_clear_error(
        stranger: Callable[[bytes | None], str], answer: bytes | None, words: str,
        timeout: int) -> None:
    """--scheduler at the dashboard's port or a web server: the client waited for ever
    (its timeout does not bound the handshake), or read the answer as a frame of
    exabytes: a MemoryError traceback, then 40 s to exit."""
    pytest.importorskip("distributed")
    from tichu_analyze.run.driver import DaskBackend, DriverError

    address = stranger(answer)
    with pytest.raises(DriverError) as raised:
        DaskBackend(address, 1, timeout=timeout)
    assert f"cannot reach the Dask scheduler at {address}: {words}" in str(raised.value)
