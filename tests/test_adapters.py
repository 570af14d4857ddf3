"""The PettingZoo and Gymnasium adapters pass those libraries' own API checkers."""
import numpy as np
import pytest

import tilecraft

pettingzoo = pytest.importorskip("pettingzoo", reason="the adapters extra (pettingzoo) is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the adapters extra (gymnasium) is not installed")

from pettingzoo.test import api_test  # noqa: E402

from tilecraft.adapters.gymnasium import BotOpponentEnv  # noqa: E402
from tilecraft.adapters.pettingzoo import env  # noqa: E402


# PettingZoo's checker suggests Box observations; the classic-games convention (a Dict with the
# observation and the action mask) is deliberate here.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("game", tilecraft.list_games())
def test_pettingzoo_api(game):
    api_test(env(game, players=2), num_cycles=200)


def test_pettingzoo_full_game_rewards_are_the_returns():
    e = env("azul", players=3, returns_mode="win_loss", chance="explicit")
    e.reset(seed=4)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    winners = e.unwrapped.state_.winners()
    assert sum(totals.values()) == pytest.approx(1.0)
    assert all(totals[f"player_{w}"] == pytest.approx(1 / len(winners)) for w in winners)


def test_gymnasium_episode():
    """Gymnasium's check_env steps random (illegal) actions, which this env rejects by design, so
    the same checks are made here by hand: spaces contain observations, seeded resets repeat,
    an episode ends with the agent's return."""
    e = BotOpponentEnv("azul", opponents=["greedy"], seat=1, returns_mode="win_loss")
    obs, info = e.reset(seed=3)
    again, _ = BotOpponentEnv("azul", opponents=["greedy"], seat=1, returns_mode="win_loss").reset(seed=3)
    assert np.array_equal(obs["observation"], again["observation"])
    assert e.observation_space.contains(obs) and info["seat"] == 1
    done, reward, steps = False, 0.0, 0
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        assert e.action_space.contains(action)
        obs, reward, done, truncated, info = e.step(action)
        assert e.observation_space.contains(obs) and not truncated
        steps += 1
    assert steps > 5 and e.state_.is_terminal()
    assert reward == float(e.state_.returns()[1]) and reward in (0.0, 0.5, 1.0)
    with pytest.raises(tilecraft.IllegalActionError):
        e.reset(seed=4)
        e.step(299)


def test_gymnasium_bad_arguments():
    with pytest.raises(ValueError):
        BotOpponentEnv("azul", opponents=["random"], seat=5)
    with pytest.raises(tilecraft.InvalidConfigError):
        BotOpponentEnv("azul", opponents=["random"] * 5)


def test_openspiel_random_simulation_and_mcts():
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    from open_spiel.python.algorithms import mcts

    from tilecraft.adapters import openspiel as tos

    game = tos.load_game("azul", players=3)
    assert game.num_players() == 3 and game.num_distinct_actions() == 300
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    bot = mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    action = bot.step(state)
    assert action in state.legal_actions()
    obs = np.asarray(state.observation_tensor(0))
    assert np.array_equal(obs, state.inner.observation(0))
