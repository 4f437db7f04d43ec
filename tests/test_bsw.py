"""Tests of the Brettspielwelt ``.tch`` reader and writer (``tichu_analyze.readers.bsw``).

Three kinds: the real sample game (parsed, well-formed, replays clean, and
tampered copies whose genuine violations are reported at the right line);
small inline ``.tch`` snippets, one per logging habit of BSW the reader
normalizes; and round trips of simulated games through ``write_tch``.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest
from shared_data import SAMPLES

from tichu_analyze.core.cards import TOKENS
from tichu_analyze.core.diagnostics import Diagnostic
from tichu_analyze.core.engine import Engine
from tichu_analyze.core.events import Event, Pass
from tichu_analyze.core.record import Recorder, RoundRecord
from tichu_analyze.core.visitor import DiagnosticVisitor
from tichu_analyze.readers.bsw import (
    CARD_OF_TCH,
    MAX_LINE,
    MAX_ROUND_LINES,
    TCH_TOKEN,
    TchLines,
    Unreadable,
    decode_text,
    event_dict,
    looks_like_tch,
    read_tch,
    write_tch,
)
from tichu_analyze.readers.logfile import replay_tch
from tichu_analyze.sim.simulate import simulate

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

# the real game from ../shared/samples, copied unchanged into sample_logs/
SAMPLE = Path(__file__).resolve().parents[1] / "sample_logs" / "2417500.tch"
SHARED = SAMPLES / "2417500.tch"

Item = tuple[int, dict[str, Any] | Unreadable]


# --- helpers --------------------------------------------------------------------


def items(data: bytes | str, game: str = "g") -> list[Item]:
    """What ``read_tch`` yields, the events as the dicts of their JSON lines."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return [(line, it if isinstance(it, Unreadable) else event_dict(it))
            for line, it in read_tch(raw, game)]


def events(data: bytes | str) -> list[tuple[int, dict[str, Any]]]:
    return [(line, ev) for line, ev in items(data) if isinstance(ev, dict)]


def replay(data: bytes | str) -> tuple[list[Diagnostic], list[RoundRecord]]:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    recorder = Recorder()
    r = Engine("t.tch", recorder)
    r.finish(replay_tch(raw, "g", r))
    return recorder.diagnostics, recorder.rounds


def replay_events(
    evs: list[tuple[int, dict[str, Any]]],
) -> tuple[list[Diagnostic], list[RoundRecord]]:
    recorder = Recorder()
    r = Engine("t", recorder)
    last = 0
    for line, ev in evs:
        r.feed(line, msgspec.convert(ev, Event))
        last = max(last, line)
    r.finish(last)
    return recorder.diagnostics, recorder.rounds


def codes(found: list[Diagnostic]) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in found]


def errors(found: list[Diagnostic]) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in found if d.severity != "warning"]


def line_of(text: str, needle: str, nth: int = 0) -> int:
    """The 1-based number of the ``nth`` line of ``text`` that equals ``needle`` (trailing
    blanks ignored)."""
    hits = [i for i, line in enumerate(text.split("\n"), 1) if line.rstrip(" ") == needle]
    return hits[nth]


def of_type(evs: list[tuple[int, dict[str, Any]]], kind: str) -> list[tuple[int, dict[str, Any]]]:
    return [(line, ev) for line, ev in evs if ev["type"] == kind]


@pytest.fixture(scope="module")
def sample() -> str:
    return SAMPLE.read_bytes().decode("utf-8")


def edit(text: str, *changes: tuple[int, str | None]) -> str:
    """``text`` with 1-based lines replaced (None: removed)."""
    lines = text.split("\n")
    for number, new in sorted(changes, reverse=True):
        if new is None:
            del lines[number - 1]
        else:
            lines[number - 1] = new
    return "\n".join(lines)


# --- an inline round: four players, a deal, an exchange ---------------------------------

HEAD = """\
---------------Gr.Tichukarten------------------
(0)Ann Dr BA B6 G5 G4 S3 G2 Ma
(1)Ben Ph GB SB G8 S7 S6 B5 S4
(2)Cleo BD RD S10 S8 B7 G6 S5 B4
(3)Dev SK RK GD BB B10 R9 R8 G7
---------------Startkarten------------------
(0)Ann Dr GA BA GK SD R10 B6 G5 G4 R4 S3 G2 B2 Ma
(1)Ben Ph BK GB SB S9 B9 G8 S7 S6 R6 B5 S4 S2 Hu
(2)Cleo BD RD RB S10 G9 S8 B8 B7 R7 G6 S5 R5 B4 R2
(3)Dev SA RA SK RK GD BB G10 B10 R9 R8 G7 G3 B3 R3
Schupfen:
(0)Ann gibt: Ben: R10 - Cleo: R4 - Dev: GK -
(1)Ben gibt: Cleo: Hu - Dev: B9 - Ann: S9 -
(2)Cleo gibt: Dev: R2 - Ann: R5 - Ben: G9 -
(3)Dev gibt: Ann: SA - Ben: G10 - Cleo: B3 -
---------------Rundenverlauf------------------
"""
"""Lines 1-16 (BSW ends card lines with a blank; the reader does not need it). The first
play is line 17."""

PLAY = [
    "(0)Ann: Ma ",  # 17
    "Wunsch:8",  # 18
    "(1)Ben: G8 ",  # 19
    "(2)Cleo: S10 ",  # 20
    "(3)Dev passt.",  # 21
    "(0)Ann: Dr ",  # 22
    "(1)Ben passt.",  # 23
    "(2)Cleo passt.",  # 24
    "(3)Dev passt.",  # 25
    "(0)Ann passt.",  # 26: the winner collects the trick
    "Drache an: (1)Ben",  # 27
    "(0)Ann: B6 G5 G4 S3 G2 ",  # 28: straight 2-6
    "(1)Ben: Ph S7 S6 B5 S4 ",  # 29: 3-7 or 4-8; BSW let Ben choose 3-7
    "(2)Cleo: S8 B7 G6 S5 B4 ",  # 30: 4-8 beats only 3-7
    "(3)Dev passt.",  # 31
    "(0)Ann passt.",  # 32
    "(1)Ben passt.",  # 33
    "(2)Cleo passt.",  # 34: collects
    "(2)Cleo: BD RD ",  # 35
    "(3)Dev: SK RK ",  # 36
    "(0)Ann passt.",  # 37
    "(1)Ben passt.",  # 38
    "(2)Cleo passt.",  # 39
    "(3)Dev passt.",  # 40: collects
    "(3)Dev: G3 R3 ",  # 41
    "(0)Ann: GA BA ",  # 42
]
FIRST = 17


def tch(play: list[str] | None = None, head: str = HEAD) -> str:
    return head + "".join(line + "\n" for line in (PLAY if play is None else play))


def at(number: int) -> int:
    """Index in PLAY of the line with this number."""
    return number - FIRST


def without(*numbers: int) -> list[str]:
    return [line for i, line in enumerate(PLAY) if i + FIRST not in numbers]


