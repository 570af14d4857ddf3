"""tilecraft.VectorGame (cpp/search/vector_env.hpp): trajectories equal N single states driven
with the same actions and seeds, threads never change results, auto-reset and its info."""
import numpy as np
import pytest

import tilecraft
from tilecraft import _core

GAMES = tilecraft.list_games()  # every registered game (Gaudí too, once it lands)


def players_of(game):
    return tilecraft.game_spec(game).players[0]


def expected_state_seed(seed, env, episode):
    return _core.mix_seed(_core.mix_seed(_core.mix_seed(seed, env), episode), 0) >> 1


def mask_of(state):
    m = np.zeros(state.num_distinct_actions(), dtype=bool)
    if not state.is_terminal():
        m[state.legal_actions()] = True
    return m


class Reference:
    """N single states driven alongside a VectorGame without opponents (no chance nodes in the
    default configurations: first_player 0 and sampled chance)."""

    def __init__(self, game, players, seed, n):
        self.game, self.players, self.seed = game, players, seed
        self.episode = [0] * n
        self.states = [tilecraft.make(game, players=players, seed=expected_state_seed(seed, i, 0)) for i in range(n)]
        self.last_mover = [0] * n
        self.pending_reset = [False] * n

    def step(self, i, action):
        if self.pending_reset[i]:
            self.episode[i] += 1
            self.states[i] = tilecraft.make(self.game, players=self.players,
                                            seed=expected_state_seed(self.seed, i, self.episode[i]))
            self.pending_reset[i] = False
            self.last_mover[i] = 0
            return True
        self.last_mover[i] = self.states[i].current_player()
        self.states[i].apply(int(action))
        return False

    def check(self, v, r, resets=None):
        for i, s in enumerate(self.states):
            assert not s.is_chance_node()
            over = s.is_terminal()
            assert r.terminated[i] == over
            assert r.current_player[i] == s.current_player()
            np.testing.assert_array_equal(r.legal_mask[i], mask_of(s))
            seat = self.last_mover[i] if over else s.current_player()
            np.testing.assert_array_equal(r.observation[i], s.observation(seat))
            expected = s.returns() if over else np.zeros(self.players)
            np.testing.assert_allclose(r.rewards[i], expected.astype(np.float32))
            np.testing.assert_allclose(r.info["episode_returns"][i], expected)
            assert r.info["episode_length"][i] == (len(s.history()) if over else 0)
            assert r.info["episode_index"][i] == self.episode[i]
            if resets is not None:
                assert r.info["reset"][i] == resets[i]
            if over:
                self.pending_reset[i] = True
            assert v.state(i).to_json() == s.to_json()


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow) if g == "gaudi" else g for g in GAMES])
def test_trajectories_equal_single_states(game):  # Gaudí: about 6 s, under -m slow
    n, seed, players = 3, 11, players_of(game)  # 3 envs: independent seeds and resets, at 3/5 of the cost
    v = tilecraft.VectorGame(game, n, players=players, seed=seed)
    ref = Reference(game, players, seed, n)
    r = v.reset()
    assert r.info["reset"].all()
    ref.check(v, r)
    rng = np.random.default_rng(0)
    finished = np.zeros(n, dtype=int)
    steps = 0
    while finished.min() < 2 and steps < 400:
        # a Python policy over the mask, so the actions do not come from the engine's own sampler
        scores = np.where(r.legal_mask, rng.random(r.legal_mask.shape), -1.0)
        actions = scores.argmax(axis=1)
        resets = [ref.step(i, actions[i]) for i in range(n)]
        r = v.step(actions)
        ref.check(v, r, resets)
        finished += r.terminated
        steps += 1
    assert finished.min() >= 2, "every env should have finished two episodes"
    for i in range(n):
        assert v.seeds(i)["state_seed"] == expected_state_seed(seed, i, ref.episode[i])


@pytest.mark.parametrize("game", GAMES)
def test_all_seats_observations(game):
    players = players_of(game)
    v = tilecraft.VectorGame(game, 3, players=players, seed=4, observe="all")
    r = v.reset()
    for _ in range(30):
        r = v.step(v.sample_legal())
    assert r.observation.shape == (3, players) + v.observation_shape
    for i in range(3):
        s = v.state(i)
        for k in range(players):
            np.testing.assert_array_equal(r.observation[i, k], s.observation(k))


def drive(v, steps, policy="sample"):
    """Runs a vector and returns a copy of every output of every call."""
    trace = []
    r = v.reset()
    for t in range(steps):
        trace.append((r.observation.copy(), r.legal_mask.copy(), r.current_player.copy(), r.rewards.copy(),
                      r.terminated.copy(), {k: a.copy() for k, a in r.info.items()}))
        r = v.step(v.sample_legal())
    return trace


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("opponents", [None, "greedy"])
def test_threads_do_not_change_results(game, opponents):
    players = players_of(game)
    kw = dict(players=players, seed=5, opponents=opponents)
    if opponents:
        kw["learner_seat"] = "rotate"
    steps = 120 if opponents is None else 60
    one = drive(tilecraft.VectorGame(game, 40, threads=1, **kw), steps)
    for threads in (2, 3):
        other = drive(tilecraft.VectorGame(game, 40, threads=threads, **kw), steps)
        for a, b in zip(one, other):
            for x, y in zip(a[:5], b[:5]):
                np.testing.assert_array_equal(x, y)
            for k in a[5]:
                np.testing.assert_array_equal(a[5][k], b[5][k])


