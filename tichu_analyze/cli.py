"""The ``tichu-analyze`` command line: thin commands over the library."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import __version__
from .diagnostics import RULES, Diagnostic, check_variants, select_codes
from .logfile import LogError, find_logs
from .output import Format, as_github, as_json, as_sarif, as_text
from .plots import PLOT_HELP, PlotKind

app = typer.Typer(
    name="tichu-analyze",
    help=(
        "Replay recorded Tichu games, check every move against the rules, and turn the "
        "games into per-player datasets and reports.\n\n"
        "Logs are JSON lines (format 1: .jsonl, .jsonl.gz, .jsonl.zst) or Brettspielwelt "
        ".tch files. Run 'tichu-analyze rules' for the diagnostic codes."
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)

err = Console(stderr=True, soft_wrap=True)


class UsageError(Exception):
    """Bad arguments or unreadable input: reported in one line, exit status 2."""


def fail(message: str) -> typer.Exit:
    """Print ``message`` as an error and return the exit (status 2) to raise."""
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, markup=True)
    return typer.Exit(2)


def _version(value: bool) -> None:
    if value:
        print(f"tichu-analyze {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Replay and check Tichu game logs."""


PageOutputOption = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="The file to write (required for html; text goes to "
                 "standard output without it).", show_default=False),
]

VariantOption = Annotated[
    list[str] | None,
    typer.Option("--variant", help="Apply a house rule of rules.md section 9 (repeatable): "
                 "wish-penalty-200 (a wish violation gives the other team 200 points), "
                 "dog-can-be-bombed (a bomb may be played on the Dog), phoenix-in-bombs (the "
                 "Phoenix may complete a bomb). The publisher's rules apply otherwise.",
                 show_default=False),
]


def _variants(names: list[str] | None) -> frozenset[str]:
    try:
        return check_variants(names)
    except ValueError as e:
        raise fail(str(e)) from None


def _codes_option(values: list[str] | None, option: str) -> list[str]:
    prefixes = [p.strip().upper() for v in values or [] for p in v.split(",") if p.strip()]
    for p in prefixes:
        if not any(code.startswith(p) for code in RULES):
            raise fail(f"{option} {p}: no diagnostic code starts with {p!r} "
                       "(see 'tichu-analyze rules')")
    return prefixes


@app.command()
def check(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Log files or directories (searched recursively for .jsonl, "
                       ".jsonl.gz, .jsonl.zst and .tch files).", show_default=False),
    ],
    output_format: Annotated[
        Format,
        typer.Option("--format", "-f", help="text: one line per diagnostic; json: JSON lines; "
                     "sarif: SARIF 2.1.0; github: GitHub Actions annotations."),
    ] = Format.TEXT,
    select: Annotated[
        list[str] | None,
        typer.Option("--select", "-s", help="Only report codes starting with these prefixes "
                     "(repeat or comma-separate: W,G001).", show_default=False),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option("--ignore", "-i", help="Do not report codes starting with these prefixes.",
                     show_default=False),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write the diagnostics to this file instead of "
                     "standard output.", show_default=False),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No summary and no progress bar.")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0, help="Worker processes for many files "
                          "(0: one per CPU core). Output stays in file order.")
    ] = 1,
    variant: VariantOption = None,
) -> None:
    """Check every move of the logs against the rules and report each violation.

    Exit status: 0 when nothing worse than a warning was found, 1 when an error
    or fatal diagnostic was found, 2 when the arguments or a file could not be used.
    """
    keep = select_codes(None, _codes_option(select, "--select"), _codes_option(ignore, "--ignore"))
    variants = _variants(variant)
    try:
        files = find_logs(paths)
    except LogError as e:
        raise fail(str(e)) from None
    if not files:
        raise fail("no log files found (looked for .jsonl, .jsonl.gz, .jsonl.zst, .tch)")

    # -o: written under a temporary name and renamed when complete (no half-written file)
    partial = output.with_name(f".{output.name}.{os.getpid()}.tmp") if output else None
    try:
        out = open(partial, "w", encoding="utf-8") if partial else sys.stdout  # noqa: SIM115
    except OSError as e:
        raise fail(f"{output}: cannot write: {e}") from None
    complete = False
    kept: list[Diagnostic] = []
    counts: Counter[str] = Counter()
    worst = 0
    stream = {Format.TEXT: as_text, Format.JSON: as_json, Format.GITHUB: as_github}.get(
        output_format
    )

    def report(d: Diagnostic) -> None:
        nonlocal worst
        if d.code not in keep:
            return
        counts[d.code] += 1
        if d.severity != "warning":
            worst = 1
        if stream is not None:
            out.write(stream(d) + "\n")
        else:
            kept.append(d)

    totals = Counter[str]()
    unreadable = 0
    from .progress import progress_over
    from .visitor import DiagnosticVisitor

    try:
        workers = jobs or os.cpu_count() or 1
        for _path, stats_or_error in progress_over(files, DiagnosticVisitor(report),
                                                   show=not quiet,
                                                   jobs=workers, variants=variants):
            if isinstance(stats_or_error, LogError):
                unreadable += 1
                err.print(f"[bold red]error:[/] {escape(str(stats_or_error))}", highlight=False)
                continue
            stats = stats_or_error
            totals["files"] += 1
            totals["games"] += stats.games
            totals["rounds"] += stats.rounds
            totals["events"] += stats.events
        if output_format == Format.SARIF:
            json.dump(as_sarif(kept), out, indent=2, ensure_ascii=False)
            out.write("\n")
        complete = True
    finally:
        if partial and output:
            out.close()
            if complete:
                os.replace(partial, output)
            else:
                partial.unlink(missing_ok=True)
        else:
            out.flush()
    if not quiet:
        _summary(totals, counts)
    if unreadable:
        raise typer.Exit(2)
    raise typer.Exit(worst)


