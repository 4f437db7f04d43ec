"""The core does no I/O and depends on nothing outside it (docs/architecture.md):
cards, combos, events, diagnostics, state, visitor and replay import only the standard library,
each other, and (for the typed events) msgspec."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "tichu_analyze"
CORE = {"cards", "combos", "events", "diagnostics", "state", "visitor", "replay"}
IO_MODULES = {"io", "os", "pathlib", "sys", "gzip", "shutil", "subprocess", "socket", "random",
              "time", "datetime", "tempfile", "logging"}
THIRD_PARTY_ALLOWED = {"events": {"msgspec"}}


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: a module of the package
                found.add("." + (node.module or "").split(".")[0])
            else:
                found.add((node.module or "").split(".")[0])
    return found


@pytest.mark.parametrize("module", sorted(CORE))
def test_core_module_imports_only_the_core_and_the_standard_library(module: str) -> None:
    for name in _imports(PACKAGE / f"{module}.py"):
        if name.startswith("."):
            assert name[1:] in CORE, f"{module} imports .{name[1:]}, outside the core"
        elif name == "__future__":
            continue
        else:
            allowed = THIRD_PARTY_ALLOWED.get(module, set())
            assert name in sys.stdlib_module_names or name in allowed, (
                f"{module} imports {name}")
            assert name not in IO_MODULES, f"{module} imports {name}: the core does no I/O"
