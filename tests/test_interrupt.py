"""Ctrl-C as a terminal sends it: SIGINT to the whole process group (the command and its
worker processes). The command stops, exits 130, says so, and leaves its output as it
was, with local worker processes (``--jobs``) and on an embedded Dask cluster."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tichu_analyze.readers.logfile import write_log
from tichu_analyze.run.driver import ProcessBackend, _workers_ignore_ctrl_c
from tichu_analyze.sim.simulate import simulate

ROOT = Path(__file__).parent.parent
WITH_ERROR = ROOT / "sample_logs" / "wish-ignored-phoenix-pair.jsonl"


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A log with a finding, then the same simulated log many times (as hard links: a file
    named twice is read once): far more work than the moment it takes to interrupt."""
    folder = tmp_path_factory.mktemp("interrupt")
    big = folder / "sim.jsonl"
    write_log(simulate(30, 5), big)
    copies = [folder / f"sim-{n:02d}.jsonl" for n in range(60)]
    for copy in copies:
        os.link(big, copy)
    return [str(WITH_ERROR), *map(str, copies)]


def _interrupt(args: list[str], cwd: Path, ready: Callable[[str, str], bool]) -> tuple[int, str]:
    """Run ``tichu-analyze ARGS`` in a session of its own; once ``ready(stdout, stderr)``
    (so far), send SIGINT to its process group. Its exit status and stderr."""
    p = subprocess.Popen([sys.executable, "-m", "tichu_analyze", *args], cwd=cwd,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    out: list[str] = []
    err: list[str] = []
    readers = [threading.Thread(target=lambda: out.extend(p.stdout or []), daemon=True),
               threading.Thread(target=lambda: err.extend(p.stderr or []), daemon=True)]
    for reader in readers:
        reader.start()
    try:
        while not ready("".join(out), "".join(err)):
            assert p.poll() is None, "".join(err)  # it ended before it could be interrupted
            time.sleep(0.05)
        os.killpg(p.pid, signal.SIGINT)
        status = p.wait(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    for reader in readers:
        reader.join(timeout=10)
    return status, "".join(err)


def _staging(parent: Path) -> Callable[[str, str], bool]:
    """Ready once the ingest has started replaying (its staging folder exists)."""
    return lambda _out, _err: any(parent.glob(".*staging*"))


INTERRUPTED = (130, -signal.SIGINT)
"""How a process interrupted by Ctrl-C ends: exit status 130, or (rarely, on a loaded machine,
after its message) ended by the SIGINT itself; a shell shows both as status 130."""


def _interrupted_cleanly(status: int, stderr: str, output: str) -> None:
    assert status in INTERRUPTED, stderr
    assert f"interrupted: {output} is left as it was" in stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr


def test_ingest_jobs_stops_on_ctrl_c(tmp_path: Path, many: list[str]) -> None:
    (tmp_path / "ds").mkdir()
    status, stderr = _interrupt(["ingest", *many, "--force", "--out", "ds", "-j", "2"],
                                tmp_path, _staging(tmp_path))
    _interrupted_cleanly(status, stderr, "ds")
    assert list((tmp_path / "ds").iterdir()) == []
    assert not any(tmp_path.glob(".*staging*"))


def test_check_jobs_says_it_was_interrupted(tmp_path: Path, many: list[str]) -> None:
    status, stderr = _interrupt(["check", *many, "-j", "2", "-f", "json"], tmp_path,
                                lambda out, _err: "W001" in out)  # the first file's finding
    assert status in INTERRUPTED, stderr
    assert stderr.strip().splitlines()[-1] == "interrupted"
    assert "Traceback" not in stderr


@pytest.mark.dask
def test_dask_check_stops_on_ctrl_c(tmp_path: Path, many: list[str]) -> None:
    pytest.importorskip("distributed")
    (tmp_path / "out.json").write_text("old\n")
    status, stderr = _interrupt(["check", *many, "--scheduler", "local", "-j", "2",
                                 "-o", "out.json"], tmp_path, lambda _out, err: "Dask:" in err)
    _interrupted_cleanly(status, stderr, "out.json")
    assert "Dask: 2 workers," in stderr
    assert (tmp_path / "out.json").read_text() == "old\n"


@pytest.mark.dask
def test_dask_ingest_stops_on_ctrl_c(tmp_path: Path, many: list[str]) -> None:
    pytest.importorskip("distributed")
    (tmp_path / "ds").mkdir()
    status, stderr = _interrupt(["ingest", *many, "--force", "--out", "ds",
                                 "--scheduler", "local", "-j", "2"], tmp_path,
                                _staging(tmp_path))
    _interrupted_cleanly(status, stderr, "ds")
    assert list((tmp_path / "ds").iterdir()) == []


_BLOCKED = ("import signal; print(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, "
            "[]), signal.getsignal(signal.SIGINT) is signal.SIG_IGN)")


def test_ctrl_c_while_a_cluster_starts_is_not_lost() -> None:
    """While Dask's cluster starts, its workers must not see SIGINT, but a Ctrl-C meanwhile
    still interrupts this process (it was ignored, and the run went on to the end)."""
    if not hasattr(signal, "pthread_sigmask"):
        pytest.skip("no signal masks here")
    seen: list[str] = []

    def start_worker() -> None:  # as Dask does: from a thread started inside
        seen.append(subprocess.run([sys.executable, "-c", _BLOCKED], capture_output=True,
                                   text=True, check=True).stdout.strip())

    finished: list[bool] = []
    with pytest.raises(KeyboardInterrupt), _workers_ignore_ctrl_c():  # noqa: PT012
        thread = threading.Thread(target=start_worker)
        thread.start()
        thread.join()
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)  # the Ctrl-C comes while the cluster is still being made
        finished.append(True)
    assert finished  # it interrupted once the cluster was made, not halfway
    assert seen == ["True False"]  # the worker never sees Ctrl-C; this process does


def _forever() -> None:
    time.sleep(3600)


def test_closing_with_tasks_running_ends_the_workers() -> None:
    """An interrupted run closes its backend with tasks still running: the workers are
    ended at once (it waited for their tasks)."""
    on = ProcessBackend(2)
    futures = [on.submit(_forever) for _ in range(3)]
    on.close()
    assert all(f.done() for f in futures)


def test_report_site_stops_on_ctrl_c(tmp_path: Path, many: list[str]) -> None:
    """Ctrl-C while a site is written over an earlier one: the earlier site stays whole,
    the temporary folder goes."""
    from tichu_analyze.data.datasets import ingest

    assert ingest([Path(many[1])], tmp_path / "ds").written
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("the earlier site")
    status, stderr = _interrupt(["report", "ds", "-o", "site/"], tmp_path,
                                lambda _out, _err: any(tmp_path.glob(".site.*.site")))
    _interrupted_cleanly(status, stderr, "site/")
    assert [p.name for p in (tmp_path / "site").iterdir()] == ["index.html"]
    assert (tmp_path / "site" / "index.html").read_text() == "the earlier site"
    assert not any(tmp_path.glob(".site.*"))


def test_report_site_into_a_new_folder_stops_on_ctrl_c(tmp_path: Path, many: list[str]) -> None:
    """Ctrl-C while a site is written into a folder that did not exist: nothing is left,
    and the message says the folder was not created (not that it was left as it was)."""
    from tichu_analyze.data.datasets import ingest

    assert ingest([Path(many[1])], tmp_path / "ds").written
    status, stderr = _interrupt(["report", "ds", "-o", "new/"], tmp_path,
                                lambda _out, _err: any(tmp_path.glob(".new.*.site")))
    assert status in INTERRUPTED, stderr
    assert "interrupted: new/ was not created" in stderr
    assert not (tmp_path / "new").exists() and not any(tmp_path.glob(".new.*"))
