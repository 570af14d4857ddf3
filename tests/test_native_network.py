"""tilecraft.baselines.Network.native(): the network's forward pass in C++ (tilecraft._core.MlpNet),
which PUCT searches and self-play use by themselves for a Network so that their leaves never call
Python. It must give the numpy forward's outputs, leave the searches' results as they were, check
what it is given, and be safe to share between threads."""
import pickle
import threading

import numpy as np
import pytest

import tilecraft
from tilecraft import baselines, PUCTBot
from tilecraft.bots import BaselineBot, GreedyBot
from tilecraft.baselines import Network


def _tiny(value_trunk=False):
    """A hand-sized network: 7 features, features 0 and 6 in no group, features 1-4 two blocks of a
    group (width 2, embed 3) and feature 5 a block of another (width 1, embed 2); a trunk of one
    layer of 4, 5 actions, 2 seats; normalisation that is not the identity."""
    rng = np.random.default_rng(7)
    a = dict(shift=rng.normal(size=7).astype(np.float32), scale=rng.uniform(0.5, 2, 7).astype(np.float32),
             gw0=rng.normal(size=(2, 3)).astype(np.float32), gb0=rng.normal(size=3).astype(np.float32),
             gw1=rng.normal(size=(1, 2)).astype(np.float32), gb1=rng.normal(size=2).astype(np.float32),
             w0=rng.normal(size=(2 + 6 + 2, 4)).astype(np.float32), b0=rng.normal(size=4).astype(np.float32),
             wp=rng.normal(size=(4, 5)).astype(np.float32), bp=rng.normal(size=5).astype(np.float32),
             wv=rng.normal(size=(3 if value_trunk else 4, 2)).astype(np.float32),
             bv=rng.normal(size=2).astype(np.float32))
    meta = dict(value_seats=2, num_actions=5, observation_size=7, depth=1, observation_layout="test",
                groups=[dict(offset=1, count=2, width=2, embed=3, block_stride=2, feature_stride=1),
                        dict(offset=5, count=1, width=1, embed=2, block_stride=1, feature_stride=1)])
    if value_trunk:
        a.update(vw0=rng.normal(size=(10, 3)).astype(np.float32), vb0=rng.normal(size=3).astype(np.float32))
        meta["value_hidden"] = [3]
    return Network(a, meta), a


def _by_hand(a, x, seat, value_trunk=False):
    """The network's definition written out with Python floats, one term at a time."""
    relu = lambda v: max(v, 0.0)  # noqa: E731
    z = [(float(x[i]) - float(a["shift"][i])) * float(a["scale"][i]) for i in range(7)]
    inp = [z[0], z[6]]
    for block in ([z[1], z[2]], [z[3], z[4]]):
        inp += [relu(float(a["gb0"][e]) + sum(block[j] * float(a["gw0"][j, e]) for j in range(2))) for e in range(3)]
    inp += [relu(float(a["gb1"][e]) + z[5] * float(a["gw1"][0, e])) for e in range(2)]
    h = [relu(float(a["b0"][k]) + sum(inp[i] * float(a["w0"][i, k]) for i in range(10))) for k in range(4)]
    logits = [float(a["bp"][k]) + sum(h[i] * float(a["wp"][i, k]) for i in range(4)) for k in range(5)]
    hv = h
    if value_trunk:
        hv = [relu(float(a["vb0"][k]) + sum(inp[i] * float(a["vw0"][i, k]) for i in range(10))) for k in range(3)]
    v = [float(a["bv"][k]) + sum(hv[i] * float(a["wv"][i, k]) for i in range(len(hv))) for k in range(2)]
    e = np.exp(np.array(v) - max(v))
    rel = e / e.sum()
    out = np.empty(2)
    for k in range(2):
        out[(seat + k) % 2] = rel[k]  # relative to the observer -> absolute seats
    return np.array(logits), out


