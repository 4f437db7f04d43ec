"""The root of the package's own errors.

Every error the package raises for its user to read (an unreadable log, an output that
cannot be written, a bad configuration or baseline, a dataset that is not one, a driver
that cannot start, a round the audit view cannot show) is a :class:`TichuAnalyzeError`.
Its message is one sentence for the user, naming what failed and why; the command line
turns it, in one place (the command group of :mod:`tichu_analyze.cli.app`), into one
``error:`` line and exit status 2, never a traceback. A library caller catches this one
class to handle them all.
"""

from __future__ import annotations


class TichuAnalyzeError(Exception):
    """An error of tichu-analyze itself, with a message for its user (see the module)."""
