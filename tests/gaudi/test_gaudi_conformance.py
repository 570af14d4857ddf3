"""Gaudí passes the generic conformance harness for 2, 3 and 4 players in both chance modes."""
import pytest

import tilecraft
from conformance import (check_malformed_states, check_playouts, check_replay_from_history,
                         check_seat_arguments, play_and_check)
from gaudi_fixtures import NAME, make_state

CONFIGS = [
    (players, opts)
    for players in (2, 3, 4)
    for opts in (dict(), dict(chance="explicit"))
] + [
    (4, dict(chance="explicit", first_player=-1)),
    (2, dict(chance="explicit", first_player=-1)),
    (3, dict(first_player=2, returns_mode="win_loss", generic_distinct=False, early_religion_rescored=False,
             finished_markers_block_leader=True)),
]


# The first configuration runs by default; the others are repetition for `pytest -m slow`.
@pytest.mark.parametrize("players,options", [c if i == 0 else pytest.param(*c, marks=pytest.mark.slow) for i, c in enumerate(CONFIGS)],
                         ids=lambda o: str(o) if isinstance(o, int) else (",".join(f"{k}={v}" for k, v in o.items()) or "default"))
def test_random_games_conform(players, options):
    for seed in range(2):
        play_and_check(lambda s: make_state(players, s, **options), seed, check_illegal_every=7)


@pytest.mark.parametrize("options", [dict(), pytest.param(dict(chance="explicit"), marks=pytest.mark.slow)])
def test_game_reproduced_from_seed_and_history(options):
    check_replay_from_history(lambda s: make_state(4, s, **options), 11)


def test_malformed_states_are_rejected():
    state = make_state(3, 4)
    for _ in range(15):
        state.apply(int(state.legal_actions()[0]))
    check_malformed_states(state)
    check_seat_arguments(state)


@pytest.mark.parametrize("players,options", [(4, dict()), (2, dict(chance="explicit", first_player=-1))])
def test_batch_playouts(players, options):
    check_playouts("gaudi", players=players, data=NAME, **options)


def test_state_is_small():
    assert tilecraft._core.GAUDI_STATE_BYTES < 2048


@pytest.mark.slow
def test_placeholder_edition_from_files_plays(tmp_path):
    from gaudi_placeholder import write_placeholder

    directory = write_placeholder(str(tmp_path))
    for players in (2, 4):
        play_and_check(lambda s: tilecraft.make("gaudi", players=players, seed=s, data=directory), 3,
                       check_illegal_every=50)
