"""Figures from the datasets, with matplotlib's object API (never ``pyplot``).

:func:`plot` builds a :class:`matplotlib.figure.Figure` of one :class:`PlotKind`;
:func:`save` writes it as PNG or SVG (the Agg canvas, no display needed). Every
figure has a title, labelled axes and a legend, and says in its labels what each
percentage is out of. Player names are drawn as plain text: a ``$`` never turns
on matplotlib's math mode and a leading ``_`` never hides a legend entry.
"""

from __future__ import annotations

import contextlib
import io
import math
from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from ..common.atomicfile import write_atomic
from ..common.safetext import clean
from ..core.state import call_value
from ..data.datasets import DatasetError
from .stats import FOUR_PLAYERS, Dataset, collect, focus, frame_forms, wilson

if TYPE_CHECKING:  # matplotlib is imported when a figure is drawn: the CLI starts fast
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

TICHU_COLOR = "#0072B2"   # Okabe-Ito blue
GRAND_COLOR = "#D55E00"   # Okabe-Ito vermillion
TEAM_COLORS = ("#0072B2", "#E69F00")
FINISH_COLORS = ("#009E73", "#56B4E9", "#E69F00", "#D55E00")
FINISH_COLORS_SIX = ("#009E73", "#56B4E9", "#F0E442", "#E69F00", "#CC79A7", "#D55E00")
"""The finish positions' colours at a table of six (tientsin)."""
NEUTRAL = "#666666"
MAX_PLAYERS = 20


class PlotKind(StrEnum):
    """The figures ``tichu-analyze plot --kind`` draws."""

    SCORE = "score"
    CALLS = "calls"
    FINISH = "finish"
    POINTS = "points"
    CALIBRATION = "calibration"
    BOMBS = "bombs"
    EXCHANGE = "exchange"
    TREND = "trend"


PLOT_HELP: dict[PlotKind, str] = {
    PlotKind.SCORE: "score progression of one game (--game; default the first), round by round",
    PlotKind.CALLS: "Tichu and Grand Tichu call rate and success per player",
    PlotKind.FINISH: "finish-position distribution (1st..4th out) per player",
    PlotKind.POINTS: "average points per round per player: cards, calls, total, opponents",
    PlotKind.CALIBRATION: "hand strength against call success (a calibration plot)",
    PlotKind.BOMBS: "bombs per round: how many rounds see bombs, bombs held and played per player",
    PlotKind.EXCHANGE: "ranks of the cards passed to the partner and to the opponents",
    PlotKind.TREND: "rolling first-out rate and cumulative point margin over the player's "
                    "games in time order (needs 5 games or more)",
}

MIN_TREND_GAMES = 5
"""Fewer games than this make no trend plot."""

_FALLBACK_FONTS = ("Noto Sans CJK JP", "Noto Sans CJK SC", "Noto Sans CJK KR",
                   "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Droid Sans Fallback",
                   "AR PL UMing CN", "Unifont")
"""Fonts with wide coverage (Chinese, Japanese, Korean) that text falls back to, in this
order, when installed; DejaVu Sans (matplotlib's own) comes first."""


_FALLBACK_FILES = ("NotoSansCJK-Regular", "NotoSansCJK-Bold", "wqy-microhei", "wqy-zenhei",
                   "DroidSansFallback")


@lru_cache(maxsize=1)
def _font_family() -> list[str]:
    """DejaVu Sans, then every installed font of :data:`_FALLBACK_FONTS`. A font installed
    after matplotlib cached its font list is found on the system and added."""
    from matplotlib import font_manager

    manager = font_manager.fontManager
    if not any(f.name in _FALLBACK_FONTS for f in manager.ttflist):
        for path in font_manager.findSystemFonts():
            if any(name in Path(path).name for name in _FALLBACK_FILES):
                with contextlib.suppress(Exception):  # an unreadable font: go without it
                    manager.addfont(path)
    have = {f.name for f in manager.ttflist}
    return ["DejaVu Sans", *[f for f in _FALLBACK_FONTS if f in have]]


def text(s: object, limit: int = 32) -> str:
    """``s`` as literal matplotlib text: control characters shown as escapes and cut to
    ``limit`` characters (:func:`tichu_analyze.common.safetext.clean`), ``$`` escaped (no math
    mode), no leading ``_`` (matplotlib hides legend labels that start with one)."""
    t = clean(s, limit).replace("$", r"\$")
    return " " + t if t.startswith("_") else t


def _new_figure(width: float, height: float, nrows: int = 1, ncols: int = 1, *,
                sharex: bool = False, sharey: bool = False,
                height_ratios: Sequence[float] | None = None,
                width_ratios: Sequence[float] | None = None) -> tuple[Figure, list[Axes]]:
    """A figure on the Agg canvas (no pyplot, no display) and its axes, row by row."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=sharex, sharey=sharey,
                        height_ratios=height_ratios, width_ratios=width_ratios)
    return fig, [ax for row in axes for ax in row]


def _no_data(ax: Axes, message: str) -> None:
    ax.text(0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes,
            color=NEUTRAL, fontsize=11)


def _pct(k: float, n: float) -> float:
    return 100.0 * k / n if n else math.nan


def _wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials, in percent."""
    ci = wilson(k, n)
    return (math.nan, math.nan) if ci is None else (100 * ci[0], 100 * ci[1])


