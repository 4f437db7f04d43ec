"""The Parquet datasets: values against a hand-made log, schemas, readers, atomicity, CLI.

The hand-made log (``write_hand_made_log``) has two games:

* ``g1`` (Ana, Ben, Chloe, Dev; ``meta``; ``ts`` on round 2 only):
  - round 1, a double victory: Ana leads a 14-card straight from the Mahjong and is
    out; Chloe (who called Tichu) bombs it with a 13-card straight flush and goes out
    with the Dragon. 200 to 0, Chloe's Tichu -100: 100 to 0.
  - round 2: Ana calls Grand Tichu, Ben calls Tichu (twice: C003), leads the straight
    Mahjong-6 wishing for an 8, Dev fulfils the wish with 3-8, Ben bombs with four
    9s, leads three Kings, goes out with the Dragon (then passes: P008) and gives the
    Dragon trick to Ana; Chloe goes out second (straight, full house, triple), Dev
    third (full house, triple of 2s with the Phoenix). Card points 35 to 65, calls
    -200 / +100: -165 to 165; round_end records 160 (S002).
  - game_end -65 to 165 before the target (S004).
* ``g2``: players with awkward names; round 1's deal deals 2j twice (D001: skipped).
* ``g3``: names that look like numbers, a dot, a tab, ANA (Ana in another case); a
  game_end right after game_start (S004).

Every expected value below was worked out by hand from the rules, not by the code.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.core.cards import CARD_BY_TOKEN, mask_of
from tichu_analyze.data import datasets
from tichu_analyze.data.datasets import (
    COLUMNS,
    DEFAULT_PARTITION,
    MARKER,
    TABLES,
    DatasetError,
    DatasetWriter,
    PartWriter,
    escape_partition,
    hand_features,
    ingest,
    scan,
    unescape_partition,
)
from tichu_analyze.readers.logfile import write_log
from tichu_analyze.sim.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent

G1 = ["Ana", "Ben", "Chloe", "Dev"]
G2 = ["<script>alert(1)</script>", "x/y=z %41 +", "nb\u00a0sp ace", "Zoë 日本"]
G3 = ["007", ".", "ANA", "tab\there"]
TS0 = 1_700_000_000.0


def _hand(text: str) -> list[str]:
    return text.split()


def _deals(post: list[str], gifts: dict[tuple[int, int], str],
           first8: list[list[str]]) -> tuple[list[list[str]], list[list[str]], list[list[str]]]:
    """Pre-exchange hands from the hands after the exchange and the gifts
    ``(giver, to) -> card``; returns (first deal, second deal, hands before the exchange)."""
    pre = []
    for seat in range(4):
        hand = set(_hand(post[seat]))
        for (giver, to), card in gifts.items():
            if to == seat:
                hand.remove(card)
            if giver == seat:
                hand.add(card)
        pre.append(hand)
    first, second = [], []
    for seat in range(4):
        assert set(first8[seat]) <= pre[seat], (seat, set(first8[seat]) - pre[seat])
        first.append(first8[seat])
        second.append(sorted(pre[seat] - set(first8[seat]), key=CARD_BY_TOKEN.__getitem__))
    assert all(len(h) == 6 for h in second)
    return first, second, [sorted(h, key=CARD_BY_TOKEN.__getitem__) for h in pre]


# Round 1, after the exchange
R1_POST = [
    "Mahjong 2s 3p 4s 5p 6s 7p 8s 9p 10s Jp Qs Kp As",
    "3s 5s 7s 9s Js Ks 2p 4p 6p 8p 10p Qp Ap Dog",
    "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj Dragon",
    "2r 3r 4r 5r 6r 7r 8r 9r 10r Jr Qr Kr Ar Phoenix",
]
R1_GIFTS = {
    (0, 1): "Ap", (0, 2): "2j", (0, 3): "2r",
    (1, 0): "Mahjong", (1, 2): "Aj", (1, 3): "Phoenix",
    (2, 0): "As", (2, 1): "Dog", (2, 3): "Ar",
    (3, 0): "2s", (3, 1): "3s", (3, 2): "Dragon",
}
R1_FIRST8 = [
    _hand("3p 4s 5p 6s 7p 8s 9p Ap"),
    _hand("5s 7s 9s Js Ks 2p 4p Aj"),
    _hand("3j 4j 5j 6j 7j 8j 9j 10j"),
    _hand("3r 4r 5r 6r 7r 8r 9r 2s"),
]
# Round 2, after the exchange
R2_POST = [
    "3r 4r 5r 6r 7p 7r 8j 8p 8r 10r Jr Kr Ar Dog",
    "Mahjong 2s 3s 4s 5p 6s Dragon 9j 9s 9p 9r Kj Ks Kp",
    "2j 3p 4p 5s 6p 7s 10j 10s 10p Qj Qs Jj Js Jp",
    "3j 4j 5j 6j 7j 8s Aj As Ap Qp Qr 2p 2r Phoenix",
]
R2_GIFTS = {
    (0, 1): "Kp", (0, 2): "Jp", (0, 3): "Phoenix",
    (1, 2): "7s", (1, 3): "Ap", (1, 0): "8j",
    (2, 3): "3j", (2, 0): "Dog", (2, 1): "2s",
    (3, 0): "Kr", (3, 1): "Dragon", (3, 2): "10p",
}
R2_FIRST8 = [
    _hand("3r 4r 5r 6r 7p 7r 8p 8r"),
    _hand("Mahjong 3s 4s 5p 6s 9j 9s 7s"),
    _hand("3j 4p 5s 6p Qj Qs Jj Js"),
    _hand("4j 5j 6j 7j 8s Aj As Qp"),
]


def hand_made_events() -> list[dict[str, Any]]:
    """The events of the hand-made log, one per line (line = index + 1)."""
    ev: list[dict[str, Any]] = []

    def add(kind: str, game: str = "g1", **fields: Any) -> None:
        ev.append({"type": kind, "game": game, **fields})

    def play(seat: int, cards: str, **extra: Any) -> None:
        add("play", seat=seat, cards=_hand(cards), **extra)

    def passes(*seats: int) -> None:
        for s in seats:
            add("pass", seat=s)

    def exchange(gifts: dict[tuple[int, int], str]) -> None:
        for seat in range(4):
            add("exchange", seat=seat,
                give={str(to): card for (giver, to), card in gifts.items() if giver == seat})

    add("game_start", players=G1, target=1000, meta={"table": "t1", "n": 1})  # 1
    # round 1: lines 2-16
    first, second, _ = _deals(R1_POST, R1_GIFTS, R1_FIRST8)
    add("round_start", round=1)  # 2
    add("deal", hands=first)  # 3
    add("deal", hands=second)  # 4
    exchange(R1_GIFTS)  # 5-8
    add("call", seat=2, call="tichu")  # 9
    play(0, R1_POST[0])  # 10: the 14-card straight, out
    passes(1)  # 11
    play(2, "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj")  # 12: straight flush bomb
    passes(3, 1)  # 13, 14
    play(2, "Dragon")  # 15: out second, double victory
    add("round_end", round=1, finish_order=[0, 2, 1, 3], score=[100, 0])  # 16
    # round 2: lines 17-57
    first, second, _ = _deals(R2_POST, R2_GIFTS, R2_FIRST8)
    add("round_start", round=2)  # 17
    add("deal", hands=first)  # 18
    add("call", seat=0, call="grand_tichu")  # 19
    add("deal", hands=second)  # 20
    exchange(R2_GIFTS)  # 21-24
    add("call", seat=1, call="tichu")  # 25
    add("call", seat=1, call="tichu")  # 26: C003
    play(1, "6s 5p 4s 3s 2s Mahjong", wish="8")  # 27: trick 1
    passes(2)  # 28
    play(3, "3j 4j 5j 6j 7j 8s")  # 29: fulfils the wish
    passes(0)  # 30
    play(1, "9j 9s 9p 9r")  # 31: bomb
    passes(2, 3, 0)  # 32-34
    play(1, "Kj Ks Kp")  # 35: trick 2
    passes(2, 3, 0)  # 36-38
    play(1, "Dragon")  # 39: trick 3, Ben out first
    passes(2, 1, 3, 0)  # 40, 41 (P008: Ben is out), 42, 43
    add("dragon_gift", seat=1, to=0)  # 44
    play(2, "2j 3p 4p 5s 6p 7s")  # 45: trick 4
    passes(3, 0)  # 46, 47
    play(2, "10j 10s 10p Qj Qs")  # 48: trick 5
    passes(3, 0)  # 49, 50
    play(2, "Jj Js Jp")  # 51: trick 6, Chloe out second
    passes(3, 0)  # 52, 53
    play(3, "Aj As Ap Qp Qr")  # 54: trick 7
    passes(0)  # 55
    play(3, "2p 2r Phoenix")  # 56: trick 8, Dev out third: the round is over
    add("round_end", round=2, finish_order=[1, 2, 3, 0], score=[-165, 160])  # 57: S002
    add("game_end", score=[-65, 165])  # 58: S004
    for i, e in enumerate(ev[16:], 17):  # ts on round 2 and after, but not on line 28
        if i != 28:
            e["ts"] = TS0 + 2 * i
    # g2: lines 59-62
    add("game_start", "g2", players=G2)  # 59
    add("round_start", "g2", round=1)  # 60
    bad = [list(h) for h in R1_FIRST8]
    bad[1][0] = "2j"  # 2j twice: D001
    add("deal", "g2", hands=[["3p", "4s", "5p", "6s", "7p", "8s", "9p", "2j"], *bad[1:]])  # 61
    add("deal", "g2", hands=[["Dog"]] * 4)  # 62: ignored, the round is skipped
    # g3: lines 63-64
    add("game_start", "g3", players=G3, target=500)  # 63
    add("game_end", "g3")  # 64: S004
    return ev


def write_hand_made_log(path: Path) -> Path:
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n"
                            for e in hand_made_events()), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("hand")
    log = write_hand_made_log(base / "hand.jsonl")
    result = ingest([log], base / "ds")
    assert result.written and not result.errors
    return base / "ds"


def _read(ds: Path, table: str) -> pl.DataFrame:
    return scan(ds, table).collect()


def _one(df: pl.DataFrame, **where: Any) -> dict[str, Any]:
    for k, v in where.items():
        df = df.filter(pl.col(k) == v)
    assert df.height == 1, (where, df.height)
    return df.row(0, named=True)


def _check(row: dict[str, Any], **expected: Any) -> None:
    for k, v in expected.items():
        got = row[k]
        if isinstance(v, float) and got is not None:
            assert got == pytest.approx(v), (k, got, v)
        else:
            assert got == v, (k, got, v)


# ------------------------------------------------------------------ the hand-made log


def test_log_replays_with_exactly_the_expected_diagnostics(tmp_path: Path) -> None:
    from tichu_analyze.readers.logfile import check_file

    log = write_hand_made_log(tmp_path / "hand.jsonl")
    found = [(d.line, d.code, d.player) for d in check_file(log)]
    assert found == [
        (26, "C003", "Ben"),
        (41, "P008", "Ben"),
        (57, "S002", None),
        (58, "S004", None),
        (61, "D001", None),
        (64, "S004", None),
    ]


def test_plays_double_victory_round(dataset: Path) -> None:
    plays = _read(dataset, "plays").filter(pl.col("game") == "g1", pl.col("round") == 1)
    assert plays.sort("line")["line"].to_list() == [10, 11, 12, 13, 14, 15]
    _check(_one(plays, line=10), player="Ana", seat=0, team=0, partner="Chloe", action="play",
           applied=True, trick=1, event_index=8, combo="straight", rank=14.0, length=14,
           bomb=False, lead=True, out_of_turn=False, top_combo=None, top_player=None,
           cards_left=0, went_out=True, trick_points=25, wish_open=None, wish_made=None,
           wins_trick=False, ts=None, seconds_since_previous=None, codes=[])
    assert _one(plays, line=10)["cards"] == [
        "Mahjong", "2s", "3p", "4s", "5p", "6s", "7p", "8s", "9p", "10s", "Jp", "Qs", "Kp", "As"]
    _check(_one(plays, line=11), player="Ben", action="pass", cards=[], combo=None, rank=None,
           length=None, bomb=False, top_combo="straight", top_rank=14.0, top_length=14,
           top_seat=0, top_player="Ana", cards_left=14, trick_points=25, trick=1)
    _check(_one(plays, line=12), player="Chloe", combo="straight_flush", rank=14.0,
           length=13, bomb=True, lead=False, top_combo="straight", top_player="Ana",
           cards_left=1, trick_points=50, wins_trick=True, event_index=10)
    _check(_one(plays, line=14), player="Ben", top_combo="straight_flush", top_player="Chloe",
           trick_points=50, cards_left=14)
    _check(_one(plays, line=15), player="Chloe", combo="single", rank=15.0, lead=True,
           trick=2, cards=["Dragon"], went_out=True, cards_left=0, trick_points=25,
           wins_trick=False, top_combo=None)


def test_plays_normal_round(dataset: Path) -> None:
    plays = _read(dataset, "plays").filter(pl.col("game") == "g1", pl.col("round") == 2)
    assert plays.height == 29  # lines 27..56 without the dragon_gift at 44
    _check(_one(plays, line=27), player="Ben", seat=1, team=1, partner="Dev", trick=1,
           event_index=25, combo="straight", rank=6.0, length=6, lead=True,
           cards=["Mahjong", "2s", "3s", "4s", "5p", "6s"], wish_open=None, wish_made="8",
           wish_fulfilled=False, cards_left=8, trick_points=5, ts=TS0 + 54,
           seconds_since_previous=2.0)
    _check(_one(plays, line=28), player="Chloe", action="pass", wish_open="8", cards_left=14,
           top_combo="straight", top_rank=6.0, top_length=6, top_player="Ben",
           trick_points=5, ts=None, seconds_since_previous=None)
    _check(_one(plays, line=29), player="Dev", combo="straight", rank=8.0, wish_open="8",
           wish_fulfilled=True, wish_made=None, cards_left=8, trick_points=10,
           cards=["3j", "4j", "5j", "6j", "7j", "8s"], seconds_since_previous=None)
    _check(_one(plays, line=30), player="Ana", action="pass", wish_open=None,
           top_player="Dev", seconds_since_previous=2.0)
    _check(_one(plays, line=31), player="Ben", combo="four_of_a_kind", rank=9.0, length=4,
           bomb=True, out_of_turn=False, lead=False, top_combo="straight", top_rank=8.0,
           top_player="Dev", cards_left=4, trick_points=10, wins_trick=True)
    _check(_one(plays, line=35), combo="triple", rank=13.0, trick=2, lead=True,
           trick_points=30, wins_trick=True, cards_left=1)
    _check(_one(plays, line=39), combo="single", rank=15.0, trick=3, went_out=True,
           cards_left=0, trick_points=25, wins_trick=True)
    _check(_one(plays, line=41), player="Ben", action="pass", applied=False, codes=["P008"],
           cards_left=None, trick_points=None, top_combo=None, trick=3)
    _check(_one(plays, line=43), player="Ana", action="pass", top_combo="single",
           top_rank=15.0, top_player="Ben", trick_points=25, cards_left=14)
    _check(_one(plays, line=45), player="Chloe", trick=4, combo="straight", rank=7.0,
           lead=True, top_combo=None, trick_points=5, cards_left=8,
           seconds_since_previous=2.0)
    _check(_one(plays, line=48), combo="full_house", rank=10.0, length=5, trick=5,
           trick_points=30, cards_left=3)
    _check(_one(plays, line=51), combo="triple", rank=11.0, trick=6, went_out=True,
           cards_left=0, trick_points=0, wins_trick=True)
    _check(_one(plays, line=52), player="Dev", action="pass", top_player="Chloe",
           cards_left=8, trick=6)
    _check(_one(plays, line=54), player="Dev", trick=7, combo="full_house", rank=14.0,
           lead=True, cards_left=3, trick_points=0)
    _check(_one(plays, line=56), player="Dev", trick=8, combo="triple", rank=2.0,
           phoenix="2", cards=["2p", "2r", "Phoenix"], went_out=True, cards_left=0,
           trick_points=-25, wins_trick=True)
    # all of round 2's plays and passes but line 28 (no ts) and 29 (after it) are 2 s apart
    timed = plays.filter(~pl.col("line").is_in([28, 29]))
    assert timed["seconds_since_previous"].to_list() == [2.0] * timed.height


def test_rounds_double_victory(dataset: Path) -> None:
    rounds = _read(dataset, "rounds").filter(pl.col("game") == "g1", pl.col("round") == 1)
    assert rounds.height == 4
    common = {"status": "scored", "line": 2, "recorded_team_score": None}
    _check(_one(rounds, player="Ana"), **{**common, "recorded_team_score": 100},
           seat=0, team=0, partner="Chloe", call=None, call_success=None, finish_position=1,
           first_out=True, double_victory_for=True, double_victory_against=False,
           card_points=0, team_card_points=200, team_call_points=-100, team_score=100,
           opponent_score=0, bombs_played=0, gave_to_left="Ap", gave_to_partner="2j",
           gave_to_right="2r", got_from_left="Mahjong", got_from_partner="As",
           got_from_right="2s", wish_made=None, wish_fulfilled=None, fulfilled_wish=None,
           tricks_won=0)
    _check(_one(rounds, player="Chloe"), call="tichu", call_line=9, call_success=False,
           finish_position=2, first_out=False, double_victory_for=True, card_points=50,
           team_card_points=200, team_score=100, bombs_played=1, tricks_won=1,
           hx_bombs=2, hx_dragon=True, hx_aces=1)  # 2j-Aj holds 2j-6j and 7j-Jj at once
    _check(_one(rounds, player="Ben"), finish_position=3, double_victory_for=False,
           double_victory_against=True, card_points=0, team_card_points=0, team_score=0,
           opponent_score=100, recorded_team_score=0, recorded_opponent_score=100)
    _check(_one(rounds, player="Dev"), finish_position=4, double_victory_against=True)


def test_rounds_normal_round(dataset: Path) -> None:
    rounds = _read(dataset, "rounds").filter(pl.col("game") == "g1", pl.col("round") == 2)
    ana, ben = _one(rounds, player="Ana"), _one(rounds, player="Ben")
    chloe, dev = _one(rounds, player="Chloe"), _one(rounds, player="Dev")
    _check(ana, status="scored", line=17, call="grand_tichu", call_line=19, call_success=False,
           finish_position=4, first_out=False, double_victory_for=False,
           double_victory_against=False, card_points=25, team_card_points=35,
           team_call_points=-200, team_score=-165, opponent_score=165,
           recorded_team_score=-165, recorded_opponent_score=160,
           gave_to_left="Kp", gave_to_partner="Jp", gave_to_right="Phoenix",
           got_from_left="8j", got_from_partner="Dog", got_from_right="Kr",
           dragon_gifts_given=0, dragon_gifts_received=1, tricks_won=0, bombs_played=0,
           wish_made=None, wish_fulfilled=None, fulfilled_wish=False)
    _check(ben, call="tichu", call_line=25, call_success=True, finish_position=1,
           first_out=True, card_points=40, team_card_points=65, team_call_points=100,
           team_score=165, opponent_score=-165, gave_to_left="7s", gave_to_partner="Ap",
           gave_to_right="8j", got_from_left="2s", got_from_partner="Dragon",
           got_from_right="Kp", dragon_gifts_given=1, dragon_gifts_received=0, tricks_won=3,
           bombs_played=1, wish_made="8", wish_fulfilled=True, fulfilled_wish=False)
    _check(chloe, call=None, call_line=None, call_success=None, finish_position=2,
           card_points=35, team_card_points=35, gave_to_left="3j", gave_to_partner="Dog",
           gave_to_right="2s", got_from_left="10p", got_from_partner="Jp",
           got_from_right="7s", tricks_won=3, wish_made=None, fulfilled_wish=False)
    _check(dev, finish_position=3, card_points=-25, team_card_points=65, gave_to_left="Kr",
           gave_to_partner="Dragon", gave_to_right="10p", got_from_left="Phoenix",
           got_from_partner="Ap", got_from_right="3j", tricks_won=2, fulfilled_wish=True)
    # hand features after the exchange (worked out in docs order: cards, specials, aces,
    # bombs, singles, strength = 3 dragon + 2.5 phoenix - dog + 1.5 A + 0.5 K + 3 bombs
    # - 0.3 singles)
    assert ana["hx_cards"] == _hand("Dog 3r 4r 5r 6r 7p 7r 8j 8p 8r 10r Jr Kr Ar")
    _check(ana, hx_dragon=False, hx_phoenix=False, hx_mahjong=False, hx_dog=True, hx_aces=1,
           hx_bombs=1, hx_singles=4, hx_strength=2.8)
    _check(ben, hx_dragon=True, hx_mahjong=True, hx_dog=False, hx_aces=0, hx_bombs=1,
           hx_singles=0, hx_strength=7.5)
    _check(chloe, hx_dragon=False, hx_aces=0, hx_bombs=0, hx_singles=0, hx_strength=0.0)
    _check(dev, hx_phoenix=True, hx_aces=3, hx_bombs=1, hx_singles=0, hx_strength=10.0)
    # before the exchange: Ana gave Kp Jp Phoenix and had not yet 8j Dog Kr
    assert ana["h14_cards"] == _hand("3r 4r 5r 6r 7p 7r 8p 8r 10r Jp Jr Kp Ar Phoenix")
    _check(ana, h14_phoenix=True, h14_dog=False, h14_aces=1, h14_bombs=1, h14_singles=3,
           h14_strength=6.6)
    # the first 8: 3r-8r would be a straight flush without 7r? 3r 4r 5r 6r 7r 8r: one bomb
    assert ana["h8_cards"] == _hand("3r 4r 5r 6r 7p 7r 8p 8r")
    _check(ana, h8_bombs=1, h8_singles=0, h8_aces=0, h8_strength=3.0)
    assert ben["h8_cards"] == _hand("Mahjong 3s 4s 5p 6s 7s 9j 9s")
    _check(ben, h8_mahjong=True, h8_bombs=0, h8_singles=0, h8_strength=0.0)


def test_rounds_skipped_round_is_kept(dataset: Path) -> None:
    rounds = _read(dataset, "rounds").filter(pl.col("game") == "g2")
    assert rounds.height == 4
    assert sorted(rounds["player"].to_list()) == sorted(G2)
    for row in rounds.iter_rows(named=True):
        _check(row, status="skipped", round=1, line=60, finish_position=None, first_out=None,
               team_score=None, card_points=None, call_success=None, double_victory_for=None,
               h8_cards=None, h8_strength=None, h14_cards=None, hx_bombs=None,
               gave_to_left=None, got_from_right=None, wish_made=None, fulfilled_wish=None,
               dragon_gifts_given=0, bombs_played=0)


def test_games(dataset: Path) -> None:
    games = _read(dataset, "games")
    assert games.height == 12
    g1 = games.filter(pl.col("game") == "g1")
    _check(_one(g1, player="Ana"), line=1, seat=0, team=0, partner="Chloe", target=1000,
           rounds_played=2, team_score=-65, opponent_score=165, recorded_team_score=-65,
           recorded_opponent_score=165, won=None, ended=True)
    _check(_one(g1, player="Dev"), team=1, partner="Ben", team_score=165, opponent_score=-65)
    assert json.loads(_one(g1, player="Ana")["meta"]) == {"table": "t1", "n": 1}
    g2 = games.filter(pl.col("game") == "g2")
    for row in g2.iter_rows(named=True):
        _check(row, rounds_played=1, team_score=0, opponent_score=0, won=None,
               ended=False, meta=None, target=1000, recorded_team_score=None)
    g3 = games.filter(pl.col("game") == "g3")
    for row in g3.iter_rows(named=True):
        _check(row, rounds_played=0, team_score=0, opponent_score=0, won=None, ended=True,
               target=500)


def test_violations(dataset: Path) -> None:
    v = _read(dataset, "violations").sort("line")
    assert v.select("line", "code", "player", "game", "round", "trick", "seat").rows() == [
        (26, "C003", "Ben", "g1", 2, None, 1),
        (41, "P008", "Ben", "g1", 2, 3, 1),
        (57, "S002", None, "g1", 2, 8, None),
        (58, "S004", None, "g1", None, None, None),
        (61, "D001", None, "g2", 1, None, None),
        (64, "S004", None, "g3", None, None, None),
    ]
    row = v.row(0, named=True)
    assert row["name"] == "repeated-call" and row["severity"] == "error"
    assert row["file"].endswith("hand.jsonl") and "Ben" in row["message"]
    assert v.filter(pl.col("code") == "D001")["severity"].to_list() == ["fatal"]
    # the rows without a player are in the default partition
    assert (dataset / "violations" / f"player={DEFAULT_PARTITION}").is_dir()


def test_player_names_read_back_exactly_in_polars_and_duckdb(dataset: Path) -> None:
    names = set(G1 + G2 + G3)
    for table in ("rounds", "games"):
        assert set(_read(dataset, table)["player"].unique().to_list()) >= set(G2)
        got = duckdb.sql(
            f"SELECT DISTINCT player FROM read_parquet('{dataset}/{table}/**/*.parquet', "
            "hive_partitioning = true)").fetchall()
        assert {r[0] for r in got} == (names if table == "games" else set(G1 + G2))
    polars_names = set(pl.scan_parquet(dataset / "games", hive_partitioning=True)
                       .select("player").unique().collect()["player"].to_list())
    assert polars_names == names
    # one directory per name, never two names in one (Ana and ANA differ in case only)
    dirs = [p.name for p in (dataset / "games").iterdir()]
    assert len({d.casefold() for d in dirs}) == len(dirs) == len(names)
    assert {unescape_partition(d[len("player="):]) for d in dirs} == names
    assert "player=Ana" in dirs and "player=007" in dirs


def test_duckdb_reads_every_table(dataset: Path) -> None:
    con = duckdb.connect()
    for table in TABLES:
        rel = con.sql(f"SELECT * FROM read_parquet('{dataset}/{table}/**/*.parquet', "
                      "hive_partitioning = true)")
        assert rel.columns == [c.name for c in COLUMNS[table]]
        assert len(rel.fetchall()) == _read(dataset, table).height
    (n, points), = con.sql(
        f"SELECT count(*), sum(team_card_points) FROM '{dataset}/rounds/*/*.parquet' "
        "WHERE status = 'scored' AND game = 'g1'").fetchall()
    assert (n, points) == (8, 2 * 200 + 2 * 35 + 2 * 65)
    (codes,), = con.sql(f"SELECT list(line ORDER BY line) FROM '{dataset}/plays/*/*.parquet' "
                        "WHERE len(codes) > 0").fetchall()
    assert codes == [41]


# ------------------------------------------------------------------------- schemas


_POLARS_TYPES = {
    pa.string(): pl.String, pa.bool_(): pl.Boolean, pa.float64(): pl.Float64,
    pa.int8(): pl.Int8, pa.int16(): pl.Int16, pa.int32(): pl.Int32,
    pa.list_(pa.string()): pl.List(pl.String),
}


@pytest.mark.parametrize("table", TABLES)
def test_schema_as_read_by_polars(dataset: Path, table: str) -> None:
    schema = scan(dataset, table).collect_schema()
    assert list(schema.names()) == [c.name for c in COLUMNS[table]]
    for c in COLUMNS[table]:
        assert schema[c.name] == _POLARS_TYPES[c.type], c.name
    assert datasets.polars_schema(table) == schema


def test_contract_columns_are_present() -> None:
    """The columns the plot/report code reads (the issue's contract), with their types."""
    contract = {
        "plays": "file:s game:s round:i32 trick:i32 event_index:i32 line:i32 seat:i8 team:i8 "
                 "partner:s player:s action:s cards:l combo:s rank:f length:i8 bomb:b "
                 "out_of_turn:b lead:b top_combo:s top_rank:f top_length:i8 top_player:s "
                 "wish_open:s wish_fulfilled:b cards_left:i8 trick_points:i16 "
                 "seconds_since_previous:f codes:l",
        "rounds": "file:s game:s round:i32 status:s seat:i8 team:i8 partner:s player:s call:s "
                  "call_success:b finish_position:i8 first_out:b double_victory_for:b "
                  "double_victory_against:b card_points:i16 team_card_points:i16 "
                  "team_score:i16 opponent_score:i16 gave_to_left:s gave_to_partner:s "
                  "gave_to_right:s got_from_left:s got_from_partner:s got_from_right:s "
                  "dragon_gifts_given:i8 dragon_gifts_received:i8 bombs_played:i8 "
                  "wish_made:s wish_fulfilled:b "
                  + " ".join(f"{p}_{f}" for p in ("h8", "h14", "hx") for f in (
                      "cards:l", "dragon:b", "phoenix:b", "mahjong:b", "dog:b", "aces:i8",
                      "bombs:i8", "singles:i8", "strength:f")),
        "games": "file:s game:s seat:i8 team:i8 partner:s player:s target:i32 "
                 "rounds_played:i32 team_score:i32 opponent_score:i32 won:b ended:b meta:s",
        "violations": "file:s line:i32 game:s round:i32 trick:i32 seat:i8 player:s code:s "
                      "name:s severity:s message:s",
    }
    short = {"s": pa.string(), "b": pa.bool_(), "f": pa.float64(), "i8": pa.int8(),
             "i16": pa.int16(), "i32": pa.int32(), "l": pa.list_(pa.string())}
    for table, spec in contract.items():
        types = {c.name: c.type for c in COLUMNS[table]}
        for item in spec.split():
            name, t = item.split(":")
            assert types.get(name) == short[t], (table, name)


def test_every_column_is_documented() -> None:
    doc = (ROOT / "docs" / "datasets.md").read_text(encoding="utf-8")
    type_words = {pa.string(): "string", pa.bool_(): "bool", pa.float64(): "f64",
                  pa.int8(): "i8", pa.int16(): "i16", pa.int32(): "i32",
                  pa.list_(pa.string()): "list[string]"}
    for table, cols in COLUMNS.items():
        section = doc.split(f"## `{table}`", 1)[1].split("\n## ", 1)[0]
        for c in cols:
            if c.name[:3] in ("h8_", "h14", "hx_"):
                prefix, feature = c.name.split("_", 1)
                assert f"`{{p}}_{feature}` | {type_words[c.type]} |" in section, c.name
                continue
            assert f"| `{c.name}` | {type_words[c.type]} |" in section, (table, c.name)


def test_parquet_files_carry_the_schema(dataset: Path) -> None:
    for table in TABLES:
        for f in (dataset / table).rglob("*.parquet"):
            schema = pq.read_schema(f)
            assert schema.names == [c.name for c in COLUMNS[table]]
            assert schema.field("player").metadata[b"description"]


# --------------------------------------------------------------------- hand features


@pytest.mark.parametrize(("cards", "bombs", "singles"), [
    ("2j 2s 2p 2r 3j 4j 5j 6j", 1, 0),  # four 2s and 2j-6j share 2j: one at a time
    ("3j 3s 3p 3r 2j 4j 5j 6j 7j", 1, 0),  # every jade straight flush needs the 3j
    ("3j 3s 3p 3r 4s 5s 6s 7s 8s", 2, 0),  # four 3s and 4s-8s: two at once
    ("7j 8j 9j 10j Jj Qj Kj 2s", 1, 1),  # a 7-card straight flush counts once; 2s single
    ("2j 3j 4j 5j 6j 7j 8j 9j 10j Jj", 2, 0),  # two disjoint straight flushes of 5
    ("Mahjong 2s 3p 4j 5r Ks", 0, 1),  # Mahjong-5 is a run of 5: only the King is single
    ("2s 3p 4j 5r Ks Ar", 0, 6),  # 2-5 is only a run of 4
    ("Phoenix Dragon Dog Mahjong", 0, 0),
])
def test_bombs_and_singles(cards: str, bombs: int, singles: int) -> None:
    f = hand_features(mask_of(CARD_BY_TOKEN[t] for t in cards.split()))
    assert (f["bombs"], f["singles"]) == (bombs, singles)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=14, unique=True))  # dense: bombs
