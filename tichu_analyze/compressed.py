"""A ``.gz`` log read to where it was cut, as a ``.zst`` one is (outside the compiled
:mod:`tichu_analyze.logfile`: mypyc compiles no subclass of :class:`io.RawIOBase`)."""

from __future__ import annotations

import gzip
import io
from typing import IO


class _UntilCut(io.RawIOBase):
    """The decompressed bytes of a gzip stream, ending where the file ends even when that
    is before the end-of-stream marker (a truncated file): the lines before the cut are
    read, and the cut line is an unreadable line, not the end of the whole file."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._gzip = gzip.GzipFile(fileobj=raw, mode="rb")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        try:  # one step at a time: a longer read would lose what it got before the cut
            data = self._gzip.read1(len(buffer))
        except EOFError:  # cut before the end-of-stream marker
            return 0
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._gzip.close()
        super().close()


def gzip_reader(raw: IO[bytes]) -> IO[bytes]:
    """``raw`` (gzip-compressed) as decompressed bytes, to where the file was cut."""
    return io.BufferedReader(_UntilCut(raw), 1 << 16)
