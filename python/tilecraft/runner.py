"""The runner's rules, written once: how a game's seats and its chance sampler are seeded, how a
chance outcome is drawn, and a :class:`Table` that steps a game with its bots.

``play_match`` (and so the tournaments), the browser server, the Gymnasium and PettingZoo adapters
and the docs gallery all use this module; none of them seeds a bot or draws a chance outcome by
itself (tests/test_one_source.py checks that).

Two seedings exist, because games were recorded with both and must replay exactly:

- ``"match"`` (``play_match``, tournaments, the server): the bot of seat ``s`` gets
  ``mix_seed(seed, s)``, the chance sampler is ``random.Random(mix_seed(seed, 1000))``;
- ``"adapters"`` (``tilecraft.adapters.gymnasium`` and ``.pettingzoo``): seat ``s`` gets
  ``(seed + 7919 * (s + 1)) % 2**63``, the chance sampler is ``random.Random(seed ^ 0x5EED)``.

Every sampler is a ``random.Random``; :func:`sample_chance` draws one ``rng.random()`` per chance
node and walks the outcomes' probabilities (the last outcome when rounding leaves ``r`` >= 0), or,
with ``uniform=True`` (the docs gallery only), one ``rng.randrange(len(outcomes))``.
"""
from __future__ import annotations

import random
import time
from typing import Any, Collection, Dict, Sequence, Tuple

from .agents.bots import make_bot
from ._core import CHANCE

SEEDINGS = ("match", "adapters")
CHANCE_STREAM = 1000  # the sub-stream of the "match" seeding that seeds the chance sampler


def mix_seed(seed: int, stream: int) -> int:
    """A 63-bit seed for a sub-stream (a bot's seat, the chance sampler) of a game seed."""
    x = (seed * 0x9E3779B97F4A7C15 + (stream + 1) * 0xD1B54A32D192ED03) & (2**64 - 1)
    x ^= x >> 31
    x = (x * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    x ^= x >> 29
    return x & (2**63 - 1)


def _check_seeding(seeding: str) -> None:
    if seeding not in SEEDINGS:
        raise ValueError(f"seeding must be one of {', '.join(map(repr, SEEDINGS))}, got {seeding!r}")


def seat_seed(seed: int, seat: int, seeding: str = "match") -> int:
    """The seed of the bot at ``seat`` in the game seeded ``seed`` (see the module docstring)."""
    _check_seeding(seeding)
    if seeding == "match":
        return mix_seed(seed, seat)
    return (seed + 7919 * (seat + 1)) % 2**63


def chance_rng(seed: int, seeding: str = "match") -> random.Random:
    """The chance sampler of the game seeded ``seed`` (see the module docstring)."""
    _check_seeding(seeding)
    return random.Random(mix_seed(seed, CHANCE_STREAM) if seeding == "match" else seed ^ 0x5EED)


def seat_bots(bots: Sequence[Any], seed: int, seeding: str = "match",
              open_seats: Collection[int] = ()) -> Dict[int, Any]:
    """The bots of a table by seat: ``bots[s]`` is a bot object or a ``make_bot`` spec; the seats in
    ``open_seats`` (played from outside: a person, a learning agent) are skipped. Every bot is made
    with its seat's seed, then (all made) each one that has ``reset(seat, seed)`` is reset with it."""
    seated = {s: make_bot(b, seed=seat_seed(seed, s, seeding)) for s, b in enumerate(bots) if s not in open_seats}
    for s, bot in seated.items():
        reset = getattr(bot, "reset", None)
        if reset is not None:
            reset(s, seat_seed(seed, s, seeding))
    return seated


def sample_chance(state: Any, rng: random.Random, uniform: bool = False) -> int:
    """The chance outcome to apply at ``state`` (a chance node), drawn from ``rng`` by the
    outcomes' probabilities, or uniformly with ``uniform``. The one place chance is sampled."""
    outcomes = state.chance_outcomes()
    if uniform:
        return int(outcomes[rng.randrange(len(outcomes))][0])
    r = rng.random()
    for outcome, p in outcomes:
        r -= p
        if r < 0:
            return int(outcome)
    return int(outcomes[-1][0])


class Table:
    """A game in progress with its bots and its chance sampler, both seeded from the game seed.

    ``bots`` lists one entry per seat, ``open_seats`` the seats played from outside (see
    :func:`seat_bots`).
    The table never records moves: its callers keep the record they need."""

    def __init__(self, state: Any, bots: Sequence[Any], seed: int, seeding: str = "match",
                 open_seats: Collection[int] = ()) -> None:
        _check_seeding(seeding)
        self.state = state
        self.seed = seed
        self.bots = seat_bots(bots, seed, seeding, open_seats)
        self.chance_rng = chance_rng(seed, seeding)

    def sample_chance(self) -> int:
        """The next chance outcome (the state must be at a chance node); not applied."""
        return sample_chance(self.state, self.chance_rng)

    def think(self, seat: int) -> Tuple[Any, float]:
        """The action the bot of ``seat`` chooses on a copy of the state (it cannot change the real
        game), with its thinking time in seconds. Not checked and not applied; what the bot raises
        propagates."""
        view = self.state.clone()
        start = time.perf_counter()
        action = self.bots[seat].act(view)
        return action, time.perf_counter() - start

    def advance(self) -> None:
        """Plays chance nodes and the bots' seats until the game ends or an open seat is
        to act. Each bot's action is applied as is (an illegal one raises)."""
        state = self.state
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply(self.sample_chance())
            elif seat not in self.bots:
                return
            else:
                state.apply(int(self.bots[seat].act(state.clone())))


def resolve_chance(state: Any, rng: random.Random) -> None:
    """Applies chance outcomes drawn from ``rng`` until a player must act or the game ends."""
    while state.is_chance_node():
        state.apply(sample_chance(state, rng))
