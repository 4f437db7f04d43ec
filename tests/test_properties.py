"""Property tests: random legal games replay clean, conserve cards and points,
and any one corrupted event is flagged.

The games come from the simulator, whose bots keep their own game state (an
independent implementation of the rules); the hand-made fixtures of
tests/fixtures/rules are the other judge of the engine.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tichu_analyze.core.cards import CARD_BY_TOKEN, DECK, points
from tichu_analyze.core.diagnostics import Diagnostic
from tichu_analyze.core.engine import Engine
from tichu_analyze.core.events import Event, Pass, Play
from tichu_analyze.core.record import Recorder, RoundRecord
from tichu_analyze.core.state import GameState
from tichu_analyze.core.state import Phase as RoundPhase
from tichu_analyze.core.visitor import DiagnosticVisitor
from tichu_analyze.readers.logfile import check_file, replay_file, write_log
from tichu_analyze.sim.simulate import simulate

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _replay(path: Path) -> tuple[list[Diagnostic], list[RoundRecord], list[GameState]]:
    recorder = Recorder()
    replay_file(path, recorder)
    return recorder.diagnostics, recorder.rounds, recorder.games


def _assert_cards_conserved(r: RoundRecord) -> None:
    """The table, the hands and the tricks at the round's end hold the deck once."""
    held = r.table_end
    for m in r.hands_end:
        assert not held & m
        held |= m
    for t in r.tricks:
        assert not held & t.cards, "a card was counted twice"
        held |= t.cards
    assert held == DECK, "not all 56 cards are accounted for"


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_legal_games_replay_clean_and_conserve_cards_and_points(
    tmp_path: Path, seed: int
) -> None:
    path = tmp_path / f"sim-{seed}.jsonl"
    write_log(simulate(1, seed), path)
    found, rounds, games = _replay(path)
    assert found == [], found[:5]
    assert rounds and all(r.status == "scored" for r in rounds)
    for r in rounds:
        _assert_cards_conserved(r)
        if r.double_victory:
            assert sorted(r.card_points) == [0, 200]
        else:
            assert sum(r.card_points) == 100
            assert sum(r.pile_points) + points(r.hands_end[r.finish_order[3]]) == 100
        assert r.score == [r.card_points[0] + r.call_points[0],
                           r.card_points[1] + r.call_points[1]]
        assert r.recorded_score == r.score
    game = games[0]
    assert game.totals == [sum(r.score[t] for r in rounds if r.score) for t in (0, 1)]


def _mutations(lines: list[dict], rng: random.Random) -> tuple[int, list[dict]]:
    """One corrupted copy of a game: returns the changed line's index and the events."""
    events = [dict(e) for e in lines]
    candidates = [i for i, e in enumerate(events)
                  if e["type"] in ("play", "pass", "exchange", "round_end", "dragon_gift")]
    i = rng.choice(candidates)
    e = events[i]
    kind = e["type"]
    if kind == "play":
        choice = rng.randrange(3)
        if choice == 0:  # another seat plays it
            e["seat"] = (e["seat"] + rng.choice((1, 2, 3))) % 4
        elif choice == 1:  # a card the seat cannot hold twice over: an unknown token
            e["cards"] = [*e["cards"][:-1], "11x"]
        else:  # the play is dropped: the next seat is then out of turn or the round unfinished
            del events[i]
    elif kind == "pass":
        choice = rng.randrange(2)
        if choice == 0:
            e["seat"] = (e["seat"] + rng.choice((1, 2, 3))) % 4
        else:
            e["type"] = "play"
            e["cards"] = ["Dog"]  # the Dog is never held twice, and never played on a trick
    elif kind == "exchange":
        first = next(iter(e["give"]))
        e["give"] = {**e["give"], first: "Dragon" if e["give"][first] != "Dragon" else "Dog"}
        e["give"][str(e["seat"])] = e["give"].pop(first)  # gives to itself
    elif kind == "round_end":
        e["score"] = [e["score"][0] + 5, e["score"][1] - 5]
    else:  # dragon_gift to the winner's partner
        e["to"] = (e["seat"] + 2) % 4
    return i, events


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**20), pick=st.integers(min_value=0))
def test_one_corrupted_event_is_flagged(tmp_path: Path, seed: int, pick: int) -> None:
    events = list(simulate(1, seed))
    i, corrupted = _mutations(events, random.Random(pick))
    path = tmp_path / "corrupted.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in corrupted))
    found, rounds, _ = _replay(path)
    if len(corrupted) == len(events):  # changed in place: flagged at that very line
        assert found, f"no diagnostic after corrupting event {i} ({events[i]})"
        assert any(d.line == i + 1 for d in found), (events[i], found[:3])
    elif not found:
        # a play dropped from the log leaves a legal game when the seat could hold those
        # cards to the round's end and the round still scores as recorded (say, the last
        # seat out kept a King that an opponent's bomb would have taken anyway): then the
        # cards are still in its hand when the round ends
        dropped = events[i]
        number = sum(e["type"] == "round_start" for e in events[: i + 1])
        held = rounds[number - 1].hands_end[dropped["seat"]]
        mask = sum(1 << CARD_BY_TOKEN[t] for t in dropped["cards"])
        assert held & mask == mask, f"no diagnostic after dropping event {i} ({dropped})"


