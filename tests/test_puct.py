"""PUCT with a Python evaluator: determinism, visit accounting, legality, no peeking, batched
self-play independent of concurrent_games, and evaluator errors."""
import random
import threading

import numpy as np
import pytest

import tilecraft
from tilecraft import EvaluatorError, PUCTBot, make_bot, play_match
from tilecraft.puct import UniformEvaluator, register_evaluator, win_shares

GAMES = tilecraft.list_games()
# the games whose chance can be explicit (the option chance="explicit"): determinize="hidden" searches them
EXPLICIT_CHANCE = [g for g in GAMES if any(o.name == "chance" for o in tilecraft.game_spec(g).options)]


class FixedEvaluator:
    """A deterministic evaluator that treats rows independently (each output row depends on its own
    input row only): priors and values from a fixed projection of the observation."""

    def __init__(self, players=2, seed=0):
        self.players = players
        self.rng = np.random.default_rng(seed)
        self.w = None
        self.calls = []

    def __call__(self, obs, mask, players):
        flat = obs.reshape(len(obs), -1).astype(np.float64)
        if self.w is None:
            self.w = self.rng.normal(size=flat.shape[1]) / np.sqrt(flat.shape[1])
        h = (flat * self.w).sum(axis=1)
        k = np.arange(1, mask.shape[1] + 1)
        logits = np.sin(h[:, None] * k[None, :] * 0.37) * 2.0
        me = 1.0 / (1.0 + np.exp(-h))
        values = np.repeat(((1.0 - me) / max(1, self.players - 1))[:, None], self.players, axis=1)
        values[np.arange(len(players)), players] = me
        self.calls.append((obs.copy(), mask.copy(), players.copy()))
        return logits.astype(np.float32), values.astype(np.float32)


def _advance(state, steps, seed):
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply(int(legal[rng.randrange(len(legal))]))
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0])
    return state


def _positions(game):
    spec = tilecraft.game_spec(game)
    out = []
    for players in spec.players:
        out.append(_advance(tilecraft.make(game, players=players, seed=3), 9, seed=1))
    if game in EXPLICIT_CHANCE:
        out.append(_advance(tilecraft.make(game, players=spec.players[0], chance="explicit", seed=4), 11, seed=2))
    return [s for s in out if not s.is_terminal()]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("gumbel, determinize", [(False, "search"), (True, "search"), (False, "iteration"),
                                                 (True, "iteration")])
def test_visits_sum_to_simulations_and_only_legal_actions(game, gumbel, determinize):
    for state in _positions(game):
        ev = FixedEvaluator(state.num_players())
        for sims, batch in ((1, 1), (37, 1), (37, 8), (120, 16)):
            r = PUCTBot(ev, simulations=sims, batch_size=batch, gumbel=gumbel, seed=2,
                        determinize=determinize).search(state)
            mask = state.legal_action_mask()
            assert r["visits"].sum() == sims == r["simulations"]
            assert not r["visits"][~mask].any() and not r["policy"][~mask].any()
            assert mask[r["action"]]
            assert abs(r["policy"].sum() - 1.0) < 1e-5 and abs(r["prior"].sum() - 1.0) < 1e-5
            # The root's evaluation comes on top of the simulations; each call holds <= batch_size rows.
            assert 1 <= r["evaluations"] <= sims + 1
            assert all(len(c[2]) <= batch for c in ev.calls)
            ev.calls.clear()


def test_fixed_evaluator_makes_the_search_deterministic():
    state = _advance(tilecraft.make("azul", players=3, seed=5), 6, seed=0)
    for kw in (dict(batch_size=1), dict(batch_size=8), dict(batch_size=8, root_noise=(0.3, 0.25), temperature=1.0),
               dict(batch_size=4, gumbel=True), dict(batch_size=8, determinize="iteration")):
        a = PUCTBot(FixedEvaluator(3), simulations=150, seed=7, **kw).search(state)
        b = PUCTBot(FixedEvaluator(3), simulations=150, seed=7, **kw).search(state)
        for key in ("visits", "policy", "values", "prior"):
            assert np.array_equal(a[key], b[key]), (kw, key)
        assert a["action"] == b["action"]
    # Whole games too, and the seed matters once there is noise.
    bots = lambda s: [PUCTBot(FixedEvaluator(2), simulations=40, root_noise=(0.3, 0.25), temperature=1.0, seed=s),
                      "greedy"]
    m1, m2 = (play_match("azul", bots(1), seed=4) for _ in range(2))  # play_match re-seeds bots per game
    assert m1.actions == m2.actions and m1.scores == m2.scores
    noisy = [PUCTBot(FixedEvaluator(3), simulations=150, seed=s, root_noise=(0.3, 0.25)).search(state) for s in (1, 2)]
    assert not np.array_equal(noisy[0]["visits"], noisy[1]["visits"])


