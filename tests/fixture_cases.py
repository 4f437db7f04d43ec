"""Shared by the tests that replay hand-made fixtures against their manifest.

A manifest (``cases.json``) lists ``{"file", "about", "expect", "variants"?,
"pending"?}``; see tests/fixtures/rules/README.md.  Reusable by any such test
(``from fixture_cases import ...``).
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from tichu_analyze.readers.logfile import check_file


def load_cases(folder: Path) -> list[dict]:
    path = folder / "cases.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []


def case_params(cases: list[dict], reason: str = "{pending} not implemented yet") -> list:
    """One pytest param per case; a ``pending`` case is xfail (strict), so the mark
    must be taken out as soon as the engine agrees with it."""
    params = []
    for case in cases:
        marks = []
        if case.get("pending"):
            marks.append(pytest.mark.xfail(strict=True, reason=reason.format(**case)))
        params.append(pytest.param(case, id=case["file"], marks=marks))
    return params


def assert_case(folder: Path, case: dict) -> None:
    """The file yields exactly the expected (code, line) multiset."""
    found = check_file(folder / case["file"], frozenset(case.get("variants", ())))
    got = Counter((d.code, d.line) for d in found)
    want = Counter((e["code"], e["line"]) for e in case["expect"])
    detail = "\n".join(f"  {d.line}: {d.code} {d.message}" for d in found)
    assert got == want, f"{case['about']}\nfound:\n{detail}"


def assert_builder_reproduces(builder: Path, folder: Path, tmp_path: Path) -> None:
    """Running ``builder.build(tmp_path)`` gives the committed files byte for byte."""
    spec = importlib.util.spec_from_file_location(builder.stem, builder)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(tmp_path)
    built = sorted(p.name for p in tmp_path.iterdir())
    committed = sorted(p.name for p in folder.iterdir() if p.suffix in (".jsonl", ".json"))
    assert built == committed
    for name in built:
        assert (tmp_path / name).read_bytes() == (folder / name).read_bytes(), name


def assert_manifest_shape(folder: Path, cases: list[dict]) -> None:
    """Every file of ``folder`` listed once; ``<CODE>_<what>`` expects CODE,
    ``<CODE>_ok_<what>`` does not (``scenario_<what>`` may expect anything); each
    expected diagnostic points at a line of the file."""
    files = [c["file"] for c in cases]
    assert len(files) == len(set(files)), "a file is listed twice"
    assert sorted(files) == sorted(p.name for p in folder.glob("*.jsonl"))
    for c in cases:
        assert {"file", "about", "expect"} <= set(c) <= {
            "file", "about", "expect", "variants", "pending"}, c["file"]
        head = c["file"].split("_")[0]
        codes = {e["code"] for e in c["expect"]}
        assert all(re.fullmatch(r"[A-Z][0-9]{3}", code) for code in codes), c["file"]
        if head != "scenario":
            assert (head in codes) != ("_ok_" in c["file"]), c["file"]
        lines = (folder / c["file"]).read_text(encoding="utf-8").split("\n")
        for e in c["expect"]:
            assert lines[e["line"] - 1].strip(), (c["file"], e)
