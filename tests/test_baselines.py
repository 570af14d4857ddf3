"""tilecraft.baselines: the network file format, its checks, the evaluator it gives, the shipped
networks, and the two bot specs built on it (baseline, baseline-policy)."""
import json
import os
import pathlib
import time
import pickle
import zipfile

import numpy as np
import pytest

import tilecraft
from tilecraft import baselines, presets
from tilecraft.baselines import BaselineError
from tilecraft.bots import BaselineBot, BaselinePolicyBot, make_bot
from tilecraft import train
from tilecraft.agents import model
from tilecraft.agents.train import fitting


def _net_file(tmp_path, game="azul", players=2, mode=None, name="net.npz", bias=None, value_bias=None, **meta_over):
    """A small network for a configuration, with chosen policy and value biases (zero weights into the
    heads, so its outputs are exactly the biases)."""
    state = tilecraft.make(game, players=players, **({"mode": mode} if mode else {}))
    n_in, n_act = int(np.prod(state.observation_shape())), state.num_distinct_actions()
    arrays = model.init(n_in, [16, 8], n_act, players, seed=1)
    arrays["shift"] = np.zeros(n_in, np.float32)
    arrays["scale"] = np.ones(n_in, np.float32)
    if bias is not None:
        arrays["bp"] = np.asarray(bias, np.float32)
    if value_bias is not None:
        arrays["bv"] = np.asarray(value_bias, np.float32)
    meta = dict(game=game, players=[players], mode=mode, observation_layout=state.observation_layout(),
                observation_size=n_in, num_actions=n_act, value_seats=players, hidden=[16, 8], depth=2,
                command="test", commit="test", seed=1, games=0, rows=0)
    meta.update(meta_over)
    path = tmp_path / name
    train.export(arrays, meta, path)
    return path


def test_the_evaluator_gives_logits_and_absolute_win_shares(tmp_path):
    # value logits (log 3, 0) for the seats relative to the mover: the mover 0.75, the other 0.25
    path = _net_file(tmp_path, value_bias=[np.log(3.0), 0.0])
    net = baselines.load("azul", 2, path=str(path))
    s = tilecraft.make("azul", seed=3)
    obs = np.stack([s.observation(0), s.observation(1)])
    mask = np.stack([s.legal_action_mask()] * 2)
    logits, values = net(obs, mask, np.array([0, 1], np.int32))
    assert logits.shape == (2, 300) and values.shape == (2, 2)
    np.testing.assert_allclose(values[0], [0.75, 0.25], atol=1e-3)  # row of seat 0
    np.testing.assert_allclose(values[1], [0.25, 0.75], atol=1e-3)  # row of seat 1: rolled back to absolute seats
    # a PUCTBot takes it as it is (the evaluator protocol, checked by EvaluatorCall)
    assert s.legal_action_mask()[tilecraft.PUCTBot(net, simulations=8).act(s)]


def test_baseline_policy_plays_the_argmax_of_the_legal_logits_lower_id_on_ties(tmp_path):
    # every logit equal: the lowest legal id; then a bias that prefers one legal id over the others
    flat = _net_file(tmp_path, name="flat.npz", bias=np.zeros(300))
    s = tilecraft.make("azul", seed=5)
    bot = BaselinePolicyBot(path=str(flat))
    assert bot.act(s) == int(s.legal_actions()[0])
    legal = s.legal_actions()
    bias = np.zeros(300)
    bias[int(legal[-1])] = 5.0
    bias[0 if int(legal[0]) != 0 else 299] = 10.0  # an illegal id with a larger logit does not count
    if s.legal_action_mask()[0]:
        bias[0] = 0.0
    peaked = _net_file(tmp_path, name="peaked.npz", bias=bias)
    assert BaselinePolicyBot(path=str(peaked)).act(s) == int(legal[-1])


def test_baseline_policy_temperature_samples_legal_moves_reproducibly(tmp_path):
    path = str(_net_file(tmp_path, bias=np.zeros(300)))
    s = tilecraft.make("azul", seed=5)
    a = [BaselinePolicyBot(temperature=1.0, seed=9, path=path).act(s) for _ in range(3)]
    assert len(set(a)) == 1 and s.legal_action_mask()[a[0]]
    picks = {BaselinePolicyBot(temperature=1.0, seed=k, path=path).act(s) for k in range(40)}
    assert len(picks) > 5  # uniform logits: the sample spreads over the legal moves
    with pytest.raises(ValueError, match="temperature"):
        BaselinePolicyBot(temperature=-1)


