"""Untrusted text (player names, game ids, messages quoting a log) made safe to show.

Logs come from strangers. A name may hold an escape sequence (which a terminal
obeys: a new window title, a cleared screen), a carriage return or a newline (which
forge a line of output, such as a fake diagnostic), bidi overrides, or twenty
megabytes. Every output passes such text through one of these functions:

* :func:`clean` for a terminal and for line-oriented formats (``check`` text and
  github, ``report -f text``, ``replay``): control, format and separator characters
  are shown as ``\\xNN`` / ``\\uNNNN`` escapes, so the result is one printable line,
  cut to ``limit`` characters with an ellipsis;
* :func:`html_text` for HTML: :func:`clean`, then ``&<>"'`` escaped;
* :func:`json_text` for JSON written by ``json.dumps(..., ensure_ascii=False)``: the
  characters JSON leaves raw but a terminal obeys (DEL, C1 controls such as CSI, bidi
  overrides, line and paragraph separators) escaped as ``\\uNNNN``; nothing is cut.

Datasets keep names whole: they are data, not output.
"""

from __future__ import annotations

import html

ELLIPSIS = "\u2026"

NAME_LIMIT = 64
"""Characters of a name (player, game id) shown before it is cut."""

TEXT_LIMIT = 2000
"""Characters of a longer text (a message, a file name) shown before it is cut."""

_KEEP = " \u00a0"  # spaces that are not printable by str.isprintable's standard


def clean(text: object, limit: int | None = TEXT_LIMIT) -> str:
    """``text`` as one printable line: every character that is not printable (C0 and
    C1 controls, DEL, line and paragraph separators, bidi and other format characters)
    escaped as ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``; then, when longer than
    ``limit`` characters (None: no limit), cut with an ellipsis."""
    s = str(text)
    if limit is not None and len(s) > limit:
        s = s[: max(limit - 1, 0)]
        cut = True
    else:
        cut = False
    if not s.isprintable():
        out = []
        for ch in s:
            if ch.isprintable() or ch in _KEEP:
                out.append(ch)
            else:
                n = ord(ch)
                out.append(f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000
                           else f"\\U{n:08x}")
        s = "".join(out)
        if limit is not None and len(s) > limit:
            s = s[: max(limit - 1, 0)]
            cut = True
    return s + ELLIPSIS if cut else s


def name(text: object) -> str:
    """A player name or game id for output: :func:`clean`, cut at :data:`NAME_LIMIT`."""
    return clean(text, NAME_LIMIT)


def html_text(text: object, limit: int | None = TEXT_LIMIT) -> str:
    """``text`` for HTML (element content or a quoted attribute): :func:`clean`, then
    ``& < > " '`` escaped."""
    return html.escape(clean(text, limit), quote=True)


def _json_escape(ch: str) -> str:
    n = ord(ch)
    if n < 0x10000:
        return f"\\u{n:04x}"
    n -= 0x10000  # a UTF-16 surrogate pair, as JSON spells characters beyond the BMP
    return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"


def json_text(encoded: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with every character that
    is not printable (DEL, C1 controls, bidi and other format characters, line and
    paragraph separators, lone surrogates) escaped as ``\\uNNNN``: the same JSON value,
    with nothing in it a terminal acts on. (``json.dumps`` escapes C0 controls itself;
    newlines and spaces outside strings, from ``indent``, are kept.)"""
    if encoded.isascii() and "\x7f" not in encoded:
        return encoded
    return "".join(ch if ch.isprintable() or ch in "\n " else _json_escape(ch)
                   for ch in encoded)


def plural(n: int, word: str) -> str:
    """``n word`` with an ``s`` unless ``n`` is 1: ``plural(1, "file")`` is ``1 file``."""
    return f"{n} {word}{'s' * (n != 1)}"
