"""Simulated Tichu games: seeded, reproducible, legal format-1 logs.

``simulate(games, seed)`` plays whole games between simple bots and yields the
log events (``log-format.md``) as dicts; ``logfile.write_log`` writes them as JSON
lines. The same seed always gives the same events, byte for byte: all
randomness comes from one ``random.Random(seed)`` and the timestamps from a
simulated clock, never the real one.

The simulator keeps its own game state (hands as card masks, turn, trick,
passes, seats out, piles, wish, scores) and implements rules.md by itself;
it deliberately does not use the replay engine, so that the two can
cross-check each other. Only the combination primitives of ``combos`` are
shared.

The bots are legal, mildly plausible, and exercise every rule with some
frequency: Grand Tichu and Tichu calls (before, during and after the
exchange, and late, just before the caller's first play), varied exchanges,
the Mahjong with and without a wish (often for a card given to an opponent),
the wish obeyed exactly (rules.md 6.2), the Phoenix as a single and inside
combinations (with and without the ``phoenix`` field), the Dog (also when the
partner is out), bombs in turn and out of turn (on an opponent's, the
partner's or the bomber's own play, and after everyone passed before the
winner leads), Dragon gifts and double victories.

A game ends after the round in which a team reaches ``TARGET`` with more
points than the other (``game_end``). A game still undecided after
``MAX_ROUNDS`` rounds stops there without a ``game_end``.

Readings of rules.md where it leaves room:

* No event comes between a finished Dragon trick and its ``dragon_gift`` or a
  bomb on it (G002 says "the next event"): a late Tichu that would be called
  just before such a bomb is not called at all.
* Once every other seat has passed, any seat but the one due to lead (the
  winner, or the next seat with cards when the winner is out) may bomb; the
  bomb continues the trick (2.4, 4.3). The seat due to lead leads.
* A follower bound by the wish plays a combination with the wished rank, or
  sometimes another bomb (6.4: a bomb onto the table is never a violation).
* After a double victory ``finish_order`` lists the other two seats in seat
  order; the Dog's trick (0 points) goes to the Dog's player.

Variants (rules.md section 9, ``variants=``):

* ``tientsin`` (9.2): six seats. The first deal gives six cards each; the other
  20 are dealt one at a time from seat ``(round - 1) % 6`` on, so two seats
  (moving round by round) end with 10 cards and four with 9. Exchanges go to
  the two partners only; the Dog's lead goes to a partner still holding cards
  (one who called, else either at random), or to the next seat with cards when
  neither has any; the Dragon's trick goes to any of the three opponents. The
  round ends at a triple victory (300, no card points, no Dragon gift; the
  other three seats follow in seat order in ``finish_order``) or when one seat
  is left: the fifth seat's tricks go to the first out, the last seat's tricks
  and hand cards to the opposing team. The game is played to ``TARGET``.
* ``trichu`` (9.3): three persons and the dummy ``Tisch``. In round ``r`` the
  solo player is the ``(r - 1) % 3``-th person of the game, the dummy sits at
  seat ``(r - 1) % 4`` with the solo player opposite (:func:`trichu_seating`);
  every ``round_start`` names ``players`` and ``dummy``, and ``game_start.players``
  is the first round's seating. Only the two other persons may call a Grand
  Tichu; exchanges go to the other team's two seats only; the dummy's cards are
  played by a bot like any seat's, except that it ignores the wish (it is never
  bound). The game has ``target`` rounds (9) and always ends with a
  ``game_end`` whose ``score`` maps each person to the points of the teams it
  sat in.
* ``wish-penalty-200`` and ``dog-can-be-bombed`` are only named in
  ``game_start.variants``: the bots never break the wish (the dummy aside, which
  the wish does not bind) and never bomb the Dog. ``phoenix-in-bombs`` is not
  simulated (it changes how the bots' Phoenix plays would be read).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Generator, Iterable, Iterator
from typing import Any

from ..core.cards import (
    ACE,
    BIT,
    DOG,
    DRAGON,
    MAHJONG,
    PHOENIX,
    RANK,
    RANK_MASK,
    RANK_TOKENS,
    TOKENS,
    Mask,
    card_of,
    iter_cards,
    points,
    tokens_of,
)
from ..core.combos import Combo, Kind, beats, bombs_in, can_play_rank, classify, legal_plays

Event = dict[str, Any]
"""One log event, as written to the file (``log-format.md``)."""

PLAYERS: tuple[str, ...] = (
    "Ana",
    "Ben",
    "Chloe",
    "Dev",
    "Eli",
    "Fatima",
    "Gus",
    "Hana",
    "Ivo",
    "Jun",
)
"""Names the simulated players are drawn from (four per game; six in ``tientsin``,
three in ``trichu``)."""

TARGET = 1000
"""Score that ends a simulated game."""

TRICHU_ROUNDS = 9
"""Rounds of a simulated ``trichu`` game (rules.md 9.3): each person solo three times."""

DUMMY = "Tisch"
"""The dummy's name in ``trichu`` seatings (rules.md 9.3)."""

VARIANTS: tuple[str, ...] = ("tientsin", "trichu", "wish-penalty-200", "dog-can-be-bombed")
"""The variants of rules.md section 9 the simulator plays (not ``phoenix-in-bombs``)."""

MAX_ROUNDS = 60
"""A game still undecided after this many rounds stops without ``game_end``."""

