"""The multi-file driver: log files cut into work units, run serially, in local processes
(``--jobs``) or on a Dask cluster (``--scheduler``), results handed back in input order.

Work units fit the data:

* small files (a ``.tch`` game is some 20 KB) are batched into tasks of about
  ``task_bytes`` bytes;
* a large uncompressed JSON-lines log is cut into byte ranges at ``game_start`` lines,
  one task each; a cut only stands when the games on its two sides do not mix (checked
  as the ranges come back: no game left open at a cut, no event of an earlier range's
  game after it); when one does not, the rest of the file is replayed as one task, so
  diagnostics and rows are always those of a serial run;
* every other file (compressed, ``.tch``) is one unit.

The driver knows nothing of what a task does: :func:`run` takes a picklable task
function ``work(units, *args) -> list[UnitResult]`` (one result per unit) and yields
one :class:`FileResult` per input file, in input order, streaming each unit's
diagnostics to ``report`` as soon as everything before it is known. At most a few tasks
per worker are in flight, so the client's memory does not grow with the input.
Progress is reported in bytes of input done (``on_bytes``). The progress bar is a
consumer of it (:mod:`tichu_analyze.run.progress`).
"""

from __future__ import annotations

import itertools
import os
import re
import signal
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from ..common.errors import TichuAnalyzeError
from ..core.diagnostics import Diagnostic
from ..core.visitor import DiagnosticVisitor
from ..readers.logfile import (
    FileStats,
    LogError,
    event_line,
    is_tch,
    replay_file,
    tch_game_id,
)

DASK_HINT = "install it with: pip install 'tichu-analyze[dask]'"
"""How to get the optional Dask support."""

SPLIT_BYTES = 16 << 20
"""An uncompressed JSON-lines log larger than this may be cut into byte ranges."""


class DriverError(TichuAnalyzeError):
    """The work could not be run: the scheduler is unreachable, Dask is missing, a task
    failed on the cluster. The message is for the user."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One file, or one byte range of a file, to replay."""

    path: str
    """The path to open (absolute: workers may have another working directory)."""
    name: str
    """The file's name as given (diagnostics and rows use it, as in a serial run)."""
    index: int
    """The file's position in the input."""
    size: int
    """Bytes of input this unit covers (for progress)."""
    start: int = 0
    end: int | None = None
    first_line: int = 1
    part: int = 0
    """Which range of its file (0-based)."""
    ranged: bool = False
    """A byte range of a file cut into several."""
    last: bool = True
    """The file's last range (or the whole file)."""
    emit_from: int = 0
    """Diagnostics before this line were already reported (a replay after a cut that
    did not stand)."""


@dataclass(slots=True)
class UnitResult:
    """What one unit gave: its file statistics (or why it could not be read), its
    diagnostics in order, and (ingest) the Parquet parts its task wrote."""

    stats: FileStats | LogError
    diagnostics: list[Diagnostic] = field(default_factory=list)
    parts: list[Any] = field(default_factory=list)
    lines: list[bytes] = field(default_factory=list)
    """convert: the format-1 lines of the file."""
    notes: list[str] = field(default_factory=list)
    """convert: the lines of the file that could not be understood, as messages."""

    def __reduce__(self) -> tuple[Any, ...]:
        # diagnostics travel as tuples: the compiled build's frozen Diagnostic cannot be
        # unpickled field by field
        diagnostics = [tuple(getattr(d, f) for f in _DIAGNOSTIC_FIELDS) for d in self.diagnostics]
        return (_unit_result, (self.stats, diagnostics, self.parts, self.lines, self.notes))


_DIAGNOSTIC_FIELDS = ("code", "severity", "file", "line", "game", "round", "trick", "seat",
                      "player", "message")


def _unit_result(stats: FileStats | LogError, diagnostics: list[tuple[Any, ...]],
                 parts: list[Any], lines: list[bytes], notes: list[str]) -> UnitResult:
    return UnitResult(stats, [Diagnostic(*d) for d in diagnostics], parts, lines, notes)


@dataclass(slots=True)
class FileResult:
    """One input file, done."""

    path: Path
    stats: FileStats | LogError
    parts: list[Any] = field(default_factory=list)
    lines: list[bytes] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------ planning

_GAME_START = re.compile(rb'"type"\s*:\s*"game_start"')


