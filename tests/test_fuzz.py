"""The mutation fuzzer (tests/fuzzer.py) with a small fixed budget, and every input it
(or the stress test of issue 10) ever crashed on, as regression tests.

``make fuzz`` runs a long campaign with a new seed; a crash it finds is saved in
``tests/fuzz/crashes/`` and from then on replayed here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzzer import CRASHES, KINDS, campaign, encode, exercise, seeds

REGRESSIONS = sorted(CRASHES.glob("*")) if CRASHES.is_dir() else []


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_a_saved_crash_input_no_longer_crashes(path: Path, tmp_path: Path) -> None:
    exercise(path, tmp_path, ingest_too=True, plots=False)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_seed_in_every_container_passes(kind: str, tmp_path: Path) -> None:
    for i, (base_kind, data) in enumerate(seeds()):
        if (base_kind == "tch") != (kind == "tch"):
            continue
        path = tmp_path / f"seed{i}{KINDS[kind]}"
        path.write_bytes(encode(data, kind))
        exercise(path, tmp_path)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_small_fixed_fuzzing_budget_finds_no_crash(seed: int) -> None:
    crashes = campaign(40, seed, ingest_every=20, save=False, plots=False, log=lambda s: None)
    assert crashes == [], "\n".join(f"{where}: {error}" for where, error in crashes)
