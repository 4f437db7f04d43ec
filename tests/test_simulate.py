"""The game simulator: reproducible, well-formed, legal logs that exercise every rule.

The engine cross-check (replay the simulated games, expect no error) lives with
the replay tests; here the logs are checked from the events alone, with a small
independent tracker of hands, turns and tricks.
"""

from __future__ import annotations

import ast
import gzip
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tichu_analyze.core.cards import CARD_BY_TOKEN, RANK_BY_TOKEN, TOKENS, mask_of
from tichu_analyze.core.combos import classify
from tichu_analyze.readers.logfile import write_log
from tichu_analyze.sim import simulate as sim
from tichu_analyze.sim.simulate import simulate

SEED = 2024
GAMES = 50

Event = dict[str, Any]


@pytest.fixture(scope="module")
def run() -> tuple[list[Event], Counter[str]]:
    stats: Counter[str] = Counter()
    events = list(simulate(GAMES, SEED, stats=stats))
    return events, stats


@pytest.fixture(scope="module")
def events(run: tuple[list[Event], Counter[str]]) -> list[Event]:
    return run[0]


def _rounds(events: list[Event]) -> list[list[Event]]:
    """The events of each round, from its round_start to its round_end."""
    rounds: list[list[Event]] = []
    for e in events:
        if e["type"] == "round_start":
            rounds.append([])
        if rounds and e["type"] not in ("game_start", "game_end"):
            rounds[-1].append(e)
    return rounds


def _call_bonus(round_events: list[Event]) -> list[int]:
    end = round_events[-1]
    first_out = end["finish_order"][0]
    bonus = [0, 0]
    for e in round_events:
        if e["type"] == "call":
            value = 200 if e["call"] == "grand_tichu" else 100
            bonus[e["seat"] % 2] += value if e["seat"] == first_out else -value
    return bonus


def _is_double_victory(end: Event) -> bool:
    order = end["finish_order"]
    return bool(order[0] % 2 == order[1] % 2)


# --- independence ---------------------------------------------------------------


def test_simulator_does_not_use_the_replay_engine() -> None:
    """The simulator is a second implementation of the rules: only cards and combos."""
    tree = ast.parse(Path(sim.__file__).read_text(encoding="utf-8"))
    local = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level}
    assert local <= {"core.cards", "core.combos"}
    absolute = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names} | {
        n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level
    }
    assert not any(str(m).startswith("tichu_analyze") for m in absolute)


# --- reproducibility ----------------------------------------------------------