def plan(files: Sequence[Path], workers: int, *, task_bytes: int | None = None,
         split_bytes: int = SPLIT_BYTES) -> Iterator[list[Unit]]:
    """The tasks for ``files``: lists of units, in input order, made as they are asked
    for (:func:`run` asks a few ahead): a large log's first ranges already run while its
    cuts further on are still being found."""
    sizes = file_sizes(files)
    total = sum(sizes)
    if task_bytes is None:
        task_bytes = min(16 << 20, max(256 << 10, total // max(1, workers * 8)))
    batch: list[Unit] = []
    batched = 0
    for i, (path, size) in enumerate(zip(files, sizes, strict=True)):
        unit = Unit(os.path.abspath(path), str(path), i, size)
        if size > split_bytes and workers > 1:
            ranges = _cuts(path, size, max(task_bytes, split_bytes // 4), workers)
            first = next(ranges, None)
            if first is not None:
                if batch:
                    yield batch
                    batch, batched = [], 0
                for k, (start, end, line, last) in enumerate(itertools.chain([first], ranges)):
                    yield [replace(unit, start=start, end=end, first_line=line,
                                   size=end - start, part=k, ranged=True, last=last)]
                continue
        batch.append(unit)
        batched += size
        if batched >= task_bytes:
            yield batch
            batch, batched = [], 0
    if batch:
        yield batch


def _cuts(path: Path, size: int, least: int,
          workers: int) -> Iterator[tuple[int, int, int, bool]]:
    """Byte ranges ``(start, end, first line, last)`` of a plain JSON-lines log, each
    cut at the first ``game_start`` line after ``least`` bytes or, while much is left,
    after a share of what is left (ranges shrink towards the end, so that no worker
    waits long for the last); none when the file is compressed, a ``.tch`` file, or
    holds no such line. One pass over the file, in blocks of whole lines, counting
    lines, yielding each range as soon as its end is found; whether the games on both
    sides of a cut stay apart is checked when the ranges have been replayed
    (:class:`_Split`)."""
    if not path.name.endswith(".jsonl") or is_tch(path):
        return
    share = 2 * max(1, workers)

    def after(at: int) -> int:
        return at + max(least, (size - at) // share)

    cut, first = 0, 1  # the range being made: where it starts, its first line
    found = False  # a cut was found: the file is cut
    want = after(0)
    pos = 0
    lines = 1  # the number of the line at pos
    try:
        with open(path, "rb") as f:
            while True:
                chunk = f.read(4 << 20)
                if not chunk:
                    break
                if not chunk.endswith(b"\n"):
                    chunk += f.readline()
                end = pos + len(chunk)
                while want < end:
                    m = _GAME_START.search(chunk, max(0, want - pos))
                    if m is None:
                        break
                    start = chunk.rfind(b"\n", 0, m.start()) + 1
                    if pos + start > cut:
                        line = lines + chunk.count(b"\n", 0, start)
                        yield cut, pos + start, first, False
                        cut, first, found = pos + start, line, True
                    want = after(pos + start)
                lines += chunk.count(b"\n")
                pos = end
    except OSError:
        pos = max(pos, size)  # the last range's worker reports what cannot be read
    if found:
        yield cut, pos, first, True


def file_sizes(files: Sequence[Path]) -> list[int]:
    """The size of each file in bytes (0 if it cannot be read: reading it reports why),
    what the progress bars count."""
    return [_size(p) for p in files]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


# ------------------------------------------------------------------------ backends


class _Future(Protocol):
    def result(self, timeout: float | None = None) -> Any: ...

    def done(self) -> bool: ...

    def cancel(self) -> Any: ...


def wait_result(future: _Future) -> Any:
    """The task's value (or its exception), waited for in short steps: a wait without end
    is not woken by a Ctrl-C that the system delivers to another thread of this process
    (an executor's or Dask's), so the interruption would wait for the task."""
    while not future.done():
        with suppress(Exception):  # not done yet; or done and raised: below
            future.result(timeout=0.2)
    return future.result()


class Backend(Protocol):
    """Where tasks run."""

    workers: int
    dashboard: str | None

    def submit(self, fn: Callable[..., Any], *args: Any) -> _Future: ...

    def close(self) -> None: ...


class _Done:
    """A task run in the calling process when its result is asked for."""

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self._call: tuple[Callable[..., Any], tuple[Any, ...]] | None = (fn, args)
        self._value: Any = None

    def done(self) -> bool:
        return True  # run by result(), at once

    def result(self, timeout: float | None = None) -> Any:
        if self._call is not None:
            fn, args = self._call
            self._call = None
            self._value = fn(*args)
        return self._value

    def cancel(self) -> bool:
        self._call = None
        return True


class SerialBackend:
    """Tasks run one after the other in this process."""

    workers = 1
    dashboard: str | None = None

    def submit(self, fn: Callable[..., Any], *args: Any) -> _Future:
        return _Done(fn, args)

    def close(self) -> None:
        pass


class ProcessBackend:
    """Tasks run in ``jobs`` local worker processes (``--jobs``). The workers ignore
    Ctrl-C (it reaches the whole process group): this process acts on it, and
    :meth:`close` with tasks still running (an interruption, an error) ends the workers
    at once instead of waiting for their tasks."""

    dashboard: str | None = None

    def __init__(self, jobs: int) -> None:
        from concurrent.futures import Future, ProcessPoolExecutor

        self.workers = jobs
        self._pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker,
                                         initargs=(os.getpid(),))
        self._futures: list[Future[Any]] = []

    def submit(self, fn: Callable[..., Any], *args: Any) -> _Future:
        with _ctrl_c_deferred():  # the pool may fork a worker
            future = self._pool.submit(fn, *args)
            self._futures = [f for f in self._futures if not f.done()]
            self._futures.append(future)
        return future

    def close(self) -> None:
        if any(not f.done() for f in self._futures):
            terminate = getattr(self._pool, "terminate_workers", None)  # Python 3.14
            if terminate is not None:
                terminate()
            else:  # the workers' processes, the pool's own record of them (3.11-3.13)
                for pid in list(getattr(self._pool, "_processes", None) or {}):
                    with suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
        self._futures = []
        self._pool.shutdown(wait=True, cancel_futures=True)


def _ignore_ctrl_c() -> None:
    """In a worker process: leave Ctrl-C to the process that started it, and end quietly
    on SIGTERM (a forked worker inherits the handlers of its parent)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


PARENT_POLL = 0.5
"""Seconds between two looks of a worker process at whether its parent is still there."""


def _start_worker(parent: int) -> None:
    """In a worker process of :class:`ProcessBackend`: :func:`_ignore_ctrl_c`, and a
    thread that ends the worker when ``parent`` (the process that started the pool) is
    gone, killed with SIGKILL included: an orphaned worker would otherwise wait for tasks
    for ever (the pool's pipes stay open in the workers themselves)."""
    import threading

    _ignore_ctrl_c()
    threading.Thread(target=_watch_parent, args=(parent, os.getppid()), daemon=True,
                     name="tichu-analyze-parent-watch").start()


def _watch_parent(parent: int, ppid: int) -> None:
    """End this process once ``parent`` has ended, or this process's parent (``ppid`` at
    its start: ``parent``, or a fork server) has changed: the orphan was adopted."""
    import time

    while True:
        time.sleep(PARENT_POLL)
        if os.getppid() != ppid or not _alive(parent):
            os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, but is not ours
        return True
    return True


class DaskBackend:
    """Tasks run on a Dask cluster: an embedded ``LocalCluster`` of ``jobs`` worker
    processes (``scheduler="local"``) or the one whose scheduler is at ``scheduler``
    (``tcp://HOST:PORT``). A task whose worker dies, or that raises, is retried
    ``retries`` times."""

    def __init__(self, scheduler: str, jobs: int, *, retries: int = 2,
                 timeout: float = 20.0) -> None:
        try:
            import distributed
        except ImportError:
            raise DriverError(f"--scheduler needs Dask, which is not installed; {DASK_HINT}")\
                from None
        self._retries = retries
        self._run = uuid.uuid4().hex[:8]
        self._n = 0
        self._cluster: Any = None
        self.processes = 0
        try:
            if scheduler == "local":
                with _workers_ignore_ctrl_c():
                    self._cluster = distributed.LocalCluster(
                        n_workers=jobs, threads_per_worker=1, processes=True,
                        dashboard_address=":0", silence_logs=50)
                self._client = distributed.Client(self._cluster, set_as_default=False)
            else:
                _refused(scheduler)
                self._client = _remote_client(distributed, scheduler, timeout)
        except (OSError, TimeoutError, ValueError) as e:
            self.close()
            raise DriverError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        except RuntimeError as e:  # e.g. worker processes started from an unguarded script
            self.close()
            raise DriverError(f"cannot start the Dask cluster ({describe(e)}); a script that "
                              "starts one must do it under if __name__ == '__main__'") from None
        except KeyboardInterrupt:  # Ctrl-C while the cluster started
            self.close()
            raise
        self.dashboard = _dashboard(self._client)
        try:
            self.workers = self._check_workers(scheduler, timeout)
        except KeyboardInterrupt:
            self.close()
            raise

    def _check_workers(self, scheduler: str, timeout: float) -> int:
        from .. import __version__

        try:
            self._client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError) as e:
            self.close()
            raise DriverError(f"the Dask cluster at {scheduler} has no worker: {e}") from None
        try:
            versions = self._client.run(_worker_version)
        except Exception as e:  # noqa: BLE001 - whatever the workers raise
            self.close()
            raise DriverError(f"a Dask worker cannot run tichu-analyze ({describe(e)}); "
                              f"install tichu-analyze {__version__} on every worker") from None
        wrong = sorted(w for w, v in versions.items() if v != __version__)
        if wrong:
            self.close()
            raise DriverError(f"Dask worker {wrong[0]} runs tichu-analyze "
                              f"{versions[wrong[0]]}, this is {__version__}; install the "
                              "same version on every worker")
        threads: dict[str, int] = self._client.nthreads()
        self.processes = len(threads)
        return max(1, sum(threads.values()))

    def submit(self, fn: Callable[..., Any], *args: Any) -> _Future:
        self._n += 1
        return self._client.submit(fn, *args, key=f"tichu-{self._run}-{self._n}",
                                   retries=self._retries, pure=False)

    def close(self) -> None:
        client = getattr(self, "_client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def _remote_client(distributed: Any, scheduler: str, timeout: float) -> Any:
    """A client of the scheduler at ``scheduler``, or an :class:`OSError` or
    :class:`TimeoutError` within about ``timeout`` seconds.

    The client's own timeout does not bound its handshake: a server that takes the
    connection but does not speak Dask (the dashboard's port, a web server) kept it
    waiting for ever, or made it read a reply as a frame of exabytes (a MemoryError, and
    the half-made client then blocked the exit for 40 s). So the handshake is first tried
    alone, with a deadline."""
    import asyncio

    from distributed.comm.core import connect

    async def handshake() -> None:
        comm = await asyncio.wait_for(connect(scheduler, timeout=timeout), timeout)
        await comm.close()

    try:
        asyncio.run(handshake())
    except TimeoutError:
        raise TimeoutError(f"no answer as a Dask scheduler within {timeout:.0f} s (is it the "
                           "scheduler's address, not the dashboard's?)") from None
    except (OSError, ValueError):
        raise
    except Exception as e:  # noqa: BLE001 - whatever a stranger's answer makes of the reader
        raise OSError(f"the answer is not a Dask scheduler's ({describe(e)})") from None
    return distributed.Client(scheduler, timeout=timeout, set_as_default=False)


def _bad_port(address: str) -> str | None:
    """The port of a scheduler address that no port can be (``99999``, ``x``), quoted, or
    None (the client would take it for a host it cannot reach, and wait its timeout)."""
    from urllib.parse import urlsplit

    try:
        port = urlsplit(address).port
    except ValueError as e:
        if "port" in str(e).lower():
            return repr(address.rsplit(":", 1)[-1])
        return None
    return None if port is None or port <= 65535 else repr(str(port))


def _refused(address: str) -> None:
    """OSError at once when nothing listens at a ``tcp://HOST:PORT`` address (the Dask
    client would try again and again until its timeout); a host that does not answer
    within a few seconds is left to the client, whose timeout is longer."""
    import socket
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(address)
        host, port = parts.hostname, parts.port
    except ValueError:
        return
    if parts.scheme != "tcp" or not host or port is None:
        return
    try:
        with socket.create_connection((host, port), timeout=5):
            pass
    except TimeoutError:
        return
    except OSError as e:
        raise OSError(e.strerror or str(e)) from None


@contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """A Ctrl-C while inside interrupts at the end of the block, not in its middle (where
    it could leave a pool of processes or a cluster half made, or be lost in the hooks
    of a fork). SIGINT is also blocked in this thread: the threads and processes started
    inside inherit the block. Only in the main thread; elsewhere it does nothing."""
    came: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    except ValueError:  # not the main thread
        yield
        return
    try:
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except (AttributeError, OSError):  # no pthread_sigmask (Windows)
        mask = None
    try:
        yield
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)
    if came:
        raise KeyboardInterrupt


@contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """Worker processes started inside never see SIGINT: Ctrl-C reaches the whole process
    group, and only this process should act on it (cancel the tasks, close the cluster).

    SIGINT is blocked, not ignored: the threads started inside (Dask's, which start the
    workers) and the workers inherit the block, while this process still takes a Ctrl-C
    (an ignored one would be lost, and the run go on). The resource tracker of
    multiprocessing is started first: starting it unblocks SIGINT in its caller."""
    from multiprocessing import resource_tracker

    with suppress(OSError, ValueError):  # Dask starts it itself if need be
        resource_tracker.ensure_running()
    with _ctrl_c_deferred():
        yield


def _worker_version() -> str:
    from .. import __version__

    return __version__


def _dashboard(client: Any) -> str | None:
    try:
        link = client.dashboard_link
    except Exception:  # noqa: BLE001 - no dashboard (bokeh missing)
        return None
    return str(link) if link else None


def describe(e: BaseException) -> str:
    """An exception in one line: its type and the first line of its message."""
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


def backend(jobs: int, scheduler: str | None,
            notice: Callable[[str], None] | None = None) -> Backend:
    """The backend for ``--jobs`` and ``--scheduler``; ``notice`` is told where the Dask
    dashboard is. :class:`DriverError` when the scheduler cannot be used."""
    if scheduler is not None:
        if scheduler != "local" and "://" not in scheduler:
            raise DriverError(f"--scheduler {scheduler}: expected 'local' or a scheduler "
                              "address such as tcp://HOST:8786")
        port = _bad_port(scheduler)
        if port is not None:
            raise DriverError(f"--scheduler {scheduler}: {port} is not a port number (a port "
                              "is 1 to 65535, as in tcp://HOST:8786)")
        on = DaskBackend(scheduler, max(1, jobs))
        if notice is not None:
            where = f", dashboard at {on.dashboard}" if on.dashboard else ""
            workers = f"{on.processes} worker{'s' * (on.processes != 1)}"
            if on.workers != on.processes:
                workers += f", {on.workers} threads"
            notice(f"Dask: {workers}{where}")
        return on
    if jobs > 1:
        return ProcessBackend(jobs)
    return SerialBackend()


# ------------------------------------------------------------------------- running


def run(
    tasks: Iterable[list[Unit]],
    work: Callable[..., list[UnitResult]],
    args: tuple[Any, ...],
    on: Backend,
    *,
    report: Callable[[Diagnostic], None] | None = None,
    on_bytes: Callable[[int], None] | None = None,
    window: int | None = None,
) -> Iterator[FileResult]:
    """Run ``work(units, *args)`` for every task on ``on`` and yield each file's result,
    in input order. ``report`` gets every diagnostic, in the order of a serial run.

    A task that raises is a :class:`DriverError` (after the backend's retries); the
    tasks still in flight are cancelled when the caller stops early or is interrupted.
    ``tasks`` are taken as they are needed, a window of them ahead.
    """
    source = iter(tasks)
    queue: deque[tuple[list[Unit], _Future | None]] = deque()
    in_flight = window or max(2, on.workers * 3)
    split = _Split()
    dropped = -1  # the file whose remaining ranges are left out (replayed whole instead)
    try:
        while True:
            while len(queue) < in_flight:  # each task submitted as soon as it is made
                task = next(source, None)
                if task is None:
                    break
                if task[0].ranged and task[0].index == dropped:
                    continue
                queue.append((task, on.submit(work, task, *args)))
            _fill(queue, in_flight, on, work, args)
            if not queue:
                break
            units, future = queue.popleft()
            assert future is not None
            try:
                results = wait_result(future)
            except KeyboardInterrupt:
                raise
            except Exception as e:  # noqa: BLE001 - a task's own failure, for the user
                names = ", ".join(u.name for u in units[:3]) + (" ..." if len(units) > 3 else "")
                raise DriverError(f"a task failed on {names}: {describe(e)}") from None
            for unit, result in zip(units, results, strict=True):
                if unit.ranged:
                    redo = split.take(unit, result)
                    if redo is not None:
                        dropped = unit.index
                        _drop_ranges(queue, unit)
                        queue.appendleft(([redo], None))
                        break
                    if report is not None:
                        for d in result.diagnostics:
                            report(d)
                    if on_bytes is not None:
                        on_bytes(unit.size)
                    if unit.last:
                        yield split.done(unit)
                    continue
                if report is not None:
                    for d in result.diagnostics:
                        if d.line >= unit.emit_from:
                            report(d)
                if on_bytes is not None:
                    on_bytes(unit.size)
                stats = result.stats
                if unit.emit_from and isinstance(stats, FileStats):
                    stats = replace(stats, open_games=0)
                yield FileResult(Path(unit.name), stats, result.parts, result.lines, result.notes)
    finally:
        for _, future in queue:
            if future is not None:
                future.cancel()


def _fill(queue: deque[tuple[list[Unit], _Future | None]], n: int, on: Backend,
          work: Callable[..., list[UnitResult]], args: tuple[Any, ...]) -> None:
    for i in range(min(n, len(queue))):
        units, future = queue[i]
        if future is None:
            queue[i] = (units, on.submit(work, units, *args))


def _drop_ranges(queue: deque[tuple[list[Unit], _Future | None]], unit: Unit) -> None:
    """Cancel the remaining ranges of ``unit``'s file (they come next in the queue)."""
    while queue and queue[0][0][0].index == unit.index and queue[0][0][0].ranged:
        _, future = queue.popleft()
        if future is not None:
            future.cancel()


class _Split:
    """The ranges of the file being cut: whether each cut stands, and their sums."""

    def __init__(self) -> None:
        self._reset(-1)

    def _reset(self, index: int) -> None:
        self.index = index
        self.games: set[str] = set()
        self.stats: FileStats | None = None
        self.parts: list[Any] = []
        self.bytes = 0

    def take(self, unit: Unit, result: UnitResult) -> Unit | None:
        """Account for one range; the unit to replay instead when its cut does not stand:
        the whole file, reporting diagnostics from the range's first line on (those
        before it were reported already, and are those of a serial run)."""
        if unit.index != self.index:
            self._reset(unit.index)
        stats = result.stats
        mixed = isinstance(stats, LogError) or not self.games.isdisjoint(stats.game_ids) or any(
            d.game is not None and d.game in self.games for d in result.diagnostics)
        if mixed or (isinstance(stats, FileStats) and stats.open_games and not unit.last):
            whole = Unit(unit.path, unit.name, unit.index, _size(Path(unit.path)) - self.bytes,
                         emit_from=unit.first_line)
            self._reset(-1)
            return whole
        assert isinstance(stats, FileStats)
        self.games.update(stats.game_ids)
        self.parts.extend(result.parts)
        self.bytes += unit.size
        if self.stats is None:
            self.stats = replace(stats, game_ids=())
        else:
            s = self.stats
            s.lines = stats.lines
            s.events += stats.events
            s.games += stats.games
            s.rounds += stats.rounds
            s.open_games = stats.open_games
        return None

    def done(self, unit: Unit) -> FileResult:
        assert self.stats is not None
        result = FileResult(Path(unit.name), self.stats, self.parts)
        self._reset(-1)
        return result


# ---------------------------------------------------------------------- check tasks


def check_task(units: list[Unit], variants: frozenset[str]) -> list[UnitResult]:
    """Worker: replay each unit, collecting its diagnostics."""
    results = []
    for u in units:
        found: list[Diagnostic] = []
        try:
            stats: FileStats | LogError = replay_file(
                Path(u.path), DiagnosticVisitor(found.append), display=u.name, variants=variants,
                start=u.start, end=u.end if u.ranged else None, first_line=u.first_line)
        except LogError as e:
            stats = e
        results.append(UnitResult(stats, found))
    return results


# --------------------------------------------------------------------- convert tasks


def tch_lines(path: Path, name: str) -> UnitResult:
    """A ``.tch`` file converted: its events as format-1 lines (those ``convert`` writes)
    and the lines that could not be understood, as messages naming ``name``."""
    from ..common.safetext import clean
    from ..readers.bsw import Unreadable, event_dict, read_tch

    lines: list[bytes] = []
    notes: list[str] = []
    try:
        with open(path, "rb") as tch:
            for line, item in read_tch(tch, tch_game_id(path)):
                if isinstance(item, Unreadable):
                    notes.append(f"{clean(name)}:{line}: not understood: {clean(item.message)}")
                else:
                    lines.append(event_line(event_dict(item)))
    except OSError as e:
        return UnitResult(LogError(f"{name}: cannot read: {e.strerror or e}"))
    return UnitResult(FileStats(name, events=len(lines), games=1), lines=lines, notes=notes)


def convert_task(units: list[Unit]) -> list[UnitResult]:
    """Worker: convert each ``.tch`` unit."""
    return [tch_lines(Path(u.path), u.name) for u in units]
