"""Writing an output file atomically: all of it, or nothing and the old file intact.

Every command that writes a file (``check -o``, ``report -o``, ``replay -o``,
``plot -o``, ``convert``, ``simulate``) writes through :func:`atomic_writer`:

* the text goes to a hidden temporary file beside the output
  (``.NAME.PID.XXXXXXXX.tmp``), which is renamed over the output only when complete,
  so a reader never sees half a file and a full disk or a crash leaves the old file
  as it was;
* any error of the output (no space left, no permission, a directory in the way)
  is an :class:`OutputError` naming the path the user gave, never the temporary
  file, and is not an ``OSError``: it cannot be mistaken for a problem of an input;
* temporary files left by killed runs (their process no longer exists) are removed
  the next time the same output is written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .errors import TichuAnalyzeError


class OutputError(TichuAnalyzeError):
    """An output that cannot be written; the message names the output."""


LOOP = "a loop of symbolic links (each leads to the next, and none to a file)"
"""Why a path whose links loop (``ln -s a.jsonl a.jsonl``) cannot be read."""


def reason(e: BaseException) -> str:
    """Why ``e`` happened, in words: an ``OSError``'s text without its errno and the path
    (``[Errno 30] Read-only file system: '/x/.ds.lock'``: ``Read-only file system``)."""
    if isinstance(e, OSError) and e.errno == errno.ELOOP:
        return LOOP
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, but is not ours
        return True
    return True


def remove_stale(path: Path, pattern: str) -> int:
    """Remove the leftovers of killed runs beside ``path``: entries of its folder whose name
    matches ``pattern`` (a regular expression with a group ``pid``) and whose process is
    gone. Returns how many were removed; errors are ignored (best effort)."""
    import shutil

    found = 0
    try:
        entries = list(os.scandir(path.parent or Path(".")))
    except OSError:
        return 0
    rx = re.compile(pattern)
    for entry in entries:
        m = rx.fullmatch(entry.name)
        if m is None or _alive(int(m.group("pid"))):
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            found += 1
        except OSError:
            pass
    return found


def not_a_folder(path: str | os.PathLike[str]) -> str | None:
    """Why the folder ``path`` cannot be made, when ``path`` or the first of its parents
    that exists is not a directory (``PATH: X is a file, not a folder``); else None."""
    for p in (Path(path), *Path(path).parents):
        if os.path.lexists(p):
            if p.is_dir():
                return None
            return f"{p} is a file, not a folder" if p == Path(path) else \
                f"{path}: {p} is a file, not a folder"
    return None


def temp_pattern(path: Path) -> str:
    """The names :func:`atomic_writer` gives its temporary files for ``path`` (this and
    the earlier ``.NAME.PID.tmp``)."""
    return re.escape(f".{path.name}.") + r"(?P<pid>\d+)(\.[0-9a-f]{8})?\.tmp"


class OutputClosed(OutputError):
    """The reader of the output went away (a closed pipe, as in ``... | head``)."""


def _failed(e: OSError, shown: str, what: str = "") -> OutputError:
    if isinstance(e, BrokenPipeError):
        return OutputClosed(f"{shown}: closed by its reader")
    return OutputError(f"{shown}: cannot write{what}: {reason(e)}")


class Guarded:
    """A file whose write errors are :class:`OutputError` naming the output (so that
    they are never taken for the error of an input being read at the same time)."""

    def __init__(self, f: IO[Any], shown: str, what: str = "") -> None:
        self._f = f
        self._shown = shown
        self._what = what

    def write(self, data: Any) -> int:
        try:
            return self._f.write(data)
        except OSError as e:
            raise _failed(e, self._shown, self._what) from None

    def flush(self) -> None:
        try:
            self._f.flush()
        except OSError as e:
            raise _failed(e, self._shown, self._what) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._f, name)


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str], *, binary: bool = False,
                  what: str = "") -> Iterator[Any]:
    """A file to write ``path`` through: renamed over ``path`` when the block ends
    normally, removed on any exception (``path`` is then left as it was).

    Raises :class:`OutputError` (naming ``path``, and ``what`` it is when given: ``PATH:
    cannot write the baseline: ...``) when the output cannot be written.
    """
    what = f" {what}" if what else ""
    path = Path(path)
    shown = str(path)
    if path.is_dir():
        raise OutputError(f"{shown}: is a directory (give a file name to write)")
    remove_stale(path, temp_pattern(path))
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        f = open(tmp, "wb") if binary else open(tmp, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as e:
        missing = isinstance(e, FileNotFoundError) and not path.parent.exists()
        where = f" (the folder {path.parent} does not exist)" if missing else ""
        raise OutputError(f"{shown}: cannot write{what}: {reason(e)}{where}") from None
    try:
        try:
            yield Guarded(f, shown, what)
        except BaseException:
            with contextlib.suppress(OSError):
                f.close()
            raise
        try:  # complete: to the disk, then in place of the old file
            f.flush()
            os.fsync(f.fileno())
            f.close()
            os.replace(tmp, path)
        except OSError as e:
            with contextlib.suppress(OSError):
                f.close()
            raise OutputError(f"{shown}: cannot write{what}: {reason(e)}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_atomic(path: str | os.PathLike[str], data: str | bytes, what: str = "") -> None:
    """Write ``data`` (text as UTF-8) to ``path`` atomically; :class:`OutputError` when it
    cannot be written (saying ``what`` it is, when given)."""
    with atomic_writer(path, binary=isinstance(data, bytes), what=what) as f:
        f.write(data)
