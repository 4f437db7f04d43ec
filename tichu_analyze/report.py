"""Reports from the datasets: one self-contained HTML file, or rich tables for a terminal.

The HTML is built with plain string joins, and every string that comes from a log
(player names, game ids, file names, messages, codes) goes through :func:`esc`
(``html.escape`` with quotes) at the one place it is put into markup: the cell,
heading or attribute helpers below. No template engine: the page is a handful of
tables, and a single escaping choke point is easier to audit than autoescape
rules. The page loads nothing: styles are inline, plots are inlined as base64
SVG images (an ``<img>`` never runs scripts), and a Content-Security-Policy
forbids scripts and any network access even if something slipped through.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from . import __version__
from .plots import PLOT_HELP, PlotKind, plot, render
from .stats import (
    FIELD,
    NO_PLAYER,
    Dataset,
    DatasetError,
    Overview,
    Stat,
    StatDef,
    StatKind,
    StatTable,
    ViolationTable,
    games_won,
    overview,
    player_table,
    player_violations,
    team_table,
    violation_table,
)

SECTIONS = ("Rounds", "Calls", "Points", "Bombs", "Dragon and wish")


def esc(value: object) -> str:
    """``value`` as HTML text: ``&``, ``<``, ``>`` and both quotes escaped."""
    return html.escape(str(value), quote=True)


def denominator_phrase(d: StatDef) -> str:
    """What a column is out of, for its header: ``% of Tichu calls``, ``over scored rounds``."""
    if d.kind is StatKind.PERCENT:
        return f"% of {d.unit}"
    if d.kind is StatKind.MEAN:
        return f"average over {d.unit}"
    if d.kind is StatKind.PER_100:
        return f"per 100 {d.unit}"
    return f"scored, of {d.unit}"


_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: #1a1a1a; background: #fff; margin: 2em auto; max-width: 1200px; padding: 0 1em; }
h1 { font-size: 1.7em; margin-bottom: .2em; }
h2 { border-bottom: 2px solid #0072B2; padding-bottom: .15em; margin-top: 2em; }
h3 { margin: 1.4em 0 .4em; }
.meta, .note { color: #555; }
.note { background: #f4f7fa; border-left: 4px solid #0072B2; padding: .5em .8em; }
table { border-collapse: collapse; margin: .5em 0 1em; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #d5d9de; padding: .3em .55em; vertical-align: top; }
th { background: #eef2f6; text-align: left; font-weight: 600; }
th small { display: block; font-weight: normal; color: #555; }
td.num { text-align: right; }
td .v { display: block; font-weight: 600; }
td .d { display: block; font-size: .82em; color: #666; white-space: nowrap; }
td.name, th.name { max-width: 22em; overflow-wrap: anywhere; }
.clamp { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3;
         line-clamp: 3; overflow: hidden; }
tr.focus td { background: #fff8e5; }
.scroll { overflow-x: auto; }
figure { margin: 1.5em 0; }
figure img { width: 100%; max-width: 1000px; height: auto; border: 1px solid #e3e3e3; }
figcaption { color: #444; margin-top: .3em; }
dl dt { font-weight: 600; margin-top: .5em; }
dl dd { margin-left: 1.5em; color: #333; }
code { background: #f3f3f3; padding: 0 .25em; border-radius: 3px; overflow-wrap: anywhere; }
"""

_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"


def _cell(stat: Stat) -> str:
    return (f'<td class="num"><span class="v">{esc(stat.short())}</span>'
            f'<span class="d">{esc(stat.detail())}</span></td>')


def _name_cell(name: str) -> str:
    """A player or partnership name: at most three lines shown, the whole name on hover."""
    return f'<td class="name" title="{esc(name)}"><div class="clamp">{esc(name)}</div></td>'


def _header(defs: Iterable[StatDef]) -> str:
    return "".join(f'<th title="{esc(d.doc)}">{esc(d.label)}'
                   f"<small>{esc(denominator_phrase(d))}</small></th>" for d in defs)


