"""tilecraft.vector.GymnasiumVectorEnv: a gymnasium.vector.VectorEnv for one learner against
built-in bots, on VectorGame."""
import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
from gymnasium.utils.passive_env_checker import check_obs  # noqa: E402

import tilecraft  # noqa: E402
from tilecraft.vector import GymnasiumVectorEnv  # noqa: E402


def masked_random(obs_mask, rng):
    scores = np.where(obs_mask.astype(bool), rng.random(obs_mask.shape), -1.0)
    return scores.argmax(axis=1)


@pytest.mark.parametrize("game", tilecraft.list_games())
def test_vector_env_api(game):
    env = GymnasiumVectorEnv(game, num_envs=4, opponents=["greedy"], seat="rotate", seed=1)
    assert isinstance(env, gym.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=3)
    check_obs(obs, env.observation_space, "reset")
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(120):
        actions = masked_random(obs["action_mask"], rng)
        assert env.action_space.contains(actions.astype(np.int64))
        obs, reward, terminated, truncated, info = env.step(actions)
        check_obs(obs, env.observation_space, "step")
        assert reward.shape == (4,) and terminated.shape == (4,) and truncated.shape == (4,)
        assert terminated.dtype == bool and not truncated.any()
        for i in np.flatnonzero(terminated):
            seat = info["learner_seat"][i]
            assert reward[i] == pytest.approx(info["episode_returns"][i][seat])
            finished += 1
        assert (reward[~terminated] == 0).all()
    assert finished >= 4
    env.close()


def test_reset_seed_is_reproducible_and_mask_in_info_mode():
    a = GymnasiumVectorEnv("azul", num_envs=3, opponents=["random"], dict_observation=False)
    b = GymnasiumVectorEnv("azul", num_envs=3, opponents=["random"], dict_observation=False, threads=2)
    oa, ia = a.reset(seed=5)
    ob, ib = b.reset(seed=5)
    np.testing.assert_array_equal(oa, ob)
    assert oa.shape == (3, 168) and ia["action_mask"].shape == (3, 300)
    assert a.observation_space.contains(oa)
    for _ in range(30):
        acts = a.sample_legal()
        ra = a.step(acts)
        rb = b.step(acts)
        for x, y in zip(ra[:4], rb[:4]):
            np.testing.assert_array_equal(x, y)


def test_returned_arrays_are_copies_by_default():
    env = GymnasiumVectorEnv("azul", num_envs=2, opponents=["random"])
    o1, _ = env.reset(seed=0)
    o2, *_ = env.step(env.sample_legal())
    assert not np.shares_memory(o1["observation"], o2["observation"])
    views = GymnasiumVectorEnv("azul", num_envs=2, opponents=["random"], copy=False)
    v1, _ = views.reset(seed=0)
    v2, *_ = views.step(views.sample_legal())
    assert np.shares_memory(v1["observation"], v2["observation"])


def test_works_under_gymnasium_vector_wrappers():
    env = GymnasiumVectorEnv("azul", num_envs=4, opponents=["greedy"])
    env = gym.wrappers.vector.RecordEpisodeStatistics(env)
    obs, info = env.reset(seed=0)
    episodes = 0
    for _ in range(150):
        obs, reward, terminated, truncated, info = env.step(env.unwrapped.sample_legal())
        if "episode" in info:  # the wrapper's statistics of finished episodes
            episodes += int(info["_episode"].sum())
            assert set(info["episode"]) >= {"r", "l"}
    assert episodes >= 4
