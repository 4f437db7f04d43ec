"""Hand-made Brettspielwelt ``.tch`` games, written blind (tests/fixtures/build_tch.py).

Each case of tests/fixtures/tch/cases.json names the diagnostics ``check`` must
report (code and ``.tch`` line) and facts about the format-1 events ``convert``
writes (players by round, Dragon gifts, the Phoenix's rank, calls, round
scores), and for replaced players the ``rounds`` table ``ingest`` writes. All
through the command line, as a user runs it. A ``pending`` case is one where
the tool disagrees with docs/bsw.md; it is xfail (strict) until settled.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import polars as pl
import pytest
from fixture_cases import case_params, load_cases
from typer.testing import CliRunner

from tichu_analyze.cli import app

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

FOLDER = Path(__file__).parent / "fixtures" / "tch"
BUILDER = Path(__file__).parent / "fixtures" / "build_tch.py"
CASES = load_cases(FOLDER)
runner = CliRunner()

SUIT = {"S": "s", "R": "r", "G": "j", "B": "p"}
RANK = {"B": "J", "D": "Q"}
SPECIAL = {"Dr": "Dragon", "Ph": "Phoenix", "Ma": "Mahjong", "Hu": "Dog"}


def card(tch: str) -> str:
    """A BSW card token in format 1."""
    if tch in SPECIAL:
        return SPECIAL[tch]
    return RANK.get(tch[1:], tch[1:]) + SUIT[tch[0]]


def diagnostics(path: Path, tmp_path: Path, variants: list[str]) -> list[dict]:
    out = tmp_path / "diagnostics.jsonl"
    options = [f"--variant={v}" for v in variants]
    result = runner.invoke(app, ["check", "-q", "-f", "json", "--exit-zero", "-o", str(out),
                                 *options, str(path)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line]


def converted(path: Path, tmp_path: Path) -> list[dict]:
    out = tmp_path / "converted.jsonl"
    runner.invoke(app, ["convert", str(path), "-o", str(out)])
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line]


def by_round(events: list[dict]) -> list[tuple[int, dict]]:
    """Each event with the number of the round it belongs to (0 before the first)."""
    got, current = [], 0
    for ev in events:
        if ev["type"] == "round_start":
            current = ev["round"]
        got.append((current, ev))
    return got


def check_facts(facts: dict, events: list[dict]) -> None:  # noqa: C901 - one branch per fact
    numbered = by_round(events)
    if "players" in facts:
        start = next(e for e in events if e["type"] == "game_start")
        assert start["players"] == facts["players"]
    if "round_players" in facts:
        starts = {e["round"]: e for e in events if e["type"] == "round_start"}
        for r, players in facts["round_players"].items():
            assert starts[int(r)].get("players") == players, f"round {r}"
    if "scores" in facts:
        assert [e["score"] for e in events if e["type"] == "round_end"] == facts["scores"]
    if "gifts" in facts:
        gifts = [[r, e["seat"], e["to"]] for r, e in numbered if e["type"] == "dragon_gift"]
        assert gifts == facts["gifts"]
    if "calls" in facts:
        calls = [[r, e["seat"], e["call"]] for r, e in numbered if e["type"] == "call"]
        assert calls == facts["calls"]
    for r, seat in facts.get("call_before_play", []):
        mine = [(i, e) for i, (rr, e) in enumerate(numbered) if rr == r and e.get("seat") == seat]
        call = next(i for i, e in mine if e["type"] == "call")
        play = next(i for i, e in mine if e["type"] == "play")
        assert call < play, f"the call of seat {seat} in round {r} comes after its first play"
    for r, cards, rank in facts.get("phoenix", []):
        want = sorted(card(c) for c in cards)
        plays = [e for rr, e in numbered if rr == r and e["type"] == "play"
                 and sorted(e["cards"]) == want]
        assert len(plays) == 1, plays
        assert plays[0].get("phoenix") == rank, plays[0]


def check_ingest(path: Path, tmp_path: Path, facts: dict) -> None:
    """The datasets credit each round to the person who played it."""
    out = tmp_path / "dataset"
    result = runner.invoke(app, ["ingest", "-q", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    rounds = pl.scan_parquet(str(out / "rounds"), hive_partitioning=True).collect()
    for r, seat, player in facts.get("ingest_players", []):
        rows = rounds.filter((pl.col("round") == r) & (pl.col("seat") == seat))
        assert rows["player"].to_list() == [player], (r, seat, rows["player"].to_list())
    for r, seat, partner in facts.get("ingest_partners", []):
        rows = rounds.filter((pl.col("round") == r) & (pl.col("seat") == seat))
        assert rows["partner"].to_list() == [partner], (r, seat, rows["partner"].to_list())
    for r, seat, points in facts.get("ingest_card_points", []):
        rows = rounds.filter((pl.col("round") == r) & (pl.col("seat") == seat))
        assert rows["card_points"].to_list() == [points], (r, seat)
    if "ingest_violations" in facts:
        found = pl.scan_parquet(str(out / "violations"), hive_partitioning=True).collect()
        got = sorted(found.select("code", "player").rows())
        assert got == sorted(tuple(row) for row in facts["ingest_violations"])
    if "ingest_games" in facts:
        games = pl.scan_parquet(str(out / "games"), hive_partitioning=True).collect()
        got = sorted(games.select("seat", "player", "rounds_played").rows())
        assert got == sorted(tuple(row) for row in facts["ingest_games"])


@pytest.mark.parametrize("case", case_params(CASES, "{pending}"))
def test_case(case: dict, tmp_path: Path) -> None:
    path = FOLDER / case["file"]
    found = diagnostics(path, tmp_path, case.get("variants", []))
    got = Counter((d["code"], d["line"]) for d in found)
    want = Counter((e["code"], e["line"]) for e in case["expect"])
    detail = "\n".join(f"  {d['line']}: {d['code']} {d['message']}" for d in found)
    assert got == want, f"{case['about']}\nfound:\n{detail}"
    facts = case.get("facts", {})
    if "diag_players" in facts:
        got_players = sorted([d["code"], d["player"]] for d in found)
        assert got_players == sorted(facts["diag_players"])
    if facts:
        check_facts(facts, converted(path, tmp_path))
    if any(key.startswith("ingest_") for key in facts):
        check_ingest(path, tmp_path, facts)


def test_manifest_shape() -> None:
    """Every .tch file listed once; ``<CODE>_...`` expects that code, ``habit_...``
    nothing (a BSW habit is no violation); expected lines are lines of the file."""
    files = [c["file"] for c in CASES]
    assert len(files) == len(set(files))
    assert sorted(files) == sorted(p.name for p in FOLDER.glob("*.tch"))
    assert len(files) >= 25
    for c in CASES:
        assert {"file", "about", "expect"} <= set(c) <= {"file", "about", "expect", "facts",
                                                         "variants", "pending"}, c["file"]
        head = c["file"].split("_")[0]
        codes = {e["code"] for e in c["expect"]}
        if re.fullmatch(r"[A-Z][0-9]{3}", head):
            assert head in codes, c["file"]
        elif head == "habit":
            assert not codes, c["file"]
        else:
            assert head == "scenario", c["file"]
        count = (FOLDER / c["file"]).read_bytes().count(b"\n")
        assert all(1 <= e["line"] <= count for e in c["expect"]), c["file"]


def test_builder_reproduces(tmp_path: Path) -> None:
    """``python tests/fixtures/build_tch.py`` writes the committed files byte for byte."""
    import importlib.util  # noqa: PLC0415
    import sys  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location("build_tch", BUILDER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_tch"] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["build_tch"]
    module.build(tmp_path)
    built = sorted(p.name for p in tmp_path.iterdir())
    assert built == sorted(p.name for p in FOLDER.iterdir())
    for name in built:
        assert (tmp_path / name).read_bytes() == (FOLDER / name).read_bytes(), name


def test_tch_recognised_by_content(tmp_path: Path) -> None:
    """A .tch file given by name without the extension is read by its content
    (docs/bsw.md), with the same diagnostics at the same lines; the game id is the
    file name (without ``.tch``, which it does not have)."""
    case = next(c for c in CASES if c["file"] == "W001_wish_ignored_among_liberal_passes.tch")
    renamed = tmp_path / "game.log"
    renamed.write_bytes((FOLDER / case["file"]).read_bytes())
    found = diagnostics(renamed, tmp_path, [])
    assert [(d["code"], d["line"], d["game"]) for d in found] == [
        (e["code"], e["line"], "game.log") for e in case["expect"]]
