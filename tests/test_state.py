"""The engine's public state (state.py) and the visitor API (visitor.py).

The queries are checked against the engine itself: on random legal games (the
simulator's own rules), every play the engine accepts without a diagnostic is among
the state's legal plays just before it, every such pass is allowed by ``may_pass``;
on the wish fixture, the seat that passes while bound is reported by the state."""

from __future__ import annotations

from pathlib import Path

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tichu_analyze.core.cards import CARD_BY_TOKEN, RANK_BY_TOKEN, RANK_TOKENS, mask_of
from tichu_analyze.core.diagnostics import Diagnostic
from tichu_analyze.core.engine import Engine
from tichu_analyze.core.events import Event, Pass, Play
from tichu_analyze.core.record import Recorder
from tichu_analyze.core.state import (
    STATUS_INCOMPLETE,
    STATUS_SCORED,
    STATUS_SKIPPED,
    GameState,
    Phase,
    RoundState,
    Step,
    Trick,
    call_value,
    double_victory,
    next_seat_table,
    round_over,
    score_round,
)
from tichu_analyze.core.visitor import SKIP, DiagnosticVisitor, Visitor, only_diagnostics, traces
from tichu_analyze.readers.logfile import replay_file
from tichu_analyze.sim.simulate import simulate

RULES = Path(__file__).parent / "fixtures" / "rules"


def _mask(*tokens: str) -> int:
    return mask_of([CARD_BY_TOKEN[t] for t in tokens])


# ------------------------------------------------------------------ scoring and turns


def test_score_round_hands_over_the_last_seats_hand_and_tricks() -> None:
    # seat 3 is last: its tricks (a K, 10 points) go to seat 0 (first out, team 0),
    # its hand (a 5) to the opponents of seat 3 (team 0 as well)
    piles = [_mask("10j"), _mask("5s", "Dragon"), 0, _mask("Kj")]
    hands = [0, 0, 0, _mask("5j", "2p")]
    result = score_round([0, 2, 1], ["tichu", None, "grand_tichu", None], piles, hands)
    assert result.finish_order == [0, 2, 1, 3]
    assert not result.double_victory
    assert result.card_points == [10 + 10 + 5, 5 + 25]
    assert result.call_points == [100 - 200, 0]
    assert result.seat_calls == [100, 0, -200, 0]  # seat 0 went out first, seat 2 did not
    assert result.pile_points == [10, 30, 0, 10]
    assert result.score == [25 - 100, 30]


def test_score_round_double_victory_and_penalty() -> None:
    result = score_round([1, 3], [None, "tichu", None, None], [0, 0, 0, 0],
                         [_mask("5j"), 0, _mask("Kj"), 0], penalty=[200, 0])
    assert result.double_victory and result.finish_order[:2] == [1, 3]
    assert result.card_points == [0, 200]
    assert result.seat_calls == [0, 100, 0, 0]
    assert result.score == [200, 300]


def test_round_end() -> None:
    assert double_victory([0, 2]) and double_victory([3, 1])
    assert not double_victory([0, 1]) and not double_victory([0])
    assert round_over([0, 2], 4) and not round_over([0, 1], 4) and round_over([0, 1, 3], 4)
    assert not round_over([0, 1, 3], 6)


def test_call_value_and_next_seat_table() -> None:
    assert (call_value("tichu"), call_value("grand_tichu")) == (100, 200)
    table = next_seat_table(4)
    assert table[0b1111][3] == 0
    assert table[0b0101][0] == 2  # seats 1 and 3 are out
    assert table[0b0001][0] == 0  # nobody else holds cards
    six = next_seat_table(6)  # the seat count is a property of the game
    assert six[0b111111][5] == 0 and six[0b100001][0] == 5


def test_round_state_is_sized_by_its_players() -> None:
    rnd = RoundState(1, ["a", "b", "c", "d", "e", "f"])
    assert rnd.seats == 6 and rnd.holding == 0b111111 and len(rnd.hands) == 6
    assert rnd.status == "incomplete" and rnd.phase == Phase.DEAL
    assert rnd.legal_plays(0) == [] and not rnd.may_pass(0) and rnd.to_lead() is None


