"""Brettspielwelt (BSW) ``.tch`` game logs: read them as format-1 events, write them back.

BSW published about 2.4 million Tichu games as text files (docs: ``bsw-tch.md``).
:func:`read_tch` turns one file, read as a stream (:class:`TchLines`), into the
typed format-1 events of :mod:`tichu_analyze.core.events` (``log-format.md``), each
with the 1-based ``.tch`` line it came from, so that the replay checks them and
points its diagnostics at the ``.tch`` file; :func:`event_dict` gives an event
as the object of its JSON line. :func:`write_tch` writes format-1 events of one
game in BSW's style (used for round trips).

BSW's logging habits are normalized so that they cause no diagnostics, while
genuine violations (a wish ignored, the Dragon given to the own team, a play
that does not beat, a wrong ``Ergebnis``) pass through untouched. For that the
reader follows each round on the engine itself: every event it emits is fed to a
:class:`~tichu_analyze.core.engine.Engine` (``check``'s own, or a private one), and it
asks that replay's :class:`~tichu_analyze.core.state.RoundState` whose turn it is,
whether the trick is over, which passes would bring a seat on turn
(``passes_until``, ``passes_to_close``), whether a Dragon gift is due, and what
the round scores (:func:`~tichu_analyze.core.state.score_round`). So the house-rule
variants read a ``.tch`` file as they read a log. Where a later line changes an
event already fed (a call moved before the caller's first play, a wish logged
after another play, the Phoenix's reading, a synthesized gift's recipient, a
second reading of the round for its ``Ergebnis``), the round is fed again from its
``round_start``, its diagnostics held back until then:

* ``passt.`` by the trick's winner when collecting it, and every other pass by
  a seat not on turn (already passed, out, waiting for a lead, after the round
  ended) is dropped; so are cards logged after the rules ended the round (a
  double victory, the third seat out), which BSW sometimes records.
* Missing passes: a non-bomb play by a seat not on turn, while a trick is on
  the table, implies that the seats on turn before it passed (the server
  enforces the turn). The missing ``pass`` events are inserted, tagged with the
  line of the play that revealed them -- typically the trick's winner leading
  again, or the next seat after the winner when the winner is out (whose play,
  if it cannot be a legal reply, is read as that lead). If no such reading
  exists (the play would be an out-of-turn lead) nothing is inserted. Where a
  log reads two legal ways (the winner's bomb on its own trick or its lead
  after dropped passes; a reply or a lead by the next seat after an out
  winner), nothing is invented unless only the other reading gives the
  recorded ``Ergebnis`` (the round is converted again with it).
* ``Tichu:`` logged after the caller's first play (directly after it, or one
  move later) is emitted before that first play, tagged at the ``Tichu:`` line.
  A further ``Tichu:``/``Grosses Tichu:`` by a seat whose call already counts
  (BSW logs repeated clicks) is dropped.
* ``Drache an:`` missing: when the Dragon's trick is over and the next event is
  not its gift (nor a bomb on it), a ``Drache an:`` later in the round is used;
  else the gift is synthesized, to the opponent that makes the recorded
  ``Ergebnis`` come out if only one does, else to the next seat after the
  winner, tagged at the line of the next event.
* The Phoenix's rank in an ambiguous combination (a straight with the Phoenix
  at either end, a full house with either triple) is taken from the rest of the
  trick: the readings that beat what was on the table and that the next play
  on it beats; the highest of those. ``phoenix`` is emitted only when that
  reading is not the highest (the engine's default).
* ``BOMBE:`` lines are cosmetic and ignored. ``Grosses Tichu:`` lines before
  play are emitted between the two deals.
* A seat whose player changes (a substitute) gets ``round_start.players``, the
  names by seat from that round on; a name left blank in the card lists is taken
  from the ``Startkarten`` or the ``Schupfen:`` lines. Names compare exactly.

A line that cannot be understood yields :class:`Unreadable`; the rest of its
round is skipped. A file that ends mid-round, or a round restarted by a new
``Gr.Tichukarten`` block, yields what it has; the replay reports the round as
incomplete.
"""

from __future__ import annotations

import codecs
import io
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any, Literal

import msgspec
from msgspec.structs import asdict, replace

from ..core.cards import (
    BIT,
    CARD_BY_TOKEN,
    DOG,
    DRAGON,
    MAHJONG,
    PHOENIX,
    RANK,
    RANK_MASK,
    RANK_TOKENS,
    SUITS,
    Mask,
)
from ..core.combos import CLASSIFIED, Combo, Kind, beats, bombs_in, classified, classify
from ..core.diagnostics import Diagnostic
from ..core.engine import Engine
from ..core.events import (
    Call,
    Deal,
    DragonGift,
    Event,
    Exchange,
    GameStart,
    Pass,
    Play,
    RoundEnd,
    RoundStart,
    Substitute,
)
from ..core.state import Phase, RoundState, score_round, wish_play
from ..core.variants import BRETTSPIELWELT

__all__ = [
    "TchLines", "Unreadable", "decode_text", "event_dict", "looks_like_tch", "read_tch",
    "write_tch",
]

EventDict = dict[str, Any]
"""A format-1 event as a dict (``log-format.md``), as :func:`write_tch` takes them."""

CallKind = Literal["grand_tichu", "tichu"]

TARGET = 1000

"""BSW plays to 1000 points."""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A ``.tch`` line the reader does not understand; the rest of its round is skipped."""

    message: str


# --- tokens -------------------------------------------------------------------

_SUIT_LETTERS = {"j": "G", "s": "S", "p": "B", "r": "R"}
"""Format-1 suit -> BSW colour letter: Jade green, Sword black, Pagoda blue, Star red."""

_RANK_LETTERS = {RANK_TOKENS[r]: RANK_TOKENS[r] for r in range(2, 11)} | {
    "J": "B",  # Bube
    "Q": "D",  # Dame
    "K": "K",
    "A": "A",
}
"""Format-1 rank token -> BSW rank letters."""

_SPECIAL_TOKENS = {"Mahjong": "Ma", "Dog": "Hu", "Phoenix": "Ph", "Dragon": "Dr"}


def _build_tch_tokens() -> dict[str, str]:
    tokens = dict(_SPECIAL_TOKENS)
    for rank, letters in _RANK_LETTERS.items():
        for suit in SUITS:
            tokens[rank + suit] = _SUIT_LETTERS[suit] + letters
    return tokens


TCH_TOKEN: dict[str, str] = _build_tch_tokens()
"""Format-1 card token -> BSW card token (``"Jp"`` -> ``"BB"``, ``"10r"`` -> ``"R10"``)."""

CARD_OF_TCH: dict[str, str] = {tch: token for token, tch in TCH_TOKEN.items()}
"""BSW card token -> format-1 card token."""

_CARD_OF = CARD_OF_TCH.__getitem__

WISH_OF_TCH: dict[str, str] = {letters: rank for rank, letters in _RANK_LETTERS.items()}
"""BSW wish letters (``"B"``, ``"D"``, ``"10"`` ...) -> format-1 rank token."""

_HEADER = re.compile(r"-{3,}\s*(Gr\.Tichukarten|Startkarten|Rundenverlauf)\s*-{3,}")
_CALL = re.compile(r"(Grosses Tichu|Tichu|Drache an):\s*\(([0-3])\)(.*)")
_SEAT_TEXT = ("(0)", "(1)", "(2)", "(3)")
_RESULT = re.compile(r"Ergebnis:\s*(-?\d+)\s*-\s*(-?\d+)\s*")
_CALL_KINDS = {"Grosses Tichu": "grand", "Tichu": "tichu", "Drache an": "gift"}
_WISH = re.compile(r"Wunsch:\s*(\S*)\s*")

GRAND_HEADER = "---------------Gr.Tichukarten------------------"
START_HEADER = "---------------Startkarten------------------"
PLAY_HEADER = "---------------Rundenverlauf------------------"


# --- bytes and lines ----------------------------------------------------------

MAX_LINE = 4 << 20
"""The longest line read, in bytes (4 MiB); a longer one is not understood and skipped."""

MAX_ROUND_LINES = 10_000
"""The most lines one round may have (a real round has a few hundred); the rest of a
longer round is skipped, so that memory stays bounded whatever the file holds."""

_PREFIX = 1 << 16
"""How many bytes the file's encoding is decided on (64 KiB: a whole game of the archive)."""

_BOM = b"\xef\xbb\xbf"


def _encoding(data: bytes, final: bool = True) -> str:
    """The encoding ``data`` reads in: UTF-8, else cp1252, else latin-1. When not
    ``final`` (a prefix of the file), a UTF-8 character cut at its end does not count."""
    try:
        if final:
            data.decode("utf-8")  # (the same test, without an incremental decoder's calls)
        else:
            codecs.getincrementaldecoder("utf-8")().decode(data, False)
        return "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return "latin-1"


def decode_text(data: bytes) -> str:
    """The text of ``.tch`` bytes: UTF-8, else the archive's legacy cp1252, else latin-1.

    Every character survives as written (non-breaking spaces included); a UTF-8
    byte order mark is dropped.
    """
    if data.startswith(_BOM):
        data = data[3:]
    return data.decode(_encoding(data))


