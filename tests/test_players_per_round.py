"""Players replaced during a game: ``round_start.players`` (log-format.md).

From the round that names them on, the round's players are the ones the engine
names in its diagnostics, the ``replay`` view shows and the datasets credit; a
malformed ``players`` (wrong count, empty or repeated names) is L002."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from tichu_analyze.data.datasets import ingest
from tichu_analyze.readers.logfile import check_file, write_log
from tichu_analyze.sim.simulate import simulate
from tichu_analyze.views import audit

SUBSTITUTE = "Eve"


def _game(tmp_path: Path, players: Any, name: str = "sub.jsonl",
          extra: dict[str, Any] | None = None) -> tuple[Path, list[dict[str, Any]], int]:
    """A simulated game whose round 2 starts with ``players``; returns the log, the
    events, and the line of that round_start."""
    events = [dict(e) for e in simulate(1, 3)]
    i = next(k for k, e in enumerate(events) if e["type"] == "round_start" and e["round"] == 2)
    events[i]["players"] = players
    if extra is not None:
        events.insert(i + 1, extra)
    path = tmp_path / name
    write_log(events, path)
    return path, events, i + 1


def _seated(events: list[dict[str, Any]]) -> list[str]:
    return list(events[0]["players"])


def test_a_substitute_plays_clean_and_is_credited(tmp_path: Path) -> None:
    events = [dict(e) for e in simulate(1, 3)]
    names = _seated(events)
    new = [*names[:3], SUBSTITUTE]
    path, events, _ = _game(tmp_path, new)
    assert check_file(path) == []

    out = tmp_path / "ds"
    ingest([path], out)
    rounds = pl.read_parquet(out / "rounds" / "**/*.parquet", hive_partitioning=False)
    seat3 = rounds.filter(pl.col("seat") == 3).sort("round")
    assert seat3.filter(pl.col("round") == 1)["player"].to_list() == [names[3]]
    assert set(seat3.filter(pl.col("round") >= 2)["player"].to_list()) == {SUBSTITUTE}
    seat1 = rounds.filter((pl.col("seat") == 1) & (pl.col("round") >= 2))
    assert set(seat1["partner"].to_list()) == {SUBSTITUTE}  # seat 1's partner is seat 3

    plays = pl.read_parquet(out / "plays" / "**/*.parquet", hive_partitioning=False)
    by_round = plays.filter(pl.col("seat") == 3).group_by(pl.col("round") >= 2).agg(
        pl.col("player").unique())
    assert {(later, tuple(who)) for later, who in by_round.iter_rows()} == {
        (False, (names[3],)), (True, (SUBSTITUTE,))}

    games = pl.read_parquet(out / "games" / "**/*.parquet", hive_partitioning=False)
    total = rounds["round"].max()
    rows = {(r["seat"], r["player"]): r["rounds_played"] for r in games.iter_rows(named=True)}
    assert rows == {(0, names[0]): total, (1, names[1]): total, (2, names[2]): total,
                    (3, names[3]): 1, (3, SUBSTITUTE): total - 1}


def test_diagnostics_name_the_rounds_player(tmp_path: Path) -> None:
    events = [dict(e) for e in simulate(1, 3)]
    new = [*_seated(events)[:3], SUBSTITUTE]
    # a Grand Tichu before any card is dealt: L007 for seat 3, now the substitute
    late = {"type": "call", "game": events[0]["game"], "seat": 3, "call": "grand_tichu"}
    path, _, line = _game(tmp_path, new, extra=late)
    found = check_file(path)
    [diag] = [d for d in found if d.line == line + 1]
    assert diag.code == "L007" and diag.round == 2
    assert diag.seat == 3 and diag.player == SUBSTITUTE


def test_the_replay_view_shows_the_rounds_players(tmp_path: Path) -> None:
    events = [dict(e) for e in simulate(1, 3)]
    names = _seated(events)
    path, _, _ = _game(tmp_path, [*names[:3], SUBSTITUTE])
    trace = audit.load(path)
    round2 = audit.plain(audit.render_text(audit.build(trace, None, 2)))
    assert "Players in this round" in round2 and f"{SUBSTITUTE} (3)" in round2
    round1 = audit.plain(audit.render_text(audit.build(trace, None, 1)))
    assert "Players in this round" not in round1 and f"{SUBSTITUTE} (3)" not in round1
    page = audit.render_html(audit.build(trace, None, 2))
    assert "Players in this round" in page and SUBSTITUTE in page


@pytest.mark.parametrize(("players", "decoded"), [
    (["Ana", "Ben", "Chloe"], True),  # three names for four seats
    (["Ana", "Ben", "Chloe", "Dev", "Eve"], True),
    (["Ana", "Ben", 7, "Dev"], True),  # not a name
    (["Ana", "Ben", "Ana", "Dev"], False),  # a name twice
    (["Ana", "Ben", " ", "Dev"], False),  # an empty name
    ([], True),
])
def test_malformed_players_are_l002(tmp_path: Path, players: list[Any], decoded: bool) -> None:
    path, _, line = _game(tmp_path, players)
    found = check_file(path)
    first = found[0]
    assert (first.code, first.line) == ("L002", line)
    assert "players" in first.message
    if not decoded:  # the engine's check names the rule
        assert "distinct, non-empty" in first.message


def test_the_schema_accepts_round_start_players() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(files("tichu_analyze").joinpath("schema.json").read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    ok = {"type": "round_start", "game": "g", "round": 5,
          "players": ["Ana", "Ben", "Chloe", "Eve"]}
    assert not list(validator.iter_errors(ok))
    for bad in (["Ana", "Ben", "Chloe"], ["Ana", "Ana", "Ben", "Chloe"], ["", "a", "b", "c"]):
        assert list(validator.iter_errors({**ok, "players": bad}))
