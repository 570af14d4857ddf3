"""Warsaw passes the generic conformance harness in every configuration (player counts, options)."""
import pytest

import tilecraft
from conformance import (check_malformed_states, check_playouts, check_replay_from_history,
                         check_seat_arguments, play_and_check)

CONFIGS = [
    dict(players=2),
    dict(players=3),
    dict(players=4),
    dict(players=3, returns_mode="win_loss", vp_floor_zero=True),
    dict(players=2, transport_threshold_on="cards", max_stack_height=2, milestone_requires_positive=True),
]


# The first configuration runs by default; the others are repetition for `pytest -m slow`.
@pytest.mark.parametrize("options", [c if i == 0 else pytest.param(c, marks=pytest.mark.slow) for i, c in enumerate(CONFIGS)],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_games_conform(options):
    for seed in range(2):
        play_and_check(lambda s: tilecraft.make("warsaw", seed=s, **options), seed, check_illegal_every=40)


def test_game_reproduced_from_seed_and_history():
    check_replay_from_history(lambda s: tilecraft.make("warsaw", seed=s, players=3), 11)


def test_malformed_states_are_rejected():
    state = tilecraft.make("warsaw", players=3, seed=4)
    for a in list(state.legal_actions())[:1]:
        state.apply(int(a))
    check_malformed_states(state)
    check_seat_arguments(state)


@pytest.mark.parametrize("options", [dict(players=2), dict(players=4)])
def test_batch_playouts(options):
    check_playouts("warsaw", **options)
