"""A progress bar over log files, shown on a terminal only."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from .diagnostics import Diagnostic
from .logfile import FileStats, LogError, replay_file
from .visitor import DiagnosticVisitor, Visitor, only_diagnostics


def progress_over(
    files: list[Path],
    visitor: Visitor,
    *,
    show: bool = True,
    jobs: int = 1,
    variants: frozenset[str] = frozenset(),
) -> Iterator[tuple[Path, FileStats | LogError]]:
    """Replay each file in turn, followed by ``visitor``, with a progress bar (by bytes)
    on stderr when it is a terminal.

    With ``jobs`` > 1, and a visitor that only takes diagnostics
    (:func:`~tichu_analyze.visitor.only_diagnostics`), files are replayed by that many
    worker processes; results still come back in file order.
    """
    show = show and sys.stderr.isatty()
    sizes = [_size(p) for p in files]
    if jobs > 1 and only_diagnostics(visitor) and len(files) > 1:
        yield from _parallel(files, sizes, visitor.visit_diagnostic, show, jobs, variants)
        return
    with _bar(show) as bar:
        task = bar.add_task("replaying", total=sum(sizes))
        done = 0
        for path, size in zip(files, sizes, strict=True):
            bar.update(task, description=f"replaying {path.name}")

            def moved(read: int, start: int = done) -> None:
                bar.update(task, completed=start + read)

            try:
                stats: FileStats | LogError = replay_file(
                    path, visitor, progress=moved if show else None, variants=variants,
                )
            except LogError as e:
                stats = e
            done += size
            bar.update(task, completed=done)
            yield path, stats


def _bar(show: bool) -> Progress:
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        transient=True,
        disable=not show,
    )


def _check_one(
    path: Path, variants: frozenset[str]
) -> tuple[FileStats | LogError, list[Diagnostic]]:
    """Worker: replay one file, collecting its diagnostics."""
    found: list[Diagnostic] = []
    try:
        return replay_file(path, DiagnosticVisitor(found.append), variants=variants), found
    except LogError as e:
        return e, found


def _parallel(
    files: list[Path],
    sizes: list[int],
    report: Callable[[Diagnostic], None],
    show: bool,
    jobs: int,
    variants: frozenset[str],
) -> Iterator[tuple[Path, FileStats | LogError]]:
    from concurrent.futures import ProcessPoolExecutor
    from functools import partial

    chunk = max(1, min(64, len(files) // (jobs * 8)))
    with _bar(show) as bar, ProcessPoolExecutor(max_workers=jobs) as pool:
        task = bar.add_task(f"replaying ({jobs} processes)", total=sum(sizes))
        results = pool.map(partial(_check_one, variants=variants), files, chunksize=chunk)
        try:
            for path, size, (stats, found) in zip(files, sizes, results, strict=True):
                for d in found:
                    report(d)
                bar.advance(task, size)
                yield path, stats
        except BaseException:  # the reader stopped (a closed pipe, Ctrl-C): drop the rest
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
