"""The ``tichu-analyze`` command line: thin commands over the library."""

from __future__ import annotations

import inspect
import json
import os
import shlex
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, closing, contextmanager
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any, TypeVar, cast

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer import _click as click
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from .. import __version__
from ..analysis.plots import PLOT_HELP, PlotKind
from ..common.atomicfile import (
    LOOP,
    Guarded,
    OutputClosed,
    OutputError,
    atomic_writer,
    not_a_folder,
    write_atomic,
)
from ..common.safetext import clean, json_text, plural
from ..core.diagnostics import RULES, Diagnostic, select_codes
from ..core.variants import check_variants
from ..lint.output import (
    Format,
    as_full,
    as_github,
    as_json,
    as_sarif,
    as_statistics,
    as_statistics_json,
    as_text,
    as_text_colour,
)
from ..readers.logfile import LogError, find_logs, link_loops
from ..run.driver import Backend, DriverError, backend
from ..run.progress import STDERR

if TYPE_CHECKING:
    from rich.progress import Progress

    from ..analysis.stats import Dataset, Filters
    from ..lint.config import Settings

def _plain_help(text: str | None) -> str | None:
    """A docstring's paragraphs each on one line: the help is wrapped to the terminal's
    width, never broken where the source line ended."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


class _Argument(TyperArgument):
    """An argument shown as ``PATH...`` in the help, without a Python type."""

    @property
    def display_name_raw(self) -> str:
        return self.metavar or (self.name or "").upper()

    def _label(self) -> str:
        name = self.display_name_raw
        return name if self.metavar or self.nargs == 1 else name + "..."

    def display_type_rich(self, ctx: click.Context) -> str | None:
        return None

    def _rich_display_name(self) -> str:
        return self._label()

    def _usage_display_name(self) -> str:
        return self._label() if self.required else f"[{self._label()}]"


_PLACEHOLDERS = {"bool": None, "int": "N", "int range": "N", "str": "TEXT", "path": "PATH",
                 "Path": "PATH", "float": "NUMBER"}


class _Option(TyperOption):
    """An option shown with a placeholder (``FILE``, ``N``, ``text|json``), not a Python type;
    a flag with none."""

    def display_type_rich(self, ctx: click.Context) -> str | None:
        if self.metavar is not None:
            return self.metavar
        if self.is_flag:
            return None
        label = self.display_type(ctx)[1:-1]
        if label.startswith("list[") and label.endswith("]"):
            label = label[5:-1]
        return _PLACEHOLDERS.get(label, label)

    def _get_number_range_help_str(self) -> str | None:
        return None  # the help text says the range in words


def _plain_params(params: list[click.Parameter]) -> list[click.Parameter]:
    for p in params:
        if type(p) is TyperArgument:
            p.__class__ = _Argument
        elif type(p) is TyperOption:
            p.__class__ = _Option
    return params


class _Command(TyperCommand):
    """A command whose help reads as prose with placeholders (see :func:`_plain_help`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = _plain_help(self.help)

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        return _plain_params(super().get_params(ctx))

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except typer.BadParameter as e:  # typer's validation: "Value error, 'x' is not ..."
            e.message = e.message.removeprefix("Value error, ")
            raise


class _Group(TyperGroup):
    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        return _plain_params(super().get_params(ctx))


_F = TypeVar("_F", bound=Callable[..., Any])


class _App(typer.Typer):
    """Every command made with :class:`_Command`."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[_F], _F]:
        kwargs.setdefault("cls", _Command)
        decorator: Callable[[_F], _F] = super().command(*args, **kwargs)
        return decorator


app = _App(
    name="tichu-analyze",
    cls=_Group,
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

err = STDERR  # messages, and the progress bars: one console


class _TerminalStdout:
    """Standard output when it is a terminal, looked up at each write: while a progress
    bar is drawn on the terminal, rich puts a proxy in ``sys.stdout`` that writes the
    lines above the bar, instead of through it."""

    def write(self, data: str) -> int:
        return sys.stdout.write(data)

    def flush(self) -> None:
        sys.stdout.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(sys.stdout, name)


def _stdout() -> Guarded:
    """Standard output as commands write their results to it."""
    if sys.stdout.isatty():
        return Guarded(cast("IO[Any]", _TerminalStdout()), "standard output")
    return Guarded(sys.stdout, "standard output")


class _Stdout(Console):
    """Standard output for long text (``report -f text``, ``replay``): a reader that goes
    away (``... | head``) is a :class:`BrokenPipeError` for the command to end on quietly,
    not rich's exit with status 1."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


class UsageError(Exception):
    """Bad arguments or unreadable input: reported in one line, exit status 2."""


def fail(message: str) -> typer.Exit:
    """Print ``message`` as an error and return the exit (status 2) to raise. The message
    is made one safe line (:func:`~tichu_analyze.common.safetext.clean`, not cut: the names and
    ids it quotes are cut where it is made), whatever a log put into it."""
    err.print(f"[bold red]error:[/] {escape(clean(message, None))}", highlight=False,
              markup=True)
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


def _file_name(value: str) -> Path:
    """An option that names one file to write: ``-o out/`` (a folder's name, whose slash
    ``Path`` would drop) is refused rather than written as a file named ``out``."""
    if value.endswith(("/", os.sep)):
        raise typer.BadParameter(f"{value!r} ends with '/', which names a folder; this "
                                 "option takes the name of a file to write")
    if value in ("", "-"):  # '-' is standard output elsewhere; here it would be a file
        raise typer.BadParameter(f"{value!r} is not a file name; this option takes the name "
                                 "of a file to write (check and replay write to standard "
                                 "output without it)")
    return Path(value)


PageOutputOption = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="The file to write (required for html; text goes to "
                 "standard output without it).", show_default=False, metavar="FILE",
                 parser=_file_name),
]

