"""Visitors: how a consumer follows a replay (in the style of python-chess's
``pgn.BaseVisitor``).

:class:`~tichu_analyze.core.engine.Engine` tells its visitor, in log order, of each game
and round it opens and closes, of every event with the state it was applied to
(:class:`~tichu_analyze.core.state.Step`), of every finished trick and of every
diagnostic. Subclass :class:`Visitor` and override what you need; the others do
nothing. The state objects handed over are the engine's own: read them, never
change them. A :class:`~tichu_analyze.core.state.RoundState` is not changed any more
once its round is closed, so it may be kept.

Order of the calls: ``begin_game``; then per round ``begin_round``, for each event
``visit_event`` (after the event was applied; the ``round_start`` event comes right
after ``begin_round``), ``visit_trick`` right after the ``visit_event`` of the event
that ended the trick, and ``end_round`` when the log moves on from the round (the
next ``round_start``, ``game_end`` or the end of the file); finally ``end_game``.
``visit_diagnostic`` comes as each diagnostic is found, before the ``visit_event``
of the event that raised it. A ``begin_game`` that returns :data:`SKIP` leaves out
that game's ``visit_event`` and ``visit_trick`` calls.

Only ``visit_diagnostic`` costs nothing to the replay: a visitor that overrides
``visit_event`` or ``visit_trick`` makes the replay build the steps and tricks, and
``check`` with several processes only takes visitors that override nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .diagnostics import Diagnostic
from .state import GameState, RoundState, Step, Trick

__all__ = ["SKIP", "DiagnosticVisitor", "Visitor", "traces"]


class _Skip:
    """The type of :data:`SKIP`."""

    def __repr__(self) -> str:
        return "SKIP"


SKIP: Final = _Skip()
"""What ``begin_game`` returns to be told nothing of the game's events and tricks (no
``visit_event``, no ``visit_trick``): the replay then builds no steps for it. The game
is still checked; its rounds, its end and its diagnostics are still told."""


class Visitor:
    """Does nothing; override the methods you need."""

    def begin_game(self, game: GameState) -> object:
        """A ``game_start`` opened ``game``. Return :data:`SKIP` to be told nothing of
        its events and tricks (a visitor that follows some games of a large file)."""
        return None

    def end_game(self, game: GameState) -> None:
        """``game`` ended (its ``game_end``, or the end of the file)."""

    def begin_round(self, game: GameState, rnd: RoundState) -> None:
        """A ``round_start`` opened ``rnd``."""

    def end_round(self, game: GameState, rnd: RoundState) -> None:
        """The log moved on from ``rnd``; its state is final (``rnd.status``)."""

    def visit_event(self, game: GameState, rnd: RoundState, step: Step) -> None:
        """An event of round ``rnd`` was applied (or skipped: ``step.skipped``). Events
        outside a round (before the first ``round_start``, ``game_start``) are not
        visited; their diagnostics are."""

    def visit_trick(self, game: GameState, rnd: RoundState, trick: Trick) -> None:
        """A trick was taken (after the ``visit_event`` of the event that ended it)."""

    def visit_diagnostic(self, diag: Diagnostic) -> None:
        """A diagnostic was found."""


class DiagnosticVisitor(Visitor):
    """Hands every diagnostic to ``report`` (for example ``list.append``)."""

    def __init__(self, report: Callable[[Diagnostic], None]) -> None:
        self.report = report

    def visit_diagnostic(self, diag: Diagnostic) -> None:
        self.report(diag)


_HOOKS = ("begin_game", "end_game", "begin_round", "end_round", "visit_event", "visit_trick")


def traces(visitor: Visitor) -> bool:
    """Whether ``visitor`` wants steps and tricks (it overrides ``visit_event`` or
    ``visit_trick``)."""
    cls = type(visitor)
    return cls.visit_event is not Visitor.visit_event or cls.visit_trick is not Visitor.visit_trick


def only_diagnostics(visitor: Visitor) -> bool:
    """Whether ``visitor`` overrides nothing but ``visit_diagnostic`` (it may then follow
    replays run in other processes)."""
    cls = type(visitor)
    return all(getattr(cls, name) is getattr(Visitor, name) for name in _HOOKS)
