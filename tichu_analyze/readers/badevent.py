"""Why an event of a known type was refused (L002), in words a log's writer understands.

The typed decoder (``events``) says what it wanted in its own terms ("Expected `int` <=
3 - at `$.seat`"). :func:`describe` turns such a message into a sentence that names the
field, quotes what the line holds (shortened, see :func:`show`) and says what is
expected: "`seat` is 7; a seat is a whole number from 0 to 3". A message it does not
recognise is returned in the decoder's own words, so nothing is lost.

Only malformed lines come here: nothing of this is on the path of a valid event.
"""

from __future__ import annotations

import math
import re

from ..common.safetext import ELLIPSIS, clean, plural

SHOW_LIMIT = 40
"""Characters of a value quoted in a message before it is cut."""

_MISSING = re.compile(r"Object missing required field `(\w+)`")
_TYPE = re.compile(r"Expected `([^`]*)`, got `(\w+)` - at `\$\.(\w+)((?:\[(?:\d+|\.\.\.)\])*)`")
_BOUND = re.compile(
    r"Expected `(int|array)`( of length)? (<=|>=) (\d+) - at `\$\.(\w+)((?:\[\d+\])*)`")
_RANGE = re.compile(r"Number out of range - at `\$\.(\w+)((?:\[\d+\])*)`")
_ENUM = re.compile(r"Invalid enum value .* - at `\$\.(\w+)`")
_INDEX = re.compile(r"\[(\d+|\.\.\.)\]")

_SEAT = "a seat is a whole number from 0 to {hi}"
_CARD = 'a card is a card token (text), such as "Kj"'

_EXPECT: dict[str, str] = {
    "game": "it must be text (the game's id)",
    "ts": "it must be a number (seconds since 1970) or left out",
    "seat": _SEAT,
    "to": _SEAT,
    "call": 'it must be "grand_tichu" or "tichu"',
    "give": 'it must be an object of one card per receiving seat, such as '
            '{"1": "7j", "2": "Ar", "3": "2s"}',
    "cards": 'it must be a list of one card token or more, such as ["Kj", "Ks"]',
    "phoenix": 'it must be the rank the Phoenix stands for ("2" to "10", "J", "Q", "K" '
               'or "A") or left out',
    "players": "it must be a list of the players' names, one per seat ({n})",
    "target": "it must be a whole number of at least 1, or left out",
    "meta": "it must be an object (free-form details) or left out",
    "variants": 'it must be a list of variant names, such as ["tientsin"], or left out',
    "round": "it must be a whole number (the round's number)",
    "dummy": "it must be a whole number (the dummy's seat) or left out",
    "hands": "it must be a list of hands, one per seat ({n}), each a list of card tokens",
    "finish_order": "it must be the seats in the order they went out ({n}), or left out",
    "score": "it must be the points of the two teams, such as [125, -25], or left out",
}
"""What a field must hold, by field name (:data:`_EXPECT_OF` where an event differs)."""

_EXPECT_OF: dict[tuple[str, str], str] = {
    ("round_start", "players"): "it must be a list of the players' names, one per seat "
                                "({n}), or left out",
    ("round_end", "round"): "it must be a whole number (the round's number) or left out",
    ("game_end", "score"): "it must be the totals of the two teams, such as [1025, 640] "
                           "(in trichu an object of the persons' totals), or left out",
}

_ITEM: dict[str, tuple[str, str]] = {
    "hands": ("hand", "each hand must be a list of card tokens"),
    "players": ("name", "a player's name is text"),
    "variants": ("name", "a variant's name is text"),
    "cards": ("card", _CARD),
    "give": ("card", 'each seat is given one card token (text), such as "7j"'),
    "finish_order": ("seat", _SEAT),
    "score": ("number", "points are whole numbers"),
}
"""A list's (or object's) items, by field: their noun and what each must be."""

_IS: dict[str, type | tuple[type, ...]] = {
    "array": list, "object": dict, "str": str, "float": float, "bool": bool,
    "null": type(None), "int": int,
}
"""The decoder's names of JSON types -> the Python types the generic decoder gives."""


def show(value: object, limit: int = SHOW_LIMIT) -> str:
    """``value`` as the log spells it (JSON), shortened to about ``limit`` characters
    with an ellipsis, every unprintable character escaped (``safetext.clean``)."""
    out: list[str] = []
    _render(value, out, limit)
    text = "".join(out)
    if len(text) > limit and not isinstance(value, str):  # a text is cut inside its quotes
        text = text[:limit] + ELLIPSIS
    return clean(text, None)


def _render(value: object, out: list[str], budget: int) -> int:
    """Append ``value``'s JSON spelling to ``out``, stopping once about ``budget``
    characters are written (so a huge or deep value costs no more); returns the budget
    left."""
    if budget <= 0:
        return budget
    if value is None or isinstance(value, bool):
        text = "null" if value is None else "true" if value else "false"
    elif isinstance(value, int):
        text = str(value) if value.bit_length() <= 128 else "a very large number"
    elif isinstance(value, float):
        text = repr(value) if math.isfinite(value) else "a number too large to read"
    elif isinstance(value, str):
        cut = value[:budget]
        text = '"' + cut.replace("\\", "\\\\").replace('"', '\\"') + (
            ELLIPSIS if len(value) > budget else "") + '"'
    elif isinstance(value, (list, dict)):
        out.append("[" if isinstance(value, list) else "{")
        budget -= 1
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for i, (key, item) in enumerate(items):
            if budget <= 0:
                return budget
            if i:
                out.append(", ")
                budget -= 2
            if isinstance(value, dict):
                budget = _render(key, out, budget)
                out.append(": ")
                budget -= 2
            budget = _render(item, out, budget)
        out.append("]" if isinstance(value, list) else "}")
        return budget - 1
    else:  # pragma: no cover - the JSON decoders give nothing else
        text = type(value).__name__
    out.append(text)
    return budget - len(text)


