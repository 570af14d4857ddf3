"""Expert and solo saved states with one field changed at random (the new fields included: chimney
tiles, draft start, automa area): from_json rejects them with a ValueError or they play on without
crashing."""
import json
import random

import pytest

import tilecraft
from gaudi_fixtures import make_state
from test_gaudi_fuzz_states import leaves, set_at


@pytest.mark.slow  # randomized mutation of saved states (about 8 s per player count)
@pytest.mark.parametrize("players", [1, 3])
def test_mutated_expert_and_solo_states_are_rejected_or_playable(players):
    rng = random.Random(10 + players)
    loaded = rejected = 0
    for seed in range(4):
        s = make_state(players, seed, mode="expert", chance="explicit" if seed % 2 else "sampled")
        for _ in range(rng.randrange(0 if seed == 0 else 20, 1 if seed == 0 else 120)):  # seed 0: during the draft
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply(int(legal[rng.randrange(len(legal))]))
        base = s.to_dict()
        fields = [(k, p) for k in base["state"] for p in leaves(base["state"][k])]
        for _ in range(80):
            d = json.loads(json.dumps(base))
            key, path = fields[rng.randrange(len(fields))]
            value = rng.choice([0, 1, 2, 3, 5, 6, 7, 11, 12, 33, 48, 98, 99, 254, 255, -1])
            if path:
                set_at(d["state"][key], path, value)
            else:
                d["state"][key] = value
            try:
                t = tilecraft.from_json(json.dumps(d))
            except ValueError:
                rejected += 1
                continue
            loaded += 1
            for _ in range(3000):
                if t.is_terminal():
                    break
                legal = t.legal_actions()
                assert len(legal) > 0
                t.apply(int(legal[rng.randrange(len(legal))]))
    assert rejected > 0 and loaded > 0
