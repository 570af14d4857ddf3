"""The golden searches (tests/golden_searches.py): every shipped baseline and MCTS and ISMCTS at their
defaults choose the same action with the same root visit counts, on ten fixed positions of every
shipped network's configuration, as when they were recorded (2026-12-05, after issue 45's hardening
and before the agents' redesign of issue 47). A refactor that changes a search fails here."""
import json

import pytest

import tilecraft
from golden_searches import BOTS, PATH, configurations, positions, search

with open(PATH) as f:
    GOLDEN = json.load(f)


def test_every_shipped_configuration_has_its_goldens():
    keys = {f"{g}/{p}p" + (f"/{m}" if m else "") for g, p, m in configurations()}
    assert keys == set(GOLDEN)


@pytest.mark.slow
@pytest.mark.parametrize("game, players, mode", configurations(),
                         ids=lambda x: str(x) if x is not None else "-")
def test_searches_are_as_recorded(game, players, mode):
    rows = GOLDEN[f"{game}/{players}p" + (f"/{mode}" if mode else "")]
    assert [(r["seed"], r["actions"]) for r in rows] == list(positions(game, players, mode))
    for row in rows:
        state = tilecraft.make(game, players=players, seed=row["seed"], **({"mode": mode} if mode else {}))
        for a in row["actions"]:
            state.apply(a)
        for bot in BOTS:
            assert search(bot, state) == row["searches"][bot], (game, players, row["seed"], bot)
