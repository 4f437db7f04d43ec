"""Checks of the hand-made rule fixtures that need no engine.

The fixtures (tests/fixtures/rules/*.jsonl) and their manifest (cases.json)
are built by tests/fixtures/build_cases.py from shared/spec/rules.md; the
engine-driven test that replays them is tests/test_rules_fixtures.py.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from fixture_cases import assert_builder_reproduces, load_cases
from shared_data import SPEC

TESTS = Path(__file__).parent
FIXTURES = TESTS / "fixtures" / "rules"
BUILDER = TESTS / "fixtures" / "build_cases.py"
# the normative spec is kept outside the repository (beside it, or where TICHU_SPEC_DIR says)
SPEC_DIR = SPEC
RULES_MD = Path(os.environ.get("TICHU_SPEC_DIR", SPEC_DIR)) / "rules.md"
CASES = json.loads((FIXTURES / "cases.json").read_text(encoding="utf-8"))


def spec_codes() -> list[str]:
    """The codes of the table in rules.md section 8 (skips without the spec)."""
    if not RULES_MD.exists():
        pytest.skip("optional: the normative spec (../shared/spec/rules.md) is not here; set "
                    "TICHU_SPEC_DIR to the folder holding rules.md to compare the codes with it")
    text = RULES_MD.read_text(encoding="utf-8")
    section = text.split("## 8.", 1)[1].split("\n## ", 1)[0]
    codes = re.findall(r"^\| ([A-Z][0-9]{3}) \|", section, flags=re.M)
    assert codes and len(codes) == len(set(codes)), codes
    return codes


def test_manifest_shape() -> None:
    files = [c["file"] for c in CASES]
    assert len(files) == len(set(files)), "a file is listed twice"
    for c in CASES:
        assert {"file", "about", "expect"} <= set(c), c["file"]
        assert set(c) <= {"file", "about", "expect", "variants", "pending"}, c["file"]
        assert all(isinstance(v, str) for v in c.get("variants", [])), c["file"]
        assert isinstance(c.get("pending", ""), str), c["file"]
        assert c["file"].endswith(".jsonl") and "/" not in c["file"]
        assert isinstance(c["about"], str) and c["about"].strip()
        for e in c["expect"]:
            assert set(e) == {"code", "line"}, (c["file"], e)
            assert re.fullmatch(r"[A-Z][0-9]{3}", e["code"]), (c["file"], e)
            assert isinstance(e["line"], int) and e["line"] >= 1, (c["file"], e)


def test_every_listed_file_exists_and_every_file_is_listed() -> None:
    listed = {c["file"] for c in CASES}
    present = {p.name for p in FIXTURES.glob("*.jsonl")}
    assert sorted(listed - present) == [], "listed but missing"
    assert sorted(present - listed) == [], "present but not in cases.json"


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_expected_lines_are_in_the_file(case: dict) -> None:
    lines = (FIXTURES / case["file"]).read_text(encoding="utf-8").split("\n")
    if lines[-1] == "":
        lines.pop()
    for e in case["expect"]:
        assert 1 <= e["line"] <= len(lines), e
        assert lines[e["line"] - 1].strip(), f"{e} points at a blank line"


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_file_name_agrees_with_expectations(case: dict) -> None:
    """<CODE>_<what> must expect CODE; <CODE>_ok_<what> must not."""
    head = case["file"].split("_")[0]
    codes = {e["code"] for e in case["expect"]}
    if head == "scenario":
        return
    assert re.fullmatch(r"[A-Z][0-9]{3}", head), case["file"]
    if "_ok_" in case["file"]:
        assert head not in codes, case["file"]
    else:
        assert head in codes, case["file"]


def test_expected_codes_are_codes_of_the_spec() -> None:
    known = set(spec_codes())
    used = {e["code"] for c in CASES for e in c["expect"]}
    assert sorted(used - known) == []


def test_every_code_has_a_triggering_and_a_near_miss_file() -> None:
    """Over the rule and the variant fixtures (C004 exists only in trichu, 9.3)."""
    codes = spec_codes()
    both = CASES + load_cases(TESTS / "fixtures" / "variants")
    triggering = {c["file"].split("_")[0] for c in both if "_ok_" not in c["file"]}
    near_miss = {c["file"].split("_")[0] for c in both if "_ok_" in c["file"]}
    assert [c for c in codes if c not in triggering] == []
    assert [c for c in codes if c not in near_miss] == []


def test_builder_reproduces_the_committed_fixtures(tmp_path: Path) -> None:
    assert_builder_reproduces(BUILDER, FIXTURES, tmp_path)
