"""The report as a small static site: ``tichu-analyze report DATASET -o DIR/``.

::

    DIR/index.html              contents, the tables, the depth tables, the games, the plots
    DIR/players/pNNNN.html      one page per player: the player against the field, partners
                                and opponents, failed calls, double victories, bombs and
                                violations, each linked to its round
    DIR/games/gNNNN.html        one page per game: score progression, calls made and failed,
                                bombs, Dragon gifts and violations, round by round
    DIR/rounds/gNNNN-rN.html    the ``replay`` page of a round (``audit.render_html``),
                                rendered from the log file the dataset records

File names are numbers, never names from a log. Every page is self-contained (inline CSS,
SVG plots as ``data:`` images, one hashed inline script that sorts tables, a CSP that
forbids everything else); every text from a log is escaped where it is put into markup.
A link to a round points at the event (``#line-N``) when the replay page has it, else at
the trick or the round. When the log a round comes from cannot be found or read, the
game page says so instead of linking.
"""

from __future__ import annotations

import os
import re
import shutil
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from ..analysis.stats import (
    FIELD_ALL,
    PLAYER_STATS,
    Dataset,
    Filters,
    Stat,
    StatTable,
    every_player,
    games_won,
    partners_and_opponents,
    victory_headers,
)
from ..common.atomicfile import OutputError, not_a_folder, remove_stale
from ..common.safetext import clean, plural
from ..data.datasets import DatasetError, _replace
from .report import (
    Link,
    esc,
    header_html,
    page,
    report_sections,
    stat_tables_html,
    toc_html,
    violation_list_html,
)

MAX_GAMES = 100_000
"""Games that get a page (and their rounds a replay page), in dataset order
(``--max-games``)."""
MAX_PLAYERS = 100_000
"""Players that get a page, those with the most rounds first (``--max-players``)."""
MIN_ROUNDS = 20
"""Players with fewer rounds are listed on the index but get no page (``--min-rounds``)."""
TOP_PARTNERS = 10
"""Partners and opponents on a player's page; the rest are on a page of their own."""
MAX_VIOLATIONS = 2000
"""Violations listed one by one on the index (each game page lists all of its own)."""


def _index_link(link: Callable[[dict[str, object]], str | None]
                ) -> Callable[[dict[str, object]], str | None]:
    """``link`` (made for pages one folder down) for the index page."""
    def at_index(row: dict[str, object]) -> str | None:
        href = link(row)
        return None if href is None else href.removeprefix("../")
    return at_index

RoundKey = tuple[str, str, int]  # file, game, round

_CSS = """
nav.crumbs { margin-bottom: 1em; }
td.calls span { white-space: nowrap; margin-right: .6em; }
.ok { color: #00795a; } .bad { color: #c0392b; }
.gone { color: #8a5a00; background: #fff6e0; padding: .4em .7em; }
"""


@dataclass
class _RoundPage:
    name: str
    ids: set[str]


@dataclass
class Site:
    """What the site has written so far: its pages and what each round page holds."""

    ds: Dataset
    out: Path
    source: str | None = None  # the logs a cached dataset was ingested from
    rounds: dict[RoundKey, _RoundPage] = field(default_factory=dict)
    missing: dict[tuple[str, str], str] = field(default_factory=dict)
    games: dict[tuple[str, str], str] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)

    # -- links ---------------------------------------------------------------------------

    def round_href(self, key: RoundKey, line: int | None = None, trick: int | None = None,
                   part: str | None = None) -> str | None:
        """The address (from a page one folder down) of a round's replay page at the event
        on ``line``, else at ``trick``, ``part`` (``result``) or the round's top."""
        rp = self.rounds.get(key)
        if rp is None:
            return None
        rnd = key[2]
        for anchor in (f"line-{line}" if line is not None else None,
                       f"r{rnd}-t{trick}" if trick is not None else None,
                       f"r{rnd}-{part}" if part is not None else None, f"r{rnd}-top"):
            if anchor is not None and anchor in rp.ids:
                return f"../rounds/{rp.name}#{anchor}"
        return f"../rounds/{rp.name}"

    def violation_href(self, row: dict[str, object]) -> str | None:
        """A violation's event on its round's replay page."""
        rnd, game = row.get("round"), row.get("game")
        if not isinstance(rnd, int) or not isinstance(game, str):
            return None
        line, trick = row.get("line"), row.get("trick")
        return self.round_href((str(row["file"]), game, rnd),
                               line if isinstance(line, int) else None,
                               trick if isinstance(trick, int) else None)

    def player_link(self, prefix: str) -> Link:
        """Player name to its page, from a page at ``prefix`` (``""`` or ``"../"``)."""
        def link(name: str) -> str | None:
            found = self.players.get(name)
            return None if found is None else f"{prefix}players/{found}"
        return link

    def game_href(self, file: str, game: str, prefix: str = "../") -> str | None:
        found = self.games.get((file, game))
        return None if found is None else f"{prefix}games/{found}"


