"""House-rule variants (rules.md section 9): selected by name, never applied otherwise."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.logfile import check_file, replay_file
from tichu_analyze.replay import RoundRecord

RULES_FIXTURES = Path(__file__).parent / "fixtures" / "rules"
WISH = RULES_FIXTURES / "W001_pass_holding_rank.jsonl"
DOG_BOMB = RULES_FIXTURES / "B003_bomb_on_dog.jsonl"


def _scores(path: Path, variants: frozenset[str]) -> list[list[int] | None]:
    rounds: list[RoundRecord] = []
    replay_file(path, lambda d: None, trace=True, on_round=rounds.append, variants=variants)
    return [r.score for r in rounds]


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
    result = CliRunner().invoke(app, ["check", "--variant", "phoenix-in-bombs", str(WISH)])
    assert result.exit_code == 2
    assert "not implemented" in result.stderr


def test_variant_on_the_command_line() -> None:
    result = CliRunner().invoke(app, ["check", "--variant", "wish-penalty-200", "-q", str(WISH)])
    assert result.exit_code == 1
    assert "S002" in result.stdout and "W001" in result.stdout
