"""The multi-file driver: work units, byte ranges cut at game boundaries, results in
input order equal to a serial run (in this process and in local processes)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.core.diagnostics import Diagnostic
from tichu_analyze.readers.logfile import check_file, write_log
from tichu_analyze.run import driver
from tichu_analyze.run.driver import ProcessBackend, SerialBackend, Unit, check_task, plan, run
from tichu_analyze.sim.simulate import simulate

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "sample_logs"
RULES = Path(__file__).parent / "fixtures" / "rules"

runner = CliRunner()


def _lines(paths: list[Path], *, unique_ids: bool) -> list[str]:
    """The lines of ``paths`` one after the other; with ``unique_ids`` each file's game
    ids are made its own (so that games of different files do not mix)."""
    out: list[str] = []
    for i, path in enumerate(paths):
        for line in path.read_text(encoding="utf-8").splitlines():
            if unique_ids:
                line = re.sub(r'"game":\s*"([^"]*)"', rf'"game":"f{i}-\1"', line)
            out.append(line)
    return out


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Large-ish logs of every shape: games apart, ids repeated across the file, games
    interleaved, a game left open in the middle."""
    folder = tmp_path_factory.mktemp("driver")
    violations = sorted(SAMPLES.glob("*.jsonl")) + sorted(RULES.glob("*.jsonl"))[:60]
    sim = folder / "sim.jsonl"
    write_log(simulate(6, 3), sim)
    made = {
        "clean": _lines([sim], unique_ids=False),
        "apart": _lines([sim, *violations, sim], unique_ids=True),
        "repeated": _lines([*violations, sim], unique_ids=False),
    }
    games = [json.loads(x) for x in sim.read_text().splitlines()]
    a = [json.dumps(e) for e in games if e["game"].endswith("-1")]
    b = [json.dumps(e) for e in games if e["game"].endswith("-2")]
    mixed = [line for pair in zip(a, b, strict=False) for line in pair]
    made["interleaved"] = [*made["apart"][:400], *mixed, *made["apart"][400:]]
    ended = [f for f in sorted(RULES.glob("*.jsonl")) if '"game_end"' in f.read_text()]
    made["late"] = [*_lines([sim, *ended], unique_ids=True), *mixed,
                    *_lines([sim], unique_ids=False)]
    no_end = [x for x in made["apart"] if '"game_end"' not in x or '"f0-' not in x]
    made["open"] = no_end
    paths = {}
    for name, lines in made.items():
        paths[name] = folder / f"{name}.jsonl"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def _driven(paths: list[Path], backend: object, **kw: int) -> tuple[list[Diagnostic], list]:
    found: list[Diagnostic] = []
    results = list(run(plan(paths, 2, **kw), check_task, (frozenset(),), backend,  # type: ignore[arg-type]
                       report=found.append))
    return found, results


@pytest.mark.parametrize("name", ["clean", "apart", "repeated", "interleaved", "open", "late"])
@pytest.mark.parametrize("target", [300, 5000])
def test_ranges_give_the_serial_diagnostics(logs: dict[str, Path], name: str,
                                            target: int) -> None:
    path = logs[name]
    tasks = list(plan([path], 2, task_bytes=target, split_bytes=target))
    assert len(tasks) > 3  # the file is cut
    serial = check_file(path)
    found, results = _driven([path], SerialBackend(), task_bytes=target, split_bytes=target)
    assert found == serial
    [result] = results
    whole = _driven([path], SerialBackend(), split_bytes=1 << 40)[1][0].stats
    assert (result.stats.games, result.stats.rounds, result.stats.events) == (
        whole.games, whole.rounds, whole.events)


@pytest.mark.parametrize(("name", "redone"), [("clean", False), ("open", True),
                                              ("interleaved", True), ("late", True)])
