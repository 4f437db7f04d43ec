"""Reading log files: paths, compression, decoding, and feeding the replay.

The I/O edge around the pure engine. A log is read as a stream of lines (memory
does not grow with the file), each decoded by one typed ``msgspec`` decoder;
only a line that fails that fast path is decoded again, generically, to say
precisely what is wrong with it (L001, L002, L004). Brettspielwelt ``.tch``
files are converted on the fly by :mod:`tichu_analyze.readers.bsw`, keeping their own
line numbers.
"""

from __future__ import annotations

import errno
import gzip
import json
import os
import re
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import msgspec
from zstandard import ZstdError as _ZstdError

from ..common.atomicfile import LOOP, atomic_writer, reason
from ..common.errors import TichuAnalyzeError
from ..core.diagnostics import Diagnostic
from ..core.engine import Engine
from ..core.events import EVENT_TYPES, WIDE_TYPES, Event, Exchange, GameEnd, Play, widen
from ..core.visitor import DiagnosticVisitor, Visitor, only_diagnostics
from .badevent import decoder_words, describe, too_large
from .compressed import cut_at_line_end, expanded

LOG_SUFFIXES = (".jsonl", ".jsonl.gz", ".jsonl.zst", ".tch")
"""File names recognised when a directory is searched."""

MAX_LINE_BYTES = 4 << 20
"""A longer line (after decompression) is L001 and skipped without being held in memory."""

_BOM = b"\xef\xbb\xbf"


class LogError(TichuAnalyzeError):
    """A path that cannot be read as a log (missing, unreadable, corrupt)."""


@dataclass(slots=True)
class FileStats:
    """What one file held."""

    path: str
    lines: int = 0
    events: int = 0
    games: int = 0
    rounds: int = 0
    open_games: int = 0
    """Games started and not ended when the input (or its byte range) ran out."""
    game_ids: tuple[str, ...] = ()
    """The ids of the games started, for a byte range only (empty otherwise)."""


def find_logs(paths: Iterable[str | os.PathLike[str]],
              passed_over: list[Path] | None = None) -> list[Path]:
    """The log files named by ``paths``: files as given, directories searched recursively.

    Raises :class:`LogError` for a path that does not exist. A link with a log's name
    whose target is gone is found too (reading it then fails), so that a log missing
    from an archive is reported, not passed over. A file named twice (``logs/`` and
    ``logs/2024/``, or ``a.jsonl ./a.jsonl``) is listed once, where it first comes.
    ``passed_over``, if given, receives the files of the directories that are named as
    logs in a compression that is not read (``day.jsonl.xz``), so a caller can say so.
    """
    found: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found.extend(sorted(
                f for f in path.rglob("*")
                if f.name.endswith(LOG_SUFFIXES) and (f.is_file() or not f.exists())
            ))
            if passed_over is not None:
                passed_over.extend(sorted(f for f in path.rglob("*.jsonl.*")
                                          if f.name.endswith(_NOT_READ) and f.is_file()))
        elif path.is_file():
            found.append(path)
        elif os.path.islink(path) and link_loops(path):  # ln -s a.jsonl a.jsonl
            raise LogError(f"{p}: cannot read: {LOOP}")
        elif path.exists() or str(p) == "-":  # a pipe (/dev/stdin, <(zcat ...)), a device
            raise LogError(f"{p}: " + ("standard input is not read" if str(p) == "-" else
                                       "not a regular file (a pipe or a device)")
                           + "; write the log to a file and check that")
        else:
            raise LogError(f"{p}: no such file or directory")
    seen: set[str] = set()
    unique: list[Path] = []
    for f in found:  # (by the path as written, made absolute: no system call per file)
        key = os.path.normpath(os.path.abspath(f))
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique


def link_loops(path: str | os.PathLike[str]) -> bool:
    """Whether the links of ``path`` lead round in a loop (ELOOP), never to a file."""
    try:
        os.stat(path)
    except OSError as e:
        return e.errno == errno.ELOOP
    return False


