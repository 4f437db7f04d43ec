"""The settings of ``check``: a project's configuration file and the command line.

A project configures ``check`` once, in ``[tool.tichu-analyze]`` of its
``pyproject.toml`` or in a ``tichu-analyze.toml`` (same keys, at the top level).
The file is found by walking up from the first path given, ``--config FILE``
names it, and ``--isolated`` ignores it. Command-line options override the file
key by key; :class:`Settings` remembers where each value came from, for
``check --show-settings``.
"""

from __future__ import annotations

import fnmatch
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..common.atomicfile import reason
from ..common.errors import TichuAnalyzeError
from ..core.diagnostics import RULES
from ..core.variants import VARIANTS
from ..readers.logfile import real_path

CONFIG_NAMES = ("tichu-analyze.toml", "pyproject.toml")
"""Looked for in each directory, in this order (a ``pyproject.toml`` counts only
when it has a ``[tool.tichu-analyze]`` table)."""

FORMATS = ("text", "full", "json", "sarif", "github")

KEYS = ("select", "ignore", "variants", "per-path-ignores", "format", "jobs")
"""Every key the configuration may set."""

DEFAULT = "default"
COMMAND_LINE = "command line"


class ConfigError(TichuAnalyzeError):
    """A configuration file that cannot be used (exit status 2)."""


@dataclass(slots=True)
class Settings:
    """What ``check`` runs with, and where each value came from."""

    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)
    per_path_ignores: dict[str, list[str]] = field(default_factory=dict)
    format: str = "text"
    jobs: int = 1
    file: Path | None = None
    """The configuration file read, if any."""
    sources: dict[str, str] = field(default_factory=lambda: dict.fromkeys(KEYS, DEFAULT))

    def override(self, key: str, value: object) -> None:
        """Set ``key`` from the command line (``None``: not given, keep the file's value)."""
        if value is None:
            return
        setattr(self, key.replace("-", "_"), value)
        self.sources[key] = COMMAND_LINE

    def ignored_in(self, path: str) -> frozenset[str]:
        """The code prefixes ``per-path-ignores`` ignores in the log at ``path``.

        A pattern matches the path relative to the configuration file's directory
        (``*`` also matches ``/``), or the file's name alone.
        """
        if not self.per_path_ignores:
            return frozenset()
        candidates = {Path(path).as_posix(), Path(path).name}
        if self.file is not None:
            try:
                rel = os.path.relpath(real_path(path), real_path(self.file.parent))
                candidates.add(Path(rel).as_posix())
            except ValueError:  # another drive (Windows)
                pass
        found: set[str] = set()
        for pattern, codes in self.per_path_ignores.items():
            if any(fnmatch.fnmatchcase(c, pattern) for c in candidates):
                found.update(codes)
        return frozenset(found)

    def describe(self) -> list[str]:
        """``check --show-settings``: one line per key, ``# source`` after it."""
        shown = {
            "select": self.select, "ignore": self.ignore, "variants": self.variants,
            "per-path-ignores": self.per_path_ignores, "format": self.format, "jobs": self.jobs,
        }
        lines = [f"# configuration file: {self.file if self.file else 'none'}"]
        for key in KEYS:
            lines.append(f"{key} = {_toml(shown[key])}  # {self.sources[key]}")
        return lines


def _toml(value: object) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    return str(value)


def find_config(start: Path) -> Path | None:
    """The configuration file for ``start``: the first found walking up from it."""
    here = real_path(start)  # (a link that loops: the folder it is in)
    if not here.is_dir():
        here = here.parent
    for folder in (here, *here.parents):
        for name in CONFIG_NAMES:
            candidate = folder / name
            if candidate.is_file() and (name != "pyproject.toml" or _has_table(candidate)):
                return candidate
    return None


def _has_table(pyproject: Path) -> bool:
    """The file has a ``[tool.tichu-analyze]`` table. One that cannot be read as TOML is
    passed over, unless it names that table: then its settings would be lost without a
    word, so it is an error (:class:`ConfigError`)."""
    try:
        tool = _read(pyproject).get("tool")
        return isinstance(tool, dict) and "tichu-analyze" in tool
    except ConfigError:
        try:
            ours = b"tool.tichu-analyze" in pyproject.read_bytes()
        except OSError:
            ours = False
        if ours:
            raise
        return False


def _read(path: Path) -> dict[str, object]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {reason(e)}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None


def load_settings(path: Path | None) -> Settings:
    """The settings of the configuration file ``path`` (defaults when ``None``).

    Raises :class:`ConfigError` naming the file and the key for an unknown key,
    a value of the wrong type, an unknown code prefix, variant or format.
    """
    settings = Settings()
    if path is None:
        return settings
    data = _read(path)
    where = f"{path}"
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        table = tool.get("tichu-analyze") if isinstance(tool, dict) else None
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: no [tool.tichu-analyze] table")
        data = table
        where = f"{path} [tool.tichu-analyze]"
    settings.file = path
    for key, value in data.items():
        if key not in KEYS:
            raise ConfigError(f"{where}: unknown key {key!r} (known keys: {', '.join(KEYS)})")
        _set(settings, key, value, f"{where}: {key}")
        settings.sources[key] = str(path)
    return settings


def _set(settings: Settings, key: str, value: object, where: str) -> None:
    if key in ("select", "ignore"):
        setattr(settings, key, check_prefixes(_strings(value, where), where))
    elif key == "variants":
        names = _strings(value, where)
        for name in names:
            if name not in VARIANTS:
                raise ConfigError(f"{where}: unknown variant {name!r} "
                                  f"(variants: {', '.join(VARIANTS)})")
        settings.variants = names
    elif key == "per-path-ignores":
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected a table of glob = [codes]")
        settings.per_path_ignores = {
            str(glob): check_prefixes(_strings(codes, f"{where}: {glob!r}"), f"{where}: {glob!r}")
            for glob, codes in value.items()
        }
    elif key == "format":
        if value not in FORMATS:
            raise ConfigError(f"{where}: expected one of {', '.join(FORMATS)}, got {value!r}")
        settings.format = str(value)
    else:  # jobs
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ConfigError(f"{where}: expected a whole number >= 0 (0: one per CPU core), "
                              f"got {value!r}")
        settings.jobs = value


def _strings(value: object, where: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings, got {value!r}")
    return [str(v) for v in value]


def check_prefixes(values: list[str], where: str) -> list[str]:
    """Code prefixes (``W``, ``G001``; comma-separated allowed) in upper case.

    Raises :class:`ConfigError` for one that starts no diagnostic code.
    """
    prefixes = [p.strip().upper() for v in values for p in v.split(",") if p.strip()]
    for p in prefixes:
        if not any(code.startswith(p) for code in RULES):
            raise ConfigError(f"{where}: {p}: no diagnostic code starts with {p!r} "
                              "(see 'tichu-analyze rules')")
    return prefixes
