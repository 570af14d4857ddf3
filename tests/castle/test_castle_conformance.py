"""Castle passes the generic conformance harness in every configuration (chance modes, options)."""
import pytest

import tilecraft
from conformance import (check_malformed_states, check_playouts, check_replay_from_history,
                         check_seat_arguments, play_and_check)

CONFIGS = [
    dict(),
    dict(chance="explicit"),
    dict(chance="explicit", first_player=-1),
    dict(first_player=1, returns_mode="score", start_bonus_tiles=False),
    dict(scoring_order="canonical", bonus7_scope="all_courtyards"),
    dict(bonus1_mode="draw_two_choose_one"),
    dict(bonus1_mode="draw_two_choose_one", chance="explicit", first_player=-1),
]


# The first configuration runs by default; the others are repetition for `pytest -m slow`.
@pytest.mark.parametrize("options", [c if i == 0 else pytest.param(c, marks=pytest.mark.slow) for i, c in enumerate(CONFIGS)], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_random_games_conform(options):
    for seed in range(2):
        play_and_check(lambda s: tilecraft.make("castle", seed=s, **options), seed, check_illegal_every=5)


@pytest.mark.parametrize("options", [dict(), dict(chance="explicit")])
def test_game_reproduced_from_seed_and_history(options):
    check_replay_from_history(lambda s: tilecraft.make("castle", seed=s, **options), 11)


def test_malformed_states_are_rejected():
    state = tilecraft.make("castle", seed=4)
    for _ in range(9):
        state.apply(int(state.legal_actions()[0]))
    check_malformed_states(state)
    check_seat_arguments(state)


@pytest.mark.parametrize("options", [dict(), dict(chance="explicit", first_player=-1)])
def test_batch_playouts(options):
    check_playouts("castle", players=2, **options)
