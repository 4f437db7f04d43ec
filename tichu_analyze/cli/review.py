"""``review``: where a player lost points, proven or measured (the R codes)."""

from __future__ import annotations

import json
from collections import Counter
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from .. import __version__
from ..analysis.calls import CallTable, decisions, fit, judge, reference
from ..common.safetext import clean, json_text, plural
from ..core.cards import format_cards
from ..core.diagnostics import select_codes
from ..core.state import GameState, RoundState
from ..readers.logfile import LogError
from ..review.findings import ADVISORIES, Finding
from ..review.openhand import LIMIT, OpenHandReview
from ..review.reviewer import Reviewer, RoundReview, sure_at
from ..review.sureout import HAND_LIMIT
from ..run.progress import progress_over
from .app import (
    LogPaths,
    VariantOption,
    _codes_option,
    _interrupted,
    _log_files,
    _stdout,
    _variants,
    app,
    err,
    fail,
)


class ReviewFormat(StrEnum):
    """How ``review`` prints its findings."""

    TEXT = "text"
    JSON = "json"
    SARIF = "sarif"


_CALL_NAMES = {"grand_tichu": "Grand Tichu", "tichu": "Tichu"}
_SCORE_WORDS = {"behind": "300 or more behind", "level": "within 300 of the opponents",
                "ahead": "300 or more ahead"}


def calls_review(table: CallTable) -> RoundReview:
    """The R003 review of each round: its call decisions against ``table``."""

    def per_round(game: GameState, rnd: RoundState, before: list[int]) -> list[Finding]:
        if rnd.result is None:
            return []
        found: list[Finding] = []
        for d in decisions(rnd, before):
            j = judge(table, d.decision, d.strength, d.partner_called, d.state, d.called)
            if j is None or not j.flagged:
                continue
            name = _CALL_NAMES[d.decision]
            what = (f"calling {name} here loses" if d.called
                    else f"not calling {name} here gives up")
            cell = (f"model: {j.cell.rounds:,} seat-rounds like it: strength band "
                    f"{j.key[1]}, partner {'called' if d.partner_called else 'had not called'}"
                    f", score {_SCORE_WORDS[d.state]}; such hands went out first "
                    f"{100 * j.cell.p:.0f}% of the time")
            line = rnd.call_lines[d.seat] if d.called else None
            found.append(Finding(
                "R003", game.id, rnd.number, None, d.seat, rnd.players[d.seat],
                line if line is not None else rnd.line,
                f"{what} {j.lost:.0f} ± {j.error:.0f} points on average ({cell})",
                round(j.lost), False,
                {"decision": d.decision, "called": d.called, "strength": d.strength,
                 "band": j.key[1], "partner_called": d.partner_called, "score": d.state,
                 "p_first_out": round(j.cell.p, 4), "rounds": j.cell.rounds,
                 "gain_of_calling": round(j.gain, 1), "error": round(j.error, 1)}))
        return found

    return per_round


def _calls_model(choice: str) -> CallTable:
    if choice == "reference":
        return reference()
    path = Path(choice)
    if not (path / "rounds").is_dir():
        raise fail(f"--calls-model {choice}: not a dataset of 'tichu-analyze ingest' (no "
                   "rounds table); give a dataset folder or 'reference'")
    try:
        return fit(path)
    except Exception as e:  # a damaged dataset: one clear line
        raise fail(f"--calls-model {choice}: cannot fit the calls model: {e}") from None


def _as_dict(path: str, f: Finding) -> dict[str, Any]:
    return {"file": path, "line": f.line, "code": f.code, "name": ADVISORIES[f.code].name,
            "game": f.game, "round": f.round, "trick": f.trick, "seat": f.seat,
            "player": f.player, "message": f.message, "cost": f.cost,
            "hindsight": f.hindsight, "detail": f.detail}


def _sarif(found: list[tuple[str, Finding]]) -> dict[str, Any]:
    rules = [{"id": a.code, "name": a.name, "shortDescription": {"text": a.when},
              "defaultConfiguration": {"level": "note"}}
             for a in ADVISORIES.values()]
    results = [{
        "ruleId": f.code, "level": "note", "message": {"text": f.message},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": path},
                                            "region": {"startLine": f.line}}}],
        "properties": {k: v for k, v in _as_dict(path, f).items()
                       if k not in ("file", "line", "code", "message")},
    } for path, f in found]
    return {"version": "2.1.0",
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "runs": [{"tool": {"driver": {"name": "tichu-analyze review",
                                          "version": __version__, "rules": rules}},
                      "results": results}]}


def _text(path: str, f: Finding) -> str:
    where = f"game {f.game} round {f.round}" + (f" trick {f.trick}" if f.trick else "")
    return clean(f"{path}:{f.line}: {f.code} {where} seat {f.seat} ({f.player}): "
                 f"{f.message}", None)