_VARIANT_HELP = ("Apply a variant of rules.md section 9 (repeatable), "
                 "in addition to those a log names in game_start.variants: "
                 "wish-penalty-200 (a wish violation gives the other team 200 points), "
                 "dog-can-be-bombed (a bomb may be played on the Dog), phoenix-in-bombs (the "
                 "Phoenix may complete a bomb), tientsin (six players), trichu (three players"
                 " and a dummy). The publisher's rules apply otherwise.")

VariantOption = Annotated[
    list[str] | None,
    typer.Option("--variant", help=_VARIANT_HELP, show_default=False, metavar="NAME"),
]

LogVariantOption = Annotated[
    list[str] | None,
    typer.Option("--variant", help=_VARIANT_HELP + " For logs only: a dataset holds its games "
                 "as ingest replayed them, so --variant with a dataset is an error (it is "
                 "not a filter).",
                 show_default=False, metavar="NAME"),
]


def _log_path(value: str) -> Path:
    """A log or a folder of logs: an empty argument (``check "$LOGS"`` with the variable
    unset), which ``Path`` reads as the current folder, is refused."""
    if not value:
        raise typer.BadParameter("an empty path (an unset variable?); name a log file or a "
                                 "folder ('.' for the current one)")
    return Path(value)


LogPaths = Annotated[
    list[Path],
    typer.Argument(help="Log files or directories (searched recursively for .jsonl, "
                   ".jsonl.gz, .jsonl.zst and .tch files).", show_default=False,
                   parser=_log_path),
]


def _log_files(paths: list[Path], quiet: bool = False) -> list[Path]:
    """The log files of ``paths``, or exit 2 saying why there are none. Files of the
    folders named as logs in a compression that is not read (``day.jsonl.xz``) are
    named in a note on stderr (unless ``quiet``), not passed over in silence."""
    passed_over: list[Path] = []
    try:
        files = find_logs(paths, passed_over)
    except LogError as e:
        raise fail(str(e)) from None
    passed_over = list(dict.fromkeys(passed_over))  # (folders named twice: once)
    if passed_over and not quiet:
        names = ", ".join(clean(p) for p in passed_over[:3])
        more = f" and {len(passed_over) - 3} more" if len(passed_over) > 3 else ""
        err.print(f"note: not read, being compressed with neither gzip nor zstd: {names}"
                  f"{more} (logs are read as .jsonl, .jsonl.gz or .jsonl.zst)",
                  highlight=False, markup=False)
    if not files:
        from ..analysis.inputs import is_dataset

        where = _some(paths)
        dataset = next((clean(p) for p in paths if is_dataset(p)), None)
        other = None if dataset is not None else _other_file(paths)
        hint = "" if dataset is None else (
            f"; {dataset} is a dataset written by 'tichu-analyze ingest', which 'tichu-analyze "
            f"report {shlex.quote(dataset)}' and 'plot' read")
        if other is not None:
            hint = (f"; other files, such as {clean(other)}, are passed over: a log named "
                    "otherwise is read when given by name")
        raise fail(f"no log files found in {where} (looked for .jsonl, .jsonl.gz, "
                   f".jsonl.zst, .tch){hint}")
    return files


