"""What the user documentation says about the log format holds (docs/log-format.md).

A JSON ``null`` in an optional field is read as the field left out; ``null`` in a
required field is a value of the wrong type (L002). A ``round_end`` naming another
round is out of sequence (L007) and is not compared with the replay.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from cli_helpers import ROOT, SAMPLES, flat, runner

from tichu_analyze.cli import app
from tichu_analyze.data.datasets import scan
from tichu_analyze.readers.logfile import check_file

Event = dict[str, Any]

# Optional fields, by event type, as docs/log-format.md lists them.
OPTIONAL: dict[str, tuple[str, ...]] = {
    "game_start": ("target", "meta", "variants"),
    "round_start": ("players", "dummy"),
    "play": ("wish", "phoenix"),
    "round_end": ("round", "finish_order", "score"),
    "game_end": ("score",),
}


def _one_game() -> list[Event]:
    """The first game of the simulated sample: every event type, wishes, Phoenix ranks."""
    events = [json.loads(line) for line in
              (SAMPLES / "simulated-5-games.jsonl").read_text().splitlines() if line]
    first = events[0]["game"]
    return [e for e in events if e["game"] == first]


def _write(path: Path, events: list[Event]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


def _codes(path: Path) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in check_file(path)]


def _each_optional(events: list[Event], change: Callable[[Event, str], None]) -> list[Event]:
    out = []
    for e in events:
        e = dict(e)
        for field in ("ts", *OPTIONAL.get(e["type"], ())):
            change(e, field)
        out.append(e)
    return out


def _set_null(e: Event, field: str) -> None:
    e[field] = None


def _drop(e: Event, field: str) -> None:
    e.pop(field, None)


@pytest.mark.parametrize("field", ["ts", "target", "meta", "variants", "players", "dummy",
                                   "wish", "phoenix", "round", "finish_order", "score"])
def test_null_in_an_optional_field_is_the_field_left_out(tmp_path: Path, field: str) -> None:
    events = _one_game()
    nulled, dropped = [], []
    touched = 0
    for e in events:
        if field == "ts" or field in OPTIONAL.get(e["type"], ()):
            touched += field in e
            nulled.append({**e, field: None})
            dropped.append({k: v for k, v in e.items() if k != field})
        else:
            nulled.append(e)
            dropped.append(e)
    if field in ("ts", "target", "meta", "wish", "phoenix", "round", "finish_order", "score"):
        assert touched, f"the sample has no {field} to replace"
    assert _codes(_write(tmp_path / "null.jsonl", nulled)) == \
        _codes(_write(tmp_path / "left-out.jsonl", dropped))


def test_a_null_wish_on_the_mahjong_is_no_wish(tmp_path: Path) -> None:
    """The wish left open would bind the next seats; a null wish makes none."""
    log = (SAMPLES / "wish-ignored.jsonl").read_text().splitlines()
    assert _codes(SAMPLES / "wish-ignored.jsonl")[0] == ("W001", 10)
    play = json.loads(log[8])
    assert play["wish"] == "8"
    log[8] = json.dumps({**play, "wish": None})
    path = tmp_path / "no-wish.jsonl"
    path.write_text("\n".join(log) + "\n")
    assert [code for code, _ in _codes(path)] == []


def test_nulls_in_every_optional_field_give_the_dataset_of_fields_left_out(
        tmp_path: Path) -> None:
    events = _one_game()
    logs = {name: _write(tmp_path / f"{name}.jsonl", _each_optional(events, change))
            for name, change in (("null", _set_null), ("left-out", _drop))}
    tables = {}
    for name, log in logs.items():
        out = tmp_path / f"data-{name}"
        result = runner.invoke(app, ["ingest", str(log), "--out", str(out), "-q"])
        assert result.exit_code == 0, result.output
        tables[name] = {t: _sorted(scan(out, t).collect().drop("file"))
                        for t in ("plays", "rounds", "games", "violations")}
    for table in ("plays", "rounds", "games", "violations"):
        left, right = tables["null"][table], tables["left-out"][table]
        assert left.height == right.height
        assert left.equals(right), table
    assert tables["null"]["plays"].height > 100
    assert tables["null"]["plays"]["ts"].is_null().all()
    assert tables["null"]["games"]["target"].to_list() == [1000] * 4
    assert tables["null"]["games"]["meta"].is_null().all()


def _sorted(table: pl.DataFrame) -> pl.DataFrame:
    """The rows in log order (a dataset's files are per player)."""
    return table.sort([c for c in ("game", "line", "seat") if c in table.columns],
                      nulls_last=True)


@pytest.mark.parametrize(("event_type", "field"), [
    ("play", "seat"), ("play", "cards"), ("pass", "seat"), ("game_start", "players"),
    ("round_start", "round"), ("dragon_gift", "to"), ("exchange", "give"),
    ("deal", "hands"), ("call", "call"),
])
def test_null_in_a_required_field_is_l002(tmp_path: Path, event_type: str, field: str) -> None:
    events = _one_game()
    if event_type == "call" and not any(e["type"] == "call" for e in events):
        pytest.skip("no call in the sample game")
    index = next(i for i, e in enumerate(events) if e["type"] == event_type)
    events[index] = {**events[index], field: None}
    diagnostics = check_file(_write(tmp_path / "required.jsonl", events))
    assert (diagnostics[0].code, diagnostics[0].line) == ("L002", index + 1)


def test_null_players_or_dummy_in_a_trichu_round_start_is_l002(tmp_path: Path) -> None:
    """In ``trichu`` the two fields are required: null is the field missing."""
    simulated = tmp_path / "three.jsonl"
    result = runner.invoke(app, ["simulate", "--variant", "trichu", "-n", "1", "--seed", "2",
                                 "-o", str(simulated), "-q"])
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in simulated.read_text().splitlines()]
    assert _codes(simulated) == []
    index = next(i for i, e in enumerate(events) if e["type"] == "round_start")
    for field in ("players", "dummy"):
        changed = list(events)
        changed[index] = {**events[index], field: None}
        first = check_file(_write(tmp_path / f"{field}.jsonl", changed))[0]
        assert (first.code, first.line) == ("L002", index + 1)


