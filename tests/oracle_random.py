"""Random games for the differential test, steered by the oracle's own state.

``tichu_analyze.sim.simulate`` plays sensible games: bombs are rare, the wish is mostly
honoured, nobody bombs the Dog. These games reach the corners instead: deals rich in
bombs, plays chosen at random among the legal ones (wish or not), bombs out of turn,
and now and then a move by the wrong seat, a pass by the leader, the Dog on a trick, a
Dragon gift to the wrong seat or none, a call at any time, a round_end that is off.
Each event is fed to an :class:`~oracle_engine.Oracle` as it is written, so the next
one is chosen from the state the oracle holds; the engine then judges the log on its own.
Under the house rules of rules.md 9.1 and in ``tientsin`` (six seats, 9.2) too: Phoenix
bombs are played under ``phoenix-in-bombs``; the Dog is led more often under
``dog-can-be-bombed`` and in ``tientsin``.
"""

from __future__ import annotations

import json
import random
from itertools import combinations

from oracle_combos import ALL_TOKENS, RANK_WORDS, legal, rank_of
from oracle_engine import Oracle, Round, result

RANKS = list(RANK_WORDS)


def _deal(rng: random.Random, seats: int = 4) -> list[list[str]]:
    """14 cards a seat (in tientsin 10 to two seats, 9 to the others), often with a four
    of a kind or a run of one suit for someone."""
    deck = list(ALL_TOKENS)
    rng.shuffle(deck)
    sizes = [14] * 4 if seats == 4 else rng.sample([10, 10, 9, 9, 9, 9], 6)
    hands: list[list[str]] = [[] for _ in range(seats)]
    for seat in range(seats):
        if rng.random() < 0.5:
            word = rng.choice(RANKS)
            if rng.random() < 0.6:
                want = [word + s for s in "jspr"]
            else:
                start = rng.randrange(2, 10)
                suit = rng.choice("jspr")
                want = [w + suit for w in RANKS[start - 2:start + 3]]
            want = [c for c in want if c in deck]
            for c in want[:sizes[seat] - len(hands[seat])]:
                deck.remove(c)
                hands[seat].append(c)
    for seat in range(seats):
        while len(hands[seat]) < sizes[seat]:
            hands[seat].append(deck.pop())
    return hands


def _candidates(hand: set[str]) -> list[list[str]]:
    """Combinations the hand may form (not all of them: enough to choose from)."""
    cards = sorted(hand, key=lambda c: (rank_of(c) or 0, c))
    out = [[c] for c in cards]
    for k in (2, 3, 4):
        out += [list(s) for s in combinations(cards, k)
                if len({rank_of(c) for c in s if c != "Phoenix"}) == 1]
    by_rank: dict[int, list[str]] = {}
    for c in cards:
        r = rank_of(c)
        if r is not None:
            by_rank.setdefault(r, []).append(c)
    for start in range(1, 11):  # straights (one card a rank), the Phoenix in one gap
        for length in range(5, 15 - start + 1):
            run = [by_rank.get(r) for r in range(start, start + length)]
            gaps = [i for i, g in enumerate(run) if not g]
            if len(gaps) > 1 or gaps and "Phoenix" not in hand:
                continue
            out.append([g[0] if g else "Phoenix" for g in run])
            out.append([g[-1] if g else "Phoenix" for g in run])
            for suit in "jspr":  # of one suit (a straight flush under phoenix-in-bombs)
                one = [next((c for c in g if c.endswith(suit)), None) if g else "Phoenix"
                       for g in run]
                if None not in one and (gaps or "Phoenix" in hand and length == 5):
                    out.append([c for c in one if c is not None])
    for a in by_rank:  # full houses and stairs of two or three pairs
        if len(by_rank[a]) >= 3:
            out += [by_rank[a][:3] + by_rank[b][:2] for b in by_rank
                    if b != a and len(by_rank[b]) >= 2]
        for n in (2, 3):
            pairs = [by_rank.get(a + i, []) for i in range(n)]
            if all(len(p) >= 2 for p in pairs):
                out.append([c for p in pairs for c in p[:2]])
    return out