def test_bomb_count_agrees_with_bombs_in(cards: list[int]) -> None:
    from tichu_analyze.core.combos import bombs_in

    hand = mask_of(cards)
    found = bombs_in(hand)
    n = hand_features(hand)["bombs"]
    assert (n == 0) == (not found)
    assert n <= len(found) and n <= len(cards) // 4


def test_hand_features_of_nothing_are_null() -> None:
    assert set(hand_features(0).values()) == {None}


# --------------------------------------------------------------- partition escaping


AWKWARD = ["<script>alert(1)</script>", "a b", "x/y", "k=v", "p%20q", "50%", "nb\u00a0sp",
           "Zoë", "日本語", "007", "1e5", "2024-01-01", "null", "a+b", "tab\tx", "q?#&",
           "back\\slash", "colon:star*", "end.", ".", "..", "\x00\x01\x7f", "ü\u0308", "Ω≈ç"]


@pytest.mark.parametrize("name", AWKWARD)
def test_escape_round_trips(name: str) -> None:
    value = escape_partition(name)
    assert "/" not in value and "\\" not in value and "=" not in value
    assert not value.endswith((".", " "))
    assert unescape_partition(value) == unquote(value) == name


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=16),
       st.integers(0, 2))
def test_escape_round_trips_any_text(name: str, level: int) -> None:
    value = escape_partition(name, level)
    assert unquote(value) == name
    assert all(ch >= "\x80" or ch.isalnum() or ch in "%-_.~!$&(),;@`" for ch in value), value


