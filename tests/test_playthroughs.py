"""Seeded games replay exactly as recorded in tests/playthroughs/ (see tests/playthroughs.py)."""
import difflib

import pytest

from playthroughs import CASES, path, record


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_playthrough_matches_golden_file(case):
    stem, game, players, seed, options = case
    with open(path(stem), encoding="utf-8") as f:
        expected = f.read()
    actual = record(game, players, seed, options)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                                 "golden", "now", n=2))[:60])
        pytest.fail(f"{stem} differs from its golden file (regenerate with python tests/playthroughs.py "
                    f"only if the change is intended):\n{diff}")
