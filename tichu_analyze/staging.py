"""``ingest`` on many workers: tasks write Parquet parts into a staging directory beside
the dataset; the client commits them in one step once every task has succeeded.

Each task (:func:`ingest_task`) replays its work units (:mod:`tichu_analyze.driver`)
and writes their rows into a directory of its own attempt,
``.DIR.staging-<run>/<task>-<attempt>/``, one Parquet file per table and player (more
for a task with many rows), and returns the list of them. A task whose worker dies,
or that raises, runs again in a new attempt directory; only the parts named by the
attempt whose result reached the client are committed, so a retried task never adds
its rows twice. The client moves those parts into the dataset's temporary directory
(:meth:`~tichu_analyze.datasets.DatasetWriter.add_file`), which compacts each
player's partition and swaps the dataset into place (atomic, as a serial ingest);
the staging directory is then removed. After an error or Ctrl-C nothing is committed
and ``DIR`` is left as it was.

The staging directory sits beside the dataset: on a cluster, the dataset's directory
must be on a file system every worker sees at the same path (docs/scale.md).
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .datasets import (
    DEFAULT_BATCH_ROWS,
    SCHEMAS,
    DatasetError,
    DatasetWriter,
    IngestResult,
    Row,
    merge_parquet,
    replay_rows,
)
from .diagnostics import Diagnostic
from .driver import Backend, DriverError, Unit, UnitResult, describe, plan, run
from .logfile import FileStats, LogError
from .progress import progress_bar


@dataclass(frozen=True, slots=True)
class Part:
    """One Parquet file written by a task: rows of one table, all of one player."""

    table: str
    player: str | None
    path: str
    rows: int


class PartWriter:
    """A task's rows, buffered per table and player and written as Parquet parts into
    ``folder`` (which must not exist; its parent must)."""

    def __init__(self, folder: Path, batch_rows: int = DEFAULT_BATCH_ROWS) -> None:
        folder.mkdir()  # not parents: a task that outlives its run finds no staging
        self.folder = folder
        self.batch_rows = max(1, batch_rows)
        self.parts: list[Part] = []
        self._buffers: dict[tuple[str, str | None], list[Row]] = {}
        self._buffered = 0

    def add(self, table: str, rows: Sequence[Row] | tuple[Row, ...]) -> None:
        buffers = self._buffers
        for row in rows:
            key = (table, row["player"])
            buffer = buffers.get(key)
            if buffer is None:
                buffer = buffers[key] = []
            buffer.append(row)
        self._buffered += len(rows)
        if self._buffered >= self.batch_rows:
            for key in sorted(buffers, key=lambda k: -len(buffers[k])):
                self._write(key)
                if self._buffered <= self.batch_rows // 2:
                    break

    def _write(self, key: tuple[str, str | None]) -> None:
        table, player = key
        rows = self._buffers.pop(key)
        self._buffered -= len(rows)
        schema = SCHEMAS[table]
        values = itemgetter(*schema.names)
        columns = zip(*(values(r) for r in rows), strict=True)
        data = pa.Table.from_arrays(
            [pa.array(v, type=f.type) for v, f in zip(columns, schema, strict=True)],
            schema=schema)
        path = self.folder / f"{len(self.parts):06d}.parquet"
        pq.write_table(data, path, compression="zstd")
        self.parts.append(Part(table, player, str(path), len(rows)))

    def close(self) -> list[Part]:
        """Write what is buffered; the parts written, in order."""
        for key in list(self._buffers):
            self._write(key)
        return self.parts


def ingest_task(units: list[Unit], variants: frozenset[str], staging: str) -> list[UnitResult]:
    """Worker: replay ``units`` and write their rows as parts of a new attempt directory
    in ``staging``; the parts go with the last unit's result."""
    first = units[0]
    key = f"{first.index:08d}-{first.part:05d}-{uuid.uuid4().hex[:12]}"
    writer = PartWriter(Path(staging) / key)
    results = []
    for u in units:
        found: list[Diagnostic] = []
        try:
            stats: FileStats | LogError = replay_rows(
                Path(u.path), u.name, writer.add, report=found.append, variants=variants,
                start=u.start, end=u.end if u.ranged else None, first_line=u.first_line)
        except LogError as e:
            stats = e
        results.append(UnitResult(stats, found))
    results[-1].parts = list(writer.close())
    return results


