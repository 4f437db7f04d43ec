"""Statistics over the Parquet datasets, shared by the text and HTML reports.

Every statistic is a :class:`Stat`: a numerator *and* the denominator it is out
of, with the name of what the denominator counts ("scored rounds", "Tichu
calls"), so a report can always say "45% (9 / 20 Tichu calls)". The
statistics are declared once, as pairs of polars expressions in
:data:`PLAYER_STATS` and :data:`TEAM_STATS`, and computed per player, per
partnership, or for one player against the rest of the field.

Round statistics count *scored* rounds only (status ``scored``): incomplete and
skipped rounds have no finish order or score to count.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import TypeVar

import polars as pl

from ..common.safetext import clean
from ..common.safetext import name as shown
from ..data.datasets import DatasetError, scan

TABLES = ("plays", "rounds", "games", "violations")

ROUND_COLUMNS = (
    "file", "game", "round", "status", "seat", "team", "partner", "player", "call",
    "call_success", "finish_position", "first_out", "double_victory_for",
    "double_victory_against", "card_points", "team_card_points", "team_call_points", "team_score",
    "opponent_score", "h8_strength", "hx_strength", "hx_bombs", "hx_mahjong",
    "gave_to_left", "gave_to_partner", "gave_to_right", "got_from_partner", "dragon_gifts_given",
    "dragon_gifts_received", "bombs_played", "wish_made", "wish_fulfilled",
    "played_by", "role", "partners", "team_victory_for", "team_victory_against",
    "gave_to_partners", "gave_to_opponents", "got_from_partners",
)
GAME_COLUMNS = (
    "file", "game", "line", "seat", "team", "partner", "player", "target", "rounds_played",
    "team_score", "opponent_score", "won", "ended", "meta", "partners", "person_score",
)

_NO_NAME = pl.lit(None, pl.String)
_SINCE_VERSION_2: dict[str, dict[str, pl.Expr]] = {
    "rounds": {
        "played_by": pl.col("player"),
        "role": _NO_NAME,
        "partners": pl.concat_list("partner"),
        "team_victory_for": pl.col("double_victory_for"),
        "team_victory_against": pl.col("double_victory_against"),
        "gave_to_partners": pl.concat_list("gave_to_partner"),
        "gave_to_opponents": pl.concat_list("gave_to_left", "gave_to_right"),
        "got_from_partners": pl.concat_list("got_from_partner"),
    },
    "games": {"partners": pl.concat_list("partner"), "person_score": pl.lit(None, pl.Int32)},
    "plays": {"played_by": pl.col("player")},
}
"""The columns dataset version 2 added, as they read in a dataset of version 1 (four-player
games only), so that reports and plots still read one."""
VIOLATION_COLUMNS = (
    "file", "line", "game", "round", "trick", "seat", "player", "code", "name", "severity",
    "message",
)
PLAY_COLUMNS = ("file", "game", "round", "trick", "line", "ts", "seat", "player", "action",
                "applied", "cards", "bomb", "went_out", "top_seat", "played_by")

_VIOLATION_SCHEMA: dict[str, type[pl.DataType] | pl.DataType] = {
    "file": pl.String, "line": pl.Int64, "game": pl.String, "round": pl.Int64,
    "trick": pl.Int64, "seat": pl.Int64, "player": pl.String, "code": pl.String,
    "name": pl.String, "severity": pl.String, "message": pl.String,
}
_PLAY_SCHEMA: dict[str, type[pl.DataType] | pl.DataType] = {
    "file": pl.String, "game": pl.String, "round": pl.Int32, "trick": pl.Int32,
    "line": pl.Int32, "ts": pl.Float64, "seat": pl.Int8, "player": pl.String,
    "action": pl.String, "applied": pl.Boolean, "cards": pl.List(pl.String),
    "bomb": pl.Boolean, "went_out": pl.Boolean, "top_seat": pl.Int8, "played_by": pl.String,
}

FIELD = "(rest of the field)"
"""Row label of everyone but the focused player (``--player``)."""

NO_PLAYER = "(no seat)"
"""Row label of violations that belong to no seat (a broken line, a bad deal)."""

MIN_CASES = 20
"""A rate out of fewer cases than this is shown greyed: too few to read much into."""


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials, as fractions;
    None when ``n`` is 0."""
    if n <= 0:
        return None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # clamped so that rounding never puts p outside its own interval
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def _scan(root: Path, table: str) -> pl.LazyFrame | None:
    """:func:`datasets.scan`, or None when the table has no files."""
    try:
        return scan(root, table)
    except DatasetError:
        return None


def collect(lf: pl.LazyFrame) -> pl.DataFrame:
    """``lf`` run by polars' streaming engine (in batches: bounded memory)."""
    return lf.collect(engine="streaming")


KEPT_BYTES = 4096
"""A player name (or a violation's message, which quotes names) longer than this, in
UTF-8 bytes, is read for the reports cut to ``KEPT_BYTES - 1`` characters and ``…``
(:func:`kept`): a 1 MB name costs then what a short one does, in every aggregation and
on every page (the dataset keeps it whole). Names alike in all their first characters
are one player in the reports."""

_NAME_COLUMNS = ("player", "partner", "played_by", "message")


def kept(text: str | None) -> str | None:
    """``text`` as the reports read names and messages (:data:`KEPT_BYTES`): for a name
    given on the command line, so that it matches."""
    if text is None or len(text) <= KEPT_BYTES // 4 or len(text.encode()) <= KEPT_BYTES:
        return text
    return text[:KEPT_BYTES - 1] + "\u2026"


def _kept(e: pl.Expr) -> pl.Expr:
    """:func:`kept` as a polars expression."""
    return pl.when(e.str.len_bytes() > KEPT_BYTES).then(
        e.str.slice(0, KEPT_BYTES - 1) + pl.lit("\u2026")).otherwise(e)


def _long_names(rounds: pl.LazyFrame) -> bool:
    """Whether a player's name in the rounds table is longer than :data:`KEPT_BYTES`."""
    longest = rounds.select(pl.col("player").str.len_bytes().max()).collect().item()
    return longest is not None and longest > KEPT_BYTES


def _spooled(tables: dict[str, pl.LazyFrame]) -> dict[str, pl.LazyFrame]:
    """``tables`` (with names cut: :func:`_columns`) written once to Parquet files in a
    temporary folder (removed at exit) and scanned from there: every later query of a
    dataset with names of megabytes then reads the names cut, instead of decoding the
    whole names again (in streaming: memory stays bounded)."""
    import atexit
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="tichu-analyze-names-"))
    atexit.register(shutil.rmtree, folder, True)
    out = {}
    for table, lf in tables.items():
        path = folder / f"{table}.parquet"
        lf.sink_parquet(path)
        out[table] = pl.scan_parquet(path)
    return out


def _columns(lf: pl.LazyFrame, wanted: Sequence[str], root: Path, table: str) -> pl.LazyFrame:
    try:
        have = set(lf.collect_schema().names())
    except (pl.exceptions.PolarsError, OSError) as e:
        raise DatasetError(f"{root}: cannot read the {table} table: {e}") from None
    added = {c: e for c, e in _SINCE_VERSION_2.get(table, {}).items() if c not in have}
    missing = [c for c in wanted if c not in have and c not in added]
    if missing:
        raise DatasetError(
            f"{root}: the {table} table lacks the columns {', '.join(missing)} "
            "(written by another version of tichu-analyze? run 'tichu-analyze ingest' again)"
        )
    if added:
        lf = lf.with_columns(e.alias(c) for c, e in added.items())
    names = [_kept(pl.col(c)).alias(c) for c in _NAME_COLUMNS if c in wanted]
    if "partners" in wanted:
        names.append(pl.col("partners").list.eval(_kept(pl.element())).alias("partners"))
    return lf.select(wanted).with_columns(names)


_PERSON = pl.col("role").is_null() | (pl.col("role") != "dummy")
"""The rows of persons: all but the ``trichu`` dummy's."""


