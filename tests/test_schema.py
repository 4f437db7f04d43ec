"""The JSON Schema of one format-1 event line (tichu_analyze/schema.json)."""

from __future__ import annotations

import json
import os
import re
from importlib.resources import files
from pathlib import Path

import pytest
from shared_data import SPEC as SPEC_DIR

from tichu_analyze.core.cards import RANK_TOKENS, TOKENS
from tichu_analyze.core.events import EVENT_TYPES
from tichu_analyze.core.variants import VARIANTS

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
# the normative spec is kept outside the repository (beside it, or where TICHU_SPEC_DIR says)
SPEC = Path(os.environ.get("TICHU_SPEC_DIR", SPEC_DIR)) / "log-format.md"
DOCS = ROOT / "docs" / "log-format.md"


def _schema() -> dict[str, object]:
    return json.loads(files("tichu_analyze").joinpath("schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_schema())


def _example_lines(path: Path) -> list[str]:
    """The event lines of the ```json blocks of a markdown file, without the ones that
    abbreviate cards with ``"..."``."""
    text = path.read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL):
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("{") and '"..."' not in line:
                lines.append(line)
    return lines


def test_schema_is_valid_draft_2020_12() -> None:
    schema = _schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_schema_matches_the_code() -> None:
    defs = _schema()["$defs"]
    assert defs["card"]["enum"] == list(TOKENS)
    assert defs["rank"]["enum"] == list(RANK_TOKENS.values())
    for kind in EVENT_TYPES:
        assert defs[kind]["properties"]["type"] == {"const": kind, "description": "The event type."}
    variants = defs["game_start"]["properties"]["variants"]["items"]["enum"]
    assert variants == list(VARIANTS)
    refs = {branch["$ref"] for branch in _schema()["else"]["oneOf"]}
    assert refs == {f"#/$defs/{kind}" for kind in EVENT_TYPES}


def _check_examples(path: Path, validator: jsonschema.Draft202012Validator) -> None:
    lines = _example_lines(path)
    assert len(lines) >= 10, f"too few examples found in {path}"
    for line in lines:
        errors = [e.message for e in validator.iter_errors(json.loads(line))]
        assert not errors, f"{line}: {errors}"


def test_spec_examples_validate(validator: jsonschema.Draft202012Validator) -> None:
    if not SPEC.is_file():
        pytest.skip("optional: the normative spec (../shared/spec/log-format.md) is not here; "
                    "set TICHU_SPEC_DIR to the folder holding log-format.md to check its "
                    "examples (docs/log-format.md is checked in any case)")
    _check_examples(SPEC, validator)


def test_docs_examples_validate(validator: jsonschema.Draft202012Validator) -> None:
    if not DOCS.is_file():
        pytest.skip(f"{DOCS} not written yet")
    _check_examples(DOCS, validator)


DECK = list(TOKENS)
FIRST_DEAL = [DECK[i * 14 : i * 14 + 8] for i in range(4)]
SECOND_DEAL = [DECK[i * 14 + 8 : i * 14 + 14] for i in range(4)]

GOOD = [
    {"type": "deal", "game": "g1", "hands": FIRST_DEAL},
    {"type": "deal", "game": "g1", "hands": SECOND_DEAL},
    {"type": "game_start", "game": "g1", "players": ["A", "B", "C", "D"]},
    {"type": "game_start", "game": "g1", "players": ["A", "B", "C", "D"], "target": 500,
     "meta": {"platform": "bsw"}, "ts": 1700000000.5},
    {"type": "exchange", "game": "g1", "seat": 3, "give": {"0": "Dog", "1": "10r", "2": "5j"}},
    {"type": "play", "game": "g1", "seat": 0, "cards": ["Mahjong", "2j", "3s", "4p", "5r"],
     "wish": "10"},
    {"type": "play", "game": "g1", "seat": 0, "cards": ["Phoenix"]},
    {"type": "play", "game": "g1", "seat": 0, "cards": ["8s", "Phoenix"], "phoenix": "8"},
    {"type": "pass", "game": "g1", "seat": 1, "recorder_field": [1, 2]},
    {"type": "round_end", "game": "g1", "round": 3, "finish_order": [1, 3, 0, 2],
     "score": [0, 300]},
    {"type": "x_chat", "text": "gg"},
    # the variants (rules.md 9): their names, six seats (tientsin), the dummy (trichu)
    {"type": "game_start", "game": "g1", "players": ["A", "B", "C", "D", "E", "F"],
     "variants": ["tientsin", "wish-penalty-200"]},
    {"type": "round_start", "game": "g1", "round": 2, "players": ["B", "C", "A", "Tisch"],
     "dummy": 3},
    {"type": "deal", "game": "g1", "hands": [DECK[i * 6: i * 6 + 6] for i in range(6)]},
    {"type": "deal", "game": "g1", "hands": [DECK[36:40], DECK[40:44], DECK[44:47],
                                             DECK[47:50], DECK[50:53], DECK[53:56]]},
    {"type": "pass", "game": "g1", "seat": 5},
    {"type": "exchange", "game": "g1", "seat": 5, "give": {"1": "2j", "3": "3j"}},
    {"type": "round_end", "game": "g1", "round": 1, "finish_order": [0, 2, 4, 5, 3, 1],
     "score": [300, 0]},
    {"type": "game_end", "game": "g1", "score": {"Ana": 400, "Ben": 500, "Chloe": 400}},
]

BAD = {
    "seat 6": {"type": "pass", "game": "g1", "seat": 6},
    "unknown variant": {"type": "game_start", "game": "g1", "players": ["A", "B", "C", "D"],
                        "variants": ["tichu-for-two"]},
    "tientsin with trichu": {"type": "game_start", "game": "g1", "players": ["A", "B", "C", "D"],
                             "variants": ["tientsin", "trichu"]},
    "five players": {"type": "game_start", "game": "g1", "players": ["A", "B", "C", "D", "E"]},
    "dummy 4": {"type": "round_start", "game": "g1", "round": 1, "dummy": 4},
    "give to seat 5 by seat 5": {"type": "exchange", "game": "g1", "seat": 5,
                                 "give": {"5": "2j", "3": "3j"}},
    "seat as a string": {"type": "pass", "game": "g1", "seat": "1"},
    "seat as a boolean": {"type": "pass", "game": "g1", "seat": True},
    "unknown card": {"type": "play", "game": "g1", "seat": 0, "cards": ["1j"]},
    "lower-case special": {"type": "play", "game": "g1", "seat": 0, "cards": ["phoenix"]},
    "T for ten": {"type": "play", "game": "g1", "seat": 0, "cards": ["Ts"]},
    "missing type": {"game": "g1", "seat": 0},
    "unknown type": {"type": "chat", "game": "g1"},
    "missing game": {"type": "pass", "seat": 0},
    "no cards": {"type": "play", "game": "g1", "seat": 0, "cards": []},
    "card twice": {"type": "play", "game": "g1", "seat": 0, "cards": ["8s", "8s"]},
    "wish without the Mahjong": {"type": "play", "game": "g1", "seat": 0, "cards": ["8s"],
                                 "wish": "8"},
    "wish not a rank": {"type": "play", "game": "g1", "seat": 0, "cards": ["Mahjong"],
                        "wish": "1"},
    "phoenix field on a single": {"type": "play", "game": "g1", "seat": 0,
                                  "cards": ["Phoenix"], "phoenix": "8"},
    "three players": {"type": "game_start", "game": "g1", "players": ["A", "B", "C"]},
    "same name twice": {"type": "game_start", "game": "g1", "players": ["A", "B", "A", "D"]},
    "blank name": {"type": "game_start", "game": "g1", "players": ["A", " ", "C", "D"]},
    "hands of 7": {"type": "deal", "game": "g1", "hands": [DECK[i * 7: i * 7 + 7]
                                                           for i in range(4)]},
    "three hands": {"type": "deal", "game": "g1", "hands": FIRST_DEAL[:3]},
    "give to itself": {"type": "exchange", "game": "g1", "seat": 0,
                       "give": {"0": "2j", "1": "3j", "2": "4j"}},
    "give to one seat": {"type": "exchange", "game": "g1", "seat": 0, "give": {"1": "3j"}},
    "give as a list": {"type": "exchange", "game": "g1", "seat": 0, "give": ["2j", "3j", "4j"]},
    "unknown call": {"type": "call", "game": "g1", "seat": 0, "call": "small_tichu"},
    "round 0": {"type": "round_start", "game": "g1", "round": 0},
    "score of three": {"type": "game_end", "game": "g1", "score": [1, 2, 3]},
    "seat twice in finish order": {"type": "round_end", "game": "g1", "round": 1,
                                   "finish_order": [0, 0, 1, 2], "score": [0, 0]},
    "ts as a string": {"type": "pass", "game": "g1", "seat": 0, "ts": "noon"},
}


@pytest.mark.parametrize("event", GOOD, ids=lambda e: e["type"])
def test_good_lines_validate(event: dict[str, object],
                             validator: jsonschema.Draft202012Validator) -> None:
    errors = [e.message for e in validator.iter_errors(event)]
    assert not errors


@pytest.mark.parametrize("why", list(BAD))
def test_bad_lines_do_not_validate(why: str, validator: jsonschema.Draft202012Validator) -> None:
    assert not validator.is_valid(BAD[why])
