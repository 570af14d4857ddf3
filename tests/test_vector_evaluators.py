"""Evaluator opponents in VectorGame (docs/vector.md, "Evaluator opponents"): a frozen network
(the PUCT evaluator protocol) plays opponent seats with the argmax of its logits over the legal
actions. The games waiting for an evaluator are gathered in env order and the evaluator is called
once per round on all of them, with the mover's own observation.

Most tests use ``LowestLegal``, whose logits are ``-arange(A)``: it must play the lowest legal id,
which a replay on single states checks move by move."""
import _thread
import gc
import sys
import threading
import time
import types
import weakref

import numpy as np
import pytest

import tilecraft
from tilecraft import _core


class LowestLegal:
    """logits = -arange(A) (the lowest legal id wins), a draw for the values; records every call."""

    def __init__(self, players=2, record=True):
        self.players = players
        self.record = record
        self.calls = []  # (observations, legal_mask, players), copies

    def __call__(self, observations, legal_mask, players):
        assert observations.dtype == np.float32 and legal_mask.dtype == bool and players.dtype == np.int32
        assert len(observations) == len(legal_mask) == len(players) > 0
        if self.record:
            self.calls.append((observations.copy(), legal_mask.copy(), players.copy()))
        b, a = legal_mask.shape
        return (np.tile(-np.arange(a, dtype=np.float32), (b, 1)),
                np.full((b, self.players), 1.0 / self.players, np.float32))

    @property
    def sizes(self):
        return [len(c[2]) for c in self.calls]


def decision_seed(bot_seed, ply):
    return _core.mix_seed(bot_seed, ply) >> 1


def replay(game, players, v, i, decide, **options):
    """Replays game i's current episode on a single state made from its seed; at every opponent
    decision asks decide(state, seat, bot_seed) and checks the vector played that. Returns the
    opponent decisions checked, as (seat, observation, legal mask) of the real game."""
    seeds = v.seeds(i)
    ref = tilecraft.make(game, players=players, seed=seeds["state_seed"], **options)
    learner = seeds["learner_seat"]
    decisions = []
    for a in v.state(i).history():
        mover = ref.current_player()
        if mover >= 0 and mover != learner:
            expected = decide(ref, mover, seeds["bot_seeds"][mover])
            assert int(a) == int(expected), f"env {i}: opponent at seat {mover} played {a}, expected {expected}"
            mask = np.zeros(ref.num_distinct_actions(), bool)
            mask[ref.legal_actions()] = True
            decisions.append((mover, ref.observation(mover), mask))
        ref.apply(int(a))
    assert ref.to_json() == v.state(i).to_json()
    return decisions


def lowest(state, seat, bot_seed):
    return min(state.legal_actions())


def greedy(state, seat, bot_seed):
    return state.greedy_action(decision_seed(bot_seed, len(state.history())))


def opponent_moves(v, i, start, game, players):
    """Opponent decisions in game i's history from index `start` on (chance outcomes excluded)."""
    seeds = v.seeds(i)
    ref = tilecraft.make(game, players=players, seed=seeds["state_seed"])
    count = 0
    for k, a in enumerate(v.state(i).history()):
        if k >= start and ref.current_player() >= 0 and ref.current_player() != seeds["learner_seat"]:
            count += 1
        ref.apply(int(a))
    return count


def expected_sizes(depths):
    """One evaluator: every waiting game moves once per round, so round k's call holds the games
    with at least k opponent decisions in this call."""
    depths = np.asarray(depths)
    return [int((depths >= k).sum()) for k in range(1, int(depths.max(initial=0)) + 1)]


# ---- (a) every opponent move is the argmax (lowest legal id), for several games ----

@pytest.mark.parametrize("game, players", [("azul", 2), ("castle", 2), ("warsaw", 3), ("gaudi", 2)])
def test_evaluator_plays_the_argmax_over_legal_actions(game, players):
    ev = LowestLegal(players, record=False)
    v = tilecraft.VectorGame(game, 3, players=players, seed=5, opponents=ev, learner_seat="rotate")
    r = v.reset()
    checked = 0
    for step in range(24):
        live = ~r.terminated
        assert (r.current_player[live] == r.info["learner_seat"][live]).all()
        if step % 8 == 7:
            checked += sum(len(replay(game, players, v, i, lowest)) for i in range(3))
        r = v.step(v.sample_legal())
    assert checked >= 10
    assert v.evaluator_stats()[0]["calls"] > 0