def _some(paths: Sequence[Path]) -> str:
    """The first three of ``paths``, for a message (``a, b, c, ...``)."""
    return ", ".join(clean(p) for p in paths[:3]) + (", ..." if len(paths) > 3 else "")


def _other_file(paths: list[Path], most: int = 10_000) -> Path | None:
    """A file below the folders of ``paths`` (not hidden), the first met among at most
    ``most`` entries, to name in the error of a folder without logs (``.tch`` files
    saved as ``.txt``)."""
    seen = 0
    for top in paths:
        if not top.is_dir():
            continue
        for folder, dirs, names in os.walk(top):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if not name.startswith(".") and os.path.isfile(os.path.join(folder, name)):
                    return Path(folder) / name
            seen += len(names) + len(dirs)
            if seen > most:
                return None
    return None


def _log_output(output: Path) -> None:
    """Refuse to write a format-1 log (``simulate``, ``convert``) under a name that every
    command would read back as a Brettspielwelt ``.tch`` file."""
    if output.name.endswith(".tch"):
        raise fail(f"{clean(output)}: a file named .tch is read as a Brettspielwelt log, and "
                   "this output is a format-1 JSON-lines log; name it .jsonl, .jsonl.gz or "
                   ".jsonl.zst")


def _not_a_log_read(output: Path | None, logs: list[Path]) -> None:
    """Refuse an output file that is one of the logs read (``check day1.jsonl -o
    day1.jsonl``): written when the logs have been read, it would replace the log."""
    if output is None:
        return
    try:
        target = os.stat(output)
    except OSError:  # not there yet: no log
        return
    for log in logs:
        try:
            same = os.path.samestat(target, os.stat(log))
        except OSError:
            continue
        if same:
            raise fail(f"{clean(output, None)}: is one of the logs read, and writing the "
                       "output would replace it; choose another output file")


def _variants(names: list[str] | None) -> frozenset[str]:
    try:
        return check_variants(names)
    except ValueError as e:
        raise fail(str(e)) from None


SchedulerOption = Annotated[
    str | None,
    typer.Option("--scheduler", help="Run on Dask (needs the dask extra: pip install "
                 "'tichu-analyze\\[dask]'): 'local' starts an embedded cluster of --jobs worker "
                 "processes; tcp://HOST:PORT uses the running cluster whose scheduler is there. "
                 "Results are those of a serial run (docs/scale.md).", show_default=False),
]


def _notice(quiet: bool) -> Callable[[str], None] | None:
    """Where the driver's notes go (the Dask dashboard's address): stderr, unless quiet."""
    return None if quiet else lambda text: err.print(text, highlight=False, markup=False)


def _codes_option(values: list[str] | None, option: str) -> list[str]:
    prefixes = [p.strip().upper() for v in values or [] for p in v.split(",") if p.strip()]
    for p in prefixes:
        if not any(code.startswith(p) for code in RULES):
            raise fail(f"{option} {p}: no diagnostic code starts with {p!r} "
                       "(see 'tichu-analyze rules')")
    return prefixes


