"""Batched PUCT self-play on a local 2-CPU Ray instance gives exactly the local games (and records)."""
import numpy as np
import pytest

import tilecraft
from tilecraft.puct import UniformEvaluator

ray = pytest.importorskip("ray", reason="the Ray backend needs the 'ray' extra (pip install 'tilecraft[ray]')")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.slow  # starting a local Ray instance takes seconds
def test_ray_self_play_equals_local(local_ray):
    bots = [tilecraft.PUCTBot(simulations=12, batch_size=4), "greedy"]
    chunks = []
    kw = dict(n_games=6, seed=3, record=True, evaluator=UniformEvaluator(2), concurrent_games=2)
    remote = tilecraft.self_play("azul", bots, backend="ray", workers=2, on_games=chunks.append, **kw)
    local = tilecraft.self_play("azul", bots, **kw)
    assert len(chunks) == 3  # streamed back chunk by chunk
    for key in ("scores", "winners", "seat_bot", "length", "state_seed"):
        assert np.array_equal(remote[key], local[key]), key
    assert all(np.array_equal(x, y) for x, y in zip(remote["actions"], local["actions"]))
    for key in local["training"]:  # search_value is NaN on the greedy seat's rows
        assert np.array_equal(remote["training"][key], local["training"][key], equal_nan=True), key
    # compact records: the chunks' codes and one codec
    compact = tilecraft.self_play("azul", bots, backend="ray", workers=2, obs_dtype=np.uint8, **kw)["training"]
    denominator, offset = compact["observation_codec"]
    assert compact["observation"].dtype == np.uint8
    assert np.array_equal(compact["observation"] / denominator + offset, local["training"]["observation"])
