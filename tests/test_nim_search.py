"""The searches against known answers, on Nim (tilecraft.testing.nim): one heap, take 1..K stones,
whoever takes the last stone wins. The mover wins exactly when heap % (K + 1) != 0, and the only
winning move leaves a multiple of K + 1 (take heap % (K + 1) stones: action id heap % (K + 1) - 1).
Nim is a test-only game: not in list_games(), the server, the CLI or the ladders."""
import subprocess
import sys

import numpy as np
import pytest

import tilecraft
from tilecraft.bots import ISMCTSBot, MCTSBot
from tilecraft.puct import PUCTBot
from tilecraft.testing import ConformanceError, check_game, nim

K = 3


def winning_action(heap, k=K):
    return heap % (k + 1) - 1  # take heap % (k+1) stones


def test_rules():
    s = nim(heap=5, max_take=3)
    assert list(s.legal_actions()) == [0, 1, 2] and s.current_player() == 0
    s.apply(2)  # take 3: two left
    assert s.heap() == 2 and s.current_player() == 1 and list(s.legal_actions()) == [0, 1]
    with pytest.raises(tilecraft.IllegalActionError):
        s.apply(2)  # cannot take 3 of 2
    s.apply(1)  # seat 1 takes the last two
    assert s.is_terminal() and list(s.winners()) == [1] and list(s.returns()) == [-1.0, 1.0]
    assert s.action_to_string(0) == "take 1" and s.string_to_action("take 3") == 2


def test_chance_variant_chooses_the_first_player():
    s = nim(heap=4, first_player=-1)
    assert s.is_chance_node() and s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    s.apply(1)
    assert s.current_player() == 1 and not s.is_chance_node()


@pytest.mark.parametrize("bad", [dict(heap=0), dict(heap=201), dict(max_take=0), dict(max_take=21),
                                 dict(first_player=2)])
def test_bad_options_are_refused(bad):
    with pytest.raises(tilecraft.InvalidConfigError, match=next(iter(bad))):
        nim(**bad)


def test_not_a_registered_game():
    assert "nim" not in tilecraft.list_games()
    with pytest.raises(tilecraft.UnknownGameError):
        tilecraft.make("nim")


@pytest.mark.parametrize("heap", [5, 6, 7, 9, 10, 11])
def test_mcts_finds_the_winning_move(heap):
    bot = MCTSBot(iterations=3000, seed=1, rollout="random", rollout_depth=-1)
    result = bot.search(nim(heap=heap, max_take=K))
    assert result["action"] == winning_action(heap)
    assert result["values"][winning_action(heap)] > 0.9  # a won position: the win share is near 1


@pytest.mark.parametrize("heap", [5, 7, 10])
def test_ismcts_finds_the_winning_move(heap):
    s = nim(heap=heap, max_take=K, first_player=-1)
    s.apply(1)  # the chance node: seat 1 starts
    bot = ISMCTSBot(iterations=3000, seed=2, rollout="random", rollout_depth=-1)
    result = bot.search(s)
    assert result["action"] == winning_action(heap)
    assert result["values"][winning_action(heap)] > 0.9


def test_mcts_values_from_a_lost_position_are_losses():
    result = MCTSBot(iterations=3000, seed=3, rollout="random", rollout_depth=-1).search(nim(heap=8, max_take=K))
    legal = [0, 1, 2]
    assert max(result["values"][a] for a in legal) < 0.5  # every move leaves a winning heap to the opponent


@pytest.mark.parametrize("heap", [5, 6, 7, 10])
def test_puct_finds_the_winning_move(heap):
    bot = PUCTBot(simulations=2000, seed=4, batch_size=1)
    result = bot.search(nim(heap=heap, max_take=K))
    assert result["action"] == winning_action(heap)
    assert result["values"][winning_action(heap)] > 0.8


def test_greedy_heuristic_is_the_game_value():
    for heap in range(1, 13):
        s = nim(heap=heap, max_take=K)
        assert s.heuristic(0) == (1.0 if heap % (K + 1) else -1.0)
        if heap % (K + 1):
            assert s.greedy_action(0) == winning_action(heap)


