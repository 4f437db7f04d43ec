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

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import polars as pl

TABLES = ("plays", "rounds", "games", "violations")

ROUND_COLUMNS = (
    "file", "game", "round", "status", "seat", "team", "partner", "player", "call",
    "call_success", "finish_position", "first_out", "double_victory_for",
    "double_victory_against", "card_points", "team_card_points", "team_score",
    "opponent_score", "h8_strength", "hx_strength", "hx_bombs", "hx_mahjong",
    "gave_to_left", "gave_to_partner", "gave_to_right", "dragon_gifts_given",
    "dragon_gifts_received", "bombs_played", "wish_made", "wish_fulfilled",
)
GAME_COLUMNS = (
    "file", "game", "seat", "team", "partner", "player", "target", "rounds_played",
    "team_score", "opponent_score", "won", "ended",
)
VIOLATION_COLUMNS = (
    "file", "line", "game", "round", "trick", "seat", "player", "code", "name", "severity",
    "message",
)
PLAY_COLUMNS = ("file", "game", "line", "player", "action")

_VIOLATION_SCHEMA: dict[str, type[pl.DataType] | pl.DataType] = {
    "file": pl.String, "line": pl.Int64, "game": pl.String, "round": pl.Int64,
    "trick": pl.Int64, "seat": pl.Int64, "player": pl.String, "code": pl.String,
    "name": pl.String, "severity": pl.String, "message": pl.String,
}
_PLAY_SCHEMA: dict[str, type[pl.DataType] | pl.DataType] = {
    "file": pl.String, "game": pl.String, "line": pl.Int64, "player": pl.String,
    "action": pl.String,
}

FIELD = "(rest of the field)"
"""Row label of everyone but the focused player (``--player``)."""

NO_PLAYER = "(no seat)"
"""Row label of violations that belong to no seat (a broken line, a bad deal)."""


class DatasetError(Exception):
    """The dataset cannot be used as asked: missing, not a dataset, unknown player, no data."""


def _scan(root: Path, table: str) -> pl.LazyFrame | None:
    """The Parquet files of ``table`` under ``root``, or None when it has none.

    The player is read from the files' own ``player`` column, not from the
    ``player=<name>`` directories: a long name's directory is cut short (ingest ends it
    with a hash), and a reader that parses directory names would get that stub. The
    directories are only used when the files hold no player column.
    """
    path = root / table
    if not path.is_dir() or not any(path.rglob("*.parquet")):
        return None
    files = str(path / "**" / "*.parquet")
    lf = pl.scan_parquet(files, hive_partitioning=False)
    try:
        if "player" in lf.collect_schema().names():
            return lf
    except (pl.exceptions.PolarsError, OSError):
        pass  # reported with the table's name by _columns
    # Read the name from the directories, as a string even when it looks like a number.
    return pl.scan_parquet(files, hive_partitioning=True, hive_schema={"player": pl.String},
                           try_parse_hive_dates=False)


def _columns(lf: pl.LazyFrame, wanted: Sequence[str], root: Path, table: str) -> pl.LazyFrame:
    try:
        have = set(lf.collect_schema().names())
    except (pl.exceptions.PolarsError, OSError) as e:
        raise DatasetError(f"{root}: cannot read the {table} table: {e}") from None
    missing = [c for c in wanted if c not in have]
    if missing:
        raise DatasetError(
            f"{root}: the {table} table lacks the columns {', '.join(missing)} "
            "(written by another version of tichu-analyze? run 'tichu-analyze ingest' again)"
        )
    return lf.select(wanted)


