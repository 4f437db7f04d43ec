"""Decisions of docs/rules.md ("Decisions where the rules leave room") that the
hand-made fixtures do not pin down on their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tichu_analyze.core.record import Recorder
from tichu_analyze.readers.logfile import check_file, replay_file

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

FIXTURES = Path(__file__).parent / "fixtures" / "rules"
GIVE_NOT_OBJECT = FIXTURES / "L002_give_not_object.jsonl"


def _status(path: Path) -> list[str]:
    recorder = Recorder()
    replay_file(path, recorder)
    return [r.status for r in recorder.rounds]


def test_unreadable_exchange_then_the_real_one_round_is_checked() -> None:
    assert [(d.code, d.line) for d in check_file(GIVE_NOT_OBJECT)] == [("L002", 5)]
    assert _status(GIVE_NOT_OBJECT) == ["scored"]


def test_unreadable_exchange_never_replaced_skips_the_round_without_a_cascade(
    tmp_path: Path,
) -> None:
    lines = GIVE_NOT_OBJECT.read_text().splitlines(keepends=True)
    assert '"seat":0,"give":{' in lines[5]
    log = tmp_path / "no-replacement.jsonl"
    log.write_text("".join(lines[:5] + lines[6:]))
    assert [(d.code, d.line) for d in check_file(log)] == [("L002", 5)]
    assert _status(log) == ["skipped"]


def test_unreadable_deal_skips_the_round(tmp_path: Path) -> None:
    lines = GIVE_NOT_OBJECT.read_text().splitlines(keepends=True)
    second_deal = [i for i, line in enumerate(lines) if '"type":"deal"' in line][1]
    assert '"9s"' in lines[second_deal]
    lines[second_deal] = lines[second_deal].replace('"9s"', '"9x"', 1)
    log = tmp_path / "bad-deal.jsonl"
    log.write_text("".join(lines))
    # L003 at the deal; the exchange's L002 later in the skipped round is not reported
    assert [(d.code, d.line) for d in check_file(log)] == [("L003", second_deal + 1)]
    assert _status(log) == ["skipped"]


def test_a_call_between_the_dragon_trick_and_its_gift_is_not_g002(tmp_path: Path) -> None:
    ok = FIXTURES / "G001_ok_dragon_to_opponent.jsonl"
    lines = ok.read_text().splitlines(keepends=True)
    gift = next(i for i, line in enumerate(lines) if '"dragon_gift"' in line)
    late_call = '{"type":"call","game":"g1","seat":3,"call":"tichu"}\n'
    log = tmp_path / "call-before-gift.jsonl"
    log.write_text("".join(lines[:gift] + [late_call] + lines[gift:]))
    codes = [d.code for d in check_file(log)]
    assert "G002" not in codes and "G003" not in codes


def test_a_missing_deal_gives_one_l007_and_skips_the_round(tmp_path: Path) -> None:
    lines = GIVE_NOT_OBJECT.read_text().splitlines(keepends=True)
    second_deal = [i for i, line in enumerate(lines) if '"type":"deal"' in line][1]
    log = tmp_path / "no-second-deal.jsonl"
    log.write_text("".join(lines[:second_deal] + lines[second_deal + 1:]))
    found = check_file(log)
    # the malformed exchange now at the deal's place is L002 as before; the next event,
    # the first that needs the cards, is L007, and nothing after it is reported
    assert [(d.code, d.line) for d in found] == [("L002", second_deal + 1),
                                                 ("L007", second_deal + 2)]
    assert _status(log) == ["skipped"]


# -- an invalid play by the player due to lead (docs/rules.md, "An invalid play counts as a
# pass"): found by the independent reference replayer (tests/oracle_engine.py)

_DEALS = [
    '{"type":"game_start","game":"p","players":["Ana","Ben","Chloe","Dev"]}',
    '{"type":"round_start","game":"p","round":1}',
    '{"type":"deal","game":"p","hands":[["Mahjong","2j","3j","4j","5j","6j","7j","8j"],'
    '["Aj","As","Ap","Ar","2s","3s","4s","5s"],["Qs","Ks","2p","3p","4p","5p","6p","7p"],'
    '["2r","3r","4r","5r","6r","7r","8r","9r"]]}',
    '{"type":"deal","game":"p","hands":[["9j","10j","Jj","9s","Jp","Kr"],'
    '["6s","7s","8s","Qj","Qp","Dog"],["8p","9p","10p","Kj","10s","Phoenix"],'
    '["10r","Jr","Qr","Dragon","Js","Kp"]]}',
    '{"type":"exchange","game":"p","seat":0,"give":{"1":"9s","2":"Jp","3":"Kr"}}',
    '{"type":"exchange","game":"p","seat":1,"give":{"0":"Qj","2":"Qp","3":"Dog"}}',
    '{"type":"exchange","game":"p","seat":2,"give":{"0":"Kj","1":"10s","3":"Phoenix"}}',
    '{"type":"exchange","game":"p","seat":3,"give":{"0":"Dragon","1":"Js","2":"Kp"}}',
]  # then Ana: Mahjong 2j-Kj Dragon; Ben: 2s-Js, the four Aces; Chloe: 2p-Jp Qs Qp Ks Kp;
# Dev: Dog 2r-Kr Phoenix


def _move(seat: int, cards: list[str] | None = None, **more: object) -> str:
    import json

    if cards is None:
        return json.dumps({"type": "pass", "game": "p", "seat": seat})
    return json.dumps({"type": "play", "game": "p", "seat": seat, "cards": cards, **more})




def test_the_winners_invalid_play_after_everyone_passed_is_its_lead(tmp_path: Path) -> None:
    """Everyone passed on Ana's King; her next play is her lead (2.4) even when it forms
    no combination (P002): the King's trick is hers, the table stays empty, the turn
    moves on and Ben leads, not out of turn. The 15 points of her two cards go with the
    next trick (Ben's), and the round still counts its 100 points."""
    spades = [f"{r}s" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J")]
    pagodas = [f"{r}p" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J")]
    stars = [f"{r}r" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    singles = ["Mahjong", "2j", "3j", "4j", "6j", "7j", "8j", "9j", "Jj", "Qj"]
    lines = [*_DEALS,
             _move(0, ["Kj"]), _move(1), _move(2), _move(3),
             _move(0, ["5j", "10j"]),  # line 13: P002, Ana's lead
             _move(1, spades), _move(2), _move(3), _move(0),  # Ben's trick: 30 points
             _move(1, ["Aj", "As", "Ap", "Ar"]), _move(2), _move(3), _move(0),  # Ben out
             _move(2, pagodas), _move(3), _move(0),
             _move(2, ["Qs", "Qp", "Ks", "Kp"]), _move(3), _move(0),  # Chloe out
             _move(3, stars), _move(0),
             _move(3, ["Phoenix"]), _move(0, ["Dragon"]), _move(3),
             '{"type":"dragon_gift","game":"p","seat":0,"to":1}']
    for card in singles:
        lines += [_move(0, [card])] + ([_move(3)] if card != singles[-1] else [])
    lines.append('{"type":"round_end","game":"p","round":1,"finish_order":[1,2,0,3],'
                 '"score":[45,55]}')
    log = tmp_path / "winner-p002.jsonl"
    log.write_text("\n".join(lines) + "\n")
    assert [(d.code, d.line) for d in check_file(log)] == [("P002", 13)]
    recorder = Recorder()
    replay_file(log, recorder)
    [played] = recorder.rounds
    assert played.status == "scored"
    # the plays table: the two cards are on the (new) table, then in Ben's trick
    import polars as pl

    from tichu_analyze.data.datasets import ingest, scan

    ingest([log], tmp_path / "ds")
    plays = scan(tmp_path / "ds", "plays").filter(pl.col("line").is_in([13, 14])).sort(
        "line").select("line", "trick", "lead", "trick_points").collect().rows()
    assert plays == [(13, 1, False, 15), (14, 2, True, 30)]


def test_a_wish_on_a_play_that_is_no_combination_is_w002_and_makes_no_wish(
        tmp_path: Path) -> None:
    """W002 goes with P002 and P007 as with any other play (a `wish` without the
    Mahjong); with the Mahjong and a rank, an invalid play makes no wish (near miss: no
    W002, and no W001 later for a seat holding that rank)."""
    base = [*_DEALS, _move(0, ["Kj"])]
    no_mahjong = tmp_path / "p002-wish.jsonl"
    no_mahjong.write_text("\n".join([*base, _move(1, ["2s", "4s"], wish="8")]) + "\n")
    assert [(d.code, d.line) for d in check_file(no_mahjong)] == [
        ("P002", 10), ("W002", 10), ("L008", 10)]
    dog = tmp_path / "p007-wish.jsonl"
    dog.write_text("\n".join([*base, _move(1), _move(2), _move(3, ["Dog"], wish="8")]) + "\n")
    assert [(d.code, d.line) for d in check_file(dog)] == [
        ("P007", 12), ("W002", 12), ("L008", 12)]
    mahjong = tmp_path / "p002-mahjong-wish.jsonl"
    mahjong.write_text("\n".join([
        *_DEALS, _move(0, ["Mahjong", "3j"], wish="8"),  # P002: the lead moves on to Ben
        _move(1, ["2s"]), _move(2), _move(3), _move(0)]) + "\n")  # Chloe held 8p: no W001
    assert [(d.code, d.line) for d in check_file(mahjong)] == [("P002", 9), ("L008", 13)]


def test_an_invalid_play_by_another_seat_after_everyone_passed_is_a_lead_out_of_turn(
        tmp_path: Path) -> None:
    """Everyone passed on Ana's King and she is to lead; Chloe plays two cards that form
    no combination (P002). That play is a lead out of turn, as a valid one would be (the
    one code is P002): the King's trick is Ana's, the table stays empty and the turn
    moves on to Dev, whose lead is in turn. Near miss: a pass by Chloe there is out of
    turn (P003) and leaves Ana to lead, so Dev's lead is out of turn too."""
    start = [*_DEALS, _move(0, ["Kj"]), _move(1), _move(2), _move(3)]
    log = tmp_path / "p002-not-due.jsonl"
    log.write_text("\n".join([*start, _move(2, ["2p", "4p"]), _move(3, ["2r"])]) + "\n")
    assert [(d.code, d.line) for d in check_file(log)] == [("P002", 13), ("L008", 14)]
    import polars as pl

    from tichu_analyze.data.datasets import ingest, scan

    ingest([log], tmp_path / "ds")
    plays = scan(tmp_path / "ds", "plays").filter(pl.col("line").is_in([13, 14])).sort(
        "line").select("line", "trick", "lead").collect().rows()
    assert plays == [(13, 1, False), (14, 2, True)]
    passed = tmp_path / "pass-not-due.jsonl"
    passed.write_text("\n".join([*start, _move(2), _move(3, ["2r"])]) + "\n")
    assert [(d.code, d.line) for d in check_file(passed)] == [
        ("P003", 13), ("P003", 14), ("L008", 14)]


def test_an_invalid_lead_after_the_dog_ends_the_dogs_window(tmp_path: Path) -> None:
    """Dev wins a trick with the Phoenix and leads the Dog; Ben, his partner, is to lead
    and plays two cards that form no combination: that is the lead (P002), so the table
    is no longer the Dog's. Dev's straight flush then is a bomb on an empty table out of
    turn (B002; Chloe is to lead), not a bomb on the Dog (B003), which it is when it
    comes before any lead (near miss)."""
    dog = [*_DEALS, _move(0, ["2j"]), _move(1), _move(2), _move(3, ["Phoenix"]),
           _move(0), _move(1), _move(2), _move(3, ["Dog"])]  # line 16
    bomb = _move(3, ["2r", "3r", "4r", "5r", "6r"])
    log = tmp_path / "dog-then-p002.jsonl"
    log.write_text("\n".join([*dog, _move(1, ["2s", "4s"]), bomb]) + "\n")
    assert [(d.code, d.line) for d in check_file(log)] == [
        ("P002", 17), ("B002", 18), ("L008", 18)]
    on_dog = tmp_path / "dog-then-bomb.jsonl"
    on_dog.write_text("\n".join([*dog, bomb]) + "\n")
    assert [(d.code, d.line) for d in check_file(on_dog)] == [("B003", 17), ("L008", 17)]
