"""Hostile input and failing outputs: no traceback, bounded memory, no spoofed
output, every output atomic and its errors its own."""

from __future__ import annotations

import errno
import gzip
import json
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.common.atomicfile import atomic_writer, write_atomic
from tichu_analyze.common.safetext import clean, html_text, json_text
from tichu_analyze.core.visitor import DiagnosticVisitor
from tichu_analyze.readers import logfile
from tichu_analyze.readers.logfile import check_file, replay_file
from tichu_analyze.run import driver

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "sample_logs"
SIMULATED = SAMPLES / "simulated-5-games.jsonl"
TCH = SAMPLES / "2417500.tch"

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception)
    return result.exit_code, result.stdout, result.stderr


def first_game(path: Path) -> list[str]:
    """The lines of the first game of a log (through its game_end)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        out.append(line)
        if json.loads(line)["type"] == "game_end":
            return out
    raise AssertionError("no game_end")


DEEP = "[" * 5000 + "]" * 5000


# ------------------------------------------------------------------ no traceback


@pytest.mark.parametrize("line", [
    DEEP,
    '{"type":' + DEEP + "}",
    '{"type":"game_start","game":"g","players":["a","b","c","d"],"meta":{"x":' + DEEP + "}}",
])
def test_deeply_nested_json_is_a_diagnostic_in_every_command(tmp_path: Path, line: str) -> None:
    log = tmp_path / "deep.jsonl"
    log.write_text("\n".join([line, *first_game(SIMULATED)]) + "\n", encoding="utf-8")
    [d] = [d for d in check_file(log) if d.line == 1]
    assert d.code in ("L001", "L002") and "nested too deeply" in d.message
    code, out, _ = run("check", str(log))
    assert code == 1 and "deep.jsonl:1: L00" in out
    code, _, err = run("ingest", str(log), "-o", str(tmp_path / "ds"), "-q")
    assert code == 0, err
    code, out, err = run("replay", str(log), "--round", "1")
    assert code == 0, err


def test_huge_number_in_a_tch_result_is_a_diagnostic(tmp_path: Path) -> None:
    text = TCH.read_text(encoding="utf-8")
    tch = tmp_path / "big.tch"
    tch.write_text(text.replace("Ergebnis: ", "Ergebnis: " + "9" * 4300, 1), encoding="utf-8")
    found = check_file(tch)
    assert any(d.code == "L002" and "nine digits" in d.message for d in found)
    code, _, _ = run("check", str(tch))
    assert code == 1


def test_utf8_bom_at_the_start_is_accepted(tmp_path: Path) -> None:
    plain = tmp_path / "plain.jsonl"
    bom = tmp_path / "bom.jsonl"
    body = "\n".join(first_game(SIMULATED)) + "\n"
    plain.write_text(body, encoding="utf-8")
    bom.write_bytes(b"\xef\xbb\xbf" + body.encode())
    assert check_file(bom) == check_file(plain) == []


# ------------------------------------------------------------------ bounded memory


def test_an_overlong_line_is_l001_with_its_length_and_reading_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logfile, "MAX_LINE_BYTES", 1000)
    game = first_game(SIMULATED)
    log = tmp_path / "long.jsonl"
    log.write_text("\n".join([game[0], "x" * 5000, *game[1:]]) + "\n", encoding="utf-8")
    found = check_file(log)
    assert [(d.line, d.code) for d in found] == [(2, "L001")]
    assert "line of 5,000 bytes" in found[0].message


def test_a_compression_bomb_keeps_memory_bounded(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=1) as f:
        block = b"\0" * (1 << 20)
        for _ in range(48):  # 48 MiB of zeros on one line, some 50 KB compressed
            f.write(block)
    tracemalloc.start()
    try:
        found = check_file(bomb)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [d.code for d in found] == ["L001"]
    assert f"{48 << 20:,} bytes" in found[0].message
    assert peak < 4 * logfile.MAX_LINE_BYTES < 48 << 20, peak  # flat: 3 lines at most


def test_blank_lines_are_skipped_and_not_counted_as_events(tmp_path: Path) -> None:
    log = tmp_path / "blank.jsonl"
    game = first_game(SIMULATED)
    log.write_text("\n" * 10_000 + "\r\n" * 10 + "\n".join(game) + "\n", encoding="utf-8")
    stats = replay_file(log, DiagnosticVisitor(lambda d: pytest.fail(str(d))))
    assert stats.events == len(game) and stats.lines == 10_010 + len(game)


def test_runs_of_blank_lines_are_skipped_at_once_not_line_by_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A .gz of millions of blank lines (10^9 fit in 1 MB) kept check busy for minutes:
    each line went through the decoder and its error path. Runs of blank lines, of
    whitespace too, are now skipped in the decompressed buffer: the error path sees none
    of them, and the line numbers after them are the same."""
    game = first_game(SIMULATED)
    log = tmp_path / "blank.jsonl.gz"
    with gzip.open(log, "wb") as f:
        f.write(("\n".join(game[:3]) + "\n").encode())
        for _ in range(4):
            f.write(b"\n" * (1 << 20) + b" \r\n\t\n" * 1000)
        f.write(("\n".join(game[3:]) + "\nnot json\n").encode())
    calls = []
    problem = logfile._problem
    monkeypatch.setattr(logfile, "_problem", lambda n, raw, replay: calls.append(n) or problem(
        n, raw, replay))
    found = check_file(log)
    blank = 4 * ((1 << 20) + 2000)
    assert [(d.line, d.code) for d in found] == [(len(game) + blank + 1, "L001")]
    assert calls == [len(game) + blank + 1]  # the error path saw the bad line alone