def _a(href: str | None, text: str) -> str:
    """``text`` (already escaped) as a link when there is an address."""
    return text if href is None else f'<a href="{esc(href)}">{text}</a>'


def _resolve(ds: Dataset, file: str) -> Path | None:
    """The log file as the dataset records it: as given to ``ingest`` (relative to where it
    ran), tried from here and from the dataset's folder."""
    p = Path(file)
    for candidate in (p, ds.path.parent / p, ds.path / p):
        if candidate.is_file():
            return candidate
    return None


_ID = re.compile(r'\bid="([^"]+)"')


def _replay_pages(site: Site, games: list[tuple[str, str]], names: dict[tuple[str, str], str],
                  rounds: dict[tuple[str, str], list[int]], bar: _Bar) -> None:
    """Render the replay page of every round of ``games``, one log file at a time."""
    from ..data.datasets import ingest_variants
    from ..readers.logfile import LogError
    from .audit import AuditError, build, load, render_html

    variants = ingest_variants(site.ds.path)  # the house rules each log was ingested under
    by_file: dict[str, list[str]] = {}
    for file, game in games:
        by_file.setdefault(file, []).append(game)
    for file, file_games in by_file.items():
        path = _resolve(site.ds, file)
        if path is None:
            for g in file_games:
                site.missing[(file, g)] = (f"the log file {file} is not there any more, so "
                                           "its rounds have no replay page")
                bar.advance(len(rounds.get((file, g), [])))
            continue
        bar.describe(f"replaying {file}")
        try:
            trace = load(path, variants=variants.get(file, frozenset()), games=file_games)
        except (LogError, OSError) as e:
            for g in file_games:
                site.missing[(file, g)] = f"the log file {file} cannot be read: {e}"
                bar.advance(len(rounds.get((file, g), [])))
            continue
        for g in file_games:
            for n in rounds.get((file, g), []):
                bar.advance()
                try:
                    view = build(trace, g, int(n))
                except AuditError as e:
                    site.missing[(file, g)] = (f"the log file {file} no longer holds this "
                                               f"round ({e})")
                    continue
                html = render_html(view)
                back = (f'<p><a href="../games/{names[(file, g)]}">&larr; the game</a> · '
                        '<a href="../index.html">the report</a></p>')
                html = html.replace("<main>", f"<main>{back}", 1)
                name = f"{names[(file, g)].removesuffix('.html')}-r{n}.html"
                (site.out / "rounds" / name).write_text(html, "utf-8")
                site.rounds[(file, g, int(n))] = _RoundPage(name, set(_ID.findall(html)))


def _first_out(ds: Dataset) -> dict[RoundKey, tuple[int | None, int | None, int | None]]:
    """Per round: the line, trick and seat of the play with which the first seat went out
    (where a Tichu of another seat failed)."""
    df = (ds.plays.filter(pl.col("went_out").fill_null(False))
          .group_by("file", "game", "round")
          .agg(pl.col("line").min(), pl.col("trick").sort_by("line").first(),
               pl.col("seat").sort_by("line").first())
          .collect())
    return {(f, g, int(r)): (line, trick, seat)
            for f, g, r, line, trick, seat in df.iter_rows() if r is not None}


def _bombs(ds: Dataset) -> pl.DataFrame:
    return (ds.plays.filter(pl.col("bomb").fill_null(False) & pl.col("applied").fill_null(False))
            .select("file", "game", "round", "trick", "line", "seat", "player", "played_by",
                    "cards")
            .sort("file", "line").collect())


def _cards(tokens: list[str] | None) -> str:
    return " ".join(tokens or [])


def _call_label(call: str) -> str:
    return "Grand Tichu" if call == "grand_tichu" else "Tichu"


# -- the tables the pages are rendered from ------------------------------------------------


GameKey = tuple[str, str]


def _by(frame: pl.DataFrame, keys: list[str]) -> dict[Any, pl.DataFrame]:
    """``frame`` split by ``keys`` (one pass): key (a value, or a tuple of them) to rows."""
    if frame.is_empty():
        return {}
    parts = frame.partition_by(keys, as_dict=True, maintain_order=True)
    return {(k if len(keys) > 1 else k[0]): v for k, v in parts.items()}


