"""The audit view of ``tichu-analyze replay``: one round (or a game) trick by trick.

For tournament directors and players auditing a disputed round. The view is
built from what a :class:`~tichu_analyze.core.record.Recorder` (a visitor of the
replay) kept of each round: the engine's state of the round, its steps and
tricks, and the hands after each step. In three layers:

* :func:`load` replays one file (through ``logfile``, the only I/O here, on the
  path the CLI passes in) and keeps the records of one game and its
  diagnostics;
* :func:`build` turns them into a view model (:class:`GameView`): the deal,
  calls and exchange, then each trick's events with the diagnostics each event
  caused placed right under it, the trick's outcome, and the round's result;
  diagnostics that belong to no event (an unreadable line, ``L008`` when the
  log ends) are placed by their line;
* :func:`render_text` and :func:`render_html` draw the view. Both work from
  the same phrases (:data:`Piece`), so the two formats say the same things.

Every text that comes from a log (player names, game ids, messages quoting
them, card tokens) is shown as text: control and bidirectional-formatting
characters are escaped (:func:`clean`), rich markup is never parsed, and the
HTML escapes everything it prints.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.cells import cell_len
from rich.text import Text

from ..common.errors import TichuAnalyzeError
from ..common.safetext import NAME_LIMIT, TEXT_LIMIT
from ..common.safetext import clean as _clean
from ..core.cards import (
    BIT,
    CARD_BY_TOKEN,
    RANK_BY_TOKEN,
    SUIT,
    SUIT_NAMES,
    TOKENS,
    iter_cards,
    points,
    rank_name,
)
from ..core.combos import Combo, describe
from ..core.diagnostics import RULES, Diagnostic
from ..core.events import (
    Call,
    Deal,
    DragonGift,
    Exchange,
    GameEnd,
    Pass,
    Play,
    RoundEnd,
    RoundStart,
    Substitute,
)
from ..core.record import Recorder, RoundRecord
from ..core.state import (
    STATUS_SCORED,
    STATUS_SKIPPED,
    GameState,
    Phase,
    RoundState,
    Step,
    Trick,
)
from ..core.variants import PUBLISHER, VARIANTS, Rules, setting
from ..core.visitor import SKIP
from ..readers.bsw import TCH_TOKEN
from ..readers.logfile import is_tch, replay_file
from ..review.findings import ADVISORIES, Finding

__all__ = [
    "AuditError",
    "Entry",
    "GameView",
    "Note",
    "RoundView",
    "Trace",
    "TrickView",
    "build",
    "clean",
    "load",
    "pick",
    "plain",
    "render_html",
    "render_text",
    "rich_lines",
]


class AuditError(TichuAnalyzeError):
    """The game or round asked for is not in the file; the message lists what is."""


# --------------------------------------------------------------------------- loading


@dataclass(slots=True)
class Trace:
    """What replaying one file in trace mode gave for the game of interest."""

    file: str
    games: dict[str, GameState]  # every game of the file, in file order
    rounds: list[RoundRecord]  # the rounds of the kept game(s), in order
    diagnostics: list[Diagnostic]  # of the kept game(s), and of lines that name no game
    variants: frozenset[str] = frozenset()  # given with --variant (a game adds its log's)
    tch: bool = False  # a Brettspielwelt .tch file (its own card letters)


class _GameRecorder(Recorder):
    """Keeps the rounds and diagnostics of the games ``keep`` (all games if None), with
    the hands and phase after every step."""

    def __init__(self, keep: frozenset[str] | None) -> None:
        super().__init__(hands=True)
        self.keep = keep

    def begin_game(self, game: GameState) -> object:
        if self.keep is not None and game.id not in self.keep:
            return SKIP  # the replay builds no steps for the other games
        return super().begin_game(game)

    def round_recorded(self, rec: RoundRecord) -> None:
        if self.keep is None or rec.game in self.keep:
            self.rounds.append(rec)

    def visit_diagnostic(self, diag: Diagnostic) -> None:
        if self.keep is None or diag.game is None or diag.game in self.keep:
            self.diagnostics.append(diag)


def load(path: Path, game: str | None = None, display: str | None = None,
         variants: frozenset[str] = frozenset(), *,
         games: Collection[str] | None = None) -> Trace:
    """Replay ``path`` and keep the rounds and diagnostics of ``game`` (all games if None;
    ``games``: of those games, for pages of several games of one log).

    Raises ``logfile.LogError`` when the file cannot be read.
    """
    keep = frozenset(games) if games is not None else None if game is None else frozenset([game])
    recorder = _GameRecorder(keep)
    name = display or str(path)
    replay_file(path, recorder, display=name, variants=variants, stop_after_game=game)
    found = {g.id: g for g in sorted(recorder.games, key=lambda g: g.line)}
    return Trace(name, found, recorder.rounds, recorder.diagnostics, variants, is_tch(path))


def _games_hint(trace: Trace) -> str:
    """Where to look up what the file holds (not a listing: a file may hold thousands)."""
    import shlex

    return f"'tichu-analyze games {shlex.quote(trace.file)}' lists them"


def _round_list(numbers: list[int]) -> str:
    if not numbers:
        return "no rounds"
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2:
        return f"rounds {numbers[0]}-{numbers[-1]}"
    return ("round " if len(numbers) == 1 else "rounds ") + ", ".join(map(str, numbers))


def _rejected_starts(trace: Trace) -> dict[str, Diagnostic]:
    """Per game id the engine never started, the first L002 of its ``game_start`` (an
    unknown variant, names that do not fit the variant, ..., or a field the decoder
    refused: "bad game_start event")."""
    found: dict[str, Diagnostic] = {}
    for d in trace.diagnostics:
        if (d.code == "L002" and d.game is not None and d.round is None
                and d.game not in trace.games
                and d.message.startswith(("game_start", "bad game_start event"))):
            found.setdefault(d.game, d)
    return found


def pick(trace: Trace, game: str | None, round: int | None) -> tuple[GameState, list[RoundRecord]]:
    """The game and the rounds to show; :class:`AuditError` naming what the file holds."""
    rejected = _rejected_starts(trace)
    if not trace.games:
        if rejected and (game is None or game in rejected):
            d = rejected[game] if game is not None else next(iter(rejected.values()))
            raise AuditError(f"{trace.file} holds no game that could be replayed: its "
                             f"game_start at line {d.line} was rejected: {d.code} "
                             f"{clean(d.message, TEXT_LIMIT)}")
        raise AuditError(f"{trace.file} holds no game (no readable game_start)")
    if game is not None and game not in trace.games and game in rejected:
        d = rejected[game]
        raise AuditError(f"game {clean(game)!r} in {trace.file} could not be replayed: its "
                         f"game_start at line {d.line} was rejected: {d.code} "
                         f"{clean(d.message, TEXT_LIMIT)}")
    if game is None:
        if len(trace.games) > 1:
            raise AuditError(f"{trace.file} holds {len(trace.games)} games; choose one with "
                             f"--game ({_games_hint(trace)})")
        game = next(iter(trace.games))
    rec = trace.games.get(game)
    if rec is None:
        few = ", ".join(repr(clean(g)) for g in trace.games) if len(trace.games) <= 3 else ""
        raise AuditError(f"game {clean(game)!r} is not in {trace.file}; it holds "
                         f"{len(trace.games)} game{'s' * (len(trace.games) != 1)}"
                         f"{': ' + few if few else ''} ({_games_hint(trace)})")
    rounds = [r for r in trace.rounds if r.game == game]
    if round is not None:
        chosen = [r for r in rounds if r.round == round]
        if not chosen:
            raise AuditError(f"game {clean(game)!r} in {trace.file} has no round {round}; it has "
                             f"{_round_list([r.round for r in rounds])} ({_games_hint(trace)})")
        return rec, chosen
    return rec, rounds


# ------------------------------------------------------------------------ view model


@dataclass(frozen=True, slots=True)
class Note:
    """A diagnostic as shown; for W001, a combination the seat could have played."""

    diagnostic: Diagnostic
    could_play: Combo | None = None


@dataclass(slots=True)
class Entry:
    """One line of the view: an event of the round, or a diagnostic found at a line
    that is no event of the round (``step`` None: an unreadable line, the end of file)."""

    line: int
    step: Step | None
    notes: list[Note]
    hands: list[int] | None = None  # the hands just before the event (once play began)
    place: int | None = None  # 1, 2, 3...: the seat went out with this play
    inferred: bool = False  # a pass or Dragon gift a .tch file left out (a later event's line)
    takes: bool = False  # bsw (rules 9.4): the winner's pass that took its trick
    findings: list[Finding] = field(default_factory=list)  # the review's, at this decision


@dataclass(slots=True)
class TrickView:
    """One trick: its events in order and how it ended."""

    number: int
    leader: int | None
    entries: list[Entry]
    record: Trick | None  # None: the trick never ended (double victory, log ended, ...)
    hands: list[int] | None  # the hands at the start of the trick
    wish: int | None  # the wish open at the start of the trick
    ending: str  # won / dog / last (the round ends with it) / double / unfinished
    next_leader: int | None = None
    gift_line: int | None = None  # line of the dragon_gift that gave it
    dog_due: list[int] | None = None  # after the Dog: the seats the lead passes to
    next_lead: Entry | None = None  # the lead of the next trick


@dataclass(slots=True)
class CallView:
    """A call event of the round."""

    seat: int
    call: str
    line: int
    counted: bool
    codes: list[str]
    when: str


@dataclass(slots=True)
class RoundView:
    """One round: setup, tricks, result, and every diagnostic where it happened."""

    record: RoundRecord
    first_line: int
    last_line: int
    top: list[Entry]  # diagnostics of the round reported before its round_start
    setup: list[Entry]  # deal, calls, exchange (events before the first play)
    tricks: list[TrickView]
    after: list[Entry]  # round_end, game_end, and diagnostics after the last event
    calls: list[CallView]
    hands_end: list[int] | None  # the hands when the round was closed
    fatal: Diagnostic | None
    unchecked: tuple[int, int] | None = None  # lines skipped after a fatal diagnostic
    stray: list[Entry] = field(default_factory=list)
    """Events after the round's round_end that the replay skipped (a ``deal`` before the
    next round_start: L007): shown after the result, as no part of it."""

    @property
    def notes(self) -> list[tuple[Note, str]]:
        """Every diagnostic of the round with where it is shown (``setup``, ``t3``,
        ``result``), in line order."""
        found: list[tuple[Note, str]] = []
        for e in self.top + self.setup:
            found += [(n, "setup") for n in e.notes]
        for t in self.tricks:
            for e in t.entries:
                found += [(n, f"t{t.number}") for n in e.notes]
        for e in self.after:
            found += [(n, "result") for n in e.notes]
        for e in self.stray:
            found += [(n, "stray") for n in e.notes]
        found.sort(key=lambda item: item[0].diagnostic.line)
        return found


@dataclass(slots=True)
class GameView:
    """What ``replay`` shows: a game's rounds (or one of them)."""

    file: str
    game: str
    players: list[str]
    target: int
    seat: int | None  # the point of view (None: every hand shown)
    rounds: list[RoundView]
    round_count: int  # rounds the game has in the file
    only_round: int | None  # --round
    before: list[Note] = field(default_factory=list)  # game-level diagnostics before round 1
    after: list[Note] = field(default_factory=list)  # game-level diagnostics after the rounds
    elsewhere: list[tuple[str, list[Diagnostic]]] = field(default_factory=list)
    totals: list[int] | None = None
    recorded_totals: list[int] | None = None
    ended: bool = False
    won_by: int | None = None
    unattributed_hidden: int = 0  # diagnostics on lines naming no game, not shown
    unattributed_among: int = 0  # such diagnostics shown among a round's lines (many games)
    rules: Rules = PUBLISHER  # the game's rules (per_person: totals per person, rules 9.3)
    person_totals: dict[str, int] | None = None  # per person: each person's total
    recorded_persons: dict[str, int] | None = None  # per person: game_end.score
    person_winner: str | None = None  # per person: the most points after the last round
    variants: tuple[str, ...] = ()  # the variants in force in the game (the engine's)
    given: frozenset[str] = frozenset()  # those given with --variant (else named in the log)
    tch: bool = False  # the log is a Brettspielwelt .tch file

    @property
    def seated(self) -> list[str]:
        """The names by seat in the header: the round's seating when one round is shown
        (seats change hands when players are replaced, and every round in trichu)."""
        if self.only_round is not None and self.rounds:
            return self.rounds[0].record.players
        return self.players


