"""Every spec-audit fixture of tests/fixtures/spec/ yields exactly its expected diagnostics.

The fixtures (tests/fixtures/build_spec.py) were written from rules.md and
log-format.md alone, to find where the engine's reading of the rules differs;
a case the engine reads differently is listed in ``DISPUTED`` there and marked
xfail (strict) here until the reading is settled.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fixture_cases import assert_builder_reproduces, assert_case, case_params, load_cases

FIXTURES = Path(__file__).parent / "fixtures"
HERE = FIXTURES / "spec"
CASES = load_cases(HERE)


@pytest.mark.parametrize("case", case_params(CASES, reason="disputed: {pending}"))
def test_fixture(case: dict) -> None:
    assert_case(HERE, case)


def test_manifest_shape() -> None:
    """Every file listed once; <CODE>_<what> expects CODE, <CODE>_ok_<what> does not."""
    files = [c["file"] for c in CASES]
    assert len(files) == len(set(files)), "a file is listed twice"
    assert sorted(files) == sorted(p.name for p in HERE.glob("*.jsonl"))
    for c in CASES:
        assert {"file", "about", "expect"} <= set(c) <= {
            "file", "about", "expect", "variants", "pending"}, c["file"]
        head = c["file"].split("_")[0]
        codes = {e["code"] for e in c["expect"]}
        assert all(re.fullmatch(r"[A-Z][0-9]{3}", code) for code in codes), c["file"]
        if head != "scenario":
            assert (head in codes) != ("_ok_" in c["file"]), c["file"]


def test_builder_reproduces_the_committed_fixtures(tmp_path: Path) -> None:
    assert_builder_reproduces(FIXTURES / "build_spec.py", HERE, tmp_path)
