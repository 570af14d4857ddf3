"""Invariants over random expert games, after every action: the basic-mode invariants (96 tiles and
99 cards accounted for, incremental groups = full recompute, one marker per space), plus: areas hold
at most 4 tiles (GA-EXP-3), hands never exceed 4 and no discard phase occurs (GA-EXP-6), each seat
holds one distinct chimney tile per domain once dealt (GA-EXP-4), and scores never fall before the
final scoring (the fixture has no end_swap)."""
import random

import pytest

from gaudi_fixtures import make_state
from test_gaudi_invariants import check


@pytest.mark.parametrize("players", [2, 3, 4])
def test_expert_invariants_hold_after_every_action(players):
    for seed in range(3):
        state = make_state(players, seed, mode="expert")
        rng = random.Random(seed)
        phases = set()
        while not state.is_terminal():
            check(state)
            assert all(sum(a) <= 4 for a in state.areas())
            assert state.phase_name() != "discarding"
            assert all(len(state.hand(p)) <= 4 for p in range(players))
            phases.add(state.phase_name())
            if state.phase_name() not in ("chance", "drafting a starting card"):
                for d in range(3):
                    ids = [state.chimney_tiles(p)[d] for p in range(players)]
                    assert len(set(ids)) == players and all(4 * d <= i < 4 * d + 4 for i in ids)
            before = [state.domain_scores(p) for p in range(players)]
            legal = state.legal_actions()
            state.apply(int(legal[rng.randrange(len(legal))]))
            if not state.is_terminal():
                after = [state.domain_scores(p) for p in range(players)]
                for b, x in zip(before, after):
                    assert all(v >= u for u, v in zip(b, x))
        assert "drafting a starting card" in phases  # the draft happened