def test_episode_seeds_depend_on_seed_env_episode_only():
    a = tilecraft.VectorGame("azul", 8, seed=9)
    b = tilecraft.VectorGame("azul", 3, seed=9, threads=2)
    a.reset()
    b.reset()
    for i in range(3):
        assert a.seeds(i) == b.seeds(i)
        assert a.state(i).to_json() == b.state(i).to_json()
    a.reset()  # no seed: every game goes on to its next episode
    assert [a.seeds(i)["episode"] for i in range(8)] == [1] * 8
    assert a.seeds(2)["state_seed"] == expected_state_seed(9, 2, 1)
    a.reset(seed=9)  # a seed restarts the stream
    assert a.seeds(2)["state_seed"] == expected_state_seed(9, 2, 0)
    c = tilecraft.VectorGame("azul", 8, seed=10)
    c.reset()
    assert c.seeds(0)["state_seed"] != a.seeds(0)["state_seed"]


def test_auto_reset_ignores_the_action_and_reports_the_finished_game():
    v = tilecraft.VectorGame("azul", 4, seed=2)
    r = v.reset()
    seen_end = 0
    for _ in range(400):
        actions = v.sample_legal().copy()
        waiting = r.terminated.copy()
        assert (actions[waiting] == -1).all()  # nothing to play in a finished game
        episode_before = r.info["episode_index"].copy()
        r = v.step(actions)  # -1 is accepted where the game awaits its reset: it is ignored
        assert (r.info["reset"] == waiting).all()
        for i in np.flatnonzero(r.terminated):
            s = v.state(i)
            assert s.is_terminal()
            np.testing.assert_allclose(r.info["episode_returns"][i], s.returns())
            np.testing.assert_allclose(r.rewards[i], s.returns().astype(np.float32))
            assert r.info["episode_length"][i] == len(s.history())
            assert not r.legal_mask[i].any() and r.current_player[i] == -1
            seen_end += 1
        for i in np.flatnonzero(waiting):
            assert r.info["episode_index"][i] == episode_before[i] + 1
            assert len(v.state(i).history()) == 0
    assert seen_end >= 8


def test_sample_legal_and_legal_actions():
    v = tilecraft.VectorGame("castle", 6, seed=3)
    r = v.reset()
    for _ in range(50):
        a = v.sample_legal()
        assert a.dtype == np.int32
        flat, offsets = v.legal_actions()
        assert offsets.shape == (7,) and offsets[0] == 0
        for i in range(6):
            legal = flat[offsets[i]:offsets[i + 1]]
            np.testing.assert_array_equal(legal, np.flatnonzero(r.legal_mask[i]))
            if not r.terminated[i]:
                assert r.legal_mask[i, a[i]]
        r = v.step(a)


def test_sample_legal_is_uniform_enough():
    # one position, many draws: every legal action comes up
    v = tilecraft.VectorGame("azul", 1, seed=0)
    r = v.reset()
    legal = set(np.flatnonzero(r.legal_mask[0]).tolist())
    seen = {int(v.sample_legal()[0]) for _ in range(3000)}
    assert seen == legal


def test_buffers_are_reused_views_or_copies_on_request():
    v = tilecraft.VectorGame("azul", 8, seed=1)
    r1 = v.reset()
    first = r1.observation.copy()
    r2 = v.step(v.sample_legal())
    assert np.shares_memory(r1.observation, r2.observation)  # the same buffer, rewritten
    assert not np.array_equal(r1.observation, first)
    assert np.shares_memory(np.asarray(r2.observation), r2.observation)  # zero-copy for torch/jax
    assert r2.observation.flags.c_contiguous and r2.observation.dtype == np.float32
    c = tilecraft.VectorGame("azul", 8, seed=1, copy=True)
    c1 = c.reset()
    c2 = c.step(c.sample_legal())
    assert not np.shares_memory(c1.observation, c2.observation)
    np.testing.assert_array_equal(c1.observation, first)


def test_explicit_chance_is_resolved_inside():
    # chance nodes (explicit bag draws, a random first player) never reach the caller; the
    # outcomes are in the history, and replaying it on a state made with the episode's seed
    # gives the same position
    v = tilecraft.VectorGame("azul", 3, seed=8, chance="explicit", first_player=-1)
    r = v.reset()
    for _ in range(150):
        assert (r.current_player != tilecraft.CHANCE).all()
        r = v.step(v.sample_legal())
    for i in range(3):
        s = v.state(i)
        ref = tilecraft.make("azul", seed=v.seeds(i)["state_seed"], chance="explicit", first_player=-1)
        for a in s.history():
            ref.apply(int(a))
        assert ref.to_json() == s.to_json()