def _persons(violations: pl.DataFrame, rounds: pl.LazyFrame) -> pl.DataFrame:
    """``violations`` with the diagnostics at a ``trichu`` dummy's seat credited to the
    solo player who played it (``rounds.played_by``), as its moves are."""
    keys = ["file", "game", "round", "seat"]
    dummies = collect(rounds.filter(pl.col("role") == "dummy").select(*keys, "played_by"))
    if dummies.is_empty() or violations.is_empty():
        return violations
    dummies = dummies.with_columns(pl.col("round").cast(violations.schema["round"]),
                                   pl.col("seat").cast(violations.schema["seat"]))
    return (violations.with_row_index("__row").join(dummies, on=keys, how="left")
            .sort("__row").with_columns(pl.coalesce("played_by", "player").alias("player"))
            .drop("played_by", "__row"))


@dataclass(frozen=True, eq=False)
class Dataset:
    """The four tables of a dataset written by ``tichu-analyze ingest``.

    ``lseats`` (every seat's rows), ``lgames`` and ``plays`` are lazy scans: the report's
    tables are aggregated from them with polars' streaming engine, so memory does not
    grow with the dataset beyond the tables printed. ``lrounds`` are the rows of persons:
    every seat's but the ``trichu`` dummy's (its hand is played by the solo player, whose
    own row credits it with the solo side's points), which the statistics per player
    count. ``rounds``, ``games`` and ``scored`` collect them (once) for the plots and the
    pages of single games; ``violations`` is held in memory.
    """

    path: Path
    lseats: pl.LazyFrame
    lgames: pl.LazyFrame
    violations: pl.DataFrame
    plays: pl.LazyFrame

    @property
    def lrounds(self) -> pl.LazyFrame:
        """The rounds rows of persons (the ``trichu`` dummy's left out), lazily."""
        return self.lseats.filter(_PERSON)

    @cached_property
    def seat_rows(self) -> pl.DataFrame:
        """Every seat's rounds rows (the ``trichu`` dummy's included), in memory."""
        return collect(self.lseats)

    @classmethod
    def load(cls, path: str | Path) -> Dataset:
        """Read the dataset directory ``path``; :class:`DatasetError` when it is none."""
        root = Path(path)
        if not root.exists():
            raise DatasetError(f"{root}: no such dataset directory")
        if not root.is_dir():
            raise DatasetError(f"{root}: not a directory (a dataset is the directory written "
                               "by 'tichu-analyze ingest PATH --out DIR')")
        rounds_lf, games_lf = _scan(root, "rounds"), _scan(root, "games")
        if rounds_lf is None or games_lf is None:
            raise DatasetError(
                f"{root}: not a tichu-analyze dataset, or an empty one (no Parquet files "
                "under rounds/ and games/); write one with 'tichu-analyze ingest PATH --out DIR'"
            )
        violations_lf = _scan(root, "violations")
        plays_lf = _scan(root, "plays")
        try:
            rounds = _columns(rounds_lf, ROUND_COLUMNS, root, "rounds")
            games = _columns(games_lf, GAME_COLUMNS, root, "games")
            violations = (
                pl.DataFrame(schema=_VIOLATION_SCHEMA) if violations_lf is None
                else _persons(_columns(violations_lf, VIOLATION_COLUMNS, root, "violations")
                              .collect(), rounds)
            )
            plays = (
                pl.LazyFrame(schema=_PLAY_SCHEMA) if plays_lf is None
                else _columns(plays_lf, PLAY_COLUMNS, root, "plays")
            )
            empty = rounds.select(pl.len()).collect().item() == 0
            if not empty and _long_names(rounds_lf):
                rounds, games, plays = _spooled({"rounds": rounds, "games": games,
                                                 "plays": plays}).values()
        except (pl.exceptions.PolarsError, OSError) as e:
            raise DatasetError(f"{root}: cannot read the dataset: {e}") from None
        if empty:
            raise DatasetError(f"{root}: the dataset holds no rounds")
        return cls(root, rounds, games, violations, plays)

    @cached_property
    def rounds(self) -> pl.DataFrame:
        """The rounds table, in memory."""
        return collect(self.lrounds)

    @cached_property
    def games(self) -> pl.DataFrame:
        """The games table, in memory."""
        return collect(self.lgames)

    @property
    def lscored(self) -> pl.LazyFrame:
        """The rows of the rounds that could be scored, lazily."""
        return self.lrounds.filter(pl.col("status") == "scored")

    @cached_property
    def players(self) -> list[str]:
        """Every player name, sorted."""
        names = collect(self.lrounds.select(pl.col("player").drop_nulls().unique()))
        return sorted(names.get_column("player").to_list())

    @cached_property
    def seat_names(self) -> list[str]:
        """Every name a seat had, sorted: the players' and, in ``trichu``, the dummy's."""
        names = collect(self.lseats.select(pl.col("player").drop_nulls().unique()))
        return sorted(names.get_column("player").to_list())

    def check_player(self, player: str | None, *, seat: bool = False) -> None:
        """:class:`DatasetError` naming the players there are when ``player`` is not one
        (``seat``: nor the name of a seat, the ``trichu`` dummy's, as a partner or an
        opponent may be)."""
        if player is None or player in set(self.seat_names if seat else self.players):
            return
        raise DatasetError(f"no player {player!r} in {self.path}; the players are: "
                           + _some_names(self.players))

    @cached_property
    def scored(self) -> pl.DataFrame:
        """The rows of the rounds that could be scored, in memory."""
        return collect(self.lscored)

    def game_keys(self) -> list[tuple[str, str]]:
        """Every (file, game), in the order they start in their files."""
        keys = collect(self.lrounds.select("file", "game").unique())
        first_line = collect(self.lgames.group_by("file", "game").agg(
            pl.col("line").min().alias("first_line")))
        keys = keys.join(first_line, on=["file", "game"], how="left")
        keys = keys.sort("file", "first_line", "game", nulls_last=True)
        return list(zip(keys.get_column("file").to_list(), keys.get_column("game").to_list(),
                        strict=True))

    def find_game(self, game: str | None, player: str | None = None) -> tuple[str, str]:
        """The (file, game) named ``game`` (a game id, or ``FILE:GAME`` when the id is in
        several files); the first game (of ``player``, when given) when ``game`` is None."""
        keys = self.game_keys()
        if player is not None:
            of_player = set(collect(
                self.lrounds.filter(pl.col("player") == player).select("file", "game")
            ).iter_rows())
            keys = [k for k in keys if k in of_player]
        if not keys:
            raise DatasetError(f"{self.path}: no games" + (f" of player {player!r}"
                                                          if player else ""))
        if game is None:
            return keys[0]
        found = [k for k in keys if game in (k[1], f"{k[0]}:{k[1]}")]
        if len(found) == 1:
            return found[0]
        if found:
            raise DatasetError(
                f"game {game!r} is in {len(found)} files; name one as FILE:GAME: "
                + ", ".join(f"{clean(f)}:{shown(g)}" for f, g in found[:10])
            )
        ids = Counter(g for _, g in keys)  # an id in several files: as -g takes it
        names = [shown(g) if ids[g] == 1 else f"{clean(f)}:{shown(g)}" for f, g in keys]
        listed = ", ".join(names[:20])
        more = f" and {len(names) - 20} more" if len(names) > 20 else ""
        who = f" of player {player!r}" if player else ""
        raise DatasetError(f"no game {game!r}{who} in {self.path}; the games are: {listed}{more}")


def parse_when(text: str) -> datetime:
    """A ``--since``/``--until`` value: an ISO date or date and time (UTC unless it says
    otherwise); ValueError when it is neither."""
    when = datetime.fromisoformat(text.strip())
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def game_times(ds: Dataset) -> pl.DataFrame:
    """(file, game, start): when each game started, in seconds since the epoch: the
    earliest ``ts`` of its moves, else ``meta.date`` (an ISO date) of its ``game_start``;
    null when neither is known."""
    first = collect(ds.plays.group_by("file", "game").agg(pl.col("ts").min().alias("ts")))
    dates: dict[tuple[str, str], float | None] = {}
    metas = collect(ds.lgames.filter(pl.col("meta").is_not_null()).unique(["file", "game"])
                    .select("file", "game", "meta"))
    for f, g, meta in metas.select("file", "game", pl.col("meta").str.json_path_match(
            "$.date")).iter_rows():
        try:
            dates[(f, g)] = parse_when(meta).timestamp() if meta else None
        except ValueError:
            dates[(f, g)] = None
    keys = collect(ds.lrounds.select("file", "game").unique()).join(
        first, on=["file", "game"], how="left")
    meta_ts = pl.DataFrame(
        {"file": [k[0] for k in dates], "game": [k[1] for k in dates],
         "meta_ts": list(dates.values())},
        schema={"file": pl.String, "game": pl.String, "meta_ts": pl.Float64})
    return (keys.join(meta_ts, on=["file", "game"], how="left")
            .select("file", "game", pl.coalesce("ts", "meta_ts").alias("start")))


