"""The replay engine: applies format-1 events to game states and checks every rule.

Pure: no I/O. Feed it typed events (``events``) with their log line numbers,
in file order, through a :class:`Replay`; it reports each violation as a
:class:`~tichu_analyze.diagnostics.Diagnostic` to the ``report`` callback and,
when built with ``trace=True``, hands a :class:`RoundRecord` (every step of the
round, its tricks and its result) and a :class:`GameRecord` to the observer
callbacks. The rules are those of ``rules.md``; comments cite its sections.

Usage::

    replay = Replay("game.jsonl", report=diagnostics.append)
    for line, event in events:
        replay.feed(line, event)
    replay.finish(last_line)

Decisions where rules.md leaves room (also in docs/rules.md):

* One event gets at most one play-legality code; a wish violation (W001) is
  only reported for a play or pass that is otherwise legal.
* During the end-of-trick window (every other seat passed), a play by the
  seat due to lead (the winner, or the next seat holding cards when the winner
  is out) is the new lead; a bomb by any other seat continues the trick; a
  non-bomb by another seat is a lead out of turn (P003). On a Dragon's trick,
  which is given before the next lead, any other seat's bomb continues the
  trick (G002: "a bomb on it by another seat").
* A ``call`` between the end of a Dragon's trick and its gift is not "the next
  event" of G002: calls may come at any moment, they are no move on the table.
* A pass out of turn (P003) still counts as that seat's pass.
* A ``P002``/``P007`` play counts as a pass for ending the trick; its cards
  join the trick in progress.
* Rounds that are not scored by the replay (skipped or incomplete) count with
  their recorded ``round_end.score`` towards the game total when there is one;
  otherwise the game total is unknown and S003/S004 are not checked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum

from .cards import (
    BIT,
    CARD_BY_TOKEN,
    DOG,
    DRAGON,
    MAHJONG,
    PHOENIX,
    RANK_BY_TOKEN,
    RANK_MASK,
    RANK_TOKENS,
    format_cards,
    points,
)
from .combos import Combo, Kind, beats, can_play_rank, classify, describe
from .diagnostics import RULES, Diagnostic
from .events import (
    Call,
    Deal,
    DragonGift,
    Event,
    Exchange,
    GameEnd,
    GameStart,
    Pass,
    Play,
    RoundEnd,
    RoundStart,
)

__all__ = [
    "GameRecord",
    "Phase",
    "Replay",
    "RoundRecord",
    "Step",
    "Trick",
]


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


@dataclass(slots=True)
class Step:
    """One event of a round as the replay applied it (trace mode)."""

    index: int  # the event's position among the game's events, from 0
    line: int
    event: Event
    trick: int | None
    seat: int | None = None
    combo: Combo | None = None
    top: Combo | None = None  # what was on the table before a play or pass
    top_seat: int | None = None
    lead: bool = False
    out_of_turn: bool = False
    wish_open: int | None = None  # the open wish before the event
    wish_fulfilled: bool = False
    cards_left: int | None = None
    trick_points: int | None = None  # card points in the trick after the play
    went_out: bool = False
    skipped: bool = False  # the event was not applied
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(slots=True)
class Trick:
    """A finished trick (trace mode)."""

    number: int
    leader: int
    winner: int
    cards: int
    points: int
    taken_by: int  # the winner, or whom the Dragon's trick was given to
    last_step: int  # index in RoundRecord.steps of the trick's last play
    dragon: bool = False
    dog: bool = False


@dataclass(slots=True)
class RoundRecord:
    """Everything the replay learned about one round (trace mode)."""

    game: str
    round: int
    players: list[str]
    line: int
    file: str = ""
    status: str = STATUS_INCOMPLETE
    hands8: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    hands14: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    hands_played: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # after the exchange
    # per seat: {to_seat: card}
    given: list[dict[int, int]] = field(default_factory=lambda: [{}, {}, {}, {}])
    calls: list[str | None] = field(default_factory=lambda: [None] * 4)
    call_steps: list[int | None] = field(default_factory=lambda: [None] * 4)
    finish_order: list[int] = field(default_factory=list)
    double_victory: bool = False
    card_points: list[int] = field(default_factory=lambda: [0, 0])  # per team, after transfers
    # (after a double victory: 200 for the winners, 0 for the others)
    pile_points: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # per seat: its tricks
    # (incl. Dragon tricks given to it), before the last seat's hand and tricks are handed over
    call_points: list[int] = field(default_factory=lambda: [0, 0])
    score: list[int] | None = None  # computed
    recorded_score: list[int] | None = None
    recorded_finish: list[int] | None = None
    dragon_gifts: list[tuple[int, int]] = field(default_factory=list)  # (winner, to)
    bombs: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    wish: tuple[int, int] | None = None  # (seat, rank)
    wish_fulfilled_by: int | None = None  # seat
    steps: list[Step] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    hands_end: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # when the round ended
    table_end: int = 0  # cards of a trick still on the table when the round ended


@dataclass(slots=True)
class GameRecord:
    """A game's players and results (trace mode)."""

    game: str
    players: list[str]
    target: int
    meta: dict[str, object] | None
    line: int
    file: str = ""
    rounds: int = 0
    totals: list[int] | None = field(default_factory=lambda: [0, 0])
    won_by: int | None = None  # team, once a team reached the target with more points
    recorded_score: list[int] | None = None
    ended: bool = False  # a game_end event was seen


def _build_next() -> tuple[tuple[int, ...], ...]:
    """``_NEXT[holding][seat]``: the first seat after ``seat`` whose bit is set in
    ``holding`` (the seats that still hold cards)."""
    return tuple(
        tuple(next(((seat + k) & 3 for k in (1, 2, 3, 4) if holding >> ((seat + k) & 3) & 1),
                   seat) for seat in range(4))
        for holding in range(16)
    )


_NEXT = _build_next()
_SKIPPED = Phase.SKIPPED
_PLAY = Phase.PLAY
_OVER = Phase.OVER
_DRAGON_BIT = BIT[DRAGON]
_DOG_BIT = BIT[DOG]
_PHOENIX_BIT = BIT[PHOENIX]
_MAHJONG_BIT = BIT[MAHJONG]
_FOUR = Kind.FOUR_OF_A_KIND
_SINGLE = Kind.SINGLE
_TOKEN_BIT: dict[str, int] = {t: BIT[c] for t, c in CARD_BY_TOKEN.items()}
_MEMO: dict[int, Combo | None] = {}
_MEMO_LIMIT = 1 << 17


