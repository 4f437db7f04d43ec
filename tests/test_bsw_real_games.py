"""The 2,044 real Brettspielwelt games of ``../shared/samples/bsw/`` read as BSW played them.

Beside the files lies ``expected.json``: per round, the verdict of a third-party BSW
validator and the score it computed (its README). A faithful reader raises no error on
a round the validator accepts, flags the rounds it rejects, and credits every round to
the person who played it. Where this tool and the validator disagree on purpose, the
reason is in docs/bsw.md, and the round is listed in :data:`DISAGREEMENTS`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from shared_data import SAMPLES
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.core.diagnostics import Diagnostic
from tichu_analyze.core.events import Pass, Play
from tichu_analyze.core.state import GameState, RoundState, Step
from tichu_analyze.core.visitor import Visitor
from tichu_analyze.readers.logfile import replay_file

BSW = SAMPLES / "bsw"
pytestmark = pytest.mark.skipif(not (BSW / "expected.json").exists(),
                                reason="the real games (../shared/samples/bsw/) are not here")

FLAGGED_AS = {"DRAGON_GIVEN_TO_OWN_TEAM": "G001", "SCORE_NOT_POSSIBLE": "S002"}
"""The validator's verdicts and the code that must flag such a round (its README)."""

DISAGREEMENTS = {("2009663.tch", 4): "ANNOUNCEMENT_NOT_POSSIBLE"}
"""Rounds (1-based) the validator rejects and the rules allow (docs/bsw.md): a Tichu called
after another player went out, by a player who had not played a card (rules 1.3)."""


class _Rounds(Visitor):
    """Per round of the file's one game: the names the engine credits it to, its computed
    score and status; and the diagnostics."""

    def __init__(self) -> None:
        self.rounds: dict[int, tuple[list[str], list[int] | None, str]] = {}
        self.diagnostics: list[Diagnostic] = []

    def end_round(self, game: GameState, rnd: RoundState) -> None:
        self.rounds[rnd.number] = (list(rnd.players), rnd.score, rnd.status)

    def visit_diagnostic(self, diag: Diagnostic) -> None:
        self.diagnostics.append(diag)


def _replayed() -> Iterator[tuple[str, _Rounds]]:
    for path in sorted(BSW.glob("*.tch")):
        seen = _Rounds()
        replay_file(path, seen)
        yield path.name, seen


@pytest.fixture(scope="module")
def expected() -> dict[str, dict]:
    files: dict[str, dict] = json.loads((BSW / "expected.json").read_text("utf-8"))["files"]
    return files


@pytest.fixture(scope="module")
def replayed() -> dict[str, _Rounds]:
    return dict(_replayed())


_GIVES = re.compile(r"\(([0-3])\)(.*?) gibt: ")


def exchanging_names(path: Path) -> list[dict[int, str]]:
    """Per round block of the file (in order), who exchanged at each seat: the name of
    the seat's own ``(N)name gibt:`` line (read here, apart from the reader)."""
    rounds: list[dict[int, str]] = []
    for raw in path.read_bytes().decode("utf-8", "replace").split("\n"):
        line = raw.strip(" \t\r")
        if "Gr.Tichukarten" in line:
            rounds.append({})
        elif rounds and (m := _GIVES.match(line)) is not None:
            rounds[-1][int(m.group(1))] = m.group(2)
    return rounds


def test_every_round_the_validator_accepts_is_clean_and_scores_as_it_does(
        expected: dict[str, dict], replayed: dict[str, _Rounds]) -> None:
    assert len(replayed) == len(expected) == 2044
    wrong: list[str] = []
    accepted = 0
    for name, entry in expected.items():
        seen = replayed[name]
        errors = {d.round for d in seen.diagnostics if d.severity != "warning"}
        for verdict in entry["rounds"]:
            number = verdict["round"] + 1  # (the validator counts from 0)
            if verdict["verdict"] != "NO_ERROR":
                continue
            accepted += 1
            _, score, status = seen.rounds[number]
            if number in errors or status != "scored" or score != verdict["validator_score"]:
                wrong.append(f"{name} round {number}: {status}, {score} against "
                             f"{verdict['validator_score']}")
    assert accepted == 18131
    assert wrong == []


def test_every_round_the_validator_rejects_is_flagged_or_a_documented_disagreement(
        expected: dict[str, dict], replayed: dict[str, _Rounds]) -> None:
    rejected = {(name, v["round"] + 1): v["verdict"] for name, entry in expected.items()
                for v in entry["rounds"] if v["verdict"] != "NO_ERROR"}
    assert rejected  # (the samples hold at least one)
    for (name, number), verdict in rejected.items():
        codes = {d.code for d in replayed[name].diagnostics if d.round == number}
        if (name, number) in DISAGREEMENTS:
            assert DISAGREEMENTS[name, number] == verdict
            assert not codes, codes  # the rules allow it: docs/bsw.md
        else:
            assert FLAGGED_AS[verdict] in codes, (name, number, verdict)