@pytest.mark.parametrize("first_player", [0, -1])
def test_check_game_passes_on_nim(first_player):
    assert check_game(lambda seed: nim(heap=12, max_take=K, first_player=first_player), steps=60, seed=0) >= 60


def test_check_game_names_the_game_seed_and_step():
    class Broken:  # a wrapper whose mask disagrees with its list from the third step on
        game_name = "broken-nim"

        def __init__(self, seed):
            self.s = nim(heap=12, max_take=K)

        def __getattr__(self, name):
            return getattr(self.s, name)

        def legal_action_mask(self):
            mask = self.s.legal_action_mask()
            if len(self.s.history()) >= 2:
                mask = np.zeros_like(mask)
            return mask

    with pytest.raises(ConformanceError) as info:
        check_game(Broken, steps=10, seed=5)
    e = info.value
    assert isinstance(e, AssertionError) and (e.game, e.seed, e.step) == ("broken-nim", 5, 2)
    assert "broken-nim: seed 5, step 2:" in str(e) and "mask" in str(e)


def test_testing_imports_without_pytest_or_hypothesis():
    code = ("import sys\n"
            "for m in ('pytest', 'hypothesis', '_pytest'): sys.modules[m] = None  # any import of them fails\n"
            "import tilecraft.testing as t\n"
            "print(t.check_game(lambda s: t.nim(heap=9, first_player=-1), steps=20, seed=1) > 0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"


def test_nim_is_not_in_the_gallery():
    from tilecraft.render.svg_games import _gallery

    assert "nim" not in {shot[0] for shot in _gallery.SHOTS}
    assert {shot[0] for shot in _gallery.SHOTS} == set(tilecraft.list_games())


@pytest.mark.slow  # configs.py builds every configuration (about 10 s)
def test_nim_is_not_in_the_self_play_configurations():
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, os.path.join(root, "cpp", "tools", "configs.py")], capture_output=True,
                         text=True, timeout=120, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.returncode == 0, out.stderr
    games = {line.split()[1] for line in out.stdout.splitlines() if line.startswith("config ")}
    assert games == set(tilecraft.list_games())  # the self-play checker's configurations


def test_conformance_error_pickles():
    import pickle

    e = pickle.loads(pickle.dumps(ConformanceError("nim", 3, 7, "the mask must agree with the list")))
    assert (e.game, e.seed, e.step, str(e)) == ("nim", 3, 7, "nim: seed 3, step 7: the mask must agree with the list")


@pytest.mark.parametrize("kwargs,word", [(dict(steps=0), "steps"), (dict(seed=-1), "seed"),
                                         (dict(check_illegal_every=0), "check_illegal_every"),
                                         (dict(steps=True), "steps")])
def test_check_game_refuses_bad_arguments(kwargs, word):
    with pytest.raises(ValueError, match=word):
        check_game(lambda s: nim(), **kwargs)


class ConstantEvaluator:
    """Uniform priors and the same value for every seat at every leaf: a model that knows nothing."""

    def __init__(self, value):
        self.value = value

    def __call__(self, obs, mask, players):
        return np.zeros(mask.shape, np.float32), np.full((len(obs), 2), self.value, np.float32)


class LyingEvaluator:
    """Uniform priors and the wrong value of every Nim position: the seat to move is said to lose where
    it wins (heap % (K + 1) != 0) and to win where it loses. Nim's observation: [heap, ...]."""

    def __call__(self, obs, mask, players):
        wins = (np.rint(obs[:, 0]).astype(int) % (K + 1)) != 0
        mover_value = np.where(wins, 0.0, 1.0)
        values = np.empty((len(obs), 2), np.float32)
        rows = np.arange(len(obs))
        values[rows, players] = mover_value
        values[rows, 1 - players] = 1.0 - mover_value
        return np.zeros(mask.shape, np.float32), values


