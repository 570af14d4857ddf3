"""The adapters' observation spaces state the real bounds of every feature (issue 45: Warsaw's
Gymnasium space had bounds of +-3.4e38), taken from what the engine declares (its observation
codec): finite, and holding every observation of random play, for every game and every adapter."""
import numpy as np
import pytest

import tilecraft

pytest.importorskip("gymnasium", reason="the adapters extra (gymnasium) is not installed")

from tilecraft.adapters._common import observation_bounds  # noqa: E402
from tilecraft.adapters.gymnasium import BotOpponentEnv  # noqa: E402
from tilecraft.vector import GymnasiumVectorEnv  # noqa: E402

GAMES = tilecraft.list_games()


def _check_box(box, state):
    low, high = observation_bounds(state)
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    assert (box.low <= box.high).all()
    np.testing.assert_array_equal(box.low, low)
    np.testing.assert_array_equal(box.high, high)
    assert box.shape == tuple(state.observation_shape())
    assert np.abs(box.high).max() < 1e4 and np.abs(box.low).max() < 1e4  # real ranges, not float32's


@pytest.mark.parametrize("game", GAMES)
def test_random_play_stays_within_the_declared_bounds(game):
    """Every seat's observation along random games (the engine's own states), and the bounds."""
    players = max(tilecraft.game_spec(game).players)
    state = tilecraft.make(game, players=players, seed=1)
    low, high = observation_bounds(state)
    assert np.isfinite(low).all() and np.isfinite(high).all()
    rng = np.random.default_rng(0)
    for seed in range(3):
        s = tilecraft.make(game, players=players, seed=seed)
        while not s.is_terminal():
            for p in range(players):
                obs = s.observation(p)
                assert ((obs >= low) & (obs <= high)).all(), (game, np.flatnonzero((obs < low) | (obs > high)))
            s.apply(int(rng.choice(s.legal_actions())))


@pytest.mark.parametrize("game", GAMES)
def test_the_gymnasium_adapters_declare_those_bounds(game):
    e = BotOpponentEnv(game, opponents=["random"], seat="rotate")
    box = e.observation_space["observation"]
    _check_box(box, e.state_)
    obs, _ = e.reset(seed=2)
    done, rng = False, np.random.default_rng(1)
    while not done:
        assert e.observation_space.contains(obs)
        obs, _, done, _, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    v = GymnasiumVectorEnv(game, num_envs=4, opponents=["random"], seed=3)
    _check_box(v.single_observation_space["observation"], e.state_)
    obs, _ = v.reset(seed=3)
    for _ in range(60):
        assert v.observation_space.contains(obs)
        obs, *_ = v.step(v.sample_legal())


@pytest.mark.parametrize("game", GAMES)
def test_the_pettingzoo_adapter_declares_those_bounds(game):
    pytest.importorskip("pettingzoo", reason="the adapters extra (pettingzoo) is not installed")
    from tilecraft.adapters.pettingzoo import env

    e = env(game, players=2)
    e.reset(seed=1)
    space = e.observation_space("player_0")
    _check_box(space["observation"], e.unwrapped.state_)
    for i, agent in enumerate(e.agent_iter(max_iter=150)):
        obs, _, term, trunc, _ = e.last()
        assert space.contains(obs)
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[i % 1]))
