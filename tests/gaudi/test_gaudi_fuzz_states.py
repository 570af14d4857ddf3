"""Saved states with one field changed at random: from_json either rejects them with a ValueError
or the loaded state plays to the end (or a step cap) without crashing."""
import json
import random

import pytest

import tilecraft
from gaudi_fixtures import make_state


def leaves(obj, path=()):
    if isinstance(obj, list):
        for i, x in enumerate(obj):
            yield from leaves(x, path + (i,))
    else:
        yield path


def set_at(obj, path, value):
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value


@pytest.mark.slow  # randomized mutation of saved states (about 8 s per player count)
@pytest.mark.parametrize("players", [2, 4])
def test_mutated_states_are_rejected_or_playable(players):
    rng = random.Random(players)
    loaded = rejected = 0
    for seed in range(4):
        s = make_state(players, seed, chance="explicit" if seed % 2 else "sampled")
        for _ in range(rng.randrange(20, 150)):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply(int(legal[rng.randrange(len(legal))]))
        base = s.to_dict()
        fields = [(k, p) for k in base["state"] for p in leaves(base["state"][k])]
        for _ in range(80):
            d = json.loads(json.dumps(base))
            key, path = fields[rng.randrange(len(fields))]
            value = rng.choice([0, 1, 2, 3, 5, 12, 33, 48, 49, 64, 98, 99, 127, 254, 255, -1, -2])
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
            for step in range(3000):
                if t.is_terminal():
                    break
                legal = t.legal_actions()
                assert len(legal) > 0
                t.apply(int(legal[rng.randrange(len(legal))]))
    assert rejected > 0 and loaded > 0
