"""``plot`` and ``report``: the commands that read datasets."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from ..analysis.plots import PLOT_HELP, PlotKind
from ..common.atomicfile import (
    OutputError,
    atomic_writer,
    not_a_folder,
)
from ..common.safetext import clean

if TYPE_CHECKING:
    from ..analysis.stats import Dataset, Filters
from .app import (
    Colour,
    ColourOption,
    LogVariantOption,
    _file_name,
    _interrupted,
    _quiet_stop,
    _Stdout,
    _use_colour,
    _variants,
    app,
    err,
    fail,
)

_KIND_HELP = "What to draw. " + "; ".join(f"[bold]{k}[/]: {h}" for k, h in PLOT_HELP.items())


InputsArgument = Annotated[
    list[Path],
    typer.Argument(help="A dataset directory written by 'tichu-analyze ingest', or log files "
                   "and directories (ingested once into a cache, reused while they do not "
                   "change).", show_default=False, metavar="PATH..."),
]
PlayerOption = Annotated[
    str | None, typer.Option("--player", "-p", help="Focus on this player, against the rest "
                             "of the field.", show_default=False, metavar="NAME"),
]
PartnerOption = Annotated[
    str | None, typer.Option("--partner", help="Only the rounds --player played with this "
                             "partner.", show_default=False, metavar="NAME"),
]
OpponentOption = Annotated[
    str | None, typer.Option("--opponent", help="Only the rounds --player played against this "
                             "opponent.", show_default=False, metavar="NAME"),
]
SinceOption = Annotated[
    str | None, typer.Option("--since", help="Only games that started on or after this date "
                             "(YYYY-MM-DD or an ISO date and time, UTC), from the moves' ts or "
                             "the game's meta.date.", show_default=False, metavar="DATE"),
]
UntilOption = Annotated[
    str | None, typer.Option("--until", help="Only games that started on or before this date.",
                             show_default=False, metavar="DATE"),
]
GameOption = Annotated[
    str | None, typer.Option("--game", "-g", help="Only this game (its id, or FILE:GAME when "
                             "the id is in several files); for 'plot --kind score', also the "
                             "game drawn (default the first).", show_default=False, metavar="GAME"),
]


def _kept(name: str | None) -> str | None:
    """A name of ``--player`` (``--partner``, ``--opponent``) as the reports read the
    names of a dataset: a name of more than 4 KB cut (``stats.kept``)."""
    from ..analysis.stats import kept

    return kept(name)


def _filters(player: str | None, partner: str | None, opponent: str | None,
             since: str | None, until: str | None, game: str | None) -> Filters:
    from ..analysis.stats import Filters, parse_when

    def when(option: str, value: str | None, end: bool = False) -> datetime | None:
        if value is None:
            return None
        try:
            t = parse_when(value)
        except ValueError:
            raise fail(f"{option} {value!r}: not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM)") \
                from None
        if end and _is_day(value):  # a day (2025-01-31, 20250131, ...): up to its end
            t = t.replace(hour=23, minute=59, second=59)
        return t

    return Filters(player, partner, opponent, when("--since", since),
                   when("--until", until, end=True), game)


def _is_day(value: str) -> bool:
    """Whether an ISO ``--until`` value names a day, without a time."""
    from datetime import date

    try:
        date.fromisoformat(value.strip())
    except ValueError:
        return False
    return True


def _load(inputs: list[Path], filters: Filters, variants: frozenset[str] = frozenset(),
          quiet: bool = False) -> Dataset:
    """The dataset of ``inputs`` with the filters applied (DatasetError when unusable)."""
    from ..analysis.inputs import open_input
    from ..analysis.stats import apply_filters

    def note(message: str) -> None:
        if not quiet:
            err.print(message, highlight=False, markup=False)

    ds = open_input(inputs, variants, show_progress=not quiet and err.is_terminal, note=note)
    return apply_filters(ds, filters)


@app.command()
def plot(
    inputs: InputsArgument,
    kind: Annotated[PlotKind, typer.Option("--kind", "-k", help=_KIND_HELP, show_default=False,
                                         metavar="KIND")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The image to write: .png, "
                                         ".svg or .pdf.", show_default=False, metavar="FILE",
                                         parser=_file_name)],
    player: PlayerOption = None,
    partner: PartnerOption = None,
    opponent: OpponentOption = None,
    since: SinceOption = None,
    until: UntilOption = None,
    game: GameOption = None,
    variant: LogVariantOption = None,
) -> None:
    """Draw one plot of a dataset (or of logs), as PNG, SVG or PDF.

    Exit status: 0 when the image was written, 2 when the dataset, the logs, an argument
    or the output could not be used, or there is nothing to plot (the message says
    why), 130 when interrupted (the output is left as it was).
    """

    from ..analysis.plots import FORMATS, save
    from ..analysis.plots import plot as draw

    if output.suffix.lower().lstrip(".") not in FORMATS:
        raise fail(f"{output}: the plot file must end in .png, .svg or .pdf")
    player, partner, opponent = _kept(player), _kept(partner), _kept(opponent)
    filters = _filters(player, partner, opponent, since, until, game)
    with _reading_dataset(output):
        ds = _load(inputs, filters, _variants(variant))
        with _working(f"drawing {clean(str(output))}"):
            save(draw(ds, kind, player=player, game=game,
                      only=filters.describe() if filters.active else None), output)
    err.print(f"wrote {output}", highlight=False, markup=False)


@contextmanager
def _working(what: str) -> Iterator[None]:
    """A spinner saying ``what`` on stderr while a step of some seconds runs (a report's
    page, a plot), when stderr is a terminal; gone when the step ends."""
    if not err.is_terminal:
        yield
        return
    with err.status(escape(what)):
        yield


@contextmanager
def _reading_dataset(output: object) -> Iterator[None]:
    """A bad dataset, or an output that cannot be written, as a one-line error (exit 2);
    Ctrl-C as ``interrupted: OUTPUT is left as it was`` (exit 130)."""
    from ..data.datasets import DatasetError

    try:
        yield
    except (DatasetError, OutputError) as e:
        raise fail(str(e)) from None
    except OSError as e:  # outputs fail with OutputError: this is the dataset
        raise fail(f"{e.filename or 'the dataset'}: cannot read: {e.strerror or e}") from None
    except KeyboardInterrupt:
        raise _interrupted(output) from None


class ReportFormat(StrEnum):
    """What ``tichu-analyze report`` writes."""

    HTML = "html"
    TEXT = "text"


def _is_site(output: str) -> bool:
    """``-o DIR/`` (or an existing directory, or a name without a suffix) is a site."""
    return (output.endswith(("/", os.sep)) or Path(output).is_dir()
            or not Path(output).suffix)


@app.command()
def report(
    inputs: InputsArgument,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", help="html: FILE.html for one page, or DIR/ for a "
                     "site (an index, a page per player and per game, and the replay of every "
                     "round linked to); text: the file to write (standard output without it).",
                     show_default=False, metavar="FILE|DIR/"),
    ] = None,
    output_format: Annotated[
        ReportFormat, typer.Option("--format", "-f", help="html: a self-contained page or site "
                                   "with tables and plots; text: the tables, for a terminal."),
    ] = ReportFormat.HTML,
    player: PlayerOption = None,
    partner: PartnerOption = None,
    opponent: OpponentOption = None,
    since: SinceOption = None,
    until: UntilOption = None,
    game: GameOption = None,
    variant: LogVariantOption = None,
    min_rounds: Annotated[
        int, typer.Option("--min-rounds", min=0, help="site: players with fewer rounds are "
                          "listed on the index but get no page of their own (the index says "
                          "how many).", metavar="N"),
    ] = 20,
    max_players: Annotated[
        int, typer.Option("--max-players", min=1, help="site: at most this many player pages "
                          "(the most rounds first; the index says who was left out).",
                          metavar="N"),
    ] = 100_000,
    max_games: Annotated[
        int, typer.Option("--max-games", min=1, help="site: at most this many game pages (the "
                          "index says how many were left out).", metavar="N"),
    ] = 100_000,
    color: ColourOption = Colour.AUTO,
) -> None:
    """Report statistics per player, partnership and game, as a page, a site or text.

    Per-player and per-partnership statistics, calls, exchange, violations and the
    plots, as one page, a site of linked pages, or text. Every statistic states its
    denominator; rates carry a 95% interval.

    Exit status: 0 when the report was written (or printed), 2 when the dataset, the
    logs, an argument or the output could not be used, or no round matches the
    filters (the message says why), 130 when interrupted (the output is left as it
    was).
    """

    from ..views.report import print_text, write_html

    if output_format is ReportFormat.HTML and output is None:
        raise fail("the html report needs --output FILE.html or --output DIR/ "
                   "(or use --format text)")
    if (output_format is ReportFormat.HTML and output is not None and not _is_site(output)
            and Path(output).suffix.lower() not in (".html", ".htm")):
        raise fail(f"{output}: the html report is written to FILE.html (one page) or DIR/ "
                   "(a site); for a text report add --format text")
    if (output_format is ReportFormat.TEXT and output is not None
            and output.endswith(("/", os.sep))):
        raise fail(f"{clean(output)}: the text report is one file (a folder is for the html "
                   "site); give a file name")
    if output_format is ReportFormat.HTML and output is not None and _is_site(output):
        problem = not_a_folder(output)
        if problem is not None:
            raise fail(problem)
    err.no_color = color is Colour.NEVER or bool(os.environ.get("NO_COLOR"))
    player, partner, opponent = _kept(player), _kept(partner), _kept(opponent)
    filters = _filters(player, partner, opponent, since, until, game)
    with _reading_dataset(output):
        ds = _load(inputs, filters, _variants(variant))
        source = None if inputs == [ds.path] else " ".join(map(str, inputs))  # logs
        if output_format is ReportFormat.HTML:
            assert output is not None
            if _is_site(output):
                from ..views.site import write_site

                index = write_site(ds, output, player, filters, max_games=max_games,
                                   max_players=max_players, show_progress=err.is_terminal,
                                   source=source, min_rounds=min_rounds)
                err.print(f"wrote {index}", highlight=False, markup=False)
                return
            with _working(f"writing the report {clean(output)}"):
                write_html(ds, output, player, filters, source)
        elif output is None:
            try:
                colour = _use_colour(color, sys.stdout)
                print_text(ds, _Stdout(force_terminal=colour or None, no_color=not colour,
                                       color_system="auto" if colour else None),
                           player, filters, source)
                sys.stdout.flush()
            except BrokenPipeError:  # ... | head: the reader has what it wanted
                _quiet_stop()
                return
        else:
            with _working(f"writing the report {clean(output)}"), atomic_writer(output) as f:
                print_text(ds, Console(file=f, width=160, no_color=True), player, filters,
                           source)
    if output is not None:
        err.print(f"wrote {output}", highlight=False, markup=False)
