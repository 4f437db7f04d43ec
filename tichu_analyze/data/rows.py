"""The values of the dataset rows, from the engine's state and steps (compiled by mypyc).

The per-event and per-round work of ``ingest``: :func:`play_values` (a ``plays`` row),
:func:`round_values` (the ``rounds`` rows), the hand features, and :class:`PlayRows`, which
follows a replay's steps and keeps each open round's ``plays`` rows until the round is
closed. Rows are tuples (lists) of values in the column order of
:data:`tichu_analyze.data.datasets.COLUMNS`; :mod:`tichu_analyze.data.datasets` names the columns,
converts the rows to Arrow and writes them. This module is on the hot path: plain typed
Python that mypyc compiles (``setup.py``), without I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, Final

from ..core.cards import (
    ACE,
    BIT,
    CARD_BY_TOKEN,
    DOG,
    DRAGON,
    MAHJONG,
    PHOENIX,
    RANK_MASK,
    RANK_TOKENS,
    TOKENS,
)
from ..core.combos import Combo, Kind, bombs_in
from ..core.events import Pass, Play, Substitute
from ..core.state import STATUS_SCORED, GameState, RoundState, Step, Trick

# Names the per-event code reads, as constants of this module (mypyc then reads them
# without a dictionary lookup).
_RANK_TOKENS: Final = RANK_TOKENS
_PLAY: Final = Play
_PASS: Final = Pass
_SUBSTITUTE: Final = Substitute

_RANGES: Final[dict[int, tuple[int, int]]] = {
    8: (-(1 << 7), (1 << 7) - 1), 16: (-(1 << 15), (1 << 15) - 1), 32: (-(1 << 31), (1 << 31) - 1)}


def fit(value: int | None, bits: int) -> int | None:
    """``value`` if the integer type of ``bits`` holds it, else None (a log may say anything)."""
    if value is None:
        return None
    low, high = _RANGES[bits]
    return value if low <= value <= high else None



_KIND_NAMES: Final[dict[int, str]] = {kind: kind.name.lower() for kind in Kind}


def _rank_token(rank: int | None) -> str | None:
    return _RANK_TOKENS.get(rank) if rank is not None else None


_BYTE_TOKENS: Final[tuple[tuple[tuple[str, ...], ...], ...]] = tuple(
    tuple(tuple(TOKENS[8 * i + b] for b in range(8) if value >> b & 1 and 8 * i + b < len(TOKENS))
          for value in range(256))
    for i in range(7))  # [byte i of a mask][its value]: the tokens of its cards, in order


def tokens(mask: int) -> list[str]:
    """:func:`~tichu_analyze.core.cards.tokens_of`, a byte of the mask at a time."""
    out: list[str] = []
    for table in _BYTE_TOKENS:
        if not mask:
            break
        value = mask & 255
        if value:
            out.extend(table[value])
        mask >>= 8
    return out


def _mask(cards: Iterable[str]) -> int:
    m = 0
    for t in cards:
        m |= BIT[CARD_BY_TOKEN[t]]
    return m



# ------------------------------------------------------------------------ hand features


_NORMALS: Final = sum(BIT[c] for c in range(2, 54))
_RANK_STARTS: Final = sum(BIT[2 + 4 * i] for i in range(13))
_MAHJONG_BIT: Final = BIT[MAHJONG]


def max_disjoint_bombs(hand: int) -> int:
    """The most bombs of ``hand`` (:func:`~tichu_analyze.core.combos.bombs_in`) that can be held at
    once without two of them sharing a card: four 7s and a 3-7 straight flush count 1, a
    seven-card straight flush counts 1."""
    normal = hand & _NORMALS
    if not (normal & normal >> 1 & normal >> 2 & normal >> 3 & _RANK_STARTS
            or normal & normal >> 4 & normal >> 8 & normal >> 12 & normal >> 16):
        return 0  # no four of a kind (4 consecutive ids from a rank's first card) and no
        # five cards of one suit in consecutive ranks (ids 4 apart)
    return _most_disjoint([b.cards for b in bombs_in(hand)], 0, 0)


def _most_disjoint(bombs: list[int], start: int, used: int) -> int:
    """The most of ``bombs[start:]`` that share no card with each other nor with ``used``."""
    most = 0
    for i in range(start, len(bombs)):
        if not bombs[i] & used:
            most = max(most, 1 + _most_disjoint(bombs, i + 1, used | bombs[i]))
    return most


_NIBBLES: Final = sum(1 << 4 * k for k in range(14))  # bit 0 of nibbles 0..13
_PAIRS: Final = _NIBBLES * 0x5
_QUADS: Final = _NIBBLES * 0x3
_RANKS_ONLY: Final = _NIBBLES ^ 1  # nibbles 1..13: ranks 2..A


def count_singles(hand: int) -> int:
    """Normal ranks 2..A of which ``hand`` holds exactly one card, not counting those inside a
    run of 5 or more consecutive ranks that the hand holds (the Mahjong counting as rank 1,
    the Phoenix as nothing)."""
    # nibble r - 1 of x: the cards of rank r (the Mahjong alone in nibble 0)
    x = (hand >> 2 & (1 << 52) - 1) << 4 | hand >> MAHJONG & 1
    n = x - (x >> 1 & _PAIRS)
    n = (n & _QUADS) + (n >> 2 & _QUADS)  # each nibble: how many cards of its rank
    present = (n | n >> 1 | n >> 2) & _NIBBLES
    once = n & ~(n >> 1) & ~(n >> 2) & _RANKS_ONLY
    starts = present & present >> 4 & present >> 8 & present >> 12 & present >> 16
    in_runs = starts | starts << 4 | starts << 8 | starts << 12 | starts << 16
    return (once & ~in_runs).bit_count()


_NO_HAND: Final[tuple[Any, ...]] = (None,) * 9  # the nine hand features (datasets._HAND_FEATURES)
_DRAGON_BIT: Final = BIT[DRAGON]
_PHOENIX_BIT: Final = BIT[PHOENIX]
_DOG_BIT: Final = BIT[DOG]
_ACES: Final = RANK_MASK[ACE]
_KINGS: Final = RANK_MASK[13]


def hand_values(hand: int) -> tuple[Any, ...]:
    """The values of :func:`~tichu_analyze.data.datasets.hand_features`, in the order of
    its keys."""
    if not hand:
        return _NO_HAND
    dragon = hand & _DRAGON_BIT != 0
    phoenix = hand & _PHOENIX_BIT != 0
    dog = hand & _DOG_BIT != 0
    aces = (hand & _ACES).bit_count()
    kings = (hand & _KINGS).bit_count()
    bombs = max_disjoint_bombs(hand)
    singles = count_singles(hand)
    strength = (3.0 * dragon + 2.5 * phoenix - 1.0 * dog + 1.5 * aces + 0.5 * kings
                + 3.0 * bombs - 0.3 * singles)
    return (tokens(hand), dragon, phoenix, hand & _MAHJONG_BIT != 0, dog, aces, bombs,
            singles, round(strength, 1))


# ------------------------------------------------------------------------ row builders


_NO_VALUES: Final[list[Any]] = []  # the empty list of a pass's cards and of an event without codes
_PLAYED: Final[dict[int, list[str]]] = {}  # the token lists of cards played, shared by their rows
_FIRST_BOMB: Final = Kind.FOUR_OF_A_KIND


class Seating:
    """Who sits where in a round, by seat, as the engine's state tells it: the names
    (``players``), the single partner's name (None with two partners), the person who
    decides the seat's plays (the solo player for the ``trichu`` dummy), the ``trichu``
    role, and the names of the partners and opponents in playing order."""

    def __init__(self, players: list[str], partner: list[str | None], played_by: list[str],
                 role: list[str | None], partners: list[list[str]],
                 opponents: list[list[str]]) -> None:
        self.players = players
        self.partner = partner
        self.played_by = played_by
        self.role = role
        self.partners = partners
        self.opponents = opponents

    @staticmethod
    def of(rnd: RoundState, players: list[str] | None = None) -> Seating:
        """The seating of ``rnd`` (``players``: other names by seat, such as its
        occupants after a substitute took a seat; default: its players)."""
        if players is None:
            players = rnd.players
        seats = range(rnd.seats)
        mates = [rnd.partners(s) for s in seats]
        dummy, solo = rnd.dummy, rnd.solo
        return Seating(
            players,
            [players[m[0]] if len(m) == 1 else None for m in mates],
            [players[solo] if s == dummy else players[s] for s in seats],
            [None if dummy < 0 else "dummy" if s == dummy else "solo" if s == solo else "pair"
             for s in seats],
            [[players[p] for p in m] for m in mates],
            [[players[o] for o in rnd.opponents(s)] for s in seats],
        )


def play_values(file: str, game: str, number: int, seating: Seating, wished: int | None,
                 wisher: int, step: Step, previous_ts: float | None) -> tuple[Any, ...] | None:
    """The values of a ``plays`` row in column order
    (:data:`~tichu_analyze.data.datasets.COLUMNS` names them); None for an event that is
    neither a play nor a pass. ``wished``, ``wisher``: the round's wish as it stands after
    the step. Empty lists are shared: never change them."""
    ev = step.event
    kind = type(ev)
    applied = not step.skipped
    combo = step.combo
    if kind is _PASS:
        action = "pass"
        cards: list[str] = _NO_VALUES
        length: int | None = None
    elif kind is _PLAY:
        action = "play"
        if not applied:
            cards = list(ev.cards)  # type: ignore[union-attr]
        else:
            mask = combo.cards if combo is not None else _mask(ev.cards)  # type: ignore[union-attr]
            found = _PLAYED.get(mask)
            if found is None:
                if len(_PLAYED) >= 1 << 14:
                    _PLAYED.clear()
                found = _PLAYED[mask] = tokens(mask)
            cards = found
        length = len(cards)
        if length > 127:
            length = None
    else:
        return None
    seat: int = ev.seat  # type: ignore[union-attr]
    if combo is not None:
        combo_kind: str | None = _KIND_NAMES[combo.kind]
        rank: float | None = float(combo.rank)
        phoenix = combo.phoenix
        phoenix_token = _RANK_TOKENS.get(phoenix) if phoenix is not None else None
        bomb = combo.kind >= _FIRST_BOMB
        wish_made = (_RANK_TOKENS.get(wished) if wished is not None and seat == wisher
                     and combo.cards & _MAHJONG_BIT else None)
    else:
        combo_kind = rank = phoenix_token = wish_made = None
        bomb = False
    top = step.top
    if top is not None:
        top_combo: str | None = _KIND_NAMES[top.kind]
        top_rank: float | None = float(top.rank)
        top_length: int | None = top.length
    else:
        top_combo = top_rank = top_length = None
    top_seat = step.top_seat
    wish_open = step.wish_open
    ts = ev.ts
    diagnostics = step.diagnostics
    players = seating.players
    return (
        file, game, number, step.trick, step.index, step.line, ts,
        seat, seat & 1, seating.partner[seat], players[seat], seating.played_by[seat],
        action, applied, cards, combo_kind, rank, length, phoenix_token, bomb,
        step.out_of_turn, step.lead,
        top_combo, top_rank, top_length, top_seat,
        players[top_seat] if top_seat is not None else None,
        _RANK_TOKENS.get(wish_open) if wish_open is not None else None,
        wish_made, step.wish_fulfilled,
        step.cards_left if applied else None, step.went_out,
        step.trick_points if applied else None,
        False,
        ts - previous_ts if ts is not None and previous_ts is not None else None,
        [d.code for d in diagnostics] if diagnostics else _NO_VALUES,
    )


def _card_token(card: int | None) -> str | None:
    return TOKENS[card] if card is not None else None


def _cards_to(gives: dict[int, int], seats: list[int]) -> list[str]:
    """The cards of an exchange ``gives`` that went to ``seats``, in their order."""
    return [TOKENS[gives[s]] for s in seats if s in gives]


def _cards_from(given: list[dict[int, int]], seats: list[int], to: int) -> list[str]:
    """The cards ``seats`` gave to ``to`` in the exchange, in their order."""
    return [TOKENS[given[s][to]] for s in seats if to in given[s]]


def round_values(game: GameState, rnd: RoundState, file: str) -> list[tuple[Any, ...]]:
    """The values of the ``rounds`` rows in column order, one row per seat (four, six in
    ``tientsin``): the round from that seat's side (:data:`~tichu_analyze.data.datasets.COLUMNS`
    names them). ``file``: the file column's value."""
    seating = Seating.of(rnd)
    players = rnd.players
    seats = rnd.seats
    tientsin = seats >> 1 != 2  # no double victory: a team of three (rules 9.2)
    result = rnd.result
    status = rnd.status
    scored = status == STATUS_SCORED and result is not None
    order = result.finish_order if scored and result is not None else None
    position = {s: i + 1 for i, s in enumerate(order)} if order else {}
    dv = result is not None and result.double_victory
    winners = order[0] & 1 if order else None
    score = rnd.score if scored else None
    recorded = rnd.recorded_score
    hands = (rnd.dealt8, rnd.dealt, rnd.exchanged_hands())
    exchanged = all(x is not None for x in rnd.exchanges)
    given = [x or {} for x in rnd.exchanges] if exchanged else [{} for _ in rnd.exchanges]
    gifts_given = Counter(w for w, _ in rnd.dragon_gifts)
    gifts_received = Counter(to for _, to in rnd.dragon_gifts)
    wished = rnd.wished
    wisher = rnd.wisher if wished is not None else None
    fulfilled_by = rnd.wish_fulfilled_by
    pile_points = result.pile_points if scored and result is not None else None
    number, line = fit(rnd.number, 32), fit(rnd.line, 32)
    rows: list[tuple[Any, ...]] = []
    for seat in range(seats):
        team = seat & 1
        call = rnd.calls[seat]
        left, right = (seat + 1) % seats, (seat + seats - 1) % seats
        mates, others = rnd.partners(seat), rnd.opponents(seat)
        partner = mates[0] if len(mates) == 1 else None
        gives = given[seat]
        victory_for = (dv and winners == team) if order else None
        victory_against = (dv and winners != team) if order else None
        values: list[Any] = [
            file, game.id, number, line, status, seat, team, seating.partner[seat],
            players[seat], seating.played_by[seat], seating.role[seat],
            seating.partners[seat], seating.opponents[seat],
            call,
            fit(rnd.call_lines[seat], 32) if call is not None else None,
            (result.seat_calls[seat] > 0) if call is not None and order and result else None,
            position.get(seat),
            (order[0] == seat) if order else None,
            None if tientsin else victory_for,
            None if tientsin else victory_against,
            victory_for, victory_against,
            pile_points[seat] if pile_points is not None else None,
            result.card_points[team] if scored and result else None,
            result.call_points[team] if scored and result else None,
            score[team] if score is not None else None,
            score[1 - team] if score is not None else None,
            fit(recorded[team], 32) if recorded is not None else None,
            fit(recorded[1 - team], 32) if recorded is not None else None,
        ]
        for masks in hands:
            values.extend(hand_values(masks[seat]))
        to_partner = gives.get(partner) if partner is not None else None
        from_partner = given[partner].get(seat) if partner is not None else None
        values += (
            _card_token(gives.get(left)), _card_token(to_partner),
            _card_token(gives.get(right)), _card_token(given[left].get(seat)),
            _card_token(from_partner), _card_token(given[right].get(seat)),
            _cards_to(gives, mates) if exchanged else None,
            _cards_to(gives, others) if exchanged else None,
            _cards_from(given, mates, seat) if exchanged else None,
            _cards_from(given, others, seat) if exchanged else None,
            fit(gifts_given[seat], 8), fit(gifts_received[seat], 8),
            fit(rnd.tricks_won[seat], 8), fit(rnd.bombs[seat], 8),
            _rank_token(wished) if wisher == seat else None,
            (fulfilled_by is not None) if wisher == seat else None,
            (fulfilled_by == seat) if wished is not None else None,
            [name for _, s, name in rnd.substitutes if s == seat] if rnd.substitutes
            else _NO_VALUES,
        )
        rows.append(tuple(values))
    return rows


