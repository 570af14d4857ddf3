"""The rows both C++ self-play drivers record (one game course, search/self_play.hpp's GameRun): a
search seat's root value, and compact (uint8) observations, in the batched PUCT loop as in the
threaded one."""
import numpy as np
import pytest

import tilecraft
from tilecraft.puct import PUCTBot

M64 = 2**64 - 1


def cpp_mix_seed(seed: int, stream: int) -> int:
    """cpp/core/rng.hpp's mix_seed (two splitmix64 steps), which seeds self-play's games and seats."""
    x = seed ^ ((stream * 0xD1B54A32D192ED03) & M64)
    for _ in range(2):
        x = (x + 0x9E3779B97F4A7C15) & M64
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class Shaped:
    """A deterministic evaluator that treats rows independently, whose priors and values differ from
    position to position (so that the children's values, and their visit-weighted mean, do)."""

    def __init__(self, players: int = 2):
        self.players = players

    def __call__(self, obs, mask, players):
        x = obs.reshape(len(obs), -1).astype(np.float64)
        s = np.sin(x @ np.sin(np.arange(x.shape[1]) * 0.7) * 0.37)
        logits = np.where(mask, np.cos(np.arange(mask.shape[1])[None, :] * 0.1 + s[:, None]), 0.0)
        values = np.empty((len(obs), self.players))
        values[:, 0] = 0.5 + 0.4 * s
        values[:, 1:] = (1.0 - values[:, :1]) / (self.players - 1)
        return logits.astype(np.float32), values.astype(np.float32)


def test_puct_rows_have_a_search_value_and_greedy_rows_none():
    r = tilecraft.self_play("azul", [PUCTBot(Shaped(), simulations=16, batch_size=4), "greedy"], 3, seed=2,
                            record=True, concurrent_games=3)
    t = r["training"]
    bot = r["seat_bot"][t["game"], t["player"]]
    value = t["search_value"]
    assert value.dtype == np.float32 and value.shape == (len(t["player"]),)
    puct = value[bot == 0]
    assert len(puct) and np.all(np.isfinite(puct)) and np.all((puct >= 0) & (puct <= 1))
    assert len(np.unique(puct)) > 1
    assert np.all(np.isnan(value[bot == 1]))


def test_puct_search_value_is_the_visit_weighted_mean_of_the_root_children():
    """The first search of game 0 is the one a PUCTBot with the seat's seed makes (one leaf per
    evaluation, so that the batching cannot differ; Castle's 14 opening moves, so that 24 simulations
    visit them unevenly): its policy row and its search value follow."""
    seed, evaluator = 0, Shaped()
    r = tilecraft.self_play("castle", [PUCTBot(evaluator, simulations=24, batch_size=1), "greedy"], 1, seed=seed,
                            record=True, concurrent_games=1)
    state = tilecraft.make("castle", seed=int(r["state_seed"][0]))
    seat = state.current_player()
    assert r["seat_bot"][0][seat] == 0
    search_seed = cpp_mix_seed(cpp_mix_seed(seed, 0), 2 + seat)
    assert search_seed < 2**63  # a PUCTBot seed (63 bits) can be it
    bot = PUCTBot(evaluator, simulations=24, batch_size=1)
    bot.reset(seat, search_seed)
    res = bot.search(state)
    t = r["training"]
    assert res["action"] == r["actions"][0][0]
    assert np.array_equal(t["policy"][0], res["policy"])
    visits, values = res["visits"], res["values"]
    expected = (visits * values).sum() / visits.sum()
    assert expected != pytest.approx(values[visits > 0].mean())  # the weights matter here
    assert t["search_value"][0] == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("game", ["azul", "warsaw"])
def test_compact_puct_records_decode_to_the_float32_records(game):
    kw = dict(n_games=2, seed=6, record=True, evaluator=Shaped(), concurrent_games=2)
    bots = [PUCTBot(simulations=12, batch_size=4), "greedy", "mcts:iterations=10"]
    f = tilecraft.self_play(game, bots, **kw)
    c = tilecraft.self_play(game, bots, obs_dtype=np.uint8, **kw)
    assert all(np.array_equal(x, y) for x, y in zip(f["actions"], c["actions"]))
    codes = c["training"]["observation"]
    denominator, offset = c["training"]["observation_codec"]
    assert codes.dtype == np.uint8 and codes.nbytes * 4 == f["training"]["observation"].nbytes
    assert np.array_equal(codes / denominator + offset, f["training"]["observation"])
    assert "observation_codec" not in f["training"]
    for key in f["training"]:
        if key != "observation":
            assert np.array_equal(f["training"][key], c["training"][key], equal_nan=key == "search_value"), key
