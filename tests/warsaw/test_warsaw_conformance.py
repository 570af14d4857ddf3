"""Warsaw passes the generic conformance harness: replay from seed and history, malformed saved states, batch
playouts (the random games in every configuration: tests/test_conformance_all.py)."""
import pytest

import tilecraft
from conformance import (check_malformed_states, check_playouts, check_replay_from_history,
                         check_seat_arguments)

# The random-game conformance over every configuration is tests/test_conformance_all.py (the configurations
# are warsaw's GameSpec.test_configs); here: replay, malformed states, batch playouts.


@pytest.mark.parametrize("options", [dict(players=2), dict(players=4)])
def test_batch_playouts(options):
    check_playouts("warsaw", **options)
