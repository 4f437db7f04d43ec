"""Players replaced in the middle of a round (``x_substitute``, docs/log-format.md): the
engine's reading, the ``.tch`` reader that writes the event, and where the change shows
(``replay``, ``games``, the datasets). The round stays credited to the player who began it;
each play and pass to whoever made it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from shared_data import SAMPLES
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.core.record import Recorder
from tichu_analyze.readers.bsw import event_dict, read_tch, write_tch
from tichu_analyze.readers.logfile import check_file, replay_file

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

BSW = SAMPLES / "bsw"
REAL = BSW / "1770154.tch"  # round 5: kovatsaki takes seat 3 from kalosaras. at line 364
runner = CliRunner()
needs_real = pytest.mark.skipif(not REAL.exists(), reason="the real games are not here")

SIMULATED = Path(__file__).resolve().parent.parent / "sample_logs" / "simulated-5-games.jsonl"


def first_game(path: Path) -> list[dict[str, Any]]:
    """The events of the first game of a format-1 log."""
    evs = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    game = evs[0]["game"]
    return [ev for ev in evs if ev["game"] == game]


def with_substitute(evs: list[dict[str, Any]], after_plays: int, seat: int,
                    player: str) -> tuple[list[dict[str, Any]], int]:
    """``evs`` with an ``x_substitute`` after the first ``after_plays`` plays; its line."""
    out: list[dict[str, Any]] = []
    plays = 0
    at = 0
    for ev in evs:
        out.append(ev)
        if ev["type"] == "play":
            plays += 1
            if plays == after_plays:
                out.append({"type": "x_substitute", "game": ev["game"], "seat": seat,
                            "player": player})
                at = len(out)
    return out, at


def write(tmp_path: Path, evs: list[dict[str, Any]]) -> Path:
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(ev) + "\n" for ev in evs), encoding="utf-8")
    return path


def test_a_substitute_changes_no_rule_and_names_the_seat_from_its_line(tmp_path: Path) -> None:
    evs = first_game(SIMULATED)
    players = evs[0]["players"]
    changed, at = with_substitute(evs, 6, 1, "Newcomer")
    path = write(tmp_path, changed)
    assert check_file(path) == []  # no rule changes: a simulated game stays clean
    recorder = Recorder()
    replay_file(path, recorder)
    first = recorder.rounds[0]
    assert first.state.players == players  # credited to who began it
    assert first.state.occupants[1] == "Newcomer" and first.state.substitutes == [
        (at, 1, "Newcomer")]
    # from the next round on the newcomer sits there
    assert recorder.rounds[1].state.players[1] == "Newcomer"


def test_a_substitute_that_cannot_be_is_l002_and_a_malformed_one_is_skipped(
        tmp_path: Path) -> None:
    evs = first_game(SIMULATED)
    players = evs[0]["players"]
    taken, at = with_substitute(evs, 3, 1, players[2])  # sits at seat 2
    found = check_file(write(tmp_path, taken))
    assert [(d.code, d.line) for d in found] == [("L002", at)]
    assert "sits at another seat" in found[0].message
    odd, _ = with_substitute(evs, 3, 7, "Newcomer")  # seat 7 of four: not our event's shape
    assert check_file(write(tmp_path, odd)) == []


def test_diagnostics_after_the_change_name_the_substitute(tmp_path: Path) -> None:
    evs = first_game(SIMULATED)
    changed, at = with_substitute(evs, 2, 0, "Newcomer")
    # a pass by seat 0 right after the change, out of turn: P003 names the newcomer
    changed.insert(at, {"type": "pass", "game": evs[0]["game"], "seat": 0})
    found = [d for d in check_file(write(tmp_path, changed)) if d.line == at + 1]
    assert found and found[0].player == "Newcomer" and "Newcomer (seat 0)" in found[0].message


def test_write_tch_follows_the_substitute_and_reads_back(tmp_path: Path) -> None:
    evs = first_game(SIMULATED)
    changed, _ = with_substitute(evs, 9, 2, "Newcomer")
    text = write_tch(changed)
    back = [event_dict(ev) for _, ev in read_tch(text.encode(), evs[0]["game"])
            if not hasattr(ev, "message")]
    subs = [ev for ev in back if ev["type"] == "x_substitute"]
    assert subs == [{"type": "x_substitute", "game": evs[0]["game"], "seat": 2,
                     "player": "Newcomer"}]


@needs_real
def test_the_reader_writes_the_change_at_its_line() -> None:
    got = [(line, event_dict(ev)) for line, ev in read_tch(REAL.read_bytes(), "1770154")]
    subs = [(line, ev) for line, ev in got if ev["type"] == "x_substitute"]
    assert subs == [(364, {"type": "x_substitute", "game": "1770154", "seat": 3,
                           "player": "kovatsaki"})]
    # the next round starts with the newcomer seated (the file ends after round 5)
    assert [ev for _, ev in got if ev["type"] == "round_start"][-1]["round"] == 5


@needs_real
def test_replay_and_games_show_the_substitute() -> None:
    shown = runner.invoke(app, ["replay", str(REAL), "-r", "5", "--color", "never"]).stdout
    assert "kovatsaki took seat 3 from kalosaras. at line 364" in shown
    assert "line 364  kovatsaki (3)" in shown and "takes the seat during the round" in shown
    listed = runner.invoke(app, ["games", str(REAL), "--format", "json"]).stdout
    assert json.loads(listed)["newcomers"] == [
        {"round": 5, "seat": 3, "player": "kovatsaki", "line": 364}]


@needs_real
def test_the_datasets_credit_the_round_to_who_began_it_and_each_play_to_who_made_it(
        tmp_path: Path) -> None:
    out = tmp_path / "dataset"
    result = runner.invoke(app, ["ingest", str(REAL), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    rounds = pl.read_parquet(out / "rounds" / "**" / "*.parquet", hive_partitioning=True)
    seat3 = rounds.filter((pl.col("round") == 5) & (pl.col("seat") == 3)).row(0, named=True)
    assert seat3["player"] == "kalosaras." and seat3["substitutes"] == ["kovatsaki"]
    others = rounds.filter(pl.col("seat") != 3)["substitutes"].to_list()
    assert all(s == [] for s in others)
    plays = pl.read_parquet(out / "plays" / "**" / "*.parquet", hive_partitioning=True)
    mine = plays.filter((pl.col("round") == 5) & (pl.col("seat") == 3)).sort("line")
    before = mine.filter(pl.col("line") < 364)["player"].unique().to_list()
    after = mine.filter(pl.col("line") >= 364)["player"].unique().to_list()
    assert before == ["kalosaras."] and after == ["kovatsaki"]
