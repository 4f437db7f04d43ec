"""The variants of rules.md 9.2 (tientsin) and 9.3 (trichu) in the one engine, beyond the
hand-made fixtures of tests/fixtures/variants/: the state's rules for six seats, the wider
event shapes of variant games, and the commands that do not handle them yet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.core.record import Recorder
from tichu_analyze.core.state import (
    GameState,
    RoundState,
    Step,
    partners,
    receivers,
    round_over,
    score_round,
    team_victory,
)
from tichu_analyze.core.variants import check_variants, rules_of
from tichu_analyze.core.visitor import Visitor
from tichu_analyze.readers.logfile import check_file, replay_file

VARIANTS = Path(__file__).parent / "fixtures" / "variants"
TIENTSIN = VARIANTS / "scenario_tientsin_full_round.jsonl"
TRICHU = VARIANTS / "scenario_trichu_full_game.jsonl"
runner = CliRunner()


def test_six_seats_partners_and_exchange_receivers() -> None:
    assert partners(1, 6) == [3, 5] and partners(4, 6) == [0, 2] and partners(0, 4) == [2]
    assert receivers(0, rules_of(frozenset({"tientsin"}))) == 1 << 2 | 1 << 4
    assert receivers(1, rules_of(frozenset({"trichu"}))) == 1 << 2 | 1 << 0
    assert receivers(1) == 0b1101


def test_round_end_for_six_seats() -> None:
    assert not round_over([0, 2], 6) and not team_victory([0, 2], 6)  # no double victory
    assert team_victory([0, 2, 4], 6) and round_over([0, 2, 4], 6)
    assert not round_over([0, 2, 1], 6) and not round_over([0, 1, 2, 3], 6)
    assert round_over([0, 1, 2, 3, 5], 6)
    assert team_victory([1, 3], 4) and round_over([1, 3], 4)


def test_six_seat_scoring_triple_victory_and_piles() -> None:
    calls: list[str | None] = [None] * 6
    six = rules_of(frozenset({"tientsin"}))
    triple = score_round([0, 4, 2], calls, [0] * 6, [0] * 6, rules=six)
    assert triple.double_victory and triple.score == [300, 0]
    assert triple.finish_order[:3] == [0, 4, 2]
    # seat 5 last (its hand and tricks to team 0), seat 4 fifth (its tricks to seat 1)
    from tichu_analyze.core.cards import CARD_BY_TOKEN, mask_of

    def m(text: str) -> int:
        return mask_of(CARD_BY_TOKEN[t] for t in text.split())

    piles = [0, 0, 0, 0, m("Kj"), m("10j")]
    hands = [0, 0, 0, 0, 0, m("5j")]
    result = score_round([1, 0, 2, 3, 4], calls, piles, hands, rules=six)
    assert result.card_points == [15, 10] and result.finish_order[-1] == 5


def test_variant_names_mix_only_where_they_make_sense() -> None:
    assert check_variants(["tientsin", "wish-penalty-200"]) == {"tientsin", "wish-penalty-200"}
    with pytest.raises(ValueError, match="exclude each other"):
        check_variants(["trichu", "tientsin"])
    code = runner.invoke(app, ["check", "--variant", "tientsin", "--variant", "trichu",
                               str(TIENTSIN)])
    assert code.exit_code == 2 and "exclude each other" in code.stderr


def test_command_line_variant_adds_to_the_log(tmp_path: Path) -> None:
    """A six-player log that does not name tientsin is read as one with --variant."""
    lines = TIENTSIN.read_text(encoding="utf-8").splitlines()
    start = json.loads(lines[0])
    del start["variants"]
    plain = tmp_path / "six.jsonl"
    plain.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n", encoding="utf-8")
    assert [d.code for d in check_file(plain)][:2] == ["L002", "L005"]
    assert check_file(plain, frozenset({"tientsin"})) == []
    mixed = check_file(TIENTSIN, frozenset({"trichu"}))
    assert mixed[0].code == "L002" and "command line" in mixed[0].message


def _six_player_log(tmp_path: Path, change: dict[int, dict[str, object]]) -> Path:
    """The tientsin scenario with the events at the given 0-based indices updated."""
    events = [json.loads(x) for x in TIENTSIN.read_text(encoding="utf-8").splitlines()]
    for index, fields in change.items():
        events[index].update(fields)
    path = tmp_path / "changed.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


def test_seats_of_a_six_seat_game_are_held_to_six(tmp_path: Path) -> None:
    events = [json.loads(x) for x in TIENTSIN.read_text(encoding="utf-8").splitlines()]
    last_pass = max(i for i, e in enumerate(events) if e["type"] == "pass")
    path = _six_player_log(tmp_path, {last_pass: {"seat": 6}})
    [bad] = [d for d in check_file(path) if d.code == "L002"]
    assert bad.line == last_pass + 1 and "a seat is a whole number from 0 to 5" in bad.message


def test_deal_of_four_hands_in_a_six_seat_game_is_l002(tmp_path: Path) -> None:
    events = [json.loads(x) for x in TIENTSIN.read_text(encoding="utf-8").splitlines()]
    first = next(i for i, e in enumerate(events) if e["type"] == "deal")
    path = _six_player_log(tmp_path, {first: {"hands": events[first]["hands"][:4]}})
    found = check_file(path)
    assert found[0].code == "L002" and found[0].line == first + 1
    assert "6 seats" in found[0].message


def test_trichu_game_end_with_team_totals_is_l002(tmp_path: Path) -> None:
    events = TRICHU.read_text(encoding="utf-8").splitlines()
    end = json.loads(events[-1])
    end["score"] = [600, 100]
    path = tmp_path / "trichu.jsonl"
    path.write_text("\n".join([*events[:-1], json.dumps(end)]) + "\n", encoding="utf-8")
    assert [(d.code, d.line) for d in check_file(path)] == [("L002", len(events))]


def test_trichu_persons_and_dummy_in_the_state() -> None:
    recorder = Recorder()
    replay_file(TRICHU, recorder)
    [game] = recorder.games
    assert game.rules.per_person and game.target == 3 and game.won_by is None
    assert game.person_totals == {"Ana": 600, "Ben": 500, "Chloe": 400}
    assert [r.state.dummy for r in recorder.rounds] == [3, 3, 0]
    assert [r.state.solo for r in recorder.rounds] == [1, 1, 2]
    rnd = recorder.rounds[0].state
    assert not rnd.bound_by_wish(3)


class _AfterDog(Visitor):
    """Notes, after each event that leaves the Dog's lead open, who may lead."""

    def __init__(self) -> None:
        self.seen: list[tuple[bool, ...]] = []

    def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
        if rnd.after_dog and rnd.top is None:
            self.seen.append(tuple(rnd.may_lead(s) for s in range(rnd.seats)))


def test_either_partner_may_lead_after_the_dog_in_the_state() -> None:
    """tientsin (rules 9.2): after seat 4's Dog both partners 0 and 2 may lead; the state's
    queries say so, and no other seat may."""
    visitor = _AfterDog()
    replay_file(TIENTSIN, visitor)
    assert visitor.seen and visitor.seen[0] == (True, False, True, False, False, False)


def test_games_lists_a_trichu_game_with_its_persons_totals() -> None:
    result = runner.invoke(app, ["games", str(TRICHU)])
    assert result.exit_code in (0, 1), result.output
    assert "Ana 600, Ben 500, Chloe 400" in result.stdout
