"""Every hand-made fixture of tests/fixtures/rules/ yields exactly its expected diagnostics.

The fixtures and their expectations (cases.json) were written from rules.md
case by case, independently of the engine; see tests/fixtures/rules/README.md.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tichu_analyze.diagnostics import RULES
from tichu_analyze.logfile import check_file

HERE = Path(__file__).parent / "fixtures" / "rules"
CASES = json.loads((HERE / "cases.json").read_text()) if (HERE / "cases.json").exists() else []


def _param(case: dict) -> object:
    """A case, marked xfail (strict) while its ``pending`` engine work is open."""
    marks = []
    if case.get("pending"):
        reason = f"{case['pending']} not implemented yet"
        marks.append(pytest.mark.xfail(strict=True, reason=reason))
    return pytest.param(case, id=case["file"], marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_fixture(case: dict) -> None:
    found = check_file(HERE / case["file"], frozenset(case.get("variants", ())))
    got = Counter((d.code, d.line) for d in found)
    want = Counter((e["code"], e["line"]) for e in case["expect"])
    detail = "\n".join(f"  {d.line}: {d.code} {d.message}" for d in found)
    assert got == want, f"{case['about']}\nfound:\n{detail}"


def test_every_code_has_a_failing_and_a_passing_fixture() -> None:
    triggered = {e["code"] for c in CASES for e in c["expect"]}
    near_miss = {c["file"].split("_")[0] for c in CASES if "_ok_" in c["file"]}
    assert set(RULES) <= triggered, sorted(set(RULES) - triggered)
    assert set(RULES) <= near_miss, sorted(set(RULES) - near_miss)