def _summary(totals: Counter[str], counts: Counter[str]) -> None:
    n = sum(counts.values())
    line = (f"{totals['files']} file{'s' * (totals['files'] != 1)}, {totals['games']} games, "
            f"{totals['rounds']} rounds, {totals['events']} events: ")
    if not n:
        err.print(line + "[green]no diagnostics[/]", highlight=False)
        return
    err.print(line + f"{n} diagnostic{'s' * (n != 1)}", highlight=False)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("code")
    table.add_column("name")
    table.add_column("severity")
    table.add_column("count", justify="right")
    for code in RULES:
        if counts[code]:
            r = RULES[code]
            table.add_row(code, r.name, str(r.severity), str(counts[code]))
    err.print(table)


@app.command()
def rules(
    code: Annotated[
        str | None,
        typer.Argument(help="A code (W001) to explain; without it, the whole catalogue.",
                       show_default=False),
    ] = None,
) -> None:
    """List the diagnostic codes, or explain one: what it checks, why, and an example."""
    console = Console()
    if code is None:
        table = Table(title="tichu-analyze diagnostic codes", header_style="bold")
        for col in ("code", "name", "severity", "when", "replay then"):
            table.add_column(col)
        for r in RULES.values():
            table.add_row(r.code, r.name, str(r.severity), r.when, r.replay_then)
        console.print(table)
        return
    found = RULES.get(code.upper())
    if found is None:
        raise fail(f"unknown code {code!r}; 'tichu-analyze rules' lists them all")
    r = found
    from .ruledocs import RULE_DOCS

    console.print(f"[bold]{r.code} {r.name}[/] ({r.severity}; rules.md {r.section})",
                  highlight=False)
    console.print(f"When: {r.when}.", highlight=False, markup=False)
    console.print(f"Replay then: {r.replay_then}.", highlight=False, markup=False)
    doc = RULE_DOCS.get(r.code)
    if doc:
        console.print()
        console.print(doc.strip(), highlight=False, markup=False)


@app.command()
def schema() -> None:
    """Print the JSON Schema of log format 1, for people who write recorders."""
    from importlib.resources import files

    print(files("tichu_analyze").joinpath("schema.json").read_text(encoding="utf-8"), end="")


@app.command()
def simulate(
    output: Annotated[Path, typer.Option("--output", "-o", help="The log file to write "
                                         "(.jsonl, .jsonl.gz or .jsonl.zst).")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Random seed; the same seed gives the "
                                      "same file, byte for byte.")] = 0,
) -> None:
    """Write simulated games played by seeded bots, as a format-1 log."""
    from .logfile import write_log
    from .simulate import simulate as run

    try:
        write_log(run(games, seed), output)
    except OSError as e:
        raise fail(f"{output}: cannot write: {e}") from None
    err.print(f"wrote {games} game{'s' * (games != 1)} to {output}", highlight=False)


