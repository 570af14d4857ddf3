"""The game registry. Each module in this package defines ``SPEC = GameSpec(...)``; adding a game
means adding a module, nothing here changes."""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .._args import is_integer
from .._core import InvalidConfigError, InvalidStateError


class UnknownGameError(KeyError):
    """No game of that name is registered."""

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else ""


@dataclasses.dataclass(frozen=True)
class Option:
    """One rule option of a game: its name, default, the allowed values and what it means."""

    name: str
    default: Any
    doc: str
    choices: Optional[Tuple[Any, ...]] = None  # allowed values, if a fixed set
    kind: type = str  # int or str
    check: Optional[Callable[[Any, int], Optional[str]]] = None  # (value, players) -> error text or None
    allowed_text: str = ""  # how to describe the allowed values in errors and help

    def describe_allowed(self) -> str:
        if self.allowed_text:
            return self.allowed_text
        if self.choices is not None:
            return ", ".join(repr(c) for c in self.choices)
        return self.kind.__name__

    def validate(self, game: str, value: Any, players: int) -> Any:
        if self.kind is int:
            if not is_integer(value):
                raise InvalidConfigError(
                    f"{game}: option {self.name}={value!r} must be an integer ({self.describe_allowed()})"
                )
            value = int(value)
        elif not isinstance(value, self.kind):
            raise InvalidConfigError(
                f"{game}: option {self.name}={value!r} must be a {self.kind.__name__} ({self.describe_allowed()})"
            )
        if self.choices is not None and value not in self.choices:
            raise InvalidConfigError(
                f"{game}: option {self.name}={value!r} is not allowed; choose one of {self.describe_allowed()}"
            )
        if self.check is not None:
            problem = self.check(value, players)
            if problem:
                raise InvalidConfigError(f"{game}: option {self.name}={value!r}: {problem}")
        return value


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """What the registry knows about a game."""

    name: str
    title: str
    state_class: Any  # the pybind11 class from tilecraft._core
    players: Tuple[int, ...]
    options: Tuple[Option, ...]
    to_core: Callable[[int, Dict[str, Any]], Dict[str, Any]]  # (players, validated options) -> C++ config dict
    playouts: Callable[..., Dict[str, Any]]  # the C++ batch random-playout entry point
    doc: str = ""
    perfect_information: bool = True  # False when seats hold information others cannot see (hands)
    # Bounds of returns() per returns_mode ("win_loss", "score"), for the adapters' utility ranges:
    # win_loss is exact; score is the engine's validation limit on a score, not a tight bound.
    returns_range: Dict[str, Tuple[float, float]] = dataclasses.field(
        default_factory=lambda: {"win_loss": (-1.0, 1.0), "score": (-1e6, 1e6)})
    # (validated option values) -> what identifies the data files they read (their _schema.stamp:
    # path, size, modification time), or None when that cannot be known (a parsed dict, a missing
    # file): then nothing is cached. A game without data files leaves it unset.
    data_key: Optional[Callable[[Dict[str, Any]], Any]] = None
    # (players, options) pairs the generic tests run on: the conformance harness for every one
    # (tests/test_conformance_all.py; the first in the default run, the rest under -m slow) and a
    # default golden playthrough from the first (tests/playthroughs.py). Empty: each player count
    # with no options.
    test_configs: Tuple[Tuple[int, Dict[str, Any]], ...] = ()
    # (state) -> the rule mode a trained baseline is chosen by (tilecraft.baselines), for a game whose
    # rule modes share an observation shape but not its meaning; None: the game has no modes.
    baseline_mode: Optional[Callable[[Any], str]] = None
    # (state) -> the observation's feature groups, for the networks tilecraft.baselines trains and
    # reads: blocks of features that share one small encoder (a board cell's planes, a seat's block,
    # a card's locations), as dicts of offset, count, width, block_stride, feature_stride and embed
    # (tilecraft.baselines.group_indices). None: every feature goes straight into the trunk.
    observation_groups: Optional[Callable[[Any], List[Dict[str, int]]]] = None
    # A state per configuration already converted for C++: new_state makes further games from it
    # with new_game(seed) instead of building and converting the config again (a warm make).
    _prototypes: Dict[Any, Any] = dataclasses.field(default_factory=dict, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.test_configs:
            object.__setattr__(self, "test_configs", tuple((p, {}) for p in self.players))
        for players, options in self.test_configs:  # a typo here would fail only in the slow tests
            self.validate(players, options)

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise InvalidConfigError(self._unknown(name))

    def _unknown(self, name: str) -> str:
        names = ", ".join(o.name for o in self.options) or "(none)"
        return f"{self.name}: unknown option {name!r}; the options are: {names}"

    def validate(self, players: Any, options: Mapping[str, Any]) -> Dict[str, Any]:
        if not is_integer(players) or int(players) not in self.players:
            allowed = ", ".join(str(p) for p in self.players)
            raise InvalidConfigError(f"{self.name}: players must be one of {allowed}, got {players!r}")
        players = int(players)
        for name in options:
            if name not in {o.name for o in self.options}:
                raise InvalidConfigError(self._unknown(name))
        values = {}
        for o in self.options:
            values[o.name] = o.validate(self.name, options.get(o.name, o.default), players)
        return values

    def core_config(self, players: int = 2, **options: Any) -> Dict[str, Any]:
        """The validated configuration as the dict the C++ engine takes."""
        return self.to_core(players, self.validate(players, options))

    def new_state(self, players: int, seed: int, values: Dict[str, Any]):
        """A state from already validated option values (see validate) and any integer seed. The
        configuration is built and converted once per process for each player count, option values
        and data files (keyed by the files' stamps, so a changed file is read again)."""
        seed = normalize_seed(self.name, seed)
        key = self._prototype_key(int(players), values)
        proto = self._prototypes.get(key) if key is not None else None
        if proto is not None:
            return proto.new_game(seed)
        state = self.state_class(self.to_core(int(players), values), seed)
        if key is not None:
            if len(self._prototypes) >= _MAX_PROTOTYPES:  # oldest first: stale stamps fall out
                self._prototypes.pop(next(iter(self._prototypes)), None)
            self._prototypes[key] = state.new_game(0)
        return state

    def _prototype_key(self, players: int, values: Dict[str, Any]) -> Any:
        data = self.data_key(values) if self.data_key is not None else ()
        if data is None:
            return None
        key = (players, tuple(sorted(values.items(), key=lambda kv: kv[0])), data)
        try:
            hash(key)
        except TypeError:  # an option value that is a dict or a list
            return None
        return key


_MAX_PROTOTYPES = 64  # configurations kept per game


def normalize_seed(game: str, seed: Any) -> int:
    """The seed rule everywhere: an integer (Python or numpy) in 0..2**64-1, else ValueError (here
    InvalidConfigError, a ValueError, like the game's other arguments)."""
    from .._args import seed as check_seed

    try:
        return check_seed(game, seed)
    except ValueError as e:
        raise InvalidConfigError(str(e)) from None


_REGISTRY: Dict[str, GameSpec] = {}


def _discover() -> None:
    if _REGISTRY:
        return
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        spec = getattr(module, "SPEC", None)
        if isinstance(spec, GameSpec):
            _REGISTRY[spec.name] = spec


def list_games() -> Sequence[str]:
    """Names of the registered games, sorted."""
    _discover()
    return sorted(_REGISTRY)


def game_spec(name: str) -> GameSpec:
    """The GameSpec of a game; raises UnknownGameError listing the games."""
    _discover()
    if not isinstance(name, str) or name.lower() not in _REGISTRY:
        raise UnknownGameError(f"unknown game {name!r}; the games are: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[name.lower()]


def make_config(name: str, players: int = 2, **options: Any) -> Dict[str, Any]:
    """A validated C++ configuration dict: what random_playouts and the state classes take."""
    return game_spec(name).core_config(players, **options)


def make(name: str, players: int = 2, seed: int = 0, **options: Any):
    """A new game state.

    name: one of list_games(); players: a player count the game allows; seed: the state's RNG
    seed (same seed and same actions give the same game); options: the game's rule options
    (``tilecraft rules NAME`` lists them). Bad values raise InvalidConfigError (a ValueError)."""
    spec = game_spec(name)
    return spec.new_state(players, seed, spec.validate(players, options))


def from_json(text: str):
    """Restores any game's state saved with state.to_json(). Text that is not such a state raises
    InvalidStateError (a ValueError) naming the fault and its JSON path: malformed JSON, repeated
    keys, NaN, huge integers, nesting over 64 levels, bytes that are not UTF-8."""
    from ._schema import parse_saved_state

    data = parse_saved_state(text)
    if not isinstance(data, dict) or "game" not in data:
        raise InvalidStateError("a saved state is a JSON object with a 'game' field")
    try:
        spec = game_spec(str(data["game"]))
    except UnknownGameError as e:
        raise InvalidStateError(f"cannot load the saved state: {e}") from None
    return spec.state_class.from_dict(data)