def looks_like_tch(head: bytes) -> bool:
    """Whether the first bytes of a file look like a ``.tch`` log: its first
    non-blank line is a ``Gr.Tichukarten`` header."""
    text = decode_text(head[:4096]) if head else ""
    for raw in text.split("\n"):
        line = raw.strip(" \t\r\x00")
        if line:
            m = _HEADER.fullmatch(line)
            return m is not None and m.group(1) == "Gr.Tichukarten"
    return False


class TchLines:
    """The lines of a ``.tch`` file, read as a stream and decoded: iterating yields
    each line's text, or None for a line longer than :data:`MAX_LINE` (whose bytes
    are skipped, never held). ``count`` is the number of lines read (all of them once
    the iteration is over).

    The encoding is decided once per file, on its first 64 KiB (the whole file for
    every game of the archive, so exactly as if the file were decoded whole): UTF-8
    if they are UTF-8, else cp1252 if they are cp1252, else latin-1. A later line
    that does not decode in the file's encoding is decided on its own, the same way.
    Lines are split at ``\\n`` only (line numbers match the bytes); a ``\\r`` before
    it and a UTF-8 byte order mark at the start are dropped.
    """

    def __init__(self, source: bytes | IO[bytes]) -> None:
        self.file: IO[bytes] = io.BytesIO(source) if isinstance(source, bytes) else source
        self.count = 0

    def __iter__(self) -> Iterator[str | None]:
        f = self.file
        head = f.read(_PREFIX)
        final = len(head) < _PREFIX
        if head.startswith(_BOM):
            head = head[3:]
        encoding = _encoding(head, final)
        cut = head.rfind(b"\n") + 1
        pending = head[cut:]  # the last line, maybe cut by the prefix's end
        lines: list[str] = []
        if cut:  # the whole lines of the prefix, decoded at once
            whole = head[: cut - 1]
            if b"\r" in whole:  # (a quick scan; BSW writes no \r)
                whole = whole.replace(b"\r\n", b"\n")
            lines = whole.decode(encoding).split("\n")
        self.count = len(lines)
        if final:
            more = f.read(1)  # (a stream may return less than asked before its end)
            if not more:  # the whole file (every game of the archive): no generator
                if pending:
                    lines.append(_decode_line(pending, encoding))
                    self.count += 1
                return iter(lines)
            if more == b"\n":  # the prefix's unfinished line ends just after it
                lines.append(_decode_line(pending, encoding))
                self.count += 1
                pending = b""
            else:
                pending += more
        return self._rest(lines, pending, encoding)

    def _rest(self, lines: list[str], pending: bytes, encoding: str) -> Iterator[str | None]:
        """The lines of a file longer than the prefix: ``lines`` (the prefix's), then the
        rest read line by line, ``pending`` (the prefix's unfinished line) first."""
        yield from lines
        f = self.file
        while True:
            line = f.readline(MAX_LINE + 1 - len(pending))
            if pending:
                line, pending = pending + line, b""
            if not line:
                return
            self.count += 1
            if line.endswith(b"\n"):
                yield _decode_line(line[:-1], encoding)
            elif len(line) > MAX_LINE:
                while True:  # skip the rest of the line
                    chunk = f.readline(MAX_LINE)
                    if not chunk or chunk.endswith(b"\n"):
                        break
                yield None
            else:
                yield _decode_line(line, encoding)  # the last line, without a line end
                return


def _decode_line(raw: bytes, encoding: str) -> str:
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError:
        return raw.decode(_encoding(raw))


# --- parsed lines of one round ------------------------------------------------


_NO_GIVE: dict[int, str] = {}

_Pre = tuple[str, int, int, dict[int, str]]
"""A Tichu call or an exchange of the round's part before the Rundenverlauf: ``(kind, line,
seat, give)``, ``kind`` tichu or exchange, ``give`` an exchange's recipient seat -> format-1
token (a call's: :data:`_NO_GIVE`, shared, never changed). A plain tuple: cheaper to make
than an object, and one round has several."""


_What = tuple[str, int, Any]
_Move = tuple[int, _What]
"""One line of a round's Rundenverlauf: ``(line, (kind, seat, data))``. ``kind``:
pass, play, player (a substitute takes ``seat``, ``data`` its name), tichu, grand, gift
(``seat``: the Dragon's recipient), wish, result (``seat`` -1). ``data``: a play's
:data:`_Cards`, a wish's rank token, a result's score; else None. Plain tuples: a round
has hundreds, and the same ``(kind, seat, data)`` of a line's text comes again and
again."""
_Cards = tuple[list[str], Mask | None, int]
"""The cards of a play: format-1 tokens (a list never changed: the events of ``check``
share it), their mask (None if a card is repeated), and
whether the play is plain (:data:`_PLAIN`, :data:`_PLAIN_MAHJONG`; else 0): no repeated
card, no bomb, and no Phoenix but alone (the plays :meth:`_Converter.follow_play` may
feed the short way)."""
_PLAIN = 1
_PLAIN_MAHJONG = 2
"""A plain play with the Mahjong (its wish is looked for)."""


class _RoundText:
    """What the ``.tch`` lines of one round say (a plain class: one is made per round, a
    dataclass's default factories cost more)."""

    __slots__ = ("blank", "current", "firsts", "fourteen", "gives", "grand", "hands8", "line",
                 "lines", "names", "play", "pre", "replaced", "section", "six", "start_line",
                 "unreadable")

    def __init__(self, line: int) -> None:
        self.line = line  # the Gr.Tichukarten header
        self.names: list[str] = []  # by seat, as this round's lines name them
        self.blank: set[int] = set()  # seats whose name the card lists leave blank
        self.hands8: list[list[str]] = []
        self.firsts: list[set[str]] = []  # the Gr.Tichukarten hands' BSW tokens, as sets
        self.start_line = 0  # the Startkarten header, 0 before it
        # the second deal: each Startkarten hand but its first 8 cards, in its order (one
        # list per Startkarten hand read), and whether every Startkarten hand is 14
        # different cards
        self.six: list[list[str]] = []
        self.fourteen = True
        self.section = "grand"  # grand, start, pre, play, over (Ergebnis read), done, skip
        self.lines = 0  # non-blank lines read after the header
        self.grand: list[tuple[int, int]] = []  # Grand Tichu calls: (line, seat)
        self.pre: list[_Pre] = []  # Tichu calls and exchanges, in order
        # the exchange lines not read yet: (index in pre, line, giver, giver's name, body);
        # read once the whole exchange is (:func:`_read_gives`), since the recipients are
        # named as the givers' own lines name them
        self.gives: list[tuple[int, int, int, str, str]] = []
        self.play: list[_Move] = []
        self.unreadable: tuple[int, str] | None = None
        # in the Rundenverlauf: who sits where now (a substitute who took a seat during the
        # round in it), and whether the last line read named one
        self.current: list[str] = self.names
        self.replaced = False


_OTHERS = tuple(tuple((giver + k) & 3 for k in (1, 2, 3)) for giver in range(4))
"""The seats a seat gives to, in the order BSW lists them."""
_RECEIVERS = tuple(tuple(sorted(others)) for others in _OTHERS)
"""The seats a seat gives to, in seat order (as ``exchange.give`` lists them)."""
_SEAT_KEY = ("0", "1", "2", "3")


def _gives(body: str, giver: int, names: list[str]) -> dict[int, str] | str:
    """``name: C - name: C - name: C -`` -> recipient seat -> format-1 token.

    A seat whose name is blank (a newcomer the card lists do not name yet) takes the
    first name no other seat answers to, in the order BSW lists the recipients; that
    name goes into ``names``.
    """
    gives: dict[int, str] = {}
    pos = 0
    order = _OTHERS[giver]
    if body[-2:] == " -":  # the usual line: the three others in order, one card each
        parts = body[:-2].split(" - ")
        if len(parts) == 3:
            get = CARD_OF_TCH.get
            for to, part in zip(order, parts, strict=True):
                name, colon, token = part.partition(": ")
                if name != names[to] or not colon:  # (or the name holds ": ": as it stands)
                    name = names[to]
                    n = len(name)
                    if part[:n] != name or part[n : n + 2] != ": ":
                        gives.clear()
                        break
                    token = part[n + 2 :]
                card = get(token)
                if card is None:
                    gives.clear()
                    break
                gives[to] = card
            else:
                return gives
    while pos < len(body):
        if body[pos] == " ":
            pos += 1
            continue
        matches = [s for s in order if body.startswith(names[s] + ": ", pos)]
        if not matches:
            blank = [s for s in order if not names[s] and s not in gives]
            cut = body.find(": ", pos)
            if not blank or cut < 0:
                return f"no recipient name at {body[pos:]!r}"
            names[blank[0]] = body[pos:cut]
            matches = blank[:1]
        longest = max(len(names[s]) for s in matches)
        matches = [s for s in matches if len(names[s]) == longest]
        to = next((s for s in matches if s not in gives), matches[0])
        pos += longest + 2
        end = body.find(" ", pos)
        end = len(body) if end < 0 else end
        card = CARD_OF_TCH.get(body[pos:end])
        if card is None:
            return f"{body[pos:end]!r} is not a card"
        if to in gives:
            return f"{names[to]} is named twice"
        gives[to] = card
        pos = end
        if body.startswith(" -", pos):
            pos += 2
    if len(gives) != 3:
        return f"expected a card for each of the three other seats, found {len(gives)}"
    return gives


