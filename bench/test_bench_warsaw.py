"""Warsaw throughput (pytest-benchmark; skipped by default, run with
`pytest bench/test_bench_warsaw.py --benchmark-only`). The CLI figure
(`tilecraft bench warsaw --players 4 --games 20000`) and its measurement notes are in
docs/warsaw.md, "Speed"."""
import pytest

import tilecraft


@pytest.mark.parametrize("players", [2, 4])
def test_warsaw_random_playouts(benchmark, players):
    config = dict(tilecraft.make_config("warsaw", players=players), game="warsaw")
    result = benchmark(tilecraft.random_playouts, config, 2000, 0, 1)
    assert result["length"].shape == (2000,)


def test_warsaw_greedy_move(benchmark):
    state = tilecraft.make("warsaw", players=4, seed=1)
    benchmark(state.greedy_action, 7)
