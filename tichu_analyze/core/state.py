"""The public state of a game being replayed, and the one implementation of its rules'
bookkeeping: whose turn it is, when a trick is over, when a round ends, and the score.

Pure: no I/O, standard library and the package's core only, compilable by mypyc.
The engine (:mod:`tichu_analyze.core.engine`) owns one :class:`GameState` per game and
applies every event to it in one place; anyone may read it (a
:class:`~tichu_analyze.core.visitor.Visitor` is handed the state with every event), and
the queries here (:meth:`RoundState.legal_plays`, :meth:`RoundState.may_pass`,
:meth:`RoundState.bound_by_wish`, :meth:`RoundState.wish_plays`,
:meth:`RoundState.round_score`) answer from it without changing it. Only the engine
writes to it.

Hands and card sets are int bitmasks (:mod:`tichu_analyze.core.cards`); seats are
``0 .. seats - 1``; the team of a seat is ``seat % 2``. The number of seats is a
property of the game (:attr:`GameState.seats`, :attr:`RoundState.seats`): 4, or 6 in
the variant ``tientsin`` (rules.md 9.2). ``trichu`` (9.3) keeps four seats, one of
them the open dummy (:attr:`RoundState.dummy`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .cards import BIT, DOG, DRAGON, RANK_MASK, points
from .combos import Combo, beats, can_play_rank, legal_plays
from .diagnostics import Diagnostic
from .events import Event
from .variants import OPPONENTS, PARTNERS, PUBLISHER, Rules

__all__ = [
    "SEATS",
    "STATUS_INCOMPLETE",
    "STATUS_SCORED",
    "STATUS_SKIPPED",
    "GameState",
    "Phase",
    "RoundScore",
    "RoundState",
    "Step",
    "Trick",
    "call_value",
    "double_victory",
    "next_seat_table",
    "opponents",
    "partners",
    "receivers",
    "round_over",
    "team_victory",
    "score_round",
    "wish_play",
]

SEATS = 4
"""Seats at the table in the four-player game."""


class Phase(IntEnum):
    """Where a round stands."""

    DEAL = 0  # round_start seen, waiting for the first deal
    GRAND = 1  # first 8 cards dealt: Grand Tichu calls
    EXCHANGE = 2  # all 14 dealt: exchanges (and Tichu calls)
    PLAY = 3
    OVER = 4  # the rules ended the round
    SKIPPED = 5  # a fatal diagnostic: skip to the next round_start


STATUS_SCORED = "scored"
STATUS_INCOMPLETE = "incomplete"
STATUS_SKIPPED = "skipped"

_DEAL = Phase.DEAL
_DRAGON_BIT = BIT[DRAGON]
_DOG_BIT = BIT[DOG]


def _build_next(seats: int) -> tuple[tuple[int, ...], ...]:
    """``table[holding][seat]``: the first seat after ``seat`` whose bit is set in
    ``holding`` (the seats that still hold cards); ``seat`` itself when none is."""
    return tuple(
        tuple(next(((seat + k) % seats for k in range(1, seats + 1)
                    if holding >> ((seat + k) % seats) & 1), seat) for seat in range(seats))
        for holding in range(1 << seats)
    )


_NEXT_TABLES: dict[int, tuple[tuple[int, ...], ...]] = {SEATS: _build_next(SEATS)}


def next_seat_table(seats: int) -> tuple[tuple[int, ...], ...]:
    """The table of "the next seat holding cards" for ``seats`` seats:
    ``table[holding][seat]`` is the first seat after ``seat`` (clockwise) whose bit is set
    in ``holding``. The one implementation of that rule (rules 2.3-2.5)."""
    table = _NEXT_TABLES.get(seats)
    if table is None:
        table = _NEXT_TABLES[seats] = _build_next(seats)
    return table


def double_victory(out: list[int]) -> bool:
    """Whether the seats out so far, in order, make a double victory (rules 7.2): the
    first two out are partners."""
    return len(out) == 2 and (out[0] - out[1]) & 1 == 0


def team_victory(out: list[int], seats: int) -> bool:
    """Whether the seats out so far, in order, are a whole team while every opponent
    still holds cards: a double victory for four (rules 7.2), a triple victory for six
    (9.2). It ends the round at once; card points are not counted."""
    if len(out) != seats >> 1:
        return False
    first = out[0]
    return all((s - first) & 1 == 0 for s in out)


def round_over(out: list[int], seats: int) -> bool:
    """The one rule of round end (rules 7.1-7.3, 9.2): a double (triple) victory, or a
    single seat left holding cards."""
    return len(out) >= seats - 1 or team_victory(out, seats)


def partners(seat: int, seats: int) -> list[int]:
    """The other seats of ``seat``'s team, in playing order after it (one for four
    seats, two for six)."""
    return [(seat + k) % seats for k in range(2, seats, 2)]


def opponents(seat: int, seats: int) -> list[int]:
    """The seats of the other team, in playing order after ``seat`` (two for four seats,
    three for six)."""
    return [(seat + k) % seats for k in range(1, seats, 2)]


def receivers(seat: int, rules: Rules = PUBLISHER) -> int:
    """The seats (as bits) ``seat`` gives a card to in the exchange under ``rules``: every
    other seat (rules 1.4), its partners (9.2), or the other team's seats (9.3)."""
    seats = rules.seats
    if rules.exchange == PARTNERS:
        return sum(1 << s for s in partners(seat, seats))
    if rules.exchange == OPPONENTS:
        return sum(1 << s for s in opponents(seat, seats))
    return ((1 << seats) - 1) & ~(1 << seat)


