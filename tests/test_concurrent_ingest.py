"""Datasets under concurrent writers, repeated appends, killed runs and reserved names
(issue 10): nothing lost, nothing doubled."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import polars as pl
import pytest

from tichu_analyze.data.datasets import DEFAULT_PARTITION, INGESTED, escape_partition, ingest, scan
from tichu_analyze.readers.logfile import find_logs, write_log
from tichu_analyze.sim.simulate import simulate

CLI = [sys.executable, "-m", "tichu_analyze"]


def games_in(ds: Path) -> int:
    return scan(ds, "games").select(pl.col("game").n_unique()).collect().item()


def rows_in(ds: Path, table: str = "rounds") -> int:
    return scan(ds, table).select(pl.len()).collect().item()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("logs")
    out = []
    for seed in range(3):
        events = list(simulate(2, seed))
        for ev in events:  # distinct game ids per log
            if "game" in ev:
                ev["game"] = f"s{seed}-{ev['game']}"
        path = folder / f"log{seed}.jsonl"
        write_log(events, path)
        out.append(path)
    return out


def test_two_concurrent_appends_both_land(tmp_path: Path, logs: list[Path]) -> None:
    ds = tmp_path / "ds"
    assert ingest([logs[0]], ds).written
    procs = [subprocess.Popen([*CLI, "ingest", "--append", "-q", str(log), "-o", str(ds)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for log in logs[1:]]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    assert games_in(ds) == 6
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".ds.tmp")]


def test_a_second_writer_waits_for_the_lock(tmp_path: Path, logs: list[Path]) -> None:
    ds = tmp_path / "ds"
    assert ingest([logs[0]], ds).written
    fd = os.open(tmp_path / ".ds.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another writer at work
    try:
        proc = subprocess.Popen([*CLI, "ingest", "--append", str(logs[1]), "-o", str(ds)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = proc.stderr.readline() if proc.stderr else ""
        assert "waiting: another ingest is writing" in line
        assert proc.poll() is None and games_in(ds) == 2  # nothing written meanwhile
    finally:
        os.close(fd)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert games_in(ds) == 4


def test_appending_the_same_logs_again_skips_them(tmp_path: Path, logs: list[Path]) -> None:
    ds = tmp_path / "ds"
    assert ingest([logs[0]], ds).written
    before, games_rows = rows_in(ds), rows_in(ds, "games")
    copy = tmp_path / "renamed.jsonl"  # matched by content, not by name
    copy.write_bytes(logs[0].read_bytes())
    result = ingest([logs[0], copy], ds, append=True)
    assert result.skipped == [logs[0], copy] and not result.written
    assert rows_in(ds) == before
    result = ingest([logs[1], logs[1]], ds, append=True)  # given twice: once
    assert result.skipped == [logs[1]]
    assert games_in(ds) == 4 and rows_in(ds) > before
    listed = "".join(p.read_text(encoding="utf-8") for p in (ds / INGESTED).iterdir())
    assert str(logs[0]) in listed and str(logs[1]) in listed
    # --force ingests again (the user asked for the doubled rows)
    now = rows_in(ds, "games")
    result = ingest([logs[0]], ds, append=True, force=True)
    assert result.written and not result.skipped
    assert rows_in(ds, "games") == now + games_rows


def test_cli_notes_the_skipped_logs(tmp_path: Path, logs: list[Path]) -> None:
    ds = tmp_path / "ds"
    subprocess.run([*CLI, "ingest", "-q", str(logs[0]), "-o", str(ds)], check=True)
    again = subprocess.run([*CLI, "ingest", "--append", str(logs[0]), "-o", str(ds)],
                           capture_output=True, text=True)
    assert again.returncode == 0
    assert "skipped 1 log whose content" in again.stderr and "--force" in again.stderr
    assert "nothing new to ingest" in again.stderr


def test_leftovers_of_killed_runs_are_removed_by_the_next_run(tmp_path: Path,
                                                              logs: list[Path]) -> None:
    ds = tmp_path / "ds"
    assert ingest([logs[0]], ds).written
    stale = tmp_path / ".ds.tmp-99999-0123abcd"
    (stale / "plays").mkdir(parents=True)
    (stale / "plays" / "big.parquet").write_bytes(b"x" * 1000)
    staged = tmp_path / ".ds.staging-0123abcdef01"  # a parallel ingest's parts
    (staged / "a1").mkdir(parents=True)
    (staged / "a1" / "rounds-3.parquet").write_bytes(b"x" * 1000)
    other = tmp_path / ".other.tmp-99999-0123abcd"  # another dataset's: kept
    other.mkdir()
    assert ingest([logs[1]], ds, append=True).written
    assert not stale.exists() and not staged.exists() and other.exists()


def test_a_swap_interrupted_halfway_is_put_back(tmp_path: Path, logs: list[Path]) -> None:
    ds = tmp_path / "ds"
    assert ingest([logs[0]], ds).written
    old = tmp_path / ".ds.old-99999-0123abcd"
    ds.rename(old)  # killed between moving the old dataset aside and the new one in
    assert ingest([logs[1]], ds, append=True).written
    assert games_in(ds) == 4 and not old.exists()


def test_a_player_called_like_the_null_partition_is_not_read_as_null(
        tmp_path: Path) -> None:
    events = list(simulate(1, 0))
    names = [DEFAULT_PARTITION, "NULL", "null", "%5F_HIVE_DEFAULT_PARTITION__"]
    for ev in events:
        if ev["type"] == "game_start":
            ev["players"] = names
    log = tmp_path / "reserved.jsonl"
    write_log(events, log)
    ds = tmp_path / "ds"
    assert ingest(find_logs([log]), ds).written
    assert escape_partition(DEFAULT_PARTITION) != DEFAULT_PARTITION
    exact = set(scan(ds, "rounds").select("player").unique().collect().to_series())
    assert exact == set(names)
    # readers that take the player from the directory names never turn it into null
    hive = pl.scan_parquet(ds / "rounds", hive_partitioning=True).select("player")
    assert hive.collect().get_column("player").null_count() == 0
    rows = duckdb.sql(f"SELECT count(*) FROM read_parquet('{ds}/rounds/**/*.parquet', "
                      "hive_partitioning = true) WHERE player IS NULL").fetchall()
    assert rows == [(0,)]


def test_ingest_records_every_log_it_read(tmp_path: Path, logs: list[Path]) -> None:
    ds = tmp_path / "ds"
    assert ingest(logs[:2], ds).written
    [listing] = (ds / INGESTED).iterdir()
    lines = listing.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line[65:]) for line in lines] == [str(p) for p in logs[:2]]


def _big_log(path: Path, copies: int = 30) -> Path:
    """The sample's simulated games, ``copies`` times over (distinct game ids)."""
    lines = (Path(__file__).parent.parent / "sample_logs" / "simulated-5-games.jsonl"
             ).read_text(encoding="utf-8").splitlines()
    with open(path, "w", encoding="utf-8") as f:
        for k in range(copies):
            for line in lines:
                ev = json.loads(line)
                if "game" in ev:
                    ev["game"] = f"{ev['game']}-{k}"
                f.write(json.dumps(ev) + "\n")
    return path


