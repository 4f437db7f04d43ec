"""The linter around the engine: diagnostics written as text, JSON lines, SARIF or
GitHub annotations, ``check``'s configuration and baseline, and the ``games`` listing.

May import ``core``, ``readers``, ``run`` and ``common``.
"""