@app.command()
def ingest(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Log files or directories (searched recursively for .jsonl, "
                       ".jsonl.gz, .jsonl.zst and .tch files).", show_default=False),
    ],
    out: Annotated[
        Path,
        typer.Option("--out", "-o", help="The dataset directory: created, or replaced when it "
                     "holds a dataset (a non-empty directory that does not is refused).",
                     show_default=False),
    ],
    append: Annotated[
        bool, typer.Option("--append", help="Add the logs' rows to the dataset in --out as new "
                           "part files instead of replacing it.")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No summary and no progress bar.")
    ] = False,
    variant: VariantOption = None,
) -> None:
    """Replay the logs and write Parquet datasets partitioned by player.

    Tables plays, rounds, games and violations, as DIR/<table>/player=<name>/*.parquet
    (docs/datasets.md describes every column). Diagnostics are data here: they go to the
    violations table and into the summary, and do not change the exit status. Writing is
    atomic: after an error or an interruption DIR is left as it was.

    Exit status: 0 when the dataset was written, 2 when an argument, a log file or DIR
    could not be used (nothing is written then), 130 when interrupted.
    """
    from rich.markup import escape

    from .datasets import DatasetError, sigterm_as_interrupt
    from .datasets import ingest as write_datasets

    variants = _variants(variant)
    try:
        files = find_logs(paths)
    except LogError as e:
        raise fail(str(e)) from None
    if not files:
        raise fail("no log files found (looked for .jsonl, .jsonl.gz, .jsonl.zst, .tch)")
    counts: Counter[str] = Counter()

    def report(d: Diagnostic) -> None:
        counts[d.code] += 1

    try:
        with sigterm_as_interrupt():
            result = write_datasets(files, out, append=append, report=report,
                                    show_progress=not quiet, variants=variants)
    except DatasetError as e:
        raise fail(str(e)) from None
    except KeyboardInterrupt:
        err.print(f"interrupted: {out} is left as it was", highlight=False, markup=False)
        raise typer.Exit(130) from None
    for problem in result.errors:
        err.print(f"[bold red]error:[/] {escape(str(problem))}", highlight=False)
    if not quiet:
        _summary(result.totals, counts)
    if result.errors:
        raise fail(f"{len(result.errors)} file{'s' * (len(result.errors) != 1)} could "
                          f"not be read: nothing was written, {out} is left as it was")
    if not quiet:
        rows = ", ".join(f"{result.rows[t]} {t}" for t in ("plays", "rounds", "games",
                                                           "violations"))
        err.print(f"wrote {rows} rows to {out}", highlight=False, markup=False)


_KIND_HELP = "What to draw. " + "; ".join(f"[bold]{k}[/]: {h}" for k, h in PLOT_HELP.items())


@app.command()
def plot(
    dataset: Annotated[
        Path, typer.Argument(help="A dataset directory written by 'tichu-analyze ingest'.",
                             show_default=False),
    ],
    kind: Annotated[PlotKind, typer.Option("--kind", "-k", help=_KIND_HELP, show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The image to write, .png or "
                                         ".svg.", show_default=False)],
    player: Annotated[
        str | None, typer.Option("--player", "-p", help="Only this player (against the rest of "
                                 "the field where players are compared).", show_default=False),
    ] = None,
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="For --kind score: the game id (FILE:GAME "
                                 "when the id is in several files); default the first game.",
                                 show_default=False),
    ] = None,
) -> None:
    """Draw one plot of a dataset, as PNG or SVG."""

    from .plots import plot as draw
    from .plots import save
    from .stats import Dataset

    if output.suffix.lower() not in (".png", ".svg"):
        raise fail(f"{output}: the plot file must end in .png or .svg")
    if game is not None and kind is not PlotKind.SCORE:
        raise fail("--game only applies to --kind score")
    with _reading_dataset(output):
        save(draw(Dataset.load(dataset), kind, player=player, game=game), output)
    err.print(f"wrote {output}", highlight=False, markup=False)


@contextmanager
def _reading_dataset(output: Path | None) -> Iterator[None]:
    """A bad dataset, or a file that cannot be written, as a one-line error (exit 2)."""
    from .stats import DatasetError

    try:
        yield
    except DatasetError as e:
        raise fail(str(e)) from None
    except OSError as e:
        raise fail(f"{output}: cannot write: {e}") from None


class ReportFormat(StrEnum):
    """What ``tichu-analyze report`` writes."""

    HTML = "html"
    TEXT = "text"