@dataclass
class _Tables:
    """Every statistic the pages show, computed once by a few grouped queries."""

    field: dict[str, Stat]
    players: dict[str, dict[str, Stat]]
    won: dict[str, Stat]
    partners: dict[str, list[tuple[str, dict[str, Stat]]]]
    opponents: dict[str, list[tuple[str, dict[str, Stat]]]]
    seats: dict[Any, pl.DataFrame]          # (file, game): every seat's rounds rows
    bombs_of_game: dict[Any, pl.DataFrame]
    bombs_of_player: dict[Any, pl.DataFrame]
    violations_of_game: dict[Any, pl.DataFrame]
    violations_of_player: dict[Any, pl.DataFrame]
    scored_of_player: dict[Any, pl.DataFrame]
    defs: tuple[Any, ...]

    @classmethod
    def build(cls, ds: Dataset, games: set[GameKey], players: set[str]) -> _Tables:
        field, rows = every_player(ds)
        partners, opponents = partners_and_opponents(ds)
        won = {k: g.stat() for k, g in games_won(ds, "player").items()}
        keys = pl.DataFrame({"file": [k[0] for k in games], "game": [k[1] for k in games]},
                            schema={"file": pl.String, "game": pl.String})
        seats = ds.lseats.join(keys.lazy(), on=["file", "game"], how="semi")
        bombs = _bombs(ds)
        v = ds.violations.sort("line", nulls_last=True)
        names = pl.Series("player", sorted(players), pl.String)
        scored = ds.lscored.filter(pl.col("player").is_in(names.implode())).select(
            "file", "game", "round", "player", "call", "call_success", "hx_strength",
            "finish_position", "team_victory_for", "team_victory_against", "partners",
            "team_score", "opponent_score").sort("file", "game", "round")
        return cls(field, rows, won, partners, opponents,
                   _by(seats.sort("file", "game", "round", "seat").collect(), ["file", "game"]),
                   _by(bombs, ["file", "game"]),
                   _by(bombs.filter(pl.col("played_by").is_in(names.implode())),
                       ["played_by"]),
                   _by(v, ["file", "game"]),
                   _by(v.filter(pl.col("player").is_in(names.implode())), ["player"]),
                   _by(scored.collect(), ["player"]),
                   victory_headers(PLAYER_STATS, ds))


# -- small figures, drawn as inline SVG ---------------------------------------------------


def _svg_line(series: list[tuple[str, str, list[float]]], width: int = 640, height: int = 200,
              label: str = "") -> str:
    """Lines (name, colour, values) over a shared x axis as inline SVG, with a zero line and
    the last value of each: the score line of a game, a player's running margin."""
    values = [v for _, _, vs in series for v in vs] + [0.0]
    lo, hi = min(values), max(values)
    if hi == lo:
        hi = lo + 1
    n = max((len(vs) for _, _, vs in series), default=1)
    left, right, top, bottom = 48, 150, 10, 22

    def xy(i: int, v: float) -> str:
        x = left + (width - left - right) * (i / max(n - 1, 1))
        y = top + (height - top - bottom) * (hi - v) / (hi - lo)
        return f"{x:.1f},{y:.1f}"

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" aria-label="{esc(label)}">',
             f'<line x1="{left}" x2="{width - right}" y1="{xy(0, 0).split(",")[1]}" '
             f'y2="{xy(0, 0).split(",")[1]}" stroke="#999" stroke-dasharray="3 3"/>',
             f'<text x="{left - 4}" y="{top + 8}" text-anchor="end" font-size="11">'
             f"{hi:g}</text>",
             f'<text x="{left - 4}" y="{height - bottom}" text-anchor="end" font-size="11">'
             f"{lo:g}</text>",
             f'<text x="{left}" y="{height - 6}" font-size="11">1</text>',
             f'<text x="{width - right}" y="{height - 6}" text-anchor="end" font-size="11">'
             f"{n}</text>"]
    for k, (name, colour, vs) in enumerate(series):
        if not vs:
            continue
        points = " ".join(xy(i, v) for i, v in enumerate(vs))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
                     f'points="{points}"/>')
        parts.append(f'<text x="{width - right + 6}" y="{top + 14 + 16 * k}" font-size="12" '
                     f'fill="{colour}">{esc(name)}: {vs[-1]:g}</text>')
    parts.append("</svg>")
    return "".join(parts)


_TEAM_COLOURS = ("#0072B2", "#D55E00")


def _rounds_text(rounds: list[int]) -> str:
    """``[1, 2, 3, 5]`` as ``rounds 1-3, 5``."""
    spans: list[list[int]] = []
    for n in sorted(set(rounds)):
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)
    return ("round " if len(rounds) == 1 else "rounds ") + text