def _kind_of(value: object) -> str:
    """A word on a value's JSON type, where its spelling alone may not say it."""
    if isinstance(value, str):
        return " (text)"
    if isinstance(value, list):
        return " (a list)"
    if isinstance(value, dict):
        return " (an object)"
    return ""


def _is(value: object, json_type: str) -> bool:
    """Whether ``value`` is of the decoder's JSON type ``json_type`` (``int``: not bool)."""
    want = _IS.get(json_type)
    if want is None or (json_type == "int" and isinstance(value, bool)):
        return False
    return isinstance(value, want)


def _at(obj: dict[str, object], field: str, indexes: str,
        got: str | None) -> tuple[str, object] | None:
    """The place (``hands[2]``, ``give["1"]``) and value the decoder's path points at;
    ``[...]`` (a value of an object) is the first of the object's values of JSON type
    ``got``. None when the path does not lead to a value."""
    if field not in obj:
        return None
    value = obj[field]
    place = f"`{field}"
    for index in _INDEX.findall(indexes):
        if index == "...":
            if not isinstance(value, dict) or got is None:
                return None
            found = [(k, v) for k, v in value.items() if _is(v, got)]
            if not found:
                return None
            key, value = found[0]
            place += f"[{show(key)}]"
        else:
            i = int(index)
            if not isinstance(value, list) or i >= len(value):
                return None
            value = value[i]
            place += f"[{i}]"
    return place + "`", value


def _expect(kind: str, field: str, depth: int, wide: bool, hi: int | None) -> str:
    """What ``field`` (``depth`` 0) or an item in it (``depth`` 1 or 2) must be."""
    if depth == 0:
        text = _EXPECT_OF.get((kind, field), _EXPECT.get(field, ""))
    elif depth == 2 and field == "hands":
        text = _CARD
    else:
        text = _ITEM[field][1] if field in _ITEM else ""
    seats = "4 to 6" if wide else "4"
    top = hi if hi is not None else 5 if wide else 3
    return text.replace("{hi}", str(top)).replace("{n}", seats)


def describe(kind: str, error: str, obj: dict[str, object], wide: bool = False) -> str:
    """Why the ``kind`` event ``obj`` is refused, from the decoder's ``error`` message
    (``msgspec.ValidationError``), as a sentence: the field, what it holds, what it must
    hold. ``wide``: it was read with a variant's wider shapes (``events.WIDE_TYPES``).
    The decoder's own words when the message is not one of the known forms."""
    m = _MISSING.fullmatch(error)
    if m:
        return f"the field `{m[1]}` is missing"
    m = _TYPE.fullmatch(error)
    if m:
        found = _at(obj, m[3], m[4], m[2])
        expect = _expect(kind, m[3], m[4].count("["), wide, None)
        if found is not None and expect:
            return f"{found[0]} is {show(found[1])}{_kind_of(found[1])}; {expect}"
    m = _BOUND.fullmatch(error)
    if m:
        field, depth, bound = m[5], m[6].count("["), int(m[4])
        found = _at(obj, field, m[6], None)
        if m[2] and field in _ITEM and found is not None and isinstance(found[1], list):
            size = len(found[1])
            held = "is empty" if not size else f"holds {plural(size, _ITEM[field][0])}"
            need = "at least" if m[3] == ">=" else "at most"
            expect = _expect(kind, field, depth, wide, None) if field != "cards" else (
                "it needs at least one card")
            per = f"{need} {bound}" if wide else str(bound)
            if field == "score":
                expect = "it needs two numbers, one per team"
            elif field == "finish_order":
                expect = f"it needs every seat once, in the order they went out ({per})"
            elif field in ("hands", "players"):
                expect = f"it needs one {_ITEM[field][0]} per seat ({per})"
            return f"{found[0]} {held}; {expect}"
        if not m[2] and found is not None:
            hi = bound if m[3] == "<=" else None
            expect = _expect(kind, field, depth, wide, hi)
            if expect:
                return f"{found[0]} is {show(found[1])}; {expect}"
    m = _RANGE.fullmatch(error)
    if m:
        found = _at(obj, m[1], m[2], None)
        expect = _expect(kind, m[1], m[2].count("["), wide, None)
        if found is not None and expect:
            return f"{found[0]} is {show(found[1])}; {expect}"
    m = _ENUM.fullmatch(error)
    if m:
        found = _at(obj, m[1], "", None)
        expect = _expect(kind, m[1], 0, wide, None)
        if found is not None and expect:
            return f"{found[0]} is {show(found[1])}; {expect}"
    return decoder_words(error)


def too_large(obj: object) -> str:
    """Why an event the decoder otherwise accepts is refused when a number in it is
    beyond what the decoder reads (``1e999``, a whole number over 64 bits): the field
    that holds it, when it is one."""
    for field, value in obj.items() if isinstance(obj, dict) else ():
        if (isinstance(value, float) and not math.isfinite(value)) or (
                isinstance(value, int) and value.bit_length() > 64):
            return f"`{show(field)[1:-1]}` is a number too large to read"
    return "a number is out of range"


def decoder_words(error: str) -> str:
    """The decoder's message, a little shorter: "missing field `x`", "at `seat`"."""
    return error.replace("Object missing required field", "missing field").replace("`$.", "`")

