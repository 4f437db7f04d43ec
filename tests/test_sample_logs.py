"""sample_logs/README.md tells the truth about what `check` reports on each file."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tichu_analyze.readers.logfile import check_file

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

SAMPLES = Path(__file__).parents[1] / "sample_logs"
ROW = re.compile(r"^\| `([^`]+)` \| .* \| ([A-Z0-9, ]+|none) \|$")


def _table() -> dict[str, Counter[str]]:
    rows = {}
    for line in (SAMPLES / "README.md").read_text().splitlines():
        m = ROW.match(line)
        if m:
            codes = [] if m.group(2) == "none" else [c.strip() for c in m.group(2).split(",")]
            rows[m.group(1)] = Counter(codes)
    return rows


TABLE = _table()


def test_every_sample_is_described() -> None:
    files = {p.name for p in SAMPLES.iterdir() if p.name != "README.md"}
    assert files == set(TABLE)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_sample_reports_what_the_readme_says(name: str) -> None:
    found = Counter(d.code for d in check_file(SAMPLES / name))
    assert found == TABLE[name]
