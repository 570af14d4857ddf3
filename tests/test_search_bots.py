"""The search bots on every registered game: legal play, no peeking, determinism, options."""
import random

import numpy as np
import pytest

import tilecraft
from tilecraft import GreedyBot, ISMCTSBot, MCTSBot, RandomBot, make_bot, play_match

GAMES = tilecraft.list_games()


def _config_variants(game):
    """Player counts and, where the game has it, explicit chance."""
    spec = tilecraft.game_spec(game)
    variants = [dict(players=p) for p in spec.players]
    if any(o.name == "chance" for o in spec.options):
        variants.append(dict(players=spec.players[0], chance="explicit"))
    return variants


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


@pytest.mark.parametrize("game", GAMES)
def test_search_bots_play_only_legal_actions(game):
    for options in _config_variants(game):
        players = options.pop("players")
        for bot_cls in (MCTSBot, ISMCTSBot):
            bots = [bot_cls(iterations=30, seed=1), bot_cls(iterations=20, rollout="greedy", rollout_depth=2, seed=2),
                    RandomBot(3), GreedyBot(4)][:players]
            # play_match applies every action to the real state, which rejects illegal ones; check
            # the bots' choices against the legal list too, independently of the engine's check.
            checked = []

            class Checked:
                def __init__(self, inner):
                    self.inner = inner
                    self.name = getattr(inner, "name", "bot")

                def reset(self, seat, seed):
                    self.inner.reset(seat, seed)

                def act(self, state):
                    a = self.inner.act(state)
                    assert a in set(int(x) for x in state.legal_actions())
                    checked.append(a)
                    return a

            result = play_match(game, [Checked(b) for b in bots], seed=5, **options)
            # a 1-seat game against a scripted opponent (Gaudí solo) has no winner when the opponent wins
            assert checked and (len(result.winners) >= 1 or result.players == 1)


# Every game's resample_hidden depends only on the observer's view and the seed (the conformance
# harness checks that too), so a search started from it cannot depend on the real hidden parts.
PEEK_PARAMS = GAMES


@pytest.mark.parametrize("bot_cls", [MCTSBot, ISMCTSBot])
@pytest.mark.parametrize("game", PEEK_PARAMS)
def test_search_never_peeks_at_hidden_information(game, bot_cls):
    """States that look the same to the mover get the same search, whatever their hidden parts."""
    for players in tilecraft.game_spec(game).players:
        base = _advance(tilecraft.make(game, players=players, seed=11), 7, seed=3)
        while len(base.legal_actions()) < 4 and not base.is_terminal():  # a position with a real choice
            base = _advance(base, 1, seed=len(base.history()))
        me = base.current_player()
        variants = []
        for k in range(4):
            v = base.clone()
            v.resample_hidden(me, 1000 + k)  # a different hidden part / future, same view for `me`
            assert np.array_equal(v.observation(me), base.observation(me))
            variants.append(v)
        results = [bot_cls(iterations=150, seed=9).search(v) for v in variants]
        for r in results[1:]:
            assert r["action"] == results[0]["action"]
            assert np.array_equal(r["visits"], results[0]["visits"])
        # The search does depend on its own seed (so the equality above is not vacuous).
        others = [bot_cls(iterations=150, seed=s).search(variants[0]) for s in (10, 11, 12)]
        assert any(not np.array_equal(o["visits"], results[0]["visits"]) for o in others)


def test_hidden_future_really_differs_between_variants():
    """The variants of the no-peek test differ in what the mover cannot see (Azul: future draws)."""
    base = _advance(tilecraft.make("azul", seed=11), 3, seed=3)
    futures = set()
    for k in range(4):
        v = base.clone()
        v.resample_hidden(base.current_player(), 1000 + k)
        while not v.is_terminal() and v.round() == base.round():
            v.apply(int(v.legal_actions()[0]))
        futures.add(v.factories().tobytes())
    assert len(futures) > 1


def test_search_leaves_the_state_unchanged():
    state = _advance(tilecraft.make("azul", players=3, seed=2), 5, seed=1)
    before = state.to_json()
    for bot in (MCTSBot(iterations=100), ISMCTSBot(iterations=100, threads=2)):
        bot.act(state)
        assert state.to_json() == before


@pytest.mark.parametrize("bot", ["mcts:iterations=60", "ismcts:iterations=60,rollout=greedy",
                                 "mcts:iterations=60,threads=2"])
def test_equal_seeds_give_equal_games(bot):
    a = play_match("azul", [bot, "greedy"], seed=4)
    b = play_match("azul", [bot, "greedy"], seed=4)
    assert a.actions == b.actions and a.scores == b.scores
    c = play_match("azul", [bot, "greedy"], seed=5)
    assert c.actions != a.actions