def _move_line(text: str, names: list[str], no: int = 0) -> _Move | str | None:
    """``(N)name: C C`` or ``(N)name passt.`` (``text`` stripped) as a record of line
    ``no``, an error message, or None."""
    if len(text) < 3 or text[0] != "(" or text[2] != ")" or text[1] not in "0123":
        return None
    seat = ord(text[1]) - 48
    name = names[seat] if seat < len(names) else ""
    n = len(name) + 3
    if text.startswith(name, 3) and text.startswith(": ", n):
        body = text[n + 2 :]
    elif text.endswith((" passt.", " passt")):
        return (no, ("pass", seat, None))  # also under another name: the seat counts
    else:
        cut = text.rfind(": ", 3)
        if cut < 0:
            return f"neither a play nor a pass of seat {seat}"
        body = text[cut + 2 :]
    got = _play_body(body)
    if isinstance(got, str):
        return f"play of seat {seat}: {got}" if got else f"a play of seat {seat} without cards"
    return (no, ("play", seat, got))


_BODIES: dict[str, _Cards | str] = {}
_BODIES_LIMIT = 1 << 16


def _play_body(body: str) -> _Cards | str:
    """The cards of a play line's ``C C C`` part (:data:`_Cards`), or what is wrong ("" for
    no cards). Remembered (a bounded memo): the same plays come again and again."""
    got = _BODIES.get(body)
    if got is not None:
        return got
    try:
        cards = [CARD_OF_TCH[t] for t in body.split(" ") if t]
    except KeyError as e:
        return f"{e.args[0]!r} is not a card"
    if len(_BODIES) >= _BODIES_LIMIT:
        _BODIES.clear()
    if not cards:
        _BODIES[body] = ""
        return ""
    mask = _mask(cards)
    plain = 0
    if mask is not None and (not mask & _PHOENIX_BIT or mask == _PHOENIX_BIT) and (
            len(cards) < 4  # (no bomb)
            or (combo := classified(mask)) is not None and combo.kind < _BOMB):
        plain = _PLAIN_MAHJONG if mask & _MAHJONG_BIT else _PLAIN
    made = _BODIES[body] = (cards, mask, plain)
    return made


def _parse_line(rt: _RoundText, no: int, text: str, head: str | None) -> str | None:
    """Take one non-blank line of a round before its ``Rundenverlauf`` into ``rt``
    (``head``: the header it is, if one); an error message if not understood."""
    section = rt.section
    if text[0] == "B" and text.startswith("BOMBE:"):
        return None  # cosmetic: who holds a bomb
    if section in ("grand", "start"):
        grand = section == "grand"
        hands = rt.hands8 if grand else rt.six
        if len(hands) == 4:  # only in "grand": "start" moves on with its fourth hand
            if head == "Startkarten":
                rt.section, rt.start_line = "start", no
                return None
            call = _CALL.fullmatch(text)
            if call is not None and call.group(1) == "Grosses Tichu":
                rt.grand.append((no, int(call.group(2))))
                return None
            return "expected the Startkarten header after the four first hands"
        # the hand of the next seat, ``(seat)name C C ... C``: the name is everything before
        # the last ``size`` space-separated tokens, so it may hold spaces and non-breaking
        # spaces; the cards are BSW tokens
        seat = len(hands)
        size = 8 if grand else 14
        if text[:3] != _SEAT_TEXT[seat]:
            return f"expected the hand of seat {seat}, '({seat})name' and {size} cards"
        parts = text[3:].rsplit(" ", size)  # the name, then the cards (``text`` is stripped)
        if len(parts) < size:
            return (f"expected {size} cards after the name of seat {seat}, found {len(parts)} "
                    "tokens")
        name, tokens = (parts.pop(0), parts) if len(parts) > size else ("", parts)
        # (the second deal: the cards not among the first 8, in the Startkarten order; told
        # by their BSW tokens, so that only those are converted: a card not known is never
        # among the first 8, so the same one is reported)
        if not grand:
            tokens = list(itertools.filterfalse(rt.firsts[seat].__contains__, tokens))
        try:
            cards = list(map(_CARD_OF, tokens))
        except KeyError as e:
            return f"hand of seat {seat}: {e.args[0]!r} is not a card"
        if grand:
            if not name.strip():
                rt.blank.add(seat)
            rt.names.append(name)
            rt.firsts.append(set(tokens))  # (their hashes made by the conversion)
            hands.append(cards)
            return None
        if name.strip() and seat in rt.blank:  # the Startkarten name the newcomer
            rt.names[seat] = name
            rt.blank.discard(seat)
        hands.append(cards)
        if len(set(parts)) != 14:  # (BSW tokens: one for each card)
            rt.fourteen = False
        if seat == 3:
            rt.section = "pre"
        return None
    # section == "pre": calls and the exchange
    if head == "Rundenverlauf":
        rt.section = "play"
        _read_gives(rt)
        rt.current = list(rt.names)
        return None
    if text == "Schupfen:":
        return None
    if text[:3] in _SEAT_TEXT:  # (no call: those start with their label)
        giver = ord(text[1]) - 48
        name = rt.names[giver]
        n = len(name) + 3
        if text[3:n] == name and text[n : n + 7] == " gibt: ":  # "(N)name gibt: "
            body = text[n + 7 :]
        elif " gibt: " in text:
            name, body = text[3:].split(" gibt: ", 1)
        else:
            return "expected an exchange line, '(N)name gibt: name: card - ...'"
        rt.gives.append((len(rt.pre), no, giver, name, body))
        rt.pre.append(("exchange", no, giver, _NO_GIVE))  # (read by _read_gives)
        return None
    call = _CALL.fullmatch(text)
    if call is not None and call.group(1) != "Drache an":
        seat = int(call.group(2))
        if call.group(1) == "Grosses Tichu":
            rt.grand.append((no, seat))
        else:
            rt.pre.append(("tichu", no, seat, _NO_GIVE))
        return None
    return "not a line of the exchange part of a round"


def _read_gives(rt: _RoundText) -> None:
    """Read the round's exchange lines (``rt.gives``) into ``rt.pre``, once all are there.

    The person of a seat is the one who exchanged (``bsw-tch.md``): a giver's own line
    names the seat (a newcomer the card lists leave blank or still show under the player
    who left, or names the card lists give in another order; the seat numbers hold), and
    the recipients are named as those lines name them. A line not understood makes the
    round unreadable from that line on (``rt.unreadable``; what the round holds after it
    is dropped)."""
    gives_of = rt.gives
    if not gives_of:
        return
    rt.gives = []
    names = rt.names
    for _, _, giver, name, _ in gives_of:
        if name.strip() and name != names[giver]:
            names[giver] = name
            rt.blank.discard(giver)
    for index, no, giver, _, body in gives_of:
        gives = _gives(body, giver, names)
        if isinstance(gives, str):
            rt.unreadable = (no, f"exchange of seat {giver}: {gives}")
            rt.section = "skip"
            del rt.pre[index:]
            rt.grand[:] = [(line, seat) for line, seat in rt.grand if line < no]
            return
        rt.pre[index] = ("exchange", no, giver, gives)


def _parse_play(rt: _RoundText, no: int, text: str) -> str | None:
    """Take one non-blank line of the round's ``Rundenverlauf`` into ``rt``; an error
    message if not understood. A play or pass line that names someone new at its seat
    (not the seat's player, nor one sitting elsewhere) is a substitute taking the seat:
    a ``player`` record comes before the move, and ``rt.replaced`` is set."""
    current = rt.current
    if len(text) > 3 and text[0] == "(" and text[2] == ")" and text[1] in "0123" \
            and (seat := ord(text[1]) - 48) < len(current):
        name = current[seat]
        if not (text.startswith(name, 3) and text.startswith((": ", " passt"), len(name) + 3)):
            cut = text.rfind(" passt")
            if cut < 3:
                cut = text.rfind(": ")
            other = text[3:cut] if cut >= 3 else ""
            if other.strip() and other not in current:
                rt.play.append((no, ("player", seat, other)))
                current[seat] = other
                rt.replaced = True
    move = _move_line(text, current, no)
    if move is not None:
        if isinstance(move, str):
            return move
        rt.play.append(move)
        return None
    first = text[0]  # (each pattern below starts with its own letter)
    if first in "GTD":
        call = _CALL.fullmatch(text)
        if call is not None:
            kind = _CALL_KINDS[call.group(1)]
            rt.play.append((no, (kind, int(call.group(2)), None)))
            return None
    elif first == "B":
        if text.startswith("BOMBE:"):
            return None  # cosmetic: who holds a bomb
    elif first == "W" and (wish := _WISH.fullmatch(text)) is not None:
        letters = wish.group(1)
        if letters in ("", "0"):
            return None  # no wish
        if letters not in WISH_OF_TCH:
            return f"{letters!r} is not a rank to wish for"
        if not any(r[1][0] == "play" for r in rt.play):
            return "a wish before any play"
        rt.play.append((no, ("wish", -1, WISH_OF_TCH[letters])))
        return None
    elif first == "E" and (result := _RESULT.fullmatch(text)) is not None:
        if max(len(result.group(1)), len(result.group(2))) > 9:
            return "a score of more than nine digits"  # (and int() would refuse 4,300)
        rt.play.append((no, ("result", -1, (int(result.group(1)), int(result.group(2))))))
        rt.section = "over"
        return None
    return "not a play, a pass, a call, a wish, a Dragon gift or a result"


