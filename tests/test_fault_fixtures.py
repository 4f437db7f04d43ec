"""Every fixture of tests/fixtures/faults/ yields exactly its expected diagnostics.

Whole simulated games with one injected fault each (tests/fixtures/build_faults.py),
judged from rules.md and log-format.md through the end of the game: the fault's
code at its line, the follow-on diagnostics the spec's "replay then" implies, and
nothing else.  A case the engine reads differently is listed in ``DISPUTED`` there
and marked xfail (strict) here until the reading is settled.
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
HERE = FIXTURES / "faults"
CASES = load_cases(HERE)


@pytest.mark.parametrize("case", case_params(CASES, reason="disputed: {pending}"))
def test_fixture(case: dict) -> None:
    assert_case(HERE, case)


def test_manifest_shape() -> None:
    """Every file listed once; <CODE>_<what> expects CODE, <CODE>_ok_<what> does not."""
    assert_manifest_shape(HERE, CASES)


def test_base_games_check_clean() -> None:
    """The games the faults are injected into are legal as they stand."""
    for base in sorted((HERE / "base").glob("*.jsonl")):
        assert_case(HERE / "base", {"file": base.name, "about": "base game", "expect": []})


def test_builder_reproduces_the_committed_fixtures(tmp_path: Path) -> None:
    assert_builder_reproduces(FIXTURES / "build_faults.py", HERE, tmp_path)