def test_baseline_values_its_leaves_with_rollouts_unless_told_not_to(tmp_path):
    """A network of one's own for 2-player Azul plays with that configuration's preset
    (rollout_mix=0.75: three quarters of each leaf's value from one rollout): the root's value is
    what a PUCTBot with the same network, seed and settings finds; with rollout_mix=0 it is the
    network's own value of the root."""
    from tilecraft.puct import PUCTBot

    path = str(_net_file(tmp_path))
    net = baselines.load("azul", 2, path=path)
    state = tilecraft.make("azul", seed=3)
    _, v = net(state.observation(0)[None].astype(np.float32), state.legal_action_mask()[None], np.array([0]))
    plain = BaselineBot(simulations=8, path=path, rollout_mix=0.0).search(state)
    assert plain["root_value"] == pytest.approx(float(v[0, 0]), abs=1e-5)
    preset = presets.baseline("azul", 2, None)
    assert preset["rollout_mix"] == 0.75
    mixed = BaselineBot(simulations=8, path=path).search(state)
    assert mixed["root_value"] == PUCTBot(net, **dict(preset, simulations=8)).search(state)["root_value"]
    assert mixed["root_value"] != pytest.approx(float(v[0, 0]), abs=1e-3)
    bot = make_bot("baseline:rollout_mix=0.25,rollouts=2")
    assert bot.options == dict(  # None: the configuration's preset (tilecraft/agents/presets.json)
        simulations=None, seconds=None, c_puct=None, batch_size=None, rollout_mix=0.25, rollouts=2, determinize=None,
        prior_heuristic=None, prior_temperature=None, worlds=None, opponent_prior_heuristic=None, rollout_depth=None,
        eval_scale=None)
    defaults = presets.load()["baseline"]["defaults"]
    assert bot._resolved(defaults) == dict(defaults, rollout_mix=0.25, rollouts=2)
    # the rollouts' depth and evaluation scale: the preset's, else the game's MCTS presets; the spec's first
    assert bot._resolved({"rollout_depth": 16})["rollout_depth"] == 16
    assert make_bot("baseline:rollout_depth=4,eval_scale=5")._resolved({"rollout_depth": 16}) == dict(
        rollouts=1, rollout_depth=4, eval_scale=5)
    deep = BaselineBot(simulations=8, path=path, rollout_depth=-1).search(state)
    assert deep["root_value"] == PUCTBot(net, **dict(preset, simulations=8, rollout_depth=-1)).search(state)["root_value"]
    assert deep["root_value"] != mixed["root_value"]  # rollouts to the end are not the game's 8-move ones
    with pytest.raises(ValueError, match="rollout_depth"):
        make_bot("baseline:rollout_depth=-3")
    assert make_bot("baseline:prior_heuristic=0,prior_temperature=3").options["prior_temperature"] == 3.0
    with pytest.raises(ValueError, match="prior_heuristic"):
        make_bot("baseline:prior_heuristic=-1")
    assert make_bot("baseline:determinize=iteration").options["determinize"] == "iteration"
    # a preset may say how the hidden parts are drawn; the spec overrides it
    assert bot._resolved({"determinize": "hidden"})["determinize"] == "hidden"
    assert make_bot("baseline:determinize=search")._resolved({"determinize": "hidden"})["determinize"] == "search"
    with pytest.raises(ValueError, match="determinize"):
        make_bot("baseline:determinize=sometimes")
    with pytest.raises(ValueError, match="rollout_mix"):
        make_bot("baseline:rollout_mix=2")


def test_the_specs_make_the_bots_without_a_game_and_play_matches(tmp_path):
    path = str(_net_file(tmp_path))
    assert isinstance(make_bot("baseline-policy"), BaselinePolicyBot)
    bot = make_bot("baseline:simulations=16,c_puct=2.0,seed=4")
    assert isinstance(bot, BaselineBot) and bot.options["simulations"] == 16 and bot.options["c_puct"] == 2.0
    with pytest.raises(ValueError, match="simulations"):
        make_bot("baseline:simulations=0")
    with pytest.raises(ValueError, match="bad options"):
        make_bot("baseline-policy:depth=3")
    r = tilecraft.play_match("azul", [f"baseline:simulations=8,path={path}", f"baseline-policy:path={path}"], seed=2)
    assert len(r.scores) == 2 and r.winners
    again = tilecraft.play_match("azul", [f"baseline:simulations=8,path={path}", f"baseline-policy:path={path}"],
                                 seed=2)
    assert again.actions == r.actions  # seeded: the same game


def test_a_network_pickles_and_the_bots_pickle(tmp_path):
    path = str(_net_file(tmp_path, value_bias=[0.3, -0.2]))
    net = baselines.load("azul", 2, path=path)
    back = pickle.loads(pickle.dumps(net))
    s = tilecraft.make("azul", seed=1)
    x = s.observation(0)[None]
    for a, b in zip(net(x, s.legal_action_mask()[None], [0]), back(x, s.legal_action_mask()[None], [0])):
        np.testing.assert_array_equal(a, b)
    bot = BaselineBot(simulations=8, path=path)
    bot.act(s)
    assert pickle.loads(pickle.dumps(bot)).act(s) == bot.act(s)


