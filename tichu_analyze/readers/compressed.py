"""A ``.gz`` or ``.zst`` log read to where it was cut, knowing whether it was (outside the
compiled :mod:`tichu_analyze.readers.logfile`: mypyc compiles no subclass of :class:`io.RawIOBase`).

A file cut inside its compressed data gives the lines before the cut; the cut line is an
unreadable line (L001). When the cut falls at a line end (or before the first line, or, in
a ``.zst``, before the end of the first block, whose bytes are all lost) no line is
unreadable: :func:`cut_at_line_end` tells the reader to report the cut itself."""

from __future__ import annotations

import gzip
import io
from typing import IO

EXPANSION = 4096
"""A compressed log gives at most this many bytes per compressed byte read (beyond the
first :data:`EXPANSION_FREE` bytes); the rest of a file that expands more is not read:
the work per compressed byte is bounded, as memory per line is. gzip cannot expand more
than 1,032 times; zstd can, 32,768 times (1 MB of a compressed run of blank lines holds
32 GB of them); a log of games expands some 10 to 50 times."""

EXPANSION_FREE = 64 << 20


class _Cuttable(io.RawIOBase):
    """Decompressed bytes that end where the file ends; ``cut``: the file ended before its
    end-of-stream marker; ``last``: the last byte given (None: none); ``expanded``: the
    reading stopped where the bytes given passed :data:`EXPANSION` times the compressed
    bytes read."""

    cut = False
    expanded = False
    last: int | None = None
    _given = 0

    def readable(self) -> bool:
        return True

    def _too_much(self, raw: IO[bytes], n: int) -> bool:
        """Count ``n`` bytes given; whether they pass the bound (then ``expanded``)."""
        self._given += n
        if self._given > EXPANSION_FREE:
            try:
                read = raw.tell()
            except (OSError, ValueError):
                return False
            if self._given > EXPANSION * read + EXPANSION_FREE:
                self.expanded = True
        return self.expanded


class _UntilCut(_Cuttable):
    """The decompressed bytes of a gzip stream, ending where the file ends even when that
    is before the end-of-stream marker (a truncated file): the lines before the cut are
    read, and the cut line is an unreadable line, not the end of the whole file."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw
        self._gzip = gzip.GzipFile(fileobj=raw, mode="rb")

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.expanded:
            return 0
        try:  # one step at a time: a longer read would lose what it got before the cut
            data = self._gzip.read1(len(buffer))
        except EOFError:  # cut before the end-of-stream marker
            self.cut = True
            return 0
        if self._too_much(self._raw, len(data)):
            return 0
        buffer[: len(data)] = data
        if data:
            self.last = data[-1]
        return len(data)

    def close(self) -> None:
        self._gzip.close()
        super().close()


def gzip_reader(raw: IO[bytes]) -> IO[bytes]:
    """``raw`` (gzip-compressed) as decompressed bytes, to where the file was cut."""
    return io.BufferedReader(_UntilCut(raw), 1 << 16)


class _ZstdUntilCut(_Cuttable):
    """The decompressed bytes of a zstd stream (its frames one after the other). The
    decompressor ends quietly where a cut file ends; the frames are then walked to see
    whether the last one is whole."""

    def __init__(self, raw: IO[bytes]) -> None:
        import zstandard

        self._raw = raw
        self._reader = zstandard.ZstdDecompressor().stream_reader(raw, closefd=False)
        self._ended = False

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._ended or self.expanded:
            return 0
        n: int = self._reader.readinto(buffer)
        if n and self._too_much(self._raw, n):
            return 0
        if n:
            self.last = buffer[n - 1]
            return n
        self._ended = True
        self.cut = _zstd_cut(self._raw)
        return 0

    def close(self) -> None:
        self._reader.close()  # type: ignore[no-untyped-call]
        super().close()


_ZSTD_MAGIC = 0xFD2FB528


def _zstd_cut(raw: IO[bytes]) -> bool:
    """Whether the file ``raw`` ends inside a zstd frame: its last frame is cut (RFC 8878:
    a frame header, blocks each with a 3-byte header, the last one marked, an optional
    4-byte checksum; skippable frames). False when ``raw`` cannot be walked (not
    seekable) or holds what is not a zstd frame (the decompressor says so)."""
    if not raw.seekable():
        return False
    try:
        size = raw.seek(0, io.SEEK_END)
        pos = 0
        while pos < size:
            raw.seek(pos)
            head = raw.read(14)
            if len(head) < 4:
                return True
            magic = int.from_bytes(head[:4], "little")
            if magic & 0xFFFFFFF0 == 0x184D2A50:  # a skippable frame: its size follows
                if len(head) < 8:
                    return True
                pos += 8 + int.from_bytes(head[4:8], "little")
                continue
            if magic != _ZSTD_MAGIC or len(head) < 5:
                return magic == _ZSTD_MAGIC
            fhd = head[4]
            single = fhd >> 5 & 1
            pos += (5 + (0 if single else 1) + (0, 1, 2, 4)[fhd & 3]
                    + (single, 2, 4, 8)[fhd >> 6])
            while True:  # the blocks
                raw.seek(pos)
                block = raw.read(3)
                if len(block) < 3:
                    return True
                header = int.from_bytes(block, "little")
                pos += 3 + (1 if header >> 1 & 3 == 1 else header >> 3)  # RLE: one byte
                if header & 1:
                    break
            pos += 4 if fhd >> 2 & 1 else 0  # the checksum
        return pos > size
    finally:
        raw.seek(0, io.SEEK_END)


def zstd_reader(raw: IO[bytes]) -> IO[bytes]:
    """``raw`` (zstd-compressed) as decompressed bytes, to where the file was cut."""
    return io.BufferedReader(_ZstdUntilCut(raw), 1 << 16)


def expanded(f: IO[bytes]) -> bool:
    """Whether the reading of ``f`` (a reader of this module) stopped at the bound of
    :data:`EXPANSION` bytes per compressed byte."""
    raw = getattr(f, "raw", None)
    return isinstance(raw, _Cuttable) and raw.expanded


def cut_at_line_end(f: IO[bytes]) -> bool:
    """Whether ``f`` (a reader of this module, read to its end) was cut before its
    end-of-stream marker where its decompressed bytes end at a line end or hold none: no
    unreadable line then shows the cut, and the caller reports it."""
    raw = getattr(f, "raw", None)
    return isinstance(raw, _Cuttable) and raw.cut and raw.last in (None, 10)
