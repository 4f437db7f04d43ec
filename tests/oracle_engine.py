"""An independent reference replayer, written from rules.md and log-format.md alone.

It shares no code with ``tichu_analyze`` (combinations come from ``tests/oracle_combos``,
itself an independent reading) and is plain on purpose: hands are sets of card tokens,
the table is a small state machine. It replays a format-1 JSON-lines log under the
publisher's 4-player rules (or a variant, below) and returns the diagnostics of
:data:`CODES` it is sure of, together with the lines it *judged*.
``tests/test_oracle_engine.py`` and ``tests/oracle_diff.py`` compare it with the engine.

What it judges: the deal (D001) and the exchange (X001/X002), the calls (C001-C004:
late, repeated, forbidden), a card not held (P001), the turn and trick rules P002-P009,
the bombs B001-B003, the wish W001/W002, the Dragon gift G001-G003, a round left
unfinished (L008), the round's result S001/S002 and the game's S003/S004 (the sum of the
rounds it scored; the end at the target, in trichu after the last round; play going on
after it) - rules.md 1-8. After a fatal code (D001, X001, P001) the rest of the round is
judged silent, as rules 8 and its settled readings have it. A malformed event (L002,
L003: a bad seat, card, ``ts``, call; a line of no game) is judged as skipped; a deal
after the round ended (no round_start) and a round_start whose number does not follow
start a skipped round (docs/rules.md, "A late or missing exchange, a round without its
start"). It stops judging a round - the line that stops it and every later line of that
round are left out of the comparison - where it is not sure what the spec asks: an
event out of sequence (L007, but for the cases above), a malformed event where another
code may apply too (after the round's end, a play before the exchange ended; with a
Dragon gift owed it is passed over like a call, the engine's reading of a line that
cannot be read), a P001 bomb on a Dragon trick, an X002 that could also be X001, a key
written twice, a ``round_end`` before the rules end the round, and any open disagreement
with the engine (tests/test_oracle_engine.py ``OPEN``, noted where it occurs). From such
a round on, the game's totals are unknown and S003/S004 are not judged.
``tests/oracle_diff.py --stats`` counts, per campaign, why rounds stopped being judged.

Variants (rules.md 9): the house rules of 9.1 are judged - ``wish-penalty-200`` (each
W001 gives the other team 200 in the round's score), ``phoenix-in-bombs`` (the Phoenix
completes a four of a kind or a straight flush, a bomb in every rule, the wish search
included), ``dog-can-be-bombed`` (a bomb on the Dog is no B003: it is applied as a lead,
as B003's "replay then" has it, and, played by a seat not due to lead, like any bomb
onto a trick never a wish violation, 6.4). They come from ``game_start.variants`` and
from the ``variants`` given to :class:`Oracle` (the command line's ``--variant``).
``tientsin`` (9.2) is judged too: six seats, the deal of 6 then 3 or 4 cards, the
exchange to the two partners, the Dog's lead to either partner still holding cards
(else the next seat after the Dog's player holding cards),
the Dragon's trick to any opponent, the end at a triple victory (300, no gift owed,
the winners first in the finish order) or with one seat left, the last seat's hand and
tricks to the opposing team and the fifth seat's tricks to the first out. And
``trichu`` (9.3): every ``round_start`` names the dummy and the seating (else it is
skipped, L002), the exchange goes to the other team's two seats, a Grand Tichu by the
solo player or the dummy is not counted (C004), the dummy is never bound by the wish;
a round after the game's last is S004 at its round_start (and is judged, as any
round after a game that was won); the game's S003 compares the persons' totals. A game
under an unknown name, both ``tientsin`` and ``trichu``, a ``variants`` that is not a
list of names, or in trichu a ``target`` that is no positive multiple of 3 is not
judged at all.

Where the spec leaves room it reads as follows (each noted where it is applied):
one code for a play's legality - an out-of-turn play is P003 alone, a bound seat's play
that does not beat the top is P004/P005 alone (rules 8, "the more specific reading");
a play that is no combination (P002) or a Dog on a trick (P007) counts as the seat's
pass and the turn moves on (rules 8, "the turn moves on"; the decision docs/rules.md
writes down); a P002 where a lead is due passes the lead to the next seat, the top
unchanged (after the Dog, a bomb by another seat is still B003).
Where 9.1 leaves room: under ``phoenix-in-bombs`` a Phoenix straight whose other cards
share a suit is a straight flush, never a plain straight, as docs/rules.md writes down;
a W001's 200 go to the other team after a double victory too ("a violation of the wish
gives the other team 200 points" names no exception; "each W001", docs/rules.md); under
``dog-can-be-bombed`` the bomb of the seat due to lead after the Dog is its lead, bound
by the wish like any led bomb (6.4).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from oracle_combos import (
    ALL_TOKENS,
    BOMBS,
    RANK_WORDS,
    SINGLE,
    Play,
    beats,
    can_fulfil_wish,
    rank_of,
    readings,
    strength,
)

CODES = frozenset({
    "L008", "D001", "C001", "C002", "C003", "C004", "X001", "X002",
    "P001", "P002", "P003", "P004", "P005", "P006", "P007", "P008", "P009",
    "B001", "B002", "B003", "W001", "W002", "G001", "G002", "G003",
    "S001", "S002", "S003", "S004",
})
DECK = frozenset(ALL_TOKENS)
HOUSE_RULES = frozenset({"wish-penalty-200", "phoenix-in-bombs", "dog-can-be-bombed"})
POINTS = {"Dragon": 25, "Phoenix": -25}


def points(card: str) -> int:
    if card in POINTS:
        return POINTS[card]
    return {5: 5, 10: 10, 13: 10}.get(rank_of(card) or 0, 0)


class Stop(Exception):  # noqa: N818 - a signal, not an error
    """Stop judging the round here (``keep``: this line itself is still judged)."""

    def __init__(self, why: str, keep: bool = False) -> None:
        super().__init__(why)
        self.keep = keep


class _Object(dict):
    """A JSON object that remembers whether a key was written twice (the last one wins)."""

    def __init__(self, pairs: list[tuple[str, object]]) -> None:
        super().__init__(pairs)
        self.twice = len(self) != len(pairs)


def _seat(value: object, seats: int) -> int:
    if type(value) is not int or not 0 <= value < seats:
        raise Stop("bad seat")
    return value


def _cards(value: object) -> list[str]:
    if not isinstance(value, list) or not value or any(c not in DECK for c in value):
        raise Stop("bad cards")
    if len(set(value)) != len(value):
        raise Stop("a card twice")
    return list(value)


def _names(players: object, seats: int) -> bool:
    return (isinstance(players, list) and len(players) == seats
            and all(isinstance(p, str) and p for p in players) and len(set(players)) == seats)


def _is_dragon(play: Play | None) -> bool:
    return play is not None and play.kind == SINGLE and play.rank == 15 and not play.phoenix_single


def _is_bomb(play: Play) -> bool:
    return play.kind in BOMBS


@dataclass
class Round:
    number: int
    variants: frozenset[str] = frozenset()
    seats: int = 4  # 6 in tientsin (9.2)
    diags: list[tuple[str, int]] = field(default_factory=list)
    judged: set[int] = field(default_factory=set)
    judging: bool = True
    skipping: bool = False  # after a fatal code: the rest of the round is silent (rules 8)
    why: str = ""  # why the oracle stopped judging the round (for oracle_diff --stats)
    phase: str = "start"  # start, deal1, deal2, play, over
    hands: list[set[str]] = field(default_factory=list)
    exchanges: dict[int, dict[str, str]] = field(default_factory=dict)
    calls: dict[int, str] = field(default_factory=dict)  # counted calls
    played: set[int] = field(default_factory=set)  # seats that played a card
    out: list[int] = field(default_factory=list)
    piles: list[list[str]] = field(default_factory=list)
    # the table: "lead" (empty, `leader` to lead), "dog" (the Dog's trick just ended,
    # `leader` to lead), "trick" (`top` by `last`, `turn` on turn), "complete" (every
    # other seat passed: `last` won, `leader` to lead, a bomb may still land on it)
    table: str = "lead"
    leader: int = 0
    dog_leaders: frozenset[int] = frozenset()  # tientsin: the partners who may lead (9.2)
    dummy: int | None = None  # trichu: the dummy's seat (9.3)
    turn: int = 0
    top: Play | None = None
    last: int = 0
    trick: list[str] = field(default_factory=list)
    passed: set[int] = field(default_factory=set)
    wish: int | None = None
    gift_owed: int | None = None  # the winner of a Dragon trick that is over, not given
    double_victory: bool = False
    ended: bool = False  # its round_end was seen
    penalties: list[int] = field(default_factory=list)  # the seats of every W001
    tallied: bool = False  # its score is in the game's totals
    renumbered: bool = False  # skipped: its round_start's number did not follow (L007)
    ghost: bool = False  # skipped: its deal came after the round ended, no round_start
    waiting: bool = False  # a play came before the last exchange, which is still awaited
    closed_early: bool = False  # a round_end came before the rules ended it (L008)
    bad_exchanges: set[int] = field(default_factory=set)  # seats of malformed exchanges
    seen: Counter[str] = field(default_factory=Counter)  # situations met (oracle_diff --stats)

    def __post_init__(self) -> None:
        self.hands = [set() for _ in range(self.seats)]
        self.piles = [[] for _ in range(self.seats)]

    def due(self, seat: int) -> bool:
        """Whether ``seat`` is (one of the seats) due to lead."""
        return seat == self.leader or self.table == "dog" and seat in self.dog_leaders

    @property
    def phoenix_bombs(self) -> bool:
        return "phoenix-in-bombs" in self.variants

    def wish_ignored(self, seat: int, line: int) -> None:
        """W001 (and under ``wish-penalty-200`` its 200 points to the other team)."""
        self.report("W001", line)
        self.penalties.append(seat)

    def report(self, code: str, line: int) -> None:
        self.diags.append((code, line))

    def fatal(self, code: str, line: int) -> None:
        """A fatal code (rules 8): "the rest of this round cannot be checked and is skipped
        until the next round_start" - nothing more of it is reported, not even what that
        round_start would report for it (settled readings), nor L008 at the log's end."""
        self.report(code, line)
        self.skipping = True

    def next_holding(self, seat: int) -> int:
        """The next seat after ``seat`` in playing order that still holds cards."""
        for k in range(1, self.seats + 1):
            s = (seat + k) % self.seats
            if self.hands[s]:
                return s
        return seat


