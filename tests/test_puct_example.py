"""examples/alphazero.py runs end to end with numpy alone (a tiny configuration)."""
import importlib.util
import json
import os

import numpy as np

import tilecraft

EXAMPLE = os.path.join(os.path.dirname(__file__), os.pardir, "examples", "alphazero.py")


def _load():
    spec = importlib.util.spec_from_file_location("alphazero_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_alphazero_example_runs_with_numpy(tmp_path):
    az = _load()
    out = tmp_path / "curve.json"
    result = az.main(["--numpy", "--iterations", "2", "--games", "4", "--sims", "8", "--eval-sims", "8",
                      "--eval-games", "2", "--concurrent", "4", "--epochs", "1", "--out", str(out)])
    curve = json.loads(out.read_text())["curve"]
    assert len(curve) == 2 and result["torch"] is False
    for row in curve:
        assert row["rows"] > 0 and np.isfinite(row["policy_loss"]) and np.isfinite(row["value_loss"])
        for name in ("vs_uniform", "vs_greedy"):
            r = row[name]
            assert r["games"] == 2 and 0 <= r["low"] <= r["win_rate"] <= r["high"] <= 1


def test_numpy_network_learns_a_fixed_target():
    """The hand-written backward pass is right: the loss on a fixed batch goes down."""
    az = _load()
    rng = np.random.default_rng(0)
    net = az.NumpyNet(10, 6, 2, hidden=16)
    x = rng.normal(size=(64, 10)).astype(np.float32)
    mask = np.ones((64, 6), bool)
    mask[:, 5] = False
    pi = np.zeros((64, 6), np.float32)
    pi[np.arange(64), (x[:, 0] > 0).astype(int)] = 1
    z = np.stack([(x[:, 1] > 0), (x[:, 1] <= 0)], axis=1).astype(np.float32)
    first = net.train_step(x, mask, pi, z, 1e-2)
    for _ in range(200):
        last = net.train_step(x, mask, pi, z, 1e-2)
    assert last[0] < first[0] * 0.5 and last[1] < first[1] * 0.5
    logits, values = net(x, mask, np.zeros(64, np.int32))
    assert logits.shape == (64, 6) and np.allclose(values.sum(axis=1), 1.0, atol=1e-5)
    # Values are rolled back to absolute seats: seat 1's view puts its own share in column 1.
    _, v1 = net(x, mask, np.ones(64, np.int32))
    assert np.allclose(v1[:, 1], values[:, 0], atol=1e-6)
