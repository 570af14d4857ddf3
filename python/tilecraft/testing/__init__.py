"""Conformance testing for tilecraft games and wrappers, shipped with the package (docs/testing.md).

    from tilecraft.testing import check_game
    check_game(lambda seed: tilecraft.make("azul", players=3, seed=seed), steps=300, seed=0)

check_game plays seeded random games to the end, checking at every step what the common State API
promises, then replays the first game from its seed and history and feeds malformed saved states and
bad seat arguments to a mid-game state. A failure raises ConformanceError (an AssertionError) naming
the game, the seed, the step and what broke. Needs neither pytest nor hypothesis.

nim(...) makes a state of Nim, a tiny test-only game with known answers (not in list_games())."""
from __future__ import annotations

import traceback
from typing import Any, Dict, Optional

from ._conformance import (MakeState, check_lookalikes_resample_alike, check_malformed_states, check_playouts,
                           check_replay_from_history, check_resample_is_canonical, check_seat_arguments,
                           check_step_invariants, loader, play_and_check, raises, random_step)

__all__ = [
    "ConformanceError",
    "check_game",
    "nim",
    "play_and_check",
    "check_step_invariants",
    "check_replay_from_history",
    "check_malformed_states",
    "check_seat_arguments",
    "check_playouts",
    "check_resample_is_canonical",
    "check_lookalikes_resample_alike",
    "random_step",
    "raises",
]


class ConformanceError(AssertionError):
    """A game broke the State API's promises. game, seed, step (None outside a game) and problem say
    where and what."""

    def __init__(self, game: str, seed: int, step: Optional[int], problem: str) -> None:
        where = f"seed {seed}" + (f", step {step}" if step is not None else "")
        super().__init__(f"{game}: {where}: {problem}")
        self.game, self.seed, self.step, self.problem = game, seed, step, problem

    def __reduce__(self) -> Any:  # pickles (worker processes, pytest-xdist) with its fields
        return (type(self), (self.game, self.seed, self.step, self.problem))


def _problem(e: AssertionError) -> str:
    """The assertion's message, or the failing line of the harness when it has none."""
    text = str(e)
    frames = traceback.extract_tb(e.__traceback__)
    line = (frames[-1].line or "").strip() if frames else ""
    if text and line:
        return f"{text} (at {line})"
    return text or line or "an assertion failed"


def check_game(make_state: MakeState, steps: int = 200, seed: int = 0, check_illegal_every: int = 1,
               max_steps: int = 100000, malformed_fields: int = 50, roundtrip_every: int = 7) -> int:
    """Checks a game against the State API contract; returns the number of steps checked.

    make_state: seed -> a fresh state (the same seed must give the same game). Random games from
    seeds seed, seed + 1, ... are played to the end until at least `steps` steps were checked.
    check_illegal_every: try every illegal action id at every k-th step (1: every step).
    max_steps: a game longer than this fails ("the game did not end").
    malformed_fields: how many saved-state fields are each removed, mistyped and made huge.
    roundtrip_every: clone independence and JSON, pickle and deepcopy round trips at every k-th step."""
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise ValueError(f"check_game: steps must be a positive integer, got {steps!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"check_game: seed must be a non-negative integer, got {seed!r}")
    for name, value in (("check_illegal_every", check_illegal_every), ("roundtrip_every", roundtrip_every),
                        ("max_steps", max_steps)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"check_game: {name} must be a positive integer, got {value!r}")
    if isinstance(malformed_fields, bool) or not isinstance(malformed_fields, int) or malformed_fields < 0:
        raise ValueError(f"check_game: malformed_fields must be a non-negative integer, got {malformed_fields!r}")
    if not callable(make_state):
        raise TypeError(f"check_game: make_state must be a callable seed -> state, got {make_state!r}")
    probe = make_state(seed)
    game = str(getattr(type(probe), "game_name", type(probe).__name__))
    checked, s = 0, seed
    first_final: Any = None
    while checked < steps:
        where: Dict[str, Any] = {}
        try:
            final = play_and_check(make_state, s, check_illegal_every=check_illegal_every, max_steps=max_steps,
                                   where=where, roundtrip_every=roundtrip_every)
        except AssertionError as e:
            raise ConformanceError(game, s, where.get("step"), _problem(e)) from e
        if first_final is None:
            first_final = final
        checked += len(final.history()) + 1
        s += 1
    try:  # the first game again, from its seed and history alone (sampled chance included)
        again = make_state(seed)
        for a in first_final.history():
            again.apply(a)
        assert again.to_json() == first_final.to_json(), "replaying the history from the seed gives another game"
    except AssertionError as e:
        raise ConformanceError(game, seed, None, _problem(e)) from e
    try:  # broken saved states and seat arguments, a few steps into a game
        state = make_state(seed)
        for a in first_final.history()[:max(1, len(first_final.history()) // 3)]:
            if state.is_terminal():
                break
            state.apply(a)
        check_malformed_states(state, fields=malformed_fields)
        check_seat_arguments(state)
    except AssertionError as e:
        raise ConformanceError(game, seed, None, _problem(e)) from e
    return checked


def nim(heap: int = 15, max_take: int = 3, first_player: int = 0, seed: int = 0):
    """A Nim state (a test-only game, not in list_games()): one heap of `heap` stones (1..200), each
    turn take 1..max_take (1..20) stones, whoever takes the last stone wins. first_player 0 or 1, or
    -1 for a chance node (outcomes 0 and 1, half each) choosing who starts. Action id a takes a + 1
    stones. From a heap that is not a multiple of max_take + 1 the mover wins by leaving one."""
    from .._core import NimState

    return NimState({"heap": heap, "max_take": max_take, "first_player": first_player}, seed)
