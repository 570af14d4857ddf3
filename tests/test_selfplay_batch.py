"""C++ batch self-play: determinism, thread independence, and training data checked by replay."""
import numpy as np
import pytest

import tilecraft


@pytest.mark.parametrize("game", tilecraft.list_games())
def test_results_do_not_depend_on_threads(game):
    # 10 iterations are a real search (its own RNG stream per game) at a quarter of the cost of 40
    bots = ["mcts:iterations=10", "greedy", "random"]
    players = tilecraft.game_spec(game).players[0]
    a = tilecraft.self_play(game, bots, 6, seed=3, threads=1, players=players)
    b = tilecraft.self_play(game, bots, 6, seed=3, threads=2, players=players)
    for key in ("scores", "returns", "winners", "seat_bot", "length"):
        assert np.array_equal(a[key], b[key]), key
    assert all(np.array_equal(x, y) for x, y in zip(a["actions"], b["actions"]))
    c = tilecraft.self_play(game, bots, 6, seed=4, threads=1, players=players)
    assert not all(np.array_equal(x, y) for x, y in zip(a["actions"], c["actions"]))


def test_games_replay_to_the_reported_results_and_seats_rotate():
    r = tilecraft.self_play("azul", ["ismcts:iterations=30", "greedy", "random"], 6, seed=1, players=3,
                            chance="explicit")
    for g in range(6):
        assert sorted(r["seat_bot"][g]) == [0, 1, 2]
        assert list(r["seat_bot"][g]) == [(k + g) % 3 for k in range(3)]
        state = tilecraft.make("azul", players=3, chance="explicit", seed=int(r["state_seed"][g]))
        for a in r["actions"][g]:
            state.apply(int(a))  # raises if any recorded action is illegal
        assert state.is_terminal()
        assert len(r["actions"][g]) == r["length"][g]
        assert np.array_equal(state.scores(), r["scores"][g])
        assert [k for k in range(3) if r["winners"][g][k]] == list(state.winners())


def test_training_data_matches_a_replay_of_the_game():
    r = tilecraft.self_play("azul", ["mcts:iterations=50", "greedy"], 2, seed=5, record=True)
    t = r["training"]
    rows = len(t["player"])
    n_actions = tilecraft.make("azul").num_distinct_actions()
    assert t["observation"].shape[0] == t["legal_mask"].shape[0] == t["policy"].shape[0] == rows
    assert t["legal_mask"].shape[1] == t["policy"].shape[1] == n_actions
    assert np.allclose(t["policy"].sum(axis=1), 1.0, atol=1e-5)
    assert not np.any(t["policy"][~t["legal_mask"]])  # no probability on illegal actions
    row = 0
    for g in range(2):
        state = tilecraft.make("azul", seed=int(r["state_seed"][g]))
        for a in r["actions"][g]:
            seat = state.current_player()
            assert t["game"][row] == g and t["player"][row] == seat
            assert np.array_equal(t["observation"][row], state.observation(seat))
            assert np.array_equal(t["legal_mask"][row], state.legal_action_mask())
            assert t["policy"][row][int(a)] > 0  # the action played had support
            assert np.array_equal(t["returns"][row], r["returns"][g])
            state.apply(int(a))
            row += 1
    assert row == rows
    # Search bots give a spread of visits; greedy ones a one-hot choice.
    searched = t["policy"][r["seat_bot"][t["game"], t["player"]] == 0]
    greedy = t["policy"][r["seat_bot"][t["game"], t["player"]] == 1]
    assert np.all((greedy == 0) | (greedy == 1)) and np.any((searched > 0) & (searched < 1))


def test_bad_arguments():
    with pytest.raises(ValueError, match="built-in"):
        tilecraft.self_play("azul", [object()], 1)
    with pytest.raises(ValueError, match="threads"):
        tilecraft.self_play("azul", ["random"], 1, threads=0)
    with pytest.raises(ValueError, match="n_games"):
        tilecraft.self_play("azul", ["random"], -1)
    with pytest.raises(ValueError, match="iterations"):
        tilecraft.self_play("azul", ["mcts:iterations=0"], 1)