def _mask_of_tokens(tokens: list[str]) -> int | None:
    """The cards of ``tokens``, or None if one is unknown or repeated (the slow path,
    ``Replay._tokens``, then says which)."""
    mask = 0
    get = _TOKEN_BIT.get
    for t in tokens:
        b = get(t)
        if b is None or mask & b:
            return None
        mask |= b
    return mask


def _classify(mask: int, phoenix: int | None, top: Combo | None,
              phoenix_bombs: bool = False) -> Combo | None:
    """``combos.classify`` with a bounded memo for plays without the Phoenix, whose
    combination depends on the cards alone."""
    if mask & _PHOENIX_BIT:
        return classify(mask, phoenix, top, phoenix_bombs)
    try:
        return _MEMO[mask]
    except KeyError:
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        combo = _MEMO[mask] = classify(mask)
        return combo


class _Round:
    """Mutable state of the round being replayed."""

    __slots__ = (
        "number",
        "phase",
        "hands",
        "dealt8",
        "calls",
        "played",
        "exchanges",
        "out",
        "piles",
        "trick",
        "top",
        "top_seat",
        "trick_cards",
        "turn",
        "passed",
        "closing",
        "after_dog",
        "wish",
        "dragon_due",
        "round_end_seen",
        "score",
        "record",
        "leader",
        "holding",
        "penalty",
        "unreadable_exchange",
    )

    def __init__(self, number: int) -> None:
        self.number = number
        self.phase = Phase.DEAL
        self.hands = [0, 0, 0, 0]
        self.dealt8 = [0, 0, 0, 0]
        self.calls: list[str | None] = [None, None, None, None]
        self.played = [False, False, False, False]
        self.exchanges: list[dict[int, int] | None] = [None, None, None, None]
        self.out: list[int] = []
        self.piles = [0, 0, 0, 0]
        self.trick = 0
        self.top: Combo | None = None
        self.top_seat = -1
        self.trick_cards = 0
        self.turn = -1  # seat on turn; while top is None, the seat entitled to lead
        self.passed = 0  # seats (bits) that passed since the last play
        self.closing = False  # every other seat passed: the trick is over but for a bomb
        self.after_dog = False
        self.wish: int | None = None
        self.dragon_due = False  # the round ended on a Dragon trick that is not given yet
        self.round_end_seen = False
        self.score: list[int] | None = None
        self.record: RoundRecord | None = None
        self.leader = -1
        self.holding = 0b1111  # seats that still hold cards, as bits
        self.penalty = [0, 0]  # per team: points from the wish-penalty-200 variant
        self.unreadable_exchange = False  # an exchange was skipped (L002/L003)


class _Game:
    __slots__ = ("id", "players", "target", "totals", "won_by", "round", "last_round", "rec",
                 "events", "warned_continue", "ended")

    def __init__(self, ev: GameStart, line: int, trace: bool) -> None:
        self.id = ev.game
        self.players = ev.players
        self.target = ev.target
        self.totals: list[int] | None = [0, 0]
        self.won_by: int | None = None
        self.round: _Round | None = None
        self.last_round = 0
        self.events = 0
        self.warned_continue = False
        self.ended = False
        self.rec = (
            GameRecord(ev.game, list(ev.players), ev.target, ev.meta, line) if trace else None
        )


