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
    """BotOpponentEnv itself rejects illegal actions by default (the registered ids do not: see
    test_adapters_extras.py), so the checks of Gymnasium's check_env are made here by hand: spaces
    contain observations, seeded resets repeat, an episode ends with the agent's return."""
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


# Gaudí, the game with hidden starting cards: every adapter in 4- and 2-player games.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("players, options", [(4, {}), (3, {"chance": "explicit", "first_player": -1})])
def test_pettingzoo_api_gaudi(players, options):
    api_test(env("gaudi", players=players, **options), num_cycles=300)


def test_gymnasium_episode_gaudi():
    e = BotOpponentEnv("gaudi", opponents=["greedy", "random", "greedy"], seat=2, returns_mode="win_loss")
    obs, info = e.reset(seed=5)
    assert e.observation_space.contains(obs) and info["seat"] == 2
    done, reward, steps = False, 0.0, 0
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[-1])
        obs, reward, done, truncated, info = e.step(action)
        assert e.observation_space.contains(obs) and not truncated
        steps += 1
    assert steps > 5 and e.state_.is_terminal()
    assert reward == pytest.approx(float(e.state_.returns()[2]))


def _openspiel_gaudi(players):
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    from tilecraft.adapters import openspiel as tos

    return tos.load_game("gaudi", players=players)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_gaudi_is_imperfect_information_with_explicit_chance(players):
    import pyspiel

    game = _openspiel_gaudi(players)
    gt = game.get_type()
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_players() == players and game.num_distinct_actions() == 654
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_gaudi_observations_hide_other_hands():
    """States that differ only in what seat 0 cannot see (the other seats' starting cards, the
    decks) look the same to seat 0: the observation tensor and the observation string."""
    game = _openspiel_gaudi(4)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    hands = set()
    for k in range(8):
        inner = state.inner.clone()
        inner.resample_hidden(0, 100 + k)
        other = type(state)(game, inner)
        assert np.array_equal(np.asarray(other.observation_tensor(0)), np.asarray(state.observation_tensor(0)))
        assert other.observation_string(0) == state.observation_string(0)
        hands.add(tuple(int(c) for c in inner.hand(1)))
    assert len(hands) > 1  # the hidden card really varied


def test_openspiel_gaudi_mcts_step():
    from open_spiel.python.algorithms import mcts

    game = _openspiel_gaudi(3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    bot = mcts.MCTSBot(game, 2.0, 10, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()
