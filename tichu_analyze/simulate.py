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
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Generator, Iterator
from typing import Any

from .cards import (
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
from .combos import Combo, Kind, beats, bombs_in, can_play_rank, classify, legal_plays

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
"""Names the simulated players are drawn from (four per game)."""

TARGET = 1000
"""Score that ends a simulated game."""

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
             players: int | None = None) -> Iterator[Event]:
    """Play ``games`` games between bots and yield their format-1 log events.

    Game ids are ``"sim-<seed>-<n>"`` for n = 1..games; games follow one
    another (no interleaving). ``target`` is ``TARGET``; every event has a
    ``ts`` from a simulated clock that starts at ``START_TS``. If given,
    ``stats`` counts the rule features the bots exercised (out-of-turn bombs,
    wishes that bound a seat, Dog leads with the partner out, ...), keyed by
    short names; it does not change the events. ``players`` draws each game's four
    names from a pool of that many (``player-00001``, ...) instead of :data:`PLAYERS`.
    """
    if players is not None and players < 4:
        raise ValueError("a pool of players needs at least 4 names")
    pool = list(PLAYERS) if players is None else [f"player-{i:05d}" for i in range(1, players + 1)]
    rng = random.Random(seed)
    clock = _Clock(rng)
    counter: Counter[str] = stats if stats is not None else Counter()
    for n in range(1, games + 1):
        yield from _game(rng, clock, counter, f"sim-{seed}-{n}", seed, pool)


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
    pool: list[str],
) -> Iterator[Event]:
    players = rng.sample(pool, 4)
    yield {
        "type": "game_start",
        "game": game,
        "players": players,
        "target": TARGET,
        "meta": {"source": "tichu_analyze.simulate", "seed": seed},
        "ts": clock.tick("game_start"),
    }
    stats["games"] += 1
    totals = [0, 0]
    for number in range(1, MAX_ROUNDS + 1):
        round_ = _Round(rng, clock, stats, game, number)
        yield from round_.run()
        totals[0] += round_.score[0]
        totals[1] += round_.score[1]
        # rules.md 7.6: a team has reached the target and the teams are not level
        if max(totals) >= TARGET and totals[0] != totals[1]:
            yield {
                "type": "game_end",
                "game": game,
                "score": list(totals),
                "ts": clock.tick("game_end"),
            }
            return
    stats["games_capped"] += 1


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
        self, rng: random.Random, clock: _Clock, stats: Counter[str], game: str, number: int
    ) -> None:
        self.rng = rng
        self.clock = clock
        self.stats = stats
        self.game = game
        self.number = number
        self.hands: list[Mask] = [0, 0, 0, 0]
        self.piles: list[Mask] = [0, 0, 0, 0]
        self.calls: list[str | None] = [None, None, None, None]
        self.played = [False, False, False, False]
        self.late_call = [False, False, False, False]
        self.bomb_held = [False, False, False, False]
        self.given: list[dict[int, int]] = [{}, {}, {}, {}]
        self.out: list[int] = []
        self.wish: int | None = None
        self.wisher = -1
        self.top: Combo | None = None
        self.top_seat = -1
        self.trick: Mask = 0
        self.passed = [False, False, False, False]
        self.turn = 0
        self.over = False
        self.double_victory = False
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
        yield self._event("round_start", round=self.number)
        deck = list(range(56))
        rng.shuffle(deck)
        first = [sum(BIT[c] for c in deck[8 * s : 8 * s + 8]) for s in range(4)]
        second = [sum(BIT[c] for c in deck[32 + 6 * s : 38 + 6 * s]) for s in range(4)]
        yield self._event("deal", hands=[tokens_of(h) for h in first])
        # rules.md 1.2: Grand Tichu on the first 8 cards
        for seat in range(4):
            threshold = 6.6 if self.calls[(seat + 2) % 4] is None else 9.0
            if _strength(first[seat]) + rng.random() * 2.0 >= threshold:
                yield self._call(seat, "grand_tichu")
        yield self._event("deal", hands=[tokens_of(h) for h in second])
        self.hands = [first[s] | second[s] for s in range(4)]
        self.stats["rounds"] += 1
        yield from self._exchange_phase()
        yield from self._play_phase()
        yield from self._finish()

    def _wants_tichu(self, seat: int, bar: float) -> bool:
        if self.calls[seat] is not None:
            return False
        partner_called = self.calls[(seat + 2) % 4] is not None
        if partner_called and self.rng.random() < 0.85:
            return False
        return _strength(self.hands[seat]) + self.rng.random() * 2.5 >= bar

    def _exchange_phase(self) -> Iterator[Event]:
        rng = self.rng
        # Tichu on the 14 cards (rules.md 1.3): called before, during or after the
        # exchange, or late, just before the seat's first play
        timing: list[str | None] = [None, None, None, None]
        for seat in range(4):
            if self._wants_tichu(seat, 7.6):
                timing[seat] = rng.choices(("before", "during", "after", "late"), (5, 2, 2, 2))[0]
                if timing[seat] == "before":
                    yield self._call(seat, "tichu")
        during_at = [rng.randrange(3) for _ in range(4)]  # after which exchange event
        gives = [self._choose_gifts(seat, timing[seat] is not None) for seat in range(4)]
        order = [0, 1, 2, 3]
        if rng.random() < 0.3:
            rng.shuffle(order)  # the four exchanges are simultaneous: any order
        for i, seat in enumerate(order):
            give = gives[seat]
            self.given[seat] = give
            yield self._event(
                "exchange", seat=seat, give={str(to): TOKENS[c] for to, c in sorted(give.items())}
            )
            for caller in range(4):
                if timing[caller] == "during" and during_at[caller] == i:
                    self.stats["tichu_during_exchange"] += 1
                    yield self._call(caller, "tichu")
        for seat in range(4):
            for to, card in gives[seat].items():
                self.hands[seat] &= ~BIT[card]
                self.hands[to] |= BIT[card]
        for seat in range(4):
            # the cards received may make a hand worth a call
            if timing[seat] is None and self._wants_tichu(seat, 8.6):
                timing[seat] = "after" if rng.random() < 0.5 else "late"
            if timing[seat] == "after":
                yield self._call(seat, "tichu")
            elif timing[seat] == "late":
                self.late_call[seat] = True

    def _choose_gifts(self, seat: int, calling: bool) -> dict[int, int]:
        """One card to each other seat (rules.md 1.4)."""
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

    # -- play -----------------------------------------------------------------

    def _next_active(self, seat: int) -> int:
        """The next seat after ``seat`` that still holds cards (possibly ``seat``)."""
        for i in range(1, 5):
            s = (seat + i) % 4
            if self.hands[s]:
                return s
        raise AssertionError("no seat holds cards")

    def _trick_complete(self) -> bool:
        """rules.md 2.4: every other seat still holding cards passed after the last play."""
        return all(self.passed[s] for s in range(4) if s != self.top_seat and self.hands[s])

    def _play_phase(self) -> Generator[Event, None, None]:
        self.bomb_held = [_has_bomb(h) for h in self.hands]
        # rules.md 2.1: the Mahjong's holder leads the first trick
        self.turn = next(s for s in range(4) if self.hands[s] & _MAHJONG)
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
            seats = [s for s in range(4) if s not in excluded and self.bomb_held[s]]
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
            elif self.top_seat == (bomber + 2) % 4:
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
        self.passed = [False, False, False, False]
        # rules.md 2.4: the winner leads, or the next seat that still has cards
        self.turn = winner if self.hands[winner] else self._next_active(winner)

    def _dragon_gift(self, winner: int) -> Iterator[Event]:
        left, right = (winner + 1) % 4, (winner + 3) % 4
        if self.rng.random() < 0.5:
            # give it to the opponent who seems least likely to go out first
            to = left if self.hands[left].bit_count() >= self.hands[right].bit_count() else right
        else:
            to = left if self.rng.random() < 0.5 else right
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
        self.passed = [False, False, False, False]
        if not self.hands[seat]:
            self.out.append(seat)
            if len(self.out) == 2 and self.out[0] % 2 == self.out[1] % 2:
                self.over = True  # 7.2 double victory
                self.double_victory = True
                return
            if len(self.out) == 3:
                self.over = True  # 7.3
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

    def _finish(self) -> Iterator[Event]:
        """Round end and scoring, rules.md section 7."""
        team = [0, 0]
        if self.double_victory:
            self.stats["double_victory"] += 1
            winners = self.out[:2]
            order = winners + [s for s in range(4) if s not in winners]
            team[winners[0] % 2] = 200
        else:
            last = next(s for s in range(4) if self.hands[s])
            order = self.out + [last]
            top = self.top
            # 7.3: the trick in progress goes to the seat that made its last play
            if top is not None and top.cards == _DRAGON:
                self.stats["dragon_gift_at_round_end"] += 1
                yield from self._dragon_gift(self.top_seat)
            else:
                self.piles[self.top_seat] |= self.trick
            self.trick = 0
            piles = list(self.piles)
            piles[self.out[0]] |= piles[last]
            piles[last] = 0
            for s in range(4):
                team[s % 2] += points(piles[s])
            team[(last + 1) % 2] += points(self.hands[last])
            assert team[0] + team[1] == 100
        for s in range(4):
            call = self.calls[s]
            if call is not None:
                bonus = 200 if call == "grand_tichu" else 100
                team[s % 2] += bonus if order[0] == s else -bonus
                self.stats[call + ("_made" if order[0] == s else "_failed")] += 1
        self.score = team
        yield self._event("round_end", round=self.number, finish_order=order, score=list(team))

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
        partner = (seat + 2) % 4
        if hand & _DOG:
            dog = [c for c in leads if c.cards == _DOG]
            if dog:
                p = 0.8 if self.calls[partner] is not None else 0.3
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
        partner_on_top = self.top_seat == (seat + 2) % 4
        # a team with an opponent out plays on, to stop a double victory
        defending = any(not self.hands[s] for s in ((seat + 1) % 4, (seat + 3) % 4))
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