class RandomGame:
    def __init__(self, seed: int, rounds: int = 3, variants: tuple[str, ...] = ()) -> None:
        self.rng = random.Random(seed)
        self.variants = sorted(variants)
        self.phoenix_bombs = "phoenix-in-bombs" in variants
        self.n = 6 if "tientsin" in variants else 4  # seats
        self.trichu = "trichu" in variants  # 9.3: round r's dummy at seat (r - 1) % 4
        # the Dog led more often: bombs on it, and in tientsin the lead to either partner
        self.dog_bombs = "dog-can-be-bombed" in variants or "tientsin" in variants
        self.game = f"rnd-{seed}"
        self.oracle = Oracle()
        self.lines: list[str] = []
        self.rounds = rounds

    def emit(self, ev: dict) -> None:
        ev = {"type": ev.pop("type"), "game": self.game, **ev}
        self.lines.append(json.dumps(ev, separators=(",", ":")))
        self.oracle.event(self.game, ev, len(self.lines))

    @property
    def rnd(self) -> Round:
        rnd = self.oracle.rounds[self.game]
        assert rnd is not None
        return rnd

    def play(self) -> str:
        names = ["Ana", "Ben", "Chloe", "Dev", "Eve", "Finn"]
        start: dict = {"type": "game_start", "players": names[:self.n]}
        if self.variants:
            start["variants"] = self.variants
        if self.trichu:
            start["players"], start["target"] = self.seating(1), 3 * (self.rounds // 3 or 1)
        self.emit(start)
        for number in range(1, self.rounds + 1):
            rs: dict = {"type": "round_start", "round": number}
            if self.trichu:
                rs["players"], rs["dummy"] = self.seating(number), (number - 1) % 4
            self.emit(rs)
            self.one_round(number)
        return "\n".join(self.lines) + "\n"

    def seating(self, number: int) -> list[str]:
        """trichu: three persons and the dummy Tisch, at seat (number - 1) % 4."""
        names = ["Ana", "Ben", "Chloe"]
        names = names[number % 3:] + names[:number % 3]
        names.insert((number - 1) % 4, "Tisch")
        return names

    def one_round(self, number: int) -> None:
        rng = self.rng
        n = self.n
        hands = _deal(rng, n)
        first = 8 if n == 4 else 6
        self.emit({"type": "deal", "hands": [h[:first] for h in hands]})
        for seat in range(n):
            if rng.random() < 0.1:
                self.emit({"type": "call", "seat": seat, "call": "grand_tichu"})
        self.emit({"type": "deal", "hands": [h[first:] for h in hands]})
        for seat in range(n):
            others = [s for s in range(n) if s != seat and (n == 4 or s % 2 == seat % 2)
                      and (not self.trichu or s % 2 != seat % 2)]
            give = rng.sample(hands[seat], len(others))
            self.emit({"type": "exchange", "seat": seat,
                       "give": {str(s): c for s, c in zip(others, give, strict=True)}})
        for _ in range(400):
            rnd = self.rnd
            if not rnd.judging:
                return  # the oracle stopped judging: this round is done with
            if rnd.phase == "over":
                break
            self.step(rnd)
        rnd = self.rnd
        if not rnd.judging or rnd.phase != "over":
            return
        if rnd.gift_owed is not None and rng.random() < 0.9:
            self.gift(rnd)
        if rng.random() < 0.1:
            self.emit({"type": "pass", "seat": rng.randrange(self.n)})  # after the end: P009
        rnd = self.rnd
        if rnd.judging and rng.random() < 0.9:
            order, score = result(rnd) if rnd.gift_owed is None else ([0, 1, 2, 3], [0, 0])
            if rng.random() < 0.15:
                score = [score[0] + 5, score[1]]
            if rng.random() < 0.1:
                order = order[1:2] + order[:1] + order[2:]
            self.emit({"type": "round_end", "round": number, "finish_order": order,
                       "score": score})

    def gift(self, rnd: Round) -> None:
        seat = rnd.gift_owed
        assert seat is not None
        to = (seat + self.rng.choice((1, 3, 1, 3, 1, 3, 2, 0) if self.n == 4
                                     else (1, 3, 5, 1, 3, 5, 2, 4, 0))) % self.n
        self.emit({"type": "dragon_gift", "seat": seat, "to": to})

    def step(self, rnd: Round) -> None:
        rng = self.rng
        n = self.n
        holding = [s for s in range(n) if rnd.hands[s]]
        x = rng.random()
        if x < 0.02:
            self.emit({"type": "call", "seat": rng.randrange(n), "call": "tichu"})
            return
        if x < 0.06:  # a wrong seat, or a wrong move
            seat, y = rng.choice(holding if rng.random() < 0.8 else range(n)), rng.random()
            if y < 0.35 or not rnd.hands[seat]:
                self.emit({"type": "pass", "seat": seat})
            elif y < 0.45:
                self.emit({"type": "dragon_gift", "seat": seat, "to": rng.randrange(n)})
            elif y < 0.6 and len(rnd.hands[seat]) >= 2:  # cards that form no combination
                hand = sorted(rnd.hands[seat])
                wished = [c for c in hand if rnd.wish is not None and rank_of(c) == rnd.wish]
                cards = rng.sample(hand, 2)
                if wished and rng.random() < 0.5:
                    cards = [wished[0], rng.choice([c for c in hand if c != wished[0]])]
                if not legal(cards, None, self.phoenix_bombs):
                    self.emit({"type": "play", "seat": seat, "cards": cards})
                    return
                self.emit({"type": "pass", "seat": seat})
            else:
                ev = {"type": "play", "seat": seat,
                      "cards": rng.choice(_candidates(rnd.hands[seat]))}
                if y < 0.55:
                    ev["wish"] = rng.choice(RANKS + ["1", "B", 8])
                self.emit(ev)
            return
        if rnd.gift_owed is not None and rng.random() < 0.9:
            self.gift(rnd)
            return
        if (x < 0.12 or rnd.table == "dog" and x < (0.8 if self.dog_bombs else 0.4)
                or rnd.table == "complete" and x < 0.3):  # (after everyone passed)
            # a bomb by anyone holding one
            # (on the Dog, before a lead: B003, B002)
            pb = self.phoenix_bombs
            bombs = [(s, c) for s in holding for c in _candidates(rnd.hands[s])
                     if len(c) >= 4 and legal(c, None, pb) and legal(c, None, pb)[0].kind
                     in ("four", "straight flush")]
            if bombs:
                seat, cards = rng.choice(bombs)
                self.emit({"type": "play", "seat": seat, "cards": cards})
                return
        if rnd.table == "trick":
            seat, top = rnd.turn, rnd.top
        elif rnd.table == "dog" and rnd.dog_leaders:  # tientsin: either partner
            seat, top = rng.choice(sorted(rnd.dog_leaders)), None
        else:
            seat, top = rnd.leader, None
        hand = rnd.hands[seat]
        options = [c for c in _candidates(hand) if legal(c, top, self.phoenix_bombs)]
        if top is None and self.dog_bombs and "Dog" in hand and rng.random() < 0.4:
            options = [["Dog"]]
        elif top is None:
            options = [c for c in options if c != ["Dog"] or rng.random() < 0.3]
        if "Dragon" in hand and len(hand) > 1 and rng.random() < 0.97:
            # the Dragon kept for last: rounds that end on a Dragon trick (7.3, 5.4)
            kept = [c for c in options if c != ["Dragon"]]
            options = kept if kept or top is not None else options
        wished = [c for c in options if rnd.wish is not None
                  and any(rank_of(t) == rnd.wish for t in c)]
        if wished and rng.random() < 0.85:
            options = wished
        if top is not None and (not options or rng.random() < 0.35):
            self.emit({"type": "pass", "seat": seat})
            return
        if not options:
            options = [[c] for c in hand]
        cards = rng.choice(options)
        ev: dict = {"type": "play", "seat": seat, "cards": cards}
        if "Mahjong" in cards and rng.random() < 0.8:
            ev["wish"] = rng.choice(RANKS)
        if "Phoenix" in cards and len(cards) > 1 and rng.random() < 0.3:
            ev["phoenix"] = rng.choice(RANKS)
        self.emit(ev)


def random_game(seed: int, rounds: int = 3, variants: tuple[str, ...] = ()) -> str:
    """The text of a random game (see the module's docstring), under the house rules
    ``variants`` (rules.md 9.1)."""
    return RandomGame(seed, rounds, variants).play()