def test_load_is_cached_per_file(tmp_path):
    path = str(_net_file(tmp_path))
    assert baselines.load("azul", 2, path=path) is baselines.load("azul", 2, path=path)


def test_a_truncated_file_is_a_baseline_error_naming_it(tmp_path):
    path = _net_file(tmp_path)
    data = path.read_bytes()
    bad = tmp_path / "truncated.npz"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(BaselineError, match="truncated.npz"):
        baselines.load("azul", 2, path=str(bad))
    junk = tmp_path / "junk.npz"
    junk.write_text("not a network")
    with pytest.raises(BaselineError, match="junk.npz.*not a readable"):
        baselines.load("azul", 2, path=str(junk))
    with pytest.raises(BaselineError, match="no such file"):
        baselines.load("azul", 2, path=str(tmp_path / "missing.npz"))


def test_a_file_missing_an_array_or_its_metadata_is_refused(tmp_path):
    path = _net_file(tmp_path)
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    short = dict(arrays)
    del short["wv"]
    np.savez(tmp_path / "short.npz", **short)
    with pytest.raises(BaselineError, match="short.npz.*'wv' is missing"):
        baselines.load("azul", 2, path=str(tmp_path / "short.npz"))
    nometa = dict(arrays)
    del nometa["meta"]
    np.savez(tmp_path / "nometa.npz", **nometa)
    with pytest.raises(BaselineError, match="nometa.npz.*no 'meta'"):
        baselines.load("azul", 2, path=str(tmp_path / "nometa.npz"))
    wrong = dict(arrays)
    wrong["w1"] = np.zeros((3, 3), np.float16)
    np.savez(tmp_path / "wrong.npz", **wrong)
    with pytest.raises(BaselineError, match="wrong.npz.*'w1' has shape"):
        baselines.load("azul", 2, path=str(tmp_path / "wrong.npz"))


def test_another_game_player_count_or_layout_is_refused_with_what_differs(tmp_path):
    azul3 = _net_file(tmp_path, players=3, name="azul3.npz")
    with pytest.raises(BaselineError, match="azul3.npz: a network for 3 players, not 2"):
        baselines.load("azul", 2, path=str(azul3))
    castle = _net_file(tmp_path, game="castle", name="castle.npz")
    with pytest.raises(BaselineError, match="castle.npz: a network for 'castle', not 'azul'"):
        baselines.load("azul", 2, path=str(castle))
    stale = _net_file(tmp_path, name="stale.npz", observation_layout="azul/v0/0123456789abcdef")
    with pytest.raises(BaselineError, match="stale.npz: trained on observation layout azul/v0/0123456789abcdef.*"
                                            "changed since it was trained"):
        baselines.load("azul", 2, path=str(stale))


def test_gaudi_networks_are_per_mode(tmp_path):
    basic = _net_file(tmp_path, game="gaudi", mode="basic", name="gaudi-basic.npz")
    assert baselines.load("gaudi", 2, mode="basic", path=str(basic)).meta["mode"] == "basic"
    assert baselines.load("gaudi", 2, path=str(basic)).meta["mode"] == "basic"  # basic is 2-4 players' default
    with pytest.raises(BaselineError, match="mode 'basic', not 'expert'"):
        baselines.load("gaudi", 2, mode="expert", path=str(basic))
    with pytest.raises(BaselineError, match="azul has no modes"):
        baselines.load("azul", 2, mode="expert")


def test_an_unknown_configuration_lists_the_baselines_that_exist():
    shipped = baselines.available()
    with pytest.raises(BaselineError, match="no baseline for gaudi, 1 players, mode 'expert'; the shipped "
                                            "baselines are"):
        baselines.load("gaudi", 1)
    with pytest.raises(BaselineError, match="players must be one of 2, 3, 4"):
        baselines.load("azul", 5)
    with pytest.raises(BaselineError, match="unknown game"):
        baselines.load("chess")
    for a in shipped:
        assert a["size"] <= baselines.MAX_BYTES, a  # the 2 MB cap on every shipped file


def test_a_bot_for_a_configuration_without_a_baseline_says_so_on_its_first_move():
    bot = make_bot("baseline-policy")
    state = tilecraft.make("gaudi", players=1)
    with pytest.raises(BaselineError, match="no baseline for gaudi, 1 players"):
        bot.act(state)


