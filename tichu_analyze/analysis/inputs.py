"""What ``report`` and ``plot`` read: a dataset, or log files ingested into a cache.

Logs given to ``report``/``plot`` are ingested once into
``$XDG_CACHE_HOME/tichu-analyze/datasets/<key>/`` (``~/.cache`` without the variable),
where the key is a SHA-256 over every file's absolute path and content, the house rules
and the dataset schema version: the next run over the same unchanged files reuses the
dataset, and a changed file gets a new one. The cache may be deleted at any time.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from ..common.atomicfile import reason
from ..data.datasets import MARKER, SCHEMA_VERSION, DatasetError
from ..readers.logfile import link_loops, real_path
from .stats import Dataset


def cache_root() -> Path:
    """Where ingested logs are cached."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tichu-analyze" / "datasets"


def is_dataset(path: Path) -> bool:
    """Whether ``path`` is a dataset directory (written by ``ingest``: its marker file, or
    a ``rounds`` table)."""
    return path.is_dir() and ((path / MARKER).is_file() or (path / "rounds").is_dir())


def cache_key(files: Sequence[Path], variants: frozenset[str] = frozenset()) -> str:
    """The cache key of ``files``: their absolute paths and contents, the house rules and
    the schema version."""
    h = hashlib.sha256(f"schema {SCHEMA_VERSION}; variants {sorted(variants)}\n".encode())
    for f in sorted(files, key=str):
        h.update(os.fsencode(real_path(f)) + b"\0")
        with open(f, "rb") as fh:
            h.update(hashlib.file_digest(fh, "sha256").digest())
    return h.hexdigest()[:40]


def open_input(paths: Sequence[Path], variants: frozenset[str] = frozenset(),
               show_progress: bool = False,
               note: Callable[[str], None] = lambda _: None) -> Dataset:
    """The dataset ``paths`` name: one dataset directory, or log files and directories
    (ingested into the cache, or taken from it). :class:`DatasetError` when they are
    neither, or a log cannot be read."""
    from ..data.datasets import ingest
    from ..readers.logfile import LOG_SUFFIXES, LogError, find_logs

    if len(paths) == 1 and (is_dataset(paths[0]) or not paths[0].exists()
                            and not link_loops(paths[0])):  # (a loop: find_logs says so)
        if variants and is_dataset(paths[0]):  # a dataset's games are replayed already
            raise DatasetError(
                f"{paths[0]} is a dataset: --variant applies to logs only (a dataset holds "
                "the games as ingest replayed them: give --variant to ingest)")
        return Dataset.load(paths[0])
    if any(is_dataset(p) for p in paths):
        raise DatasetError("give one dataset, or log files and directories, not both")
    for p in paths:
        if p.is_file() and not p.name.endswith(LOG_SUFFIXES):
            raise DatasetError(f"{p}: not a dataset directory nor a log file (.jsonl, "
                               ".jsonl.gz, .jsonl.zst, .tch)")
    try:
        files = [real_path(f) for f in find_logs(paths)]
    except LogError as e:
        raise DatasetError(str(e)) from None
    if not files:
        # a table's folder of a dataset (data/rounds, data/rounds/player=Ana): name it
        inside = next((d for p in paths for d in real_path(p).parents[:2] if is_dataset(d)),
                      None)
        hint = "" if inside is None else f"; it is inside the dataset {inside}: give that"
        raise DatasetError(", ".join(map(str, paths)) + ": not a dataset and no log files "
                           f"(.jsonl, .jsonl.gz, .jsonl.zst, .tch) in it{hint}")
    try:
        out = cache_root() / cache_key(files, variants)
    except OSError as e:
        raise DatasetError(f"{e.filename}: cannot read: {reason(e)}") from None
    if is_dataset(out):
        note(f"using the dataset cached in {out}")
        return Dataset.load(out)
    note(f"ingesting {len(files)} log file{'s' * (len(files) != 1)} into the cache {out} "
         "(reused while the logs do not change, deleted at any time; to keep no cache, "
         "ingest them yourself with 'tichu-analyze ingest LOGS --out DIR' and give DIR)")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DatasetError(f"{out.parent}: cannot create the cache: {e}") from None
    result = ingest(files, out, show_progress=show_progress, variants=variants)
    if result.errors:
        raise DatasetError("; ".join(str(e) for e in result.errors[:5])
                           + ": nothing was ingested")
    return Dataset.load(out)