def test_cards_of_the_simulator_are_the_deck() -> None:
    events = list(simulate(1, 3))
    deals = [e for e in events if e["type"] == "deal"][:2]
    dealt = [CARD_BY_TOKEN[t] for d in deals for hand in d["hands"] for t in hand]
    assert sorted(dealt) == list(range(56))


# --- variants: simulated six- and three-player games (rules.md 9.2, 9.3) ----------

VARIANT_SETTINGS = settings(
    max_examples=8,
    deadline=None,
    phases=(Phase.explicit, Phase.generate),  # a seed does not shrink into a simpler game
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _replay_variant_game(tmp_path: Path, seed: int, variant: str) -> None:
    """One simulated game replays without a diagnostic, as the simulator played it."""
    events = list(simulate(1, seed, variants=[variant]))
    path = tmp_path / f"{variant}-{seed}.jsonl"
    write_log(events, path)
    # the log declares its variant (game_start.variants): nothing on the command line
    found = check_file(path)
    assert [(d.code, d.line, d.message) for d in found] == []
    _, rounds, games = _replay(path)
    ends = [e for e in events if e["type"] == "round_end"]
    seats = 6 if variant == "tientsin" else 4
    assert len(rounds) == len(ends) == sum(e["type"] == "round_start" for e in events)
    assert all(r.status == "scored" for r in rounds)
    for r, end in zip(rounds, ends, strict=True):
        order = end["finish_order"]
        # a triple (six seats) or double (four) victory leaves the losers' order open
        won = 3 if seats == 6 else 2
        decided = won if len({s % 2 for s in order[:won]}) == 1 else seats
        assert list(r.finish_order)[:decided] == order[:decided]
        assert r.score == end["score"] and r.recorded_score == end["score"]
        _assert_cards_conserved(r)
        if decided == seats:
            assert sum(r.card_points) == 100
        else:
            assert sorted(r.card_points) == [0, 100 * won]
    if variant == "tientsin":
        assert games[0].totals == events[-1]["score"]


@VARIANT_SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_simulated_tientsin_games_replay_clean(tmp_path: Path, seed: int) -> None:
    _replay_variant_game(tmp_path, seed, "tientsin")


@VARIANT_SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_simulated_trichu_games_replay_clean(tmp_path: Path, seed: int) -> None:
    _replay_variant_game(tmp_path, seed, "trichu")


def _feed_both(events: list[dict]) -> tuple[list[Diagnostic], list[Diagnostic], Engine, Engine]:
    """The events replayed twice: through ``Engine.feed`` alone, and through
    ``Engine.feed_move`` for every play and pass its contract allows (the round in play,
    no Dragon trick awaiting its gift; a play's mask when its tokens are 56 distinct
    cards), a pass through ``Engine.feed_pass`` first (which applies a reply in turn and
    leaves any other pass alone), as the ``.tch`` reader feeds them."""
    decoder = msgspec.json.Decoder(Event)
    plain: list[Diagnostic] = []
    moved: list[Diagnostic] = []
    one = Engine("f", DiagnosticVisitor(plain.append))
    two = Engine("f", DiagnosticVisitor(moved.append))
    for line, e in enumerate(events, 1):
        try:
            ev = decoder.decode(json.dumps(e))
        except msgspec.ValidationError:
            continue  # (an unknown token in a play decodes; other damage is not the point)
        one.feed(line, ev)
        game = two.games.get(ev.game)
        rnd = game.round if game is not None and not game.ended else None
        if (game is not None and rnd is not None and isinstance(ev, (Play, Pass))
                and rnd.phase is RoundPhase.PLAY and not rnd.gift_due()):
            if isinstance(ev, Pass) and two.feed_pass(line, game, rnd, ev):
                continue
            mask = 0
            if isinstance(ev, Play) and all(t in CARD_BY_TOKEN for t in ev.cards) \
                    and len(set(ev.cards)) == len(ev.cards):
                mask = sum(1 << CARD_BY_TOKEN[t] for t in ev.cards)
            two.feed_move(line, game, rnd, ev, mask)
        else:
            two.feed(line, ev)
    return plain, moved, one, two


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**20), picks=st.lists(
    st.integers(min_value=0), min_size=0, max_size=3))
def test_feed_move_is_feed(seed: int, picks: list[int]) -> None:
    """``feed_move`` and ``feed_pass`` (the ``.tch`` reader's short ways) check and apply
    a move exactly as ``feed`` does: the same diagnostics, the same state, on games with
    up to three corrupted events."""
    events = list(simulate(2, seed))
    for pick in picks:
        _, events = _mutations(events, random.Random(pick))
    plain, moved, one, two = _feed_both(events)
    assert [(d.code, d.line, d.message) for d in moved] == \
        [(d.code, d.line, d.message) for d in plain]
    for game_id, game in one.games.items():
        other = two.games[game_id]
        assert other.totals == game.totals
        a, b = game.round, other.round
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert (b.hands, b.piles, b.out, b.phase, b.turn) == \
                (a.hands, a.piles, a.out, a.phase, a.turn)