SHIPPED = [("azul", 2, None), ("azul", 3, None), ("azul", 4, None), ("castle", 2, None), ("warsaw", 2, None),
           ("warsaw", 3, None), ("warsaw", 4, None),
           ("gaudi", 2, "basic"), ("gaudi", 3, "basic"), ("gaudi", 4, "basic")]


@pytest.mark.parametrize("game, players, mode", SHIPPED)
def test_the_shipped_networks_load_and_play_legal_moves(game, players, mode):
    net = baselines.load(game, players, mode)
    assert net.meta["game"] == game and players in net.meta["players"] and net.meta["mode"] == mode
    for key in ("command", "commit", "seed", "games", "rows", "observation_layout"):
        assert key in net.meta
    assert net.meta["command"].startswith(f"tilecraft train {game}")
    assert [a for a in baselines.available() if a["game"] == game and players in a["players"]]
    s = tilecraft.make(game, players=players, seed=11)
    bot = BaselinePolicyBot()
    for _ in range(6):
        while s.current_player() < 0 and not s.is_terminal():  # a chance node (explicit chance modes)
            s.apply(int(s.chance_outcomes()[0][0]))
        a = bot.act(s)
        assert s.legal_action_mask()[a]
        s.apply(a)


def test_every_shipped_file_is_listed_here():
    assert sorted((a["game"], p, a["mode"]) for a in baselines.available() for p in a["players"]) == sorted(SHIPPED)


def test_metadata_is_json_with_the_training_record(tmp_path):
    path = _net_file(tmp_path)
    with zipfile.ZipFile(path) as z:
        assert "meta.npy" in z.namelist()
    meta = baselines.load("azul", 2, path=str(path)).meta
    assert json.loads(json.dumps(meta)) == meta and meta["format"] == baselines.FORMAT


def test_self_play_takes_both_baseline_specs(tmp_path):
    path = str(_net_file(tmp_path, bias=-np.arange(300.0)))  # the policy prefers the lowest legal id
    d = tilecraft.self_play("azul", [f"baseline:simulations=8,path={path}", "greedy"], n_games=2, record=True)
    assert d["training"]["observation"].shape[1:] == (168,) and len(d["length"]) == 2
    p = tilecraft.self_play("azul", [f"baseline-policy:path={path}", "random"], n_games=2, seed=3, record=True)
    t = p["training"]
    assert t["policy"].shape == (int(sum(p["length"])), 300)
    # replaying each game: the policy seat always took the lowest legal id
    for g in range(2):
        s = tilecraft.make("azul", seed=int(p["state_seed"][g]))
        policy_seat = int(np.flatnonzero(p["seat_bot"][g] == 0)[0])
        for a in p["actions"][g]:
            if s.current_player() == policy_seat:
                assert a == int(s.legal_actions()[0])
            s.apply(a)
        assert s.is_terminal() and list(s.winners()) == list(np.flatnonzero(p["winners"][g]))
    with pytest.raises(ValueError, match="Python runner"):
        tilecraft.self_play("azul", [f"baseline-policy:path={path}"], n_games=1, threads=2)


def test_observation_layout_names_the_game_version_and_hash():
    a = tilecraft.make("azul", players=2, seed=1)
    b = tilecraft.make("azul", players=2, seed=2)
    b.apply(int(b.legal_actions()[0]))
    assert a.observation_layout() == b.observation_layout()  # a property of the configuration, not the position
    assert a.observation_layout().startswith("azul/v1/")
    layouts = {tilecraft.make(g, players=p).observation_layout() for g, p in
               (("azul", 2), ("azul", 3), ("azul", 4), ("castle", 2), ("warsaw", 2), ("gaudi", 2))}
    assert len(layouts) == 6  # another player count or game: another layout


@pytest.mark.train
def test_train_runs_end_to_end_and_resumes(tmp_path):
    out = tmp_path / "run"
    argv = ["azul", "--out", str(out), "--chunks", "1", "--games-per-chunk", "2", "--teacher", "mcts:iterations=20",
            "--epochs", "1", "--hidden", "16", "--eval-games", "0", "--quiet"]
    args = train.parser().parse_args(argv)
    first = train.run(args, argv)
    net = baselines.load("azul", 2, path=first["best"])
    assert net.meta["games"] == 2 and net.meta["rows"] > 0 and net.meta["command"].startswith("tilecraft train azul")
    assert (out / "data" / "teacher-0000.npz").exists()
    before = (out / "data" / "teacher-0000.npz").stat().st_mtime_ns
    train.run(train.parser().parse_args(argv), argv)  # done already: nothing is played again
    assert (out / "data" / "teacher-0000.npz").stat().st_mtime_ns == before
    other = train.parser().parse_args(argv[:-1] + ["--hidden", "32", "--quiet"])
    with pytest.raises(ValueError, match="other settings.*hidden"):
        train.run(other, argv)