def only_incomplete(found: list[Diagnostic]) -> bool:
    """The snippet's round is unfinished: the one diagnostic is that warning."""
    return [d.code for d in found] == ["L008"]


# --- the real sample -------------------------------------------------------------------


def test_sample_parses_all_ten_rounds(sample: str) -> None:
    got = items(sample, "2417500")
    assert not [it for it in got if isinstance(it[1], Unreadable)]
    evs = [ev for _, ev in got if isinstance(ev, dict)]
    assert evs[0] == {"type": "game_start", "game": "2417500",
                      "players": ["evi_sea", "1David", "evdokia!!", "Lisaaaaaaa"], "target": 1000,
                      "variants": ["bsw"]}
    assert [ev["round"] for ev in evs if ev["type"] == "round_start"] == list(range(1, 11))
    assert sum(ev["type"] == "round_end" for ev in evs) == 10


def test_sample_events_are_well_formed(sample: str) -> None:
    rounds: list[list[dict[str, Any]]] = []
    for line, ev in items(sample, "2417500"):
        assert isinstance(ev, dict)
        assert 1 <= line <= sample.count("\n") + 1
        assert ev["game"] == "2417500"
        msgspec.convert(ev, Event)  # raises if not a format-1 event
        if ev["type"] == "round_start":
            rounds.append([])
        if rounds:
            rounds[-1].append(ev)
    for evs in rounds:
        kinds = [ev["type"] for ev in evs]
        assert kinds[:2] == ["round_start", "deal"]
        second = kinds.index("deal", 2)
        assert set(kinds[2:second]) <= {"call"}
        assert kinds[second + 1 : second + 5] == ["exchange"] * 4
        assert kinds[-1] == "round_end"
        assert set(kinds[second + 5 : -1]) <= {"play", "pass", "call", "dragon_gift"}


def test_sample_scores_are_the_files_ergebnis(sample: str) -> None:
    recorded = [[int(a), int(b)] for a, b in re.findall(r"^Ergebnis: (-?\d+) - (-?\d+)", sample,
                                                          re.MULTILINE)]
    ends = of_type(events(sample), "round_end")
    assert [ev["score"] for _, ev in ends] == recorded
    assert [line for line, _ in ends] == [i for i, text in enumerate(sample.split("\n"), 1)
                                          if text.startswith("Ergebnis:")]


def test_sample_deals_hold_the_56_cards_once_per_round(sample: str) -> None:
    deals = [ev["hands"] for _, ev in of_type(events(sample), "deal")]
    assert len(deals) == 20
    for first, second in zip(deals[::2], deals[1::2], strict=True):
        assert [len(h) for h in first] == [8] * 4
        assert [len(h) for h in second] == [6] * 4
        cards = [c for h in first + second for c in h]
        assert sorted(cards) == sorted(TOKENS)


def test_sample_replays_clean_with_confirmed_scores(sample: str) -> None:
    found, rounds = replay(sample)
    assert codes(found) == []
    assert [r.status for r in rounds] == ["scored"] * 10
    assert all(r.score == r.recorded_score for r in rounds)


def test_sample_plays_point_at_their_lines(sample: str) -> None:
    lines = sample.split("\n")
    for line, ev in events(sample):
        text = lines[line - 1]
        if ev["type"] == "play":
            assert text.startswith(f"({ev['seat']})")
            assert [CARD_OF_TCH[t] for t in text.split(": ", 1)[1].split()] == ev["cards"]
        elif ev["type"] == "pass":
            assert text.startswith(f"({ev['seat']})")  # no pass needed inserting in the sample
        elif ev["type"] == "dragon_gift":
            assert text.startswith("Drache an: ")


def test_sample_drops_only_the_winners_collecting_passes(sample: str) -> None:
    lines = sample.split("\n")
    kept = {line for line, ev in of_type(events(sample), "pass")}
    dropped = [n for n, text in enumerate(lines, 1) if text.endswith(" passt.") and n not in kept]
    assert len(dropped) == 100
    # each is the seat that made the trick's last play, and that seat plays next
    for n in dropped:
        seat = lines[n - 1][:3]
        nxt = next(t for t in lines[n:] if t.startswith("(") and ": " in t)
        assert nxt.startswith(seat)


def canon(ev: dict[str, Any]) -> dict[str, Any]:
    """``ev`` with its cards in one order (format 1 leaves the order free)."""
    ev = dict(ev)
    if "hands" in ev:
        ev["hands"] = [sorted(h) for h in ev["hands"]]
    if "cards" in ev:
        ev["cards"] = sorted(ev["cards"])
    return ev


def test_sample_read_written_and_read_again_gives_the_same_events(sample: str) -> None:
    first = [canon(ev) for _, ev in events(sample)]
    again = [canon(ev) for _, ev in events(write_tch(first))]
    assert again == first


# --- genuine violations in tampered copies of the sample --------------------------------


@pytest.mark.parametrize(
    ("change", "code", "line"),
    [
        # the wish for 3: evi_sea plays a 2 while holding 3s (one line later)
        (((19, "Wunsch:3"),), "W001", 20),
        # the wish for 4: Lisaaaaaaa passes while a full house with her 4s beats the top
        (((113, "Wunsch:4"),), "W001", 127),
        # the Dragon's trick given to the own team (1David to his partner Lisaaaaaaa; the score
        # stays: evi_sea, who got it, finished last and handed her tricks to 1David)
        (((812, "Drache an: (3)Lisaaaaaaa"),), "G001", 812),
        # a wrong score
        (((94, "Ergebnis: 0 - 300"),), "S002", 94),
        # a pair of 4s on the pair of 5s (Lisaaaaaaa's two pairs swapped)
        (((63, "(3)Lisaaaaaaa: G4 S4 "), (70, "(3)Lisaaaaaaa: G7 B7 ")), "P005", 63),
        # a single Jack on the pair of Kings (Lisaaaaaaa's plays swapped)
        (((66, "(3)Lisaaaaaaa: RB "), (81, "(3)Lisaaaaaaa: BA RA ")), "P004", 66),
    ],
)
def test_genuine_violations_survive(sample: str, change: tuple[tuple[int, str], ...], code: str,
                                    line: int) -> None:
    found, _ = replay(edit(sample, *change))
    assert errors(found) == [(code, line)]
    assert codes(found) == [(code, line)]


def test_missing_gift_goes_to_the_opponent_the_ergebnis_needs(sample: str) -> None:
    # round 10: 1David's Dragon trick went to evi_sea (seat 0), who finished last, so her
    # tricks went to 1David; giving it to the default (seat 2) would change the score
    assert sample.split("\n")[811] == "Drache an: (0)evi_sea"
    text = edit(sample, (812, None))
    gifts = [(line, ev) for line, ev in of_type(events(text), "dragon_gift") if line >= 800]
    assert gifts == [(812, {"type": "dragon_gift", "game": "g", "seat": 1, "to": 0})]
    found, rounds = replay(text)
    assert codes(found) == []
    assert rounds[-1].score == rounds[-1].recorded_score == [-65, 165]


