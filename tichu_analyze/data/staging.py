"""``ingest`` on many workers: tasks write Parquet parts into a staging directory beside
the dataset; the client commits them in one step once every task has succeeded.

1. Each ingest task (:func:`ingest_task`) replays its work units
   (:mod:`tichu_analyze.run.driver`) and writes their rows into a directory of its own
   attempt, ``.DIR.staging-<run>/<task>-<attempt>/``: per table, one file for each
   hash bucket of players (:func:`bucket_of`; more for a task with many rows), and
   returns the list of them.
2. One task per table and bucket (:func:`split_task`) reads that bucket's parts and
   writes one file per player, so that a partition gets one file whatever the number
   of tasks, and neither the tasks nor the client open a file per player and task.
3. The client moves the players' files into the dataset's temporary directory
   (:meth:`~tichu_analyze.data.datasets.DatasetWriter.add_file`) and commits it: the
   dataset is swapped into place in one step, as after a serial ingest; the staging
   directory is then removed.

A task whose worker dies, or that raises, runs again in a new attempt directory; only
the files named by the attempt whose result reached the client are used, so a retried
task never adds its rows twice. After an error or Ctrl-C nothing is committed and
``DIR`` is left as it was.

The staging directory sits beside the dataset: on a cluster, the dataset's directory
must be on a file system every worker sees at the same path (docs/scale.md).
"""
from __future__ import annotations

import itertools
import os
import shutil
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from ..common.atomicfile import reason
from ..core.diagnostics import Diagnostic
from ..readers.logfile import FileStats, LogError
from ..run.driver import (
    SPLIT_BYTES,
    Backend,
    DriverError,
    Unit,
    UnitResult,
    describe,
    file_sizes,
    plan,
    run,
    wait_result,
)
from ..run.progress import progress_bar
from .datasets import (
    DatasetError,
    DatasetWriter,
    IngestResult,
    Part,
    PartWriter,
    fewer_full_collections,
    replay_rows,
    split_players,
)

BUCKET_BYTES = 128 << 20
"""Input bytes per hash bucket of players: a merge task holds one bucket's rows of one
table in memory (some 1.5 million rows)."""


def ingest_task(units: list[Unit], variants: frozenset[str], staging: str,
                buckets: int) -> list[UnitResult]:
    """Worker: replay ``units`` and write their rows as parts of a new attempt directory
    in ``staging``; the parts go with the last unit's result."""
    first = units[0]
    key = f"{first.index:08d}-{first.part:05d}-{uuid.uuid4().hex[:12]}"
    writer = PartWriter(Path(staging) / key, buckets)
    with fewer_full_collections():
        results = _replay_units(units, variants, writer)
    results[-1].parts = list(writer.close())
    return results


def _replay_units(units: list[Unit], variants: frozenset[str],
                  writer: PartWriter) -> list[UnitResult]:
    results = []
    for u in units:
        found: list[Diagnostic] = []
        try:
            stats: FileStats | LogError = replay_rows(
                Path(u.path), u.name, writer, report=found.append, variants=variants,
                start=u.start, end=u.end if u.ranged else None, first_line=u.first_line)
        except LogError as e:
            stats = e
        results.append(UnitResult(stats, found))
    return results


def split_task(parts: list[Part], staging: str) -> list[Part]:
    """Worker: the rows of ``parts`` (one table, one bucket, in input order) as one file per
    player, in a new attempt directory of ``staging``; the inputs are left for a retry."""
    first = parts[0]
    folder = Path(staging) / f"players-{first.table}-{first.bucket:05d}-{uuid.uuid4().hex[:12]}"
    folder.mkdir()
    paths = (folder / f"{n:06d}.parquet" for n in itertools.count())
    return [Part(first.table, player, str(path), rows)
            for player, path, rows in split_players(parts, lambda _: next(paths))]


def players_parts(parts: list[Part], staging: Path, on: Backend) -> list[Part]:
    """The staged parts regrouped as one file per table and player, by tasks on ``on`` (one
    per table and bucket), so that the client does not read the rows again."""
    groups: dict[tuple[str, int], list[Part]] = {}
    for part in parts:
        groups.setdefault((part.table, part.bucket), []).append(part)
    futures = [on.submit(split_task, group, str(staging)) for group in groups.values()]
    merged: list[Part] = []
    try:
        for future in futures:
            try:
                merged.extend(wait_result(future))
            except KeyboardInterrupt:
                raise
            except Exception as e:  # noqa: BLE001 - a task's own failure, for the user
                raise DriverError(f"a task writing the players' files failed: {describe(e)}") \
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
    split_bytes: int = SPLIT_BYTES,
    force: bool = False,
    on_wait: Callable[[], None] | None = None,
) -> IngestResult:
    """:func:`tichu_analyze.data.datasets.ingest` with the replay done by tasks on ``on``.

    The same dataset as a serial ingest (the same rows; files compacted per partition).
    :class:`DatasetError` when ``out`` cannot be written, :class:`DriverError` when a task
    failed (nothing is written then). ``force`` and ``on_wait`` as for the serial ingest
    (logs the dataset already holds are skipped; another writer is waited for).
    """
    result = IngestResult()
    writer = DatasetWriter(out, append=append, on_wait=on_wait, variants=variants)
    writer.open()
    try:
        files, result.skipped = writer.new_logs(files, force)
    except BaseException:
        writer.abort()
        raise
    if not files:
        writer.abort()  # nothing new: the dataset is left as it was
        return result
    dest = Path(out).resolve()
    staging = dest.parent / f".{dest.name}.staging-{uuid.uuid4().hex[:12]}"
    parts: list[Part] = []
    try:
        try:
            staging.mkdir()
        except OSError as e:
            raise DatasetError(f"{out}: cannot write the dataset: {reason(e)}") from None
        tasks = plan(list(files), on.workers, task_bytes=task_bytes, split_bytes=split_bytes)
        size = sum(file_sizes(files))
        buckets = min(1024, max(2 * on.workers, -(-size // BUCKET_BYTES)))
        with progress_bar(show_progress) as bar:
            task = bar.add_task(f"ingesting ({on.workers} workers)", total=size)
            for done in run(tasks, ingest_task, (variants, str(staging), buckets), on,
                            report=report,
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
        writer.name_partitions(parts)
        parts = players_parts(parts, staging, on)
        try:
            for part in parts:
                writer.add_file(part.table, part.player, Path(part.path), part.rows)
        except OSError as e:
            raise DatasetError(f"{out}: cannot write the dataset: {reason(e)}") from None
        writer.commit()
    except BaseException:
        writer.abort()
        on.close()  # stop tasks still running, so none writes into staging after it goes
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    result.written = True
    result.rows = Counter(writer.rows)
    return result