@dataclass(frozen=True, slots=True)
class Filters:
    """Which rounds a report or plot counts (``--partner``, ``--opponent``, ``--since``,
    ``--until``, ``--game``); ``player`` is the focused player the first two refer to."""

    player: str | None = None
    partner: str | None = None
    opponent: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    game: str | None = None

    @property
    def active(self) -> bool:
        """Whether any rounds are left out."""
        return any(x is not None for x in (self.partner, self.opponent, self.since,
                                           self.until, self.game))

    def describe(self) -> str:
        """The filters in words, after "Only the rounds" in a report's header; empty when
        none."""
        parts = []
        if self.partner is not None:
            parts.append(f"with partner {shown(self.partner)}")
        if self.opponent is not None:
            parts.append(f"against {shown(self.opponent)}")
        if self.since is not None:  # (a time with an offset is shown in UTC)
            parts.append(f"of games from {self.since.astimezone(UTC):%Y-%m-%d %H:%M} UTC")
        if self.until is not None:
            parts.append(f"of games until {self.until.astimezone(UTC):%Y-%m-%d %H:%M} UTC")
        if self.game is not None:
            parts.append(f"of game {shown(self.game)}")
        return "; ".join(parts)


def _some_names(names: list[str], most: int = 30) -> str:
    """The first ``most`` of ``names``, quoted, and how many more there are."""
    more = f" and {len(names) - most} more" if len(names) > most else ""
    return ", ".join(f"'{shown(p)}'" for p in names[:most]) + more


def apply_filters(ds: Dataset, f: Filters) -> Dataset:
    """``ds`` restricted to the rounds ``f`` selects (the games, violations and moves of
    those rounds); :class:`DatasetError` when a name is unknown or nothing is left."""
    ds.check_player(f.player)
    if not f.active:
        return ds
    if (f.partner is not None or f.opponent is not None) and f.player is None:
        raise DatasetError("--partner and --opponent need --player (whose partner or "
                           "opponent they name)")
    for who in (f.partner, f.opponent):
        ds.check_player(who, seat=True)
    keys = collect(ds.lrounds.select("file", "game", "round").unique())
    mine = collect(ds.lrounds.filter(pl.col("player") == (f.player or "")))
    if f.partner is not None:
        keys = keys.join(mine.filter(pl.col("partners").list.contains(f.partner)),
                         on=["file", "game", "round"], how="semi")
    if f.opponent is not None:
        opp = collect(ds.lseats.filter(pl.col("player") == f.opponent).select(
            "file", "game", "round", pl.col("team").alias("opp_team")))
        against = mine.join(opp, on=["file", "game", "round"]).filter(
            pl.col("team") != pl.col("opp_team"))
        keys = keys.join(against, on=["file", "game", "round"], how="semi")
    if f.since is not None or f.until is not None:
        times = game_times(ds)
        if times.height and times.get_column("start").null_count() == times.height:
            raise DatasetError(
                f"{ds.path}: no game has a start time (no ts on its moves, no "
                "game_start.meta.date; .tch files record neither), so --since and --until "
                "keep no round")
        if f.since is not None:
            times = times.filter(pl.col("start") >= f.since.timestamp())
        if f.until is not None:
            times = times.filter(pl.col("start") <= f.until.timestamp())
        keys = keys.join(times, on=["file", "game"], how="semi")
    if f.game is not None:
        file, game = ds.find_game(f.game)
        keys = keys.filter((pl.col("file") == file) & (pl.col("game") == game))
    if keys.is_empty():
        raise DatasetError(f"{ds.path}: no rounds match the filters ({f.describe()})")
    on = ["file", "game", "round"]
    if f.player is not None and mine.join(keys, on=on, how="semi").is_empty():
        there = sorted(collect(ds.lrounds.join(keys.lazy(), on=on, how="semi").select(
            pl.col("player").drop_nulls().unique())).get_column("player").to_list())
        raise DatasetError(f"{ds.path}: {f.player!r} played none of the rounds that match "
                           f"the filters ({f.describe()}); their players are: "
                           + _some_names(there))
    games = keys.select("file", "game").unique()
    v = ds.violations.join(games, on=["file", "game"], how="semi")
    v = pl.concat([v.filter(pl.col("round").is_null()),
                   v.filter(pl.col("round").is_not_null()).join(
                       keys.with_columns(pl.col("round").cast(v.schema["round"])), on=on,
                       how="semi")])
    return Dataset(
        ds.path,
        ds.lseats.join(keys.lazy(), on=on, how="semi"),
        ds.lgames.join(games.lazy(), on=["file", "game"], how="semi"),
        v,
        ds.plays.join(keys.lazy().with_columns(pl.col("round").cast(pl.Int32)),
                            on=on, how="semi"),
    )


class StatKind(StrEnum):
    """How a statistic's value is shown."""

    PERCENT = "percent"  # numerator / denominator as a percentage
    MEAN = "mean"        # numerator / denominator as a number (an average, a rate per round)
    COUNT = "count"      # the numerator itself, "of" the denominator
    PER_100 = "per100"   # numerator / denominator * 100: "per 100 moves"


@dataclass(frozen=True, slots=True)
class Stat:
    """A statistic: ``numerator`` out of ``denominator`` ``unit`` (e.g. 20 "Tichu calls")."""

    numerator: float
    denominator: int
    unit: str
    kind: StatKind = StatKind.PERCENT

    @property
    def value(self) -> float | None:
        """The ratio (the count for :attr:`StatKind.COUNT`); None when the denominator is 0."""
        if self.kind is StatKind.COUNT:
            return self.numerator
        if not self.denominator:
            return None
        scale = 100 if self.kind is StatKind.PER_100 else 1
        return scale * self.numerator / self.denominator

    @property
    def few(self) -> bool:
        """A rate out of fewer than :data:`MIN_CASES` cases (never for a count)."""
        return self.kind is not StatKind.COUNT and self.denominator < MIN_CASES

    def interval(self) -> str:
        """The 95% Wilson interval of a percentage, ``26-64%``; empty for other kinds."""
        if self.kind is not StatKind.PERCENT:
            return ""
        ci = wilson(self.numerator, self.denominator)
        if ci is None:
            return ""
        return f"{100 * ci[0]:.0f}\u2013{100 * ci[1]:.0f}%"

    def short(self) -> str:
        """The value alone: ``45.0%``, ``2.35``, ``40``; ``-`` when there is nothing to count."""
        v = self.value
        if v is None:
            return "-"
        if self.kind is StatKind.PERCENT:
            return f"{100 * v:.1f}%"
        if self.kind is StatKind.MEAN:
            return f"{v:.2f}" if abs(v) < 10 else f"{v:.1f}"
        if self.kind is StatKind.PER_100:
            return f"{v:.2f} per 100"
        return _number(v)

    def detail(self, unit: bool = True) -> str:
        """Numerator and denominator: ``9 / 20 Tichu calls``, ``of 42 rounds played``
        (without the unit, for a table whose header names it: ``9 / 20``)."""
        what = f" {self.unit}" if unit else ""
        if self.kind is StatKind.COUNT:
            return f"of {self.denominator}{what}"
        return f"{_number(self.numerator)} / {self.denominator}{what}"

    def __str__(self) -> str:
        return f"{self.short()} ({self.detail()})"


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


@dataclass(frozen=True, slots=True)
class StatDef:
    """One statistic: its label, what the denominator counts, and how both are computed
    (polars aggregations over a group of rows of the rounds or team-rounds frame)."""

    key: str
    label: str
    unit: str
    kind: StatKind
    numerator: pl.Expr
    denominator: pl.Expr
    doc: str
    section: str