START_TS = 1_700_000_000
"""Simulated clock: the first event of a run happens at this Unix time."""

_DOG = BIT[DOG]
_MAHJONG = BIT[MAHJONG]
_PHOENIX = BIT[PHOENIX]
_DRAGON = BIT[DRAGON]
_NORMALS: Mask = sum(RANK_MASK[r] for r in range(2, ACE + 1))
_HIGH_SPECIALS = _PHOENIX | _DRAGON
_RANK_STARTS: Mask = sum(BIT[card_of(r, 0)] for r in range(2, ACE + 1))

# Simulated think times in milliseconds, by event type: (least, most).
_DELAYS: dict[str, tuple[int, int]] = {
    "game_start": (30_000, 120_000),
    "round_start": (3_000, 15_000),
    "deal": (500, 2_000),
    "call": (1_000, 6_000),
    "exchange": (4_000, 25_000),
    "play": (800, 12_000),
    "pass": (400, 4_000),
    "dragon_gift": (1_000, 5_000),
    "round_end": (1_000, 3_000),
    "game_end": (500, 1_000),
}


def simulate(games: int, seed: int, *, stats: Counter[str] | None = None,
             players: int | None = None, variants: Iterable[str] = (),
             target: int | None = None) -> Iterator[Event]:
    """Play ``games`` games between bots and yield their format-1 log events.

    Game ids are ``"sim-<seed>-<n>"`` for n = 1..games; games follow one
    another (no interleaving). ``target`` is ``TARGET``; every event has a
    ``ts`` from a simulated clock that starts at ``START_TS``. If given,
    ``stats`` counts the rule features the bots exercised (out-of-turn bombs,
    wishes that bound a seat, Dog leads with the partner out, ...), keyed by
    short names; it does not change the events. ``players`` draws each game's four
    names from a pool of that many (``player-00001``, ...) instead of :data:`PLAYERS`.

    ``variants`` names variants of rules.md section 9 (:data:`VARIANTS`), written
    to ``game_start.variants``: ``tientsin`` (six seats, 9.2) or ``trichu`` (three
    persons and a dummy, 9.3), and the house rules the bots play under
    (``wish-penalty-200``, ``dog-can-be-bombed``; they never break the wish nor
    bomb the Dog, so these change no move). ``target`` overrides the target score
    (in ``trichu`` the number of rounds, a multiple of 3, default
    :data:`TRICHU_ROUNDS`). Without variants the output is that of the
    four-player game, unchanged. A variant it cannot simulate, a mix that
    rules.md forbids or a bad ``target`` is a :class:`ValueError`, raised at
    once (before the first event).
    """
    chosen = frozenset(variants)
    unknown = sorted(chosen - set(VARIANTS))
    if unknown:
        raise ValueError(f"cannot simulate the variant {', '.join(unknown)} "
                         f"(variants: {', '.join(VARIANTS)})")
    if {"tientsin", "trichu"} <= chosen:
        raise ValueError("tientsin and trichu exclude each other")
    seats = 6 if "tientsin" in chosen else 4
    persons = 3 if "trichu" in chosen else seats
    if target is None:
        target = TRICHU_ROUNDS if "trichu" in chosen else TARGET
    if target < 1 or ("trichu" in chosen and target % 3):
        raise ValueError(f"a target of {target} {'rounds' if 'trichu' in chosen else 'points'}"
                         " cannot be played" + (" (trichu needs a multiple of 3)"
                                                if "trichu" in chosen else ""))
    if players is not None and players < max(persons, 4):
        raise ValueError(f"a pool of players needs at least {max(persons, 4)} names")
    pool = list(PLAYERS) if players is None else [f"player-{i:05d}" for i in range(1, players + 1)]
    counter: Counter[str] = stats if stats is not None else Counter()
    rules = _Rules(seats, "trichu" in chosen, sorted(chosen), target)
    return _games(games, seed, counter, pool, rules)


def _games(games: int, seed: int, stats: Counter[str], pool: list[str],
           rules: _Rules) -> Iterator[Event]:
    rng = random.Random(seed)
    clock = _Clock(rng)
    for n in range(1, games + 1):
        yield from _game(rng, clock, stats, f"sim-{seed}-{n}", seed, pool, rules)


class _Rules:
    """What a simulated game is played under: seats, variants, target."""

    def __init__(self, seats: int, trichu: bool, variants: list[str], target: int) -> None:
        self.seats = seats
        self.trichu = trichu
        self.variants = variants
        self.target = target


