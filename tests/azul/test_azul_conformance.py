"""Azul passes the generic conformance harness in every configuration (players, chance modes)."""
import pytest

import tilecraft
from conformance import (check_malformed_states, check_playouts, check_replay_from_history,
                         check_seat_arguments, play_and_check)

CONFIGS = [
    dict(players=2),
    dict(players=3),
    dict(players=4),
    dict(players=2, chance="explicit"),
    dict(players=4, chance="explicit", first_player=-1),
    dict(players=3, first_player=-1, returns_mode="win_loss"),
]


# The first configuration runs by default; the others are repetition for `pytest -m slow`.
@pytest.mark.parametrize("options", [c if i == 0 else pytest.param(c, marks=pytest.mark.slow) for i, c in enumerate(CONFIGS)], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_games_conform(options):
    for seed in range(3):
        play_and_check(lambda s: tilecraft.make("azul", seed=s, **options), seed, check_illegal_every=3)


@pytest.mark.parametrize("options", [dict(players=2), dict(players=3, chance="explicit")])
def test_game_reproduced_from_seed_and_history(options):
    check_replay_from_history(lambda s: tilecraft.make("azul", seed=s, **options), 11)


def test_malformed_states_are_rejected():
    state = tilecraft.make("azul", players=3, seed=4)
    for a in list(state.legal_actions())[:1]:
        state.apply(int(a))
    check_malformed_states(state)
    check_seat_arguments(state)


@pytest.mark.parametrize("options", [dict(players=2), dict(players=4, chance="explicit")])
def test_batch_playouts(options):
    check_playouts("azul", **options)