def _stat_section_html(table: StatTable, section: str, ident: str, focus: str | None,
                       extra: dict[str, Stat] | None = None, extra_label: str = "") -> str:
    defs = [d for d in table.defs if d.section == section]
    if not defs:
        return ""
    head = f'<th class="name">{esc(table.row_header)}</th>' + _header(defs)
    if extra is not None:
        head += f"<th>{esc(extra_label)}<small>% of games with a winner</small></th>"
    body = []
    for name, stats in table.rows.items():
        cls = ' class="focus"' if focus is not None and name == focus else ""
        cells = "".join(_cell(stats[d.key]) for d in defs)
        if extra is not None:
            cells += _cell(extra.get(name, Stat(0, 0, "games with a winner")))
        body.append(f"<tr{cls}>{_name_cell(name)}{cells}</tr>")
    return (f"<h3>{esc(section)}</h3>\n<div class=\"scroll\"><table id=\"{esc(ident)}\">"
            f"<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(body)
            + "\n</tbody></table></div>\n")


def _stat_table_html(table: StatTable, prefix: str, focus: str | None,
                     games: dict[str, Stat]) -> str:
    if not table.rows:
        return "<p>No rounds.</p>\n"
    parts = []
    for section in SECTIONS:
        slug = section.lower().replace(" ", "-")
        if section == "Rounds":
            parts.append(_stat_section_html(table, section, f"{prefix}-{slug}", focus, games,
                                            "Games won"))
        else:
            parts.append(_stat_section_html(table, section, f"{prefix}-{slug}", focus))
    return "".join(parts)


def _violations_html(vt: ViolationTable, focus: str | None) -> str:
    if not vt.counts:
        return "<p>No violations: every move followed the rules.</p>\n"
    head = '<th class="name">player</th>' + "".join(
        f'<th title="{esc(name)}">{esc(code)}<small>{esc(name)}</small></th>'
        for code, name in vt.codes
    ) + "<th>All codes<small>per 100 of the player's moves</small></th>"
    rows = sorted(vt.counts, key=lambda r: (r == NO_PLAYER, r == FIELD and focus is None,
                                            -sum(vt.counts[r].values()), r))
    if focus is not None:
        rows = sorted(rows, key=lambda r: r != focus)
    body = []
    for row in rows:
        cls = ' class="focus"' if row == focus else ""
        cells = "".join(f'<td class="num">{vt.counts[row].get(code, 0)}</td>'
                        for code, _ in vt.codes)
        total = (f'<td class="num"><span class="v">{sum(vt.counts[row].values())}</span>'
                 '<span class="d">no seat: not a move</span></td>' if row == NO_PLAYER
                 else _cell(vt.total(row)))
        body.append(f"<tr{cls}>{_name_cell(row)}{cells}{total}</tr>")
    return ('<p>Counts of violations by code. The last column is out of the moves (plays '
            "and passes) the player made; violations that belong to no seat (a broken line, "
            f"a bad deal) are in the row {esc(NO_PLAYER)}.</p>\n"
            f'<div class="scroll"><table id="violations-by-code"><thead><tr>{head}</tr></thead>'
            "\n<tbody>\n" + "\n".join(body) + "\n</tbody></table></div>\n")


def _player_violations_html(ds: Dataset, player: str, limit: int = 100) -> str:
    rows = player_violations(ds, player, limit)
    if rows.is_empty():
        return f"<p>No violations by {esc(player)}.</p>\n"
    body = []
    for r in rows.iter_rows(named=True):
        where = f"{r['file']}:{r['line']}" if r["line"] is not None else str(r["file"])
        game = "" if r["game"] is None else f"{r['game']} round {r['round']}"
        body.append(f"<tr><td><code>{esc(where)}</code></td><td>{esc(game)}</td>"
                    f"<td>{esc(r['code'])} {esc(r['name'])}</td><td>{esc(r['severity'])}</td>"
                    f"<td>{esc(r['message'])}</td></tr>")
    total = ds.violations.filter(ds.violations["player"] == player).height
    shown = f"the first {limit} of {total}" if total > limit else f"all {total}"
    return (f"<p>{esc(shown)} violations by {esc(player)}, in file order.</p>\n"
            '<div class="scroll"><table id="player-violations"><thead><tr><th>file:line</th>'
            "<th>game</th><th>code</th><th>severity</th><th>message</th></tr></thead>\n<tbody>\n"
            + "\n".join(body) + "\n</tbody></table></div>\n")


