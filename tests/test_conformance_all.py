"""Every registered game passes the conformance harness (tilecraft.testing.check_game) in each of its
declared test configurations (GameSpec.test_configs): nothing to remember when a game is added. The
first configuration of each game runs by default; the others under `pytest -m slow`."""
import pytest

import tilecraft
from tilecraft.testing import check_game, check_playouts

CASES = [
    (game, players, options) if i == 0 else pytest.param(game, players, options, marks=pytest.mark.slow)
    for game in tilecraft.list_games()
    for i, (players, options) in enumerate(tilecraft.game_spec(game).test_configs)
]
# (steps, check_illegal_every, malformed_fields, roundtrip_every): for the default run one game, every
# illegal id tried at every 25th step, 10 saved fields broken, round trips at every 35th step; for
# -m slow games until 300 steps (2 or more), the illegal ids at every 3rd step (or every
# num_distinct_actions() // 60th, whichever is rarer), 50 fields, round trips at every 7th step
LIGHT, THOROUGH = (1, 25, 10, 35), (300, 3, 50, 7)
CONFORMANCE = [(game, players, options, LIGHT) for game, players, options in
               (c for c in CASES if not hasattr(c, "marks"))] + [
    pytest.param(*(c.values if hasattr(c, "values") else c), THOROUGH, marks=pytest.mark.slow) for c in CASES]


def _id(value):
    if value == LIGHT:
        return "light"
    if value == THOROUGH:
        return "thorough"
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items()) or "default"
    return str(value)


@pytest.mark.parametrize("game,players,options,effort", CONFORMANCE, ids=_id)
def test_game_conforms(game, players, options, effort):
    # random games to the end, checked at every step; the first replayed from seed and history;
    # malformed saved states and bad seats rejected
    steps, every, fields, roundtrips = effort
    if effort == THOROUGH:
        # every illegal id is tried at a checked step, so space the checks by the size of the id
        # space: about every 3rd step for Azul's 300 ids, every 36th for Warsaw's 2,179
        every = max(every, tilecraft.make(game, players=players, **options).num_distinct_actions() // 60)
    check_game(lambda s: tilecraft.make(game, players=players, seed=s, **options), steps=steps, seed=0,
               check_illegal_every=every, malformed_fields=fields, roundtrip_every=roundtrips)


# check_playouts asserts a winner per game: not for one-player games, which the game (an automa) can
# win (solo playouts are checked in the game's own tests)
PLAYOUTS = [c for c in CASES if (c.values if hasattr(c, "values") else c)[1] > 1]


@pytest.mark.parametrize("game,players,options", PLAYOUTS, ids=_id)
def test_batch_playouts(game, players, options):
    check_playouts(game, players=players, **options)


def test_every_game_declares_its_configurations():
    for game in tilecraft.list_games():
        spec = tilecraft.game_spec(game)
        assert spec.test_configs, game
        assert {p for p, _ in spec.test_configs} == set(spec.players), (
            f"{game}: the test configurations must cover every player count {spec.players}")