@dataclass(frozen=True, eq=False)
class Dataset:
    """The four tables of a dataset written by ``tichu-analyze ingest``.

    ``rounds``, ``games`` and ``violations`` are small (a few rows per round) and
    held in memory; ``plays`` (one row per move) stays lazy and is only aggregated.
    """

    path: Path
    rounds: pl.DataFrame
    games: pl.DataFrame
    violations: pl.DataFrame
    plays: pl.LazyFrame

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
            rounds = _columns(rounds_lf, ROUND_COLUMNS, root, "rounds").collect()
            games = _columns(games_lf, GAME_COLUMNS, root, "games").collect()
            violations = (
                pl.DataFrame(schema=_VIOLATION_SCHEMA) if violations_lf is None
                else _columns(violations_lf, VIOLATION_COLUMNS, root, "violations").collect()
            )
            plays = (
                pl.LazyFrame(schema=_PLAY_SCHEMA) if plays_lf is None
                else _columns(plays_lf, PLAY_COLUMNS, root, "plays")
            )
        except (pl.exceptions.PolarsError, OSError) as e:
            raise DatasetError(f"{root}: cannot read the dataset: {e}") from None
        if rounds.is_empty():
            raise DatasetError(f"{root}: the dataset holds no rounds")
        return cls(root, rounds, games, violations, plays)

    @property
    def players(self) -> list[str]:
        """Every player name, sorted."""
        return sorted(self.rounds.get_column("player").drop_nulls().unique().to_list())

    def check_player(self, player: str | None) -> None:
        """:class:`DatasetError` naming the players there are when ``player`` is not one."""
        if player is None or player in set(self.players):
            return
        names = self.players
        shown = ", ".join(repr(p) for p in names[:30])
        more = f" and {len(names) - 30} more" if len(names) > 30 else ""
        raise DatasetError(f"no player {player!r} in {self.path}; the players are: {shown}{more}")

    @property
    def scored(self) -> pl.DataFrame:
        """The rows of the rounds that could be scored."""
        return self.rounds.filter(pl.col("status") == "scored")

    def game_keys(self) -> list[tuple[str, str]]:
        """Every (file, game), in the order they start in their files."""
        keys = self.rounds.select("file", "game").unique()
        first_line = (
            self.plays.group_by("file", "game").agg(pl.col("line").min().alias("first_line"))
            .collect()
        )
        keys = keys.join(first_line, on=["file", "game"], how="left")
        keys = keys.sort("file", "first_line", "game", nulls_last=True)
        return list(zip(keys.get_column("file").to_list(), keys.get_column("game").to_list(),
                        strict=True))

    def find_game(self, game: str | None, player: str | None = None) -> tuple[str, str]:
        """The (file, game) named ``game`` (a game id, or ``FILE:GAME`` when the id is in
        several files); the first game (of ``player``, when given) when ``game`` is None."""
        keys = self.game_keys()
        if player is not None:
            of_player = set(
                self.rounds.filter(pl.col("player") == player)
                .select("file", "game").iter_rows()
            )
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
                + ", ".join(f"{f}:{g}" for f, g in found[:10])
            )
        shown = ", ".join(g for _, g in keys[:20])
        more = f" and {len(keys) - 20} more" if len(keys) > 20 else ""
        who = f" of player {player!r}" if player else ""
        raise DatasetError(f"no game {game!r}{who} in {self.path}; the games are: {shown}{more}")


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
            pl.col("double_victory_for").fill_null(False).sum(), _rows,
            "rounds the player's team went out first and second", "Rounds"),
    StatDef("double_against", "Double victory lost", "scored rounds", StatKind.PERCENT,
            pl.col("double_victory_against").fill_null(False).sum(), _rows,
            "rounds the opponents went out first and second", "Rounds"),
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
            "victory), averaged", "Points"),
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
            "tricks won with the Dragon that the player gave to an opponent", "Dragon and wish"),
    StatDef("dragon_received", "Dragon tricks received per round", "scored rounds", StatKind.MEAN,
            pl.col("dragon_gifts_received").sum(), _rows,
            "Dragon tricks an opponent gave to the player", "Dragon and wish"),
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