def _overview_html(o: Overview, player: str | None) -> str:
    status = ", ".join(f"{n} {esc(s)}" for s, n in o.rounds_by_status.items())
    who = "" if player is None else f" played by {esc(player)}"
    return (f'<ul id="overview"><li>{o.files} log file{"s" * (o.files != 1)}, {o.games} games'
            f"{who} ({o.games_ended} played to the end)</li>"
            f"<li>{o.rounds} rounds{who}: {status}</li>"
            f"<li>{o.players} players</li>"
            f"<li>{o.violations} violations{'' if player is None else ' by ' + esc(player)}"
            "</li></ul>\n")


def _definitions_html(defs: Sequence[StatDef], title: str) -> str:
    items = "".join(f"<dt>{esc(d.label)} ({esc(denominator_phrase(d))})</dt>"
                    f"<dd>{esc(d.doc)}; the denominator is the {esc(d.unit)}.</dd>"
                    for d in defs)
    return f"<h3>{esc(title)}</h3><dl>{items}</dl>\n"


def plot_figures(ds: Dataset, player: str | None = None) -> list[tuple[PlotKind, str, bytes]]:
    """Every plot kind as (kind, title, SVG bytes); kinds with nothing to draw are left out."""
    figures = []
    for kind in PlotKind:
        try:
            fig = plot(ds, kind, player=player)
        except DatasetError:
            continue
        title = fig.get_suptitle()
        figures.append((kind, title.replace("\\$", "$"), render(fig, "svg")))
    return figures


def _plots_html(ds: Dataset, player: str | None) -> str:
    parts = []
    for kind, title, svg in plot_figures(ds, player):
        data = base64.b64encode(svg).decode("ascii")
        parts.append(f'<figure id="plot-{kind}"><img src="data:image/svg+xml;base64,{data}" '
                     f'alt="{esc(title)}"><figcaption><b>{esc(kind)}</b>: '
                     f"{esc(PLOT_HELP[kind])}.</figcaption></figure>")
    if not parts:
        return "<p>Nothing to plot.</p>\n"
    return "\n".join(parts) + "\n"


def build_html(ds: Dataset, player: str | None = None, plots: bool = True) -> str:
    """The report as one self-contained HTML page (with ``player``: that player against
    the field). Raises :class:`DatasetError` for an unknown player."""
    ds.check_player(player)
    title = "Tichu report" + ("" if player is None else f": {player}")
    players = player_table(ds, player)
    teams = team_table(ds, player)
    won = {k: g.stat() for k, g in games_won(ds, "player", player).items()}
    team_won = {k: g.stat() for k, g in games_won(ds, "team", player).items()}
    vt = violation_table(ds, player)
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f'<p class="meta">Dataset <code>{esc(ds.path)}</code>; written by tichu-analyze '
        f"{esc(__version__)} on {esc(when)}.</p>",
        _overview_html(overview(ds, player), player),
        '<p class="note">Every figure states what it is out of: the large number is the '
        "statistic, the small line under it the numerator / the denominator. Round "
        "statistics count <b>scored</b> rounds only (incomplete and skipped rounds have no "
        "finish order or score). A dash means the denominator is zero."
        + ("" if player is None else f" {esc(FIELD)} is every other player's rounds, "
           "together.") + "</p>",
        f'<h2 id="players">{esc(players.title)}</h2>',
        _stat_table_html(players, "players", player, won),
        f'<h2 id="teams">{esc(teams.title)}</h2>',
        "<p>A partnership is two players who sat opposite each other; its statistics count "
        "the rounds they played together, calls by either partner.</p>",
        _stat_table_html(teams, "teams", None, team_won),
        '<h2 id="violations">Violations by code</h2>',
        _violations_html(vt, player),
    ]
    if player is not None:
        out += [f'<h2 id="player-violations-heading">Violations by {esc(player)}</h2>',
                _player_violations_html(ds, player)]
    if plots:
        out += ['<h2 id="plots">Plots</h2>', _plots_html(ds, player)]
    out += ['<h2 id="definitions">Definitions</h2>',
            _definitions_html(players.defs, "Player statistics"),
            _definitions_html(teams.defs, "Partnership statistics"),
            "</body></html>\n"]
    return "\n".join(out)


def write_html(ds: Dataset, path: str | Path, player: str | None = None) -> None:
    """Write :func:`build_html` to ``path``."""
    Path(path).write_text(build_html(ds, player), encoding="utf-8")


