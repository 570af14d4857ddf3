"""examples/alphazero.py (the loop of tilecraft train) runs end to end, the trainer learns, and the
network's one forward pass gives the losses written out by hand on numpy and on JAX."""
import importlib.util
import json
import os

import numpy as np
import pytest

from tilecraft import baselines, presets, train
from tilecraft.agents import model
from tilecraft.agents.train import fitting as fit

EXAMPLE = os.path.join(os.path.dirname(__file__), os.pardir, "examples", "alphazero.py")


def _load():
    spec = importlib.util.spec_from_file_location("alphazero_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.train
def test_alphazero_example_runs(tmp_path):
    az = _load()
    out = tmp_path / "run"
    result = az.main(["azul", "--quick", "--quiet", "--out", str(out), "--chunks", "1"])
    record = json.loads((out / "generations.json").read_text())
    assert result["generations"] == 2 and len(record) == 2
    for row in record:
        assert row["rows"] > 0 and np.isfinite(row["policy_loss"]) and np.isfinite(row["value_loss"])
        for name in ("policy_vs_greedy", "equal_time") + (("gate",) if row["generation"] else ()):
            r = row[name]
            assert r["games"] == 2 and 0 <= r["low"] <= r["share"] <= r["high"] <= 1
        assert row["best"] == (1 if row["generation"] == 1 and row["promoted"] else 0)
    # generation 1 holds out its last self-play chunk (one teacher chunk: none of generation 0's held out)
    assert "value_error" not in record[0] and record[1]["value_error"]["positions"] > 0
    # generation 1 fits on the teacher's chunk and the self-play chunk it does not hold out (2 of 4 games)
    assert record[1]["games"] == 4 + 2
    net = baselines.load("azul", 2, path=str(out / "net-01.npz"))
    assert net.meta["generation"] == 1 and net.meta["hidden"] == [64]
    assert (out / "generations.md").read_text().startswith("| gen |")
    assert (out / "generations.svg").read_text().startswith("<svg")


@pytest.mark.train
def test_the_trainer_learns_a_fixed_target():
    """The losses on a fixed batch go down under the trainer's steps (JAX's gradients and optax's
    AdamW through tilecraft.agents.model's forward pass)."""
    rng = np.random.default_rng(0)
    arrays = model.init(10, [16, 16], 6, 2, seed=0)
    t = fit.Trainer(arrays, 1e-2, 1)
    x = rng.normal(size=(64, 10)).astype(np.float32)
    mask = np.ones((64, 6), bool)
    mask[:, 5] = False
    pi = np.zeros((64, 6), np.float32)
    pi[np.arange(64), (x[:, 0] > 0).astype(int)] = 1
    z = np.stack([(x[:, 1] > 0), (x[:, 1] <= 0)], axis=1).astype(np.float32)
    m = np.stack([x[:, 2], -x[:, 2]], axis=1).astype(np.float32)
    first = t.step(x, mask, pi, z, m, 0.25)
    # before any step the heads are zero: a uniform policy over the 5 legal actions, even win shares
    assert first[0] == pytest.approx(np.log(5), rel=1e-5) and first[1] == pytest.approx(np.log(2), rel=1e-5)
    for _ in range(300):
        last = t.step(x, mask, pi, z, m, 0.25)
    assert last[0] < first[0] * 0.5 and last[1] < first[1] * 0.5 and last[2] < first[2] * 0.5


GROUPS = [dict(offset=1, count=2, width=2, block_stride=1, feature_stride=2, embed=3)]  # features (1, 3), (2, 4)


def _hand_losses(a, x, mask, pi, z, m, groups):
    """The losses written out for one row at a time, from the definitions (no tilecraft code)."""
    relu = lambda v: np.maximum(v, 0.0)  # noqa: E731
    out = np.zeros(3)
    for r in range(len(x)):
        inp = x[r]
        if groups:  # the features in no group (0), then block 0 = features (1, 3), block 1 = (2, 4)
            enc = [relu(x[r, [1, 3]] @ a["gw0"] + a["gb0"]), relu(x[r, [2, 4]] @ a["gw0"] + a["gb0"])]
            inp = np.concatenate([x[r, [0]]] + enc)
        h = relu(inp @ a["w0"] + a["b0"])
        hv = relu(inp @ a["vw0"] + a["vb0"]) if "vw0" in a else h
        logits = np.where(mask[r], h @ a["wp"] + a["bp"], -np.inf)
        lp = logits - np.log(np.exp(logits).sum())
        vl = hv @ a["wv"] + a["bv"]
        out += (-(pi[r][mask[r]] * lp[mask[r]]).sum(), -(z[r] * (vl - np.log(np.exp(vl).sum()))).sum(),
                ((hv @ a["wm"] + a["bm"] - m[r]) ** 2).sum())
    return out / len(x)


@pytest.mark.train
@pytest.mark.parametrize("value_hidden, groups", [((), ()), ((6,), ()), ((), GROUPS), ((6,), GROUPS)],
                         ids=["shared trunk", "value trunk", "groups", "groups and value trunk"])
def test_the_losses_are_the_same_on_numpy_and_jax_and_match_a_hand_computation(value_hidden, groups):
    """The one forward pass gives the losses written out by hand, on numpy (held-out losses) and on
    JAX (training), and JAX's gradient of a weight matches the loss's finite difference."""
    import jax

    rng = np.random.default_rng(1)
    arrays = model.init(5, [7], 4, 2, seed=1, value_hidden=value_hidden, groups=groups)
    for k in ("wp", "wv", "wm", "bp"):
        arrays[k] = rng.normal(size=arrays[k].shape).astype(np.float32) * 0.3
    index = model.group_indices(groups, 5) if groups else None
    x = rng.normal(size=(8, 5)).astype(np.float32)
    mask = np.ones((8, 4), bool)
    mask[::3, 2] = False
    pi = rng.dirichlet(np.ones(4), size=8).astype(np.float32) * mask
    pi /= pi.sum(1, keepdims=True)
    z = rng.dirichlet(np.ones(2), size=8).astype(np.float32)
    m = rng.normal(size=(8, 2)).astype(np.float32)
    x64 = x.astype(np.float64)
    want = _hand_losses({k: v.astype(np.float64) for k, v in arrays.items()}, x64, mask, pi, z, m, groups)
    on_numpy = model.losses(arrays, x, mask, pi, z, m, index)[:3]
    np.testing.assert_allclose(on_numpy, want, rtol=1e-5)
    t = fit.Trainer(arrays, 1e-3, 1, index)

    def total(p):
        pol, val, mar, _ = model.losses(p, x, mask, pi, z, m, index, t.ops)
        return pol + val + 0.25 * mar, (pol, val, mar)

    (_, on_jax), grads = jax.value_and_grad(total, has_aux=True)(t.p)
    np.testing.assert_allclose([float(v) for v in on_jax], want, rtol=1e-5)
    probe = "gw0" if groups else ("vw0" if value_hidden else "w0")
    w = np.array([1.0, 1.0, 0.25])
    for k, i in (("w0", (1, 2)), ("wv", (3, 1)), (probe, (0, 1))):
        eps = 1e-3
        up = {kk: vv.astype(np.float64).copy() for kk, vv in arrays.items()}
        dn = {kk: vv.astype(np.float64).copy() for kk, vv in arrays.items()}
        up[k][i] += eps
        dn[k][i] -= eps
        slope = (w @ _hand_losses(up, x64, mask, pi, z, m, groups) - w @ _hand_losses(dn, x64, mask, pi, z, m, groups)) / (2 * eps)
        assert float(grads[k][i]) == pytest.approx(slope, rel=1e-2, abs=1e-4), (k, i)


@pytest.mark.train
def test_later_generations_search_with_rollouts_and_the_heuristic_prior_when_asked(tmp_path):
    """--selfplay-rollout-mix and --selfplay-prior-heuristic reach the later generations' PUCT (its
    options are recorded with the chunk) and the run's settings."""
    base = ["azul", "--players", "2", "--teacher", "mcts:iterations=50", "--chunks", "1", "--games-per-chunk", "2",
            "--hold-out", "0", "--generations", "2", "--selfplay-games", "2", "--selfplay-simulations", "8",
            "--gate-games", "0", "--eval-games", "0", "--value-positions", "0",
            "--epochs", "1", "--hidden", "16", "--value-hidden", "", "--quiet", "--threads", "1"]
    for flags, expected in (([], dict(rollout_mix=0.0, prior_heuristic=0.0)),
                            (["--selfplay-rollout-mix", "1.0", "--selfplay-prior-heuristic", "2.0"],
                             dict(rollout_mix=1.0, prior_heuristic=2.0))):
        out = tmp_path / f"run{len(flags)}"
        argv = base + ["--out", str(out)] + flags
        train.run(train.parser().parse_args(argv), argv)
        with np.load(out / "data" / "gen-0001-00.npz") as z:
            bot = json.loads(str(z["meta"]))["bots"][0]
        for key, value in expected.items():
            assert f"{key}={value!r}" in bot
        settings = json.loads((out / "run.json").read_text())["settings"]
        assert settings["selfplay_rollout_mix"] == expected["rollout_mix"]
        assert settings["selfplay_prior_heuristic"] == expected["prior_heuristic"]


def test_sharpen_raises_the_visit_shares_to_one_over_t():
    pi = np.array([[0.5, 0.3, 0.2, 0.0], [0.4, 0.4, 0.2, 0.0]], np.float32)
    assert np.array_equal(train.sharpen(pi, 1.0), pi)
    # T = 0.5: the shares squared, normalised (0.25 + 0.09 + 0.04 = 0.38)
    np.testing.assert_allclose(train.sharpen(pi, 0.5)[0], [0.25 / 0.38, 0.09 / 0.38, 0.04 / 0.38, 0.0], rtol=1e-6)
    # T = 2: square roots; an unvisited action stays at 0
    root = np.sqrt([0.4, 0.4, 0.2])
    np.testing.assert_allclose(train.sharpen(pi, 2.0)[1], list(root / root.sum()) + [0.0], rtol=1e-6)
    # T = 0: the most visited action, ties shared
    assert train.sharpen(pi, 0.0).tolist() == [[1.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0]]


@pytest.mark.train
def test_a_baseline_teacher_plays_in_the_batched_puct_loop(tmp_path):
    """--teacher baseline[...] (a search guided by a network) is played by self_play's batched PUCT
    loop: its rows are the search's visit shares over the legal actions, not one-hot moves; and
    --target-temperature is checked and recorded in the settings only when it is not 1."""
    base = ["azul", "--players", "2", "--chunks", "1", "--games-per-chunk", "2", "--hold-out", "0",
            "--eval-games", "0", "--epochs", "1", "--hidden", "16", "--value-hidden", "", "--quiet",
            "--threads", "1"]
    out = tmp_path / "run"
    argv = base + ["--out", str(out), "--teacher", "baseline:simulations=16", "--target-temperature", "0",
                   "--search", "rollout_mix=0.5", "--search", "prior_heuristic=0"]
    train.run(train.parser().parse_args(argv), argv)
    net = baselines.load("azul", 2, path=str(out / "net-00.npz"))
    assert "search" not in net.meta  # a network holds no search settings; its evaluation's preset is beside it
    preset = json.loads((out / "preset.json").read_text())
    assert (preset["game"], preset["players"]) == ("azul", 2) and "mode" not in preset
    assert preset["search"] == dict(presets.baseline("azul", 2, None), rollout_mix=0.5, prior_heuristic=0.0,
                                    simulations=200, rollouts=1)  # --search over the preset, --eval-simulations
    with np.load(out / "data" / "teacher-0000.npz") as z:
        assert json.loads(str(z["meta"]))["bots"] == ["baseline:simulations=16"]
        pi = z["policy"].astype(np.float32)
        mask = np.unpackbits(z["mask"], axis=1, count=pi.shape[1]).astype(bool)
    np.testing.assert_allclose(pi.sum(axis=1), 1.0, atol=1e-3)
    assert not (pi[~mask] > 0).any()
    assert ((pi > 0).sum(axis=1) > 1).mean() > 0.5  # the search's visit shares, not the move played
    assert json.loads((out / "run.json").read_text())["settings"]["target_temperature"] == 0.0
    for flag, bad in (("--target-temperature", "-1"), ("--target-temperature", "nan"),
                      ("--target-temperature", "101"), ("--search", "simulations=0"), ("--search", "iterations=4"),
                      ("--search", "rollout_mix=2"), ("--search", "rollout_mix")):
        argv = base + ["--out", str(tmp_path / "bad"), flag, bad]
        with pytest.raises(ValueError, match=flag):
            train.run(train.parser().parse_args(argv), argv)
    assert not (tmp_path / "bad").exists()  # refused before anything was written