class Oracle:
    """Replays one file; ``diagnostics``/``judged`` hold the result."""

    def __init__(self, variants: Iterable[str] = ()) -> None:
        self.rounds: dict[str, Round | None] = {}  # the current round of every game
        self.extra = frozenset(variants)  # the command line's --variant
        self.details = False  # count the wish's situations in Round.seen (slower)
        self.variants: dict[str, frozenset[str]] = {}  # of every game
        self.rounds_of: dict[str, object] = {}  # trichu: the number of rounds
        self.skipped_games: set[str] = set()
        self.all_rounds: list[Round] = []
        # S003/S004 (rules 7.6, 8, 9.3): the game's totals so far (in trichu by person),
        # None once a round's score is unknown to the oracle; its target (trichu: rounds)
        self.totals: dict[str, list[int] | dict[str, int] | None] = {}
        self.target: dict[str, object] = {}
        self.players: dict[str, list[str]] = {}
        self.games: dict[str, Round] = {}  # where S003/S004 are reported, by game
        self.played_rounds: dict[str, int] = {}  # the number of the last round played

    # ------------------------------------------------------------------ reading

    def run(self, lines: Iterable[str]) -> None:
        last = 0
        for number, text in enumerate(lines, 1):
            if not text.strip():
                continue
            last = number
            try:
                event = json.loads(text, object_pairs_hook=_Object)
            except ValueError:
                event = None
            game = event.get("game") if isinstance(event, dict) else None
            if not isinstance(game, str):
                continue  # L001/L002: the line is skipped, no game is touched (rules 8)
            self.event(game, event, number)
        for rnd in self.rounds.values():
            if rnd is not None and not rnd.judging:
                rnd.judged.discard(last)  # (what the log's end shows of it is unknown)
            if (rnd is not None and rnd.judging and rnd.phase != "over" and not rnd.skipping
                    and not rnd.closed_early):
                rnd.report("L008", last)  # at the file's last line (its last non-blank)
                rnd.judged.add(last)
                rnd.judging = False
            if rnd is not None and rnd.judging and rnd.gift_owed is not None and rnd.judged:
                # the log ends with a Dragon gift owed: G002 with no next event? (silent)
                rnd.judged.discard(max(rnd.judged))

    @property
    def diagnostics(self) -> list[tuple[str, int]]:
        return sorted(d for r in self.all_rounds for d in r.diags if d[1] in r.judged)

    @property
    def judged(self) -> set[int]:
        return set().union(*(r.judged for r in self.all_rounds))

    def event(self, game: str, ev: dict, line: int) -> None:
        kind = ev.get("type")
        if game in self.skipped_games:
            return
        if kind == "game_start":
            names = ev.get("variants") or []
            if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
                names = ["?"]
            variants = frozenset(names) | self.extra
            seats = 6 if "tientsin" in variants else 4
            target = ev.get("target", 9)
            if (game in self.rounds or not variants - {"tientsin", "trichu"} <= HOUSE_RULES
                    or {"tientsin", "trichu"} <= variants
                    or not _names(ev.get("players"), seats)
                    or "trichu" in variants and not (
                        type(target) is int and target > 0 and target % 3 == 0)):
                self.skipped_games.add(game)  # L006, L002, or a variant not judged
            self.rounds_of[game] = target if "trichu" in variants else None
            self.variants[game] = variants
            self.rounds[game] = None
            self.target[game] = ev.get("target", 9 if "trichu" in variants else 1000)
            self.totals[game] = {} if "trichu" in variants else [0, 0]
            if type(self.target[game]) is not int or self.target[game] <= 0:
                self.totals[game] = None  # (L002: not judged)
            self.players[game] = ev.get("players")
            self.games[game] = Round(0, judging=False)
            self.all_rounds.append(self.games[game])
            return
        if game not in self.rounds:
            return  # L005
        rnd = self.rounds[game]
        if kind == "round_start":
            number, players, dummy = ev.get("round"), ev.get("players"), ev.get("dummy")
            trichu = "trichu" in self.variants[game]
            if type(number) is not int or not trichu and "dummy" in ev or (
                    players is not None and not _names(players, self._seats(game))):
                return  # L002: skipped
            if trichu and (players is None or type(dummy) is not int or not 0 <= dummy < 4):
                return  # 9.3: every round_start names the dummy and the seating (L002)
            # the numbers that follow (docs/rules.md "A late or missing exchange, a round
            # without its start"): the last round played + 1, or after a round skipped
            # for its number (L007), that round's + 1 ("the log's own count goes on")
            played = self.played_rounds.get(game, 0)
            expected = {played + 1}
            if rnd is not None and rnd.renumbered:
                expected.add(rnd.number + 1)
            if rnd is not None and number == played and not rnd.renumbered and not rnd.ghost:
                # "A round_start repeating the number of the round being played (a line
                # written twice) is L007 and skipped alone; the round goes on."
                if rnd.judging and not rnd.skipping:
                    rnd.judged.add(line)
                    if rnd.gift_owed is not None and (rnd.table == "complete"
                                                      or rnd.phase == "over"):
                        self._missing_gift(rnd, line)  # G002: "the next event" is this
                        if rnd.table == "complete":
                            rnd.top, rnd.table = None, "lead"
                return
            old_judged = rnd is None or rnd.judging
            self._close(rnd, line)
            self._tally(game, rnd)
            won = self._won(game, rnd)
            if number not in expected:
                # L007: the round it starts is skipped without a word up to the next
                # round_start; the round being played is left as a new round leaves it
                new = Round(number, self.variants[game], self._seats(game), skipping=True,
                            renumbered=True)
                if won or trichu:
                    self.totals[game] = None  # (S004 here, a trichu round's count: unsure)
            else:
                self.played_rounds[game] = number
                new = Round(number, self.variants[game], self._seats(game))
                if won:  # S004: "play continues after the game was won"
                    self.games[game].report("S004", line)
                    self.games[game].judged.add(line)
                    self.totals[game] = None  # (the totals after it are not judged)
            if self.totals[game] is None and not (won and not new.renumbered):
                old_judged = False  # S004 here unknown
                if rnd is not None:
                    rnd.judged.discard(line)
            if trichu:
                new.dummy = dummy
            if players is not None:
                self.players[game] = players
            if old_judged:
                new.judged.add(line)  # (else what it shows of the old round is unknown)
            self.rounds[game] = new
            self.all_rounds.append(new)
            return
        if kind == "game_end":
            self._close(rnd, line)
            self._tally(game, rnd)
            self._game_end(game, rnd, ev, line)
            self.rounds[game] = None
            self.skipped_games.add(game)  # L005 after it: not judged
            return
        if rnd is None or not rnd.judging:
            return
        if rnd.skipping:  # after a fatal code: skipped without a word (rules 8)
            rnd.judged.add(line)
            return
        if rnd.closed_early:  # (what the engine makes of events after it: unsure)
            rnd.judging, rnd.why = False, "an event after a round_end that came too early"
            return
        if not isinstance(kind, str):
            rnd.judging, rnd.why = False, "L002 type"  # skipped (not modelled)
            return
        if self._malformed(rnd, kind, ev):
            # L002/L003: "event skipped" (rules 8) - judged: no code of the oracle's here,
            # and nothing changes (unless it is a deal: the round is skipped, docs/rules.md
            # "A deal or exchange that cannot be read")
            # (with a Dragon gift owed it is passed over, as a call is: no G002 yet)
            if kind != "round_end" and rnd.phase == "over" or (
                    rnd.phase != "play" and kind in ("play", "pass", "dragon_gift")):
                rnd.judging, rnd.why = False, f"a malformed {kind} (where other codes may apply)"
                return
            if kind == "deal" and rnd.phase not in ("start", "deal1"):
                rnd.judging, rnd.why = False, "a malformed deal out of sequence"
                return
            rnd.judged.add(line)
            if kind == "deal":
                rnd.skipping = True
            if kind == "exchange" and rnd.phase == "deal2":
                seat = ev.get("seat")
                rnd.bad_exchanges.add(seat if type(seat) is int else -1)
            return
        if isinstance(ev, _Object) and ev.twice:
            rnd.judging, rnd.why = False, "a key written twice"
            return
        if kind == "deal" and rnd.phase == "over":
            return self._deal_without_round_start(game, rnd, line)
        handler = getattr(self, f"on_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            return  # an unknown or x_ event: skipped, changes nothing
        try:
            handler(rnd, ev, line)
        except Stop as stop:
            rnd.judging, rnd.why = False, str(stop)
            if stop.keep:
                rnd.judged.add(line)
            return
        rnd.judged.add(line)

    def _deal_without_round_start(self, game: str, rnd: Round, line: int) -> None:
        """A ``deal`` after the round ended: a round whose round_start is missing (L007,
        rules 8 "a deal during play" and the sequence of log-format.md); docs/rules.md: its
        events "are skipped without a word up to the next round_start". It has no number:
        the next round_start follows the round before it."""
        if rnd.gift_owed is not None:
            rnd.judging, rnd.why = False, "a deal with a Dragon gift owed (G002 too?)"
            return
        self._tally(game, rnd)
        if self._won(game, rnd) or self.totals[game] is None:
            rnd.judging, rnd.why = False, "a deal without round_start after the game's end"
            return
        ghost = Round(rnd.number, rnd.variants, rnd.seats, skipping=True, ghost=True)
        ghost.judged.add(line)
        ghost.tallied = True
        if "trichu" in rnd.variants:
            self.totals[game] = None  # (whether it counts towards the rounds: unsure)
        self.rounds[game] = ghost
        self.all_rounds.append(ghost)

    def _tally(self, game: str, rnd: Round | None) -> None:
        """Adds the score of the round just closed to the game's totals: nothing for a
        round not scored (skipped after a fatal code, or left unfinished: L008, also when
        a round_end closes it early - docs/rules.md "Unscored rounds add nothing"); the
        totals become unknown after a round the oracle gave up on."""
        totals = self.totals[game]
        if (rnd is None or totals is None or rnd.skipping or rnd.closed_early and not rnd.why
                or rnd.tallied):
            return
        rnd.tallied = True
        if rnd.why:
            self.totals[game] = None
            return
        if rnd.phase != "over":
            return  # L008 at its close
        if rnd.gift_owed is not None:
            self.totals[game] = None  # (a gift still owed at the log's end)
            return
        _, score = result(rnd)
        if isinstance(totals, list):
            totals[0] += score[0]
            totals[1] += score[1]
            return
        names = self.players[game]
        for seat, name in enumerate(names):  # 9.3: each person, its team's points
            if seat != rnd.dummy:
                totals[name] = totals.get(name, 0) + score[seat % 2]

    def _won(self, game: str, rnd: Round | None) -> bool:
        """Whether the game is over after ``rnd`` (7.6: a team reached the target with
        more points; 9.3: the last round played)."""
        totals, target = self.totals[game], self.target[game]
        if totals is None or type(target) is not int or rnd is None:
            return False
        if isinstance(totals, dict):
            return rnd.number >= target
        return max(totals) >= target and totals[0] != totals[1]

    def _game_end(self, game: str, rnd: Round | None, ev: dict, line: int) -> None:
        """S003/S004 at a game_end (rules 8; 9.3 in trichu)."""
        totals, record = self.totals[game], self.games[game]
        score = ev.get("score")
        if isinstance(totals, list):
            known = score is None or (isinstance(score, list) and len(score) == 2
                                      and all(type(x) is int for x in score))
        else:
            known = score is None or (isinstance(score, dict) and totals is not None
                                      and set(score) == set(totals)
                                      and all(type(x) is int for x in score.values()))
        if totals is None or not known:
            if rnd is not None:
                rnd.judged.discard(line)  # (S003/S004 here unknown)
            return
        record.judged.add(line)
        if not self._won(game, rnd):
            record.report("S004", line)
        if score is not None and score != totals:
            record.report("S003", line)

    @staticmethod
    def _malformed(rnd: Round, kind: str, ev: dict) -> bool:
        """Whether a known event has a field of the wrong type or value that log-format.md
        makes plain: a bad ``ts``, ``seat`` or ``to``, ``cards`` that are not a list of card
        strings, none, one twice or an unknown card, a ``call`` that is no call, ``hands`` or
        ``give`` of the wrong shape or with an unknown card (L002/L003)."""
        if kind not in ("play", "pass", "dragon_gift", "call", "exchange", "deal", "round_end"):
            return False
        ts = ev.get("ts")
        if ts is not None and type(ts) not in (int, float):  # (null: as if left out)
            return True
        n = rnd.seats
        if kind == "round_end":  # (a finish_order of ints that is no order: handler, unsure)
            order, score = ev.get("finish_order"), ev.get("score")
            return (type(ev.get("round")) is not int or not isinstance(order, list)
                    or len(order) < 4 or any(type(x) is not int for x in order)
                    or not isinstance(score, list) or len(score) != 2
                    or any(type(x) is not int for x in score))
        if kind == "deal":
            hands = ev.get("hands")
            return not (isinstance(hands, list) and len(hands) == n and all(
                isinstance(h, list) and all(isinstance(c, str) and c in DECK for c in h)
                for h in hands))
        seat = ev.get("seat")
        if type(seat) is not int or not 0 <= seat < n:
            return True
        if kind == "dragon_gift":
            to = ev.get("to")
            return type(to) is not int or not 0 <= to < n
        if kind == "call":
            return ev.get("call") not in ("tichu", "grand_tichu")
        if kind == "exchange":
            give = ev.get("give")
            return not isinstance(give, dict) or not all(
                isinstance(c, str) and c in DECK for c in give.values())  # (keys: X001)
        if kind == "play":  # (no card, or one card twice: a wrong value too)
            cards, phoenix = ev.get("cards"), ev.get("phoenix")
            # a ``phoenix`` that is no rank is a wrong value beside the Phoenix; on a play
            # without it the field is ignored, whatever its value (rules.md 8, settled)
            return not isinstance(cards, list) or not cards or not all(
                isinstance(c, str) and c in DECK for c in cards) or len(set(cards)) != len(
                cards) or (phoenix is not None and "Phoenix" in cards and not (
                    isinstance(phoenix, str) and phoenix in RANK_WORDS))
        return False

    def _seats(self, game: str) -> int:
        return 6 if "tientsin" in self.variants[game] else 4

    @staticmethod
    def _before_the_exchange(rnd: Round) -> None:
        """A play, pass or gift before the round's last exchange (docs/rules.md, "A late
        or missing exchange"): L007 at the first, the others skipped without a word; when
        the exchange comes the round goes on as recorded; when it never comes the round is
        left unfinished (L008 where the log leaves it: rules 8, no fatal code was raised).
        After an exchange that was
        skipped as malformed, though, "if play starts without it, the hands are unknown
        and the rest of the round is skipped then" (docs/rules.md, "A deal or exchange
        that cannot be read")."""
        if rnd.bad_exchanges - set(rnd.exchanges):
            rnd.skipping = True
            return
        rnd.waiting = True

    def _close(self, rnd: Round | None, line: int) -> None:
        """The round before a round_start or game_end at ``line``."""
        if rnd is None or not rnd.judging or rnd.skipping or rnd.closed_early:
            return
        if rnd.gift_owed is not None:  # this event is not the gift: G002
            self._missing_gift(rnd, line)
            rnd.judged.add(line)
        if rnd.phase != "over":
            rnd.report("L008", line)  # the round is closed as it stands, not scored
            rnd.judged.add(line)
            rnd.judging = False

    # ------------------------------------------------------------------ deal, calls, exchange

    def on_deal(self, rnd: Round, ev: dict, line: int) -> None:
        hands, n = ev.get("hands"), rnd.seats
        first = rnd.phase == "start"
        # 8 then 6 cards a seat; in tientsin 6, then 3 or 4 (9.2)
        sizes = ({8} if first else {6}) if n == 4 else ({6} if first else {3, 4})
        if rnd.phase not in ("start", "deal1") or not isinstance(hands, list) or len(hands) != n:
            raise Stop("L007/L002 deal")
        if not all(isinstance(h, list) and all(isinstance(c, str) and c in DECK for c in h)
                   for h in hands):
            raise Stop("L002/L003 deal")
        # D001 (rules 8: "the deals are not the 56-card deck split 8+6 per seat"; 9.2:
        # "reported at the first deal whose hands already break it (wrong first-deal size,
        # a card twice), else at the second") - a card twice in a hand or across hands
        # and deals, or a wrong size; the round is skipped
        dealt = [c for h in hands for c in h]
        seen = set().union(*rnd.hands)
        if (any(len(h) not in sizes for h in hands) or len(set(dealt)) != len(dealt)
                or seen & set(dealt) or not first and len(seen) + len(dealt) != len(DECK)):
            return rnd.fatal("D001", line)
        for seat, hand in enumerate(hands):
            rnd.hands[seat] |= set(hand)
        rnd.phase = "deal1" if first else "deal2"

    def on_call(self, rnd: Round, ev: dict, line: int) -> None:
        """C001-C004 (rules 1.2, 1.3, 8; 9.3): a repeated call is C003 even when late
        (docs/rules.md "One event, one code"), a call not counted makes no repeat
        (settled readings), C004 wins over C001 (9.3); a call L007 skips is no call."""
        seat, call = _seat(ev.get("seat"), rnd.seats), ev.get("call")
        if call not in ("tichu", "grand_tichu"):
            raise Stop("L002 call")
        if rnd.phase == "over":
            rnd.report("P009", line)
            return
        if rnd.phase == "start" or (call == "tichu" and rnd.phase == "deal1"):
            return  # L007: skipped, not counted
        forbidden = (call == "grand_tichu" and rnd.dummy is not None
                     and seat % 2 == rnd.dummy % 2)
        if seat in rnd.calls:
            if forbidden:
                raise Stop("C003 or C004: a repeated Grand Tichu of the solo player")
            rnd.report("C003", line)
        elif forbidden:
            rnd.report("C004", line)  # 9.3: whatever its timing
        elif call == "grand_tichu" and rnd.phase != "deal1":
            rnd.report("C001", line)
        elif call == "tichu" and seat in rnd.played:
            rnd.report("C002", line)
        else:
            rnd.calls[seat] = call

    def on_exchange(self, rnd: Round, ev: dict, line: int) -> None:
        seat, give = _seat(ev.get("seat"), rnd.seats), ev.get("give")
        if rnd.phase == "play":  # L007: "an exchange is not allowed during play", skipped
            if rnd.gift_owed is not None and rnd.table == "complete":
                self._end_trick(rnd, line)  # G002: it is the next event, not the gift
            return
        if rnd.phase != "deal2":
            raise Stop("L007 exchange")
        assert isinstance(give, dict)  # (else _malformed)
        if seat in rnd.exchanges:
            if isinstance(give, _Object) and give.twice:
                raise Stop("X002 or X001: a repeated exchange naming a seat twice")
            rnd.report("X002", line)  # event skipped
            return
        if isinstance(give, _Object) and give.twice:
            return rnd.fatal("X001", line)  # "names a seat twice" (rules 8)
        # X001 (rules 8): "does not give exactly one held card to each other seat" (in
        # tientsin to each partner, 9.2; in trichu to each seat of the other team, 9.3)
        cards = list(give.values())
        if (set(give) != {str(s) for s in self._receivers(rnd, seat)}
                or len(set(cards)) != len(cards) or not set(cards) <= rnd.hands[seat]):
            return rnd.fatal("X001", line)
        rnd.exchanges[seat] = give
        if len(rnd.exchanges) == rnd.seats:
            for giver, g in rnd.exchanges.items():
                for to, card in g.items():
                    rnd.hands[giver].discard(card)
                    rnd.hands[int(to)].add(card)
            rnd.phase, rnd.waiting = "play", False
            rnd.table = "lead"
            rnd.leader = next(s for s in range(rnd.seats) if "Mahjong" in rnd.hands[s])

    @staticmethod
    def _receivers(rnd: Round, seat: int) -> list[int]:
        """The seats ``seat`` gives a card to: the three others, in tientsin its two
        partners (9.2), in trichu the two seats of the other team (9.3)."""
        if rnd.dummy is not None:
            return [s for s in range(4) if s % 2 != seat % 2]
        return [s for s in range(rnd.seats) if s != seat and (rnd.seats == 4 or s % 2 == seat % 2)]

    # ------------------------------------------------------------------ play

    def on_play(self, rnd: Round, ev: dict, line: int) -> None:
        if rnd.phase in ("start", "deal1"):
            raise Stop("L007")
        if rnd.phase == "deal2":
            return self._before_the_exchange(rnd)
        seat, cards = _seat(ev.get("seat"), rnd.seats), _cards(ev.get("cards"))
        wish_field, phoenix_field = ev.get("wish"), ev.get("phoenix")
        if self._skipped_move(rnd, seat, line):
            return
        hand = rnd.hands[seat]
        if not set(cards) <= hand:
            # P001 alone, even when not on turn or with a bad wish: "what cannot be on the
            # table is not judged" (docs/rules.md, "One event, one code"); after a Dragon
            # trick it is the next event, not the gift: G002 too (rules 8, G002)
            if rnd.gift_owed is not None:
                if seat != rnd.gift_owed and any(_is_bomb(p) for p in readings(cards)):
                    raise Stop("P001 of a bomb on a Dragon trick")
                self._missing_gift(rnd, line)
            return rnd.fatal("P001", line)
        wish: int | None = None
        if wish_field is not None:  # "a wish value that is not a rank is W002" (rules 8)
            if "Mahjong" in cards and isinstance(wish_field, str) and wish_field in RANK_WORDS:
                wish = RANK_WORDS[wish_field]
            else:
                rnd.report("W002", line)
        phoenix: int | None = None
        if phoenix_field is not None and "Phoenix" in cards and len(cards) > 1:
            if phoenix_field not in RANK_WORDS:
                raise Stop("a phoenix field that is no rank")
            phoenix = RANK_WORDS[phoenix_field]

        table = rnd.table
        options = readings(cards, rnd.top if table == "trick" else None, rnd.phoenix_bombs)
        if phoenix is not None:
            options = [p for p in options if p.phoenix == phoenix]
        if not options:
            rnd.report("P002", line)  # (the one code of the play, docs/rules.md)
            if table == "trick":
                return self._invalid_play(rnd, seat, cards)
            return self._invalid_lead(rnd, seat, cards, line)
        # a bomb has one reading (or, under phoenix-in-bombs, every reading is one)
        bomb = _is_bomb(options[0])

        if table == "complete":
            if seat != rnd.leader and bomb:
                rnd.seen["a bomb after everyone passed" + (
                    ", on a Dragon trick" if rnd.gift_owed is not None else "")] += 1
                self._follow(rnd, seat, cards, options, line, on_turn=False)
                rnd.gift_owed = None  # a bomb on the Dragon's trick: nothing to give
                return self._after_play(rnd, seat, cards, wish)
            self._end_trick(rnd, line)  # this play is a lead
            table = rnd.table
        if table in ("lead", "dog"):
            entitled = rnd.due(seat)
            if not entitled:
                if bomb and table == "lead":
                    rnd.report("B002", line)
                elif bomb:
                    if "dog-can-be-bombed" not in rnd.variants:  # 9.1
                        rnd.report("B003", line)
                else:
                    rnd.report("P003", line)
            chosen = max(options, key=strength)
            if entitled and self._bound(rnd, seat, None) and not self._has_wish(rnd, cards):
                rnd.wish_ignored(seat, line)
            self._lead(rnd, seat, cards, chosen)
            return self._after_play(rnd, seat, cards, wish)
        # a trick is on the table
        if bomb:
            self._follow(rnd, seat, cards, options, line, on_turn=seat == rnd.turn)
            return self._after_play(rnd, seat, cards, wish)
        if cards == ["Dog"]:
            rnd.report("P007", line)  # (more specific than P003 when not on turn)
            return self._invalid_play(rnd, seat, cards)
        if seat != rnd.turn:
            # Not judged as a play on the top too: "where one event could match several
            # codes, the more specific reading wins" (rules 8) - the engine's reading.
            rnd.report("P003", line)
        elif (self._bound(rnd, seat, rnd.top) and not self._has_wish(rnd, cards)
              and any(rnd.top is not None and beats(p, rnd.top) for p in options)):
            # W001 only for an otherwise legal play: a play that does not beat the top
            # is P004/P005 alone. The W001 row reads "followed with a non-bomb without
            # it", which such a play also is; rules 8 has one event matching several
            # codes take "the more specific reading", and docs/rules.md ("One code per
            # play; the wish comes last") decides for P004/P005.
            rnd.wish_ignored(seat, line)
        self._follow(rnd, seat, cards, options, line, on_turn=seat == rnd.turn)
        self._after_play(rnd, seat, cards, wish)

    def _skipped_move(self, rnd: Round, seat: int, line: int) -> bool:
        """P009 after the round's end, P008 by a seat that is out: the event is skipped,
        but it is still the event after a Dragon trick that is over, not its gift (G002,
        "the next event is neither its dragon_gift nor a bomb on it by another seat")."""
        if rnd.phase != "over" and rnd.hands[seat]:
            return False
        if rnd.gift_owed is not None and rnd.phase == "over":
            self._missing_gift(rnd, line)
        elif rnd.gift_owed is not None and rnd.table == "complete":
            self._end_trick(rnd, line)
        rnd.report("P009" if rnd.phase == "over" else "P008", line)
        return True

    def _bound(self, rnd: Round, seat: int, top: Play | None) -> bool:
        """Whether the seat is bound by the wish (6.2); never the dummy in trichu (9.3)."""
        if rnd.wish is None or seat == rnd.dummy:
            return False
        bound = can_fulfil_wish(rnd.hands[seat], rnd.wish, top, rnd.phoenix_bombs)
        if not self.details:
            return bound
        if bound and top is not None:
            hand = rnd.hands[seat]
            with_phoenix = not can_fulfil_wish(hand - {"Phoenix"}, rnd.wish, top)
            rnd.seen["bound by the wish, following" + (
                " (only with the Phoenix)" if with_phoenix and "Phoenix" in hand else "")] += 1
        elif bound:
            rnd.seen["bound by the wish, leading"] += 1
        elif rnd.wish is not None and any(rank_of(c) == rnd.wish for c in rnd.hands[seat]):
            rnd.seen["holding the wished rank, not bound"] += 1
        return bound

    def _has_wish(self, rnd: Round, cards: list[str]) -> bool:
        return any(rank_of(c) == rnd.wish for c in cards)

    def _no_combination_wish(self, rnd: Round, cards: list[str]) -> None:
        """Cards that form no combination (P002) and hold a card of the wished rank do not
        fulfil the wish: 6.1 keeps it open "until a later play by anyone contains a card of
        the wished rank (in any combination, a bomb included)", and such cards are no
        combination (docs/rules.md, "An invalid play counts as a pass": it makes no wish
        and fulfils none; tests/oracle_cases/W001_wish_after_a_play_that_is_no_*)."""
        if rnd.wish is not None and self._has_wish(rnd, cards):
            rnd.seen["a play that is no combination, with the wished rank"] += 1

    def _fulfil(self, rnd: Round, cards: list[str]) -> None:
        if rnd.wish is not None and self._has_wish(rnd, cards):
            rnd.wish = None  # 6.1 (the Phoenix is no card of a rank)

    def _lead(self, rnd: Round, seat: int, cards: list[str], chosen: Play) -> None:
        rnd.table, rnd.top, rnd.last = "trick", chosen, seat
        rnd.trick += cards  # (after cards of an invalid lead, if any)
        rnd.passed = set()

    def _follow(self, rnd: Round, seat: int, cards: list[str], options: list[Play],
                line: int, on_turn: bool) -> None:
        """A play onto the trick on the table (4.1, 4.2): the reading that beats, if any."""
        top = rnd.top
        assert top is not None
        if _is_bomb(options[0]):
            rnd.seen["a bomb on " + ("its own play" if seat == rnd.last else
                                    "the partner's play" if seat % 2 == rnd.last % 2 else
                                    "a bomb" if _is_bomb(top) else "an opponent's play")] += 1
        good = [p for p in options if beats(p, top)]
        if good:
            chosen = max(good, key=strength)
        else:
            chosen = max(options, key=strength)
            if _is_bomb(chosen):
                rnd.report("B001", line)
            elif on_turn:
                same = [p for p in options if p.kind == top.kind and p.length == top.length]
                rnd.report("P005" if same else "P004", line)
        rnd.table, rnd.top, rnd.last = "trick", chosen, seat
        rnd.trick += cards
        rnd.passed = set()

    def _after_play(self, rnd: Round, seat: int, cards: list[str], wish: int | None) -> None:
        """The wish; the cards leave the hand; the end of the round; the next turn."""
        self._fulfil(rnd, cards)
        if "Mahjong" in cards and wish is not None:
            rnd.wish = wish
        if self._leave_hand(rnd, seat, cards):
            return
        if cards == ["Dog"] and rnd.top is not None and rnd.top.rank == 0:
            rnd.piles[seat] += rnd.trick  # 5.2: the Dog's trick ends at once
            rnd.trick, rnd.top = [], None
            rnd.table = "dog"
            if rnd.seats == 4:
                partner = (seat + 2) % 4
                if not rnd.hands[partner]:
                    rnd.seen["the Dog led, the partner out"] += 1
                rnd.leader = partner if rnd.hands[partner] else rnd.next_holding(partner)
                return
            # 9.2: either partner still holding cards, else the next seat after the player
            rnd.dog_leaders = frozenset(s for s in range(6) if s != seat and s % 2 == seat % 2
                                        and rnd.hands[s])
            rnd.leader = min(rnd.dog_leaders, default=rnd.next_holding(seat))
            rnd.seen[f"the Dog led, {len(rnd.dog_leaders)} partners holding cards"] += 1
            return
        rnd.turn = rnd.next_holding(seat)

    def _leave_hand(self, rnd: Round, seat: int, cards: list[str]) -> bool:
        """The cards leave the hand; whether the seat is out and that ends the round."""
        rnd.hands[seat] -= set(cards)
        rnd.played.add(seat)
        if rnd.hands[seat]:
            return False
        rnd.out.append(seat)
        return self._round_over(rnd)

    def _round_over(self, rnd: Round) -> bool:
        """Whether the seat just out ends the round (7.2, 7.3; in tientsin 9.2: a triple
        victory - kept as ``double_victory`` - or one seat left holding cards)."""
        team = rnd.seats // 2
        if len(rnd.out) == team and len({s % 2 for s in rnd.out}) == 1:
            rnd.phase, rnd.double_victory = "over", True  # 7.2
            rnd.seen["round over: a double (tientsin: triple) victory" + (
                ", the Dragon on top" if _is_dragon(rnd.top) else "")] += 1
            return True
        if len(rnd.out) < rnd.seats - 1:
            return False
        rnd.phase = "over"  # 7.3: the trick in progress goes to its last player
        rnd.seen["round over: one seat left"] += 1
        if _is_dragon(rnd.top):
            rnd.gift_owed = rnd.last  # the trick waits for its dragon_gift
            rnd.seen["round over: the last trick won by the Dragon"] += 1
        else:
            rnd.piles[rnd.last] += rnd.trick
            rnd.trick = []
        return True

    def _end_trick(self, rnd: Round, line: int) -> None:
        """The complete trick goes to its winner (a Dragon's, once given) before a lead."""
        if rnd.gift_owed is not None:
            self._missing_gift(rnd, line)
        else:
            rnd.piles[rnd.last] += rnd.trick
        rnd.trick, rnd.top, rnd.table = [], None, "lead"

    def _missing_gift(self, rnd: Round, line: int) -> None:
        assert rnd.gift_owed is not None
        rnd.report("G002", line)
        rnd.piles[(rnd.gift_owed + 1) % rnd.seats] += rnd.trick  # the next seat after the winner
        rnd.trick, rnd.gift_owed = [], None

    def on_pass(self, rnd: Round, ev: dict, line: int) -> None:
        if rnd.phase in ("start", "deal1"):
            raise Stop("L007")
        if rnd.phase == "deal2":
            return self._before_the_exchange(rnd)
        seat = _seat(ev.get("seat"), rnd.seats)
        if self._skipped_move(rnd, seat, line):
            return
        if rnd.table == "complete" and rnd.gift_owed is not None:
            self._end_trick(rnd, line)  # G002: this pass is not the gift
        if rnd.table in ("lead", "dog", "complete"):
            rnd.report("P006" if rnd.due(seat) else "P003", line)
            return
        if seat != rnd.turn:
            rnd.report("P003", line)  # counts as its pass; the turn stays (settled)
        else:
            if self._bound(rnd, seat, rnd.top):
                rnd.wish_ignored(seat, line)
            rnd.turn = rnd.next_holding(seat)
        self._count_pass(rnd, seat)

    def _invalid_play(self, rnd: Round, seat: int, cards: list[str]) -> None:
        """P002 or P007 onto a trick: the cards leave the hand and the top is unchanged
        (rules 8). The spec says no more; this follows the decision of docs/rules.md
        ("An invalid play counts as a pass"): the cards join the trick in progress, the
        play counts as the seat's pass, and the turn moves to the seat after it (on turn
        or not, as for a P003 play in the settled readings). By the same decision it is
        never also W001 ("One code per play")."""
        self._no_combination_wish(rnd, cards)
        rnd.trick += cards
        if self._leave_hand(rnd, seat, cards):
            return
        rnd.turn = rnd.next_holding(seat)
        self._count_pass(rnd, seat)

    def _invalid_lead(self, rnd: Round, seat: int, cards: list[str], line: int) -> None:
        """P002 where a lead is due: the cards leave the hand, the table stays empty, and
        the turn moves on (rules 8) - the lead passes to the next seat holding cards
        after the player (as the turn after a P003 play). The cards join the next trick.
        The spec does not say more; this is what "the turn moves on" reads as here."""
        self._no_combination_wish(rnd, cards)
        if rnd.table == "complete":
            # 2.4: "a play by that seat at this point is that lead, never a play on its
            # own trick": the old trick goes to its winner (a Dragon's, not given: G002),
            # and the lead moves on as on an empty table. By another seat it is a lead
            # out of turn (docs/rules.md, "The moment after everyone passed": only a
            # bomb lands on the old trick), with one code, P002, and the lead moves on
            # from it as on an empty table too
            # (tests/oracle_cases/P002_by_another_seat_after_everyone_passed_*)
            self._end_trick(rnd, line)
        rnd.trick += cards
        # if this ends the round (7.3), "the trick in progress goes to the seat that made
        # its last play": these cards are all of it, and this play is its only one
        rnd.last = seat
        if self._leave_hand(rnd, seat, cards):
            return
        # after the Dog, that was the lead (by the partner due, or out of turn): the Dog's
        # window is over - a bomb now is no bomb on the Dog - and in tientsin the lead the
        # Dog gave to either partner has been made (9.2) and moves on from it as for four
        # (tests/oracle_cases/P006_tientsin_*)
        if rnd.table == "dog":
            rnd.table = "lead"
        rnd.dog_leaders = frozenset()
        rnd.leader = rnd.next_holding(seat)

    def _count_pass(self, rnd: Round, seat: int) -> None:
        rnd.passed.add(seat)
        others = {s for s in range(rnd.seats) if rnd.hands[s] and s != rnd.last}
        if others <= rnd.passed:  # 2.4: the trick is over
            rnd.table = "complete"
            w = rnd.last
            rnd.leader = w if rnd.hands[w] else rnd.next_holding(w)
            if _is_dragon(rnd.top):
                rnd.gift_owed = w

    def on_dragon_gift(self, rnd: Round, ev: dict, line: int) -> None:
        if rnd.phase in ("start", "deal1"):
            raise Stop("L007")
        if rnd.phase == "deal2":
            return self._before_the_exchange(rnd)
        seat, to = _seat(ev.get("seat"), rnd.seats), _seat(ev.get("to"), rnd.seats)
        if rnd.gift_owed is not None and seat == rnd.gift_owed:
            if to % 2 == seat % 2:
                rnd.report("G001", line)
            rnd.piles[to] += rnd.trick
            rnd.trick, rnd.gift_owed = [], None
            if rnd.table == "complete":
                rnd.top, rnd.table = None, "lead"
            return
        if rnd.phase == "over" and rnd.double_victory and _is_dragon(rnd.top):
            # 5.4: "after a double victory ... no gift is owed (a dragon_gift there is
            # accepted and ignored)": "there" is a double victory with the Dragon's trick
            # on the table (docs/rules.md); a gift when no Dragon trick was left is G003
            return
        rnd.report("G003", line)

    def on_round_end(self, rnd: Round, ev: dict, line: int) -> None:
        if rnd.ended:
            raise Stop("L007: a second round_end")
        if rnd.phase != "over":  # (the exchange never came after an early play too)
            rnd.report("L008", line)  # settled reading: a round_end before the rules end it
            if rnd.gift_owed is not None:
                raise Stop("L008 with a Dragon gift owed (G002 too?)", keep=True)
            rnd.closed_early = True  # "round closed as it stands, not scored"
            return
        rnd.ended = True
        order, score = ev.get("finish_order"), ev.get("score")
        if ev.get("round") != rnd.number:
            raise Stop("round number")
        if not (isinstance(order, list) and sorted(order) == list(range(rnd.seats))
                and all(type(s) is int for s in order)):
            raise Stop("L002 finish_order")
        if not (isinstance(score, list) and len(score) == 2
                and all(type(s) is int for s in score)):
            raise Stop("L002 score")
        if rnd.gift_owed is not None:
            self._missing_gift(rnd, line)
        replayed, team = result(rnd)
        winners = rnd.seats // 2
        if order[:winners] != replayed[:winners] or not rnd.double_victory and order != replayed:
            rnd.report("S001", line)  # after a double victory, the other two in any order
        if team != score:
            rnd.report("S002", line)


def result(rnd: Round) -> tuple[list[int], list[int]]:
    """The finish order and the teams' scores of a round that is over (7.2-7.5; in
    tientsin 9.2)."""
    first = rnd.out[0]
    rest = [s for s in range(rnd.seats) if s not in rnd.out]
    team = [0, 0]
    if rnd.double_victory:
        team[first % 2] = 200 if rnd.seats == 4 else 300
    else:
        (last,) = rest
        for s in range(rnd.seats):
            if rnd.seats == 4:
                owner = first if s == last else s  # 7.3: the last seat's tricks
            else:  # 9.2: to the opposing team; the fifth seat's to the first out
                owner = last + 1 if s == last else first if s == rnd.out[4] else s
            team[owner % 2] += sum(points(c) for c in rnd.piles[s])
        team[(last + 1) % 2] += sum(points(c) for c in rnd.hands[last])
    for s, call in rnd.calls.items():
        value = 100 if call == "tichu" else 200
        team[s % 2] += value if s == first else -value
    if "wish-penalty-200" in rnd.variants:  # 9.1: a violation of the wish
        for s in rnd.penalties:
            team[(s + 1) % 2] += 200
    return rnd.out + rest, team


def judge_lines(lines: Iterable[str], variants: Iterable[str] = ()
                ) -> tuple[list[tuple[str, int]], set[int]]:
    """The oracle's diagnostics ``(code, line)`` and the lines it judged (``variants``:
    those of the command line, added to every game's)."""
    oracle = Oracle(variants)
    oracle.run(lines)
    return oracle.diagnostics, oracle.judged


def judge(path: Path, variants: Iterable[str] = ()) -> tuple[list[tuple[str, int]], set[int]]:
    return judge_lines(path.read_text(encoding="utf-8").split("\n"), variants)
