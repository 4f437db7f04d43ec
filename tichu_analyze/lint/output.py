"""Formatting diagnostics: text, JSON lines, SARIF 2.1.0, GitHub annotations.

Names, game ids, messages and file names come from logs written by strangers: the
text formats pass them through :func:`tichu_analyze.common.safetext.clean` (one printable
line, long names cut), the JSON formats through :func:`tichu_analyze.common.safetext.json_text`
(whole, with nothing a terminal would act on).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from enum import StrEnum
from pathlib import PurePath
from urllib.parse import quote

from .. import __version__
from ..common.safetext import clean, json_text
from ..common.safetext import name as _name
from ..core.diagnostics import RULES, Diagnostic


class Format(StrEnum):
    """Output formats of ``check``."""

    TEXT = "text"
    FULL = "full"
    JSON = "json"
    SARIF = "sarif"
    GITHUB = "github"


def location(d: Diagnostic) -> str:
    """``(game G, round R, trick T, seat S Name)``, leaving out what is unknown."""
    parts = []
    if d.game is not None:
        parts.append(f"game {_name(d.game)}")
    if d.round is not None:
        parts.append(f"round {d.round}")
    if d.trick is not None:
        parts.append(f"trick {d.trick}")
    if d.seat is not None:
        parts.append(f"seat {d.seat}" + (f" {_name(d.player)}" if d.player else ""))
    return f" ({', '.join(parts)})" if parts else ""


def as_text(d: Diagnostic) -> str:
    """``path:line: CODE name: message (game G, round R, trick T, seat S Name)``."""
    sev = "" if d.severity == "error" else f"[{d.severity}] "
    return f"{clean(d.file)}:{d.line}: {d.code} {d.name}: {sev}{clean(d.message)}{location(d)}"


def as_dict(d: Diagnostic) -> dict[str, object]:
    """The JSON object of one diagnostic."""
    return {
        "code": d.code,
        "name": d.name,
        "severity": str(d.severity),
        "file": d.file,
        "line": d.line,
        "game": d.game,
        "round": d.round,
        "trick": d.trick,
        "seat": d.seat,
        "player": d.player,
        "message": d.message,
    }


def as_json(d: Diagnostic) -> str:
    return json_text(json.dumps(as_dict(d), ensure_ascii=False))


def as_github(d: Diagnostic) -> str:
    """A GitHub Actions workflow command (``::error file=...``)."""
    level = "warning" if d.severity == "warning" else "error"
    msg = f"{d.code} {d.name}: {clean(d.message)}{location(d)}".replace("%", "%25")
    file = clean(d.file).replace("%", "%25").replace(",", "%2C").replace(":", "%3A")
    return f"::{level} file={file},line={d.line},title={d.code}::{msg}"


def sarif_uri(file: str) -> str:
    """A log's path as SARIF's ``artifactLocation.uri`` (a URI reference, RFC 3986): an
    absolute path as a ``file://`` URI, a relative one percent-encoded (a space, ``#`` or
    ``%`` in a name would otherwise be read as part of the URI's syntax)."""
    path = PurePath(file)
    return path.as_uri() if path.is_absolute() else quote(path.as_posix())


_SARIF_LEVEL = {"warning": "warning", "error": "error", "fatal": "error"}


def as_sarif(diagnostics: Iterable[Diagnostic]) -> dict[str, object]:
    """A SARIF 2.1.0 log with one run."""
    rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.when},
            "fullDescription": {"text": f"{r.when}. Replay then: {r.replay_then}."},
            "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
            "properties": {"severity": str(r.severity), "rules-section": r.section},
        }
        for r in RULES.values()
    ]
    index = {code: i for i, code in enumerate(RULES)}
    results = [
        {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message + location(d)},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": sarif_uri(d.file)},
                        "region": {"startLine": d.line},
                    }
                }
            ],
            "properties": {
                "severity": str(d.severity),
                "game": d.game,
                "round": d.round,
                "trick": d.trick,
                "seat": d.seat,
                "player": d.player,
            },
        }
        for d in diagnostics
    ]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "tichu-analyze",
                        "version": __version__,
                        "informationUri": "https://pypi.org/project/tichu-analyze/",
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }


# ANSI SGR codes for a terminal (``check --color``); NO_COLOR is honoured by the caller
_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_SEVERITY_COLOUR = {"warning": "\x1b[1;33m", "error": "\x1b[1;31m", "fatal": "\x1b[1;35m"}
_DIM = "\x1b[2m"
_CYAN = "\x1b[36m"


def as_text_colour(d: Diagnostic) -> str:
    """:func:`as_text` with the location, code and severity coloured for a terminal."""
    colour = _SEVERITY_COLOUR.get(d.severity, _BOLD)
    sev = "" if d.severity == "error" else f"{colour}[{d.severity}]{_RESET} "
    return (f"{_BOLD}{d.file}:{d.line}:{_RESET} {colour}{d.code}{_RESET} {d.name}: "
            f"{sev}{d.message}{_DIM}{location(d)}{_RESET}")


def as_full(d: Diagnostic, before: bytes | None, at: bytes | None, colour: bool = False) -> str:
    """The ``full`` format: the text line, then the event line before and the
    offending one, numbered, the offending one marked with ``>``."""
    head = as_text_colour(d) if colour else as_text(d)
    width = len(str(d.line))
    lines = [head]
    for number, raw, mark in ((d.line - 1, before, " "), (d.line, at, ">")):
        if raw is None:
            continue
        text = printable(raw.decode("utf-8", "replace"))
        if len(text) > 300:
            text = text[:300] + "…"
        gutter = f"{mark} {number:>{width}} | "
        if colour:
            gutter = (_SEVERITY_COLOUR.get(d.severity, _BOLD) if mark == ">" else _CYAN) + \
                gutter + _RESET
        lines.append("    " + gutter + text)
    return "\n".join(lines) + "\n\n"


def printable(text: str) -> str:
    """Control characters of a log line shown escaped (a log cannot drive the terminal)."""
    return "".join(c if c.isprintable() or c == "\t" else repr(c)[1:-1] for c in text)


def statistics_rows(counts: dict[str, int]) -> list[tuple[int, str, str, str]]:
    """``(count, code, name, severity)`` per code found, most frequent first."""
    rows = [(n, code, RULES[code].name, str(RULES[code].severity))
            for code, n in counts.items() if n]
    return sorted(rows, key=lambda r: (-r[0], r[1]))


def as_statistics(counts: dict[str, int], colour: bool = False) -> str:
    """``check --statistics`` as text: ``count  CODE  name  [severity]`` per line."""
    rows = statistics_rows(counts)
    if not rows:
        return ""
    width = max(len(str(r[0])) for r in rows)
    name_width = max(len(r[2]) for r in rows)
    out = []
    for n, code, name, severity in rows:
        c = f"{_SEVERITY_COLOUR[severity]}{code}{_RESET}" if colour else code
        out.append(f"{n:>{width}}  {c}  {name:<{name_width}}  [{severity}]")
    return "\n".join(out) + "\n"


def as_statistics_json(counts: dict[str, int]) -> str:
    """``check --statistics --format json``: a JSON array of count objects."""
    rows = [{"code": code, "name": name, "severity": severity, "count": n}
            for n, code, name, severity in statistics_rows(counts)]
    return json.dumps(rows, indent=2) + "\n"
