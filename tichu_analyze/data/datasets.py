"""Parquet datasets from the replay: ``plays``, ``rounds``, ``games``, ``violations``.

:func:`ingest` replays log files and writes their tables; :func:`scan` reads one back
with polars. The replay (:mod:`tichu_analyze.core.engine`) is the only source of facts:
:class:`DatasetVisitor` follows it, and the row builders
(:mod:`tichu_analyze.data.rows`, :func:`game_rows`, :func:`violation_row`) are pure functions from
the engine's state and steps (:mod:`tichu_analyze.core.state`) to rows, and never look at
a log again. :class:`DatasetWriter` writes the rows as a hive-partitioned
Parquet dataset, one directory per player::

    DIR/_tichu_analyze.json                      what wrote the dataset (schema version)
    DIR/_ingested/<run>.txt                      the content digest of every log ingested
    DIR/<table>/player=<escaped name>/part-<run>-<n>.parquet

Writing streams: rows are buffered and converted to Arrow as parts (by hash bucket
of players) whenever ``batch_rows`` rows are buffered; parts beyond
:data:`HELD_ROWS` rows are written to Arrow IPC files in the temporary directory.
The commit takes the parts a bucket and table at a time and writes each player's
rows as one Parquet file. Memory stays bounded, and the number of files is one per
table and player whatever the input.

Writing is atomic: everything goes to a hidden sibling directory ``.DIR.tmp-*`` that
replaces ``DIR`` in one step at the end (``renameat2`` exchange on Linux); on an
error, Ctrl-C or SIGTERM (the CLI turns it into an exception) the sibling is removed
and a previous dataset is left as it was.
``append`` starts from hard links to the existing files and adds part files
with new, unique names, and is swapped in the same way.

Concurrent writers: a writer holds an exclusive lock (``fcntl.flock`` on
``.DIR.lock`` beside ``DIR``) from :meth:`DatasetWriter.open` to the commit, so two
ingests into one dataset run one after the other (the second waits) and both land.
A forked child closes its copy of the lock at once, so the lock never outlives the
writer; a waiting writer takes over a lock whose recorded holder is gone. Under the
lock, temporary directories left by killed runs are removed. Each ingest
records the SHA-256 of every log it read in ``DIR/_ingested/<run>.txt``; an
``append`` skips logs whose content is already there (unless forced), so running
the same append twice does not double any row.

The schemas are declared once, in :data:`COLUMNS` (name, Arrow type and a short
description stored as Parquet field metadata); ``docs/datasets.md`` gives every
column's exact definition. The ``player`` column is stored in the files *and*
encoded in the directory names, so readers that infer partition types (polars)
still read names such as ``"007"`` as strings.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import gc
import hashlib
import json
import os
import shutil
import sys
import time
import unicodedata
import uuid
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote

import pyarrow as pa
import pyarrow.ipc
import pyarrow.parquet as pq

from .. import __version__
from ..common.atomicfile import reason
from ..common.errors import TichuAnalyzeError
from ..core.diagnostics import Diagnostic
from ..core.state import GameState, RoundState, Step, Trick, partners
from ..core.visitor import Visitor
from ..readers.logfile import FileStats, LogError, real_path, replay_file
from .rows import (
    SEAT,
    WINS_TRICK,
    PlayRows,
    Seating,
    count_singles,
    fit,
    hand_values,
    max_disjoint_bombs,
    round_values,
)

if TYPE_CHECKING:
    import polars as pl

__all__ = [
    "COLUMNS",
    "DEFAULT_BATCH_ROWS",
    "DEFAULT_PARTITION",
    "BUCKET_BYTES",
    "HAND_PREFIXES",
    "HELD_ROWS",
    "MARKER",
    "PARTS",
    "SCHEMAS",
    "SCHEMA_VERSION",
    "SNAPPY_BELOW",
    "Seated",
    "Seating",
    "TABLES",
    "Column",
    "DatasetError",
    "DatasetVisitor",
    "DatasetWriter",
    "IngestResult",
    "Part",
    "PartWriter",
    "RowWriter",
    "arrow_table",
    "bucket_of",
    "count_singles",
    "escape_partition",
    "game_rows",
    "hand_features",
    "ingest",
    "max_disjoint_bombs",
    "polars_schema",
    "scan",
    "sigterm_as_interrupt",
    "split_players",
    "unescape_partition",
    "violation_row",
    "write_rows",
]

Row = dict[str, Any]
"""One row: column name -> a Python value of the column's type (or None)."""

SCHEMA_VERSION = 3
"""Bumped when a column changes meaning or type, or columns are added; ``--append`` refuses
another version. 2: the six- and three-player variants (``played_by``, ``role``,
``partners``, ``opponents``, ``team_victory_*``, the exchange as lists, ``person_score``).
3: ``rounds.substitutes``, and a play credited to who made it (a substitute mid-round)."""

PARTS = ".parts"
"""The folder of a dataset being written (inside its temporary directory) that holds the
rows taken until the commit (:class:`PartWriter`)."""

MARKER = "_tichu_analyze.json"
"""The file that marks a directory as a dataset written by ``tichu-analyze ingest``."""

INGESTED = "_ingested"
"""The folder of a dataset that lists the logs it holds: one ``<run>.txt`` per ingest,
each line ``<sha256 of the file's bytes> <JSON string of its path>``."""

DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__"
"""Partition directory of rows without a player (``player=__HIVE_DEFAULT_PARTITION__``),
which polars, DuckDB, pyarrow and Spark read back as a null ``player``."""

DEFAULT_BATCH_ROWS = 1 << 15
"""Rows buffered as Python values (all tables together) before the largest buffers are
converted to Arrow and written as parts (:class:`PartWriter`)."""

BUCKET_BYTES = 16 << 20
"""Log bytes per hash bucket of players in a serial ingest: at the commit, one bucket's
rows of one table are split by player at a time (some 200,000 rows of a JSON-lines log;
see :func:`split_players`)."""

HELD_ROWS = 1 << 16
"""Rows held in memory as Arrow (some 20 MB of ``plays`` rows): the parts of a serial
ingest before they are written to files, and the rows of one bucket and table that wait
while it is split by player (:func:`split_players`)."""

SNAPPY_BELOW = 1 << 15
"""A Parquet file of fewer values (rows times columns) is compressed with Snappy, a larger
one with zstd: zstd's fixed cost per column (about 30 microseconds) outweighs what it saves
on a small file, and most files of a dataset with many players are small."""


class DatasetError(TichuAnalyzeError):
    """A dataset cannot be written or read as asked: not a dataset, unwritable, missing, an
    unknown player or game, nothing to report. The one error of datasets, reports and plots."""