def _scored_by_group(ds: Dataset, player: str | None,
                     max_players: int) -> tuple[pl.LazyFrame, list[str], str]:
    """Scored round rows with a ``group`` column (the player, or the player and the
    field), the groups to draw in order, and a note when players were left out."""
    ds.check_player(player)
    frame = focus(ds.lscored, player)
    counts = collect(frame.group_by("group").agg(pl.len().alias("n")).sort(
        ["n", "group"], descending=[True, False]))
    if counts.is_empty():
        raise DatasetError(f"{ds.path}: no scored rounds to plot")
    groups = [str(g) for g in counts.get_column("group").to_list()]
    if player is not None:
        if player not in groups:
            raise DatasetError(f"player {player!r} has no scored rounds in {ds.path}")
        groups = [player] + [g for g in groups if g != player]
        return frame, groups, ""
    note = ""
    if len(groups) > max_players:
        note = f"\n(the {max_players} of {len(groups)} players with the most scored rounds)"
        groups = groups[:max_players]
    return frame.filter(pl.col("group").is_in(groups)), groups, note


def _form(rows: pl.LazyFrame) -> str | None:
    """The form of the game of rounds rows ``rows`` as the labels need it, read from the
    rows' shape: ``tientsin`` (six players), ``trichu`` (three persons, four seats) or
    ``four players`` (four seats, with trichu too); None when six and four seats mix."""
    found = frame_forms(rows)
    if "tientsin" in found:
        return "tientsin" if len(found) == 1 else None
    return "trichu" if found == ["trichu"] else FOUR_PLAYERS


def _by_form(form: str | None, four: str, tientsin: str, mixed: str) -> str:
    """The text for rounds of ``form``: ``four`` for four seats (the four-player game and
    trichu), ``tientsin`` for six players, ``mixed`` for both."""
    return tientsin if form == "tientsin" else mixed if form is None else four


def _who(player: str | None) -> str:
    return "" if player is None else f"\n{text(player, 40)} against the rest of the field"


def _player_width(groups: Sequence[str], per: float = 1.6, base: float = 2.0,
                  minimum: float = 8.0) -> float:
    """A figure width that leaves room for the players' tick labels."""
    n = len(groups)
    return max(minimum, base + (per if n <= 6 else 0.75) * n)


def _player_ticks(ax: Axes, groups: Sequence[str], rounds: dict[str, int]) -> None:
    """Player names (and their scored rounds) as the x tick labels of ``ax``."""
    many = len(groups) > 6
    labels = [f"{text(g, 20)}\n{n} round{'s' * (n != 1)}"
              for g in groups for n in (rounds.get(g, 0),)]
    ax.set_xticks(range(len(groups)), labels, rotation=35 if many else 0,
                  ha="right" if many else "center", rotation_mode="anchor", fontsize=9)


def _bar_labels(ax: Axes, xs: Sequence[float], heights: Sequence[float], labels: Sequence[str],
                fontsize: float = 7.5, vertical: bool = False) -> None:
    """Labels on top of bars (turned upright when the bars are narrow, so that neighbours
    do not overlap)."""
    for x, h, label in zip(xs, heights, labels, strict=True):
        y = 0.0 if math.isnan(h) else h
        ax.annotate(label, (x, y), xytext=(0, 2 if y >= 0 else -9), textcoords="offset points",
                    ha="center", va="bottom" if y >= 0 else "top", fontsize=fontsize,
                    color="#333333", rotation=90 if vertical else 0)


# -- score ------------------------------------------------------------------------------


PERSON_COLORS = ("#0072B2", "#E69F00", "#009E73")
"""The three persons' colours in a trichu game's score plot."""