def test_long_names_are_cut_with_a_hash() -> None:
    a, b = "é" * 300, "é" * 299 + "e"
    va, vb = escape_partition(a), escape_partition(b)
    assert va != vb and len(("player=" + va).encode()) <= 255
    assert unescape_partition(va).startswith("é" * 50)


def test_scan_gives_long_names_whole(tmp_path: Path) -> None:
    """The one reader takes the name from the files, not from the shortened directory."""
    out = tmp_path / "ds"
    name = "é" * 300
    with DatasetWriter(out) as writer:
        row = {c.name: None for c in COLUMNS["violations"]}
        row.update(player=name, line=1, code="L001", file="f")
        writer.add("violations", [row])
    assert scan(out, "violations").select("player").collect().item() == name
    with pytest.raises(DatasetError, match="no plays table"):
        scan(tmp_path / "nowhere", "plays")


def test_readers_decode_awkward_names(tmp_path: Path) -> None:
    """Every awkward name as a partition of its own: polars, DuckDB and pyarrow give it back."""
    out = tmp_path / "ds"
    with DatasetWriter(out) as writer:
        for i, name in enumerate(AWKWARD):
            row = {c.name: None for c in COLUMNS["violations"]}
            row.update(player=name, line=i, code="L001", file="f")
            writer.add("violations", [row])
    lf = scan(out, "violations")
    got = {r[0]: r[1] for r in lf.select("line", "player").collect().rows()}
    assert got == dict(enumerate(AWKWARD))
    plain = pl.scan_parquet(out / "violations", hive_partitioning=True).collect()
    assert dict(plain.select("line", "player").rows()) == dict(enumerate(AWKWARD))
    rows = duckdb.sql(f"SELECT line, player FROM read_parquet('{out}/violations/**/*.parquet',"
                      " hive_partitioning = true)").fetchall()
    assert dict(rows) == dict(enumerate(AWKWARD))
    import pyarrow.dataset as pads

    t = pads.dataset(out / "violations", format="parquet", partitioning="hive").to_table()
    assert dict(zip(t["line"].to_pylist(), t["player"].to_pylist(), strict=True)) == dict(
        enumerate(AWKWARD))