def test_a_cut_stands_only_between_games_apart(logs: dict[str, Path], name: str, redone: bool,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[bool] = []
    take = driver._Split.take

    def counted(self: driver._Split, unit: Unit, result: driver.UnitResult) -> Unit | None:
        redo = take(self, unit, result)
        taken.append(redo is not None)
        return redo

    monkeypatch.setattr(driver._Split, "take", counted)
    _driven([logs[name]], SerialBackend(), task_bytes=300, split_bytes=300)
    assert any(taken) is redone
    assert len(taken) > 3 or redone


def test_cuts_are_at_game_starts_with_their_line_numbers(logs: dict[str, Path]) -> None:
    path = logs["apart"]
    lines = path.read_bytes().splitlines(keepends=True)
    tasks = list(plan([path], 2, task_bytes=2000, split_bytes=2000))
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    units = [u for t in tasks for u in t]
    assert units[0].start == 0 and units[-1].end == starts[-1]
    for u in units[1:]:
        assert u.start == starts[u.first_line - 1]
        assert b'"game_start"' in lines[u.first_line - 1]
    assert [u.part for u in units] == list(range(len(units)))
    assert all(u.ranged for u in units) and [u.last for u in units] == [
        *[False] * (len(units) - 1), True]


def test_ranges_shrink_towards_the_end_and_come_as_found(logs: dict[str, Path]) -> None:
    path = logs["apart"]
    size = path.stat().st_size
    tasks = plan([path], 2, task_bytes=300, split_bytes=300)
    first = next(tasks)  # made before the rest of the file is read
    [unit] = first
    assert unit.ranged and not unit.last and unit.size >= size // 4
    units = [unit, *(u for t in tasks for u in t)]
    assert units[-1].last and units[-1].end == size
    # each range is cut at the first game_start after a quarter of what is left (two
    # workers), or after 300 bytes at the end
    for u in units[:-1]:
        assert u.size >= max(300, (size - u.start) // 4)
    assert units[-2].size < units[0].size // 4


def test_small_files_are_batched_in_input_order() -> None:
    files = sorted(RULES.glob("*.jsonl"))[:40]
    tasks = list(plan(files, 2, task_bytes=4000))
    assert 1 < len(tasks) < len(files)
    units = [u for t in tasks for u in t]
    assert [u.name for u in units] == [str(f) for f in files]
    assert not any(u.ranged for u in units) and all(u.last for u in units)


def test_processes_keep_input_order(logs: dict[str, Path]) -> None:
    files = [*sorted(SAMPLES.glob("*.jsonl")), logs["repeated"], logs["interleaved"]]
    serial = [d for f in files for d in check_file(f)]
    on = ProcessBackend(2)
    try:
        found, results = _driven(files, on, task_bytes=3000, split_bytes=3000)
    finally:
        on.close()
    assert found == serial
    assert [r.path for r in results] == files


def test_unreadable_file_is_a_result_not_a_crash(tmp_path: Path) -> None:
    gone = Unit(str(tmp_path / "gone.jsonl"), "gone.jsonl", 0, 0)
    [result] = check_task([gone], frozenset())
    assert "cannot read" in str(result.stats)


def test_check_jobs_output_is_byte_identical(logs: dict[str, Path]) -> None:
    args = ["check", "-q", "-f", "json", str(SAMPLES), str(logs["repeated"])]
    serial = runner.invoke(app, args)
    parallel = runner.invoke(app, [*args, "--jobs", "2"])
    assert serial.exit_code == parallel.exit_code == 1
    assert serial.stdout == parallel.stdout and serial.stdout


def test_convert_jobs_output_is_identical(tmp_path: Path) -> None:
    from tichu_analyze.readers.bsw import write_tch

    events = list(simulate(3, 5))
    for game in {e["game"] for e in events}:
        (tmp_path / f"{game}.tch").write_text(
            write_tch([e for e in events if e["game"] == game]), encoding="utf-8")
    (tmp_path / "real.tch").write_bytes((SAMPLES / "2417500.tch").read_bytes())
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    a = runner.invoke(app, ["convert", str(tmp_path), "-o", str(one)])
    b = runner.invoke(app, ["convert", str(tmp_path), "-o", str(two), "--jobs", "2"])
    assert a.exit_code == b.exit_code == 0, a.stderr + b.stderr
    assert one.read_bytes() == two.read_bytes()
    assert "4 games" in b.stderr


def test_scheduler_without_dask_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    for command in (["check"], ["ingest", "-o", "unused-out"], ["convert", "-o", "x.jsonl"]):
        result = runner.invoke(app, [*command, str(SAMPLES), "--scheduler", "local"])
        assert result.exit_code == 2
        assert "pip install 'tichu-analyze[dask]'" in result.stderr
    assert not Path("unused-out").exists()


def test_scheduler_address_is_checked() -> None:
    result = runner.invoke(app, ["check", str(SAMPLES), "--scheduler", "somewhere"])
    assert result.exit_code == 2
    assert "tcp://HOST:8786" in result.stderr


@pytest.mark.parametrize("port", ["99999", "65536", "8x"])
def test_a_scheduler_port_out_of_range_is_named_at_once(port: str) -> None:
    """Not the client's timeout (20 s) for a host it cannot reach: the port is wrong."""
    import time

    start = time.monotonic()
    result = runner.invoke(app, ["check", str(SAMPLES), "--scheduler", f"tcp://host:{port}"])
    assert result.exit_code == 2
    assert result.stderr == (f"error: --scheduler tcp://host:{port}: '{port}' is not a port "
                             "number (a port is 1 to 65535, as in tcp://HOST:8786)\n")
    assert time.monotonic() - start < 10


def test_ingest_jobs_rows_are_the_serial_rows(logs: dict[str, Path], tmp_path: Path) -> None:
    from tichu_analyze.data.datasets import TABLES, scan

    args = ["ingest", "-q", str(SAMPLES), str(logs["late"])]
    one, two = tmp_path / "one", tmp_path / "two"
    assert runner.invoke(app, [*args, "-o", str(one)]).exit_code == 0
    result = runner.invoke(app, [*args, "-o", str(two), "--jobs", "2"])
    assert result.exit_code == 0, result.stderr
    for table in TABLES:
        a, b = (sorted(map(repr, scan(d, table).collect().iter_rows())) for d in (one, two))
        assert a == b and a
    files = [f.parent for f in two.rglob("*.parquet")]
    assert len(files) == len(set(files))  # one file per table and player
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one", "two"]


def test_ingest_jobs_append_skips_logs_already_held(logs: dict[str, Path],
                                                    tmp_path: Path) -> None:
    """The parallel (staged) ingest keeps issue 10's promise: logs already in the dataset
    are skipped on --append (rows not doubled), --force ingests them again."""
    from tichu_analyze.data.datasets import scan

    out = tmp_path / "ds"
    args = ["ingest", "-q", str(logs["late"]), "-o", str(out), "--jobs", "2"]
    assert runner.invoke(app, args).exit_code == 0
    rows = scan(out, "rounds").collect().height
    again = runner.invoke(app, [*args, "--append"])
    assert again.exit_code == 0, again.stderr
    assert "skipped 1 log" in again.stderr and "nothing new to ingest" in again.stderr
    assert scan(out, "rounds").collect().height == rows
    forced = runner.invoke(app, [*args, "--append", "--force"])
    assert forced.exit_code == 0, forced.stderr
    assert scan(out, "rounds").collect().height == 2 * rows


@pytest.mark.parametrize("name", ["clean", "late"])
def test_ingest_of_byte_ranges_has_the_serial_rows(logs: dict[str, Path], tmp_path: Path,
                                                   name: str) -> None:
    from tichu_analyze.data.datasets import TABLES, ingest, scan
    from tichu_analyze.data.staging import ingest_staged

    ingest([logs[name]], tmp_path / "one")
    on = ProcessBackend(2)
    try:
        ingest_staged([logs[name]], tmp_path / "two", on, task_bytes=3000, split_bytes=3000)
    finally:
        on.close()
    for table in TABLES:
        a, b = (sorted(map(repr, scan(tmp_path / d, table).collect().iter_rows()))
                for d in ("one", "two"))
        assert a == b