def test_missing_pass_before_the_next_seat_leads_when_the_winner_is_out(sample: str) -> None:
    # round 6: evi_sea goes out with SA; 1David and evdokia pass; 1David leads BA
    lines = sample.split("\n")
    lead = line_of(sample, "(1)1David: BA")
    assert lines[lead - 3 : lead - 1] == ["(1)1David passt.", "(2)evdokia!! passt."]
    text = edit(sample, (lead - 1, None))  # evdokia's pass is not logged
    evs = events(text)
    lead -= 1
    assert (lead, {"type": "pass", "game": "g", "seat": 2}) in evs
    found, _ = replay(text)
    assert codes(found) == []


# --- BSW's habits, normalized ------------------------------------------------------------


def test_base_snippet_is_clean_and_the_winners_passes_are_dropped() -> None:
    text = tch()
    found, _ = replay(text)
    assert only_incomplete(found)
    passes = {line for line, _ in of_type(events(text), "pass")}
    assert not passes & {26, 34, 40}  # the winners collecting their tricks
    assert {21, 23, 24, 25, 31, 32, 33, 37, 38, 39} <= passes


def test_passes_by_seats_not_on_turn_are_dropped() -> None:
    play = list(PLAY)
    play.insert(at(22), "(3)Dev passt.")  # Dev passed already; Ann is on turn
    play.insert(at(25), "(1)Ben passt.")  # twice
    play.insert(at(42), "(0)Ann passt.")  # waiting for Dev's lead
    text = tch(play)
    evs = events(text)
    assert not {22, 25, 42} & {line for line, _ in of_type(evs, "pass")}
    assert len(of_type(evs, "pass")) == len(of_type(events(tch()), "pass"))
    found, _ = replay(text)
    assert only_incomplete(found)


def test_missing_trailing_passes_are_inserted_at_the_next_lead() -> None:
    # Ann's and Ben's passes after Cleo's straight are not logged; Cleo leads again
    text = tch(without(32, 33, 34))
    evs = events(text)
    lead = 32  # "(2)Cleo: BD RD" moved up to line 32
    assert text.split("\n")[lead - 1] == "(2)Cleo: BD RD "
    i = evs.index((lead, {"type": "play", "game": "g", "seat": 2, "cards": ["Qp", "Qr"]}))
    assert evs[i - 2 : i] == [(lead, {"type": "pass", "game": "g", "seat": 0}),
                              (lead, {"type": "pass", "game": "g", "seat": 1})]
    found, _ = replay(text)
    assert only_incomplete(found)


def test_a_pass_missing_inside_a_trick_is_inserted() -> None:
    # Dev's pass on Cleo's 10 is not logged; Ann's Dragon shows he passed
    text = tch(without(21))
    evs = events(text)
    assert (21, {"type": "pass", "game": "g", "seat": 3}) in evs  # tagged at the Dragon's line
    assert text.split("\n")[20] == "(0)Ann: Dr "
    found, _ = replay(text)
    assert only_incomplete(found)


def test_tichu_logged_after_the_first_play_is_moved_before_it() -> None:
    play = list(PLAY)
    play.insert(at(20), "Tichu: (1)Ben")  # logged right after Ben's first play (line 19)
    text = tch(play)
    evs = events(text)
    call = (20, {"type": "call", "game": "g", "seat": 1, "call": "tichu"})
    first_play = (19, {"type": "play", "game": "g", "seat": 1, "cards": ["8j"]})
    assert evs.index(call) == evs.index(first_play) - 1
    found, rounds = replay(text)
    assert only_incomplete(found)
    assert rounds[0].calls[1] == "tichu"


def test_tichu_logged_one_move_after_the_first_play_is_moved_too() -> None:
    play = list(PLAY)
    play.insert(at(21), "Tichu: (1)Ben")  # after Cleo's reply to Ben's first play
    found, _ = replay(tch(play))
    assert only_incomplete(found)


def test_tichu_after_the_callers_second_play_stays_late() -> None:
    play = list(PLAY)
    play.insert(at(30), "Tichu: (1)Ben")  # after Ben's Phoenix straight, his second play
    text = tch(play)
    assert (30, {"type": "call", "game": "g", "seat": 1, "call": "tichu"}) in events(text)
    found, _ = replay(text)
    assert errors(found) == [("C002", 30)]


@pytest.mark.parametrize("first", ["Tichu: (1)Ben", "Grosses Tichu: (1)Ben"])
def test_a_repeated_call_is_dropped(first: str) -> None:
    head = HEAD.replace("Schupfen:", f"{first}\nSchupfen:")
    play = ["Tichu: (1)Ben", *PLAY[:3], "Tichu: (1)Ben", *PLAY[3:]]
    text = tch(play, head)
    calls = of_type(events(text), "call")
    assert [line for line, _ in calls] == [11]
    found, rounds = replay(text)
    assert only_incomplete(found)
    assert rounds[0].calls[1] == ("tichu" if first.startswith("Tichu") else "grand_tichu")


def test_grand_tichu_between_the_hand_blocks() -> None:
    header = "---------------Startkarten------------------"
    head = HEAD.replace(header, f"Grosses Tichu: (3)Dev\n{header}")
    evs = events(tch(head=head))
    kinds = [ev["type"] for _, ev in evs[:6]]
    assert kinds == ["game_start", "round_start", "deal", "call", "deal", "exchange"]


def test_crlf_line_ends_and_indented_lines() -> None:
    text = tch().replace("(1)Ben passt.", "  (1)Ben passt.")
    assert events(text.replace("\n", "\r\n")) == events(tch())


def test_a_player_replaced_between_rounds() -> None:
    # a seat keeps its number; lines name the player who sits there in that round
    second = tch().replace("Dev", "Devon")
    text = tch() + second
    evs = events(text)
    assert evs[0][1]["players"] == ["Ann", "Ben", "Cleo", "Dev"]
    n = tch().count("\n")
    assert [ev for line, ev in evs if line > n and ev["type"] != "round_start"] == [
        ev for line, ev in events(tch()) if ev["type"] not in ("round_start", "game_start")]
    assert [ev.get("players") for _, ev in of_type(evs, "round_start")] == [
        None, ["Ann", "Ben", "Cleo", "Devon"]]


def _card_lists_named(text: str, names: list[str]) -> str:
    """``text`` with the names of its card lists (``Gr.Tichukarten``, ``Startkarten``)
    replaced by ``names``, by seat; the exchange and play lines keep theirs."""
    lines = text.split("\n")
    section = ""
    for i, line in enumerate(lines):
        if "Tichukarten" in line or "Startkarten" in line:
            section = "cards"
        elif line.startswith("Schupfen") or "Rundenverlauf" in line:
            section = ""
        elif section and line[:1] == "(":
            seat = int(line[1])
            lines[i] = f"({seat}){names[seat]} " + line.split(" ", 1)[1]
    return "\n".join(lines)