class Replay:
    """Replays the events of one log file, game by game, and checks the rules.

    ``report`` receives every diagnostic as it is found. In trace mode,
    ``on_round`` receives each round's :class:`RoundRecord` once the round is
    closed, and ``on_game`` each :class:`GameRecord` at ``game_end`` or at
    :meth:`finish`.
    """

    def __init__(
        self,
        file: str,
        report: Callable[[Diagnostic], None],
        *,
        trace: bool = False,
        on_round: Callable[[RoundRecord], None] | None = None,
        on_game: Callable[[GameRecord], None] | None = None,
        variants: frozenset[str] = frozenset(),
    ) -> None:
        self.file = file
        self._wish_penalty = "wish-penalty-200" in variants
        self._dog_bombs = "dog-can-be-bombed" in variants
        self._phoenix_bombs = "phoenix-in-bombs" in variants
        self._report = report
        self.trace = trace
        self._on_round = on_round
        self._on_game = on_game
        self.games: dict[str, _Game] = {}
        self.events = 0
        self.rounds = 0
        self._line = 0
        self._game: _Game | None = None
        self._step: Step | None = None
        self._handlers: dict[type, Callable[[_Game, _Round | None, Event], None]] = {
            RoundStart: self._round_start,  # type: ignore[dict-item]
            Deal: self._deal,  # type: ignore[dict-item]
            Call: self._call,  # type: ignore[dict-item]
            Exchange: self._exchange,  # type: ignore[dict-item]
            Play: self._play,  # type: ignore[dict-item]
            Pass: self._pass,  # type: ignore[dict-item]
            DragonGift: self._dragon_gift,  # type: ignore[dict-item]
            RoundEnd: self._round_end,  # type: ignore[dict-item]
            GameEnd: self._game_end,  # type: ignore[dict-item]
        }

    # ------------------------------------------------------------------ input

    def feed(self, line: int, ev: Event) -> None:
        """Apply one decoded event found at ``line``."""
        self._line = line
        kind = type(ev)
        game = self.games.get(ev.game)
        if game is None or game.ended or kind is GameStart:
            self._game_level(line, ev, game)
            return
        self._game = game
        rnd = game.round
        if self.trace:
            game.events += 1
        if rnd is not None:
            if rnd.phase == _SKIPPED and kind is not RoundStart:
                if self.trace and rnd.record is not None:  # shown, but not checked
                    rnd.record.steps.append(Step(game.events - 1, line, ev, rnd.trick or None,
                                                 getattr(ev, "seat", None), skipped=True))
                if kind is RoundEnd and not rnd.round_end_seen:
                    rnd.round_end_seen = True
                    self._count_recorded(game, rnd, ev)  # type: ignore[arg-type]
                elif kind is GameEnd:
                    self._game_end(game, rnd, ev)  # type: ignore[arg-type]
                return
            if self.trace:
                self._step = None
                if rnd.record is not None and kind is not RoundStart:
                    step = Step(game.events - 1, line, ev, rnd.trick or None,
                                getattr(ev, "seat", None))
                    step.wish_open = rnd.wish
                    rnd.record.steps.append(step)
                    self._step = step
            if rnd.dragon_due or (rnd.closing and rnd.top.cards == _DRAGON_BIT):  # type: ignore[union-attr]
                self._check_dragon_gift_due(game, rnd, ev)
        self._handlers[kind](game, game.round, ev)
        if self.trace:
            self._step = None

    def _game_level(self, line: int, ev: Event, game: _Game | None) -> None:
        """``game_start``, and events of unknown or ended games."""
        self._step = None
        if type(ev) is GameStart:
            if game is not None:
                self._emit_at(None, None, "L006", f"game {ev.game!r} was already started "
                              "earlier in this file", None, game_id=ev.game)
                return
            self._game_start(ev, line)
            return
        why = "after its game_end" if game is not None else "that has no game_start before it"
        self._emit_at(None, None, "L005", f"event for game {ev.game!r} {why}",
                      getattr(ev, "seat", None), game_id=ev.game)

    def problem(self, line: int, code: str, message: str, game_id: str | None = None,
                seat: int | None = None, kind: str | None = None) -> None:
        """Report a problem found before the event could be decoded (L001-L004).

        ``kind`` is the event's ``type`` when known: a ``deal`` or ``exchange``
        that cannot be read leaves its round without its cards, so the rest of
        that round is skipped (as after a fatal diagnostic) rather than
        reported event by event.
        """
        self._line = line
        game = self.games.get(game_id) if game_id is not None else None
        self._game = game
        self._step = None
        rnd = game.round if game is not None else None
        if rnd is not None and rnd.phase == _SKIPPED:
            return
        self._emit_at(game, rnd, code, message, seat, game_id=game_id)
        if rnd is None:
            return
        if RULES[code].severity == "fatal" or (kind == "deal" and rnd.phase < _PLAY):
            rnd.phase = Phase.SKIPPED
        elif kind == "exchange" and rnd.phase == Phase.EXCHANGE:
            rnd.unreadable_exchange = True

    def finish(self, last_line: int) -> None:
        """The file ended at ``last_line``: close rounds left open (L008) and games."""
        self._line = last_line
        for game in self.games.values():
            self._game = game
            self._step = None
            if game.round is not None:
                self._leave_round(game, game.round, "the log ends")
            if not game.ended:
                self._close_game(game)

    # ---------------------------------------------------------------- reports

    def _emit(self, code: str, message: str, seat: int | None = None) -> None:
        game = self._game
        self._emit_at(game, game.round if game else None, code, message, seat)

    def _emit_at(self, game: _Game | None, rnd: _Round | None, code: str, message: str,
                 seat: int | None, game_id: str | None = None) -> None:
        player = None
        if game is not None and seat is not None and 0 <= seat < 4:
            player = game.players[seat]
        diag = Diagnostic(
            code,
            RULES[code].severity,
            self.file,
            self._line,
            game.id if game is not None else game_id,
            rnd.number if rnd is not None else None,
            (rnd.trick or None) if rnd is not None else None,
            seat,
            player,
            message,
        )
        if self._step is not None:
            self._step.diagnostics.append(diag)
        if code == "W001" and self._wish_penalty and rnd is not None and seat is not None:
            rnd.penalty[(seat + 1) & 1] += 200  # variant wish-penalty-200 (rules 9)
        self._report(diag)

    def _who(self, seat: int) -> str:
        game = self._game
        return f"{game.players[seat]} (seat {seat})" if game is not None else f"seat {seat}"

    # ------------------------------------------------------------ game level

    def _game_start(self, ev: GameStart, line: int) -> None:
        names = ev.players
        if len(set(names)) != 4 or not all(isinstance(n, str) and n.strip() for n in names):
            self._emit_at(None, None, "L002",
                          "game_start needs four distinct, non-empty player names", None,
                          game_id=ev.game)
            return
        self.games[ev.game] = game = _Game(ev, line, self.trace)
        if game.rec is not None:
            game.rec.file = self.file

    def _round_start(self, game: _Game, rnd: _Round | None, ev: RoundStart) -> None:
        expected = game.last_round + 1
        if ev.round != expected:
            self._emit("L007", f"round {ev.round} does not follow round {game.last_round}; "
                       f"expected round {expected}")
            return
        if rnd is not None:
            self._leave_round(game, rnd, f"round {ev.round} starts")
        rnd = _Round(ev.round)
        game.round = rnd
        game.last_round = ev.round
        self.rounds += 1
        if self.trace:
            rnd.record = RoundRecord(game.id, ev.round, list(game.players), self._line,
                                     self.file)
            step = Step(game.events - 1, self._line, ev, None)
            rnd.record.steps.append(step)
            self._step = step
        if game.won_by is not None and not game.warned_continue:
            game.warned_continue = True
            self._emit("S004", f"round {ev.round} is played although team {game.won_by} "
                       f"already won the game ({self._totals(game)})")

    @staticmethod
    def _totals(game: _Game) -> str:
        return f"{game.totals[0]} to {game.totals[1]}" if game.totals else "totals unknown"

    def _leave_round(self, game: _Game, rnd: _Round, why: str) -> None:
        """The log moves on from ``rnd`` (next round, game end, end of file)."""
        if rnd.dragon_due:
            self._missing_gift(game, rnd)
        if rnd.phase < Phase.OVER:
            self._incomplete(game, rnd, why)
        self._close_round(game, rnd)
        game.round = None

    def _incomplete(self, game: _Game, rnd: _Round, why: str) -> None:
        self._emit("L008", f"round {rnd.number} is not over when {why}; it is not scored")

    def _close_round(self, game: _Game, rnd: _Round) -> None:
        """The round is left (next round, game end, end of file)."""
        if rnd.score is None and not rnd.round_end_seen:
            game.totals = None  # neither scored nor recorded: the game total is unknown
        if game.rec is not None:
            game.rec.rounds += 1
        rec = rnd.record
        if rec is not None:
            if rnd.phase == Phase.SKIPPED:
                rec.status = STATUS_SKIPPED
            elif rnd.score is not None:
                rec.status = STATUS_SCORED
            if self._on_round is not None:
                self._on_round(rec)

    def _close_game(self, game: _Game) -> None:
        if game.rec is not None:
            game.rec.totals = list(game.totals) if game.totals is not None else None
            game.rec.won_by = game.won_by
            if self._on_game is not None:
                self._on_game(game.rec)

    def _count_recorded(self, game: _Game, rnd: _Round, ev: RoundEnd) -> None:
        """A round the replay could not score counts with its recorded score."""
        if rnd.record is not None:
            rnd.record.recorded_score = ev.score
            rnd.record.recorded_finish = ev.finish_order
        if ev.score is None:
            game.totals = None
        elif game.totals is not None:
            game.totals = [game.totals[0] + ev.score[0], game.totals[1] + ev.score[1]]
            self._check_won(game)

    def _check_won(self, game: _Game) -> None:
        t = game.totals
        if t is not None and game.won_by is None and max(t) >= game.target and t[0] != t[1]:
            game.won_by = 0 if t[0] > t[1] else 1  # rules 7.6

    def _game_end(self, game: _Game, rnd: _Round | None, ev: GameEnd) -> None:
        if rnd is not None:
            self._leave_round(game, rnd, "the game ends")
        self._step = None
        if game.totals is not None:
            if ev.score is not None and list(ev.score) != game.totals:
                self._emit("S003", f"game_end records {ev.score[0]} to {ev.score[1]}, but the "
                           f"replayed rounds add up to {game.totals[0]} to {game.totals[1]}")
            if game.won_by is None:
                self._emit("S004", f"game_end before a team reached the target of "
                           f"{game.target} with more points ({self._totals(game)})")
        if game.rec is not None:
            game.rec.recorded_score = ev.score
            game.rec.ended = True
        game.ended = True
        self._close_game(game)

    # ----------------------------------------------------------- deal & calls

    def _tokens(self, tokens: list[str], what: str, seat: int | None) -> int | None:
        """The mask of ``tokens``, or None after reporting L003 (or L002 on a repeat)."""
        m = 0
        for t in tokens:
            c = CARD_BY_TOKEN.get(t)
            if c is None:
                self._emit("L003", f"{what}: {t!r} is not a card (cards are 2j..Ar, Mahjong, "
                           "Dog, Phoenix, Dragon)", seat)
                if what.startswith("deal"):
                    self._skip_round()
                return None
            b = BIT[c]
            if m & b:
                if what.startswith("deal"):
                    self._fatal("D001", f"bad deal: {t} is dealt twice")
                else:
                    self._emit("L002", f"{what}: {t} is listed twice", seat)
                return None
            m |= b
        return m

    def _out_of_sequence(self, rnd: _Round | None, what: str, seat: int | None = None,
                         needs_cards: bool = False) -> None:
        """L007. ``needs_cards``: the event needs the dealt hands (exchange, play, pass)."""
        where = {
            None: "before the first round_start",
            Phase.DEAL: "before the first deal",
            Phase.GRAND: "before the second deal",
            Phase.EXCHANGE: "before all four exchanges",
            Phase.PLAY: "during play",
            Phase.OVER: "after the round ended",
        }[rnd.phase if rnd is not None else None]
        if needs_cards and rnd is not None and rnd.phase in (Phase.DEAL, Phase.GRAND):
            # a deal is missing: the hands are unknown, so one L007 and the rest of the
            # round is skipped instead of one L007 per event (docs/rules.md, decisions)
            self._emit("L007", f"{what} is not allowed {where}; without the deal the rest of "
                       "the round is not checked", seat)
            rnd.phase = Phase.SKIPPED
            return
        self._emit("L007", f"{what} is not allowed {where}", seat)

    def _deal(self, game: _Game, rnd: _Round | None, ev: Deal) -> None:
        if rnd is None or rnd.phase not in (Phase.DEAL, Phase.GRAND):
            self._out_of_sequence(rnd, "a deal")
            return
        first = rnd.phase == Phase.DEAL
        size = 8 if first else 6
        masks = []
        for seat, hand in enumerate(ev.hands):
            m = _mask_of_tokens(hand)
            if m is None:
                m = self._tokens(hand, f"deal to seat {seat}", None)
                if m is None:
                    return
            masks.append(m)
        union = 0
        problem = None
        for seat, (hand, m) in enumerate(zip(ev.hands, masks, strict=True)):
            if len(hand) != size:
                which = "first" if first else "second"
                problem = f"seat {seat} receives {len(hand)} cards in the {which} deal, not {size}"
                break
            seen_before = m & (union | (0 if first else _union(rnd.dealt8)))
            if seen_before:
                problem = f"{format_cards(seen_before)} dealt twice"
                break
            union |= m
        if problem is None and not first and (union | _union(rnd.dealt8)) != (1 << 56) - 1:
            problem = "the two deals do not hold all 56 cards"
        if problem is not None:
            self._fatal("D001", f"bad deal: {problem}")
            return
        if first:
            rnd.dealt8 = masks
            rnd.phase = Phase.GRAND
            if rnd.record is not None:
                rnd.record.hands8 = list(masks)
        else:
            rnd.hands = [a | b for a, b in zip(rnd.dealt8, masks, strict=True)]
            rnd.phase = Phase.EXCHANGE
            if rnd.record is not None:
                rnd.record.hands14 = list(rnd.hands)

    def _skip_round(self) -> None:
        """A deal or exchange could not be applied: the round has no cards to check."""
        rnd = self._game.round if self._game else None
        if rnd is not None:
            rnd.phase = Phase.SKIPPED

    def _fatal(self, code: str, message: str, seat: int | None = None) -> None:
        self._emit(code, message + "; the rest of the round is not checked", seat)
        if self._step is not None:
            self._step.skipped = True
        rnd = self._game.round if self._game else None
        if rnd is not None:
            rnd.phase = Phase.SKIPPED

    def _call(self, game: _Game, rnd: _Round | None, ev: Call) -> None:
        seat = ev.seat
        grand = ev.call == "grand_tichu"
        name = "Grand Tichu" if grand else "Tichu"
        if rnd is None or rnd.phase == Phase.DEAL or (rnd.phase == Phase.GRAND and not grand):
            self._out_of_sequence(rnd, f"a {name} call", seat)
            return
        if rnd.phase == Phase.OVER:
            self._emit("P009", f"{self._who(seat)} calls {name} after the round ended", seat)
            return
        prev = rnd.calls[seat]
        if prev is not None:
            prev_name = "Grand Tichu" if prev == "grand_tichu" else "Tichu"
            self._emit("C003", f"{self._who(seat)} already called {prev_name} this round; "
                       f"the {name} call is not counted", seat)
            return
        if grand and rnd.phase != Phase.GRAND:
            self._emit("C001", f"{self._who(seat)} calls Grand Tichu after seeing all 14 cards;"
                       " the call is not counted", seat)
            return
        if not grand and rnd.played[seat]:
            self._emit("C002", f"{self._who(seat)} calls Tichu after playing a card; "
                       "the call is not counted", seat)
            return
        rnd.calls[seat] = ev.call
        if rnd.record is not None:
            rnd.record.calls[seat] = ev.call
            rnd.record.call_steps[seat] = len(rnd.record.steps) - 1

    def _exchange(self, game: _Game, rnd: _Round | None, ev: Exchange) -> None:
        seat = ev.seat
        if rnd is None or rnd.phase != Phase.EXCHANGE:
            self._out_of_sequence(rnd, "an exchange", seat, needs_cards=True)
            return
        if rnd.exchanges[seat] is not None:
            self._emit("X002", f"{self._who(seat)} already exchanged this round", seat)
            return
        gives: dict[int, int] = {}
        cards = 0
        problem = None
        for key, token in ev.give.items():
            c = CARD_BY_TOKEN.get(token)
            if c is None:
                self._emit("L003", f"exchange: {token!r} is not a card", seat)
                rnd.unreadable_exchange = True
                return
            to = int(key) if key in ("0", "1", "2", "3") else None
            if problem is not None:
                continue
            if to is None:
                problem = f"{key!r} is not a seat"
            elif to == seat:
                problem = f"{self._who(seat)} gives {token} to itself"
            elif to in gives:
                problem = f"seat {to} is named twice"
            elif cards & BIT[c]:
                problem = f"{token} is given twice"
            elif not rnd.hands[seat] & BIT[c]:
                problem = f"{self._who(seat)} does not hold {token}"
            else:
                gives[to] = c
                cards |= BIT[c]
        if problem is None and len(gives) != 3:
            missing = sorted({0, 1, 2, 3} - {seat} - set(gives))
            problem = f"nothing is given to seat {', '.join(map(str, missing))}"
        if problem is not None:
            self._fatal("X001", f"bad exchange: {problem}", seat)
            return
        rnd.exchanges[seat] = gives
        if all(x is not None for x in rnd.exchanges):
            self._start_play(rnd)

    def _start_play(self, rnd: _Round) -> None:
        hands = rnd.hands
        for giver, gives in enumerate(rnd.exchanges):
            assert gives is not None
            for to, c in gives.items():
                hands[giver] &= ~BIT[c]
                hands[to] |= BIT[c]
        rnd.phase = Phase.PLAY
        for s in range(4):
            if hands[s] & BIT[MAHJONG]:
                rnd.turn = s  # rules 2.1: the Mahjong's holder leads
        if rnd.record is not None:
            rnd.record.hands_played = list(hands)
            rnd.record.given = [dict(g or {}) for g in rnd.exchanges]

    # -------------------------------------------------------------------- play

    def _can_act(self, rnd: _Round | None, what: str, seat: int) -> bool:
        """Phase checks shared by play and pass (the caller checked the common case)."""
        if self._step is not None:
            self._step.skipped = True
        if rnd is not None and rnd.phase == Phase.EXCHANGE and rnd.unreadable_exchange:
            # play starts without the exchange that could not be read: the hands are
            # unknown, so the rest of the round is skipped rather than reported as L007
            rnd.phase = Phase.SKIPPED
            return False
        if rnd is None or rnd.phase < _PLAY:
            self._out_of_sequence(rnd, what, seat, needs_cards=True)
            return False
        if rnd.phase == _OVER:
            self._emit("P009", f"{self._who(seat)}: {what} after the round ended", seat)
            return False
        if not rnd.hands[seat]:
            self._emit("P008", f"{self._who(seat)} has no cards left and is out of the round;"
                       f" {what} is not possible", seat)
            return False
        if self._step is not None:
            self._step.skipped = False
        return True

    def _entitled_leader(self, rnd: _Round) -> int:
        """Who leads once the trick on the table is over (rules 2.4)."""
        w = rnd.top_seat
        return w if rnd.hands[w] else _NEXT[rnd.holding][w]

    def _play(self, game: _Game, rnd: _Round | None, ev: Play) -> None:
        seat = ev.seat
        if (rnd is None or rnd.phase != _PLAY or not rnd.hands[seat]) and not self._can_act(
            rnd, "a play", seat
        ):
            return
        assert rnd is not None
        mask = _mask_of_tokens(ev.cards)
        if mask is None:
            self._tokens(ev.cards, "play", seat)  # reports what is wrong
            if self._step is not None:
                self._step.skipped = True
            return
        hand = rnd.hands[seat]
        if mask & ~hand:
            self._fatal("P001", f"{self._who(seat)} plays {format_cards(mask & ~hand)} "
                        "without holding it", seat)
            return
        phoenix = RANK_BY_TOKEN[ev.phoenix] if ev.phoenix is not None else None

        # Which situation is this play in? (rules 2.2-2.4, 4.3)
        top = rnd.top
        turn = rnd.turn
        lead = False
        bad: tuple[str, str] | None = None  # (code, message) of the play's legality
        if top is None:
            combo = _classify(mask, phoenix, None, self._phoenix_bombs)
            lead = True
            if seat != turn:
                if combo is not None and combo.kind >= _FOUR:
                    if rnd.after_dog and self._dog_bombs:
                        pass  # variant dog-can-be-bombed (rules 9): played on the Dog
                    elif rnd.after_dog:
                        bad = ("B003", f"{self._who(seat)} bombs the Dog; nothing may be "
                               "played on the Dog, not even a bomb")
                    else:
                        bad = ("B002", f"{self._who(seat)} bombs before the trick's first "
                               f"play; {self._who(turn)} is to lead")
                else:
                    bad = ("P003", f"{self._who(seat)} leads, but {self._who(turn)} is to lead")
        elif rnd.closing:
            combo = _classify(mask, phoenix, top, self._phoenix_bombs)
            leader = self._entitled_leader(rnd)
            # rules 2.4, 4.3: another seat's bomb continues the trick; the seat due to
            # lead leads (a Dragon's trick is given before that lead, so there any
            # other seat's bomb is on the trick: G002's "a bomb on it by another seat")
            bomb_on_trick = (combo is not None and combo.kind >= _FOUR and seat != rnd.top_seat
                             and (seat != leader or top.cards == _DRAGON_BIT))
            if not bomb_on_trick:
                lead = True
                if mask & _PHOENIX_BIT:
                    combo = classify(mask, phoenix, None, self._phoenix_bombs)
                if seat != leader:
                    bad = ("P003", f"{self._who(seat)} leads, but {self._who(leader)} won the "
                           "trick and is to lead")
        else:
            combo = _classify(mask, phoenix, top, self._phoenix_bombs)
            if seat != turn and (combo is None or combo.kind < _FOUR):
                bad = ("P003", f"{self._who(seat)} plays, but it is {self._who(turn)}'s turn")

        if combo is None:
            what = format_cards(mask)
            msg = (f"{what}, which with the Phoenix as {ev.phoenix} is not a combination"
                   if ev.phoenix is not None and mask & _PHOENIX_BIT and len(ev.cards) > 1
                   else f"{what}, which is not a combination")
            self._emit("P002", f"{self._who(seat)} plays {msg}", seat)
            self._discard(rnd, seat, mask)
            return
        if mask == _DOG_BIT and not lead:
            assert top is not None
            self._emit("P007", f"{self._who(seat)} plays the Dog on {_article(top)}; the Dog "
                       "may only be led", seat)
            self._discard(rnd, seat, mask)
            return
        step = self._step
        if lead:
            if rnd.closing:
                self._end_trick(rnd, rnd.top_seat)
            top = None
            rnd.trick += 1
            rnd.leader = seat
            if step is not None:
                step.trick = rnd.trick
        elif bad is None:
            assert top is not None
            if combo.kind >= _FOUR:
                if top.kind >= _FOUR and not beats(combo, top):
                    bad = ("B001", f"{self._who(seat)}'s {describe(combo)} does not beat the "
                           f"{describe(top)} on the table")
            elif combo.kind != top.kind or combo.length != top.length:
                bad = ("P004", f"{self._who(seat)} plays {_article(combo)} on {_article(top)}; "
                       "it must be the same kind of combination with the same number of cards")
            elif not (combo.rank > top.rank and top.cards != _DRAGON_BIT):
                # rules 4.1; nothing but a bomb beats the Dragon (5.3, 5.4)
                bad = ("P005", f"{self._who(seat)}'s {describe(combo)} does not beat the "
                       f"{describe(top)} on the table")
        wish = rnd.wish
        if bad is None and wish is not None and not mask & RANK_MASK[wish]:
            held = hand & RANK_MASK[wish]
            if held:
                if lead:
                    bad = ("W001", f"{self._who(seat)} leads {_article(combo)} while holding "
                           f"{format_cards(held)}; the wish for {RANK_TOKENS[wish]} is open, "
                           "so the lead must contain a card of that rank")
                elif combo.kind < _FOUR and seat == turn and top is not None:
                    could = can_play_rank(hand, wish, top)
                    if could is not None:
                        bad = ("W001", f"{self._who(seat)} plays {_article(combo)} while "
                               f"holding {format_cards(held)}; {_could(could, top, wish)}")
        if bad is not None:
            self._emit(*bad, seat)
        if step is not None:
            step.combo = combo
            step.top = top
            step.top_seat = rnd.top_seat if top is not None else None
            step.lead = lead
            step.out_of_turn = seat != turn and not lead
        self._apply_play(rnd, seat, combo, mask, ev, step)

    def _apply_play(self, rnd: _Round, seat: int, combo: Combo, mask: int, ev: Play,
                    step: Step | None) -> None:
        hands = rnd.hands
        left = hands[seat] = hands[seat] & ~mask
        rnd.played[seat] = True
        rnd.trick_cards |= mask
        rnd.top = combo
        rnd.top_seat = seat
        rnd.passed = 0
        rnd.closing = False
        rnd.after_dog = False
        if rnd.record is not None and combo.kind >= _FOUR:
            rnd.record.bombs[seat] += 1
        # the wish (rules 6.1, 5.1)
        wish = rnd.wish
        if wish is not None and mask & RANK_MASK[wish]:
            rnd.wish = None
            if rnd.record is not None:
                rnd.record.wish_fulfilled_by = seat
            if step is not None:
                step.wish_fulfilled = True
        if ev.wish is not None:
            self._wish(rnd, seat, mask, ev.wish)
        if step is not None:
            step.cards_left = left.bit_count()
            step.trick_points = points(rnd.trick_cards)
        if not left:
            if step is not None:
                step.went_out = True
            if self._goes_out(rnd, seat):
                return
        if mask == _DOG_BIT:
            # rules 5.2: the Dog's trick ends at once; the lead passes to the partner
            self._end_trick(rnd, seat, dog=True)
            partner = (seat + 2) & 3
            rnd.turn = partner if hands[partner] else _NEXT[rnd.holding][partner]
            rnd.after_dog = True
            return
        rnd.turn = _NEXT[rnd.holding][seat]

    def _wish(self, rnd: _Round, seat: int, mask: int, wish: object) -> None:
        """The ``wish`` field of a play (rules 5.1; W002)."""
        if not mask & _MAHJONG_BIT:
            self._emit("W002", f"{self._who(seat)} wishes for {wish!r} without playing "
                       "the Mahjong; the wish is ignored", seat)
        elif not isinstance(wish, str) or wish not in RANK_BY_TOKEN:
            self._emit("W002", f"{self._who(seat)} wishes for {wish!r}, which is not a "
                       "rank 2..A; the wish is ignored", seat)
        else:
            rnd.wish = RANK_BY_TOKEN[wish]
            if rnd.record is not None:
                rnd.record.wish = (seat, rnd.wish)

    def _discard(self, rnd: _Round, seat: int, mask: int) -> None:
        """P002/P007: the cards leave the hand, the top is unchanged, the turn moves on."""
        rnd.hands[seat] &= ~mask
        rnd.played[seat] = True
        rnd.trick_cards |= mask
        if self._step is not None:
            self._step.cards_left = rnd.hands[seat].bit_count()
        if not rnd.hands[seat]:
            if self._step is not None:
                self._step.went_out = True
            if self._goes_out(rnd, seat):
                return
        self._passes(rnd, seat)

    def _goes_out(self, rnd: _Round, seat: int) -> bool:
        """``seat`` played its last card; True when that ends the round (rules 7.1-7.3)."""
        rnd.holding &= ~(1 << seat)
        out = rnd.out
        out.append(seat)
        if len(out) == 2 and (out[0] - out[1]) & 1 == 0:
            self._end_round(rnd, double_victory=True)
            return True
        if len(out) == 3:
            if rnd.top is not None and rnd.top.cards == _DRAGON_BIT:
                rnd.dragon_due = True  # rules 5.4: the Dragon trick must still be given
                rnd.phase = Phase.OVER
                return True
            self._end_trick(rnd, rnd.top_seat if rnd.top is not None else seat)
            self._end_round(rnd, double_victory=False)
            return True
        return False

    def _pass(self, game: _Game, rnd: _Round | None, ev: Pass) -> None:
        seat = ev.seat
        if (rnd is None or rnd.phase != _PLAY or not rnd.hands[seat]) and not self._can_act(
            rnd, "a pass", seat
        ):
            return
        assert rnd is not None
        top = rnd.top
        step = self._step
        if step is not None:
            step.top = top
            step.top_seat = rnd.top_seat if top is not None else None
            step.cards_left = rnd.hands[seat].bit_count()
            step.trick_points = points(rnd.trick_cards) if top is not None else None
        if top is None or rnd.closing:
            self._pass_without_trick(rnd, seat)
            return
        if seat != rnd.turn:
            self._emit("P003", f"{self._who(seat)} passes, but it is {self._who(rnd.turn)}'s "
                       "turn", seat)
            if step is not None:
                step.out_of_turn = True
            rnd.passed |= 1 << seat
            self._check_trick_over(rnd)
            return
        wish = rnd.wish
        if wish is not None:
            held = rnd.hands[seat] & RANK_MASK[wish]
            if held:
                could = can_play_rank(rnd.hands[seat], wish, top)
                if could is not None:
                    self._emit("W001", f"{self._who(seat)} passes while holding "
                               f"{format_cards(held)}; {_could(could, top, wish)}", seat)
        # inline of _passes / _check_trick_over: the most frequent event
        passed = rnd.passed = rnd.passed | 1 << seat
        holding = rnd.holding
        if holding & ~(1 << rnd.top_seat) & ~passed == 0:
            rnd.closing = True
            rnd.turn = self._entitled_leader(rnd)
        else:
            rnd.turn = _NEXT[holding][seat]

    def _pass_without_trick(self, rnd: _Round, seat: int) -> None:
        """A pass while a lead is awaited: P006 by the leader, else P003."""
        leader = rnd.turn if rnd.top is None else self._entitled_leader(rnd)
        step = self._step
        if seat == leader:
            self._emit("P006", f"{self._who(seat)} passes, but is to lead and may not pass",
                       seat)
            if step is not None:
                step.skipped = True
        else:
            self._emit("P003", f"{self._who(seat)} passes, but {self._who(leader)} is to "
                       "lead", seat)
            if step is not None:
                step.out_of_turn = True

    def _passes(self, rnd: _Round, seat: int) -> None:
        rnd.passed |= 1 << seat
        rnd.turn = _NEXT[rnd.holding][seat]
        self._check_trick_over(rnd)

    def _check_trick_over(self, rnd: _Round) -> None:
        """Rules 2.4: over once every other seat still holding cards has passed."""
        if rnd.top is None:
            return
        if rnd.holding & ~(1 << rnd.top_seat) & ~rnd.passed == 0:
            rnd.closing = True
            rnd.turn = self._entitled_leader(rnd)

    def _end_trick(self, rnd: _Round, winner: int, to: int | None = None,
                   dog: bool = False) -> None:
        """The trick's cards go to ``to`` (default: the winner)."""
        taker = winner if to is None else to
        rnd.piles[taker] |= rnd.trick_cards
        if rnd.record is not None:
            steps = rnd.record.steps
            rnd.record.tricks.append(Trick(
                rnd.trick, rnd.leader, winner, rnd.trick_cards, points(rnd.trick_cards), taker,
                _last_play(steps), dragon=rnd.top is not None and rnd.top.cards == BIT[DRAGON],
                dog=dog or rnd.trick_cards == _DOG_BIT))
        rnd.trick_cards = 0
        rnd.top = None
        rnd.passed = 0
        rnd.closing = False

    # ------------------------------------------------------------ the Dragon

    def _check_dragon_gift_due(self, game: _Game, rnd: _Round, ev: Event) -> None:
        """G002 when a Dragon trick is over and ``ev`` is neither its gift nor a bomb on it.

        A Tichu call is no move on the table (a seat may call while others play,
        log-format ``call``), so it does not count as "the next event" here.
        """
        if type(ev) is DragonGift or type(ev) is Call:
            return
        if rnd.dragon_due:
            self._missing_gift(game, rnd)
            return
        if type(ev) is Play and ev.seat != rnd.top_seat:
            mask = 0
            for t in ev.cards:
                c = CARD_BY_TOKEN.get(t)
                if c is None:
                    return
                mask |= BIT[c]
            combo = classify(mask, None, None, self._phoenix_bombs)
            if combo is not None and combo.kind >= _FOUR:
                return
        self._missing_gift(game, rnd)

    def _missing_gift(self, game: _Game, rnd: _Round) -> None:
        winner = rnd.top_seat
        to = (winner + 1) & 3
        self._emit("G002", f"{self._who(winner)} won the trick with the Dragon but did not give "
                   f"it to an opponent; it goes to {self._who(to)}", winner)
        self._give_dragon(rnd, winner, to)

    def _give_dragon(self, rnd: _Round, winner: int, to: int) -> None:
        if rnd.record is not None:
            rnd.record.dragon_gifts.append((winner, to))
        leader = self._entitled_leader(rnd)
        self._end_trick(rnd, winner, to)
        if rnd.dragon_due:
            rnd.dragon_due = False
            self._end_round(rnd, double_victory=False)
        else:
            rnd.turn = leader

    def _dragon_gift(self, game: _Game, rnd: _Round | None, ev: DragonGift) -> None:
        seat, to = ev.seat, ev.to
        due = rnd is not None and (rnd.dragon_due or (
            rnd.closing and rnd.top is not None and rnd.top.cards == BIT[DRAGON]))
        if rnd is None or not due:
            if rnd is not None and rnd.phase == Phase.OVER and _dv_dragon(rnd):
                return  # rules 5.4: after a double victory a gift is accepted and ignored
            self._emit("G003", f"{self._who(seat)} gives a Dragon trick, but there is none to "
                       "give", seat)
            if self._step is not None:
                self._step.skipped = True
            return
        winner = rnd.top_seat
        if seat != winner:
            self._emit("L002", f"dragon_gift by seat {seat}, but {self._who(winner)} won the "
                       "Dragon's trick", seat)
            if self._step is not None:
                self._step.skipped = True
            return
        if (to - winner) & 1 == 0:
            whom = "itself" if to == winner else f"its partner {self._who(to)}"
            self._emit("G001", f"{self._who(winner)} gives the Dragon's trick to {whom}; it must "
                       "go to an opponent", seat)
        self._give_dragon(rnd, winner, to)

    # ---------------------------------------------------------------- scoring

    def _end_round(self, rnd: _Round, double_victory: bool) -> None:
        """Rules 7: the round is over; score it."""
        rnd.phase = Phase.OVER
        game = self._game
        assert game is not None
        out = rnd.out
        calls = [0, 0]
        for s, call in enumerate(rnd.calls):
            if call is not None:
                value = 200 if call == "grand_tichu" else 100
                calls[s & 1] += value if out and out[0] == s else -value
        if double_victory:
            team = out[0] & 1
            cards = [200, 0] if team == 0 else [0, 200]
        else:
            last = next(s for s in range(4) if s not in out)
            piles = list(rnd.piles)
            piles[out[0]] |= piles[last]  # rules 7.3: the last seat's tricks to the first out
            piles[last] = 0
            cards = [points(piles[0] | piles[2]), points(piles[1] | piles[3])]
            cards[(last + 1) & 1] += points(rnd.hands[last])  # its hand to the opponents
        score = [cards[0] + calls[0] + rnd.penalty[0], cards[1] + calls[1] + rnd.penalty[1]]
        rnd.score = score
        if game.totals is not None:
            game.totals = [game.totals[0] + score[0], game.totals[1] + score[1]]
            self._check_won(game)
        rec = rnd.record
        if rec is not None:
            rec.hands_end = list(rnd.hands)
            rec.table_end = rnd.trick_cards
            rec.pile_points = [points(p) for p in rnd.piles]
            rec.finish_order = self._finish_order(rnd)
            rec.double_victory = double_victory
            rec.card_points = cards
            rec.call_points = calls
            rec.score = score
            rec.status = STATUS_SCORED

    @staticmethod
    def _finish_order(rnd: _Round) -> list[int]:
        return rnd.out + [s for s in range(4) if s not in rnd.out]

    def _round_end(self, game: _Game, rnd: _Round | None, ev: RoundEnd) -> None:
        if rnd is None or rnd.round_end_seen or (ev.round is not None and ev.round != rnd.number):
            self._out_of_sequence(rnd, "a round_end" if rnd is None or rnd.round_end_seen
                                  else f"round_end of round {ev.round}")
            return
        rnd.round_end_seen = True
        if rnd.phase < Phase.OVER:
            self._incomplete(game, rnd, "round_end is recorded")
            rnd.phase = Phase.SKIPPED
            self._count_recorded(game, rnd, ev)
            return
        if rnd.record is not None:
            rnd.record.recorded_score = ev.score
            rnd.record.recorded_finish = ev.finish_order
        order = self._finish_order(rnd)
        if ev.finish_order is not None:
            got = list(ev.finish_order)
            dv = rnd.record.double_victory if rnd.record else len(rnd.out) == 2
            same = (got[:2] == order[:2] and sorted(got[2:]) == sorted(order[2:])) if dv \
                else got == order
            if not same:
                self._emit("S001", f"round_end records the finish order {_seats(got)}, but the "
                           f"seats went out in the order {_seats(order)}")
        if ev.score is not None and rnd.score is not None and list(ev.score) != rnd.score:
            self._emit("S002", f"round_end records the score {ev.score[0]} to {ev.score[1]}, "
                       f"but the round scores {rnd.score[0]} to {rnd.score[1]}"
                       f"{self._score_detail(rnd)}")

    @staticmethod
    def _score_detail(rnd: _Round) -> str:
        rec = rnd.record
        if rec is None:
            return ""
        return (f" (card points {rec.card_points[0]} to {rec.card_points[1]}, calls "
                f"{rec.call_points[0]:+d} to {rec.call_points[1]:+d})")


def _union(masks: list[int]) -> int:
    u = 0
    for m in masks:
        u |= m
    return u


def _last_play(steps: list[Step]) -> int:
    for i in range(len(steps) - 1, -1, -1):
        if steps[i].combo is not None:
            return i
    return len(steps) - 1


def _dv_dragon(rnd: _Round) -> bool:
    """Whether the round ended in a double victory with the Dragon's trick on the table."""
    return len(rnd.out) == 2 and bool(rnd.trick_cards & BIT[DRAGON])


def _seats(order: list[int]) -> str:
    return ", ".join(str(s) for s in order)


def _could(could: Combo, top: Combo, wish: int) -> str:
    """What a seat bound by the wish could have played (W001 messages)."""
    what = (format_cards(could.cards) if could.length == 1
            else f"{_article(could)} with {format_cards(could.cards)}")
    return f"{what} beats the {describe(top)}, and the wish for {RANK_TOKENS[wish]} is open"


def _article(combo: Combo) -> str:
    text = describe(combo)
    return text if text[:1].isupper() else ("an " if text[:1] in "aeiou" else "a ") + text