def test_nothing_worse_than_a_warning_in_the_whole_sample(replayed: dict[str, _Rounds]) -> None:
    # (a file ending mid-round gets L008, a warning; nothing else is reported)
    found = {(d.code, d.severity) for seen in replayed.values() for d in seen.diagnostics}
    assert found <= {("L008", "warning")}


def test_every_round_is_credited_to_the_players_who_exchanged_in_it(
        replayed: dict[str, _Rounds]) -> None:
    changed = 0  # rounds whose exchange names someone other than the round before
    for name, seen in replayed.items():
        blocks = exchanging_names(BSW / name)
        for number, (players, _, _) in seen.rounds.items():
            who = blocks[number - 1]
            if len(who) == 4 and number > 1 and blocks[number - 2] and who != blocks[number - 2]:
                changed += 1
            for seat, person in who.items():
                if person.strip():  # (a blank name: the seat's previous player)
                    assert players[seat] in (person, f"{person} (seat {seat})"), (
                        name, number, seat, players, person)
    assert changed > 20  # the samples hold players replaced between rounds


def test_the_datasets_credit_each_replaced_player_with_the_rounds_they_played(
        tmp_path: Path) -> None:
    # the files whose card lists name someone other than the exchange in some round
    files: list[Path] = []
    for path in sorted(BSW.glob("*.tch")):
        text = path.read_bytes().decode("utf-8", "replace")
        cards = re.findall(r"Gr\.Tichukarten-+\s*\n((?:\([0-3]\).*\n){4})", text)
        listed = [dict((int(m[0]), m[1]) for m in re.findall(r"\(([0-3])\)(.*?)(?: \S+){8} ?\n",
                                                             block)) for block in cards]
        if any(who and any(who.get(s) != names.get(s) for s in who if who[s].strip())
               for who, names in zip(exchanging_names(path), listed, strict=False)):
            files.append(path)
    assert 5 <= len(files) < 100
    dataset = tmp_path / "dataset"
    result = CliRunner().invoke(app, ["ingest", *map(str, files), "--out", str(dataset), "-q"])
    assert result.exit_code == 0, result.output
    rows = pl.read_parquet(dataset / "rounds" / "**" / "*.parquet", hive_partitioning=True)
    credited = {(g, r, s): p for g, r, s, p in rows.select("game", "round", "seat", "player")
                .iter_rows()}
    for path in files:
        for number, who in enumerate(exchanging_names(path), 1):
            for seat, person in who.items():
                got = credited.get((path.stem, number, seat))
                if got is not None and person.strip():
                    assert got in (person, f"{person} (seat {seat})"), (path.name, number, seat)


class _Plays(Visitor):
    """Who the engine names for each play and pass: ``line -> (seat, occupant, occupants)``."""

    def __init__(self) -> None:
        self.named: dict[int, tuple[int, str, list[str]]] = {}

    def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
        if type(step.event) in (Play, Pass) and step.seat is not None:
            occupants = list(rnd.occupants)
            self.named[step.line] = (step.seat, occupants[step.seat], occupants)


_MOVE = re.compile(r"\(([0-3])\)(.*?)(?:: \S| passt)")


def test_every_play_is_credited_to_who_made_it_a_substitute_during_a_round_included() -> None:
    substitutes = 0  # plays by someone who exchanged in no round of the file
    for path in sorted(BSW.glob("*.tch")):
        lines = path.read_bytes().decode("utf-8", "replace").replace("\r", "").split("\n")
        blocks = exchanging_names(path)
        block, playing, suspect = -1, False, False
        for line in lines:  # does a play line name someone not exchanging in its round?
            if "Gr.Tichukarten" in line:
                block, playing = block + 1, False
            elif "Rundenverlauf" in line:
                playing = True
            elif playing and (m := _MOVE.match(line.strip())) is not None and \
                    m.group(2).strip() and m.group(2) not in blocks[block].values():
                suspect = True
                break
        if not suspect:
            continue
        seen = _Plays()
        replay_file(path, seen)
        for no, (seat, occupant, occupants) in seen.named.items():
            m = _MOVE.match(lines[no - 1].strip())
            if m is None or int(m.group(1)) != seat or not m.group(2).strip():
                continue  # (a pass the reader supplied, at the line that shows it)
            named = m.group(2)
            # the line's name made the play, unless BSW named another seat's player there
            assert occupant == named or named in occupants, (path.name, no, occupant, named)
            substitutes += occupant == named and named not in occupants[:seat] + occupants[
                seat + 1:] and all(named not in b.values() for b in blocks)
    assert substitutes > 30
