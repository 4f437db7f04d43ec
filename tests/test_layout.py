"""The dataset layout stays compact: one file per player partition after an ingest,
at most a few after appends, with the same rows."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tichu_analyze import datasets
from tichu_analyze.cli import app
from tichu_analyze.datasets import COMPACT_FILES, SCHEMAS, DatasetWriter, scan
from tichu_analyze.logfile import write_log
from tichu_analyze.simulate import simulate

runner = CliRunner()


def _files_per_partition(dataset: Path) -> Counter[Path]:
    return Counter(f.parent for f in dataset.rglob("*.parquet"))


def test_many_players_many_flushes_one_file_per_partition(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    # tiny buffers and few open files: every partition is written in many pieces
    with DatasetWriter(out, batch_rows=50, max_open_files=3) as writer:
        for table in ("plays", "games"):
            rows = [{"player": f"p{i % 7}", **dict.fromkeys(
                (c for c in SCHEMAS[table].names if c != "player"), None)} for i in range(700)]
            writer.add(table, rows)
    counts = _files_per_partition(out)
    assert counts and max(counts.values()) == 1
    plays = scan(out, "plays").collect()
    assert plays.height == 700 and plays["player"].value_counts().height == 7
    [group_rows] = {pq.ParquetFile(f).metadata.num_row_groups
                    for f in (out / "plays").rglob("*.parquet")}
    assert group_rows == 1  # the tiny row groups were merged


def test_appends_keep_a_few_files_per_partition(tmp_path: Path) -> None:
    log = tmp_path / "pool.jsonl"
    write_log(simulate(4, 2, players=12), log)
    out = tmp_path / "ds"
    for i in range(COMPACT_FILES + 2):
        args = ["ingest", "-q", str(log), "-o", str(out)] + (["--append", "--force"] if i else [])
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.stderr
        assert max(_files_per_partition(out).values()) <= COMPACT_FILES
    single = tmp_path / "one"
    assert runner.invoke(app, ["ingest", "-q", str(log), "-o", str(single)]).exit_code == 0
    for table in ("plays", "rounds", "games"):
        n = scan(single, table).collect().height
        assert scan(out, table).collect().height == n * (COMPACT_FILES + 2)


def test_large_partitions_roll_their_files_and_keep_them(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # pyarrow keeps each row group's metadata while a file is open: a partition's file is
    # closed after FILE_GROUPS row groups; files that are not small are not compacted
    monkeypatch.setattr(datasets, "FULL_ROWS", 40)
    out = tmp_path / "ds"
    row = {c: None for c in SCHEMAS["plays"].names} | {"player": "p"}
    with DatasetWriter(out, batch_rows=10) as writer:
        writer.add("plays", [row] * 700)
    sizes = sorted(pq.ParquetFile(f).metadata.num_rows for f in (out / "plays").rglob("*.parquet"))
    per_file = 10 * datasets.HELD_BATCHES * datasets.FILE_GROUPS
    assert sizes == sorted([per_file] * (700 // per_file) + [700 % per_file]) and len(sizes) > 1
    assert scan(out, "plays").collect().height == 700