def wish_play(hand: int, wish: int, top: Combo | None,
              phoenix_bombs: bool = False) -> Combo | None:
    """The wish test of rules 6.2: a combination of ``hand`` holding a real card of rank
    ``wish`` that may be played on ``top`` (None: a lead), or None. The one query behind
    :meth:`RoundState.wish_play` and W001. ``phoenix_bombs``: the house rule
    ``phoenix-in-bombs``, under which a bomb the Phoenix completes counts (rules 9.1)."""
    if not hand & RANK_MASK[wish]:
        return None
    return can_play_rank(hand, wish, top, phoenix_bombs)


def call_value(call: str) -> int:
    """What a call is worth (rules 7.4): 200 for a Grand Tichu, 100 for a Tichu."""
    return 200 if call == "grand_tichu" else 100


@dataclass(slots=True)
class RoundScore:
    """The score of a round that the rules ended (rules 7).

    ``finish_order``: every seat, those that went out first, in order.
    ``card_points``: per team, after the last seat's hand and tricks were handed
    over (200 and 0 after a double victory). ``call_points``: per team. ``penalty``:
    per team, points of the ``wish-penalty-200`` variant. ``score``: per team, the
    sum. ``seat_calls``: per seat, what its call brought (+ its value when the caller
    went out first, - its value when not, 0 without a call that counts). ``piles``:
    per seat, the cards of the tricks it took (Dragon tricks given to it included),
    before the hand-over; :attr:`pile_points` their points.
    """

    finish_order: list[int]
    double_victory: bool
    card_points: list[int]
    call_points: list[int]
    penalty: list[int]
    score: list[int]
    seat_calls: list[int]
    piles: list[int]

    @property
    def pile_points(self) -> list[int]:
        """Per seat, the points of the tricks it took, before the hand-over."""
        return [points(p) for p in self.piles]


def score_round(out: list[int], calls: list[str | None], piles: list[int], hands: list[int],
                penalty: list[int] | None = None, rules: Rules = PUBLISHER) -> RoundScore:
    """The one implementation of scoring (rules 7.2-7.5, 9.2).

    ``out``: the seats that went out, in order (at least one); a double victory when
    the first two are partners. ``calls``: per seat, the call that counts. ``piles``:
    per seat, the cards of the tricks it took. ``hands``: per seat, the cards still
    held. ``penalty``: per team, points added (variants). ``rules``: what a whole team
    out first scores, and where the last seats' tricks go.
    """
    seats = len(hands)
    first = out[0]
    victory = team_victory(out, seats)
    c0 = c1 = 0  # call points per team
    seat_calls = [0] * seats
    for s, call in enumerate(calls):
        if call is not None:
            value = call_value(call)
            if s != first:
                value = -value
            seat_calls[s] = value
            if s & 1:
                c1 += value
            else:
                c0 += value
    order = out + [s for s in range(seats) if s not in out]
    if victory:  # 200 for a double victory (7.2), 300 for a triple victory (9.2)
        double = True
        won = rules.team_victory_points
        p0, p1 = (won, 0) if first & 1 == 0 else (0, won)
    else:
        double = False
        last = order[-1]
        # the cards each team took: the last seat's tricks go to the first out (7.3), or to
        # the opposing team, and the second-to-last seat's to the first out (9.2)
        to_first = rules.last_tricks_to_first
        fifth = -1 if to_first else order[-2]
        t0 = t1 = 0
        for s in range(seats):
            owner = s
            if s == last:
                owner = first if to_first else last + 1
            elif s == fifth:
                owner = first
            if owner & 1:
                t1 |= piles[s]
            else:
                t0 |= piles[s]
        p0, p1 = points(t0), points(t1)
        if last & 1:  # its hand to the opponents
            p0 += points(hands[last])
        else:
            p1 += points(hands[last])
    e0, e1 = (0, 0) if penalty is None else (penalty[0], penalty[1])
    return RoundScore(order, double, [p0, p1], [c0, c1], [e0, e1],
                      [p0 + c0 + e0, p1 + c1 + e1], seat_calls, list(piles))


