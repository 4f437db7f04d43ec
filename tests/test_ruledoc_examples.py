"""The examples of ``tichu-analyze rules CODE`` say what ``check`` says.

Each example is an excerpt of a log; here it is made whole (a game, a round, deals
and an exchange that put the example's cards in the hands that play them, and for
two codes a few plays before it) and checked: the line marked ``^`` must raise the
code, with the very message the example shows.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tichu_analyze.core.cards import TOKENS
from tichu_analyze.core.ruledocs import RULE_DOCS
from tichu_analyze.readers.logfile import check_file

GAME: dict[str, object] = {"type": "game_start", "game": "g7",
                           "players": ["Ana", "Ben", "Chloe", "Dev"]}


def _example(code: str) -> tuple[list[str], list[dict[str, object]], str]:
    """The example's log lines, those of them that are events, and the message
    marked for ``code``."""
    doc = RULE_DOCS[code]
    block = doc[doc.index("Example"):doc.index("Near miss:")]
    lines = [line.strip() for line in block.splitlines() if line.strip()[:1] in ("{", "[")]
    events = [ev for ev in map(json.loads, lines) if isinstance(ev, dict)]
    marked = re.search(rf"\^ {code}(?: \(\w+\))?: (.*)", block, re.S)
    assert marked is not None
    return lines, events, " ".join(marked.group(1).split())


def _hands(required: dict[int, list[str]], mahjong: int) -> list[list[str]]:
    """Four 14-card hands: the required cards, the Mahjong to ``mahjong`` (unless
    placed), the rest of the deck dealt in order."""
    hands = [list(required.get(s, [])) for s in range(4)]
    placed = {t for h in hands for t in h}
    if "Mahjong" not in placed:
        hands[mahjong].append("Mahjong")
        placed.add("Mahjong")
    rest = iter(t for t in TOKENS if t not in placed)
    for hand in hands:
        while len(hand) < 14:
            hand.append(next(rest))
    return hands


def _round(final: list[list[str]]) -> list[dict[str, object]]:
    """round_start, both deals and the four exchanges that leave ``final`` in hand:
    seat t receives the last three cards of its final hand, one from each other seat."""
    gives: list[dict[str, str]] = [{} for _ in range(4)]
    for t in range(4):
        for giver, card in zip((s for s in range(4) if s != t), final[t][-3:], strict=True):
            gives[giver][str(t)] = card
    pre = []
    for s in range(4):
        got = {g[str(s)] for g in gives if str(s) in g}
        pre.append([c for c in final[s] if c not in got] + list(gives[s].values()))
    return [{"type": "round_start", "game": "g7", "round": 1},
            {"type": "deal", "game": "g7", "hands": [h[:8] for h in pre]},
            {"type": "deal", "game": "g7", "hands": [h[8:] for h in pre]},
            *({"type": "exchange", "game": "g7", "seat": s, "give": gives[s]} for s in range(4))]


def _cards_played(events: list[dict[str, object]]) -> dict[int, list[str]]:
    held: dict[int, list[str]] = {}
    for ev in events:
        cards = ev.get("cards")
        if ev["type"] == "play" and isinstance(cards, list) and all(c in TOKENS for c in cards):
            seat = _seat(ev)
            held.setdefault(seat, []).extend(c for c in cards if c not in held[seat])
    return held


def _seat(ev: dict[str, object]) -> int:
    seat = ev["seat"]
    assert isinstance(seat, int)
    return seat


def _play(seat: int, *cards: str) -> dict[str, object]:
    return {"type": "play", "game": "g7", "seat": seat, "cards": list(cards)}


def _pass(seat: int) -> dict[str, object]:
    return {"type": "pass", "game": "g7", "seat": seat}


SPADES = [f"{r}s" for r in (*range(2, 11), "J", "Q", "K")]
JADE = [f"{r}j" for r in (*range(2, 11), "J", "Q", "K", "A")]
STARS = [f"{r}r" for r in (*range(2, 11), "J", "Q", "K", "A")]

# what the examples' words say about the hands ("Ben holds 8s"), and the plays before
# the excerpt for the codes whose excerpt starts in the middle of a round
HOLDS: dict[str, dict[int, list[str]]] = {
    "W001": {1: ["8s"], 3: ["8j", "8p", "8r"]},  # Ben's only 8
    # Dev leads the Mahjong and twelve Swords, everyone passes; Qj is then his last card
    "P008": {3: ["Mahjong", *SPADES, "Qj"]},
    # Ana goes out with a 14-card straight, Chloe bombs it with 13 Stars, keeping Kp
    "P009": {0: ["Mahjong", *JADE], 2: [*STARS, "Kp"]},
}
BEFORE: dict[str, list[dict[str, object]]] = {
    "P008": [_play(3, "Mahjong", *SPADES), _pass(0), _pass(1), _pass(2)],
    "P009": [_play(0, "Mahjong", *JADE), _pass(1), _play(2, *STARS), _pass(3), _pass(1)],
}

DURING_PLAY = ["L001", "L002", "L003", "L004", "P001", "P002", "P003", "P004", "P005", "P006",
               "P007", "P008", "P009", "B001", "B002", "B003", "W001", "W002", "G001", "G002",
               "G003", "C002"]
DURING_EXCHANGE = ["L007", "X001", "X002", "C001"]
WHOLE = ["L005", "L006", "D001"]


def _log(code: str) -> tuple[list[str], int, str]:
    """The lines of a whole log around ``code``'s example, the marked line, the message."""
    excerpt, events, message = _example(code)
    if code in WHOLE:
        head: list[dict[str, object]] = [] if events[0]["type"] == "game_start" else [GAME]
    elif code in DURING_EXCHANGE:
        required: dict[int, list[str]] = {}
        for ev in events:
            if ev["type"] == "exchange":
                give = ev["give"]
                assert isinstance(give, dict)
                have = required.setdefault(_seat(ev), [])
                have.extend(c for c in give.values() if c not in have)
        first_play = next((_seat(ev) for ev in events if ev["type"] == "play"), 0)
        hands = _hands(required, first_play)
        head = [GAME, *_round(hands)[:3]]  # the deals; the example's exchanges follow
    else:
        before = BEFORE.get(code, [])
        required = {s: list(c) for s, c in HOLDS.get(code, {}).items()}
        for seat, cards in _cards_played([*before, *events]).items():
            required.setdefault(seat, []).extend(c for c in cards if c not in required[seat])
        leader = _seat((before or events)[0])
        hands = _hands(required, leader)
        head = [GAME, *_round(hands), *before]
    lines = [json.dumps(ev, separators=(",", ":")) for ev in head] + excerpt
    return lines, len(lines), message  # the excerpt's last line is the one marked


def test_every_code_is_run_or_named_here() -> None:
    run = set(DURING_PLAY) | set(DURING_EXCHANGE) | set(WHOLE)
    # not made whole here: examples of whole rounds or games (scores, finish order,
    # an unfinished round 2), a Grand Tichu between the deals, a trichu deal
    not_run = {"L008", "C003", "C004", "S001", "S002", "S003", "S004"}
    assert run | not_run == set(RULE_DOCS)


@pytest.mark.parametrize("code", DURING_PLAY + DURING_EXCHANGE + WHOLE)
def test_example_message_is_what_check_says(code: str, tmp_path: Path) -> None:
    lines, marked, message = _log(code)
    log = tmp_path / f"{code}.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = [(d.code, d.message) for d in check_file(log) if d.line == marked]
    assert (code, message) in found, (found, "\n".join(lines))