# --- reading ------------------------------------------------------------------


def read_tch(source: bytes | IO[bytes] | TchLines, game_id: str, *,
             variants: frozenset[str] = frozenset(),
             replay: Engine | None = None) -> Iterator[tuple[int, Event | Unreadable]]:
    """The format-1 events of one ``.tch`` file, each with its 1-based ``.tch`` line.

    ``source``: the file's bytes, a binary file open for reading, or its
    :class:`TchLines`. The file is read as a stream, one round at a time: memory
    does not grow with its size. ``game_id`` names the game in every event.
    Events come in replay order; events the reader inserts or moves (missing
    passes, a late Tichu, a missing Dragon gift, the Grand Tichu calls) carry the
    line that justifies them, so line numbers are not always increasing. A line
    that is not understood yields :class:`Unreadable` and the rest of its round
    is skipped.

    The reader follows each round on the engine's own state as it converts it
    (:class:`~tichu_analyze.core.engine.Engine`, fed every event it emits), so that it
    reads the play as the replay will check it: ``variants`` are the house rules
    (rules.md 9) it reads under. ``replay``: the engine to follow and feed instead
    of a private one (``check``'s way: each event is replayed once). The events
    yielded are then already fed to it (the caller reports the :class:`Unreadable`
    ones alone), and its visitor must want nothing but diagnostics
    (:func:`~tichu_analyze.core.visitor.only_diagnostics`): they are held back while a
    round is read and reported once its reading is settled.
    """
    lines = source if isinstance(source, TchLines) else TchLines(source)
    engine = replay if replay is not None else Engine("", variants=variants)
    for batch in _batches(lines, _Reader(game_id, engine)):
        yield from batch


def check_tch(lines: TchLines, game_id: str, replay: Engine) -> int:
    """Read a ``.tch`` file into ``replay`` (as :func:`read_tch` with ``replay``: the
    events are fed as they are converted; its visitor must want diagnostics alone);
    the lines not understood are reported as L002. Returns the number of events and
    unreadable lines (what :func:`read_tch` would yield)."""
    n = 0
    for batch in _batches(lines, _Reader(game_id, replay, share=True)):
        if not batch:
            continue
        n += len(batch)
        line, last = batch[-1]  # an Unreadable comes last in its batch
        if type(last) is Unreadable:
            replay.problem(line, "L002", f"line not understood: {last.message}", game_id)
    return n


def _batches(lines: TchLines, reader: _Reader) -> Iterator[list[tuple[int, Event | Unreadable]]]:
    """What :func:`read_tch` yields, a round at a time (an :class:`Unreadable` last)."""
    rt: _RoundText | None = None
    junk = False  # inside a run of lines outside any round
    # in a round's Rundenverlauf: its pass and play lines read so far (by their text, for
    # the names ``names``: the same lines come again; each seat's pass line, ``(N)name
    # passt.``, from the start), None elsewhere
    moves: dict[str | None, _What] | None = None
    known: dict[str | None, _What] = {}
    names: list[str] = []
    # for ``names``: the start of each seat's play lines, ``(N)name``, before their ``: ``
    heads: dict[str, int] = {}
    played = _NO_MOVES  # ``rt.play`` while ``moves``
    count = 0  # while ``moves``: the round's lines read (``rt.lines``, kept here)
    for no, raw in enumerate(lines, 1):
        if moves is not None:
            # the fast path for plays and passes of the round ``rt``
            move = moves.get(raw)
            if move is None and raw is not None:
                # a line not seen yet: a pass or a play of a seat under its name? (Else
                # :func:`_parse_play` reads it. ``raw`` is not stripped: BSW writes a pass
                # line without spaces around it, and the spaces after a play's cards are no
                # token; a line with other spaces is left to _parse_play, which reads it
                # alike, as it does a name with ``: `` in it.)
                who, colon, body = raw.partition(": ")
                seat = heads.get(who, -1)
                if seat >= 0 and colon:
                    got = _BODIES.get(body)
                    if got is None:
                        got = _play_body(body)
                    if not isinstance(got, str):
                        move = ("play", seat, got)
                if move is not None and len(moves) < _MOVES_LIMIT:
                    moves[raw] = move
            if move is not None and count < MAX_ROUND_LINES:
                count += 1
                played.append((no, move))
                continue
            assert rt is not None
            rt.lines = count
        head: str | None = None
        if raw is None:
            text = ""
        else:
            text = raw.strip(" \t\r")
            if not text:
                continue
            if text[0] == "-" and (head := _header(text)) == "Gr.Tichukarten":
                if rt is not None and rt.section != "done":
                    yield reader.round(rt)
                rt, junk, moves = _RoundText(no), False, None
                continue
        if rt is None or rt.section == "done":
            if rt is not None:
                done = _move_line(text, rt.names)
                if isinstance(done, tuple) and done[1][0] == "pass":
                    continue  # a pass logged after the round's result: noise
            if not junk and not text.startswith("BOMBE:"):
                where = "after the round's Ergebnis" if rt is not None else \
                    "outside a round (no Gr.Tichukarten header before it)"
                what = repr(text[:60]) if raw is not None else _TOO_LONG
                yield [(no, Unreadable(f"{what} {where}"))]
                junk = True
            continue
        if rt.section == "skip":
            continue
        rt.lines += 1
        if raw is None:
            problem: str | None = _TOO_LONG
        elif rt.lines > MAX_ROUND_LINES:
            problem = f"the round has more than {MAX_ROUND_LINES:,} lines"
        elif rt.section == "play":
            problem = _parse_play(rt, no, text)
            if rt.replaced:  # someone new sits at a seat: its lines, read the slow way
                rt.replaced = False
                moves = None
        else:
            problem = _parse_line(rt, no, text, head)
        if problem is not None:
            rt.unreadable = (no, problem)
            rt.section = "skip"
        elif rt.section == "over":
            yield reader.round(rt)
            rt.section = "done"
        elif rt.section == "play" and moves is None and len(rt.current) == 4:
            if rt.current != names:
                names = list(rt.current)
                known = {f"{_SEAT_TEXT[seat]}{name} passt.": _PASSES[seat]
                         for seat, name in enumerate(names)}
                heads = {f"{_SEAT_TEXT[seat]}{name}": seat for seat, name in enumerate(names)}
            moves = known
            played = rt.play
        if moves is not None:
            if rt.section == "play":
                count = rt.lines
            else:
                moves = None
    if rt is not None and rt.section != "done":
        yield reader.round(rt)


_TOO_LONG = f"a line longer than {MAX_LINE >> 20} MiB"
_HEADERS = {GRAND_HEADER: "Gr.Tichukarten", START_HEADER: "Startkarten",
            PLAY_HEADER: "Rundenverlauf"}
"""The headers as BSW writes them (:func:`_header` reads others too)."""


def _header(text: str) -> str | None:
    """The header a line is (``Gr.Tichukarten``, ``Startkarten``, ``Rundenverlauf``), if one."""
    head = _HEADERS.get(text)
    if head is None and (header := _HEADER.fullmatch(text)) is not None:
        head = header.group(1)
    return head


_MOVES_LIMIT = 4096
_NO_MOVES: list[_Move] = []  # (never appended to: ``moves`` is None with it)


_PASSES: list[_What] = [("pass", seat, None) for seat in range(4)]


class _Reader:
    """Game-level state of one file: the game start, the round numbers, who sits
    where, and the engine the rounds are followed on."""

    def __init__(self, game_id: str, engine: Engine, share: bool = False) -> None:
        self.game = game_id
        self.engine = engine
        # the events are fed and dropped, never given out (``check``): a play's cards may be
        # the list its line's memo holds, not a copy
        self.share = share
        self.started = False
        self.rounds = 0
        self.names: list[str] = []  # by seat, as the last round's lines named them
        self.players: list[str] = []  # by seat, as the events name them
        self.passes = [Pass(game=game_id, seat=s) for s in range(4)]  # (frozen: shared)

    def round(self, rt: _RoundText) -> list[tuple[int, Event | Unreadable]]:
        """The events of one round (after the game's start, for the first)."""
        _read_gives(rt)  # (a round cut before its Rundenverlauf)
        if len(rt.names) < 4:
            if not self.started:  # no names, no game: nothing to replay
                return [] if rt.unreadable is None else [
                    (rt.unreadable[0], Unreadable(rt.unreadable[1]))]
            changed = None
        elif rt.names == self.names:  # as the last round names them: the same players
            changed = None
        else:
            # a name still blank (not even the exchange names the seat): the same player
            names = [name if name.strip() or not self.names else self.names[seat]
                     for seat, name in enumerate(rt.names)]
            players = _player_names(names)
            changed = players if self.started and players != self.players else None
            self.names, self.players = names, players
        self.rounds += 1
        start: tuple[int, Event | Unreadable] | None = None
        if not self.started:
            self.started = True
            start = (rt.line, GameStart(game=self.game, players=self.players, target=TARGET,
                                        variants=list(BRETTSPIELWELT)))
            self.engine.feed(rt.line, start[1])
        out = _convert(self, self.rounds, rt, changed)
        if start is not None:
            out.insert(0, start)
        return out