def test_batch_size_one_is_sequential_and_batches_change_only_the_order_of_expansion():
    """batch_size=1 is plain sequential PUCT: the evaluator sees one leaf per call, every leaf is new.
    Bigger batches gather leaves with virtual loss, so the tree (and the visits) may differ, but
    each batch size is deterministic and every evaluated row is a distinct leaf or the root."""
    state = tilecraft.make("azul", seed=9)
    ev = FixedEvaluator()
    one = PUCTBot(ev, simulations=64, batch_size=1).search(state)
    assert all(len(c[2]) == 1 for c in ev.calls) and one["evaluations"] == len(ev.calls)
    ev.calls.clear()
    eight = PUCTBot(ev, simulations=64, batch_size=8).search(state)
    assert [len(c[2]) for c in ev.calls][0] == 1  # the root alone first
    assert eight["visits"].sum() == one["visits"].sum() == 64
    again = PUCTBot(FixedEvaluator(), simulations=64, batch_size=8).search(state)
    assert np.array_equal(again["visits"], eight["visits"])


def test_a_batch_never_spends_a_simulation_on_a_copy():
    """A simulation that would reach a leaf already waiting for its evaluation ends the batch and
    starts again after it, so every simulation evaluates a leaf of its own. On a one-heap Nim where
    one stone is taken a turn the tree is a single line: the k-th simulation reaches the node k
    moves down, so each call can hold one leaf, and 100 simulations make 100 calls after the root's
    (the version that let such a simulation share the waiting leaf's value made 2 calls in all)."""
    from tilecraft.testing import nim
    ev = FixedEvaluator(2)
    r = PUCTBot(ev, simulations=100, batch_size=8).search(nim(heap=200, max_take=1))
    assert [len(c[2]) for c in ev.calls] == [1] * 101
    assert r["evaluations"] == 101 and list(r["visits"]) == [100]
    # Take 1 or 2: no game ends within 60 moves of a 200-stone heap, so 60 simulations mean 60
    # distinct leaves besides the root, batched up to 8 a call.
    ev = FixedEvaluator(2)
    r = PUCTBot(ev, simulations=60, batch_size=8).search(nim(heap=200, max_take=2))
    sizes = [len(c[2]) for c in ev.calls]
    assert r["evaluations"] == sum(sizes) == 61 and max(sizes) <= 8 and len(sizes) < 61
    assert r["visits"].sum() == 60


def test_root_noise_changes_the_priors_by_seed():
    state = tilecraft.make("azul", seed=1)
    plain = PUCTBot("uniform", simulations=8).search(state)["prior"]
    noisy = [PUCTBot("uniform", simulations=8, root_noise=(0.3, 0.25), seed=s).search(state)["prior"] for s in (1, 2)]
    mask = state.legal_action_mask()
    assert np.allclose(plain[mask], 1.0 / mask.sum())
    assert not np.allclose(noisy[0], plain) and not np.allclose(noisy[0], noisy[1])
    assert all(abs(p.sum() - 1) < 1e-5 and not p[~mask].any() for p in noisy)


def test_values_as_returns_are_converted():
    state = _advance(tilecraft.make("azul", seed=2), 4, seed=0)
    share = FixedEvaluator()

    def returns(obs, mask, players):
        logits, values = share(obs, mask, players)
        return logits, values * 2.0 - 1.0

    a = PUCTBot(share, simulations=60).search(state)
    b = PUCTBot(returns, simulations=60, values="returns").search(state)
    assert np.array_equal(a["visits"], b["visits"]) and np.allclose(a["values"], b["values"], atol=1e-6)


@pytest.mark.parametrize("game, determinize", [(g, d) for g in GAMES for d in ("search", "iteration")] +
                         [(g, d) for g in EXPLICIT_CHANCE for d in ("hidden", "hidden-iteration")])
def test_search_never_peeks_and_the_evaluator_sees_only_the_movers_view(game, determinize):
    """States that look the same to the mover give the same evaluator inputs and the same search,
    whatever their hidden parts; every row is the view of the seat to move at its leaf."""
    for players in tilecraft.game_spec(game).players:
        base = _advance(tilecraft.make(game, players=players, seed=11), 7, seed=3)
        while len(base.legal_actions()) < 4 and not base.is_terminal():
            base = _advance(base, 1, seed=len(base.history()))
        me = base.current_player()
        runs = []
        for k in range(3):
            v = base.clone()
            v.resample_hidden(me, 1000 + k)
            assert np.array_equal(v.observation(me), base.observation(me))
            ev = FixedEvaluator(players)
            r = PUCTBot(ev, simulations=60, batch_size=4, seed=9, determinize=determinize).search(v)
            runs.append((r, ev.calls))
        first_obs, _, first_players = runs[0][1][0]
        assert list(first_players) == [me] and np.array_equal(first_obs[0], base.observation(me))
        for r, calls in runs[1:]:
            assert np.array_equal(r["visits"], runs[0][0]["visits"]) and r["action"] == runs[0][0]["action"]
            assert len(calls) == len(runs[0][1])
            for (o1, m1, p1), (o2, m2, p2) in zip(calls, runs[0][1]):
                assert np.array_equal(o1, o2) and np.array_equal(m1, m2) and np.array_equal(p1, p2)


