"""The engine against ``tests/oracle_engine.py``: simulated games, each with one fault.

Every case is one simulated game (``tichu_analyze.sim.simulate``, legal) with at most one
fault injected deterministically from a seed: a pass dropped or added, two events
swapped, a play's or pass's seat changed, cards exchanged between two plays of a seat,
a bomb moved, a play or Dragon gift dropped, a gift redirected, a wish changed or moved,
a round_end's score or finish order changed. The engine's diagnostics, restricted to the
oracle's codes and to the lines the oracle judged, must equal the oracle's.

A larger campaign by hand (a few minutes)::

    .venv/bin/python tests/oracle_diff.py --cases 3000 --seed 1
    .venv/bin/python tests/oracle_diff.py --cases 1000 --faults 3
    .venv/bin/python tests/oracle_diff.py --cases 1000 --only random  # oracle_random.py
    .venv/bin/python tests/oracle_diff.py --cases 1000 --variant phoenix-in-bombs

``--variant`` (repeatable: the house rules of rules.md 9.1, ``tientsin``, ``trichu``, the
last not with ``--only random``) plays the games under it, named in
``game_start.variants`` (the simulator does not play ``phoenix-in-bombs``: its games are
then the publisher's, judged under the house rule, where a Phoenix straight of one suit
becomes a bomb; a trichu game lasts three rounds).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from oracle_combos import RANK_WORDS, SUIT_LETTERS, classify, rank_of, suit_of  # noqa: E402
from oracle_engine import CODES, HOUSE_RULES, Oracle  # noqa: E402

Event = dict
RANKS = list(RANK_WORDS)


def _play_indices(events: list[Event], kinds: tuple[str, ...] = ("play", "pass")) -> list[int]:
    return [i for i, e in enumerate(events) if e.get("type") in kinds]


def _phoenix_bombs(ev: list[Event]) -> bool:
    return "phoenix-in-bombs" in (ev[0].get("variants") or [])


def _seats(ev: list[Event]) -> int:
    return len(ev[0]["players"])  # 6 in tientsin


def _is_bomb(e: Event, phoenix_bombs: bool = False) -> bool:
    play = classify(e["cards"], phoenix_bombs=phoenix_bombs) if e.get("type") == "play" else None
    return play is not None and play.kind in ("four", "straight flush")


def drop_pass(ev: list[Event], rng: random.Random) -> str | None:
    idx = _play_indices(ev, ("pass",))
    if not idx:
        return None
    i = rng.choice(idx)
    del ev[i]
    return f"dropped the pass at event {i}"


def add_pass(ev: list[Event], rng: random.Random) -> str | None:
    idx = _play_indices(ev)
    if not idx:
        return None
    i = rng.choice(idx)
    seat = rng.randrange(_seats(ev))
    ev.insert(i, {"type": "pass", "game": ev[i]["game"], "seat": seat})
    return f"a pass by seat {seat} before event {i}"


def swap_adjacent(ev: list[Event], rng: random.Random) -> str | None:
    idx = [i for i in _play_indices(ev, ("play", "pass", "dragon_gift"))
           if i + 1 < len(ev) and ev[i + 1].get("type") in ("play", "pass", "dragon_gift")]
    if not idx:
        return None
    i = rng.choice(idx)
    ev[i], ev[i + 1] = ev[i + 1], ev[i]
    return f"swapped events {i} and {i + 1}"


def change_seat(ev: list[Event], rng: random.Random) -> str | None:
    idx = _play_indices(ev)
    if not idx:
        return None
    i = rng.choice(idx)
    old = ev[i]["seat"]
    ev[i]["seat"] = (old + rng.randrange(1, _seats(ev))) % _seats(ev)
    return f"event {i}'s seat {old} -> {ev[i]['seat']}"


def swap_cards(ev: list[Event], rng: random.Random) -> str | None:
    """A card of one play exchanged with a card of a later play of the same seat and round."""
    idx = _play_indices(ev, ("play",))
    rng.shuffle(idx)
    for i in idx[:20]:
        seat = ev[i]["seat"]
        later = []
        for j in range(i + 1, len(ev)):
            if ev[j].get("type") in ("round_end", "round_start"):
                break
            if ev[j].get("type") == "play" and ev[j]["seat"] == seat:
                later.append(j)
        if later:
            j = rng.choice(later)
            a, b = rng.randrange(len(ev[i]["cards"])), rng.randrange(len(ev[j]["cards"]))
            ev[i]["cards"][a], ev[j]["cards"][b] = ev[j]["cards"][b], ev[i]["cards"][a]
            for k in (i, j):
                ev[k].pop("phoenix", None)
                if "Mahjong" not in ev[k]["cards"]:
                    ev[k].pop("wish", None)
            return f"cards swapped between events {i} and {j}"
    return None


def move_bomb(ev: list[Event], rng: random.Random) -> str | None:
    idx = [i for i in _play_indices(ev, ("play",)) if _is_bomb(ev[i], _phoenix_bombs(ev))]
    if not idx:
        return None
    i = rng.choice(idx)
    e = ev.pop(i)
    j = max(0, min(len(ev) - 1, i + rng.choice((-3, -2, -1, 1, 2, 3))))
    ev.insert(j, e)
    return f"bomb at event {i} moved to {j}"


def drop_play(ev: list[Event], rng: random.Random) -> str | None:
    idx = _play_indices(ev, ("play",))
    i = rng.choice(idx)
    del ev[i]
    return f"dropped the play at event {i}"


def drop_gift(ev: list[Event], rng: random.Random) -> str | None:
    idx = _play_indices(ev, ("dragon_gift",))
    if not idx:
        return None
    i = rng.choice(idx)
    del ev[i]
    return f"dropped the gift at event {i}"


def redirect_gift(ev: list[Event], rng: random.Random) -> str | None:
    idx = _play_indices(ev, ("dragon_gift",))
    if not idx:
        return None
    i = rng.choice(idx)
    ev[i]["to"] = (ev[i]["to"] + rng.randrange(1, _seats(ev))) % _seats(ev)
    return f"gift at event {i} to {ev[i]['to']}"


def change_wish(ev: list[Event], rng: random.Random) -> str | None:
    idx = [i for i in _play_indices(ev, ("play",)) if "Mahjong" in ev[i]["cards"]]
    if not idx:
        return None
    i = rng.choice(idx)
    how = rng.randrange(4)
    if how == 0:
        ev[i].pop("wish", None)
    elif how == 1:
        ev[i]["wish"] = rng.choice(RANKS)
    elif how == 2:
        ev[i]["wish"] = rng.choice(("1", "Z", "Mahjong", "11"))
    else:
        wish = ev[i].pop("wish", rng.choice(RANKS))
        j = rng.choice(_play_indices(ev, ("play",)))
        if "Mahjong" not in ev[j]["cards"]:
            ev[j]["wish"] = wish
    return f"wish of event {i} changed ({how})"


def change_round_end(ev: list[Event], rng: random.Random) -> str | None:
    idx = _play_indices(ev, ("round_end",))
    i = rng.choice(idx)
    if rng.random() < 0.5:
        ev[i]["score"] = [ev[i]["score"][0] + rng.choice((-5, 5, 25, 100)), ev[i]["score"][1]]
    else:
        order = ev[i]["finish_order"]
        a, b = rng.sample(range(_seats(ev)), 2)
        order[a], order[b] = order[b], order[a]
    return f"round_end at event {i} changed"


def duplicate(ev: list[Event], rng: random.Random) -> str | None:
    idx = _play_indices(ev, ("pass", "dragon_gift"))
    if not idx:
        return None
    i = rng.choice(idx)
    ev.insert(i, dict(ev[i]))
    return f"event {i} doubled"


def change_phoenix(ev: list[Event], rng: random.Random) -> str | None:
    """The ``phoenix`` field of a play with the Phoenix set to another rank, or removed."""
    idx = [i for i in _play_indices(ev, ("play",))
           if "Phoenix" in ev[i]["cards"] and len(ev[i]["cards"]) > 1]
    if not idx:
        return None
    i = rng.choice(idx)
    if "phoenix" in ev[i] and rng.random() < 0.3:
        del ev[i]["phoenix"]
    else:
        ev[i]["phoenix"] = rng.choice(RANKS)
    return f"phoenix of event {i}: {ev[i].get('phoenix')}"


def add_call(ev: list[Event], rng: random.Random) -> str | None:
    """A Tichu or Grand Tichu call inserted anywhere in a round (in time, late, repeated)."""
    idx = [i for i, e in enumerate(ev) if e.get("type") not in ("game_start", "round_start")]
    i = rng.choice(idx)
    call = rng.choice(("tichu", "tichu", "grand_tichu"))
    seat = rng.randrange(_seats(ev))
    ev.insert(i, {"type": "call", "game": ev[i]["game"], "seat": seat, "call": call})
    return f"{call} by seat {seat} before event {i}"


def move_call(ev: list[Event], rng: random.Random) -> str | None:
    idx = _play_indices(ev, ("call",))
    if not idx:
        return None
    i = rng.choice(idx)
    j = max(1, min(len(ev) - 1, i + rng.randrange(-8, 30)))
    ev.insert(j, ev.pop(i))
    return f"call at event {i} moved to {j}"


def _round_of(ev: list[Event], i: int) -> tuple[int, int]:
    """The first and last index of the events of play of the round holding event ``i``."""
    a = i
    while a > 0 and ev[a - 1].get("type") in ("play", "pass", "dragon_gift", "call"):
        a -= 1
    b = i
    while b + 1 < len(ev) and ev[b + 1].get("type") in ("play", "pass", "dragon_gift", "call"):
        b += 1
    return a, b


def pull_forward(ev: list[Event], rng: random.Random) -> str | None:
    """A later play of a seat made earlier in its round (the seat holds those cards):
    out of turn, on the wrong top, a bomb on the Dog or before a lead, the Dog on a trick..."""
    idx = _play_indices(ev, ("play",))
    special = [i for i in idx if _is_bomb(ev[i], _phoenix_bombs(ev)) or ev[i]["cards"] == ["Dog"]]
    i = rng.choice(special if special and rng.random() < 0.5 else idx)
    a, _ = _round_of(ev, i)
    if a >= i:
        return None
    j = rng.randrange(max(a, i - 12), i)
    ev.insert(j, ev.pop(i))
    return f"play at event {i} pulled forward to {j}"


def push_back(ev: list[Event], rng: random.Random) -> str | None:
    """A play made later in its round, up to the round's end and past it."""
    i = rng.choice(_play_indices(ev, ("play",)))
    _, b = _round_of(ev, i)
    j = rng.randrange(i, min(b + 2, i + 12) + 1)
    ev.insert(min(j, len(ev) - 1), ev.pop(i))
    return f"play at event {i} pushed back to {j}"


