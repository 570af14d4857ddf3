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