def occupants(r: pl.DataFrame) -> dict[int, list[tuple[str, str]]]:
    """Every person who played each seat of a game's rounds rows ``r``, in the order they
    sat there, with the rounds they played: the player who began a round, and a substitute
    who took the seat during it (``rounds.substitutes``)."""
    seen: dict[int, dict[str, list[int]]] = {}
    took: dict[int, dict[str, list[int]]] = {}
    subs = "substitutes" in r.columns
    for rec in r.iter_rows(named=True):
        s, n = int(rec["seat"]), int(rec["round"])
        seen.setdefault(s, {}).setdefault(str(rec["player"]), []).append(n)
        for sub in (rec["substitutes"] or []) if subs else []:
            took.setdefault(s, {}).setdefault(str(sub), []).append(n)
    out: dict[int, list[tuple[str, str]]] = {}
    for s in sorted(set(seen) | set(took)):
        people = []
        for p, ns in seen.get(s, {}).items():
            people.append((p, _rounds_text(ns)))
        for p, ns in took.get(s, {}).items():
            people.append((p, "took the seat during " + _rounds_text(ns)))
        out[s] = people
    return out


# -- pages --------------------------------------------------------------------------------


def _game_page(site: Site, t: _Tables, file: str, game: str, first_out: dict[RoundKey, tuple[
        int | None, int | None, int | None]]) -> str:
    ds = site.ds
    r = t.seats.get((file, game), pl.DataFrame(schema=ds.lseats.collect_schema()))
    g = ds.games.filter((pl.col("file") == file) & (pl.col("game") == game))
    trichu = r.get_column("role").is_not_null().any()
    link = site.player_link("../")

    def named(p: str, rounds: str) -> str:
        return f"{_a(link(p), esc(p))} <small>({esc(rounds)})</small>"

    seated = occupants(r)
    if trichu:  # the seating changes every round: the persons, and the rounds' teams below
        who = " · ".join(_a(link(p), esc(p)) for p in sorted(
            r.filter(pl.col("role") != "dummy").get_column("player").unique().to_list()))
    else:
        who = " · ".join(f"seat {s}: " + ", ".join(named(p, n) for p, n in people)
                         + f" (team {s % 2})" for s, people in seated.items())
    title = f"Game {game}"
    body = ['<nav class="crumbs"><a href="../index.html">&larr; the report</a></nav>',
            f"<h1>{esc(title)}</h1>",
            f'<p class="meta">Log file <code>{esc(file)}</code>. Players: {who}.</p>']
    if g.height:
        t0 = g.filter(pl.col("team") == 0).row(0, named=True) if g.filter(
            pl.col("team") == 0).height else None
        won = g.filter(pl.col("won").fill_null(False))
        if t0 is not None:
            result = (f"Final score: team 0 {t0['team_score']}, team 1 {t0['opponent_score']} "
                      f"(target {t0['target']}); ")
            result += (f"won by team {won.get_column('team')[0]}." if won.height
                       else "played to the end without a winner." if t0["ended"]
                       else "the log ends before the game does.")
            body.append(f"<p>{esc(result)}</p>")
        elif trichu:
            standing = ", ".join(f"{p} {'?' if v is None else v}" for p, v in g.sort(
                "person_score", descending=True, nulls_last=True).select(
                "player", "person_score").iter_rows())
            first = g.row(0, named=True)
            result = f"Final totals: {standing} ({first['target']} rounds); "
            result += (f"won by {won.get_column('player')[0]}." if won.height
                       else "played to the end without a winner." if first["ended"]
                       else "the log ends before the game does.")
            body.append(f"<p>{esc(result)}</p>")
    missing = site.missing.get((file, game))
    if missing:
        body.append(f'<p class="gone">{esc(missing)}.</p>')
    game_bombs = _by(t.bombs_of_game.get((file, game), pl.DataFrame()), ["round"])
    game_violations = t.violations_of_game.get((file, game), pl.DataFrame(
        schema=ds.violations.schema))
    by_round = _by(game_violations, ["round"])
    rows = []
    totals = [0, 0]
    lines: list[list[float]] = [[], []]
    for n, rr in _by(r, ["round"]).items():
        key = (file, game, int(n))
        status = str(rr.get_column("status")[0])
        score = {int(x): s for x, s in rr.select("team", "team_score").unique().iter_rows()
                 if x is not None}
        cells = [_a(site.round_href(key), f"round {n}"), esc(status)]
        for team in (0, 1):
            v = score.get(team) if status == "scored" else None
            totals[team] += v or 0
            lines[team].append(float(totals[team]))
            if trichu:  # each round's teams: who sat in them (the persons score that)
                names = " & ".join(esc(p) for p in rr.filter(pl.col("team") == team)
                                   .get_column("player").to_list())
                cells.append(f"{'' if v is None else v} <small>({names})</small>")
            else:
                cells.append("" if v is None else f"{v} <small>({totals[team]})</small>")
        calls = []
        for rec in rr.filter(pl.col("call").is_not_null()).iter_rows(named=True):
            label = f"{_call_label(rec['call'])} {esc(rec['player'])}"
            if rec["call_success"] is True:
                calls.append(f'<span class="ok">&#10003; {label}</span>')
            elif rec["call_success"] is False:
                line, trick, _ = first_out.get(key, (None, None, None))
                href = site.round_href(key, line, trick)
                calls.append(f'<span class="bad">{_a(href, f"&#10007; {label}")}</span>')
            else:
                calls.append(f"<span>? {label}</span>")
        dv = rr.filter(pl.col("team_victory_for").fill_null(False))
        if dv.height:
            calls.append(_a(site.round_href(key, part="result"),
                            f"{_victory(rr.height)}, team {dv.get_column('team')[0]}"))
        cells.append(" ".join(calls))
        rb = game_bombs.get(n)
        cells.append("" if rb is None else " ".join(
            _a(site.round_href(key, b["line"], b["trick"]),
               f"{esc(b['player'])}: {esc(_cards(b['cards']))}")
            for b in rb.iter_rows(named=True)))
        gifts = [f"{esc(p)} gave {int(k)}" for p, k in rr.select(
            "player", "dragon_gifts_given").iter_rows() if k]
        gifts += [f"{esc(p)} got {int(k)}" for p, k in rr.select(
            "player", "dragon_gifts_received").iter_rows() if k]
        cells.append(_a(site.round_href(key), "; ".join(gifts)) if gifts else "")
        rv = by_round.get(n)
        cells.append("" if rv is None else " ".join(
            _a(site.violation_href(x), esc(x["code"])) for x in rv.iter_rows(named=True)))
        rows.append('<tr><td class="calls">' + "</td><td class=\"calls\">".join(cells)
                    + "</td></tr>")
    if not trichu and lines[0]:
        legend = [" & ".join(p for s in seated if s % 2 == team for p, _ in seated[s])
                  for team in (0, 1)]
        body.append('<figure id="plot-score">' + _svg_line(
            [(f"team {team} ({legend[team]})", _TEAM_COLOURS[team], lines[team])
             for team in (0, 1)], label="score progression")
            + "<figcaption>Score progression: each team's running total after each round "
            "(the calls are in the table below).</figcaption></figure>")
    head = "".join(f"<th>{h}</th>" for h in (
        "round", "status", "team 0<small>round (total)</small>",
        "team 1<small>round (total)</small>", "calls<small>&#10003; made, &#10007; failed "
        "(links to the trick it failed in); under who made it</small>", "bombs",
        "Dragon gifts", "violations"))
    body += ['<h2 id="rounds">Rounds</h2>',
             f'<div class="scroll"><table id="game-rounds"><thead><tr>{head}</tr></thead>'
             "<tbody>" + "\n".join(rows) + "</tbody></table></div>"]
    body += ['<h2 id="violations">Violations</h2>',
             violation_list_html(game_violations, game_violations.height, " in this game",
                                 site.violation_href, "game-violations")]
    return page(f"{title} - Tichu report", body, _CSS)


