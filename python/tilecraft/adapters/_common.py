"""What the adapters share: building the state, and (from tilecraft/runner.py, where the runner's
rules live) resolving chance nodes and seeding the chance sampler and the opponents."""
from __future__ import annotations

import importlib.util
import random
from typing import Any, Dict, Optional, Tuple

import numpy as np

from ..games import game_spec
from ..runner import Table, chance_rng, resolve_chance  # noqa: F401  (the adapters' imports)


def require(adapter: str, extra: str, *modules: str) -> None:
    """Raises ModuleNotFoundError naming the extra to install when one of ``modules`` (top-level
    packages the adapter imports) is not installed, instead of Python's bare message."""
    for module in modules:
        try:
            missing = importlib.util.find_spec(module) is None
        except (ImportError, ValueError):
            missing = True
        if missing:
            raise ModuleNotFoundError(f"tilecraft.adapters.{adapter} needs the {module!r} package, which is not "
                                      f"installed: pip install \"tilecraft[{extra}]\"", name=module)


def new_state(game: str, players: int, seed: int, options: Dict[str, Any]):
    spec = game_spec(game)
    return spec.new_state(players, seed, spec.validate(players, options))


def seed_or_random(seed: Optional[int]) -> int:
    return random.SystemRandom().getrandbits(63) if seed is None else int(seed)


def observation_bounds(state: Any) -> Tuple[np.ndarray, np.ndarray]:
    """(low, high), float32 arrays of ``observation_shape()``: the bounds of every observation feature
    that the engine declares through its observation codec (``observation(p)`` is ``code /
    denominator + offset`` with a uint8 code, for every state of the configuration), so that a
    space's Box states the real range of each feature."""
    denominator, offset = state.observation_codec()
    low = np.asarray(offset, np.float32)
    high = np.float32(255) / np.asarray(denominator, np.float32) + low  # float32, as the decoding
    shape = tuple(state.observation_shape())
    return low.reshape(shape), high.reshape(shape)
