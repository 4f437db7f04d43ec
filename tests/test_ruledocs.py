"""Every diagnostic code is documented, and every example in the docs is real JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tichu_analyze.core.diagnostics import RULES
from tichu_analyze.core.ruledocs import RULE_DOCS


def _json_lines(doc: str) -> list[str]:
    """The lines of a doc that start with ``{``: the events of its example."""
    return [line.strip() for line in doc.splitlines() if line.strip().startswith("{")]


def test_every_code_has_a_doc() -> None:
    assert sorted(set(RULES) - set(RULE_DOCS)) == []


def test_every_doc_names_an_existing_code() -> None:
    assert sorted(set(RULE_DOCS) - set(RULES)) == []


@pytest.mark.parametrize("code", list(RULE_DOCS))
def test_doc_has_what_why_example_near_miss(code: str) -> None:
    doc = RULE_DOCS[code]
    for part in ("What:", "Why:", "Example", "Near miss:"):
        assert part in doc, f"{code}: no {part!r}"
    assert f"^ {code}" in doc, f"{code}: the example does not mark the line that triggers it"


@pytest.mark.parametrize("code", list(RULE_DOCS))
def test_example_lines_are_json_events(code: str) -> None:
    lines = _json_lines(RULE_DOCS[code])
    assert 1 <= len(lines) <= 6, f"{code}: {len(lines)} example lines"
    for line in lines:
        event = json.loads(line)
        assert isinstance(event, dict) and isinstance(event.get("type"), str), line


def test_user_docs_list_every_code() -> None:
    """docs/rules.md has a table row for every code, with its name and severity."""
    path = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
    if not path.is_file():
        pytest.skip("docs/rules.md not written yet")
    text = path.read_text(encoding="utf-8")
    for rule in RULES.values():
        assert f"| {rule.code} | {rule.name} | {rule.severity} |" in text, rule.code