def _victory(seats: int) -> str:
    """What a whole team going out first is called at a table of ``seats``."""
    return "triple victory" if seats == 6 else "double victory"


def _event_list(site: Site, rows: Iterator[tuple[RoundKey, int | None, int | None, str | None,
                                                  str]], ident: str, empty: str) -> str:
    items = []
    for key, line, trick, part, text in rows:
        game_href = site.game_href(key[0], key[1])
        href = site.round_href(key, line, trick, part)
        place = f"{_a(game_href, esc(key[1]))} round {key[2]}"
        items.append(f"<li>{place}: {_a(href, text)}</li>")
    if not items:
        return f"<p>{esc(empty)}</p>"
    return f'<ul id="{ident}">' + "".join(items) + "</ul>"


def _others_table(site: Site, t: _Tables, player: str, title: str, header: str,
                  rows: list[tuple[str, dict[str, Stat]]], ident: str,
                  more: str | None) -> str:
    table = StatTable(title, header, tuple(d for d in t.defs if d.key in rows[0][1])
                      if rows else (), dict(rows))
    note = "" if more is None else (
        f'<p>The {len(rows)} with the most rounds; <a href="{esc(more)}">all of them</a>.</p>')
    return note + stat_tables_html(table, ident, None, link=site.player_link("../"))