def test_rows_are_the_observation_of_the_seat_to_move_at_each_leaf():
    """Replays the leaves of a batch_size=1 search: each row equals the mover's observation of the
    determinized leaf state, its mask that state's legal mask."""
    state = tilecraft.make("azul", seed=6)
    ev = FixedEvaluator()
    PUCTBot(ev, simulations=30, batch_size=1).search(state)
    for obs, mask, players in ev.calls:
        assert obs.shape == (1,) + tuple(state.observation_shape()) and mask.shape == (1, state.num_distinct_actions())
        assert mask[0].any() and obs.dtype == np.float32 and players.dtype == np.int32
        assert 0 <= players[0] < state.num_players()
    # Observations of the opponent's decision nodes are the opponent's views (seat 1 in the tree).
    assert {int(c[2][0]) for c in ev.calls} == {0, 1}


@pytest.mark.parametrize("game", GAMES)
def test_puct_plays_legal_games(game):
    spec = tilecraft.game_spec(game)
    players = min(p for p in spec.players if p >= 2)  # solo (Gaudí) may end with no winner: the automa won
    bots = [PUCTBot(FixedEvaluator(players), simulations=12, batch_size=4, seed=1), "random", "greedy",
            "random"][:players]
    result = play_match(game, bots, seed=3)
    assert len(result.winners) >= 1


def test_concurrent_games_do_not_change_the_games():
    kw = dict(n_games=9, seed=5, record=True)
    bots = [PUCTBot(simulations=24, batch_size=4, root_noise=(0.3, 0.25), temperature=1.0), "greedy"]
    a = tilecraft.self_play("azul", bots, evaluator=FixedEvaluator(), concurrent_games=1, **kw)
    b = tilecraft.self_play("azul", bots, evaluator=FixedEvaluator(), concurrent_games=64, **kw)
    for key in ("scores", "returns", "winners", "seat_bot", "length", "state_seed"):
        assert np.array_equal(a[key], b[key]), key
    assert all(np.array_equal(x, y) for x, y in zip(a["actions"], b["actions"]))
    for key in a["training"]:  # search_value is NaN on the greedy seat's rows
        assert np.array_equal(a["training"][key], b["training"][key], equal_nan=True), key
    assert b["stats"]["evaluator_calls"] < a["stats"]["evaluator_calls"]  # the batches really were shared
    d = tilecraft.self_play("azul", bots, evaluator=FixedEvaluator(), concurrent_games=4, **kw)
    assert all(np.array_equal(x, y) for x, y in zip(a["actions"], d["actions"]))
    c = tilecraft.self_play("azul", bots, evaluator=FixedEvaluator(), concurrent_games=4, n_games=9, seed=6)
    assert not all(np.array_equal(x, y) for x, y in zip(a["actions"], c["actions"]))


def test_self_play_games_match_the_bot_and_replay():
    """A self-play PUCT seat plays what PUCTBot plays (same seeds), and the training rows replay."""
    r = tilecraft.self_play("azul", ["puct:simulations=20,batch_size=4", "greedy"], n_games=2, seed=1,
                            evaluator=FixedEvaluator(), record=True, concurrent_games=2)
    t = r["training"]
    assert np.allclose(t["policy"].sum(axis=1), 1.0, atol=1e-5) and not np.any(t["policy"][~t["legal_mask"]])
    row = 0
    for g in range(2):
        state = tilecraft.make("azul", seed=int(r["state_seed"][g]))
        for a in r["actions"][g]:
            seat = state.current_player()
            assert t["game"][row] == g and t["player"][row] == seat
            assert np.array_equal(t["observation"][row], state.observation(seat))
            assert np.array_equal(t["legal_mask"][row], state.legal_action_mask())
            if r["seat_bot"][g][seat] == 0:
                visits = np.round(t["policy"][row] * 20).astype(int)
                assert visits.sum() == 20 and t["policy"][row][int(a)] > 0
            state.apply(int(a))
            row += 1
        assert state.is_terminal() and np.array_equal(state.scores(), r["scores"][g])
    assert row == len(t["player"])
    assert np.allclose(win_shares(r["winners"]).sum(axis=1), 1.0)


def test_two_evaluators_in_one_self_play():
    trained, uniform = FixedEvaluator(), UniformEvaluator(2)
    r = tilecraft.self_play("azul", [PUCTBot(trained, simulations=16), PUCTBot(uniform, simulations=16)],
                            n_games=4, seed=2, concurrent_games=4)
    assert len(trained.calls) > 0 and r["stats"]["evaluator_calls"] > len(trained.calls)
    assert r["winners"].shape == (4, 2)


