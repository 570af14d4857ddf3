"""The conformance harness every game passes (tilecraft.testing.check_game runs it; DESIGN.md lists
what the common State API promises).

It plays seeded random games to the end and checks, at every step: the mask agrees with the list,
every illegal id is rejected with IllegalActionError and leaves the state unchanged, clones are
independent, JSON and pickle round trips are exact mid-game, equal seeds give equal games, names
round-trip, observations have the documented shape, resample_hidden never changes what the observer
sees, and the end of the game is well formed. Malformed saved states are rejected with
InvalidStateError. Plain asserts and the standard library only (and numpy): importable without the
test tools."""
from __future__ import annotations

import contextlib
import copy
import json
import pickle
import random
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Type, Union

import numpy as np

import tilecraft
from tilecraft.runner import sample_chance

MakeState = Callable[[int], Any]  # seed -> fresh state


class _Raised:
    value: BaseException


@contextlib.contextmanager
def raises(expected: Union[Type[BaseException], Tuple[Type[BaseException], ...]], what: str) -> Iterator[_Raised]:
    """The block must raise `expected` (an assertion that needs no test framework); `what` names the call."""
    box = _Raised()
    try:
        yield box
    except expected as e:
        box.value = e
    else:
        names = ", ".join(t.__name__ for t in (expected if isinstance(expected, tuple) else (expected,)))
        raise AssertionError(f"{what} did not raise {names}")


def loader(state) -> Callable[[str], Any]:
    """How a saved state of this game is restored: tilecraft.from_json for a registered game (so the
    registry's dispatch is checked too), the state's own class otherwise (a test-only game like Nim)."""
    if getattr(type(state), "game_name", None) in tilecraft.list_games():
        return tilecraft.from_json
    return lambda text: type(state).from_json(text)  # looked up when used (a wrapper may lack it)


def _check_chance_outcomes(state) -> None:
    outcomes = state.chance_outcomes()
    assert outcomes, "a chance node must list outcomes"
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9, "chance probabilities must sum to 1"
    assert sorted(o for o, _ in outcomes) == list(state.legal_actions()), "outcomes must match legal_actions"


def random_step(state, rng: random.Random) -> int:
    """Applies one random legal action, or a chance outcome drawn with its probability
    (tilecraft.runner.sample_chance, the one sampler); returns it."""
    if state.is_chance_node():
        _check_chance_outcomes(state)
        action = sample_chance(state, rng)
    else:
        legal = state.legal_actions()
        action = int(legal[rng.randrange(len(legal))])
    state.apply(action)
    return action


def check_step_invariants(state, check_illegal: bool = True) -> None:
    n = state.num_distinct_actions()
    legal = state.legal_actions()
    assert legal.dtype == np.int32 and legal.ndim == 1
    assert list(legal) == sorted(set(int(a) for a in legal)), "legal_actions must be ascending and distinct"
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (n,)
    assert list(np.flatnonzero(mask)) == list(legal), "the mask must agree with the list"
    if state.is_terminal():
        assert len(legal) == 0 and state.current_player() == tilecraft.TERMINAL
    else:
        assert len(legal) > 0, "a non-terminal state must have a legal action"
        cp = state.current_player()
        assert cp == tilecraft.CHANCE if state.is_chance_node() else 0 <= cp < state.num_players()
    for p in range(state.num_players()):
        obs = state.observation(p)
        assert obs.dtype == np.float32 and obs.shape == tuple(state.observation_shape())
        assert np.all(np.isfinite(obs)), "observations are finite"
        # out= fills a buffer in place and writes nothing past it (a guard value follows the buffer)
        guarded = np.full(obs.size + 4, -7.0, dtype=np.float32)
        state.observation(p, out=guarded[: obs.size])
        assert np.array_equal(guarded[: obs.size], obs.ravel()) and np.all(guarded[obs.size:] == -7.0), \
            "observation() wrote past observation_shape()"
    if not state.is_chance_node():
        for a in legal:
            assert state.string_to_action(state.action_to_string(int(a))) == int(a), "names must round-trip"
    if check_illegal:
        before = state.to_json()
        legal_set = set(int(a) for a in legal)
        for a in list(range(n)) + [-1, n, 2**31 - 1, 2**40, -(2**40)]:
            if a in legal_set:
                continue
            with raises(tilecraft.IllegalActionError, f"apply({a}) of an illegal action"):
                state.apply(a)
        assert state.to_json() == before, "a rejected action must leave the state unchanged"