# ------------------------------------------------------------- queries against the engine


def _feed_checking_queries(events: list[Event]) -> int:
    """Feed legal ``events`` to a replay, asking the state before every play and pass
    whether it is allowed; returns how many plays were checked."""
    found: list[Diagnostic] = []
    replay = Engine("sim", DiagnosticVisitor(found.append))
    plays = 0
    for line, ev in enumerate(events, 1):
        game = replay.games.get(ev.game)
        rnd = game.round if game is not None else None
        if rnd is None or not isinstance(ev, Play | Pass) or rnd.phase != Phase.PLAY:
            replay.feed(line, ev)
            continue
        seat = ev.seat
        legal = rnd.legal_plays(seat)
        may_pass = rnd.may_pass(seat)
        bound = rnd.bound_by_wish(seat)
        wished = rnd.wish
        replay.feed(line, ev)
        assert found == [], found
        if isinstance(ev, Pass):
            assert may_pass and not bound, (line, ev)
            continue
        mask = mask_of([CARD_BY_TOKEN[t] for t in ev.cards])
        # the combination the engine read (the top, unless the play ended its trick)
        after = replay.games[ev.game].round
        combo = after.top if after is not None and after.top is not None else None
        if combo is None or combo.cards != mask:
            continue
        # legal_plays lists one choice of suits per kind, rank and length, and every bomb
        assert any((c.kind, c.length, c.rank) == (combo.kind, combo.length, combo.rank)
                   for c in legal), (line, ev, legal)
        if bound:
            assert wished is not None
            assert combo.is_bomb or mask & _mask(*(f"{RANK_TOKENS[wished]}{s}" for s in "jspr"))
        plays += 1
    replay.finish(len(events))
    return plays