def _mask(tokens: Iterable[str]) -> int:
    m = 0
    for t in tokens:
        c = CARD_BY_TOKEN.get(t)
        if c is not None:
            m |= BIT[c]
    return m


def _could_play(d: Diagnostic, step: Step) -> Combo | None:
    """For W001: what the seat could have played (the engine's wish query, rules 6.2)."""
    return step.wish_play if d.code == "W001" else None


def build(trace: Trace, game: str | None = None, round: int | None = None,
          seat: int | None = None) -> GameView:
    """The view of ``game`` (the file's only game if None), all rounds or ``round``.

    Raises :class:`AuditError` when the game or the round is not in the file.
    """
    grec, rounds = pick(trace, game, round)
    gid = grec.id
    if seat is not None and not 0 <= seat < grec.seats:
        raise AuditError(f"game {clean(gid)!r} has {grec.seats} seats; --seat must be 0-"
                         f"{grec.seats - 1}")
    all_rounds = [r for r in trace.rounds if r.game == gid]
    in_steps = {id(d) for r in all_rounds for s in r.steps for d in s.diagnostics}
    single = len(trace.games) == 1
    by_round: dict[int, list[Diagnostic]] = {}
    game_level: list[Diagnostic] = []
    hidden = 0
    among: list[int] = []  # the rounds of diagnostics placed by their line only
    starts = [r.line for r in all_rounds]
    for d in trace.diagnostics:
        if id(d) in in_steps:
            continue
        if d.game is None:
            if not single:  # other games' lines may lie anywhere: only a round's own span
                number = _among(all_rounds, d.line)
                if number is None:
                    hidden += 1
                else:
                    among.append(number)
                    by_round.setdefault(number, []).append(d)
                continue
            number = _round_at(all_rounds, starts, d.line)
            if number is None:
                game_level.append(d)
            else:
                by_round.setdefault(number, []).append(d)
        elif d.game == gid:
            if d.round is not None and any(r.round == d.round for r in all_rounds):
                by_round.setdefault(d.round, []).append(d)
            else:
                game_level.append(d)
    first = all_rounds[0].line if all_rounds else grec.line
    view = GameView(
        trace.file, gid, list(grec.players), grec.target, seat,
        [_build_round(r, by_round.get(r.round, []), _next_start(all_rounds, r))
         for r in rounds],
        len(all_rounds), round,
        totals=grec.totals, recorded_totals=grec.recorded_score, ended=grec.ended,
        won_by=grec.won_by, unattributed_hidden=hidden,
        unattributed_among=sum(1 for n in among if any(r.round == n for r in rounds)),
        rules=grec.rules, person_totals=grec.person_totals,
        recorded_persons=grec.recorded_persons, person_winner=grec.person_winner,
        variants=tuple(name for name in VARIANTS if name in grec.rules.names),
        given=trace.variants, tch=trace.tch,
    )
    if round is None:
        view.before = [Note(d) for d in game_level if d.line < first]
        view.after = [Note(d) for d in game_level if d.line >= first]
    else:
        for r in all_rounds:
            if r.round == round:
                continue
            found = [d for s in r.steps for d in s.diagnostics] + by_round.get(r.round, [])
            if found:
                view.elsewhere.append((f"round {r.round}", sorted(found, key=_line)))
        if game_level:
            view.elsewhere.append(("the game", sorted(game_level, key=_line)))
    return view


def mark_findings(view: GameView, findings: Iterable[Finding]) -> int:
    """Put each of the review's ``findings`` (``tichu-analyze review``) under the event of
    its decision in ``view``: the play or pass of its seat at its line in its round (an
    R003 at the line of its call, or of the round's start when it is about a call not
    made). Returns how many found their event."""
    by_place: dict[tuple[int, int], list[Finding]] = {}
    for f in findings:
        if f.game == view.game:
            by_place.setdefault((f.round, f.line), []).append(f)
    placed = 0
    for v in view.rounds:
        entries = v.top + v.setup + [e for t in v.tricks for e in t.entries] + v.after
        for e in entries:
            here = by_place.pop((v.record.round, e.line), None)
            if here:
                e.findings += here
                placed += len(here)
    return placed


def _next_start(rounds: list[RoundRecord], rec: RoundRecord) -> int | None:
    later = [r.line for r in rounds if r.line > rec.line]
    return min(later) if later else None


def _line(d: Diagnostic) -> int:
    return d.line


def _among(rounds: list[RoundRecord], line: int) -> int | None:
    """The round whose events come before and after ``line`` (in a file of many games, a
    line that names no game is shown in a round only there)."""
    for r in rounds:
        if r.steps and r.line < line < r.steps[-1].line:
            return r.round
    return None


def _round_at(rounds: list[RoundRecord], starts: list[int], line: int) -> int | None:
    """The round whose lines hold ``line`` (from its round_start to the next one)."""
    found = None
    for r, start in zip(rounds, starts, strict=True):
        if start <= line:
            found = r.round
    return found


_PLAYING = (Play, Pass, DragonGift)


def _merge(entries: list[Entry], orphans: list[Diagnostic]) -> list[Entry]:
    """The events in replay order, each diagnostic without an event before the first event
    whose line is after its own (a .tch log's lines need not follow the replay order)."""
    waiting = sorted(orphans, key=_line)
    merged: list[Entry] = []
    for e in entries:
        while waiting and waiting[0].line < e.line:
            d = waiting.pop(0)
            merged.append(Entry(d.line, None, [Note(d)]))
        merged.append(e)
    merged += [Entry(d.line, None, [Note(d)]) for d in waiting]
    return merged


def _gives(e: Entry, to: int) -> bool:
    """Whether ``e`` is a dragon_gift to ``to`` that the replay applied."""
    step = e.step
    return (step is not None and isinstance(step.event, DragonGift) and not step.skipped
            and step.event.to == to)


def _build_round(rec: RoundRecord, orphans: list[Diagnostic], next_start: int | None
                 ) -> RoundView:
    # 1. the events as entries, with the hands before each event (the engine's hands after
    # the event before it, from the first play or pass on)
    entries: list[Entry] = []
    state = rec.state
    playing = False
    previous: list[int] | None = None
    hands: list[int] | None = None
    # a .tch reader's inserted event carries the line of the event that shows it happened
    last_at = {step.line: i for i, step in enumerate(rec.steps)}
    for i, step in enumerate(rec.steps):
        ev = step.event
        if not playing and isinstance(ev, Play | Pass) and any(rec.hands_played):
            playing = True
        before = list(previous) if playing and previous is not None else None
        if playing:
            hands = rec.hands_after[i]
        previous = rec.hands_after[i]
        notes = [Note(d, _could_play(d, step)) for d in step.diagnostics]
        entry = Entry(step.line, step, notes, before,
                      inferred=isinstance(ev, Pass | DragonGift) and last_at[step.line] != i,
                      takes=i in rec.takes)
        if step.went_out and step.seat is not None and step.seat in state.out:
            entry.place = state.out.index(step.seat) + 1
        entries.append(entry)
    entries = _merge(entries, orphans)

    # 2. sections: before play, trick by trick, after the round
    top: list[Entry] = []
    setup: list[Entry] = []
    after: list[Entry] = []
    blocks: list[tuple[int | None, list[Entry]]] = []
    pending: list[Entry] = []
    section = "setup"
    for e in entries:
        at = e.step
        if at is None:
            if e.line < rec.line:
                top.append(e)
            elif section == "setup":
                setup.append(e)
            elif section == "after":
                after.append(e)
            elif blocks:
                blocks[-1][1].append(e)
            else:
                pending.append(e)
            continue
        ev = at.event
        ended = any(n.diagnostic.code == "P009" for n in e.notes)
        if section == "after" or isinstance(ev, RoundEnd | GameEnd) or ended:
            section = "after"
            after.append(e)
        elif at.trick is not None:
            if not blocks or blocks[-1][0] != at.trick:
                blocks.append((at.trick, pending + [e]))
                pending = []
            else:
                blocks[-1][1].append(e)
            section = "play"
        elif isinstance(ev, _PLAYING) or section == "play":
            section = "play"
            pending.append(e)
        else:
            setup.append(e)
    if pending:
        blocks.append((None, pending))
    end = next((i for i, e in enumerate(after)
                if e.step is not None and isinstance(e.step.event, RoundEnd)), len(after))
    kept, stray = after[:end + 1], list[Entry]()
    for e in after[end + 1:]:  # (the game_end that closes the round belongs to it)
        (stray if e.step is not None and not isinstance(e.step.event, GameEnd)
         else kept).append(e)
    after = kept

    # 3. tricks and their endings
    records = {t.number: t for t in rec.tricks}
    tricks: list[TrickView] = []
    last_number = rec.tricks[-1].number if rec.tricks else None
    for number, block in blocks:
        trick_rec = records.get(number) if number is not None else None
        start_hands = next((e.hands for e in block if e.hands is not None), None)
        leader = trick_rec.leader if trick_rec is not None else next(
            (e.step.seat for e in block if e.step is not None and e.step.lead), None)
        first_step = next((e.step for e in block if e.step is not None and e.step.lead), None)
        wish = first_step.wish_open if first_step is not None else None
        view = TrickView(number or 0, leader, block, trick_rec, start_hands, wish, "won")
        if trick_rec is None:
            view.ending = "double" if rec.double_victory else "unfinished"
        elif trick_rec.dog:
            view.ending = "dog"
        elif number == last_number and rec.status == STATUS_SCORED and not rec.double_victory:
            view.ending = "last"
        if trick_rec is not None and trick_rec.dragon:
            view.gift_line = next((e.line for e in block if _gives(e, trick_rec.taken_by)), None)
        tricks.append(view)
    for prev, nxt in zip(tricks, tricks[1:], strict=False):
        prev.next_leader = nxt.leader
        prev.next_lead = next((e for e in nxt.entries if e.step is not None and e.step.lead),
                              None)
        if prev.ending == "dog" and prev.record is not None:
            prev.dog_due = rec.dog_leads.get(prev.record.number)

    # 4. calls (timed by the phase of the round when they came) and the fatal diagnostic
    calls: list[CallView] = []
    phase_after = {id(step): rec.phase_after[i] for i, step in enumerate(rec.steps)}
    phase = Phase.DEAL
    for e in entries:
        if e.step is None:
            continue
        ev = e.step.event
        if isinstance(ev, Call):
            codes = [n.diagnostic.code for n in e.notes]
            if e.step.skipped and not codes:
                codes = ["the round was skipped"]
            counted = state.calls[ev.seat] == ev.call and not codes
            if e.step.trick is not None:
                when = f"during trick {e.step.trick}"
            elif phase <= Phase.GRAND:
                when = "after the first 8 cards"
            elif phase == Phase.EXCHANGE:
                when = "after the second deal"
            else:
                when = "before the first lead"
            calls.append(CallView(ev.seat, ev.call, e.line, counted, codes, when))
        phase = phase_after.get(id(e.step), phase)
    fatal = next((n.diagnostic for e in entries for n in e.notes
                  if n.diagnostic.severity == "fatal"), None)
    lines = [e.line for e in entries] or [rec.line]
    last = max(lines)
    unchecked = None
    if fatal is not None and next_start is not None and next_start - 1 > fatal.line:
        unchecked = (fatal.line + 1, next_start - 1)
        last = max(last, next_start - 1)
    return RoundView(rec, min(rec.line, lines[0]), last, top, setup, tricks, after, calls,
                     hands, fatal, unchecked, stray)


