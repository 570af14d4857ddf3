"""Seeded games replay exactly as recorded in tests/playthroughs/ (see tests/playthroughs.py): the text
picture of every step, and every position's legal actions and observation hashes (the sidecar)."""
import difflib
import json
import os

import pytest

from playthroughs import CASES, path, record_all, steps_path, steps_text


def _diff(expected: str, actual: str) -> str:
    return "".join(list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                             "golden", "now", n=2))[:60])


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_playthrough_matches_golden_file(case):
    stem, game, players, seed, options = case
    assert os.path.exists(path(stem)), (f"{stem}: no golden file {path(stem)}; write it with "
                                        f"python tests/playthroughs.py {stem}")
    with open(path(stem), encoding="utf-8") as f:
        expected = f.read()
    actual, steps = record_all(game, players, seed, options)
    if actual != expected:
        pytest.fail(f"{stem} differs from its golden file (regenerate with python tests/playthroughs.py "
                    f"only if the change is intended):\n{_diff(expected, actual)}")
    assert os.path.exists(steps_path(stem)), (f"{stem}: no sidecar {steps_path(stem)}; write it with "
                                              f"python tests/playthroughs.py --steps {stem}")
    with open(steps_path(stem), encoding="utf-8") as f:
        expected_steps = f.read()
    if steps_text(steps) != expected_steps:
        pytest.fail(f"{stem}: the legal actions or observations differ from {steps_path(stem)} (the text "
                    f"picture is unchanged; regenerate with python tests/playthroughs.py --steps {stem} only "
                    f"if the change is intended):\n{_diff(expected_steps, steps_text(steps))}")


def test_sidecars_are_well_formed():
    """Each sidecar lists every position from the first to the last, in order, with a hash per seat."""
    for stem, game, players, seed, options in CASES:
        with open(steps_path(stem), encoding="utf-8") as f:
            steps = json.load(f)
        with open(path(stem), encoding="utf-8") as f:
            moves = sum(1 for line in f if line.startswith("## step "))
        assert [s["step"] for s in steps] == list(range(moves + 1)), stem
        assert all(len(s["obs"]) == players and all(len(h) == 16 for h in s["obs"]) for s in steps), stem
        assert steps[-1]["legal"] == [] and all(s["legal"] for s in steps[:-1]), stem


def test_every_registered_game_has_a_golden():
    """A game without a named golden gets <game>_default_seed0 from its first test configuration."""
    import tilecraft
    from playthroughs import default_cases

    assert {c[1] for c in CASES} == set(tilecraft.list_games())
    derived = default_cases([])
    assert [c[1] for c in derived] == list(tilecraft.list_games())
    for stem, game, players, seed, options in derived:
        assert stem == f"{game}_default_seed0" and seed == 0
        assert (players, options) == tuple(tilecraft.game_spec(game).test_configs[0])