_SEARCH = 32
"""How many other readings of one round are tried against its Ergebnis, at most."""


class _Mark:
    """The engine as a round's ``round_start`` left it, so that the round can be fed
    again (another reading of its log): the game's totals and the diagnostics held."""

    def __init__(self, engine: Engine, game_id: str, number: int,
                 held: list[Diagnostic]) -> None:
        game = engine.games.get(game_id)
        rnd = game.round if game is not None else None
        self.engine = engine
        self.game = game
        self.round = rnd if rnd is not None and rnd.number == number else None
        self.totals = game.totals if game is not None else [0, 0]
        self.won_by = game.won_by if game is not None else None
        self.warned = game.warned_continue if game is not None else False
        persons = game.person_totals if game is not None else None
        self.persons = dict(persons) if persons is not None else None
        self.held = held
        self.diagnostics = len(held)

    def rewind(self) -> RoundState | None:
        """Back to the round's start: a fresh state of the round (None if the engine did
        not open it), the diagnostics found since dropped."""
        del self.held[self.diagnostics :]
        game, old = self.game, self.round
        if game is None or old is None:
            return None
        game.round = self.round = RoundState(old.number, old.players, old.line, old.rules,
                                             old.dummy)
        game.totals, game.won_by, game.warned_continue = self.totals, self.won_by, self.warned
        game.person_totals = dict(self.persons) if self.persons is not None else None
        return self.round


def _convert(reader: _Reader, number: int, rt: _RoundText,
             players: list[str] | None) -> list[tuple[int, Event | Unreadable]]:
    """The events of one round of ``reader``'s game (``players``: the seating if it changed
    with it), fed to its engine as they are read; where the log reads two legal ways and the default
    reading does not give the recorded Ergebnis, the first reading that does. The
    engine ends up fed with the events returned, its diagnostics reported once."""
    held: list[Diagnostic] = []
    engine = reader.engine
    engine.hold(held)
    try:
        first = last = _Converter(reader, number, rt, players, held)
        out = first.run()
        chosen = first
        if first.mismatch and first.decisions:
            queue = [frozenset([d]) for d in first.decisions]
            tried: set[frozenset[int]] = set()
            while queue and len(tried) < _SEARCH:
                flips = queue.pop(0)
                if flips in tried:
                    continue
                tried.add(flips)
                last = _Converter(reader, number, rt, players, held, flips, first.mark)
                got = last.run()
                if not last.mismatch:
                    out, chosen = got, last
                    break
                queue += [flips | {d} for d in last.decisions if d > max(flips)]
        if (chosen is not last or chosen.dirty) and first.mark is not None \
                and first.mark.rewind() is not None:
            feed = engine.feed
            for line, ev in out[1:]:  # the events as they stand now, once more
                if not isinstance(ev, Unreadable):
                    feed(line, ev)
    finally:
        engine.hold(None)
    report = engine.visitor.visit_diagnostic
    for diag in held:
        report(diag)
    return out


def _player_names(names: list[str]) -> list[str]:
    """The names for ``game_start`` and ``round_start``: as written, unless empty or
    repeated (format 1 needs four distinct non-empty names), then ``seat N`` /
    ``name (seat N)``."""
    out: list[str] = []
    for seat, name in enumerate(names):
        if not name.strip():
            name = f"seat {seat}"
        if name in out or names.count(name) > 1:
            name = f"{name} (seat {seat})"
        out.append(name)
    return out


# --- following the round --------------------------------------------------------


def _could_beat(combo: Combo, top: Combo) -> bool:
    """Whether ``combo`` beats ``top`` under some reading of a Phoenix inside ``top``."""
    if beats(combo, top):
        return True
    if top.phoenix is None:
        return False
    for r in range(2, 15):
        reading = classify(top.cards, r)
        if reading is not None and reading.kind == top.kind and beats(combo, reading):
            return True
    return False


_TOKEN_BIT: dict[str, Mask] = {token: BIT[card] for token, card in CARD_BY_TOKEN.items()}
_PHOENIX_BIT = BIT[PHOENIX]
_MAHJONG_BIT = BIT[MAHJONG]
_DOG_BIT = BIT[DOG]
_PLAY = Phase.PLAY
_DRAGON_BIT = BIT[DRAGON]
_BOMB = Kind.FOUR_OF_A_KIND
"""The lowest kind of bomb."""
_AMBIGUOUS = (Kind.FULL_HOUSE, Kind.STRAIGHT)
"""The kinds a Phoenix may stand in for either of two ranks."""


def _mask(tokens: Iterable[str]) -> Mask | None:
    """The mask of format-1 tokens, None if a card is repeated."""
    m = 0
    bit = _TOKEN_BIT
    for t in tokens:
        b = bit[t]
        if m & b:
            return None
        m |= b
    return m


_UNKNOWN = Combo(Kind.SINGLE, 0, 0, 0)
"""Not in :data:`combos.CLASSIFIED` (a sentinel)."""


@dataclass(slots=True)
class _PhoenixPlay:
    """A multi-card play with the Phoenix, and what its trick tells about its reading."""

    event: Play
    cards: Mask
    below: Combo | None  # what it was played on (None: a lead)
    above: Combo | None = None  # the next play on it


@dataclass(slots=True)
class _Gift:
    """A synthesized Dragon gift whose recipient the Ergebnis may decide."""

    event: DragonGift
    winner: int
    cards: Mask


