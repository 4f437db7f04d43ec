"""Formatting diagnostics: text, JSON lines, SARIF 2.1.0, GitHub annotations.

Names, game ids, messages and file names come from logs written by strangers: the
text formats pass them through :func:`tichu_analyze.safetext.clean` (one printable
line, long names cut), the JSON formats through :func:`tichu_analyze.safetext.json_text`
(whole, with nothing a terminal would act on).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from enum import StrEnum

from . import __version__
from .diagnostics import RULES, Diagnostic
from .safetext import clean, json_text
from .safetext import name as _name


class Format(StrEnum):
    """Output formats of ``check``."""

    TEXT = "text"
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
                        "artifactLocation": {"uri": d.file},
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