class _Tracer(Oracle):
    """The oracle, noting the hands of the current round before every event."""

    def __init__(self) -> None:
        super().__init__()
        self.trace: list[list[set[str]] | None] = []

    def event(self, game: str, ev: dict, line: int) -> None:
        rnd = self.rounds.get(game)
        ok = rnd is not None and rnd.judging and rnd.phase == "play"
        self.trace.append([set(h) for h in rnd.hands] if ok and rnd is not None else None)
        super().event(game, ev, line)


def _hands_trace(ev: list[Event]) -> list[list[set[str]] | None]:
    """The hands (as the oracle replays them) before each event, None out of play."""
    tracer = _Tracer()
    tracer.run(json.dumps(e) for e in ev)
    return tracer.trace


def _bombs(hand: set[str], phoenix_bombs: bool = False) -> list[list[str]]:
    """Bombs of the hand: fours, one-suit runs (completed by the Phoenix under 9.1)."""
    out = []
    by_rank: dict[int, list[str]] = {}
    for c in hand:
        r = rank_of(c)
        if r is not None and r > 1:
            by_rank.setdefault(r, []).append(c)
    out += [cs for cs in by_rank.values() if len(cs) == 4]
    for suit in SUIT_LETTERS:
        ranks = sorted(rank_of(c) or 0 for c in hand if suit_of(c) == suit)
        run: list[int] = []
        for r in ranks:
            run = run + [r] if run and r == run[-1] + 1 else [r]
            if len(run) >= 5:
                out.append([next(c for c in hand if rank_of(c) == x and suit_of(c) == suit)
                            for x in run])
    if phoenix_bombs and "Phoenix" in hand:
        out += [cs[:3] + ["Phoenix"] for cs in by_rank.values() if len(cs) >= 3]
        for suit in SUIT_LETTERS:  # four of a suit in a window of five ranks, the gap filled
            have = {rank_of(c): c for c in hand if suit_of(c) == suit}
            for low in range(2, 11):
                window = [have.get(r) for r in range(low, low + 5)]
                if sum(c is None for c in window) == 1:
                    out.append([c or "Phoenix" for c in window])
    return out


