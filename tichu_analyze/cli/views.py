"""``replay`` and ``games``: the commands that show games."""

from __future__ import annotations

import json
import shlex
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ..common.atomicfile import (
    LOOP,
    write_atomic,
)
from ..common.safetext import clean, plural
from ..readers.logfile import LogError, link_loops
from .app import (
    Colour,
    ColourOption,
    LogPaths,
    PageOutputOption,
    VariantOption,
    _log_files,
    _not_a_log_read,
    _quiet_stop,
    _Stdout,
    _use_colour,
    _variants,
    app,
    err,
    fail,
)


class ReplayFormat(StrEnum):
    """What ``tichu-analyze replay`` writes."""

    TEXT = "text"
    HTML = "html"


@app.command()
def replay(
    log: Annotated[
        Path, typer.Argument(help="A log file (.jsonl, .jsonl.gz, .jsonl.zst or .tch).",
                             show_default=False),
    ],
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="The game id (needed when the file "
                                 "holds more than one game; 'tichu-analyze games' lists them).",
                                 show_default=False, metavar="GAME"),
    ] = None,
    round_number: Annotated[
        int | None, typer.Option("--round", "-r", help="Only this round (default: every round "
                                 "of the game).", show_default=False),
    ] = None,
    seat: Annotated[
        int | None, typer.Option("--seat", "-s", min=0, max=5, help="Show the round from this "
                                 "seat (0-3; 0-5 for six players): the other hands stay hidden "
                                 "until played (the open dummy's stays shown).",
                                 show_default=False),
    ] = None,
    output_format: Annotated[
        ReplayFormat, typer.Option("--format", "-f", help="text: for a terminal (suits in "
                                   "colour when it supports them); html: one self-contained "
                                   "page with the cards drawn, the hands beside each trick and "
                                   "a navigation by trick."),
    ] = ReplayFormat.TEXT,
    output: PageOutputOption = None,
    hands: Annotated[
        bool, typer.Option("--hands", help="text: also list the hands at the start of every "
                           "trick."),
    ] = False,
    variant: VariantOption = None,
    color: ColourOption = Colour.AUTO,
    review: Annotated[
        bool, typer.Option("--review", help="Also mark, under the event of each decision, "
                           "where 'tichu-analyze review' finds that points were lost (R001 "
                           "sure outs given up, R002 with all hands open, R003 calls against "
                           "the shipped model).")
    ] = False,
) -> None:
    """Show a game or one round trick by trick, with each violation under its event.

    Exit status: 0 when the view was written (whatever it shows), 2 when the file,
    the game or the round cannot be found.
    """

    from ..views.audit import build, load, plain, render_html, render_text, rich_lines

    if output_format is ReplayFormat.HTML and output is None:
        raise fail("the html view needs --output FILE.html (or use --format text)")
    if not log.is_file():
        raise fail(f"{log}: " + ("a folder; replay shows one log file ('tichu-analyze games "
                                 "FOLDER' lists the games of a folder)" if log.is_dir()
                                 else "not a regular file" if log.exists()
                                 else "standard input is not read; write the log to a file"
                                 if str(log) == "-" else f"cannot read: {LOOP}"
                                 if link_loops(log) else "no such file"))
    _not_a_log_read(output, [log])
    view = build(load(log, game, variants=_variants(variant)), game, round_number, seat)
    if review:
        from ..analysis.calls import reference
        from ..review.openhand import OpenHandReview
        from ..review.reviewer import review_file
        from ..views.audit import mark_findings
        from .review import calls_review

        found = review_file(log, [OpenHandReview()], per_round=calls_review(reference()),
                            variants=_variants(variant))
        marked = mark_findings(view, found)
        err.print(f"review: {plural(marked, 'finding')} marked under their events",
                  highlight=False, markup=False)
    try:
        if output_format is ReplayFormat.HTML:
            assert output is not None
            write_atomic(output, render_html(view))
        elif output is not None:
            write_atomic(output, plain(render_text(view, 100, hands)))
        else:
            colour = _use_colour(color, sys.stdout)
            console = _Stdout(highlight=False, force_terminal=colour,
                              no_color=not colour, color_system="auto" if colour else None)
            width = console.width if sys.stdout.isatty() else 100
            for line in rich_lines(render_text(view, width, hands)):
                console.print(line, soft_wrap=True)
            sys.stdout.flush()
    except BrokenPipeError:  # ... | head: the reader has what it wanted
        _quiet_stop()
        return
    if output is not None:
        err.print(f"wrote {output}", highlight=False, markup=False)


class GamesFormat(StrEnum):
    """What ``tichu-analyze games`` writes."""

    TEXT = "text"
    JSON = "json"


@app.command()
def games(
    paths: LogPaths,
    output_format: Annotated[
        GamesFormat, typer.Option("--format", "-f", help="text: one line per game; json: one "
                                  "JSON object per game (JSON lines).", metavar="FORMAT"),
    ] = GamesFormat.TEXT,
    color: ColourOption = Colour.AUTO,
    variant: VariantOption = None,
) -> None:
    """List the games of the logs, one line each, with their score and diagnostics.

    Each line gives the file, the game id, the players, the rounds, whether the game is
    complete (its game_end was recorded, or a team reached the target), the final score
    and the diagnostics by severity.
    The score is the replayed one: a round that could not be scored adds nothing.
    Use a game id with 'tichu-analyze replay LOG --game GAME'.

    Exit status: 0 when every file was read, 2 when a file or an argument could not be used.
    """
    from ..lint.games import as_text as game_line
    from ..lint.games import list_games, severity_counts

    variants = _variants(variant)
    files = _log_files(paths)
    colour = _use_colour(color, sys.stdout)
    unreadable = 0
    try:
        for path in files:
            outside: dict[str, int] = {}
            try:
                found = list_games(path, variants, outside)
            except LogError as e:
                unreadable += 1
                err.print(f"[bold red]error:[/] {escape(str(e))}", highlight=False)
                continue
            if not found:
                err.print(f"{clean(path)}: no games found (no game_start event, nor a "
                          ".tch game)", highlight=False, markup=False)
            if outside:  # (a line that is not JSON belongs to no game)
                err.print(f"{clean(path)}: {severity_counts(outside)} outside the games "
                          f"listed; 'tichu-analyze check {shlex.quote(clean(path))}' shows them",
                          highlight=False, markup=False)
            for g in found:
                if output_format is GamesFormat.JSON:
                    print(json.dumps(g.as_dict(), ensure_ascii=False))
                    continue
                print(game_line(g, colour))
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stop()
        raise typer.Exit(0) from None
    raise typer.Exit(2 if unreadable else 0)