class Trick:
    """A finished trick, as told to visitors (``Visitor.visit_trick``).

    ``winner``: the seat whose play took it; ``taken_by``: the winner, or whom a
    Dragon's trick was given to; ``top``: the winning combination; ``dog``: the Dog's
    trick (it ends at once); ``dragon``: won by the Dragon.
    """

    # A plain class, not a dataclass: mypyc compiles its constructor (a dataclass's
    # __init__ would run interpreted, once per trick).
    __slots__ = ("number", "leader", "winner", "cards", "points", "taken_by", "top", "dragon",
                 "dog")

    def __init__(self, number: int, leader: int, winner: int, cards: int, points: int,
                 taken_by: int, top: Combo | None, dragon: bool = False,
                 dog: bool = False) -> None:
        self.number = number
        self.leader = leader
        self.winner = winner
        self.cards = cards
        self.points = points
        self.taken_by = taken_by
        self.top = top  # None only for cards discarded (P002) on an empty table
        self.dragon = dragon
        self.dog = dog

    def __repr__(self) -> str:
        return _repr(self, _TRICK_FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Trick) and _fields(self, _TRICK_FIELDS) == _fields(
            other, _TRICK_FIELDS)


class Step:
    """One event as the engine applied it, as told to visitors (``Visitor.visit_event``).

    ``index``: the event's position among its game's events, from 0; ``trick``: the
    trick it belongs to (None before the first lead); ``skipped``: the event was not
    applied. For a ``play``: ``combo`` (None when the cards formed no combination, or
    the play was not applied), ``lead``, ``out_of_turn``. For a play or pass: ``top``
    and ``top_seat`` (what was on the table before it; None for a lead), ``wish_open``
    (the wish open before it), ``wish_play`` (for a W001: what the seat could have
    played to fulfil the wish, :func:`wish_play` on the table as it was),
    ``wish_fulfilled``, ``cards_left`` and ``went_out`` (after it), ``trick_points``
    (card points in the trick on the table after a play, or at a pass; 0 at a pass
    with no trick on the table). ``diagnostics``: what the event raised.
    """

    # A plain class, not a dataclass: the engine makes one per event for visitors that
    # follow steps, and mypyc compiles this constructor (a dataclass's __init__ would
    # run interpreted).
    __slots__ = ("index", "line", "event", "trick", "seat", "combo", "top", "top_seat", "lead",
                 "out_of_turn", "wish_open", "wish_play", "wish_fulfilled", "cards_left",
                 "trick_points", "went_out", "skipped", "diagnostics")

    def __init__(self, index: int, line: int, event: Event, trick: int | None,
                 seat: int | None = None, combo: Combo | None = None, top: Combo | None = None,
                 top_seat: int | None = None, lead: bool = False, out_of_turn: bool = False,
                 wish_open: int | None = None, wish_play: Combo | None = None,
                 wish_fulfilled: bool = False, cards_left: int | None = None,
                 trick_points: int | None = None, went_out: bool = False,
                 skipped: bool = False, diagnostics: list[Diagnostic] | None = None) -> None:
        self.index = index
        self.line = line
        self.event = event
        self.trick = trick
        self.seat = seat
        self.combo = combo
        self.top = top
        self.top_seat = top_seat
        self.lead = lead
        self.out_of_turn = out_of_turn
        self.wish_open = wish_open
        self.wish_play = wish_play
        self.wish_fulfilled = wish_fulfilled
        self.cards_left = cards_left
        self.trick_points = trick_points
        self.went_out = went_out
        self.skipped = skipped
        self.diagnostics: list[Diagnostic] = [] if diagnostics is None else diagnostics

    def __repr__(self) -> str:
        return _repr(self, _STEP_FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Step) and _fields(self, _STEP_FIELDS) == _fields(
            other, _STEP_FIELDS)


_TRICK_FIELDS = ("number", "leader", "winner", "cards", "points", "taken_by", "top", "dragon",
                 "dog")
_STEP_FIELDS = ("index", "line", "event", "trick", "seat", "combo", "top", "top_seat", "lead",
                "out_of_turn", "wish_open", "wish_play", "wish_fulfilled", "cards_left",
                "trick_points", "went_out", "skipped", "diagnostics")


