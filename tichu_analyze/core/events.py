"""Format-1 log events as typed values (log-format.md).

Each event type is a frozen ``msgspec.Struct`` tagged by its ``type`` field, so
one decoder validates a line's shape and builds the value in a single C call.
Fields whose bad values have their own diagnostic (card tokens: L003; the
wish: W002) are kept as raw values here and checked by the replay.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

Seat = Annotated[int, msgspec.Meta(ge=0, le=3)]
GameId = str


class _Event(msgspec.Struct, frozen=True, tag_field="type", kw_only=True):
    game: GameId
    ts: float | None = None


class GameStart(_Event, tag="game_start", frozen=True):
    players: Annotated[list[str], msgspec.Meta(min_length=4, max_length=4)]
    target: Annotated[int, msgspec.Meta(gt=0)] | None = None  # None: the variant's default
    meta: dict[str, Any] | None = None
    variants: list[str] | None = None


class RoundStart(_Event, tag="round_start", frozen=True):
    round: int
    players: Annotated[list[str], msgspec.Meta(min_length=4, max_length=4)] | None = None
    dummy: int | None = None  # trichu: the dummy's seat


class Deal(_Event, tag="deal", frozen=True):
    hands: Annotated[list[list[str]], msgspec.Meta(min_length=4, max_length=4)]


class Call(_Event, tag="call", frozen=True):
    seat: Seat
    call: Literal["grand_tichu", "tichu"]


class Exchange(_Event, tag="exchange", frozen=True):
    seat: Seat
    give: dict[str, str]


class Play(_Event, tag="play", frozen=True):
    seat: Seat
    cards: Annotated[list[str], msgspec.Meta(min_length=1)]
    wish: Any = None
    phoenix: Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"] | None = None


class Pass(_Event, tag="pass", frozen=True):
    seat: Seat


class DragonGift(_Event, tag="dragon_gift", frozen=True):
    seat: Seat
    to: Seat


class RoundEnd(_Event, tag="round_end", frozen=True):
    round: int | None = None
    finish_order: Annotated[list[Seat], msgspec.Meta(min_length=4, max_length=4)] | None = None
    score: Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)] | None = None


class GameEnd(_Event, tag="game_end", frozen=True):
    score: Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)] | dict[
        str, int] | None = None
    """Per team; in ``trichu`` a ``dict`` of the persons' totals (the replay holds each
    game to its own shape: L002)."""


class Substitute(_Event, tag="x_substitute", frozen=True):
    """tichu-analyze's own event (docs/log-format.md, "Substitutes during a round"): from
    here on ``player`` makes the decisions of ``seat``, having taken it during the round.
    An ``x_`` event, so other readers skip it; the ``.tch`` reader writes it."""

    seat: Seat
    player: str


Event = (
    GameStart | RoundStart | Deal | Call | Exchange | Play | Pass | DragonGift | RoundEnd | GameEnd
    | Substitute
)
"""Any event of a log: the format-1 events and the ``x_`` events this tool reads."""

EVENT_TYPES: dict[str, type[Event]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (
        GameStart, RoundStart, Deal, Call, Exchange, Play, Pass, DragonGift, RoundEnd, GameEnd
    )
}
"""The ``type`` value of each format-1 event -> its class."""

EXTENSION_TYPES: dict[str, type[Event]] = {"x_substitute": Substitute}
"""The ``x_`` events this tool reads (a malformed one is skipped, as any ``x_`` event)."""


# --- the variants' events ----------------------------------------------------
# The decoder above holds four-player games to four seats. A game of a variant with
# six seats (``tientsin``) or per-person totals (``trichu``) is read with these wider
# shapes instead (``widen``, used by logfile for a line the four-player decoder
# refused); the replay then holds every seat to the game's own number of seats.

WideSeat = Annotated[int, msgspec.Meta(ge=0, le=5)]
_Names = Annotated[list[str], msgspec.Meta(min_length=4, max_length=6)]
_WIDER: dict[str, dict[str, Any]] = {
    "game_start": {"players": _Names},
    "round_start": {"players": _Names | None},
    "deal": {"hands": Annotated[list[list[str]], msgspec.Meta(min_length=4, max_length=6)]},
    "call": {"seat": WideSeat},
    "exchange": {"seat": WideSeat},
    "play": {"seat": WideSeat},
    "pass": {"seat": WideSeat},
    "dragon_gift": {"seat": WideSeat, "to": WideSeat},
    "round_end": {"finish_order": Annotated[list[WideSeat], msgspec.Meta(
        min_length=4, max_length=6)] | None},
    "x_substitute": {"seat": WideSeat},
}


def _widened(kind: str, cls: type[Any]) -> type[msgspec.Struct]:
    """``cls`` with the wider field types of ``_WIDER[kind]``."""
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for f in msgspec.structs.fields(cls):
        typ = _WIDER.get(kind, {}).get(f.name, f.type)
        fields.append((f.name, typ) if f.required else (f.name, typ, f.default))
    return msgspec.defstruct(f"Wide{cls.__name__}", fields, tag=kind, tag_field="type",
                             kw_only=True, frozen=True)


WIDE_TYPES: dict[str, type[msgspec.Struct]] = {
    kind: _widened(kind, cls) for kind, cls in (EVENT_TYPES | EXTENSION_TYPES).items()
}
"""The ``type`` value of each event -> its shape in a variant game (six seats, trichu)."""


def widen(obj: dict[str, Any]) -> Event:
    """The event of the decoded JSON object ``obj`` read with the variants' wider shapes
    (:data:`WIDE_TYPES`), as the ordinary event class; raises ``msgspec.ValidationError``
    (or KeyError for an unknown ``type``)."""
    kind = obj["type"]
    wide = msgspec.convert(obj, WIDE_TYPES[kind])
    fields = {f: getattr(wide, f) for f in wide.__struct_fields__}
    return (EVENT_TYPES | EXTENSION_TYPES)[kind](**fields)
