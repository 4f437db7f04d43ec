"""The dataset layout stays compact: one file per player partition after an ingest,
at most a few after appends, with the same rows."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.data import datasets
from tichu_analyze.data.datasets import COMPACT_FILES, SCHEMAS, DatasetWriter, scan
from tichu_analyze.readers.logfile import write_log
from tichu_analyze.sim.simulate import simulate

runner = CliRunner()


def _files_per_partition(dataset: Path) -> Counter[Path]:
    return Counter(f.parent for f in dataset.rglob("*.parquet"))


def test_many_players_many_flushes_one_file_per_partition(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "ds"
    # tiny buffers, several buckets, few rows held in memory: every partition's rows come
    # in many parts, most of them files
    monkeypatch.setattr(datasets, "HELD_ROWS", 700)
    with DatasetWriter(out, batch_rows=50, buckets=3) as writer:
        for table in ("plays", "games"):
            rows = [{"player": f"p{i % 7}", **dict.fromkeys(
                (c for c in SCHEMAS[table].names if c not in ("player", "line")), None),
                "line": i} for i in range(700)]
            writer.add(table, rows)
        assert len(list((writer._tmp / datasets.PARTS).iterdir())) > 7  # type: ignore[operator]
    counts = _files_per_partition(out)
    assert counts and max(counts.values()) == 1
    assert not list(out.rglob(datasets.PARTS))  # the parts are gone with the commit
    plays = scan(out, "plays").collect()
    assert plays.height == 700 and plays["player"].value_counts().height == 7
    for (player,), rows in plays.group_by("player"):  # each player's rows in their order
        assert rows["line"].to_list() == [i for i in range(700) if f"p{i % 7}" == player]
    [group_rows] = {pq.ParquetFile(f).metadata.num_row_groups
                    for f in (out / "plays").rglob("*.parquet")}
    assert group_rows == 1  # the tiny parts were merged


def test_small_files_are_snappy_large_ones_zstd(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    row = {c: None for c in SCHEMAS["plays"].names}
    big = -(-datasets.SNAPPY_BELOW // len(SCHEMAS["plays"]))  # rows of the first zstd file
    with DatasetWriter(out) as writer:
        writer.add("plays", [row | {"player": "small"}] * (big - 1))
        writer.add("plays", [row | {"player": "large"}] * big)
    codecs = {f.parent.name: pq.ParquetFile(f).metadata.row_group(0).column(0).compression
              for f in (out / "plays").rglob("*.parquet")}
    assert codecs == {"player=small": "SNAPPY", "player=large": "ZSTD"}


def _sorted_rows(dataset: Path, table: str) -> list[str]:
    """A table's rows as JSON lines, sorted (nested columns included)."""
    frame = scan(dataset, table).collect()
    return sorted(frame.select(sorted(frame.columns)).write_ndjson().splitlines())


def test_five_appends_keep_at_most_two_files_per_partition(tmp_path: Path) -> None:
    log = tmp_path / "pool.jsonl"
    write_log(simulate(4, 2, players=12), log)
    out = tmp_path / "ds"
    ingests = 6  # the first ingest and five appends
    for i in range(ingests):
        args = ["ingest", "-q", str(log), "-o", str(out)] + (["--append", "--force"] if i else [])
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.stderr
        assert max(_files_per_partition(out).values()) <= COMPACT_FILES == 2
    single = tmp_path / "one"
    assert runner.invoke(app, ["ingest", "-q", str(log), "-o", str(single)]).exit_code == 0
    for table in ("plays", "rounds", "games"):
        assert _sorted_rows(out, table) == sorted(_sorted_rows(single, table) * ingests)


def test_compaction_keeps_a_large_first_file_and_merges_the_newer_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the two levels: a first file at least as large as the others together stays; once
    # the newer rows outgrow it, everything becomes one file; the rows and their order stay
    row = {c: None for c in SCHEMAS["games"].names} | {"player": "p"}
    out = tmp_path / "ds"
    with DatasetWriter(out) as writer:
        writer.add("games", [row | {"line": i} for i in range(100)])
    first = {f.name for f in (out / "games").rglob("*.parquet")}
    expected = list(range(100))
    for k in range(1, 12):
        with DatasetWriter(out, append=True) as writer:
            writer.add("games", [row | {"line": 1000 * k + i} for i in range(20)])
        expected += [1000 * k + i for i in range(20)]
        files = sorted((out / "games").rglob("*.parquet"))
        assert len(files) <= 2
        if k <= 5:  # up to 100 newer rows: the first file is kept as it was
            assert first <= {f.name for f in files}
        if k == 6:  # 120 newer rows against 100: one file
            assert len(files) == 1
        lines = [x for f in files for x in pq.read_table(f, columns=["line"])["line"].to_pylist()]
        assert lines == expected


