"""Decisions of docs/rules.md ("Decisions where the rules leave room") that the
hand-made fixtures do not pin down on their own."""

from __future__ import annotations

from pathlib import Path

from tichu_analyze.logfile import check_file, replay_file
from tichu_analyze.record import Recorder

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
