"""Castle passes the generic conformance harness: replay from seed and history, malformed saved states, batch
playouts (the random games in every configuration: tests/test_conformance_all.py)."""
import pytest

import tilecraft
from conformance import (check_malformed_states, check_playouts, check_replay_from_history,
                         check_seat_arguments)

# The random-game conformance over every configuration is tests/test_conformance_all.py (the configurations
# are castle's GameSpec.test_configs); here: replay, malformed states, batch playouts.


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