def real_path(path: str | os.PathLike[str]) -> Path:
    """``path`` made absolute with its links followed (``Path.resolve``); when they loop
    (``ln -s a.jsonl a.jsonl``), made absolute as written: reading it says so."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # RuntimeError: a loop, before Python 3.13
        return Path(os.path.abspath(path))


_NOT_READ = (".bz2", ".xz", ".lzma", ".lz4", ".br", ".zip", ".7z", ".Z")
"""Compressions a log may be found in that are not read (gzip and zstd are)."""

_OTHERS = ("logs are read as they are, or compressed with gzip (.jsonl.gz) or zstd "
           "(.jsonl.zst)")
_MAGIC = ((b"\x1f\x8b", "gzip-compressed, but not named .gz: name it .jsonl.gz"),
          (b"\x28\xb5\x2f\xfd", "zstd-compressed, but not named .zst: name it .jsonl.zst"),
          (b"BZh", f"bzip2-compressed; {_OTHERS}"), (b"\xfd7zXZ\x00", f"xz-compressed; {_OTHERS}"),
          (b"PK\x03\x04", f"a zip archive; {_OTHERS}"),
          (b"PAR1", "a Parquet file, not a log (a dataset's table: 'tichu-analyze report' and "
                    "'plot' read the dataset's folder)"))
"""The first bytes of a compressed file or a Parquet table (which no line of JSON starts
with), and what to say of a log that holds one while it is named as plain text."""


def _compressed_as(head: bytes) -> str | None:
    """What a log named as plain text holds instead, judged by its first bytes (a
    phrase: ``"xz-compressed; ..."``), or None for anything else."""
    for magic, what in _MAGIC:
        if head.startswith(magic):
            return what
    return None


def _decompressed(path: Path, raw: IO[bytes]) -> IO[bytes]:
    """``raw`` as decompressed bytes, by the file's name (.gz, .zst, else as is)."""
    name = path.name
    if name.endswith(".gz"):
        from .compressed import gzip_reader

        return gzip_reader(raw)
    if name.endswith(".zst"):
        from .compressed import zstd_reader

        return zstd_reader(raw)
    return raw


def is_tch(path: Path) -> bool:
    """Whether ``path`` is a Brettspielwelt ``.tch`` log (by name, else by content)."""
    if path.name.endswith(".tch"):
        return True
    if path.name.endswith(LOG_SUFFIXES):
        return False
    from .bsw import looks_like_tch

    try:
        with open(path, "rb") as f:
            return looks_like_tch(f.read(4096))
    except OSError:
        return False


_decoder = msgspec.json.Decoder(Event)
_generic = msgspec.json.Decoder()


def _utf16_hint(raw: bytes | str) -> str:
    """A word for the operator when a line looks like text in UTF-16 (a NUL byte
    beside every character of JSON's ASCII), the usual reason a whole file is L001."""
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) >= 8 and data.count(0) * 3 >= len(data):
        return "; it looks like UTF-16 text, and logs are UTF-8"
    return ""


def _is_utf16(block: bytes) -> bool:
    """Whether a log was saved as UTF-16, judged by its first line: it starts with a
    UTF-16 byte order mark or with ``{`` beside a NUL byte, and reads in that encoding as
    a JSON object (a log in UTF-8 never starts so: 0xFF and 0xFE are not UTF-8, and JSON
    holds no NUL byte)."""
    if block.startswith(b"\xff\xfe"):
        codec, block = "utf-16-le", block[2:]
    elif block.startswith(b"\xfe\xff"):
        codec, block = "utf-16-be", block[2:]
    elif block.startswith(b"{\x00"):
        codec = "utf-16-le"
    elif block.startswith(b"\x00{"):
        codec = "utf-16-be"
    else:
        return False
    head = block[:_UTF16_PROBE]
    try:
        line = head[:len(head) & ~1].decode(codec).split("\n", 1)[0]
        return isinstance(_generic.decode(line.encode()), dict)
    except (UnicodeDecodeError, msgspec.DecodeError, RecursionError):
        return False


_UTF16_PROBE = 1 << 16


