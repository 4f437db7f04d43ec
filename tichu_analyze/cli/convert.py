"""``convert``: Brettspielwelt ``.tch`` files to JSON-lines logs."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from ..common.safetext import clean, plural
from ..readers.logfile import LogError, find_logs
from ..run.driver import Backend, backend

if TYPE_CHECKING:
    from rich.progress import Progress

from .app import (
    SchedulerOption,
    _file_name,
    _interrupted,
    _log_output,
    _log_path,
    _notice,
    _some,
    app,
    err,
    fail,
)


@app.command()
def convert(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Brettspielwelt .tch files or directories of them.",
                       show_default=False, parser=_log_path),
    ],
    output: Annotated[
        Path,
        typer.Option("--output", "-o", help="The format-1 log to write (.jsonl, .jsonl.gz "
                     "or .jsonl.zst); each .tch file becomes one game, its id the file name.",
                     metavar="FILE", parser=_file_name),
    ],
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0, help="Worker processes (0: one per CPU "
                          "core); the output is the same.")
    ] = 1,
    scheduler: SchedulerOption = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No summary and no progress bar (lines not "
                           "understood are still listed).")
    ] = False,
) -> None:
    """Convert Brettspielwelt .tch logs into one format-1 JSON-lines log.

    BSW's logging habits (the winner's pass that collects a trick, extra or
    missing passes, a Tichu logged one move late, the Phoenix's rank not
    recorded) are normalized; genuine violations are kept for 'check' to find.
    Lines the converter cannot understand are listed on stderr and the rest of
    their round is left out. A game id (the file name) already written is
    left out, naming both files. 'check' and the other commands also read .tch
    files directly, with diagnostics pointing at the .tch lines.

    Exit status: 0 when every game was converted whole, 1 when lines could not be
    understood or a game id was written already (the rest is written), 2 when an
    argument or a file could not be used, 130 when interrupted (the output is
    left as it was).
    """
    from ..readers.logfile import is_tch, tch_game_id, write_lines
    from ..run.driver import convert_task, file_sizes, plan, run
    from ..run.progress import progress_bar

    _log_output(output)
    files = [p for p in find_logs(paths) if is_tch(p)]
    if not files:
        raise fail(f"no .tch files found in {_some(paths)} (convert reads Brettspielwelt "
                   ".tch files; format-1 logs are read as they are by check, ingest and the "
                   "others)")
    problems = 0
    unreadable = 0
    games = 0
    written: dict[str, Path] = {}  # game id: the file it was converted from

    def lines(on: Backend, bar: Progress) -> Iterator[bytes]:
        nonlocal problems, unreadable, games
        task = bar.add_task(f"converting ({plural(on.workers, 'worker')})",
                            total=sum(file_sizes(files)))
        for done in run(plan(files, on.workers), convert_task, (), on,
                        on_bytes=lambda n: bar.advance(task, n)):
            if isinstance(done.stats, LogError):
                unreadable += 1
                err.print(f"[bold red]error:[/] {escape(clean(done.stats))}", highlight=False)
                continue
            game = tch_game_id(done.path)
            # a file that gave no event (empty, or no line understood) wrote no game: its
            # id stays free for a copy of the game that holds one
            first = written.setdefault(game, done.path) if done.lines else done.path
            if first is not done.path:
                problems += 1
                err.print(f"[bold red]error:[/] {escape(clean(done.path))}: game "
                          f"{escape(clean(game))} was already written from "
                          f"{escape(clean(first))}; this copy is left out", highlight=False)
                continue
            games += bool(done.lines)
            for note in done.notes:
                problems += 1
                err.print(note, highlight=False, markup=False)
            if not done.lines and not done.notes and not quiet:
                err.print(f"note: {clean(done.path)} holds no game: nothing written for it",
                          highlight=False, markup=False)
            yield from done.lines

    try:
        with closing(backend(jobs or os.cpu_count() or 1, scheduler, _notice(quiet))) as on, \
                progress_bar(not quiet and err.is_terminal) as bar:
            n = write_lines(lines(on, bar), output)
    except KeyboardInterrupt:
        raise _interrupted(output) from None
    found = len(files)
    if not quiet or unreadable:
        err.print(f"wrote {plural(n, 'event')} of {plural(games, 'game')} to {clean(output)}"
                  + (f" ({found} .tch files found, {unreadable} could not be read)"
                     if unreadable else ""), highlight=False, markup=False)
    if unreadable:
        raise typer.Exit(2)
    if problems:
        raise typer.Exit(1)
