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
import hashlib
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
from rich.cells import cell_len
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from .. import __version__
from ..analysis.plots import PLOT_HELP, PlotKind, plot, render
from ..analysis.stats import (
    FIELD,
    FOUR_PLAYERS,
    NO_PLAYER,
    TRICHU_STATS,
    Dataset,
    Filters,
    Grid,
    Overview,
    Stat,
    StatDef,
    StatKind,
    StatTable,
    ViolationTable,
    calibration_table,
    call_expected_value,
    exchange_table,
    games_won,
    overview,
    partner_support,
    player_table,
    player_violations,
    team_table,
    trichu_table,
    variant_table,
    violation_table,
    with_and_against,
)
from ..analysis.stats import forms as game_forms
from ..common.atomicfile import write_atomic
from ..common.safetext import clean, html_text, plural
from ..data.datasets import DatasetError

SECTIONS = ("Rounds", "Calls", "Points", "Bombs", "Dragon and wish")


def esc(value: object) -> str:
    """``value`` as HTML text: control characters shown as escapes
    (:func:`tichu_analyze.common.safetext.html_text`), ``&``, ``<``, ``>`` and both quotes
    escaped."""
    return html_text(value, None)


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
td.name, th.name { min-width: 8em; max-width: 22em; overflow-wrap: anywhere; }
.clamp { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3;
         line-clamp: 3; overflow: hidden; }
