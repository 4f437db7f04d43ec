"""The catalogue of diagnostic codes (rules.md section 8) and the diagnostic record.

Each code is defined once, here: its name, severity, when it fires, what the
replay does next, and the section of the rules it enforces. Longer
explanations with examples live in ``ruledocs`` and are printed by
``tichu-analyze rules CODE``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    """How bad a diagnostic is. ``fatal``: the rest of the round is skipped."""

    WARNING = "warning"
    ERROR = "error"
    FATAL = "fatal"


@dataclass(frozen=True, slots=True)
class Rule:
    """One diagnostic code of the catalogue."""

    code: str
    name: str
    severity: Severity
    when: str
    replay_then: str
    section: str


_W, _E, _F = Severity.WARNING, Severity.ERROR, Severity.FATAL

RULES: dict[str, Rule] = {
    r.code: r
    for r in (
        Rule("L001", "invalid-json", _E, "a line is not a JSON object", "line skipped",
             "log-format"),
        Rule("L002", "invalid-event", _E,
             "a required field is missing or has the wrong type or value (bad seat, wrong "
             "number of hands, ...)", "event skipped", "log-format"),
        Rule("L003", "unknown-card", _E, "a card token is not one of the 56", "event skipped",
             "log-format: Cards"),
        Rule("L004", "unknown-event", _W, "unknown `type` (not `x_`-prefixed)", "event skipped",
             "log-format: Event types"),
        Rule("L005", "unknown-game", _E,
             "event for a game with no `game_start`, or after its `game_end`", "event skipped",
             "log-format: Common fields"),
        Rule("L006", "duplicate-game", _E,
             "`game_start` for a game id already started in this file", "event skipped",
             "log-format: game_start"),
        Rule("L007", "out-of-sequence", _E,
             "event not allowed at this point of the round (a `play` before the exchange is "
             "complete, a `deal` during play, a round number that does not follow, ...)",
             "event skipped", "log-format: Order of a round"),
        Rule("L008", "incomplete-round", _W,
             "the log ends, or a new round starts, before the rules end the current round",
             "round closed as it stands, not scored", "7.1-7.3"),
        Rule("D001", "bad-deal", _F,
             "the deals are not the 56-card deck split 8+6 per seat", "round skipped", "1.1-1.2"),
        Rule("C001", "late-grand-tichu", _E, "Grand Tichu after the second `deal`",
             "call not counted", "1.2"),
        Rule("C002", "late-tichu", _E, "Tichu after the caller played a card",
             "call not counted", "1.3"),
        Rule("C003", "repeated-call", _E, "a second call by the same seat in a round",
             "call not counted", "1.3"),
        Rule("C004", "call-not-allowed", _E,
             "a call the variant forbids to that seat (9.3)", "call not counted", "9.3"),
        Rule("X001", "bad-exchange", _F,
             "an exchange does not give exactly one held card to each other seat",
             "round skipped", "1.4"),
        Rule("X002", "repeated-exchange", _E, "a second `exchange` by a seat in a round",
             "event skipped", "1.4"),
        Rule("P001", "card-not-held", _F, "a play contains a card the seat does not hold",
             "round skipped", "2.2"),
        Rule("P002", "not-a-combination", _E,
             "the cards form no combination (or the `phoenix` rank makes none)",
             "cards leave the hand; the top is unchanged", "3"),
        Rule("P003", "out-of-turn", _E,
             "a non-bomb play, or a pass, by a seat not on turn; a lead by a seat not "
             "entitled to lead", "applied", "2.1-2.4"),
        Rule("P004", "wrong-combination", _E,
             "type or number of cards differs from the top", "applied", "4.1"),
        Rule("P005", "does-not-beat", _E,
             "same type, not higher (includes a Phoenix on the Dragon)", "applied", "4.1, 5.3"),
        Rule("P006", "pass-on-lead", _E, "the leader passes", "event skipped", "2.3"),
        Rule("P007", "dog-not-led", _E, "the Dog played alone, but not as a lead",
             "the Dog leaves the hand; the top is unchanged", "5.2"),
        Rule("P008", "seat-is-out", _E, "a seat with no cards plays or passes",
             "event skipped", "2.5"),
        Rule("P009", "play-after-round-end", _E,
             "a `play`, `pass` or `call` after the rules ended the round", "event skipped",
             "4.4, 7.2-7.3"),
        Rule("B001", "bomb-does-not-beat", _E,
             "a bomb that does not beat a bomb on top (section 4.2)", "applied", "4.2"),
        Rule("B002", "bomb-on-empty-table", _E,
             "a bomb out of turn before the trick's first play", "applied as a lead", "4.3"),
        Rule("B003", "bomb-on-dog", _E, "a bomb played on the Dog", "applied as a lead",
             "4.3, 5.2"),
        Rule("W001", "wish-ignored", _E,
             "a seat bound by the wish (6.2) passed, led without the wished rank, or followed "
             "with a non-bomb without it", "applied", "6.2"),
        Rule("W002", "bad-wish", _E,
             "`wish` on a play without the Mahjong, or not a rank 2..A", "wish ignored", "5.1"),
        Rule("G001", "dragon-gift-to-partner", _E,
             "the Dragon's trick given to the winner or its partner", "given as recorded", "5.4"),
        Rule("G002", "missing-dragon-gift", _E,
             "a trick won by the Dragon is over and the next event is neither its "
             "`dragon_gift` nor a bomb on it by another seat",
             "given to the next seat after the winner", "5.4"),
        Rule("G003", "unexpected-dragon-gift", _E, "a `dragon_gift` with no Dragon trick to give",
             "event skipped", "5.4"),
        Rule("S001", "wrong-finish-order", _E, "`round_end.finish_order` differs from the replay",
             "-", "7.1"),
        Rule("S002", "wrong-round-score", _E, "`round_end.score` differs from the replay", "-",
             "7.2-7.5"),
        Rule("S003", "wrong-game-score", _E,
             "`game_end.score` differs from the sum of the replayed rounds", "-", "7.6"),
        Rule("S004", "wrong-game-end", _W,
             "`game_end` before a team reached the target, or play continues after the game "
             "was won", "-", "7.6"),
    )
}
"""Every diagnostic code, in catalogue order."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One reported problem, located in a log.

    ``round`` and ``trick`` are None where the event lies outside a round or
    before the first lead; ``seat`` and ``player`` where no seat is concerned.
    """

    code: str
    severity: Severity
    file: str
    line: int
    game: str | None
    round: int | None
    trick: int | None
    seat: int | None
    player: str | None
    message: str

    @property
    def name(self) -> str:
        return RULES[self.code].name


def select_codes(codes: list[str] | None, select: list[str], ignore: list[str]) -> set[str]:
    """The codes kept by ``--select``/``--ignore`` prefixes (empty select = all)."""
    pool = codes if codes is not None else list(RULES)
    kept = {c for c in pool if not select or any(c.startswith(p.upper()) for p in select)}
    return {c for c in kept if not any(c.startswith(p.upper()) for p in ignore)}
