"""A progress bar over log files, shown on a terminal only."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from ..core.diagnostics import Diagnostic
from ..core.visitor import Visitor, only_diagnostics
from ..readers.logfile import FileStats, LogError, replay_file
from .driver import Backend, backend, check_task, file_sizes, plan, run


def progress_over(
    files: list[Path],
    visitor: Visitor,
    *,
    show: bool = True,
    jobs: int = 1,
    variants: frozenset[str] = frozenset(),
    scheduler: str | None = None,
    notice: Callable[[str], None] | None = None,
) -> Iterator[tuple[Path, FileStats | LogError]]:
    """Replay each file in turn, followed by ``visitor``, with a progress bar (by bytes)
    on stderr when it is a terminal.

    With ``jobs`` > 1 or a Dask ``scheduler``, and a visitor that only takes diagnostics
    (:func:`~tichu_analyze.core.visitor.only_diagnostics`), the files are cut into work units
    run by :mod:`tichu_analyze.run.driver` (``jobs`` local processes, or Dask); results still
    come back in file order, and diagnostics in the order of a serial run. ``notice`` gets
    the driver's notes (the Dask dashboard's address).
    """
    show = show and sys.stderr.isatty()
    sizes = file_sizes(files)
    if (scheduler is not None or jobs > 1) and only_diagnostics(visitor):
        yield from _driven(files, sizes, visitor.visit_diagnostic, show, variants,
                           backend(jobs, scheduler, notice))
        return
    with progress_bar(show) as bar:
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


def progress_bar(show: bool) -> Progress:
    """The progress bar (by bytes) of every command; shown only when ``show``."""
    return _bar(show, DownloadColumn(), TransferSpeedColumn())


def count_bar(show: bool) -> Progress:
    """A progress bar over a number of things (pages, games); shown only when ``show``."""
    return _bar(show, MofNCompleteColumn())


STDERR = Console(stderr=True, soft_wrap=True)
"""The console of the commands' messages and progress bars, on standard error. One
console for both, so that a message printed while a bar is drawn goes above the bar.
While a bar is drawn, rich also sends what is written to ``sys.stdout`` above it (the
commands write to a terminal's standard output through ``sys.stdout`` as it is then)."""


def _bar(show: bool, *columns: ProgressColumn) -> Progress:
    """A bar on stderr, and only when stderr is a terminal: standard output holds the
    command's results alone (a bar on a console that is no terminal would end in an
    empty line)."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        *columns,
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        transient=True,
        console=STDERR,
        disable=not (show and STDERR.is_terminal),
    )


def _driven(
    files: list[Path],
    sizes: list[int],
    report: Callable[[Diagnostic], None],
    show: bool,
    variants: frozenset[str],
    on: Backend,
) -> Iterator[tuple[Path, FileStats | LogError]]:
    try:
        with progress_bar(show) as progress:
            task = progress.add_task(f"replaying ({on.workers} workers)", total=sum(sizes))
            for result in run(plan(files, on.workers), check_task, (variants,), on,
                              report=report, on_bytes=lambda n: progress.advance(task, n)):
                yield result.path, result.stats
    finally:
        on.close()
