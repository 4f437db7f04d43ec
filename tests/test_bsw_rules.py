"""The ``bsw`` rules (rules.md 9.4): the Brettspielwelt platform's reading, as a variant of
the engine, on format-1 logs written by hand from the rules (a near miss without the
variant for each case), and the state's queries under it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.core.cards import CARD_BY_TOKEN, mask_of
from tichu_analyze.core.combos import Kind, classify
from tichu_analyze.core.record import Recorder
from tichu_analyze.readers.logfile import check_file, replay_file

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

runner = CliRunner()

# After the exchange below:
#   seat 0 Ann:   Dragon 9j 9s 9p 9r Mahjong 2j 3j 4j 5j Kj 6j 10j Qj
#   seat 1 Ben:   2s 3s 4s 5s 10s Js Qs Ks As Phoenix Dog 6s Jj Aj
#   seat 2 Chloe: 2p 3p 4p 5p 6p 7p 8p Jp Qp Kp Ap 7s 7j 10r
#   seat 3 Dev:   2r 3r 4r 5r 6r 7r 8r Jr Qr Kr Ar 8s 8j 10p
FIRST = [["Dragon", "9j", "9s", "9p", "9r", "Mahjong", "2j", "3j"],
         ["2s", "3s", "4s", "5s", "6j", "7j", "8j", "10s"],
         ["2p", "3p", "4p", "5p", "6p", "7p", "8p", "10p"],
         ["2r", "3r", "4r", "5r", "6r", "7r", "8r", "10r"]]
SECOND = [["4j", "5j", "6s", "7s", "8s", "Kj"],
          ["Js", "Qs", "Ks", "As", "Phoenix", "Dog"],
          ["Jp", "Qp", "Kp", "Ap", "10j", "Jj"],
          ["Jr", "Qr", "Kr", "Ar", "Qj", "Aj"]]
GIVES = [{"1": "6s", "2": "7s", "3": "8s"}, {"0": "6j", "2": "7j", "3": "8j"},
         {"0": "10j", "1": "Jj", "3": "10p"}, {"0": "Qj", "1": "Aj", "2": "10r"}]
DRAGON_TRICK: list[Any] = [
    (0, ["Mahjong"]), 1, 2, 3,  # Ann's Mahjong, everyone passes: Ann leads again
    (0, ["Kj"]), (1, ["As"]), 2, 3, (0, ["Dragon"]), 1, 2, 3,  # the Dragon's trick is over
]
FOUR_NINES = ["9j", "9s", "9p", "9r"]


def log(script: list[Any], variants: list[str] | None = None) -> list[dict[str, Any]]:
    """A game of one round: the deal and exchange above, then ``script``: ``(seat, cards)``
    a play, a seat alone its pass, ``("gift", to)`` Ann's Dragon gift."""
    start: dict[str, Any] = {"type": "game_start", "game": "g",
                             "players": ["Ann", "Ben", "Chloe", "Dev"]}
    if variants:
        start["variants"] = variants
    evs = [start, {"type": "round_start", "game": "g", "round": 1},
           {"type": "deal", "game": "g", "hands": FIRST},
           {"type": "deal", "game": "g", "hands": SECOND}]
    evs += [{"type": "exchange", "game": "g", "seat": s, "give": g} for s, g in enumerate(GIVES)]
    for step in script:
        if isinstance(step, int):
            evs.append({"type": "pass", "game": "g", "seat": step})
        elif step[0] == "gift":
            evs.append({"type": "dragon_gift", "game": "g", "seat": 0, "to": step[1]})
        else:
            evs.append({"type": "play", "game": "g", "seat": step[0], "cards": step[1]})
    return evs


def write(tmp_path: Path, evs: list[dict[str, Any]]) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(ev) + "\n" for ev in evs), encoding="utf-8")
    return path


def found(tmp_path: Path, evs: list[dict[str, Any]],
          variants: frozenset[str] = frozenset()) -> list[tuple[str, int]]:
    """The (code, line) of each diagnostic, the unfinished round's L008 left out."""
    return [(d.code, d.line) for d in check_file(write(tmp_path, evs), variants)
            if d.code != "L008"]


def line_of(evs: list[dict[str, Any]], index: int) -> int:
    """The 1-based line of ``evs[index]`` (negative: from the end)."""
    return index % len(evs) + 1


def test_the_dragons_winner_keeps_its_trick_by_bombing_it(tmp_path: Path) -> None:
    script = [*DRAGON_TRICK, (0, FOUR_NINES), 1, 2, 3, (0, ["2j"])]
    assert found(tmp_path, log(script, ["bsw"])) == []
    recorder = Recorder()
    replay_file(write(tmp_path, log(script, ["bsw"])), recorder)
    rnd = recorder.rounds[0].state
    assert rnd.dragon_gifts == []
    # the bomb continued the Dragon's trick: Ann won it all, the Dragon's 25 points with it
    trick = recorder.rounds[0].tricks[-1]
    assert trick.number == 2 and trick.winner == 0
    assert trick.top is not None and trick.top.kind == Kind.FOUR_OF_A_KIND
    assert trick.points == 35 and trick.dragon is False