def _kill_when(proc: subprocess.Popen[bytes], appears: Callable[[], bool]) -> None:
    """SIGKILL ``proc`` as soon as ``appears()`` (polled); fail if it ends first."""
    while True:
        try:
            if appears():
                break
        except OSError:  # a file went away while looked at
            pass
        assert proc.poll() is None, "the run ended before it could be killed"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def test_an_ingest_killed_mid_run_leaves_the_dataset_and_the_next_run_cleans_up(
        tmp_path: Path, logs: list[Path]) -> None:
    ds = tmp_path / "ds"
    assert ingest([logs[0]], ds).written
    before = sorted(str(p.relative_to(ds)) for p in ds.rglob("*"))
    big = _big_log(tmp_path / "big.jsonl")
    proc = subprocess.Popen([*CLI, "ingest", "--append", "-q", str(big), "-o", str(ds)])
    _kill_when(proc, lambda: any(p.name.startswith(".ds.tmp-") and any(p.rglob("*.parquet"))
                                 for p in tmp_path.iterdir()))
    assert sorted(str(p.relative_to(ds)) for p in ds.rglob("*")) == before
    assert ingest([logs[1]], ds, append=True).written
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert games_in(ds) == 4


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc), zombies left out."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == pid and fields[0] != b"Z":
                found.append(int(entry.name))
    return found