def explain(
    raw: bytes | str | dict[str, object], wide: bool = False,
) -> tuple[str, str, str | None, int | None, str | None]:
    """Why a line failed the typed decoder: ``(code, message, game, seat, type)``.

    ``code`` is ``""`` for an ``x_`` event, which is skipped without a word. ``wide``:
    the line belongs to a variant game, read with the wider shapes (``events.widen``).
    """
    huge = ""  # a number beyond the decoder's range, as it said
    if isinstance(raw, dict):
        obj: object = raw
    else:
        try:
            obj = _generic.decode(raw)
        except msgspec.ValidationError as e:  # valid JSON, a number beyond msgspec's range
            try:
                obj = json.loads(raw)  # (1e999 reads as inf; the event's fields judge it)
            except (ValueError, RecursionError):
                return "L001", f"not valid JSON ({e})", None, None, None
            huge = too_large(obj) if "out of range" in str(e) else decoder_words(str(e))
        except msgspec.DecodeError as e:
            return "L001", f"not valid JSON ({e}){_utf16_hint(raw)}", None, None, None
        except RecursionError:
            return "L001", _TOO_DEEP, None, None, None
    if not isinstance(obj, dict):
        what = f"a JSON {type(obj).__name__} where an event object is expected"
        return "L001", what, None, None, None
    game = obj.get("game")
    game_id = game if isinstance(game, str) else None
    seat = obj.get("seat")
    valid_seat = (isinstance(seat, int) and not isinstance(seat, bool)
                  and 0 <= seat < (6 if wide else 4))
    seat_no = seat if valid_seat else None
    kind = obj.get("type")
    if not isinstance(kind, str):
        return "L002", "the event has no \"type\" string", game_id, seat_no, None
    if kind.startswith("x_"):
        return "", "", game_id, seat_no, kind
    if kind not in EVENT_TYPES:
        return "L004", f"unknown event type {kind!r}; it is skipped", game_id, seat_no, kind
    try:
        msgspec.convert(obj, WIDE_TYPES[kind] if wide else EVENT_TYPES[kind])
    except msgspec.ValidationError as e:
        why = describe(kind, str(e), obj, wide)
        return "L002", f"bad {kind} event: {why}", game_id, seat_no, kind
    except RecursionError:
        return "L002", f"bad {kind} event: {_TOO_DEEP}", game_id, seat_no, kind
    if huge:
        return "L002", f"bad {kind} event: {huge}", game_id, seat_no, kind
    return "L002", f"bad {kind} event", game_id, seat_no, kind  # pragma: no cover - decoder agreed


_TOO_DEEP = "JSON nested too deeply to be read"


def replay_lines(lines: Iterable[bytes], replay: Engine,
                 tick: Callable[[], None] | None = None, first_line: int = 1) -> int:
    """Feed JSON lines to ``replay``, numbered from ``first_line``; returns the number of
    the last line read (``first_line - 1`` when there is none).

    ``tick`` is called every 65,536 lines (for a progress bar)."""
    n = first_line - 1
    blank = 0
    for n, raw in enumerate(lines, first_line):  # noqa: B007 - n is the last line number
        if tick is not None and not n & 0xFFFF:
            tick()
        if not _replay_line(n, raw, replay):
            blank += 1
    replay.events += n - first_line + 1 - blank
    return n


