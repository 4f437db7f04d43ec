"""``check``, ``rules`` and ``schema``: the linter's commands."""

from __future__ import annotations

import json
import os
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..common.atomicfile import (
    OutputClosed,
    atomic_writer,
)
from ..common.safetext import clean, json_text, plural
from ..core.diagnostics import RULES, Diagnostic, select_codes
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
from ..readers.logfile import LogError
from ..review.findings import ADVISORIES
from .app import (
    Colour,
    ColourOption,
    SchedulerOption,
    VariantOption,
    _codes_option,
    _file_name,
    _interrupted,
    _log_files,
    _log_path,
    _not_a_log_read,
    _notice,
    _quiet_stop,
    _settings,
    _stdout,
    _summary,
    _use_colour,
    _variants,
    app,
    err,
    fail,
)


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
    from ..lint.baseline import Baseline, source_lines
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
    known = Baseline.load(baseline) if baseline is not None else None
    files = _log_files(paths, quiet)
    _not_a_log_read(output, files)
    _not_a_log_read(write_baseline, files)

    # -o: written under a temporary name and renamed when complete (no half-written file)
    outputs = ExitStack()
    out = (outputs.enter_context(atomic_writer(output)) if output
           else _stdout())
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
    except KeyboardInterrupt:
        raise _interrupted(output) from None
    except OutputClosed:
        # the reader has all it wanted (... | head): stop quietly, like other Unix tools
        _quiet_stop()
        raise typer.Exit(0 if exit_zero else worst) from None
    if write_baseline is not None:
        n = save_baseline(write_baseline, recorded)
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
        review = Table(title="tichu-analyze review codes (advisory: where points were lost, "
                       "not rule violations)", header_style="bold")
        for col in ("code", "name", "when", "judged"):
            review.add_column(col)
        for a in ADVISORIES.values():
            review.add_row(a.code, a.name, a.when,
                           "all hands open" if a.hindsight else "from what the seat knew")
        console.print(review)
        return
    found = RULES.get(code.upper()) or next(
        (r for r in RULES.values() if r.name == code.strip().lower()), None)
    advisory = ADVISORIES.get(code.upper()) or next(
        (a for a in ADVISORIES.values() if a.name == code.strip().lower()), None)
    if advisory is not None:
        console.print(f"[bold]{advisory.code} {advisory.name}[/] (advisory: a finding of "
                      "'tichu-analyze review', not a rule violation)", highlight=False)
        console.print(f"When: {advisory.when}.", highlight=False, markup=False)
        console.print()
        console.print(advisory.doc.strip(), highlight=False, markup=False)
        return
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