# --------------------------------------------------------------------------- schemas


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a table: its name, Arrow type and a one-line description."""

    name: str
    type: pa.DataType
    doc: str


_S, _B, _F = pa.string(), pa.bool_(), pa.float64()
_I8, _I16, _I32 = pa.int8(), pa.int16(), pa.int32()
_LIST = pa.list_(pa.string())

_WHERE = (
    Column("file", _S, "the log file's path"),
    Column("game", _S, "the game id"),
)
_WHO = (
    Column("seat", _I8, "seat 0..3 (0..5 in tientsin)"),
    Column("team", _I8, "seat % 2"),
    Column("partner", _S, "the partner's name (seat + 2); null with two partners (tientsin)"),
    Column("player", _S, "the player's name (also the hive partition)"),
)
_PLAYED_BY = Column("played_by", _S,
                    "the person who decided the seat's plays: the player, or for the "
                    "trichu dummy the solo player")
_SEATING = (
    _PLAYED_BY,
    Column("role", _S, "trichu: solo, dummy or pair; null in other games"),
    Column("partners", _LIST, "the names of the other seats of the team, in playing order"),
    Column("opponents", _LIST, "the names of the other team's seats, in playing order"),
)

_HAND_FEATURES = (
    ("cards", _LIST, "the cards, in rank order"),
    ("dragon", _B, "holds the Dragon"),
    ("phoenix", _B, "holds the Phoenix"),
    ("mahjong", _B, "holds the Mahjong"),
    ("dog", _B, "holds the Dog"),
    ("aces", _I8, "number of Aces"),
    ("bombs", _I8, "most bombs held at once without sharing a card"),
    ("singles", _I8, "ranks 2..A held once, outside runs of 5+ consecutive ranks"),
    ("strength", _F, "hand-strength score (docs/datasets.md)"),
)
HAND_PREFIXES = {"h8": "the first 8 cards", "h14": "all 14 cards before the exchange",
                 "hx": "the 14 cards after the exchange"}


def _hand_columns() -> tuple[Column, ...]:
    return tuple(
        Column(f"{prefix}_{name}", typ, f"{doc} ({what})")
        for prefix, what in HAND_PREFIXES.items()
        for name, typ, doc in _HAND_FEATURES
    )


COLUMNS: dict[str, tuple[Column, ...]] = {
    "plays": (
        *_WHERE,
        Column("round", _I32, "round number, from 1"),
        Column("trick", _I32, "trick number in the round, from 1; null before the first lead"),
        Column("event_index", _I32, "position of the event among its game's events, from 0"),
        Column("line", _I32, "line of the event in the log"),
        Column("ts", _F, "the event's ts (seconds since the epoch), null without ts"),
        *_WHO,
        _PLAYED_BY,
        Column("action", _S, "play or pass"),
        Column("applied", _B, "the replay applied the event (false: skipped after a diagnostic)"),
        Column("cards", _LIST, "cards laid down, in rank order; empty for a pass"),
        Column("combo", _S, "kind of combination; null for a pass or a non-combination"),
        Column("rank", _F, "the combination's rank"),
        Column("length", _I8, "number of cards laid down; null for a pass"),
        Column("phoenix", _S, "rank the Phoenix stands for inside a combination"),
        Column("bomb", _B, "the combination is a bomb"),
        Column("out_of_turn", _B, "played or passed out of turn"),
        Column("lead", _B, "the play leads a new trick"),
        Column("top_combo", _S, "kind of the combination on the table before the event"),
        Column("top_rank", _F, "rank of the combination on the table"),
        Column("top_length", _I8, "number of cards of the combination on the table"),
        Column("top_seat", _I8, "seat that played the combination on the table"),
        Column("top_player", _S, "player who played the combination on the table"),
        Column("wish_open", _S, "wished rank open before the event"),
        Column("wish_made", _S, "rank wished with this play of the Mahjong"),
        Column("wish_fulfilled", _B, "this play fulfilled the open wish"),
        Column("cards_left", _I8, "cards the seat holds after the event"),
        Column("went_out", _B, "this play was the seat's last card"),
        Column("trick_points", _I16, "card points in the trick on the table after the event"),
        Column("wins_trick", _B, "the last play of a trick that was taken"),
        Column("seconds_since_previous", _F, "ts minus the ts of the game's previous event"),
        Column("codes", _LIST, "diagnostic codes reported at this event"),
    ),
    "rounds": (
        *_WHERE,
        Column("round", _I32, "round number, from 1"),
        Column("line", _I32, "line of the round_start"),
        Column("status", _S, "scored, incomplete or skipped"),
        *_WHO,
        *_SEATING,
        Column("call", _S, "tichu, grand_tichu or null (calls that count)"),
        Column("call_line", _I32, "line of the call that counts"),
        Column("call_success", _B, "the caller went out first (null: no call or not scored)"),
        Column("finish_position", _I8, "1..4, 1..6 in tientsin (null: not scored)"),
        Column("first_out", _B, "went out first (null: not scored)"),
        Column("double_victory_for", _B, "the seat's team made a double victory"),
        Column("double_victory_against", _B, "the other team made a double victory"),
        Column("team_victory_for", _B, "the seat's team went out first, all of it (double "
               "victory; triple victory in tientsin)"),
        Column("team_victory_against", _B, "the other team went out first, all of it"),
        Column("card_points", _I16, "points of the tricks the seat holds before the hand-over"),
        Column("team_card_points", _I16,
               "the team's card points (200/0 after a double victory, 300/0 a triple)"),
        Column("team_call_points", _I16, "the team's points from calls"),
        Column("team_score", _I16, "the team's round score"),
        Column("opponent_score", _I16, "the other team's round score"),
        Column("recorded_team_score", _I32, "the team's score in round_end, if recorded"),
        Column("recorded_opponent_score", _I32, "the other team's score in round_end"),
        *_hand_columns(),
        Column("gave_to_left", _S, "card given to seat + 1"),
        Column("gave_to_partner", _S, "card given to seat + 2"),
        Column("gave_to_right", _S, "card given to seat + 3"),
        Column("got_from_left", _S, "card received from seat + 1"),
        Column("got_from_partner", _S, "card received from seat + 2"),
        Column("got_from_right", _S, "card received from seat + 3"),
        Column("gave_to_partners", _LIST, "cards given to the partners, as in partners"),
        Column("gave_to_opponents", _LIST, "cards given to the opponents, as in opponents"),
        Column("got_from_partners", _LIST, "cards received from the partners"),
        Column("got_from_opponents", _LIST, "cards received from the opponents"),
        Column("dragon_gifts_given", _I8, "Dragon tricks this seat gave away"),
        Column("dragon_gifts_received", _I8, "Dragon tricks given to this seat"),
        Column("tricks_won", _I8, "tricks won by the seat's play (the Dog's not counted)"),
        Column("bombs_played", _I8, "bombs the seat played"),
        Column("wish_made", _S, "rank this seat wished with the Mahjong"),
        Column("wish_fulfilled", _B, "this seat's wish was fulfilled (null: it made none)"),
        Column("fulfilled_wish", _B, "this seat fulfilled the round's wish (null: no wish)"),
        Column("substitutes", _LIST, "who took the seat during the round, in order (a player "
               "replaced mid-round: x_substitute; the round stays the player's); empty: nobody"),
    ),
    "games": (
        *_WHERE,
        Column("line", _I32, "line of the game_start"),
        *_WHO,
        Column("partners", _LIST, "the names of the other seats of the team, in playing order"),
        Column("target", _I32, "the game's target score (trichu: rounds)"),
        Column("rounds_played", _I32, "rounds of the game closed by the replay"),
        Column("team_score", _I32, "the team's total: the sum of the rounds the replay scored "
               "(null in trichu)"),
        Column("opponent_score", _I32, "the other team's total (null in trichu)"),
        Column("recorded_team_score", _I32, "the team's total in game_end, if recorded"),
        Column("recorded_opponent_score", _I32, "the other team's total in game_end"),
        Column("person_score", _I32, "trichu: the person's total (null in other games)"),
        Column("recorded_person_score", _I32, "trichu: the person's total in game_end"),
        Column("won", _B, "the team (trichu: the person) won (null: no winner yet)"),
        Column("ended", _B, "a game_end was seen"),
        Column("meta", _S, "game_start.meta as compact JSON"),
    ),
    "violations": (
        Column("file", _S, "the log file's path"),
        Column("line", _I32, "line of the offending event"),
        Column("game", _S, "the game id (null: none known)"),
        Column("round", _I32, "round number (null: outside a round)"),
        Column("trick", _I32, "trick number (null: before the first lead)"),
        Column("seat", _I8, "seat concerned (null: none)"),
        Column("player", _S, "player concerned (null: none; hive partition)"),
        Column("code", _S, "diagnostic code, e.g. W001"),
        Column("name", _S, "the code's name, e.g. wish-ignored"),
        Column("severity", _S, "warning, error or fatal"),
        Column("message", _S, "the diagnostic's message"),
    ),
}
"""Every table's columns, in file order."""

TABLES: tuple[str, ...] = tuple(COLUMNS)
"""The four tables: plays, rounds, games, violations."""

SCHEMAS: dict[str, pa.Schema] = {
    table: pa.schema([pa.field(c.name, c.type, metadata={"description": c.doc}) for c in cols])
    for table, cols in COLUMNS.items()
}
"""The Arrow schema of every table, as written to the Parquet files."""

_NAMES: dict[str, tuple[str, ...]] = {t: tuple(c.name for c in cols) for t, cols in COLUMNS.items()}
_AS_TUPLE: dict[str, Callable[[Row], tuple[Any, ...]]] = {
    t: itemgetter(*names) for t, names in _NAMES.items()}  # a row's values in column order


_STRUCTS: dict[str, pa.StructType] = {t: pa.struct(list(schema)) for t, schema in SCHEMAS.items()}


_DICTIONARY: dict[str, list[str]] = {
    t: [f.name for f in schema if f.type in (_S, _LIST)] for t, schema in SCHEMAS.items()}
"""The columns written with dictionary encoding: the strings (numbers and booleans are
written plain, which is faster and as small once compressed)."""


def arrow_table(table: str, rows: list[tuple[Any, ...]]) -> pa.Table:
    """The Arrow table of ``rows`` of ``table``, each a tuple of its values in column order
    (converted in one pass, as a struct array: no transposing in Python)."""
    batch = pa.RecordBatch.from_struct_array(pa.array(rows, type=_STRUCTS[table]))
    return pa.Table.from_arrays(batch.columns, schema=SCHEMAS[table])