_call = pl.col("call")
_is_tichu = (_call == "tichu").fill_null(False)
_is_grand = (_call == "grand_tichu").fill_null(False)
_success = pl.col("call_success").fill_null(False)
_rows = pl.len()

PLAYER_STATS: tuple[StatDef, ...] = (
    StatDef("rounds", "Rounds", "rounds played", StatKind.COUNT,
            (pl.col("status") == "scored").sum(), _rows,
            "scored rounds, of all rounds the player sat in (incomplete and skipped rounds "
            "are not scored)", "Rounds"),
    StatDef("first_out", "First out", "scored rounds", StatKind.PERCENT,
            pl.col("first_out").fill_null(False).sum(), _rows,
            "rounds in which the player went out first", "Rounds"),
    StatDef("avg_finish", "Average finish", "rounds with a finish position", StatKind.MEAN,
            pl.col("finish_position").sum(), pl.col("finish_position").count(),
            "mean finish position, 1 = first out (after a double victory the losers' "
            "3rd and 4th places are in seat order)", "Rounds"),
    StatDef("double_for", "Double victory won", "scored rounds", StatKind.PERCENT,
            pl.col("team_victory_for").fill_null(False).sum(), _rows,
            "rounds the player's team went out first and second (in tientsin all three "
            "first: the triple victory)", "Rounds"),
    StatDef("double_against", "Double victory lost", "scored rounds", StatKind.PERCENT,
            pl.col("team_victory_against").fill_null(False).sum(), _rows,
            "rounds the opponents went out first and second (or all three first)", "Rounds"),
    StatDef("tichu_rate", "Tichu called", "scored rounds", StatKind.PERCENT,
            _is_tichu.sum(), _rows, "rounds in which the player called Tichu", "Calls"),
    StatDef("tichu_success", "Tichu made", "Tichu calls", StatKind.PERCENT,
            (_is_tichu & _success).sum(), _is_tichu.sum(),
            "Tichu calls the player made good by going out first", "Calls"),
    StatDef("grand_rate", "Grand Tichu called", "scored rounds", StatKind.PERCENT,
            _is_grand.sum(), _rows, "rounds in which the player called Grand Tichu", "Calls"),
    StatDef("grand_success", "Grand Tichu made", "Grand Tichu calls", StatKind.PERCENT,
            (_is_grand & _success).sum(), _is_grand.sum(),
            "Grand Tichu calls the player made good by going out first", "Calls"),
    StatDef("points", "Team points per round", "scored rounds", StatKind.MEAN,
            pl.col("team_score").sum(), _rows,
            "the player's team's round score (card points + calls, 200 for a double "
            "victory), averaged; in trichu the score of the team the player sat in",
            "Points"),
    StatDef("margin", "Point margin per round", "scored rounds", StatKind.MEAN,
            (pl.col("team_score") - pl.col("opponent_score")).sum(), _rows,
            "team round score minus the opponents' round score, averaged", "Points"),
    StatDef("card_points", "Own card points per round", "scored rounds", StatKind.MEAN,
            pl.col("card_points").sum(), _rows,
            "card points in the tricks the player holds when the round ends, before the last "
            "player's hand and tricks are handed over",
            "Points"),
    StatDef("bombs_played", "Bombs played per round", "scored rounds", StatKind.MEAN,
            pl.col("bombs_played").sum(), _rows, "bombs the player played", "Bombs"),
    StatDef("bombs_held", "Bombs held per round", "scored rounds", StatKind.MEAN,
            pl.col("hx_bombs").sum(), _rows,
            "bombs in the player's hand after the exchange", "Bombs"),
    StatDef("dragon_given", "Dragon tricks given per round", "scored rounds", StatKind.MEAN,
            pl.col("dragon_gifts_given").sum(), _rows,
            "tricks won with the Dragon that the player gave away: to an opponent, or to a "
            "partner against the rules (G001), counted too", "Dragon and wish"),
    StatDef("dragon_received", "Dragon tricks received per round", "scored rounds", StatKind.MEAN,
            pl.col("dragon_gifts_received").sum(), _rows,
            "Dragon tricks given to the player: by an opponent, or by a partner against the "
            "rules (G001), counted too", "Dragon and wish"),
    StatDef("wish_made", "Wish made", "rounds holding the Mahjong", StatKind.PERCENT,
            pl.col("wish_made").is_not_null().sum(), pl.col("hx_mahjong").fill_null(False).sum(),
            "rounds the player wished for a rank, of the rounds the player held the Mahjong "
            "after the exchange (a Mahjong still in hand at the end makes no wish)",
            "Dragon and wish"),
    StatDef("wish_fulfilled", "Wish fulfilled", "wishes made", StatKind.PERCENT,
            pl.col("wish_fulfilled").fill_null(False).sum(),
            pl.col("wish_made").is_not_null().sum(),
            "the player's wishes that some play fulfilled before the round ended",
            "Dragon and wish"),
)
"""The per-player statistics, over the player's rows of the rounds table."""

# Over the rows of all partners of a team (two per round, three in tientsin): per-round facts
# shared by the rows are divided among them (each row's ``share``: one over the team's
# size), a partner's own facts (calls, first out, bombs) summed.
_share = pl.col("share")


def _per_team(expr: pl.Expr) -> pl.Expr:
    """``expr`` (a number per row) summed over the rows of a group, each row counting
    for its share of its team: the per-round total."""
    return (expr.cast(pl.Float64) * _share).sum()


def _team_count(expr: pl.Expr) -> pl.Expr:
    """:func:`_per_team` of a condition: the rounds it held in, a whole number."""
    return _per_team(expr).round(0).cast(pl.Int64)


_pair_rows = _team_count(pl.lit(1))
TEAM_STATS: tuple[StatDef, ...] = (
    StatDef("rounds", "Rounds", "rounds played", StatKind.COUNT,
            _team_count(pl.col("status") == "scored"), _pair_rows,
            "scored rounds the partners played together, of all their rounds", "Rounds"),
    StatDef("first_out", "First out", "scored rounds", StatKind.PERCENT,
            pl.col("first_out").fill_null(False).sum(), _pair_rows,
            "rounds one of the partners went out first", "Rounds"),
    StatDef("double_for", "Double victory won", "scored rounds", StatKind.PERCENT,
            _team_count(pl.col("team_victory_for").fill_null(False)), _pair_rows,
            "rounds the partners went out 1st and 2nd (in tientsin 1st to 3rd)", "Rounds"),
    StatDef("double_against", "Double victory lost", "scored rounds", StatKind.PERCENT,
            _team_count(pl.col("team_victory_against").fill_null(False)), _pair_rows,
            "rounds the opponents went out 1st and 2nd (in tientsin 1st to 3rd)", "Rounds"),
    StatDef("tichu_success", "Tichu made", "Tichu calls", StatKind.PERCENT,
            (_is_tichu & _success).sum(), _is_tichu.sum(),
            "Tichu calls by either partner that succeeded", "Calls"),
    StatDef("grand_success", "Grand Tichu made", "Grand Tichu calls", StatKind.PERCENT,
            (_is_grand & _success).sum(), _is_grand.sum(),
            "Grand Tichu calls by either partner that succeeded", "Calls"),
    StatDef("points", "Points per round", "scored rounds", StatKind.MEAN,
            _per_team(pl.col("team_score")), _pair_rows, "the team's round score, averaged",
            "Points"),
    StatDef("margin", "Point margin per round", "scored rounds", StatKind.MEAN,
            _per_team(pl.col("team_score") - pl.col("opponent_score")), _pair_rows,
            "the team's round score minus the opponents', averaged", "Points"),
    StatDef("bombs_played", "Bombs played per round", "scored rounds", StatKind.MEAN,
            pl.col("bombs_played").sum(), _pair_rows, "bombs played by either partner",
            "Bombs"),
)
"""The per-partnership statistics, over the rows of all partners (:func:`team_rows`)."""


@dataclass(frozen=True, slots=True)
class StatTable:
    """Rows of statistics: ``rows[label][stat key]``, with the definitions for the columns."""

    title: str
    row_header: str
    defs: tuple[StatDef, ...]
    rows: dict[str, dict[str, Stat]]


Frame = pl.DataFrame | pl.LazyFrame