# ---------------------------------------------------------------------------- phrases


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards to draw, in the order given (log tokens; unknown tokens drawn as text)."""

    tokens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Who:
    """A seat, drawn as ``Name (seat)``, or as the name alone when ``short``."""

    seat: int
    short: bool = False


@dataclass(frozen=True, slots=True)
class Em:
    """Emphasised words (out of turn, went out, wish fulfilled)."""

    text: str


Piece = str | Cards | Who | Em
"""One piece of a phrase; both renderers draw the same phrases."""


def cards(mask: int) -> Cards:
    """The cards of ``mask`` in rank order."""
    return Cards(tuple(TOKENS[c] for c in iter_cards(mask)))


def _sorted_tokens(tokens: Iterable[str]) -> Cards:
    known = sorted((t for t in tokens if t in CARD_BY_TOKEN), key=CARD_BY_TOKEN.__getitem__)
    return Cards(tuple(known) + tuple(t for t in tokens if t not in CARD_BY_TOKEN))


def _article(word: str) -> str:
    return ("an " if word[:1] in "AEIOU8" or word.startswith("11") else "a ") + word


_SPECIAL_NAMES = ("Dragon", "Mahjong", "Dog")
"""Combinations whose description is just the card's name."""
_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "6th"}
_CALL = {"tichu": "Tichu", "grand_tichu": "Grand Tichu"}


def _combo_words(combo: Combo) -> str:
    return describe(combo)


def _on(step: Step) -> list[Piece]:
    """``on Chloe's single 3``: what a play or pass met on the table."""
    if step.top is None:
        return []
    owner: list[Piece] = (["their own "] if step.top_seat is not None
                          and step.top_seat == step.seat  # the seat's own play on the table
                          else [Who(step.top_seat, short=True), "'s "]
                          if step.top_seat is not None else ["the "])
    return [" on ", *owner, _combo_words(step.top)]


def event_phrase(entry: Entry, seat_view: int | None = None) -> list[Piece]:
    """What the event of ``entry`` did, after the acting seat's name."""
    step = entry.step
    assert step is not None
    ev = step.event
    if isinstance(ev, Play):
        return _play_phrase(entry, step, ev)
    if isinstance(ev, Pass):
        words: list[Piece] = (["takes the trick of their ", _combo_words(step.top),
                               " (a pass: bsw rules 9.4)"]
                              if entry.takes and step.top is not None
                              else ["passes", *_on(step)])
        if step.out_of_turn:
            words += [" ", Em("(out of turn)")]
        if step.skipped:
            words.append(" (not applied)")
        if entry.inferred:
            words.append(" (not recorded here in the .tch file, which leaves passes out or "
                         "logs them out of order: the play at this line shows it)")
        return words
    if isinstance(ev, DragonGift):
        words = ["gives the Dragon's trick to ", Who(ev.to)]
        if step.skipped:
            words.append(" (not applied)")
        if entry.inferred:
            words.append(" (no 'Drache an:' in the .tch file: given to the opponent that makes "
                         "the recorded score come out, else the next seat after the winner; "
                         "docs/bsw.md)")
        return words
    if isinstance(ev, Call):
        return [f"calls {_CALL.get(ev.call, ev.call)}"]
    if isinstance(ev, Exchange):
        return _exchange_phrase(ev, step.skipped, seat_view)
    if isinstance(ev, Deal):
        return []
    if isinstance(ev, RoundEnd):
        parts: list[Piece] = ["round_end records"]
        if ev.finish_order is not None:
            parts.append(" the finish order " + ", ".join(map(str, ev.finish_order)))
        if ev.score is not None:
            parts.append((" and" if ev.finish_order is not None else "")
                         + f" the score {ev.score[0]} to {ev.score[1]}")
        if ev.finish_order is None and ev.score is None:
            parts.append(" nothing")
        return parts
    if isinstance(ev, GameEnd):
        if isinstance(ev.score, dict):  # trichu: per person (rules 9.3)
            return ["game_end records the totals "
                    + ", ".join(f"{name} {total}" for name, total in ev.score.items())]
        if ev.score is None:
            return ["game_end"]
        return [f"game_end records the totals {ev.score[0]} to {ev.score[1]}"]
    if isinstance(ev, RoundStart):
        return [f"round_start of round {ev.round}"]
    if isinstance(ev, Substitute):
        if step.skipped:
            return [f"x_substitute naming {ev.player} (not applied)"]
        return ["takes the seat during the round: a substitute, who makes its decisions from "
                "here on (the round stays credited to the player who began it)"]
    return [type(ev).__name__]


def _play_phrase(entry: Entry, step: Step, ev: Play) -> list[Piece]:
    shown = _sorted_tokens(ev.cards)
    combo = step.combo
    if combo is None:
        if step.cards_left is not None:
            return ["plays ", shown, " — no combination: the cards leave the hand, "
                    "the table is unchanged", *_left(entry, step)]
        return ["plays ", shown, " (not applied)"]
    words: list[Piece]
    named = _combo_words(combo)
    what: list[Piece] = [] if named in _SPECIAL_NAMES else [" — ", named]
    if step.lead:
        words = ["leads ", shown, *what]
    else:
        verb = "bombs " if combo.is_bomb else "plays "
        words = [verb, shown, *what, *_on(step)]
        if step.out_of_turn and combo.is_bomb and not entry.notes:  # the engine found it legal
            words += [" ", Em("(out of turn, allowed for a bomb: rules 4.3)")]
        elif step.out_of_turn:
            words += [" ", Em("(out of turn)")]
    wish = ev.wish
    if isinstance(wish, str) and wish in RANK_BY_TOKEN and not any(
            n.diagnostic.code == "W002" for n in entry.notes):
        words.append(f"; wishes for {_article(rank_name(RANK_BY_TOKEN[wish]))}")
    if step.wish_fulfilled and step.wish_open is not None:
        words += ["; ", Em(f"fulfils the wish for {_article(rank_name(step.wish_open))}")]
    return words + _left(entry, step)


def _left(entry: Entry, step: Step) -> list[Piece]:
    if entry.place is not None:
        return [f" ·{_NBSP}", Em(f"goes out ({_ORDINAL.get(entry.place, str(entry.place))})"
                                  .replace(" ", _NBSP))]
    if step.cards_left is None:
        return []
    return [f" ·{_NBSP}{step.cards_left}{_NBSP}left"]


_SEAT_KEYS = ("0", "1", "2", "3", "4", "5")
"""``exchange.give`` keys that name a seat (of six at most; :class:`Who` draws a seat the
round does not have as ``seat N``)."""


def _exchange_phrase(ev: Exchange, skipped: bool, seat_view: int | None) -> list[Piece]:
    words: list[Piece] = []
    gives = sorted(ev.give.items())
    if seat_view is not None and ev.seat != seat_view:
        if len(gives) == 3:
            words.append("gives one card to each other seat")
        else:  # tientsin: to its partners; trichu: to the other team (rules 9.2, 9.3)
            words.append("gives one card each to ")
            for i, (key, _) in enumerate(gives):
                words += [" and " if i else "", Who(int(key)) if key in _SEAT_KEYS
                          else repr(key)]
        for key, token in gives:
            if key == str(seat_view):
                words += ["; ", Who(seat_view), " receives ", _sorted_tokens([token])]
        return words
    words.append("gives ")
    for i, (key, token) in enumerate(gives):
        if i:
            words.append(", ")
        words += [_sorted_tokens([token]), " to "]
        words.append(Who(int(key)) if key in _SEAT_KEYS else repr(key))
    if skipped:
        words.append(" (not applied)")
    return words


def trick_outcome(v: RoundView, t: TrickView) -> list[Piece]:
    """How the trick ended, who takes it and for how many points."""
    rec = t.record
    if rec is None:
        if t.ending == "double":
            return ["the round ended by a double victory during this trick; its cards are "
                    "not counted"]
        why = ("the round was skipped after a fatal diagnostic" if v.fatal is not None
               else "the round was left unfinished")
        return [f"the trick is not finished: {why}"]
    if t.ending == "dog":
        to = t.next_leader
        state = v.record.state
        due = t.dog_due if t.dog_due is not None else [] if to is None else [to]
        if to is not None and to not in due:  # led by another seat (P003 at that lead)
            to = None
        lead: list[Piece] = []
        for i, seat in enumerate([to] if to is not None else due):
            lead += [" and the lead passes to " if i == 0 else " or ", Who(seat)]
        if lead and len(due) > 1:  # tientsin: either partner holding cards (rules 9.2)
            lead.append(f", a partner of {clean(state.players[rec.winner])}'s choice")
        bomb = t.next_lead
        if (to is None and t.next_leader is not None and state.rules.dog_bombs and bomb is not None
                and bomb.step is not None and bomb.step.combo is not None
                and bomb.step.combo.is_bomb and not bomb.notes):
            lead += ["; ", Who(t.next_leader), " bombs the Dog instead, as the house rule "
                     f"{setting('dog_bombs')} allows"]
        return ["the Dog's trick ends at once; ", Who(rec.winner), " keeps it (0 points)", *lead]
    with_: list[Piece] = []
    if rec.top is not None:
        with_ = [" with ", cards(rec.top.cards)]
        words = _combo_words(rec.top)
        if words not in _SPECIAL_NAMES:
            with_.append(f" — {words}")
    head: list[Piece] = ["the round is over: "] if t.ending == "last" else []
    pts = f" · {rec.points} point{'s' * (abs(rec.points) != 1)}"
    if rec.dragon and rec.taken_by != rec.winner:
        given: list[Piece] = [" · given to ", Who(rec.taken_by)]
        given.append(f" at line {t.gift_line}" if t.gift_line is not None
                     else " by the replay: no dragon_gift followed (G002)")
        return [*head, Who(rec.winner), " wins", *with_, pts, *given]
    return [*head, Who(rec.winner), " wins", *with_, pts]


