"""pytest-benchmark suites for Azul: `pytest bench --benchmark-only` (see bench/README.md)."""
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tilecraft  # noqa: E402
from baselines.pyazul import play_random_game  # noqa: E402


def test_baseline_pure_python_10_games(benchmark):
    rng = random.Random(0)
    benchmark(lambda: [play_random_game(rng) for _ in range(10)])


@pytest.mark.parametrize("threads", [1, 2])
def test_cpp_random_playouts_10000_games(benchmark, threads):
    r = benchmark(lambda: tilecraft.random_playouts("azul", 10000, seed=1, threads=threads))
    assert r["scores"].shape == (10000, 2)


def test_python_loop_10_games(benchmark):
    rng = random.Random(0)

    def run():
        moves = 0
        for g in range(10):
            s = tilecraft.make("azul", players=2, seed=g)
            while not s.is_terminal():
                a = s.legal_actions()
                s.apply(a[rng.randrange(len(a))])
                moves += 1
        return moves

    assert benchmark(run) > 0


def test_clone(benchmark):
    s = tilecraft.make("azul", players=2, seed=3)
    benchmark(s.clone)


def test_legal_actions_opening(benchmark):
    s = tilecraft.make("azul", players=4, seed=3)
    benchmark(s.legal_actions)


def test_observation(benchmark):
    s = tilecraft.make("azul", players=2, seed=3)
    benchmark(s.observation, 0)
