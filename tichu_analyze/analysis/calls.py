"""Calls against the data: what a Grand Tichu or a Tichu call was worth, for hands a
player recognises, by how often such hands went out first in a dataset of real games.

A call decision is placed in a **cell**: the decision (``grand_tichu``, judged on the first
8 cards; ``tichu``, on the 14 cards the round is played with), the hand's strength as the
datasets define it (``{p}_strength``: ``3 dragon + 2.5 phoenix - 1 dog + 1.5 aces + 0.5
kings + 3 bombs - 0.3 singles``, in whole bands), whether the partner called, and the game
score before the round (the team behind by 300 or more, level, or ahead by 300 or more).
For each cell the table holds how many seat-rounds it has and how many of them went out
first: ``p``, with its uncertainty (the Agresti-Coull estimate, ``(first + 2) / (rounds +
4)``, and its standard error).

A Tichu scores +100 when its caller goes out first and -100 otherwise (rules 7.5), so,
the play being the same, calling is worth ``200 p - 100`` points to the team over not
calling. A Grand Tichu is worth ``400 p - 200``; not calling it keeps the Tichu for later,
worth at best ``200 p - 100`` when that is positive, which is subtracted. A decision is
**flagged only when the choice made is worse by more than two standard errors** of that
value, and by at least :data:`MIN_LOSS` points, with at least :data:`MIN_ROUNDS`
seat-rounds in the cell.

What the table says is how often players with such hands went out first, callers and
others together; a caller plays for it, and the cell does not see everything the player
saw (the exchange to come, the partner's hand). The findings say so, and show the
uncertainty.

:func:`fit` builds the table from a dataset's ``rounds`` (``tichu-analyze ingest``);
:func:`reference` is the table the tool ships, fitted on the real Brettspielwelt games of
the project's samples (its ``source`` says how many). ``python -m
tichu_analyze.analysis.calls DATASET OUT.json`` writes a table.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..core.state import RoundState
from ..data.rows import hand_values

__all__ = [
    "BAND_HIGH", "BAND_LOW", "MIN_LOSS", "MIN_ROUNDS", "SCORE_GAP", "CallTable", "Cell",
    "Judgement",
    "Decision", "band", "decisions", "fit", "judge", "reference", "score_state", "value",
]

BAND_LOW, BAND_HIGH = -2, 14
"""The strength bands kept apart; weaker and stronger hands join the end bands."""
SCORE_GAP = 300
"""How far behind or ahead a team must be before the round to count as behind or ahead."""
MIN_ROUNDS = 20
"""Seat-rounds each side of a cell needs before the cell judges a decision."""
Z = 2.0
"""How many standard errors a loss must exceed to be flagged."""
MIN_LOSS = 20
"""Points a choice must lose on average to be flagged at all: in the large cells of real
games a loss of a few points is beyond doubt, yet not worth a player's attention."""


def band(strength: float) -> int:
    """The strength band of a hand (its strength rounded down, the end bands open)."""
    return max(BAND_LOW, min(BAND_HIGH, math.floor(strength)))