def test_ties_go_to_the_lower_id_and_illegal_logits_are_ignored():
    def evaluate(obs, mask, players):
        logits = np.where(mask, 1.0, np.inf).astype(np.float32)  # all legal tied; +inf only where illegal
        logits[:, -1] = np.nan if not mask[:, -1].any() else 1.0
        return logits, np.full((len(players), 2), 0.5, np.float32)

    v = tilecraft.VectorGame("azul", 4, seed=2, opponents=evaluate)
    v.reset()
    for _ in range(10):
        v.step(v.sample_legal())
    for i in range(4):
        assert replay("azul", 2, v, i, lowest)


# ---- (b) the calls and their batch sizes ----

def test_call_pattern_azul_learner_first():
    n = 8
    ev = LowestLegal()
    v = tilecraft.VectorGame("azul", n, seed=3, opponents=[ev], learner_seat=0)
    v.reset()
    assert ev.sizes == []  # seat 0 moves first in Azul: nobody waits for the evaluator at reset
    v.step(v.sample_legal())
    assert ev.sizes == [n]  # every game is at seat 1 after the learner's first move, and seat 1 moves once
    calls, rows, resets = 1, n, 0
    for _ in range(70):
        before = [len(v.state(i).history()) for i in range(n)]
        ev.calls.clear()
        r = v.step(v.sample_legal())
        depths = [opponent_moves(v, i, 0 if r.info["reset"][i] else before[i], "azul", 2) for i in range(n)]
        assert ev.sizes == expected_sizes(depths)
        # every row is a game at seat 1, with its legal mask
        for obs, mask, players in ev.calls:
            assert (players == 1).all() and mask.any(axis=1).all()
        calls, rows, resets = calls + len(ev.sizes), rows + sum(ev.sizes), resets + int(r.info["reset"].sum())
    assert resets > 0  # auto-resets happened along the way
    stats = v.evaluator_stats()[0]
    assert stats["evaluator"] is ev and (stats["calls"], stats["rows"]) == (calls, rows)


def test_call_pattern_at_reset_with_a_rotating_learner():
    n = 6
    ev = LowestLegal()
    v = tilecraft.VectorGame("azul", n, seed=1, opponents=ev, learner_seat="rotate")
    r = v.reset()
    seats = r.info["learner_seat"]
    assert seats.tolist() == [0, 1, 0, 1, 0, 1]
    # games whose learner is seat 1 wait for seat 0's (the evaluator's) first move: one call
    assert ev.sizes == [3]
    assert (r.current_player == seats).all()
    for i in np.flatnonzero(seats == 1):
        assert len(v.state(i).history()) == 1
        replay("azul", 2, v, i, lowest)


def test_one_evaluator_on_two_seats_is_called_once_per_round():
    ev = LowestLegal(3)
    v = tilecraft.VectorGame("azul", 4, players=3, seed=2, opponents=[ev, ev], learner_seat=0)
    v.reset()
    v.step(v.sample_legal())
    # seats 1 then 2: two rounds of one call each, every game in both; rows are in env order
    assert ev.sizes == [4, 4]
    assert ev.calls[0][2].tolist() == [1] * 4 and ev.calls[1][2].tolist() == [2] * 4
    assert len(v.evaluator_stats()) == 1


def test_two_evaluators_get_one_call_each_per_round_in_index_order():
    log = []

    class Named(LowestLegal):
        def __init__(self, name):
            super().__init__(3)
            self.name = name

        def __call__(self, observations, legal_mask, players):
            log.append((self.name, len(players)))
            return super().__call__(observations, legal_mask, players)

    a, b = Named("a"), Named("b")
    # learner at seat 1: the opponents take seats 0 (a) and 2 (b), in seat order
    v = tilecraft.VectorGame("azul", 5, players=3, seed=2, opponents=[a, b], learner_seat=1)
    r = v.reset()
    assert log == [("a", 5)]  # seat 0 moves first in every game
    assert (r.current_player == 1).all()
    log.clear()
    v.step(v.sample_legal())
    assert log == [("b", 5), ("a", 5)]  # seat 2, then seat 0, then the learner again
    assert [s["calls"] for s in v.evaluator_stats()] == [2, 1]