def replay_stream(f: IO[bytes], replay: Engine, tick: Callable[[], None] | None = None,
                  stop_after_game: str | None = None, first_line: int = 1) -> int:
    """Feed the JSON lines read from ``f`` to ``replay``, numbered from ``first_line``;
    returns the number of the last line read (``first_line - 1`` when there is none).

    Memory stays bounded whatever the input: the stream is read in blocks, and a line
    longer than :data:`MAX_LINE_BYTES` (its newline not counted) is reported as L001
    (with its length) and skipped without being held, reading on at the next newline;
    blank lines cost next to nothing. A UTF-8 byte order mark at the start is ignored.
    ``stop_after_game``: stop reading once that game's ``game_end`` has been
    replayed. ``tick`` is called after each block (1 MiB) read.
    """
    read = f.read
    decode = _decoder.decode
    feed = replay.feed
    cap = MAX_LINE_BYTES
    size = min(_BLOCK, cap)  # so only a line begun in an earlier block can be too long
    n = first_line - 1
    blank = 0
    carry = b""  # the start of a line whose end is in the next block
    skipped = 0  # bytes of an overlong line read so far (0: none)
    block = read(size)
    if first_line == 1 and block.startswith(_BOM):
        block = block[len(_BOM):]
    elif first_line == 1 and _is_utf16(block):  # one L001 for the file, not one per line
        replay.problem(1, "L001", "the file is UTF-16 text, and logs are UTF-8: it is not "
                       "read (save it as UTF-8)")
        replay.events += 1
        return 1
    while block:
        if skipped:
            end = block.find(b"\n")
            if end < 0:
                skipped += len(block)
                block = read(size)
                continue
            n += 1
            _too_long(n, skipped + end, replay)
            skipped = 0
            block = block[end + 1:]
        data = carry + block if carry else block
        lines = [] if data.count(b"\n", 0, _PROBE) > _SHORT else data.split(b"\n")
        stop = False
        if not lines or len(lines) > (len(data) >> 4) + _SHORT:  # lines of 16 bytes or less
            n, blank, carry, stop = _blank_runs(data, n, blank, replay, stop_after_game)
            lines = []  # (read: mostly blank lines, whose runs are skipped at once)
        else:
            carry = lines.pop()
        if lines and len(lines[0]) > cap:
            n += 1
            _too_long(n, len(lines[0]), replay)
            del lines[0]
        first = n + 1
        for n, raw in enumerate(lines, first):  # noqa: B007 - n is the last line number
            try:
                ev = decode(raw)
            except (msgspec.DecodeError, RecursionError):  # (blank lines too, seldom)
                if not _problem(n, raw, replay):
                    blank += 1
                continue
            kind = type(ev)
            if kind is not Exchange or not _exchange_twice(n, raw, ev, replay):  # type: ignore[arg-type]
                feed(n, ev)
            if kind is GameEnd and ev.game == stop_after_game:
                stop = True
                break
        if stop:
            break
        if tick is not None:
            tick()
        if len(carry) > cap:
            skipped, carry = len(carry), b""
        block = read(size)
    else:  # the last line, without a newline
        if skipped:
            n += 1
            _too_long(n, skipped, replay)
        elif carry:
            n += 1
            if not _replay_line(n, carry, replay):
                blank += 1
    replay.events += n - first_line + 1 - blank
    return n


_BLOCK = 1 << 20
_PROBE = 4096
_SHORT = 256
"""A block whose first :data:`_PROBE` bytes hold more lines than this, or whose lines are
16 bytes long on average, is read by :func:`_blank_runs` (no event line is that short)."""

_EMPTY_RUN = re.compile(rb"\n+")
_BLANK_RUN = re.compile(rb"[\n \t\r\x0b\x0c]*\n")
"""Blank lines (nothing but whitespace, as ``bytes.isspace``), one or more, to the last
newline of the run."""


def _blank_runs(data: bytes, n: int, blank: int, replay: Engine,
                stop_after_game: str | None) -> tuple[int, int, bytes, bool]:
    """Feed the lines of ``data`` (lines ``n + 1`` on) to ``replay`` as the reading loop of
    :func:`replay_stream` does, skipping each run of blank lines in one step (a regular
    expression and a count, in C) instead of line by line: a compressed file of a billion
    blank lines costs about the time of its decompression. Returns the number of the last
    line read, the blank lines counted, the line begun at the end (the carry) and whether
    ``stop_after_game`` ended."""
    decode = _decoder.decode
    last = data.rfind(b"\n")
    pos = 0
    end = data.find(b"\n")
    if end > MAX_LINE_BYTES:  # (the line begun in an earlier block)
        n += 1
        _too_long(n, end, replay)
        pos = end + 1
    empty = _EMPTY_RUN.match
    run = _BLANK_RUN.match
    while pos <= last:
        m = empty(data, pos, last + 1)  # (the usual run: empty lines; their number at once)
        if m is not None:
            n += m.end() - pos
            blank += m.end() - pos
            pos = m.end()
            continue
        m = run(data, pos, last + 1)
        if m is not None:
            k = data.count(b"\n", pos, m.end())
            n += k
            blank += k
            pos = m.end()
            continue
        end = data.find(b"\n", pos)
        raw = data[pos:end]
        pos = end + 1
        n += 1
        try:
            ev = decode(raw)
        except (msgspec.DecodeError, RecursionError):
            if not _problem(n, raw, replay):
                blank += 1
            continue
        if type(ev) is not Exchange or not _exchange_twice(n, raw, ev, replay):
            replay.feed(n, ev)
        if type(ev) is GameEnd and ev.game == stop_after_game:
            return n, blank, b"", True
    return n, blank, data[last + 1:], False