@pytest.mark.parametrize("suffix", [".gz", ".zst"])
def test_the_work_per_compressed_byte_is_bounded(tmp_path: Path, suffix: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A .zst of a run of blank lines expands 32,768 times (1 MB: 32 GB of lines): past
    EXPANSION bytes per compressed byte read the rest is not read, one L001 says so. (The
    bound is lowered here, so that gzip, which expands 1,032 times at most, meets it.)"""
    from tichu_analyze.readers import compressed

    monkeypatch.setattr(compressed, "EXPANSION", 64)
    monkeypatch.setattr(compressed, "EXPANSION_FREE", 1 << 20)
    game = "\n".join(first_game(SIMULATED)) + "\n"
    log = tmp_path / f"bomb.jsonl{suffix}"
    logfile.write_lines([game.encode(), b"\n" * (64 << 20), b"not json\n"], log)
    found = check_file(log)
    assert [d.code for d in found] == ["L001"]
    assert "decompresses to more than 64 times its compressed size" in found[0].message
    assert found[0].line < game.count("\n") + (64 << 20)  # before the end: not read
    stats = replay_file(log, DiagnosticVisitor(lambda d: None))
    assert stats.events == game.count("\n")  # the game before it was read


def test_replay_of_one_game_stops_reading_at_its_end(tmp_path: Path) -> None:
    log = tmp_path / "two.jsonl"
    game = first_game(SIMULATED)
    log.write_text("\n".join([*game, "not json"]) + "\n", encoding="utf-8")
    gid = json.loads(game[0])["game"]
    found: list[object] = []
    stats = replay_file(log, DiagnosticVisitor(found.append), stop_after_game=gid)
    assert stats.lines == len(game) and found == []
    code, out, err = run("replay", str(log), "--game", gid, "--round", "1")
    assert code == 0, err
    assert "not valid JSON" not in out


# ------------------------------------------------------------------ no spoofed output

HOSTILE = "Eve\x1b]0;pwned\x07\rforged.jsonl:9: W001 wish-ignored: fake\n\u2028\x9b31m\u202e"


def test_clean_makes_one_printable_line() -> None:
    shown = clean(HOSTILE)
    assert shown.isprintable() and "\n" not in shown and "\x1b" not in shown
    assert "\\x1b" in shown and "\\n" not in shown.replace("\\x0a", "")
    assert clean("x" * 100, 10) == "x" * 9 + "\u2026"
    assert clean("ok name") == "ok name"
    assert html_text('<b a="1">') == "&lt;b a=&quot;1&quot;&gt;"
    encoded = json_text(json.dumps(HOSTILE, ensure_ascii=False))
    assert json.loads(encoded) == HOSTILE
    assert all(ch.isprintable() for ch in encoded)


def hostile_log(tmp_path: Path, name: str = HOSTILE) -> Path:
    """The first simulated game with player 1 renamed and one card-not-held violation."""
    game = [json.loads(x) for x in first_game(SIMULATED)]
    for ev in game:
        if ev["type"] == "game_start":
            ev["players"][1] = name
    plays = [i for i, ev in enumerate(game) if ev["type"] == "play"]
    game.insert(plays[0] + 1, dict(game[plays[0]]))  # the same cards again: not held
    log = tmp_path / "hostile.jsonl"
    log.write_text("".join(json.dumps(ev) + "\n" for ev in game),
                   encoding="utf-8")
    return log


def assert_no_raw_control(text: str) -> None:
    bad = [ch for ch in text if not ch.isprintable() and ch not in "\n\t "]
    assert not bad, bad


@pytest.mark.parametrize("fmt", ["text", "github", "json", "sarif"])
def test_check_output_is_never_spoofed(tmp_path: Path, fmt: str) -> None:
    log = hostile_log(tmp_path)
    code, out, _ = run("check", "-f", fmt, str(log))
    assert code == 1 and out
    assert_no_raw_control(out)
    assert "\nforged.jsonl" not in out and not out.startswith("forged")
    if fmt in ("text", "github"):
        assert all(line.count("hostile.jsonl") >= 1 for line in out.splitlines())


def test_report_text_and_replay_are_never_spoofed(tmp_path: Path) -> None:
    log = hostile_log(tmp_path, HOSTILE + "n" * 5000)
    ds = tmp_path / "ds"
    assert run("ingest", str(log), "-o", str(ds), "-q")[0] == 0
    code, out, err = run("report", "-f", "text", str(ds))
    assert code == 0, err
    assert_no_raw_control(out)
    code, out, err = run("replay", str(log), "--round", "1")
    assert code == 0, err
    assert_no_raw_control(out)
    assert "n" * 200 not in out  # long names are cut in output
    import polars as pl

    names = pl.read_parquet(ds / "rounds" / "**" / "*.parquet").get_column("player")
    assert HOSTILE + "n" * 5000 in names.to_list()  # and kept whole in the datasets


def test_report_titles_and_listed_names_and_ids_are_never_spoofed(tmp_path: Path) -> None:
    """The focused player in the text report's table titles, the game ids listed for an
    unknown ``-g`` (report and plot) and the names listed for an unknown ``--player`` are
    escaped and cut at 64 characters, as everywhere else."""
    name = HOSTILE + "n" * 5000
    log = hostile_log(tmp_path, name)
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    for ev in events:  # the game id too
        ev["game"] = HOSTILE + ev["game"]
    log.write_text("".join(json.dumps(ev) + "\n" for ev in events), encoding="utf-8")
    ds = tmp_path / "ds"
    assert run("ingest", str(log), "-o", str(ds), "-q")[0] == 0
    code, out, err = run("report", "-f", "text", "--player", name, str(ds))
    assert code == 0, err
    assert_no_raw_control(out)
    assert "against the rest of the field" in out and "n" * 200 not in out
    for command in (["report", "-f", "text"], ["plot", "-k", "score", "-o",
                                               str(tmp_path / "p.png")]):
        code, out, err = run(*command, "-g", "nosuch", str(ds))
        assert code == 2 and "the games are: Eve\\x1b]0;pwned" in err
        assert_no_raw_control(err)
        assert err.count("\n") == 1 and "\\x1b[2K" not in err.replace("\\x1b]0", "")
    code, out, err = run("report", "-f", "text", "--player", "nosuch", str(ds))
    assert code == 2 and "the players are: " in err
    assert_no_raw_control(err)
    assert err.count("\n") == 1 and "n" * 100 not in err and len(err) < 2000


# ------------------------------------------------------------------ outputs


def test_atomic_writer_leaves_the_old_file_on_an_error(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_writer(out) as f:
        f.write("new, half")
        raise RuntimeError
    assert out.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]
    write_atomic(out, "new")
    assert out.read_text(encoding="utf-8") == "new"


def test_leftover_temporary_files_of_killed_runs_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    stale = [tmp_path / f".out.txt.{dead}.tmp", tmp_path / f".out.txt.{dead}.0123abcd.tmp"]
    alive = tmp_path / f".out.txt.{os.getppid()}.tmp"  # a run still going: kept
    other = tmp_path / f".other.txt.{dead}.tmp"  # another output's: kept
    for p in [*stale, alive, other]:
        p.write_text("x", encoding="utf-8")
    write_atomic(out, "new")
    assert not any(p.exists() for p in stale)
    assert alive.exists() and other.exists()


@pytest.mark.parametrize("args", [
    ["check", str(SIMULATED)],
    ["report", "DATASET"],
    ["report", "-f", "text", "DATASET"],
    ["replay", str(SIMULATED), "--game", "sim-2026-1", "--round", "1"],
    ["plot", "DATASET", "--kind", "calls"],
    ["convert", str(TCH)],
    ["simulate", "-n", "1"],
])
def test_every_output_to_a_directory_or_bad_path_is_a_clear_error(
        tmp_path: Path, args: list[str], dataset: Path) -> None:
    args = [str(dataset) if a == "DATASET" else a for a in args]
    target = tmp_path / ("out.svg" if args[0] == "plot" else "out.jsonl")
    target.mkdir()
    if args == ["report", str(dataset)]:
        # an html report into a directory is a site: refused where the directory holds
        # something other than an earlier site
        (target / "notes.txt").write_text("mine", encoding="utf-8")
        code, _, err = run(*args, "-o", str(target))
        assert code == 2 and "not an empty directory" in err
        assert (target / "notes.txt").read_text(encoding="utf-8") == "mine"
    else:
        code, _, err = run(*args, "-o", str(target))
        assert code == 2 and f"{target}: is a directory" in err
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    bad = blocker / target.name
    code, _, err = run(*args, "-o", str(bad))
    if args == ["report", str(dataset)]:  # the html report is FILE.html or DIR/
        assert code == 2 and f"{bad}: the html report is written to FILE.html" in err
        bad = blocker / "out.html"
        code, _, err = run(*args, "-o", str(bad))
    assert code == 2 and f"{bad}: cannot write" in err and ".tmp" not in err


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ds = tmp_path_factory.mktemp("ds") / "ds"
    assert run("ingest", str(SIMULATED), "-o", str(ds), "-q")[0] == 0
    return ds


def test_convert_exits_2_and_counts_when_an_input_is_unreadable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good, bad = tmp_path / "a.tch", tmp_path / "b.tch"
    good.write_bytes(TCH.read_bytes())
    bad.write_bytes(TCH.read_bytes())
    real = open

    def failing(path: Path, *args: object, **kwargs: object) -> object:
        if Path(path).name == "b.tch":
            raise OSError(errno.EIO, "Input/output error", str(path))
        return real(path, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(driver, "open", failing, raising=False)
    code, _, err = run("convert", str(tmp_path), "-o", str(tmp_path / "out.jsonl"))
    assert code == 2
    assert "b.tch: cannot read" in err
    assert "of 1 game to" in err and "2 .tch files found, 1 could not be read" in err


# ------------------------------------------------------------------ a full disk


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a small tmpfs with about 16 KB left (needs root to mount)."""
    if os.geteuid() != 0:
        pytest.skip("the full-disk tests mount a small tmpfs, which needs root; run them as "
                    "root (in a container, say) to include them")
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()}); the full-disk tests "
                    "need a system that allows it")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(folder: Path, leave: int = 16 << 10) -> None:
    st = os.statvfs(folder)
    (folder / "filler").write_bytes(b"\0" * max(st.f_bavail * st.f_frsize - leave, 0))