def test_a_table_without_rows_reads_in_pyarrow_polars_and_duckdb(tmp_path: Path) -> None:
    """A clean log's violations table is one empty file. In the default partition alone,
    pyarrow's hive partitioning could not read it ("couldn't infer type" of player); it
    lies beside the partitions, and goes when an append brings rows."""
    import pyarrow.dataset as pads

    clean = tmp_path / "clean.jsonl"
    write_log(simulate(1, 9), clean)
    out = tmp_path / "ds"
    assert ingest([clean], out).rows["violations"] == 0

    def read() -> list[tuple[Any, ...]]:
        t = pads.dataset(out / "violations", format="parquet", partitioning="hive").to_table()
        assert t.schema.field("player").type == pa.string()
        rows = sorted(zip(t["line"].to_pylist(), t["player"].to_pylist(), strict=True))
        plain = pl.scan_parquet(out / "violations", hive_partitioning=True).collect()
        assert sorted(plain.select("line", "player").rows()) == rows
        duck = duckdb.sql(f"SELECT line, player FROM read_parquet("
                          f"'{out}/violations/**/*.parquet', hive_partitioning = true)")
        assert sorted(duck.fetchall()) == rows
        return rows

    assert read() == []
    assert [p.name for p in (out / "violations").iterdir() if p.is_dir()] == []
    assert ingest([ROOT / "sample_logs" / "wish-ignored.jsonl"], out, append=True).written
    assert len(read()) == 1 and read()[0][1] is not None
    assert not list((out / "violations").glob("*.parquet"))  # the empty file is gone