def _fields(obj: object, names: tuple[str, ...]) -> list[object]:
    return [getattr(obj, name) for name in names]


def _repr(obj: object, names: tuple[str, ...]) -> str:
    inner = ", ".join(f"{name}={getattr(obj, name)!r}" for name in names)
    return f"{type(obj).__name__}({inner})"


_RECEIVERS: dict[Rules, tuple[int, ...]] = {}
"""``RoundState.receivers`` by rules (a bounded memo)."""


class RoundState:
    """One round: the cards, the table, the turn, the wish, the calls and the result.

    Read-only for everyone but the engine. Attributes (seats are list indices):

    * ``number``, ``players`` (names by seat for this round: who sat there when it began,
      the person each seat's round is credited to), ``occupants`` (names by seat now: a
      substitute who took a seat during the round, ``x_substitute``, in it),
      ``substitutes`` (``(line, seat, name)`` of each such change), ``seats``, ``phase``;
      ``rules`` (the game's :class:`~tichu_analyze.core.variants.Rules`: the publisher's,
      changed by its variants), ``dummy`` (with ``rules.dummy``: the dummy's seat this
      round, else -1), ``receivers`` (per seat, the seats it gives to in the exchange,
      as bits);
    * ``dealt8`` (the first deal), ``dealt`` (all cards dealt), ``hands`` (held now),
      ``exchanges`` (per seat ``{to_seat: card}``, None until it exchanged);
    * ``calls`` (the call that counts, per seat), ``call_lines`` (its line),
      ``played`` (the seat played a card: too late for a Tichu);
    * the table: ``trick`` (number of the trick, 0 before the first lead),
      ``leader``, ``top`` and ``top_seat`` (the combination to beat and who played
      it; ``top`` None: no trick on the table), ``trick_cards``, ``passed`` (bits of
      the seats that passed since the last play), ``trick_over`` (every other seat
      passed: the trick ends with the next lead, unless a bomb comes), ``taken`` (``bsw``:
      the winner took that trick with its pass, so no bomb can come), ``after_dog`` and
      ``dog_leads`` (after the Dog: the seats, as bits, that may lead),
      ``turn`` (the seat on turn; with no trick on the table, the seat to lead);
    * ``holding`` (bits of the seats that still hold cards), ``out`` (the seats that
      went out, in order), ``piles`` (the cards of the tricks each seat took),
      ``tricks_won`` (per seat, tricks won by its play, the Dog's not counted),
      ``bombs`` (per seat, bombs played), ``dragon_gifts`` (``(winner, to)`` of each
      Dragon trick given, by its ``dragon_gift`` or by the engine after G002);
    * the wish: ``wish`` (the open wish's rank, None when none is open),
      ``wished`` and ``wisher`` (the rank wished this round and by whom),
      ``wish_fulfilled_by``;
    * ``dragon_due`` (the round ended on a Dragon trick still to be given),
      ``result`` (a :class:`RoundScore` once the rules ended the round), ``score``,
      ``recorded_score`` and ``recorded_finish`` (what ``round_end`` recorded),
      ``round_end_seen``, ``penalty`` (per team, the ``wish-penalty-200`` variant),
      ``ended_early`` (a ``round_end`` came before the rules ended the round: L008, the
      rest of the round is skipped and the round is incomplete); ``drift`` (no round of
      the log: the engine skips, without a word, the events of a round whose start it
      could not take, up to the next ``round_start``; never told to a visitor).
    """

    __slots__ = (
        "number",
        "players",
        "occupants",
        "substitutes",
        "seats",
        "phase",
        "hands",
        "dealt8",
        "dealt",
        "calls",
        "call_lines",
        "played",
        "exchanges",
        "out",
        "piles",
        "tricks_won",
        "bombs",
        "dragon_gifts",
        "trick",
        "top",
        "top_seat",
        "trick_cards",
        "turn",
        "passed",
        "trick_over",
        "taken",
        "after_dog",
        "wish",
        "wished",
        "wisher",
        "wish_fulfilled_by",
        "dragon_due",
        "drift",
        "round_end_seen",
        "result",
        "score",
        "recorded_score",
        "recorded_finish",
        "leader",
        "holding",
        "penalty",
        "unreadable_exchange",
        "early_play",
        "next_table",
        "line",
        "rules",
        "dummy",
        "receivers",
        "dog_leads",
        "ended_early",
    )

    def __init__(self, number: int, players: list[str], line: int = 0,
                 rules: Rules = PUBLISHER, dummy: int = -1) -> None:
        seats = len(players)
        zeros = [0] * seats
        self.number = number
        self.players = players
        self.occupants = players  # a copy once a substitute takes a seat (never players)
        self.substitutes: list[tuple[int, int, str]] = []
        self.seats = seats
        self.line = line  # of the round_start
        self.phase = _DEAL
        self.hands = [0] * seats
        self.dealt8 = zeros  # replaced, never changed in place, by the deals
        self.dealt = zeros
        self.calls: list[str | None] = [None] * seats
        self.call_lines: list[int | None] = [None] * seats
        self.played = [False] * seats
        self.exchanges: list[dict[int, int] | None] = [None] * seats
        self.out: list[int] = []
        self.piles = [0] * seats
        self.tricks_won = [0] * seats
        self.bombs = [0] * seats
        self.dragon_gifts: list[tuple[int, int]] = []  # (winner, to) of each Dragon trick
        self.trick = 0
        self.top: Combo | None = None
        self.top_seat = -1
        self.trick_cards = 0
        self.turn = -1  # seat on turn; while top is None, the seat entitled to lead
        self.passed = 0  # seats (bits) that passed since the last play
        self.trick_over = False  # every other seat passed: the trick ends with the next lead,
        # its Dragon gift, or a bomb continues it
        self.taken = False  # bsw (9.4): the winner took its trick once it was over (its pass)
        self.after_dog = False
        self.wish: int | None = None
        self.wished: int | None = None
        self.wisher = -1
        self.wish_fulfilled_by: int | None = None
        self.dragon_due = False  # the round ended on a Dragon trick that is not given yet
        self.drift = False
        self.round_end_seen = False
        self.result: RoundScore | None = None
        self.score: list[int] | None = None
        self.recorded_score: list[int] | None = None
        self.recorded_finish: list[int] | None = None
        self.leader = -1
        self.holding = (1 << seats) - 1  # seats that still hold cards, as bits
        self.penalty = [0, 0]  # per team: points from the wish-penalty-200 variant
        self.unreadable_exchange = False  # an exchange was skipped (L002/L003)
        self.early_play = False  # a play or pass came before the exchange was complete (L007)
        self.next_table = _NEXT_TABLES.get(seats) or next_seat_table(seats)
        self.rules = rules
        self.dummy = dummy
        table = _RECEIVERS.get(rules)
        if table is None:
            if len(_RECEIVERS) > 64:
                _RECEIVERS.clear()
            table = _RECEIVERS[rules] = tuple(receivers(s, rules) for s in range(seats))
        self.receivers = table
        self.dog_leads = 0  # after the Dog: the seats (bits) that may lead (rules 5.2, 9.2)
        self.ended_early = False  # an early round_end closed it (L008): incomplete

    def copy(self) -> RoundState:
        """A copy that the engine's later changes do not reach (a reviewer's "before"):
        the lists are copied, the immutable values (combinations, scores, rules) shared."""
        new = RoundState(self.number, self.players, self.line, self.rules, self.dummy)
        new.occupants = list(self.occupants)
        new.substitutes = list(self.substitutes)
        new.phase = self.phase
        new.hands = list(self.hands)
        new.dealt8 = list(self.dealt8)
        new.dealt = list(self.dealt)
        new.calls = list(self.calls)
        new.call_lines = list(self.call_lines)
        new.played = list(self.played)
        new.exchanges = [None if e is None else dict(e) for e in self.exchanges]
        new.out = list(self.out)
        new.piles = list(self.piles)
        new.tricks_won = list(self.tricks_won)
        new.bombs = list(self.bombs)
        new.dragon_gifts = list(self.dragon_gifts)
        new.trick = self.trick
        new.top = self.top
        new.top_seat = self.top_seat
        new.trick_cards = self.trick_cards
        new.turn = self.turn
        new.passed = self.passed
        new.trick_over = self.trick_over
        new.taken = self.taken
        new.after_dog = self.after_dog
        new.wish = self.wish
        new.wished = self.wished
        new.wisher = self.wisher
        new.wish_fulfilled_by = self.wish_fulfilled_by
        new.dragon_due = self.dragon_due
        new.drift = self.drift
        new.round_end_seen = self.round_end_seen
        new.result = self.result
        new.score = None if self.score is None else list(self.score)
        new.recorded_score = None if self.recorded_score is None else list(self.recorded_score)
        new.recorded_finish = (None if self.recorded_finish is None
                               else list(self.recorded_finish))
        new.leader = self.leader
        new.holding = self.holding
        new.penalty = list(self.penalty)
        new.unreadable_exchange = self.unreadable_exchange
        new.early_play = self.early_play
        new.dog_leads = self.dog_leads
        new.ended_early = self.ended_early
        return new

    # ------------------------------------------------------------ the turn

    def next_holding(self, seat: int) -> int:
        """The first seat after ``seat`` that still holds cards (``seat`` if none)."""
        return self.next_table[self.holding][seat]

    def next_leader(self) -> int:
        """Who leads once the trick on the table is over (rules 2.4): its winner, or the
        next seat holding cards when the winner is out."""
        w = self.top_seat
        return w if self.hands[w] else self.next_table[self.holding][w]

    def bomb_lands(self, seat: int, bomb: Combo, over: bool | None = None) -> bool:
        """Whether ``bomb``, played by ``seat`` now, lands on the trick on the table and
        continues it (rules 4.3), rather than being a lead. While the trick is played:
        any seat's bomb (B001 if it does not beat a bomb on top). Once every other seat
        passed on it (2.4): another seat's, but the bomb of the seat due to lead is its
        lead (the settled reading), except under ``bsw`` (9.4): the trick's winner may
        bomb its own trick, with a bomb that beats it, until it takes the trick (its
        pass, :attr:`taken`). False with no trick on the table. ``over``: answer as if
        the trick were over (True) or not (False), whatever it is."""
        top = self.top
        if top is None or self.taken:
            return False
        if not (self.trick_over if over is None else over) or seat != self.next_leader():
            return True
        return self.rules.winner_bombs and seat == self.top_seat and beats(bomb, top)

    def to_lead(self) -> int | None:
        """The seat due to lead now, or None while a trick is being played."""
        if self.phase != Phase.PLAY:
            return None
        if self.top is None:
            return self.turn
        return self.next_leader() if self.trick_over else None

    def may_lead(self, seat: int) -> bool:
        """Whether ``seat`` is due to lead now: :meth:`to_lead`, or after the Dog in
        ``tientsin`` either partner holding cards (rules 9.2)."""
        return self.to_lead() == seat or (
            self.top is None and self.after_dog and self.dog_leads >> seat & 1 == 1)

    def finish_order(self) -> list[int]:
        """The seats that went out, in order, then the others."""
        return self.out + [s for s in range(self.seats) if s not in self.out]

    @property
    def status(self) -> str:
        """``scored``, ``skipped`` (after a fatal diagnostic, or an unreadable deal or
        exchange) or ``incomplete`` (left unfinished, an early ``round_end`` included)."""
        if self.phase == Phase.SKIPPED and not self.ended_early:
            return STATUS_SKIPPED
        return STATUS_SCORED if self.score is not None else STATUS_INCOMPLETE

    def partners(self, seat: int) -> list[int]:
        """The other seats of ``seat``'s team."""
        return partners(seat, self.seats)

    def opponents(self, seat: int) -> list[int]:
        """The seats of the other team, in playing order after ``seat``."""
        return opponents(seat, self.seats)

    @property
    def solo(self) -> int:
        """``trichu``: the solo player's seat (opposite the dummy), else -1."""
        return (self.dummy + 2) % self.seats if self.dummy >= 0 else -1

    @property
    def double_victory(self) -> bool:
        """The round ended with a whole team out first (two partners for four seats, three
        for six: a triple victory)."""
        return self.result is not None and self.result.double_victory

    def exchanged_hands(self) -> list[int]:
        """The hands after the exchange (zeros until every seat exchanged)."""
        if any(x is None for x in self.exchanges):
            return [0] * self.seats
        hands = list(self.dealt)
        for giver, gives in enumerate(self.exchanges):
            assert gives is not None
            for to, c in gives.items():
                hands[giver] &= ~BIT[c]
                hands[to] |= BIT[c]
        return hands

    # ------------------------------------------------------------- queries

    def round_score(self) -> RoundScore | None:
        """The round's score (:func:`score_round`) once the rules ended it, else None.
        ``score`` holds the per-team totals alone."""
        return self.result

    def legal_plays(self, seat: int) -> list[Combo]:
        """The combinations ``seat`` may play now under rules 2-6 (the wish applied), one
        per kind, rank and length (``combos.legal_plays``); empty when it may not play.

        On turn with a trick on the table: what beats the top (bombs included); the
        seat due to lead: any lead; any other seat: the bombs that beat the top (none
        before a trick's first play, none on the Dog; a seat may bomb its own play). A
        seat bound by the wish keeps only the plays holding the wished rank (a follow may
        still be a bomb). While a Dragon's trick is owed: only the bombs that land on it.
        """
        if self.phase != Phase.PLAY or not self.hands[seat]:
            return []
        hand = self.hands[seat]
        top = self.top
        if top is not None and self.gift_due():
            # the Dragon's trick is over and owed (5.4): before its gift, only a bomb that
            # lands on it (4.3; the winner's own under bsw, 9.4), never bound by the wish
            return [c for c in legal_plays(hand, top, self.rules.phoenix_bombs)
                    if c.is_bomb and self.bomb_lands(seat, c)]
        leading = self.may_lead(seat)
        if leading:
            plays = legal_plays(hand, None, self.rules.phoenix_bombs)
        elif top is None:
            return []  # before a trick's first play only its leader plays (B002, B003)
        elif self.trick_over or seat != self.turn:
            if self.trick_over and seat == self.top_seat:
                return []
            plays = [c for c in legal_plays(hand, top, self.rules.phoenix_bombs) if c.is_bomb]
        else:
            plays = legal_plays(hand, top, self.rules.phoenix_bombs)
        # ``bsw`` (9.4): the winner due to lead may also bomb its own trick (no lead: the
        # wish does not bind that bomb, rules 6.4)
        bombs: list[Combo] = []
        if leading and top is not None and self.rules.winner_bombs:
            bombs = [c for c in legal_plays(hand, top, self.rules.phoenix_bombs)
                     if c.is_bomb and self.bomb_lands(seat, c)]
        if not self.bound_by_wish(seat):
            return plays
        assert self.wish is not None
        wished = RANK_MASK[self.wish]
        if bombs:
            return [c for c in plays if c.cards & wished] + [
                c for c in bombs if not c.cards & wished]
        return [c for c in plays if c.cards & wished or (not leading and c.is_bomb)]

    def may_pass(self, seat: int) -> bool:
        """Whether ``seat`` may pass now: it is on turn, a trick is on the table and not
        over, and the wish does not bind it (rules 2.3, 6.2)."""
        return (self.phase == Phase.PLAY and bool(self.hands[seat]) and self.top is not None
                and (not self.trick_over and seat == self.turn and not self.bound_by_wish(seat)
                     or self.takes(seat)))

    def takes(self, seat: int) -> bool:
        """``bsw`` (rules 9.4): whether a pass by ``seat`` now is the winner taking its trick
        once every other seat passed on it (BSW logs it so): the trick is then over, no bomb
        can continue it, and the winner's next play is its lead."""
        return (self.rules.winner_bombs and self.trick_over and not self.taken
                and seat == self.top_seat and self.top is not None)

    def all_passed(self, passed: int) -> bool:
        """Whether, the seats ``passed`` (bits) having passed since the last play, every
        other seat still holding cards has passed on the top: the trick is over (rules
        2.4). The one test of it, behind the engine's passes and the queries."""
        return self.holding & ~(1 << self.top_seat) & ~passed == 0

    def note_pass(self, seat: int) -> None:
        """The engine's: ``seat`` passes in turn on the trick on the table (rules 2.2-2.4).
        The turn moves to the next seat holding cards, or, every other seat having
        passed, the trick is over and its winner (the next seat holding cards when the
        winner is out) is due to lead."""
        passed = self.passed = self.passed | 1 << seat
        if self.holding & ~(1 << self.top_seat) & ~passed == 0:  # (all_passed, inline)
            self.trick_over = True
            self.turn = self.next_leader()
        else:
            self.turn = self.next_table[self.holding][seat]

    def wish_play(self, seat: int) -> Combo | None:
        """A combination holding a real card of the open wish's rank that ``seat`` could
        play on the table as it is (rules 6.2: the one the engine names in W001), or None:
        no wish is open, the seat does not hold the rank, or cannot play it here. A seat
        due to lead answers for a lead. Whose turn it is is not asked
        (:meth:`bound_by_wish` asks it)."""
        wish = self.wish
        if wish is None or self.phase != Phase.PLAY:
            return None
        return wish_play(self.hands[seat], wish, None if self.may_lead(seat) else self.top,
                         self.rules.phoenix_bombs)

    def wish_binds(self, seat: int) -> Combo | None:
        """What the open wish binds ``seat`` to play now (rules 6.2): a combination holding
        a real card of the wished rank that it could play (:meth:`wish_play`), when it is
        the seat's turn, to lead or to follow on a trick not over; None when the wish does
        not bind it. The dummy is never bound (rules 9.3). The one test behind W001,
        :meth:`bound_by_wish` and :meth:`legal_plays`."""
        if self.wish is None or seat == self.dummy:
            return None
        if self.may_lead(seat) or (
                self.top is not None and not self.trick_over and self.turn == seat):
            return self.wish_play(seat)
        return None

    def bound_by_wish(self, seat: int) -> bool:
        """Whether the open wish binds ``seat`` now (:meth:`wish_binds`): it is the seat's
        turn (to lead, or to follow), it holds the wished rank and could play it legally."""
        return self.wish_binds(seat) is not None

    def wish_plays(self, seat: int) -> list[Combo]:
        """The plays of :meth:`legal_plays` that would fulfil the open wish (empty when
        none is open or the seat cannot fulfil it)."""
        wish = self.wish
        if wish is None:
            return []
        return [c for c in self.legal_plays(seat) if c.cards & RANK_MASK[wish]]

    def passes_to_close(self) -> list[int]:
        """The seats, in turn order from the seat on turn, whose passes would end the
        trick on the table (rules 2.4); empty when there is none or it is over."""
        if self.top is None or self.trick_over:
            return []
        passed, turn = self.passed, self.turn
        nxt = self.next_table[self.holding]
        seq: list[int] = []
        for _ in range(self.seats):
            if self.all_passed(passed):
                break
            seq.append(turn)
            passed |= 1 << turn
            turn = nxt[turn]
        return seq

    def passes_until(self, seat: int) -> list[int] | None:
        """The seats, in turn order from the seat on turn, whose passes would bring
        ``seat`` on turn: to follow on the trick on the table, or to lead once every
        other seat passed on it (rules 2.3-2.4). None when no passes would: no trick on
        the table, it is over, or ``seat`` would not be on turn."""
        if self.top is None or self.trick_over:
            return None
        passed, turn = self.passed, self.turn
        nxt = self.next_table[self.holding]
        seq: list[int] = []
        for _ in range(self.seats):
            if turn == seat:
                return seq
            seq.append(turn)
            passed |= 1 << turn
            if self.all_passed(passed):
                return seq if self.next_leader() == seat else None
            turn = nxt[turn]
        return None

    def gift_due(self) -> bool:
        """The Dragon's trick is over and must be given before anything else happens
        (rules 5.4): the round ended on it, or every other seat passed on it."""
        top = self.top
        return self.dragon_due or (self.trick_over and top is not None
                                   and top.cards == _DRAGON_BIT)