tr.focus td { background: #fff8e5; }
td.few .v, td.few .d, td.few .ci { color: #9a9a9a; font-weight: normal; }
td .ci { display: block; font-size: .75em; color: #777; white-space: nowrap; }
table.sort th { cursor: pointer; }
table.sort th[aria-sort=ascending]::after { content: " \\25B2"; }
table.sort th[aria-sort=descending]::after { content: " \\25BC"; }
nav.toc ol { columns: 2; }
a { color: #0b5cad; }
.scroll { overflow-x: auto; }
figure { margin: 1.5em 0; }
figure img { width: 100%; max-width: 1000px; height: auto; border: 1px solid #e3e3e3; }
figcaption { color: #444; margin-top: .3em; }
dl dt { font-weight: 600; margin-top: .5em; }
dl dd { margin-left: 1.5em; color: #333; }
code { background: #f3f3f3; padding: 0 .25em; border-radius: 3px; overflow-wrap: anywhere; }
"""

SORT_SCRIPT = """\
document.querySelectorAll('table.sort thead th').forEach(function (th) {
  th.tabIndex = 0;
  th.title = (th.title ? th.title + ' · ' : '') + 'click to sort';
  function go() {
    var table = th.closest('table'), body = table.tBodies[0];
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var dir = th.getAttribute('aria-sort') === 'descending' ? 1 : -1;
    th.parentNode.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
    function key(row) {
      var c = row.cells[col];
      if (!c) return null;
      var v = c.getAttribute('data-sort');
      if (v === null) return c.textContent.trim().toLowerCase();
      return v === '' ? null : parseFloat(v);
    }
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a), y = key(b);
      if (x === null) return y === null ? 0 : 1;
      if (y === null) return -1;
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  th.addEventListener('click', go);
  th.addEventListener('keydown', function (e) { if (e.key === 'Enter') go(); });
});
"""
"""Sorts a ``table.sort`` by the clicked column (numbers by ``data-sort``, empty last).
The only script of a report page; the CSP allows it by its hash and nothing else."""

_SCRIPT_HASH = base64.b64encode(hashlib.sha256(SORT_SCRIPT.encode()).digest()).decode()
CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
       f"script-src 'sha256-{_SCRIPT_HASH}'")
"""No network, no script but :data:`SORT_SCRIPT`."""


def page(title: str, body: Iterable[str], css: str = "") -> str:
    """A complete self-contained report page: ``body`` is markup (already escaped)."""
    return "\n".join([
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{_CSS}{css}</style></head><body>",
        *body,
        f"<script>{SORT_SCRIPT}</script>",
        "</body></html>\n"])


def _cell(stat: Stat) -> str:
    """A statistic: the value, numerator / denominator, a 95% interval for a rate;
    greyed when out of fewer than 20 cases."""
    v = stat.value
    key = "" if v is None else f"{v:.6g}"
    few = " few" if stat.few else ""
    ci = stat.interval()
    ci_html = f'<span class="ci">95%: {esc(ci)}</span>' if ci else ""
    tip = (' title="fewer than 20 cases: read with care"' if stat.few and v is not None
           else "")
    return (f'<td class="num{few}" data-sort="{key}"{tip}><span class="v">{esc(stat.short())}'
            f'</span><span class="d">{esc(stat.detail())}</span>{ci_html}</td>')


def _name_cell(name: str, href: str | None = None) -> str:
    """A player or partnership name: at most three lines shown, the whole name on hover;
    a link to its page when ``href`` is given."""
    inner = esc(name) if href is None else f'<a href="{esc(href)}">{esc(name)}</a>'
    return f'<td class="name" title="{esc(name)}"><div class="clamp">{inner}</div></td>'


Link = Callable[[str], str | None]
"""A row name (a player) to the address of its page, or None when it has none."""


def _no_link(name: str) -> str | None:
    return None


def _header(defs: Iterable[StatDef]) -> str:
    return "".join(f'<th title="{esc(d.doc)}">{esc(d.label)}'
                   f"<small>{esc(denominator_phrase(d))}</small></th>" for d in defs)


def _table(ident: str, head: str, body: Iterable[str]) -> str:
    """A sortable table in a scrolling box."""
    return (f'<div class="scroll"><table class="sort" id="{esc(ident)}"><thead><tr>{head}'
            "</tr></thead>\n<tbody>\n" + "\n".join(body) + "\n</tbody></table></div>\n")


def _stat_section_html(table: StatTable, section: str, ident: str, focus: str | None,
                       extra: dict[str, Stat] | None = None, extra_label: str = "",
                       link: Link = _no_link) -> str:
    defs = [d for d in table.defs if section in ("", d.section)]
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
        body.append(f"<tr{cls}>{_name_cell(name, link(name))}{cells}</tr>")
    title = f"<h3>{esc(section)}</h3>\n" if section else ""
    return title + _table(ident, head, body)


def stat_tables_html(table: StatTable, prefix: str, focus: str | None,
                     games: dict[str, Stat] | None = None, link: Link = _no_link) -> str:
    """``table`` as one sortable table per section (or one table when it has no
    sections of its own)."""
    if not table.rows:
        return "<p>No rounds.</p>\n"
    if not any(d.section in SECTIONS[1:] for d in table.defs):
        return _stat_section_html(table, "", prefix, focus, link=link)
    parts = []
    for section in SECTIONS:
        slug = section.lower().replace(" ", "-")
        if section == "Rounds" and games is not None:
            parts.append(_stat_section_html(table, section, f"{prefix}-{slug}", focus, games,
                                            "Games won", link=link))
        else:
            parts.append(_stat_section_html(table, section, f"{prefix}-{slug}", focus,
                                            link=link))
    return "".join(parts)


def grid_html(grid: Grid, focus: str | None = None, link: Link = _no_link) -> str:
    """A :class:`Grid` of the depth statistics as a sortable table, with its note."""
    if not grid.rows:
        return f"<p>{esc(grid.title)}: nothing to count.</p>\n"
    head = f'<th class="name">{esc(grid.row_header)}</th>' + "".join(
        f"<th>{esc(c.label)}<small>{esc(c.sub)}</small></th>" for c in grid.columns)
    body = []
    for name, cells in grid.rows:
        cls = ' class="focus"' if focus is not None and name == focus else ""
        tds = []
        for c in cells:
            if isinstance(c, Stat):
                tds.append(_cell(c))
            else:
                text = "-" if c is None else c
                key = "" if c is None else esc(c.replace("+", ""))
                tds.append(f'<td class="num" data-sort="{key}"><span class="v">{esc(text)}'
                           "</span></td>")
        body.append(f"<tr{cls}>{_name_cell(name, link(name))}{''.join(tds)}</tr>")
    return f"<p>{esc(grid.note)}</p>\n" + _table(grid.key, head, body)


def violations_html(vt: ViolationTable, focus: str | None, link: Link = _no_link) -> str:
    """Violations counted by player and code."""
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
        href = None if row in (NO_PLAYER, FIELD) else link(row)
        body.append(f"<tr{cls}>{_name_cell(row, href)}{cells}{total}</tr>")
    return ('<p>Counts of violations by code. The last column is out of the moves (plays '
            "and passes) the player made; violations that belong to no seat (a broken line, "
            f"a bad deal) are in the row {esc(NO_PLAYER)}.</p>\n"
            + _table("violations-by-code", head, body))


EventLink = Callable[[dict[str, object]], str | None]
"""A violation (a row of the violations table) to the address of its event, or None."""


def violation_list_html(rows: pl.DataFrame, total: int, who: str,
                        link: EventLink | None = None, ident: str = "violation-list") -> str:
    """Violations one by one: code, file:line, game, round, trick, seat and message,
    each linking to its event when ``link`` gives an address."""
    if rows.is_empty():
        return f"<p>No violations{esc(who)}.</p>\n"
    body = []
    for r in rows.iter_rows(named=True):
        where = f"{r['file']}:{r['line']}" if r["line"] is not None else str(r["file"])
        href = link(r) if link is not None else None
        code = f"{esc(r['code'])} {esc(r['name'])}"
        if href is not None:
            code = f'<a href="{esc(href)}">{code}</a>'
        seat = "" if r["seat"] is None else f"{r['seat']}: {r['player']}"
        cells = [code, f"<code>{esc(where)}</code>", esc(r["game"] or ""),
                 esc("" if r["round"] is None else r["round"]),
                 esc("" if r["trick"] is None else r["trick"]), esc(seat),
                 esc(r["severity"]), esc(r["message"])]
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    shown = f"the first {rows.height} of {total}" if total > rows.height else f"all {total}"
    head = "".join(f"<th>{h}</th>" for h in ("code", "file:line", "game", "round", "trick",
                                              "seat: player", "severity", "message"))
    return (f"<p>{esc(shown)} violations{esc(who)}, in file order"
            + (", each linked to its event in the round's replay" if link else "") + ".</p>\n"
            + _table(ident, head, body))


def _overview_html(o: Overview, player: str | None) -> str:
    status = ", ".join(f"{n} {esc(s)}" for s, n in o.rounds_by_status.items())
    who = "" if player is None else f" played by {esc(player)}"
    return (f'<ul id="overview"><li>{plural(o.games, "game")}{who} ({o.games_ended} played '
            f'to the end) from {plural(o.files, "log file")}</li>'
            f"<li>{o.rounds} rounds{who}: {status}</li>"
            f"<li>{o.players} players</li>"
            f"<li>{o.violations} violations{'' if player is None else ' by ' + esc(player)}"
            "</li></ul>\n")


def _definitions_html(defs: Sequence[StatDef], title: str) -> str:
    items = "".join(f"<dt>{esc(d.label)} ({esc(denominator_phrase(d))})</dt>"
                    f"<dd>{esc(d.doc)}; the denominator is the {esc(d.unit)}.</dd>"
                    for d in defs)
    return f"<h3>{esc(title)}</h3><dl>{items}</dl>\n"


def plot_figures(ds: Dataset, player: str | None = None,
                 kinds: Iterable[PlotKind] = tuple(PlotKind)) -> list[tuple[PlotKind, str,
                                                                               bytes]]:
    """Every plot kind as (kind, title, SVG bytes); kinds with nothing to draw are left out."""
    figures = []
    for kind in kinds:
        try:
            fig = plot(ds, kind, player=player)
        except DatasetError:
            continue
        title = fig.get_suptitle()
        figures.append((kind, title.replace("\\$", "$"), render(fig, "svg")))
    return figures


def svg_figure(ident: str, svg: bytes, title: str, caption: str) -> str:
    """An SVG inlined as a ``data:`` image (an ``<img>`` never runs a script)."""
    data = base64.b64encode(svg).decode("ascii")
    return (f'<figure id="{esc(ident)}"><img src="data:image/svg+xml;base64,{data}" '
            f'alt="{esc(title)}"><figcaption>{caption}</figcaption></figure>')


def _plots_html(ds: Dataset, player: str | None,
                kinds: Iterable[PlotKind] = tuple(PlotKind)) -> str:
    parts = [svg_figure(f"plot-{kind}", svg, title,
                        f"<b>{esc(kind)}</b>: {esc(PLOT_HELP[kind])}.")
             for kind, title, svg in plot_figures(ds, player, kinds)]
    if not parts:
        return "<p>Nothing to plot.</p>\n"
    return "\n".join(parts) + "\n"


NOTE = ("Every figure states what it is out of: the large number is the statistic, the "
        "small line under it the numerator / the denominator, and under a rate its 95% "
        "interval (Wilson). Rates out of fewer than 20 cases are greyed. Round statistics "
        "count <b>scored</b> rounds only (incomplete and skipped rounds have no finish order "
        "or score). A dash means the denominator is zero. Click a column header to sort.")


def toc_html(items: Sequence[tuple[str, str]]) -> str:
    """A table of contents: (anchor, title) pairs."""
    lis = "".join(f'<li><a href="#{esc(a)}">{esc(t)}</a></li>' for a, t in items)
    return f'<nav class="toc" aria-label="contents"><h2>Contents</h2><ol>{lis}</ol></nav>'


def report_sections(ds: Dataset, player: str | None = None, plots: bool = True,
                    link: Link = _no_link, violation_link: EventLink | None = None,
                    plot_kinds: Iterable[PlotKind] = tuple(PlotKind)
                    ) -> list[tuple[str, str, str]]:
    """The report's sections as (anchor, title, markup): tables, depth, violations,
    plots and definitions (with ``player``: that player against the field)."""
    ds.check_player(player)
    players = player_table(ds, player)
    teams = team_table(ds, player)
    won = {k: g.stat() for k, g in games_won(ds, "player", player).items()}
    team_won = {k: g.stat() for k, g in games_won(ds, "team", player).items()}
    variants = variant_sections(ds, player, link)
    sections = [
        ("players", players.title, stat_tables_html(players, "players", player, won, link)),
        ("teams", teams.title,
         "<p>A partnership is two players who sat opposite each other; its statistics count "
         "the rounds they played together, calls by either partner.</p>\n"
         + ("<p>In tientsin a partnership is the three players of a team; in trichu the "
            "solo player and the dummy are one too.</p>\n" if variants else "")
         + stat_tables_html(teams, "teams", None, team_won)),
        *variants,
    ]
    if player is not None:
        by_partner, by_opponent = with_and_against(ds, player)
        sections.append(("with-against", f"{player} with each partner and against each "
                         "opponent",
                         "<p>The player's own rounds, first-out rate and point margin, by "
                         "the partner the player had and by each opponent.</p>\n"
                         + stat_tables_html(by_partner, "by-partner", None, link=link)
                         + stat_tables_html(by_opponent, "by-opponent", None, link=link)))
    sections += [
        ("calls", "Calls: expected value and calibration",
         grid_html(call_expected_value(ds, "tichu", player))
         + grid_html(call_expected_value(ds, "grand_tichu", player))
         + grid_html(calibration_table(ds, player), player, link)),
        ("support", "Partner support", grid_html(partner_support(ds, player), None, link)),
        ("exchange", "Exchange by recipient", grid_html(exchange_table(ds, player), player,
                                                        link)),
        ("violations", "Violations by code", violations_html(violation_table(ds, player),
                                                             player, link)),
    ]
    if player is not None:
        rows = player_violations(ds, player, 500)
        total = ds.violations.filter(pl.col("player") == player).height
        sections.append(("player-violations", f"Violations by {player}",
                         violation_list_html(rows, total, f" by {player}", violation_link,
                                             "player-violations")))
    if plots:
        sections.append(("plots", "Plots", _plots_html(ds, player, plot_kinds)))
    sections.append(("definitions", "Definitions",
                     _definitions_html(players.defs, "Player statistics")
                     + _definitions_html(teams.defs, "Partnership statistics")
                     + (_definitions_html(TRICHU_STATS, "Trichu statistics")
                        if any(s[0] == "trichu" for s in variants) else "")
                     + "<p>The depth tables (calls, partner support, exchange) are defined "
                     "in their notes and in docs/reports.md.</p>\n"))
    return sections


def variant_sections(ds: Dataset, player: str | None = None,
                     link: Link = _no_link) -> list[tuple[str, str, str]]:
    """The sections of the variants (none for a dataset of four-player games only): the
    statistics per form of the game, and trichu's solo and pair statistics per person."""
    if game_forms(ds) == [FOUR_PLAYERS]:
        return []
    table = variant_table(ds, player)
    sections = [("variants", table.title,
                 "<p>The players' statistics over the rounds of each form of the game: the "
                 "four-player game, tientsin (six players, a triple victory counted as the "
                 "team victory) and trichu (three persons, the dummy's seat not counted). "
                 "Rounds counts rounds; the rates are out of player-rounds: a round counts "
                 "once per player in it (six in tientsin, three persons in trichu).</p>\n"
                 + stat_tables_html(table, "variants", None))]
    trichu = trichu_table(ds, player)
    if trichu is not None:
        sections.append(("trichu", "Trichu: solo and pair",
                         "<p>Each trichu round one person plays solo with the open dummy, "
                         "the two others together; every person scores the points of the "
                         "team it sat in. The dummy's calls count for the solo player who "
                         "made them.</p>\n"
                         + stat_tables_html(trichu, "trichu", player, link=link)))
    return sections


def header_html(ds: Dataset, title: str, player: str | None,
                filters: Filters | None = None, source: str | None = None) -> list[str]:
    """The title, where the data comes from (``source``: the logs a cached dataset was
    ingested from), the filters, the overview and the note."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    read = (f"Dataset <code>{esc(ds.path)}</code>" if source is None else
            f"Logs <code>{esc(source)}</code> (cached in <code>{esc(ds.path)}</code>)")
    out = [f"<h1>{esc(title)}</h1>",
           f'<p class="meta">{read}; written by tichu-analyze '
           f"{esc(__version__)} on {esc(when)}.</p>"]
    if filters is not None and filters.active:
        out.append(f'<p class="meta" id="filters">Only the rounds {esc(filters.describe())}.'
                   "</p>")
    out += [_overview_html(overview(ds, player), player),
            f'<p class="note">{NOTE}'
            + ("" if player is None else f" {esc(FIELD)} is every other player's rounds, "
               "together.") + "</p>"]
    return out


def build_html(ds: Dataset, player: str | None = None, plots: bool = True,
               filters: Filters | None = None, source: str | None = None) -> str:
    """The report as one self-contained HTML page (with ``player``: that player against
    the field; ``source``: the logs a cached ``ds`` was ingested from). Raises
    :class:`DatasetError` for an unknown player."""
    ds.check_player(player)
    title = "Tichu report" + ("" if player is None else f": {player}")
    sections = report_sections(ds, player, plots)
    body = header_html(ds, title, player, filters, source)
    body.append(toc_html([(a, t) for a, t, _ in sections]))
    for anchor, heading, markup in sections:
        body += [f'<h2 id="{esc(anchor)}">{esc(heading)}</h2>', markup]
    return page(title, body)


def write_html(ds: Dataset, path: str | Path, player: str | None = None,
               filters: Filters | None = None, source: str | None = None) -> None:
    """Write :func:`build_html` to ``path`` (atomically)."""
    write_atomic(Path(path), build_html(ds, player, filters=filters, source=source))



# -- text -------------------------------------------------------------------------------


def _rich_name(name: str, limit: int = 60, style: str = "") -> Text:
    """A name as literal text (never markup), control characters escaped, cut to ``limit``
    characters."""
    return Text(clean(name, limit), style=style)


def _rich_stat(stat: Stat) -> Text:
    """``45.0%`` over ``9/20``: the value, then numerator / denominator (the header names
    the unit); dim when out of fewer than 20 cases."""
    return Text.assemble((stat.short(), "dim" if stat.few else "bold"), "\n",
                         (stat.detail(unit=False).replace(" / ", "/"), "dim"))


_TextColumn = tuple[Text, list[Text]]  # header, cells


def _width(text: Text) -> int:
    return max((cell_len(line) for line in text.plain.split("\n")), default=0)


def _header_width(header: Text) -> int:
    """The longest word of a header: it is wrapped at spaces, never inside a word."""
    return max((cell_len(w) for w in header.plain.split()), default=1)


def _fit(title: str, row_header: str, names: list[Text], columns: list[_TextColumn],
         width: int) -> list[Table]:
    """Tables of ``columns`` beside the row names, as many as needed for each to fit in
    ``width`` columns: no number is cut and no header word split."""
    name_w = min(max([_width(n) for n in names] + [len(row_header), 8]), max(16, width // 3))
    widths = [max([_header_width(h)] + [_width(c) for c in cells]) for h, cells in columns]
    full = [max([_width(h)] + [_width(c) for c in cells]) for h, cells in columns]
    chunks: list[list[int]] = [[]]
    used = name_w + 4
    for i, w in enumerate(widths):
        if chunks[-1] and used + w + 3 > width:
            chunks.append([])
            used = name_w + 4
        chunks[-1].append(i)
        used += w + 3
    for chunk in chunks:  # room to spare: headers on fewer lines
        spare = width - name_w - 4 - sum(widths[i] + 3 for i in chunk)
        for i in chunk:
            extra = max(0, min(full[i] - widths[i], spare))
            widths[i] += extra
            spare -= extra
    tables = []
    for k, chunk in enumerate(chunks):
        t = Table(title=Text(clean(title) + (" (continued)" if k else ""), style="bold"),
                  title_justify="left", header_style="bold")
        t.add_column(Text(row_header), overflow="fold", width=name_w)
        for i in chunk:
            t.add_column(columns[i][0], justify="right", width=widths[i])
        for r, name in enumerate(names):
            t.add_row(name, *[columns[i][1][r] for i in chunk])
        tables.append(t)
    return tables


def _rich_stat_table(table: StatTable, section: str, focus: str | None, width: int,
                     games: dict[str, Stat] | None = None) -> list[Table]:
    defs = [d for d in table.defs if d.section == section]
    if not defs or not table.rows:
        return []
    names = [_rich_name(n, style="bold yellow" if n == focus else "") for n in table.rows]
    columns: list[_TextColumn] = [
        (Text.assemble(d.label, "\n", (denominator_phrase(d), "dim")),
         [_rich_stat(stats[d.key]) for stats in table.rows.values()]) for d in defs]
    if games is not None:
        columns.append((Text.assemble("Games won", "\n", ("% of games with a winner", "dim")),
                        [_rich_stat(games.get(n, Stat(0, 0, "games with a winner")))
                         for n in table.rows]))
    return _fit(f"{table.title}: {section}", table.row_header, names, columns, width)


def _rich_grid(grid: Grid, focus: str | None, width: int) -> list[Table | Text]:
    """A depth table, split to fit ``width``, after its note."""
    if not grid.rows:
        return []
    names = [_rich_name(n, style="bold yellow" if n == focus else "") for n, _ in grid.rows]
    columns: list[_TextColumn] = []
    for i, c in enumerate(grid.columns):
        cells = [row[i] for _, row in grid.rows]
        columns.append((Text.assemble(c.label, "\n", (c.sub, "dim")),
                        [_rich_stat(x) if isinstance(x, Stat) else Text("-" if x is None else x)
                         for x in cells]))
    return [Text(clean(grid.note), style="dim"),
            *_fit(grid.title, grid.row_header, names, columns, width)]


def _rich_violations(vt: ViolationTable, focus: str | None, width: int) -> list[Table | Text]:
    if not vt.counts:
        return [Text("No violations: every move followed the rules.")]
    rows = sorted(vt.counts, key=lambda r: (r != focus, r == NO_PLAYER,
                                            -sum(vt.counts[r].values()), r))
    columns: list[_TextColumn] = [
        (Text.assemble(code, "\n", (name, "dim")),
         [Text(str(vt.counts[r].get(code, 0))) for r in rows]) for code, name in vt.codes]
    columns.append((Text.assemble("all codes", "\n", ("per 100 moves: n/moves", "dim")),
                    [Text(f"{sum(vt.counts[r].values())}\n(no seat)") if r == NO_PLAYER
                     else _rich_stat(vt.total(r)) for r in rows]))
    return list(_fit("Violations by code (last column: per 100 of the player's moves)",
                     "player", [_rich_name(r) for r in rows], columns, width))


def print_text(ds: Dataset, console: Console, player: str | None = None,
               filters: Filters | None = None, source: str | None = None) -> None:
    """The report's tables (no plots) as rich tables on ``console``; ``filters``: those
    ``ds`` was cut with (named under the title); ``source``: the logs ``ds`` was ingested
    from into the cache, named in the title before it."""
    ds.check_player(player)
    o = overview(ds, player)
    who = "" if player is None else f" ({clean(player, 60)} against the rest of the field)"
    status = ", ".join(f"{n} {s}" for s, n in o.rounds_by_status.items())
    read = clean(ds.path) if source is None else f"{clean(source)} (cached in {clean(ds.path)})"
    console.print(Text.assemble(("Tichu report", "bold"), who, f": {read}"))
    if filters is not None and filters.active:
        console.print(Text(f"Only the rounds {clean(filters.describe())}."))
    console.print(Text(f"{plural(o.games, 'game')} ({o.games_ended} played to the end) "
                       f"from {plural(o.files, 'file')}, {plural(o.rounds, 'round')} "
                       f"({status}), {plural(o.players, 'player')}, "
                       f"{plural(o.violations, 'violation')}"))
    console.print(Text("Each cell: the statistic, then numerator/denominator; the column "
                       "header says what the denominator counts. Round statistics count "
                       "scored rounds only.", style="dim"))
    players = player_table(ds, player)
    teams = team_table(ds, player)
    won = {k: g.stat() for k, g in games_won(ds, "player", player).items()}
    team_won = {k: g.stat() for k, g in games_won(ds, "team", player).items()}
    width = console.width
    parts: list[Table | Text] = []
    for section in SECTIONS:
        parts += _rich_stat_table(players, section, player, width,
                                  won if section == "Rounds" else None)
    for section in SECTIONS:
        parts += _rich_stat_table(teams, section, None, width,
                                  team_won if section == "Rounds" else None)
    if game_forms(ds) != [FOUR_PLAYERS]:
        forms = variant_table(ds, player)
        for section in SECTIONS:
            parts += _rich_stat_table(forms, section, None, width)
        trichu = trichu_table(ds, player)
        if trichu is not None:
            parts += _rich_stat_table(trichu, "Solo and pair", player, width)
    if player is not None:
        for table in with_and_against(ds, player):
            parts += _rich_stat_table(table, "Rounds", None, width)
            parts += _rich_stat_table(table, "Points", None, width)
    for grid in (call_expected_value(ds, "tichu", player),
                 call_expected_value(ds, "grand_tichu", player), calibration_table(ds, player),
                 partner_support(ds, player), exchange_table(ds, player)):
        parts += _rich_grid(grid, player, width)
    parts += _rich_violations(violation_table(ds, player), player, width)
    console.print(Group(*parts))
