"""Where the project's shared, read-only data lies: ``../shared/`` beside the checkout
(the real games in ``samples/``, the spec in ``spec/``), found from any checkout or
worktree below it. Tests that need it skip when it is missing."""

from __future__ import annotations

from pathlib import Path


def shared() -> Path:
    """The ``shared`` folder: the first ``shared/`` with ``samples/`` beside one of this
    file's parent folders (the checkout's own parent first)."""
    here = Path(__file__).resolve().parent
    for folder in here.parents:
        candidate = folder / "shared"
        if (candidate / "samples").is_dir():
            return candidate
    return here.parents[1] / "shared"  # (missing: the tests that need it skip)


SHARED = shared()
SAMPLES = SHARED / "samples"
SPEC = SHARED / "spec"