def test_a_round_end_naming_another_round_is_l007_and_not_compared(tmp_path: Path) -> None:
    events = _one_game()
    index = next(i for i, e in enumerate(events) if e["type"] == "round_end")
    events[index] = {**events[index], "round": 99, "score": [1, 2], "finish_order": [0, 1, 2, 3]}
    assert _codes(_write(tmp_path / "round.jsonl", events)) == [("L007", index + 1)]


def test_log_format_md_states_the_reading_of_null() -> None:
    doc = flat((ROOT / "docs" / "log-format.md").read_text(encoding="utf-8"))
    assert "A JSON `null` in an optional field is read as the field left out" in doc
    assert "`\"seat\": null`" in doc and "is L002" in doc


def test_rules_l008_says_what_the_replay_does_with_a_recorded_score(tmp_path: Path) -> None:
    """`tichu-analyze rules L008` said a recorded score of an unfinished round counts
    towards the game; the replay adds nothing for it (docs/rules.md), so a `game_end`
    that counts it is S003."""
    text = flat(runner.invoke(app, ["rules", "L008"]).output)
    assert "counts towards the game" not in text
    assert "adds nothing to the game's total" in text
    head = (SAMPLES / "wish-ignored.jsonl").read_text().splitlines()[:8]
    tail = [{"type": "play", "game": "g1", "seat": 0, "cards": ["Mahjong"]},
            {"type": "round_end", "game": "g1", "round": 1, "score": [100, 0]},
            {"type": "game_end", "game": "g1", "score": [100, 0]}]
    log = tmp_path / "early.jsonl"
    log.write_text("\n".join(head + [json.dumps(e) for e in tail]) + "\n")
    assert [code for code, _ in _codes(log)] == ["L008", "S003", "S004"]