def inject(ev: list[Event], rng: random.Random) -> str | None:
    """A play of cards a seat holds inserted at a random moment of a round: a bomb, a
    single, a pair, the Dog, the Phoenix, the Mahjong with a wish (the seat's own later
    play of those cards is then P001, which ends the comparison of that round)."""
    trace = _hands_trace(ev)
    idx = [i for i in _play_indices(ev, ("play", "pass", "dragon_gift")) if trace[i]]
    if not idx:
        return None
    i = rng.choice(idx)
    hands = trace[i]
    assert hands is not None
    seat = rng.choice([s for s in range(_seats(ev)) if hands[s]])
    hand = sorted(hands[seat])
    bombs = _bombs(hands[seat], _phoenix_bombs(ev))
    pairs = [[a, b] for a in hand for b in hand if a < b and rank_of(a) == rank_of(b)
             and rank_of(a) is not None]
    if bombs and rng.random() < 0.6:
        cards = rng.choice(bombs)
    elif pairs and rng.random() < 0.3:
        cards = rng.choice(pairs)
    else:
        cards = [rng.choice(hand)]
    play: Event = {"type": "play", "game": ev[i]["game"], "seat": seat, "cards": cards}
    if "Mahjong" in cards:
        play["wish"] = rng.choice(RANKS)
    ev.insert(i, play)
    return f"{cards} by seat {seat} inserted before event {i}"


