"""The replay engine: applies format-1 events to game states and checks every rule.

Pure: no I/O. Feed it typed events (``events``) with their log line numbers,
in file order, through a :class:`Engine`. It applies each event to the game's
public state (:mod:`tichu_analyze.core.state`: one :class:`~tichu_analyze.core.state.GameState`
per game), in one place per event type, and tells its
:class:`~tichu_analyze.core.visitor.Visitor` of games, rounds, events, tricks and every
violation (a :class:`~tichu_analyze.core.diagnostics.Diagnostic`). The rules are those
of ``rules.md``; comments cite its sections.

Usage::

    found = []
    replay = Engine("game.jsonl", DiagnosticVisitor(found.append))
    for line, event in events:
        replay.feed(line, event)
    replay.finish(last_line)

The rule code keeps no records for consumers: each handler applies its event to
the state and returns what became of it (skipped, a lead, out of turn, discarded);
when the visitor wants steps (:func:`~tichu_analyze.core.visitor.traces`), :meth:`Engine.feed`
builds the :class:`~tichu_analyze.core.state.Step` around the handler from the state
before and after it.

Decisions where rules.md leaves room (also in docs/rules.md):

* One event gets at most one play-legality code; a wish violation (W001) is
  only reported for a play or pass that is otherwise legal.
* During the end-of-trick window (every other seat passed), a play by the
  seat due to lead (the winner, or the next seat holding cards when the winner
  is out) is the new lead; a bomb by any other seat continues the trick; a
  non-bomb by another seat is a lead out of turn (P003). On a Dragon's trick
  the same holds: another seat's bomb is "a bomb on it" (G002), the bomb of the
  seat due to lead is its lead, so the gift it did not wait for is G002.
* A ``call`` between the end of a Dragon's trick and its gift is not "the next
  event" of G002: calls may come at any moment, they are no move on the table.
* A pass out of turn (P003) still counts as that seat's pass.
* A ``P002``/``P007`` play counts as a pass for ending the trick; its cards
  join the trick in progress. A ``P002`` while a lead is awaited is a lead (the
  seat's due, or out of turn): after everyone passed the old trick goes to its
  winner, after the Dog the Dog's window closes; the table stays empty and the turn
  moves on. Such a play makes no wish; a ``wish`` on it is W002 when it has no
  Mahjong or no rank.
* One lost or misplaced line is reported once: plays and passes before the last
  exchange after the first L007, the round of a misnumbered ``round_start`` or of a
  ``deal`` without one are skipped without a word (docs/rules.md, "Decisions").
* Rounds that are not scored by the replay (skipped after a fatal diagnostic, or
  incomplete: L008) add nothing to the game total, which is the sum of the rounds
  the replay scored (rules 8: "not scored"; S003: "the sum of the replayed rounds").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

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
from .combos import CLASSIFIED, Combo, Kind, beats, classified, classify, describe
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
    Substitute,
)
from .state import (
    STATUS_INCOMPLETE,
    STATUS_SCORED,
    STATUS_SKIPPED,
    GameState,
    Phase,
    RoundState,
    Step,
    Trick,
    partners,
    round_over,
    score_round,
    team_victory,
)
from .variants import PARTNERS, PUBLISHER, VARIANTS, rules_of, setting, variants_problem
from .visitor import SKIP, Visitor, traces

__all__ = [
    "STATUS_INCOMPLETE",
    "STATUS_SCORED",
    "STATUS_SKIPPED",
    "Phase",
    "Engine",
]

_SKIPPED = Phase.SKIPPED
_PLAY = Phase.PLAY
_OVER = Phase.OVER
_DRAGON_BIT = BIT[DRAGON]
_DOG_BIT = BIT[DOG]
_PHOENIX_BIT = BIT[PHOENIX]
_MAHJONG_BIT = BIT[MAHJONG]
_FOUR = Kind.FOUR_OF_A_KIND
_UNSEEN = Combo(Kind.SINGLE, 0, 0, 0)
"""Not in :data:`combos.CLASSIFIED` (a sentinel: the memo also holds None)."""
_SINGLE = Kind.SINGLE
_TOKEN_BIT: dict[str, int] = {t: BIT[c] for t, c in CARD_BY_TOKEN.items()}
_BIT_OF_TOKEN = _TOKEN_BIT.__getitem__
_SEAT_KEYS: dict[str, int] = {str(s): s for s in range(10)}  # "give" keys naming seats

# What a handler did with its event (its return value; 0: applied as it stands)
SKIPPED = 1  # not applied
LEAD = 2  # a play that led a new trick
OUT_OF_TURN = 4  # a play or pass out of turn (still applied)
DISCARD = 8  # a play that formed no combination (P002) or the Dog not led (P007)
# a play's outcome, by 2 * lead + out of turn
_OUTCOMES: Final[tuple[int, int, int, int]] = (0, OUT_OF_TURN, LEAD, LEAD)


def _mask_of_tokens(tokens: list[str]) -> int | None:
    """The cards of ``tokens``, or None if one is unknown or repeated (the slow path,
    ``Engine._tokens``, then says which)."""
    try:
        mask: int = sum(map(_BIT_OF_TOKEN, tokens))
    except KeyError:
        return None
    # a sum of n powers of two has n bits set exactly when they are n different ones
    return mask if mask.bit_count() == len(tokens) else None


def _classify(mask: int, phoenix: int | None, top: Combo | None,
              phoenix_bombs: bool = False) -> Combo | None:
    """``combos.classify`` with a bounded memo for plays without the Phoenix, whose
    combination depends on the cards alone."""
    if mask & _PHOENIX_BIT:
        return classify(mask, phoenix, top, phoenix_bombs)
    try:
        return CLASSIFIED[mask]
    except KeyError:
        return classified(mask)


class Engine:
    """Replays the events of one log file, game by game, and checks the rules.

    ``visitor`` is told of every game, round, event, trick and diagnostic
    (:class:`~tichu_analyze.core.visitor.Visitor`). ``games`` holds each game's
    :class:`~tichu_analyze.core.state.GameState` by id.
    """

    def __init__(
        self,
        file: str,
        visitor: Visitor | None = None,
        *,
        variants: frozenset[str] = frozenset(),
    ) -> None:
        self.file = file
        self.variants = variants  # the command line's; a game adds its game_start's
        self.visitor = visitor if visitor is not None else Visitor()
        self._report: Callable[[Diagnostic], None] = self.visitor.visit_diagnostic
        self._trace = traces(self.visitor)  # the visitor wants steps and tricks
        self._tracing = False  # ... of the game being replayed (set by feed and finish)
        self._visit_event = self.visitor.visit_event
        self.games: dict[str, GameState] = {}
        self._unstarted: dict[str, int] = {}  # game id -> line of its invalid game_start
        self.events = 0
        self.rounds = 0
        self._line = 0
        self._game: GameState | None = None
        # tracing: the step of the event being applied, its round, what the state was
        # before it, and the tricks it ended (told after the step)
        self._step: Step | None = None
        self._step_round: RoundState | None = None
        self._top_before: Combo | None = None
        self._top_seat_before = -1
        self._reached = False
        self._points_of = -1  # the cards whose points are in _points
        self._points = 0
        self._ended: list[Trick] = []
        self._could: Combo | None = None  # tracing: W001's "could have played", for the step
        self._handlers: dict[type, Callable[[GameState, RoundState | None, Event], int]] = {
            RoundStart: self._round_start,  # type: ignore[dict-item]
            Deal: self._deal,  # type: ignore[dict-item]
            Call: self._call,  # type: ignore[dict-item]
            Exchange: self._exchange,  # type: ignore[dict-item]
            Play: self._play,  # type: ignore[dict-item]
            Pass: self._pass,  # type: ignore[dict-item]
            DragonGift: self._dragon_gift,  # type: ignore[dict-item]
            RoundEnd: self._round_end,  # type: ignore[dict-item]
            GameEnd: self._game_end,  # type: ignore[dict-item]
            Substitute: self._substitute,  # type: ignore[dict-item]
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
        trace = self._trace
        if trace:
            trace = self._tracing = game.traced  # (a visitor may skip a game: SKIP)
            if trace:
                game.events += 1
        if rnd is not None:
            if rnd.phase is _SKIPPED and kind is not RoundStart:  # (phases are singletons)
                if trace and not rnd.drift:  # shown, but not checked
                    self.visitor.visit_event(game, rnd, Step(
                        game.events - 1, line, ev, rnd.trick or None, getattr(ev, "seat", None),
                        skipped=True))
                if kind is RoundEnd and not rnd.round_end_seen:
                    rnd.round_end_seen = True
                    self._note_recorded(rnd, ev)  # type: ignore[arg-type]
                elif kind is GameEnd:
                    self._game_end(game, rnd, ev)  # type: ignore[arg-type]
                return
            if trace and kind is not RoundStart:  # the step: what the state was before
                if kind is Play or kind is Pass:  # what a play or pass found on the table
                    seat: int | None = ev.seat  # type: ignore[union-attr]
                    hand = rnd.hands[seat]  # type: ignore[index]
                    self._reached = rnd.phase is _PLAY and hand != 0
                    self._top_before = rnd.top
                    self._top_seat_before = rnd.top_seat
                else:
                    seat = getattr(ev, "seat", None)
                self._step = Step(game.events - 1, line, ev, rnd.trick or None, seat, None, None,
                                  None, False, False, rnd.wish)
                self._step_round = rnd
            if rnd.dragon_due or (rnd.trick_over and rnd.top.cards == _DRAGON_BIT):  # type: ignore[union-attr]
                self._check_dragon_gift_due(game, rnd, ev)
        if kind is Pass:  # the two most frequent events without the handler table
            outcome = self._pass(game, rnd, ev)  # type: ignore[arg-type]
        elif kind is Play:
            outcome = self._play(game, rnd, ev)  # type: ignore[arg-type]
        else:
            outcome = self._handlers[kind](game, rnd, ev)
        if trace:
            self._end_step(outcome)

    def feed_move(self, line: int, game: GameState, rnd: RoundState, ev: Play | Pass,
                  mask: int = 0) -> None:
        """:meth:`feed` for a play or a pass of ``game``'s round ``rnd`` (its current
        round) while it is in play and no Dragon trick awaits its gift, when nothing is
        traced: the same checks and changes, without finding the game and the phase
        again. For a reader that follows the state it feeds (the ``.tch`` reader) and
        knows all that; :meth:`feed` otherwise. ``mask``: a play's cards as a mask, when
        the reader has it (0: not known)."""
        if self._trace:
            self.feed(line, ev)
            return
        self._line = line
        self._game = game
        if type(ev) is Pass:
            self._pass(game, rnd, ev)
        else:
            self._play(game, rnd, ev, mask)  # type: ignore[arg-type]

    def feed_pass(self, line: int, game: GameState, rnd: RoundState, ev: Pass) -> bool:
        """For a reader that follows the state it feeds (the ``.tch`` reader): apply
        ``ev``, a pass in ``game``'s round ``rnd`` (its current round), if it is a reply in
        turn -- the round in play, a trick on the table and not over, the seat on turn and
        holding cards -- as :meth:`feed` would (so :meth:`feed_move`'s contract holds);
        else change nothing and return False. The most frequent event of a ``.tch`` file:
        its test is made once, here."""
        seat = ev.seat
        if (seat != rnd.turn or rnd.top is None or rnd.trick_over or rnd.phase is not _PLAY
                or not rnd.hands[seat]):
            return False
        if self._trace or rnd.wish is not None:
            self.feed_move(line, game, rnd, ev)
            return True
        self._line = line
        self._game = game
        rnd.note_pass(seat)  # (as :meth:`_pass` applies a pass in turn without a wish open)
        return True

    # ---------------------------------------------------------------- tracing

    def _end_step(self, outcome: int) -> None:
        """Tracing: complete the step of the event just applied from the state, and tell
        the visitor of it and of the tricks it ended."""
        step = self._step
        rnd = self._step_round
        if step is None or rnd is None:
            return
        self._step = None
        ev = step.event
        kind = type(ev)
        if outcome & SKIPPED:
            step.skipped = True
        elif kind is Play:
            hand = rnd.hands[ev.seat]  # type: ignore[union-attr]
            step.cards_left = hand.bit_count()
            step.went_out = not hand
            if outcome & DISCARD:  # the cards joined the trick on the table (or the
                # round's last one, which ended with them: the table is then empty)
                step.trick_points = (self._ended[-1].points if self._ended
                                     and not rnd.trick_cards
                                     else self._trick_points(rnd.trick_cards))
            else:
                top = rnd.top
                if top is not None:
                    step.combo = top
                    step.trick_points = self._trick_points(rnd.trick_cards)
                else:  # the play ended its trick (the Dog, or the third seat out)
                    ended = self._ended[-1]
                    step.combo = ended.top
                    step.trick_points = ended.points
                if outcome & LEAD:
                    step.lead = True
                else:
                    step.out_of_turn = outcome & OUT_OF_TURN != 0
                    if self._top_before is not None:
                        step.top = self._top_before
                        step.top_seat = self._top_seat_before
                step.wish_fulfilled = step.wish_open is not None and rnd.wish is None
        if kind is Pass:
            step.out_of_turn = outcome & OUT_OF_TURN != 0
            if self._reached:
                top = rnd.top
                step.top = top
                step.top_seat = rnd.top_seat if top is not None else None
                step.cards_left = rnd.hands[ev.seat].bit_count()  # type: ignore[union-attr]
                step.trick_points = self._trick_points(rnd.trick_cards) if top is not None else 0
        step.trick = rnd.trick or None
        if self._could is not None:  # what the seat could have played (W001's, rules 6.2)
            if any(d.code == "W001" for d in step.diagnostics):
                step.wish_play = self._could
            self._could = None
        game = self._game
        assert game is not None
        self._visit_event(game, rnd, step)
        if self._ended:
            self._tell_tricks(game, rnd)

    def _trick_points(self, cards: int) -> int:
        """Tracing: ``points(cards)``, remembered for the passes that follow a play."""
        if cards != self._points_of:
            self._points_of = cards
            self._points = points(cards)
        return self._points

    def _tell_tricks(self, game: GameState, rnd: RoundState) -> None:
        ended = self._ended
        if ended:
            self._ended = []
            for trick in ended:
                self.visitor.visit_trick(game, rnd, trick)

    def _record_trick(self, rnd: RoundState, winner: int, taker: int, dog: bool) -> None:
        """Tracing: the trick on the table is taken."""
        top = rnd.top
        cards = rnd.trick_cards
        self._ended.append(Trick(
            rnd.trick, rnd.leader, winner, cards, points(cards), taker, top,
            dragon=top is not None and top.cards == _DRAGON_BIT, dog=dog))
        if self._step is None and self._game is not None:
            self._tell_tricks(self._game, rnd)

    def _game_level(self, line: int, ev: Event, game: GameState | None) -> None:
        """``game_start``, and events of unknown or ended games."""
        if type(ev) is GameStart:
            if game is not None:
                self._emit_at(None, None, "L006", f"game {ev.game!r} was already started "
                              "earlier in this file", None, game_id=ev.game)
                return
            self._game_start(ev, line)
            return
        why = "after its game_end" if game is not None else "that has no game_start before it"
        bad = self._unstarted.get(ev.game) if game is None else None
        if bad is not None:
            why += f" (its game_start at line {bad} is not valid)"
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
        if kind == "game_start" and game_id is not None and game is None:
            self._unstarted[game_id] = line
        self._game = game
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
            self._tracing = self._trace and game.traced
            if game.round is not None:
                self._leave_round(game, game.round, "the log ends")
            if not game.ended:
                self._close_game(game)

    def hold(self, held: list[Diagnostic] | None) -> None:
        """Keep the diagnostics found from now on in ``held`` instead of telling the
        visitor; None: tell it again. For a reader that may feed a round again with
        another reading of its log (the ``.tch`` reader), and then reports what it kept."""
        self._report = held.append if held is not None else self.visitor.visit_diagnostic

    # ---------------------------------------------------------------- reports

    def _emit(self, code: str, message: str, seat: int | None = None) -> None:
        game = self._game
        self._emit_at(game, game.round if game else None, code, message, seat)

    def _emit_at(self, game: GameState | None, rnd: RoundState | None, code: str, message: str,
                 seat: int | None, game_id: str | None = None) -> None:
        player = None
        if game is not None and seat is not None and 0 <= seat < game.seats:
            player = rnd.occupants[seat] if rnd is not None else game.seating[seat]
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
        if code == "W001" and rnd is not None and rnd.rules.wish_penalty and seat is not None:
            rnd.penalty[(seat + 1) & 1] += rnd.rules.wish_penalty  # (rules 9.1)
        self._report(diag)

    def _who(self, seat: int) -> str:
        """``Name (seat n)``: the seat's player in the round being played."""
        game = self._game
        if game is None:
            return f"seat {seat}"
        rnd = game.round
        names = rnd.occupants if rnd is not None else game.seating
        return f"{names[seat]} (seat {seat})"

    # ------------------------------------------------------------ game level

    def wide(self, game_id: str | None, variants: object = None) -> bool:
        """Whether the events of game ``game_id`` are read with the variants' wider shapes
        (``events.widen``: six seats, trichu's per-person ``game_end``). For a
        ``game_start``, ``variants`` is its ``variants`` field."""
        game = self.games.get(game_id) if game_id is not None else None
        if game is not None and not game.ended:
            return game.rules.wide
        chosen = set(self.variants) | (set(variants) if isinstance(variants, list)
                                       and all(isinstance(v, str) for v in variants)
                                       else set())
        return any(name in VARIANTS and VARIANTS[name].sets.get("wide", False)
                   for name in chosen)

    def feed_wide(self, line: int, ev: Event) -> None:
        """Apply an event of a variant game read with the wider shapes (``wide``): its
        seats, hands and finish order are first held to the game's own number of seats
        (L002 otherwise)."""
        game = self.games.get(ev.game)
        if game is not None and not game.ended and type(ev) is not GameStart:
            seats = game.seats
            for field in ("seat", "to"):
                value = getattr(ev, field, None)
                if value is not None and value >= seats:
                    kind = str(type(ev).__struct_config__.tag)
                    seat = getattr(ev, "seat", None)
                    self.problem(line, "L002", f"bad {kind} event: `{field}` is {value}; "
                                 f"this game has {seats} seats, so a seat is a whole number "
                                 f"from 0 to {seats - 1}", ev.game,
                                 seat if seat is not None and seat < seats else None, kind)
                    return
        self.feed(line, ev)

    def _wrong_size(self, what: str, got: int, want: int) -> int:
        """L002 for a list of the wrong size for the game's seats (a variant game's
        events are read with wider shapes, ``events.widen``); returns SKIPPED."""
        self._emit("L002", f"{what} has {got} entries; this game has {want} seats")
        return SKIPPED

    def _game_start(self, ev: GameStart, line: int) -> None:
        names = ev.players
        chosen = ev.variants or []
        problem = variants_problem(chosen)
        variants = self.variants | frozenset(chosen)
        if problem is None:
            problem = variants_problem(variants)
            if problem is not None:
                problem += " (one of them from the command line)"
        if problem is not None:
            self._emit_at(None, None, "L002", f"game_start: {problem}; the game is skipped",
                          None, game_id=ev.game)
            self._unstarted[ev.game] = line
            return
        rules = rules_of(variants)
        seats = rules.seats
        if len(names) != seats or len(set(names)) != seats or not all(
                isinstance(n, str) and n.strip() for n in names):
            why = ""
            six = setting("seats")  # (the variant of six players)
            if seats != PUBLISHER.seats and not any(
                    VARIANTS[v].sets.get("seats") for v in chosen if v in VARIANTS):
                why = f" ({six}, played by {_NUMBER[seats]}, is in force from the command line)"
            elif seats == PUBLISHER.seats and len(names) == VARIANTS[six].sets["seats"]:
                why = (f" ({_NUMBER[len(names)]} players play the variant {six}, which "
                       "game_start.variants does not name)")
            self._emit_at(None, None, "L002", f"game_start needs {_NUMBER[seats]} distinct, "
                          f"non-empty player names{why}; the game is skipped", None,
                          game_id=ev.game)
            self._unstarted[ev.game] = line
            return
        target = ev.target
        if target is None:
            target = rules.target  # (points, or rounds: rules 9.3)
        elif target % rules.target_divisor:
            self._emit_at(None, None, "L002", f"game_start: in {setting('target_divisor')} "
                          f"the target is a number of rounds divisible by "
                          f"{_NUMBER[rules.target_divisor]}, not {target}; the game is "
                          "skipped", None, game_id=ev.game)
            self._unstarted[ev.game] = line
            return
        self.games[ev.game] = game = GameState(ev.game, ev.players, target, ev.meta, line,
                                               self.file, rules)
        if self.visitor.begin_game(game) is SKIP:
            game.traced = False

    def _round_start(self, game: GameState, rnd: RoundState | None, ev: RoundStart) -> int:
        expected = game.last_round + 1
        if ev.round != expected and not (  # the log's own count, after rounds left out
                rnd is not None and rnd.drift and ev.round == rnd.number + 1 > expected):
            if rnd is not None and not rnd.drift and ev.round == rnd.number:
                self._emit("L007", f"round {ev.round} is already being played; this "
                           "round_start is skipped")  # (a line written twice)
                return SKIPPED
            self._emit("L007", f"round {ev.round} does not follow round {game.last_round}; "
                       f"expected round {expected}; its events are not checked")
            self._drift(game, rnd, f"round {ev.round} starts", ev.round)
            return SKIPPED
        names = ev.players
        if names is not None and (len(names) != game.seats or len(set(names)) != len(names)
                                  or not all(n.strip() for n in names)):
            self._emit("L002", f"round_start.players needs {game.seats} distinct, non-empty "
                       "player names; the round_start is skipped")
            return SKIPPED
        dummy = -1
        if game.rules.dummy:  # rules 9.3: every round names the dummy and the seating
            if ev.dummy is None or names is None or not 0 <= ev.dummy < game.seats:
                what = ("the seat of the dummy (0-3)" if ev.dummy is None or names is not None
                        else "the round's seating (players)")
                self._emit("L002", f"in {setting('dummy')}, round_start needs {what}; the "
                           "round_start is skipped")
                return SKIPPED
            dummy = ev.dummy
        elif ev.dummy is not None:
            self._emit("L002", f"round_start names a dummy, which only the variant "
                       f"{setting('dummy')} has; the round_start is skipped")
            return SKIPPED
        if rnd is not None:
            self._leave_round(game, rnd, f"round {ev.round} starts")
        if names is not None:
            game.seating = list(names)
        rnd = RoundState(ev.round, list(game.seating), self._line, game.rules, dummy)
        game.round = rnd
        game.last_round = ev.round
        self.rounds += 1
        self.visitor.begin_round(game, rnd)
        if self._tracing:
            self._step = Step(game.events - 1, self._line, ev, None)
            self._step_round = rnd
        if game.won_by is not None and not game.warned_continue:
            game.warned_continue = True
            self._emit("S004", f"round {ev.round} is played although team {game.won_by} "
                       f"already won the game ({self._totals(game)})")
        elif game.rules.target_in_rounds and ev.round > game.target \
                and not game.warned_continue:
            game.warned_continue = True
            self._emit("S004", f"round {ev.round} is played although the game ended after "
                       f"round {game.target}")
        return 0

    @staticmethod
    def _totals(game: GameState) -> str:
        t = game.totals
        return f"{t[0]} to {t[1]}"

    def _drift(self, game: GameState, rnd: RoundState | None, why: str, number: int) -> None:
        """The events up to the next ``round_start`` belong to a round the engine could not
        start (its ``round_start`` misnumbered, or missing before a deal): skip them without
        a word, as after a fatal diagnostic (rules 8: a diagnostic is reported once).
        ``rnd``: the round the log leaves, closed as a new round closes it; ``number``: the
        round the log meant (a round_start numbered after it follows it)."""
        if rnd is not None:
            self._leave_round(game, rnd, why)
        drift = RoundState(number, list(game.seating), self._line, game.rules)
        drift.phase = Phase.SKIPPED
        drift.drift = True
        game.round = drift

    def _leave_round(self, game: GameState, rnd: RoundState, why: str) -> None:
        """The log moves on from ``rnd`` (next round, game end, end of file)."""
        if rnd.drift:  # no round of the log: nothing to close
            game.round = None
            return
        if rnd.dragon_due and rnd.phase is not _SKIPPED:
            self._missing_gift(game, rnd)
        if rnd.phase < Phase.OVER:  # (its exchange never came after an early play too)
            self._incomplete(game, rnd, why)
        self._close_round(game, rnd)
        game.round = None

    def _incomplete(self, game: GameState, rnd: RoundState, why: str) -> None:
        self._emit("L008", f"round {rnd.number} is not over when {why}; it is not scored")

    def _close_round(self, game: GameState, rnd: RoundState) -> None:
        """The round is left (next round, game end, end of file)."""
        game.rounds += 1
        if self._tracing:
            self._end_step(0)  # the game_end that closes the round belongs to it
            self._tell_tricks(game, rnd)
        self.visitor.end_round(game, rnd)

    def _close_game(self, game: GameState) -> None:
        self.visitor.end_game(game)

    @staticmethod
    def _note_recorded(rnd: RoundState, ev: RoundEnd) -> None:
        """The ``round_end`` of a round the replay could not score: kept as recorded (it
        adds nothing to the game total: the round is not scored)."""
        rnd.recorded_score = ev.score
        rnd.recorded_finish = ev.finish_order

    @staticmethod
    def _add_persons(game: GameState, rnd: RoundState, score: list[int]) -> None:
        """Per person (rules 9.3): each person scores the points of the team it sat in."""
        persons = game.person_totals
        if persons is not None:
            for seat, name in enumerate(rnd.players):
                if seat != rnd.dummy:
                    persons[name] = persons.get(name, 0) + score[seat & 1]

    def _check_won(self, game: GameState) -> None:
        t = game.totals
        if game.rules.target_in_rounds:
            return  # the game counts rounds, not points (rules 9.3)
        if game.won_by is None and max(t) >= game.target and t[0] != t[1]:
            game.won_by = 0 if t[0] > t[1] else 1  # rules 7.6

    def _game_end(self, game: GameState, rnd: RoundState | None, ev: GameEnd) -> int:
        if ev.score is not None and isinstance(ev.score, dict) != game.rules.per_person:
            self._emit("L002", "game_end.score is an object of the persons' totals in "
                       f"{setting('per_person')}, and a list of the two teams' totals otherwise")
            return SKIPPED
        if rnd is not None:
            self._leave_round(game, rnd, "the game ends")
        if game.rules.per_person:
            self._persons_game_end(game, ev)
        else:
            if isinstance(ev.score, list) and ev.score != game.totals:
                self._emit("S003", f"game_end records {ev.score[0]} to {ev.score[1]}, but the "
                           f"replayed rounds add up to {game.totals[0]} to {game.totals[1]}")
            if game.won_by is None:  # unscored rounds add nothing (L008, fatal diagnostics)
                self._emit("S004", f"game_end before a team reached the target of "
                           f"{game.target} with more points ({self._totals(game)})")
        if not isinstance(ev.score, dict):
            game.recorded_score = ev.score
        game.ended = True
        self._close_game(game)
        return 0

    def _persons_game_end(self, game: GameState, ev: GameEnd) -> None:
        """rules 9.3: the game lasts ``target`` rounds; ``game_end.score`` per person."""
        score = ev.score
        persons = game.person_totals
        if isinstance(score, dict):
            game.recorded_persons = dict(score)
            if persons is not None and score != persons:
                self._emit("S003", f"game_end records {_persons(score)}, but the replayed "
                           f"rounds add up to {_persons(persons)}")
        if game.last_round < game.target:
            self._emit("S004", f"game_end after round {game.last_round}; the game lasts "
                       f"{game.target} rounds")

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

    def _out_of_sequence(self, rnd: RoundState | None, what: str, seat: int | None = None,
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
        if needs_cards and rnd is not None and rnd.phase is Phase.EXCHANGE:
            # an exchange is late or missing: one L007; the plays and passes before it are
            # skipped without a word, the round goes on once the exchange is complete, and
            # without it is skipped (docs/rules.md, decisions)
            if not rnd.early_play:
                rnd.early_play = True
                self._emit("L007", f"{what} is not allowed {where}; the plays and passes "
                           "before the last exchange are not checked", seat)
            return
        if needs_cards and rnd is not None and rnd.phase < Phase.EXCHANGE:
            # a deal is missing: the hands are unknown, so one L007 and the rest of the
            # round is skipped instead of one L007 per event (docs/rules.md, decisions)
            self._emit("L007", f"{what} is not allowed {where}; without the deal the rest of "
                       "the round is not checked", seat)
            rnd.phase = Phase.SKIPPED
            return
        self._emit("L007", f"{what} is not allowed {where}", seat)

    def _deal(self, game: GameState, rnd: RoundState | None, ev: Deal) -> int:
        if rnd is None or rnd.phase is Phase.OVER:  # a new round without its round_start
            where = "before the first round_start" if rnd is None else "after the round ended"
            self._emit("L007", f"a deal is not allowed {where}: its round has no round_start "
                       "and is not checked")
            self._drift(game, rnd, "a deal comes without a round_start", game.last_round)
            return 0
        if rnd.phase not in (Phase.DEAL, Phase.GRAND):
            self._out_of_sequence(rnd, "a deal")
            return 0
        if len(ev.hands) != rnd.seats:
            return self._wrong_size("deal.hands", len(ev.hands), rnd.seats)
        first = rnd.phase == Phase.DEAL
        first_deal = rnd.rules.first_deal
        size = first_deal if first else 14 - first_deal
        masks = []
        for seat, hand in enumerate(ev.hands):
            m = _mask_of_tokens(hand)
            if m is None:
                m = self._tokens(hand, f"deal to seat {seat}", None)
                if m is None:
                    return SKIPPED
            masks.append(m)
        union = 0
        problem = None
        earlier = 0 if first else _union(rnd.dealt8)
        for seat, (hand, m) in enumerate(zip(ev.hands, masks, strict=True)):
            if rnd.rules.uneven_deal and not first:  # rules 9.2: 9 or 10 cards in all
                total = len(hand) + first_deal
                if not 9 <= total <= 10:
                    problem = (f"seat {seat} receives {len(hand)} cards in the second deal and "
                               f"would hold {total}, not 9 or 10")
                    break
            elif len(hand) != size:
                which = "first" if first else "second"
                problem = f"seat {seat} receives {len(hand)} cards in the {which} deal, not {size}"
                break
            seen_before = m & (union | earlier)
            if seen_before:
                problem = f"{format_cards(seen_before)} dealt twice"
                break
            union |= m
        if problem is None and not first and (union | earlier) != (1 << 56) - 1:
            problem = "the two deals do not hold all 56 cards"
        if problem is not None:
            return self._fatal("D001", f"bad deal: {problem}")
        if first:
            rnd.dealt8 = masks
            rnd.phase = Phase.GRAND
        else:
            rnd.hands = [a | b for a, b in zip(rnd.dealt8, masks, strict=True)]
            rnd.dealt = list(rnd.hands)
            rnd.phase = Phase.EXCHANGE
        return 0

    def _skip_round(self) -> None:
        """A deal or exchange could not be applied: the round has no cards to check."""
        rnd = self._game.round if self._game else None
        if rnd is not None:
            rnd.phase = Phase.SKIPPED

    def _fatal(self, code: str, message: str, seat: int | None = None) -> int:
        """A fatal diagnostic: the rest of the round is skipped; returns SKIPPED."""
        self._emit(code, message + "; the rest of the round is not checked", seat)
        rnd = self._game.round if self._game else None
        if rnd is not None:
            rnd.phase = Phase.SKIPPED
        return SKIPPED

    def _call(self, game: GameState, rnd: RoundState | None, ev: Call) -> int:
        seat = ev.seat
        grand = ev.call == "grand_tichu"
        name = "Grand Tichu" if grand else "Tichu"
        if rnd is None or rnd.phase == Phase.DEAL or (rnd.phase == Phase.GRAND and not grand):
            self._out_of_sequence(rnd, f"a {name} call", seat)
            return 0
        if rnd.phase == Phase.OVER:
            self._emit("P009", f"{self._who(seat)} calls {name} after the round ended", seat)
            return 0
        prev = rnd.calls[seat]
        if prev is not None:
            prev_name = "Grand Tichu" if prev == "grand_tichu" else "Tichu"
            self._emit("C003", f"{self._who(seat)} already called {prev_name} this round; "
                       f"the {name} call is not counted", seat)
            return 0
        if grand and rnd.dummy >= 0 and (seat - rnd.dummy) & 1 == 0:  # rules 9.3
            role = "is the dummy" if seat == rnd.dummy else "plays solo with the dummy"
            self._emit("C004", f"{self._who(seat)} {role} this round and may not call Grand "
                       "Tichu; the call is not counted", seat)
            return 0
        if grand and rnd.phase != Phase.GRAND:
            self._emit("C001", f"{self._who(seat)} calls Grand Tichu after seeing all 14 cards;"
                       " the call is not counted", seat)
            return 0
        if not grand and rnd.played[seat]:
            self._emit("C002", f"{self._who(seat)} calls Tichu after playing a card; "
                       "the call is not counted", seat)
            return 0
        rnd.calls[seat] = ev.call
        rnd.call_lines[seat] = self._line
        return 0

    def _exchange(self, game: GameState, rnd: RoundState | None, ev: Exchange) -> int:
        seat = ev.seat
        if rnd is None or rnd.phase != Phase.EXCHANGE:
            self._out_of_sequence(rnd, "an exchange", seat, needs_cards=True)
            return 0
        if rnd.exchanges[seat] is not None:
            self._emit("X002", f"{self._who(seat)} already exchanged this round", seat)
            return 0
        gives: dict[int, int] = {}
        cards = 0
        problem = None
        seats, receives, hand = rnd.seats, rnd.receivers[seat], rnd.hands[seat]
        for key, token in ev.give.items():
            c = CARD_BY_TOKEN.get(token)
            if c is None:
                self._emit("L003", f"exchange: {token!r} is not a card", seat)
                rnd.unreadable_exchange = True
                return 0
            to = _SEAT_KEYS.get(key)
            if problem is not None:
                continue
            bit = BIT[c]
            if to is None or to >= seats:
                problem = f"{key!r} is not a seat"
            elif to == seat:
                problem = f"{self._who(seat)} gives {token} to itself"
            elif not receives >> to & 1:  # rules 9.2, 9.3
                whom = ("one of its two partners" if rnd.rules.exchange == PARTNERS
                        else "one of the two seats of the other team")
                problem = (f"{self._who(seat)} gives {token} to {self._who(to)}, who is not "
                           f"{whom}")
            elif to in gives:
                problem = f"seat {to} is named twice"
            elif cards & bit:
                problem = f"{token} is given twice"
            elif not hand & bit:
                problem = f"{self._who(seat)} does not hold {token}"
            else:
                gives[to] = c
                cards |= bit
        if problem is None and len(gives) != receives.bit_count():
            missing = sorted(s for s in range(rnd.seats)
                             if rnd.receivers[seat] >> s & 1 and s not in gives)
            problem = f"nothing is given to seat {', '.join(map(str, missing))}"
        if problem is not None:
            return self._fatal("X001", f"bad exchange: {problem}", seat)
        rnd.exchanges[seat] = gives
        if None not in rnd.exchanges:
            self._start_play(rnd)
        return 0

    def _start_play(self, rnd: RoundState) -> None:
        hands = rnd.hands
        for giver, gives in enumerate(rnd.exchanges):
            assert gives is not None
            for to, c in gives.items():
                hands[giver] &= ~BIT[c]
                hands[to] |= BIT[c]
        rnd.phase = Phase.PLAY
        for s in range(rnd.seats):
            if hands[s] & _MAHJONG_BIT:
                rnd.turn = s  # rules 2.1: the Mahjong's holder leads

    # -------------------------------------------------------------------- play

    def _can_act(self, rnd: RoundState | None, what: str, seat: int) -> bool:
        """Phase checks shared by play and pass (the caller checked the common case)."""
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
        return True

    def _play(self, game: GameState, rnd: RoundState | None, ev: Play, known: int = 0) -> int:
        """``known``: the mask of ``ev.cards`` when the caller has it (0: not known)."""
        seat = ev.seat
        if (rnd is None or rnd.phase is not _PLAY or not rnd.hands[seat]) and not self._can_act(
            rnd, "a play", seat
        ):
            return SKIPPED
        assert rnd is not None
        cards = ev.cards
        if known:
            mask: int | None = known
        elif len(cards) == 1:  # (inline of _mask_of_tokens for the most frequent play)
            mask = _TOKEN_BIT.get(cards[0])
        else:
            mask = _mask_of_tokens(cards)
        if mask is None:
            self._tokens(cards, "play", seat)  # reports what is wrong
            return SKIPPED
        hand = rnd.hands[seat]
        if mask & hand != mask:
            return self._fatal("P001", _not_held(self._who(seat), mask, mask & ~hand), seat)
        top = rnd.top
        turn = rnd.turn
        if seat == turn and not mask & _PHOENIX_BIT and (top is None or not rnd.trick_over):
            # in turn, without the Phoenix: the most frequent leads and plays
            combo = CLASSIFIED.get(mask, _UNSEEN)
            if combo is _UNSEEN:
                combo = classified(mask)
            lead = top is None
            on_trick = False
            bad: tuple[str, str] | None = None
        else:
            combo, lead, on_trick, bad = self._situation(rnd, seat, mask, ev, top)
            turn = rnd.turn  # (a partner the Dog lets lead has it now)
        if combo is None or (mask == _DOG_BIT and not lead):
            self._not_played(rnd, ev, seat, mask, lead, top, combo)
            return DISCARD
        if lead:
            if rnd.trick_over:
                self._end_trick(rnd, rnd.top_seat)
            top = None
            rnd.trick += 1
            rnd.leader = seat
        elif bad is None:
            assert top is not None
            bad = self._no_beat(seat, combo, top)
        wish = rnd.wish
        if bad is None and wish is not None:
            bad = self._wish_unmet(rnd, seat, hand, mask, combo, top, wish, lead, on_trick)
        if bad is not None:
            self._emit(*bad, seat)
        # apply it (inline: the hot path)
        outcome = _OUTCOMES[2 * lead + (seat != turn)]
        hands = rnd.hands
        left = hands[seat] = hand ^ mask  # (the hand holds the cards)
        rnd.played[seat] = True
        rnd.trick_cards |= mask
        rnd.top = combo
        rnd.top_seat = seat
        rnd.passed = 0
        rnd.trick_over = rnd.taken = False
        rnd.after_dog = False
        rnd.bombs[seat] += combo.kind >= _FOUR
        if wish is not None or ev.wish is not None:
            self._wishes(rnd, seat, mask, wish, ev.wish)
        if not left and self._goes_out(rnd, seat):
            return outcome
        if mask == _DOG_BIT:
            self._after_dog(rnd, seat)
        else:
            rnd.turn = rnd.next_table[rnd.holding][seat]
        return outcome

    def _situation(self, rnd: RoundState, seat: int, mask: int, ev: Play,
                   top: Combo | None,
                   ) -> tuple[Combo | None, bool, bool, tuple[str, str] | None]:
        """Which situation a play ``ev`` of ``mask`` by ``seat`` is in (rules 2.2-2.4, 4.3;
        :meth:`_play` has the most frequent inline): its combination, whether it leads,
        whether it is a bomb onto the Dog's trick (never a wish violation, rules 6.4), and
        the (code, message) of what is wrong with its turn."""
        phoenix = RANK_BY_TOKEN[ev.phoenix] if ev.phoenix is not None else None
        turn = rnd.turn
        lead = False
        on_trick = False  # a bomb played onto a trick: never a wish violation (rules 6.4)
        bad: tuple[str, str] | None = None  # (code, message) of the play's legality
        if top is None and seat == turn and not mask & _PHOENIX_BIT:
            # the lead in turn, without the Phoenix: the most frequent lead
            combo = CLASSIFIED.get(mask, _UNSEEN)
            if combo is _UNSEEN:
                combo = classified(mask)
            lead = True
        elif top is None:
            combo, on_trick, bad = self._open_lead(rnd, seat, mask, phoenix)
            lead = True
        elif rnd.trick_over:
            combo, lead, bad = self._after_trick(rnd, seat, mask, phoenix, top)
        else:
            if mask & _PHOENIX_BIT:
                combo = classify(mask, phoenix, top, rnd.rules.phoenix_bombs)
            else:
                combo = CLASSIFIED.get(mask, _UNSEEN)
                if combo is _UNSEEN:
                    combo = classified(mask)
            if seat != turn and (combo is None or combo.kind < _FOUR):
                bad = ("P003", f"{self._who(seat)} plays, but it is {self._who(turn)}'s turn")

        return combo, lead, on_trick, bad

    def _open_lead(self, rnd: RoundState, seat: int, mask: int, phoenix: int | None,
                   ) -> tuple[Combo | None, bool, tuple[str, str] | None]:
        """A lead awaited, by another seat than the turn's or with the Phoenix (rules
        2.2, 9.2, 9.1): the combination, whether it is a bomb onto the Dog's trick, and
        what is wrong with it. Moves the turn to a partner the Dog lets lead."""
        combo = _classify(mask, phoenix, None, rnd.rules.phoenix_bombs)
        turn = rnd.turn
        bad: tuple[str, str] | None = None
        on_trick = False
        if seat != turn and rnd.may_lead(seat):
            rnd.turn = seat  # the Dog's lead to either of two partners (9.2)
        elif seat != turn:
            if combo is not None and combo.kind >= _FOUR:
                if rnd.after_dog and rnd.rules.dog_bombs:
                    on_trick = True  # variant dog-can-be-bombed (9.1): on the Dog
                elif rnd.after_dog:
                    bad = ("B003", f"{self._who(seat)} bombs the Dog; nothing may be "
                           "played on the Dog, not even a bomb")
                else:
                    bad = ("B002", f"{self._who(seat)} bombs before the trick's first "
                           f"play; {self._who(turn)} is to lead")
            else:
                bad = ("P003", f"{self._who(seat)} leads, but {self._to_lead(rnd)} is to "
                       "lead")
        return combo, on_trick, bad

    def _after_trick(self, rnd: RoundState, seat: int, mask: int, phoenix: int | None,
                     top: Combo) -> tuple[Combo | None, bool, tuple[str, str] | None]:
        """A play once everyone passed on ``top``: the combination, whether it leads, and
        what is wrong with it."""
        combo = _classify(mask, phoenix, top, rnd.rules.phoenix_bombs)
        leader = rnd.next_leader()
        # rules 2.4, 4.3 and the settled reading: another seat's bomb continues the
        # trick; the seat due to lead (the winner, or the next seat holding cards when
        # the winner is out) leads, with a bomb too, even after a Dragon (G002 first),
        # but under bsw (9.4) the winner's bomb continues its own trick
        if combo is not None and combo.kind >= _FOUR and rnd.bomb_lands(seat, combo):
            return combo, False, None
        if mask & _PHOENIX_BIT:
            combo = classify(mask, phoenix, None, rnd.rules.phoenix_bombs)
        if seat != leader:
            return combo, True, ("P003", f"{self._who(seat)} leads, but {self._who(leader)} "
                                 "won the trick and is to lead")
        return combo, True, None

    def _not_played(self, rnd: RoundState, ev: Play, seat: int, mask: int, lead: bool,
                    top: Combo | None, combo: Combo | None) -> None:
        """P002 (no combination) or P007 (the Dog, ``combo``, on a trick): the cards are
        discarded."""
        if combo is not None:
            assert top is not None
            self._emit("P007", f"{self._who(seat)} plays the Dog on {_article(top)}; the Dog "
                       "may only be led", seat)
            self._discard(rnd, seat, mask, ev.wish)
            return
        what = format_cards(mask)
        msg = (f"{what}, which with the Phoenix as {ev.phoenix} is not a combination"
               if ev.phoenix is not None and mask & _PHOENIX_BIT and len(ev.cards) > 1
               else f"{what}, which is not a combination")
        self._emit("P002", f"{self._who(seat)} plays {msg}", seat)
        if lead:
            # a lead awaited (the round's first, after the Dog, after everyone passed):
            # the play is a lead, by the seat due (rules 2.4) or out of turn (P003 in
            # the same window would be applied as a lead), so the old trick is over,
            # the Dog's window too, and the turn moves on (rules 8)
            if rnd.trick_over:
                self._end_trick(rnd, rnd.top_seat)
            rnd.after_dog = False
        self._discard(rnd, seat, mask, ev.wish)

    def _no_beat(self, seat: int, combo: Combo, top: Combo) -> tuple[str, str] | None:
        """What is wrong with ``combo`` played on ``top`` in turn (rules 4.1, 5.3, 5.4,
        6.3): B001, P004, P005, or None."""
        if combo.kind >= _FOUR:
            if top.kind >= _FOUR and not beats(combo, top):
                return ("B001", f"{self._who(seat)}'s {describe(combo)} does not beat the "
                        f"{describe(top)} on the table")
        elif combo.kind != top.kind or combo.length != top.length:
            return ("P004", f"{self._who(seat)} plays {_article(combo)} on {_article(top)}; "
                    "it must be the same kind of combination with the same number of cards")
        elif not (combo.rank > top.rank and top.cards != _DRAGON_BIT):
            # rules 4.1; nothing but a bomb beats the Dragon (5.3, 5.4)
            return ("P005", f"{self._who(seat)}'s {describe(combo)} does not beat the "
                    f"{describe(top)} on the table")
        return None

    def _wish_unmet(self, rnd: RoundState, seat: int, hand: int, mask: int, combo: Combo,
                    top: Combo | None, wish: int, lead: bool, on_trick: bool,
                    ) -> tuple[str, str] | None:
        """W001 when a play (otherwise legal) leaves the open ``wish`` unmet though the
        seat could have met it (rules 6.2; the table as the play found it), else None. A
        bomb onto a trick is never bound (6.4)."""
        if mask & RANK_MASK[wish] or on_trick or not (lead or combo.kind < _FOUR):
            return None
        could = rnd.wish_binds(seat)
        if could is None:
            return None
        self._could = could
        held = hand & RANK_MASK[wish]
        if lead:
            return ("W001", f"{self._who(seat)} leads {_article(combo)} while holding "
                    f"{format_cards(held)}; the wish for {RANK_TOKENS[wish]} is open, "
                    "so the lead must contain a card of that rank")
        assert top is not None
        return ("W001", f"{self._who(seat)} plays {_article(combo)} while "
                f"holding {format_cards(held)}; {_could(could, top, wish)}")

    def _after_dog(self, rnd: RoundState, seat: int) -> None:
        """Rules 5.2: the Dog's trick ends at once; the lead passes to the partner."""
        self._end_trick(rnd, seat, dog=True)
        hands = rnd.hands
        mates = partners(seat, rnd.seats)
        leads = [p for p in mates if hands[p]]  # (two partners: either may lead, 9.2)
        if leads:
            rnd.turn = leads[0]
        else:  # the next seat holding cards after the partner (5.2), or the player (9.2)
            after = mates[0] if rnd.rules.dog_after_partner else seat
            rnd.turn = rnd.next_table[rnd.holding][after]
        rnd.dog_leads = sum(1 << p for p in leads)
        rnd.after_dog = True

    def _wishes(self, rnd: RoundState, seat: int, mask: int, wish: int | None,
                made: object) -> None:
        """The wish after a play (rules 6.1, 5.1): the open ``wish`` (the round's before
        the play) fulfilled by the play's cards, and the wish ``made`` with it."""
        if wish is not None and mask & RANK_MASK[wish]:
            rnd.wish = None
            rnd.wish_fulfilled_by = seat
        if made is not None:
            self._wish(rnd, seat, mask, made)

    def _wish(self, rnd: RoundState, seat: int, mask: int, wish: object) -> None:
        """The ``wish`` field of a play (rules 5.1; W002)."""
        if not self._bad_wish(seat, mask, wish):
            assert isinstance(wish, str)  # (a rank: _bad_wish said so)
            rnd.wish = rnd.wished = RANK_BY_TOKEN[wish]
            rnd.wisher = seat

    def _bad_wish(self, seat: int, mask: int, wish: object) -> bool:
        """W002 when ``wish`` comes without the Mahjong or is no rank; True then. (A play
        that forms no combination, P002, makes no wish either way: docs/rules.md.)"""
        if not mask & _MAHJONG_BIT:
            self._emit("W002", f"{self._who(seat)} wishes for {wish!r} without playing "
                       "the Mahjong; the wish is ignored", seat)
        elif not isinstance(wish, str) or wish not in RANK_BY_TOKEN:
            self._emit("W002", f"{self._who(seat)} wishes for {wish!r}, which is not a "
                       "rank 2..A; the wish is ignored", seat)
        else:
            return False
        return True

    def _discard(self, rnd: RoundState, seat: int, mask: int, wish: object) -> None:
        """P002/P007: the cards leave the hand, the top is unchanged, the turn moves on; a
        ``wish`` on such a play is W002 when it has no Mahjong or no rank, and makes no
        wish either way."""
        if wish is not None:
            self._bad_wish(seat, mask, wish)
        rnd.hands[seat] &= ~mask
        rnd.played[seat] = True
        rnd.trick_cards |= mask
        if not rnd.hands[seat] and self._goes_out(rnd, seat):
            return
        self._passes(rnd, seat)

    def _goes_out(self, rnd: RoundState, seat: int) -> bool:
        """``seat`` played its last card; True when that ends the round (rules 7.1-7.3)."""
        rnd.holding &= ~(1 << seat)
        out = rnd.out
        out.append(seat)
        if not round_over(out, rnd.seats):
            return False
        if team_victory(out, rnd.seats):  # no Dragon gift owed (rules 5.4, 9.2)
            self._end_round(rnd)
            return True
        if rnd.top is not None and rnd.top.cards == _DRAGON_BIT:
            rnd.dragon_due = True  # rules 5.4: the Dragon trick must still be given
            rnd.phase = Phase.OVER
            return True
        self._end_trick(rnd, rnd.top_seat if rnd.top is not None else seat)
        self._end_round(rnd)
        return True

    def _pass(self, game: GameState, rnd: RoundState | None, ev: Pass) -> int:
        seat = ev.seat
        if (rnd is None or rnd.phase is not _PLAY or not rnd.hands[seat]) and not self._can_act(
            rnd, "a pass", seat
        ):
            return SKIPPED
        assert rnd is not None
        top = rnd.top
        if top is None or rnd.trick_over:
            return self._pass_without_trick(rnd, seat)
        if seat != rnd.turn:
            self._emit("P003", f"{self._who(seat)} passes, but it is {self._who(rnd.turn)}'s "
                       "turn", seat)
            rnd.passed |= 1 << seat
            self._check_trick_over(rnd)
            return OUT_OF_TURN
        wish = rnd.wish
        if wish is not None:
            could = rnd.wish_binds(seat)  # (rules 6.2)
            if could is not None:
                self._could = could
                held = rnd.hands[seat] & RANK_MASK[wish]
                self._emit("W001", f"{self._who(seat)} passes while holding "
                           f"{format_cards(held)}; {_could(could, top, wish)}", seat)
        rnd.note_pass(seat)
        return 0

    def _pass_without_trick(self, rnd: RoundState, seat: int) -> int:
        """A pass while a lead is awaited: P006 by the leader, else P003; under bsw the
        winner's first pass there takes its trick (rules 9.4)."""
        if rnd.takes(seat):
            rnd.taken = True
            return 0
        if rnd.may_lead(seat):  # (the seat to lead, after the Dog either partner: 5.2, 9.2)
            self._emit("P006", f"{self._who(seat)} passes, but is to lead and may not pass",
                       seat)
            return SKIPPED
        who = self._to_lead(rnd) if rnd.top is None else self._who(rnd.next_leader())
        self._emit("P003", f"{self._who(seat)} passes, but {who} is to lead", seat)
        return OUT_OF_TURN

    def _to_lead(self, rnd: RoundState) -> str:
        """Who may lead a new trick, in words (after the Dog in tientsin: either partner)."""
        if rnd.after_dog and rnd.dog_leads.bit_count() > 1:
            return " or ".join(self._who(p) for p in range(rnd.seats) if rnd.dog_leads >> p & 1)
        return self._who(rnd.turn)

    def _passes(self, rnd: RoundState, seat: int) -> None:
        rnd.passed |= 1 << seat
        rnd.turn = rnd.next_table[rnd.holding][seat]
        self._check_trick_over(rnd)

    def _check_trick_over(self, rnd: RoundState) -> None:
        """Rules 2.4: over once every other seat still holding cards has passed."""
        if rnd.top is None:
            return
        if rnd.all_passed(rnd.passed):
            rnd.trick_over = True
            rnd.turn = rnd.next_leader()

    def _end_trick(self, rnd: RoundState, winner: int, to: int | None = None,
                   dog: bool = False) -> None:
        """The trick's cards go to ``to`` (default: the winner)."""
        cards = rnd.trick_cards
        rnd.piles[winner if to is None else to] |= cards
        if dog or cards == _DOG_BIT:
            dog = True
        else:
            rnd.tricks_won[winner] += 1
        if self._tracing:
            self._record_trick(rnd, winner, winner if to is None else to, dog)
        rnd.trick_cards = 0
        rnd.top = None
        rnd.passed = 0
        rnd.trick_over = rnd.taken = False

    # ------------------------------------------------------------ the Dragon

    def _check_dragon_gift_due(self, game: GameState, rnd: RoundState, ev: Event) -> None:
        """G002 when a Dragon trick is over and ``ev`` is neither its gift nor a bomb on it.

        A Tichu call is no move on the table (a seat may call while others play,
        log-format ``call``), so it does not count as "the next event" here.
        """
        if type(ev) is DragonGift or type(ev) is Call or rnd.phase is _SKIPPED:
            return  # (after a fatal diagnostic nothing more of the round is checked)
        if type(ev) is Pass and rnd.takes(ev.seat):
            return  # bsw (9.4): the winner takes its trick; the gift comes next
        if rnd.dragon_due:
            self._missing_gift(game, rnd)
            return
        if type(ev) is Play and (ev.seat != rnd.next_leader() or rnd.rules.winner_bombs):
            mask = 0
            for t in ev.cards:
                c = CARD_BY_TOKEN.get(t)
                if c is None:
                    return
                mask |= BIT[c]
            combo = classify(mask, None, None, rnd.rules.phoenix_bombs)
            if combo is not None and combo.kind >= _FOUR and rnd.bomb_lands(ev.seat, combo):
                return
        self._missing_gift(game, rnd)

    def _missing_gift(self, game: GameState, rnd: RoundState) -> None:
        winner = rnd.top_seat
        to = (winner + 1) % rnd.seats
        self._emit("G002", f"{self._who(winner)} won the trick with the Dragon but did not give "
                   f"it to an opponent; it goes to {self._who(to)}", winner)
        self._give_dragon(rnd, winner, to)

    def _give_dragon(self, rnd: RoundState, winner: int, to: int) -> None:
        rnd.dragon_gifts.append((winner, to))
        leader = rnd.next_leader()
        self._end_trick(rnd, winner, to)
        if rnd.dragon_due:
            rnd.dragon_due = False
            self._end_round(rnd)
        else:
            rnd.turn = leader

    def _dragon_gift(self, game: GameState, rnd: RoundState | None, ev: DragonGift) -> int:
        seat, to = ev.seat, ev.to
        due = rnd is not None and (rnd.dragon_due or (
            rnd.trick_over and rnd.top is not None and rnd.top.cards == BIT[DRAGON]))
        if rnd is None or not due:
            if rnd is not None and rnd.phase == Phase.OVER and _dv_dragon(rnd):
                return 0  # rules 5.4: after a double victory a gift is accepted and ignored
            if rnd is not None and rnd.early_play and rnd.phase is Phase.EXCHANGE:
                return SKIPPED  # of the plays skipped while the exchange is missing (L007)
            self._emit("G003", f"{self._who(seat)} gives a Dragon trick, but there is none to "
                       "give", seat)
            return SKIPPED
        winner = rnd.top_seat
        if seat != winner:  # rules 8, settled readings: still owed by its winner
            self._emit("G003", f"{self._who(seat)} gives a Dragon trick, but "
                       f"{self._who(winner)} won the Dragon's trick and is to give it", seat)
            return SKIPPED
        if (to - winner) & 1 == 0:
            whom = "itself" if to == winner else f"its partner {self._who(to)}"
            self._emit("G001", f"{self._who(winner)} gives the Dragon's trick to {whom}; it must "
                       "go to an opponent", seat)
        self._give_dragon(rnd, winner, to)
        return 0

    # ---------------------------------------------------------------- scoring

    def _substitute(self, game: GameState, rnd: RoundState | None, ev: Substitute) -> int:
        """``x_substitute``: a substitute takes a seat during a round (docs/log-format.md).
        Its later decisions are named after it; the round stays credited to the players
        who began it (``rnd.players``); from the next round on it sits there. L002 for a
        seat the game does not have, an empty name, or a name sitting at another seat."""
        seat, name = ev.seat, ev.player
        names = rnd.occupants if rnd is not None else game.seating
        if seat >= game.seats or not name.strip() or any(
                n == name for s, n in enumerate(names) if s != seat):
            why = (f"seat {seat} is not a seat of the game" if seat >= game.seats
                   else "the name is empty" if not name.strip()
                   else f"{name} sits at another seat")
            self._emit("L002", f"x_substitute: {why}; it is skipped")
            return SKIPPED
        if rnd is not None:
            if rnd.occupants is rnd.players:
                rnd.occupants = list(rnd.players)
            rnd.occupants[seat] = name
            rnd.substitutes.append((self._line, seat, name))
        game.seating[seat] = name
        return 0

    def _end_round(self, rnd: RoundState) -> None:
        """Rules 7: the round is over (a double victory, or the third seat out); score it."""
        rnd.phase = Phase.OVER
        game = self._game
        assert game is not None
        result = rnd.result = score_round(rnd.out, rnd.calls, rnd.piles, rnd.hands, rnd.penalty,
                                          rnd.rules)
        score = rnd.score = result.score
        game.totals = [game.totals[0] + score[0], game.totals[1] + score[1]]
        self._add_persons(game, rnd, score)
        self._check_won(game)

    def _round_end(self, game: GameState, rnd: RoundState | None, ev: RoundEnd) -> int:
        if rnd is None or rnd.round_end_seen or (ev.round is not None and ev.round != rnd.number):
            self._out_of_sequence(rnd, "a round_end" if rnd is None or rnd.round_end_seen
                                  else f"round_end of round {ev.round}")
            return 0
        if ev.finish_order is not None and len(ev.finish_order) != rnd.seats:
            return self._wrong_size("round_end.finish_order", len(ev.finish_order), rnd.seats)
        rnd.round_end_seen = True
        if rnd.phase < Phase.OVER:  # (its exchange never came after an early play too)
            self._incomplete(game, rnd, "round_end is recorded")
            rnd.phase = Phase.SKIPPED
            rnd.ended_early = True
            self._note_recorded(rnd, ev)
            return 0
        rnd.recorded_score = ev.score
        rnd.recorded_finish = ev.finish_order
        order = rnd.finish_order()
        if ev.finish_order is not None:
            got = list(ev.finish_order)
            half = rnd.seats >> 1  # after a double (triple) victory the rest in any order
            same = (got[:half] == order[:half] and sorted(got[half:]) == sorted(order[half:])) \
                if team_victory(rnd.out, rnd.seats) else got == order
            if not same:
                self._emit("S001", f"round_end records the finish order {_seats(got)}, but the "
                           f"seats went out in the order {_seats(order)}")
        if ev.score is not None and rnd.score is not None and list(ev.score) != rnd.score:
            self._emit("S002", f"round_end records the score {ev.score[0]} to {ev.score[1]}, "
                       f"but the round scores {rnd.score[0]} to {rnd.score[1]}"
                       f"{self._score_detail(rnd)}")
        return 0

    @staticmethod
    def _score_detail(rnd: RoundState) -> str:
        """The card and call points of an S002 (the same whoever follows the replay)."""
        result = rnd.result
        if result is None:
            return ""
        cards, calls, penalty = result.card_points, result.call_points, result.penalty
        # after a double (triple) victory the 200 (300) are no card points (rules 7.2, 9.2)
        first = rnd.rules.team_victory_words if result.double_victory else "card points"
        extra = (f", wish penalty {penalty[0]:+d} to {penalty[1]:+d}"
                 if penalty[0] or penalty[1] else "")
        return (f" ({first} {cards[0]} to {cards[1]}, calls "
                f"{calls[0]:+d} to {calls[1]:+d}{extra})")


def _not_held(who: str, mask: int, missing: int) -> str:
    """P001's message: the play, and which of its cards the seat does not hold."""
    if missing == mask:
        return f"{who} plays {format_cards(mask)} without holding " + (
            "it" if mask.bit_count() == 1 else "them")
    return f"{who} plays {format_cards(mask)} without holding {format_cards(missing)}"


def _union(masks: list[int]) -> int:
    u = 0
    for m in masks:
        u |= m
    return u


def _dv_dragon(rnd: RoundState) -> bool:
    """Whether the round ended in a double (triple) victory with the Dragon's trick on the
    table: a trick the Dragon would win (the Dragon on top; not one where a later play,
    a bomb or an error applied, became the top)."""
    top = rnd.top
    return (team_victory(rnd.out, rnd.seats) and top is not None
            and top.cards == _DRAGON_BIT)


_NUMBER = {3: "three", 4: "four", 6: "six"}


def _persons(totals: dict[str, int]) -> str:
    return ", ".join(f"{name} {points}" for name, points in sorted(totals.items()))


def _seats(order: list[int]) -> str:
    return ", ".join(str(s) for s in order)


def _could(could: Combo, top: Combo, wish: int) -> str:
    """What a seat bound by the wish could have played (W001 messages)."""
    what = (format_cards(could.cards) if could.length == 1
            else f"{_article(could)} with {format_cards(could.cards)}")
    return f"{what} beats the {describe(top)}, and the wish for {RANK_TOKENS[wish]} is open"


def _article(combo: Combo) -> str:
    """``a pair of 9s``, ``an 8``; ``the Dog`` (the Mahjong, the Dragon: one of each)."""
    text = describe(combo)
    if text[:1].isupper():
        return "the " + text
    return ("an " if text[:1] in "aeiou" else "a ") + text