class _Converter:
    """Turns the parsed lines of one round into format-1 events, normalizing BSW's habits.

    Every event is fed to the engine as it is emitted, and the converter asks the
    engine's state of the round (:class:`~tichu_analyze.core.state.RoundState`) whose turn
    it is, whether the trick is over, which passes are missing, whether a Dragon gift
    is due, what the round scores. Where it changes an event already fed (a call moved
    before the caller's first play, a wish logged late, the Phoenix's reading, a
    synthesized gift's recipient) the round is ``dirty``: fed again once settled.
    """

    def __init__(self, reader: _Reader, number: int, rt: _RoundText,
                 players: list[str] | None, held: list[Diagnostic],
                 flips: frozenset[int] = frozenset(), mark: _Mark | None = None) -> None:
        self.engine = reader.engine
        self.held = held
        self.passes = reader.passes  # the game's, by seat (frozen: shared)
        self.share = reader.share
        self.mark = mark  # None on the first reading: made once its round_start is fed
        self.game = reader.game
        self.number = number
        self.rt = rt
        self.players = players
        self.flips = flips  # records (by index in rt.play) read the other way
        self.decisions: list[int] = []  # records where two legal readings exist
        self.mismatch = False  # the replayed score cannot give the recorded Ergebnis
        self.dirty = False  # an event already fed was changed or moved
        self.out: list[tuple[int, Event | Unreadable]] = []
        self.calls: list[str | None] = [None, None, None, None]  # as the engine counts them
        self.playing = False  # the Rundenverlauf is being converted
        self.rnd: RoundState | None = None  # the engine's state of the round
        self.raw = False  # no normalizing (the engine skips the rest of the round)
        self.first_play: list[Play | None] = [None, None, None, None]
        self.last_of: list[Play | None] = [None, None, None, None]  # each seat's last play
        self.first_index = [0, 0, 0, 0]  # where each seat's first play is in rt.play
        self.last_play: Play | None = None
        self.phoenix: list[_PhoenixPlay] = []
        self.top_phoenix: _PhoenixPlay | None = None  # the Phoenix play on top of the trick
        self.gifts: list[_Gift] = []
        self.consumed: set[int] = set()  # Drache an lines already used, by index in rt.play
        self.index = 0  # the play record being converted

    def emit(self, line: int, ev: Event) -> None:
        self.out.append((line, ev))
        self.engine.feed(line, ev)

    def swap(self, old: Play | DragonGift, new: Play | DragonGift) -> None:
        """A later line changes an event the engine has seen (a wish logged late, the
        Phoenix's reading, a gift's recipient): ``new`` takes its place in the round's
        events, which are then fed again (``dirty``). Events are never changed in place."""
        out = self.out
        at = next(i for i, (_, ev) in enumerate(out) if ev is old)
        out[at] = (out[at][0], new)
        if type(new) is Play and type(old) is Play:
            seat = new.seat
            if self.first_play[seat] is old:
                self.first_play[seat] = new
            if self.last_of[seat] is old:
                self.last_of[seat] = new
            if self.last_play is old:
                self.last_play = new
            for info in self.phoenix:
                if info.event is old:
                    info.event = new
        self.dirty = True

    def run(self) -> list[tuple[int, Event | Unreadable]]:
        rt = self.rt
        start = RoundStart(game=self.game, round=self.number, players=self.players)
        if self.mark is None:
            self.emit(rt.line, start)
            self.mark = _Mark(self.engine, self.game, self.number, self.held)
            self.rnd = self.mark.round
        else:
            self.out.append((rt.line, start))
            self.rnd = self.mark.rewind()
        if len(rt.hands8) == 4:
            self.emit(rt.line, Deal(game=self.game, hands=rt.hands8))  # (rt is read only)
            for line, seat in rt.grand:
                self.call(line, seat, "grand_tichu")
            if len(rt.six) == 4:
                self.raw = not self.sound(self.pre_play())
                self.playing = True
                self.follow_play()
                self.resolve_phoenix()
        if rt.unreadable is not None:
            self.out.append((rt.unreadable[0], Unreadable(rt.unreadable[1])))
        return self.out

    def follow_play(self) -> None:
        """The Rundenverlauf, line by line (passes in turn and plain plays, the most
        frequent, inline; the others by :meth:`play` and :meth:`other`)."""
        rnd = self.rnd
        # the game whose round ``rnd`` is: plays and passes in its play are fed the short way
        game = self.mark.game if self.mark is not None else None
        passes = self.passes
        if rnd is None or game is None:  # not followed on the engine (so ``raw``)
            for i, (line, (kind, seat, data)) in enumerate(self.rt.play):
                self.index = i
                if kind == "pass":
                    self.emit(line, passes[seat])
                elif kind == "play":
                    self.play(line, seat, data[0], data[1])
                else:
                    self.other(kind, line, seat, data)
            return
        out = self.out
        engine = self.engine  # (its methods called on it: native calls when compiled)
        game_id, first_play, last_of, share = self.game, self.first_play, self.last_of, self.share
        # ``self.raw``, and whether a plain play may go the short way as far as the converter
        # goes (no Phoenix play on the table to learn its reading from the next play): only
        # :meth:`play` and :meth:`other` change them
        raw = self.raw
        quick = not raw and self.top_phoenix is None
        for i, (line, (kind, seat, data)) in enumerate(self.rt.play):
            if kind == "pass":
                passed = passes[seat]
                if raw:
                    self.emit(line, passed)
                elif engine.feed_pass(line, game, rnd, passed):  # a reply in turn
                    out.append((line, passed))
                elif rnd.takes(seat) and self.bomb_follows(i, seat):
                    self.emit(line, passed)  # bsw: the winner took its trick, then bombs
                # else the winner collecting its trick, or a pass by a seat not on turn:
                # dropped
            elif kind == "play":
                tokens, mask, plain = data
                if (plain and quick and rnd.phase is _PLAY
                        and (hand := rnd.hands[seat]) and mask & hand == mask
                        and ((top := rnd.top) is None and seat == rnd.turn
                             or not rnd.trick_over and seat == rnd.turn
                             # (not the seat that would lead once all passed: a lead?)
                             and ((top_seat := rnd.top_seat) != seat and rnd.hands[top_seat]
                                  or rnd.next_leader() != seat)
                             or rnd.trick_over and top is not None and top.cards != _DRAGON_BIT
                             and seat == rnd.next_leader())):
                    # the most frequent plays: a lead by the seat to lead, or a reply in turn;
                    # plain (a Phoenix alone has one reading), no pass or Dragon gift missing
                    # before it (what :meth:`play` does, without its cases)
                    if plain == _PLAIN_MAHJONG:
                        self.index = i
                        played = Play(game=game_id, seat=seat,
                                      cards=tokens if share else list(tokens),
                                      wish=self.wish_of())
                    else:
                        played = Play(game=game_id, seat=seat,
                                      cards=tokens if share else list(tokens))
                    if first_play[seat] is None:
                        first_play[seat] = played
                        self.first_index[seat] = i
                    last_of[seat] = self.last_play = played
                    out.append((line, played))
                    engine.feed_move(line, game, rnd, played, mask)
                else:
                    self.index = i
                    self.play(line, seat, tokens, mask)
                    raw = self.raw
                    quick = not raw and self.top_phoenix is None
            else:
                self.index = i
                self.other(kind, line, seat, data)
                raw = self.raw
                quick = not raw and self.top_phoenix is None

    def pre_play(self) -> bool:
        """The second deal (Startkarten minus the first 8), calls and exchanges in file
        order; whether each seat exchanged once."""
        rt = self.rt
        game = self.game
        self.emit(rt.start_line, Deal(game=game, hands=rt.six))  # (rt is read only)
        exchanged = 0  # the seats that exchanged, as bits
        once = True
        for kind, line, seat, give in rt.pre:
            if kind == "exchange":  # (give: a card for each of the three others)
                if exchanged >> seat & 1:
                    once = False
                exchanged |= 1 << seat
                a, b, c = _RECEIVERS[seat]  # (by seat, in order)
                self.emit(line, Exchange(game=game, seat=seat, give={
                    _SEAT_KEY[a]: give[a], _SEAT_KEY[b]: give[b], _SEAT_KEY[c]: give[c]}))
            else:
                self.call(line, seat, "tichu")
        return once and exchanged == 15

    def sound(self, exchanged_once: bool) -> bool:
        """Whether the play is followed: the engine applied the deals and the
        exchanges (so they are sound), each seat exchanged once, and the Startkarten
        list 14 different cards (so they are the first 8 and the second deal)."""
        rnd = self.rnd
        return rnd is not None and rnd.phase is _PLAY and exchanged_once and self.rt.fourteen

    # -- calls

    def call(self, line: int, seat: int, call: CallKind) -> None:
        if self.calls[seat] is not None:
            return  # the seat's call is made: BSW logs repeated clicks (and Tichu after Grand)
        ev = Call(game=self.game, seat=seat, call=call)
        if not self.playing:
            self.calls[seat] = call
            self.emit(line, ev)
            return
        rnd = self.rnd
        if rnd is None or self.raw:
            self.emit(line, ev)
            return
        first = self.first_play[seat]
        if (call == "tichu" and self.calls[seat] is None and first is not None
                and self.last_of[seat] is first  # (its one play so far)
                and self.moves_by_others(seat) <= 1):
            # logged just after the caller's first play: it was made with that play
            at = next(i for i, (_, e) in enumerate(self.out) if e is first)
            self.out.insert(at, (line, ev))
            self.calls[seat] = call
            self.dirty = True
            return
        self.settle(line)
        if (call == "tichu" and self.calls[seat] is None and first is None
                and rnd.phase == Phase.PLAY):
            self.calls[seat] = call
        self.emit(line, ev)  # otherwise reported by the engine (C001, C002, C003, P009)

    # -- play

    def moves_by_others(self, seat: int) -> int:
        """Plays and passes logged by other seats since ``seat``'s first play."""
        return sum(1 for _, (kind, s, _) in self.rt.play[self.first_index[seat] + 1 : self.index]
                   if s != seat and (kind == "play" or kind == "pass"))

    def other(self, kind: str, line: int, seat: int, data: Any) -> None:
        """A line of the Rundenverlauf other than a play or a pass (:data:`_Move`)."""
        if kind in ("tichu", "grand"):
            self.call(line, seat, "tichu" if kind == "tichu" else "grand_tichu")
        elif kind == "wish":
            last = self.last_play
            if last is not None and last.wish is None:
                self.swap(last, replace(last, wish=data))  # (the engine saw it without)
        elif kind == "gift":
            self.gift(line, seat)
        elif kind == "result":
            self.result(line, data)
        elif kind == "player":  # a substitute takes the seat during the round
            self.emit(line, Substitute(game=self.game, seat=seat, player=data))

    def wish_of(self) -> str | None:
        """The ``Wunsch:`` that belongs to the play being converted (the next records up
        to the next play), so that the engine applies the play with its wish."""
        play = self.rt.play
        for j in range(self.index + 1, len(play)):
            kind = play[j][1][0]
            if kind == "wish":
                return str(play[j][1][2])
            if kind == "play" or kind == "result":
                return None
        return None

    def play(self, line: int, seat: int, tokens: list[str], mask: Mask | None) -> None:
        rnd = self.rnd
        if rnd is None or self.raw:
            self.emit(line, Play(game=self.game, seat=seat, cards=list(tokens)))
            return
        if rnd.phase is not _PLAY:
            return  # cards logged after the rules ended the round: BSW noise
        hand = rnd.hands[seat]
        if not hand or mask is None or mask & ~hand:
            self.settle(line)
            # P008 (a seat that is out), or L002 / P001: the engine skips the rest of the
            # round, so nothing more is normalized
            self.emit(line, Play(game=self.game, seat=seat, cards=list(tokens)))
            self.raw = hand != 0
            return
        if mask & _PHOENIX_BIT and rnd.rules.phoenix_bombs:
            combo = classify(mask, None, None, True)  # variant phoenix-in-bombs (rules 9)
        else:
            combo = CLASSIFIED.get(mask, _UNKNOWN)
            if combo is _UNKNOWN:
                combo = classified(mask)
        bomb = combo is not None and combo.kind >= _BOMB
        top = rnd.top
        if top is not None and not rnd.trick_over and (
                bomb or seat != rnd.turn or (
                    # (a cheap pre-check: the winner, or the seat after it, would lead)
                    (seat == rnd.top_seat or not rnd.hands[rnd.top_seat])
                    and rnd.next_leader() == seat)):
            for s in self.missing_passes(seat, mask, combo, bomb):
                self.emit(line, self.passes[s])  # passes BSW did not log
            top = rnd.top
        if rnd.trick_over or rnd.dragon_due:
            # a bomb on the trick (another seat's, or under bsw the winner's own: rules 9.4)
            # keeps the Dragon's trick on the table: no gift before it, unless the winner's
            # gift is logged later (it gave the Dragon, then led the bomb)
            lands = bomb and combo is not None and rnd.bomb_lands(seat, combo)
            if rnd.gift_due() and not (lands and not (seat == rnd.top_seat
                                                      and self.gift_logged_later())):
                self.give_dragon(line)
                top = rnd.top
            lead = top is None or not lands
        else:
            lead = top is None
        if lead:
            top = None
            self.top_phoenix = None
        elif mask == _PHOENIX_BIT:
            combo = classify(mask, None, top)  # the Phoenix single: half a rank above the top
        if self.top_phoenix is not None and combo is not None and mask != _DOG_BIT:
            self.top_phoenix.above = combo
            self.top_phoenix = None
        wish = self.wish_of() if mask & _MAHJONG_BIT else None
        ev = Play(game=self.game, seat=seat, cards=list(tokens)) if wish is None else \
            Play(game=self.game, seat=seat, cards=list(tokens), wish=wish)
        if mask & _PHOENIX_BIT and combo is not None and mask != _PHOENIX_BIT:
            self.top_phoenix = _PhoenixPlay(ev, mask, top)
            self.phoenix.append(self.top_phoenix)
        if self.first_play[seat] is None:
            self.first_play[seat] = ev
            self.first_index[seat] = self.index
        self.last_of[seat] = self.last_play = ev
        self.out.append((line, ev))
        self.engine.feed(line, ev)

    def bomb_follows(self, index: int, seat: int) -> bool:
        """Whether the next play after record ``index`` of the Rundenverlauf is a bomb by
        ``seat``, with no Dragon gift before it: then ``seat``'s pass at ``index``, its
        taking the trick it won, makes that bomb its lead (rules 9.4), so it is kept."""
        play = self.rt.play
        for j in range(index + 1, len(play)):
            kind, s, data = play[j][1]
            if kind == "play":
                mask = data[1]
                if s != seat or mask is None:
                    return False
                combo = classify(mask, None, None, True) if (
                    mask & _PHOENIX_BIT and self.engine_phoenix_bombs()) else classified(mask)
                return combo is not None and combo.kind >= _BOMB
            if kind == "gift" or kind == "result":
                return False
        return False

    def engine_phoenix_bombs(self) -> bool:
        """Whether the round is played with ``phoenix-in-bombs`` (rules 9.1)."""
        return self.rnd is not None and self.rnd.rules.phoenix_bombs

    def missing_passes(self, seat: int, mask: Mask, combo: Combo | None,
                       bomb: bool) -> list[int]:
        """The passes BSW left out before a play by ``seat``, as far as the play shows them.

        A non-bomb by a seat not on turn shows that the seats on turn before it passed:
        the only legal reading. A play by the seat that would lead once everyone passed
        (the trick's winner, or the next seat when the winner is out) may also be its
        lead after passes BSW did not log: that reading is taken when the play cannot
        be a legal reply (it does not beat the top, or ignores the wish), or when it is a
        bomb on the Dragon's trick and a ``Drache an:`` follows. When both readings are
        legal (a bomb by the winner on its own trick, a reply that beats the top), the
        reply is taken -- nothing is invented -- unless the round's ``Ergebnis`` comes
        out only the other way (:meth:`decide`).
        """
        rnd = self.rnd
        assert rnd is not None
        top = rnd.top
        if top is None or rnd.trick_over:
            return []
        if not bomb and seat != rnd.turn:
            return rnd.passes_until(seat) or []
        if rnd.next_leader() != seat:
            return []
        seq = rnd.passes_to_close()
        if not seq or combo is None:
            return []
        wish = rnd.wish
        hands = rnd.hands
        if bomb:
            reply_ok = True  # a bomb may always be played on the trick (4.3, 6.4)
        else:
            reply = classify(mask, None, top) if mask == _PHOENIX_BIT else combo
            reply_ok = reply is not None and _could_beat(reply, top) and not (
                wish is not None and not mask & RANK_MASK[wish]
                and wish_play(hands[seat], wish, top, rnd.rules.phoenix_bombs) is not None)
        if not reply_ok:
            return seq
        if bomb and top.cards == _DRAGON_BIT and self.gift_logged_later():
            return seq  # the Dragon was given: its trick ended before this bomb
        # under bsw (9.4) the winner's bomb would land on its own trick even after the
        # passes: as a lead it needs the winner's pass too, its taking the trick
        took = [seat] if bomb and rnd.bomb_lands(seat, combo, over=True) else []
        if wish is None:
            return seq + took if self.decide() else []
        held = hands[seat] & RANK_MASK[wish]
        bombs = rnd.rules.phoenix_bombs
        if any(wish_play(hands[s], wish, top, bombs) is not None for s in seq) or (
                held and not mask & held):
            return []  # as a lead it would break the wish
        return seq + took if self.decide() else []

    def decide(self) -> bool:
        """A point where two legal readings of the log exist: True to take the other one."""
        self.decisions.append(self.index)
        return self.index in self.flips

    # -- the Dragon

    def gift_logged_later(self) -> bool:
        """Whether a ``Drache an:`` not yet used follows in the round."""
        for j in range(self.index + 1, len(self.rt.play)):
            kind = self.rt.play[j][1][0]
            if kind == "result":
                return False
            if kind == "gift" and j not in self.consumed:
                return True
        return False

    def settle(self, line: int) -> None:
        """Before an event other than a gift or a bomb on the Dragon: give a due Dragon."""
        rnd = self.rnd
        if rnd is not None and not self.raw and rnd.gift_due():
            self.give_dragon(line)

    def give_dragon(self, line: int) -> None:
        """The Dragon's trick is over and the next event is not its gift: use a
        ``Drache an:`` logged later in the round, or synthesize one at ``line``."""
        rnd = self.rnd
        assert rnd is not None
        winner = rnd.top_seat
        play = self.rt.play
        for j in range(self.index + 1, len(play)):
            at, (kind, to, _) = play[j]
            if kind == "result":
                break
            if kind == "gift" and j not in self.consumed:
                self.consumed.add(j)
                self.emit(at, DragonGift(game=self.game, seat=winner, to=to))
                return
        ev = DragonGift(game=self.game, seat=winner, to=(winner + 1) & 3)
        self.gifts.append(_Gift(ev, winner, rnd.trick_cards))
        self.emit(line, ev)

    def gift(self, line: int, to: int) -> None:
        if self.index in self.consumed:
            return
        rnd = self.rnd
        if rnd is not None and not self.raw and rnd.phase == Phase.PLAY and \
                rnd.top is not None and rnd.top.cards == _DRAGON_BIT:
            for s in rnd.passes_to_close():
                self.emit(line, self.passes[s])  # passes BSW did not log
        if rnd is None or self.raw or not rnd.gift_due():
            # no Dragon trick to give: as recorded (ignored after a double victory, else G003)
            self.emit(line, DragonGift(game=self.game, seat=self.dragon_player(), to=to))
            return
        self.emit(line, DragonGift(game=self.game, seat=rnd.top_seat, to=to))

    def dragon_player(self) -> int:
        """Who played the Dragon this round (0 if nobody did)."""
        for _, ev in self.out:
            if type(ev) is Play and "Dragon" in ev.cards:
                return ev.seat
        return 0

    # -- the end

    def result(self, line: int, recorded: tuple[int, int]) -> None:
        if not self.raw:
            self.settle(line)
        score = list(recorded)
        self.emit(line, RoundEnd(game=self.game, round=self.number, score=score))
        rnd = self.rnd
        if rnd is None or self.raw or rnd.phase != Phase.OVER or rnd.result is None:
            return
        if not self.gifts and self.calls == rnd.calls:
            self.mismatch = rnd.result.score != score  # the engine's own score
            return
        # a synthesized gift goes to the opponent that makes the Ergebnis come out
        options = [rnd.opponents(g.winner) for g in self.gifts]
        matching = [choice for choice in itertools.product(*options)
                    if self.score_with(rnd, choice) == score]
        self.mismatch = not matching
        for i, gift in enumerate(self.gifts):
            chosen = {choice[i] for choice in matching}
            if len(chosen) == 1:
                to = chosen.pop()
                if to != gift.event.to:
                    given = replace(gift.event, to=to)
                    self.swap(gift.event, given)
                    gift.event = given

    def score_with(self, rnd: RoundState, choice: tuple[int, ...]) -> list[int]:
        """The round's score (:func:`~tichu_analyze.core.state.score_round`) with the calls as
        the converter counts them and the synthesized gifts' tricks given as ``choice``."""
        piles = list(rnd.piles)
        for gift, to in zip(self.gifts, choice, strict=True):
            piles[gift.event.to] &= ~gift.cards
            piles[to] |= gift.cards
        return score_round(rnd.out, self.calls, piles, rnd.hands, rnd.penalty, rnd.rules).score

    def resolve_phoenix(self) -> None:
        """Pin the Phoenix's rank where its trick shows a reading other than the highest."""
        for info in self.phoenix:
            highest = classified(info.cards)
            if highest is None or highest.kind not in _AMBIGUOUS or highest.phoenix is None:
                continue  # a pair, triple or stairs with the Phoenix has one reading
            readings = _readings(info.cards, highest)
            if not readings:
                continue
            if info.below is not None:
                readings = [c for c in readings if beats(c, info.below)]
            if info.above is not None:
                readings = [c for c in readings if beats(info.above, c)] or readings
            if readings and readings[0].rank != highest.rank and readings[0].phoenix is not None:
                self.swap(info.event, replace(info.event,
                                              phoenix=RANK_TOKENS[readings[0].phoenix]))