def compact_task(groups: list[list[Part]], staging: str) -> list[Part]:
    """Worker: merge each group (the parts of one table and player) into one file in a new
    attempt directory of ``staging``; the inputs are left for a retry."""
    first = groups[0][0]
    folder = Path(staging) / f"compact-{Path(first.path).parent.name}-{uuid.uuid4().hex[:12]}"
    folder.mkdir()
    merged = []
    for i, group in enumerate(groups):
        table, player = group[0].table, group[0].player
        dest = folder / f"{i:06d}.parquet"
        rows = merge_parquet([Path(p.path) for p in group], dest, SCHEMAS[table])
        merged.append(Part(table, player, str(dest), rows))
    return merged


def compact_parts(parts: list[Part], staging: Path, on: Backend,
                  per_task: int = 2000) -> list[Part]:
    """The parts, those of one table and player merged into one file by tasks on ``on``
    (so that the client does not read every part again at commit)."""
    groups: dict[tuple[str, str | None], list[Part]] = {}
    for part in parts:
        groups.setdefault((part.table, part.player), []).append(part)
    single = [g[0] for g in groups.values() if len(g) == 1]
    several = [g for g in groups.values() if len(g) > 1]
    chunks: list[list[list[Part]]] = [[]]
    held = 0
    for group in several:
        if held >= per_task:
            chunks.append([])
            held = 0
        chunks[-1].append(group)
        held += len(group)
    futures = [on.submit(compact_task, chunk, str(staging)) for chunk in chunks if chunk]
    merged = list(single)
    try:
        for future in futures:
            try:
                merged.extend(future.result())
            except KeyboardInterrupt:
                raise
            except Exception as e:  # noqa: BLE001 - a task's own failure, for the user
                raise DriverError(f"a task compacting the dataset failed: {describe(e)}") \
                    from None
    finally:
        for future in futures:
            future.cancel()
    return merged


def ingest_staged(
    files: Sequence[Path],
    out: str | os.PathLike[str],
    on: Backend,
    *,
    append: bool = False,
    report: Callable[[Diagnostic], None] | None = None,
    show_progress: bool = False,
    variants: frozenset[str] = frozenset(),
    task_bytes: int | None = None,
) -> IngestResult:
    """:func:`tichu_analyze.datasets.ingest` with the replay done by tasks on ``on``.

    The same dataset as a serial ingest (the same rows; files compacted per partition).
    :class:`DatasetError` when ``out`` cannot be written, :class:`DriverError` when a task
    failed (nothing is written then).
    """
    result = IngestResult()
    writer = DatasetWriter(out, append=append)
    writer.open()
    dest = Path(out).resolve()
    staging = dest.parent / f".{dest.name}.staging-{uuid.uuid4().hex[:12]}"
    parts: list[Part] = []
    try:
        try:
            staging.mkdir()
        except OSError as e:
            raise DatasetError(f"{out}: cannot write the dataset: {e}") from None
        tasks = plan(list(files), on.workers, task_bytes=task_bytes)
        with progress_bar(show_progress) as bar:
            task = bar.add_task(f"ingesting ({on.workers} workers)",
                                total=sum(u.size for t in tasks for u in t))
            for done in run(tasks, ingest_task, (variants, str(staging)), on, report=report,
                            on_bytes=lambda n: bar.advance(task, n)):
                stats = done.stats
                if isinstance(stats, LogError):
                    result.errors.append(stats)
                    continue
                result.totals["files"] += 1
                result.totals["games"] += stats.games
                result.totals["rounds"] += stats.rounds
                result.totals["events"] += stats.events
                parts.extend(done.parts)
        if result.errors:
            writer.abort()
            return result
        parts = compact_parts(parts, staging, on)
        try:
            for part in parts:
                writer.add_file(part.table, part.player, Path(part.path), part.rows)
        except OSError as e:
            raise DatasetError(f"{out}: cannot write the dataset: {e}") from None
        writer.commit()
    except BaseException:
        writer.abort()
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    result.written = True
    result.rows = Counter(writer.rows)
    return result
