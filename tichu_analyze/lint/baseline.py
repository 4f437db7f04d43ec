"""Baselines: the known findings of an archive, set aside so that only new ones show.

``check --write-baseline FILE`` records every finding; ``check --baseline FILE``
reports only the findings that are not in it. A finding is recorded by its file
(relative to the baseline's folder), game, round, trick, code, seat and a hash of
the event line it points at, not by its line number: inserting or removing other
lines of the log does not change it. Findings are matched as a multiset, so a
second identical violation in the same round is new.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from zstandard import ZstdError

from ..common.atomicfile import OutputError, write_atomic
from ..common.errors import TichuAnalyzeError
from ..core.diagnostics import Diagnostic
from ..readers.logfile import _decompressed, real_path

FORMAT_KEY = "tichu-analyze-baseline"
VERSION = 1

Key = tuple[str, str | None, int | None, int | None, str, int | None, str]
"""``(file, game, round, trick, code, seat, content hash)``."""


class BaselineError(TichuAnalyzeError):
    """A baseline file that cannot be read or written (exit status 2)."""


def source_lines(path: Path, wanted: Iterable[int]) -> dict[int, bytes]:
    """The lines numbered ``wanted`` (1-based) of a log, decompressed, without line ends.

    Lines that cannot be read are left out; the file was read once already.
    """
    want = set(wanted)
    if not want:
        return {}
    last = max(want)
    found: dict[int, bytes] = {}
    try:
        with open(path, "rb") as raw, _decompressed(path, raw) as f:
            for n, line in enumerate(f, 1):
                if n in want:
                    found[n] = line.rstrip(b"\r\n")
                if n >= last:
                    break
    except (OSError, EOFError, ValueError, zlib.error, ZstdError):
        pass  # the replay has reported the file as unreadable already
    return found


def _relative(file: str, base: Path) -> str:
    try:
        return Path(os.path.relpath(real_path(file), base)).as_posix()
    except ValueError:  # another drive (Windows)
        return Path(file).as_posix()


def fingerprint(d: Diagnostic, content: bytes | None, base: Path) -> Key:
    """The key of a finding: stable under edits elsewhere in its log."""
    digest = hashlib.sha256(content.strip() if content is not None else b"").hexdigest()[:16]
    return (_relative(d.file, base), d.game, d.round, d.trick, d.code, d.seat, digest)


class Baseline:
    """The findings of a baseline file, matched off one by one."""

    def __init__(self, path: Path, keys: Counter[Key]) -> None:
        self.path = path
        self.base = real_path(path).parent
        self.left = keys
        self.total = sum(keys.values())
        self.matched = 0

    @classmethod
    def load(cls, path: Path) -> Baseline:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as e:
            raise BaselineError(f"{path}: cannot read the baseline: {e.strerror or e}") from None
        except ValueError as e:
            raise BaselineError(f"{path}: not a baseline (not valid JSON: {e})") from None
        if not isinstance(data, dict) or data.get(FORMAT_KEY) != VERSION:
            raise BaselineError(f"{path}: not a baseline written by 'check --write-baseline'")
        keys: Counter[Key] = Counter()
        try:
            for item in data["findings"]:
                key = (item["file"], item["game"], item["round"], item["trick"], item["code"],
                       item["seat"], item["content"])
                keys[key] += int(item.get("count", 1))
        except (KeyError, TypeError, ValueError):
            raise BaselineError(f"{path}: a finding of the baseline is malformed") from None
        return cls(path, keys)

    def match(self, d: Diagnostic, content: bytes | None) -> bool:
        """Whether ``d`` is a known finding (each recorded finding matches once)."""
        key = fingerprint(d, content, self.base)
        if self.left[key] > 0:
            self.left[key] -= 1
            self.matched += 1
            return True
        return False


def write_baseline(path: Path, findings: Iterable[tuple[Diagnostic, bytes | None]]) -> int:
    """Write the baseline of ``findings`` to ``path`` atomically; returns how many."""
    base = real_path(path).parent
    keys: Counter[Key] = Counter(fingerprint(d, content, base) for d, content in findings)
    items = [
        {"file": k[0], "game": k[1], "round": k[2], "trick": k[3], "code": k[4], "seat": k[5],
         "content": k[6], "count": n}
        for k, n in sorted(keys.items(), key=lambda kv: tuple(str(x) for x in kv[0]))
    ]
    text = json.dumps({FORMAT_KEY: VERSION, "findings": items}, indent=1, ensure_ascii=False)
    try:
        write_atomic(path, text + "\n", what="the baseline")
    except OutputError as e:
        raise BaselineError(str(e)) from None
    return sum(keys.values())