def plot_score(ds: Dataset, player: str | None = None, game: str | None = None) -> Figure:
    """Both teams' running totals over the rounds of one game, with each round's score
    and the calls made in it; in ``trichu`` each person's running total and the points
    it scored in each round (those of the team it sat in)."""
    ds.check_player(player)
    file, game_id = ds.find_game(game, player)
    r = collect(ds.lseats.filter((pl.col("file") == file) & (pl.col("game") == game_id)))
    trichu = "trichu" in frame_forms(r.lazy())
    n_seats = max(4, int(r.get_column("seat").max() or 0) + 1)  # type: ignore[arg-type]
    seats = {int(s): str(p) for s, p in r.select("seat", "player").unique().iter_rows()}
    rounds = sorted(int(x) for x in r.get_column("round").unique().to_list())
    if trichu:  # the seating changes every round: a line per person
        people = sorted(str(p) for p in r.filter(pl.col("role") != "dummy").get_column(
            "player").unique().to_list())
        names = [text(p, 24) for p in people]
        colors: Sequence[str] = PERSON_COLORS
        mine = [p == player for p in people]
        who = [pl.col("player") == p for p in people]
    else:
        members = [[seats.get(s, "?") for s in range(t, n_seats, 2)] for t in (0, 1)]
        names = [f"Team {t}: " + " & ".join(text(m, 24) for m in members[t]) for t in (0, 1)]
        colors = TEAM_COLORS
        mine = [player is not None and player in members[t] for t in (0, 1)]
        who = [pl.col("team") == t for t in (0, 1)]
    per: list[list[float]] = [[] for _ in names]
    status: list[str] = []
    # the calls per round and strip row: a seat's row, in trichu the calling person's
    calls: dict[int, dict[int, list[tuple[str, bool | None]]]] = {}
    for rnd in rounds:
        rows = r.filter(pl.col("round") == rnd)
        status.append(str(rows.get_column("status")[0]))
        for i, cond in enumerate(who):
            s = rows.filter(cond).get_column("team_score").drop_nulls()
            per[i].append(float(s[0]) if len(s) and status[-1] == "scored" else math.nan)
        for rec in rows.filter(pl.col("call").is_not_null()).iter_rows(named=True):
            success = rec["call_success"] if status[-1] == "scored" else None
            mark = "?" if success is None else "\u2713" if success else "\u2717"
            short = "GT" if rec["call"] == "grand_tichu" else "T"
            row, label = int(rec["seat"]), f"{short}{mark}"
            if trichu:  # the dummy's call is its solo player's, named at the dummy's seat
                dummy = rec["role"] == "dummy"
                row = people.index(str(rec["played_by"] if dummy else rec["player"]))
                label += f" ({text(rec['player'], 10)})" if dummy else ""
            calls.setdefault(rnd, {}).setdefault(row, []).append((label, success))
    games = collect(ds.lgames.filter((pl.col("file") == file) & (pl.col("game") == game_id)))
    target = int(games.get_column("target").drop_nulls()[0]) if games.height else None

    fig, (top, bottom, strip) = _new_figure(
        max(8.0, 3.0 + 0.45 * len(rounds)), 9, 3, 1, sharex=True,
        height_ratios=[3, 2, 1.1])
    xs = [0, *rounds]
    for i, label in enumerate(names):
        total, line = 0.0, [0.0]
        for v in per[i]:
            total += 0.0 if math.isnan(v) else v
            line.append(total)
        top.plot(xs, line, marker="o", markersize=4, color=colors[i],
                 linewidth=3 if mine[i] else 1.8, label=label)
        top.annotate(f"{line[-1]:.0f}", (xs[-1], line[-1]), xytext=(5, 0),
                     textcoords="offset points", va="center", color=colors[i],
                     fontweight="bold")
    if target is not None and not trichu:  # trichu's target counts rounds
        top.axhline(target, color=NEUTRAL, linestyle="--", linewidth=1,
                    label=f"target ({target} points)")
    top.axhline(0, color="#999999", linewidth=0.6)
    top.set_ylabel("running total (points)")
    top.legend(loc="upper left", fontsize=9)
    top.grid(axis="y", alpha=0.3)

    width = 0.76 / len(names)
    for i, label in enumerate(names):
        bx = [x + (i - (len(names) - 1) / 2) * width for x in rounds]
        bottom.bar(bx, [0 if math.isnan(v) else v for v in per[i]], width,
                   color=colors[i], label=label if trichu else f"Team {i}")
    for rnd, st in zip(rounds, status, strict=True):
        if st != "scored":
            bottom.annotate(f"{st}:\nnot scored", (rnd, 0), xytext=(0, 4),
                            textcoords="offset points", ha="center", fontsize=7, color=NEUTRAL)
    bottom.axhline(0, color="#999999", linewidth=0.6)
    bottom.set_ylabel("round score\n(cards + calls)" if not trichu
                      else "points of the\nperson's team")
    bottom.grid(axis="y", alpha=0.3)
    bottom.margins(y=0.15)

    # The calls: one row per seat (per person in trichu), a mark per call in the round it
    # was made (two calls of one row in a round side by side).
    for rnd, rows_made in calls.items():
        for row, made in rows_made.items():
            for k, (mark, success) in enumerate(made):
                color = NEUTRAL if success is None else "#009E73" if success else "#D55E00"
                strip.annotate(mark, (rnd, row), xytext=(26 * (k - (len(made) - 1) / 2), 0),
                               textcoords="offset points", ha="center", va="center",
                               fontsize=8 if len(made) == 1 else 6.5, fontweight="bold",
                               color=color)
    if trichu:
        n_rows, row_colors = len(people), list(PERSON_COLORS)
        strip.set_yticks(range(n_rows), names, fontsize=8)
    else:
        n_rows, row_colors = n_seats, [TEAM_COLORS[s % 2] for s in range(n_seats)]
        strip.set_yticks(range(n_seats), [f"seat {s}: {text(seats.get(s, '?'), 18)}"
                                          for s in range(n_seats)], fontsize=8)
    for tick, color in zip(strip.get_yticklabels(), row_colors, strict=False):
        tick.set_color(color)
    strip.set_ylim(n_rows - 0.4, -0.6)
    strip.set_ylabel("calls")
    dummy_note = ("\nrows: the calling person; a name in brackets: the call was made at that "
                  "dummy's seat, by the person playing solo") if trichu else ""
    strip.set_title("T = Tichu, GT = Grand Tichu; \u2713 made (green), \u2717 failed (red), "
                    "? round not scored" + ("" if calls else "; no calls in this game")
                    + dummy_note, fontsize=8, loc="left")
    strip.set_xlabel("round")
    step = 1 if len(rounds) <= 30 else math.ceil(len(rounds) / 30)
    strip.set_xticks([0, *rounds[::step]], ["start", *[str(r) for r in rounds[::step]]])
    strip.grid(axis="x", alpha=0.3)
    winner = games.filter(pl.col("won").fill_null(False))
    outcome = ""
    if winner.height and trichu:
        outcome = f"; won by {text(winner.get_column('player')[0], 24)}"
    elif winner.height:
        outcome = f"; won by Team {int(winner.get_column('team')[0])}"
    elif games.height and not bool(games.get_column("ended").fill_null(False).any()):
        outcome = "; the log ends before the game does"
    fig.suptitle(f"Score progression of game {text(game_id)}{outcome}\n"
                 f"(file {text(file, 70)})", fontsize=12)
    return fig