_tr = pl.col
TEAM_STATS: tuple[StatDef, ...] = (
    StatDef("rounds", "Rounds", "rounds played", StatKind.COUNT,
            (_tr("status") == "scored").sum(), _rows,
            "scored rounds the partners played together, of all their rounds", "Rounds"),
    StatDef("first_out", "First out", "scored rounds", StatKind.PERCENT,
            _tr("first_out").sum(), _rows, "rounds one of the partners went out first",
            "Rounds"),
    StatDef("double_for", "Double victory won", "scored rounds", StatKind.PERCENT,
            _tr("double_victory_for").sum(), _rows, "rounds the partners went out 1st and 2nd",
            "Rounds"),
    StatDef("double_against", "Double victory lost", "scored rounds", StatKind.PERCENT,
            _tr("double_victory_against").sum(), _rows,
            "rounds the opponents went out 1st and 2nd", "Rounds"),
    StatDef("tichu_success", "Tichu made", "Tichu calls", StatKind.PERCENT,
            _tr("tichu_made").sum(), _tr("tichu_calls").sum(),
            "Tichu calls by either partner that succeeded", "Calls"),
    StatDef("grand_success", "Grand Tichu made", "Grand Tichu calls", StatKind.PERCENT,
            _tr("grand_made").sum(), _tr("grand_calls").sum(),
            "Grand Tichu calls by either partner that succeeded", "Calls"),
    StatDef("points", "Points per round", "scored rounds", StatKind.MEAN,
            _tr("team_score").sum(), _rows, "the team's round score, averaged", "Points"),
    StatDef("margin", "Point margin per round", "scored rounds", StatKind.MEAN,
            (_tr("team_score") - _tr("opponent_score")).sum(), _rows,
            "the team's round score minus the opponents', averaged", "Points"),
    StatDef("bombs_played", "Bombs played per round", "scored rounds", StatKind.MEAN,
            _tr("bombs_played").sum(), _rows, "bombs played by either partner", "Bombs"),
)
"""The per-partnership statistics, over the partnership's rows of :func:`team_rounds`."""


@dataclass(frozen=True, slots=True)
class StatTable:
    """Rows of statistics: ``rows[label][stat key]``, with the definitions for the columns."""

    title: str
    row_header: str
    defs: tuple[StatDef, ...]
    rows: dict[str, dict[str, Stat]]


def _aggregate(frame: pl.DataFrame, by: str, defs: Sequence[StatDef]) -> dict[str, dict[str,
                                                                                        Stat]]:
    """``defs`` computed over ``frame`` grouped by column ``by``, in the order of most rows."""
    scored = frame.filter(pl.col("status") == "scored")
    rows: dict[str, dict[str, Stat]] = {}
    if frame.is_empty():
        return rows
    aggs = []
    for d in defs:
        if d.kind is StatKind.COUNT:
            continue  # over all rounds, below
        aggs += [d.numerator.alias(f"{d.key}__n"), d.denominator.alias(f"{d.key}__d")]
    counts = frame.group_by(by).agg(
        pl.len().alias("__all"), (pl.col("status") == "scored").sum().alias("__scored")
    )
    table = counts.join(scored.group_by(by).agg(aggs), on=by, how="left")
    table = table.sort(["__scored", "__all", by], descending=[True, True, False])
    for rec in table.iter_rows(named=True):
        stats: dict[str, Stat] = {}
        for d in defs:
            if d.kind is StatKind.COUNT:
                stats[d.key] = Stat(rec["__scored"], rec["__all"], d.unit, d.kind)
            else:
                stats[d.key] = Stat(rec[f"{d.key}__n"] or 0, int(rec[f"{d.key}__d"] or 0),
                                    d.unit, d.kind)
        rows[str(rec[by])] = stats
    return rows


def focus(frame: pl.DataFrame, player: str | None, column: str = "player") -> pl.DataFrame:
    """``frame`` with a ``group`` column: the player's name, or everyone else as FIELD."""
    if player is None:
        return frame.with_columns(pl.col(column).alias("group"))
    return frame.with_columns(
        pl.when(pl.col(column) == player).then(pl.lit(player)).otherwise(pl.lit(FIELD))
        .alias("group")
    )


def player_table(ds: Dataset, player: str | None = None) -> StatTable:
    """:data:`PLAYER_STATS` per player; with ``player``, that player against the field."""
    ds.check_player(player)
    rows = _aggregate(focus(ds.rounds, player), "group", PLAYER_STATS)
    if player is not None:  # the player first, then the field
        rows = {k: rows[k] for k in sorted(rows, key=lambda k: k != player)}
    title = "Players" if player is None else f"{player} against the rest of the field"
    return StatTable(title, "player", PLAYER_STATS, rows)


def team_label(a: str, b: str) -> str:
    """The name of a partnership: its two players, sorted, joined by `` & ``."""
    return " & ".join(sorted((a, b)))