@pytest.mark.parametrize("heap, mix, scale", [(5, 0.25, 1.0), (8, 0.25, 1.0), (5, 1.0, 0.5), (6, 0.6, 2.0)])
def test_rollout_mix_mixes_the_leaf_value_with_the_heuristic_at_depth_zero(heap, mix, scale):
    """rollout_depth=0: the rollout is the heuristic softmax at once. Nim's heuristic is +1 for the
    mover where heap % 4 != 0 and -1 where it is 0 (the opponent -1 / +1), so the mover's softmax
    share is e^(h/s) / (e^(h/s) + e^(-h/s)); the root's value is (1 - mix) * 0.5 + mix * that share."""
    obs = nim(heap=heap, max_take=K).observation(0)
    assert obs[0] == heap  # LyingEvaluator and this test read the heap from the first feature
    h = 1.0 if heap % (K + 1) else -1.0
    share = np.exp(h / scale) / (np.exp(h / scale) + np.exp(-h / scale))
    bot = PUCTBot(ConstantEvaluator(0.5), simulations=4, batch_size=1, rollout_mix=mix, rollout_depth=0,
                  eval_scale=scale)
    result = bot.search(nim(heap=heap, max_take=K))
    assert result["root_value"] == pytest.approx((1 - mix) * 0.5 + mix * share, abs=1e-6)


def test_rollouts_are_averaged():
    """Random rollouts to the end from a heap of 4 (take 1-3 at random, last stone wins): the mover
    wins with probability 1/3 (taking 1 or 2 leaves a heap the opponent then wins half the time,
    taking 3 leaves one stone to the opponent). One rollout gives the root 0 or 1; the mean of 1024
    gives about 1/3 (standard error 0.015)."""
    def root(rollouts, seed):
        bot = PUCTBot(ConstantEvaluator(0.5), simulations=1, batch_size=1, seed=seed, rollout_mix=1.0,
                      rollouts=rollouts, rollout="random", rollout_depth=-1)
        return bot.search(nim(heap=4, max_take=K))["root_value"]

    assert {root(1, seed) for seed in range(20)} == {0.0, 1.0}
    assert abs(root(1024, 1) - 1 / 3) < 0.07


def test_rollout_mix_zero_leaves_the_evaluator_alone():
    result = PUCTBot(ConstantEvaluator(0.3), simulations=4, batch_size=1).search(nim(heap=5, max_take=K))
    assert result["root_value"] == pytest.approx(0.3)


@pytest.mark.parametrize("heap", [9, 10, 11, 13])
def test_rollouts_overrule_a_lying_evaluator(heap):
    """With the values inverted, plain PUCT walks into the loss; with rollout_mix=1 (random rollouts to
    the end) the evaluator's values count for nothing and the search finds the winning move."""
    lied = PUCTBot(LyingEvaluator(), simulations=30, seed=4, batch_size=1).search(nim(heap=heap, max_take=K))
    assert lied["action"] != winning_action(heap)
    bot = PUCTBot(LyingEvaluator(), simulations=2000, seed=4, batch_size=1, rollout_mix=1.0, rollout="random",
                  rollout_depth=-1)
    result = bot.search(nim(heap=heap, max_take=K))
    assert result["action"] == winning_action(heap)
    assert result["values"][winning_action(heap)] > max(result["values"][a] for a in range(K) if a != winning_action(heap))


def test_rollout_options_default_to_the_games_search_defaults():
    bot = PUCTBot("uniform", rollout_mix=0.5)
    from tilecraft import presets

    for game in ("azul", "castle", "warsaw", "gaudi"):
        tuned = presets.mcts_defaults(game)
        resolved = bot._resolved(game)
        assert resolved["rollout_depth"] == tuned["rollout_depth"]
        assert resolved["eval_scale"] == tuned["eval_scale"]
        assert bot.spec(game)["rollout_depth"] == resolved["rollout_depth"]
    assert bot._resolved("warsaw")["eval_scale"] == 20.0 and bot._resolved("gaudi")["rollout_depth"] == 8
    assert PUCTBot("uniform", rollout_mix=0.5, rollout_depth=2)._resolved("gaudi")["rollout_depth"] == 2