# -- calls ------------------------------------------------------------------------------


def plot_calls(ds: Dataset, player: str | None = None,
               max_players: int = MAX_PLAYERS) -> Figure:
    """Per player: how often Tichu and Grand Tichu are called, and how often they succeed."""
    frame, groups, note = _scored_by_group(ds, player, max_players)
    agg = frame.group_by("group").agg(
        pl.len().alias("rounds"),
        (pl.col("call") == "tichu").sum().alias("t"),
        ((pl.col("call") == "tichu") & pl.col("call_success").fill_null(False)).sum().alias("tm"),
        (pl.col("call") == "grand_tichu").sum().alias("g"),
        ((pl.col("call") == "grand_tichu") & pl.col("call_success").fill_null(False))
        .sum().alias("gm"),
    )
    by = {str(r["group"]): r for r in collect(agg).iter_rows(named=True)}
    fig, (rate, success) = _new_figure(_player_width(groups), 7.5, 2, 1,
                                       sharex=True)
    xs = list(range(len(groups)))
    w = 0.38
    for off, key, made, name, color in ((-w / 2, "t", "tm", "Tichu", TICHU_COLOR),
                                        (w / 2, "g", "gm", "Grand Tichu", GRAND_COLOR)):
        bx = [x + off for x in xs]
        calls = [int(by[g][key]) for g in groups]
        rounds = [int(by[g]["rounds"]) for g in groups]
        heights = [_pct(c, n) for c, n in zip(calls, rounds, strict=True)]
        rate.bar(bx, heights, w, color=color, label=name)
        _bar_labels(rate, bx, heights, [f"{c}/{n}" for c, n in zip(calls, rounds, strict=True)],
                    vertical=len(groups) > 6)
        wins = [int(by[g][made]) for g in groups]
        sh = [_pct(k, c) for k, c in zip(wins, calls, strict=True)]
        success.bar(bx, [0 if math.isnan(h) else h for h in sh], w, color=color)
        _bar_labels(success, bx, sh, [f"{k}/{c}" if c else "no\ncalls"
                                      for k, c in zip(wins, calls, strict=True)],
                    vertical=len(groups) > 6)
    rate.set_ylabel("calls, % of scored rounds")
    rate.set_title("How often a call is made (label: calls / scored rounds)", fontsize=10,
                   loc="left")
    rate.legend(fontsize=9, loc="lower right", bbox_to_anchor=(1.0, 1.07), ncols=2,
                frameon=False)
    rate.margins(y=0.3 if len(groups) > 6 else 0.15)
    success.set_ylabel("made, % of calls")
    success.set_ylim(0, 135 if len(groups) > 6 else 115)
    success.set_yticks(range(0, 101, 20))
    success.set_title("How often a call succeeds: the caller goes out first "
                      "(label: made / calls)", fontsize=10, loc="left")
    _player_ticks(success, groups, {g: int(by[g]["rounds"]) for g in groups})
    success.set_xlabel("player (scored rounds)")
    for ax in (rate, success):
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(f"Tichu and Grand Tichu calls per player{_who(player)}{note}", fontsize=12)
    return fig


# -- finish -----------------------------------------------------------------------------


def plot_finish(ds: Dataset, player: str | None = None,
                max_players: int = MAX_PLAYERS) -> Figure:
    """Per player: the share of scored rounds finished 1st, 2nd, 3rd and 4th."""
    frame, groups, note = _scored_by_group(ds, player, max_players)
    frame = frame.filter(pl.col("finish_position").is_not_null())
    last = max(4, int(collect(frame.select(pl.col("finish_position").max())).item() or 4))
    agg = frame.group_by("group").agg(
        pl.len().alias("n"), pl.col("finish_position").mean().alias("mean"),
        *[(pl.col("finish_position") == k).sum().alias(f"p{k}") for k in range(1, last + 1)],
    )
    by = {str(r["group"]): r for r in collect(agg).iter_rows(named=True)}
    groups = [g for g in groups if g in by]
    if not groups:
        raise DatasetError(f"{ds.path}: no finish positions to plot")
    fig, (ax,) = _new_figure(10, max(3.6, 1.8 + 0.55 * len(groups)))
    ys = list(range(len(groups)))[::-1]
    left = [0.0] * len(groups)
    names = ("1st (out first)", "2nd", "3rd", "4th (last)") if last == 4 else (
        "1st (out first)", "2nd", "3rd", "4th", "5th", "6th (last)")
    colors = FINISH_COLORS if last == 4 else FINISH_COLORS_SIX
    for k in range(1, last + 1):
        shares = [_pct(by[g][f"p{k}"], by[g]["n"]) for g in groups]
        ax.barh(ys, shares, left=left, color=colors[k - 1], label=names[k - 1],
                edgecolor="white", linewidth=0.5)
        for y, x0, s in zip(ys, left, shares, strict=True):
            if s >= 6:
                ax.text(x0 + s / 2, y, f"{s:.0f}%", ha="center", va="center", fontsize=8,
                        color="white" if k in (1, last) else "black")
        left = [a + b for a, b in zip(left, shares, strict=True)]
    ax.set_yticks(ys, [f"{text(g, 24)}\n{by[g]['n']} round{'s' * (by[g]['n'] != 1)}, "
                       f"average {by[g]['mean']:.2f}"
                       for g in groups])
    ax.set_xlim(0, 100)
    if last == 4:
        ax.axvline(25, color=NEUTRAL, linestyle=":", linewidth=1)
        ax.set_xlabel("% of the player's scored rounds (dotted line: 25%, an even share)")
        legend = "finish position (after a double victory, 3rd and 4th are in seat order)"
        places = "1st, 2nd, 3rd, 4th"
    else:  # tientsin rounds among them: six places
        legend = ("finish position (after a double or triple victory, the losers' places "
                  "are in seat order)")
        places = "1st to 6th"
        if _form(frame) == "tientsin":  # six places only: an even share is one sixth
            ax.axvline(100 / 6, color=NEUTRAL, linestyle=":", linewidth=1)
            ax.set_xlabel("% of the player's scored rounds (dotted line: 1/6, an even share "
                          "of six places)")
        else:  # four- and six-player rounds: no one even share
            ax.set_xlabel("% of the player's scored rounds (six places in tientsin, four "
                          "otherwise)")
    ax.set_ylabel("player")
    ax.legend(ncols=last, loc="lower center", bbox_to_anchor=(0.5, 1.0), fontsize=9,
              title=legend, title_fontsize=8, frameon=False)
    fig.suptitle(f"How often each player finishes {places}{_who(player)}{note}",
                 fontsize=12)
    return fig


