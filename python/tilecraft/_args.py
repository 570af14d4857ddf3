"""Checks of integer arguments shared by every public entry point, so that one rule holds
everywhere: an integer argument is a Python ``int`` or a numpy integer (never ``bool``, a float or
a string), and a seed is an integer in 0..2**64-1. Anything else raises ``ValueError`` naming the
function, the argument, what is allowed and what was given. The C++ bindings apply the same rule
with the same words (bindings/bind_game.hpp)."""
from __future__ import annotations

import math
import operator
from typing import Any, Callable, Dict, Iterable, Optional

import numpy as np

SEED_MAX = 2**64 - 1


def is_integer(value: Any) -> bool:
    """True for Python and numpy integers; False for bool, numpy bool, floats and everything else."""
    return not isinstance(value, (bool, np.bool_)) and isinstance(value, (int, np.integer))


def integer(who: str, name: str, value: Any, low: int, high: int) -> int:
    """``value`` as a Python int in [low, high], or ValueError naming ``who``, ``name`` and the range."""
    if not is_integer(value):
        shown = "nan" if isinstance(value, float) and math.isnan(value) else repr(value)
        raise ValueError(f"{who}: {name} must be an integer in {low}..{high}, got {shown}")
    value = operator.index(value)
    if not low <= value <= high:
        raise ValueError(f"{who}: {name} must be in {low}..{high}, got {value}")
    return value


def seed(who: str, value: Any, name: str = "seed") -> int:
    """A seed: an integer in 0..2**64-1 (the engine's 64-bit seed), else ValueError."""
    return integer(who, name, value, 0, SEED_MAX)


def parse_value(text: str) -> Any:
    """A value written in a spec or on the command line: an int, a float, true / false, else the text."""
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def key_values(items: Iterable[str], malformed: Callable[[str], str],
               repeated: Optional[Callable[[str], str]] = None) -> Dict[str, Any]:
    """``KEY=VALUE`` items (a bot spec's options, rule options, ``--search`` options) as a dict of
    parsed values (``parse_value``), the one parser of them all. ValueError with ``malformed(item)``
    for an item that is not KEY=VALUE, and with ``repeated(key)`` for a key given twice (without
    ``repeated``, the last value wins)."""
    out: Dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(malformed(item))
        if repeated is not None and key in out:
            raise ValueError(repeated(key))
        out[key] = parse_value(value.strip())
    return out
