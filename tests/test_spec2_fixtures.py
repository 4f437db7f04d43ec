"""Every fixture of tests/fixtures/spec2/ yields exactly its expected diagnostics.

The second round of spec-audit fixtures (tests/fixtures/build_spec2.py), written
blind from rules.md and log-format.md; a case the engine reads differently is
listed in ``DISPUTED`` there and marked xfail (strict) here until the reading is
settled.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_cases import (
    assert_builder_reproduces,
    assert_case,
    assert_manifest_shape,
    case_params,
    load_cases,
)

FIXTURES = Path(__file__).parent / "fixtures"
HERE = FIXTURES / "spec2"
CASES = load_cases(HERE)


@pytest.mark.parametrize("case", case_params(CASES, reason="disputed: {pending}"))
def test_fixture(case: dict) -> None:
    assert_case(HERE, case)


def test_manifest_shape() -> None:
    """Every file listed once; <CODE>_<what> expects CODE, <CODE>_ok_<what> does not."""
    assert_manifest_shape(HERE, CASES)


def test_builder_reproduces_the_committed_fixtures(tmp_path: Path) -> None:
    assert_builder_reproduces(FIXTURES / "build_spec2.py", HERE, tmp_path)