SETTINGS = settings(max_examples=10, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_legal_games_only_make_moves_the_state_allows(seed: int) -> None:
    events = [msgspec.convert(e, Event) for e in simulate(1, seed)]
    assert _feed_checking_queries(events) > 20


def test_the_state_reports_the_seat_bound_by_the_wish() -> None:
    """W001_pass_holding_rank: seat 1 passes on the Mahjong holding an 8 it could play."""
    lines = (RULES / "W001_pass_holding_rank.jsonl").read_text().splitlines()
    events = [msgspec.json.decode(line, type=Event) for line in lines]
    replay = Engine("w", DiagnosticVisitor(lambda d: None))
    for line, ev in enumerate(events, 1):
        if isinstance(ev, Pass) and line == 10:
            rnd = replay.games["g1"].round
            assert rnd is not None and rnd.wish == RANK_BY_TOKEN["8"]
            assert rnd.bound_by_wish(1) and not rnd.may_pass(1)
            could = rnd.wish_play(1)
            assert could is not None and could.cards & _mask("8s")
            assert all(c.cards & _mask("8j", "8s", "8r", "8p") for c in rnd.wish_plays(1))
            assert rnd.legal_plays(1) and all(
                c.cards & _mask("8j", "8s", "8r", "8p") or c.is_bomb for c in rnd.legal_plays(1))
            # seat 3 holds the 8p too, but it is not its turn
            assert not rnd.bound_by_wish(3) and rnd.wish_play(3) is not None
            assert not rnd.bound_by_wish(2)  # (its 8r is in its bomb; not its turn either)
        replay.feed(line, ev)
    replay.finish(len(events))
    rnd = replay.games["g1"].round
    assert rnd is None  # closed at the end of the file
    assert replay.games["g1"].rounds == 1


# ------------------------------------------------------------------------- visitors


class _Log(Visitor):
    def __init__(self) -> None:
        self.calls: list[str] = []

    def begin_game(self, game: GameState) -> None:
        self.calls.append(f"begin_game {game.id}")

    def end_game(self, game: GameState) -> None:
        self.calls.append(f"end_game {game.id}")

    def begin_round(self, game: GameState, rnd: RoundState) -> None:
        self.calls.append(f"begin_round {rnd.number}")

    def end_round(self, game: GameState, rnd: RoundState) -> None:
        self.calls.append(f"end_round {rnd.number} {rnd.status}")

    def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
        codes = "".join(f" {d.code}" for d in step.diagnostics)
        self.calls.append(f"event {step.line} {type(step.event).__name__}{codes}")

    def visit_trick(self, game: GameState, rnd: RoundState, trick: Trick) -> None:
        self.calls.append(f"trick {trick.number} to {trick.taken_by}")

    def visit_diagnostic(self, diag: Diagnostic) -> None:
        self.calls.append(f"diagnostic {diag.code}")


def test_visitor_calls_come_in_log_order() -> None:
    log = _Log()
    replay_file(RULES / "G001_dragon_to_partner.jsonl", log)
    calls = log.calls
    assert calls[0] == "begin_game g1" and calls[-1] == "end_game g1"
    assert calls[1] == "begin_round 1"
    assert calls[2].startswith("event 2 RoundStart")
    # the diagnostic comes first, then its event, then the trick that event ended
    i = calls.index("diagnostic G001")
    assert calls[i + 1].endswith("DragonGift G001")
    assert calls[i + 2].startswith("trick ")
    assert any(c.startswith("end_round 1 ") for c in calls)


def test_traces_and_only_diagnostics() -> None:
    assert not traces(Visitor()) and only_diagnostics(Visitor())
    assert not traces(DiagnosticVisitor(print)) and only_diagnostics(DiagnosticVisitor(print))
    assert traces(Recorder()) and not only_diagnostics(Recorder())


def test_a_plain_visitor_gets_no_steps_but_the_same_state(tmp_path: Path) -> None:
    """Steps cost only the visitors that ask for them; the state is the same."""
    path = tmp_path / "sim.jsonl"
    from tichu_analyze.readers.logfile import write_log

    write_log(simulate(2, 5), path)

    class Rounds(Visitor):
        def __init__(self) -> None:
            self.scores: list[list[int] | None] = []

        def end_round(self, game: GameState, rnd: RoundState) -> None:
            self.scores.append(rnd.score)

    plain = Rounds()
    replay_file(path, plain)
    recorder = Recorder()
    replay_file(path, recorder)
    assert plain.scores == [r.score for r in recorder.rounds]
    for rec in recorder.rounds:
        assert rec.state.round_score() is not None
        assert sum(rec.state.tricks_won) == sum(1 for t in rec.tricks if not t.dog)
        assert rec.state.dragon_gifts == [(t.winner, t.taken_by) for t in rec.tricks
                                          if t.dragon]


def test_a_round_closed_by_an_early_round_end_is_incomplete_not_skipped() -> None:
    """L008 at the round_end: the rest of the round is skipped, but the round is
    incomplete (a fatal diagnostic alone makes a round skipped)."""
    rec = Recorder()
    replay_file(RULES / "L008_round_end_too_early.jsonl", rec)
    assert [(r.round, r.status, r.state.ended_early) for r in rec.rounds] == [
        (1, STATUS_INCOMPLETE, True), (2, STATUS_SCORED, False)]
    rec = Recorder()
    replay_file(RULES / "P001_card_given_away.jsonl", rec)
    assert STATUS_SKIPPED in {r.status for r in rec.rounds}


class _Games(Visitor):
    """Records every call with its game; skips the games of ``skip`` (``SKIP``)."""

    def __init__(self, skip: frozenset[str] = frozenset()) -> None:
        self.skip = skip
        self.calls: list[tuple[str, str]] = []

    def begin_game(self, game: GameState) -> object:
        self.calls.append((game.id, "begin_game"))
        return SKIP if game.id in self.skip else None

    def end_game(self, game: GameState) -> None:
        self.calls.append((game.id, f"end_game {game.totals}"))

    def begin_round(self, game: GameState, rnd: RoundState) -> None:
        self.calls.append((game.id, f"begin_round {rnd.number}"))

    def end_round(self, game: GameState, rnd: RoundState) -> None:
        self.calls.append((game.id, f"end_round {rnd.number} {rnd.status} {rnd.score}"))

    def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
        codes = "".join(f" {d.code}" for d in step.diagnostics)
        self.calls.append((game.id, f"event {step.index} {step.line} {step.combo}{codes}"))

    def visit_trick(self, game: GameState, rnd: RoundState, trick: Trick) -> None:
        self.calls.append((game.id, f"trick {trick.number} {trick.points} to {trick.taken_by}"))

    def visit_diagnostic(self, diag: Diagnostic) -> None:
        self.calls.append((diag.game or "", f"diagnostic {diag.code} {diag.line}"))


def test_a_visitor_may_skip_the_steps_of_a_game(tmp_path: Path) -> None:
    """``begin_game`` returning SKIP: no steps or tricks of that game reach the visitor
    (the replay builds none), everything else does, and the other games' steps are those
    of a replay that traces every game, in a file whose games interleave and break rules."""
    from tichu_analyze.readers.logfile import write_log

    by_game: dict[str, list[dict[str, object]]] = {}
    for e in simulate(3, 11):
        by_game.setdefault(str(e["game"]), []).append(dict(e))
    ids = list(by_game)
    for e in by_game[ids[1]]:  # a fault in a skipped game: its diagnostics still come
        if e["type"] == "pass":
            e["seat"] = (int(e["seat"]) + 1) % 4  # type: ignore[call-overload]
            break
    mixed: list[dict[str, object]] = []
    while any(by_game.values()):  # the games' events interleaved, three at a time
        for g in ids:
            mixed += by_game[g][:3]
            del by_game[g][:3]
    path = tmp_path / "mixed.jsonl"
    write_log(mixed, path)

    every = _Games()
    replay_file(path, every)
    some = _Games(skip=frozenset(ids[:2]))
    replay_file(path, some)
    checked: list[Diagnostic] = []
    replay_file(path, DiagnosticVisitor(checked.append))

    def traced(call: str) -> bool:
        return call.startswith(("event", "trick"))

    assert [c for c in some.calls if c[0] == ids[2]] == [c for c in every.calls if c[0] == ids[2]]
    assert [c for c in some.calls if not traced(c[1])] == [
        c for c in every.calls if not traced(c[1])]
    assert not [c for c in some.calls if c[0] in ids[:2] and traced(c[1])]
    assert any(c[0] in ids[:2] and traced(c[1]) for c in every.calls)
    assert [f"diagnostic {d.code} {d.line}" for d in checked] == [
        c[1] for c in some.calls if c[1].startswith("diagnostic")]
    assert any(d.game == ids[1] for d in checked)


def _fingerprint(rnd: RoundState) -> tuple[str, ...]:
    return tuple(repr(getattr(rnd, name)) for name in RoundState.__slots__)


def test_a_copy_of_the_round_is_not_reached_by_later_events() -> None:
    events = [msgspec.convert(e, Event) for e in simulate(1, 7)]
    replay = Engine("sim")
    kept: list[tuple[RoundState, tuple[str, ...], list[int]]] = []
    for line, ev in enumerate(events, 1):
        game = replay.games.get(ev.game)
        rnd = game.round if game is not None else None
        if rnd is not None and isinstance(ev, Play | Pass) and rnd.phase == Phase.PLAY:
            copy = rnd.copy()
            assert _fingerprint(copy) == _fingerprint(rnd)
            legal = [c.cards for c in rnd.legal_plays(rnd.turn)] if rnd.turn >= 0 else []
            kept.append((copy, _fingerprint(rnd), legal))
        replay.feed(line, ev)
    replay.finish(len(events))
    assert len(kept) > 100
    for copy, fingerprint, legal in kept:
        assert _fingerprint(copy) == fingerprint  # nothing the engine did later reached it
        if copy.turn >= 0:
            assert [c.cards for c in copy.legal_plays(copy.turn)] == legal