def insert_bombs(ev: list[Event], rng: random.Random) -> str | None:
    """A bomb a seat holds, inserted where bombs matter: right after the Dog, right after
    another bomb (then a second one by another holder), or anywhere."""
    trace = _hands_trace(ev)
    moments = []
    for i in _play_indices(ev, ("play", "pass", "dragon_gift")):
        hands = trace[i]
        if hands is None:
            continue
        holders = [(s, b) for s in range(_seats(ev)) for b in _bombs(hands[s], _phoenix_bombs(ev))]
        if holders:
            after = ev[i - 1].get("type") == "play" and (ev[i - 1]["cards"] == ["Dog"]
                                                      or _is_bomb(ev[i - 1], _phoenix_bombs(ev)))
            moments.append((after, i, holders))
    if not moments:
        return None
    special = [m for m in moments if m[0]]
    _, i, holders = rng.choice(special if special and rng.random() < 0.7 else moments)
    seat, cards = rng.choice(holders)
    new = [{"type": "play", "game": ev[i]["game"], "seat": seat, "cards": cards}]
    others = [(s, b) for s, b in holders if s != seat]
    if others and rng.random() < 0.5:
        s2, cards2 = rng.choice(others)
        new.append({"type": "play", "game": ev[i]["game"], "seat": s2, "cards": cards2})
    ev[i:i] = new
    return f"bombs {[e['cards'] for e in new]} inserted before event {i}"


def bad_deal(ev: list[Event], rng: random.Random) -> str | None:
    """A deal that is not the deck split 8+6 (D001): a card moved to another hand or to
    the other deal, a card dealt twice, a hand emptied (D001 in tientsin)."""
    idx = _play_indices(ev, ("deal",))
    i = rng.choice(idx)
    hands = ev[i]["hands"]
    a, b = rng.sample(range(len(hands)), 2)
    how = rng.randrange(4)
    if how == 0:
        hands[b].append(hands[a].pop(rng.randrange(len(hands[a]))))
    elif how == 1:
        hands[a][rng.randrange(len(hands[a]))] = rng.choice(hands[b])
    elif how == 2:  # a card of this deal moved to the other deal of the round
        j = i + 1 if i + 1 < len(ev) and ev[i + 1].get("type") == "deal" else i - 1
        if j < 0 or ev[j].get("type") != "deal":
            return None
        ev[j]["hands"][a].append(hands[a].pop())
    elif rng.random() < 0.5:
        hands[a] = []
    else:
        hands[a].append(rng.choice(hands[a]))  # a card twice in one hand
    return f"deal at event {i} broken ({how})"


def bad_exchange(ev: list[Event], rng: random.Random) -> str | None:
    """An exchange that breaks X001 (to itself, to a seat it may not give to, a card it
    does not hold, one card twice, a seat left out) or is repeated (X002), or a missing one."""
    idx = _play_indices(ev, ("exchange",))
    i = rng.choice(idx)
    give = ev[i]["give"]
    seat, n = ev[i]["seat"], _seats(ev)
    how = rng.randrange(6)
    keys = list(give)
    if how == 0:
        give[str(seat)] = give.pop(rng.choice(keys))
    elif how == 1:  # a card another seat holds (the other deals of the round)
        other = [c for e in ev[max(0, i - 8):i] if e.get("type") == "deal"
                 for s, h in enumerate(e["hands"]) if s != seat for c in h]
        give[rng.choice(keys)] = rng.choice(other)
    elif how == 2:
        a, b = rng.sample(keys, 2)
        give[a] = give[b]
    elif how == 3:
        del give[rng.choice(keys)]
    elif how == 4:
        outside = [str(s) for s in range(n) if s != seat and str(s) not in give]
        if not outside:
            return None
        give[rng.choice(outside)] = give.pop(rng.choice(keys))
    else:  # repeated, right after or a few events later
        j = min(len(ev), i + rng.randrange(1, 5))
        ev.insert(j, json.loads(json.dumps(ev[i])))
        return f"exchange at event {i} repeated before event {j}"
    return f"exchange at event {i} broken ({how})"


