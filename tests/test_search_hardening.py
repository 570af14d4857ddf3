"""Issue 45 (hardening, third pass), the search side: PUCT's priors never overflow, whatever finite
numbers its options, its evaluator or its network give it; what cannot be used is an error that
says what was wrong (EvaluatorError, or a ValueError naming the option and its range, checked by
the C++ configuration itself, for bots and for a network file's settings alike); the C++ network
refuses seats it would misread; random_playouts never zero-fills gigabytes before it can stop.

Each test here failed on the code before the fix: the interpreter died (SIGSEGV, "double free or
corruption"), an option was accepted and failed later with pybind11's "Unable to cast", or a seat
of 2**32 was read as seat 0."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tilecraft
from tilecraft import EvaluatorError, MCTSBot, PUCTBot, baselines
from tilecraft.bots import make_bot


# every way a PUCT search turns logits into priors: closed and open loop, on the chance tree, several trees
MODES = [dict(determinize="search"), dict(determinize="iteration"), dict(determinize="hidden"),
         dict(determinize="hidden-iteration"), dict(worlds=4), dict(worlds=4, determinize="iteration"),
         dict(gumbel=True)]
EVAL_SCALE_RANGE = r"eval_scale must be in \[0\.001, 1e\+06\]"


def _env():
    """The environment of a child interpreter that imports the tilecraft this test imports (a source
    checkout's python/ folder, or the installed package's site-packages)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(tilecraft.__file__)))
    return dict(os.environ, PYTHONPATH=os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]))


@pytest.mark.parametrize("make", [
    lambda: PUCTBot(None, eval_scale=5e-324, prior_heuristic=1, determinize="iteration"),
    lambda: make_bot("puct:eval_scale=5e-324,prior_heuristic=1,determinize=iteration"),
    lambda: make_bot("baseline:eval_scale=5e-324,prior_heuristic=1"),
    lambda: MCTSBot(eval_scale=5e-324),
    lambda: make_bot("ismcts:eval_scale=1e-300"),
    lambda: PUCTBot(None, eval_scale=2e6),
])
def test_an_eval_scale_that_makes_the_softmax_meaningless_is_refused_with_its_range(make):
    """1 / 5e-324 is infinite: the heuristic's softmax was NaN and the open-loop search crashed."""
    with pytest.raises(ValueError, match=EVAL_SCALE_RANGE):
        make()