# -- text -------------------------------------------------------------------------------


def _rich_name(name: str, limit: int = 60, style: str = "") -> Text:
    """A name as literal text (never markup), cut to ``limit`` characters."""
    return Text(name if len(name) <= limit else name[: limit - 1] + "\u2026", style=style)


def _rich_stat(stat: Stat) -> Text:
    """``45.0% 9/20``: the value, then numerator / denominator (the header names the unit)."""
    return Text.assemble((stat.short(), "bold"), " ", (stat.detail(unit=False).replace(" / ", "/"),
                                                      "dim"))


def _rich_stat_table(table: StatTable, section: str, focus: str | None,
                     games: dict[str, Stat] | None = None) -> Table | None:
    defs = [d for d in table.defs if d.section == section]
    if not defs or not table.rows:
        return None
    t = Table(title=Text(f"{table.title}: {section}", style="bold"), title_justify="left",
              header_style="bold")
    t.add_column(Text(table.row_header), overflow="fold", max_width=28)
    for d in defs:
        t.add_column(Text.assemble(d.label, "\n", (denominator_phrase(d), "dim")),
                     justify="right")
    if games is not None:
        t.add_column(Text.assemble("Games won", "\n", ("% of games with a winner", "dim")),
                     justify="right")
    for name, stats in table.rows.items():
        cells = [_rich_stat(stats[d.key]) for d in defs]
        if games is not None:
            cells.append(_rich_stat(games.get(name, Stat(0, 0, "games with a winner"))))
        t.add_row(_rich_name(name, style="bold yellow" if name == focus else ""), *cells)
    return t


def _rich_violations(vt: ViolationTable, focus: str | None) -> Table | Text:
    if not vt.counts:
        return Text("No violations: every move followed the rules.")
    t = Table(title=Text("Violations by code (last column: per 100 of the player's moves)",
                         style="bold"), title_justify="left", header_style="bold")
    t.add_column("player", overflow="fold", max_width=28)
    for code, name in vt.codes:
        t.add_column(Text.assemble(code, "\n", (name, "dim")), justify="right")
    t.add_column(Text.assemble("all codes", "\n", ("per 100 moves: n/moves", "dim")),
                 justify="right")
    rows = sorted(vt.counts, key=lambda r: (r != focus, r == NO_PLAYER,
                                            -sum(vt.counts[r].values()), r))
    for row in rows:
        total = (Text(f"{sum(vt.counts[row].values())} (no seat)") if row == NO_PLAYER
                 else _rich_stat(vt.total(row)))
        t.add_row(_rich_name(row), *[Text(str(vt.counts[row].get(c, 0))) for c, _ in vt.codes],
                  total)
    return t


def print_text(ds: Dataset, console: Console, player: str | None = None) -> None:
    """The report's tables (no plots) as rich tables on ``console``."""
    ds.check_player(player)
    o = overview(ds, player)
    who = "" if player is None else f" ({player} against the rest of the field)"
    status = ", ".join(f"{n} {s}" for s, n in o.rounds_by_status.items())
    console.print(Text.assemble(("Tichu report", "bold"), who, f": {ds.path}"))
    console.print(Text(f"{o.files} files, {o.games} games ({o.games_ended} played to the end), "
                       f"{o.rounds} rounds ({status}), {o.players} players, "
                       f"{o.violations} violations"))
    console.print(Text("Each cell: the statistic, then numerator/denominator; the column "
                       "header says what the denominator counts. Round statistics count "
                       "scored rounds only.", style="dim"))
    players = player_table(ds, player)
    teams = team_table(ds, player)
    won = {k: g.stat() for k, g in games_won(ds, "player", player).items()}
    team_won = {k: g.stat() for k, g in games_won(ds, "team", player).items()}
    parts: list[Table | Text] = []
    for section in SECTIONS:
        t = _rich_stat_table(players, section, player, won if section == "Rounds" else None)
        if t is not None:
            parts.append(t)
    for section in SECTIONS:
        t = _rich_stat_table(teams, section, None, team_won if section == "Rounds" else None)
        if t is not None:
            parts.append(t)
    parts.append(_rich_violations(violation_table(ds, player), player))
    console.print(Group(*parts))