def late_exchange(ev: list[Event], rng: random.Random) -> str | None:
    """An exchange moved after the first plays of its round (L007 there, the plays before
    it skipped), or left out (the round left unfinished: L008), or written again in play."""
    idx = _play_indices(ev, ("exchange",))
    i = rng.choice(idx)
    how = rng.randrange(3)
    if how == 1:
        del ev[i]
        return f"exchange at event {i} left out"
    j = min(len(ev) - 1, i + rng.randrange(2, 10))
    if how == 0:
        ev.insert(j, ev.pop(i))
        return f"exchange at event {i} moved to {j}"
    ev.insert(j, json.loads(json.dumps(ev[i])))
    return f"exchange at event {i} written again before event {j}"


def card_not_held(ev: list[Event], rng: random.Random) -> str | None:
    """A card of a play replaced by a card another seat holds (P001): the rest of the round
    is skipped without a word, also what its round_start would report."""
    trace = _hands_trace(ev)
    idx = [i for i in _play_indices(ev, ("play",)) if trace[i]]
    if not idx:
        return None
    i = rng.choice(idx)
    hands = trace[i]
    assert hands is not None
    seat = ev[i]["seat"]
    others = sorted(c for s, h in enumerate(hands) if s != seat for c in h)
    if not others:
        return None
    cards = ev[i]["cards"]
    cards[rng.randrange(len(cards))] = rng.choice(others)
    if len(set(cards)) != len(cards):
        return None
    return f"a card not held in the play at event {i}"


def calls(ev: list[Event], rng: random.Random) -> str | None:
    """A call where calls go wrong: a Grand Tichu after the second deal or in play, a Tichu
    after the seat's first play or before the second deal, a call repeated, a call after
    the round's end; in trichu a Grand Tichu by the solo player or the dummy."""
    idx = [i for i, e in enumerate(ev) if e.get("type") in ("deal", "play", "call", "round_end",
                                                        "exchange")]
    i = rng.choice(idx)
    e = ev[i]
    n = _seats(ev)
    if e.get("type") == "call":
        new = dict(e, call=rng.choice(("tichu", "grand_tichu")))
        ev.insert(i + rng.randrange(1, 4), new)
        return f"the call at event {i} repeated"
    if e.get("type") == "play":
        seat = e["seat"] if rng.random() < 0.7 else rng.randrange(n)
        call = "tichu" if rng.random() < 0.7 else "grand_tichu"
        ev.insert(i + rng.randrange(1, 3), {"type": "call", "game": e["game"], "seat": seat,
                                            "call": call})
        return f"{call} by seat {seat} after the play at event {i}"
    seat = rng.randrange(n)
    call = rng.choice(("tichu", "grand_tichu"))
    where = i + 1 if e.get("type") != "round_end" and rng.random() < 0.7 else i
    ev.insert(where, {"type": "call", "game": e["game"], "seat": seat, "call": call})
    return f"{call} by seat {seat} before event {where}"


def after_the_end(ev: list[Event], rng: random.Random) -> str | None:
    """After the play that ends a round (before its round_end or next round_start): a
    bomb, a play, a pass, a Dragon gift or a call (P009, G002/G003)."""
    ends = [i for i, e in enumerate(ev) if e.get("type") in ("round_end", "round_start")
            and i > 1 and ev[i - 1].get("type") in ("play", "dragon_gift", "pass")]
    if not ends:
        return None
    i = rng.choice(ends)
    game = ev[i]["game"]
    seat = rng.randrange(_seats(ev))
    prior = [e for e in ev[max(0, i - 30):i] if e.get("type") == "play" and e["seat"] == seat]
    kind = rng.randrange(4)
    if kind == 0 and prior:
        new: Event = {"type": "play", "game": game, "seat": seat, "cards": prior[-1]["cards"]}
    elif kind == 1:
        new = {"type": "pass", "game": game, "seat": seat}
    elif kind == 2:
        new = {"type": "dragon_gift", "game": game, "seat": seat,
               "to": (seat + rng.choice((1, 2, 3))) % _seats(ev)}
    else:
        new = {"type": "call", "game": game, "seat": seat, "call": "tichu"}
    ev.insert(i, new)
    return f"{new['type']} by seat {seat} after the round's end, before event {i}"