# ---- (c) threads never change anything ----

def test_threads_do_not_change_results_or_batches():
    outs = []
    for threads in (1, 2):
        ev = LowestLegal()
        v = tilecraft.VectorGame("azul", 24, seed=9, threads=threads, opponents=ev, learner_seat="rotate", copy=True)
        rs = [v.reset()]
        for _ in range(50):
            rs.append(v.step(v.sample_legal()))
        outs.append((rs, ev.calls, [v.state(i).to_json() for i in range(24)]))
    (ra, ca, sa), (rb, cb, sb) = outs
    assert sa == sb
    for x, y in zip(ra, rb):
        for field in ("observation", "legal_mask", "current_player", "rewards", "terminated"):
            np.testing.assert_array_equal(getattr(x, field), getattr(y, field))
        for key in x.info:
            np.testing.assert_array_equal(x.info[key], y.info[key])
    assert len(ca) == len(cb)
    for (oa, ma, pa), (ob, mb, pb) in zip(ca, cb):  # the same rows in the same (env) order
        np.testing.assert_array_equal(oa, ob)
        np.testing.assert_array_equal(ma, mb)
        np.testing.assert_array_equal(pa, pb)


def test_built_in_opponents_are_unchanged_by_an_evaluator_elsewhere():
    """A greedy seat plays as it does without evaluators: its moves replay with greedy_action."""
    ev = LowestLegal(3, record=False)
    v = tilecraft.VectorGame("azul", 4, players=3, seed=4, opponents=["greedy", ev], learner_seat="rotate")
    v.reset()
    for _ in range(30):
        v.step(v.sample_legal())
    for i in range(4):
        seeds = v.seeds(i)
        seats = [k for k in range(3) if k != seeds["learner_seat"]]
        by_seat = {seats[0]: greedy, seats[1]: lowest}  # opponents go to the other seats in seat order
        replay("azul", 3, v, i, lambda st, seat, seed: by_seat[seat](st, seat, seed))


# ---- (d) mixed opponents in a 3-player game with hidden information ----

def test_mixed_greedy_and_evaluator_in_warsaw():
    ev = LowestLegal(3, record=False)
    v = tilecraft.VectorGame("warsaw", 3, players=3, seed=8, opponents=["greedy", ev], learner_seat=0)
    r = v.reset()
    for _ in range(25):
        assert ((r.current_player == 0) | r.terminated).all()
        r = v.step(v.sample_legal())
    checked = {1: 0, 2: 0}
    for i in range(3):
        for seat, _obs, _mask in replay("warsaw", 3, v, i, lambda st, seat, seed: (greedy if seat == 1 else lowest)(
                st, seat, seed)):
            checked[seat] += 1
    assert checked[1] >= 5 and checked[2] >= 5


# ---- the evaluator sees the mover's own view ----

@pytest.mark.parametrize("game, players", [("warsaw", 2), ("castle", 2)])
def test_evaluator_receives_the_movers_own_observation(game, players):
    ev = LowestLegal(players)
    v = tilecraft.VectorGame(game, 1, players=players, seed=6, opponents=ev, learner_seat=0)
    v.reset()
    for _ in range(12):
        r = v.step(v.sample_legal())
        if r.terminated[0]:
            break
    rows = [(o[0], m[0], int(p[0])) for o, m, p in ev.calls]  # one game: one row per call, in play order
    decisions = replay(game, players, v, 0, lowest)
    assert len(rows) == len(decisions) >= 5
    for (obs, mask, seat), (ref_seat, ref_obs, ref_mask) in zip(rows, decisions):
        assert seat == ref_seat
        np.testing.assert_array_equal(obs, ref_obs)  # state.observation(seat) of the real game
        np.testing.assert_array_equal(mask, ref_mask)
    # at the first opponent decision: the evaluator's row is seat 1's view, not the learner's
    s = tilecraft.make(game, players=players, seed=v.seeds(0)["state_seed"])
    for a in v.state(0).history():
        if s.current_player() == 1:
            break
        s.apply(int(a))
    np.testing.assert_array_equal(rows[0][0], s.observation(1))
    assert not np.array_equal(rows[0][0], s.observation(0))


