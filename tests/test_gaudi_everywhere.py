"""Gaudí through every shared layer the other games use (issue 8 item 6): batch playouts and
self-play with training data, local tournaments with rotated seats, the command line, and the
search bots' no-peek property on a state whose hidden part really differs. The adapters are in
test_adapters.py, the golden playthroughs in test_playthroughs.py; the tests parametrised by
game (test_search_bots.py, test_selfplay_batch.py, test_bots_and_match.py) include Gaudí."""
import numpy as np
import pytest

import tilecraft
from tilecraft.cli import main


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts(players):
    r = tilecraft.random_playouts("gaudi", 40, seed=2, players=players)
    assert r["scores"].shape == (40, players) and np.all(r["length"] > 20)
    again = tilecraft.random_playouts("gaudi", 40, seed=2, players=players, threads=2)
    assert np.array_equal(r["scores"], again["scores"]) and np.array_equal(r["length"], again["length"])


def test_explicit_chance_playouts():
    r = tilecraft.random_playouts("gaudi", 20, seed=1, players=4, chance="explicit", first_player=-1)
    assert np.all(r["length"] > 20)


@pytest.mark.parametrize("players", [2, 4])
def test_self_play_records_training_data_that_replays(players):
    r = tilecraft.self_play("gaudi", ["ismcts:iterations=30", "greedy", "random"], 3, seed=3, players=players,
                            record=True)
    t = r["training"]
    n_actions = tilecraft.make("gaudi", players=players).num_distinct_actions()
    assert t["legal_mask"].shape[1] == t["policy"].shape[1] == n_actions
    assert np.allclose(t["policy"].sum(axis=1), 1.0, atol=1e-5)
    assert not np.any(t["policy"][~t["legal_mask"]])
    row = 0
    for g in range(3):
        state = tilecraft.make("gaudi", players=players, seed=int(r["state_seed"][g]))
        for a in r["actions"][g]:
            seat = state.current_player()
            assert t["game"][row] == g and t["player"][row] == seat
            assert np.array_equal(t["observation"][row], state.observation(seat))
            assert np.array_equal(t["legal_mask"][row], state.legal_action_mask())
            assert t["policy"][row][int(a)] > 0
            state.apply(int(a))
            row += 1
        assert state.is_terminal()
        assert np.array_equal(state.scores(), r["scores"][g])
    assert row == len(t["player"])


def test_local_tournament_with_rotated_seats():
    bots = ["ismcts:iterations=20", "greedy", "random", "greedy"]
    one = tilecraft.tournament("gaudi", bots, players=4, games_per_pairing=4, workers=1, seed=2)
    two = tilecraft.tournament("gaudi", bots, players=4, games_per_pairing=4, workers=2, seed=2)
    strip = lambda games: [{k: v for k, v in g.items() if k != "seconds"} for g in games]  # noqa: E731
    assert strip(one.games) == strip(two.games)
    seats = {tuple(g["seats"]) for g in one.games}
    assert len(seats) == 4 and {s[k] for s in seats for k in range(4)} == set(one.bots)  # every bot in every seat
    assert all(len({s[k] for s in seats}) == 4 for k in range(4))
    assert len({g["seed"] for g in one.games}) == 1  # one rotation cycle shares its deal
    for g in one.games:
        state = tilecraft.make("gaudi", players=4, seed=g["seed"])
        for a in g["actions"]:
            state.apply(a)
        assert list(state.scores()) == g["scores"] and list(state.winners()) == g["winners"]
    rows = {row["bot"]: row for row in one.standings()}
    assert set(rows) == {"ismcts:iterations=20", "greedy", "random", "greedy#2"}


def test_cli_play_rules_bench(capsys):
    assert main(["play", "gaudi", "--bots", "greedy,random,greedy", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "game over" in out and "winner" in out and "seat 2" in out
    assert main(["play", "gaudi", "--bots", "greedy,random", "-o", "chance=explicit", "-v"]) == 0
    assert "virtual" in capsys.readouterr().out  # the 2-player virtual marker is drawn
    assert main(["rules", "gaudi"]) == 0
    out = capsys.readouterr().out
    assert "players: 2, 3, 4" in out and "generic_distinct" in out
    assert main(["bench", "gaudi", "--games", "200", "--players", "4"]) == 0
    assert "games/s" in capsys.readouterr().out
    assert main(["play", "gaudi", "-o", "mode=expert"]) == 2
    assert "basic" in capsys.readouterr().err


def test_search_variants_really_differ_in_hidden_parts():
    """The no-peek test of test_search_bots.py resamples what the mover cannot see; for Gaudí that
    is the other seats' starting cards and the deck orders, so the variants are different states."""
    base = tilecraft.make("gaudi", players=4, seed=11)
    me = base.current_player()
    hands, states = set(), set()
    for k in range(6):
        v = base.clone()
        v.resample_hidden(me, 1000 + k)
        assert np.array_equal(v.observation(me), base.observation(me))
        hands.add(tuple(v.start_card(q) for q in range(4) if q != me))
        states.add(v.to_json())
    assert len(hands) > 1 and len(states) > 1