def no_combination(ev: list[Event], rng: random.Random) -> str | None:
    """A play turned into cards that form no combination (P002): a card of the seat's
    hand added to it (often of the wished rank, or the Mahjong with a wish); after the
    Dog, on a lead, on a trick."""
    trace = _hands_trace(ev)
    idx = [i for i in _play_indices(ev, ("play",)) if trace[i]]
    if not idx:
        return None
    dog = [i for i in idx
           if i > 0 and ev[i - 1].get("type") == "play" and ev[i - 1]["cards"] == ["Dog"]]
    i = rng.choice(dog if dog and rng.random() < 0.3 else idx)
    hands = trace[i]
    assert hands is not None
    seat = ev[i]["seat"]
    cards = ev[i]["cards"]
    rest = sorted(hands[seat] - set(cards))
    if not rest:
        return None
    extra = rng.choice(rest)
    new = cards + [extra]
    if classify(new, phoenix_bombs=_phoenix_bombs(ev)) is not None:
        new = cards + rng.sample(rest, min(2, len(rest)))
        if classify(new, phoenix_bombs=_phoenix_bombs(ev)) is not None:
            return None
    ev[i]["cards"] = new
    ev[i].pop("phoenix", None)
    if "Mahjong" in new and rng.random() < 0.7:
        ev[i]["wish"] = rng.choice(RANKS)
    return f"the play at event {i} made no combination: {new}"


def truncate(ev: list[Event], rng: random.Random) -> str | None:
    """The log cut in the middle of a round, or a round_end dropped (L008 where the log
    ends or the next round starts, or nothing when the round was over)."""
    idx = _play_indices(ev, ("play", "pass", "dragon_gift", "round_end"))
    i = rng.choice(idx)
    if ev[i].get("type") == "round_end" and rng.random() < 0.5:
        del ev[i]
        return f"round_end at event {i} dropped"
    end = ev[-1] if ev[-1].get("type") == "game_end" else None
    del ev[i:]
    if end is not None and rng.random() < 0.4:  # the game ended in the middle of a round
        ev.append(end)
        return f"game_end moved before event {i}"
    return f"log cut before event {i}"


def change_game_end(ev: list[Event], rng: random.Random) -> str | None:
    """The game's end recorded wrong (S003/S004): its score off, the game ended after an
    earlier round, or one more round (a copy of the last) played after the game was won."""
    idx = _play_indices(ev, ("game_end",))
    if not idx:
        return None
    i = idx[-1]
    end = ev[i]
    how = rng.randrange(4)
    if how == 0 and isinstance(end.get("score"), list):
        end["score"] = [end["score"][0] + rng.choice((-5, 5, 100)), end["score"][1]]
    elif how == 0 and isinstance(end.get("score"), dict):
        name = rng.choice(sorted(end["score"]))
        end["score"][name] += rng.choice((-5, 5, 100))
    elif how == 1:
        ends = [j for j in _play_indices(ev, ("round_end",)) if j < i - 1]
        if not ends:
            return None
        j = rng.choice(ends)
        del ev[j + 1:i]
        return f"game_end moved after the round_end at event {j}"
    elif how == 2:
        starts = _play_indices(ev, ("round_start",))
        last = ev[starts[-1]:i]
        copy = json.loads(json.dumps(last))
        copy[0]["round"] += 1
        for e in copy:
            if e.get("type") == "round_end":
                e["round"] += 1
        ev[i:i] = copy
        return f"round {last[0]['round']} played again after the game was won"
    else:
        end.pop("score", None)
    return f"game_end at event {i} changed ({how})"