_READINGS: dict[Mask, list[Combo]] = {}


def _readings(cards: Mask, highest: Combo) -> list[Combo]:
    """The readings of a straight or full house with the Phoenix (``highest``: the
    highest), highest first; empty when they all have one rank. A bounded memo (the
    list is never changed)."""
    got = _READINGS.get(cards)
    if got is None:
        # the ranks the Phoenix may stand for and keep the kind: one the other cards hold
        # (a full house), or one from just below the lowest of them (the Mahjong's 1
        # included) to just above the highest (a straight); any other rank leaves a single
        # or a gap
        held = [r for r in range(2, 15) if cards & RANK_MASK[r]]
        ranks: Iterable[int] = held  # a full house
        if highest.kind == Kind.STRAIGHT:
            low = 1 if cards & _MAHJONG_BIT else held[0]
            ranks = range(max(2, low - 1), min(14, held[-1] + 1) + 1)
        got = [c for r in ranks
               if (c := classify(cards, r)) is not None and c.kind == highest.kind]
        got.sort(key=lambda c: c.rank, reverse=True)
        if len({c.rank for c in got}) < 2:
            got = []
        if len(_READINGS) >= _BODIES_LIMIT:
            _READINGS.clear()
        _READINGS[cards] = got
    return got


def event_dict(ev: Event) -> EventDict:
    """``ev`` as the object of its JSON line, as the converter writes it: ``type`` and
    ``game`` first, then the event's fields in order, those not given (None) left out."""
    fields = {k: v for k, v in asdict(ev).items() if v is not None and k not in ("game", "ts")}
    return {"type": ev.__struct_config__.tag, "game": ev.game, **fields}


