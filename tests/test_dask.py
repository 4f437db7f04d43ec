"""`--scheduler`: check, ingest and convert on a Dask LocalCluster of two workers give
the results of a serial run; a killed worker or a failing task loses nothing and doubles
nothing. Marked ``dask`` (deselect with ``-m "not dask"``); they need the dask extra."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.data import datasets
from tichu_analyze.data.datasets import TABLES, scan
from tichu_analyze.data.staging import ingest_staged
from tichu_analyze.readers.logfile import find_logs, write_log
from tichu_analyze.run.driver import DaskBackend, DriverError
from tichu_analyze.sim.simulate import simulate

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed "
                                  "(pip install -e '.[dask]')")

pytestmark = pytest.mark.dask

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "sample_logs"
RULES = Path(__file__).parent / "fixtures" / "rules"

runner = CliRunner()


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The scheduler address of a LocalCluster of two single-threaded worker processes."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=50) as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The sample logs, some rule fixtures, and a simulated log big enough to be cut."""
    folder = tmp_path_factory.mktemp("dask")
    big = folder / "sim.jsonl"
    write_log(simulate(8, 21), big)
    return [SAMPLES, *sorted(RULES.glob("*.jsonl"))[:30], big]


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows, as a sorted list (a multiset)."""
    out = {}
    for table in TABLES:
        frame = scan(path, table).collect()
        out[table] = sorted(tuple(map(repr, row)) for row in frame.iter_rows())
    return out


def test_check_output_is_the_serial_bytes(cluster: str, corpus: list[Path]) -> None:
    args = ["check", "-f", "json", *map(str, corpus)]
    serial = runner.invoke(app, args)
    driven = runner.invoke(app, [*args, "--scheduler", cluster, "--jobs", "2"])
    assert serial.exit_code == driven.exit_code == 1
    assert serial.stdout and driven.stdout == serial.stdout
    assert "Dask: 2 workers" in driven.stderr
    summary = [line for line in serial.stderr.splitlines() if "events" in line]
    assert summary[0] in driven.stderr


def test_ingest_rows_are_the_serial_rows(cluster: str, corpus: list[Path],
                                         tmp_path: Path) -> None:
    one, two = tmp_path / "serial", tmp_path / "dask"
    a = runner.invoke(app, ["ingest", "-q", *map(str, corpus), "-o", str(one)])
    b = runner.invoke(app, ["ingest", "-q", *map(str, corpus), "-o", str(two),
                            "--scheduler", cluster])
    assert a.exit_code == b.exit_code == 0, a.stderr + b.stderr
    assert _rows(one) == _rows(two)
    c = runner.invoke(app, ["ingest", "-q", str(SAMPLES), "-o", str(two), "--append",
                            "--scheduler", cluster])
    d = runner.invoke(app, ["ingest", "-q", str(SAMPLES), "-o", str(one), "--append"])
    assert c.exit_code == d.exit_code == 0, c.stderr + d.stderr
    assert _rows(one) == _rows(two)
    assert not list(tmp_path.glob(".*staging*"))


def test_a_killed_worker_loses_and_doubles_nothing(cluster: str, corpus: list[Path],
                                                   tmp_path: Path) -> None:
    serial = tmp_path / "serial"
    assert runner.invoke(app, ["ingest", "-q", *map(str, corpus), "-o", str(serial)]
                         ).exit_code == 0
    on = DaskBackend(cluster, 2)
    killed: list[int] = []

    def kill_once(_: object) -> None:  # told of the first diagnostic: tasks are in flight
        if not killed:
            pid = next(iter(on._client.run(os.getpid).values()))
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    try:
        result = ingest_staged(find_logs(corpus), tmp_path / "dask", on, report=kill_once,
                               task_bytes=2000)
    finally:
        on.close()
    assert killed and result.written
    assert _rows(serial) == _rows(tmp_path / "dask")


@pytest.fixture()
def threads() -> Iterator[str]:
    """A LocalCluster whose workers are threads of this process (monkeypatches reach it)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0", silence_logs=50) as local:
        yield local.scheduler_address


def test_a_failing_task_commits_nothing(threads: str, corpus: list[Path], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "ds"
    assert runner.invoke(app, ["ingest", "-q", str(SAMPLES), "-o", str(out)]).exit_code == 0
    before = _rows(out)

    def broken(*args: object) -> list[object]:
        raise RuntimeError("the disk said no")

    monkeypatch.setattr(datasets, "game_rows", broken)
    result = runner.invoke(app, ["ingest", "-q", *map(str, corpus), "-o", str(out),
                                 "--scheduler", threads])
    assert result.exit_code == 2
    assert "error: a task failed on" in result.stderr
    assert "RuntimeError: the disk said no" in result.stderr
    assert "Traceback" not in result.stderr
    assert _rows(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds"]


def test_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(DriverError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        DaskBackend("tcp://127.0.0.1:9", 1, timeout=1)


def test_a_refused_connection_fails_at_once() -> None:
    """Nothing listens at the port: the error comes from a first probe, with the reason,
    not after the client's timeout (60 s here) of trying again and again."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free again once closed: nothing listens there
    with pytest.raises(DriverError, match=f"at tcp://127.0.0.1:{port}: Connection refused"):
        DaskBackend(f"tcp://127.0.0.1:{port}", 1, timeout=60)


def test_a_worker_without_the_package_is_a_clear_error(threads: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from tichu_analyze.run import driver

    def missing() -> str:
        raise ModuleNotFoundError("No module named 'tichu_analyze'")

    monkeypatch.setattr(driver, "_worker_version", missing)
    with pytest.raises(DriverError, match=r"a Dask worker cannot run tichu-analyze "
                       r"\(ModuleNotFoundError: No module named 'tichu_analyze'\); install"):
        DaskBackend(threads, 1)
    monkeypatch.setattr(driver, "_worker_version", lambda: "0.0.1")
    with pytest.raises(DriverError, match="runs tichu-analyze 0.0.1, this is"):
        DaskBackend(threads, 1)