def malform(ev: list[Event], rng: random.Random) -> str | None:
    """A field of a deal, exchange, call, play, pass or gift broken (L002/L003): a seat
    out of range or a string, an unknown card, a bad ``ts``, a call that is no call, a
    field left out. The event is skipped; a deal that is skipped skips its round."""
    idx = _play_indices(ev, ("deal", "exchange", "call", "play", "pass", "dragon_gift",
                             "round_end"))
    i = rng.choice(idx)
    e = ev[i]
    if e.get("type") == "round_end":  # a finish_order too short, a score of one team
        key = rng.choice(("finish_order", "score"))
        e[key] = e[key][:-1]
        return f"round_end at event {i}: {key} cut short"
    if rng.random() < 0.15:  # a line of no game: not JSON (L001), or no "game" (L002)
        ev.insert(i, rng.choice(({"__raw__": "{not json"}, {"type": "pass", "seat": 1},
                                 {"__raw__": "[1, 2]"})))
        return f"a line of no game before event {i}"
    how = rng.randrange(4)
    if how == 0:
        e["ts"] = rng.choice(("soon", None, [1]))
    elif how == 1 and "seat" in e:
        e["seat"] = rng.choice((str(e["seat"]), _seats(ev) + 1, -1, None))
    elif how == 2 and e.get("type") == "play" and rng.random() < 0.3:
        e["cards"] = rng.choice(([], e["cards"] + e["cards"][:1]))
    elif how == 2 and e.get("type") == "play":
        e["cards"][rng.randrange(len(e["cards"]))] = rng.choice(("1j", "Ph", "11s", "dragon"))
    elif how == 2 and e.get("type") == "deal":
        hand = rng.choice(e["hands"])
        hand[rng.randrange(len(hand))] = "Zz"
    elif how == 2 and e.get("type") == "exchange":
        e["give"][rng.choice(list(e["give"]))] = "Kx"
    elif how == 2 and e.get("type") == "call":
        e["call"] = "Tichu"
    elif how == 2 and e.get("type") == "dragon_gift":
        e["to"] = _seats(ev)
    else:
        field = {"deal": "hands", "exchange": "give", "call": "call", "play": "cards"}.get(
            e.get("type"), "seat")
        del e[field]
    return f"event {i} ({e['type']}) broken ({how})"


def drop_round_start(ev: list[Event], rng: random.Random) -> str | None:
    """A round_start (not the first) left out or unreadable (L002: a number that is no
    number; in trichu no ``dummy``; elsewhere a ``dummy``): its deal then comes after the
    round ended (L007), and the round is skipped. Or its number off (L007), or the line
    written twice later in its round."""
    idx = _play_indices(ev, ("round_start",))[1:]
    if not idx:
        return None
    i = rng.choice(idx)
    how = rng.randrange(5)
    if how == 0:
        del ev[i]
    elif how == 1:
        ev[i]["round"] = str(ev[i]["round"])
    elif how == 3:  # a number that does not follow (L007), or the line written twice
        ev[i]["round"] += rng.choice((1, 2, -1))
    elif how == 4:
        j = min(len(ev) - 1, i + rng.randrange(1, 40))
        ev.insert(j, dict(ev[i]))
        return f"round_start at event {i} repeated before event {j}"
    elif "dummy" in ev[i]:
        del ev[i]["dummy"]
    else:
        ev[i]["dummy"] = 0
    return f"round_start at event {i} dropped or broken ({how})"


MUTATIONS: list[Callable[[list[Event], random.Random], str | None]] = [
    drop_pass, add_pass, swap_adjacent, change_seat, swap_cards, move_bomb, drop_play,
    drop_gift, redirect_gift, change_wish, change_round_end, duplicate, pull_forward,
    pull_forward, push_back, inject, inject, insert_bombs, change_phoenix, add_call,
    move_call, bad_deal, bad_exchange, card_not_held, calls, after_the_end, no_combination,
    no_combination, truncate, change_game_end, malform, drop_round_start, late_exchange,
]


def make_case(seed: int, only: str | None = None, faults: int = 1,
              variants: tuple[str, ...] = ()) -> tuple[str, str]:
    """The log text of case ``seed`` and what was done to it (case 0 of 8 is legal);
    ``only``: always that mutation; ``faults``: how many; ``variants``: house rules of
    rules.md 9.1 the game is played under (named in its ``game_start``)."""
    from tichu_analyze.sim.simulate import simulate

    if only == "random":
        from oracle_random import random_game

        return random_game(seed, variants=variants), "random game"
    played = [v for v in variants if v != "phoenix-in-bombs"]  # (not simulated)
    events = [json.loads(json.dumps(e))
              for e in simulate(1, seed, target=3 if "trichu" in variants else 500,
                                variants=played)]
    if variants:
        events[0]["variants"] = sorted(variants)
    rng = random.Random(seed)
    what = "legal"
    chosen = [m for m in MUTATIONS if m.__name__ == only] if only else MUTATIONS
    done_all = []
    for _ in range(faults if seed % 8 or only else 0):
        for _ in range(10):
            mutation = rng.choice(chosen)
            before = json.loads(json.dumps(events))
            try:
                done = mutation(events, rng)
            except (IndexError, KeyError, TypeError, ValueError, AttributeError):
                # nothing of its kind left (after truncate), a field broken by malform
                done, events = None, before
            if done:
                done_all.append(f"{mutation.__name__}: {done}")
                break
    what = "; ".join(done_all) or what
    text = "".join((e["__raw__"] if "__raw__" in e else json.dumps(e, separators=(",", ":")))
                   + "\n" for e in events)
    return text, what


