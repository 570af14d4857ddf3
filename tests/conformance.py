"""The conformance harness, shipped as tilecraft.testing (python/tilecraft/testing/); the game tests
import it from here."""
from tilecraft.testing import (check_game, check_lookalikes_resample_alike, check_malformed_states,  # noqa: F401
                               check_playouts, check_replay_from_history, check_resample_is_canonical,
                               check_seat_arguments, check_step_invariants, play_and_check, random_step)