def test_without_bsw_the_winners_bomb_is_its_lead_and_the_gift_is_missing(
        tmp_path: Path) -> None:
    evs = log([*DRAGON_TRICK, (0, FOUR_NINES), 1, 2, 3])
    bomb = line_of(evs, -4)
    assert found(tmp_path, evs) == [("G002", bomb)]
    # the same with --variant bsw instead of the log naming it
    assert found(tmp_path, evs, frozenset({"bsw"})) == []


def test_the_winners_pass_takes_its_trick_then_its_bomb_is_a_lead(tmp_path: Path) -> None:
    # BSW logs the winner taking its trick as its pass; the Dragon's gift follows, and the
    # bomb after it leads a new trick
    script = [*DRAGON_TRICK, 0, ("gift", 1), (0, FOUR_NINES), 1, 2, 3]
    evs = log(script, ["bsw"])
    assert found(tmp_path, evs) == []
    recorder = Recorder()
    replay_file(write(tmp_path, evs), recorder)
    rnd = recorder.rounds[0].state
    assert rnd.dragon_gifts == [(0, 1)]
    # without bsw that pass is a pass by the seat to lead: P006, skipped
    # (its Dragon trick then counts as not given: G002, and the gift after it is G003)
    evs = log(script)
    assert found(tmp_path, evs) == [("G002", line_of(evs, -6)), ("P006", line_of(evs, -6)),
                                    ("G003", line_of(evs, -5))]


def test_a_taken_dragon_trick_still_needs_its_gift(tmp_path: Path) -> None:
    evs = log([*DRAGON_TRICK, 0, (0, FOUR_NINES), 1, 2, 3], ["bsw"])
    assert found(tmp_path, evs) == [("G002", line_of(evs, -4))]


def test_no_bomb_continues_a_trick_its_winner_took(tmp_path: Path) -> None:
    # Ann wins the Mahjong's trick and takes it (her pass); Chloe's straight flush then
    # can only be a lead, and Ann is to lead
    evs = log([(0, ["Mahjong"]), 1, 2, 3, 0, (2, ["2p", "3p", "4p", "5p", "6p"])], ["bsw"])
    assert found(tmp_path, evs) == [("P003", line_of(evs, -1))]
    # before Ann takes it, Chloe's bomb lands on the trick (rules 4.3), with or without bsw
    for variants in (["bsw"], None):
        evs = log([(0, ["Mahjong"]), 1, 2, 3, (2, ["2p", "3p", "4p", "5p", "6p"])], variants)
        assert found(tmp_path, evs) == []


@pytest.mark.parametrize("bsw", [True, False])
def test_queries_answer_for_the_winner_in_the_end_of_trick_window(bsw: bool,
                                                                   tmp_path: Path) -> None:
    recorder = Recorder()
    replay_file(write(tmp_path, log(DRAGON_TRICK, ["bsw"] if bsw else None)), recorder)
    rnd = recorder.rounds[0].state
    assert rnd.trick_over and rnd.gift_due() and rnd.top_seat == 0
    bomb = classify(mask_of(CARD_BY_TOKEN[t] for t in FOUR_NINES))
    assert bomb is not None
    # under bsw the bomb lands on the Dragon's trick, otherwise it is Ann's lead, which must
    # wait for the gift: the only play the queries allow her before it is that bomb, or none
    assert rnd.bomb_lands(0, bomb) is bsw
    allowed = rnd.legal_plays(0)
    assert (bomb in allowed) is bsw and all(c.is_bomb for c in allowed)
    assert bsw or allowed == []
    assert rnd.may_pass(0) is bsw  # the winner takes its trick (9.4); else P006
    assert rnd.takes(0) is bsw and not rnd.takes(1)
    assert not rnd.may_pass(1)  # the others have passed: the trick is over for them


def test_replay_names_the_bsw_rules(tmp_path: Path) -> None:
    path = write(tmp_path, log([*DRAGON_TRICK, (0, FOUR_NINES), 1, 2, 3, (0, ["2j"])],
                               ["bsw"]))
    result = runner.invoke(app, ["replay", str(path), "--color", "never"])
    assert result.exit_code == 0, result.output
    assert "bsw (named in the log)" in result.stdout
    assert "Brettspielwelt" in result.stdout
    assert "Ann (0) wins with 9j 9s 9p 9r" in result.stdout
    assert "gives the Dragon" not in result.stdout


def test_bsw_is_a_variant_of_the_command_line(tmp_path: Path) -> None:
    path = write(tmp_path, log([*DRAGON_TRICK, (0, FOUR_NINES), 1, 2, 3]))
    result = runner.invoke(app, ["check", "--variant", "bsw", "--select", "G", str(path)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["check", "--select", "G", str(path)])
    assert result.exit_code == 1 and "G002" in result.stdout