def engine(path: Path) -> list[tuple[str, int]]:
    from tichu_analyze.core.visitor import DiagnosticVisitor
    from tichu_analyze.readers.logfile import replay_file

    found: list = []
    replay_file(path, DiagnosticVisitor(found.append))
    return sorted((d.code, d.line) for d in found)


def compare(path: Path, stats: Counter[str] | None = None
            ) -> tuple[list[tuple[str, int]], list[tuple[str, int]], int]:
    """(engine's, oracle's) diagnostics on the judged lines, and how many lines were
    judged; ``stats`` counts the rounds judged to their end or skipped after a fatal
    code, and why the oracle gave up on the others."""
    oracle = Oracle()
    oracle.details = stats is not None
    oracle.run(path.read_text(encoding="utf-8").split("\n"))
    expected, judged = oracle.diagnostics, oracle.judged
    if stats is not None:
        for rnd in oracle.all_rounds:
            if rnd in oracle.games.values():
                continue  # (where the game's S003/S004 are kept)
            stats.update({f"seen: {k}": v for k, v in rnd.seen.items()})
            state = ("skipped (a fatal code, no exchange, no round_start)" if rnd.skipping
                     else f"gave up: {rnd.why}" if rnd.why
                     else "judged to the end" if rnd.judging else "not judged")
            stats["rounds: " + state] += 1
    found = engine(path)
    got = [d for d in found if d[0] in CODES and d[1] in judged]
    return got, sorted(expected), len(judged)


def campaign(cases: int, seed: int, out: Path | None, log: Callable[[str], None] = print,
             only: str | None = None, faults: int = 1,
             variants: tuple[str, ...] = (), show_stats: bool = False
             ) -> list[tuple[int, str]]:
    differ = []
    stats: Counter[str] = Counter()
    detail: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="oracle-") as tmp:
        for n in range(seed, seed + cases):
            text, what = make_case(n, only, faults, variants)
            path = Path(tmp) / f"case{n}.jsonl"
            path.write_text(text, encoding="utf-8")
            got, expected, judged = compare(path, detail)
            stats["lines judged"] += judged
            stats["lines"] += text.count("\n")
            stats.update(code for code, _ in expected)
            detail.update("mutation: " + m.split(":")[0] for m in what.split("; "))
            detail.update(f"cases with {code}" for code in {c for c, _ in expected})
            if got != expected:
                differ.append((n, what))
                log(f"case {n} ({what}): engine {sorted(set(got) - set(expected))}, "
                    f"oracle {sorted(set(expected) - set(got))}")
                if out is not None:
                    out.mkdir(parents=True, exist_ok=True)
                    (out / f"case{n}.jsonl").write_text(text, encoding="utf-8")
    log(f"{cases} cases, {len(differ)} differ; {dict(sorted(stats.items()))}")
    if show_stats:
        never = sorted(CODES - {k.split()[-1] for k in detail if k.startswith("cases with")})
        for key, count in sorted(detail.items()):
            log(f"  {count:7d}  {key}")
        log(f"  codes of the oracle never reported: {' '.join(never) or '-'}")
    return differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path, default=None, help="write differing cases here")
    parser.add_argument("--only", choices=[m.__name__ for m in MUTATIONS] + ["random"],
                        default=None, help="always this mutation, or random games "
                        "(tests/oracle_random.py)")
    parser.add_argument("--faults", type=int, default=1, help="faults per game")
    parser.add_argument("--variant", action="append", default=[],
                        choices=sorted(HOUSE_RULES | {"tientsin", "trichu"}),
                        help="a house rule of rules.md 9.1, tientsin or trichu (repeatable)")
    parser.add_argument("--stats", action="store_true",
                        help="print how often each mutation ran and each code was reported, "
                        "and how each round ended for the oracle (judged, skipped after a "
                        "fatal code, or why it gave up)")
    args = parser.parse_args(argv)
    differ = campaign(args.cases, args.seed, args.save, only=args.only, faults=args.faults,
                      variants=tuple(args.variant), show_stats=args.stats)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
