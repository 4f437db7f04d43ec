"""The ``tichu-analyze`` command line: thin commands over the library, one module per family
of commands on the shared frame of :mod:`.app` (the typer application, shared options and
messages): :mod:`.lint` (check, rules, schema), :mod:`.data` (simulate, ingest),
:mod:`.analysis` (plot, report), :mod:`.views` (replay, games), :mod:`.review`,
:mod:`.convert`. A command registers itself on ``app`` when its module is imported; the
order of the imports below is the order of ``--help``."""

from __future__ import annotations  # noqa: I001  (the commands' order is that of --help)

from . import lint
from . import data
from . import analysis
from . import views
from . import review
from . import convert
from .app import app

__all__ = ["app", "main"]
COMMANDS = (lint, data, analysis, views, review, convert)


def main() -> None:
    """Entry point of the ``tichu-analyze`` script."""
    app()