def team_rounds(ds: Dataset) -> pl.DataFrame:
    """One row per partnership per round: its label, calls, first out, score, bombs."""
    r = ds.rounds.with_columns(
        pl.when(pl.col("player") <= pl.col("partner"))
        .then(pl.col("player") + " & " + pl.col("partner"))
        .otherwise(pl.col("partner") + " & " + pl.col("player")).alias("team_label")
    )
    return r.group_by("file", "game", "round", "team").agg(
        pl.col("team_label").first(),
        pl.col("player").unique().alias("players"),
        pl.col("status").first(),
        pl.col("first_out").fill_null(False).any(),
        pl.col("double_victory_for").fill_null(False).any(),
        pl.col("double_victory_against").fill_null(False).any(),
        _is_tichu.sum().alias("tichu_calls"),
        (_is_tichu & _success).sum().alias("tichu_made"),
        _is_grand.sum().alias("grand_calls"),
        (_is_grand & _success).sum().alias("grand_made"),
        pl.col("team_score").first(),
        pl.col("opponent_score").first(),
        pl.col("bombs_played").sum(),
    )


def team_table(ds: Dataset, player: str | None = None) -> StatTable:
    """:data:`TEAM_STATS` per partnership (with ``player``: only the player's partnerships)."""
    ds.check_player(player)
    t = team_rounds(ds)
    if player is not None:
        t = t.filter(pl.col("players").list.contains(player))
    rows = _aggregate(t, "team_label", TEAM_STATS)
    title = "Partnerships" if player is None else f"Partnerships of {player}"
    return StatTable(title, "partnership", TEAM_STATS, rows)


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
    g = ds.games
    if by == "team":
        g = g.with_columns(
            pl.when(pl.col("player") <= pl.col("partner"))
            .then(pl.col("player") + " & " + pl.col("partner"))
            .otherwise(pl.col("partner") + " & " + pl.col("player")).alias("group")
        ).unique(["file", "game", "team"])
        if player is not None:
            g = g.filter((pl.col("player") == player) | (pl.col("partner") == player))
    else:
        g = focus(g, player)
    agg = g.group_by("group").agg(
        pl.col("won").fill_null(False).sum().alias("won"),
        pl.col("won").is_not_null().sum().alias("decided"),
        pl.len().alias("played"),
    )
    return {str(r["group"]): GameRecord(r["won"], r["decided"], r["played"])
            for r in agg.iter_rows(named=True)}


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
    lf = ds.plays.filter(pl.col("action").is_in(["play", "pass"]))
    if player is not None:
        lf = lf.with_columns(
            pl.when(pl.col("player") == player).then(pl.lit(player)).otherwise(pl.lit(FIELD))
            .alias("player")
        )
    counts = lf.group_by("player").agg(pl.len().alias("n")).collect()
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
    rounds: int
    rounds_by_status: dict[str, int]
    players: int
    violations: int


def overview(ds: Dataset, player: str | None = None) -> Overview:
    """Counts of files, games, rounds (by status), players and violations
    (of ``player``'s games, rounds and violations when given)."""
    r = ds.rounds if player is None else ds.rounds.filter(pl.col("player") == player)
    g = ds.games if player is None else ds.games.filter(pl.col("player") == player)
    v = ds.violations if player is None else ds.violations.filter(pl.col("player") == player)
    per_round = r.unique(["file", "game", "round"])
    by_status = dict(per_round.group_by("status").agg(pl.len()).iter_rows())
    games = g.unique(["file", "game"])
    return Overview(
        files=r.get_column("file").n_unique(),
        games=games.height,
        games_ended=int(games.get_column("ended").fill_null(False).sum()),
        rounds=per_round.height,
        rounds_by_status={str(k): int(n) for k, n in sorted(by_status.items())},
        players=ds.rounds.get_column("player").n_unique(),
        violations=v.height,
    )


def player_violations(ds: Dataset, player: str, limit: int = 100) -> pl.DataFrame:
    """The first ``limit`` violations of ``player``, in file and line order."""
    ds.check_player(player)
    return (ds.violations.filter(pl.col("player") == player)
            .sort("file", "line", nulls_last=True).head(limit))