@dataclass(frozen=True, slots=True)
class Part:
    """One file of rows on their way into a dataset: rows of one table, of the players of
    one hash ``bucket`` (:class:`PartWriter`), or all of one ``player`` (split)."""

    table: str
    player: str | None
    path: str
    rows: int
    bucket: int = -1
    runs: tuple[tuple[str | None, int], ...] = ()
    """A bucket's part: its players and their numbers of rows, in the order of its rows
    (each player's rows are together)."""
    data: pa.Table | None = None
    """The rows, while a part is held in memory (``path`` is then empty)."""
    firsts: tuple[int, ...] = ()
    """For each of ``runs``: the rank of the player's first row among the players of all
    the rows its writer took (the order in which a serial ingest names partitions)."""


def bucket_of(player: str | None, buckets: int) -> int:
    """The hash bucket of ``player``'s rows (stable across processes and machines)."""
    if player is None:
        return 0
    return zlib.crc32(player.encode("utf-8", "surrogatepass")) % buckets


class PartWriter:
    """Rows buffered per table and bucket of players and written as parts into ``folder``
    (which must not exist; its parent must): the largest buffers, converted to Arrow, once
    ``batch_rows`` rows are buffered. ``hold_rows``: parts of up to that many rows in all
    are held in memory (as Arrow tables), the oldest written to files beyond it. ``ipc``:
    the files are Arrow IPC (buffers compressed with zstd: quick to write and read back,
    about half the size of the logs they come from), else zstd Parquet (a third of that,
    for a shared file system). A part holds rows in the order they were taken."""

    def __init__(self, folder: Path, buckets: int, batch_rows: int = DEFAULT_BATCH_ROWS, *,
                 ipc: bool = False, hold_rows: int = 0) -> None:
        folder.mkdir()  # not parents: a task that outlives its run finds no staging
        self.folder = folder
        self.buckets = max(1, buckets)
        self.batch_rows = max(1, batch_rows)
        self.ipc = ipc
        self.hold_rows = hold_rows
        self._held = 0  # rows of the parts held in memory
        self._spilled = 0  # parts before this one are files
        self.parts: list[Part] = []
        # rows not yet written, by table and bucket, then by player
        self._buffers: dict[tuple[str, int], dict[str | None, list[tuple[Any, ...]]]] = {}
        self._sizes: dict[tuple[str, int], int] = {}  # rows in each buffer
        self._bucket: dict[str | None, int] = {}
        self._rank: dict[str | None, int] = {}  # the players in the order they came
        self._buffered = 0

    active = True

    def add_values(self, table: str, player: str | None,
                   rows: Sequence[tuple[Any, ...]]) -> None:
        """Take ``rows`` of ``table``, all of them ``player``'s, each the tuple of its values
        in column order (:class:`RowWriter`)."""
        bucket = self._bucket.get(player)
        if bucket is None:
            bucket = self._bucket[player] = bucket_of(player, self.buckets)
            self._rank[player] = len(self._rank)
        key = (table, bucket)
        buffer = self._buffers.get(key)
        if buffer is None:
            buffer = self._buffers[key] = {}
            self._sizes[key] = 0
        mine = buffer.get(player)
        if mine is None:
            buffer[player] = list(rows)
        else:
            mine.extend(rows)
        self._sizes[key] += len(rows)
        self._buffered += len(rows)
        if self._buffered >= self.batch_rows:
            sizes = self._sizes
            for key in sorted(sizes, key=lambda k: -sizes[k]):
                self._write(key)
                if self._buffered <= self.batch_rows // 2:
                    break

    def _write(self, key: tuple[str, int]) -> None:
        table, bucket = key
        buffer = self._buffers.pop(key)
        n = self._sizes.pop(key)
        self._buffered -= n
        rows: list[tuple[Any, ...]] = []
        for mine in buffer.values():
            rows += mine
        rank = self._rank
        part = Part(table, None, "", n, bucket,
                    tuple((player, len(mine)) for player, mine in buffer.items()),
                    arrow_table(table, rows), tuple(rank[player] for player in buffer))
        self.parts.append(part)
        self._held += n
        while self._held > self.hold_rows:  # the oldest held part to a file
            held = self.parts[self._spilled]
            self.parts[self._spilled] = self._file(held)
            self._spilled += 1
            self._held -= held.rows

    def _file(self, part: Part) -> Part:
        """``part`` written to a file."""
        data = part.data
        assert data is not None
        if self.ipc:
            path = self.folder / f"{self._spilled:06d}.arrow"
            with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(
                    sink, data.schema, options=_IPC_OPTIONS) as out:
                out.write_table(data)
        else:
            path = self.folder / f"{self._spilled:06d}.parquet"
            pq.write_table(data, path, compression="zstd")
        return Part(part.table, None, str(path), part.rows, part.bucket, part.runs,
                    firsts=part.firsts)

    def close(self) -> list[Part]:
        """Write what is buffered; the parts written, in order."""
        for key in list(self._buffers):
            self._write(key)
        return self.parts


_IPC_OPTIONS = pa.ipc.IpcWriteOptions(compression="zstd")


def _read_part(part: Part) -> pa.Table:
    if part.data is not None:
        return part.data
    if part.path.endswith(".arrow"):
        with pa.OSFile(part.path) as source:
            return pa.ipc.open_file(source).read_all()
    return pq.read_table(part.path, schema=SCHEMAS[part.table])


def split_players(parts: Sequence[Part],
                  path_for: Callable[[str | None], Path]) -> list[tuple[str | None, Path, int]]:
    """Write the rows of ``parts`` (one table, in the order taken) as one Parquet file per
    player, at ``path_for(player)``: each player's rows in their order. Returns ``(player,
    path, rows)`` for each file written.

    The parts are read one at a time. A player's rows wait in memory until the end, unless
    more than :data:`HELD_ROWS` rows wait in all: the player with the most then has its
    file begun and its rows written as a row group. Memory holds about that many rows
    whatever the number and size of the players."""
    table = parts[0].table
    schema = SCHEMAS[table]
    waiting: dict[str | None, list[pa.Table]] = {}
    held: Counter[str | None] = Counter()
    begun: dict[str | None, tuple[pq.ParquetWriter, Path]] = {}
    written: Counter[str | None] = Counter()
    try:
        for part in parts:
            rows = _read_part(part)
            start = 0
            for player, n in part.runs:
                waiting.setdefault(player, []).append(rows.slice(start, n))
                held[player] += n
                start += n
            while held.total() > HELD_ROWS:
                player = max(held, key=held.__getitem__)
                group = pa.concat_tables(waiting.pop(player))
                if player not in begun:
                    path = path_for(player)
                    begun[player] = (pq.ParquetWriter(
                        path, schema, compression=_codec(group.num_rows, group.num_columns),
                        use_dictionary=_DICTIONARY[table]), path)
                begun[player][0].write_table(group, row_group_size=ROW_GROUP_ROWS)
                written[player] += held.pop(player)
        out: list[tuple[str | None, Path, int]] = []
        for player, pieces in waiting.items():
            rows = pa.concat_tables(pieces)
            if player in begun:
                begun[player][0].write_table(rows, row_group_size=ROW_GROUP_ROWS)
                written[player] += rows.num_rows
            else:
                path = path_for(player)
                write_rows(table, rows, path)
                out.append((player, path, rows.num_rows))
        for player, (writer, path) in begun.items():
            writer.close()
            out.append((player, path, written[player]))
        begun.clear()
        return out
    finally:
        for writer, _ in begun.values():  # an error: the caller removes the files
            with contextlib.suppress(Exception):
                writer.close()


def _codec(rows: int, columns: int) -> str:
    """The compression of a Parquet file of ``rows`` rows of ``columns`` columns
    (:data:`SNAPPY_BELOW`)."""
    return "snappy" if rows * columns < SNAPPY_BELOW else "zstd"


def write_rows(table: str, rows: pa.Table, path: Path) -> None:
    """Write ``rows`` of ``table`` as the Parquet file ``path`` (row groups of
    :data:`ROW_GROUP_ROWS`; the codec by size, :data:`SNAPPY_BELOW`)."""
    pq.write_table(rows, path, compression=_codec(rows.num_rows, rows.num_columns),
                   use_dictionary=_DICTIONARY[table], row_group_size=ROW_GROUP_ROWS)


def polars_schema(table: str) -> pl.Schema:
    """The polars schema the ``table`` reads back as."""
    import polars as pl

    return pl.from_arrow(SCHEMAS[table].empty_table()).schema  # type: ignore[union-attr]