# ---- (e) bad outputs and failures ----

def _good(obs, mask, players):
    return -np.arange(mask.shape[1], dtype=np.float32)[None].repeat(len(players), 0), np.full((len(players), 2), 0.5)


@pytest.mark.parametrize("bad, match", [
    (lambda o, m, p: (np.zeros((len(p), m.shape[1] + 1)), np.full((len(p), 2), 0.5)),
     r"policy_logits of shape \(4, 301\); expected \(4, 300\)"),
    (lambda o, m, p: (np.full(m.shape, np.nan, np.float32), np.full((len(p), 2), 0.5)), "non-finite policy logit"),
    (lambda o, m, p: (np.zeros(m.shape), np.full((len(p), 3), 0.5)), r"values of shape \(4, 3\)"),
    (lambda o, m, p: (np.zeros(m.shape), np.full((len(p), 2), 7.0)), "values must be win shares"),
    (lambda o, m, p: np.zeros(m.shape), "expected a pair"),
    (lambda o, m, p: (np.zeros(m.shape, dtype=complex), np.full((len(p), 2), 0.5)), "dtype complex"),
    (lambda o, m, p: 1 / 0, "raised ZeroDivisionError: division by zero"),
])
def test_bad_evaluator_outputs_raise_evaluator_error(bad, match):
    state = {"bad": False}

    def evaluate(o, m, p):
        return bad(o, m, p) if state["bad"] else _good(o, m, p)

    v = tilecraft.VectorGame("azul", 4, seed=1, threads=2, opponents=evaluate)
    v.reset()
    v.step(v.sample_legal())
    state["bad"] = True
    with pytest.raises(tilecraft.EvaluatorError, match=r"azul: evaluator call 2 on a batch of 4 observations") as e:
        v.step(v.sample_legal())
    assert e.match(match)
    # the step failed part-way (the learner's moves were applied): only reset() is accepted
    with pytest.raises(RuntimeError, match=r"last step\(\) was interrupted or failed part-way.*call reset"):
        v.step(np.zeros(4, np.int64))
    with pytest.raises(RuntimeError, match="call reset"):
        v.sample_legal()
    state["bad"] = False
    fresh = tilecraft.VectorGame("azul", 4, seed=1, threads=2, opponents=_good)
    np.testing.assert_array_equal(v.reset(seed=1).observation, fresh.reset().observation)
    np.testing.assert_array_equal(v.step(v.sample_legal()).observation, fresh.step(fresh.sample_legal()).observation)


def test_an_evaluator_failing_in_reset():
    calls = []

    def evaluate(o, m, p):
        calls.append(len(p))
        raise RuntimeError("out of memory")

    v = tilecraft.VectorGame("azul", 3, seed=0, opponents=evaluate, learner_seat=1)  # seat 0 moves first
    with pytest.raises(tilecraft.EvaluatorError, match="evaluator call 1 on a batch of 3 observations raised "
                                                        "RuntimeError: out of memory") as e:
        v.reset()
    assert isinstance(e.value.__cause__, RuntimeError) and calls == [3]
    with pytest.raises(RuntimeError, match=r"last reset\(\) was interrupted or failed"):
        v.step([0, 0, 0])


def test_a_rejected_batch_calls_nothing_and_changes_nothing():
    ev = LowestLegal()
    v = tilecraft.VectorGame("azul", 3, seed=0, opponents=ev)
    r = v.reset()
    before = r.observation.copy()
    with pytest.raises(tilecraft.IllegalActionError, match="nothing was applied"):
        v.step([299, 299, 299])
    assert ev.calls == [] and np.array_equal(r.observation, before)
    v.step(v.sample_legal())
    assert ev.sizes == [3]