def test_search_result_accounts_for_every_iteration():
    state = tilecraft.make("azul", seed=3)
    legal = set(int(a) for a in state.legal_actions())
    for threads in (1, 2):
        r = MCTSBot(iterations=500, threads=threads, seed=1).search(state)
        assert r["iterations"] == 500
        assert r["visits"].sum() == 500  # every iteration passes through exactly one root action
        assert set(np.flatnonzero(r["visits"])) <= legal
        assert abs(r["policy"].sum() - 1.0) < 1e-5
        assert r["action"] == int(np.argmax(r["visits"])) or r["visits"][r["action"]] == r["visits"].max()


def test_time_budget():
    state = tilecraft.make("azul", seed=3)
    r = MCTSBot(seconds=0.05, seed=1).search(state)
    # no iteration cap: the search can only end because the budget was spent (it checks the clock
    # every 16 iterations, after at least one), so the time reported is at least the budget. No
    # upper bound: a loaded machine may take longer, and that is not an error.
    assert r["seconds"] >= 0.05 and r["iterations"] > 0
    r = MCTSBot(iterations=50, seconds=10.0, seed=1).search(state)  # whichever comes first
    assert r["iterations"] == 50


def test_tree_reuse_keeps_the_subtree():
    state = tilecraft.make("azul", seed=3)
    bot = MCTSBot(iterations=2000, seed=1)
    first = bot.search(state)
    kept = int(first["visits"][first["action"]])
    state.apply(first["action"])  # the same bot now searches for the other seat, from that child
    reused = bot.search(state)
    fresh = MCTSBot(iterations=2000, seed=1, reuse_tree=False).search(state)
    # The kept subtree adds its earlier visits (all but the one that created the child) to these 2000.
    assert reused["visits"].sum() == 2000 + kept - 1 and fresh["visits"].sum() == 2000


def test_more_iterations_beat_fewer_against_random():
    r = tilecraft.self_play("azul", ["mcts:iterations=200", "random"], 4, seed=3, threads=2)
    mcts_seat = r["seat_bot"] == 0
    assert r["winners"][mcts_seat].all()


@pytest.mark.parametrize("spec, message", [
    ("mcts:iterations=0", "iterations"),
    ("mcts:seconds=-1", "seconds"),
    ("mcts:threads=0", "threads"),
    ("mcts:rollout=smart", "rollout"),
    ("ismcts:exploration=-1", "exploration"),
    ("mcts:rollout_depth=-2", "rollout_depth"),
    ("mcts:nonsense=3", "nonsense"),
])
def test_bad_options_raise_clear_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_engine_rejects_bad_options_too():
    cls = type(tilecraft.make("azul")).Searcher
    for kwargs, message in ((dict(iterations=0), "iterations"), (dict(seconds=-1.0), "seconds"),
                            (dict(depth=3), "unknown option 'depth'"), (dict(rollout="x"), "rollout"),
                            (dict(threads=1000), "threads")):
        with pytest.raises(ValueError, match=message):
            cls(**kwargs)
    done = tilecraft.make("azul", seed=1)
    while not done.is_terminal():
        done.apply(int(done.legal_actions()[0]))
    with pytest.raises(ValueError, match="finished"):
        cls(iterations=10).search(done)
    chance = tilecraft.make("azul", chance="explicit")
    with pytest.raises(ValueError, match="chance node"):
        cls(iterations=10).search(chance)


def test_explicit_chance_nodes_in_the_tree():
    """Near the end of a round in explicit-chance mode the iterations cross the refill's chance
    nodes; every iteration is still accounted for at the root and the choice is legal."""
    state = tilecraft.make("azul", chance="explicit", seed=2)
    rng = random.Random(0)
    while True:  # play until the last few tiles of the first round are on display
        while state.is_chance_node():
            state.apply(state.chance_outcomes()[0][0])
        if state.factories().sum() <= 6:
            break
        legal = state.legal_actions()
        state.apply(int(legal[rng.randrange(len(legal))]))
    for bot_cls in (MCTSBot, ISMCTSBot):
        r = bot_cls(iterations=3000, seed=1).search(state)
        assert r["visits"].sum() == 3000
        assert r["action"] in set(int(a) for a in state.legal_actions())
        assert r["nodes"] == 3001  # one node per iteration (chance nodes included), plus the root


def test_time_budget_with_threads():
    state = tilecraft.make("azul", players=4, seed=3)
    r = ISMCTSBot(seconds=0.05, threads=2, seed=1).search(state)
    assert r["iterations"] > 0 and r["visits"].sum() == r["iterations"] and r["seconds"] >= 0.05  # no upper bound


def test_games_can_tune_search_defaults_and_explicit_options_win():
    """The presets (tilecraft/agents/presets.json, mcts) fill the options a bot leaves unset; options given
    explicitly win."""
    from tilecraft import presets

    bot = MCTSBot(iterations=10)
    assert bot._resolved("warsaw")["rollout_depth"] == presets.mcts_defaults("warsaw")["rollout_depth"] == 8
    assert bot._resolved("azul")["rollout_depth"] == presets.mcts_defaults(None)["rollout_depth"] == 4
    assert MCTSBot(iterations=10, rollout_depth=2)._resolved("warsaw")["rollout_depth"] == 2
    with pytest.raises(ValueError):
        MCTSBot(iterations=10, rollout="sideways")