def test_bots_by_name():
    register_evaluator("fixed-test", FixedEvaluator, factory=True)
    bot = make_bot("puct:evaluator=fixed-test,simulations=20,batch_size=2", seed=4)
    assert isinstance(bot, PUCTBot) and bot.options["seed"] == 4
    assert bot.act(tilecraft.make("azul")) in set(tilecraft.make("azul").legal_actions().tolist())
    r = tilecraft.self_play("azul", ["puct:simulations=10", "random"], n_games=2, evaluator=FixedEvaluator())
    assert r["length"].min() > 0
    with pytest.raises(ValueError, match="unknown evaluator"):
        make_bot("puct:evaluator=nope")
    # no evaluator: the uniform one (the "puct" bot spec plays out of the box)
    assert PUCTBot(simulations=8).act(tilecraft.make("azul")) in set(tilecraft.make("azul").legal_actions().tolist())
    with pytest.raises(ValueError, match="no evaluator"):
        tilecraft.self_play("azul", ["puct:simulations=10"], n_games=1)


@pytest.mark.parametrize("kwargs, message", [
    (dict(simulations=0), "simulations"), (dict(batch_size=0), "batch_size"), (dict(c_puct=-1), "c_puct"),
    (dict(root_noise=(0.0, 0.25)), "noise_alpha"), (dict(root_noise=(0.3, 2)), "noise_fraction"),
    (dict(root_noise=3), "root_noise"), (dict(temperature=-1), "temperature"), (dict(gumbel="yes"), "gumbel"),
    (dict(values="logits"), "values"), (dict(rollout_mix=1.5), "rollout_mix"), (dict(rollout_mix=-0.1), "rollout_mix"),
    (dict(rollouts=0), "rollouts"), (dict(rollouts=1025), "rollouts"), (dict(rollout="smart"), "rollout"), (dict(rollout_depth=-2), "rollout_depth"), (dict(eval_scale=0), "eval_scale"),
    (dict(determinize="always"), "determinize"), (dict(prior_heuristic=-1), "prior_heuristic"),
    (dict(prior_heuristic=float("nan")), "prior_heuristic"), (dict(prior_heuristic="high"), "prior_heuristic"),
    (dict(opponent_prior_heuristic=-1), "opponent_prior_heuristic"),
    (dict(opponent_prior_heuristic=float("inf")), "opponent_prior_heuristic"),
    (dict(prior_temperature=0), "prior_temperature"), (dict(prior_temperature=1000), "prior_temperature"),
    (dict(worlds=0), "worlds"), (dict(worlds=257, simulations=1000), "worlds"), (dict(worlds=1.5), "worlds"),
    (dict(worlds=9, simulations=8), "worlds .*simulations"), (dict(worlds=2, gumbel=True), "gumbel needs worlds=1"),
])
def test_bad_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        PUCTBot("uniform", **kwargs)


def _bad_evaluators():
    def raises(obs, mask, players):
        raise ZeroDivisionError("model exploded")

    def wrong_logits(obs, mask, players):
        return np.zeros((len(obs), 3), np.float32), np.full((len(obs), 2), 0.5, np.float32)

    def wrong_values(obs, mask, players):
        return np.zeros(mask.shape, np.float32), np.full((len(obs),), 0.5, np.float32)

    def nan_values(obs, mask, players):
        v = np.full((len(obs), 2), 0.5, np.float32)
        v[-1, 0] = np.nan
        return np.zeros(mask.shape, np.float32), v

    def nan_logits(obs, mask, players):
        logits = np.where(mask, 0.0, -np.inf).astype(np.float32)  # -inf off the legal actions is fine
        logits[0, np.flatnonzero(mask[0])[0]] = np.nan
        return logits, np.full((len(obs), 2), 0.5, np.float32)

    def not_a_pair(obs, mask, players):
        return np.zeros(mask.shape, np.float32)

    return [(raises, "raised ZeroDivisionError: model exploded"), (wrong_logits, r"policy_logits of shape \(1, 3\)"),
            (wrong_values, r"values of shape \(1,\)"), (nan_values, "non-finite values"),
            (nan_logits, "non-finite policy logit"), (not_a_pair, "pair")]


@pytest.mark.parametrize("index", range(6))
def test_evaluator_errors_name_game_and_batch_and_leave_the_bot_usable(index):
    bad, message = _bad_evaluators()[index]
    state = tilecraft.make("azul", seed=3)
    threads = threading.active_count()
    bot = PUCTBot(bad, simulations=30, batch_size=4)
    with pytest.raises(EvaluatorError, match=message) as info:
        bot.search(state)
    assert "azul" in str(info.value) and "batch of 1" in str(info.value)
    assert threading.active_count() == threads
    # The same bot with a working evaluator searches as a fresh one does.
    bot.evaluator = FixedEvaluator()
    assert np.array_equal(bot.search(state)["visits"],
                          PUCTBot(FixedEvaluator(), simulations=30, batch_size=4).search(state)["visits"])
    # Batched self-play raises the same way, then works again.
    with pytest.raises(EvaluatorError, match="azul.*batch of"):
        tilecraft.self_play("azul", ["puct:simulations=8"], n_games=3, evaluator=bad, concurrent_games=3)
    assert threading.active_count() == threads
    r = tilecraft.self_play("azul", ["puct:simulations=8"], n_games=3, evaluator=FixedEvaluator())
    assert len(r["actions"]) == 3