def rule_section(code: str) -> str:
    """Where the rule of ``code`` is written: ``rules 6.2`` or ``log format: Cards``."""
    section = RULES[code].section
    if section.startswith("log-format"):
        return "log format" + section[len("log-format"):]
    return f"rules {section}"


def _team(players: Sequence[str], team: int) -> str:
    return f"team {team} ({_members(players, team)})"


def _members(players: Sequence[str], team: int) -> str:
    """``Ana + Chloe``: the names of ``team``'s seats (two, or three for six seats)."""
    return " + ".join(clean(players[s]) for s in range(team, len(players), 2))


def _team_over_game(view: GameView, team: int) -> str:
    """``Ana + Chloe``, and whoever took one of the team's seats later in the rounds
    shown (``; Zoe from round 5``): the team that won a game with a substitute."""
    words = _members(view.players, team)
    seen = {view.players[s] for s in range(team, len(view.players), 2)}
    later: list[str] = []
    for r in view.rounds:
        names = r.record.players
        for s in range(team, len(names), 2):
            if names[s] not in seen:
                seen.add(names[s])
                later.append(f"{clean(names[s])} from round {r.record.round}")
    return words + ("; " + ", ".join(later) if later else "")


def replaced_words(view: GameView, seated: Sequence[str]) -> str:
    """`` · Zoe (1) in place of Ben, who began the game in that seat``: whom the players
    of a round (``round_start.players``) replace, against the game's ``game_start``;
    empty in ``trichu``, whose seating changes every round by its rules (9.3)."""
    began = view.players
    if view.rules.per_person:
        return ""
    swaps = [f"{clean(seated[s])} ({s}) in place of {clean(began[s])}"
             for s in range(min(len(seated), len(began))) if seated[s] != began[s]]
    if not swaps:
        return ""
    return (" · " + ", ".join(swaps)
            + (", who began the game in that seat" if len(swaps) == 1
               else ", who began the game in those seats"))


def substitutes_words(state: RoundState) -> str:
    """``kovatsaki took seat 3 from kalosaras. at line 364``, for each substitute who took a
    seat during the round (``x_substitute``), and whom the round is credited to; empty
    when none did."""
    names = list(state.players)
    changes = []
    for line, seat, name in state.substitutes:
        changes.append(f"{clean(name)} took seat {seat} from {clean(names[seat])} at line {line}")
        names[seat] = name
    if not changes:
        return ""
    seats = sorted({seat for _, seat, _ in state.substitutes})
    credited = ", ".join(f"{clean(state.players[s])} ({s})" for s in seats)
    return f"{'; '.join(changes)}; the round is credited to {credited}, who began it"


def _seated(names: list[str], e: Entry) -> list[str]:
    """The names by seat from the entry ``e`` on: a substitute's event changes one."""
    step = e.step
    if step is None or step.skipped or not isinstance(step.event, Substitute):
        return names
    names = list(names)
    names[step.event.seat] = step.event.player
    return names


def dummy_mark(state: RoundState, seat: int) -> str | None:
    """``dummy, open hand; played by Ana``: for the dummy's seat of a ``trichu`` round
    (rules 9.3), None for any other seat."""
    if seat != state.dummy or state.dummy < 0:
        return None
    return f"dummy, open hand; played by {clean(state.players[state.solo])}"


def shown_to(view: GameView, state: RoundState, seat: int) -> bool:
    """Whether the view shows ``seat``'s cards: every hand without ``--seat``; with it,
    the seat's own and the open dummy's (``trichu``)."""
    return view.seat is None or seat == view.seat or seat == state.dummy


def seating_phrase(state: RoundState) -> list[Piece]:
    """``trichu``: who plays solo with the dummy, against whom."""
    solo, dummy = state.solo, state.dummy
    others = [s for s in range(state.seats) if s not in (solo, dummy)]
    return [Who(solo), " plays solo with ", Who(dummy), f" ({dummy_mark(state, dummy)}) "
            "against ", Who(others[0]), " + ", Who(others[1])]


def result_rows(view: GameView, v: RoundView) -> list[tuple[str, list[Piece]]]:
    """The round's result as (label, phrase) rows."""
    rec = v.record
    players = rec.players
    seats = rec.state.seats
    half = seats // 2
    rows: list[tuple[str, list[Piece]]] = []
    if rec.status == STATUS_SKIPPED or rec.score is None:
        if v.fatal is not None:
            rest = ("the rest of the round was not checked" if v.unchecked is None else
                    f"lines {v.unchecked[0]}-{v.unchecked[1]} were not checked"
                    if v.unchecked[1] > v.unchecked[0] else
                    f"line {v.unchecked[0]} was not checked")
            rows.append(("not scored", [f"the round was skipped at line {v.fatal.line} "
                                        f"({v.fatal.code} {v.fatal.name}); {rest}"]))
        else:
            gone = sum(1 for t in v.tricks for e in t.entries if e.place is not None)
            rows.append(("not scored", [f"the round did not end: {gone} of the {seats} seats went "
                                        "out"]))
        if rec.recorded_score is not None:
            got = rec.recorded_score
            rows.append(("recorded", [f"team 0 {got[0]} · team 1 {got[1]} (not counted: a round "
                                      "that is not scored adds nothing to the game total)"]))
        if rec.recorded_finish is not None:
            rows.append(("recorded order", [", ".join(map(str, rec.recorded_finish))]))
        return rows + _game_row(v)
    order = rec.finish_order
    finish: list[Piece] = []
    for i, out_seat in enumerate(order[:half] if rec.double_victory else order):
        if i:
            finish.append(" · ")
        finish += ["last " if i == seats - 1 else f"{_ORDINAL[i + 1]} ", Who(out_seat)]
    if rec.double_victory:
        finish.append(" · still holding cards: ")
        for i, holder in enumerate(order[half:]):
            finish += [", " if i else "", Who(holder)]
    rows.append(("finish order", finish))
    if rec.double_victory:
        team = order[0] & 1
        label = rec.state.rules.team_victory_words
        rows.append((label, [f"{_team(players, team)} scores {rec.card_points[team]}; card "
                             "points are not counted"]))
    else:
        last = order[-1]
        left = v.hands_end[last] if v.hands_end is not None else 0
        one = left.bit_count() == 1
        hand: list[Piece] = (
            [("the card" if one else f"the {left.bit_count()} cards") + " left in hand (",
             cards(left), f", {points(left)} points) " + ("goes" if one else "go")
             + f" to {_team(players, (last + 1) & 1)}"]
            if left else ["no cards left in hand"])
        if not rec.state.rules.last_tricks_to_first:  # rules 9.2: the last seat's tricks
            fifth = order[-2]  # to the other team, the fifth's to the first out
            rows.append(("last seat", [Who(last), " is last: ", *hand, "; the tricks it took "
                                       f"({rec.pile_points[last]} points) go to that team too"]))
            rows.append(("fifth seat", [Who(fifth), " is fifth: the tricks it took "
                                        f"({rec.pile_points[fifth]} points) go to ",
                                        Who(order[0]), ", first out"]))
        else:
            rows.append(("last seat", [Who(last), " is last: ", *hand, "; the tricks it took "
                                       f"({rec.pile_points[last]} points) go to ",
                                       Who(order[0]), ", first out"]))
        piles: list[Piece] = []
        for s in range(seats):
            if s:
                piles.append(" · ")
            piles += [Who(s), f" {rec.pile_points[s]}"]
        rows.append(("tricks taken", piles))
        rows.append(("card points", [f"{_team(players, 0)} {rec.card_points[0]} · "
                                     f"{_team(players, 1)} {rec.card_points[1]}"]))
    call_words: list[Piece] = []
    for c in v.calls:
        if call_words:
            call_words.append(" · ")
        name = _CALL.get(c.call, c.call)
        if c.counted:
            value = rec.seat_calls[c.seat]  # the engine's: + made, - failed
            call_words += [Who(c.seat), f" {name}, " + ("first out: +" if value > 0 else
                                                          "not first out: -") + str(abs(value))]
        else:
            call_words += [Who(c.seat), f" {name} (line {c.line}) not counted: "
                           + ", ".join(c.codes)]
    rows.append(("calls", call_words or ["none"]))
    penalty = rec.penalty
    if any(penalty):  # the wish-penalty-200 house rule: 200 to the other team per W001
        rows.append(("wish penalty", [" · ".join(
            f"{_team(players, t)} +{penalty[t]} ({penalty[t] // 200} wish "
            + ("violation" if penalty[t] == 200 else "violations") + " by the other team)"
            for t in (0, 1) if penalty[t])]))
    score = rec.score
    rows.append(("score", [f"team 0 {score[0]} · team 1 {score[1]}"]))
    dummy = rec.state.dummy
    if dummy >= 0:  # trichu: each person scores its team's points (rules 9.3)
        persons: list[Piece] = []
        for s in range(seats):
            if s != dummy:
                persons += [" · " if persons else "", Who(s), f" {score[s & 1]}"]
        rows.append(("persons", persons))
    if rec.recorded_score is not None:
        r = rec.recorded_score
        diff = [r[0] - score[0], r[1] - score[1]]
        words = f"team 0 {r[0]} · team 1 {r[1]}"
        if diff == [0, 0]:
            rows.append(("recorded", [words + " (the same)"]))
        else:
            rows.append(("recorded", [words + " — ", Em(f"differs by {diff[0]:+d} for team 0, "
                                                        f"{diff[1]:+d} for team 1")]))
    else:
        rows.append(("recorded", ["no score recorded (no round_end)"]))
    return rows + _game_row(v)


def _game_row(v: RoundView) -> list[tuple[str, list[Piece]]]:
    """The game's score after the round (the engine's ``GameState.totals`` when the round
    was closed: the rounds scored so far); none in ``trichu``, scored per person."""
    total = v.record.game_totals
    if total is None or v.record.state.dummy >= 0:
        return []
    return [("game score", [f"team 0 {total[0]} · team 1 {total[1]} after round "
                            f"{v.record.round} (the rounds scored so far)"])]


# ------------------------------------------------------------------------ cleaning


def clean(text: object, limit: int = NAME_LIMIT) -> str:
    """``text`` made safe to show (:func:`tichu_analyze.common.safetext.clean`): control,
    formatting (bidi) and separator characters other than spaces escaped as ``\\xNN`` /
    ``\\uNNNN``, cut with an ellipsis after ``limit`` characters (by default those of
    a name)."""
    return _clean(text, limit)


# ------------------------------------------------------------------------------ text

_NBSP = "\u00a0"
"""Joins words the wrapping must keep on one line (shown as a space)."""

Seg = tuple[str, str]
"""(text, rich style) of a piece of text output."""