def test_same_seed_gives_the_same_bytes(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    n = write_log(simulate(3, 7), a)
    assert write_log(simulate(3, 7), b) == n
    write_log(simulate(3, 8), c)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    assert len(a.read_text(encoding="utf-8").splitlines()) == n


def test_compressed_logs_are_reproducible(tmp_path: Path) -> None:
    plain, one, two = tmp_path / "p.jsonl", tmp_path / "1.jsonl.gz", tmp_path / "2.jsonl.gz"
    write_log(simulate(1, 3), plain)
    write_log(simulate(1, 3), one)
    write_log(simulate(1, 3), two)
    assert one.read_bytes() == two.read_bytes()
    assert gzip.decompress(one.read_bytes()) == plain.read_bytes()


def test_lines_are_compact_json_with_type_and_game_first(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    write_log(simulate(1, 5), path)
    for line in path.read_text(encoding="utf-8").splitlines():
        assert ", " not in line and '": ' not in line
        event = json.loads(line)
        assert list(event)[:2] == ["type", "game"]


# --- format -------------------------------------------------------------------


def test_games_rounds_and_timestamps_are_well_formed(events: list[Event]) -> None:
    starts = [e for e in events if e["type"] == "game_start"]
    assert [e["game"] for e in starts] == [f"sim-{SEED}-{n}" for n in range(1, GAMES + 1)]
    for e in starts:
        assert len(set(e["players"])) == 4 and e["target"] == 1000
    ts = [e["ts"] for e in events]
    assert all(a < b for a, b in zip(ts, ts[1:], strict=False))
    allowed = {
        "game_start", "round_start", "deal", "call", "exchange", "play", "pass",
        "dragon_gift", "round_end", "game_end",
    }  # fmt: skip
    assert {e["type"] for e in events} <= allowed
    number = 0
    for e in events:
        if e["type"] == "game_start":
            number = 0
        elif e["type"] == "round_start":
            number += 1
            assert e["round"] == number
        elif e["type"] == "play":
            has_mahjong = "Mahjong" in e["cards"]
            assert "wish" not in e or has_mahjong
            assert "phoenix" not in e or ("Phoenix" in e["cards"] and len(e["cards"]) > 1)


def test_every_round_deals_the_deck_once(events: list[Event]) -> None:
    for rnd in _rounds(events):
        deals = [e for e in rnd if e["type"] == "deal"]
        assert [len(h) for h in deals[0]["hands"]] == [8] * 4
        assert [len(h) for h in deals[1]["hands"]] == [6] * 4
        cards = [c for d in deals for hand in d["hands"] for c in hand]
        assert sorted(cards) == sorted(TOKENS)


def test_card_points_sum_to_100_except_double_victories(events: list[Event]) -> None:
    double_victories = 0
    for rnd in _rounds(events):
        end = rnd[-1]
        assert end["type"] == "round_end"
        assert sorted(end["finish_order"]) == [0, 1, 2, 3]
        bonus = _call_bonus(rnd)
        cards = [end["score"][t] - bonus[t] for t in (0, 1)]
        if _is_double_victory(end):
            double_victories += 1
            assert sorted(cards) == [0, 200]
            assert cards[end["finish_order"][0] % 2] == 200
        else:
            assert sum(cards) == 100
    assert double_victories


def _games_ended(events: list[Event]) -> int:
    """Check that every game ends when a team reached 1000; return how many ended."""
    totals = [0, 0]
    ended = 0
    for e in events:
        if e["type"] == "game_start":
            totals = [0, 0]
        elif e["type"] == "round_end":
            # the game is not over before its last round
            assert not (max(totals) >= 1000 and totals[0] != totals[1])
            totals = [totals[0] + e["score"][0], totals[1] + e["score"][1]]
        elif e["type"] == "game_end":
            ended += 1
            assert e["score"] == totals
            assert max(totals) >= 1000 and totals[0] != totals[1]
    return ended


def test_game_ends_when_a_team_reaches_the_target(events: list[Event]) -> None:
    assert _games_ended(events) == GAMES


def test_round_cap_stops_a_game_without_game_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "MAX_ROUNDS", 2)
    stats: Counter[str] = Counter()
    events = list(simulate(10, 1, stats=stats))
    ends = sum(e["type"] == "game_end" for e in events)
    assert sum(e["type"] == "round_start" for e in events) <= 20
    assert stats["games_capped"] == 10 - ends > 0


# --- legality, from the events alone -------------------------------------------


class _Tracker:
    """Just enough of the rules to check turns: hands, who is out, the trick, passes.

    ``seats=6`` follows rules.md 9.2 (the Dog's lead to either partner, the round
    ends at a triple victory or with one seat left, a double victory is nothing).
    """

    def __init__(self, seats: int = 4) -> None:
        self.n = seats
        self.hands: list[set[str]] = [set() for _ in range(seats)]
        self.gives: list[Event] = []
        self.out: list[int] = []
        self.top_seat = -1
        self.top_cards: list[str] = []
        self.open = False  # a trick with a first play is on the table
        self.passed: set[int] = set()
        self.turn = -1
        self.dog_leaders: set[int] = set()  # tientsin: either partner may lead after the Dog
        self.over = False
        self.out_of_turn_bombs = 0
        self.window_bombs = 0

    def next_with_cards(self, seat: int) -> int:
        n = self.n
        return next((seat + i) % n for i in range(1, n + 1) if self.hands[(seat + i) % n])

    def complete(self) -> bool:
        return all(s in self.passed for s in range(self.n) if s != self.top_seat and self.hands[s])

    def leader(self) -> int:
        w = self.top_seat
        return w if self.hands[w] else self.next_with_cards(w)

    def apply(self, e: Event) -> None:
        t = e["type"]
        if t == "deal":
            for seat, hand in enumerate(e["hands"]):
                self.hands[seat] |= set(hand)
        elif t == "exchange":
            assert set(e["give"].values()) <= self.hands[e["seat"]]
            self.gives.append(e)
            if len(self.gives) == self.n:
                for g in self.gives:
                    for to, card in g["give"].items():
                        self.hands[g["seat"]].discard(card)
                        self.hands[int(to)].add(card)
                self.turn = next(s for s in range(self.n) if "Mahjong" in self.hands[s])
        elif t == "pass":
            assert not self.over and self.open and not self.complete()
            assert e["seat"] == self.turn, "pass by a seat not on turn"
            self.passed.add(e["seat"])
            self.turn = self.next_with_cards(e["seat"])
        elif t == "dragon_gift":
            assert self.top_cards == ["Dragon"] and (self.over or self.complete())
            assert e["to"] % 2 != e["seat"] % 2 and e["seat"] == self.top_seat
            self.open = False
            if not self.over:
                self.turn = self.leader()
        elif t == "play":
            self.play(e["seat"], e["cards"], e.get("phoenix"))

    def play(self, seat: int, cards: list[str], phoenix: str | None) -> None:
        assert not self.over, "play after the round ended"
        assert set(cards) <= self.hands[seat]
        p = None if phoenix is None else RANK_BY_TOKEN[phoenix]
        combo = classify(mask_of(CARD_BY_TOKEN[c] for c in cards), p)
        assert combo is not None
        if self.open and self.complete():
            if combo.is_bomb and seat != self.top_seat:
                self.window_bombs += 1
            else:
                assert self.top_cards != ["Dragon"], "Dragon trick not given"
                self.open = False
                self.turn = self.leader()
        if not self.open:
            assert seat == self.turn or seat in self.dog_leaders, "lead by a seat not entitled"
            self.dog_leaders = set()
        elif seat != self.turn or self.complete():
            assert combo.is_bomb, "a non-bomb out of turn"
            self.out_of_turn_bombs += 1
        self.hands[seat] -= set(cards)
        self.top_seat, self.top_cards, self.open = seat, cards, True
        self.passed = set()
        if not self.hands[seat]:
            self.out.append(seat)
            if self.n == 6:  # rules.md 9.2
                ended = len(self.out) == 5 or (
                    len(self.out) == 3 and len({s % 2 for s in self.out}) == 1)
            else:
                ended = len(self.out) == 3 or (
                    len(self.out) == 2 and self.out[0] % 2 == self.out[1] % 2)
            if ended:
                self.over = True  # nothing may follow, not even a bomb
                return
        if cards == ["Dog"] and self.n == 6:
            self.open = False
            self.dog_leaders = {p for p in range(seat % 2, 6, 2) if p != seat and self.hands[p]}
            self.turn = min(self.dog_leaders) if self.dog_leaders else self.next_with_cards(seat)
        elif cards == ["Dog"]:
            partner = (seat + 2) % 4
            self.open = False
            self.turn = partner if self.hands[partner] else self.next_with_cards(partner)
        else:
            self.turn = self.next_with_cards(seat)


def test_turns_passes_and_out_of_turn_bombs_follow_the_rules(events: list[Event]) -> None:
    out_of_turn = window = 0
    for rnd in _rounds(events):
        tracker = _Tracker()
        for e in rnd[:-1]:
            tracker.apply(e)
        assert tracker.over, "round_end before the rules end the round"
        order = rnd[-1]["finish_order"]
        if _is_double_victory(rnd[-1]):
            assert order[:2] == tracker.out
            assert order[2:] == sorted(order[2:])
        else:
            assert order == tracker.out + [s for s in range(4) if tracker.hands[s]]
        out_of_turn += tracker.out_of_turn_bombs
        window += tracker.window_bombs
    assert out_of_turn > 0 and window > 0


# --- features -------------------------------------------------------------------


def test_bots_exercise_every_feature(run: tuple[list[Event], Counter[str]]) -> None:
    events, stats = run
    seen: Counter[str] = Counter()
    played_in_round = False
    for e in events:
        t = e["type"]
        if t == "round_start":
            played_in_round = False
        elif t == "call":
            seen[e["call"]] += 1
            if played_in_round:
                seen["tichu_after_others_played"] += 1
        elif t == "play":
            played_in_round = True
            cards = e["cards"]
            if "Mahjong" in cards:
                seen["wish" if "wish" in e else "mahjong_no_wish"] += 1
            if "Phoenix" in cards and len(cards) > 1:
                seen["phoenix_field" if "phoenix" in e else "phoenix_no_field"] += 1
            if cards == ["Phoenix"]:
                seen["phoenix_single"] += 1
            if cards == ["Dog"]:
                seen["dog"] += 1
        elif t == "dragon_gift":
            seen["dragon_gift"] += 1
        elif t == "round_end" and _is_double_victory(e):
            seen["double_victory"] += 1
    for feature in (
        "grand_tichu", "tichu", "tichu_after_others_played", "wish", "mahjong_no_wish",
        "phoenix_field", "phoenix_no_field", "phoenix_single", "dog", "dragon_gift",
        "double_victory",
    ):  # fmt: skip
        assert seen[feature] > 0, feature
    # what only the simulator's state tells
    for feature in (
        "bomb_in_turn", "bomb_out_of_turn", "bomb_after_all_passed", "bomb_on_partner",
        "bomb_on_own_play", "dog_partner_out", "wish_bound_other", "tichu_late",
        "tichu_during_exchange", "mahjong_straight", "dragon_gift_at_round_end",
    ):  # fmt: skip
        assert stats[feature] > 0, feature
    assert stats["games"] == GAMES and stats["games_capped"] == 0


def test_players_are_drawn_from_a_pool() -> None:
    starts = [e for e in simulate(30, 4, players=1000) if e["type"] == "game_start"]
    names = {n for e in starts for n in e["players"]}  # type: ignore[union-attr]
    assert len(names) > 100
    assert all(n.startswith("player-") and len(n) == 12 for n in names)
    assert list(simulate(2, 4)) == list(simulate(2, 4, players=None))


# --- variants (rules.md 9.2 tientsin, 9.3 trichu) --------------------------------

VARIANT_GAMES = 12


@pytest.fixture(scope="module")
def tientsin() -> tuple[list[Event], Counter[str]]:
    stats: Counter[str] = Counter()
    return list(simulate(VARIANT_GAMES, SEED, stats=stats, variants=["tientsin"])), stats


@pytest.fixture(scope="module")
def trichu() -> tuple[list[Event], Counter[str]]:
    stats: Counter[str] = Counter()
    return list(simulate(VARIANT_GAMES, SEED, stats=stats, variants=["trichu"])), stats


def _team_cards(rnd: list[Event]) -> list[int]:
    """The round's team scores without the calls: its card points (or victory bonus)."""
    bonus = _call_bonus(rnd)
    return [rnd[-1]["score"][t] - bonus[t] for t in (0, 1)]


@pytest.mark.parametrize("variant", ["tientsin", "trichu"])
def test_variant_games_are_reproducible(tmp_path: Path, variant: str) -> None:
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    write_log(simulate(2, 7, variants=[variant]), a)
    write_log(simulate(2, 7, variants=[variant]), b)
    write_log(simulate(2, 8, variants=[variant]), c)
    assert a.read_bytes() == b.read_bytes() != c.read_bytes()
    start = json.loads(a.read_text(encoding="utf-8").splitlines()[0])
    assert start["variants"] == [variant]


def test_variants_leave_the_four_player_game_alone() -> None:
    assert list(simulate(2, 7)) == list(simulate(2, 7, variants=()))
    start = next(iter(simulate(1, 7)))
    assert "variants" not in start
    ruled = list(simulate(2, 7, variants=["wish-penalty-200", "dog-can-be-bombed"]))
    assert ruled[0]["variants"] == ["dog-can-be-bombed", "wish-penalty-200"]
    # the house rules change no move of the bots
    assert [{k: v for k, v in e.items() if k != "variants"} for e in ruled] == list(
        simulate(2, 7))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variants": ["phoenix-in-bombs"]}, "cannot simulate"),
        ({"variants": ["tientsin", "trichu"]}, "exclude each other"),
        ({"variants": ["trichu"], "target": 10}, "multiple of 3"),
        ({"variants": ["tientsin"], "players": 5}, "at least 6"),
    ],
)
def test_impossible_variants_are_refused_at_once(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        simulate(1, 1, **kwargs)


def test_tientsin_deals_six_seats_six_then_the_rest(
    tientsin: tuple[list[Event], Counter[str]],
) -> None:
    events, _ = tientsin
    for e in events:
        if e["type"] == "game_start":
            assert len(set(e["players"])) == 6 and e["target"] == 1000
    for rnd in _rounds(events):
        first, second = [e for e in rnd if e["type"] == "deal"]
        assert [len(h) for h in first["hands"]] == [6] * 6
        sizes = sorted(len(a) + len(b) for a, b in zip(first["hands"], second["hands"],
                                                        strict=True))
        assert sizes == [9, 9, 9, 9, 10, 10]
        cards = [c for d in (first, second) for hand in d["hands"] for c in hand]
        assert sorted(cards) == sorted(TOKENS)


def test_tientsin_exchanges_go_to_the_two_partners(
    tientsin: tuple[list[Event], Counter[str]],
) -> None:
    events, _ = tientsin
    for rnd in _rounds(events):
        exchanges = [e for e in rnd if e["type"] == "exchange"]
        assert sorted(e["seat"] for e in exchanges) == list(range(6))
        for e in exchanges:
            partners = {s for s in range(6) if s != e["seat"] and s % 2 == e["seat"] % 2}
            assert {int(to) for to in e["give"]} == partners
            assert len(set(e["give"].values())) == 2


def test_tientsin_rounds_end_and_score_as_rules_9_2_say(
    tientsin: tuple[list[Event], Counter[str]],
) -> None:
    events, stats = tientsin
    triples = 0
    for rnd in _rounds(events):
        tracker = _Tracker(seats=6)
        for e in rnd[:-1]:
            tracker.apply(e)
        assert tracker.over, "round_end before the rules end the round"
        end = rnd[-1]
        order = end["finish_order"]
        assert sorted(order) == list(range(6))
        cards = _team_cards(rnd)
        if len(tracker.out) == 3:  # a triple victory
            triples += 1
            assert order[:3] == tracker.out and len({s % 2 for s in tracker.out}) == 1
            assert cards[order[0] % 2] == 300 and cards[(order[0] + 1) % 2] == 0
            assert not any(e["type"] == "dragon_gift" for e in rnd[-3:])
        else:
            assert order == tracker.out + [s for s in range(6) if tracker.hands[s]]
            assert sum(cards) == 100
    assert triples == stats["triple_victory"] > 0


def test_tientsin_games_end_at_the_target(tientsin: tuple[list[Event], Counter[str]]) -> None:
    assert _games_ended(tientsin[0]) == VARIANT_GAMES


def test_tientsin_bots_exercise_the_six_player_rules(
    tientsin: tuple[list[Event], Counter[str]],
) -> None:
    events, stats = tientsin
    for feature in ("grand_tichu", "tichu", "dog", "dog_to_later_partner", "dog_partner_out",
                    "dragon_gift", "wish_bound_other", "bomb_out_of_turn", "phoenix_combo"):
        assert stats[feature] > 0, feature
    # the Dragon goes to each of the three opponents, not only the neighbours
    distances = {(e["to"] - e["seat"]) % 6 for e in events if e["type"] == "dragon_gift"}
    assert distances == {1, 3, 5}


def test_trichu_seats_a_dummy_and_rotates_the_solo_player(
    trichu: tuple[list[Event], Counter[str]],
) -> None:
    events, _ = trichu
    solo: Counter[str] = Counter()
    persons: list[str] = []
    first = False
    for e in events:
        if e["type"] == "game_start":
            assert e["target"] == 9 and e["variants"] == ["trichu"]
            assert len(e["players"]) == 4 and e["players"].count("Tisch") == 1
            persons = [p for p in e["players"] if p != "Tisch"]
            assert len(set(persons)) == 3
            solo = Counter()
            first = True
        elif e["type"] == "round_start":
            dummy = e["dummy"]
            assert e["players"][dummy] == "Tisch"
            assert sorted(p for p in e["players"] if p != "Tisch") == sorted(persons)
            if first:
                assert e["players"] == next(
                    s["players"] for s in events if s["game"] == e["game"])
                first = False
            solo[e["players"][(dummy + 2) % 4]] += 1
        elif e["type"] == "game_end":
            assert solo == dict.fromkeys(persons, 3)
    assert sum(e["type"] == "round_start" for e in events) == 9 * VARIANT_GAMES


def test_trichu_calls_exchanges_and_wish(trichu: tuple[list[Event], Counter[str]]) -> None:
    events, stats = trichu
    for rnd in _rounds(events):
        dummy = rnd[0]["dummy"]
        deals = [e for e in rnd if e["type"] == "deal"]
        assert [len(h) for h in deals[0]["hands"]] == [8] * 4
        assert sorted(c for d in deals for h in d["hands"] for c in h) == sorted(TOKENS)
        for e in rnd:
            if e["type"] == "call" and e["call"] == "grand_tichu":
                assert e["seat"] not in (dummy, (dummy + 2) % 4), "solo or dummy Grand Tichu"
            elif e["type"] == "exchange":
                assert sorted(int(to) for to in e["give"]) == [
                    s for s in range(4) if s % 2 != e["seat"] % 2]
        tracker = _Tracker()
        for e in rnd[:-1]:
            tracker.apply(e)
        assert tracker.over
        cards = _team_cards(rnd)
        assert sum(cards) == (200 if _is_double_victory(rnd[-1]) else 100)
    assert stats["dummy_wish_free"] > 0 and stats["grand_tichu"] > 0
    assert stats["tichu"] > 0 and stats["double_victory"] > 0


def test_trichu_per_person_totals_add_up(trichu: tuple[list[Event], Counter[str]]) -> None:
    events, _ = trichu
    totals: Counter[str] = Counter()
    seating: list[str] = []
    ends = 0
    for e in events:
        if e["type"] == "game_start":
            totals = Counter()
        elif e["type"] == "round_start":
            seating = e["players"]
        elif e["type"] == "round_end":
            for seat, name in enumerate(seating):
                if name != "Tisch":
                    totals[name] += e["score"][seat % 2]
        elif e["type"] == "game_end":
            ends += 1
            assert e["score"] == dict(totals) and "Tisch" not in e["score"]
            start = next(s for s in events if s["type"] == "game_start" and
                         s["game"] == e["game"])
            assert list(e["score"]) == [p for p in start["players"] if p != "Tisch"]
    assert ends == VARIANT_GAMES


def test_trichu_target_is_a_number_of_rounds() -> None:
    events = list(simulate(1, 3, variants=["trichu"], target=3))
    assert events[0]["target"] == 3
    rounds = [e for e in events if e["type"] == "round_start"]
    assert len(rounds) == 3 and events[-1]["type"] == "game_end"
    assert len({r["players"][(r["dummy"] + 2) % 4] for r in rounds}) == 3
