"""The shared frame of the command line: the typer application, its help formatting, the
options and argument types the commands share, and the helpers that turn paths, variants,
colour and interruptions into clear messages."""

from __future__ import annotations

import inspect
import os
import shlex
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
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
from ..common.atomicfile import (
    Guarded,
)
from ..common.errors import TichuAnalyzeError
from ..common.safetext import clean, plural
from ..core.diagnostics import RULES
from ..core.variants import check_variants
from ..readers.logfile import find_logs
from ..run.progress import STDERR

if TYPE_CHECKING:
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
    """The command group: the one place where the package's errors meet the user. A
    :class:`~tichu_analyze.common.errors.TichuAnalyzeError` that a command lets through
    becomes one ``error:`` line and exit status 2 (:func:`fail`), never a traceback."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        return _plain_params(super().get_params(ctx))

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except TichuAnalyzeError as e:
            raise fail(str(e)) from None


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
    files = find_logs(paths, passed_over)
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


def _codes_option(values: list[str] | None, option: str, codes: Iterable[str] = RULES,
                  kind: str = "diagnostic") -> list[str]:
    """The code prefixes of a ``--select``/``--ignore`` option (repeatable, or comma
    separated), each the start of some code of ``codes``; else exit 2 saying so."""
    prefixes = [p.strip().upper() for v in values or [] for p in v.split(",") if p.strip()]
    known = list(codes)
    for p in prefixes:
        if not any(code.startswith(p) for code in known):
            raise fail(f"{option} {p}: no {kind} code starts with {p!r} "
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
    from ..lint.config import find_config, load_settings

    if isolated and config is not None:  # (as ruff: one or the other, never both)
        raise fail("--config and --isolated cannot be used together")
    if isolated:
        found = None
    elif config is not None:
        if not config.is_file():
            raise fail(f"{config}: no such configuration file")
        found = config
    else:
        found = find_config(paths[0] if paths else Path.cwd())
    return load_settings(found)




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
