"""Every fixture of tests/fixtures/variants2/ yields exactly its expected diagnostics.

The second round of blind variant fixtures (tests/fixtures/build_variants2.py):
the house rules of rules.md 9.1, ``tientsin`` (9.2) and ``trichu`` (9.3), written
from the spec alone; a case the engine reads differently is listed in
``DISPUTED`` there and marked xfail (strict) here until the reading is settled.
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
HERE = FIXTURES / "variants2"
CASES = load_cases(HERE)


@pytest.mark.parametrize("case", case_params(CASES, reason="disputed: {pending}"))
def test_fixture(case: dict) -> None:
    assert_case(HERE, case)


def test_manifest_shape() -> None:
    """Every file listed once; <CODE>_<what> expects CODE, <CODE>_ok_<what> does not."""
    assert_manifest_shape(HERE, CASES)


def test_builder_reproduces_the_committed_fixtures(tmp_path: Path) -> None:
    assert_builder_reproduces(FIXTURES / "build_variants2.py", HERE, tmp_path)