def test_evaluator_failing_mid_search():
    state = tilecraft.make("azul", seed=3)
    calls = []

    def later(obs, mask, players):
        calls.append(len(obs))
        if len(calls) == 3:
            raise RuntimeError("out of memory")
        return UniformEvaluator(2)(obs, mask, players)

    with pytest.raises(EvaluatorError, match="call 3 on a batch of 8 observations raised RuntimeError"):
        PUCTBot(later, simulations=50, batch_size=8).search(state)


def test_gumbel_root_with_few_simulations_improves_on_the_prior():
    """With 4 simulations the Gumbel root still returns a full improved policy over the legal actions."""
    state = tilecraft.make("azul", seed=8)
    r = PUCTBot(FixedEvaluator(), simulations=4, gumbel=True, gumbel_actions=4, seed=3).search(state)
    mask = state.legal_action_mask()
    assert r["visits"].sum() == 4 and (r["visits"] > 0).sum() == 4  # 4 actions considered, one visit each
    assert (r["policy"][mask] > 0).all() and abs(r["policy"].sum() - 1) < 1e-5
    assert r["visits"][r["action"]] > 0


def test_torch_tensors_are_accepted():
    torch = pytest.importorskip("torch", reason="an evaluator returning PyTorch tensors needs PyTorch")
    ev = FixedEvaluator()

    def tensors(obs, mask, players):
        logits, values = ev(obs, mask, players)
        return torch.from_numpy(logits), torch.from_numpy(values)

    state = tilecraft.make("azul", seed=2)
    a = PUCTBot(tensors, simulations=30).search(state)
    b = PUCTBot(FixedEvaluator(), simulations=30).search(state)
    assert np.array_equal(a["visits"], b["visits"])


class _RecordingUniform:
    """Uniform priors and even values, with every call's rows recorded."""

    def __init__(self):
        self.rows = []
        self.sizes = []

    def __call__(self, obs, mask, players):
        self.rows += [(m.copy(), int(p)) for m, p in zip(mask, players)]
        self.sizes.append(len(obs))
        return np.zeros(mask.shape, np.float32), np.full((len(obs), 2), 0.5, np.float32)