def _ended(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state == b"Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_the_workers_of_a_killed_parallel_ingest_end_and_free_the_dataset(
        tmp_path: Path, logs: list[Path]) -> None:
    """``ingest --jobs 2`` killed with SIGKILL: its workers idled for ever, holding the
    lock they inherited, and every later ingest into the dataset waited without end. The
    workers end with their parent, and hold no lock meanwhile."""
    ds = tmp_path / "ds"
    big = [_big_log(tmp_path / f"big{k}.jsonl", 12) for k in range(4)]
    proc = subprocess.Popen([*CLI, "ingest", "-q", "--jobs", "2", *map(str, big),
                             "-o", str(ds)])
    workers: list[int] = []

    def working() -> bool:
        workers[:] = _children(proc.pid)
        return len(workers) >= 2 and any(p.name.startswith(".ds.staging-")
                                         for p in tmp_path.iterdir())

    _kill_when(proc, working)
    deadline = time.monotonic() + 30
    while not all(map(_ended, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if not _ended(pid)]
    for pid in left:  # (so that a failure leaves no process behind)
        os.kill(pid, signal.SIGKILL)
    assert not left, "the workers outlived their parent"
    done = subprocess.run([*CLI, "ingest", "-q", str(logs[0]), "-o", str(ds)], timeout=120,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert games_in(ds) == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_waiting_ingest_takes_over_a_lock_whose_holder_is_gone(
        tmp_path: Path, logs: list[Path]) -> None:
    """A lock still held after its holder ended (by processes it started, which inherited
    the lock: the workers of a killed ingest of an earlier version) is noticed by the
    waiting ingest, which goes on."""
    import socket

    ds = tmp_path / "ds"
    assert ingest([logs[0]], ds).written
    gone = subprocess.Popen(["true"])
    gone.wait()  # a process id that no process has now
    lock = tmp_path / ".ds.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.write(fd, f"{gone.pid} {socket.gethostname()}\n".encode())
    orphan = subprocess.Popen(["sleep", "300"], pass_fds=[fd])  # holds the lock on
    os.close(fd)
    try:
        done = subprocess.run([*CLI, "ingest", "--append", str(logs[1]), "-o", str(ds)],
                              timeout=120, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert "waiting: another ingest is writing" in done.stderr
        assert games_in(ds) == 4
        assert orphan.poll() is None  # its lock was not broken: it was left behind
    finally:
        orphan.kill()
        orphan.wait()
    assert not lock.exists()


def test_a_check_killed_mid_run_leaves_the_old_output(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old\n", encoding="utf-8")
    noisy = tmp_path / "noisy.jsonl"
    noisy.write_text("not json\n" * 300_000, encoding="utf-8")
    proc = subprocess.Popen([*CLI, "check", "-q", str(noisy), "-o", str(out)])
    _kill_when(proc, lambda: any(p.name.startswith(".out.txt.") and p.stat().st_size > 0
                                 for p in tmp_path.iterdir()))
    assert out.read_text(encoding="utf-8") == "old\n"
    done = subprocess.run([*CLI, "check", "-q", "-s", "X", str(noisy), "-o", str(out)])
    assert done.returncode == 0 and out.read_text(encoding="utf-8") == ""
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
