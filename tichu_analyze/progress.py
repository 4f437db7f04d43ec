"""A progress bar over log files, shown on a terminal only."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .diagnostics import Diagnostic
from .logfile import FileStats, LogError, replay_file
from .replay import GameRecord, RoundRecord


def progress_over(
    files: list[Path],
    report: Callable[[Diagnostic], None],
    *,
    show: bool = True,
    trace: bool = False,
    on_round: Callable[[RoundRecord], None] | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
) -> Iterator[tuple[Path, FileStats | LogError]]:
    """Replay each file in turn, with a progress bar on stderr when it is a terminal."""
    show = show and sys.stderr.isatty() and len(files) > 1
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        transient=True,
        disable=not show,
    ) as bar:
        task = bar.add_task("replaying", total=len(files))
        for path in files:
            try:
                stats: FileStats | LogError = replay_file(
                    path, report, trace=trace, on_round=on_round, on_game=on_game
                )
            except LogError as e:
                stats = e
            bar.advance(task)
            yield path, stats
