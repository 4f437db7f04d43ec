"""The fixture folders written to judge the engine from the spec alone: every fixture
yields exactly its expected diagnostics.

* ``spec/`` and ``spec2/`` (tests/fixtures/build_spec.py, build_spec2.py): hand-made
  logs written from rules.md and log-format.md by authors who never read the engine;
* ``variants2/`` (build_variants2.py): the same for the variants of rules.md 9 (the
  house rules, ``tientsin``, ``trichu``);
* ``faults/`` (build_faults.py): whole simulated games with one injected fault each,
  judged through the end of the game: the fault's code at its line, the follow-on
  diagnostics the spec's "replay then" implies, and nothing else.

A case the engine reads differently is listed in ``DISPUTED`` in its builder and
marked xfail (strict) here until the reading is settled.
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

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

FIXTURES = Path(__file__).parent / "fixtures"
BUILDERS = {"spec": "build_spec.py", "spec2": "build_spec2.py",
            "variants2": "build_variants2.py", "faults": "build_faults.py"}
"""Each folder and the script that writes it."""

CASES = {folder: load_cases(FIXTURES / folder) for folder in BUILDERS}


@pytest.mark.parametrize(("folder", "case"), [
    pytest.param(folder, *p.values, id=f"{folder}/{p.id}", marks=p.marks)
    for folder, cases in CASES.items()
    for p in case_params(cases, reason="disputed: {pending}")])
def test_fixture(folder: str, case: dict) -> None:
    assert_case(FIXTURES / folder, case)


@pytest.mark.parametrize("folder", BUILDERS)
def test_manifest_shape(folder: str) -> None:
    """Every file listed once; <CODE>_<what> expects CODE, <CODE>_ok_<what> does not."""
    assert CASES[folder]
    assert_manifest_shape(FIXTURES / folder, CASES[folder])


@pytest.mark.parametrize("folder", BUILDERS)
def test_builder_reproduces_the_committed_fixtures(folder: str, tmp_path: Path) -> None:
    assert_builder_reproduces(FIXTURES / BUILDERS[folder], FIXTURES / folder, tmp_path)


def test_the_games_faults_are_injected_into_check_clean() -> None:
    base = FIXTURES / "faults" / "base"
    games = sorted(base.glob("*.jsonl"))
    assert games
    for game in games:
        assert_case(base, {"file": game.name, "about": "base game", "expect": []})
