"""The rooms of the package and the direction of their dependencies (docs/architecture.md).

Each role package may import only the rooms below it: ``common`` and ``core`` import
nothing of the package but themselves, the core does no I/O, and the simulator keeps its
own reading of the rules (it sees the cards and the combinations, never the engine).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "tichu_analyze"

ALLOWED: dict[str, set[str]] = {
    "common": set(),
    "core": set(),
    "readers": {"core", "common"},
    "run": {"core", "readers", "common"},
    "lint": {"core", "readers", "run", "common"},
    "data": {"core", "readers", "run", "common"},
    "analysis": {"core", "readers", "run", "common", "data"},
    "review": {"core", "readers", "run", "common", "lint"},
    "views": {"core", "readers", "run", "common", "lint", "data", "analysis", "review"},
    "sim": {"core"},
    "cli": {"core", "readers", "run", "common", "lint", "data", "analysis", "review", "views",
            "sim"},
}
"""The rooms each room may import (besides itself and the package's ``__version__``)."""

ROOMS = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
IO_MODULES = {"io", "os", "pathlib", "sys", "gzip", "shutil", "subprocess", "socket", "random",
              "time", "datetime", "tempfile", "logging"}
CORE_THIRD_PARTY = {"msgspec"}  # the typed events


def _imports(path: Path) -> set[tuple[str, str]]:
    """``(room, module)`` of each package import of ``path``, and ``("", name)`` of each
    import from outside the package."""
    room = path.relative_to(PACKAGE).parts[0]
    found: set[tuple[str, str]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                found.add((parts[1], ".".join(parts[2:])) if parts[0] == "tichu_analyze"
                          and len(parts) > 1 else ("", parts[0]))
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 1:  # within the room
                found.add((room, module))
            elif node.level == 2:  # another room, or the package's __init__
                first = module.split(".")[0]
                found.add((first, module) if first else ("__init__", ""))
            elif module.split(".")[0] == "tichu_analyze":
                parts = module.split(".")
                found.add((parts[1] if len(parts) > 1 else "__init__", module))
            else:
                found.add(("", module.split(".")[0]))
    return found


def test_every_module_lives_in_a_room() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in (
        "__init__.py", "__main__.py"))
    assert loose == []
    assert set(ROOMS) <= set(ALLOWED), set(ROOMS) - set(ALLOWED)


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_imports_only_the_rooms_below_it(room: str) -> None:
    for path in sorted((PACKAGE / room).rglob("*.py")):
        for other, module in _imports(path):
            if other in ("", room, "__init__"):
                continue
            assert other in ALLOWED[room], f"{path.relative_to(PACKAGE)} imports {other}.{module}"


def test_the_core_does_no_io_and_depends_on_nothing_else() -> None:
    for path in sorted((PACKAGE / "core").glob("*.py")):
        for other, name in _imports(path):
            if other:
                continue  # (the core itself: the room test)
            if name == "__future__":
                continue
            assert name in sys.stdlib_module_names or name in CORE_THIRD_PARTY, (
                f"{path.name} imports {name}")
            assert name not in IO_MODULES, f"{path.name} imports {name}: the core does no I/O"


def test_common_imports_only_the_standard_library() -> None:
    for path in sorted((PACKAGE / "common").glob("*.py")):
        for other, name in _imports(path):
            assert other == "" or other == "common", path.name
            assert other or name == "__future__" or name in sys.stdlib_module_names, (
                path.name, name)


def test_the_simulator_reads_the_rules_its_own_way() -> None:
    for path in sorted((PACKAGE / "sim").glob("*.py")):
        for other, module in _imports(path):
            if other == "core":
                assert module in ("cards", "combos", "core.cards", "core.combos"), (
                    f"{path.name} imports core.{module}: the simulator must not use the engine")