def scan(dataset: str | os.PathLike[str], table: str) -> pl.LazyFrame:
    """A polars scan of one table of a dataset written by :func:`ingest` (the one reader
    of datasets: reports and plots use it too); :class:`DatasetError` when the table has
    no Parquet file.

    The player is read from the files' own ``player`` column, not from the
    ``player=<name>`` directories: a long name's directory is cut short (ingest ends it
    with a hash), a reserved name such as ``__HIVE_DEFAULT_PARTITION__`` is suffixed, and a
    reader that parses directory names would get that stub. The directories are only used
    when the files hold no player column.
    """
    import polars as pl

    path = Path(dataset) / table
    if not path.is_dir() or not any(path.rglob("*.parquet")):
        raise DatasetError(f"{dataset}: no {table} table (no Parquet files under {path})")
    files = str(path / "**" / "*.parquet")
    lf = pl.scan_parquet(files, hive_partitioning=False)
    try:
        if "player" in lf.collect_schema().names():
            return lf
    except (pl.exceptions.PolarsError, OSError):
        pass  # the caller reports the table as unreadable when it reads it
    # Read the name from the directories, as a string even when it looks like a number.
    return pl.scan_parquet(files, hive_partitioning=True, hive_schema={"player": pl.String},
                           try_parse_hive_dates=False)


# ------------------------------------------------------------------------ row values

@lru_cache(maxsize=4096)
def _text(s: str) -> str:
    """``s`` as valid UTF-8 (a path may hold undecodable bytes, kept as surrogates)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(s).decode("utf-8", "replace")
    return s


# ------------------------------------------------------------------------ hand features


_FEATURE_NAMES = tuple(name for name, _, _ in _HAND_FEATURES)


def hand_features(hand: int) -> Row:
    """The hand features of ``hand`` (a card mask), keyed without prefix; all None for an
    empty mask (the hand was never dealt). ``strength`` is
    ``3 dragon + 2.5 phoenix - 1 dog + 1.5 aces + 0.5 kings + 3 bombs - 0.3 singles``,
    rounded to one decimal."""
    return dict(zip(_FEATURE_NAMES, hand_values(hand), strict=True))


# ------------------------------------------------------------------------ row builders


_PLAY_NAMES = _NAMES["plays"]
assert _PLAY_NAMES[WINS_TRICK] == "wins_trick" and _PLAY_NAMES[SEAT] == "seat"


_ROUND_NAMES = _NAMES["rounds"]
_ROUND_PLAYER = _ROUND_NAMES.index("player")
_PLAY_PLAYER = _NAMES["plays"].index("player")


Seated = dict[tuple[int, str], tuple[int, str | None, list[str] | None]]
"""``(seat, name) -> (rounds played, partner's name, partners' names)``: who played a game
(:func:`game_rows`)."""


def game_rows(game: GameState, seated: Seated | None = None) -> list[Row]:
    """One row per seat and person who played there: the game from that side; in
    ``trichu`` one row per person (the dummy has none), at the seat of its first round.

    ``seated``: ``(seat, name) -> (rounds played, partner's name, partners' names)`` for
    every person who played a round of the game (the partners as of its first round; in
    ``trichu`` None); None (or empty): the players of ``game_start``, each for all the
    game's rounds."""
    trichu = game.rules.per_person
    totals = None if trichu else game.totals
    recorded = None if trichu else game.recorded_score
    persons = game.person_totals if trichu else None
    recorded_persons = game.recorded_persons if trichu else None
    winner = game.person_winner
    meta = None
    if game.meta is not None:
        meta = json.dumps(game.meta, ensure_ascii=False, separators=(",", ":"), default=str)
    if not seated:
        seats = len(game.players)
        seated = {}
        for s, name in enumerate(game.players):
            mates = None if trichu else [game.players[p] for p in partners(s, seats)]
            seated[(s, name)] = (game.rounds, mates[0] if mates and len(mates) == 1 else None,
                                 mates)
    file = _text(game.file)
    rows: list[Row] = []
    for (seat, name), (rounds, partner, mates) in sorted(seated.items(),
                                                         key=lambda kv: kv[0][0]):
        team = None if trichu else seat & 1
        rows.append({
            "file": file,
            "game": game.id,
            "line": fit(game.line, 32),
            "seat": seat,
            "team": team,
            "partner": partner,
            "player": name,
            "partners": mates,
            "target": fit(game.target, 32),
            "rounds_played": fit(rounds, 32),
            "team_score": fit(totals[team], 32) if totals and team is not None else None,
            "opponent_score": (fit(totals[1 - team], 32) if totals and team is not None
                               else None),
            "recorded_team_score": (fit(recorded[team], 32) if recorded and team is not None
                                    else None),
            "recorded_opponent_score": (fit(recorded[1 - team], 32)
                                        if recorded and team is not None else None),
            "person_score": fit(persons.get(name), 32) if persons is not None else None,
            "recorded_person_score": (fit(recorded_persons.get(name), 32)
                                      if recorded_persons is not None else None),
            "won": ((winner == name) if winner is not None else None) if trichu else
                   (game.won_by == team) if game.won_by is not None else None,
            "ended": game.ended,
            "meta": meta,
        })
    return rows


def violation_row(diag: Diagnostic) -> Row:
    """The row of one diagnostic."""
    return {
        "file": _text(diag.file),
        "line": fit(diag.line, 32),
        "game": diag.game,
        "round": fit(diag.round, 32),
        "trick": fit(diag.trick, 32),
        "seat": diag.seat,
        "player": diag.player,
        "code": diag.code,
        "name": diag.name,
        "severity": str(diag.severity),
        "message": diag.message,
    }


# ----------------------------------------------------------------- partition names

# Percent-encoded in directory names: ASCII controls and DEL, the space, and every
# character that Spark escapes or that Windows forbids in file names. Other characters,
# non-ASCII included, are kept (Spark decodes %XX as one character, not as UTF-8).
_UNSAFE = frozenset(chr(c) for c in range(0x20)) | frozenset('\x7f "#%\'*+/:<=>?[\\]^{|}')
_MAX_VALUE_BYTES = 200  # a directory name is at most 255 bytes, "player=" included

RESERVED_PARTITIONS = frozenset({DEFAULT_PARTITION})
"""Names that polars, DuckDB and pyarrow read back as null from a partition directory
whatever the percent-encoding (they decode before comparing)."""


def escape_partition(name: str | None, level: int = 0) -> str:
    """The directory value of the partition of ``name``: ``player=<this>``.

    ``level`` 0 percent-encodes the characters of ``_UNSAFE`` and a trailing ``.``;
    1 every ASCII character; 2 every character (UTF-8 bytes). Levels 1 and 2 keep
    names apart that a case-insensitive file system would merge (``Ana``/``ANA``).
    Decoding (:func:`unescape_partition`, polars, DuckDB, pyarrow, Spark) gives ``name``
    back, except for a name so long that its value exceeds 200 bytes: it is cut and
    ends with ``~`` and 16 hex digits of its SHA-256; and except for a name that
    readers would decode to a reserved value (:data:`RESERVED_PARTITIONS`, read as
    null whatever its encoding): it gets the same ``~`` suffix, so its rows are not
    read as the rows without a player. None -> :data:`DEFAULT_PARTITION`.
    """
    if name is None:
        return DEFAULT_PARTITION
    out: list[str] = []
    for ch in name:
        if ch in _UNSAFE or (level >= 1 and ch < "\x80") or level >= 2:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
        else:
            out.append(ch)
    if out and out[-1] == ".":
        out[-1] = "%2E"  # Windows drops a trailing dot
    value = "".join(out)
    if name in RESERVED_PARTITIONS:
        return value + "~" + _digest(name)
    if len(value.encode("utf-8")) > _MAX_VALUE_BYTES:
        digest = _digest(name)
        kept: list[str] = []
        size = 0
        for piece in out:  # whole escapes and characters only
            size += len(piece.encode("utf-8"))
            if size > _MAX_VALUE_BYTES - 20:
                break
            kept.append(piece)
        value = "".join(kept) + "~" + digest
    return value