_SUIT_STYLE = ("green", "bold", "bright_blue", "red")
"""Jade, Sword (the terminal's own colour: black on a light background), Pagoda, Star."""
_SPECIAL_STYLE = "bold magenta"
_SEVERITY_MARK = {"error": ("✗", "bold red"), "fatal": ("✗", "bold red"),
                  "warning": ("!", "bold yellow")}


def _card_style(token: str) -> str:
    c = CARD_BY_TOKEN.get(token)
    if c is None:
        return ""
    suit = SUIT[c]
    return _SUIT_STYLE[suit] if suit >= 0 else _SPECIAL_STYLE


class _TextWriter:
    """Lines of segments, wrapped at ``width`` with hanging indents."""

    def __init__(self, view: GameView, width: int) -> None:
        self.view = view
        self.width = max(width, 60)
        self.lines: list[list[Seg]] = []
        self.names = view.seated  # the players of the round being drawn
        self.state: RoundState | None = None  # the round being drawn
        names = [f"{clean(p)} ({s})" for v in view.rounds for s, p in enumerate(v.record.players)]
        names += [f"{clean(p)} ({s})" for s, p in enumerate(view.players)]
        self.who_width = min(max(cell_len(n) for n in names), 22)

    def who(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return f"seat {seat}"
        return f"{clean(self.names[seat])}{_NBSP}({seat})"

    def name(self, seat: int) -> str:
        return clean(self.names[seat]) if 0 <= seat < len(self.names) else f"seat {seat}"

    def segs(self, pieces: Iterable[Piece], style: str = "") -> list[Seg]:
        out: list[Seg] = []
        for p in pieces:
            if isinstance(p, str):
                out.append((clean(p, TEXT_LIMIT), style))
            elif isinstance(p, Who):
                out.append((self.name(p.seat) if p.short else self.who(p.seat), style or "bold"))
            elif isinstance(p, Em):
                out.append((clean(p.text, TEXT_LIMIT), "bold"))
            else:
                for i, token in enumerate(p.tokens):
                    if i:
                        out.append((" ", ""))
                    out.append((clean(token), _card_style(token)))
                if not p.tokens:
                    out.append(("no cards", style))
        return out

    def blank(self) -> None:
        if self.lines and self.lines[-1]:
            self.lines.append([])

    def add(self, prefix: list[Seg], body: list[Seg], hang: int | None = None) -> None:
        """One logical line: ``prefix`` then ``body`` wrapped; continuation lines start at
        ``hang`` (default: under the body)."""
        start = sum(cell_len(t) for t, _ in prefix)
        indent = start if hang is None else hang
        words = _words(body)
        line: list[Seg] = list(prefix)
        col = start
        first = True
        for word in words:
            w = sum(cell_len(t) for t, _ in word)
            if not first and col + 1 + w > self.width and col > indent:
                self.lines.append(line)
                line = [(" " * indent, "")]
                col = indent
                first = True
            if not first:
                line.append((" ", ""))
                col += 1
            line += word
            col += w
            first = False
        self.lines.append(line)


def _words(body: list[Seg]) -> list[list[Seg]]:
    """Split styled text into words (runs without spaces), keeping each piece's style."""
    words: list[list[Seg]] = []
    current: list[Seg] = []
    for text, style in body:
        parts = text.split(" ")
        for i, part in enumerate(parts):
            if i:
                if current:
                    words.append(current)
                current = []
            if part:
                current.append((part, style))
    if current:
        words.append(current)
    return words


def _point_of_view(view: GameView, text: Callable[[str], str]) -> str:
    """``seat N (name)``: who sits at ``view.seat`` in the rounds shown (seats change
    hands between rounds when players are replaced, and every round in trichu)."""
    seat = view.seat
    assert seat is not None
    held = [v.record.players for v in view.rounds] or [view.players]
    names = list(dict.fromkeys(p[seat] for p in held if seat < len(p)))
    if len(names) == 1:
        return f"seat {seat} ({text(names[0])})"
    return f"seat {seat} (whoever sits there in each round)"


def render_text(view: GameView, width: int = 100, hands: bool = False) -> list[list[Seg]]:
    """The view as lines of styled segments (see :func:`plain` and :func:`rich_lines`).

    ``hands``: also list the hands at the start of every trick (with ``view.seat``,
    the other seats as card counts).
    """
    w = _TextWriter(view, width)
    players = view.seated
    title = f"Game {clean(view.game)} · {clean(view.file, TEXT_LIMIT)}"
    if view.only_round is not None:
        title += f" · round {view.only_round} of {view.round_count}"
    else:
        title += f" · {view.round_count} round{'s' * (view.round_count != 1)}"
    if view.seat is not None:
        title += f" · seen from {_point_of_view(view, clean)}"
    w.add([], [(title, "bold")])
    w.add([("Players ", "bold")],
          [(", ".join(w.who(s) for s in range(len(players))) + _teams_words(view), "")],
          hang=2)
    w.add([("Rules   ", "bold")], [(rules_phrase(view), "")], hang=2)
    w.add([("Cards   ", "bold")],
          [("2..10 J Q K A in four suits: ", "")] + [
              seg for i, (letter, name) in enumerate(zip("jspr", SUIT_NAMES, strict=True))
              for seg in ((", " if i else "", ""), (f"{letter} {name}", _SUIT_STYLE[i]))]
          + [("; ", ""), ("Mahjong", _SPECIAL_STYLE), (" ", ""), ("Dog", _SPECIAL_STYLE),
             (" ", ""), ("Phoenix", _SPECIAL_STYLE), (" ", ""), ("Dragon", _SPECIAL_STYLE)],
          hang=2)
    if view.tch:
        w.add([("BSW     ", "bold")], [(TCH_CARDS, "")], hang=2)
    if view.before:
        w.blank()
        w.add([], [("Before the first round", "bold")])
        for n in view.before:
            _text_note(w, n, 2, line_width=len(str(n.diagnostic.line)))
    for v in view.rounds:
        w.names, w.state = v.record.players, v.record.state
        _text_round(w, view, v, hands)
        w.names, w.state = view.players, None
    _text_footer(w, view)
    while w.lines and not w.lines[-1]:
        w.lines.pop()
    return w.lines


def _text_note(w: _TextWriter, note: Note, indent: int, line_width: int | None = None) -> None:
    """A diagnostic at column ``indent``; with ``line_width``, after its line number."""
    d = note.diagnostic
    mark, style = _SEVERITY_MARK.get(d.severity, ("✗", "bold red"))
    sev = "" if d.severity == "error" else f" ({d.severity})"
    prefix: list[Seg] = [(" " * indent, "")]
    if line_width is not None:
        prefix.append((f"line {d.line:<{line_width}}  ", "dim"))
    hang = sum(cell_len(t) for t, _ in prefix) + 2
    w.add(prefix + [(f"{mark} {d.code} {d.name}{sev}: ", style)],
          [(clean(d.message, TEXT_LIMIT), ""),
           (" [" + rule_section(d.code).replace(" ", _NBSP) + "]", "dim")], hang=hang)
    if note.could_play is not None:
        body = w.segs(["could have played ", cards(note.could_play.cards), " — ",
                       _combo_words(note.could_play)])
        w.add([(" " * (indent + 2), "")], body)


def _finding_words(f: Finding) -> str:
    label = "review, all hands open" if f.hindsight else "review"
    return f"{f.code} {ADVISORIES[f.code].name} ({label}): "


def _text_finding(w: _TextWriter, f: Finding, indent: int) -> None:
    """A review finding at column ``indent``, under the event of its decision."""
    head = f"◆ {_finding_words(f)}"
    w.add([(" " * indent, ""), (head, "bold magenta")], [(clean(f.message, TEXT_LIMIT), "")],
          hang=indent + 2)


def _line_prefix(w: _TextWriter, line: int, seat: int | None, lw: int) -> list[Seg]:
    who = w.who(seat) if seat is not None else ""
    pad = max(w.who_width - cell_len(who), 0)
    return [(f"  line {line:<{lw}}  ", "dim"), (who, "bold"), (" " * pad + "  ", "")]


def _text_entry(w: _TextWriter, view: GameView, e: Entry, lw: int) -> None:
    body_col = 2 + 5 + lw + 2 + w.who_width + 2
    w.names = _seated(w.names, e)
    step = e.step
    if step is not None:
        ev = step.event
        if isinstance(ev, RoundStart) and not e.notes:
            return
        if isinstance(ev, Deal):
            _text_deal(w, view, e, ev, lw)
        else:
            seat = step.seat if not isinstance(ev, RoundEnd | GameEnd) else None
            w.add(_line_prefix(w, e.line, seat, lw),
                  w.segs(event_phrase(e, _viewer(view, w.state, seat))))
        for n in e.notes:
            _text_note(w, n, body_col)
        for f in e.findings:
            _text_finding(w, f, body_col)
        return
    for n in e.notes:  # a diagnostic at a line that is no event of the round
        _text_note(w, n, 2, line_width=lw)


def _deal_words(e: Entry, state: RoundState | None) -> str:
    ev = e.step.event if e.step is not None else None
    size = len(ev.hands[0]) if isinstance(ev, Deal) and ev.hands else 0
    if state is not None and state.rules.uneven_deal:  # rules 9.2: 6 cards, then 3 or 4
        return {6: "first deal, 6 cards each", 3: "second deal, 3 or 4 cards each",
                4: "second deal, 3 or 4 cards each"}.get(size, "deal")
    return {8: "first deal, 8 cards each", 6: "second deal, 6 cards each"}.get(
        size, "deal")


def _with_mark(state: RoundState | None, seat: int) -> str:
    """`` (dummy, open hand; played by Ana)`` after the dummy's name, else nothing."""
    mark = dummy_mark(state, seat) if state is not None else None
    return f" ({mark})" if mark is not None else ""


def _viewer(view: GameView, state: RoundState | None, seat: int | None) -> int | None:
    """The point of view for the event of ``seat``: none (all shown) for the open
    dummy's own events, such as its exchange."""
    return None if state is not None and seat is not None and seat == state.dummy \
        else view.seat


def _hidden(view: GameView, state: RoundState | None, seat: int) -> bool:
    """Whether the view hides ``seat``'s cards (see :func:`shown_to`)."""
    return not (shown_to(view, state, seat) if state is not None
                else view.seat is None or seat == view.seat)


def _text_deal(w: _TextWriter, view: GameView, e: Entry, ev: Deal, lw: int) -> None:
    rec_hands = ev.hands
    what = _deal_words(e, w.state)
    w.add(_line_prefix(w, e.line, None, lw), [(what, "")])
    body_col = 2 + 5 + lw + 2
    for s, hand in enumerate(rec_hands[:len(w.names)]):
        name = w.who(s)
        prefix = [(" " * body_col, ""), (name, "bold"),
                  (" " * (max(w.who_width - cell_len(name), 0) + 2), "")]
        mark = [(_with_mark(w.state, s), "italic")] if _with_mark(w.state, s) else []
        if _hidden(view, w.state, s):
            w.add(prefix, [(f"{len(hand)} cards", "dim")])
        else:
            w.add(prefix, w.segs([_sorted_tokens(hand)]) + mark)


def _hands_block(w: _TextWriter, view: GameView, hands: list[int], indent: int,
                 received: list[dict[int, int]] | None = None) -> None:
    for s in range(len(hands)):
        name = w.who(s)
        prefix = [(" " * indent, ""), (name, "bold"),
                  (" " * (max(w.who_width - cell_len(name), 0) + 2), "")]
        if _hidden(view, w.state, s):
            w.add(prefix, [(f"{hands[s].bit_count()} cards", "dim")])
            continue
        body: list[Piece] = [cards(hands[s])]
        if _with_mark(w.state, s):
            body.append(_with_mark(w.state, s))
        if received is not None:
            got = [(giver, g[s]) for giver, g in enumerate(received) if s in g]
            if got:
                body.append(" (received ")
                for i, (giver, card) in enumerate(got):
                    if i:
                        body.append(", ")
                    body += [cards(BIT[card]), " from ", Who(giver)]
                body.append(")")
        w.add(prefix, w.segs(body))


_PLACE = {"setup": "before play", "result": "result", "stray": "after the round"}
"""Where a round's diagnostic is shown (``RoundView.notes``), in its header's list."""


def _stray_title(number: int) -> str:
    return f"After round {number}'s round_end (not part of any round)"


def _text_round(w: _TextWriter, view: GameView, v: RoundView, show_hands: bool) -> None:
    rec = v.record
    lw = len(str(v.last_line))
    w.blank()
    status = {"scored": "scored", "incomplete": "not finished", "skipped": "skipped"}.get(
        rec.status, rec.status)
    head = f"Round {rec.round} · lines {v.first_line}-{v.last_line} · {status}"
    if rec.score is not None:
        head += f": team 0 {rec.score[0]}, team 1 {rec.score[1]}"
    w.add([], [("━━ " + head + " ━━", "bold")])
    if rec.players != view.players:  # round_start.players: a substitute or a new seating
        w.add([("Players in this round ", "bold")],
              [(", ".join(w.who(s) for s in range(len(rec.players)))
                + replaced_words(view, rec.players), "")], hang=2)
    if rec.state.substitutes:
        w.add([("Substitutes ", "bold")], [(substitutes_words(rec.state), "")], hang=2)
    if rec.state.dummy >= 0:  # trichu (rules 9.3)
        w.add([("Seating ", "bold")], w.segs(seating_phrase(rec.state)), hang=2)
    notes = v.notes
    errors = sum(1 for n, _ in notes if n.diagnostic.severity != "warning")
    warnings = len(notes) - errors
    if notes:
        w.add([], [(f"{len(notes)} diagnostic{'s' * (len(notes) != 1)}: {errors} error"
                    f"{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}", "bold")])
        for n, where in notes:
            d = n.diagnostic
            mark, style = _SEVERITY_MARK.get(d.severity, ("✗", "bold red"))
            place = _PLACE.get(where, f"trick {where[1:]}")
            who = f" · {w.who(d.seat)}" if d.seat is not None else ""
            w.add([(f"  line {d.line:<{lw}}  ", "dim"), (f"{mark} {d.code} ", style)],
                  [(f"{d.name} · {place}{who}", "")])
    else:
        w.add([], [("no diagnostics", "bold green")])
    if v.calls:
        body: list[Piece] = []
        for c in v.calls:
            if body:
                body.append(" · ")
            body += [Who(c.seat), f" {_CALL.get(c.call, c.call)} (line {c.line}, {c.when})"]
            if not c.counted:
                body.append(" not counted: " + ", ".join(c.codes))
        w.add([("Calls: ", "bold")], w.segs(body), hang=2)
    else:
        w.add([("Calls: ", "bold")], [("none", "")])
    for e in v.top:
        _text_entry(w, view, e, lw)

    w.blank()
    w.add([], [("Deal, calls and exchange", "bold underline")])
    for e in v.setup:
        _text_entry(w, view, e, lw)
    if any(rec.hands_played):
        w.add([("  ", ""), ("Hands after the exchange", "bold")], [])
        _hands_block(w, view, rec.hands_played, 4, rec.given)
        leader = next((s for s, hand in enumerate(rec.hands_played) if hand & BIT[1]), None)
        if leader is not None:
            w.add([("    ", "")], w.segs([Who(leader), " holds the Mahjong and leads"]))

    for t in v.tricks:
        w.blank()
        title: list[Piece] = [f"Trick {t.number}" if t.number else "Before the first lead"]
        if t.leader is not None and t.number:
            title += [" · led by ", Who(t.leader)]
        if t.wish is not None:
            title.append(f" · the wish for {_article(rank_name(t.wish))} is open")
        w.add([], w.segs(title, "bold"))
        if show_hands and t.hands is not None:
            w.add([("  ", ""), ("Hands at the start of the trick", "dim")], [])
            _hands_block(w, view, t.hands, 4)
        for e in t.entries:
            _text_entry(w, view, e, lw)
        if t.number:
            w.add([("  → ", "bold")], w.segs(trick_outcome(v, t)), hang=4)

    w.blank()
    w.names = rec.players  # (the result is credited to who began the round)
    w.add([], [(f"Result of round {rec.round}", "bold underline")])
    for e in v.after:
        _text_entry(w, view, e, lw)
    lab = max(len(label) for label, _ in result_rows(view, v))
    for label, phrase in result_rows(view, v):
        w.add([(f"  {label:<{lab}}  ", "bold")], w.segs(phrase))
    if v.stray:
        w.blank()
        w.add([], [(_stray_title(rec.round), "bold")])
        for e in v.stray:
            _text_entry(w, view, e, lw)


def _text_footer(w: _TextWriter, view: GameView) -> None:
    if view.after:
        w.blank()
        w.add([], [("After the last round", "bold")])
        for n in view.after:
            _text_note(w, n, 2, line_width=len(str(n.diagnostic.line)))
    if view.only_round is None:
        w.blank()
        w.add([], [(f"Game {clean(view.game)}", "bold underline")])
        if view.rules.per_person and view.person_totals is not None:
            w.add([("  totals    ", "bold")],
                  [(_persons(view.person_totals) + " (each person scores the points of "
                    "the team it sat in; " + _UNSCORED + ")", "")])
        elif view.totals is not None:
            w.add([("  totals    ", "bold")],
                  [(f"team 0 {view.totals[0]} · team 1 {view.totals[1]} (" + _UNSCORED + ")",
                    "")])
        if view.recorded_persons is not None:
            w.add([("  recorded  ", "bold")],
                  [(_persons(view.recorded_persons) + " (game_end)", "")])
        if view.recorded_totals is not None:
            r = view.recorded_totals
            w.add([("  recorded  ", "bold")], [(f"team 0 {r[0]} · team 1 {r[1]} (game_end)", "")])
        elif not view.ended:
            w.add([("  recorded  ", "bold")], [("no game_end in the log", "")])
        if view.won_by is not None and not view.rules.per_person:
            w.add([("  won by    ", "bold")],
                  [(f"team {view.won_by} ({_team_over_game(view, view.won_by)})", "")])
        if view.person_winner is not None:
            w.add([("  won by    ", "bold")], [(clean(view.person_winner), "")])
    if view.elsewhere:
        w.blank()
        w.add([], [(f"Elsewhere in game {clean(view.game)}", "bold")])
        for where, found in view.elsewhere:
            text = ", ".join(f"{d.code}{_NBSP}(line{_NBSP}{d.line})" for d in found)
            w.add([(f"  {where}: ", "bold")], [(text, "")], hang=4)
    if view.unattributed_hidden or view.unattributed_among:
        w.blank()
        w.add([], [(_hidden_words(view), "dim")])


def _hidden_words(view: GameView) -> str:
    """The note on the diagnostics of lines that name no game in a file of many games:
    those among a round's events are shown there, the others left out of the view."""
    words = []
    among, hidden = view.unattributed_among, view.unattributed_hidden
    if among:
        one = among == 1
        words.append(f"{_no_game(among)} shown where {'it lies' if one else 'they lie'}, among "
                     f"the round's events (the file holds other games: the line{'s' * (not one)} "
                     "may be theirs)")
    if hidden:
        words.append(f"{_no_game(hidden)} not shown; 'tichu-analyze check' lists "
                     f"{'it' if hidden == 1 else 'them'}")
    return "; ".join(words)


def _no_game(n: int) -> str:
    return ("1 diagnostic on a line that names no game is" if n == 1
            else f"{n} diagnostics on lines that name no game are")


def _teams_words(view: GameView) -> str:
    """After the players: the teams, or (``trichu``) how the seating goes."""
    if view.rules.per_person:
        return (" · three players and the dummy; the seating (and the solo player) changes "
                "every round")
    seated = view.seated  # the round's seating when one round is shown, as the players
    return f" · team 0: {_members(seated, 0)} · team 1: {_members(seated, 1)}"


TCH_CARDS = (
    "the .tch file writes a card as its suit's colour, then its rank: G Jade (green), S Sword "
    "(black), B Pagoda (blue), R Star (red); B Jack (Bube), D Queen (Dame): "
    + ", ".join(f"{TCH_TOKEN[t]} = {t}" for t in ("Jp", "Qr", "10j", "As"))
    + f"; {TCH_TOKEN['Mahjong']} Mahjong, {TCH_TOKEN['Dog']} Dog, {TCH_TOKEN['Phoenix']} "
    f"Phoenix, {TCH_TOKEN['Dragon']} Dragon")
"""How the cards of the view read in a Brettspielwelt file (docs/bsw.md)."""


def rules_phrase(view: GameView) -> str:
    """Which rules the replay applied: the publisher's, or with the variants in force in
    the game (the engine's, rules.md 9), each with where it came from."""
    if not view.variants:
        return "the publisher's rules (no variant of rules.md 9 named in the log or with --variant)"
    named = "; ".join(
        f"the {VARIANTS[name].kind} {name} "
        f"({'given with --variant' if name in view.given else 'named in the log'}): "
        f"{VARIANTS[name].summary}" for name in view.variants)
    return f"the publisher's rules, with {named}"


_UNSCORED = "the rounds as scored; a round that could not be scored adds nothing"
"""How the game totals are made (rules 8: an unfinished or skipped round is not scored)."""


def _persons(totals: dict[str, int]) -> str:
    """``Ana 150 · Ben -50 · Chloe 100``: per-person totals (``trichu``), most points
    first."""
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    return " · ".join(f"{clean(name)} {total}" for name, total in ranked) or "none"


def plain(lines: list[list[Seg]]) -> str:
    """The text without styles, one line per line, trailing spaces removed."""
    return "".join("".join(t for t, _ in line).replace(_NBSP, " ").rstrip() + "\n"
                   for line in lines)


def rich_lines(lines: list[list[Seg]]) -> list[Text]:
    """The lines as rich ``Text`` (never parsed as markup)."""
    out = []
    for line in lines:
        text = Text()
        for t, style in line:
            text.append(t.replace(_NBSP, " "), style=style or None)
        out.append(text)
    return out


# ------------------------------------------------------------------------------ HTML

_CSS = """
:root{--jade:#17803d;--sword:#1d1d1f;--pagoda:#1f55c8;--star:#c62828;--special:#7b3fa0;
--bg:#f6f4ef;--panel:#fff;--line:#d9d4c7;--muted:#6b6658;--err:#b3261e;--warn:#8a5a00}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
background:var(--bg);color:#222;display:flex;align-items:flex-start}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:13rem;flex:none;padding:1rem;
background:#ece8dd;border-right:1px solid var(--line);font-size:14px}
nav h2{font-size:15px;margin:.2rem 0 .6rem}
nav ol{list-style:none;margin:0;padding:0}
nav ol ol{padding-left:.8rem;margin-bottom:.6rem}
nav a{color:#243b6b;text-decoration:none;display:inline-block;padding:1px 0}
nav a:hover{text-decoration:underline}
main{flex:1;min-width:0;padding:1rem 1.5rem 4rem;max-width:90rem}
h1{font-size:22px;margin:.2rem 0 .4rem}
h2{font-size:19px;margin:2rem 0 .5rem;padding-top:.5rem;border-top:3px solid #333}
h3{font-size:16px;margin:0 0 .4rem}
.meta{color:var(--muted);margin:.2rem 0}
.legend .card{margin-right:.1rem}
section.block{background:var(--panel);border:1px solid var(--line);border-radius:8px;
padding:.7rem .9rem;margin:.8rem 0;scroll-margin-top:.5rem}
section.block.bad{border-left:5px solid var(--err)}
.trickbody{display:flex;gap:1.2rem;align-items:flex-start;flex-wrap:wrap}
.events{flex:1 1 30rem;min-width:0}
aside.hands{flex:0 1 24rem;background:#faf8f3;border:1px solid var(--line);border-radius:6px;
padding:.4rem .6rem;font-size:13px}
aside.hands .card{font-size:12px;min-width:1.7em;padding:0 .2em}
aside.hands .card.back{min-width:0;width:.6em;height:1.3em}
aside.hands h4{margin:0 0 .3rem;font-size:13px;color:var(--muted);font-weight:600}
table{border-collapse:collapse;width:100%}
td,th{padding:.22rem .4rem;vertical-align:top;text-align:left}
table.ev td.ln{color:var(--muted);white-space:nowrap;font-variant-numeric:tabular-nums;width:4.5rem}
table.ev td.who{white-space:nowrap;font-weight:600;width:7.5rem;max-width:12rem;
overflow:hidden;text-overflow:ellipsis}
table.ev tr.event td{border-top:1px solid #eee}
table.ev tr.diag td{padding-top:0}
.diag .box{border-radius:5px;padding:.3rem .5rem;margin:.1rem 0 .3rem}
.diag.sev-error .box,.diag.sev-fatal .box{background:#fdecea;border:1px solid #f0b8b3}
.diag.sev-warning .box{background:#fff6e0;border:1px solid #ecd48f}
.code{font-weight:700;font-family:ui-monospace,Menlo,Consolas,monospace}
.sev-error .code,.sev-fatal .code{color:var(--err)}
.sev-warning .code{color:var(--warn)}
.could{margin-top:.2rem}
.em{font-weight:700}
.outcome{margin:.5rem 0 0;padding:.35rem .6rem;background:#eef3ea;border-radius:5px}
.who{font-weight:600}
.t0{color:#7a3d00}.t1{color:#00507a}
.card{display:inline-flex;align-items:baseline;justify-content:center;min-width:1.9em;
padding:.05em .3em;margin:.08em .06em;border:1px solid #b9b3a3;border-radius:4px;background:#fff;
font-weight:700;font-size:14px;line-height:1.3;box-shadow:0 1px 0 rgba(0,0,0,.08)}
.card small{font-size:.72em;margin-left:.08em;font-weight:600}
.card.s-j{color:var(--jade);border-color:#8fc7a2}
.card.s-s{color:var(--sword);border-color:#9a9a9a}
.card.s-p{color:var(--pagoda);border-color:#9db4e6}
.card.s-r{color:var(--star);border-color:#eba5a5}
.card.special{color:#fff;background:var(--special);border-color:var(--special);font-size:12px}
.card.unknown{color:#555;background:#eee;border-style:dashed;font-weight:400}
.card.played{opacity:.35}
.card.back{display:inline-block;min-width:0;width:.7em;height:1.4em;padding:0;
margin:.08em .04em;vertical-align:middle;border-color:#8591a5;
background:repeating-linear-gradient(45deg,#9aa6b8,#9aa6b8 3px,#b9c3d3 3px,#b9c3d3 6px)}
.hand{display:flex;gap:.4rem;align-items:baseline;margin:.15rem 0}
.hand>span:last-child{flex:1;min-width:0}
.hand .who{flex:none;min-width:6.5rem;max-width:60%;overflow:hidden;
text-overflow:ellipsis;white-space:nowrap}
.hand .n{color:var(--muted);font-size:12px;min-width:1.6rem}
table.grid th{font-size:13px;color:var(--muted);font-weight:600;border-bottom:1px solid var(--line)}
table.grid td{border-bottom:1px solid #eee}
table.result th{width:9rem;white-space:nowrap}
ul.diags{margin:.3rem 0;padding-left:1.2rem}
.ok{color:#17803d;font-weight:600}
@media print{body{display:block;background:#fff;-webkit-print-color-adjust:exact;
print-color-adjust:exact}nav{display:none}main{max-width:none;padding:0}
tr,.hand,.outcome{break-inside:avoid}}
"""


class _Html:
    def __init__(self, view: GameView) -> None:
        self.view = view
        self.names = view.seated  # the players of the round being drawn
        self.state: RoundState | None = None  # the round being drawn

    def text(self, s: object) -> str:
        return html.escape(clean(s, TEXT_LIMIT), quote=True)

    def who(self, seat: int | None, short: bool = False) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return f"seat {seat}"
        name = self.text(self.names[seat])
        shown = name if short else f"{name} ({seat})"
        return (f'<span class="who t{seat & 1}" title="seat {seat}, team {seat & 1}">'
                f"{shown}</span>")

    def card(self, token: str, cls: str = "") -> str:
        c = CARD_BY_TOKEN.get(token)
        extra = f" {cls}" if cls else ""
        if c is None:
            return f'<span class="card unknown{extra}">{self.text(token)}</span>'
        suit = SUIT[c]
        if suit < 0:
            return f'<span class="card special{extra}" title="{token}">{token}</span>'
        rank, letter = token[:-1], token[-1]
        return (f'<span class="card s-{letter}{extra}" title="{rank} of {SUIT_NAMES[suit]}">'
                f"{rank}<small>{letter}</small></span>")

    def cards(self, tokens: Iterable[str], played: int = 0) -> str:
        out = []
        for t in tokens:
            c = CARD_BY_TOKEN.get(t)
            out.append(self.card(t, "played" if c is not None and played & BIT[c] else ""))
        return "".join(out) or '<span class="meta">no cards</span>'

    def pieces(self, pieces: Iterable[Piece]) -> str:
        out = []
        for p in pieces:
            if isinstance(p, str):
                out.append(self.text(p))
            elif isinstance(p, Who):
                out.append(self.who(p.seat, p.short))
            elif isinstance(p, Em):
                out.append(f'<span class="em">{self.text(p.text)}</span>')
            else:
                out.append(self.cards(p.tokens))
        return "".join(out)

    def finding(self, f: Finding) -> str:
        """A review finding, under the event of its decision."""
        return (f'<tr class="finding"><td></td><td></td><td><span class="code" '
                f'style="color:#8a2be2">◆ {self.text(_finding_words(f))}</span>'
                f"{self.text(f.message)}</td></tr>")

    def note(self, n: Note, cols: int, with_line: bool = False) -> str:
        d = n.diagnostic
        sev = "" if d.severity == "error" else f" ({d.severity})"
        where = f"line {d.line}: " if with_line else ""
        could = ""
        if n.could_play is not None:
            could = (f'<div class="could">could have played '
                     f"{self.pieces([cards(n.could_play.cards)])} — "
                     f"{self.text(_combo_words(n.could_play))}</div>")
        when = self.text(RULES[d.code].when)
        box = (f'<div class="box">{where}<span class="code" title="{when}">{d.code}</span>'
               f" {self.text(d.name)}{self.text(sev)}: {self.text(d.message)} "
               f'<span class="meta">[{self.text(rule_section(d.code))}]</span>{could}</div>')
        if cols:
            return (f'<tr class="diag sev-{d.severity}"><td></td><td></td>'
                    f'<td colspan="{cols}">{box}</td></tr>')
        return f'<div class="diag sev-{d.severity}">{box}</div>'


def _anchor(v: RoundView, part: str) -> str:
    return f"r{v.record.round}-{part}"


def render_html(view: GameView) -> str:
    """The view as one self-contained HTML page (inline CSS, no script, no network)."""
    h = _Html(view)
    title = f"Game {clean(view.game)}"
    if view.only_round is not None:
        title += f", round {view.only_round}"
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
           "style-src 'unsafe-inline'\">",
           f"<title>{h.text(title)} — tichu-analyze replay</title>",
           f"<style>{_CSS}</style></head><body>"]
    # navigation
    out.append(f'<nav aria-label="tricks"><h2>{h.text(title)}</h2><ol>')
    for v in view.rounds:
        count = len(v.notes)
        badge = f' <span class="code" style="color:var(--err)">{count}</span>' if count else ""
        out.append(f'<li><a href="#{_anchor(v, "top")}"><b>Round {v.record.round}</b></a>{badge}'
                   f'<ol><li><a href="#{_anchor(v, "setup")}">Deal &amp; exchange</a>'
                   f"{_codes(e for e in v.top + v.setup)}</li>")
        for t in v.tricks:
            label = f"Trick {t.number}" if t.number else "Before the first lead"
            out.append(f'<li><a href="#{_anchor(v, f"t{t.number}")}">{label}</a>'
                       f"{_codes(t.entries)}</li>")
        out.append(f'<li><a href="#{_anchor(v, "result")}">Result</a>{_codes(v.after + v.stray)}'
                   "</li></ol></li>")
    out.append("</ol></nav><main>")
    # header
    out.append(f"<h1>{h.text(title)}</h1>")
    n = view.round_count
    meta = f"{h.text(view.file)} · {n} round{'s' * (n != 1)} in the log"
    if view.seat is not None:
        meta += (f" · seen from {_point_of_view(view, h.text)}: the other hands are hidden "
                 "until played")
    out.append(f'<p class="meta">{meta}</p>')
    seats = len(view.players)
    teams = " · ".join(f"team {t}: " + " + ".join(h.who(s) for s in range(t, seats, 2))
                       for t in (0, 1))
    if view.rules.per_person:
        teams = ", ".join(h.who(s) for s in range(seats)) + h.text(_teams_words(view))
    out.append(f'<p class="meta">Players (seat): {teams}</p>')
    out.append(f'<p class="meta">Rules: {h.text(rules_phrase(view))}</p>')
    legend = " ".join(h.card(t) for t in ("Aj", "As", "Ap", "Ar", "Mahjong", "Dog", "Phoenix",
                                          "Dragon"))
    out.append(f'<p class="meta legend">Cards: {legend} — suits j Jade (green), s Sword '
               "(black), p Pagoda (blue), r Star (red)</p>")
    if view.tch:
        out.append(f'<p class="meta">BSW: {h.text(TCH_CARDS)}</p>')
    if view.before:
        out.append('<section class="block bad"><h3>Before the first round</h3>')
        out += [h.note(n, 0, with_line=True) for n in view.before]
        out.append("</section>")
    for v in view.rounds:
        h.names, h.state = v.record.players, v.record.state
        out += _html_round(h, view, v)
        h.names, h.state = view.players, None
    out += _html_footer(h, view)
    out.append("</main></body></html>")
    return "\n".join(out) + "\n"


