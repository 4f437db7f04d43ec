"""L002 for an event of a known type in words a log's writer understands: the field,
what the line holds and what the field must hold, not the decoder's terms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.common.safetext import clean
from tichu_analyze.core.events import EVENT_TYPES
from tichu_analyze.readers.badevent import describe, show
from tichu_analyze.readers.logfile import check_file, explain

START: dict[str, object] = {"type": "game_start", "game": "g",
                            "players": ["Ana", "Ben", "Chloe", "Dev"]}
PASS: dict[str, object] = {"type": "pass", "game": "g", "seat": 1}

CASES: list[tuple[dict[str, object], str]] = [
    ({**PASS, "seat": 7}, "bad pass event: `seat` is 7; a seat is a whole number from 0 to 3"),
    ({**PASS, "seat": -1}, "bad pass event: `seat` is -1; a seat is a whole number from 0 to 3"),
    ({**PASS, "seat": "3"},
     'bad pass event: `seat` is "3" (text); a seat is a whole number from 0 to 3'),
    ({**PASS, "seat": True}, "bad pass event: `seat` is true; a seat is a whole number"),
    ({**PASS, "seat": 1.5}, "bad pass event: `seat` is 1.5; a seat is a whole number"),
    ({**PASS, "seat": 10 ** 50}, "bad pass event: `seat` is a very large number; a seat"),
    ({"type": "pass", "game": "g"}, "bad pass event: the field `seat` is missing"),
    ({"type": "pass", "seat": 1}, "bad pass event: the field `game` is missing"),
    ({**PASS, "game": 1}, "bad pass event: `game` is 1; it must be text (the game's id)"),
    ({**PASS, "ts": "noon"}, 'bad pass event: `ts` is "noon" (text); it must be a number '
     "(seconds since 1970) or left out"),
    ({"type": "deal", "game": "g", "hands": [["2j"]] * 3},
     "bad deal event: `hands` holds 3 hands; it needs one hand per seat (4)"),
    ({"type": "deal", "game": "g", "hands": [["2j"], "3j", ["4j"], ["5j"]]},
     'bad deal event: `hands[1]` is "3j" (text); each hand must be a list of card tokens'),
    ({"type": "deal", "game": "g", "hands": [["2j"], ["3j", 3], ["4j"], ["5j"]]},
     "bad deal event: `hands[1][1]` is 3; a card is a card token (text)"),
    ({"type": "call", "game": "g", "seat": 0, "call": "small_tichu"},
     'bad call event: `call` is "small_tichu"; it must be "grand_tichu" or "tichu"'),
    ({"type": "exchange", "game": "g", "seat": 0, "give": ["Kj", "Ar", "2s"]},
     'bad exchange event: `give` is ["Kj", "Ar", "2s"] (a list); it must be an object'),
    ({"type": "exchange", "game": "g", "seat": 0, "give": {"1": "Kj", "2": ["Ar"]}},
     'bad exchange event: `give["2"]` is ["Ar"] (a list); each seat is given one card'),
    ({"type": "exchange", "game": "g", "give": {"1": "Kj"}},
     "bad exchange event: the field `seat` is missing"),
    ({"type": "play", "game": "g", "seat": 0, "cards": "Mahjong"},
     'bad play event: `cards` is "Mahjong" (text); it must be a list of one card token or'),
    ({"type": "play", "game": "g", "seat": 0, "cards": []},
     "bad play event: `cards` is empty; it needs at least one card"),
    ({"type": "play", "game": "g", "seat": 0, "cards": ["5j", 5]},
     "bad play event: `cards[1]` is 5; a card is a card token (text)"),
    ({"type": "play", "game": "g", "seat": 0, "cards": ["5j", "Phoenix"], "phoenix": "1"},
     'bad play event: `phoenix` is "1"; it must be the rank the Phoenix stands for ("2" to'),
    ({"type": "dragon_gift", "game": "g", "seat": 0, "to": 4},
     "bad dragon_gift event: `to` is 4; a seat is a whole number from 0 to 3"),
    ({"type": "round_start", "game": "g", "round": "1"},
     'bad round_start event: `round` is "1" (text); it must be a whole number'),
    ({"type": "round_start", "game": "g", "round": 1, "dummy": "3"},
     'bad round_start event: `dummy` is "3" (text); it must be a whole number (the dummy'),
    ({"type": "round_start", "game": "g", "round": 1, "players": ["A", "B", "C"]},
     "bad round_start event: `players` holds 3 names; it needs one name per seat (4)"),
    ({"type": "round_end", "game": "g", "finish_order": [0, 1, 2, 9]},
     "bad round_end event: `finish_order[3]` is 9; a seat is a whole number from 0 to 3"),
    ({"type": "round_end", "game": "g", "finish_order": [0, 1, 2, 3, 0]},
     "bad round_end event: `finish_order` holds 5 seats; it needs every seat once, in the "
     "order they went out (4)"),
    ({"type": "round_end", "game": "g", "score": [1, 2, 3]},
     "bad round_end event: `score` holds 3 numbers; it needs two numbers, one per team"),
    ({"type": "game_end", "game": "g", "score": [100, "x"]},
     'bad game_end event: `score[1]` is "x" (text); points are whole numbers'),
    ({"type": "game_end", "game": "g", "score": "1000"},
     'bad game_end event: `score` is "1000" (text); it must be the totals of the two teams'),
]


def _log(tmp_path: Path, *events: dict[str, object]) -> Path:
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return log


@pytest.mark.parametrize(("event", "words"), CASES, ids=lambda c: str(c)[:40])
def test_each_form_in_words(tmp_path: Path, event: dict[str, object], words: str) -> None:
    found = check_file(_log(tmp_path, START, event))
    [bad] = [d for d in found if d.line == 2]
    assert bad.code == "L002"
    assert bad.message.startswith(words), bad.message
    assert "Expected `" not in bad.message and "$." not in bad.message


@pytest.mark.parametrize(("start", "words"), [
    ({**START, "target": "1000"}, 'bad game_start event: `target` is "1000" (text); it '
     "must be a whole number of at least 1, or left out"),
    ({**START, "target": 0}, "bad game_start event: `target` is 0; it must be a whole "
     "number of at least 1"),
    ({**START, "meta": ["club", 3]}, 'bad game_start event: `meta` is ["club", 3] (a list); '
     "it must be an object"),
    ({**START, "variants": "trichu"}, 'bad game_start event: `variants` is "trichu" (text); '
     "it must be a list of variant names"),
    ({**START, "variants": ["trichu", 9]}, "bad game_start event: `variants[1]` is 9; a "
     "variant's name is text"),
    ({**START, "players": ["Ana", "Ben", 3, "Dev"]}, "bad game_start event: `players[2]` is "
     "3; a player's name is text"),
    ({**START, "players": ["Ana", "Ben", "Chloe"]}, "bad game_start event: `players` holds 3 "
     "names; it needs one name per seat (4)"),
    ({"type": "game_start", "game": "g"}, "bad game_start event: the field `players` is "
     "missing"),
])
def test_game_start_forms(tmp_path: Path, start: dict[str, object], words: str) -> None:
    [bad] = [d for d in check_file(_log(tmp_path, start)) if d.line == 1]
    assert (bad.code, bad.message[:len(words)]) == ("L002", words)


def test_numbers_too_large_to_read(tmp_path: Path) -> None:
    log = tmp_path / "huge.jsonl"
    log.write_text(json.dumps(START) + "\n"
                   '{"type":"pass","game":"g","seat":1,"ts":1e999}\n'
                   '{"type":"round_start","game":"g","round":1e999}\n'
                   '{"type":"pass","game":"g","seat":1' + "0" * 60 + "}\n"
                   '{"type":"game_start","game":"h","players":["A","B","C","D"],'
                   '"meta":{"elo":1e999}}\n', encoding="utf-8")
    found = [(d.line, d.code, d.message) for d in check_file(log)]
    assert found == [
        (2, "L002", "bad pass event: `ts` is a number too large to read"),
        (3, "L002", "bad round_start event: `round` is a number too large to read; it must "
                    "be a whole number (the round's number)"),
        (4, "L002", "bad pass event: `seat` is a very large number; a seat is a whole "
                    "number from 0 to 3"),
        (5, "L002", "bad game_start event: a number is out of range"),
    ]


def test_through_the_command_line(tmp_path: Path) -> None:
    log = _log(tmp_path, START, {**PASS, "seat": 7}, {**PASS, "ts": "noon"})
    result = CliRunner().invoke(app, ["check", "-f", "json", "--exit-zero", str(log)])
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    bad = {r["line"]: r["message"] for r in rows if r["code"] == "L002"}
    assert bad == {
        2: "bad pass event: `seat` is 7; a seat is a whole number from 0 to 3",
        3: 'bad pass event: `ts` is "noon" (text); it must be a number (seconds since 1970) '
           "or left out",
    }


def test_variant_seats(tmp_path: Path) -> None:
    """A six-seat game reads seats 0 to 5; a trichu game's four seats are held to 0 to 3
    after the wider reading (the replay's words, with the game's number of seats)."""
    six: dict[str, object] = {"type": "game_start", "game": "g", "players": list("ABCDEF"),
           "variants": ["tientsin"]}
    [bad] = [d for d in check_file(_log(tmp_path, six, {**PASS, "seat": 6})) if d.line == 2]
    assert (bad.code, bad.message) == (
        "L002", "bad pass event: `seat` is 6; a seat is a whole number from 0 to 5")
    three: dict[str, object] = {"type": "game_start", "game": "g", "target": 3,
                                "players": ["Tisch", "A", "B", "C"], "variants": ["trichu"]}
    found = check_file(_log(tmp_path, three, {"type": "dragon_gift", "game": "g", "seat": 1,
                                              "to": 5}))
    [bad] = [d for d in found if d.line == 2]
    assert (bad.code, bad.seat, bad.message) == (
        "L002", 1, "bad dragon_gift event: `to` is 5; this game has 4 seats, so a seat is a "
        "whole number from 0 to 3")
    deal: dict[str, object] = {"type": "deal", "game": "g", "hands": [["2j"]] * 7}
    [bad] = [d for d in check_file(_log(tmp_path, six, deal)) if d.line == 2]
    assert bad.message == ("bad deal event: `hands` holds 7 hands; it needs one hand per "
                           "seat (at most 6)")


def test_values_are_shortened_and_made_safe() -> None:
    assert show("x" * 100) == '"' + "x" * 40 + '\u2026"'
    assert show("\x1b[2J\u202e") == '"\\x1b[2J\\u202e"'
    assert show(list(range(100))).endswith("\u2026")
    assert len(show(list(range(100)))) <= 41
    deep: object = []
    for _ in range(10_000):
        deep = [deep]
    assert show(deep) == "[" * 40 + "\u2026"
    assert show(float("inf")) == "a number too large to read"


def test_unknown_forms_keep_the_decoder_words() -> None:
    said = describe("pass", "Something new - at `$.seat`", {"seat": 1})
    assert said == "Something new - at `seat`"
    said = describe("pass", "Object missing required field `x` - at `$.y`", {})
    assert said == "missing field `x` - at `y`"


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=3), inner,
                                                                  max_size=4),
    max_leaves=20,
)
_FIELDS = sorted({f for cls in EVENT_TYPES.values() for f in cls.__struct_fields__} | {"x"})


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(EVENT_TYPES)),
       fields=st.dictionaries(st.sampled_from(_FIELDS), _JSON, max_size=6),
       wide=st.booleans())
def test_random_objects_never_crash(kind: str, fields: dict[str, object], wide: bool) -> None:
    obj = {**fields, "type": kind}
    try:
        line = json.dumps(obj).encode()
    except ValueError:  # pragma: no cover - floats are finite
        return
    code, message, _, _, _ = explain(line, wide)
    assert code == "L002"
    assert message.startswith(f"bad {kind} event")
    assert message == clean(message, None)  # nothing a terminal would obey


DOC_EXAMPLES: list[dict[str, object]] = [
    {**PASS, "seat": 7},
    {"type": "deal", "game": "g", "hands": [["2j"]] * 3},
    {"type": "call", "game": "g", "seat": 0, "call": "small_tichu"},
    {**START, "game": "g2", "target": "1000"},
    {"type": "exchange", "game": "g", "seat": 0, "give": {"1": "Kj", "2": ["Ar"]}},
    {"type": "exchange", "game": "g", "give": {"1": "Kj"}},
]


def test_the_log_format_page_shows_what_check_says(tmp_path: Path) -> None:
    page = (Path(__file__).parents[1] / "docs" / "log-format.md").read_text(encoding="utf-8")
    block = page.split("An L002 for a malformed event", 1)[1].split("```")[1]
    said = [d.message for d in check_file(_log(tmp_path, START, *DOC_EXAMPLES))
            if d.code == "L002"]
    assert block.strip().splitlines() == said