class _Clock:
    """Simulated time in milliseconds, advanced by a random think time per event."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.ms = START_TS * 1000

    def tick(self, event_type: str) -> float:
        least, most = _DELAYS[event_type]
        self.ms += least + int(self.rng.random() * (most - least))
        return self.ms / 1000


def _game(
    rng: random.Random, clock: _Clock, stats: Counter[str], game: str, seed: int,
    pool: list[str], rules: _Rules,
) -> Iterator[Event]:
    if rules.trichu:
        yield from _trichu_game(rng, clock, stats, game, seed, pool, rules)
        return
    players = rng.sample(pool, rules.seats)
    yield _game_start(clock, game, players, seed, rules)
    stats["games"] += 1
    totals = [0, 0]
    target = rules.target
    for number in range(1, MAX_ROUNDS + 1):
        round_ = _Round(rng, clock, stats, game, number, rules.seats)
        yield from round_.run()
        totals[0] += round_.score[0]
        totals[1] += round_.score[1]
        # rules.md 7.6: a team has reached the target and the teams are not level
        if max(totals) >= target and totals[0] != totals[1]:
            yield {
                "type": "game_end",
                "game": game,
                "score": list(totals),
                "ts": clock.tick("game_end"),
            }
            return
    stats["games_capped"] += 1


def _game_start(clock: _Clock, game: str, players: list[str], seed: int,
                rules: _Rules) -> Event:
    event: Event = {"type": "game_start", "game": game, "players": players,
                    "target": rules.target}
    if rules.variants:
        event["variants"] = list(rules.variants)
    event["meta"] = {"source": "tichu_analyze.simulate", "seed": seed}  # (a stable tag)
    event["ts"] = clock.tick("game_start")
    return event


def trichu_seating(persons: list[str], number: int) -> tuple[list[str], int]:
    """The seating of round ``number`` (from 1) of a ``trichu`` game, and the dummy's seat.

    The solo player is ``persons[(number - 1) % 3]``, so over a multiple of three
    rounds each person is solo equally often; the dummy moves one seat on every
    round, the solo player sits opposite it, and the two others follow the solo
    player's seat in the persons' order.
    """
    solo = (number - 1) % 3
    dummy = (number - 1) % 4
    seating = [""] * 4
    seating[dummy] = DUMMY
    seating[(dummy + 2) % 4] = persons[solo]
    seating[(dummy + 3) % 4] = persons[(solo + 1) % 3]
    seating[(dummy + 1) % 4] = persons[(solo + 2) % 3]
    return seating, dummy


def _trichu_game(
    rng: random.Random, clock: _Clock, stats: Counter[str], game: str, seed: int,
    pool: list[str], rules: _Rules,
) -> Iterator[Event]:
    """rules.md 9.3: ``target`` rounds, each person solo in turn; per-person totals."""
    persons = rng.sample(pool, 3)
    first, _ = trichu_seating(persons, 1)
    yield _game_start(clock, game, first, seed, rules)
    stats["games"] += 1
    totals = dict.fromkeys((name for name in first if name != DUMMY), 0)
    for number in range(1, rules.target + 1):
        seating, dummy = trichu_seating(persons, number)
        round_ = _Round(rng, clock, stats, game, number, 4, seating=seating, dummy=dummy)
        yield from round_.run()
        for seat, name in enumerate(seating):
            if name != DUMMY:
                totals[name] += round_.score[seat % 2]
    yield {"type": "game_end", "game": game, "score": totals, "ts": clock.tick("game_end")}


def _has_bomb(hand: Mask) -> bool:
    """Whether ``hand`` holds a four of a kind or a straight flush (fast test)."""
    x = hand & _NORMALS
    # cards of one rank are 4 consecutive ids starting at a rank start
    if x & (x >> 1) & (x >> 2) & (x >> 3) & _RANK_STARTS:
        return True
    # cards of one suit and consecutive ranks are 4 ids apart
    return bool(x & (x >> 4) & (x >> 8) & (x >> 12) & (x >> 16))


def _strength(hand: Mask) -> float:
    """A rough measure of how likely ``hand`` is to go out first."""
    s = 0.0
    if hand & _DRAGON:
        s += 3.0
    if hand & _PHOENIX:
        s += 2.5
    if hand & _DOG:
        s -= 1.0
    s += 1.5 * (hand & RANK_MASK[ACE]).bit_count() + 0.5 * (hand & RANK_MASK[13]).bit_count()
    if _has_bomb(hand):
        s += 3.0
    for r in range(2, 11):
        if (hand & RANK_MASK[r]).bit_count() == 1:
            s -= 0.3
    return s


def _value(card: int) -> int:
    """Card value for exchange decisions: Dog 0, Mahjong 1, 2..14, Phoenix 16, Dragon 17."""
    if card == PHOENIX:
        return 16
    if card == DRAGON:
        return 17
    return RANK[card]


class _Round:
    """One round: the simulator's own state and the bots' decisions."""

    def __init__(
        self, rng: random.Random, clock: _Clock, stats: Counter[str], game: str, number: int,
        seats: int = 4, *, seating: list[str] | None = None, dummy: int = -1,
    ) -> None:
        self.rng = rng
        self.clock = clock
        self.stats = stats
        self.game = game
        self.number = number
        self.n = seats
        self.seating = seating  # trichu: the round's seating, announced in round_start
        self.dummy = dummy  # trichu: the dummy's seat (rules.md 9.3), else -1
        # a seat's partners and opponents, in seat order (team = seat % 2)
        self.partners = [[p for p in range(seats) if p != s and p % 2 == s % 2]
                         for s in range(seats)]
        self.opponents = [[p for p in range(seats) if p % 2 != s % 2] for s in range(seats)]
        self.hands: list[Mask] = [0] * seats
        self.piles: list[Mask] = [0] * seats
        self.calls: list[str | None] = [None] * seats
        self.played = [False] * seats
        self.late_call = [False] * seats
        self.bomb_held = [False] * seats
        self.given: list[dict[int, int]] = [{} for _ in range(seats)]
        self.out: list[int] = []
        self.wish: int | None = None
        self.wisher = -1
        self.top: Combo | None = None
        self.top_seat = -1
        self.trick: Mask = 0
        self.passed = [False] * seats
        self.turn = 0
        self.over = False
        self.double_victory = False
        self.triple_victory = False
        self.score = [0, 0]

    # -- events ---------------------------------------------------------------

    def _event(self, type_: str, **fields: Any) -> Event:
        event: Event = {"type": type_, "game": self.game}
        event.update(fields)
        event["ts"] = self.clock.tick(type_)
        return event

    def _call(self, seat: int, call: str) -> Event:
        self.calls[seat] = call
        self.stats[call] += 1
        return self._event("call", seat=seat, call=call)

    # -- the round ------------------------------------------------------------

    def run(self) -> Iterator[Event]:
        rng = self.rng
        n = self.n
        if self.seating is None:
            yield self._event("round_start", round=self.number)
        else:  # rules.md 9.3: every round names its seating and the dummy
            yield self._event("round_start", round=self.number, players=list(self.seating),
                              dummy=self.dummy)
        deck = list(range(56))
        rng.shuffle(deck)
        if n == 4:
            first = [sum(BIT[c] for c in deck[8 * s : 8 * s + 8]) for s in range(4)]
            second = [sum(BIT[c] for c in deck[32 + 6 * s : 38 + 6 * s]) for s in range(4)]
            base = 6.6
        else:
            # rules.md 9.2: six cards each, then the other 20 dealt one by one from a
            # seat that moves on every round (two seats end with 10 cards, four with 9)
            first = [sum(BIT[c] for c in deck[6 * s : 6 * s + 6]) for s in range(n)]
            second = [0] * n
            for i, c in enumerate(deck[6 * n :]):
                second[(self.number - 1 + i) % n] |= BIT[c]
            base = 5.6
        yield self._event("deal", hands=[tokens_of(h) for h in first])
        # rules.md 1.2: Grand Tichu on the first 8 cards (9.2: on the first 6)
        for seat in range(n):
            if self.dummy >= 0 and seat in (self.dummy, (self.dummy + 2) % 4):
                continue  # rules.md 9.3: never the dummy nor the solo player
            partner_called = any(self.calls[p] is not None for p in self.partners[seat])
            threshold = 9.0 if partner_called else base
            if _strength(first[seat]) + rng.random() * 2.0 >= threshold:
                yield self._call(seat, "grand_tichu")
        yield self._event("deal", hands=[tokens_of(h) for h in second])
        self.hands = [first[s] | second[s] for s in range(n)]
        self.stats["rounds"] += 1
        yield from self._exchange_phase()
        yield from self._play_phase()
        yield from self._finish()

    def _wants_tichu(self, seat: int, bar: float) -> bool:
        if self.calls[seat] is not None:
            return False
        if self.n != 4:
            bar -= 1.5  # nine or ten cards instead of fourteen
        partner_called = any(self.calls[p] is not None for p in self.partners[seat])
        if partner_called and self.rng.random() < 0.85:
            return False
        return _strength(self.hands[seat]) + self.rng.random() * 2.5 >= bar

    def _exchange_phase(self) -> Iterator[Event]:
        rng = self.rng
        # Tichu on the 14 cards (rules.md 1.3): called before, during or after the
        # exchange, or late, just before the seat's first play
        n = self.n
        timing: list[str | None] = [None] * n
        for seat in range(n):
            if self._wants_tichu(seat, 7.6):
                timing[seat] = rng.choices(("before", "during", "after", "late"), (5, 2, 2, 2))[0]
                if timing[seat] == "before":
                    yield self._call(seat, "tichu")
        during_at = [rng.randrange(n - 1) for _ in range(n)]  # after which exchange event
        gives = [self._choose_gifts(seat, timing[seat] is not None) for seat in range(n)]
        order = list(range(n))
        if rng.random() < 0.3:
            rng.shuffle(order)  # the exchanges are simultaneous: any order
        for i, seat in enumerate(order):
            give = gives[seat]
            self.given[seat] = give
            yield self._event(
                "exchange", seat=seat, give={str(to): TOKENS[c] for to, c in sorted(give.items())}
            )
            for caller in range(n):
                if timing[caller] == "during" and during_at[caller] == i:
                    self.stats["tichu_during_exchange"] += 1
                    yield self._call(caller, "tichu")
        for seat in range(n):
            for to, card in gives[seat].items():
                self.hands[seat] &= ~BIT[card]
                self.hands[to] |= BIT[card]
        for seat in range(n):
            # the cards received may make a hand worth a call
            if timing[seat] is None and self._wants_tichu(seat, 8.6):
                timing[seat] = "after" if rng.random() < 0.5 else "late"
            if timing[seat] == "after":
                yield self._call(seat, "tichu")
            elif timing[seat] == "late":
                self.late_call[seat] = True

    def _choose_gifts(self, seat: int, calling: bool) -> dict[int, int]:
        """One card to each other seat (rules.md 1.4), or to the seats a variant names."""
        if self.n != 4 or self.dummy >= 0:
            # rules.md 9.2: to the two partners; 9.3: to the two seats of the other team
            return self._choose_gifts_to(
                seat, calling, self.partners[seat] if self.n != 4 else self.opponents[seat])
        rng = self.rng
        hand = self.hands[seat]
        cards = list(iter_cards(hand))
        partner, left, right = (seat + 2) % 4, (seat + 1) % 4, (seat + 3) % 4
        if rng.random() < 0.15:
            picked = rng.sample(cards, 3)
            return {left: picked[0], partner: picked[1], right: picked[2]}
        gifts: dict[int, int] = {}
        # to the partner: the Dog, a good card, or (having called) a low one
        if hand & _DOG and rng.random() < 0.35:
            gifts[partner] = DOG
        elif calling or self.calls[seat] is not None:
            gifts[partner] = min((c for c in cards if c != DOG), key=_value)
        else:
            good = [c for c in cards if _value(c) >= 12]
            if good:
                gifts[partner] = rng.choice(good)
            else:
                gifts[partner] = max(cards, key=_value)
        rest = [c for c in cards if c != gifts[partner]]
        # to the opponents: low cards, preferably ones that pair with nothing
        if hand & _DOG and DOG in rest and rng.random() < 0.5:
            gifts[left if rng.random() < 0.5 else right] = DOG
            rest.remove(DOG)

        def lowness(c: int) -> float:
            single = 2 <= RANK[c] <= ACE and (hand & RANK_MASK[RANK[c]]).bit_count() == 1
            return _value(c) - (3 if single else 0) + rng.random() * 3

        rest = [c for c in rest if _value(c) < 14] or rest
        rest.sort(key=lowness)
        for opponent in (left, right):
            if opponent not in gifts:
                gifts[opponent] = rest.pop(0)
        return gifts

    def _choose_gifts_to(self, seat: int, calling: bool, receivers: list[int]) -> dict[int, int]:
        """One card to each of ``receivers``: good ones to partners, low ones to opponents."""
        rng = self.rng
        hand = self.hands[seat]
        cards = list(iter_cards(hand))
        if rng.random() < 0.15:
            return dict(zip(receivers, rng.sample(cards, len(receivers)), strict=True))
        gifts: dict[int, int] = {}
        rest = list(cards)
        opponents = [to for to in receivers if to % 2 != seat % 2]
        for to in receivers:
            if to in opponents:
                continue
            if DOG in rest and rng.random() < 0.25:
                card = DOG
            elif calling or self.calls[seat] is not None:
                card = min((c for c in rest if c != DOG), key=_value)
            else:
                good = [c for c in rest if _value(c) >= 12]
                card = rng.choice(good) if good else max(rest, key=_value)
            gifts[to] = card
            rest.remove(card)
        if opponents:
            if DOG in rest and rng.random() < 0.5:
                gifts[rng.choice(opponents)] = DOG
                rest.remove(DOG)

            def lowness(c: int) -> float:
                single = 2 <= RANK[c] <= ACE and (hand & RANK_MASK[RANK[c]]).bit_count() == 1
                return _value(c) - (3 if single else 0) + rng.random() * 3

            low = sorted((c for c in rest if _value(c) < 14), key=lowness) or rest
            for to in opponents:
                if to not in gifts:
                    gifts[to] = low.pop(0)
        return gifts

    # -- play -----------------------------------------------------------------

    def _next_active(self, seat: int) -> int:
        """The next seat after ``seat`` that still holds cards (possibly ``seat``)."""
        for i in range(1, self.n + 1):
            s = (seat + i) % self.n
            if self.hands[s]:
                return s
        raise AssertionError("no seat holds cards")

    def _trick_complete(self) -> bool:
        """rules.md 2.4: every other seat still holding cards passed after the last play."""
        return all(self.passed[s] for s in range(self.n) if s != self.top_seat and self.hands[s])

    def _play_phase(self) -> Generator[Event, None, None]:
        self.bomb_held = [_has_bomb(h) for h in self.hands]
        # rules.md 2.1: the Mahjong's holder leads the first trick
        self.turn = next(s for s in range(self.n) if self.hands[s] & _MAHJONG)
        while not self.over:
            if self.top is None:
                yield from self._lead(self.turn)
            elif self._trick_complete():
                bombed = yield from self._offer_bombs()
                if not bombed and not self.over:
                    yield from self._close_trick()
                continue
            else:
                yield from self._follow(self.turn)
            if (
                not self.over
                and self.top is not None
                and any(self.bomb_held)
                and not self._trick_complete()
            ):
                yield from self._offer_bombs()

    def _lead(self, seat: int) -> Iterator[Event]:
        hand = self.hands[seat]
        leads = legal_plays(hand, None)
        wish = self.wish
        if wish is not None and hand & RANK_MASK[wish] and seat == self.dummy:
            # rules.md 9.3: the dummy is never bound by the wish
            choice = self._choose_lead(seat, leads)
            if not choice.cards & RANK_MASK[wish]:
                self.stats["dummy_wish_free"] += 1
            yield from self._play(seat, choice, lead=True)
            return
        if wish is not None and hand & RANK_MASK[wish]:
            # rules.md 6.2: a leader holding the wished rank must lead it
            leads = [c for c in leads if c.cards & RANK_MASK[wish]]
            if not leads:
                forced = can_play_rank(hand, wish, None)
                assert forced is not None
                leads = [forced]
            self._note_bound(seat)
        yield from self._play(seat, self._choose_lead(seat, leads), lead=True)

    def _note_bound(self, seat: int) -> None:
        self.stats["wish_bound"] += 1
        if seat != self.wisher:
            self.stats["wish_bound_other"] += 1

    def _follow(self, seat: int) -> Iterator[Event]:
        hand = self.hands[seat]
        top = self.top
        assert top is not None
        wish = self.wish
        forced = None
        if wish is not None and hand & RANK_MASK[wish]:
            forced = can_play_rank(hand, wish, top)
            if forced is not None and seat == self.dummy:
                # rules.md 9.3: the dummy is never bound by the wish
                forced = None
                self.stats["dummy_wish_free"] += 1
        if forced is not None:
            assert wish is not None
            # rules.md 6.2: must play a combination with the wished rank that beats
            # the top (6.4: any bomb would also do)
            self._note_bound(seat)
            options = legal_plays(hand, top)
            with_rank = [c for c in options if c.cards & RANK_MASK[wish]] or [forced]
            plain = [c for c in with_rank if not c.is_bomb]
            choice: Combo | None = min(plain or with_rank, key=lambda c: c.rank)
            other_bombs = [c for c in options if c.is_bomb and not c.cards & RANK_MASK[wish]]
            if other_bombs and self.rng.random() < 0.3:
                self.stats["wish_bound_bombed"] += 1
                choice = other_bombs[0]
        else:
            choice = self._choose_follow(seat, hand, top)
        if choice is None:
            self.passed[seat] = True
            self.turn = self._next_active(seat)
            yield self._event("pass", seat=seat)
        else:
            if choice.is_bomb:
                self.stats["bomb_in_turn"] += 1
            yield from self._play(seat, choice, lead=False)

    def _offer_bombs(self) -> Generator[Event, None, bool]:
        """Give seats holding a bomb the chance to bomb out of turn (rules.md 4.3).

        Mid-trick, every seat but the one on turn may bomb (on an opponent's,
        the partner's or its own play); once the trick is complete, every seat
        but its winner (whose play would be the next lead).
        """
        rng = self.rng
        bombed = False
        while not self.over and self.top is not None:
            top = self.top
            complete = self._trick_complete()
            if complete:  # the seat due to lead would lead, not bomb (docs/rules.md)
                winner = self.top_seat
                excluded = {winner, winner if self.hands[winner] else self._next_active(winner)}
            else:
                excluded = {self.turn}
            seats = [s for s in range(self.n) if s not in excluded and self.bomb_held[s]]
            if not seats:
                break
            rng.shuffle(seats)
            bomber = None
            for s in seats:
                if self.top_seat % 2 == s % 2:
                    p = 0.03  # on its own or its partner's play
                elif complete:
                    p = 0.35
                elif top.is_bomb or top.rank >= 13 or top.length > 1:
                    p = 0.1
                else:
                    p = 0.03
                if rng.random() < p:
                    bomber = s
                    break
            if bomber is None:
                break
            bombs = [b for b in bombs_in(self.hands[bomber]) if beats(b, top)]
            if not bombs:
                break
            bomb = min(bombs, key=lambda c: (c.kind, c.length, c.rank))
            if complete:
                self.stats["bomb_after_all_passed"] += 1
            elif self.top_seat == bomber:
                self.stats["bomb_on_own_play"] += 1
            elif self.top_seat % 2 == bomber % 2:
                self.stats["bomb_on_partner"] += 1
            else:
                self.stats["bomb_out_of_turn_on_opponent"] += 1
            self.stats["bomb_out_of_turn"] += 1
            bombed = True
            yield from self._play(bomber, bomb, lead=False)
        return bombed

    def _close_trick(self) -> Iterator[Event]:
        """The trick is over: to its winner, or by Dragon gift to an opponent (5.4)."""
        winner = self.top_seat
        top = self.top
        assert top is not None
        if top.cards == _DRAGON:
            yield from self._dragon_gift(winner)
        else:
            self.piles[winner] |= self.trick
        self.trick = 0
        self.top = None
        self.passed = [False] * self.n
        # rules.md 2.4: the winner leads, or the next seat that still has cards
        self.turn = winner if self.hands[winner] else self._next_active(winner)

    def _dragon_gift(self, winner: int) -> Iterator[Event]:
        if self.n != 4:
            yield from self._dragon_gift_six(winner)
            return
        left, right = (winner + 1) % 4, (winner + 3) % 4
        if self.rng.random() < 0.5:
            # give it to the opponent who seems least likely to go out first
            to = left if self.hands[left].bit_count() >= self.hands[right].bit_count() else right
        else:
            to = left if self.rng.random() < 0.5 else right
        self.piles[to] |= self.trick
        self.stats["dragon_gift"] += 1
        yield self._event("dragon_gift", seat=winner, to=to)

    def _dragon_gift_six(self, winner: int) -> Iterator[Event]:
        """rules.md 9.2: the Dragon's trick to any of the three opponents."""
        opponents = self.opponents[winner]
        if self.rng.random() < 0.5:
            # the opponent with most cards seems least likely to go out first
            to = max(opponents, key=lambda s: self.hands[s].bit_count())
        else:
            to = self.rng.choice(opponents)
        self.piles[to] |= self.trick
        self.stats["dragon_gift"] += 1
        yield self._event("dragon_gift", seat=winner, to=to)

    def _play(self, seat: int, combo: Combo, *, lead: bool) -> Iterator[Event]:
        rng = self.rng
        hand = self.hands[seat]
        cards = combo.cards
        top = None if lead else self.top
        assert cards and not cards & ~hand, "bot played cards it does not hold"
        assert lead or (top is not None and beats(combo, top)), "bot play does not beat the top"
        if self.late_call[seat] and not self.played[seat] and self.calls[seat] is None:
            self.late_call[seat] = False
            if top is not None and top.cards == _DRAGON and self._trick_complete():
                # after a Dragon trick is over the next event must be its gift or a
                # bomb on it (rules.md 8, G002): no call in between, so no call at all
                self.stats["tichu_late_dropped"] += 1
            else:
                # rules.md 1.3: Tichu is allowed until the seat's first play
                self.stats["tichu_late"] += 1
                yield self._call(seat, "tichu")
        tokens = tokens_of(cards)
        if len(tokens) > 1 and rng.random() < 0.1:
            rng.shuffle(tokens)  # "in any order"
        fields: dict[str, Any] = {"seat": seat, "cards": tokens}
        wish = None
        if cards & _MAHJONG:
            if combo.length > 1:
                self.stats["mahjong_straight"] += 1
            wish = self._choose_wish(seat)
            if wish is not None:
                fields["wish"] = RANK_TOKENS[wish]
                self.stats["wish"] += 1
            else:
                self.stats["mahjong_no_wish"] += 1
        if cards & _PHOENIX and combo.length > 1:
            self.stats["phoenix_combo"] += 1
            assert combo.phoenix is not None
            if rng.random() < 0.5:
                fields["phoenix"] = RANK_TOKENS[combo.phoenix]
                self.stats["phoenix_field"] += 1
            else:
                # without the field the highest legal reading counts (3, log format)
                reading = classify(cards, None, top)
                assert reading is not None and (top is None or beats(reading, top))
                combo = reading
                self.stats["phoenix_no_field"] += 1
        elif cards == _PHOENIX:
            self.stats["phoenix_single"] += 1
        if lead and combo.is_bomb:
            self.stats["bomb_led"] += 1
        yield self._event("play", **fields)
        # apply
        self.hands[seat] = hand & ~cards
        if self.bomb_held[seat]:
            self.bomb_held[seat] = _has_bomb(self.hands[seat])
        self.played[seat] = True
        self.trick |= cards
        # rules.md 6.1: a real card of the wished rank fulfils the wish (not the
        # Mahjong's own straight, whose wish is only made now)
        if self.wish is not None and cards & RANK_MASK[self.wish]:
            self.wish = None
        if wish is not None:
            self.wish = wish
            self.wisher = seat
        self.top = combo
        self.top_seat = seat
        self.passed = [False] * self.n
        if not self.hands[seat] and self.n != 4:
            self.out.append(seat)
            if len(self.out) == 3 and all(s % 2 == seat % 2 for s in self.out):
                self.over = True  # rules.md 9.2: a triple victory
                self.triple_victory = True
                return
            if len(self.out) == 5:
                self.over = True  # rules.md 9.2: only one seat still holds cards
                return
        elif not self.hands[seat]:
            self.out.append(seat)
            if len(self.out) == 2 and self.out[0] % 2 == self.out[1] % 2:
                self.over = True  # 7.2 double victory
                self.double_victory = True
                return
            if len(self.out) == 3:
                self.over = True  # 7.3
                return
        if cards == _DOG and self.n != 4:
            # rules.md 9.2: the lead to a partner of the Dog's player's choice, or the
            # next seat with cards when neither partner has any
            self.stats["dog"] += 1
            partners = [p for p in self.partners[seat] if self.hands[p]]
            if not partners:
                self.stats["dog_partner_out"] += 1
                to = self._next_active(seat)
            else:
                called = [p for p in partners if self.calls[p] is not None]
                to = self.rng.choice(called or partners)
                if to != partners[0]:
                    self.stats["dog_to_later_partner"] += 1
            self.piles[seat] |= self.trick
            self.trick = 0
            self.top = None
            self.turn = to
            return
        if cards == _DOG:
            # rules.md 5.2: the Dog's trick ends at once; the lead passes to the partner
            partner = (seat + 2) % 4
            self.stats["dog"] += 1
            if not self.hands[partner]:
                self.stats["dog_partner_out"] += 1
            self.piles[seat] |= self.trick
            self.trick = 0
            self.top = None
            self.turn = partner if self.hands[partner] else self._next_active(partner)
            return
        self.turn = self._next_active(seat)

    def _finish(self) -> Generator[Event, None, None]:
        """Round end and scoring, rules.md section 7 (9.2 for six seats)."""
        team = [0, 0]
        if self.n != 4:
            order = yield from self._finish_six(team)
        elif self.double_victory:
            self.stats["double_victory"] += 1
            winners = self.out[:2]
            order = winners + [s for s in range(4) if s not in winners]
            team[winners[0] % 2] = 200
        else:
            last = next(s for s in range(4) if self.hands[s])
            order = self.out + [last]
            yield from self._last_trick()
            piles = list(self.piles)
            piles[self.out[0]] |= piles[last]
            piles[last] = 0
            for s in range(4):
                team[s % 2] += points(piles[s])
            team[(last + 1) % 2] += points(self.hands[last])
            assert team[0] + team[1] == 100
        for s in range(self.n):
            call = self.calls[s]
            if call is not None:
                bonus = 200 if call == "grand_tichu" else 100
                team[s % 2] += bonus if order[0] == s else -bonus
                self.stats[call + ("_made" if order[0] == s else "_failed")] += 1
        self.score = team
        yield self._event("round_end", round=self.number, finish_order=order, score=list(team))

    def _last_trick(self) -> Iterator[Event]:
        """7.3: the trick in progress goes to the seat that made its last play (5.4)."""
        top = self.top
        if top is not None and top.cards == _DRAGON:
            self.stats["dragon_gift_at_round_end"] += 1
            yield from self._dragon_gift(self.top_seat)
        else:
            self.piles[self.top_seat] |= self.trick
        self.trick = 0

    def _finish_six(self, team: list[int]) -> Generator[Event, None, list[int]]:
        """rules.md 9.2: card points into ``team``; the finish order of six seats."""
        if self.triple_victory:
            self.stats["triple_victory"] += 1
            winners = self.out[:3]
            team[winners[0] % 2] = 300
            return winners + [s for s in range(6) if s not in winners]
        last = next(s for s in range(6) if self.hands[s])
        yield from self._last_trick()
        piles = list(self.piles)
        # the fifth seat out gives its tricks to the first; the last seat's tricks and
        # hand cards go to the opposing team
        fifth = self.out[4]
        piles[self.out[0]] |= piles[fifth]
        piles[fifth] = 0
        team[(last + 1) % 2] += points(piles[last]) + points(self.hands[last])
        piles[last] = 0
        for s in range(6):
            team[s % 2] += points(piles[s])
        assert team[0] + team[1] == 100
        return [*self.out, last]

    # -- bot decisions ----------------------------------------------------------

    def _choose_wish(self, seat: int) -> int | None:
        rng = self.rng
        x = rng.random()
        if x < 0.2:
            return None
        if x < 0.65:
            # a rank given to an opponent: it binds that seat
            given = [
                RANK[c]
                for to, c in self.given[seat].items()
                if to % 2 != seat % 2 and 2 <= RANK[c] <= ACE
            ]
            if given:
                return rng.choice(given)
        return rng.randint(2, ACE)

    def _choose_lead(self, seat: int, leads: list[Combo]) -> Combo:
        rng = self.rng
        hand = self.hands[seat]
        for c in leads:
            if c.cards == hand:
                return c  # goes out
        partner_called = any(self.calls[p] is not None for p in self.partners[seat])
        if hand & _DOG:
            dog = [c for c in leads if c.cards == _DOG]
            if dog:
                p = 0.8 if partner_called else 0.3
                if rng.random() < p:
                    return dog[0]
        if hand & _MAHJONG:
            mahjong = [c for c in leads if c.cards & _MAHJONG]
            if mahjong and rng.random() < 0.7:
                return rng.choice(mahjong)
        plain = [c for c in leads if not c.is_bomb and c.cards != _DOG]
        bombs = [c for c in leads if c.is_bomb]
        if bombs and (not plain or rng.random() < 0.05):
            return rng.choice(bombs)
        if not plain:
            return leads[0]

        def cost(c: Combo) -> float:
            r = c.rank
            if c.cards == _PHOENIX:
                r = 13.0  # keep the Phoenix for later
            elif c.cards == _DRAGON:
                r = 16.0
            return r - 1.2 * c.length + rng.random() * 4

        return min(plain, key=cost)

    def _choose_follow(self, seat: int, hand: Mask, top: Combo) -> Combo | None:
        """A play on ``top`` or None (pass), for a seat the wish does not bind."""
        rng = self.rng
        n = hand.bit_count()
        may_go_out = n == top.length or (n >= 4 and _has_bomb(hand))
        partner_on_top = self.top_seat != seat and self.top_seat % 2 == seat % 2
        # a team with an opponent out plays on, to stop a double victory
        defending = any(not self.hands[s] for s in self.opponents[seat])
        if partner_on_top and not may_go_out and rng.random() < (0.4 if defending else 0.94):
            return None  # let the partner have it
        if top.kind == Kind.SINGLE and not self.bomb_held[seat] and not hand & _HIGH_SPECIALS:
            highest = hand & _NORMALS
            if not highest or RANK[highest.bit_length() - 1] <= top.rank:
                return None  # nothing beats the single (a shortcut; legal_plays agrees)
        options = legal_plays(hand, top)
        if not options:
            return None
        if may_go_out:
            for c in options:
                if c.cards == hand:
                    return c
        plain = [c for c in options if not c.is_bomb]
        if partner_on_top:
            return min(plain, key=lambda c: c.rank) if plain else None
        eager = defending or self.calls[seat] is not None
        if plain:
            c = min(plain, key=lambda c: c.rank)
            if rng.random() < 0.15:
                c = rng.choice(plain)
            high = c.kind == Kind.SINGLE and c.rank >= 14 and top.rank < 10
            if not eager and ((high and rng.random() < 0.5) or rng.random() < 0.1):
                return None
            if c.cards == _DRAGON and rng.random() < 0.4:
                return None  # keep the Dragon to go out with
            return c
        worth_a_bomb = top.rank >= 13 or top.length > 1 or top.is_bomb or defending
        if rng.random() < (0.35 if worth_a_bomb else 0.1):
            return min(options, key=lambda c: (c.kind, c.length, c.rank))
        return None
