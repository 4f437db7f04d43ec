"""House-rule variants (rules.md section 9): selected by name, never applied otherwise."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.core.cards import CARD_BY_TOKEN, mask_of
from tichu_analyze.core.combos import Kind, beats, classify
from tichu_analyze.core.record import Recorder
from tichu_analyze.readers.logfile import check_file, replay_file

RULES_FIXTURES = Path(__file__).parent / "fixtures" / "rules"
WISH = RULES_FIXTURES / "W001_pass_holding_rank.jsonl"
DOG_BOMB = RULES_FIXTURES / "B003_bomb_on_dog.jsonl"


def _scores(path: Path, variants: frozenset[str]) -> list[list[int] | None]:
    recorder = Recorder()
    replay_file(path, recorder, variants=variants)
    return [r.score for r in recorder.rounds]


def test_wish_penalty_gives_the_other_team_200_per_violation() -> None:
    found = check_file(WISH)
    [violation] = [d for d in found if d.code == "W001"]
    assert violation.seat is not None
    other_team = (violation.seat + 1) % 2
    [plain] = _scores(WISH, frozenset())
    [penalised] = _scores(WISH, frozenset({"wish-penalty-200"}))
    assert plain is not None and penalised is not None
    assert penalised[other_team] == plain[other_team] + 200
    assert penalised[1 - other_team] == plain[1 - other_team]


def test_wish_penalty_is_not_applied_by_default() -> None:
    assert not any(d.code == "S002" for d in check_file(WISH))
    with_variant = check_file(WISH, frozenset({"wish-penalty-200"}))
    assert [d.code for d in with_variant].count("S002") == 1  # the log scored it without


def test_dog_can_be_bombed_removes_only_b003() -> None:
    plain = [(d.code, d.line) for d in check_file(DOG_BOMB)]
    assert any(code == "B003" for code, _ in plain)
    variant = [(d.code, d.line) for d in check_file(DOG_BOMB, frozenset({"dog-can-be-bombed"}))]
    assert variant == [(c, line) for c, line in plain if c != "B003"]


def test_unknown_variant_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["check", "--variant", "phoenix-bombs", str(WISH)])
    assert result.exit_code == 2
    assert "unknown variant 'phoenix-bombs'" in result.stderr
    assert "phoenix-in-bombs" in result.stderr  # the message lists the variants


def test_a_four_player_game_under_tientsin_says_why_six_are_needed(tmp_path: Path) -> None:
    [start, *_] = [d for d in check_file(WISH, frozenset({"tientsin"})) if d.code == "L002"]
    assert start.line == 1 and "needs six" in start.message
    assert "from the command line" in start.message and "skipped" in start.message
    six = tmp_path / "six.jsonl"
    six.write_text('{"type":"game_start","game":"g","players":["A","B","C","D","E","F"]}\n',
                   encoding="utf-8")
    [alone] = check_file(six)
    assert alone.code == "L002" and "needs four" in alone.message
    assert "tientsin" in alone.message and "game_start.variants" in alone.message


def _m(text: str) -> int:
    return mask_of(CARD_BY_TOKEN[t] for t in text.split())


def test_phoenix_in_bombs_only_by_house_rule() -> None:
    four = _m("7j 7s 7p Phoenix")
    assert classify(four) is None
    bomb = classify(four, phoenix_bombs=True)
    assert bomb is not None and (bomb.kind, bomb.rank, bomb.phoenix) == (
        Kind.FOUR_OF_A_KIND, 7, 7)
    run = _m("3p 4p 5p 6p Phoenix")
    plain = classify(run)
    assert plain is not None and plain.kind == Kind.STRAIGHT
    flush = classify(run, phoenix_bombs=True)
    assert flush is not None and (flush.kind, flush.rank, flush.length) == (
        Kind.STRAIGHT_FLUSH, 7, 5)
    mixed = classify(_m("3p 4s 5p 6p Phoenix"), phoenix_bombs=True)
    assert mixed is not None and mixed.kind == Kind.STRAIGHT
    # the Phoenix four of a kind beats a real lower one and loses to a straight flush
    assert beats(bomb, classify(_m("5j 5s 5p 5r")))  # type: ignore[arg-type]
    assert beats(flush, bomb)


def test_phoenix_in_bombs_in_the_engine() -> None:
    # seat 1 plays 6j 7j Phoenix 9j 10j: a straight by the publisher's rules, a straight
    # flush (a bomb) by the house rule, so what may follow it changes
    log = RULES_FIXTURES / "W001_phoenix_standin_does_not_fulfil.jsonl"
    plain = check_file(log)
    assert not any("straight flush 6 to 10" in d.message for d in plain)
    variant = check_file(log, frozenset({"phoenix-in-bombs"}))
    assert any("bomb: straight flush 6 to 10 in Jade" in d.message for d in variant)
    assert [d.code for d in variant if d.code == "P004"] == ["P004"]  # a straight on it