def _same_future(a, b, observer: int, steps: int) -> None:
    """a and b, resampled with the same seed, must be the same game as far as `observer` can tell."""
    for step in range(steps):
        assert a.is_terminal() == b.is_terminal() and a.current_player() == b.current_player()
        if a.is_terminal():
            break
        la, lb = a.legal_actions(), b.legal_actions()
        assert np.array_equal(la, lb), "after the same resample the legal actions must agree"
        action = int(la[(step * 7907) % len(la)])
        a.apply(action)
        b.apply(action)
        assert np.array_equal(a.scores(), b.scores())
        assert np.array_equal(a.observation(observer), b.observation(observer)), \
            "after the same resample the observer's future must agree"


def check_resample_is_canonical(state, observer: int, steps: int = 40) -> None:
    """resample_hidden(observer, seed) depends only on what `observer` sees and the seed: two
    states that differ only in hidden parts become the same game (searches that determinize
    with the same seed then agree, so a bot cannot peek through the determinization)."""
    a, b = state.clone(), state.clone()
    a.resample_hidden(observer, 101)
    b.resample_hidden(observer, 202)  # a and b: same view for observer, other hidden parts
    assert np.array_equal(a.observation(observer), b.observation(observer))
    check_lookalikes_resample_alike(a, b, observer, steps)


def check_lookalikes_resample_alike(a, b, observer: int, steps: int = 40) -> None:
    """Two states that look the same to `observer` (equal observations), however they came about,
    resample with the same seed to the same game."""
    assert np.array_equal(a.observation(observer), b.observation(observer))
    a, b = a.clone(), b.clone()
    a.resample_hidden(observer, 7)
    b.resample_hidden(observer, 7)
    assert np.array_equal(a.observation(observer), b.observation(observer))
    _same_future(a, b, observer, steps)


def _phase_key(state):
    """What a check 'in every phase' iterates over: the game's phase when it has one, the seat to move."""
    phase = state.phase() if hasattr(state, "phase") else None
    return (phase, state.current_player(), state.is_chance_node())