def _too_long(n: int, size: int, replay: Engine) -> None:
    replay.problem(n, "L001", f"line of {size:,} bytes, longer than the "
                   f"{MAX_LINE_BYTES:,} bytes a line may have; it is skipped")


def _replay_line(n: int, raw: bytes, replay: Engine) -> bool:
    """Feed line ``n`` to ``replay``; False for a blank line."""
    try:
        ev = _decoder.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        return _problem(n, raw, replay)
    if type(ev) is not Exchange or not _exchange_twice(n, raw, ev, replay):
        replay.feed(n, ev)
    return True


def _problem(n: int, raw: bytes, replay: Engine) -> bool:
    """Report why line ``n`` failed the typed decoder; False for a blank line. A line of
    a variant game (six seats, trichu's per-person totals) is read again with the wider
    shapes of ``events.widen`` and, when it fits them, applied."""
    if raw.isspace() or not raw:
        return False  # blank lines are ignored
    wide = False
    try:
        obj = _generic.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        obj = None
    if isinstance(obj, dict) and "phoenix" in obj and obj.get("type") == "play":
        cards = obj.get("cards")
        if isinstance(cards, list) and "Phoenix" not in cards:
            # rules.md 8, settled readings: a phoenix field on a play without the Phoenix
            # is ignored, whatever its value ("Z", 7): the play is read without it
            obj = {k: v for k, v in obj.items() if k != "phoenix"}
            try:
                play = msgspec.convert(obj, Play)
            except (msgspec.ValidationError, RecursionError):
                pass  # (another field is wrong, or a variant's seat: read on below)
            else:
                replay.feed(n, play)
                return True
    if isinstance(obj, dict):
        game_id = obj.get("game")
        start = obj.get("type") == "game_start"
        wide = isinstance(game_id, str) and replay.wide(
            game_id, obj.get("variants") if start else None)
        players = obj.get("players")
        if wide or start and isinstance(players, list) and len(players) == 6:
            # (six players without tientsin: the engine says why they are refused)
            try:
                ev = widen(obj)
            except (msgspec.ValidationError, KeyError, TypeError, RecursionError):
                pass
            else:
                if type(ev) is not Exchange or not _exchange_twice(n, raw, ev, replay, True):
                    replay.feed_wide(n, ev)
                return True
    code, message, game, seat, kind = explain(obj if isinstance(obj, dict) else raw, wide)
    if code == "L001" and b'"game_start"' in raw:  # (not JSON: its id, for the L005s after)
        game = _start_id(raw)
        if game is not None and game not in replay.games:
            kind = "game_start"
        else:
            game = None
    if code:
        replay.problem(n, code, message, game, seat, kind)
    return True


_GAME_ID = re.compile(rb'"game"\s*:\s*"([^"\\]{1,200})"')


def _start_id(raw: bytes) -> str | None:
    """The game id a ``game_start`` line that is not JSON seems to name (a plain string
    in valid UTF-8), or None. It is looked for first in the object that names
    ``game_start``: when a recorder crashed in the middle of a line and started again,
    the cut line runs into the new game's ``game_start``, and the id the cut line
    names first is the old game's."""
    begin = raw.rfind(b"{", 0, raw.rfind(b'"game_start"'))
    m = _GAME_ID.search(raw, begin) if begin > 0 else None
    if m is None:
        m = _GAME_ID.search(raw)
    if m is None:
        return None
    try:
        return m.group(1).decode("utf-8")
    except UnicodeDecodeError:
        return None