# -------------------------------------------------------- streaming, atomicity, append


def _listing(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def _siblings(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


@pytest.fixture(scope="module")
def sim_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sim") / "sim.jsonl"
    write_log(simulate(3, seed=7), path)
    return path


def _frame(ds: Path, table: str) -> pl.DataFrame:
    df = _read(ds, table)
    keys = [k for k in ("file", "game", "round", "line", "event_index", "seat")
            if k in df.columns]
    return df.sort(keys)


def test_small_batches_give_the_same_tables(tmp_path: Path, sim_log: Path) -> None:
    big = ingest([sim_log], tmp_path / "big")
    small = ingest([sim_log], tmp_path / "small", batch_rows=7)
    assert big.rows == small.rows and big.rows["plays"] > 1000
    for table in TABLES:
        assert _frame(tmp_path / "big", table).equals(_frame(tmp_path / "small", table))
    # written as it goes (test_memory_is_bounded_by_the_batch), in one file per player
    files = list((tmp_path / "small" / "plays").rglob("*.parquet"))
    assert len(files) == len({f.parent for f in files}) > 1
    assert all(pq.ParquetFile(f).metadata.num_row_groups == 1 for f in files)


def test_memory_is_bounded_by_the_batch(tmp_path: Path, sim_log: Path) -> None:
    buffered: list[int] = []  # Python rows held when a part is written
    write = PartWriter._write

    def spy_write(self: PartWriter, key: tuple[str, int]) -> None:
        buffered.append(self._buffered)
        write(self, key)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(PartWriter, "_write", spy_write)
        ingest([sim_log], tmp_path / "ds", batch_rows=100)
    # a round adds at most ~ 100 play rows at once on top of a full buffer
    assert len(buffered) > 20 and max(buffered) < 100 + 400


def test_simulated_games_are_consistent(tmp_path: Path, sim_log: Path) -> None:
    result = ingest([sim_log], tmp_path / "ds")
    rounds, plays = _read(tmp_path / "ds", "rounds"), _read(tmp_path / "ds", "plays")
    assert result.totals["rounds"] * 4 == rounds.height
    assert set(rounds["status"].to_list()) == {"scored"}
    per_round = rounds.group_by("game", "round", "team").agg(
        pl.col("team_card_points").first(), pl.col("double_victory_for").first())
    totals = per_round.group_by("game", "round").agg(pl.col("team_card_points").sum())
    assert set(totals["team_card_points"].to_list()) <= {100, 200}
    assert plays.filter(~pl.col("applied")).height == 0
    assert plays["codes"].list.len().sum() == 0
    # cards_left never grows for a seat within a round, and ends at 0 for those who went out
    ordered = plays.sort("game", "round", "line")
    grows = ordered.with_columns(
        pl.col("cards_left").diff().over("game", "round", "seat").alias("d")
    ).filter(pl.col("d") > 0)
    assert grows.height == 0
    out = plays.filter(pl.col("went_out")).group_by("game", "round").len()
    assert set(out["len"].to_list()) <= {2, 3}
    assert plays.filter(pl.col("action") == "pass", pl.col("combo").is_not_null()).height == 0
    # every trick taken has one winning play; rounds count them but for the Dog's
    wins = plays.filter(pl.col("wins_trick"))
    dog_wins = wins.filter(pl.col("cards") == pl.lit(["Dog"])).height
    assert rounds["tricks_won"].sum() + dog_wins == wins.height
    assert plays.filter(pl.col("bomb")).height == rounds["bombs_played"].sum()
    assert (plays.filter(pl.col("wish_made").is_not_null()).height
            == rounds.filter(pl.col("wish_made").is_not_null()).height)


def test_rewriting_replaces_the_dataset(tmp_path: Path, sim_log: Path) -> None:
    log = write_hand_made_log(tmp_path / "hand.jsonl")
    out = tmp_path / "ds"
    ingest([sim_log], out)
    ingest([log], out)
    assert set(_read(out, "games")["game"].to_list()) == {"g1", "g2", "g3"}
    assert _siblings(out) == []


class Boom(Exception):
    pass


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
@pytest.mark.parametrize("where", ["round_values", "write_rows", "_write_marker"])
def test_a_failure_leaves_the_old_dataset(tmp_path: Path, sim_log: Path,
                                          error: type[BaseException], where: str) -> None:
    log = write_hand_made_log(tmp_path / "hand.jsonl")
    out = tmp_path / "ds"
    ingest([log], out)
    before = _listing(out)
    calls = 0

    def fail(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls >= 3 or where == "_write_marker":
            raise error("simulated failure")
        return original(*args, **kwargs)

    target = DatasetWriter if where.startswith("_") else datasets
    original = getattr(target, where)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(target, where, fail)
        with pytest.raises(error):
            ingest([sim_log], out, batch_rows=50)
    assert calls >= 1
    assert _listing(out) == before
    assert _siblings(out) == []


def test_a_failure_on_a_new_directory_leaves_nothing(tmp_path: Path, sim_log: Path) -> None:
    out = tmp_path / "new" / "ds"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(datasets, "game_rows", lambda *a: (_ for _ in ()).throw(Boom()))
        with pytest.raises(Boom):
            ingest([sim_log], out)
    assert not out.exists() and _siblings(out) == []


def test_append_adds_part_files(tmp_path: Path, sim_log: Path) -> None:
    log = write_hand_made_log(tmp_path / "hand.jsonl")
    out = tmp_path / "ds"
    first = ingest([sim_log], out)
    before = _listing(out)
    second = ingest([log], out, append=True)
    after = _listing(out)
    # every old file is still there, unchanged, and the new ones have new names; but the
    # empty file of a table that had no rows, beside its partitions, goes when rows come
    # (DuckDB reads no table with files both beside and in partitions)
    for name, data in before.items():
        if name != MARKER and not (name.endswith("-empty.parquet") and name.count("/") == 1):
            assert after[name] == data
    assert len(after) > len(before)
    for table in TABLES:
        assert _read(out, table).height == first.rows[table] + second.rows[table]
    marker = json.loads((out / MARKER).read_text())
    assert [i["append"] for i in marker["ingests"]] == [False, True]
    assert _siblings(out) == []
    # Ana plays in both: her rows share one partition directory
    assert len([p for p in (out / "games").iterdir() if p.name == "player=Ana"]) == 1


def test_append_to_a_missing_directory_creates_it(tmp_path: Path) -> None:
    log = write_hand_made_log(tmp_path / "hand.jsonl")
    result = ingest([log], tmp_path / "ds", append=True)
    assert result.written and _read(tmp_path / "ds", "games").height == 12


def test_append_refuses_another_schema_version(tmp_path: Path) -> None:
    log = write_hand_made_log(tmp_path / "hand.jsonl")
    out = tmp_path / "ds"
    ingest([log], out)
    marker = json.loads((out / MARKER).read_text())
    marker["schema_version"] = 0
    (out / MARKER).write_text(json.dumps(marker))
    with pytest.raises(DatasetError, match="schema version"):
        ingest([log], out, append=True)
    assert _siblings(out) == []


def test_refuses_to_replace_a_directory_that_is_not_a_dataset(tmp_path: Path) -> None:
    log = write_hand_made_log(tmp_path / "hand.jsonl")
    (tmp_path / "precious").mkdir()
    (tmp_path / "precious" / "thesis.tex").write_text("years of work")
    with pytest.raises(DatasetError, match="not a tichu-analyze dataset"):
        ingest([log], tmp_path / "precious")
    assert (tmp_path / "precious" / "thesis.tex").read_text() == "years of work"
    (tmp_path / "empty").mkdir()
    assert ingest([log], tmp_path / "empty").written


def test_unreadable_file_writes_nothing(tmp_path: Path) -> None:
    log = write_hand_made_log(tmp_path / "hand.jsonl")
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(b"\x1f\x8b garbage")  # not a gzip header: BadGzipFile
    out = tmp_path / "ds"
    ingest([log], out)
    before = _listing(out)
    result = ingest([log, broken], out)
    assert not result.written and len(result.errors) == 1
    assert _listing(out) == before and _siblings(out) == []


def test_empty_tables_are_readable(tmp_path: Path) -> None:
    log = tmp_path / "one.jsonl"
    log.write_text(json.dumps({"type": "game_start", "game": "g", "players": G1}) + "\n")
    ingest([log], tmp_path / "ds")
    assert _read(tmp_path / "ds", "plays").height == 0
    assert _read(tmp_path / "ds", "violations").height == 0
    assert _read(tmp_path / "ds", "games").height == 4


def test_file_names_with_undecodable_bytes(tmp_path: Path) -> None:
    if os.name != "posix":
        pytest.skip("POSIX file names")
    weird = Path(os.fsdecode(bytes(tmp_path) + b"/caf\xe9.jsonl"))
    write_hand_made_log(weird)
    ingest([weird], tmp_path / "ds")
    files = set(_read(tmp_path / "ds", "games")["file"].to_list())
    assert len(files) == 1 and next(iter(files)).endswith("caf\ufffd.jsonl")


# ----------------------------------------------------------------------------- CLI

runner = CliRunner()


def test_cli_ingest(tmp_path: Path) -> None:
    log = write_hand_made_log(tmp_path / "hand.jsonl")
    out = tmp_path / "ds"
    result = runner.invoke(app, ["ingest", str(log), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "6 diagnostics" in result.output and "C003" in result.output
    assert "wrote 3 games to " in result.output
    assert "plays 35, rounds 12, games 12, violations 6" in " ".join(result.output.split())
    assert _read(out, "rounds").height == 12
    result = runner.invoke(app, ["ingest", str(tmp_path), "--out", str(out), "--append", "-q"])
    assert result.exit_code == 0, result.output
    assert "skipped 1 log whose content" in result.output  # already in: not doubled
    assert _read(out, "rounds").height == 12
    result = runner.invoke(app, ["ingest", str(tmp_path), "--out", str(out), "--append", "-q",
                                 "--force"])
    assert result.exit_code == 0, result.output
    assert result.output == ""
    assert _read(out, "rounds").height == 24


def test_cli_help_says_diagnostics_are_data() -> None:
    result = runner.invoke(app, ["ingest", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Diagnostics are data" in result.output and "--append" in result.output


@pytest.mark.parametrize("case", ["missing", "no-logs", "out-is-file", "not-a-dataset",
                                  "unreadable"])
def test_cli_exit_2(tmp_path: Path, case: str) -> None:
    log = write_hand_made_log(tmp_path / "hand.jsonl")
    out = tmp_path / "ds"
    args = [str(log)]
    if case == "missing":
        args = [str(tmp_path / "nope.jsonl")]
    elif case == "no-logs":
        (tmp_path / "empty").mkdir()
        args = [str(tmp_path / "empty")]
    elif case == "out-is-file":
        out.write_text("x")
    elif case == "not-a-dataset":
        out.mkdir()
        (out / "notes.txt").write_text("mine")
    else:
        (tmp_path / "bad.jsonl.gz").write_bytes(b"\x1f\x8b garbage")
        args = [str(tmp_path)]
    result = runner.invoke(app, ["ingest", *args, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and "Traceback" not in result.output
    assert not (out / MARKER).exists()


def test_cli_interrupt_exits_130(tmp_path: Path) -> None:
    log = write_hand_made_log(tmp_path / "hand.jsonl")

    def interrupted(*args: Any, **kwargs: Any) -> Iterator[Any]:
        raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(datasets, "round_values", interrupted)
        result = runner.invoke(app, ["ingest", str(log), "--out", str(tmp_path / "ds")])
    assert result.exit_code == 130
    assert f"interrupted: {tmp_path / 'ds'} was not created" in result.output
    assert not (tmp_path / "ds").exists() and _siblings(tmp_path / "ds") == []


def test_spark_reads_the_dataset(dataset: Path) -> None:
    """Spark, where installed (not a dependency): same rows and the exact player names."""
    pytest.importorskip("pyspark", reason="optional cross-check: pip install pyspark (and a "
                        "Java runtime) to run it")
    import shutil

    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs Java")
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
             .getOrCreate())
    try:
        spark.conf.set("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
        for table in TABLES:
            df = spark.read.parquet(str(dataset / table))
            assert df.count() == _read(dataset, table).height
            assert set(df.columns) == {c.name for c in COLUMNS[table]}
        names = {r["player"] for r in spark.read.parquet(str(dataset / "games"))
                 .select("player").distinct().collect()}
        assert names == set(G1 + G2 + G3)
        nulls = spark.read.parquet(str(dataset / "violations")).where("player IS NULL").count()
        assert nulls == 4
    finally:
        spark.stop()


def test_a_subclass_of_the_dataset_visitor_keeps_its_own_visit_event(
        tmp_path: Path, sim_log: Path) -> None:
    # DatasetVisitor hands the replay its compiled row code directly, but not in front of
    # a subclass's own method
    from tichu_analyze.core.state import GameState, RoundState, Step
    from tichu_analyze.readers.logfile import replay_file

    seen: list[int] = []

    class Counting(datasets.DatasetVisitor):
        def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
            seen.append(step.index)
            super().visit_event(game, rnd, step)

    with DatasetWriter(tmp_path / "ds") as writer:
        stats = replay_file(sim_log, Counting(writer))
    plays = scan(tmp_path / "ds", "plays").collect()
    assert len(seen) > plays.height > 0 and stats.events > len(seen) // 2
    assert plays.height == ingest([sim_log], tmp_path / "again").rows["plays"]