def play_and_check(make_state: MakeState, seed: int, check_illegal_every: int = 1, max_steps: int = 100000,
                   where: Optional[Dict[str, Any]] = None, roundtrip_every: int = 7) -> Any:
    """Plays one random game from make_state(seed), checking every step. Returns the final state.
    roundtrip_every: clones and JSON, pickle and deepcopy round trips at every k-th step.
    where: a dict given the step being checked (key "step"), for the error message of a failure."""
    where = {} if where is None else where
    where["step"] = 0
    rng = random.Random(seed)
    state = make_state(seed)
    load = loader(state)
    twin = make_state(seed)  # determinism: same seed, same actions, same game
    assert state.to_json() == twin.to_json()
    step = 0
    phases_checked = set()
    looks = [dict() for _ in range(state.num_players())]  # per observer: observation bytes -> a state met
    while not state.is_terminal():
        assert step < max_steps, "the game did not end"
        where["step"] = step
        check_step_invariants(state, check_illegal=step % check_illegal_every == 0)
        # resample_hidden is canonical for EVERY observer, the first time each phase comes up
        key = _phase_key(state)
        if not state.is_chance_node() and (key not in phases_checked or step % 21 == 3):
            phases_checked.add(key)
            for p in range(state.num_players()):
                check_resample_is_canonical(state, p, steps=20)
        # states met in this game that look the same to an observer resample alike for it
        if not state.is_chance_node():
            now = state.clone()
            for p in range(state.num_players()):
                seen = looks[p].setdefault(state.observation(p).tobytes(), now)
                if seen is not now and seen != state:  # content equality (config and position)
                    check_lookalikes_resample_alike(seen, state, p, steps=20)
        if step % roundtrip_every == 3 % roundtrip_every:
            # clone independence
            c = state.clone()
            before = state.to_json()
            random_step(c, random.Random(step))
            assert state.to_json() == before, "playing on a clone must not change the original"
            # JSON, dict and pickle round trips, exact and playable
            for restored in (load(before), type(state).from_json(before),
                             pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
                assert restored.to_json() == before
                assert restored.history() == state.history()
            # resample_hidden never changes what the observer sees (the seat to move sees its options)
            for p in range(state.num_players()):
                r = state.clone()
                r.resample_hidden(p, 12345 + step)
                assert np.array_equal(r.observation(p), state.observation(p)), "resample_hidden changed the observer's view"
                if p == state.current_player():
                    assert list(r.legal_actions()) == list(state.legal_actions())
        action = random_step(state, rng)
        twin.apply(action)
        step += 1
    where["step"] = step
    check_step_invariants(state)
    assert state.to_json() == twin.to_json()
    assert len(state.history()) == step
    scores, returns = state.scores(), state.returns()
    assert scores.shape == returns.shape == (state.num_players(),)
    winners = state.winners()
    if state.num_players() == 1:  # solo: nobody wins when the game (an automa) does
        assert list(winners) in ([], [0]), "a solo game's winners are [] or [0]"
    else:
        assert winners and all(0 <= w < state.num_players() for w in winners), "a finished game has winners"
    with raises(tilecraft.IllegalActionError, "apply() on a finished game"):
        state.apply(0)
    restored = load(state.to_json())
    assert restored.is_terminal() and list(restored.winners()) == list(winners)
    return state


def check_replay_from_history(make_state: MakeState, seed: int) -> None:
    """A game is reproduced from its seed and history alone (sampled chance included)."""
    final = play_and_check(make_state, seed, check_illegal_every=1000)
    again = make_state(seed)
    for a in final.history():
        again.apply(a)
    assert again.to_json() == final.to_json()


def check_malformed_states(state, fields: int = 50) -> None:
    """Broken saved states raise InvalidStateError (a ValueError) with a message; nothing crashes.
    fields: how many of the saved state's fields are each removed, mistyped and made huge."""
    good = state.to_json()
    data = json.loads(good)
    bad_texts: List[str] = [good[: len(good) // 2], "", "[]", "null", "{}", "not json", '{"game": 5}']
    other = dict(data, game="no-such-game")
    cases: List[Dict[str, Any]] = [dict(data, format=99), {k: v for k, v in data.items() if k != "state"}]
    fields_checked = fields
    fields = data["state"]  # each case changes one thing; the rest is shared, not copied (configs can be large)
    for key in list(fields)[:fields_checked]:
        cases.append(dict(data, state={k: v for k, v in fields.items() if k != key}))  # a field missing
        cases.append(dict(data, state=dict(fields, **{key: "x"})))  # a field of the wrong type
        huge = [2**70] if isinstance(fields[key], list) else 2**70
        cases.append(dict(data, state=dict(fields, **{key: huge})))  # a value beyond 64 bits
    cases.append(dict(data, state=dict(fields, no_such_field=1)))
    cases.append(dict(data, config=dict(data["config"], players=99)))
    load = loader(state)
    for text in bad_texts + [json.dumps(c) for c in cases]:
        with raises(ValueError, f"loading the malformed state {text[:80]!r}") as info:
            load(text)
        assert str(info.value), "the error must say what is wrong"
    with raises(ValueError, "loading a state of an unknown game"):
        load(json.dumps(other))
    assert state.to_json() == good


def check_seat_arguments(state) -> None:
    n = state.num_players()
    for bad in (-1, n, 99):
        with raises((ValueError, IndexError), f"observation({bad})"):
            state.observation(bad)
        with raises((ValueError, IndexError), f"resample_hidden({bad}, 0)"):
            state.resample_hidden(bad, 0)


def check_playouts(game: str, players: int, **options: Any) -> None:
    """The C++ batch runner: deterministic, independent of the thread count, well-formed results."""
    a = tilecraft.random_playouts(game, 40, seed=7, threads=1, players=players, **options)
    b = tilecraft.random_playouts(game, 40, seed=7, threads=2, players=players, **options)
    for key in ("scores", "returns", "winners", "length"):
        assert np.array_equal(a[key], b[key]), key
    assert a["scores"].shape == (40, players)
    assert np.all(a["winners"].sum(axis=1) >= 1)
    assert np.all(a["length"] > 0)