class OpenRound:
    """What :class:`PlayRows` holds of a round until it is closed: its ``plays`` rows by
    seat, and where the rows of the combinations that may still take a trick are."""

    def __init__(self, file: str, game: str, rnd: RoundState) -> None:
        self.file = file  # the file column's value
        self.game = game
        self.number = rnd.number
        self.players = rnd.players
        self.seating = Seating.of(rnd)
        self.plays: list[list[tuple[Any, ...]]] = [[] for _ in range(rnd.seats)]  # by seat
        self.where: dict[int, tuple[int, int]] = {}  # id of a combination played ->
        # (seat, index of its row in plays[seat])
        self.previous_ts: float | None = None

    def won(self, top: Combo) -> None:
        """The combination ``top`` took a trick: its row gets ``wins_trick``."""
        found = self.where.get(id(top))
        if found is not None:
            rows = self.plays[found[0]]
            row = rows[found[1]]
            rows[found[1]] = (*row[:WINS_TRICK], True, *row[WINS_TRICK + 1:])


WINS_TRICK: Final = 33
"""The place of ``wins_trick`` in a ``plays`` row (:data:`tichu_analyze.data.datasets.COLUMNS`)."""


class PlayRows:
    """The ``plays`` rows of the rounds a replay has open, by game id. Its methods are those of
    a visitor (:class:`~tichu_analyze.core.visitor.Visitor`) that ``DatasetVisitor`` hands to
    the replay."""

    def __init__(self) -> None:
        self.rounds: dict[str, OpenRound] = {}

    def begin_round(self, game: GameState, rnd: RoundState, file: str) -> OpenRound:
        open_round = self.rounds[game.id] = OpenRound(file, game.id, rnd)
        return open_round

    def end_round(self, game: GameState) -> OpenRound | None:
        """The round of ``game`` is closed: its rows, taken from here."""
        return self.rounds.pop(game.id, None)

    def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
        open_round = self.rounds.get(game.id)
        if open_round is None:
            return
        ev = step.event
        kind = type(ev)
        if kind is _PLAY or kind is _PASS:
            row = play_values(open_round.file, open_round.game, open_round.number,
                              open_round.seating, rnd.wished, rnd.wisher, step,
                              open_round.previous_ts)
            if row is not None:
                seat: int = row[SEAT]
                rows = open_round.plays[seat]
                combo = step.combo
                if combo is not None:
                    open_round.where[id(combo)] = (seat, len(rows))
                rows.append(row)
        elif kind is _SUBSTITUTE and not step.skipped:  # its plays are credited to the newcomer
            open_round.seating = Seating.of(rnd, rnd.occupants)
        open_round.previous_ts = ev.ts

    def visit_trick(self, game: GameState, rnd: RoundState, trick: Trick) -> None:
        open_round = self.rounds.get(game.id)
        if open_round is not None and trick.top is not None:
            open_round.won(trick.top)


SEAT: Final = 7
"""The place of ``seat`` in a ``plays`` row."""
