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
    target: Annotated[int, msgspec.Meta(gt=0)] = 1000
    meta: dict[str, Any] | None = None


class RoundStart(_Event, tag="round_start", frozen=True):
    round: int
    players: Annotated[list[str], msgspec.Meta(min_length=4, max_length=4)] | None = None


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
    score: Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)] | None = None


Event = (
    GameStart | RoundStart | Deal | Call | Exchange | Play | Pass | DragonGift | RoundEnd | GameEnd
)
"""Any format-1 event."""

EVENT_TYPES: dict[str, type[Event]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (
        GameStart, RoundStart, Deal, Call, Exchange, Play, Pass, DragonGift, RoundEnd, GameEnd
    )
}
"""The ``type`` value of each event -> its class."""