@pytest.mark.train
def test_chunks_made_by_several_processes_are_the_chunks_one_process_makes(tmp_path):
    # --workers makes the teacher's chunks in processes of their own; a chunk's seed depends only on the
    # run's seed and the chunk's number, so the data is the same row for row. --teacher-only stops there.
    common = ["azul", "--chunks", "3", "--games-per-chunk", "2", "--teacher", "mcts:iterations=10", "--threads", "1",
              "--teacher-only", "--quiet"]
    paths = {}
    for workers in (1, 2):
        argv = common + ["--out", str(tmp_path / f"w{workers}"), "--workers", str(workers)]
        summary = train.run(train.parser().parse_args(argv), argv)
        assert summary["generations"] == 0 and summary["best"] is None and summary["chunks"] == 3
        assert not list((tmp_path / f"w{workers}").glob("net-*.npz"))  # no training
        paths[workers] = sorted((tmp_path / f"w{workers}" / "data").glob("teacher-*.npz"))
    assert [p.name for p in paths[2]] == ["teacher-0000.npz", "teacher-0001.npz", "teacher-0002.npz"]
    for one, two in zip(paths[1], paths[2]):
        with np.load(one) as a, np.load(two) as b:
            assert sorted(a.files) == sorted(b.files)
            for key in a.files:
                assert np.array_equal(a[key], b[key]), (one.name, key)
    # the chunks differ from each other (each has its own seed)
    with np.load(paths[2][0]) as a, np.load(paths[2][1]) as b:
        assert a["codes"].shape != b["codes"].shape or not np.array_equal(a["codes"], b["codes"])
    # a later run in the same folder must make the same data (the network's shape is its own)...
    other = [a if a != "mcts:iterations=10" else "mcts:iterations=11" for a in common] + ["--out", str(tmp_path / "w2")]
    with pytest.raises(ValueError, match="other settings.*teacher"):
        train.run(train.parser().parse_args(other), other)
    # ... and trains on them without playing them again
    before = [p.stat().st_mtime_ns for p in paths[2]]
    argv = common[:-2] + ["--out", str(tmp_path / "w2"), "--epochs", "1", "--hidden", "16", "--eval-games", "0",
                          "--hold-out", "0", "--quiet"]
    net = baselines.load("azul", 2, path=train.run(train.parser().parse_args(argv), argv)["best"])
    assert net.meta["games"] == 6
    assert [p.stat().st_mtime_ns for p in paths[2]] == before