@app.command()
def report(
    dataset: Annotated[
        Path, typer.Argument(help="A dataset directory written by 'tichu-analyze ingest'.",
                             show_default=False),
    ],
    output: PageOutputOption = None,
    output_format: Annotated[
        ReportFormat, typer.Option("--format", "-f", help="html: one self-contained page with "
                                   "tables and plots; text: the tables, for a terminal."),
    ] = ReportFormat.HTML,
    player: Annotated[
        str | None, typer.Option("--player", "-p", help="Focus on this player against the rest "
                                 "of the field.", show_default=False),
    ] = None,
) -> None:
    """Report per-player and per-partnership statistics, violations by code and the plots.

    Every statistic states its denominator.
    """

    from .report import print_text, write_html
    from .stats import Dataset

    if output_format is ReportFormat.HTML and output is None:
        raise fail("the html report needs --output FILE.html (or use --format text)")
    with _reading_dataset(output):
        ds = Dataset.load(dataset)
        if output_format is ReportFormat.HTML:
            assert output is not None
            write_html(ds, output, player)
        elif output is None:
            print_text(ds, Console(), player)
        else:
            with open(output, "w", encoding="utf-8") as f:
                print_text(ds, Console(file=f, width=160, no_color=True), player)
    if output is not None:
        err.print(f"wrote {output}", highlight=False, markup=False)


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
                                 "holds more than one game).", show_default=False),
    ] = None,
    round_number: Annotated[
        int | None, typer.Option("--round", "-r", help="Only this round (default: every round "
                                 "of the game).", show_default=False),
    ] = None,
    seat: Annotated[
        int | None, typer.Option("--seat", "-s", min=0, max=3, help="Show the round from this "
                                 "seat: the other hands stay hidden until played.",
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
) -> None:
    """Show one round (or every round of a game) trick by trick, with each violation
    under the event that caused it.

    Exit status: 0 when the view was written (whatever it shows), 2 when the file,
    the game or the round cannot be found.
    """

    from .audit import AuditError, build, load, plain, render_html, render_text, rich_lines

    if output_format is ReplayFormat.HTML and output is None:
        raise fail("the html view needs --output FILE.html (or use --format text)")
    if not log.is_file():
        raise fail(f"{log}: no such file")
    try:
        view = build(load(log, game, variants=_variants(variant)), game, round_number, seat)
    except (AuditError, LogError) as e:
        raise fail(str(e)) from None
    try:
        if output_format is ReplayFormat.HTML:
            assert output is not None
            output.write_text(render_html(view), encoding="utf-8")
        elif output is not None:
            output.write_text(plain(render_text(view, 100, hands)), encoding="utf-8")
        else:
            console = Console(highlight=False)
            width = console.width if console.is_terminal else 100
            for line in rich_lines(render_text(view, width, hands)):
                console.print(line, soft_wrap=True)
    except OSError as e:
        raise fail(f"{output}: cannot write: {e}") from None
    if output is not None:
        err.print(f"wrote {output}", highlight=False, markup=False)


@app.command()
def convert(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Brettspielwelt .tch files or directories of them.",
                       show_default=False),
    ],
    output: Annotated[
        Path,
        typer.Option("--output", "-o", help="The format-1 log to write (.jsonl, .jsonl.gz "
                     "or .jsonl.zst); each .tch file becomes one game, its id the file name."),
    ],
) -> None:
    """Convert Brettspielwelt .tch logs into one format-1 JSON-lines log.

    BSW's logging habits (the winner's pass that collects a trick, extra or
    missing passes, a Tichu logged one move late, the Phoenix's rank not
    recorded) are normalized; genuine violations are kept for 'check' to find.
    Lines the converter cannot understand are listed on stderr and the rest of
    their round is left out. 'check' and the other commands also read .tch
    files directly, with diagnostics pointing at the .tch lines.
    """
    from .bsw import Unreadable, read_tch
    from .logfile import is_tch, read_bytes, tch_game_id, write_log

    try:
        files = [p for p in find_logs(paths) if is_tch(p)]
    except LogError as e:
        raise fail(str(e)) from None
    if not files:
        raise fail("no .tch files found")
    problems = 0

    def events() -> Iterator[dict[str, object]]:
        nonlocal problems
        for path in files:
            try:
                data = read_bytes(path)
            except LogError as e:
                problems += 1
                err.print(f"[bold red]error:[/] {escape(str(e))}", highlight=False)
                continue
            for line, item in read_tch(data, tch_game_id(path)):
                if isinstance(item, Unreadable):
                    problems += 1
                    err.print(f"{path}:{line}: not understood: {item.message}", highlight=False,
                              markup=False)
                else:
                    yield item

    try:
        n = write_log(events(), output)
    except OSError as e:
        raise fail(f"{output}: cannot write: {e}") from None
    err.print(f"wrote {n} events of {len(files)} game{'s' * (len(files) != 1)} to {output}",
              highlight=False)
    if problems:
        raise typer.Exit(1)


def main() -> None:
    """Entry point of the ``tichu-analyze`` script."""
    app()