def test_an_evaluator_calling_its_vector_game_is_refused():
    """The evaluator runs on the thread that called step(): its call back is re-entry, said as such
    (not "another thread", which would send the reader looking for a thread that does not exist)."""
    holder = {}

    def evaluate(o, m, p):
        holder["v"].state(0)
        return _good(o, m, p)

    holder["v"] = v = tilecraft.VectorGame("azul", 2, seed=0, opponents=evaluate)
    v.reset()
    with pytest.raises(tilecraft.EvaluatorError, match="VectorGame: re-entry: .*called from inside one of its own "
                       "calls .*on the same thread") as info:
        v.step(v.sample_legal())
    assert "another thread" not in str(info.value)


def test_opponent_arguments():
    with pytest.raises(ValueError, match="opponent .* act"):
        tilecraft.VectorGame("azul", 2, opponents=[object()])

    class BotWithCall:  # a callable with act() is a bot, and not a built-in one
        def act(self, state):
            return 0

        def __call__(self, *a):
            return None

    with pytest.raises(ValueError, match="must be built-in bots .* or evaluators"):
        tilecraft.VectorGame("azul", 2, opponents=[BotWithCall()])
    with pytest.raises(ValueError, match="learner_seat needs opponents"):
        tilecraft.VectorGame("azul", 2, learner_seat=1)
    with pytest.raises(ValueError, match="2-player game has 1 opponent seat"):
        tilecraft.VectorGame("azul", 2, opponents=[_good, _good])
    # the engine takes the evaluators with every call (VectorGame hands them over)
    v = tilecraft.VectorGame("azul", 2, opponents=_good)
    with pytest.raises(ValueError, match=r"VectorGame.reset: this environment has 1 evaluator opponent\(s\)"):
        v._core.reset(None)
    v.reset()
    with pytest.raises(ValueError, match="an evaluator must be callable"):
        v._core.step([0, 0], [3])


def test_an_evaluator_referring_to_its_vector_game_is_freed():
    class Trainer:  # holds the environment, whose opponent is one of its methods: a cycle
        def policy(self, observations, legal_mask, players):
            return _good(observations, legal_mask, players)

    t = Trainer()
    t.env = tilecraft.VectorGame("azul", 2, opponents=t.policy)
    t.env.reset()
    t.env.step(t.env.sample_legal())
    gone = weakref.ref(t)
    del t
    gc.collect()
    assert gone() is None


# ---- Ctrl-C ----

def _interrupt_a_step(v):
    """Ctrl-C 0.3 s into a step that would take far longer (30 s of sleeps, or a 20,000-iteration
    search per game) ends it with KeyboardInterrupt well before then."""
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            v.step(v.sample_legal())
    finally:
        timer.cancel()
    assert time.monotonic() - start < 3.0


def test_ctrl_c_inside_the_evaluator():
    def slow(o, m, p):
        for _ in range(3000):  # 30 s in short sleeps: the pending Ctrl-C is raised between two
            time.sleep(0.01)
        return _good(o, m, p)

    v = tilecraft.VectorGame("azul", 4, seed=0, threads=2, opponents=slow)
    v.reset()
    _interrupt_a_step(v)
    with pytest.raises(RuntimeError, match="call reset"):
        v.step(np.zeros(4, np.int64))
    v.reset()  # usable again


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_between_evaluator_calls(threads):
    # seat 1 is the evaluator, seat 2 an MCTS bot that thinks long after the evaluator's move (in
    # the evaluators' rounds): Ctrl-C reaches those searches
    ev = LowestLegal(3, record=False)
    v = tilecraft.VectorGame("azul", 16, players=3, seed=1, threads=threads,
                             opponents=[ev, "mcts:iterations=20000"], learner_seat=0)
    v.reset()
    _interrupt_a_step(v)
    with pytest.raises(RuntimeError, match="call reset"):
        v.sample_legal()


# ---- (f) the baseline-policy opponent ----

def _fake_baselines(monkeypatch, result):
    module = types.ModuleType("tilecraft.agents.baselines")

    class BaselineError(ValueError):
        pass

    asked = []

    def load(game, players=2, mode=None, path=None):
        asked.append((game, players, mode))
        if result is None:
            raise BaselineError(f"no baseline for {game} with {players} players")
        return result

    module.BaselineError, module.load = BaselineError, load
    monkeypatch.setitem(sys.modules, "tilecraft.agents.baselines", module)
    return asked