def _aggregate(frame: Frame, by: str, defs: Sequence[StatDef],
               pairs: bool = False) -> dict[str, dict[str, Stat]]:
    """``defs`` computed over ``frame`` grouped by column ``by``, in the order of most rows
    (a lazy frame is aggregated by the streaming engine); with ``pairs``, a partnership's
    rows make a round (each row counting for its ``share``, :func:`team_rows`)."""
    return {str(key[0]): stats for key, stats in _aggregate_by(frame, [by], defs, pairs)}


def _aggregate_by(frame: Frame, keys: list[str], defs: Sequence[StatDef], pairs: bool = False
                  ) -> list[tuple[tuple[object, ...], dict[str, Stat]]]:
    """:func:`_aggregate` grouped by the columns ``keys``: (key values, statistics) in the
    order of most rows."""
    by = keys
    lf = frame.lazy()
    scored = lf.filter(pl.col("status") == "scored")
    aggs = []
    for d in defs:
        if d.kind is StatKind.COUNT:
            continue  # over all rounds, below
        aggs += [d.numerator.alias(f"{d.key}__n"), d.denominator.alias(f"{d.key}__d")]
    counts = lf.group_by(by).agg(
        _team_count(pl.lit(1)).alias("__all") if pairs else pl.len().alias("__all"),
        (_team_count(pl.col("status") == "scored") if pairs
         else (pl.col("status") == "scored").sum()).alias("__scored"),
    )
    # two small results joined in memory: one streaming query each keeps memory low
    table = collect(counts)
    if aggs:
        table = table.join(collect(scored.group_by(by).agg(aggs)), on=by, how="left")
    table = table.sort(["__scored", "__all", *by],
                       descending=[True, True, *([False] * len(by))])
    out: list[tuple[tuple[object, ...], dict[str, Stat]]] = []
    for rec in table.iter_rows(named=True):
        stats: dict[str, Stat] = {}
        for d in defs:
            if d.kind is StatKind.COUNT:
                stats[d.key] = Stat(rec["__scored"], rec["__all"], d.unit, d.kind)
            else:
                stats[d.key] = Stat(rec[f"{d.key}__n"] or 0, int(rec[f"{d.key}__d"] or 0),
                                    d.unit, d.kind)
        out.append((tuple(rec[k] for k in by), stats))
    return out


_F = TypeVar("_F", pl.DataFrame, pl.LazyFrame)


def focus(frame: _F, player: str | None, column: str = "player") -> _F:
    """``frame`` with a ``group`` column: the player's name, or everyone else as FIELD."""
    if player is None:
        return frame.with_columns(pl.col(column).alias("group"))
    return frame.with_columns(
        pl.when(pl.col(column) == player).then(pl.lit(player)).otherwise(pl.lit(FIELD))
        .alias("group")
    )


VICTORY_LABELS = {"double_for": "Double (triple in tientsin) victory won",
                  "double_against": "Double (triple in tientsin) victory lost"}
"""The headers of the team-victory columns when the rounds hold ``tientsin`` rounds, whose
team victory is the triple one."""


def victory_headers(defs: tuple[StatDef, ...], ds: Dataset) -> tuple[StatDef, ...]:
    """``defs``, with the team-victory columns headed :data:`VICTORY_LABELS` when ``ds``
    holds ``tientsin`` rounds (four-player and trichu datasets keep "Double victory")."""
    if "tientsin" not in forms(ds):
        return defs
    return tuple(replace(d, label=VICTORY_LABELS.get(d.key, d.label)) for d in defs)


def player_table(ds: Dataset, player: str | None = None) -> StatTable:
    """:data:`PLAYER_STATS` per player; with ``player``, that player against the field."""
    ds.check_player(player)
    rows = _aggregate(focus(ds.lrounds, player), "group", PLAYER_STATS)
    if player is not None:  # the player first, then the field
        rows = {k: rows[k] for k in sorted(rows, key=lambda k: k != player)}
    title = "Players" if player is None else f"{shown(player)} against the rest of the field"
    return StatTable(title, "player", victory_headers(PLAYER_STATS, ds), rows)


def team_label(*names: str) -> str:
    """The name of a partnership: its players, sorted, joined by `` & ``."""
    return " & ".join(sorted(names))


_TEAM_LABEL = pl.concat_list("player", "partners").list.sort().list.join(" & ")
""":func:`team_label` of a row's player and its partners."""


def team_rows(ds: Dataset) -> pl.LazyFrame:
    """Every seat's rounds rows (the ``trichu`` dummy's too: a partner of the solo player)
    with each row's partnership (``team_label``) and its ``share`` of the team's round (one
    over the team's size)."""
    return ds.lseats.with_columns(
        _TEAM_LABEL.alias("team_label"),
        (1.0 / (pl.col("partners").list.len() + 1)).alias("share"))


def team_table(ds: Dataset, player: str | None = None) -> StatTable:
    """:data:`TEAM_STATS` per partnership (with ``player``: only the player's partnerships)."""
    ds.check_player(player)
    t = team_rows(ds)
    if player is not None:
        t = t.filter((pl.col("player") == player) | pl.col("partners").list.contains(player))
    rows = _aggregate(t, "team_label", TEAM_STATS, pairs=True)
    title = "Partnerships" if player is None else f"Partnerships of {shown(player)}"
    return StatTable(title, "partnership", victory_headers(TEAM_STATS, ds), rows)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Games won by a player or partnership: ``won`` of ``decided`` (of ``played``)."""

    won: int
    decided: int
    played: int

    def stat(self) -> Stat:
        return Stat(self.won, self.decided, "games with a winner")


def games_won(ds: Dataset, by: str = "player", player: str | None = None) -> dict[str,
                                                                                   GameRecord]:
    """Games won per player (``by="player"``) or per partnership (``by="team"``)."""
    g = ds.lgames
    if by == "team":  # trichu games have no teams (they change every round)
        g = g.filter(pl.col("team").is_not_null()).with_columns(
            _TEAM_LABEL.alias("group")).unique(["file", "game", "team"])
        if player is not None:
            g = g.filter((pl.col("player") == player)
                         | pl.col("partners").list.contains(player))
    else:
        g = focus(g, player)
    agg = g.group_by("group").agg(
        pl.col("won").fill_null(False).sum().alias("won"),
        pl.col("won").is_not_null().sum().alias("decided"),
        pl.len().alias("played"),
    )
    return {str(r["group"]): GameRecord(r["won"], r["decided"], r["played"])
            for r in collect(agg).iter_rows(named=True)}


@dataclass(frozen=True, slots=True)
class ViolationTable:
    """Violations counted per row (player) and code, with each row's moves as denominator."""

    codes: list[tuple[str, str]]          # (code, name), sorted by code
    counts: dict[str, dict[str, int]]     # row -> code -> count
    moves: dict[str, int]                 # row -> plays and passes by that player

    def total(self, row: str) -> Stat:
        """All violations of ``row`` per 100 of its moves."""
        n = sum(self.counts.get(row, {}).values())
        return Stat(n, self.moves.get(row, 0), "moves", StatKind.PER_100)


def moves(ds: Dataset, player: str | None = None) -> dict[str, int]:
    """Plays and passes per player (per player/FIELD with ``player``)."""
    lf = ds.plays.filter(pl.col("action").is_in(["play", "pass"])).with_columns(
        pl.col("played_by").alias("player"))  # the dummy's moves are its solo player's
    if player is not None:
        lf = lf.with_columns(
            pl.when(pl.col("player") == player).then(pl.lit(player)).otherwise(pl.lit(FIELD))
            .alias("player")
        )
    counts = collect(lf.group_by("player").agg(pl.len().alias("n")))
    return {str(p): int(n) for p, n in counts.iter_rows()}


def violation_table(ds: Dataset, player: str | None = None) -> ViolationTable:
    """Violations by player and code (with ``player``: that player against the field)."""
    ds.check_player(player)
    v = ds.violations.with_columns(pl.col("player").fill_null(NO_PLAYER))
    if player is not None:
        v = v.filter(pl.col("player") != NO_PLAYER)
        v = focus(v, player).with_columns(pl.col("group").alias("player"))
    codes = sorted(v.select("code", "name").unique().iter_rows(), key=lambda r: (r[0], r[1]))
    counts: dict[str, dict[str, int]] = {}
    for p, code, n in v.group_by("player", "code").agg(pl.len()).iter_rows():
        counts.setdefault(str(p), {})[str(code)] = int(n)
    return ViolationTable([(str(c), str(n)) for c, n in codes], counts, moves(ds, player))