class GameState:
    """One game: its players, target, the round being played and the totals.

    ``players``: the names of ``game_start``; ``seating``: the names by seat now
    (``round_start.players`` changes them from its round on). ``rules``: the game's
    :class:`~tichu_analyze.core.variants.Rules` (the publisher's, changed by the variants
    in force, the log's and the command line's: ``rules.names``). ``target``: points, or
    rounds (``rules.target_in_rounds``). ``totals`` per team: the sum of the rounds the
    replay scored (a round skipped after a fatal diagnostic, or left unfinished, adds
    nothing); ``person_totals`` (``rules.per_person`` only) per person, likewise.
    ``won_by``: the team that reached the target with more points. ``rounds``: rounds
    closed. ``events``: events of the game seen by a tracing replay. ``ended``: a
    ``game_end`` was seen.
    ``traced``: the replay tells its visitor of this game's steps and tricks (False when
    the visitor's ``begin_game`` returned :data:`~tichu_analyze.core.visitor.SKIP`).
    """

    __slots__ = ("id", "file", "players", "seating", "target", "meta", "line", "seats",
                 "totals", "won_by", "round", "last_round", "rounds", "events",
                 "warned_continue", "ended", "recorded_score", "rules", "person_totals",
                 "recorded_persons", "traced")

    def __init__(self, game: str, players: list[str], target: int,
                 meta: dict[str, object] | None, line: int, file: str = "",
                 rules: Rules = PUBLISHER) -> None:
        self.id = game
        self.file = file
        self.players = list(players)
        self.seating = list(players)
        self.seats = len(players)
        self.target = target
        self.meta = meta
        self.line = line
        self.totals: list[int] = [0, 0]
        self.won_by: int | None = None
        self.round: RoundState | None = None
        self.last_round = 0
        self.rounds = 0
        self.events = 0
        self.warned_continue = False
        self.ended = False
        self.recorded_score: list[int] | None = None
        self.recorded_persons: dict[str, int] | None = None  # per person: game_end.score
        self.rules = rules
        # each person's total (rules 9.3)
        self.person_totals: dict[str, int] | None = {} if rules.per_person else None
        self.traced = True

    @property
    def game(self) -> str:
        """The game id."""
        return self.id

    @property
    def person_winner(self) -> str | None:
        """With ``rules.per_person`` (rules 9.3): the person with the most points once the
        game's ``target`` rounds are played; None before, on a tie for the most, when a
        total is unknown, and for teams."""
        persons = self.person_totals
        if persons is None or not persons or self.last_round < self.target:
            return None
        best = max(persons.values())
        top = [name for name, total in persons.items() if total == best]
        return top[0] if len(top) == 1 else None
