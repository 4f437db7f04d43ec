"""The engine against an independent reference replayer (``tests/oracle_engine.py``).

* The oracle itself against the spec-derived expectations of ``tests/fixtures``.
* Simulated legal games: both clean.
* Simulated games with one fault injected from a seed: the engine's diagnostics of the
  oracle's codes, on the lines the oracle judged, equal the oracle's.
* The same under the house rules of rules.md 9.1 (each case one where the house rule
  changes what is reported), in tientsin (9.2, six seats) and in trichu (9.3).
* Disagreements found by the larger campaign (``tests/oracle_diff.py``), settled by the
  lead (docs/rules.md): both now read them alike. New ones, where the engine seems to
  break the letter of the spec, are strict xfails (``OPEN``) until they are decided.

A larger campaign by hand: ``.venv/bin/python tests/oracle_diff.py --cases 3000``.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from oracle_diff import MUTATIONS, campaign, compare, engine, make_case
from oracle_engine import CODES, HOUSE_RULES, judge, judge_lines

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

FIXTURES = Path(__file__).parent / "fixtures"
CASES = Path(__file__).parent / "oracle_cases"


def _fixture_cases() -> list[tuple[Path, list[tuple[str, int]], list[str]]]:
    """Every JSON-lines fixture: its expectations and the variants of its command line
    (the oracle judges the house rules of rules.md 9.1, tientsin and trichu)."""
    out = []
    for cases in sorted(FIXTURES.glob("*/cases.json")):
        if cases.parent.name == "tch":
            continue
        for case in json.loads(cases.read_text(encoding="utf-8")):
            path = cases.parent / case["file"]
            if path.suffix == ".jsonl" and path.exists():
                out.append((path, [(e["code"], e["line"]) for e in case["expect"]],
                            case.get("variants") or []))
    return out


def test_the_oracle_agrees_with_the_fixtures_expectations() -> None:
    """The spec-derived expectations of every fixture, on the lines the oracle judged,
    are the oracle's diagnostics (a check of the oracle, not of the engine): the house
    rules of 9.1, tientsin and trichu included."""
    cases = _fixture_cases()
    assert len(cases) > 300
    judged_codes = 0
    house_rules = 0
    for path, expect, variants in cases:
        found, judged = judge(path, variants)
        want = sorted(d for d in expect if d[0] in CODES and d[1] in judged)
        assert found == want, path.name
        judged_codes += len(want)
        house_rules += bool(judged and (variants or '"variants"' in path.read_text(
            encoding="utf-8")))
    assert judged_codes > 150
    assert house_rules >= 120  # fixtures under a variant of rules.md 9, judged


@pytest.mark.parametrize(("seed", "variants"), [
    (8, ()), (16, ()), (24, ()), (32, ()),
    (8, ("dog-can-be-bombed", "wish-penalty-200")), (8, ("tientsin",)), (8, ("trichu",))])
def test_simulated_legal_games_are_clean_for_both(tmp_path: Path, seed: int,
                                                  variants: tuple[str, ...]) -> None:
    """The simulator's games, under the publisher's rules and under the variants it
    plays, break no rule."""
    text, what = make_case(seed, variants=variants)
    assert what == "legal"
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8")
    found, judged = judge_lines(text.split("\n"))
    assert found == []
    assert engine(path) == []
    assert len(judged) > 0.95 * text.count("\n")  # everything but game_start/game_end


# (seed, mutation): together every code of the oracle (a greedy search over 30 seeds of
# each mutation), then one case of every other mutation.
SEEDS = [(29, "inject"), (19, "drop_play"), (1, "inject"), (13, "move_bomb"),
         (6, "change_wish"), (13, "change_wish"), (6, "insert_bombs"), (16, "insert_bombs"),
         (1, "redirect_gift"), (2, "add_call"), (9, "add_pass"), (23, "change_phoenix"),
         (1, "change_round_end"), (27, "change_seat"), (1, "drop_gift"), (11, "drop_pass"),
         (9, "duplicate"), (20, "move_call"), (13, "pull_forward"), (7, "push_back"),
         (2, "swap_adjacent"), (3, "swap_cards"),
         (1, "bad_deal"), (1, "bad_exchange"), (13, "bad_exchange"), (1, "card_not_held"),
         (2, "calls"), (3, "calls"), (13, "calls"), (1, "after_the_end"),
         (5, "no_combination"), (1, "truncate"), (3, "change_game_end"), (4, "change_game_end"),
         (4, "malform"), (1, "drop_round_start"), (7, "drop_round_start"),
         (4, "late_exchange"), (6, "late_exchange")]


@functools.cache
def _case(seed: int, only: str, variants: tuple[str, ...] = ()) -> tuple[str, str]:
    return make_case(seed, only, variants=variants)


@pytest.mark.parametrize(("seed", "only"), SEEDS)
def test_one_injected_fault_engine_and_oracle_agree(tmp_path: Path, seed: int,
                                                     only: str) -> None:
    text, what = _case(seed, only)
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8")
    got, expected, judged = compare(path)
    assert got == expected, what
    assert judged > 0.5 * text.count("\n")


def test_the_faults_are_judged_not_skipped() -> None:
    """The cases above inject faults the oracle judges, of every code it knows, and use
    every mutation."""
    codes: set[str] = set()
    for seed, only in SEEDS:
        text, _ = _case(seed, only)
        codes |= {code for code, _ in judge_lines(text.split("\n"))[0]}
    assert codes == CODES - {"C004"}  # (trichu's, 9.3: below)
    assert {only for _, only in SEEDS} == {m.__name__ for m in MUTATIONS}


def test_random_games_engine_and_oracle_agree(tmp_path: Path) -> None:
    """Games from ``tests/oracle_random.py`` (bombs, wishes, wrong moves, steered by the
    oracle's state)."""
    for seed in (4, 7):
        text, _ = _case(seed, "random")
        path = tmp_path / f"random{seed}.jsonl"
        path.write_text(text, encoding="utf-8")
        got, expected, _ = compare(path)
        assert got == expected, seed


# The house rules of rules.md 9.1 (seed, mutation or random game): in each case the house
# rule changes what is reported (a W001's 200 points in S002, a bomb the Phoenix
# completes, no B003 for a bomb on the Dog).
VARIANT_SEEDS = [
    ("wish-penalty-200", 16, "random"), ("wish-penalty-200", 13, "change_wish"),
    ("wish-penalty-200", 24, "change_wish"),
    ("phoenix-in-bombs", 18, "random"), ("phoenix-in-bombs", 4, "random"),
    ("phoenix-in-bombs", 16, "insert_bombs"), ("phoenix-in-bombs", 21, "insert_bombs"),
    ("phoenix-in-bombs", 23, "insert_bombs"),
    ("dog-can-be-bombed", 21, "random"), ("dog-can-be-bombed", 6, "insert_bombs"),
    ("dog-can-be-bombed", 31, "insert_bombs"),
]


def _without_variants(text: str) -> str:
    first, rest = text.split("\n", 1)
    start = json.loads(first)
    start.pop("variants")
    return json.dumps(start) + "\n" + rest


@pytest.mark.parametrize(("variant", "seed", "only"), VARIANT_SEEDS)
def test_house_rules_engine_and_oracle_agree(tmp_path: Path, variant: str, seed: int,
                                             only: str) -> None:
    """Under each house rule both agree, and both read the same log without the house
    rule alike too, differently: the house rule is applied by both."""
    text, what = _case(seed, only, (variant,))
    assert json.loads(text.split("\n", 1)[0])["variants"] == [variant]
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8")
    got, expected, judged = compare(path)
    assert got == expected, what
    assert judged > 0.5 * text.count("\n")
    path.write_text(_without_variants(text), encoding="utf-8")
    got_plain, expected_plain, _ = compare(path)
    assert got_plain == expected_plain, what
    assert expected_plain != expected


def test_house_rules_together_with_three_faults(tmp_path: Path) -> None:
    """The three house rules at once, simulated games with three faults each."""
    for seed in (3, 5):
        text, what = make_case(seed, None, 3, tuple(sorted(HOUSE_RULES)))
        path = tmp_path / f"game{seed}.jsonl"
        path.write_text(text, encoding="utf-8")
        got, expected, _ = compare(path)
        assert got == expected, what


# tientsin (rules.md 9.2; six seats) and trichu (9.3; three players and a dummy): a
# greedy cover of the codes over 12 seeds of each mutation (every code of the oracle but
# the bombs the campaign reaches), and for tientsin two random games of
# tests/oracle_random.py (the Dog's lead to either partner).
PLAYER_VARIANT_SEEDS = {
    "tientsin": [(10, "drop_play"), (4, "inject"), (6, "pull_forward"), (11, "add_pass"),
                 (1, "change_round_end"), (3, "change_wish"), (5, "change_wish"),
                 (12, "inject"), (1, "redirect_gift"), (9, "random"), (13, "random")],
    "trichu": [(5, "drop_play"), (1, "pull_forward"), (11, "change_seat"),
               (6, "pull_forward"), (11, "add_pass"), (5, "change_wish"),
               (8, "insert_bombs"), (12, "move_bomb"), (2, "redirect_gift"),
               (4, "change_wish"),  # (the dummy holds the wished rank: not bound)
               (11, "calls"),  # (a Grand Tichu by the solo player or the dummy: C004)
               (3, "random")],
}
# codes the four-seat cases above cover, which the six- and three-seat ones need not
SETUP_CODES = {"D001", "X001", "X002", "P001", "P002", "C001", "C002", "C003", "S003", "S004"}


@pytest.mark.parametrize("variant", sorted(PLAYER_VARIANT_SEEDS))
def test_tientsin_and_trichu_engine_and_oracle_agree(tmp_path: Path, variant: str) -> None:
    codes: set[str] = set()
    for seed, only in PLAYER_VARIANT_SEEDS[variant]:
        text, what = _case(seed, only, (variant,))
        assert json.loads(text.split("\n", 1)[0])["variants"] == [variant]
        path = tmp_path / f"{only}{seed}.jsonl"
        path.write_text(text, encoding="utf-8")
        got, expected, judged = compare(path)
        assert got == expected, what
        assert judged > 0.5 * text.count("\n")
        codes |= {code for code, _ in expected}
    assert codes >= CODES - {"B001", "B002", "B003", "C004"} - SETUP_CODES
    assert variant != "trichu" or "C004" in codes


def test_probes_engine_and_oracle_agree() -> None:
    """Hand-made logs of corners (tests/oracle_cases/, not the settled ones below): the
    engine and the oracle report the same codes of the oracle's, on every line."""
    probes = [p for p in sorted(CASES.glob("*.jsonl"))
              if p.stem not in SETTLED and p.stem not in OPEN]
    assert len(probes) >= 6
    for path in probes:
        found, judged = judge(path)
        assert len(judged) == len(path.read_text(encoding="utf-8").splitlines()) - 1
        assert [d for d in engine(path) if d[0] in CODES] == found, path.name


# Probes under a house rule of rules.md 9.1 that the house rule changes (the W001's 200
# points count after a double victory too; no B003 for a bomb on the Dog; a Phoenix
# straight of one suit is a bomb).
HOUSE_RULE_PROBES = [
    "S002_ok_wish_penalty_200_after_a_double_victory",
    "B003_ok_dog_can_be_bombed_then_the_partner_plays_on_the_bomb",
    "P004_phoenix_in_bombs_a_straight_on_a_phoenix_straight_flush",
]


@pytest.mark.parametrize("name", HOUSE_RULE_PROBES)
def test_house_rule_probes_read_otherwise_without_the_house_rule(name: str) -> None:
    text = (CASES / f"{name}.jsonl").read_text(encoding="utf-8")
    assert judge_lines(text.split("\n"))[0] != judge_lines(
        _without_variants(text).split("\n"))[0]


# Disagreements the oracle found, now settled (docs/rules.md, "Decisions"): each log is
# tests/oracle_cases/NAME.jsonl, with what both the engine and the oracle report on it
# (sorted).
SETTLED = {
    # rules 8, W002: "`wish` on a play without the Mahjong, or not a rank 2..A". The
    # engine reported W002 beside P003/P004/P005 but not on a play that is P007 or P002.
    "W002_wish_on_a_dog_not_led": [("P007", 13), ("W002", 13)],
    "W002_wish_on_a_play_that_is_no_combination": [("P002", 10), ("W002", 10)],
    # and "a `wish` value that is not a rank is W002" (rules 8, precedence)
    "W002_wish_not_a_rank_on_a_play_that_is_no_combination": [
        ("L008", 9), ("P002", 9), ("W002", 9)],
    # rules 2.4: after everyone passed, "a play by that seat [the winner] at this point is
    # that lead, never a play on its own trick"; rules 8: after an error "the turn moves
    # on". The engine moved the lead on after a P002 on the round's first lead
    # (P002_on_the_first_lead_then_the_next_seat_leads) but kept a trick's winner to
    # lead after its P002, so the next seat's lead was P003.
    "P002_by_the_trick_winner_then_the_next_seat_leads": [("L008", 14), ("P002", 13)],
    # rules 5.4: "after a double victory nothing is counted and no gift is owed (a
    # dragon_gift there is accepted and ignored)": "there" is a double victory with the
    # Dragon's trick on the table (the engine's reading, now in docs/rules.md); this
    # Dragon's trick had gone by G002, so the gift is G003.
    "G003_gift_after_a_double_victory_the_trick_already_given": [
        ("G002", 16), ("G003", 20), ("P003", 16)],
    # Seat 3 plays the Dragon; seat 2 plays its last cards on it, a stairs (P004, which
    # rules 8 applies: "the play becomes the top"), and goes out after its partner: a
    # double victory. The trick was not won with the Dragon (5.4: "a trick won with the
    # Dragon (not bombed)"), so seat 3's gift is G003, as when such a trick ends without
    # a double victory; the engine accepted and ignored it (found under trichu, by
    # oracle7b).
    "G003_gift_after_a_double_victory_ended_by_a_play_on_the_dragon": [
        ("G003", 18), ("P004", 17)],
    # Found by oracle8 (session 8), engine fixed: seat 0 leads 2j, seats 1-3 pass, seat 0
    # to lead; seat 2 plays 2p 4p (P002), then seat 3 leads 2r. At that moment "any other
    # play by someone else is a lead out of turn" (docs/rules.md), and after an error "the
    # turn moves on" (rules 8), as after the same P002 before the round's first lead: the
    # old trick is seat 0's and seat 3 leads in turn. The engine kept seat 0 to lead (P003
    # at line 14).
    "P002_by_another_seat_after_everyone_passed_then_the_next_seat_leads": [
        ("L008", 14), ("P002", 13)],
    # tientsin (9.2): seat 0 leads the Dog; "a pass by either partner before that lead is
    # P006". Partner seat 2 plays 6s 8s (P002): that is the lead, and the turn moves on to
    # seat 3. Seat 4's pass then is out of turn (P003); the engine kept both partners due
    # (P006) after the P002 (engine fixed; for four seats a bomb after such a lead is B002,
    # no longer B003: tests/test_engine_decisions.py).
    "P006_tientsin_the_dog_lead_made_by_a_play_that_is_no_combination_then_the_other_"
    "partner_passes": [("L008", 13), ("P002", 12), ("P003", 13)],
    # rules 6.1: the wish "stays open until a later play by anyone contains a card of the
    # wished rank (in any combination, a bomb included)". Seat 1 plays 4s 2s on the
    # Mahjong (wish 4): no combination (P002). Settled with the engine (docs/rules.md,
    # "An invalid play counts as a pass"): cards that form no combination are no
    # combination, so they fulfil no wish, as they make none; seat 2's 5 while holding
    # 4p is W001.
    "W001_wish_after_a_play_that_is_no_combination_with_the_wished_rank": [
        ("L008", 11), ("P002", 10), ("W001", 11)],
    # rules 8, settled readings: "A `phoenix` field on a play without the Phoenix is
    # ignored." Seat 1 plays 4s with "phoenix":"Z"; a pair of 2s with "phoenix":7 and a
    # pair of 3s with "phoenix":"Z". The field is ignored whatever its value (it was L002,
    # the play skipped, and P003s followed): only the round left unfinished is reported.
    # A value that is no rank beside the Phoenix is still L002 (log-format.md: "the rank
    # it stands for").
    "L002_ok_a_phoenix_field_that_is_no_rank_on_a_play_without_the_phoenix": [("L008", 11)],
    "L002_ok_a_phoenix_field_that_is_a_number_on_a_pair_without_the_phoenix": [
        ("L008", 15)],
    # rules 8: L008 when "the log ends ... before the rules end the current round"; a round
    # is skipped only after a fatal code. Three exchanges, then plays and passes: L007 at
    # the first (the rest not checked, docs/rules.md), and the round, whose exchange never
    # came, is left unfinished: L008 at the last line (it was treated as skipped: no L008).
    "L008_three_exchanges_a_play_before_the_fourth_then_the_log_ends": [
        ("L007", 8), ("L008", 14)],
}


@pytest.mark.parametrize("name", sorted(SETTLED))
def test_the_settled_disagreements(name: str) -> None:
    found, judged = judge(CASES / f"{name}.jsonl")
    assert found == [d for d in SETTLED[name] if d[0] in CODES and d[1] in judged]
    assert len(judged) == len((CASES / f"{name}.jsonl").read_text(
        encoding="utf-8").splitlines()) - 1  # every line judged
    assert engine(CASES / f"{name}.jsonl") == SETTLED[name]


# Disagreements not decided yet (the oracle found them; the lead decides): each log is
# tests/oracle_cases/NAME.jsonl with what the spec's letter (as the oracle reads it)
# asks the engine to report. Strict xfail: it fails while the engine reads otherwise.
OPEN: dict[str, list[tuple[str, int]]] = {}


@pytest.mark.xfail(strict=True, reason="open: the engine reads the spec otherwise (OPEN)")
@pytest.mark.parametrize("name", sorted(OPEN))
def test_open_disagreements(name: str) -> None:
    assert engine(CASES / f"{name}.jsonl") == OPEN[name]


def test_campaign_stats_say_how_rounds_were_judged() -> None:
    """``oracle_diff.py --stats``: the mutations run, the codes reported, how each round
    ended for the oracle and the situations it met."""
    out: list[str] = []
    assert campaign(2, 8, None, log=out.append, only="card_not_held", show_stats=True) == []
    text = "\n".join(out)
    assert "mutation: card_not_held" in text
    assert "cases with P001" in text
    assert "rounds: judged to the end" in text
    assert "rounds: skipped (a fatal code" in text
    assert "seen: round over:" in text
    assert "codes of the oracle never reported:" in text