@dataclass(frozen=True, slots=True)
class Overview:
    """What a dataset holds."""

    files: int
    games: int
    games_ended: int
    """Games played to the end: a ``game_end`` was seen, or a winner is known."""
    rounds: int
    rounds_by_status: dict[str, int]
    players: int
    violations: int


def overview(ds: Dataset, player: str | None = None) -> Overview:
    """Counts of files, games, rounds (by status), players and violations
    (of ``player``'s games, rounds and violations when given)."""
    r = ds.lseats if player is None else ds.lrounds.filter(pl.col("player") == player)
    g = ds.lgames if player is None else ds.lgames.filter(pl.col("player") == player)
    v = ds.violations if player is None else ds.violations.filter(pl.col("player") == player)
    if player is None:  # one row per round: the first seat's (a substitute takes the
        # seat in the round's substitutes, not in a row of its own)
        r = r.filter(pl.col("seat") == 0)
    by_status = dict(collect(r.group_by("status").agg(pl.len())).iter_rows())
    # one per game of the games table (a seat that changed hands has a row per occupant),
    # played to the end: its game_end, or a winner (a .tch log records no end; as 'games'
    # and the datasets' `won` read it)
    g = g.group_by("file", "game").agg(
        (pl.col("ended").fill_null(False) | pl.col("won").is_not_null()).any().alias("end"))
    games = collect(g.select(pl.len().alias("n"), pl.col("end").sum().alias("ended")))
    files = collect(r.select(pl.col("file").n_unique())).item()
    return Overview(
        files=int(files),
        games=int(games.get_column("n")[0]),
        games_ended=int(games.get_column("ended")[0]),
        rounds=sum(int(n) for n in by_status.values()),
        rounds_by_status={str(k): int(n) for k, n in sorted(by_status.items())},
        players=len(ds.players),
        violations=v.height,
    )


def player_violations(ds: Dataset, player: str, limit: int = 100) -> pl.DataFrame:
    """The first ``limit`` violations of ``player``, in file and line order."""
    ds.check_player(player)
    return (ds.violations.filter(pl.col("player") == player)
            .sort("file", "line", nulls_last=True).head(limit))


# -- depth: what a strong player studies -------------------------------------------------

TICHU_BINS = (0.0, 3.0, 6.0, 9.0)
"""Edges of the strength bands of the 14 cards after the exchange (``hx_strength``):
below 0, 0 to 3, 3 to 6, 6 to 9, 9 and more."""
GRAND_BINS = (0.0, 2.0, 4.0, 6.0)
"""Edges of the strength bands of the first 8 cards (``h8_strength``)."""


@dataclass(frozen=True, slots=True)
class Column:
    """A column of a :class:`Grid`: its label and what its cells are out of."""

    label: str
    sub: str


@dataclass(frozen=True, slots=True)
class Grid:
    """A table of statistics that is not one row per :class:`StatDef`: each cell a
    :class:`Stat`, a text, or None (nothing to show)."""

    key: str
    title: str
    note: str
    row_header: str
    columns: tuple[Column, ...]
    rows: list[tuple[str, list[Stat | str | None]]]


def _band(column: str, edges: Sequence[float]) -> pl.Expr:
    """The strength band label of ``column`` (``< 0``, ``0 to 3``, ..., ``9+``)."""
    labels = band_labels(edges)
    expr: pl.Expr = pl.lit(labels[-1])
    for edge, label in zip(reversed(edges), reversed(labels[:-1]), strict=True):
        expr = pl.when(pl.col(column) < edge).then(pl.lit(label)).otherwise(expr)
    return expr


def band_labels(edges: Sequence[float]) -> list[str]:
    """The labels of the strength bands of ``edges``, weakest first."""
    return ([f"< {edges[0]:g}"] + [f"{a:g} to {b:g}" for a, b in zip(edges, edges[1:],
                                                                    strict=False)]
            + [f"{edges[-1]:g}+"])


_MARGIN = pl.col("team_score") - pl.col("opponent_score")


def call_expected_value(ds: Dataset, call: str, player: str | None = None) -> Grid:
    """Point margin per scored round with a ``call`` (``tichu`` or ``grand_tichu``)
    against rounds without one, by the strength of the hand (of ``player``, or of
    everyone)."""
    grand = call == "grand_tichu"
    column, edges = ("h8_strength", GRAND_BINS) if grand else ("hx_strength", TICHU_BINS)
    name = "Grand Tichu" if grand else "Tichu"
    frame = ds.lscored if player is None else ds.lscored.filter(pl.col("player") == player)
    # Not calling: no call at all (for Tichu), no Grand Tichu (a Tichu may follow) for GT.
    other = pl.col("call").is_null() if not grand else (pl.col("call") != call).fill_null(True)
    frame = frame.filter(pl.col(column).is_not_null()).with_columns(
        _band(column, edges).alias("band"), _MARGIN.alias("margin"))
    agg = frame.group_by("band").agg(
        (pl.col("call") == call).fill_null(False).sum().alias("n_call"),
        pl.col("margin").filter(pl.col("call") == call).sum().alias("m_call"),
        other.sum().alias("n_none"),
        pl.col("margin").filter(other).sum().alias("m_none"),
    )
    by = {str(r["band"]): r for r in collect(agg).iter_rows(named=True)}
    rows: list[tuple[str, list[Stat | str | None]]] = []
    for band in band_labels(edges):
        r = by.get(band)
        n_call, n_none = (int(r["n_call"]), int(r["n_none"])) if r else (0, 0)
        with_call = Stat(float(r["m_call"] or 0) if r else 0, n_call, f"{name} calls",
                         StatKind.MEAN)
        without = Stat(float(r["m_none"] or 0) if r else 0, n_none, "rounds", StatKind.MEAN)
        diff = (f"{with_call.value - without.value:+.1f}"
                if with_call.value is not None and without.value is not None else None)
        rows.append((band, [with_call, without, diff]))
    who = "the field" if player is None else shown(player)
    found = frame_forms(frame)  # the hands' sizes as the rows' form of the game has them
    hand, also = ("first 8 cards" if grand else "14 cards after the exchange"), ""
    if "tientsin" in found:  # six players: 6 cards, then 9 or 10 (rules.md 9.2)
        six = "first 6 cards" if grand else "9 or 10 cards after the exchange"
        hand, also = (six, "") if len(found) == 1 else (hand, f"; the {six} in tientsin")
    return Grid(
        f"ev-{'grand' if grand else 'tichu'}",
        f"Expected value of {name} calls ({who})",
        f"Point margin per scored round (team round score minus the opponents') by the "
        f"strength of the {hand} ({column}{also}), when the player called {name} and when "
        + ("the player made no call." if not grand else "the player called no Grand Tichu."),
        f"{column}",
        (Column(f"with a {name} call", "average margin over the calls"),
         Column("without", "average margin over the rounds"),
         Column("difference", "points per round")),
        rows)


