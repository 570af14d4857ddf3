"""Python threads (issue 12, item 3): many threads using separate states, the batch runners and the
search bots at once never crash or corrupt, and what is shared behaves as docs/testing.md says:

- a state shared by threads: every method holds the GIL for its whole call, except the searches and
  greedy_action, which copy the state first; so concurrent calls are serialized, each call sees a
  consistent state, and an action another thread made illegal raises IllegalActionError;
- a bot (searcher) shared by threads: its searches take turns (a lock per searcher);
- batch runners (random_playouts, self_play) take a config, not a state: always safe, and their
  results do not depend on the thread count or on what runs beside them."""
import threading

import numpy as np
import pytest

import tilecraft

GAMES = tilecraft.list_games()


def _reload(text):
    return tilecraft.from_json(text)


def _run_threads(n, target):
    errors = []

    def wrap(i):
        try:
            target(i)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=wrap, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    assert not any(t.is_alive() for t in ts), "a thread hung"
    if errors:
        raise errors[0]


def _play(state, seed, steps=10**9):
    rng = np.random.default_rng(seed)
    k = 0
    while not state.is_terminal() and k < steps:
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
        k += 1
    return state


def _reference(game, seed):
    return _play(tilecraft.make(game, seed=seed), seed).to_json()


@pytest.mark.parametrize("game", GAMES)
def test_separate_states_in_many_threads_match_one_thread(game):
    expected = [_reference(game, s) for s in range(8)]
    got = [None] * 8

    def work(i):
        got[i] = _play(tilecraft.make(game, seed=i), i).to_json()

    _run_threads(8, work)
    assert got == expected


@pytest.mark.parametrize("game", GAMES)
def test_batch_runners_and_bots_at_once(game):
    """random_playouts and self_play on 2 C++ threads each, MCTS/ISMCTS/greedy bots on their own
    states, all from several Python threads at once: results equal the single-threaded ones."""
    cfg = tilecraft.make_config(game)
    ref_playouts = tilecraft.random_playouts(game, 16, seed=5, threads=1)
    ref_selfplay = tilecraft.self_play(game, ["random", "greedy"], 4, seed=3, threads=1)
    results = {}

    def work(i):
        kind = i % 4
        if kind == 0:
            results[i] = tilecraft.random_playouts(game, 16, seed=5, threads=2)
        elif kind == 1:
            results[i] = tilecraft.self_play(game, ["random", "greedy"], 4, seed=3, threads=2)
        elif kind == 2:
            bot = tilecraft.MCTSBot(iterations=30, threads=2, seed=i) if i % 8 == 2 else \
                tilecraft.ISMCTSBot(iterations=30, seed=i)
            s = tilecraft.make(game, seed=i)
            for _ in range(6):
                if s.is_terminal():
                    break
                s.apply(bot.act(s) if s.current_player() >= 0 else int(s.legal_actions()[0]))
            results[i] = s.to_json()
        else:
            s = tilecraft.make(game, seed=i)
            for _ in range(20):
                if s.is_terminal():
                    break
                s.apply(s.greedy_action(i) if s.current_player() >= 0 else int(s.legal_actions()[0]))
            results[i] = s.to_json()

    _run_threads(8, work)
    assert cfg == tilecraft.make_config(game)
    for i, r in results.items():
        if i % 4 == 0:
            for k in ("scores", "length"):
                np.testing.assert_array_equal(r[k], ref_playouts[k])
        elif i % 4 == 1:
            np.testing.assert_array_equal(r["scores"], ref_selfplay["scores"])
        else:
            _reload(r)  # a valid state


@pytest.mark.parametrize("game", GAMES)
def test_one_state_shared_by_threads_works_or_raises(game):
    """Threads race to apply random legal actions (and search, and read) on ONE state: every apply
    either succeeds or raises IllegalActionError (the action went stale), and the state stays
    valid: it round-trips and its history replays to the same state."""
    state = tilecraft.make(game, seed=11)
    bot = tilecraft.ISMCTSBot(iterations=20, seed=1)
    stale = [0]

    def work(i):
        rng = np.random.default_rng(i)
        for _ in range(300):
            if state.is_terminal():
                return
            r = rng.integers(10)
            if r == 0 and state.current_player() >= 0:
                try:
                    state.apply(bot.act(state))
                except tilecraft.IllegalActionError:
                    stale[0] += 1
                except ValueError as e:  # the game ended (or a chance node came) between the checks
                    assert "terminal" in str(e) or "chance" in str(e) or "finished" in str(e), e
                continue
            if r == 1:
                state.observation(0), state.legal_action_mask(), state.to_json(), state.scores()
                continue
            legal = state.legal_actions()
            if len(legal) == 0:
                return
            try:
                state.apply(int(legal[rng.integers(len(legal))]))
            except tilecraft.IllegalActionError:
                stale[0] += 1

    _run_threads(4, work)
    again = _reload(state.to_json())
    assert again.to_json() == state.to_json()
    replay = tilecraft.make(game, seed=11)
    for a in state.history():
        replay.apply(int(a))
    assert replay.to_json() == state.to_json()


def test_one_bot_shared_by_threads():
    """One MCTSBot searched from 4 threads at once (each on its own state): the searches take turns
    and every answer is a legal action of the state it was asked about."""
    bot = tilecraft.MCTSBot(iterations=50, seed=3, reuse_tree=False)

    def work(i):
        s = tilecraft.make("azul", seed=i)
        for _ in range(5):
            a = bot.act(s)
            assert s.is_legal(a)
            s.apply(a)

    _run_threads(4, work)