def _codes(entries: Iterable[Entry]) -> str:
    codes = [n.diagnostic.code for e in entries for n in e.notes]
    if not codes:
        return ""
    return f' <span class="code" style="color:var(--err);font-size:12px">{" ".join(codes)}</span>'


def _html_entry(h: _Html, e: Entry) -> list[str]:
    view = h.view
    out: list[str] = []
    h.names = _seated(h.names, e)
    step = e.step
    if step is not None:
        ev = step.event
        if isinstance(ev, RoundStart) and not e.notes:
            return out
        if isinstance(ev, Deal):
            what = _deal_words(e, h.state)
            rows = []
            for s, hand in enumerate(ev.hands[:len(h.names)]):
                shown = (h.cards(_sorted_tokens(hand).tokens)
                         if not _hidden(view, h.state, s)
                         else '<span class="meta">' + "".join(
                             '<span class="card back"></span>' for _ in hand) + "</span>")
                rows.append(f'<div class="hand">{h.who(s)}{h.text(_with_mark(h.state, s))}'
                            f"<span>{shown}</span></div>")
            out.append(f'<tr class="event"><td class="ln">line {e.line}</td><td class="who"></td>'
                       f"<td>{what}{''.join(rows)}</td></tr>")
        else:
            seat = step.seat if not isinstance(ev, RoundEnd | GameEnd) else None
            who = h.who(seat) if seat is not None else ""
            out.append(f'<tr class="event" id="{_anchor_line(e)}"><td class="ln">line {e.line}'
                       f'</td><td class="who">{who}</td>'
                       f"<td>{h.pieces(event_phrase(e, _viewer(view, h.state, seat)))}</td>"
                       "</tr>")
        out += [h.note(n, 1) for n in e.notes]
        out += [h.finding(f) for f in e.findings]
        return out
    for n in e.notes:
        out.append(f'<tr class="event"><td class="ln">line {e.line}</td><td class="who"></td>'
                   '<td class="meta">(line not replayed)</td></tr>')
        out.append(h.note(n, 1))
    return out