def calibration_table(ds: Dataset, player: str | None = None) -> Grid:
    """Per player: Tichu and Grand Tichu calls made, against the share an average hand of
    the same strength goes out first (the field's first-out rate in the call's band)."""
    # the base rate of a band is that of the hands of the same form of the game: one of
    # six goes out first in tientsin, one of four otherwise
    s = ds.lscored.with_columns(_band("hx_strength", TICHU_BINS).alias("tband"),
                               _band("h8_strength", GRAND_BINS).alias("gband"),
                               _FORM.alias("form"))
    fo = pl.col("first_out").fill_null(False).cast(pl.Float64)
    base_t = collect(s.group_by("form", "tband").agg(fo.mean().alias("base_t"))).lazy()
    base_g = collect(s.group_by("form", "gband").agg(fo.mean().alias("base_g"))).lazy()
    s = (s.join(base_t, on=["form", "tband"], how="left")
         .join(base_g, on=["form", "gband"], how="left"))
    s = focus(s, player)
    agg = s.group_by("group").agg(
        pl.len().alias("rounds"),
        _is_tichu.sum().alias("t"), (_is_tichu & _success).sum().alias("tm"),
        pl.col("base_t").filter(_is_tichu).sum().alias("te"),
        _is_grand.sum().alias("g"), (_is_grand & _success).sum().alias("gm"),
        pl.col("base_g").filter(_is_grand).sum().alias("ge"),
    ).sort(["rounds", "group"], descending=[True, False])
    rows: list[tuple[str, list[Stat | str | None]]] = []
    for r in collect(agg).iter_rows(named=True):
        t, g = int(r["t"]), int(r["g"])
        rows.append((str(r["group"]), [
            Stat(int(r["tm"]), t, "Tichu calls"),
            Stat(round(float(r["te"] or 0), 1), t, "Tichu calls"),
            Stat(int(r["gm"]), g, "Grand Tichu calls"),
            Stat(round(float(r["ge"] or 0), 1), g, "Grand Tichu calls"),
        ]))
    if player is not None:
        rows.sort(key=lambda row: row[0] != player)
    return Grid(
        "calibration", "Call calibration",
        "Calls made against calls expected: the expected share is, for each call, the share "
        "of all scored hands of the same strength band (hx_strength for Tichu, h8_strength "
        "for Grand Tichu, whoever held them) and of the same form of the game (four "
        "players, tientsin, trichu) that went out first, averaged over the calls. "
        "Making more than expected means calling well; fewer, calling too eagerly.",
        "player",
        (Column("Tichu made", "% of Tichu calls"),
         Column("Tichu expected", "% of Tichu calls"),
         Column("Grand Tichu made", "% of Grand Tichu calls"),
         Column("Grand Tichu expected", "% of Grand Tichu calls")),
        rows)


def rank_value(token: str) -> int:
    """A card's rank for averages: Dog 0, Mahjong 1, 2 ... 10, J 11, Q 12, K 13, A 14,
    Phoenix 15, Dragon 16."""
    special = {"Dog": 0, "Mahjong": 1, "Phoenix": 15, "Dragon": 16}
    if token in special:
        return special[token]
    rank = token[:-1]
    return {"J": 11, "Q": 12, "K": 13, "A": 14}.get(rank) or int(rank)


_RANK_VALUE = {f"{r}{s}": rank_value(f"{r}{s}") for r in ("2", "3", "4", "5", "6", "7", "8",
                                                         "9", "10", "J", "Q", "K", "A")
               for s in "jspr"} | {t: rank_value(t) for t in ("Dog", "Mahjong", "Phoenix",
                                                               "Dragon")}

EXCHANGE_WAYS = (("gave_to_left", "to the left opponent"),
                 ("gave_to_partners", "to the partner"),
                 ("gave_to_right", "to the right opponent"),
                 ("got_from_partners", "from the partner"))
"""The exchange table's columns: the rounds column and what it shows. The partner's are
lists (two partners in tientsin, none in trichu), the opponents' single cards (none in
tientsin, where the exchange goes to the partners only)."""


def exchange_table(ds: Dataset, player: str | None = None) -> Grid:
    """Per player, the cards given to each seat and received from the partner: their
    average rank and the share of Aces or better (Ace, Phoenix, Dragon)."""
    frame = focus(ds.lrounds, player)
    order = collect(frame.group_by("group").agg(pl.len().alias("rounds")).sort(
        ["rounds", "group"], descending=[True, False])).get_column("group").to_list()
    # cards given per player, way and card: a small table, whatever the dataset's size
    given: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for col, _ in EXCHANGE_WAYS:
        passed = frame.select("group", col)
        if col.endswith("s"):  # a list per row
            passed = passed.explode(col)
        counts = collect(passed.filter(pl.col(col).is_not_null()).group_by("group", col)
                         .agg(pl.len().alias("n")))
        for g, card, n in counts.iter_rows():
            given.setdefault((str(g), col), []).append((str(card), int(n)))
    rows: list[tuple[str, list[Stat | str | None]]] = []
    for g in order:
        cells: list[Stat | str | None] = []
        for col, _ in EXCHANGE_WAYS:
            cards = given.get((str(g), col), [])
            n = sum(k for _, k in cards)
            total = sum(_RANK_VALUE.get(c, 0) * k for c, k in cards)
            high = sum(k for c, k in cards if _RANK_VALUE.get(c, 0) >= 14)
            cells.append(Stat(total, n, "cards", StatKind.MEAN))
            cells.append(Stat(high, n, "cards"))
        rows.append((str(g), cells))
    if player is not None:
        rows.sort(key=lambda row: row[0] != player)
    columns: list[Column] = []
    for _, way in EXCHANGE_WAYS:
        columns += [Column(f"rank {way}", "average over the cards (2 = 2, A = 14)"),
                    Column(f"A or better {way}", "% of the cards")]
    return Grid(
        "exchange", "Exchange by recipient",
        "The card each player passed to the left opponent, the partner and the right "
        "opponent, and the card it received from its partner: the average rank (Dog 0, "
        "Mahjong 1, 2 ... 10, J 11, Q 12, K 13, A 14, Phoenix 15, Dragon 16) and the share "
        "of Aces or better (Ace, Phoenix, Dragon). Rounds whose exchange did not complete "
        "are not counted. In tientsin the cards go to the two partners only, in trichu to "
        "the two opponents only.",
        "player", tuple(columns), rows)


def overplays(ds: Dataset) -> pl.LazyFrame:
    """(file, game, round, seat, overplayed): how many times, in each round, a partner
    of ``seat`` (a seat of its team: ``seat % 2``) played over a combination of ``seat``
    (an applied play on its top)."""
    return (ds.plays.filter((pl.col("action") == "play") & pl.col("applied").fill_null(False)
                            & pl.col("top_seat").is_not_null()
                            & (pl.col("seat") != pl.col("top_seat"))
                            & ((pl.col("seat").cast(pl.Int16) - pl.col("top_seat")) % 2 == 0))
            .group_by("file", "game", "round", pl.col("top_seat").alias("seat"))
            .agg(pl.len().alias("overplayed"))
            .with_columns(pl.col("round").cast(pl.Int32), pl.col("seat").cast(pl.Int8)))


def partner_support(ds: Dataset, player: str | None = None) -> Grid:
    """How a player's Tichu calls fare by partner (with ``player``; per player without):
    calls made, and how often the partner played over the caller's combination."""
    s = ds.lscored.filter(_is_tichu)
    if player is not None:
        s = s.filter(pl.col("player") == player).with_columns(
            pl.col("partners").list.join(" & ").alias("group"))
    else:
        s = s.with_columns(pl.col("player").alias("group"))
    keys = ["file", "game", "round", "seat"]
    calls = collect(s.with_columns(pl.col("round").cast(pl.Int32), pl.col("seat").cast(pl.Int8)))
    over = collect(overplays(ds).join(calls.lazy().select(keys), on=keys, how="semi"))
    s = calls.join(over, on=keys, how="left").with_columns(
        pl.col("overplayed").fill_null(0)).lazy()
    agg = s.group_by("group").agg(
        pl.len().alias("calls"), _success.sum().alias("made"),
        (pl.col("overplayed") > 0).sum().alias("over_calls"),
        pl.col("overplayed").sum().alias("over"),
    ).sort(["calls", "group"], descending=[True, False])
    rows: list[tuple[str, list[Stat | str | None]]] = []
    for r in collect(agg).iter_rows(named=True):
        n = int(r["calls"])
        rows.append((str(r["group"]), [
            Stat(int(r["made"]), n, "Tichu calls"),
            Stat(int(r["over_calls"]), n, "Tichu calls"),
            Stat(int(r["over"]), n, "Tichu calls", StatKind.MEAN),
        ]))
    return Grid(
        "support",
        "Partner support" + ("" if player is None else f" of {shown(player)}'s Tichu"),
        "Tichu calls in scored rounds" + (", by the partner the caller had" if player else "")
        + ": how many were made, in how many the partner played over a combination of the "
        "caller at least once (taking the trick from the caller unless someone beat it "
        "again), and how many times it did so per call.",
        "partner" if player else "player",
        (Column("Tichu made", "% of Tichu calls"),
         Column("partner played over", "% of Tichu calls"),
         Column("plays over the caller", "per Tichu call")),
        rows)