@pytest.fixture(scope="module")
def noisy_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log with 5,000 diagnostics (some 1 MB of output in any format)."""
    log = tmp_path_factory.mktemp("noisy") / "noisy.jsonl"
    log.write_text("not json\n" * 5000, encoding="utf-8")
    return log


@pytest.mark.parametrize("args,name", [
    (["check", "-f", "text", "NOISY"], "out.txt"),
    (["check", "-f", "json", "NOISY"], "out.json"),
    (["check", "-f", "sarif", "NOISY"], "out.sarif"),
    (["check", "-f", "github", "NOISY"], "out.txt"),
    (["report", "DATASET"], "out.html"),
    (["report", "-f", "text", "DATASET"], "out.txt"),
    (["replay", str(SIMULATED), "--game", "sim-2026-1"], "out.txt"),
    (["replay", str(SIMULATED), "--game", "sim-2026-1", "-f", "html"], "out.html"),
    (["plot", "DATASET", "--kind", "calls"], "out.svg"),
    (["convert", str(TCH)], "out.jsonl"),
    (["simulate", "-n", "20"], "out.jsonl"),
])
def test_a_full_disk_is_the_outputs_error_and_the_old_file_stays(
        full_disk: Path, args: list[str], name: str, dataset: Path, noisy_log: Path) -> None:
    args = [str(dataset) if a == "DATASET" else str(noisy_log) if a == "NOISY" else a
            for a in args]
    out = full_disk / name
    out.write_text("the old output\n", encoding="utf-8")
    fill(full_disk)
    code, _, err = run(*args, "-o", str(out))
    assert code == 2, err
    assert f"{out}: cannot write: No space left on device" in err
    assert "cannot read" not in err
    assert out.read_text(encoding="utf-8") == "the old output\n"
    assert sorted(p.name for p in full_disk.iterdir()) == sorted(["filler", name])


def test_a_full_disk_leaves_the_old_dataset(full_disk: Path, dataset: Path) -> None:
    ds = full_disk / "ds"
    assert run("ingest", str(TCH), "-o", str(ds), "-q")[0] == 0
    before = sorted(str(p.relative_to(ds)) for p in ds.rglob("*"))
    fill(full_disk, 4 << 10)
    code, _, err = run("ingest", str(SIMULATED), "-o", str(ds), "--append", "-q")
    assert code == 2 and f"{ds}: cannot write the dataset" in err and "No space" in err
    assert sorted(str(p.relative_to(ds)) for p in ds.rglob("*")) == before
    assert sorted(p.name for p in full_disk.iterdir()) == ["ds", "filler"]


def test_standard_output_errors_are_the_outputs_own(noisy_log: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full (Linux) to make standard output fail")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "tichu_analyze", "check", "-q",
                               str(noisy_log)], stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2
    assert "standard output: cannot write: No space left on device" in done.stderr
    assert "cannot read" not in done.stderr and "Traceback" not in done.stderr


def test_a_closed_pipe_is_a_quiet_stop(noisy_log: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "tichu_analyze", "check", "-q",
                             str(noisy_log), str(noisy_log)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(str(noisy_log).encode())
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1
    assert err == ""


SEED_LINES = (SAMPLES / "wish-ignored.jsonl").read_bytes().splitlines()
LONGEST = max(map(len, SEED_LINES))


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picks=st.lists(st.one_of(st.sampled_from(SEED_LINES), st.sampled_from([
    b"", b"\r", b"  ", b"not json", b"[" * 50, b"x" * (LONGEST + 150), b"w" * (LONGEST + 100),
    b"v" * (LONGEST + 101),
    b'{"type":"' + b"y" * (LONGEST + 300) + b'"}', b"z" * (LONGEST + 3000)]),
), max_size=40), final_newline=st.booleans(), extra=st.sampled_from([1, 100, 257]),
    runs=st.booleans(), block=st.sampled_from([1 << 20, 97]))
def test_block_reading_agrees_with_line_by_line_reading(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, picks: list[bytes],
        final_newline: bool, extra: int, runs: bool, block: int) -> None:
    """The bounded block reader sees the same lines as reading line by line, with a line
    longer than the cap (newline included) as L001 with its length; so does its reading
    of blocks of short lines, which skips each run of blank lines at once (``runs``: every
    block read so), in blocks of any size."""
    from tichu_analyze.core.engine import Engine

    cap = LONGEST + extra  # the events themselves fit
    monkeypatch.setattr(logfile, "MAX_LINE_BYTES", cap)
    monkeypatch.setattr(logfile, "_BLOCK", block)
    if runs:
        monkeypatch.setattr(logfile, "_SHORT", -1)
    data = b"\n".join(picks) + (b"\n" if final_newline and picks else b"")
    log = tmp_path / "x.jsonl"
    log.write_bytes(data)
    got: list = []
    stats = replay_file(log, DiagnosticVisitor(got.append))
    want: list = []
    expected = Engine(str(log), DiagnosticVisitor(want.append))
    lines = data.split(b"\n")
    if data.endswith(b"\n") or not data:
        lines.pop()
    shortened = [b"not json" if len(x) > cap else x for x in lines]
    last = logfile.replay_lines(shortened, expected)
    expected.finish(last)
    assert stats.lines == last
    assert [(d.line, d.code) for d in got] == [(d.line, d.code) for d in want]
    for d in got:
        if "longer than" in d.message:
            assert f"line of {len(lines[d.line - 1]):,} bytes" in d.message


def test_numbers_beyond_the_decoders_range_are_a_bad_field_not_bad_json(
        tmp_path: Path) -> None:
    log = tmp_path / "huge.jsonl"
    log.write_text(
        '{"type":"game_start","game":"g","players":["A","B","C","D"]}\n'
        '{"type":"round_start","game":"g","round":1e999}\n'
        '{"type":"play","game":"g","seat":1,"cards":["2j"],"ts":1e400}\n'
        '{"type":"play","game":"g","seat":1,"cards":["2j"],"ts":1e40x}\n', encoding="utf-8")
    found = [(d.line, d.code, d.message) for d in check_file(log)]
    assert [(line, code) for line, code, _ in found] == [(2, "L002"), (3, "L002"), (4, "L001")]
    assert "`round` is a number too large to read" in found[0][2]
    assert "`ts` is a number too large to read" in found[1][2]


def test_the_events_after_a_game_start_that_is_not_utf8_point_at_it(tmp_path: Path) -> None:
    log = tmp_path / "latin1.jsonl"
    log.write_bytes(b'{"type":"game_start","game":"g1","players":["An\xe9","B","C","D"]}\n'
                    b'{"type":"round_start","game":"g1","round":1}\n')
    first, second = check_file(log)
    assert (first.code, first.line, first.game) == ("L001", 1, "g1")
    assert second.code == "L005" and "its game_start at line 1 is not valid" in second.message
