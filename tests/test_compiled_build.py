"""When the suite runs against the compiled build (make test-compiled), the hot
modules really are the compiled ones; in the ordinary environment this is
skipped."""

from __future__ import annotations

import os

import pytest

import tichu_analyze.core.engine
import tichu_analyze.data.rows
import tichu_analyze.readers.bsw

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)


def test_hot_path_is_compiled_when_asked() -> None:
    if not os.environ.get("TICHU_ANALYZE_EXPECT_COMPILED"):
        pytest.skip("checks the mypyc-compiled build: run 'make test-compiled' to test it")
    assert tichu_analyze.core.engine.__file__.endswith(".so")
    assert tichu_analyze.readers.bsw.__file__.endswith(".so")  # the .tch reader too
    assert tichu_analyze.data.rows.__file__.endswith(".so")  # the dataset rows (ingest)