@pytest.mark.parametrize("names", [
    ["Ben", "Cleo", "Dev", "Ann"],  # the names in another order, the seat numbers holding
    ["Ann", "Ben", "Cleo", "Walt"],  # the player who left, still shown in the card lists
    ["Ann", "", "Cleo", "Dev"],  # the newcomer left blank
])
def test_the_players_of_a_round_are_those_who_exchanged_in_it(names: list[str]) -> None:
    # the round is read whatever names its card lists give: each seat is the person of its
    # own exchange line, the recipients are named so, the cards are the card lists'
    text = _card_lists_named(tch(), names)
    evs = events(text)
    assert evs[0][1]["players"] == ["Ann", "Ben", "Cleo", "Dev"]
    assert [ev for _, ev in evs if ev["type"] != "game_start"] == [
        ev for _, ev in events(tch()) if ev["type"] != "game_start"]
    found, _ = replay(text)
    assert only_incomplete(found)


def test_missing_dragon_gift_is_synthesized_at_the_next_event() -> None:
    text = tch(without(27))
    evs = events(text)
    gift = (27, {"type": "dragon_gift", "game": "g", "seat": 0, "to": 1})  # next seat after Ann
    lead = (27, {"type": "play", "game": "g", "seat": 0, "cards": ["6p", "5j", "4j", "3s", "2j"]})
    assert evs.index(gift) == evs.index(lead) - 1
    found, _ = replay(text)
    assert only_incomplete(found)


def test_drache_an_logged_late_is_used() -> None:
    play = without(27)
    play.insert(at(29), "Drache an: (3)Dev")  # after the next lead
    text = tch(play)
    evs = events(text)
    gift = (29, {"type": "dragon_gift", "game": "g", "seat": 0, "to": 3})
    lead = (27, {"type": "play", "game": "g", "seat": 0, "cards": ["6p", "5j", "4j", "3s", "2j"]})
    assert evs.index(gift) == evs.index(lead) - 1
    assert len(of_type(evs, "dragon_gift")) == 1
    found, _ = replay(text)
    assert only_incomplete(found)


def test_drache_an_before_the_last_passes_gets_them_inserted() -> None:
    play = without(24, 25, 26, 27)  # Cleo's and Dev's passes are not logged
    play.insert(at(24), "Drache an: (3)Dev")  # line 24 now
    text = tch(play)
    evs = events(text)
    assert (24, {"type": "pass", "game": "g", "seat": 2}) in evs
    assert (24, {"type": "pass", "game": "g", "seat": 3}) in evs
    found, _ = replay(text)
    assert only_incomplete(found)


def test_phoenix_lower_reading_is_pinned_when_the_next_play_proves_it() -> None:
    evs = events(tch())
    ben = next(ev for line, ev in evs if line == 29)
    assert ben["phoenix"] == "3"  # straight 3-7: Cleo's 4-8 beats it, not 4-8
    # without the pin the replay would take 4-8 and call Cleo's straight illegal
    del ben["phoenix"]
    found, _ = replay_events(evs)
    assert ("P005", 30) in codes(found)


def test_phoenix_reading_not_proven_is_left_to_the_engine() -> None:
    play = list(PLAY[: at(30)]) + ["(2)Cleo passt.", "(3)Dev passt.", "(0)Ann passt."]
    evs = events(tch(play))
    ben = next(ev for line, ev in evs if line == 29)
    assert "phoenix" not in ben  # the highest reading, 4-8


def deal_round(hands: dict[int, list[str]], script: list[tuple[int, list[str]] | int],
               game: str = "g") -> list[dict[str, Any]]:
    """Events of a round in which the seats hold (after the exchange) at least ``hands``
    (the rest of the deck is dealt in turn), then play ``script``: plays ``(seat, cards)``
    and passes ``seat``. Each seat got the last three cards of its hand in the exchange."""
    full = {s: list(hands.get(s, [])) for s in range(4)}
    spare = [t for t in TOKENS if not any(t in h for h in full.values())]
    for s in range(4):
        while len(full[s]) < 14:
            full[s].insert(0, spare.pop())
    given: dict[int, dict[str, str]] = {s: {} for s in range(4)}
    for s in range(4):
        for k, card in zip((1, 2, 3), full[s][-3:], strict=True):
            given[(s + k) & 3][str(s)] = card
    start = {s: full[s][:-3] + list(given[s].values()) for s in range(4)}
    evs: list[dict[str, Any]] = [
        {"type": "game_start", "game": game, "players": ["Ann", "Ben", "Cleo", "Dev"]},
        {"type": "round_start", "game": game, "round": 1},
        {"type": "deal", "game": game, "hands": [start[s][:8] for s in range(4)]},
        {"type": "deal", "game": game, "hands": [start[s][8:] for s in range(4)]},
    ]
    evs += [{"type": "exchange", "game": game, "seat": s, "give": given[s]} for s in range(4)]
    for step in script:
        if isinstance(step, int):
            evs.append({"type": "pass", "game": game, "seat": step})
        else:
            evs.append({"type": "play", "game": game, "seat": step[0], "cards": step[1]})
    return evs