def _player_page(site: Site, t: _Tables, player: str, name: str,
                 first_out: dict[RoundKey, tuple[int | None, int | None, int | None]]
                 ) -> tuple[str, dict[str, str]]:
    """The player's page, and the pages of all its partners and opponents when it has more
    than :data:`TOP_PARTNERS` (file name to markup)."""
    ds = site.ds
    title = f"Tichu report: {player}"
    mine = t.scored_of_player.get(player, pl.DataFrame())
    own = t.players.get(player, {})
    table = StatTable(f"{player} against every player", "player", t.defs,
                      {player: own, FIELD_ALL: t.field})
    extra: dict[str, str] = {}
    sections = [("players", table.title,
                 "<p>The player's rounds, and every player's rounds together (the player's "
                 "own included).</p>\n"
                 + stat_tables_html(table, "players", player, {player: t.won.get(
                     player, Stat(0, 0, "games with a winner"))}, link=site.player_link("../")))]
    if mine.height:
        margin = (mine.get_column("team_score") - mine.get_column("opponent_score")).cum_sum()
        sections.append(("trend", "Running point margin", '<figure id="plot-trend">'
                         + _svg_line([(player, _TEAM_COLOURS[0],
                                       [float(x) for x in margin.to_list()])],
                                     label="running point margin")
                         + "<figcaption>The player's team's points minus the other team's, "
                         "summed over the player's scored rounds in dataset order."
                         "</figcaption></figure>"))
    for key, heading, header, rows in (("partners", "partner", "partner",
                                        t.partners.get(player, [])),
                                       ("opponents", "opponent", "opponent",
                                        t.opponents.get(player, []))):
        more = None
        if len(rows) > TOP_PARTNERS:
            more = f"{name.removesuffix('.html')}-{key}.html"
            whole = _others_table(site, t, player, f"{player} by {heading}", header, rows,
                                  f"by-{heading}", None)
            extra[more] = page(f"{title}: every {heading}", [
                f'<nav class="crumbs"><a href="{esc(name)}">&larr; {esc(player)}</a></nav>',
                f"<h1>{esc(player)}: every {esc(heading)}</h1>", whole], _CSS)
        sections.append((f"by-{heading}", f"{player} by {heading}", _others_table(
            site, t, player, f"{player} by {heading}", header, rows[:TOP_PARTNERS],
            f"by-{heading}", more)))

    failed = mine.filter(pl.col("call").is_not_null()
                         & ~pl.col("call_success").fill_null(True)) if mine.height else mine

    def failed_rows() -> Iterator[tuple[RoundKey, int | None, int | None, str | None, str]]:
        for rec in failed.iter_rows(named=True):
            key = (rec["file"], rec["game"], int(rec["round"]))
            line, trick, _ = first_out.get(key, (None, None, None))
            yield (key, line, trick, None,
                   f"{_call_label(rec['call'])} failed (hand strength "
                   f"{rec['hx_strength']}; finished {rec['finish_position']})"
                   + ("" if trick is None else f", someone else out first in trick {trick}"))

    def double_rows() -> Iterator[tuple[RoundKey, int | None, int | None, str | None, str]]:
        if not mine.height:
            return
        dv = mine.filter(pl.col("team_victory_for").fill_null(False)
                         | pl.col("team_victory_against").fill_null(False))
        for rec in dv.iter_rows(named=True):
            won = "won" if rec["team_victory_for"] else "lost"
            what = _victory(len(rec["partners"]) * 2 + 2)
            yield ((rec["file"], rec["game"], int(rec["round"])), None, None, "result",
                   f"{what} {won}")

    def bomb_rows() -> Iterator[tuple[RoundKey, int | None, int | None, str | None, str]]:
        # the trichu dummy's bombs are its solo player's (played_by), as its moves are;
        # marked, as the player's statistics (its own seat's rows) do not count them
        for b in t.bombs_of_player.get(player, pl.DataFrame()).iter_rows(named=True):
            dummy = ("" if b["player"] == player
                     else f" (at the dummy's seat, {esc(b['player'])})")
            yield ((b["file"], b["game"], int(b["round"])), b["line"], b["trick"], None,
                   f"bomb {esc(_cards(b['cards']))} in trick {b['trick']}{dummy}")

    v = t.violations_of_player.get(player, pl.DataFrame(schema=ds.violations.schema))
    sections += [
        ("failed-calls", "Failed calls", _event_list(site, failed_rows(), "failed-call-list",
                                                    "No failed calls.")
         + "<p>Hand strength: the strength of the 14 cards after the exchange (see the "
         "index's definitions).</p>"),
        ("double-victories", "Double victories",
         _event_list(site, double_rows(), "double-victory-list", "No double victories.")),
        ("bombs-played", "Bombs played",
         _event_list(site, bomb_rows(), "bomb-list", "No bombs played.")),
        ("player-violations", f"Violations by {player}",
         violation_list_html(v.head(500), v.height, f" by {player}", site.violation_href,
                             "player-violations")),
    ]
    rounds = own.get("rounds")
    count = "" if rounds is None else f"{rounds.denominator} rounds ({rounds.numerator} scored)"
    body = ['<nav class="crumbs"><a href="../index.html">&larr; the report</a></nav>',
            f"<h1>{esc(title)}</h1>",
            f'<p class="meta">{esc(count)} in <code>{esc(site.source or ds.path)}</code>. '
            "The field's plots and the depth tables are on the "
            '<a href="../index.html">index</a>.</p>',
            toc_html([(a, h) for a, h, _ in sections])]
    for anchor, heading, markup in sections:
        body += [f'<h2 id="{esc(anchor)}">{esc(heading)}</h2>', markup]
    return page(title, body, _CSS), extra