def test_baseline_policy_is_loaded_once_with_the_games_mode(monkeypatch):
    ev = LowestLegal(3, record=False)
    asked = _fake_baselines(monkeypatch, ev)
    v = tilecraft.VectorGame("azul", 2, players=3, opponents="baseline-policy")
    assert asked == [("azul", 3, None)] and len(v.evaluator_stats()) == 1
    v.reset()
    v.step(v.sample_legal())
    assert v.evaluator_stats()[0]["evaluator"] is ev and v.evaluator_stats()[0]["calls"] == 2
    tilecraft.VectorGame("gaudi", 1, opponents=["baseline-policy"], mode="basic")
    tilecraft.VectorGame("gaudi", 1, opponents=["baseline-policy"])
    assert asked[1:] == [("gaudi", 2, "basic"), ("gaudi", 2, "auto")]


def test_baseline_policy_errors(monkeypatch):
    _fake_baselines(monkeypatch, None)
    with pytest.raises(ValueError, match="opponent 'baseline-policy': no baseline for azul with 2 players"):
        tilecraft.VectorGame("azul", 2, opponents="baseline-policy")
    with pytest.raises(ValueError, match="opponent 'baseline-policy:x=1': 'baseline-policy' takes no options"):
        tilecraft.VectorGame("azul", 2, opponents="baseline-policy:x=1")
    _fake_baselines(monkeypatch, "not an evaluator")
    with pytest.raises(ValueError, match="not an evaluator"):
        tilecraft.VectorGame("azul", 2, opponents="baseline-policy")


def test_baseline_policy_with_the_real_module():
    baselines = pytest.importorskip("tilecraft.baselines")
    try:
        v = tilecraft.VectorGame("azul", 4, opponents=["baseline-policy"], learner_seat="rotate")
    except ValueError as e:
        if isinstance(e.__context__, baselines.BaselineError):
            pytest.skip(f"no Azul baseline here: {e}")
        raise
    r = v.reset()
    for _ in range(5):
        r = v.step(v.sample_legal())
    live = ~r.terminated
    assert (r.current_player[live] == r.info["learner_seat"][live]).all()


# ---- (g) Gymnasium ----

def test_gymnasium_vector_env_with_an_evaluator():
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.passive_env_checker import check_obs

    from tilecraft.vector import GymnasiumVectorEnv

    for opponents in (LowestLegal(), [LowestLegal()]):  # one evaluator alone or in a list: 2 players
        env = GymnasiumVectorEnv("azul", num_envs=4, opponents=opponents, seat="rotate", seed=1)
        assert isinstance(env, gym.vector.VectorEnv)
        obs, info = env.reset(seed=2)
        check_obs(obs, env.observation_space, "reset")
        for _ in range(8):
            obs, reward, terminated, truncated, info = env.step(env.sample_legal())
            check_obs(obs, env.observation_space, "step")
            assert reward.shape == (4,) and not truncated.any()
        ev = opponents if callable(opponents) else opponents[0]
        assert ev.calls and all(len(c[2]) <= 4 for c in ev.calls)
        env.close()


def test_a_call_from_another_thread_while_one_runs_is_refused_as_such():
    """While step() waits inside its evaluator on one thread, a call from another thread is told that
    another thread is calling (not re-entry); the first call then finishes normally."""
    import threading

    inside, release = threading.Event(), threading.Event()

    def evaluate(o, m, p):
        inside.set()
        assert release.wait(60)
        return _good(o, m, p)

    v = tilecraft.VectorGame("azul", 2, seed=0, opponents=evaluate)
    inside_reset = threading.Thread(target=v.reset)
    release.set()  # reset() may call the evaluator too: let it through
    inside_reset.start()
    inside_reset.join()
    inside.clear()
    release.clear()
    errors = []

    def step():
        try:
            v.step(v.sample_legal())
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    worker = threading.Thread(target=step)
    worker.start()
    assert inside.wait(60)
    with pytest.raises(RuntimeError, match="another thread is calling this VectorGame") as info:
        v.state(0)
    assert "re-entry" not in str(info.value)
    release.set()
    worker.join()
    assert errors == []