_WITH_DEFS = tuple(d for d in PLAYER_STATS if d.key in ("rounds", "first_out", "margin"))


def with_and_against(ds: Dataset, player: str) -> tuple[StatTable, StatTable]:
    """The player's rounds, first-out rate and point margin per partner and per opponent."""
    ds.check_player(player)
    mine = ds.lrounds.filter(pl.col("player") == player)
    by_partner = mine.with_columns(pl.col("partners").alias("group")).explode("group")
    opp = ds.lrounds.select("file", "game", "round", pl.col("team").alias("opp_team"),
                           pl.col("player").alias("group"))
    by_opp = mine.join(opp, on=["file", "game", "round"]).filter(
        pl.col("team") != pl.col("opp_team"))
    return (StatTable(f"{shown(player)} by partner", "partner", _WITH_DEFS,
                      _aggregate(by_partner, "group", _WITH_DEFS)),
            StatTable(f"{shown(player)} by opponent", "opponent", _WITH_DEFS,
                      _aggregate(by_opp, "group", _WITH_DEFS)))


def every_player(ds: Dataset) -> tuple[dict[str, Stat], dict[str, dict[str, Stat]]]:
    """The field (every player's rounds together) and each player, :data:`PLAYER_STATS`:
    two grouped queries over the rounds, for pages of every player."""
    field = _aggregate(ds.lrounds.with_columns(pl.lit(FIELD_ALL).alias("group")), "group",
                       PLAYER_STATS)
    return field.get(FIELD_ALL, {}), _aggregate(ds.lrounds, "player", PLAYER_STATS)


FIELD_ALL = "(every player)"
"""The row of every player's rounds together, on a player's page of the site."""


def partners_and_opponents(ds: Dataset) -> tuple[
        dict[str, list[tuple[str, dict[str, Stat]]]], dict[str, list[tuple[str, dict[str, Stat]]]]]:
    """:func:`with_and_against` for every player at once (one grouped query each): per
    player, its partners and its opponents with their statistics, most rounds first."""
    by_partner = ds.lrounds.with_columns(pl.col("partners").alias("group")).explode("group")
    opp = ds.lrounds.select("file", "game", "round", pl.col("team").alias("opp_team"),
                           pl.col("player").alias("group"))
    by_opp = ds.lrounds.join(opp, on=["file", "game", "round"]).filter(
        pl.col("team") != pl.col("opp_team"))
    out: list[dict[str, list[tuple[str, dict[str, Stat]]]]] = []
    for frame in (by_partner.filter(pl.col("group").is_not_null()), by_opp):
        rows: dict[str, list[tuple[str, dict[str, Stat]]]] = {}
        for (player, other), stats in _aggregate_by(frame, ["player", "group"], _WITH_DEFS):
            rows.setdefault(str(player), []).append((str(other), stats))
        out.append(rows)
    return out[0], out[1]


# -- variants ----------------------------------------------------------------------------

FOUR_PLAYERS = "four players"
"""The form of a round of the four-player game (no ``tientsin``, no ``trichu``)."""

_FORM = (pl.when(pl.col("role").is_not_null()).then(pl.lit("trichu"))
         .when(pl.col("partners").list.len() == 2).then(pl.lit("tientsin"))
         .otherwise(pl.lit(FOUR_PLAYERS)))
"""A rounds row's form of the game, as the row's shape tells it: ``trichu`` rows have a
``role``, ``tientsin`` rows two partners."""

_VARIANT_KEYS = ("rounds", "first_out", "avg_finish", "double_for", "tichu_success",
                 "grand_success", "points", "bombs_played", "dragon_given")
_PLAYER_ROUNDS = "scored player-rounds"
VARIANT_STATS: tuple[StatDef, ...] = tuple(
    replace(d, unit=_PLAYER_ROUNDS) if d.unit == "scored rounds" else d
    for d in PLAYER_STATS if d.key in _VARIANT_KEYS)
"""The statistics per form of the game (:func:`variant_table`): the per-player statistics,
over every player's rounds of that form. ``Rounds`` counts rounds; the rates are out of
*player-rounds*, a round counting once per player in it (six in ``tientsin``, the three
persons in ``trichu``, four otherwise)."""


def frame_forms(rows: pl.LazyFrame) -> list[str]:
    """The forms of the game of rounds rows ``rows`` (``four players``, ``tientsin``,
    ``trichu``), most rows first."""
    counts = collect(rows.group_by(_FORM.alias("form")).agg(pl.len().alias("n")))
    return [str(f) for f, _ in sorted(counts.iter_rows(), key=lambda r: (-r[1], r[0]))]


def forms(ds: Dataset) -> list[str]:
    """The forms of the game the dataset holds, most rows first (:func:`frame_forms`)."""
    return frame_forms(ds.lrounds)


def variant_table(ds: Dataset, player: str | None = None) -> StatTable:
    """:data:`VARIANT_STATS` per form of the game (of ``player``'s rounds when given):
    calls, finish positions, team victories (double, or triple in ``tientsin``), bombs and
    Dragon gifts. Rates are per player and round (out of player-rounds); ``Rounds`` counts
    rounds (each round's rows together count one)."""
    ds.check_player(player)
    frame = ds.lrounds if player is None else ds.lrounds.filter(pl.col("player") == player)
    frame = frame.with_columns(
        _FORM.alias("form"),
        (1.0 / pl.len().over("file", "game", "round")).alias("share"))
    rows = _aggregate(frame, "form", VARIANT_STATS, pairs=True)
    title = "By form of the game" + ("" if player is None else f" ({shown(player)})")
    return StatTable(title, "game", victory_headers(VARIANT_STATS, ds), rows)


_TRICHU = "Solo and pair"
_role = pl.col("role")
_solo, _dummy = _role == "solo", _role == "dummy"
_person = _role != "dummy"
TRICHU_STATS: tuple[StatDef, ...] = (
    StatDef("solo", "Played solo", "rounds played", StatKind.PERCENT,
            _solo.sum(), _person.sum(),
            "scored trichu rounds the person played solo, with the dummy", _TRICHU),
    StatDef("solo_points", "Points per solo round", "solo rounds", StatKind.MEAN,
            pl.col("team_score").filter(_solo).sum(), _solo.sum(),
            "the solo side's round score, averaged over the person's solo rounds", _TRICHU),
    StatDef("solo_ahead", "Solo side ahead", "solo rounds", StatKind.PERCENT,
            (_solo & (_MARGIN > 0)).sum(), _solo.sum(),
            "solo rounds in which the solo side scored more than the pair", _TRICHU),
    StatDef("pair_points", "Points per round in a pair", "rounds in a pair", StatKind.MEAN,
            pl.col("team_score").filter(_role == "pair").sum(), (_role == "pair").sum(),
            "the pair's round score, averaged over the person's rounds against a solo "
            "player", _TRICHU),
    StatDef("tichu_success", "Tichu made", "Tichu calls", StatKind.PERCENT,
            (_person & _is_tichu & _success).sum(), (_person & _is_tichu).sum(),
            "Tichu calls at the person's own seat made good", _TRICHU),
    StatDef("dummy_tichu", "Tichu for the dummy made", "Tichu calls for the dummy",
            StatKind.PERCENT, (_dummy & _is_tichu & _success).sum(), (_dummy & _is_tichu).sum(),
            "Tichu calls for the dummy (by the solo player, rules 9.3) that the dummy made "
            "good by going out first", _TRICHU),
)
"""The per-person statistics of ``trichu`` (:func:`trichu_table`), over the rows of the
seats the person played: its own and, when solo, the dummy's (``played_by``)."""


def trichu_table(ds: Dataset, player: str | None = None) -> StatTable | None:
    """:data:`TRICHU_STATS` per person (that person against the field with ``player``);
    None when the dataset holds no ``trichu`` round."""
    ds.check_player(player)
    frame = ds.lseats.filter(_role.is_not_null())
    if not collect(frame.select(pl.len())).item():
        return None
    rows = _aggregate(focus(frame, player, "played_by"), "group", TRICHU_STATS)
    if player is not None:
        rows = {k: rows[k] for k in sorted(rows, key=lambda k: k != player)}
    return StatTable("Trichu", "person", TRICHU_STATS, rows)