def _digest(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def unescape_partition(value: str) -> str | None:
    """The name of the partition directory value ``value`` (inverse of
    :func:`escape_partition`)."""
    return None if value == DEFAULT_PARTITION else unquote(value)


def _fold(value: str) -> str:
    """How a case-insensitive, normalization-insensitive file system sees a name."""
    return unicodedata.normalize("NFC", value).casefold()


class _PartitionNames:
    """Directory values of the player partitions of one dataset, stable and distinct even
    on a case-insensitive file system."""

    def __init__(self) -> None:
        self._dirs: dict[str | None, str] = {None: DEFAULT_PARTITION}
        self._taken: dict[str, str] = {_fold(DEFAULT_PARTITION): DEFAULT_PARTITION}

    def add_existing(self, value: str) -> None:
        self._taken.setdefault(_fold(value), value)

    def dir_for(self, name: str | None) -> str:
        found = self._dirs.get(name)
        if found is not None:
            return found
        value = DEFAULT_PARTITION
        for level in (0, 1, 2):
            value = escape_partition(name, level)
            owner = self._taken.setdefault(_fold(value), value)
            if owner == value:
                break
        self._dirs[name] = value
        return value


# --------------------------------------------------------------------------- writer


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories atomically (Linux ``renameat2(RENAME_EXCHANGE)``); False when
    the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _link_tree(src: Path, dst: Path) -> None:
    """Recreate ``src`` under ``dst`` with hard links to its files (copies where links
    cannot be made); the marker is left out, it is rewritten."""
    for root, dirs, files in os.walk(src):
        rel = Path(root).relative_to(src)
        target = dst / rel
        target.mkdir(exist_ok=True)
        for d in dirs:
            (target / d).mkdir(exist_ok=True)
        for f in files:
            if rel == Path(".") and f == MARKER:
                continue
            try:
                os.link(Path(root) / f, target / f)
            except OSError:
                shutil.copy2(Path(root) / f, target / f)


def _run_name() -> str:
    """A run's name: its UTC time to the microsecond and 8 random hex digits. The writers
    of a dataset take their names under its lock, so the names of its runs, and of their
    part files, sort in the order they were written."""
    now = time.time_ns() // 1000
    return (time.strftime("%Y%m%dT%H%M%S", time.gmtime(now // 1_000_000))
            + f"{now % 1_000_000:06d}Z-{uuid.uuid4().hex[:8]}")


class DatasetWriter:
    """Writes the four tables into ``out`` atomically, one file per table and player.

    Use as a context manager: on a normal exit the dataset is committed (moved into
    place), on an exception it is discarded and ``out`` is left as it was::

        with DatasetWriter(out) as writer:
            writer.add("plays", rows)

    The rows taken go to parts (:class:`PartWriter`: Arrow tables held in memory up to
    :data:`HELD_ROWS` rows, older ones Arrow IPC files in the temporary directory) by hash
    bucket of players; the commit takes the parts a bucket and table at a time and writes
    each player's rows as one Parquet file (:func:`split_players`), so that the number of
    files does not depend on how the rows came, and memory stays bounded.

    ``append``: keep the files of an existing dataset and add new part files.
    ``batch_rows``: rows buffered as Python values (all tables) before parts are written.
    ``buckets``: hash buckets of players (more for more rows: see :data:`BUCKET_BYTES`).
    ``on_wait``: called when another writer holds the dataset's lock (this one then
    waits for it).
    """

    def __init__(self, out: str | os.PathLike[str], *, append: bool = False,
                 batch_rows: int = DEFAULT_BATCH_ROWS, buckets: int = 1,
                 on_wait: Callable[[], None] | None = None,
                 variants: frozenset[str] = frozenset()) -> None:
        self.out = Path(out)
        self.variants = variants
        """The variants the logs are replayed under (``--variant``), kept in the marker."""
        self.on_wait = on_wait
        """Called once when another writer holds the dataset and this one waits for it."""
        self._lock_fd: int | None = None
        self._lock_path = Path()
        self._known: set[str] = set()
        self._logs: list[tuple[str, str]] = []
        self.append = append
        self.batch_rows = max(1, batch_rows)
        self.buckets = max(1, buckets)
        self.rows: Counter[str] = Counter()
        """Rows written by this run, per table."""
        self.files = 0
        """Parquet files written by this run."""
        self._dest: Path | None = None
        self._tmp: Path | None = None
        self._previous: dict[str, Any] | None = None
        self._run = _run_name()
        self._names = _PartitionNames()
        self._parts: PartWriter | None = None  # the rows taken, until the commit
        self._sizes: dict[Path, int] = {}  # rows of every file written
        self._done = False

    # -- life cycle

    def __enter__(self) -> DatasetWriter:
        self.open()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.abort()

    @property
    def active(self) -> bool:
        """Opened and neither committed nor aborted."""
        return self._tmp is not None and not self._done

    def open(self) -> None:
        """Check ``out`` and create the temporary directory; :class:`DatasetError` when
        ``out`` cannot be used."""
        try:
            dest = self.out.resolve()
        except (OSError, RuntimeError) as e:  # RuntimeError: a symlink loop
            raise DatasetError(f"{self.out}: {e}") from None
        if not dest.name:
            raise DatasetError(f"{self.out}: cannot write a dataset over the file system root")
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            self._lock(dest)
            self._run = _run_name()  # named once it holds the lock: runs sort in their order
            _remove_leftovers(dest)
        except OSError as e:
            self._unlock()
            raise DatasetError(f"{self.out}: cannot write the dataset: {reason(e)}") from None
        try:
            self._open(dest)
        except BaseException:
            self._unlock()
            raise

    def _open(self, dest: Path) -> None:
        try:
            if dest.exists() or dest.is_symlink():
                if not dest.is_dir():
                    raise DatasetError(f"{self.out}: exists and is not a directory")
                entries = os.listdir(dest)
                if entries and MARKER not in entries:
                    raise DatasetError(
                        f"{self.out}: not empty and not a tichu-analyze dataset (no {MARKER});"
                        f" refusing to {'add to' if self.append else 'replace'} it: choose a"
                        " new or empty directory")
                if MARKER in entries and self.append:
                    self._previous = self._read_marker(dest)
                    self._known = _ingested(dest)
            tmp = dest.parent / f".{dest.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
            tmp.mkdir()
        except OSError as e:
            raise DatasetError(f"{self.out}: cannot write the dataset: {reason(e)}") from None
        self._dest, self._tmp = dest, tmp
        try:
            if self.append and self._previous is not None:
                _link_tree(dest, tmp)
                for table in TABLES:
                    tdir = tmp / table
                    if tdir.is_dir():
                        for part in tdir.iterdir():
                            if part.is_dir() and part.name.startswith("player="):
                                self._names.add_existing(part.name[len("player="):])
            for table in TABLES:
                (tmp / table).mkdir(exist_ok=True)
            self._parts = PartWriter(tmp / PARTS, self.buckets, self.batch_rows, ipc=True,
                                     hold_rows=HELD_ROWS)
        except BaseException as e:
            self.abort()
            if isinstance(e, OSError):
                raise DatasetError(f"{self.out}: cannot copy the dataset: {reason(e)}") from None
            raise

    def _lock(self, dest: Path) -> None:
        """Hold the dataset's lock, waiting for another writer to finish. The lock file
        is removed when released; a writer that locked a file removed meanwhile tries
        again on the new one. The holder writes its process id and host into the file:
        a waiting writer that finds the holder gone, while the lock is still held (by
        processes the holder started, which inherited it: worker processes of an earlier
        version), removes that file and locks a new one (:func:`_stale`)."""
        try:
            import fcntl
        except ImportError:  # not a POSIX system: no lock
            return
        path = dest.parent / f".{dest.name}.lock"
        told = False
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                locked = False
                while True:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        _HELD_LOCKS.add(fd)
                        locked = True
                        break
                    except BlockingIOError:
                        if self.on_wait is not None and not told:
                            self.on_wait()
                            told = True
                    if not _file_of(fd, path) or _stale(fd, path):
                        break  # (released and removed, or replaced: try the new file)
                    time.sleep(LOCK_POLL)
                with _lock_guard(path.parent):  # (see _stale)
                    same = locked and _file_of(fd, path)
                    if same:
                        os.ftruncate(fd, 0)
                        os.pwrite(fd, _holder().encode(), 0)
            except BaseException:
                _HELD_LOCKS.discard(fd)
                os.close(fd)
                raise
            if same:
                self._lock_fd, self._lock_path = fd, path
                return
            _HELD_LOCKS.discard(fd)
            os.close(fd)

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._lock_path)
            _HELD_LOCKS.discard(self._lock_fd)
            os.close(self._lock_fd)  # closing releases the lock
            self._lock_fd = None

    def new_logs(self, files: Sequence[Path],
                 force: bool = False) -> tuple[list[Path], list[Path]]:
        """``(to ingest, skipped)``: the ``files`` whose content (SHA-256 of their bytes)
        is not in the dataset being appended to, each path once (all of them with
        ``force``), and the others. Every file kept is recorded as ingested at the
        commit. A file that cannot be read is kept (reading it reports the error)."""
        if not self.active:
            raise RuntimeError("the dataset writer is not open")
        keep, skipped = [], []
        seen: set[Path] = set()
        for path in files:
            digest = _file_digest(path)
            where = real_path(path)
            if not force and (where in seen or digest is not None and digest in self._known):
                skipped.append(path)
                continue
            seen.add(where)
            if digest is not None:
                self._logs.append((digest, str(path)))
            keep.append(path)
        return keep, skipped

    def _read_marker(self, dest: Path) -> dict[str, Any]:
        try:
            marker = json.loads((dest / MARKER).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise DatasetError(f"{self.out}: unreadable {MARKER}: {e}") from None
        if not isinstance(marker, dict):
            raise DatasetError(f"{self.out}: {MARKER} is not a JSON object")
        if marker.get("schema_version") != SCHEMA_VERSION:
            raise DatasetError(
                f"{self.out}: written with dataset schema version "
                f"{marker.get('schema_version')!r}, this is version {SCHEMA_VERSION}; "
                "--append cannot mix them (ingest again without --append)")
        return marker

    # -- rows

    def add(self, table: str, rows: Iterable[Row]) -> None:
        """Buffer ``rows`` of ``table``, each a dict by column name."""
        values = _AS_TUPLE[table]
        for row in rows:
            self.add_values(table, row["player"], (values(row),))

    def add_values(self, table: str, player: str | None,
                   rows: Sequence[tuple[Any, ...]]) -> None:
        """Buffer ``rows`` of ``table``, all of them ``player``'s, each given as the tuple of
        its values in column order (the fast way of :meth:`add`)."""
        if not self.active or self._parts is None:
            raise RuntimeError("the dataset writer is not open")
        self._names.dir_for(player)  # partitions named in the order their players come
        self._parts.add_values(table, player, rows)
        self.rows[table] += len(rows)

    def name_partitions(self, parts: Sequence[Part]) -> None:
        """Name the partitions of the players of ``parts`` (a writer's parts, writers in
        the order of their input) in the order their rows came, as :meth:`add_values`
        does: of two names that differ only in case, the first keeps the plain
        directory."""
        by_writer: dict[str, list[tuple[int, str | None]]] = {}  # a writer's own folder
        for part in parts:
            came = by_writer.setdefault(os.path.dirname(part.path), [])
            came += zip(part.firsts, (player for player, _ in part.runs), strict=True)
        for came in by_writer.values():
            for _, player in sorted(came, key=itemgetter(0)):
                self._names.dir_for(player)

    def _write_players(self) -> None:
        """Write the parts' rows as one file per table and player, a bucket at a time."""
        assert self._tmp is not None and self._parts is not None
        groups: dict[tuple[str, int], list[Part]] = {}
        for part in self._parts.close():
            groups.setdefault((part.table, part.bucket), []).append(part)
        self._parts.parts.clear()  # the parts held in memory go with their group
        while groups:
            (table, _), parts = groups.popitem()
            def path_for(player: str | None, table: str = table) -> Path:
                assert self._tmp is not None
                folder = self._tmp / table / f"player={self._names.dir_for(player)}"
                folder.mkdir(exist_ok=True)
                self.files += 1
                return folder / f"part-{self._run}-{self.files:05d}.parquet"

            for _, path, rows in split_players(parts, path_for):
                self._sizes[path] = rows
            for part in parts:
                if part.data is None:
                    os.unlink(part.path)
            del parts
        shutil.rmtree(self._parts.folder)

    def add_file(self, table: str, player: str | None, path: Path, rows: int) -> None:
        """Move a finished Parquet file of ``table`` whose ``rows`` rows are all
        ``player``'s into the dataset (a part written by a worker:
        :mod:`tichu_analyze.data.staging`). It must be on the dataset's file system."""
        if not self.active:
            raise RuntimeError("the dataset writer is not open")
        assert self._tmp is not None
        folder = self._tmp / table / f"player={self._names.dir_for(player)}"
        folder.mkdir(parents=True, exist_ok=True)
        self.files += 1
        os.replace(path, folder / f"part-{self._run}-{self.files:05d}.parquet")
        self.rows[table] += rows

    # -- the end

    def commit(self) -> None:
        """Write what is buffered, close the files and move the dataset into place."""
        if not self.active:
            return
        assert self._tmp is not None and self._dest is not None
        try:
            self._write_players()
            self.files += compact_partitions(self._tmp, self._run, sizes=self._sizes)
            for table in TABLES:
                tdir = self._tmp / table
                files = list(tdir.rglob("*.parquet"))
                empty = [f for f in files if f.parent == tdir]  # (empty files alone are there)
                if len(files) > len(empty):  # rows came (an append): no empty file needed
                    for f in empty:
                        f.unlink()
                elif not files:
                    # readers fail on a table without files: give it an empty one, beside
                    # the partitions (pyarrow infers no partition type from a null alone)
                    pq.write_table(SCHEMAS[table].empty_table(),
                                   tdir / f"part-{self._run}-empty.parquet",
                                   compression="zstd")
                    self.files += 1
            self._write_ingested()
            self._write_marker()
            _replace(self._tmp, self._dest)
            self._tmp = self._tmp if self._tmp.exists() else None
        except BaseException as e:
            self.abort()
            if isinstance(e, OSError):
                raise DatasetError(f"{self.out}: cannot write the dataset: {reason(e)}") from None
            raise
        self._done = True
        if self._tmp is not None:  # the old dataset, swapped out
            shutil.rmtree(self._tmp, ignore_errors=True)
        self._unlock()

    def _write_ingested(self) -> None:
        assert self._tmp is not None
        if not self._logs:
            return
        folder = self._tmp / INGESTED
        folder.mkdir(exist_ok=True)
        (folder / f"{self._run}.txt").write_text(
            "".join(f"{digest} {json.dumps(name)}\n" for digest, name in self._logs),
            encoding="utf-8")

    def _write_marker(self) -> None:
        assert self._tmp is not None
        ingests = []
        if self.append and self._previous is not None:
            previous = self._previous.get("ingests")
            ingests = list(previous) if isinstance(previous, list) else []
        ingests.append({"run": self._run, "written_by": f"tichu-analyze {__version__}",
                        "append": self.append, "variants": sorted(self.variants),
                        "rows": {t: self.rows[t] for t in TABLES}})
        marker = {
            "dataset": "tichu-analyze",
            "schema_version": SCHEMA_VERSION,
            "tables": list(TABLES),
            "partitioning": {"flavor": "hive", "column": "player",
                             "null": DEFAULT_PARTITION, "escaping": "percent (docs/datasets.md)"},
            "ingests": ingests,
        }
        path = self._tmp / MARKER
        staging = self._tmp / (MARKER + ".new")  # a new inode: never write through a link
        staging.write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
        os.replace(staging, path)

    def abort(self) -> None:
        """Discard everything written by this run; ``out`` is left as it was."""
        if self._done:
            return
        self._done = True
        self._parts = None
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
        self._unlock()


def _file_digest(path: Path) -> str | None:
    """The SHA-256 of the file's bytes, or None when it cannot be read."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


def _listing(path: Path) -> list[tuple[str, str | None]]:
    """The logs an ingest's listing (``_ingested/RUN.txt``, :meth:`DatasetWriter._write_ingested`)
    names: ``(digest, name)`` per line, the name None where it cannot be read; nothing
    when the listing cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    found: list[tuple[str, str | None]] = []
    for line in text.splitlines():
        if len(line) > 64:
            try:
                name = json.loads(line[65:])
            except ValueError:
                name = None
            found.append((line[:64], name if isinstance(name, str) else None))
    return found


def _ingested(dest: Path) -> set[str]:
    """The digests of the logs the dataset ``dest`` holds."""
    folder = dest / INGESTED
    if not folder.is_dir():
        return set()
    return {digest for listing in folder.glob("*.txt") for digest, _ in _listing(listing)}


def ingest_variants(dest: Path) -> dict[str, frozenset[str]]:
    """Per log of the dataset ``dest`` (its path as ingested, the ``file`` column), the
    variants (``--variant``) its ingest replayed it under; a log ingested by an earlier
    version, which kept none, is missing."""
    try:
        marker = json.loads((dest / MARKER).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    runs = marker.get("ingests") if isinstance(marker, dict) else None
    found: dict[str, frozenset[str]] = {}
    for entry in runs if isinstance(runs, list) else []:
        chosen = entry.get("variants") if isinstance(entry, dict) else None
        if not isinstance(chosen, list) or not isinstance(entry.get("run"), str):
            continue
        variants = frozenset(v for v in chosen if isinstance(v, str))
        for _, name in _listing(dest / INGESTED / f"{entry['run']}.txt"):
            if name is not None:
                found[name] = variants
    return found


LOCK_POLL = 0.25
"""Seconds between two tries of a waiting writer to take the dataset's lock."""

_HELD_LOCKS: set[int] = set()
"""The descriptors of the dataset locks this process holds (and of a guard held for a
moment): a forked child closes its copies at once (:func:`_drop_inherited_locks`), so
that no worker process holds a lock after the writer that took it is gone."""


def _drop_inherited_locks() -> None:
    """In a forked child: close the copies of this process's lock descriptors (closing a
    copy leaves the parent's lock held; only the parent's own close releases it)."""
    for fd in list(_HELD_LOCKS):
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD_LOCKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_drop_inherited_locks)


def _file_of(fd: int, path: Path) -> bool:
    """Whether ``path`` is the file open as ``fd`` (not removed, nor replaced)."""
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def _holder() -> str:
    """What a writer records in the lock file it holds: its process id and host."""
    import socket

    return f"{os.getpid()} {socket.gethostname()}\n"


def _gone(pid: int) -> bool:
    """Whether process ``pid`` of this host has ended (or is a zombie: its descriptors are
    closed, so its lock is held, if at all, by processes it started)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists, but is not ours
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[-1].split()[0] == b"Z"
    except (OSError, IndexError):
        return False


def _stale(fd: int, path: Path) -> bool:
    """Whether the lock file ``path`` (open as ``fd``, whose lock another holds) names a
    holder on this host that is gone; if so it is removed, so the caller locks a new one.

    A lock that outlives its holder is held by processes the holder forked (they share its
    open file): worker processes left running by a killed ingest of an earlier version.
    The check and the removal happen under a guard (a lock on the folder) that a writer
    also takes while it records itself in a lock it took, so a lock just taken from
    workers that ended is never removed under its new holder."""
    try:
        pid_text, host = os.pread(fd, 256, 0).decode("ascii").split()
        pid = int(pid_text)
    except (OSError, ValueError):
        return False  # no holder recorded (an earlier version, or one just taking it)
    import socket

    if host != socket.gethostname() or not _gone(pid):
        return False
    with _lock_guard(path.parent) as guarded:
        if not guarded:
            return False
        try:
            again = os.pread(fd, 256, 0).decode("ascii").split()
            if (again != [pid_text, host]
                    or os.stat(path).st_ino != os.fstat(fd).st_ino):
                return False  # taken by another meanwhile, or already removed
            os.unlink(path)
        except (OSError, UnicodeDecodeError):
            return False
    return True


@contextlib.contextmanager
def _lock_guard(folder: Path) -> Iterator[bool]:
    """A lock on ``folder`` for a moment (whether it could be had: a folder that cannot
    be locked, on some network file systems, gives none)."""
    import fcntl

    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield False
        return
    _HELD_LOCKS.add(fd)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            yield False
            return
        yield True
    finally:
        _HELD_LOCKS.discard(fd)
        os.close(fd)


def _remove_leftovers(dest: Path) -> None:
    """Remove what killed writers of ``dest`` left beside it (the caller holds the lock,
    so no other writer is at work): temporary and staging directories, and the old
    dataset of a swap that was interrupted (put back when ``dest`` is missing)."""
    prefix = f".{dest.name}."
    for entry in os.scandir(dest.parent):
        name = entry.name
        if not name.startswith(prefix) or not entry.is_dir(follow_symlinks=False):
            continue
        kind = name[len(prefix):].split("-", 1)[0]
        if kind == "old" and not os.path.lexists(dest):
            os.rename(entry.path, dest)
        elif kind in ("tmp", "old", "staging"):  # staging: a parallel ingest's parts
            shutil.rmtree(entry.path, ignore_errors=True)


COMPACT_FILES = 2
"""The most files a player partition holds after a commit (in each table)."""

ROW_GROUP_ROWS = 1 << 17
"""Rows per row group in compacted files."""


FULL_ROWS = 1 << 16
"""A file of this run with this many rows is not merged with the run's other files while
the partition holds no more than :data:`COMPACT_FILES` files: it is no small file."""


def compact_partitions(root: Path, run: str, *, most: int = COMPACT_FILES,
                       row_group_rows: int = ROW_GROUP_ROWS,
                       sizes: dict[Path, int] | None = None) -> int:
    """Compact the player partitions of the dataset being written in ``root`` so that
    each holds at most ``most`` files (``most`` >= 2); rows keep their order.

    The small files (under :data:`FULL_ROWS` rows) written by ``run`` become one file per
    partition. A partition that still holds more than ``most`` files (after appends) is
    compacted in two levels: the first file (the oldest, usually the largest) stays when
    it holds at least as many rows as all the others together, which are merged into
    one; otherwise all are merged into one. So a row is rewritten only when the newer
    rows of its partition have grown to as many as the older ones, and a reader meets
    at most two files. ``sizes``: the rows of files whose size is known (others are read
    from their footers). Returns the change in the number of files (zero or negative)."""
    known = dict(sizes or {})
    most = max(2, most)

    def rows_of(f: Path) -> int:
        rows = known.get(f)
        if rows is None:
            rows = known[f] = pq.ParquetFile(f).metadata.num_rows
        return rows

    change = 0
    for table in TABLES:
        tdir = root / table
        if not tdir.is_dir():
            continue
        for folder in sorted(tdir.iterdir()):
            files = sorted(folder.glob("*.parquet")) if folder.is_dir() else []
            if len(files) < 2:
                continue
            new = [f for f in files if f.name.startswith(f"part-{run}-")]
            merge = [f for f in new if rows_of(f) < FULL_ROWS]
            if len(merge) > 1:  # this run's small files: one
                target = folder / f"part-{run}-c.parquet"
                known[target] = merge_parquet(merge, target, SCHEMAS[table], row_group_rows)
                for f in merge:
                    f.unlink()
                change -= len(merge) - 1
                files = sorted(folder.glob("*.parquet"))
            if len(files) <= most:
                continue
            base, rest = files[0], files[1:]
            merge = rest if rows_of(base) >= sum(map(rows_of, rest)) else files
            target = folder / f"part-{run}-m.parquet"  # sorts after this run's own files
            known[target] = merge_parquet(merge, target, SCHEMAS[table], row_group_rows)
            for f in merge:
                f.unlink()
            change -= len(merge) - 1
    return change


def merge_parquet(files: Sequence[Path], dest: Path, schema: pa.Schema,
                  row_group_rows: int = ROW_GROUP_ROWS) -> int:
    """Write the rows of ``files`` into ``dest`` (in row groups of ``row_group_rows``,
    holding one row group in memory; ``dest`` appears when complete); the rows written."""
    rows = 0
    tmp = dest.with_name(dest.name + ".tmp")
    pending: list[pa.Table] = []
    held = 0
    total = sum(pq.ParquetFile(f).metadata.num_rows for f in files)
    with pq.ParquetWriter(tmp, schema, compression=_codec(total, len(schema))) as writer:
        for f in files:
            source = pq.ParquetFile(f)
            for i in range(source.num_row_groups):
                group = source.read_row_group(i)
                rows += group.num_rows
                pending.append(group)
                held += group.num_rows
                if held >= row_group_rows:
                    writer.write_table(pa.concat_tables(pending).cast(schema),
                                       row_group_size=row_group_rows)
                    pending, held = [], 0
        if pending:
            writer.write_table(pa.concat_tables(pending).cast(schema),
                               row_group_size=row_group_rows)
    os.replace(tmp, dest)
    return rows


def _replace(tmp: Path, dest: Path) -> None:
    """Put the directory ``tmp`` in the place of ``dest``; afterwards ``tmp`` holds the old
    ``dest`` or no longer exists."""
    if not os.path.lexists(dest):
        os.rename(tmp, dest)
        return
    if _exchange(tmp, dest):
        return
    old = dest.parent / f".{dest.name}.old-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    os.rename(dest, old)
    try:
        os.rename(tmp, dest)
    except BaseException:
        os.rename(old, dest)
        raise
    os.rename(old, tmp)


# --------------------------------------------------------------------------- ingest


class _WriteFailed(Exception):
    """An error of the writer inside a replay callback, carried past ``replay_file``
    (which would take an OSError or ValueError for an unreadable log)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


@contextlib.contextmanager
def fewer_full_collections() -> Iterator[None]:
    """The buffered rows are many long-lived objects that the garbage collector would scan
    again and again in full collections (a fifth of the run time); make those rarer while
    ingesting, and the young collections too (the replay and the rows allocate objects
    by the million, few of them in cycles: about 7% of the run time)."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, 100_000), middle, max(old, 1000))
    try:
        yield
    finally:
        gc.set_threshold(young, middle, old)


@contextlib.contextmanager
def _writing() -> Iterator[None]:
    try:
        yield
    except (OSError, ValueError) as e:
        raise _WriteFailed(e) from e


@dataclass
class IngestResult:
    """What :func:`ingest` did."""

    totals: Counter[str] = field(default_factory=Counter)
    """files, games, rounds, events replayed (the ``check`` summary's counts)."""
    errors: list[LogError] = field(default_factory=list)
    """Files that could not be read; when any, nothing was written."""
    rows: Counter[str] = field(default_factory=Counter)
    """Rows written per table."""
    skipped: list[Path] = field(default_factory=list)
    """Logs left out because the dataset already holds their content (or they were given
    twice)."""
    written: bool = False


def ingest(
    files: Sequence[Path],
    out: str | os.PathLike[str],
    *,
    append: bool = False,
    report: Callable[[Diagnostic], None] | None = None,
    show_progress: bool = False,
    batch_rows: int = DEFAULT_BATCH_ROWS,
    variants: frozenset[str] = frozenset(),
    force: bool = False,
    on_wait: Callable[[], None] | None = None,
) -> IngestResult:
    """Replay ``files`` and write their datasets into ``out``.

    A log whose content the dataset already holds (``append``), or whose path was given
    twice, is skipped (listed in ``IngestResult.skipped``) unless ``force``.
    ``on_wait`` is called when another ingest into ``out`` is running: this one then
    waits for it to finish.

    ``report`` also gets every diagnostic. When a file cannot be read the other files
    are still replayed (to report every problem) but nothing is written and ``out`` is
    left as it was. :class:`DatasetError` when ``out`` cannot be written.
    """
    from ..run.progress import progress_over

    result = IngestResult()
    size = 0
    for path in files:
        with contextlib.suppress(OSError):
            size += os.stat(path).st_size
    writer = DatasetWriter(out, append=append, batch_rows=batch_rows,
                           buckets=-(-size // BUCKET_BYTES), on_wait=on_wait,
                           variants=variants)
    visitor = DatasetVisitor(writer, report)
    try:
        with fewer_full_collections(), writer:
            files, result.skipped = writer.new_logs(files, force)
            if not files:
                writer.abort()  # nothing new: the dataset is left as it was
            for _, stats in progress_over(list(files), visitor, show=show_progress,
                                          variants=variants):
                if isinstance(stats, LogError):
                    result.errors.append(stats)
                    writer.abort()
                    continue
                result.totals["files"] += 1
                result.totals["games"] += stats.games
                result.totals["rounds"] += stats.rounds
                result.totals["events"] += stats.events
    except _WriteFailed as failure:
        if isinstance(failure.error, OSError):
            why = reason(failure.error)
            raise DatasetError(f"{out}: cannot write the dataset: {why}") from None
        raise failure.error from None
    result.written = not result.errors and bool(files)
    if result.written:
        result.rows = Counter(writer.rows)
    return result


class DatasetVisitor(Visitor):
    """The replay's visitor that writes the four tables: a ``plays`` row per play and
    pass (streamed; ``wins_trick`` set when the trick is taken), the ``rounds`` rows when
    a round is closed, the ``games`` rows when a game ends, a ``violations`` row per
    diagnostic (also handed to ``report``). Each round is credited to the players who
    played it (``round_start.players``).

    The rows go to ``writer.add_values(table, player, rows)``: one player's rows, each
    as its values in column order (:meth:`DatasetWriter.add_values`)."""

    def __init__(self, writer: RowWriter,
                 report: Callable[[Diagnostic], None] | None = None) -> None:
        self.writer = writer
        self.report = report
        self._plays = PlayRows()
        self._seated: dict[str, Seated] = {}
        # The replay calls these for every event: straight to the compiled row code,
        # without a frame of this class in between (the methods below say the same;
        # a subclass that overrides them keeps its own).
        cls = type(self)
        if cls.visit_event is DatasetVisitor.visit_event:
            self.visit_event = self._plays.visit_event  # type: ignore[method-assign]
        if cls.visit_trick is DatasetVisitor.visit_trick:
            self.visit_trick = self._plays.visit_trick  # type: ignore[method-assign]

    def begin_round(self, game: GameState, rnd: RoundState) -> None:
        open_round = self._plays.begin_round(game, rnd, _text(game.file))
        seated = self._seated.setdefault(game.id, {})
        seating = open_round.seating
        for seat, name in enumerate(rnd.players):
            key = (seat, name)
            if game.rules.per_person:  # a row per person, whatever its seat; the dummy is none
                if seat == rnd.dummy:
                    continue
                key = next((k for k in seated if k[1] == name), key)
                rounds = seated[key][0] if key in seated else 0
                seated[key] = (rounds + 1, None, None)
                continue
            if key in seated:
                rounds, partner, mates = seated[key]
            else:
                rounds, partner, mates = 0, seating.partner[seat], seating.partners[seat]
            seated[key] = (rounds + 1, partner, mates)

    def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
        self._plays.visit_event(game, rnd, step)

    def visit_trick(self, game: GameState, rnd: RoundState, trick: Trick) -> None:
        self._plays.visit_trick(game, rnd, trick)

    def end_round(self, game: GameState, rnd: RoundState) -> None:
        open_round = self._plays.end_round(game)
        writer = self.writer
        if not writer.active:
            return
        with _writing():
            if open_round is not None:
                for seat, rows in enumerate(open_round.plays):
                    if not rows:
                        continue
                    if not rnd.substitutes:
                        writer.add_values("plays", open_round.players[seat], rows)
                        continue
                    # a substitute took a seat: each play goes to who made it
                    by_player: dict[str, list[tuple[Any, ...]]] = {}
                    for row in rows:
                        by_player.setdefault(row[_PLAY_PLAYER], []).append(row)
                    for name, mine in by_player.items():
                        writer.add_values("plays", name, mine)
            for values in round_values(game, rnd, _text(game.file)):
                writer.add_values("rounds", values[_ROUND_PLAYER], (values,))

    def end_game(self, game: GameState) -> None:
        seated = self._seated.pop(game.id, None)
        if self.writer.active:
            with _writing():
                values = _AS_TUPLE["games"]
                for row in game_rows(game, seated):
                    self.writer.add_values("games", row["player"], (values(row),))

    def visit_diagnostic(self, diag: Diagnostic) -> None:
        if self.writer.active:
            with _writing():
                row = violation_row(diag)
                self.writer.add_values("violations", row["player"], (_AS_TUPLE["violations"](row),))
        if self.report is not None:
            self.report(diag)


class RowWriter(Protocol):
    """Where :class:`DatasetVisitor` puts its rows: a :class:`DatasetWriter`, or a worker's
    :class:`~tichu_analyze.data.staging.PartWriter`."""

    @property
    def active(self) -> bool:
        """Rows are taken (not yet committed nor aborted)."""

    def add_values(self, table: str, player: str | None,
                   rows: Sequence[tuple[Any, ...]]) -> None:
        """Take ``rows`` of ``table``, all of them ``player``'s, each the tuple of its values
        in column order."""


def replay_rows(
    path: Path,
    name: str,
    writer: RowWriter,
    *,
    report: Callable[[Diagnostic], None] | None = None,
    variants: frozenset[str] = frozenset(),
    start: int = 0,
    end: int | None = None,
    first_line: int = 1,
) -> FileStats:
    """Replay one work unit (a file, or a byte range of one: :func:`~tichu_analyze.readers.logfile.\
replay_file`) shown as ``name``, handing its rows to ``writer`` through a
    :class:`DatasetVisitor`; ``report`` also gets every diagnostic. :class:`LogError` when
    the file cannot be read."""
    try:
        return replay_file(path, DatasetVisitor(writer, report), display=name,
                           variants=variants, start=start, end=end, first_line=first_line)
    except _WriteFailed as failure:
        raise failure.error from None


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM raises :class:`KeyboardInterrupt` (as Ctrl-C does), so that
    :class:`DatasetWriter` removes its temporary directory. Does nothing outside the main
    thread."""
    import signal

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # signals can only be handled in the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
