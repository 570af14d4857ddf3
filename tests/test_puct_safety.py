"""PUCT under misuse (issue 19, section 4, findings 2, 4 and part of 8; section 3, the `puct` bot).

- one PUCTBot shared by Python threads: the searches take turns, and each gives exactly the visits
  of the same search run alone (they used to race on one tree: wrong sums, hangs, heap corruption);
- an evaluator that calls the bot it serves: the nested search is refused with an error saying the
  searcher is already searching (it used to overwrite the tree, and the outer search returned an
  action illegal in its state), and the bot stays usable;
- evaluator outputs that are not win shares in [0, 1] (or returns in [-1, 1]), complex, bool or
  unreadable (an ``__array__`` that raises): EvaluatorError naming the output;
- the ``puct`` bot spec, with no evaluator, searches with the uniform evaluator."""
import threading

import numpy as np
import pytest

import tilecraft
from tilecraft import EvaluatorError, PUCTBot, make_bot
from tilecraft.puct import UniformEvaluator


def _within(seconds, fn):
    """fn() on a daemon thread, so that a search that never ends (the old failure) fails the test."""
    out = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - re-raised below
            out["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"the search did not end within {seconds} s"
    if "error" in out:
        raise out["error"]
    return out["value"]


def _positions(game, n):
    out = []
    for seed in range(n):
        s = tilecraft.make(game, seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(3 + seed):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
        out.append(s)
    return out


class Projection:
    """Deterministic, row by row: priors and values from a fixed projection of the observation
    (values are win shares: the mover's sigmoid, the rest split)."""

    def __init__(self, size, players=2):
        self.w = np.random.default_rng(7).normal(size=size) / np.sqrt(size)
        self.players = players

    def __call__(self, obs, mask, players):
        h = obs.reshape(len(obs), -1).astype(np.float64) @ self.w
        logits = np.sin(h[:, None] * np.arange(1, mask.shape[1] + 1)[None, :] * 0.37) * 2.0
        me = 1.0 / (1.0 + np.exp(-h))
        values = np.repeat(((1.0 - me) / (self.players - 1))[:, None], self.players, axis=1)
        values[np.arange(len(players)), players] = me
        return logits.astype(np.float32), values.astype(np.float32)


@pytest.mark.parametrize("game", ["azul", "castle"])
def test_one_bot_shared_by_four_threads_gives_the_visits_of_each_search_alone(game):
    states = _positions(game, 4)
    ev = Projection(states[0].observation(0).size)
    options = dict(simulations=64, batch_size=4, seed=3)
    alone = [PUCTBot(ev, **options).search(s) for s in states]
    assert all(int(r["visits"].sum()) == 64 for r in alone)
    shared = PUCTBot(ev, **options)
    got = {}
    start = threading.Barrier(4)

    def work(i):
        start.wait()
        for k in range(3):
            got[i, k] = shared.search(states[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a search hung"
    assert len(got) == 12
    for (i, k), r in got.items():
        assert np.array_equal(r["visits"], alone[i]["visits"]), (i, k)
        assert r["action"] == alone[i]["action"]


def test_an_evaluator_calling_its_own_bot_is_refused_and_the_bot_stays_usable():
    state = _positions("azul", 2)[1]
    uniform = UniformEvaluator(2)
    nested_errors = []

    class CallsItsBot:
        bot = None

        def __call__(self, obs, mask, players):
            try:
                self.bot.search(state)
            except RuntimeError as e:
                nested_errors.append(e)
            return uniform(obs, mask, players)

    ev = CallsItsBot()
    bot = ev.bot = PUCTBot(ev, simulations=40, batch_size=4, seed=1)
    ref = PUCTBot(uniform, simulations=40, batch_size=4, seed=1).search(state)
    r = _within(60, lambda: bot.search(state))
    # every nested call was refused, and the outer search was not disturbed by them
    assert nested_errors and all("already searching" in str(e) for e in nested_errors)
    assert np.array_equal(r["visits"], ref["visits"])
    assert r["action"] in state.legal_actions().tolist()
    assert set(np.flatnonzero(r["visits"])) <= set(state.legal_actions().tolist())

    # An evaluator that lets the refusal through: EvaluatorError saying why; then the bot works.
    class Propagates(CallsItsBot):
        def __call__(self, obs, mask, players):
            self.bot.search(state)
            return uniform(obs, mask, players)

    ev2 = Propagates()
    bot2 = ev2.bot = PUCTBot(ev2, simulations=40, batch_size=4, seed=1)
    with pytest.raises(EvaluatorError, match="already searching"):
        _within(60, lambda: bot2.search(state))
    bot2.evaluator = uniform
    assert np.array_equal(bot2.search(state)["visits"], ref["visits"])


def test_a_searcher_called_again_from_its_evaluator_is_refused():
    state = tilecraft.make("castle", seed=2)
    searcher = state.PUCTSearcher(simulations=10, batch_size=2)
    inner = []

    def ev(obs, mask, players):
        try:
            searcher.search(state, ev)
        except RuntimeError as e:
            inner.append(str(e))
        return np.zeros(mask.shape, np.float32), np.full((len(obs), 2), 0.5, np.float32)

    r = _within(60, lambda: searcher.search(state, ev))
    assert inner and all("already searching" in m for m in inner)
    assert int(r["visits"].sum()) == 10 and r["action"] in state.legal_actions().tolist()


def _constant(logits=None, values=None):
    def ev(obs, mask, players):
        lg = np.zeros(mask.shape, np.float32) if logits is None else logits(mask)
        v = np.full((len(obs), 2), 0.5, np.float32) if values is None else values(len(obs))
        return lg, v
    return ev


class RaisingArray:
    def __array__(self, *args, **kwargs):
        raise RuntimeError("device lost")


@pytest.mark.parametrize("ev, values, message", [
    (_constant(values=lambda b: np.full((b, 2), 1.5, np.float32)), "share",
     r"value 1\.5 for seat 0 in row 0; values must be win shares .* in \[0, 1\]"),
    (_constant(values=lambda b: np.full((b, 2), -0.25, np.float32)), "share", r"value -0\.25 .* in \[0, 1\]"),
    (_constant(values=lambda b: np.full((b, 2), -1.5, np.float32)), "returns", r"returns .* in \[-1, 1\]"),
    (_constant(logits=lambda m: m.copy()), "share", "policy_logits of dtype bool"),
    (_constant(logits=lambda m: np.zeros(m.shape, np.complex64)), "share", "policy_logits of dtype complex64"),
    (_constant(values=lambda b: np.full((b, 2), 0.5 + 0j)), "share", "values of dtype complex128"),
    (_constant(values=lambda b: RaisingArray()), "share",
     "values that cannot be read as an array: RuntimeError: device lost"),
])
def test_bad_evaluator_outputs_are_evaluator_errors(ev, values, message):
    state = tilecraft.make("azul", seed=1)
    bot = PUCTBot(ev, simulations=8, values=values)
    with pytest.raises(EvaluatorError, match=message) as info:
        bot.search(state)
    assert "azul: evaluator call 1" in str(info.value)
    if "device lost" in message:
        assert isinstance(info.value.__cause__, RuntimeError)
    bot.evaluator = UniformEvaluator(2)  # usable afterwards
    assert int(bot.search(state)["visits"].sum()) == 8


def test_values_at_the_ends_of_the_scale_are_accepted():
    state = tilecraft.make("azul", seed=1)
    win = _constant(values=lambda b: np.tile(np.array([[1.0, 0.0]], np.float32), (b, 1)))
    assert int(PUCTBot(win, simulations=8).search(state)["visits"].sum()) == 8
    ret = _constant(values=lambda b: np.tile(np.array([[1.0, -1.0]], np.float32), (b, 1)))
    assert int(PUCTBot(ret, simulations=8, values="returns").search(state)["visits"].sum()) == 8


def test_the_puct_bot_spec_plays_with_the_uniform_evaluator():
    state = _positions("castle", 2)[1]
    bot = make_bot("puct:simulations=30", seed=2)
    ref = PUCTBot("uniform", simulations=30, seed=2).search(state)
    r = bot.search(state)
    assert np.array_equal(r["visits"], ref["visits"]) and int(r["visits"].sum()) == 30
    assert bot.act(state) in state.legal_actions().tolist()
    result = tilecraft.play_match("azul", ["puct:simulations=4", "random"], seed=1)  # a whole game
    assert len(result.actions) > 0