def _azul_last_pick_of_a_round():
    """A 2-player Azul position where every legal action of the seat to move (>= 3 of them) ends the
    round, the game goes on, the other seat starts the next round, and the bag holds the 20 tiles of
    the next round's five factories (AZ refill: no lid tiles are needed)."""
    for seed in range(200):
        s = tilecraft.make("azul", players=2, seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            me, legal = s.current_player(), s.legal_actions()
            if len(legal) >= 3 and sum(s.bag()) >= 20:
                after = []
                for a in legal:
                    t = s.clone()
                    t.apply(int(a))
                    after.append(t)
                if all(t.round() == s.round() + 1 and not t.is_terminal() and t.current_player() == 1 - me
                       for t in after):
                    return s
            s.apply(int(legal[rng.randrange(len(legal))]))
    raise AssertionError("no such position in 200 games")


def test_determinize_iteration_draws_a_new_future_for_every_simulation():
    """At the last pick of an Azul round, the next round's factories come from the bag (hidden).
    With uniform priors and even values the first L simulations each expand one of the root's L
    actions, and each leaf is the opponent's first decision of the next round, whose legal actions
    depend on the new factories and the opponent's own board (which the searcher's pick leaves
    alone). One determinization per search draws one refill: all L leaves offer the same actions.
    One per simulation draws L refills: the leaves differ."""
    state = _azul_last_pick_of_a_round()
    me, n_legal = state.current_player(), len(state.legal_actions())
    masks = {}
    for determinize in ("search", "iteration", "hidden"):
        ev = _RecordingUniform()
        PUCTBot(ev, simulations=n_legal, batch_size=1, seed=3, determinize=determinize).search(state)
        root, leaves = ev.rows[0], ev.rows[1:]
        assert root[1] == me and len(leaves) == n_legal and all(p == 1 - me for _, p in leaves)
        masks[determinize] = {m.tobytes() for m, _ in leaves}
    assert len(masks["search"]) == 1
    assert len(masks["iteration"]) >= 2
    # determinize="hidden": the refill is twenty chance nodes of the tree, sampled on every descent
    assert len(masks["hidden"]) >= 2


def test_chance_tree_is_the_same_position_with_chance_left_to_the_search():
    """chance_tree: the same legal actions and every seat's observation, and the chance to come is a
    chance node (The Castle's next draw: where the sampled state draws a tile inside apply(), the
    copy stops at a chance node whose outcomes' probabilities add up to 1)."""
    from tilecraft.puct import chance_tree

    assert set(EXPLICIT_CHANCE) == {"azul", "castle", "gaudi"}
    for game in EXPLICIT_CHANCE:
        for players in tilecraft.game_spec(game).players:
            s = _advance(tilecraft.make(game, players=players, seed=5), 15, seed=6)
            t = chance_tree(s)
            assert t is not s and t.current_player() == s.current_player() and not t.is_chance_node()
            assert sorted(t.legal_actions()) == sorted(s.legal_actions())
            for seat in range(players):
                assert np.array_equal(t.observation(seat), s.observation(seat))
            assert chance_tree(t) is t  # explicit already
    s = tilecraft.make("castle", seed=2)
    t = chance_tree(s)
    while not s.is_chance_node() and s.current_player() == 0:
        a = int(s.legal_actions()[0])
        s.apply(a)
        t.apply(a)
        if t.is_chance_node():
            break
    assert t.is_chance_node() and not s.is_chance_node()
    assert abs(sum(p for _, p in t.chance_outcomes()) - 1.0) < 1e-9


@pytest.mark.parametrize("game", ["warsaw", "nim"])
@pytest.mark.parametrize("mode", ["hidden", "hidden-iteration"])
def test_determinize_hidden_needs_explicit_chance(game, mode):
    from tilecraft.testing import nim

    state = tilecraft.make(game) if game != "nim" else nim()
    with pytest.raises(ValueError, match="determinize='hidden' or 'hidden-iteration' needs a game whose chance can "
                                         "be explicit.*castle"):
        PUCTBot("uniform", simulations=4, determinize=mode).search(state)
    with pytest.raises(ValueError, match=f"determinize='{mode}'.*C\\+\\+ self-play"):
        PUCTBot("uniform", determinize=mode).spec(game)


def test_determinize_hidden_iteration_is_iteration_on_the_explicit_chance_copy():
    """'hidden-iteration' is information-set PUCT ('iteration': the hidden parts drawn again for every
    simulation) on chance_tree(state): the same search, move for move, as 'iteration' on the copy.
    Unlike 'hidden' (one draw of the other hands per search) its leaves see several hands of the
    opponent. Gaudí, a position where each of the mover's 9 actions hands the turn to the opponent:
    with even priors and values the first 9 simulations expand one root child each, and each leaf is
    the opponent's view, whose features that a redraw of the hidden parts changes (its hand) are
    the same in every leaf with one draw per search, and differ with one per simulation."""
    from tilecraft.puct import chance_tree

    s = _advance(tilecraft.make("gaudi", seed=7), 6, seed=7)
    legal = s.legal_actions()
    assert s.current_player() == 0 and len(legal) == 9
    for a in legal:
        c = s.clone()
        c.apply(int(a))
        assert c.current_player() == 1
    a = PUCTBot(FixedEvaluator(), simulations=50, batch_size=1, seed=6, determinize="hidden-iteration").search(s)
    b = PUCTBot(FixedEvaluator(), simulations=50, batch_size=1, seed=6, determinize="iteration").search(chance_tree(s))
    assert np.array_equal(a["visits"], b["visits"]) and a["action"] == b["action"]
    seen = np.asarray(s.observation(1)).reshape(-1)
    hidden = set()  # the opponent's features that depend on what seat 0 cannot see
    for k in range(20):
        v = s.clone()
        v.resample_hidden(0, 100 + k)
        hidden |= set(np.flatnonzero(np.asarray(v.observation(1)).reshape(-1) != seen).tolist())
    idx = np.array(sorted(hidden))
    assert len(idx) > 0
    hands = {}
    for mode in ("hidden", "hidden-iteration"):
        leaves = []

        def even(obs, mask, players):  # uniform priors, even values; the opponent's rows recorded
            leaves.extend(o.reshape(-1).copy() for o, q in zip(obs, players) if q == 1)
            return np.zeros(mask.shape, np.float32), np.full((len(obs), 2), 0.5, np.float32)

        PUCTBot(even, simulations=len(legal), batch_size=1, seed=3, determinize=mode).search(s)
        assert len(leaves) == len(legal)
        hands[mode] = {o[idx].tobytes() for o in leaves}
    assert len(hands["hidden"]) == 1 and len(hands["hidden-iteration"]) >= 3


@pytest.mark.parametrize("mode", ["hidden", "hidden-iteration"])
def test_determinize_hidden_search_is_deterministic_and_plays_a_match(mode):
    for game in EXPLICIT_CHANCE:
        s = _advance(tilecraft.make(game, seed=8), 6, seed=9)
        a = PUCTBot(FixedEvaluator(), simulations=40, batch_size=1, seed=4, determinize=mode).search(s)
        b = PUCTBot(FixedEvaluator(), simulations=40, batch_size=1, seed=4, determinize=mode).search(s.clone())
        assert np.array_equal(a["visits"], b["visits"]) and a["action"] == b["action"]
        assert int(a["visits"].sum()) == 40 and a["action"] in set(int(x) for x in s.legal_actions())
    r = play_match("castle", [PUCTBot("uniform", simulations=8, determinize=mode), "random"], seed=3)
    assert r.winners


def _mid_round_heuristics():
    """An Azul position mid-round, its mover, legal actions, and h(a): the mover's heuristic after
    playing a, computed by clone/apply/heuristic (what the greedy bot maximises)."""
    state = _advance(tilecraft.make("azul", seed=5), 3, seed=4)
    me = state.current_player()
    legal = state.legal_actions()
    h = []
    for a in legal:
        s = state.clone()
        s.apply(int(a))
        h.append(s.heuristic(me))
    return state, me, legal, np.array(h)


@pytest.mark.parametrize("determinize", ["search", "iteration"])
def test_prior_heuristic_biases_the_root_priors_by_the_one_ply_heuristic(determinize):
    """With uniform logits and prior_heuristic=b, the root's priors are the softmax over the legal
    actions of b * (h(a) - max h) / eval_scale, h(a) being the mover's heuristic after playing a: the
    value the greedy bot maximises. Mid-round in Azul a take reveals nothing, so h is computed here on
    the real state (the search's determinization draws only the bag)."""
    state, me, legal, h = _mid_round_heuristics()
    assert h.max() > h.min()  # the position tells the actions apart
    for b in (0.0, 1.0, 4.0):
        r = PUCTBot("uniform", simulations=4, prior_heuristic=b, eval_scale=10.0, seed=2,
                    determinize=determinize).search(state)
        expected = np.exp(b * (h - h.max()) / 10.0)
        expected /= expected.sum()
        assert np.allclose(r["prior"][legal], expected, atol=1e-5), b
        assert r["prior"].sum() == pytest.approx(1.0, abs=1e-5)
    # the greedy bot's choices get the most prior
    assert set(np.flatnonzero(h == h.max())) == set(np.flatnonzero(np.isclose(expected, expected.max())))


def test_prior_heuristic_adds_to_the_evaluators_logits_after_the_temperature():
    """With an evaluator's logits z, temperature T and weight b, the root's priors are the softmax of
    z / T + b * (h - max h) / eval_scale (Azul mid-round, h computed by hand as above)."""
    state, me, legal, h = _mid_round_heuristics()
    obs = state.observation(me)[None].astype(np.float32)
    z = FixedEvaluator()(obs, state.legal_action_mask()[None], np.array([me]))[0][0, legal].astype(np.float64)
    for t, b in ((1.0, 3.0), (2.0, 3.0)):
        r = PUCTBot(FixedEvaluator(), simulations=4, prior_temperature=t, prior_heuristic=b, eval_scale=10.0,
                    seed=2).search(state)
        x = z / t + b * (h - h.max()) / 10.0
        expected = np.exp(x - x.max())
        expected /= expected.sum()
        assert np.allclose(r["prior"][legal], expected, atol=1e-5), (t, b)


class _RecordingObservations:
    """Uniform priors and even values (2 seats), with every row's observation recorded in order."""

    def __init__(self):
        self.obs = []

    def __call__(self, obs, mask, players):
        self.obs += [o.copy() for o in obs]
        return np.zeros(mask.shape, np.float32), np.full((len(obs), 2), 0.5, np.float32)


def _after(state, *actions):
    s = state.clone()
    for a in actions:
        s.apply(int(a))
    return s


@pytest.mark.parametrize("determinize", ["search", "iteration"])
def test_opponent_prior_heuristic_models_the_other_seat_as_greedy(determinize):
    """opponent_prior_heuristic is the heuristic bias where the other seat moves, and only there.
    Azul mid-round, uniform priors and even values, one leaf at a time, no bias at the root: the first
    L simulations visit each of the root's L children once (legal order), and the next one goes down
    the first child to the opponent's node, whose children all look alike but for their priors. With
    the opponent's bias it asks about the opponent's greedy reply (the largest h, the opponent's own
    heuristic after the reply, computed here by clone/apply); without it (the default, the root's 0),
    about the opponent's first legal action. A take reveals nothing mid-round, so the search's
    determinization shows the same observations as the real state."""
    state, me, legal, _ = _mid_round_heuristics()
    first = _after(state, legal[0])
    opp = first.current_player()
    assert opp != me and not first.is_chance_node()
    replies = first.legal_actions()
    h = np.array([_after(first, r).heuristic(opp) for r in replies])
    assert h.max() > h[0]  # the opponent's first legal action is not a greedy one
    greedy = [_after(first, r).observation(me) for r in replies[h == h.max()]]
    plain = _after(first, replies[0]).observation(me)
    n = len(legal) + 1
    for bias, expected in ((None, [plain]), (0.0, [plain]), (1000.0, greedy)):
        ev = _RecordingObservations()
        r = PUCTBot(ev, simulations=n, batch_size=1, seed=2, determinize=determinize, eval_scale=10.0,
                    opponent_prior_heuristic=bias).search(state)
        assert int(r["visits"][legal[0]]) == 2 and int(r["visits"].sum()) == n
        assert len(ev.obs) == n + 1  # the root, its L children, then the leaf below the first child
        assert any(np.array_equal(ev.obs[-1], o) for o in expected), bias
    # the root is the searcher's: its priors take prior_heuristic, whatever the opponent's bias
    for root_bias in (0.0, 4.0):
        priors = [PUCTBot("uniform", simulations=4, seed=2, prior_heuristic=root_bias, eval_scale=10.0,
                          opponent_prior_heuristic=o, determinize=determinize).search(state)["prior"]
                  for o in (None, 0.0, 1000.0)]
        assert all(np.array_equal(priors[0], p) for p in priors[1:])


def test_opponent_prior_heuristic_changes_nothing_in_a_solo_game():
    """Solo Gaudí has no other seat (the automa's turns are chance): every node is the searcher's, so
    the opponent's bias changes nothing in a search, whatever it is."""
    state = _advance(tilecraft.make("gaudi", players=1, seed=3), 4, seed=5)
    if state.current_player() < 0:
        pytest.skip("no decision here")
    runs = [PUCTBot("uniform", simulations=60, batch_size=1, seed=1, prior_heuristic=2.0,
                    opponent_prior_heuristic=o).search(state) for o in (None, 0.0, 50.0)]
    for r in runs[1:]:
        assert np.array_equal(runs[0]["visits"], r["visits"]) and r["action"] == runs[0]["action"]


def test_prior_temperature_divides_the_logits():
    """prior_temperature T: the root's priors are the softmax of the evaluator's logits / T."""
    state = _advance(tilecraft.make("gaudi", seed=2), 5, seed=7)
    legal = state.legal_actions()
    ev = FixedEvaluator()
    obs = state.observation(state.current_player())[None].astype(np.float32)
    logits = ev(obs, state.legal_action_mask()[None], np.array([state.current_player()]))[0][0, legal].astype(np.float64)
    assert logits.max() > logits.min()
    for t in (1.0, 2.5, 0.5):
        r = PUCTBot(FixedEvaluator(), simulations=4, prior_temperature=t, seed=2).search(state)
        expected = np.exp((logits - logits.max()) / t)
        expected /= expected.sum()
        assert np.allclose(r["prior"][legal], expected, atol=1e-5), t


@pytest.mark.parametrize("game", GAMES)
def test_worlds_are_trees_whose_root_visits_add_up(game):
    """worlds=3 splits 37 simulations 13 / 12 / 12 between three trees; the first tree is seeded
    with the bot's own seed, so it is the one-world search of 13 simulations: the three-world
    visits contain its visits, and the other two trees add 24 more. Policy and values are those of
    the summed visits."""
    for state in _positions(game):
        ev = FixedEvaluator(state.num_players())
        one = PUCTBot(ev, simulations=13, batch_size=4, seed=2).search(state)
        three = PUCTBot(ev, simulations=37, batch_size=4, seed=2, worlds=3).search(state)
        mask = state.legal_action_mask()
        more = three["visits"] - one["visits"]
        assert (more >= 0).all() and more.sum() == 24
        assert three["visits"].sum() == 37 == three["simulations"]
        assert not three["visits"][~mask].any() and mask[three["action"]]
        assert np.allclose(three["policy"], three["visits"] / 37, atol=1e-6)
        best = three["visits"].max()
        assert three["visits"][three["action"]] == best
        tied = np.flatnonzero(three["visits"] == best)
        assert three["values"][three["action"]] == three["values"][tied].max()
        # each tree evaluates its own root: three root rows
        assert three["evaluations"] >= 3


def test_each_world_draws_its_own_future_and_gathers_its_own_leaves():
    """At the last pick of an Azul round (as above), with uniform priors, one leaf per tree and call,
    and worlds * L simulations, each tree spends its L simulations on the L root actions, and each
    leaf is the opponent's first decision of the next round, whose legal actions show the tree's
    draw of the refill: the leaves of one world show one draw, of two worlds two. Every evaluator
    call holds one leaf from each unfinished tree."""
    state = _azul_last_pick_of_a_round()
    n_legal = len(state.legal_actions())
    for worlds in (1, 2):
        ev = _RecordingUniform()
        r = PUCTBot(ev, simulations=worlds * n_legal, batch_size=1, seed=3, worlds=worlds).search(state)
        assert r["visits"].sum() == worlds * n_legal and (r["visits"][state.legal_actions()] == worlds).all()
        leaves = [row for row in ev.rows if row[1] != state.current_player()]
        assert len(leaves) == worlds * n_legal
        assert len({m.tobytes() for m, _ in leaves}) == worlds
        assert max(ev.sizes) == worlds


def test_worlds_in_batched_self_play_and_the_same_games_at_any_concurrency():
    kw = dict(n_games=5, seed=8, record=True, evaluator=FixedEvaluator())
    bots = [PUCTBot(simulations=24, batch_size=2, worlds=3), "greedy"]
    a = tilecraft.self_play("castle", bots, concurrent_games=1, **kw)
    b = tilecraft.self_play("castle", bots, concurrent_games=5, **kw)
    assert all(np.array_equal(x, y) for x, y in zip(a["actions"], b["actions"]))
    t = a["training"]
    ours = t["policy"][np.asarray(a["seat_bot"])[t["game"], t["player"]] == 0]
    assert len(ours) and np.allclose(np.round(ours * 24), ours * 24, atol=1e-4)  # visits out of 24
    assert np.allclose(ours.sum(axis=1), 1.0, atol=1e-5)