def score_state(ours: int, theirs: int) -> str:
    """``behind``, ``level`` or ``ahead``: the game score before the round."""
    gap = ours - theirs
    return "behind" if gap <= -SCORE_GAP else "ahead" if gap >= SCORE_GAP else "level"


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell: how many seat-rounds, how many of them went out first."""

    rounds: int
    first: int

    @property
    def p(self) -> float:
        """How often such a hand goes out first (Agresti-Coull: two of each added)."""
        return (self.first + 2) / (self.rounds + 4)

    @property
    def error(self) -> float:
        """The standard error of :attr:`p`."""
        p = self.p
        return math.sqrt(p * (1 - p) / (self.rounds + 4))


Key = tuple[str, int, bool, str]
"""A cell: decision, strength band, partner called, score state."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """A decision set against its cell: ``gain`` is what calling is worth over not calling
    (points to the team, per round), ``error`` its standard error; ``lost`` the points the
    choice made gave up by that estimate (0 when it was the better one); ``flagged`` when
    it is worse beyond :data:`Z` standard errors."""

    key: Key
    called: bool
    cell: Cell
    gain: float
    error: float
    lost: float
    flagged: bool


class CallTable:
    """The cells of a dataset, and where they came from (``source``)."""

    def __init__(self, cells: dict[Key, Cell], source: dict[str, Any]) -> None:
        self.cells = cells
        self.source = source

    def as_json(self) -> dict[str, Any]:
        rows = [{"decision": k[0], "band": k[1], "partner_called": k[2], "score": k[3],
                 "rounds": c.rounds, "first_out": c.first}
                for k, c in sorted(self.cells.items())]
        return {"source": self.source, "min_rounds": MIN_ROUNDS, "z": Z, "cells": rows}

    @staticmethod
    def from_json(data: dict[str, Any]) -> CallTable:
        cells = {(str(row["decision"]), int(row["band"]), bool(row["partner_called"]),
                  str(row["score"])): Cell(int(row["rounds"]), int(row["first_out"]))
                 for row in data["cells"]}
        return CallTable(cells, dict(data.get("source", {})))


def value(decision: str, p: float) -> float:
    """What calling is worth over not calling, in points to the team, when such a hand goes
    out first with probability ``p`` (rules 7.5; a Grand Tichu against the Tichu it forgoes)."""
    if decision == "tichu":
        return 200 * p - 100
    return 400 * p - 200 - max(0.0, 200 * p - 100)


def judge(table: CallTable, decision: str, strength: float, partner_called: bool,
          state: str, called: bool) -> Judgement | None:
    """The decision against its cell; None when the cell has fewer than
    :data:`MIN_ROUNDS` seat-rounds (no judgement)."""
    key = (decision, band(strength), partner_called, state)
    cell = table.cells.get(key)
    if cell is None or cell.rounds < MIN_ROUNDS:
        return None
    p = cell.p
    gain = value(decision, p)
    # the slope of the value at p (400 for a Grand Tichu below even odds, else 200)
    slope = 400 if decision == "grand_tichu" and p < 0.5 else 200
    error = slope * cell.error
    lost = max(0.0, -gain if called else gain)
    flagged = lost > Z * error and lost >= MIN_LOSS
    return Judgement(key, called, cell, gain, error, lost, flagged)


def fit(dataset: str | Path) -> CallTable:
    """The table of a dataset's ``rounds`` (four-player games under rules without a dummy,
    scored rounds; the game score before each round from the rounds scored before it)."""
    import polars as pl

    from ..data.datasets import scan

    rounds = scan(dataset, "rounds").filter(
        (pl.col("role").is_null()) & (pl.col("partners").list.len() == 1)
        & (pl.col("status") == "scored")
    ).select("file", "game", "round", "seat", "team", "call", "h8_strength", "hx_strength",
             "first_out", "team_score").collect()
    # the partner's call: the other seat of the team in the same round
    partner = rounds.select(
        "file", "game", "round", "team",
        pl.col("seat").alias("partner_seat"), pl.col("call").alias("partner_call"))
    rows = rounds.join(partner, on=["file", "game", "round", "team"]).filter(
        pl.col("partner_seat") != pl.col("seat"))
    # the game score before the round: per team, the rounds before it
    team_rounds = rounds.group_by("file", "game", "round", "team").agg(
        pl.col("team_score").first().alias("score")).sort("file", "game", "round")
    before = team_rounds.with_columns(
        (pl.col("score").cum_sum().over("file", "game", "team") - pl.col("score"))
        .alias("before")).select("file", "game", "round", "team", "before")
    theirs = before.with_columns((1 - pl.col("team")).alias("team"),
                                 pl.col("before").alias("their_before")).drop("before")
    rows = rows.join(before, on=["file", "game", "round", "team"]).join(
        theirs, on=["file", "game", "round", "team"], how="left").with_columns(
        pl.col("their_before").fill_null(0))
    counts: dict[Key, list[int]] = {}
    for call, partner_call, h8, hx, first, ours, theirs_ in rows.select(
            "call", "partner_call", "h8_strength", "hx_strength", "first_out", "before",
            "their_before").iter_rows():
        if h8 is None or hx is None or first is None:
            continue
        state = score_state(ours, theirs_)
        keys = [("grand_tichu", band(h8), False, state)]  # every seat decides on its 8 cards
        if call != "grand_tichu":  # the Tichu decision of a seat that did not call Grand
            keys.append(("tichu", band(hx), partner_call is not None, state))
        for key in keys:
            count = counts.setdefault(key, [0, 0])
            count[0] += 1
            count[1] += bool(first)
    games = rounds.select("file", "game").unique().height
    return CallTable({key: Cell(n, first) for key, (n, first) in counts.items()},
                     {"games": games, "seat_rounds": rows.height})


@dataclass(frozen=True, slots=True)
class Decision:
    """A seat's call decision of a round, as the cells read it: ``decision``, the hand's
    ``strength``, ``partner_called``, the game ``state`` before the round, ``called``."""

    seat: int
    decision: str
    strength: float
    partner_called: bool
    state: str
    called: bool


def decisions(rnd: RoundState, before: list[int]) -> list[Decision]:
    """The call decisions of a four-player round (none with a dummy, or for six seats, or
    when the hands were never complete), from the engine's state at its end: each seat's
    Grand Tichu decision on its first 8 cards, and, for a seat that did not call Grand,
    its Tichu decision on the 14 cards it played with. ``before``: the teams' game totals
    before the round."""
    if rnd.seats != 4 or rnd.dummy >= 0 or not any(rnd.dealt8):
        return []
    played = rnd.exchanged_hands()
    if not all(played):
        return []
    found: list[Decision] = []
    for seat in range(4):
        team = seat & 1
        state = score_state(before[team], before[1 - team])
        call = rnd.calls[seat]
        found.append(Decision(seat, "grand_tichu", _strength(rnd.dealt8[seat]), False, state,
                              call == "grand_tichu"))
        if call != "grand_tichu":
            partner = rnd.partners(seat)[0]
            found.append(Decision(seat, "tichu", _strength(played[seat]),
                                  rnd.calls[partner] is not None, state, call == "tichu"))
    return found


def _strength(hand: int) -> float:
    """The ``{p}_strength`` of a hand, as the datasets write it."""
    strength = hand_values(hand)[-1]
    return float(strength) if strength is not None else 0.0


_REFERENCE: CallTable | None = None


def reference() -> CallTable:
    """The table the tool ships (``call_reference.json``), fitted on the real games of
    the project's samples."""
    global _REFERENCE
    if _REFERENCE is None:
        text = files("tichu_analyze.analysis").joinpath("call_reference.json").read_text(
            encoding="utf-8")
        _REFERENCE = CallTable.from_json(json.loads(text))
    return _REFERENCE


def main(argv: list[str]) -> int:
    """``python -m tichu_analyze.analysis.calls DATASET OUT.json [NOTE]``: fit a table."""
    if len(argv) not in (2, 3):
        print(main.__doc__, file=sys.stderr)
        return 2
    table = fit(argv[0])
    if len(argv) == 3:
        table.source["note"] = argv[2]
    Path(argv[1]).write_text(json.dumps(table.as_json(), indent=0) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
