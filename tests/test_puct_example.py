"""examples/alphazero.py (the loop of tilecraft train) runs end to end with numpy alone, and the
numpy trainer's hand-written backward pass is right."""
import importlib.util
import json
import os

import numpy as np
import pytest

from tilecraft import baselines, presets, train

EXAMPLE = os.path.join(os.path.dirname(__file__), os.pardir, "examples", "alphazero.py")


def _load():
    spec = importlib.util.spec_from_file_location("alphazero_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_alphazero_example_runs_with_numpy(tmp_path):
    az = _load()
    out = tmp_path / "run"
    result = az.main(["azul", "--quick", "--numpy", "--quiet", "--out", str(out), "--chunks", "1"])
    curve = json.loads((out / "curve.json").read_text())
    assert result["rounds"] == 2 and len(curve) == 2
    for row in curve:
        assert row["rows"] > 0 and np.isfinite(row["policy_loss"]) and np.isfinite(row["value_loss"])
        for name in ("policy_vs_greedy", "puct_vs_teacher"):
            r = row[name]
            assert r["games"] == 2 and 0 <= r["low"] <= r["share"] <= r["high"] <= 1
    assert curve[1]["games"] == 4 + 4  # the teacher's chunk and the Gumbel PUCT round's games
    net = baselines.load("azul", 2, path=result["final"])
    assert net.meta["round"] == 1 and net.meta["hidden"] == [64]


def test_numpy_trainer_learns_a_fixed_target():
    """The loss on a fixed batch goes down, and the value head's softmax sums to one."""
    rng = np.random.default_rng(0)
    arrays = train._init_arrays(10, [16, 16], 6, 2, seed=0)
    t = train._NumpyTrainer(arrays, 2, 1e-2, 1)
    x = rng.normal(size=(64, 10)).astype(np.float32)
    mask = np.ones((64, 6), bool)
    mask[:, 5] = False
    pi = np.zeros((64, 6), np.float32)
    pi[np.arange(64), (x[:, 0] > 0).astype(int)] = 1
    z = np.stack([(x[:, 1] > 0), (x[:, 1] <= 0)], axis=1).astype(np.float32)
    m = np.stack([x[:, 2], -x[:, 2]], axis=1).astype(np.float32)
    first = t.step(x, mask, pi, z, m, 0.25)
    for _ in range(300):
        last = t.step(x, mask, pi, z, m, 0.25)
    assert last[0] < first[0] * 0.5 and last[1] < first[1] * 0.5 and last[2] < first[2] * 0.5


GROUPS = [dict(offset=1, count=2, width=2, block_stride=1, feature_stride=2, embed=3)]  # features (1, 3), (2, 4)


@pytest.mark.parametrize("value_hidden, groups", [((), ()), ((6,), ()), ((), GROUPS), ((6,), GROUPS)],
                         ids=["shared trunk", "value trunk", "groups", "groups and value trunk"])
def test_numpy_gradients_match_finite_differences(value_hidden, groups):
    rng = np.random.default_rng(1)
    arrays = train._init_arrays(5, [7], 4, 2, seed=1, value_hidden=value_hidden, groups=groups)
    index = baselines.group_indices(groups, 5) if groups else None
    for k in ("wp", "wv", "wm"):
        arrays[k] = rng.normal(size=arrays[k].shape).astype(np.float32) * 0.3
    x = rng.normal(size=(8, 5)).astype(np.float32)
    mask = np.ones((8, 4), bool)
    pi = rng.dirichlet(np.ones(4), size=8).astype(np.float32)
    z = rng.dirichlet(np.ones(2), size=8).astype(np.float32)
    m = rng.normal(size=(8, 2)).astype(np.float32)

    def loss(a):
        t = train._NumpyTrainer(a, 1, 0.0, 1, index)
        p, v, mm = t.step(x, mask, pi, z, m, 0.25)
        return p + v + 0.25 * mm

    t = train._NumpyTrainer(arrays, 1, 1e-3, 1, index)
    before = {k: v.copy() for k, v in t.p.items()}
    t.step(x, mask, pi, z, m, 0.25)
    # Adam's first step moves each weight by about lr * sign(gradient): compare signs with the loss slope
    probes = [("w0", (2, 3)), ("wp", (1, 2)), ("wv", (4, 0)), ("wm", (3, 1))]
    if value_hidden:
        probes += [("vw0", (1, 4)), ("vw0", (3, 0)), ("vb0", (2,))]
    if groups:  # the shared encoder: its gradient sums both blocks'
        probes += [("gw0", (0, 0)), ("gw0", (1, 2)), ("gw0", (0, 1)), ("gb0", (1,)), ("gb0", (2,))]
    checked, keys = 0, set()
    for k, i in probes:
        eps = 1e-3
        up = {kk: vv.astype(np.float64).copy() for kk, vv in arrays.items()}
        dn = {kk: vv.astype(np.float64).copy() for kk, vv in arrays.items()}
        up[k][i] += eps
        dn[k][i] -= eps
        slope = (loss({kk: vv.astype(np.float32) for kk, vv in up.items()})
                 - loss({kk: vv.astype(np.float32) for kk, vv in dn.items()})) / (2 * eps)
        step = t.p[k][i] - before[k][i]
        if abs(slope) > 1e-3:
            assert np.sign(step) == -np.sign(slope), (k, i, slope, step)
            checked += 1
            keys.add(k)
    assert checked >= 2
    assert not groups or "gw0" in keys


def test_improvement_rounds_search_with_rollouts_and_the_heuristic_prior_when_asked(tmp_path):
    """--puct-rollout-mix and --puct-prior-heuristic reach the later rounds' PUCT (its options are
    recorded with the chunk) and the run's settings; a run without them records neither, so folders
    made before the flags existed still resume."""
    base = ["azul", "--players", "2", "--teacher", "mcts:iterations=50", "--chunks", "1", "--games-per-chunk", "2",
            "--hold-out", "0", "--rounds", "2", "--puct-games", "2", "--puct-simulations", "8", "--eval-games", "0",
            "--epochs", "1", "--hidden", "16", "--value-hidden", "", "--numpy", "--quiet", "--threads", "1"]
    for flags, expected in (([], dict(rollout_mix=0.0, prior_heuristic=0.0)),
                            (["--puct-rollout-mix", "1.0", "--puct-prior-heuristic", "2.0"],
                             dict(rollout_mix=1.0, prior_heuristic=2.0))):
        out = tmp_path / f"run{len(flags)}"
        argv = base + ["--out", str(out)] + flags
        train.run(train.parser().parse_args(argv), argv)
        with np.load(out / "data" / "puct-0001.npz") as z:
            bot = json.loads(str(z["meta"]))["bots"][0]
        for key, value in expected.items():
            assert f"{key}={value!r}" in bot
        settings = json.loads((out / "run.json").read_text())["settings"]
        assert settings.get("puct_rollout_mix") == (expected["rollout_mix"] or None)
        assert settings.get("puct_prior_heuristic") == (expected["prior_heuristic"] or None)


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


def test_a_baseline_teacher_plays_in_the_batched_puct_loop(tmp_path):
    """--teacher baseline[...] (a search guided by a network) is played by self_play's batched PUCT
    loop: its rows are the search's visit shares over the legal actions, not one-hot moves; and
    --target-temperature is checked and recorded in the settings only when it is not 1."""
    base = ["azul", "--players", "2", "--chunks", "1", "--games-per-chunk", "2", "--hold-out", "0",
            "--eval-games", "0", "--epochs", "1", "--hidden", "16", "--value-hidden", "", "--numpy", "--quiet",
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
