"""Every hand-made fixture of tests/fixtures/rules/ yields exactly its expected diagnostics.

The fixtures and their expectations (cases.json) were written from rules.md
case by case, independently of the engine; see tests/fixtures/rules/README.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_cases import assert_case, case_params, load_cases

from tichu_analyze.core.diagnostics import RULES

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

HERE = Path(__file__).parent / "fixtures" / "rules"
CASES = load_cases(HERE)


@pytest.mark.parametrize("case", case_params(CASES))
def test_fixture(case: dict) -> None:
    assert_case(HERE, case)


def test_every_code_has_a_failing_and_a_passing_fixture() -> None:
    """Over the rule and the variant fixtures (C004 exists only in trichu, 9.3)."""
    both = CASES + load_cases(HERE.parent / "variants")
    triggered = {e["code"] for c in both for e in c["expect"]}
    near_miss = {c["file"].split("_")[0] for c in both if "_ok_" in c["file"]}
    assert set(RULES) <= triggered, sorted(set(RULES) - triggered)
    assert set(RULES) <= near_miss, sorted(set(RULES) - near_miss)