def with_score(evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``evs`` of one round, ended by the ``round_end`` the replay computes."""
    found, rounds = replay_events(list(enumerate(evs, 1)))
    assert errors(found) == [] and rounds[0].score is not None
    return [*evs, {"type": "round_end", "game": "g", "round": 1, "score": rounds[0].score}]


def test_phoenix_full_house_lower_triple_is_pinned() -> None:
    # Ann leads Phoenix 6 6 2 2, read as 2s over 6s: Ben's 4s over 9s beats only that
    evs = deal_round(
        {0: ["Mahjong", "Phoenix", "6j", "6s", "2j", "2s"], 1: ["4j", "4s", "4p", "9j", "9s"]},
        [(0, ["Phoenix", "6j", "6s", "2j", "2s"]), (1, ["4j", "4s", "4p", "9j", "9s"]), 2, 3, 0],
    )
    got = events(write_tch(evs))
    ann = next(ev for _, ev in got if ev["type"] == "play" and ev["seat"] == 0)
    assert ann["phoenix"] == "2"
    found, _ = replay_events(got)
    assert only_incomplete(found)


def test_phoenix_straight_must_beat_what_it_is_played_on() -> None:
    # on the straight 4-8, Phoenix 5 6 7 8 must be 5-9 (the highest reading anyway)
    evs = deal_round(
        {0: ["Mahjong", "4j", "5j", "6s", "7s", "8s"], 1: ["Phoenix", "5p", "6p", "7p", "8j"]},
        [(0, ["4j", "5j", "6s", "7s", "8s"]), (1, ["Phoenix", "5p", "6p", "7p", "8j"]), 2, 3, 0],
    )
    got = events(write_tch(evs))
    ben = next(ev for _, ev in got if ev["type"] == "play" and ev["seat"] == 1)
    assert "phoenix" not in ben
    found, _ = replay_events(got)
    assert only_incomplete(found)


def test_plays_logged_after_the_round_ended_are_dropped(sample: str) -> None:
    # round 1 ends with a double victory at Lisaaaaaaa's Dog; evi_sea still holds B4
    end = line_of(sample, "Ergebnis: 0 - 400")
    assert sample.split("\n")[end - 2] == "(3)Lisaaaaaaa: Hu "
    text = edit(sample, (end, "(0)evi_sea: B4 \n(2)evdokia!! passt.\nErgebnis: 0 - 400"))
    assert not [line for line, _ in events(text) if line in (end, end + 1)]
    found, _ = replay(text)
    assert codes(found) == []


# A whole round: Ann leads the King of Jade, everyone passes, Ann leads four 9s, Ben bombs
# them with four Jacks and goes out with stairs; Cleo goes out with a straight, a full house
# and a pair; Dev leads the 10 of Star, Ann beats it with a Queen and goes out with a
# straight from the Mahjong. Dev is last.
WHOLE = {
    0: ["Mahjong", "2j", "3j", "4s", "5j", "6j", "7s", "8s", "Kj", "9j", "9s", "9p", "9r", "Qr"],
    1: ["Jj", "Js", "Jp", "Jr", "2s", "2p", "3s", "3p", "4j", "4p", "5s", "5p", "6s", "6p"],
    2: ["2r", "3r", "4r", "5r", "6r", "7j", "8j", "Qj", "Qs", "Qp", "10s", "10p", "Ks", "Kp"],
    3: ["7p", "7r", "8p", "8r", "10r", "10j", "Kr", "Aj", "As", "Ap", "Ar", "Dragon", "Phoenix",
        "Dog"],
}
WHOLE_PLAY: list[tuple[int, list[str]] | int] = [
    (0, ["Kj"]), 1, 2, 3,
    (0, ["9j", "9s", "9p", "9r"]), (1, ["Jj", "Js", "Jp", "Jr"]), 2, 3, 0,
    (1, ["2s", "2p", "3s", "3p", "4j", "4p", "5s", "5p", "6s", "6p"]), 2, 3, 0,
    (2, ["2r", "3r", "4r", "5r", "6r", "7j", "8j"]), 3, 0,
    (2, ["Qj", "Qs", "Qp", "10s", "10p"]), 3, 0,
    (2, ["Ks", "Kp"]), 3, 0,
    (3, ["10r"]), (0, ["Qr"]), 3,
    (0, ["Mahjong", "2j", "3j", "4s", "5j", "6j", "7s", "8s"]),
]


def whole_round() -> str:
    return write_tch(with_score(deal_round(WHOLE, WHOLE_PLAY)))


def test_whole_round_reads_back() -> None:
    text = whole_round()
    assert "Ergebnis: 90 - 10" in text  # with the King's trick Ann's
    found, rounds = replay(text)
    assert codes(found) == [] and rounds[0].score == [90, 10]


def test_the_ergebnis_tells_a_lead_after_dropped_passes_from_a_bomb_on_the_own_trick() -> None:
    # without the passes after the King, four 2s read as a bomb on Ann's own King would
    # give the King to Ben, who bombs them: the Ergebnis says Ann took it
    text = whole_round()
    lines = text.split("\n")
    king = line_of(text, "(0)Ann: GK")
    assert lines[king : king + 4] == ["(1)Ben passt.", "(2)Cleo passt.", "(3)Dev passt.",
                                      "(0)Ann passt."]
    text = edit(text, *((n, None) for n in range(king + 1, king + 5)))
    evs = events(text)
    # (under bsw, rules 9.4, Ann's own pass, her taking the trick, makes the bomb a lead)
    assert [ev["seat"] for line, ev in of_type(evs, "pass") if line == king + 1] == [1, 2, 3, 0]
    found, rounds = replay(text)
    assert codes(found) == [] and rounds[0].score == [90, 10]
    # with another Ergebnis, the bomb stays on the own King and Ben takes it
    text = text.replace("Ergebnis: 90 - 10", "Ergebnis: 80 - 20")
    assert not [ev for line, ev in of_type(events(text), "pass") if line == king + 1]
    found, rounds = replay(text)
    assert codes(found) == [] and rounds[0].score == [80, 20]


def test_a_bomb_on_the_own_trick_stays_one() -> None:
    # the same bomb, logged where Ann played it: on her own King, before anyone passed
    evs = deal_round(WHOLE, [(0, ["Kj"]), (0, ["9j", "9s", "9p", "9r"]), 1, 2, 3])
    got = events(write_tch(evs))
    assert len(of_type(got, "pass")) == 3
    found, rounds = replay_events(got)
    assert only_incomplete(found)
    assert len(rounds[0].steps) == len(evs) - 1


def test_all_passes_missing_when_the_winner_is_out(sample: str) -> None:
    # round 6: evi_sea goes out with SA; neither pass is logged before 1David leads BA,
    # which as a reply would not beat the Ace
    lead = line_of(sample, "(1)1David: BA")
    text = edit(sample, (lead - 1, None), (lead - 2, None))
    assert (lead - 2, {"type": "pass", "game": "g", "seat": 1}) in events(text)
    found, _ = replay(text)
    assert codes(found) == []


# --- encodings, names, file shapes -------------------------------------------------------

NAMES = ["Jörg\xa0M", "Zoë", "李雷", "Ann Marie "]


def renamed(text: str, names: list[str]) -> str:
    for old, new in zip(["Ann", "Ben", "Cleo", "Dev"], names, strict=True):
        text = re.sub(rf"(?<=[)\s]){old}(?=[ :])", new, text)
    return text


def test_non_ascii_names_with_spaces_and_nbsp_survive() -> None:
    text = renamed(tch(), NAMES)
    assert "(0)Jörg\xa0M Dr BA" in text and "(3)Ann Marie  SK RK" in text
    evs = events(text)
    assert evs[0][1]["players"] == NAMES
    found, _ = replay(text)
    assert only_incomplete(found)
    assert events(tch())[1:] == evs[1:]


def test_cp1252_file() -> None:
    names = ["Jörg\xa0M", "Zoë", "Ünal", "Ann Marie "]
    data = renamed(tch(), names).encode("cp1252")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    got = items(data)
    assert got[0][1] == {"type": "game_start", "game": "g", "players": names, "target": 1000,
                         "variants": ["bsw"]}
    assert [ev for _, ev in got[1:]] == [ev for _, ev in items(tch())[1:]]


def test_decode_text() -> None:
    assert decode_text("Jörg\xa0M".encode()) == "Jörg\xa0M"
    assert decode_text("Jörg\xa0M".encode("cp1252")) == "Jörg\xa0M"
    assert decode_text(b"\xef\xbb\xbfabc") == "abc"
    assert decode_text(b"a\x81b") == "a\x81b"  # not cp1252: latin-1


def test_looks_like_tch() -> None:
    assert looks_like_tch(tch().encode()[:200])
    assert looks_like_tch(b"\r\n" + tch().encode("cp1252")[:60])
    assert not looks_like_tch(b'{"type":"game_start","game":"g"}\n')
    assert not looks_like_tch(b"")
    assert not looks_like_tch(b"---------------Rundenverlauf------------------\n")


def test_file_ending_mid_round_emits_what_it_has() -> None:
    text = tch(PLAY[: at(30)])  # ends after Ben's Phoenix straight
    evs = events(text)
    assert evs[-1][0] == 29
    found, _ = replay(text)
    assert codes(found) == [("L008", 29)]


def test_file_ending_inside_a_line() -> None:
    text = tch(PLAY[: at(24)]) + "(2)Cleo passt"
    evs = events(text)
    assert evs[-1] == (24, {"type": "pass", "game": "g", "seat": 2})


def test_restarted_round() -> None:
    # the first block stops after the Startkarten; a new Gr.Tichukarten block starts over
    restart = "\n".join(HEAD.split("\n")[:10]) + "\nGrosses Tichu: (2)Cleo\n"
    text = restart + tch()
    evs = events(text)
    starts = of_type(evs, "round_start")
    assert [(line, ev["round"]) for line, ev in starts] == [(1, 1), (12, 2)]
    assert len(of_type(evs, "game_start")) == 1
    kinds = [ev["type"] for line, ev in evs if line < 12]
    assert kinds == ["game_start", "round_start", "deal", "call", "deal"]
    found, _ = replay(text)
    assert codes(found) == [("L008", 12), ("L008", text.count("\n"))]


def test_unreadable_line_skips_the_rest_of_its_round() -> None:
    play = list(PLAY)
    play[at(30)] = "(2)Cleo: S8 X7 G6 S5 B4 "
    first = tch(play)
    text = first + tch()  # and a second, readable round
    got = items(text)
    bad = [(line, it) for line, it in got if isinstance(it, Unreadable)]
    assert [line for line, _ in bad] == [30]
    assert isinstance(bad[0][1], Unreadable) and "X7" in bad[0][1].message
    second = first.count("\n") + 1
    assert not [line for line, it in got if 30 < line < second]
    assert [ev["round"] for _, ev in of_type(events(text), "round_start")] == [1, 2]
    found, _ = replay(text)
    assert codes(found) == [("L002", 30), ("L008", second), ("L008", text.count("\n"))]


@pytest.mark.parametrize(
    "line",
    [
        "(1)Ben: ",  # a play without cards
        "Wunsch:Z",  # not a rank
        "(1)Ben spielt.",
        "Hello",
    ],
)
def test_lines_not_understood(line: str) -> None:
    play = list(PLAY)
    play.insert(at(23), line)
    got = items(tch(play))
    assert [n for n, it in got if isinstance(it, Unreadable)] == [23]
    assert max(n for n, it in got if not isinstance(it, Unreadable)) == 22


def test_bombe_lines_are_ignored() -> None:
    head = HEAD.replace("---------------Rundenverlauf",
                        "BOMBE: (3)Dev \n---------------Rundenverlauf")
    play = ["BOMBE: (0)Ann", *PLAY]
    assert [ev for _, ev in events(tch(play, head))] == [ev for _, ev in events(tch())]



# --- reading as a stream ------------------------------------------------------------------


def test_tch_lines_split_count_and_decode() -> None:
    lines = TchLines(b"\xef\xbb\xbfa\r\n\nb \xc3\xa9\nlast")
    assert list(lines) == ["a", "", "b é", "last"]
    assert lines.count == 4
    lines = TchLines(b"a\n")
    assert list(lines) == ["a"] and lines.count == 1
    lines = TchLines(b"")
    assert list(lines) == [] and lines.count == 0


class _Trickle(io.RawIOBase):
    """A stream that gives at most ``step`` bytes a read (a pipe, a socket)."""

    def __init__(self, data: bytes, step: int) -> None:
        self.data, self.step = data, step

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(self.step, len(buffer), len(self.data))
        buffer[:n], self.data = self.data[:n], self.data[n:]
        return n


@pytest.mark.parametrize("step", [1, 7, 1000, 1 << 16])
@pytest.mark.parametrize("data", [b"a\r\nb\n\nc", b"a\nb\n", b"x" * 70_000 + b"\ny\r\n"])
def test_tch_lines_of_a_stream_that_gives_less_than_asked(data: bytes, step: int) -> None:
    """A short first read is not the end of the file: every line comes, counted."""
    whole = TchLines(data)
    expected = list(whole)
    lines = TchLines(_Trickle(data, step))  # type: ignore[arg-type]
    assert list(lines) == expected and lines.count == whole.count


def test_tch_lines_utf8_cut_by_the_prefix_stays_utf8() -> None:
    data = b"a" * (65536 - 1) + "é\nx\n".encode()  # "é" straddles the first 64 KiB
    assert list(TchLines(data)) == ["a" * 65535 + "é", "x"]


def test_a_line_beyond_the_prefix_in_another_encoding_is_decoded_on_its_own(
        sample: str) -> None:
    # one game of 50 rounds (> 64 KiB), UTF-8; a newcomer in cp1252 in the last ten
    later = replaced(sample, "1David", "Jörg\xa0M", first=1).encode("cp1252")
    data = (sample * 4).encode() + later
    assert len(data) - len(later) > 65536
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    players = [ev.get("players") for _, ev in of_type(events(data), "round_start")]
    assert players[40] == ["evi_sea", "Jörg\xa0M", "evdokia!!", "Lisaaaaaaa"]
    assert players.count(None) == 49


def test_a_file_is_read_as_a_stream(sample: str, tmp_path: Path) -> None:
    path = tmp_path / "big.tch"
    path.write_text(sample * 4, encoding="utf-8")
    with open(path, "rb") as f:
        streamed = [(line, ev if isinstance(ev, Unreadable) else event_dict(ev))
                    for line, ev in read_tch(f, "g")]
    assert streamed == items(sample * 4)
    assert len(of_type(events(sample * 4), "round_end")) == 40


def test_a_line_too_long_is_not_read() -> None:
    long_line = "(2)Cleo: " + "S8 " * (MAX_LINE // 3)
    text = tch(PLAY[: at(30)] + [long_line] + PLAY[at(31):]) + tch()
    got = items(text)
    bad = [(line, it) for line, it in got if isinstance(it, Unreadable)]
    assert bad == [(30, Unreadable("a line longer than 4 MiB"))]
    assert [ev["round"] for _, ev in of_type(events(text), "round_start")] == [1, 2]
    found, _ = replay(text)
    assert ("L002", 30) in codes(found)
    # outside a round
    got = items("x" * (MAX_LINE + 1) + "\n" + tch())
    assert got[0] == (1, Unreadable("a line longer than 4 MiB outside a round "
                                    "(no Gr.Tichukarten header before it)"))


def test_a_round_too_long_is_cut() -> None:
    text = tch(PLAY[:at(21)] + ["(3)Dev passt."] * MAX_ROUND_LINES) + tch()
    bad = [(line, it) for line, it in items(text) if isinstance(it, Unreadable)]
    assert bad == [(MAX_ROUND_LINES + 1 + 1, Unreadable("the round has more than 10,000 lines"))]
    assert [ev["round"] for _, ev in of_type(events(text), "round_start")] == [1, 2]


# --- tokens and the writer ---------------------------------------------------------------


def test_card_tokens() -> None:
    assert CARD_OF_TCH["S9"] == "9s"
    assert CARD_OF_TCH["BB"] == "Jp"
    assert CARD_OF_TCH["GD"] == "Qj"
    assert CARD_OF_TCH["R10"] == "10r"
    assert CARD_OF_TCH["Ma"] == "Mahjong"
    assert CARD_OF_TCH["Hu"] == "Dog"
    assert sorted(TCH_TOKEN) == sorted(TOKENS)
    assert len(CARD_OF_TCH) == 56


def test_write_tch_writes_bsw_style() -> None:
    # the inline round was written by write_tch: reading and writing it gives it back,
    # the winners' collecting passes included
    written = write_tch([ev for _, ev in events(tch())])
    assert written.split("\n")[1] == "(0)Ann Dr BA B6 G5 G4 S3 G2 Ma "
    assert [line.rstrip(" ") for line in written.split("\n")] == [
        line.rstrip(" ") for line in tch().split("\n")]


@pytest.mark.parametrize("seed", range(12))
def test_simulated_games_round_trip(seed: int) -> None:
    games: dict[str, list[dict[str, Any]]] = {}
    for ev in simulate(1, seed):
        games.setdefault(ev["game"], []).append(ev)
    for game, evs in games.items():
        original = [(i, ev) for i, ev in enumerate(evs, 1) if ev["type"] != "game_end"]
        text = write_tch([ev for _, ev in original])
        assert looks_like_tch(text.encode())
        back = items(text, game)
        assert not [it for it in back if isinstance(it[1], Unreadable)]
        found1, rounds1 = replay_events(original)
        found2, rounds2 = replay_events([(line, ev) for line, ev in back
                                         if isinstance(ev, dict)])
        assert Counter(d.code for d in found2) == Counter(d.code for d in found1)
        assert errors(found2) == []

        def summary(rounds: list[RoundRecord]) -> list[Any]:
            return [(r.round, r.status, r.score, r.finish_order, r.calls, r.dragon_gifts,
                     [(t.leader, t.winner, t.taken_by, t.points) for t in r.tricks])
                    for r in rounds]

        assert summary(rounds2) == summary(rounds1)


def test_sample_copy_is_unchanged() -> None:
    if not SHARED.exists():
        pytest.skip("the project's reference copy of the sample (../shared/samples/2417500.tch) "
                    "is not on this machine; sample_logs/2417500.tch is tested on its own")
    assert SAMPLE.read_bytes() == SHARED.read_bytes()


# --- players replaced during a game --------------------------------------------------------

ROUND_4 = 262  # the Gr.Tichukarten header of the sample's fourth round
STARTKARTEN_4 = 267


def replaced(sample: str, old: str, new: str, first: int = ROUND_4,
             blank: bool = False) -> str:
    """The sample with seat ``old`` taken over by ``new`` from the round whose header is
    at line ``first``; ``blank``: that round's card lists leave the seat's name blank."""
    lines = sample.split("\n")
    for i in range(first - 1, len(lines)):
        lines[i] = re.sub(rf"(?<=[)\s]){re.escape(old)}(?=[ :])", new, lines[i])
    if blank:
        for header in (first, first + 5):
            for i in range(header, header + 4):
                seat = lines[i][:3]
                if lines[i].startswith(seat + new + " "):
                    lines[i] = seat + lines[i][3 + len(new):]
    return "\n".join(lines)


def seatings(text: str) -> list[tuple[int, list[str] | None]]:
    """``(round, players)`` of each round_start."""
    return [(ev["round"], ev.get("players")) for _, ev in of_type(events(text), "round_start")]


def test_a_player_replaced_between_rounds_is_named_from_that_round_on(sample: str) -> None:
    text = replaced(sample, "Lisaaaaaaa", "Lisa B")
    evs = events(text)
    assert evs[0][1]["players"] == ["evi_sea", "1David", "evdokia!!", "Lisaaaaaaa"]
    new = ["evi_sea", "1David", "evdokia!!", "Lisa B"]
    assert [(n, p) for n, p in seatings(text) if p is not None] == [(4, new)]
    assert (ROUND_4, {"type": "round_start", "game": "g", "round": 4, "players": new}) in evs
    found, rounds = replay(text)
    assert codes(found) == []
    assert [r.status for r in rounds] == ["scored"] * 10
    # the same events as the sample but for the seating
    assert [ev for _, ev in evs[1:] if ev["type"] != "round_start"] == [
        ev for _, ev in events(sample)[1:] if ev["type"] != "round_start"]


@pytest.mark.parametrize(("old", "new"), [
    ("evi_sea", "Jörg\xa0M"),  # seat 0: its own exchange line is the first to name it
    ("1David", "Neu Mann\xa0B"),  # seat 1: named first as the recipient of seat 0
    ("Lisaaaaaaa", "李雷"),  # seat 3: named by the three others before its own line
])
def test_a_newcomer_blank_in_the_card_lists_is_named_by_the_exchange(
        sample: str, old: str, new: str) -> None:
    text = replaced(sample, old, new, blank=True)
    lines = text.split("\n")
    seat = ["evi_sea", "1David", "evdokia!!", "Lisaaaaaaa"].index(old)
    assert lines[ROUND_4 + seat][:4] == lines[STARTKARTEN_4 + seat][:4] == f"({seat}) "
    players = ["evi_sea", "1David", "evdokia!!", "Lisaaaaaaa"]
    players[seat] = new
    assert [(n, p) for n, p in seatings(text) if p is not None] == [(4, players)]
    found, rounds = replay(text)
    assert codes(found) == []
    assert [r.status for r in rounds] == ["scored"] * 10
    # in cp1252, as old files are, where the names allow it
    if new != "李雷":
        assert items(text.encode("cp1252")) == items(text)


def test_a_name_blank_in_the_card_lists_of_the_same_player_changes_nothing(sample: str) -> None:
    text = replaced(sample, "1David", "1David", blank=True)
    assert text.split("\n")[ROUND_4 + 1][:4] == "(1) "
    assert [p for _, p in seatings(text)] == [None] * 10
    assert events(text) == events(sample)
    found, _ = replay(text)
    assert codes(found) == []


def test_a_name_blank_and_never_named_keeps_the_seats_player() -> None:
    # the round's exchange lines are missing: nothing names the seat
    second = "\n".join(line for line in HEAD.split("\n")
                       if " gibt: " not in line).replace("(2)Cleo ", "(2) ")
    text = tch() + second
    assert [p for _, p in seatings(text)] == [None, None]


def test_a_name_spelled_otherwise_is_another_player(sample: str) -> None:
    # BSW writes the account's name as it is: another spelling is another account
    text = replaced(sample, "evdokia!!", "Evdokia!!", first=166)
    assert [(n, p) for n, p in seatings(text) if p is not None] == [
        (3, ["evi_sea", "1David", "Evdokia!!", "Lisaaaaaaa"])]
    text = replaced(sample, "Lisaaaaaaa", "Lisaaaaaaa\xa0")  # a trailing non-breaking space
    assert [(n, p) for n, p in seatings(text) if p is not None] == [
        (4, ["evi_sea", "1David", "evdokia!!", "Lisaaaaaaa\xa0"])]
    found, _ = replay(text)
    assert codes(found) == []


def test_a_player_who_comes_back_is_named_again(sample: str) -> None:
    text = replaced(replaced(sample, "1David", "Sub"), "Sub", "1David", first=349)
    assert [(n, p) for n, p in seatings(text) if p is not None] == [
        (4, ["evi_sea", "Sub", "evdokia!!", "Lisaaaaaaa"]),
        (5, ["evi_sea", "1David", "evdokia!!", "Lisaaaaaaa"])]


def test_convert_writes_the_seating(sample: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tichu_analyze.cli import app

    tch_file = tmp_path / "77.tch"
    tch_file.write_bytes(replaced(sample, "1David", "Neu Mann\xa0B", blank=True).encode())
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["convert", str(tch_file), "-o", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_bytes().split(b"\n")
    starts = [line for line in lines if line.startswith(b'{"type":"round_start"')]
    assert starts[3] == ('{"type":"round_start","game":"77","round":4,"players":["evi_sea",'
                         '"Neu Mann\xa0B","evdokia!!","Lisaaaaaaa"]}').encode()
    assert starts[4] == b'{"type":"round_start","game":"77","round":5}'


# --- variants ------------------------------------------------------------------------


def check_with(variants: frozenset[str], evs: list[tuple[int, dict[str, Any]]] | None = None,
               text: str = "") -> list[str]:
    """The codes of checking ``text`` (a ``.tch``) or ``evs`` (a log) under ``variants``."""
    recorder = Recorder()
    r = Engine("t", recorder, variants=variants)
    if evs is None:
        r.finish(replay_tch(text.encode("utf-8"), "g", r))
    else:
        for line, ev in evs:
            r.feed(line, msgspec.convert(ev, Event))
        r.finish(max(line for line, _ in evs))
    return [d.code for d in recorder.diagnostics]


@pytest.mark.parametrize("pass_logged", [True, False])
def test_a_variant_changes_the_reading_of_a_tch_bomb_as_of_a_log(pass_logged: bool) -> None:
    # Ann leads the King; Cleo plays three 9s and the Phoenix, with or without Ben's pass
    # logged before. Under phoenix-in-bombs that is a bomb, which any seat may play at any
    # time: read as it stands, nothing missing, nothing wrong. Otherwise it is no
    # combination, played in turn once Ben passed: the reader inserts the pass BSW did not
    # log, and the replay reports the cards (P002), in the .tch as in the log.
    cleo = (2, ["9j", "9s", "9p", "Phoenix"])
    script: list[tuple[int, list[str]] | int] = [(0, ["Kj"]), 1, cleo] if pass_logged \
        else [(0, ["Kj"]), cleo]
    log = deal_round({0: ["Mahjong", "Kj"], 2: ["9j", "9s", "9p", "Phoenix"]}, script)
    text = write_tch(log)
    variant = frozenset({"phoenix-in-bombs"})
    passes = {v: [ev.seat for _, ev in read_tch(text.encode(), "g", variants=v)
                  if isinstance(ev, Pass)]
              for v in (frozenset(), variant)}
    assert passes[frozenset()] == [1]  # Ben's pass, logged or inserted
    assert passes[variant] == ([1] if pass_logged else [])
    as_log = list(enumerate(log, 1))
    assert check_with(frozenset(), text=text) == check_with(frozenset(), as_log) == [
        "P002", "L008"]
    assert check_with(variant, text=text) == check_with(variant, as_log) == ["L008"]


# --- one replay for check ------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_check_replays_once_and_reports_the_same(sample: str, seed: int) -> None:
    # check's visitor wants diagnostics alone: the reader then feeds the checking replay
    # itself (each event replayed once, a round fed again when its reading changed);
    # a visitor that wants steps gets the events from a reader following its own
    # replay. Both see the same diagnostics, on copies missing passes and gifts, with a
    # wrong Ergebnis, or cut short.
    import random

    rng = random.Random(seed)
    lines = sample.split("\n")
    kept = [line for line in lines if not (
        (line.endswith("passt.") or line.startswith("Drache an")) and rng.random() < 0.3)]
    kept = [("Ergebnis: 100 - 0" if line.startswith("Ergebnis") and rng.random() < 0.2
             else line) for line in kept]
    text = "\n".join(kept[: len(kept) - rng.randrange(0, 40)])
    found: list[Diagnostic] = []
    r = Engine("t.tch", DiagnosticVisitor(found.append))
    r.finish(replay_tch(text.encode("utf-8"), "g", r))
    traced, _ = replay(text)
    assert found == traced  # the same messages whether the replay traces or not


def test_phoenix_readings_are_every_reading_of_the_kind() -> None:
    """The Phoenix's readings of a straight or full house (``bsw._readings``, which
    classifies only the ranks held or next to them) are those of every rank 2..A:
    random straights with the Phoenix in a gap or at an end (the Mahjong at the
    bottom or not, a rank sometimes moved) and full houses of every pair of ranks."""
    import random

    from tichu_analyze.core.cards import BIT, MAHJONG, PHOENIX, RANK_MASK
    from tichu_analyze.core.combos import Kind, classified, classify
    from tichu_analyze.readers import bsw

    def card(rank: int, rng: random.Random) -> int:
        return BIT[MAHJONG] if rank == 1 else 1 << (RANK_MASK[rank].bit_length() - 4
                                                    + rng.randrange(4))

    def every_rank(cards: int, kind: Kind) -> list[tuple[int, int | None]]:
        got = [c for r in range(2, 15)
               if (c := classify(cards, r)) is not None and c.kind == kind]
        got.sort(key=lambda c: c.rank, reverse=True)
        return [(c.rank, c.phoenix) for c in got] if len({c.rank for c in got}) > 1 else []

    rng = random.Random(8)
    masks = set()
    for _ in range(3000):
        n = rng.randint(4, 13)
        low = rng.randint(1, 14 - n)
        ranks = list(range(low, low + n + 1))
        ranks.remove(rng.choice(ranks))  # where the Phoenix stands
        if rng.random() < 0.2:
            ranks[rng.randrange(len(ranks))] = rng.randint(1, 14)
        masks.add(BIT[PHOENIX] | sum({card(r, rng) for r in ranks}))
    for a in range(2, 15):
        for b in range(2, 15):
            picked = {card(a, rng) for _ in range(3)} | {card(b, rng) for _ in range(2)}
            masks.add(BIT[PHOENIX] | sum(picked))
    seen = 0
    for cards in masks:
        highest = classified(cards)
        if highest is None or highest.kind not in (Kind.STRAIGHT, Kind.FULL_HOUSE) \
                or highest.phoenix is None:
            continue
        seen += 1
        got = bsw._readings(cards, highest)
        assert [(c.rank, c.phoenix) for c in got] == every_rank(cards, highest.kind)
    assert seen > 1000