class Colour(StrEnum):
    """When ``--color`` colours text output."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"


ColourOption = Annotated[
    Colour,
    typer.Option("--color", help="Colour the text output: auto (on a terminal, unless NO_COLOR "
                 "is set), always or never.", metavar="WHEN"),
]


def _use_colour(choice: Colour, stream: Any) -> bool:
    """Whether text written to ``stream`` is coloured (NO_COLOR: https://no-color.org)."""
    if choice is Colour.AUTO:
        return not os.environ.get("NO_COLOR") and stream.isatty()
    return choice is Colour.ALWAYS


def _quiet_stop() -> None:
    """After a closed standard output: send what is left to /dev/null, so that Python
    reports no broken pipe when it flushes at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _untouched(output: object) -> str:
    """``OUT is left as it was``, or ``OUT was not created`` (for a run that wrote nothing)."""
    if Path(str(output)).exists():  # as before the run: nothing was written to it
        return f"{clean(output)} is left as it was"
    return f"{clean(output)} was not created"


def _interrupted(output: object | None) -> typer.Exit:
    """Ctrl-C: say that the output was not touched; the exit (status 130) to raise."""
    where = "" if output is None else f": {_untouched(output)}"
    err.print(f"interrupted{where}", highlight=False, markup=False)
    return typer.Exit(130)


def _settings(paths: list[Path], config: Path | None, isolated: bool) -> Settings:
    """The configuration in force: --config FILE, else the one found above the first path."""
    from ..lint.config import ConfigError, find_config, load_settings

    if isolated and config is not None:  # (as ruff: one or the other, never both)
        raise fail("--config and --isolated cannot be used together")
    try:
        if isolated:
            found = None
        elif config is not None:
            if not config.is_file():
                raise fail(f"{config}: no such configuration file")
            found = config
        else:
            found = find_config(paths[0] if paths else Path.cwd())
        return load_settings(found)
    except ConfigError as e:
        raise fail(str(e)) from None


@app.command()
def check(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Log files or directories (searched recursively for .jsonl, "
                       ".jsonl.gz, .jsonl.zst and .tch files); a file named twice is read "
                       "once.", show_default=False, parser=_log_path),
    ] = None,
    output_format: Annotated[
        Format | None,
        typer.Option("--output-format", "--format", "-f", help="text: one line per "
                     "diagnostic; full: also the offending event line and the one before it; "
                     "json: JSON lines; sarif: SARIF 2.1.0; github: GitHub Actions annotations "
                     "(default: text).", show_default=False, metavar="FORMAT",
                     rich_help_panel="Output"),
    ] = None,
    select: Annotated[
        list[str] | None,
        typer.Option("--select", "-s", help="Only report codes starting with these prefixes "
                     "(repeat or comma-separate: W,G001).", show_default=False, metavar="CODE",
                     rich_help_panel="Rules"),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option("--ignore", "-i", help="Do not report codes starting with these prefixes.",
                     show_default=False, metavar="CODE", rich_help_panel="Rules"),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write the diagnostics to this file instead of "
                     "standard output.", show_default=False, metavar="FILE",
                     rich_help_panel="Output", parser=_file_name),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No summary and no progress bar.")
    ] = False,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=0, help="Worker processes for many files "
                                 "(0: one per CPU core). Output stays in file order "
                                 "(default: 1).", show_default=False, metavar="N")
    ] = None,
    variant: VariantOption = None,
    statistics: Annotated[
        bool, typer.Option("--statistics", help="Print the number of diagnostics per code "
                           "instead of the diagnostics (json with --format json).",
                           rich_help_panel="Output")
    ] = False,
    exit_zero: Annotated[
        bool, typer.Option("--exit-zero", help="Exit 0 even when errors were found (2 still "
                           "means a file or an argument could not be used).",
                           rich_help_panel="Output")
    ] = False,
    color: ColourOption = Colour.AUTO,
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", help="Report only findings that are not in this baseline "
                     "(written by --write-baseline), and say how many matched it.",
                     show_default=False, metavar="FILE", rich_help_panel="Baseline"),
    ] = None,
    write_baseline: Annotated[
        Path | None,
        typer.Option("--write-baseline", help="Record every finding in this baseline file "
                     "instead of reporting them (exit 0 unless a file could not be read).",
                     show_default=False, metavar="FILE", rich_help_panel="Baseline",
                     parser=_file_name),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option("--config", help="Read the settings from this file (pyproject.toml or "
                     "tichu-analyze.toml) instead of the one found above the first path.",
                     show_default=False, metavar="FILE", rich_help_panel="Configuration"),
    ] = None,
    isolated: Annotated[
        bool, typer.Option("--isolated", rich_help_panel="Configuration",
                           help="Ignore every configuration file (not with --config).")
    ] = False,
    show_settings: Annotated[
        bool, typer.Option("--show-settings", help="Print the settings in force and where "
                           "each comes from, then exit.", rich_help_panel="Configuration")
    ] = False,
    scheduler: SchedulerOption = None,
) -> None:
    """Check every move of the logs against the rules and report each violation.

    Settings come from \\[tool.tichu-analyze] in pyproject.toml or from tichu-analyze.toml,
    found by walking up from the first path; options given here override them.

    Exit status: 0 when nothing worse than a warning was found, 1 when an error or fatal
    diagnostic was found, 2 when the arguments, the configuration or a file could not be used.
    """
    from ..lint.baseline import Baseline, BaselineError, source_lines
    from ..lint.baseline import write_baseline as save_baseline

    paths = paths or []
    settings = _settings(paths, config, isolated)
    settings.override("select", _codes_option(select, "--select") if select else None)
    settings.override("ignore", _codes_option(ignore, "--ignore") if ignore else None)
    settings.override("variants", list(variant) if variant else None)
    settings.override("format", str(output_format) if output_format is not None else None)
    settings.override("jobs", jobs)
    if show_settings:
        print("\n".join(settings.describe()))
        raise typer.Exit(0)
    if not paths:
        raise fail("give the log files or directories to check (tichu-analyze check PATH...)")
    if baseline is not None and write_baseline is not None:
        raise fail("--baseline and --write-baseline cannot be used together")
    fmt = Format(settings.format)
    keep = select_codes(None, settings.select, settings.ignore)
    variants = _variants(settings.variants)
    try:
        known = Baseline.load(baseline) if baseline is not None else None
    except BaselineError as e:
        raise fail(str(e)) from None
    files = _log_files(paths, quiet)
    _not_a_log_read(output, files)
    _not_a_log_read(write_baseline, files)

    # -o: written under a temporary name and renamed when complete (no half-written file)
    outputs = ExitStack()
    try:
        out = (outputs.enter_context(atomic_writer(output)) if output
               else _stdout())
    except OutputError as e:
        raise fail(str(e)) from None
    colour = _use_colour(color, out)
    # the summary on stderr: rich colours it on a terminal; --color never and NO_COLOR stop it
    err.no_color = color is Colour.NEVER or bool(os.environ.get("NO_COLOR"))
    kept: list[Diagnostic] = []
    recorded: list[tuple[Diagnostic, bytes | None]] = []
    counts: Counter[str] = Counter()
    worst = 0
    stream = {Format.TEXT: as_text_colour if colour else as_text, Format.JSON: as_json,
              Format.GITHUB: as_github}.get(fmt)
    needs_source = fmt is Format.FULL or known is not None or write_baseline is not None
    pending: list[Diagnostic] = []
    ignored_in: dict[str, frozenset[str]] = {}
    found_in: set[str] = set()  # the files with a diagnostic, kept or not

    def emit(d: Diagnostic, before: bytes | None = None, at: bytes | None = None) -> None:
        nonlocal worst
        counts[d.code] += 1
        if d.severity != "warning":
            worst = 1
        if statistics:
            return
        if fmt is Format.FULL:
            out.write(as_full(d, before, at, colour))
        elif stream is not None:
            out.write(stream(d) + "\n")
        else:
            kept.append(d)

    def report(d: Diagnostic) -> None:
        found_in.add(d.file)
        if d.code not in keep:
            return
        if settings.per_path_ignores:
            skip = ignored_in.get(d.file)
            if skip is None:
                skip = ignored_in[d.file] = settings.ignored_in(d.file)
            if any(d.code.startswith(p) for p in skip):
                return
        if needs_source:
            pending.append(d)
        else:
            emit(d)

    def flush_pending(path: Path) -> None:
        lines = source_lines(path, {n for d in pending for n in (d.line, d.line - 1)})
        for d in pending:
            content = lines.get(d.line)
            if known is not None and known.match(d, content):
                continue
            if write_baseline is not None:
                recorded.append((d, content))
            else:
                emit(d, lines.get(d.line - 1), content)
        pending.clear()

    totals = Counter[str]()
    unreadable = 0
    from ..core.visitor import DiagnosticVisitor
    from ..run.progress import progress_over

    try:
        with outputs:
            workers = settings.jobs or os.cpu_count() or 1
            for path, stats_or_error in progress_over(files, DiagnosticVisitor(report),
                                                      show=not quiet, jobs=workers,
                                                      variants=variants, scheduler=scheduler,
                                                      notice=_notice(quiet)):
                if pending:
                    flush_pending(path)
                if isinstance(stats_or_error, LogError):
                    unreadable += 1
                    err.print(f"[bold red]error:[/] {escape(clean(stats_or_error))}",
                              highlight=False)
                    continue
                stats = stats_or_error
                if not stats.events and stats.path not in found_in and not quiet:
                    # no event and no finding (a cut .gz has an L001): passes, but likely
                    # not what was meant
                    what = "only blank lines" if stats.lines else "nothing (an empty file)"
                    err.print(f"note: {clean(path)} holds {what}: no events to check",
                              highlight=False, markup=False)
                totals["files"] += 1
                totals["games"] += stats.games
                totals["rounds"] += stats.rounds
                totals["events"] += stats.events
            if statistics:
                out.write(as_statistics_json(counts) if fmt is Format.JSON
                          else as_statistics(counts, colour))
            elif fmt is Format.SARIF:
                out.write(json_text(json.dumps(as_sarif(kept), indent=2, ensure_ascii=False)))
                out.write("\n")
            out.flush()
    except DriverError as e:
        raise fail(str(e)) from None
    except KeyboardInterrupt:
        raise _interrupted(output) from None
    except OutputClosed:
        # the reader has all it wanted (... | head): stop quietly, like other Unix tools
        _quiet_stop()
        raise typer.Exit(0 if exit_zero else worst) from None
    except OutputError as e:
        raise fail(str(e)) from None
    if write_baseline is not None:
        try:
            n = save_baseline(write_baseline, recorded)
        except BaselineError as e:
            raise fail(str(e)) from None
        if not quiet:
            _summary(totals, Counter(d.code for d, _ in recorded), unreadable)
            err.print(f"wrote {plural(n, 'finding')} to the baseline {write_baseline}",
                      highlight=False, markup=False)
        raise typer.Exit(2 if unreadable else 0)
    if not quiet:
        _summary(totals, counts, unreadable, table=not statistics)
        if known is not None:
            err.print(f"{plural(known.matched, 'finding')} of {known.total} in the baseline "
                      f"{baseline} matched and not shown", highlight=False, markup=False)
    if unreadable:
        raise typer.Exit(2)
    raise typer.Exit(0 if exit_zero else worst)


def _summary(totals: Counter[str], counts: Counter[str], unreadable: int = 0,
             table: bool = True) -> None:
    n = sum(counts.values())
    files = plural(totals["files"], "file")
    if unreadable:  # the diagnostics found before a file's read error are reported
        files = f"{totals['files']} of {plural(totals['files'] + unreadable, 'file')} read"
    line = (f"{files}, {plural(totals['games'], 'game')}, "
            f"{plural(totals['rounds'], 'round')}, {plural(totals['events'], 'event')}")
    if not n:
        err.print(escape(line) + ": " + ("no diagnostics in what could be read" if unreadable
                                         else "[green]no diagnostics[/]"), highlight=False)
        return
    err.print(escape(line) + f": {plural(n, 'diagnostic')}", highlight=False)
    if not table:
        return
    by_code = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    by_code.add_column("code")
    by_code.add_column("name")
    by_code.add_column("severity")
    by_code.add_column("count", justify="right")
    for code in RULES:
        if counts[code]:
            r = RULES[code]
            by_code.add_row(code, r.name, str(r.severity), str(counts[code]))
    err.print(by_code)


@app.command()
def rules(
    code: Annotated[
        str | None,
        typer.Argument(help="A code (W001) or its name (wish-ignored) to explain; without it, "
                       "the whole catalogue.",
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
    found = RULES.get(code.upper()) or next(
        (r for r in RULES.values() if r.name == code.strip().lower()), None)
    if found is None:
        raise fail(f"unknown code {code!r}; 'tichu-analyze rules' lists them all")
    r = found
    from ..core.ruledocs import RULE_DOCS

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
    from rich.markup import escape

    from ..data.datasets import DatasetError, sigterm_as_interrupt
    from ..data.datasets import ingest as write_datasets

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
    player, partner, opponent = _kept(player), _kept(partner), _kept(opponent)
    filters = _filters(player, partner, opponent, since, until, game)
    with _reading_dataset(output):
        ds = _load(inputs, filters, _variants(variant))
        source = None if inputs == [ds.path] else " ".join(map(str, inputs))  # logs
        if output_format is ReportFormat.HTML:
            assert output is not None
            if _is_site(output):
                from ..views.site import write_site

                index = write_site(ds, output, player, filters,
                                   show_progress=err.is_terminal, source=source)
                err.print(f"wrote {index}", highlight=False, markup=False)
                return
            with _working(f"writing the report {clean(output)}"):
                write_html(ds, output, player, filters, source)
        elif output is None:
            try:
                print_text(ds, _Stdout(), player, filters, source)
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
) -> None:
    """Show a game or one round trick by trick, with each violation under its event.

    Exit status: 0 when the view was written (whatever it shows), 2 when the file,
    the game or the round cannot be found.
    """

    from ..views.audit import AuditError, build, load, plain, render_html, render_text, rich_lines

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
    try:
        view = build(load(log, game, variants=_variants(variant)), game, round_number, seat)
    except (AuditError, LogError) as e:
        raise fail(str(e)) from None
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
    except OutputError as e:
        raise fail(str(e)) from None
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
    try:
        files = [p for p in find_logs(paths) if is_tch(p)]
    except LogError as e:
        raise fail(str(e)) from None
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
    except DriverError as e:
        raise fail(str(e)) from None
    except OutputError as e:
        raise fail(str(e)) from None
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


def main() -> None:
    """Entry point of the ``tichu-analyze`` script."""
    app()
