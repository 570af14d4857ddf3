"""Bad input to tilecraft.VectorGame raises an exception that says what is wrong and what is
allowed, and a rejected call changes nothing in any env."""
import math
import os

import numpy as np
import pytest

import tilecraft

GAMES = tilecraft.list_games()


def snapshot(v):
    return [v.state(i).to_json() for i in range(v.num_envs)] + [v.seeds(i) for i in range(v.num_envs)]


@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_names_env_and_action_and_applies_nothing(game):
    v = tilecraft.VectorGame(game, 6, players=tilecraft.game_spec(game).players[0], seed=1)
    r = v.reset()
    for _ in range(5):
        r = v.step(v.sample_legal())
    before = snapshot(v)
    outputs = (r.observation.copy(), r.legal_mask.copy(), r.current_player.copy())
    actions = v.sample_legal().copy()
    illegal = int(np.flatnonzero(~r.legal_mask[3])[0])
    actions[3] = illegal
    with pytest.raises(tilecraft.IllegalActionError) as e:
        v.step(actions)
    text = str(e.value)
    assert "env 3" in text and str(illegal) in text and "nothing was applied" in text
    assert snapshot(v) == before
    for a, b in zip(outputs, (r.observation, r.legal_mask, r.current_player)):
        np.testing.assert_array_equal(a, b)  # the buffers were not touched either
    v.step(v.sample_legal())  # and the vector goes on


def test_several_illegal_actions_are_counted():
    v = tilecraft.VectorGame("azul", 5, seed=1)
    r = v.reset()
    actions = np.array([int(np.flatnonzero(~r.legal_mask[i])[0]) for i in range(5)])
    with pytest.raises(tilecraft.IllegalActionError, match=r"env 0: .*and 4 more envs"):
        v.step(actions)


@pytest.mark.parametrize("actions, match", [
    (np.zeros(3, dtype=np.int64), r"shape \(4,\).*got shape \(3,\)"),
    (np.zeros((4, 1), dtype=np.int64), r"shape \(4,\).*got shape \(4, 1\)"),
    (np.zeros(4, dtype=np.float32), "must be integers.*float32"),
    (np.zeros(4, dtype=bool), "must be integers.*bool"),
    ([0.5, 1, 2, 3], "must be integers.*float64"),
    ("abcd", "must be integers"),
    (None, "must be integers"),
])
def test_wrong_shape_or_dtype(actions, match):
    v = tilecraft.VectorGame("azul", 4, seed=1)
    v.reset()
    before = snapshot(v)
    with pytest.raises(ValueError, match=match):
        v.step(actions)
    assert snapshot(v) == before


@pytest.mark.parametrize("bad", [-1, 300, 2**31, 2**40, -2**62])
def test_out_of_range_actions(bad):
    v = tilecraft.VectorGame("azul", 4, seed=1)
    v.reset()
    before = snapshot(v)
    actions = v.sample_legal().astype(np.int64)
    actions[2] = bad
    with pytest.raises(tilecraft.IllegalActionError, match=rf"env 2: action {bad} is out of range: action ids are 0..299"):
        v.step(actions)
    assert snapshot(v) == before


def test_huge_unsigned_action():
    v = tilecraft.VectorGame("azul", 2, seed=1)
    v.reset()
    with pytest.raises(tilecraft.IllegalActionError, match="env 0: action .* is out of range"):
        v.step(np.array([2**64 - 1, 0], dtype=np.uint64))


@pytest.mark.parametrize("kwargs, match", [
    (dict(seed=math.nan), "seed must be an integer in 0..18446744073709551615, got nan"),
    (dict(seed=-1), r"seed must be in 0..18446744073709551615, got -1"),
    (dict(seed=2**64), r"seed must be in 0..18446744073709551615"),
    (dict(seed=1.0), "seed must be an integer"),
    (dict(seed=True), "seed must be an integer"),
    (dict(num_envs=0), r"num_envs must be in 1..4194304, got 0"),
    (dict(num_envs=2**23), r"num_envs must be in 1..4194304"),
    (dict(num_envs=3.5), "num_envs must be an integer"),
    (dict(threads=0), r"threads must be in 1..256, got 0"),
    (dict(threads=257), r"threads must be in 1..256, got 257"),
    (dict(opponents=["nonsense"]), "opponent 'nonsense': unknown bot 'nonsense'; the built-in bots are"),
    (dict(opponents=["mcts:iterations=-3"]), "opponent 'mcts:iterations=-3': .*iterations must be an integer >= 1"),
    (dict(opponents=["mcts:iterations"]), "must look like key=value"),
    (dict(opponents=["greedy", "greedy"]), "2-player game has 1 opponent seat"),
    (dict(opponents="greedy", learner_seat=2), r"learner_seat must be in 0..1, got 2"),
    (dict(opponents="greedy", learner_seat="left"), "learner_seat must be a seat 0..1 or 'rotate'"),
    (dict(learner_seat=1), "learner_seat needs opponents"),
    (dict(opponents=[object()]), "opponent .* act"),
    (dict(observe="everything"), "observe must be 'current' or 'all'"),
])
def test_bad_constructor_arguments(kwargs, match):
    args = dict(num_envs=4)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        tilecraft.VectorGame("azul", **args)


def test_python_bot_objects_are_refused_with_the_reason():
    class MyBot:
        def act(self, state):
            return 0

    with pytest.raises(ValueError, match="opponents are played in C\\+\\+ and must be built-in bots"):
        tilecraft.VectorGame("azul", 2, opponents=[MyBot()])


def test_bad_game_options_and_reset_seed():
    with pytest.raises(tilecraft.InvalidConfigError, match="players must be one of 2, 3, 4"):
        tilecraft.VectorGame("azul", 2, players=7)
    with pytest.raises(tilecraft.InvalidConfigError, match="unknown option"):
        tilecraft.VectorGame("azul", 2, colour="red")
    v = tilecraft.VectorGame("azul", 2)
    v.reset()
    before = snapshot(v)
    for bad in (-5, math.nan, "seven"):
        with pytest.raises(ValueError, match="VectorGame.reset: seed"):
            v.reset(seed=bad)
    assert snapshot(v) == before


def test_calls_before_reset_and_bad_env_index():
    v = tilecraft.VectorGame("azul", 2)
    with pytest.raises(Exception, match=r"call reset\(\) before step\(\)"):
        v.step([0, 0])
    with pytest.raises(Exception, match=r"call reset\(\) before sample_legal\(\)"):
        v.sample_legal()
    v.reset()
    with pytest.raises(IndexError, match="env index must be 0..1, got 2"):
        v.state(2)
    with pytest.raises(IndexError, match="env index must be 0..1, got -1"):
        v.seeds(-1)


def test_a_size_the_machine_cannot_hold_is_refused():
    # 4 million Castle games need about 170 GB of states and buffers: refused before allocating
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        pytest.skip("physical memory unknown here")
    if memory > 150e9:
        pytest.skip("this machine could hold it")
    with pytest.raises(ValueError, match="envs of castle need .* MB of states and buffers.*use fewer envs"):
        tilecraft.VectorGame("castle", 4_000_000)
