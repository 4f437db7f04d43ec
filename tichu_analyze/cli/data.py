"""``simulate`` and ``ingest``: the commands that make logs and datasets."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ..common.atomicfile import (
    OutputError,
    not_a_folder,
)
from ..common.safetext import clean, plural
from ..core.diagnostics import Diagnostic
from ..run.driver import DriverError, backend
from .app import (
    Colour,
    ColourOption,
    LogPaths,
    SchedulerOption,
    VariantOption,
    _file_name,
    _interrupted,
    _log_files,
    _log_output,
    _notice,
    _summary,
    _untouched,
    _variants,
    app,
    err,
    fail,
)


@app.command()
def simulate(
    output: Annotated[Path, typer.Option("--output", "-o", help="The log file to write "
                                         "(.jsonl, .jsonl.gz or .jsonl.zst).", metavar="FILE",
                                         parser=_file_name)],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Random seed; the same seed gives the "
                                      "same file, byte for byte.")] = 0,
    players: Annotated[
        int | None, typer.Option("--players", min=4, help="Draw each game's players (four; six "
                                 "in tientsin, three persons in trichu) from a pool of this "
                                 "many (player-00001, ...; at least 4, 6 in tientsin), as in "
                                 "an archive with many players.", show_default=False),
    ] = None,
    variant: Annotated[
        list[str] | None, typer.Option("--variant", help="Play a variant of rules.md section 9 "
                                       "(repeatable): tientsin (six players) or trichu (three "
                                       "players and a dummy), with wish-penalty-200 or "
                                       "dog-can-be-bombed; named in game_start.variants.",
                                       show_default=False, metavar="NAME"),
    ] = None,
    target: Annotated[
        int | None, typer.Option("--target", min=1, help="Target score (1000), or in trichu "
                                 "the number of rounds (9, a multiple of 3).",
                                 show_default=False),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No summary and no progress bar.")
    ] = False,
) -> None:
    """Write simulated games played by seeded bots, as a format-1 log.

    Exit status: 0 when the log was written, 2 when an argument or the output could not
    be used, 130 when interrupted (the output is left as it was).
    """
    from ..readers.logfile import write_log
    from ..run.progress import count_bar
    from ..sim.simulate import simulate as run

    _log_output(output)
    try:
        events = run(games, seed, players=players, variants=variant or (), target=target)
    except ValueError as e:
        raise fail(str(e)) from None

    def counted(advance: Callable[[], None]) -> Iterator[dict[str, object]]:
        for event in events:
            yield event
            if event.get("type") == "game_end":
                advance()

    try:
        with count_bar(err.is_terminal and not quiet) as bar:
            task = bar.add_task("simulating games", total=games)
            write_log(counted(lambda: bar.advance(task)), output)
    except OutputError as e:
        raise fail(str(e)) from None
    except KeyboardInterrupt:
        raise _interrupted(output) from None
    if not quiet:
        err.print(f"wrote {plural(games, 'game')} to {output}", highlight=False)


@app.command()
def ingest(
    paths: LogPaths,
    out: Annotated[
        Path,
        typer.Option("--out", "-o", help="The dataset directory: created, or replaced when it "
                     "holds a dataset (a non-empty directory that does not is refused).",
                     show_default=False, metavar="DIR"),
    ],
    append: Annotated[
        bool, typer.Option("--append", help="Add the logs' rows to the dataset in --out as new "
                           "part files instead of replacing it.")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No summary and no progress bar.")
    ] = False,
    variant: VariantOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Ingest logs even when --append finds their "
                           "content already in the dataset, or their path given twice (by "
                           "default they are skipped, with a note).")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0, help="Worker processes (0: one per CPU "
                          "core); the dataset holds the same rows.")
    ] = 1,
    scheduler: SchedulerOption = None,
    color: ColourOption = Colour.AUTO,
) -> None:
    """Replay the logs and write Parquet datasets partitioned by player.

    Tables plays, rounds, games and violations, as DIR/<table>/player=<name>/*.parquet
    (docs/datasets.md describes every column). Diagnostics are data here: they go to the
    violations table and into the summary, and do not change the exit status. Writing is
    atomic: after an error or an interruption DIR is left as it was. Two ingests into
    one DIR at once run one after the other (the second waits), so both land.

    Exit status: 0 when the dataset was written, 2 when an argument, a log file or DIR
    could not be used (nothing is written then), 130 when interrupted.
    """

    from ..data.datasets import DatasetError, sigterm_as_interrupt
    from ..data.datasets import ingest as write_datasets

    err.no_color = color is Colour.NEVER or bool(os.environ.get("NO_COLOR"))  # the summary
    variants = _variants(variant)
    files = _log_files(paths, quiet)
    unusable = not_a_folder(out)
    if unusable is not None:
        raise fail(unusable)
    counts: Counter[str] = Counter()

    def report(d: Diagnostic) -> None:
        counts[d.code] += 1

    try:
        with sigterm_as_interrupt():
            workers = jobs or os.cpu_count() or 1
            wait = lambda: err.print(f"waiting: another ingest is writing {clean(out)}",  # noqa: E731
                                     highlight=False, markup=False)
            if scheduler is None and workers == 1:
                result = write_datasets(files, out, append=append, report=report,
                                        show_progress=not quiet, variants=variants,
                                        force=force, on_wait=wait)
            else:
                from ..data.staging import ingest_staged

                with closing(backend(workers, scheduler, _notice(quiet))) as on:
                    result = ingest_staged(files, out, on, append=append, report=report,
                                           show_progress=not quiet, variants=variants,
                                           force=force, on_wait=wait)
    except (DatasetError, DriverError) as e:
        raise fail(str(e)) from None
    except KeyboardInterrupt:
        raise _interrupted(out) from None
    for problem in result.errors:
        err.print(f"[bold red]error:[/] {escape(clean(problem))}", highlight=False)
    if result.skipped:
        n = len(result.skipped)
        err.print(f"note: skipped {n} log{'s' * (n != 1)} whose content {clean(out)} already "
                  f"holds (or given twice): {', '.join(clean(p) for p in result.skipped[:5])}"
                  f"{', ...' if n > 5 else ''}; --force ingests them again",
                  highlight=False, markup=False)
    if not quiet:
        _summary(result.totals, counts, len(result.errors))
    if result.errors:
        raise fail(f"{plural(len(result.errors), 'file')} could not be read: nothing was "
                   f"written, {_untouched(out)}")
    if not result.written:
        err.print(f"nothing new to ingest: {clean(out)} is left as it was", highlight=False,
                  markup=False)
    elif not quiet:
        rows = ", ".join(f"{t} {result.rows[t]}" for t in ("plays", "rounds", "games",
                                                           "violations"))
        err.print(f"wrote {plural(result.totals['games'], 'game')} to {out} (rows: {rows}; "
                  "rounds and games hold a row per player)", highlight=False, markup=False)