# -- points -----------------------------------------------------------------------------


def plot_points(ds: Dataset, player: str | None = None,
                max_players: int = MAX_PLAYERS) -> Figure:
    """Per player: the average round score of the player's team, split into card points
    and call points, against the opponents' average round score."""
    frame, groups, note = _scored_by_group(ds, player, max_players)
    agg = frame.group_by("group").agg(
        pl.len().alias("n"),
        pl.col("team_card_points").mean().alias("cards"),
        pl.col("team_call_points").mean().alias("calls"),
        pl.col("team_score").mean().alias("total"),
        pl.col("opponent_score").mean().alias("opp"),
        # the wish-penalty-200 house rule adds points that are neither (datasets.md)
        (pl.col("team_score") != pl.col("team_card_points") + pl.col("team_call_points"))
        .any().alias("penalty"),
    )
    by = {str(r["group"]): r for r in collect(agg).iter_rows(named=True)}
    total = ("team round score = cards + calls + wish penalties (wish-penalty-200)"
             if any(r["penalty"] for r in by.values()) else "team round score = cards + calls")
    fig, (ax,) = _new_figure(_player_width(groups, 1.8), 6.0)
    victory = _by_form(_form(frame), "200 for a double victory", "300 for a triple victory",
                       "200 for a double victory, 300 for a triple in tientsin")
    series = (("cards", f"card points of the team ({victory})", "#56B4E9"),
              ("calls", f"call points of the team (Tichu \u00b1{call_value('tichu')}, "
                        f"Grand Tichu \u00b1{call_value('grand_tichu')})", "#CC79A7"),
              ("total", total, "#0072B2"),
              ("opp", "opponents' round score", "#999999"))
    w = 0.2
    xs = list(range(len(groups)))
    for i, (key, label, color) in enumerate(series):
        bx = [x + (i - 1.5) * w for x in xs]
        hs = [float(by[g][key]) if by[g][key] is not None else math.nan for g in groups]
        ax.bar(bx, hs, w, color=color, label=label)
        _bar_labels(ax, bx, hs, [f"{h:.0f}" for h in hs], fontsize=7)
    ax.axhline(0, color="#999999", linewidth=0.6)
    ax.set_ylabel("average points per scored round")
    ax.set_xlabel("player (scored rounds)")
    _player_ticks(ax, groups, {g: int(by[g]["n"]) for g in groups})
    ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=2,
              frameon=False)
    ax.grid(axis="y", alpha=0.3)
    ax.margins(y=0.12)
    fig.suptitle(f"Points per round, averaged over the player's scored rounds{_who(player)}"
                 f"{note}", fontsize=12)
    return fig


# -- calibration ------------------------------------------------------------------------


def _bin_edges(values: Sequence[float], bins: int = 8) -> list[float]:
    lo, hi = min(values), max(values)
    if hi <= lo:
        hi = lo + 1.0
    step = (hi - lo) / bins
    return [lo + i * step for i in range(bins)] + [hi]


def _binned(frame: pl.LazyFrame, column: str, hit: pl.Expr,
            edges: Sequence[float]) -> list[tuple[float, int, int]]:
    """(bin centre, hits, rows) per bin of ``column`` with at least one row (the last bin
    includes its upper edge)."""
    lo, step, bins = edges[0], edges[1] - edges[0], len(edges) - 1
    index = ((pl.col(column) - lo) / step).floor().clip(0, bins - 1).cast(pl.Int32)
    agg = collect(frame.select(pl.col(column), hit.alias("hit")).drop_nulls()
                  .group_by(index.alias("bin")).agg(pl.col("hit").sum(), pl.len().alias("n"))
                  .sort("bin"))
    return [((edges[i] + edges[i + 1]) / 2, int(k), int(n)) for i, k, n in agg.iter_rows()]