def _games_list(site: Site, keys: list[tuple[str, str]]) -> str:
    ds = site.ds
    t0 = ds.games.filter(pl.col("team") == 0).unique(["file", "game"])
    by = {(r["file"], r["game"]): r for r in t0.iter_rows(named=True)}
    persons: dict[tuple[str, str], list[str]] = {}  # trichu: the persons' totals
    for f, g, p, v in ds.games.filter(pl.col("team").is_null()).sort(
            "person_score", descending=True, nulls_last=True).select(
            "file", "game", "player", "person_score").iter_rows():
        persons.setdefault((f, g), []).append(f"{p} {'?' if v is None else v}")
    counts = ds.rounds.group_by("file", "game").agg(pl.col("round").n_unique().alias("n"))
    n_rounds = {(f, g): n for f, g, n in counts.iter_rows()}
    vcount = {(f, g): n for f, g, n in ds.violations.group_by("file", "game").agg(pl.len())
              .iter_rows()}
    rows = []
    for key in keys:
        rec = by.get(key)
        href = site.game_href(*key, prefix="")
        score = ("" if rec is None else f"{rec['team_score']} : {rec['opponent_score']}"
                 ) or ", ".join(persons.get(key, []))
        rows.append(f"<tr><td>{_a(href, esc(key[1]))}</td><td><code>{esc(key[0])}</code></td>"
                    f'<td class="num">{n_rounds.get(key, 0)}</td><td class="num">{esc(score)}'
                    f'</td><td class="num">{vcount.get(key, 0)}</td></tr>')
    head = ("<th>game</th><th>file</th><th>rounds</th><th>score<small>team 0 : team 1</small>"
            "</th><th>violations</th>")
    return ('<div class="scroll"><table class="sort" id="games-list"><thead><tr>' + head
            + "</tr></thead><tbody>" + "\n".join(rows) + "</tbody></table></div>")


class _Bar:
    """The site's progress bar: pages written of all there are to write."""

    def __init__(self, progress: Any, total: int) -> None:
        self._progress = progress
        self._task = progress.add_task("writing the site", total=total)

    def describe(self, text: str) -> None:
        self._progress.update(self._task, description=text)

    def advance(self, n: int = 1) -> None:
        self._progress.advance(self._task, n)


def _temporary(root: Path) -> str:
    """The names of the folders a site is built in before it replaces ``root``."""
    return re.escape(f".{root.name}.") + r"(?P<pid>\d+)\.[0-9a-f]{8}\.site"