def _exchange_twice(n: int, raw: bytes, ev: Exchange, replay: Engine,
                    wide: bool = False) -> bool:
    """X001 when the exchange ``raw`` names a seat twice in ``give`` (True then)."""
    if (raw.count(b'"1"') > 1 or raw.count(b'"2"') > 1
            or raw.count(b'"3"') > 1 or raw.count(b'"0"') > 1 or (wide and (
                raw.count(b'"4"') > 1 or raw.count(b'"5"') > 1))):
        twice = _repeated_key(raw)
        if twice is not None:
            replay.problem(n, "X001", f"bad exchange: seat {twice} is named twice in "
                           "\"give\"; the rest of the round is not checked", ev.game,
                           ev.seat, "exchange")
            return True
    return False


class _Range:
    """The bytes of a file from ``start`` (a line start) to ``end``, read like a file."""

    def __init__(self, f: IO[bytes], start: int, end: int) -> None:
        f.seek(start)
        self._f = f
        self._left = end - start

    def read(self, size: int = -1) -> bytes:
        if self._left <= 0:
            return b""
        want = self._left if size < 0 else min(size, self._left)
        data = self._f.read(want)
        self._left -= len(data)
        return data


def _repeated_key(raw: bytes) -> str | None:
    """A key named twice in one JSON object of ``raw`` (decoders keep only the last)."""
    repeated: list[str] = []

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        seen = set()
        for key, _ in items:
            if key in seen:
                repeated.append(key)
            seen.add(key)
        return dict(items)

    try:
        json.loads(raw, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return None
    return repeated[0] if repeated else None


def replay_tch(source: bytes | IO[bytes], game_id: str, replay: Engine) -> int:
    """Convert a ``.tch`` file (its bytes, or a binary file read as a stream) and feed
    it to ``replay``; returns its number of lines. When ``replay``'s visitor wants
    diagnostics alone (``check``), the reader follows the play on ``replay`` itself
    and each event is replayed once; otherwise it follows a replay of its own."""
    from .bsw import TchLines, Unreadable, check_tch, read_tch

    lines = TchLines(source)
    if only_diagnostics(replay.visitor):
        replay.events += check_tch(lines, game_id, replay)
        return lines.count
    feed = replay.feed
    n = 0
    for line, item in read_tch(lines, game_id, variants=replay.variants):
        n += 1
        if isinstance(item, Unreadable):
            replay.problem(line, "L002", f"line not understood: {item.message}", game_id)
        else:
            feed(line, item)
    replay.events += n
    return lines.count


def replay_file(
    path: str | os.PathLike[str],
    visitor: Visitor,
    *,
    display: str | None = None,
    progress: Callable[[int], None] | None = None,
    variants: frozenset[str] = frozenset(),
    stop_after_game: str | None = None,
    start: int = 0,
    end: int | None = None,
    first_line: int = 1,
) -> FileStats:
    """Replay every game of one log file; ``visitor`` follows it
    (:class:`~tichu_analyze.core.visitor.Visitor`: games, rounds, events, tricks, and the
    diagnostics as they are found).

    ``display``: the file's name in diagnostics (default: ``path``). ``progress``, if
    given, is called now and then with the number of bytes of the file (compressed
    bytes for a compressed file) read so far.
    ``stop_after_game``: stop reading a JSON-lines log once that game has ended.
    ``start``, ``end`` and ``first_line`` replay only the lines of an uncompressed
    JSON-lines file between two byte offsets (``start`` at a line start, which is
    line ``first_line``): a work unit of a log split at game boundaries.
    Raises :class:`LogError` when the file cannot be read.
    """
    path = Path(path)  # (a str too, as check_file takes)
    name = display or str(path)
    replay = Engine(name, visitor, variants=variants)
    if is_tch(path):
        try:
            with open(path, "rb") as tch:
                last = replay_tch(tch, tch_game_id(path), replay)
        except OSError as e:
            raise LogError(f"{name}: cannot read: {reason(e)}") from e
    else:
        try:
            raw = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as e:
            raise LogError(f"{name}: cannot read: {reason(e)}") from e
        if not start and not path.name.endswith((".gz", ".zst")):
            try:
                packed = _compressed_as(raw.peek(8)[:8])
            except OSError:
                packed = None  # (the read below says why)
            if packed is not None:
                raw.close()
                raise LogError(f"{name}: cannot read: the file is {packed}")
        with raw, _decompressed(path, raw) as f:
            tick = None if progress is None else (lambda: progress(raw.tell()))
            stream: Any = f
            if start or end is not None:
                stream = _Range(f, start, end if end is not None else 1 << 62)
            try:
                last = replay_stream(stream, replay, tick, stop_after_game, first_line)
            except (OSError, EOFError, zlib.error, _ZstdError) as e:
                # reading or decompressing failed (visitors raise nothing of
                # these: the dataset writer carries its own errors)
                raise LogError(f"{name}: cannot read: {reason(e)}") from e
            if expanded(f):  # the rest is not read: the work per compressed byte is bounded
                from .compressed import EXPANSION

                last += 1
                replay.problem(last, "L001", "the file decompresses to more than "
                               f"{EXPANSION:,} times its compressed size (a compression "
                               "bomb?): the rest of it is not read")
            elif cut_at_line_end(f):  # no cut line is L001 for it
                last += 1
                replay.problem(last, "L001", "the file ends inside its compressed data, "
                               "before the end-of-stream marker: it was cut here, and what "
                               "followed is lost")
    still_open = sum(1 for game in replay.games.values() if not game.ended)
    replay.finish(last)
    ids = tuple(replay.games) if start or end is not None else ()
    return FileStats(name, last, replay.events, len(replay.games), replay.rounds, still_open,
                     ids)




def tch_game_id(path: Path) -> str:
    """The game id of a ``.tch`` file: its name without the extension."""
    name = path.name
    return name[:-4] if name.endswith(".tch") else name


def check_file(path: str | os.PathLike[str],
               variants: frozenset[str] = frozenset()) -> list[Diagnostic]:
    """Every diagnostic of one log file, in the order found."""
    found: list[Diagnostic] = []
    replay_file(Path(path), DiagnosticVisitor(found.append), variants=variants)
    return found


def write_log(events: Iterable[dict[str, object]], path: str | os.PathLike[str]) -> int:
    """Write format-1 ``events`` to ``path`` as JSON lines; return how many were written.

    One compact JSON object per line, keys in the order the events hold them,
    ``\\n`` line ends, UTF-8. A path ending in ``.gz`` or ``.zst`` is
    compressed (with no timestamp in the gzip header), so the same events
    always give the same bytes. The file appears only when complete: it is
    written to a temporary name beside it and renamed at the end
    (:func:`tichu_analyze.common.atomicfile.atomic_writer`; its errors are
    :class:`~tichu_analyze.common.atomicfile.OutputError`).
    """
    return write_lines(map(event_line, events), path)


def event_line(event: dict[str, object]) -> bytes:
    """One event as the line :func:`write_log` writes for it."""
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def write_lines(lines: Iterable[bytes], path: str | os.PathLike[str]) -> int:
    """Write ``lines`` (each ending in ``\\n``) to ``path`` as :func:`write_log` does
    (compressed by the name, atomically); return how many were written."""
    n = 0
    with atomic_writer(path, binary=True) as raw:
        sink: IO[bytes]
        if str(path).endswith(".gz"):
            sink = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0)  # type: ignore[assignment]
        elif str(path).endswith(".zst"):
            import zstandard

            sink = zstandard.ZstdCompressor().stream_writer(raw, closefd=False)
        else:
            sink = raw
        for line in lines:
            sink.write(line)
            n += 1
        if sink is not raw:
            sink.close()
    return n