def test_chunk_workers_end_when_the_run_is_killed(tmp_path):
    # A run killed outright (SIGKILL: no chance to clean up) must not leave its worker processes playing
    # on unseen (they did, until 2026-12-04). The workers are found through /proc's parent links.
    import signal
    import subprocess
    import sys

    if not pathlib.Path("/proc").is_dir():
        pytest.skip("needs /proc to find the workers")
    argv = [sys.executable, "-m", "tilecraft", "train", "azul", "--out", str(tmp_path / "r"), "--chunks", "4",
            "--games-per-chunk", "200", "--teacher", "mcts:iterations=2000", "--threads", "1", "--workers", "2",
            "--teacher-only", "--quiet"]
    run = subprocess.Popen(argv, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})

    def children() -> list:
        out = []
        for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == run.pid:
                out.append(int(stat.parent.name))
        return out

    deadline = time.monotonic() + 120
    workers: list = []
    while len(workers) < 2 and time.monotonic() < deadline:  # the pool's workers (and its resource tracker)
        time.sleep(0.2)
        workers = [pid for pid in children()
                   if b"spawn_main" in pathlib.Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert len(workers) == 2, "the run never started its two workers"
    run.send_signal(signal.SIGKILL)
    run.wait()
    deadline = time.monotonic() + 60  # generous: a worker looks for its parent every half second
    alive = list(workers)
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [pid for pid in alive if pathlib.Path(f"/proc/{pid}").exists()
                 and pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
    assert not alive, f"workers {alive} played on after their run was killed"
    assert not list((tmp_path / "r" / "data").glob("*.npz"))  # nothing finished, nothing written


def test_the_cli_lists_baselines_and_refuses_a_bad_training_run(capsys, tmp_path):
    from tilecraft import cli

    assert cli.main(["baselines"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("baseline searches with batch_size=8,c_puct=1.25,")
    assert out.splitlines()[2].split()[:3] == ["game", "players", "mode"]
    for a in baselines.available():
        assert a["path"] in out
    warsaw = next(line for line in out.splitlines() if line.endswith("warsaw-2p.npz"))
    assert "batch_size=1,simulations=400" in warsaw.split()  # that network's preset (presets.json)
    assert cli.main(["train", "azul", "--players", "5", "--out", str(tmp_path / "r")]) == 2
    assert "players" in capsys.readouterr().err
    assert cli.main(["train", "azul", "--chunks", "0", "--out", str(tmp_path / "r")]) == 2
    assert "--chunks must be an integer in 1..100000, got 0" in capsys.readouterr().err
    assert cli.main(["train", "azul", "--workers", "0", "--out", str(tmp_path / "r")]) == 2
    assert "--workers must be an integer in 1..256, got 0" in capsys.readouterr().err
    assert cli.main(["train", "azul", "--generations", "0", "--out", str(tmp_path / "r")]) == 2
    assert "--generations must be an integer in 1..10000, got 0" in capsys.readouterr().err


def test_a_value_trunk_of_its_own_is_read_and_used(tmp_path):
    state = tilecraft.make("azul", seed=4)
    arrays = model.init(168, [8], 300, 2, seed=2, value_hidden=[5, 3])
    rng = np.random.default_rng(0)
    arrays = {k: rng.normal(size=v.shape).astype(np.float32) * 0.1 for k, v in arrays.items()}
    arrays["shift"] = rng.normal(size=168).astype(np.float32)
    arrays["scale"] = rng.uniform(0.5, 2, size=168).astype(np.float32)
    meta = dict(game="azul", players=[2], mode=None, observation_layout=state.observation_layout(),
                observation_size=168, num_actions=300, value_seats=2, hidden=[8], depth=1, value_hidden=[5, 3])
    path = train.export(arrays, meta, tmp_path / "vt.npz")
    net = baselines.load("azul", 2, path=str(path))
    a = {k: v.astype(np.float16).astype(np.float64) if k not in ("shift", "scale") else v.astype(np.float64)
         for k, v in arrays.items()}
    x = (state.observation(1).astype(np.float64) - a["shift"]) * a["scale"]
    h = np.maximum(x @ a["w0"] + a["b0"], 0)
    hv = np.maximum(np.maximum(x @ a["vw0"] + a["vb0"], 0) @ a["vw1"] + a["vb1"], 0)
    v = hv @ a["wv"] + a["bv"]
    v = np.exp(v - v.max()) / np.exp(v - v.max()).sum()
    logits, values = net(state.observation(1)[None], state.legal_action_mask()[None], [1])
    np.testing.assert_allclose(logits[0], h @ a["wp"] + a["bp"], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(values[0], v[::-1], rtol=1e-4, atol=1e-5)  # seat 1's row: rolled to absolute seats
    bad = dict(meta, value_hidden=[4, 3])
    train.export(arrays, bad, tmp_path / "bad.npz")
    with pytest.raises(BaselineError, match="'vw0' has shape"):
        baselines.load("azul", 2, path=str(tmp_path / "bad.npz"))


def _grouped_net(tmp_path, groups, name="grouped.npz", **meta_over):
    """A Gaudí network with feature groups and random weights, and its float64 arrays."""
    state = tilecraft.make("gaudi", seed=4)
    n_in, n_act = int(np.prod(state.observation_shape())), state.num_distinct_actions()
    arrays = model.init(n_in, [6], n_act, 2, seed=2, groups=groups)
    rng = np.random.default_rng(0)
    arrays = {k: rng.normal(size=v.shape).astype(np.float32) * 0.1 for k, v in arrays.items()}
    arrays["shift"] = rng.normal(size=n_in).astype(np.float32) * 0.1
    arrays["scale"] = rng.uniform(0.5, 2, size=n_in).astype(np.float32)
    meta = dict(game="gaudi", players=[2], mode="basic", observation_layout=state.observation_layout(),
                observation_size=n_in, num_actions=n_act, value_seats=2, hidden=[6], depth=1, groups=groups)
    meta.update(meta_over)
    path = train.export(arrays, meta, tmp_path / name)
    a = {k: v.astype(np.float16).astype(np.float64) if k not in ("shift", "scale") else v.astype(np.float64)
         for k, v in arrays.items()}
    return state, path, a


def test_feature_groups_share_one_encoder_per_group(tmp_path):
    # two groups on Gaudí's observation: 3 blocks of 2 features lying 5 apart (block k: features
    # 10 + k and 15 + k), and 2 blocks of 4 contiguous features (100-103, 104-107)
    groups = [dict(offset=10, count=3, width=2, block_stride=1, feature_stride=5, embed=2),
              dict(offset=100, count=2, width=4, block_stride=4, feature_stride=1, embed=3)]
    state, path, a = _grouped_net(tmp_path, groups)
    net = baselines.load("gaudi", 2, path=str(path))
    obs = state.observation(0).astype(np.float64)
    x = (obs - a["shift"]) * a["scale"]
    in_groups = {10, 11, 12, 15, 16, 17} | set(range(100, 108))
    rest = [i for i in range(len(x)) if i not in in_groups]
    enc = [x[rest]]
    for k in range(3):  # group 0, block by block, each through the same 2 x 2 encoder
        enc.append(np.maximum(np.array([x[10 + k], x[15 + k]]) @ a["gw0"] + a["gb0"], 0))
    for k in range(2):
        enc.append(np.maximum(x[100 + 4 * k:104 + 4 * k] @ a["gw1"] + a["gb1"], 0))
    h = np.maximum(np.concatenate(enc) @ a["w0"] + a["b0"], 0)
    assert a["w0"].shape == (len(rest) + 3 * 2 + 2 * 3, 6)
    v = h @ a["wv"] + a["bv"]
    v = np.exp(v - v.max()) / np.exp(v - v.max()).sum()
    logits, values = net(obs[None], state.legal_action_mask()[None], [0])
    np.testing.assert_allclose(logits[0], h @ a["wp"] + a["bp"], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(values[0], v, rtol=1e-4, atol=1e-5)
    again = pickle.loads(pickle.dumps(net))
    np.testing.assert_array_equal(again(obs[None], state.legal_action_mask()[None], [0])[0], logits)


@pytest.mark.parametrize("groups, message", [
    ([dict(offset=10, count=3, width=2, block_stride=1, feature_stride=2, embed=2)], r"groups\[0\] names a feature twice"),
    ([dict(offset=0, count=2, width=2, block_stride=2, feature_stride=1, embed=2),
      dict(offset=3, count=1, width=2, block_stride=1, feature_stride=1, embed=2)], r"groups\[1\] names a feature twice"),
    ([dict(offset=3360, count=2, width=2, block_stride=2, feature_stride=1, embed=2)], r"groups\[0\] reaches feature 3363"),
    ([dict(offset=0, count=2, width=2, block_stride=2, feature_stride=1)], r"groups\[0\] lacks embed"),
    ([dict(offset=0, count=0, width=2, block_stride=2, feature_stride=1, embed=2)], r"groups\[0\]: offset must"),
    ("cells", "groups must be a list"),
])
def test_malformed_feature_groups_are_refused_with_their_place(tmp_path, groups, message):
    state = tilecraft.make("gaudi", seed=4)
    n_in = int(np.prod(state.observation_shape()))
    good = [dict(offset=0, count=2, width=2, block_stride=2, feature_stride=1, embed=2)]
    _, path, _ = _grouped_net(tmp_path, good)  # weights for a well-formed group, metadata with a bad one
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files if k != "meta"}
        meta = json.loads(str(z["meta"]))
    meta["groups"] = groups
    baselines.save(str(tmp_path / "bad.npz"), arrays, meta)
    with pytest.raises(BaselineError, match="bad.npz: its metadata's " + message):
        baselines.load("gaudi", 2, path=str(tmp_path / "bad.npz"))
    assert n_in == 3362


def test_a_group_encoder_of_the_wrong_shape_is_refused(tmp_path):
    groups = [dict(offset=0, count=2, width=2, block_stride=2, feature_stride=1, embed=2)]
    _, path, _ = _grouped_net(tmp_path, groups)
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files if k != "meta"}
        meta = json.loads(str(z["meta"]))
    meta["groups"] = [dict(groups[0], embed=3)]
    baselines.save(str(tmp_path / "bad.npz"), arrays, meta)
    with pytest.raises(BaselineError, match="bad.npz: array 'gw0' has shape \\(2, 2\\); the metadata says \\(2, 3\\)"):
        baselines.load("gaudi", 2, path=str(tmp_path / "bad.npz"))


@pytest.mark.parametrize("game, players", [("castle", 2), ("warsaw", 4), ("gaudi", 3)])
def test_the_declared_feature_groups_cover_the_documented_blocks(game, players):
    """Each game's groups (GameSpec.observation_groups) are blocks of its observation as its docs lay
    it out; checked here on positions where the block's meaning shows."""
    from tilecraft.games import game_spec

    state = tilecraft.make(game, players=players, seed=7)
    groups = game_spec(game).observation_groups(state)
    indices, rest = model.group_indices(groups, int(np.prod(state.observation_shape())))
    obs = state.observation(0)
    if game == "castle":  # plane 0 (interior space) of every cell, then the tail of 119 values
        assert indices[0].shape == (90, 56) and list(rest) == list(range(56 * 90, 56 * 90 + 119))
        interior = obs[indices[0][:, 0]]
        assert interior.sum() > 0 and set(np.unique(interior)) <= {0.0, 1.0}
        placed = obs[indices[0][:, 1]].sum()
        while obs[indices[0][:, 1]].sum() == placed:  # play until a tile is placed: plane 1 of one more cell
            state.apply(int(state.legal_actions()[0]))
            obs = state.observation(state.current_player() if not state.is_terminal() else 0)
        assert obs[indices[0][:, 1]].sum() == placed + 1
        assert (obs[indices[0][:, 1]] <= obs[indices[0][:, 0]]).all()  # on an interior space
    elif game == "warsaw":  # 67 global values, a card's 14 planes, then one block per seat
        assert list(rest) == list(range(67)) and indices[0].shape == (112, 14) and indices[1].shape == (4, 565)
        own_hand = obs[indices[0][:, 0]]  # plane 0: the observer's hand: 4 cards dealt (WA-DRAFT-1)
        assert own_hand.sum() == 4
        coins = obs[indices[1][:, 0]]  # a seat's first value: its coins, 6 each at the start (WA-SETUP-6)
        assert list(coins) == [6, 6, 6, 6]
    else:  # the cards' 12 locations each, one block per seat (4 blocks, the 4th empty with 3 players)
        cards, seats = indices
        assert cards.shape == (99, 12) and seats.shape == (4, 266)
        assert (obs[cards].sum(axis=1) <= 1).all()  # a card is in one place (or unknown, location 0)
        assert obs[seats[3]].sum() == 0 and obs[seats[0]].sum() > 0


@pytest.mark.train
def test_train_uses_the_games_feature_groups_unless_told_not_to(tmp_path):
    from tilecraft.games import game_spec

    argv = ["gaudi", "--out", str(tmp_path / "g"), "--chunks", "1", "--games-per-chunk", "1", "--teacher",
            "mcts:iterations=10", "--epochs", "1", "--hidden", "8", "--value-hidden", "", "--eval-games", "0",
            "--quiet"]
    net = baselines.load("gaudi", 2, path=train.run(train.parser().parse_args(argv), argv)["best"])
    assert net.meta["groups"] == game_spec("gaudi").observation_groups(tilecraft.make("gaudi"))
    assert net.arrays["gw1"].shape == (266, 64) and net.arrays["w0"].shape == (1110 + 99 * 8 + 4 * 64, 8)
    flat = ["--out", str(tmp_path / "f"), "--groups", "none"]
    net = baselines.load("gaudi", 2, path=train.run(train.parser().parse_args(argv[:1] + flat + argv[3:]), argv)["best"])
    assert net.meta["groups"] == [] and net.arrays["w0"].shape == (3362, 8)



@pytest.mark.train
@pytest.mark.parametrize("value_weight, kept", [(1.0, 2), (0.1, 6), (0.0, 8)])
def test_a_shared_trunk_is_picked_on_the_loss_it_trains_on(monkeypatch, value_weight, kept):
    # The held-out check keeps the weights with the lowest held-out policy loss plus value_weight times
    # the value's: the loss the trunk trains on. Scripted held-out losses: the policy keeps improving
    # while the value, memorising, gets worse after the third check. Sums per check, weight 1:
    # 2.00, 1.80, 1.70 (the best), 1.75, 1.80, ...; weight 0.1: ..., 1.17, 1.14, 1.135 (the seventh,
    # the best), 1.19, ...; weight 0: the policy's best, the ninth.
    pol = [1.40, 1.30, 1.20, 1.15, 1.10, 1.06, 1.045, 1.05, 1.04, 1.045]
    vals = [0.60, 0.50, 0.50, 0.60, 0.70, 0.80, 0.90, 1.40, 1.80, 2.00]
    calls = iter(range(10))

    def scripted(arrays, data, codec, index=None):
        i = next(calls)
        return {"val_policy_loss": pol[i], "val_value_loss": vals[i], "val_margin_loss": 0.0, "val_top1": 0.0}

    monkeypatch.setattr(fitting, "held_out_losses", scripted)
    rng = np.random.default_rng(3)
    n = 40
    data = dict(codes=rng.integers(0, 256, size=(n, 6)).astype(np.uint8), mask=np.ones((n, 3), bool),
                policy=np.full((n, 3), 1 / 3, np.float16), value=np.full((n, 2), 0.5, np.float32),
                margin=np.zeros((n, 2), np.float32))
    codec = (np.full(6, 255.0, np.float32), np.zeros(6, np.float32))
    _, stats = train.fit(model.init(6, [4], 3, 2, seed=1), data, codec, epochs=10, batch=4, val=data,
                         value_weight=value_weight)
    assert stats["steps"] == 100 and stats["step"] == (kept + 1) * 10
    assert stats["val_policy_loss"] == pol[kept] and stats["val_value_loss"] == vals[kept]