def plot_calibration(ds: Dataset, player: str | None = None) -> Figure:
    """Hand strength against call success: per strength bin, the share of Tichu (Grand
    Tichu) calls made, with 95% intervals, beside the share of all hands that went out
    first."""
    ds.check_player(player)
    frame = ds.lscored if player is None else ds.lscored.filter(pl.col("player") == player)
    if collect(frame.select(pl.len())).item() == 0:
        raise DatasetError(f"{ds.path}: no scored rounds to plot")
    fig, axes = _new_figure(12, 5.2, 1, 2, sharey=True)
    form = _form(frame)
    cards = _by_form(form, "14 cards", "9\u201310 cards", "14 cards, 9\u201310 in tientsin")
    first = _by_form(form, "first 8 cards", "first 6 cards", "first 8 cards (6 in tientsin)")
    panels = (("tichu", "hx_strength", "Tichu",
               f"hand strength after the exchange ({cards}; higher = stronger)", TICHU_COLOR),
              ("grand_tichu", "h8_strength", "Grand Tichu",
               f"hand strength of the {first}, seen before a Grand Tichu "
               "(higher = stronger)", GRAND_COLOR))
    for ax, (call, column, name, xlabel, color) in zip(axes, panels, strict=True):
        span = collect(ds.lscored.select(pl.col(column).min().alias("lo"),
                                         pl.col(column).max().alias("hi")))
        allv = [v for v in span.row(0) if v is not None]
        if not allv:
            _no_data(ax, "no hand strengths in the dataset")
            ax.set_title(name)
            ax.set_xlabel(xlabel)
            continue
        edges = _bin_edges(allv)
        ref = _binned(frame, column, pl.col("first_out").fill_null(False), edges)
        ax.plot([c for c, _, _ in ref], [_pct(k, n) for _, k, n in ref], linestyle="--",
                marker=".", color=NEUTRAL,
                label="all hands in the bin: went out first\n(called or not)")
        called = frame.filter(pl.col("call") == call)
        pts = _binned(called, column, pl.col("call_success").fill_null(False), edges)
        if pts:
            ys = [_pct(k, n) for _, k, n in pts]
            lows, highs = zip(*(_wilson(k, n) for _, k, n in pts), strict=True)
            ax.errorbar([c for c, _, _ in pts], ys,
                        yerr=[[y - lo for y, lo in zip(ys, lows, strict=True)],
                              [hi - y for y, hi in zip(ys, highs, strict=True)]],
                        marker="o", markersize=6, capsize=3, color=color, linewidth=1.8,
                        label=f"{name} calls made (95% interval;\nlabel = made / calls)")
            for (c, k, n), hi in zip(pts, highs, strict=True):
                ax.annotate(f"{k}/{n}", (c, hi), xytext=(0, 3), textcoords="offset points",
                            ha="center", va="bottom", fontsize=7.5, color=color)
        else:
            _no_data(ax, f"no {name} calls" + (f" by {text(player)}" if player else ""))
        n_calls, n_made = collect(called.select(
            pl.len(), pl.col("call_success").fill_null(False).sum())).row(0)
        ax.set_title(f"{name}: {n_made} of {n_calls} calls made", fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylim(-3, 112)
        ax.margins(x=0.08)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=2,
                  frameon=False)
    axes[0].set_ylabel("% of the hands in the strength bin")
    who = "" if player is None else f" \u2014 {text(player)}"
    fig.suptitle(f"Calibration: does a stronger hand make the call succeed?{who}", fontsize=12)
    return fig


# -- bombs ------------------------------------------------------------------------------