@pytest.mark.parametrize("value_trunk", [False, True])
def test_native_forward_is_the_networks_definition(value_trunk):
    net, a = _tiny(value_trunk)
    rng = np.random.default_rng(3)
    x = rng.normal(size=(4, 7)).astype(np.float32)
    x[1, [0, 2, 5]] = 0.0  # zeros are skipped inside: they must still count as (0 - shift) * scale
    x[2] = 0.0
    seats = np.array([0, 1, 1, 0], np.int32)
    mask = np.ones((4, 5), bool)
    logits, values = net.native()(x, mask, seats)
    for r in range(4):
        want_logits, want_values = _by_hand(a, x[r], seats[r], value_trunk)
        np.testing.assert_allclose(logits[r], want_logits, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(values[r], want_values, rtol=1e-5, atol=1e-6)
    # and the numpy forward agrees with both
    l2, v2 = net(x, mask, seats)
    np.testing.assert_allclose(logits, l2, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values, v2, rtol=1e-5, atol=1e-6)


def _positions(game, players, n=24):
    """Observations, legal masks and seats from a greedy game (every seat, early to late)."""
    s = tilecraft.make(game, players=players, seed=11)
    bot = GreedyBot(seed=2)
    obs, masks, seats, k = [], [], [], 0
    while not s.is_terminal() and len(obs) < n:
        if s.current_player() < 0:
            s.apply(s.legal_actions()[0])
            continue
        me = s.current_player()
        if k % 2 == 0:
            obs.append(np.asarray(s.observation(me), np.float32).reshape(-1))
            masks.append(np.asarray(s.legal_action_mask(), bool))
            seats.append(me)
        s.apply(bot.act(s))
        k += 1
    return np.array(obs), np.array(masks), np.array(seats, np.int32)


@pytest.mark.parametrize("game,players", [("azul", 2), ("azul", 3), ("azul", 4), ("castle", 2), ("warsaw", 2),
                                          ("warsaw", 3), ("warsaw", 4), ("gaudi", 2), ("gaudi", 3), ("gaudi", 4)])
def test_native_forward_of_every_shipped_layout_matches_numpy(game, players):
    net = baselines.load(game, players)
    obs, masks, seats = _positions(game, players)
    l1, v1 = net(obs, masks, seats)
    l2, v2 = net.native()(obs, masks, seats)
    np.testing.assert_allclose(l2, l1, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(v2, v1, rtol=1e-4, atol=1e-5)
    assert net.native() is net.native()  # built once


def test_a_search_with_a_network_runs_in_cpp_and_finds_what_the_python_path_finds():
    net = baselines.load("gaudi", 2)
    s = tilecraft.make("gaudi", players=2, seed=4)
    for _ in range(6):
        s.apply(GreedyBot(seed=1).act(s))
    native = PUCTBot(net, simulations=120, batch_size=1, rollout_mix=1.0, prior_heuristic=2.0, seed=5)
    # the same network through the Python evaluator protocol (its legal logits are the same floats)
    through_python = PUCTBot(lambda o, m, p: net.native()(o, m, p), simulations=120, batch_size=1,
                             rollout_mix=1.0, prior_heuristic=2.0, seed=5)
    r1, r2 = native.search(s), through_python.search(s)
    assert r1["action"] == r2["action"]
    np.testing.assert_array_equal(r1["visits"], r2["visits"])
    assert r1["visits"].sum() == 120

    class NoPython(Network):  # a Network whose Python forward must not be reached
        def __call__(self, *args):
            raise AssertionError("the search called the network through Python")

    quiet = NoPython(net.arrays, net.meta)
    r3 = PUCTBot(quiet, simulations=120, batch_size=1, rollout_mix=1.0, prior_heuristic=2.0, seed=5).search(s)
    np.testing.assert_array_equal(r3["visits"], r1["visits"])


def test_self_play_with_a_grouped_network_evaluates_it_in_cpp_with_the_same_games():
    from tilecraft.puct import native_evaluator

    net = baselines.load("gaudi", 2)
    kw = dict(simulations=16, batch_size=4, rollout_mix=1.0)
    a = tilecraft.self_play("gaudi", [PUCTBot(net, **kw)] * 2, n_games=2, seed=9, concurrent_games=2)
    b = tilecraft.self_play("gaudi", [PUCTBot(lambda o, m, p: net.native()(o, m, p), **kw)] * 2, n_games=2, seed=9,
                            concurrent_games=2)
    assert [list(x) for x in a["actions"]] == [list(x) for x in b["actions"]]
    assert a["stats"]["evaluator_calls"] > 0 and a["stats"]["seconds_evaluator"] > 0
    # batched self-play keeps a dense network (no feature groups: Azul's) on numpy, one matrix product
    # a layer; a search of one game evaluates it in C++
    azul, s = baselines.load("azul", 2), tilecraft.make("azul", players=2)
    assert native_evaluator(azul, s, batched=True) is None and native_evaluator(azul, s) is azul.native()
    assert native_evaluator(net, tilecraft.make("gaudi", players=2), batched=True) is net.native()


def test_a_network_for_another_game_is_not_taken_natively_and_fails_as_before():
    net = baselines.load("azul", 2)
    s = tilecraft.make("castle", players=2)
    from tilecraft.puct import native_evaluator, EvaluatorError
    assert native_evaluator(net, s) is None
    assert native_evaluator(net, tilecraft.make("azul", players=2), values="returns") is None
    with pytest.raises(EvaluatorError, match="features"):
        PUCTBot(net, simulations=4).act(s)


def test_mlpnet_checks_what_it_is_given():
    net, a = _tiny()
    good = net._native_arrays()
    with pytest.raises(ValueError, match="policy head gives 5 logits for 6 actions"):
        tilecraft._core.MlpNet(**dict(good, num_actions=6))
    with pytest.raises(ValueError, match="feature 9"):
        tilecraft._core.MlpNet(**dict(good, rest=np.array([0, 9], np.int32)))
    with pytest.raises(ValueError, match="used twice"):
        tilecraft._core.MlpNet(**dict(good, rest=np.array([0, 1], np.int32)))
    with pytest.raises(ValueError, match="trunk layer 0 takes 10 inputs; the layer before gives 9"):
        tilecraft._core.MlpNet(**dict(good, rest=np.array([0], np.int32)))
    with pytest.raises(ValueError, match="value head gives 2 values for 3 players"):
        tilecraft._core.MlpNet(**dict(good, players=3))
    mlp = net.native()
    x = np.zeros((2, 7), np.float32)
    with pytest.raises(ValueError, match="7 features, 5 mask entries"):
        mlp(np.zeros((2, 6), np.float32), np.ones((2, 5), bool), np.zeros(2, np.int32))
    with pytest.raises(ValueError, match="seat 2 is not one of the 2 players"):
        mlp(x, np.ones((2, 5), bool), np.array([0, 2], np.int32))
    with pytest.raises(TypeError, match="pickle"):
        pickle.dumps(mlp)
    # the Network still pickles (as its arrays), and builds its native form again where it lands
    again = pickle.loads(pickle.dumps(net))
    np.testing.assert_array_equal(again.native()(x, np.ones((2, 5), bool), np.zeros(2, np.int32))[0],
                                  mlp(x, np.ones((2, 5), bool), np.zeros(2, np.int32))[0])


def test_one_native_network_serves_several_threads_at_once():
    net = baselines.load("castle", 2)
    obs, masks, seats = _positions("castle", 2, n=16)
    want = net.native()(obs, masks, seats)
    got, errors = [None] * 4, []

    def work(i):
        try:
            for _ in range(5):
                got[i] = net.native()(obs, masks, seats)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for g in got:
        np.testing.assert_array_equal(g[0], want[0])
        np.testing.assert_array_equal(g[1], want[1])


def test_baseline_bot_is_deterministic_with_the_native_network():
    s = tilecraft.make("castle", players=2, seed=2)
    a = BaselineBot(simulations=40, seed=3).search(s)
    b = BaselineBot(simulations=40, seed=3).search(s)
    assert a["action"] == b["action"]
    np.testing.assert_array_equal(a["visits"], b["visits"])
