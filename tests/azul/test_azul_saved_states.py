"""Saved states at the edges of the game load back exactly."""
import random

import tilecraft


def test_AZ_AMB_16_state_ended_by_the_round_cap_saves_and_loads():
    """AZ-AMB-16: a game ended by max_rounds is terminal after exactly max_rounds rounds and its
    saved state loads back (a found bug: the loader once rejected round == max_rounds)."""
    rng = random.Random(1)
    state = tilecraft.make("azul", players=4, seed=3, max_rounds=1)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(int(legal[rng.randrange(len(legal))]))
    assert state.round() == 1
    again = tilecraft.from_json(state.to_json())
    assert again.is_terminal() and again.to_json() == state.to_json()
