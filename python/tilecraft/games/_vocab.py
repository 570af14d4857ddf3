"""A game's action-id ranges, read from the engine: the C++ header declares each kind's ids once
(cpp/core/vocab.hpp) and the binding exports them as ``state.action_ranges()``. The game modules
that name action ids (games/gaudi.py, games/warsaw.py) use this for games whose ranges do not
depend on the configuration: one prototype state (``make(game)``) per game, made on first use."""
from __future__ import annotations

import functools
from typing import Dict, Tuple


@functools.lru_cache(maxsize=None)
def ranges(game: str) -> Tuple[Tuple[str, int, int], ...]:
    """((kind, first, end), ...) of ``game``'s default configuration, in id order."""
    from . import make

    return tuple((str(kind), int(first), int(end)) for kind, first, end in make(game).action_ranges())


@functools.lru_cache(maxsize=None)
def first_ids(game: str) -> Dict[str, int]:
    """kind -> the first action id of that kind."""
    return {kind: first for kind, first, _ in ranges(game)}


def first_id(game: str, kind: str) -> int:
    ids = first_ids(game)
    if kind not in ids:
        raise KeyError(f"{game}: no action kind {kind!r}; the kinds are {', '.join(ids)}")
    return ids[kind]


def size(game: str, kind: str) -> int:
    """How many action ids the kind has."""
    for k, first, end in ranges(game):
        if k == kind:
            return end - first
    raise KeyError(f"{game}: no action kind {kind!r}; the kinds are {', '.join(first_ids(game))}")


def num_actions(game: str) -> int:
    return ranges(game)[-1][2]
