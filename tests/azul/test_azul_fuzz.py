"""Property tests (hypothesis) of Azul's robustness: any sequence of legal choices keeps the
state loadable and exact, and any single-field corruption of a saved state is either rejected
with InvalidStateError or yields a state that plays to the end without crashing."""
import json

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tilecraft

settings.register_profile("tilecraft", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tilecraft")


def _walk(state, picks):
    for p in picks:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(int(legal[p % len(legal)]))
    return state


@pytest.mark.slow
@given(seed=st.integers(0, 2**63 - 1), players=st.sampled_from([2, 3, 4]),
       chance=st.sampled_from(["sampled", "explicit"]), picks=st.lists(st.integers(0, 10**6), max_size=120))
@settings(max_examples=60)
def test_any_legal_sequence_round_trips_exactly(seed, players, chance, picks):
    """AZ-COMP-1: 100 tiles, 20 per colour, whatever is played; saved states restore exactly."""
    state = _walk(tilecraft.make("azul", players=players, seed=seed, chance=chance), picks)
    text = state.to_json()
    again = tilecraft.from_json(text)
    assert again.to_json() == text
    total = state.bag() + state.lid() + state.factories().sum(axis=0) + state.floors()[:, 2:].sum(axis=0)
    walls, lines = state.walls(), state.pattern_lines()
    for p in range(players):
        for k in range(5):
            for c in range(5):
                total[c] += int(walls[p][k][(k + c) % 5])
            if lines[p][k][0] >= 0:
                total[lines[p][k][0]] += lines[p][k][1]
    assert list(total) == [20] * 5


def _set_path(obj, path, value):
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def _leaf_paths(obj, prefix=()):
    if isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaf_paths(v, prefix + (i,))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaf_paths(v, prefix + (k,))
    else:
        yield prefix


@pytest.mark.slow
@given(seed=st.integers(0, 1000), picks=st.lists(st.integers(0, 10**6), max_size=60),
       which=st.integers(0, 10**6), value=st.integers(-(2**20), 2**20) | st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 255, -1]),
       players=st.sampled_from([2, 3, 4]), chance=st.sampled_from(["sampled", "explicit"]))
@settings(max_examples=300)
def test_corrupted_states_are_rejected_or_playable(seed, picks, which, value, players, chance):
    state = _walk(tilecraft.make("azul", players=players, seed=seed, chance=chance), picks)
    data = json.loads(state.to_json())
    paths = [("state",) + p for p in _leaf_paths(data["state"]) if p[0] != "rng"]
    path = paths[which % len(paths)]
    _set_path(data, path, value)
    try:
        loaded = tilecraft.AzulState.from_dict(data)
    except tilecraft.InvalidStateError as e:
        assert str(e)
        return
    # Accepted: it must be a consistent, playable state.
    for _ in range(2000):
        if loaded.is_terminal():
            break
        legal = loaded.legal_actions()
        assert len(legal) > 0
        loaded.apply(int(legal[0]))
    assert loaded.is_terminal()