def _anchor_line(e: Entry) -> str:
    return f"line-{e.line}"


def _html_hands(h: _Html, hands: list[int], played: int, title: str) -> str:
    view = h.view
    rows = []
    for s in range(len(hands)):
        n = hands[s].bit_count()
        if _hidden(view, h.state, s):
            shown = "".join('<span class="card back"></span>' for _ in range(n))
        else:
            shown = h.cards(cards(hands[s]).tokens, played)
        rows.append(f'<div class="hand">{h.who(s)}{h.text(_with_mark(h.state, s))}'
                    f'<span class="n">{n}</span>'
                    f"<span>{shown}</span></div>")
    return f'<aside class="hands"><h4>{title}</h4>{"".join(rows)}</aside>'


def _html_round(h: _Html, view: GameView, v: RoundView) -> list[str]:
    rec = v.record
    out: list[str] = []
    status = {"scored": "scored", "incomplete": "not finished", "skipped": "skipped"}.get(
        rec.status, rec.status)
    score = f": team 0 {rec.score[0]}, team 1 {rec.score[1]}" if rec.score is not None else ""
    out.append(f'<h2 id="{_anchor(v, "top")}">Round {rec.round} <span class="meta">· lines '
               f"{v.first_line}-{v.last_line} · {status}{score}</span></h2>")
    if rec.players != view.players:  # round_start.players: a substitute or a new seating
        out.append(f'<p class="meta">Players in this round (seat): '
                   f"{', '.join(h.who(s) for s in range(len(rec.players)))}"
                   f"{h.text(replaced_words(view, rec.players))}</p>")
    if rec.state.substitutes:
        out.append(f'<p class="meta">Substitutes: {h.text(substitutes_words(rec.state))}</p>')
    if rec.state.dummy >= 0:  # trichu (rules 9.3)
        out.append(f'<p class="meta">Seating: {h.pieces(seating_phrase(rec.state))}</p>')
    notes = v.notes
    if notes:
        items = []
        for n, where in notes:
            d = n.diagnostic
            place = _PLACE.get(where, f"trick {where[1:]}")
            items.append(f'<li class="sev-{d.severity}"><a href="#{_anchor(v, where)}">line '
                         f'{d.line}</a> <span class="code">{d.code}</span> {h.text(d.name)} · '
                         f"{place}{' · ' + h.who(d.seat) if d.seat is not None else ''}</li>")
        out.append(f"<p><b>{len(notes)} diagnostic{'s' * (len(notes) != 1)}</b></p>"
                   f'<ul class="diags">{"".join(items)}</ul>')
    else:
        out.append('<p class="ok">No diagnostics in this round.</p>')
    calls = []
    for c in v.calls:
        text = (f"{h.who(c.seat)} {_CALL.get(c.call, h.text(c.call))} (line {c.line}, "
                f"{c.when})")
        if not c.counted:
            text += f' <span class="em">not counted: {", ".join(c.codes)}</span>'
        calls.append(text)
    out.append(f"<p><b>Calls:</b> {' · '.join(calls) or 'none'}</p>")
    if v.top:
        out.append('<table class="ev">' + "".join(x for e in v.top for x in _html_entry(h, e))
                   + "</table>")
    # setup
    bad = " bad" if any(e.notes for e in v.setup) else ""
    out.append(f'<section class="block{bad}" id="{_anchor(v, "setup")}">'
               '<h3>Deal, calls and exchange</h3><table class="ev">')
    for e in v.setup:
        out += _html_entry(h, e)
    out.append('</table><div class="trickbody">')
    if any(rec.given) and view.seat is None:
        out.append(f'<div class="events">{_html_exchange(h, rec.given)}</div>')
    if any(rec.hands_played):
        out.append(_html_hands(h, rec.hands_played, 0, "Hands after the exchange"))
    out.append("</div></section>")
    # tricks
    for t in v.tricks:
        played = 0
        for e in t.entries:
            if (e.step is not None and isinstance(e.step.event, Play)
                    and e.step.cards_left is not None):
                played |= _mask(e.step.event.cards)
        bad = " bad" if any(e.notes for e in t.entries) else ""
        label = f"Trick {t.number}" if t.number else "Before the first lead"
        lead = f" · led by {h.who(t.leader)}" if t.leader is not None and t.number else ""
        wish = (f" · the wish for {_article(rank_name(t.wish))} is open"
                if t.wish is not None else "")
        out.append(f'<section class="block trick{bad}" id="{_anchor(v, f"t{t.number}")}">'
                   f"<h3>{label}{lead}{wish}</h3>"
                   '<div class="trickbody"><div class="events"><table class="ev">')
        for e in t.entries:
            out += _html_entry(h, e)
        out.append("</table>")
        if t.number:
            out.append(f'<p class="outcome">→ {h.pieces(trick_outcome(v, t))}</p>')
        out.append("</div>")
        if t.hands is not None:
            out.append(_html_hands(h, t.hands, played,
                                   "Hands at the start of the trick (faded: played in it)"))
        out.append("</div></section>")
    # result
    h.names = rec.players  # (the result is credited to who began the round)
    bad = " bad" if any(e.notes for e in v.after) else ""
    out.append(f'<section class="block{bad}" id="{_anchor(v, "result")}">'
               f"<h3>Result of round {rec.round}</h3>")
    if v.after:
        out.append('<table class="ev">' + "".join(x for e in v.after for x in _html_entry(h, e))
                   + "</table>")
    rows = "".join(f"<tr><th>{h.text(label)}</th><td>{h.pieces(phrase)}</td></tr>"
                   for label, phrase in result_rows(view, v))
    out.append(f'<table class="result grid">{rows}</table>')
    if v.stray:
        out.append(f'<h4 id="{_anchor(v, "stray")}">{h.text(_stray_title(rec.round))}</h4>'
                   '<table class="ev">'
                   + "".join(x for e in v.stray for x in _html_entry(h, e)) + "</table>")
    out.append("</section>")
    return out