def test_a_large_partition_is_written_a_row_group_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a player's rows are not all held at once: once more than HELD_ROWS wait, the
    # player's file is begun and its rows written as a row group; the rows keep their order
    monkeypatch.setattr(datasets, "ROW_GROUP_ROWS", 40)
    monkeypatch.setattr(datasets, "HELD_ROWS", 40)
    held: list[int] = []
    split = datasets.pa.concat_tables

    def spy(tables: list[pa.Table]) -> pa.Table:
        held.append(sum(t.num_rows for t in tables))
        return split(tables)

    monkeypatch.setattr(datasets.pa, "concat_tables", spy)
    out = tmp_path / "ds"
    row = {c: None for c in SCHEMAS["plays"].names} | {"player": "p"}
    with DatasetWriter(out, batch_rows=10) as writer:
        writer.add("plays", [row | {"line": i} for i in range(700)])
    [file] = (out / "plays").rglob("*.parquet")
    meta = pq.ParquetFile(file).metadata
    assert meta.num_rows == 700 and meta.num_row_groups >= 700 // 40
    assert max(meta.row_group(i).num_rows for i in range(meta.num_row_groups)) <= 40
    assert held and max(held) < 40 + 10 + 1
    assert scan(out, "plays").collect()["line"].to_list() == list(range(700))


@pytest.mark.parametrize("buckets", [1, 2, 3, 5, 8])
def test_names_that_differ_in_case_take_directories_in_the_order_they_come(
        tmp_path: Path, buckets: int) -> None:
    # on a case-insensitive file system "Ana" and "ANA" would share a directory: the first
    # name to come keeps its plain directory, the other is escaped further, whatever the
    # order in which the commit writes the players' files
    out = tmp_path / "ds"
    row = {c: None for c in SCHEMAS["games"].names}
    with DatasetWriter(out, buckets=buckets) as writer:
        for name in ("Zed", "Ana", "ANA", "ana"):
            writer.add("games", [row | {"player": name}])
    dirs = sorted(d.name for d in (out / "games").iterdir())
    assert "player=Zed" in dirs and "player=Ana" in dirs
    assert len({d.casefold() for d in dirs}) == len(dirs) == 4
    assert sorted(scan(out, "games").collect()["player"].to_list()) == ["ANA", "Ana", "Zed", "ana"]


def test_worker_tasks_name_partitions_as_a_serial_ingest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # names that differ only in case, in many buckets, first met in another order than
    # the commit's: the tasks of a staged ingest (one per log here) name the directories
    # as a serial run does
    from tichu_analyze.data import staging
    from tichu_analyze.data.staging import ingest_staged
    from tichu_analyze.run.driver import SerialBackend

    monkeypatch.setattr(staging, "BUCKET_BYTES", 1000)
    # Zed (the first seat of the first log) shares a bucket with Ana, not with ANA: the
    # split of that bucket comes first, and meets Ana before ANA's bucket is split
    monkeypatch.setattr(datasets, "bucket_of",
                        lambda player, buckets: 0 if player in ("Zed", "Ana") else 1)

    seatings = [["Zed", "ANA", "bo", "Cy"], ["Ana", "BO", "Cy", "Dee"], ["ana", "Bo", "dee", "CY"]]
    logs = []
    for i, names in enumerate(seatings):
        events = list(simulate(1, 40 + i))
        for ev in events:
            if ev["type"] == "game_start":
                ev["players"] = names
        logs.append(tmp_path / f"day{i}.jsonl")
        write_log(events, logs[-1])
    datasets.ingest(logs, tmp_path / "serial")
    ingest_staged(logs, tmp_path / "staged", SerialBackend(), task_bytes=1)

    def listing(out: Path) -> list[str]:
        return sorted(str(f.parent.relative_to(out)) for f in out.rglob("*.parquet"))

    assert listing(tmp_path / "staged") == listing(tmp_path / "serial")
    assert "plays/player=ANA" in listing(tmp_path / "serial")  # the first of its names