def test_the_cli_reports_the_bad_option_instead_of_dying():
    """The issue's reproduction: `tilecraft play` with these options exited with SIGSEGV (139)."""
    out = subprocess.run([sys.executable, "-m", "tilecraft", "play", "azul", "--bots",
                          "puct:eval_scale=5e-324,prior_heuristic=1,determinize=iteration,random"],
                         capture_output=True, text=True, env=_env(), timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode > 0, out
    assert "eval_scale must be in [0.001, 1e+06]" in out.stderr


@pytest.mark.parametrize("options", [
    dict(c_puct=1e308), dict(root_noise=(1e300, 0.25)), dict(rollout_depth=2**31), dict(rollout_depth=2**40),
    dict(simulations=10**12), dict(gumbel_actions=2**40), dict(batch_size=True),
])
def test_options_out_of_range_are_refused_when_the_bot_is_made(options):
    name = next(k for k in options if k not in ("gumbel",))
    name = {"root_noise": "noise_alpha"}.get(name, name)
    with pytest.raises(ValueError, match=f"PUCTBot: {name}"):
        PUCTBot(None, **options)


@pytest.mark.parametrize("options", [dict(gumbel_c_visit=1e308), dict(gumbel_c_scale=1e300)])
def test_the_gumbel_constants_are_bounded_where_sigma_stays_finite(options):
    """sigma(q) = (c_visit + max N) * c_scale * q: 1e308 * 1e300 is infinite, and inf - inf is NaN in
    the improved policy. The C++ configuration (self-play's PUCT bots take these) refuses them."""
    (name,) = options
    with pytest.raises(ValueError, match=f"puct: {name} must be in \\[0, 1e\\+06\\], got "):
        tilecraft._core.check_puct_options(gumbel=True, **options)


def _huge_logits(num_actions, players=2):
    """Logits of 3e38 (finite in float32) on the even action ids and 0 on the odd ones: over a prior
    temperature of 0.5 they are 6e38, past float32's range (where they became inf - inf = NaN)."""
    def evaluate(observations, legal_mask, seats):
        logits = np.zeros((len(seats), num_actions), np.float32)
        logits[:, ::2] = 3e38
        return logits, np.full((len(seats), players), 1.0 / players, np.float32)
    return evaluate


@pytest.mark.parametrize("mode", MODES, ids=lambda m: ",".join(f"{k}={v}" for k, v in m.items()))
@pytest.mark.parametrize("heuristic", [0.0, 1.0])
def test_huge_finite_logits_give_the_softmax_of_their_values(mode, heuristic):
    """softmax(z / 0.5) with z = 3e38 on the even ids and 0 on the odd ones: e^(-6e38) is 0, so the
    legal even ids share the prior equally and the odd ones get none (a heuristic bias of at most a
    few points divided by eval_scale does not move 6e38 in double). Before: SIGSEGV or NaN priors."""
    state = tilecraft.make("azul", seed=1)
    bot = PUCTBot(_huge_logits(state.num_distinct_actions()), prior_temperature=0.5, simulations=64,
                  prior_heuristic=heuristic, **mode)
    result = bot.search(state)
    legal = state.legal_actions()
    assert int(result["action"]) in set(legal.tolist())
    if mode.get("gumbel"):
        return  # the Gumbel root reports its improved policy; its prior is the same softmax (checked above)
    prior = result["prior"][legal]
    even = legal % 2 == 0
    assert np.isfinite(prior).all()
    np.testing.assert_allclose(prior[even], 1.0 / even.sum(), rtol=1e-6)
    assert (prior[~even] == 0).all()


@pytest.fixture(scope="module")
def azul_network():
    return baselines.load("azul", players=2)


def _overflowing_network(net, tmp_path):
    """The shipped Azul network with every weight times 3e37: float32 holds them (they pass the file's
    finite check) but the layers' sums overflow to inf, and the value softmax to NaN."""
    arrays = {k: (v.astype(np.float32) * np.float32(3e37) if k.startswith(("w", "vw")) else v)
              for k, v in net.arrays.items()}
    path = tmp_path / "overflow.npz"
    baselines.save(str(path), arrays, net.meta, dtype=np.float32)
    return baselines.load("azul", players=2, path=str(path))


@pytest.mark.parametrize("native", [True, False])
def test_a_network_whose_sums_overflow_is_an_evaluator_error(azul_network, tmp_path, native):
    """Through the C++ forward pass (a Network's native form, which skipped the Python checks) and
    through the Python one alike: an EvaluatorError naming what was not finite, never a crash."""
    net = _overflowing_network(azul_network, tmp_path)
    evaluator = net if native else (lambda o, m, p: net(o, m, p))
    state = tilecraft.make("azul", seed=3)
    for mode in (dict(determinize="iteration"), dict(worlds=2), dict(determinize="search")):
        with pytest.raises(EvaluatorError, match="non-finite"):
            PUCTBot(evaluator, simulations=16, **mode).act(state)


@pytest.mark.parametrize("search, key", [
    (dict(eval_scale=5e-324, prior_heuristic=1), "eval_scale"),
    (dict(simulations=10**12), "simulations"),
    (dict(rollout_depth=2**40), "rollout_depth"),
    (dict(rollout_depth=2**31), "rollout_depth"),
    (dict(c_puct=1e300), "c_puct"),
])
def test_a_presets_search_settings_go_through_the_same_check(tmp_path, search, key):
    """A network file's settings were accepted (simulations=10**12) or failed with pybind11's "Unable
    to cast" (rollout_depth=2**40). Search settings now live in the presets file, whose every
    setting goes through the bots' own check (C++): an error naming the file, the JSON path and the key."""
    import json

    from tilecraft import presets

    data = json.loads(presets.PATH.read_text())
    data["baseline"]["networks"][0]["search"].update(search)
    path = tmp_path / "presets.json"
    path.write_text(json.dumps(data))
    with pytest.raises(presets.PresetError, match=rf"presets.json: \$\.baseline\.networks\[0\]\.search\.{key}: .*{key}"):
        presets.load(str(path))


def test_mlpnet_refuses_a_seat_it_would_misread(azul_network):
    """2**32 as int32 is 0: the network computed seat 0's values for it."""
    mlp = azul_network.native()
    state = tilecraft.make("azul", seed=1)
    obs, mask = state.observation(0)[None], state.legal_action_mask()[None]
    for seat in (2**32, 2**63 - 1, -1, 2):
        with pytest.raises(ValueError, match=f"seat {seat} is not one of the 2 players"):
            mlp(obs, mask, np.array([seat], np.int64))
    with pytest.raises(ValueError, match="players must be integer seats"):
        mlp(obs, mask, np.array([0.0]))
    np.testing.assert_array_equal(mlp(obs, mask, np.array([1], np.uint64))[1], mlp(obs, mask, [1])[1])


def test_mlpnet_takes_layers_as_tuples_or_lists_and_names_anything_else(azul_network):
    """A layer given as a list raised SystemError (read as a tuple); now lists are layers too, and
    anything else is a ValueError naming the layer."""
    args = azul_network._native_arrays()
    as_lists = dict(args, trunk=[list(layer) for layer in args["trunk"]], policy=list(args["policy"]),
                    value=list(args["value"]))
    state = tilecraft.make("azul", seed=2)
    x, m = state.observation(0)[None], state.legal_action_mask()[None]
    a, b = tilecraft._core.MlpNet(**args)(x, m, [0]), tilecraft._core.MlpNet(**as_lists)(x, m, [0])
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    with pytest.raises(ValueError, match="trunk layer 0 must be a tuple \\(weights, bias\\), got dict"):
        tilecraft._core.MlpNet(**dict(args, trunk=[{"w": 1}]))
    with pytest.raises(ValueError, match="policy head must be a tuple \\(weights, bias\\)"):
        tilecraft._core.MlpNet(**dict(args, policy=tuple(args["policy"]) + (1,)))


def test_random_playouts_refuses_results_larger_than_the_machine():
    """2**40 games' results (scores, returns, winners, lengths) are tens of terabytes: refused before
    anything is allocated, with the sizes, instead of a MemoryError (or a machine swapping)."""
    with pytest.raises(ValueError, match="random_playouts: 1099511627776 games need .* GiB for their results; "
                                         "this machine has .* GiB"):
        tilecraft.random_playouts("azul", 2**40)


def test_random_playouts_allocates_nothing_it_has_not_played_before_it_stops():
    """random_playouts(n=10**8) zero-filled about 3.8 GB of results before it first looked for a stop,
    so Ctrl-C landed 6-10 s late. Now the results' pages are touched only by the games: stopped at its
    first poll, the process's peak memory grows by far less than the results' size (measured in a
    fresh interpreter: its peak resident size, not a time)."""
    code = textwrap.dedent("""
        import resource, threading
        import tilecraft
        from tilecraft._stop import Stopped, stop_when
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        stop = threading.Event()
        stop.set()
        try:
            with stop_when(stop):
                tilecraft.random_playouts("azul", 10**8, threads=1)
        except Stopped:
            pass
        else:
            raise SystemExit("not stopped")
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=300)
    assert out.returncode == 0, out.stderr
    grown_kib = int(out.stdout.strip())
    assert grown_kib < 512 * 1024, f"peak memory grew by {grown_kib / 1024:.0f} MiB before the stop"


def test_a_tiny_policy_temperature_plays_the_argmax_without_a_warning():
    """baseline-policy:temperature=5e-324 divided the logits' differences into -inf with numpy's
    overflow warning (an error under pytest's filter); the softmax at that temperature is the argmax."""
    state = tilecraft.make("azul", seed=5)
    cold, argmax = make_bot("baseline-policy:temperature=5e-324"), make_bot("baseline-policy")
    assert cold.act(state) == argmax.act(state)