def _html_exchange(h: _Html, given: list[dict[int, int]]) -> str:
    seats = range(len(given))
    head = "".join(f"<th>to {h.who(s)}</th>" for s in seats)
    rows = []
    for giver in seats:
        cells = []
        for to in seats:
            card = given[giver].get(to)
            cells.append(f"<td>{h.card(TOKENS[card]) if card is not None else ''}</td>")
        rows.append(f"<tr><th>{h.who(giver)} gives</th>{''.join(cells)}</tr>")
    return (f'<table class="grid" style="margin-top:.6rem;width:auto"><tr><th></th>{head}</tr>'
            f"{''.join(rows)}</table>")


def _html_footer(h: _Html, view: GameView) -> list[str]:
    out: list[str] = []
    if view.after:
        out.append('<section class="block bad"><h3>After the last round</h3>')
        out += [h.note(n, 0, with_line=True) for n in view.after]
        out.append("</section>")
    if view.only_round is None:
        rows = []
        if view.rules.per_person and view.person_totals is not None:
            rows.append(f"<tr><th>totals</th><td>{h.text(_persons(view.person_totals))} (each "
                        f"person scores the points of the team it sat in; {_UNSCORED})"
                        "</td></tr>")
        elif view.totals is not None:
            rows.append(f"<tr><th>totals</th><td>team 0 {view.totals[0]} · team 1 "
                        f"{view.totals[1]} ({_UNSCORED})</td></tr>")
        if view.recorded_persons is not None:
            rows.append(f"<tr><th>recorded</th><td>{h.text(_persons(view.recorded_persons))} "
                        "(game_end)</td></tr>")
        if view.recorded_totals is not None:
            r = view.recorded_totals
            rows.append(f"<tr><th>recorded</th><td>team 0 {r[0]} · team 1 {r[1]} "
                        "(game_end)</td></tr>")
        if view.won_by is not None and not view.rules.per_person:
            rows.append(f"<tr><th>won by</th><td>team {view.won_by}</td></tr>")
        if view.person_winner is not None:
            rows.append(f"<tr><th>won by</th><td>{h.text(view.person_winner)}</td></tr>")
        out.append(f'<section class="block"><h3>Game {h.text(view.game)}</h3>'
                   f'<table class="result grid">{"".join(rows)}</table></section>')
    if view.elsewhere:
        items = "".join(
            f"<li><b>{h.text(where)}</b>: "
            + ", ".join(f'<span class="code">{d.code}</span> (line {d.line})' for d in found)
            + "</li>" for where, found in view.elsewhere)
        out.append(f'<section class="block"><h3>Elsewhere in game {h.text(view.game)}</h3>'
                   f"<ul>{items}</ul></section>")
    if view.unattributed_hidden or view.unattributed_among:
        out.append(f'<p class="meta">{h.text(_hidden_words(view))}.</p>')
    return out