def plot_bombs(ds: Dataset, player: str | None = None,
               max_players: int = MAX_PLAYERS) -> Figure:
    """How many bombs a round sees (all seats, the trichu dummy's too), and per player the
    bombs held after the exchange and played, per scored round."""
    frame, groups, note = _scored_by_group(ds, player, max_players)
    rounds = ds.lseats.filter(pl.col("status") == "scored")
    if player is not None:
        keys = ds.lscored.filter(pl.col("player") == player).select("file", "game", "round")
        rounds = rounds.join(keys, on=["file", "game", "round"], how="semi")
    # one group per round, keyed by a hash of (file, game, round): small keys
    per_round = rounds.group_by(pl.struct("file", "game", "round").hash().alias("key")).agg(
        pl.col("bombs_played").sum().alias("b"))
    counts = collect(per_round.group_by(pl.col("b").clip(upper_bound=4)).agg(
        pl.len().alias("n")))
    dist = {int(b): int(n) for b, n in counts.iter_rows()}
    n_rounds = sum(dist.values())
    right_width = _player_width(groups, 1.5, 1.0, minimum=4.5)
    fig, (left, right) = _new_figure(5.0 + right_width, 5.5, 1, 2,
                                     width_ratios=[5.0, right_width])
    xs = list(range(5))
    hs = [_pct(dist.get(b, 0), n_rounds) for b in xs]
    left.bar(xs, hs, 0.7, color=GRAND_COLOR, label=f"scored rounds (n = {n_rounds})")
    _bar_labels(left, xs, hs, [f"{dist.get(b, 0)}" for b in xs])
    left.set_xticks(xs, ["0", "1", "2", "3", "4+"])
    form = _form(ds.lscored)
    seats = ("all four seats, the dummy's too" if form == "trichu" else
             _by_form(form, "all four seats", "all six seats",
                      "all seats (six in tientsin, else four)"))
    left.set_xlabel(f"bombs played in the round, by {seats}")
    left.set_ylabel("% of scored rounds (label: rounds)")
    left.set_title("Rounds by number of bombs" + ("" if player is None else
                                                   " (the player's rounds)"), fontsize=10)
    left.legend(fontsize=8)
    left.margins(y=0.12)
    agg = frame.group_by("group").agg(
        pl.len().alias("n"), pl.col("hx_bombs").sum().alias("held"),
        pl.col("bombs_played").sum().alias("played"))
    by = {str(r["group"]): r for r in collect(agg).iter_rows(named=True)}
    gx = list(range(len(groups)))
    w = 0.38
    for off, key, label, color in ((-w / 2, "held", "bombs held after the exchange", "#E69F00"),
                                   (w / 2, "played", "bombs played", GRAND_COLOR)):
        bx = [x + off for x in gx]
        vals = [int(by[g][key] or 0) for g in groups]
        ns = [int(by[g]["n"]) for g in groups]
        ph = [v / n if n else math.nan for v, n in zip(vals, ns, strict=True)]
        right.bar(bx, ph, w, color=color, label=label)
        _bar_labels(right, bx, ph, [str(v) for v in vals], fontsize=7)
    right.set_ylabel("bombs per scored round (label: bombs)")
    right.set_xlabel("player (scored rounds)")
    _player_ticks(right, groups, {g: int(by[g]["n"]) for g in groups})
    right.set_title("Bombs held and played per player", fontsize=10)
    right.legend(fontsize=8)
    right.margins(y=0.15)
    for ax in (left, right):
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(f"Bombs per round{_who(player)}{note}", fontsize=12)
    return fig


# -- exchange ---------------------------------------------------------------------------

RANK_ORDER = ("Dog", "Mahjong", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
              "A", "Phoenix", "Dragon")


def card_rank(token: str) -> str:
    """The rank of a card token (``10s`` -> ``10``); special cards are their own rank."""
    return token if token in ("Dog", "Mahjong", "Phoenix", "Dragon") else token[:-1]


def plot_exchange(ds: Dataset, player: str | None = None) -> Figure:
    """The ranks of the cards passed in the exchange: to the partner against to the
    opponents (left and right together), each as a share of the cards given that way."""
    ds.check_player(player)
    frame = ds.lrounds if player is None else ds.lrounds.filter(pl.col("player") == player)

    def ranks(column: str) -> Counter[str]:
        out: Counter[str] = Counter()
        counts = collect(frame.select(pl.col(column).explode().drop_nulls()).group_by(
            column).agg(pl.len().alias("n")))
        for card, n in counts.iter_rows():
            out[card_rank(card)] += n
        return out

    # the lists hold two partners' cards in tientsin, the two opponents' in trichu
    partner = ranks("gave_to_partners")
    opponents = ranks("gave_to_opponents")
    if not partner and not opponents:
        raise DatasetError(f"{ds.path}: no exchanges to plot"
                           + (f" for player {player!r}" if player else ""))
    fig, (ax,) = _new_figure(11, 5.2)
    xs = list(range(len(RANK_ORDER)))
    w = 0.4
    form = _form(frame)  # tientsin: to the two partners, none to the opponents
    to_partner = _by_form(form, "to the partner", "to the two partners",
                          "to the partner (the two partners in tientsin)")
    to_opponents = _by_form(form, "to the opponents (left and right)",
                            "to the opponents (none in tientsin)",
                            "to the opponents (left and right; none in tientsin)")
    for off, cards, label, color in ((-w / 2, partner, to_partner, "#009E73"),
                                     (w / 2, opponents, to_opponents, "#D55E00")):
        n = sum(cards.values())
        hs = [_pct(cards[r], n) for r in RANK_ORDER]
        ax.bar([x + off for x in xs], hs, w, color=color, label=f"{label}: {n} cards")
    ax.set_xticks(xs, list(RANK_ORDER), fontsize=9)
    ax.set_xlabel("rank of the card passed (low to high; the Phoenix and Dragon are the "
                  "strongest singles)")
    ax.set_ylabel("% of the cards passed that way")
    ax.legend(fontsize=9, title="cards passed", title_fontsize=9, loc="best")
    ax.grid(axis="y", alpha=0.3)
    who = " by all players" if player is None else f" by {text(player)}"
    fig.suptitle(f"Exchange: ranks passed to the partner and to the opponents{who}",
                 fontsize=12)
    return fig


# -- trend ------------------------------------------------------------------------------