def write_site(ds: Dataset, out: str | Path, player: str | None = None,
               filters: Filters | None = None, max_games: int = MAX_GAMES,
               max_players: int = MAX_PLAYERS, show_progress: bool = False,
               source: str | None = None, min_rounds: int = MIN_ROUNDS) -> Path:
    """Write the report site into the directory ``out`` and return its index page
    (``source``: the logs a cached ``ds`` was ingested from, named in its headers).

    ``out`` is created; an existing directory must be empty or hold an earlier report
    (an ``index.html`` and the folders ``players``, ``games``, ``rounds``, nothing
    else), which is replaced. The site is built in a temporary folder beside
    ``out`` and swapped in when complete: after an error or Ctrl-C, ``out`` is as it was
    (and the temporary folder removed; one left by a killed run is removed by the next).
    ``show_progress``: a progress bar by pages on stderr. :class:`DatasetError` for an
    unknown player or an unusable ``out``; :class:`OutputError` when it cannot be written.
    """
    root = Path(out)
    ds.check_player(player)
    problem = not_a_folder(root)
    if problem is not None:
        raise DatasetError(problem)
    if root.is_dir():
        _check_replaceable(root)
    from ..run.progress import count_bar

    dest = root.absolute()
    remove_stale(dest, _temporary(dest))
    tmp = dest.parent / f".{dest.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.site"
    try:
        try:
            tmp.parent.mkdir(parents=True, exist_ok=True)
            tmp.mkdir()
            with count_bar(show_progress) as progress:
                _write_pages(ds, tmp, player, filters, max_games, max_players, progress,
                             source, min_rounds)
            _replace(tmp, dest)  # tmp now holds the earlier site, if any
        except OSError as e:
            raise OutputError(f"{root}: cannot write: {e.strerror or e}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return root / "index.html"


SITE_ENTRIES = frozenset({"index.html", "players", "games", "rounds"})
"""What a report site's folder holds: an existing folder is replaced only when it holds
nothing else (a folder of other files with an index.html is not a site)."""


def _check_replaceable(root: Path) -> None:
    """:class:`DatasetError` unless the folder ``root`` is empty or an earlier site."""
    entries = sorted(e.name for e in root.iterdir())
    if not entries:
        return
    if "index.html" not in entries:
        raise DatasetError(f"{root}: exists and is not an empty directory nor an earlier "
                           "report site (no index.html); choose a new directory")
    other = [name for name in entries if name not in SITE_ENTRIES]
    if other:
        shown = ", ".join(map(clean, other[:3])) + (f" and {len(other) - 3} more"
                                                    if len(other) > 3 else "")
        raise DatasetError(f"{clean(root, None)}: holds {shown}, which a report site does "
                           "not: it is not an earlier report site, and is not replaced; choose "
                           "a new directory")


def _write_pages(ds: Dataset, root: Path, player: str | None, filters: Filters | None,
                 max_games: int, max_players: int, progress: Any,
                 source: str | None = None, min_rounds: int = MIN_ROUNDS) -> None:
    """Every page of the site, into the empty folder ``root``."""
    for sub in ("players", "games", "rounds"):
        (root / sub).mkdir()
    site = Site(ds, root, source)
    keys = ds.game_keys()
    if player is not None:
        of_player = set(ds.rounds.filter(pl.col("player") == player)
                        .select("file", "game").iter_rows())
        keys = [k for k in keys if k in of_player]
    paged = keys[:max_games]
    site.games = {k: f"g{i:04d}.html" for i, k in enumerate(paged, 1)}
    counts = ds.rounds.group_by("player").agg(pl.len().alias("n")).sort(
        ["n", "player"], descending=[True, False])
    counted = [(str(p), int(n)) for p, n in counts.iter_rows() if p is not None]
    names = [p for p, _ in counted]
    enough = [p for p, n in counted if n >= min_rounds or p == player]
    site.players = {p: f"p{i:04d}.html" for i, p in enumerate(enough[:max_players], 1)}
    rounds: dict[tuple[str, str], list[int]] = {}
    for file, game, n in ds.rounds.select("file", "game", "round").unique().sort(
            "file", "game", "round").iter_rows():
        if (file, game) in site.games:
            rounds.setdefault((file, game), []).append(int(n))
    bar = _Bar(progress, sum(map(len, rounds.values())) + len(site.games)
               + len(site.players) + 1)
    _replay_pages(site, paged, site.games, rounds, bar)
    first_out = _first_out(ds)
    bar.describe("computing the statistics")
    tables = _Tables.build(ds, set(site.games), set(site.players))
    bar.describe("writing the game pages")
    for (file, game), name in site.games.items():
        (root / "games" / name).write_text(
            _game_page(site, tables, file, game, first_out), "utf-8")
        bar.advance()
    bar.describe("writing the player pages")
    for p, name in site.players.items():
        text, extra = _player_page(site, tables, p, name, first_out)
        (root / "players" / name).write_text(text, "utf-8")
        for other, markup in extra.items():
            (root / "players" / other).write_text(markup, "utf-8")
        bar.advance()
    del tables
    bar.describe("writing the index")
    title = "Tichu report" + ("" if player is None else f": {player}")
    sections = report_sections(ds, player, plots=True, link=site.player_link(""))
    note = "" if len(keys) <= max_games else (
        f"<p>The first {max_games} of {len(keys)} games have a page (<code>--max-games"
        "</code>); the others are listed without one.</p>")
    sections.insert(-2, ("games", "Games", note + _games_list(site, keys)))
    every = ds.violations if player is None else ds.violations.filter(
        pl.col("player") == player)
    every = every.sort("file", "line", nulls_last=True)
    sections.insert(-2, ("violation-list", "Violations, one by one", violation_list_html(
        every.head(MAX_VIOLATIONS), every.height, "" if player is None else f" by {player}",
        _index_link(site.violation_href), "all-violations")))
    body = [*header_html(ds, title, player, filters, site.source),
            toc_html([(a, t) for a, t, _ in sections])]
    few = len(names) - len(enough)
    if few:
        body.append(f'<p class="note" id="no-page">{plural(few, "player")} with fewer than '
                    f"{min_rounds} rounds (<code>--min-rounds</code>) are listed in the "
                    "tables but have no page.</p>")
    if len(enough) > max_players:
        body.append(f'<p class="note">The {max_players} of {len(enough)} players with at '
                    f"least {min_rounds} rounds with the most rounds have a page "
                    "(<code>--max-players</code>).</p>")
    for anchor, heading, markup in sections:
        body += [f'<h2 id="{esc(anchor)}">{esc(heading)}</h2>', markup]
    (root / "index.html").write_text(page(title, body, _CSS), "utf-8")
    bar.advance()