@app.command()
def review(
    paths: LogPaths,
    output_format: Annotated[ReviewFormat, typer.Option(
        "--format", "-f", help="text: a line per finding; json: a list of objects; sarif: "
        "SARIF 2.1.0 for code-scanning tools.")] = ReviewFormat.TEXT,
    select: Annotated[list[str] | None, typer.Option(
        "--select", help="Report only these codes or prefixes (R001, R0).",
        show_default=False, metavar="CODE")] = None,
    ignore: Annotated[list[str] | None, typer.Option(
        "--ignore", help="Leave out these codes or prefixes.", show_default=False,
        metavar="CODE")] = None,
    calls_model: Annotated[str, typer.Option(
        "--calls-model", help="The calls model of R003: 'reference' (shipped, fitted on "
        "2,044 real Brettspielwelt games) or a dataset of 'tichu-analyze ingest' to fit "
        "it on.", metavar="DATASET|reference")] = "reference",
    endgame_limit: Annotated[int, typer.Option(
        "--endgame-limit", help="R002: solve the end of a round with all hands open once at "
        "most this many cards are left in it (each card more multiplies the time).",
        min=2, max=20, metavar="N")] = LIMIT,
    at: Annotated[int | None, typer.Option(
        "--at", help="From here, was it sure? For the play or pass at this line of one log: "
        "whether its seat held a sure out, and which.", show_default=False,
        metavar="LINE")] = None,
    variant: VariantOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary.")] = False,
) -> None:
    """Review the decisions of every game: where a player lost points, proven or measured.

    R001 (exact, from what the seat could know): a play or pass gave up a sure out, a
    sequence of the seat's own plays that went out first whatever the unseen cards and
    however the others played. R002 (exact, hindsight: all hands open): near the end of a
    round, a play or pass lowered the best result its team could force. R003 (measured): a
    Grand Tichu or Tichu call, or not calling, worse than the other choice by the calls
    model of real games, beyond its uncertainty. Findings are advisory, not rule
    violations: 'tichu-analyze rules R001' explains each code, docs/review.md what they can
    and cannot see.

    Exit status: 0 when the review ran (findings or not), 2 when an input could not be
    read or an argument is wrong, 130 when interrupted.
    """
    variants = _variants(variant)
    files = _log_files(paths, quiet)
    if at is not None:
        _sure_at(files, at, variants)
        return
    kept = select_codes(list(ADVISORIES),
                        _codes_option(select, "--select", ADVISORIES, "review"),
                        _codes_option(ignore, "--ignore", ADVISORIES, "review"))
    table = _calls_model(calls_model) if "R003" in kept else None
    found: list[tuple[str, Finding]] = []
    unreadable = 0
    analyses = [OpenHandReview(endgame_limit)] if "R002" in kept else []
    reviewer = Reviewer(analyses, sure_outs="R001" in kept,
                        per_round=calls_review(table) if table is not None else None)
    try:
        for path, result in progress_over(files, reviewer, show=not quiet,
                                          variants=variants):
            if isinstance(result, LogError):
                err.print(f"error: {clean(str(result), None)}", highlight=False,
                          markup=False)
                unreadable += 1
            found += [(str(path), f) for f in sorted(reviewer.findings, key=lambda f: f.line)
                      if f.code in kept]
            reviewer.findings = []
    except KeyboardInterrupt:
        raise _interrupted(None) from None
    out = _stdout()
    if output_format == ReviewFormat.JSON:
        out.write(json_text(json.dumps([_as_dict(p, f) for p, f in found],
                                       ensure_ascii=False, indent=1)) + "\n")
    elif output_format == ReviewFormat.SARIF:
        out.write(json_text(json.dumps(_sarif(found), indent=1, ensure_ascii=False)) + "\n")
    else:
        for name, f in found:
            out.write(_text(name, f) + "\n")
    if not quiet:
        counts = Counter(f.code for _, f in found)
        per = ", ".join(f"{c}: {n}" for c, n in sorted(counts.items()))
        model = (f"calls model: {calls_model} ({table.source.get('games', '?'):,} games, "
                 f"{table.source.get('seat_rounds', '?'):,} seat-rounds)"
                 if table is not None else "calls not reviewed")
        err.print(f"{plural(len(found), 'finding')}{f' ({per})' if per else ''} in "
                  f"{plural(len(files) - unreadable, 'file')}; sure outs looked for with at "
                  f"most {HAND_LIMIT} cards in hand; endgames solved with all hands open from "
                  f"{endgame_limit} cards left; {model}", highlight=False, markup=False)
    if unreadable:
        raise typer.Exit(2)


def _sure_at(files: list[Path], line: int, variants: frozenset[str]) -> None:
    if len(files) != 1:
        raise fail("--at LINE needs exactly one log file")
    try:
        found = sure_at(files[0], line, variants)
    except LogError as e:
        raise fail(str(e)) from None
    if found is None:
        raise fail(f"{files[0]}:{line}: no play or pass of a round's play there")
    game, before, step, sure = found
    seat = step.seat
    assert seat is not None
    who = f"seat {seat} ({before.occupants[seat]})"
    out = _stdout()
    where = f"{files[0]}:{line}: game {game.id} round {before.number}"
    if sure is None:
        out.write(clean(f"{where}: {who} held no sure out here (looked for with at most "
                        f"{HAND_LIMIT} cards in hand, nobody out yet)", None) + "\n")
    else:
        plays = ", then ".join(format_cards(c.cards) for c in sure)
        out.write(clean(f"{where}: {who} held a sure out: {plays} went out first whatever "
                        "the others held", None) + "\n")