def plot_trend(ds: Dataset, player: str | None = None, window: int | None = None,
               max_players: int = 6) -> Figure:
    """Per player (the ``max_players`` with most scored rounds, or ``player``): the
    first-out rate over the player's last ``window`` games, and the cumulative point
    margin, game by game in the order the games started (one point per game: the figure
    does not grow with the rounds)."""
    from .stats import game_times

    frame, groups, note = _scored_by_group(ds, player, max_players)
    if player is not None:
        groups = [player]
        frame = frame.filter(pl.col("group") == player)
    per_game = collect(frame.group_by("group", "file", "game").agg(
        pl.len().alias("rounds"), pl.col("first_out").fill_null(False).sum().alias("first"),
        (pl.col("team_score") - pl.col("opponent_score")).fill_null(0).sum().alias("margin")))
    games = per_game.select(pl.struct("file", "game").n_unique()).item()
    if games < MIN_TREND_GAMES:
        of = "" if player is None else f" of {clean(player)}"
        raise DatasetError(f"{ds.path}: {games} game{'s' * (games != 1)}{of} with a scored "
                           f"round; a trend needs {MIN_TREND_GAMES} or more")
    order = game_times(ds).with_row_index("order")
    ordered = per_game.join(order, on=["file", "game"], how="left").sort(
        "start", "order", nulls_last=True)
    fig, (top, bottom) = _new_figure(11, 7.5, 2, 1, sharex=True)
    colors = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9")
    for i, g in enumerate(groups):
        rows = ordered.filter(pl.col("group") == g)
        n = rows.height
        w = window or max(3, min(50, n // 5))
        first = rows.get_column("first").cast(pl.Float64).rolling_sum(w, min_samples=w)
        played = rows.get_column("rounds").cast(pl.Float64).rolling_sum(w, min_samples=w)
        rolling = (100 * first / played).to_list()
        xs = list(range(1, n + 1))
        color = colors[i % len(colors)]
        top.plot(xs, rolling, color=color, linewidth=1.6,
                 label=f"{text(g, 24)} ({n} games, window {w})")
        bottom.plot(xs, rows.get_column("margin").cum_sum().to_list(), color=color,
                    linewidth=1.6, label=text(g, 24))
    form = _form(frame)
    ylabel = "first out, % of the scored\nrounds of the last games"
    if form is None:  # four and six players: no one even share
        ylabel += "\n(no even-share line: the rounds\nmix four and six players)"
    else:  # the dotted line: an even share, one of the round's players
        top.axhline(100 / (6 if form == "tientsin" else 4), color=NEUTRAL, linestyle=":",
                    linewidth=1)
    top.set_ylabel(ylabel)
    top.set_ylim(0, 100)
    top.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.04), ncols=3,
               frameon=False)
    top.grid(alpha=0.3)
    bottom.axhline(0, color="#999999", linewidth=0.6)
    bottom.set_ylabel("cumulative point margin\n(team minus opponents)")
    bottom.set_xlabel("the player's games, in the order they started (by ts, else "
                      "meta.date, else the dataset's order)")
    bottom.grid(alpha=0.3)
    who = "" if player is None else f"\n{text(player, 40)}"  # drawn alone, not the field
    fig.suptitle(f"Trend: first-out rate and point margin over time{who}{note}", fontsize=12)
    return fig


def plot(ds: Dataset, kind: PlotKind, player: str | None = None, game: str | None = None,
         max_players: int = MAX_PLAYERS, only: str | None = None) -> Figure:
    """The figure of ``kind`` (``game`` only matters to :attr:`PlotKind.SCORE`).
    ``only``: the rounds ``ds`` was narrowed to, in words (``Filters.describe``), added
    to the title.

    Raises :class:`DatasetError` for an unknown player or game, or nothing to plot.
    """
    from matplotlib import rc_context

    with rc_context({"font.family": _font_family()}):  # names in any script: font fallback
        fig = _plot(ds, PlotKind(kind), player, game, max_players)
        if only:
            fig.suptitle(f"{fig.get_suptitle()}\nonly the rounds {text(only, 120)}",
                         fontsize=12)
        return fig


def _plot(ds: Dataset, kind: PlotKind, player: str | None, game: str | None,
          max_players: int) -> Figure:
    if kind is PlotKind.SCORE:
        return plot_score(ds, player, game)
    if kind is PlotKind.CALIBRATION:
        return plot_calibration(ds, player)
    if kind is PlotKind.EXCHANGE:
        return plot_exchange(ds, player)
    if kind is PlotKind.TREND:
        return plot_trend(ds, player, max_players=min(max_players, 6))
    per_player = {PlotKind.CALLS: plot_calls, PlotKind.FINISH: plot_finish,
                  PlotKind.POINTS: plot_points, PlotKind.BOMBS: plot_bombs}[kind]
    return per_player(ds, player, max_players)


FORMATS = ("png", "svg", "pdf")


def render(fig: Figure, fmt: str) -> bytes:
    """``fig`` as PNG, SVG or PDF bytes (no date in the metadata: output is reproducible)."""
    import warnings

    buf = io.BytesIO()
    metadata: dict[str, str | None] = ({"Date": None} if fmt == "svg"
                                       else {"CreationDate": None} if fmt == "pdf"
                                       else {"Software": None})
    with warnings.catch_warnings():
        # A character no installed font has is drawn as a box; the user is not warned
        # (the install commands add a font with wide coverage).
        warnings.filterwarnings("ignore", message=r"Glyph .* missing from")
        warnings.filterwarnings("ignore", message=r".*does not have a glyph for")
        fig.savefig(buf, format=fmt, dpi=110, metadata=metadata)
    return buf.getvalue()


def save(fig: Figure, path: str | Path) -> None:
    """Write ``fig`` to ``path`` (atomically), PNG, SVG or PDF by its suffix."""
    p = Path(path)
    fmt = p.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise DatasetError(f"{p}: the plot file must end in .png, .svg or .pdf")
    write_atomic(p, render(fig, fmt))
