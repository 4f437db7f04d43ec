"""Calls against the data (tichu_analyze/analysis/calls.py): the value of a call, the cells
fitted from a dataset of real games, the decisions read from the engine's state, and the
reference table the tool ships."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl
import pytest
from shared_data import SAMPLES
from typer.testing import CliRunner

from tichu_analyze.analysis.calls import (
    MIN_LOSS,
    MIN_ROUNDS,
    CallTable,
    Cell,
    band,
    decisions,
    fit,
    judge,
    reference,
    score_state,
    value,
)
from tichu_analyze.cli import app
from tichu_analyze.core.record import Recorder
from tichu_analyze.readers.logfile import replay_file

BSW = SAMPLES / "bsw"
needs_real = pytest.mark.skipif(not BSW.is_dir(), reason="the real games are not here")
GAMES = sorted(BSW.glob("*.tch"))[:40] if BSW.is_dir() else []


@pytest.mark.parametrize("p", [0.0, 0.1, 0.37, 0.5, 0.63, 0.9, 1.0])
def test_a_call_is_worth_what_its_bonus_brings_on_average(p: float) -> None:
    # rules 7.5: a Tichu +100 for going out first, -100 otherwise; not calling: 0
    assert value("tichu", p) == pytest.approx(p * 100 + (1 - p) * -100)
    # a Grand Tichu +-200, against not calling it, which keeps the Tichu when worth it
    tichu_later = max(0.0, p * 100 + (1 - p) * -100)
    assert value("grand_tichu", p) == pytest.approx(p * 200 + (1 - p) * -200 - tichu_later)


def test_a_decision_is_flagged_only_beyond_two_standard_errors() -> None:
    key = ("tichu", 3, False, "level")
    weak = CallTable({key: Cell(4000, 1200)}, {})  # 30% out first: calling costs ~40
    judged = judge(weak, "tichu", 3.4, False, "level", called=True)
    assert judged is not None and judged.flagged and judged.lost > 30
    assert judged.gain == pytest.approx(200 * judged.cell.p - 100)
    passed = judge(weak, "tichu", 3.4, False, "level", called=False)
    assert passed is not None and not passed.flagged and passed.lost == 0
    # the same rate in a small cell is too uncertain to flag
    small = CallTable({key: Cell(MIN_ROUNDS, 7)}, {})
    assert not judge(small, "tichu", 3.0, False, "level", called=True).flagged  # type: ignore[union-attr]
    # a loss beyond doubt but of a few points is not worth flagging
    near = CallTable({key: Cell(40000, 19000)}, {})  # 47.5%: calling costs about 5
    small_loss = judge(near, "tichu", 3.0, False, "level", called=True)
    assert small_loss is not None and 0 < small_loss.lost < MIN_LOSS
    assert small_loss.lost > 2 * small_loss.error and not small_loss.flagged
    # too few rounds: no judgement at all
    assert judge(CallTable({key: Cell(MIN_ROUNDS - 1, 0)}, {}), "tichu", 3.0, False, "level",
                 called=True) is None


def test_bands_and_score_states() -> None:
    assert band(3.9) == 3 and band(-7.5) == -2 and band(40.0) == 14 and band(-0.3) == -1
    assert score_state(700, 400) == "ahead" and score_state(100, 400) == "behind"
    assert score_state(500, 300) == "level"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("calls") / "dataset"
    result = CliRunner().invoke(app, ["ingest", *map(str, GAMES), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    return out


@needs_real
def test_the_cells_count_the_datasets_rounds(dataset: Path) -> None:
    table = fit(dataset)
    # the same counts, made another way: row by row, in plain Python
    rows = pl.read_parquet(dataset / "rounds" / "**" / "*.parquet", hive_partitioning=True)
    rows = rows.filter(pl.col("status") == "scored").sort("game", "round", "seat")
    by_round: dict[tuple[str, int], dict[int, dict]] = {}
    for row in rows.iter_rows(named=True):
        by_round.setdefault((row["game"], row["round"]), {})[row["seat"]] = row
    totals: dict[str, list[int]] = {}
    want: Counter[tuple] = Counter()
    firsts: Counter[tuple] = Counter()
    for (game, _), seats in sorted(by_round.items()):
        before = totals.setdefault(game, [0, 0])
        for seat, row in seats.items():
            team = seat & 1
            state = score_state(before[team], before[1 - team])
            keys = [("grand_tichu", band(row["h8_strength"]), False, state)]
            if row["call"] != "grand_tichu":
                partner = seats[(seat + 2) % 4]
                keys.append(("tichu", band(row["hx_strength"]), partner["call"] is not None,
                             state))
            for key in keys:
                want[key] += 1
                firsts[key] += bool(row["first_out"])
        for team in (0, 1):
            before[team] += next(r["team_score"] for r in seats.values() if r["team"] == team)
    assert {k: (c.rounds, c.first) for k, c in table.cells.items()} == {
        k: (want[k], firsts[k]) for k in want}
    assert table.source["games"] == len(GAMES)


@needs_real
def test_the_engines_decisions_read_the_hands_as_the_dataset_does(dataset: Path) -> None:
    rows = pl.read_parquet(dataset / "rounds" / "**" / "*.parquet", hive_partitioning=True)
    strength = {(r["game"], r["round"], r["seat"]): (r["h8_strength"], r["hx_strength"])
                for r in rows.iter_rows(named=True)}
    seen = 0
    for path in GAMES[:10]:
        recorder = Recorder()
        replay_file(path, recorder)
        totals = [0, 0]
        for rec in recorder.rounds:
            rnd = rec.state
            for d in decisions(rnd, totals):
                h8, hx = strength[path.stem, rnd.number, d.seat]
                assert d.strength == (h8 if d.decision == "grand_tichu" else hx)
                assert d.called == (rnd.calls[d.seat] == d.decision)
                seen += 1
            if rnd.score is not None:
                totals = [totals[0] + rnd.score[0], totals[1] + rnd.score[1]]
    assert seen > 300


def test_the_reference_table_is_fitted_on_the_real_samples() -> None:
    table = reference()
    assert table.source["games"] >= 2000 and table.source["seat_rounds"] > 70_000
    assert "Brettspielwelt" in table.source.get("note", "")
    judged = [k for k, c in table.cells.items() if c.rounds >= MIN_ROUNDS]
    assert len(judged) > 60
    # the shape a player knows: weak hands rarely go out first, strong ones often
    assert table.cells["tichu", 1, False, "level"].p < 0.2
    assert table.cells["tichu", 7, False, "level"].p > 0.6
