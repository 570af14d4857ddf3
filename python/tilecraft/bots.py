"""Bots. Every bot follows one protocol: ``act(state) -> action`` and optionally
``reset(seat, seed)`` before a game. Built-in bots are also reachable by name
(``make_bot("greedy")``, ``make_bot("random:seed=3")``)."""
from __future__ import annotations

import importlib
import random
from typing import Any, Callable, Dict, Optional, Protocol, runtime_checkable


@runtime_checkable
class Bot(Protocol):
    """The bot protocol. ``act`` returns a legal action id for ``state.current_player()``."""

    def act(self, state: Any) -> int: ...


class RandomBot:
    """Plays a uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int = 0):
        self._seed = seed
        self._rng = random.Random(seed)

    def reset(self, seat: int, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(self, state: Any) -> int:
        actions = state.legal_actions()
        return int(actions[self._rng.randrange(len(actions))])

    def __repr__(self) -> str:
        return "RandomBot()"


class GreedyBot:
    """One-ply greedy: the action with the best heuristic value for the mover after it is played
    (computed in C++; each game's docs define the heuristic, e.g. Azul's provisional score). Ties
    are broken at random. The look-ahead runs on a copy whose hidden future is re-drawn from the
    bot's own seed, so it never peeks."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self._rng = random.Random(seed)

    def reset(self, seat: int, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(self, state: Any) -> int:
        return int(state.greedy_action(self._rng.getrandbits(63)))

    def __repr__(self) -> str:
        return "GreedyBot()"


BOT_FACTORIES: Dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def register_bot(name: str, factory: Callable[..., Any]) -> None:
    """Makes ``make_bot(name)`` (and the CLI's --bots) know another bot."""
    BOT_FACTORIES[name] = factory


def _parse_value(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def make_bot(spec: Any, seed: Optional[int] = None) -> Any:
    """A bot from a spec: a bot object (returned as is), a name with options
    (``"greedy"``, ``"mcts:iterations=400,threads=2"``) or an import path
    (``"mypackage.mybots:MyBot"`` or ``"mypackage.mybots:MyBot:depth=3"``)."""
    if not isinstance(spec, str):
        if not callable(getattr(spec, "act", None)):
            raise TypeError(f"a bot needs an act(state) method; got {spec!r}")
        return spec
    name, _, rest = spec.partition(":")
    kwargs: Dict[str, Any] = {}
    factory: Optional[Callable[..., Any]] = BOT_FACTORIES.get(name)
    if factory is None and "." in name:
        cls_name, _, rest = rest.partition(":")
        try:
            factory = getattr(importlib.import_module(name), cls_name)
        except (ImportError, AttributeError) as e:
            raise ValueError(f"cannot import bot {name}:{cls_name}: {e}") from None
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; the built-in bots are {', '.join(sorted(BOT_FACTORIES))}, "
                         "or give an import path 'package.module:Class'")
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key:
                raise ValueError(f"bot option {item!r} in {spec!r} must look like key=value")
            kwargs[key.strip()] = _parse_value(value.strip())
    if seed is not None and "seed" not in kwargs:
        kwargs["seed"] = seed
    try:
        bot = factory(**kwargs)
    except TypeError as e:
        raise ValueError(f"bad options for bot {name!r}: {e}") from None
    return bot