# --- writing ------------------------------------------------------------------


def _sort_key(token: str) -> tuple[int, int]:
    """BSW lists cards Dragon, Phoenix, then high to low, the Mahjong and the Dog last."""
    card = CARD_BY_TOKEN[token]
    order = {DRAGON: 100, PHOENIX: 99, MAHJONG: -1, DOG: -2}
    return (-order.get(card, RANK[card]), card)


def _tch_cards(tokens: Iterable[str]) -> str:
    return "".join(TCH_TOKEN[t] + " " for t in sorted(tokens, key=_sort_key))


def write_tch(events: Iterable[EventDict]) -> str:
    """One game of format-1 events as a ``.tch`` text in BSW's style.

    Per round: the first 8 cards (``Gr.Tichukarten``), the 14 cards before the
    exchange (``Startkarten``), the ``Grosses Tichu:`` and the ``Tichu:`` calls made
    before the exchange, ``Schupfen:``, ``BOMBE:``, then ``Rundenverlauf`` with every
    play and pass, the trick winner's own ``passt.`` when it collects a trick (as
    BSW logs it), later ``Tichu:`` calls where they happened, ``Wunsch:``, ``Drache
    an:`` and ``Ergebnis:`` (from ``round_end.score``). The ``phoenix`` field is not
    written: BSW does not record it. Names follow ``round_start.players`` and
    ``x_substitute`` (the lines after it name the substitute).
    """
    names = ["", "", "", ""]
    lines: list[str] = []
    writer: _RoundWriter | None = None
    for ev in events:
        kind = ev.get("type")
        if kind == "game_start":
            names = list(ev["players"])
        elif kind == "round_start":
            if ev.get("players"):
                names = list(ev["players"])
            writer = _RoundWriter(names, lines)
        elif kind == "x_substitute":  # the seat's lines name the substitute from here on
            names[ev["seat"]] = ev["player"]
        elif writer is not None:
            writer.event(ev)
    return "".join(line + "\n" for line in lines)


class _RoundWriter:
    """Writes one round; follows it on the engine (a private
    :class:`~tichu_analyze.core.engine.Engine`) to log the trick winner's collecting
    ``passt.`` as BSW does."""

    def __init__(self, names: list[str], lines: list[str]) -> None:
        self.names = names
        self.lines = lines
        self.hands8: list[list[str]] = []
        self.hands14: list[list[str]] = []
        self.grand: list[str] = []  # Grosses Tichu lines, written after the Startkarten
        self.exchanges: list[EventDict] = []
        self.engine: Engine | None = Engine("")
        self.engine.feed(0, GameStart(game="g", players=["a", "b", "c", "d"], target=TARGET))
        self.engine.feed(0, RoundStart(game="g", round=1))

    def who(self, seat: int) -> str:
        return f"({seat}){self.names[seat]}"

    def follow(self, ev: EventDict) -> RoundState | None:
        """Feed ``ev`` to the engine while the round is followed; the round's state."""
        engine = self.engine
        if engine is None:
            return None
        engine.feed(0, msgspec.convert({**ev, "game": "g"}, Event))
        return engine.games["g"].round

    def state(self) -> RoundState | None:
        """The round as the engine sees it, while it is followed."""
        return self.engine.games["g"].round if self.engine is not None else None

    def event(self, ev: EventDict) -> None:
        kind = ev.get("type")
        out = self.lines
        if kind == "deal":
            self.follow(ev)
            hands = ev["hands"]
            if not self.hands8:
                self.hands8 = [list(h) for h in hands]
                out.append(GRAND_HEADER)
                out.extend(f"{self.who(s)} {_tch_cards(h)}" for s, h in enumerate(hands))
            else:
                self.hands14 = [a + list(b) for a, b in zip(self.hands8, hands, strict=True)]
                out.append(START_HEADER)
                out.extend(f"{self.who(s)} {_tch_cards(h)}" for s, h in enumerate(self.hands14))
                out.extend(self.grand)
        elif kind == "call":
            label = "Grosses Tichu" if ev["call"] == "grand_tichu" else "Tichu"
            line = f"{label}: {self.who(ev['seat'])}"
            (self.grand if not self.hands14 else out).append(line)
        elif kind == "exchange":
            self.follow(ev)
            self.exchanges.append(ev)
            if len(self.exchanges) == 4:
                self.start_play()
        elif kind == "play":
            self.play(ev)
        elif kind == "pass":
            out.append(f"{self.who(ev['seat'])} passt.")
            rnd = self.state()
            if rnd is not None and rnd.phase == Phase.PLAY and rnd.top is not None \
                    and not rnd.trick_over and ev["seat"] == rnd.turn:
                self.follow(ev)
                if rnd.trick_over and rnd.hands[rnd.top_seat]:
                    out.append(f"{self.who(rnd.top_seat)} passt.")  # collects the trick
        elif kind == "dragon_gift":
            out.append(f"Drache an: {self.who(ev['to'])}")
            rnd = self.state()
            if rnd is not None and rnd.gift_due():
                self.follow(ev)
        elif kind == "round_end" and ev.get("score") is not None:
            a, b = ev["score"]
            out.append(f"Ergebnis: {a} - {b}")

    def start_play(self) -> None:
        out = self.lines
        out.append("Schupfen:")
        hands = [sum(BIT[CARD_BY_TOKEN[c]] for c in h) for h in self.hands14]
        for ev in sorted(self.exchanges, key=lambda e: int(e["seat"])):
            seat, give = ev["seat"], ev["give"]
            parts = "".join(f"{self.names[to]}: {TCH_TOKEN[give[str(to)]]} - "
                            for to in ((seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3))
            out.append(f"{self.who(seat)} gibt: {parts}")
            for to, token in give.items():
                b = BIT[CARD_BY_TOKEN[token]]
                hands[seat] &= ~b
                hands[int(to)] |= b
        bombers = [s for s in range(4) if bombs_in(hands[s])]
        if bombers:
            out.append("BOMBE: " + "".join(f"{self.who(s)} " for s in bombers))
        out.append(PLAY_HEADER)
        rnd = self.state()
        if rnd is None or rnd.phase != Phase.PLAY:
            self.engine = None  # the deal or the exchange is not sound: not followed

    def play(self, ev: EventDict) -> None:
        seat = ev["seat"]
        self.lines.append(f"{self.who(seat)}: {_tch_cards(ev['cards'])}")
        if ev.get("wish") is not None and "Mahjong" in ev["cards"]:
            self.lines.append(f"Wunsch:{_RANK_LETTERS.get(ev['wish'], ev['wish'])}")
        rnd = self.state()
        if rnd is None or rnd.phase != Phase.PLAY:
            return
        mask = _mask(ev["cards"])
        if mask is None or mask & ~rnd.hands[seat]:
            self.engine = None  # cards not held: no longer followed
            return
        self.follow(ev)
