"""Bots. Every bot follows one protocol: ``act(state) -> action`` and optionally
``reset(seat, seed)`` before a game. Built-in bots are also reachable by name
(``make_bot("greedy")``, ``make_bot("random:seed=3")``)."""
from __future__ import annotations

import difflib
import importlib
import inspect
import random
import time
from typing import Any, Callable, Dict, List, Mapping, Optional, Protocol, runtime_checkable

import numpy as np

from . import presets
from .._args import is_integer, key_values, seed as check_seed
from .puct import PUCTBot, tuned_options
from .search_options import MCTS_OPTIONS, check_mcts


@runtime_checkable
class Bot(Protocol):
    """The bot protocol. ``act`` returns a legal action id for ``state.current_player()``."""

    def act(self, state: Any) -> int: ...


class RandomBot:
    """Plays a uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int = 0):
        self._seed = check_seed("RandomBot", seed)
        self._rng = random.Random(self._seed)

    def reset(self, seat: int, seed: int) -> None:
        self._rng = random.Random(check_seed("RandomBot.reset", seed))

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
        self._rng = random.Random(check_seed("GreedyBot", seed))

    def reset(self, seat: int, seed: int) -> None:
        self._rng = random.Random(check_seed("GreedyBot.reset", seed))

    def act(self, state: Any) -> int:
        return int(state.greedy_action(self._rng.getrandbits(63)))

    def __repr__(self) -> str:
        return "GreedyBot()"


class MCTSBot:
    """Monte Carlo tree search in C++ (UCT, max^n values for 2-4 players).

    ``iterations`` per move (split over ``threads`` root-parallel trees; 1000 when neither it nor
    ``seconds`` is given) and/or a time budget ``seconds`` per move (the search stops at whichever
    comes first). ``exploration`` is the UCT constant; ``rollout`` is
    ``"random"`` or ``"greedy"``; ``rollout_depth`` caps the player actions of a rollout, after
    which the game's heuristic decides (-1 plays to the end); ``eval_scale`` is the temperature
    of that heuristic softmax. ``reuse_tree`` keeps the subtree of the position reached between
    moves. The search never reads the real hidden information or future: it runs on a copy
    re-determinized from the bot's own seed (one determinization per search and tree, which is
    what ``determinize="search"`` means); ``ISMCTSBot`` draws a new one every iteration.
    With ``threads=1`` and no time budget the bot is deterministic for a seed."""

    name = "mcts"
    determinize = "search"

    def __init__(self, iterations: Optional[int] = None, seconds: Optional[float] = None, threads: int = 1,
                 seed: int = 0, exploration: Optional[float] = None, rollout: Optional[str] = None,
                 rollout_depth: Optional[int] = None, eval_scale: Optional[float] = None, reuse_tree: bool = True,
                 max_nodes: int = 4_000_000):
        if iterations is None and seconds is None:
            iterations = 1000
        self.options: Dict[str, Any] = dict(
            iterations=iterations, seconds=seconds, threads=threads, seed=seed, exploration=exploration,
            rollout=rollout, rollout_depth=rollout_depth, eval_scale=eval_scale, reuse_tree=reuse_tree,
            max_nodes=max_nodes, determinize=self.determinize)
        _check_search_options(type(self).__name__, self._resolved(None))
        for o in MCTS_OPTIONS:  # numpy numbers -> Python's, by the kind C++ declares
            value = self.options.get(o["name"])
            if o["kind"] in ("integer", "seed") and is_integer(value):
                self.options[o["name"]] = int(value)
            elif o["kind"] == "number" and isinstance(value, np.floating):
                self.options[o["name"]] = float(value)
        self._searchers: Dict[type, Any] = {}
        self.last_search: Optional[Dict[str, Any]] = None

    def _resolved(self, game: Optional[str]) -> Dict[str, Any]:
        """The options for a game: those given, else the game's presets (tilecraft/agents/presets.json, mcts)."""
        return tuned_options(self.options, game)

    def __getstate__(self) -> Dict[str, Any]:  # picklable for worker processes: the C++ trees stay behind
        return {"options": self.options}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.options = state["options"]
        self._searchers = {}
        self.last_search = None

    def reset(self, seat: int, seed: int) -> None:
        self.options["seed"] = check_seed(f"{type(self).__name__}.reset", seed)
        self._searchers = {}

    def _searcher(self, state: Any) -> Any:
        cls = type(state)
        searcher = self._searchers.get(cls)
        if searcher is None:
            searcher = self._searchers[cls] = cls.Searcher(**self._resolved(cls.game_name))
        return searcher

    def search(self, state: Any) -> Dict[str, Any]:
        """The full search result: action, and visits / policy / values indexed by action id."""
        self.last_search = self._searcher(state).search(state)
        return self.last_search

    def act(self, state: Any) -> int:
        return int(self.search(state)["action"])

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.options.items() if k != "determinize"}
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in shown.items())})"


class ISMCTSBot(MCTSBot):
    """Information-set MCTS: like MCTSBot, but every iteration searches a fresh determinization
    (the hidden parts and future chance re-drawn from what the seat has seen, with the bot's own
    seed). Nodes are action sequences; at each node only the actions legal in the current
    determinization compete, with availability counts in the exploration term."""

    name = "ismcts"
    determinize = "iteration"


def one_blas_thread() -> Any:
    """A context in which numpy's BLAS runs on one thread (threadpoolctl, where installed): a network
    evaluated on a few rows at a time is many times faster so (a Gaudí PUCT(200) move measured 514 ms
    with the default threads, 11 ms with one). A no-op without threadpoolctl."""
    global _CONTROLLER
    if _CONTROLLER is None:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:  # pragma: no cover - threadpoolctl is a dependency
            import contextlib

            return contextlib.nullcontext()
        _CONTROLLER = ThreadpoolController()  # finding the libraries is the slow part (about 1 ms): once
    return _CONTROLLER.limit(limits=1, user_api="blas")


_CONTROLLER: Any = None


class _BaselineBase:
    """What the two baseline bots share: the network is loaded on the first move, for the state's
    game, player count and mode (tilecraft.baselines.for_state), or from ``path``; made without a
    game, so that a spec works for every game that has a baseline."""

    def __init__(self, seed: int, path: Optional[str]):
        self._seed = check_seed(type(self).__name__, seed)
        if path is not None and not isinstance(path, str):
            raise ValueError(f"{type(self).__name__}: path must be a file name, got {path!r}")
        self.path = path
        self._nets: Dict[Any, Any] = {}

    def network(self, state: Any) -> Any:
        from . import baselines

        key = (type(state), state.num_players(), baselines.mode_of(state))
        net = self._nets.get(key)
        if net is None:
            net = self._nets[key] = baselines.for_state(state, self.path)
        return net

    def __getstate__(self) -> Dict[str, Any]:
        d = dict(self.__dict__)
        d["_nets"] = {}  # reloaded (from the per-process cache) in the worker; the C++ searchers stay behind
        if "_pucts" in d:
            d["_pucts"] = {}
        return d

    def __setstate__(self, d: Dict[str, Any]) -> None:
        self.__dict__.update(d)


class BaselinePolicyBot(_BaselineBase):
    """The shipped baseline network's policy alone, one network call per move: the argmax of its
    logits over the legal actions (ties: the lower id), or with ``temperature > 0`` a sample from
    their softmax at that temperature (seeded). ``path``: a network file instead of the shipped one.
    Bot spec: ``"baseline-policy[:temperature=T]"``."""

    name = "baseline-policy"

    def __init__(self, temperature: float = 0.0, seed: int = 0, path: Optional[str] = None):
        super().__init__(seed, path)
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float, np.floating)) or \
                not temperature >= 0.0 or temperature == float("inf"):
            raise ValueError(f"BaselinePolicyBot: temperature must be a finite number >= 0, got {temperature!r}")
        self.temperature = float(temperature)
        self._rng = np.random.default_rng(self._seed)

    def reset(self, seat: int, seed: int) -> None:
        self._rng = np.random.default_rng(check_seed("BaselinePolicyBot.reset", seed))

    def act(self, state: Any) -> int:
        net = self.network(state)
        with one_blas_thread():
            return net.policy_action(state, self.temperature, self._rng)

    def __repr__(self) -> str:
        return f"BaselinePolicyBot(temperature={self.temperature!r}, path={self.path!r})"


class BaselineBot(_BaselineBase):
    """PUCT search (:class:`tilecraft.PUCTBot`) guided by the shipped baseline network of the
    state's game, player count and mode, loaded on the first move. ``simulations`` (the network's, else 200),
    ``c_puct``, ``batch_size``, ``seed``, ``rollout_mix``, ``rollouts``, ``determinize``, ``prior_heuristic``,
    ``opponent_prior_heuristic``, ``prior_temperature``, ``worlds``, ``rollout_depth`` and ``eval_scale`` are
    PUCTBot's; ``path``: a network file instead of the shipped one. ``simulations``, ``c_puct``, ``rollout_mix``,
    ``prior_heuristic``, ``opponent_prior_heuristic``, ``prior_temperature``, ``batch_size``, ``worlds``,
    ``determinize``, ``rollout_depth`` and ``eval_scale`` left None take the configuration's preset
    (``tilecraft/agents/presets.json``, ``baseline``: the defaults, then the shipped network's own settings;
    ``tilecraft baselines`` prints them; ``rollout_depth`` and ``eval_scale`` unset there: the game's
    MCTS presets), for a network of one's own (``path``) too. By default the network gives the
    priors and each leaf's value is one rollout of the game's MCTS rollout policy (``rollout_mix=1.0``;
    0: the network's value alone), and the priors carry the game's one-ply heuristic as a progressive
    bias (``prior_heuristic=2.0``; 0: the network's priors alone); why each preset is what it is:
    docs/tournaments.md.
    ``worlds`` > 1 splits the simulations between that many trees, each on its own draw of the hidden
    parts (PUCTBot's determinized ensemble).
    ``seconds``: a time budget per move, as PUCTBot's; given without ``simulations`` it lifts every
    simulation cap, the network's included (``baseline:seconds=0.05``).
    Bot spec: ``"baseline[:simulations=N,seconds=T,c_puct=C,batch_size=B,rollout_mix=L,prior_heuristic=H,opponent_prior_heuristic=O,prior_temperature=T,worlds=W,determinize=D,rollout_depth=R,eval_scale=E,seed=S]"``."""

    name = "baseline"

    def __init__(self, simulations: Optional[int] = None, c_puct: Optional[float] = None, batch_size: Optional[int] = None,
                 seed: int = 0,
                 path: Optional[str] = None, rollout_mix: Optional[float] = None, rollouts: int = 1,
                 determinize: Optional[str] = None, prior_heuristic: Optional[float] = None,
                 prior_temperature: Optional[float] = None, worlds: Optional[int] = None,
                 opponent_prior_heuristic: Optional[float] = None, rollout_depth: Optional[int] = None,
                 eval_scale: Optional[float] = None, seconds: Optional[float] = None):
        super().__init__(seed, path)
        self.options = dict(simulations=simulations, seconds=seconds, c_puct=c_puct, batch_size=batch_size,
                            rollout_mix=rollout_mix,
                            rollouts=rollouts, determinize=determinize, prior_heuristic=prior_heuristic,
                            prior_temperature=prior_temperature, worlds=worlds,
                            opponent_prior_heuristic=opponent_prior_heuristic, rollout_depth=rollout_depth,
                            eval_scale=eval_scale)
        try:  # checks the options now, with PUCTBot's errors said of this bot
            PUCTBot(None, seed=self._seed & (2**63 - 1), **self._resolved(presets.baseline("", 0, None)))
        except ValueError as e:
            message = str(e)
            raise ValueError("BaselineBot: " + message[len("PUCTBot: "):] if message.startswith("PUCTBot: ")
                             else message) from None
        self._pucts: Dict[Any, PUCTBot] = {}

    def _resolved(self, preset: Mapping[str, Any]) -> Dict[str, Any]:
        """The PUCTBot options: those given, else the preset's."""
        out = dict(preset)
        out.update((k, v) for k, v in self.options.items() if v is not None)
        if self.options["seconds"] is not None and self.options["simulations"] is None:
            out["simulations"] = None  # a time budget alone lifts every cap, the network's included
        return out

    def puct(self, state: Any) -> PUCTBot:
        """The PUCTBot this bot searches with for the state's configuration."""
        net = self.network(state)
        bot = self._pucts.get(id(net))
        if bot is None:
            bot = self._pucts[id(net)] = PUCTBot(net, seed=self._seed & (2**63 - 1), **self.settings(state))
        return bot

    def settings(self, state: Any) -> Dict[str, Any]:
        """The PUCTBot options this bot searches the state's configuration with: the spec's, else the
        configuration's preset (tilecraft/agents/presets.json)."""
        from .baselines import mode_of

        return self._resolved(presets.baseline(type(state).game_name, state.num_players(), mode_of(state)))

    def reset(self, seat: int, seed: int) -> None:
        self._seed = check_seed("BaselineBot.reset", seed)
        self._pucts = {}  # made again with the new seed on the next move

    def search(self, state: Any) -> Dict[str, Any]:
        started = time.perf_counter()  # a time budget counts the network's loading too
        bot = self.puct(state)
        with one_blas_thread():
            return bot.search(state, started)

    def act(self, state: Any) -> int:
        return int(self.search(state)["action"])

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.options.items() if v is not None)
        return f"BaselineBot({shown}, path={self.path!r})"


def _check_search_options(who: str, o: Dict[str, Any]) -> None:
    """MCTSBot's options: Python's own rule (iterations None, not 0, when only a time budget limits),
    then the C++ configuration's check of every range (tilecraft.search_options.check_mcts)."""
    iterations = o["iterations"]
    if iterations is not None and (not is_integer(iterations) or iterations < 1):
        raise ValueError(f"{who}: iterations must be an integer >= 1 (None: only the time budget limits), "
                         f"got {iterations!r}")
    check_mcts(o, who)


BOT_FACTORIES: Dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MCTSBot,
    "ismcts": ISMCTSBot,
    "puct": PUCTBot,
    "baseline": BaselineBot,
    "baseline-policy": BaselinePolicyBot,
}


def register_bot(name: str, factory: Callable[..., Any]) -> None:
    """Makes ``make_bot(name)`` (and the CLI's --bots) know another bot."""
    BOT_FACTORIES[name] = factory


def bot_options(factory: Callable[..., Any]) -> Optional[List[str]]:
    """The option names a bot factory takes, from its signature (None: it takes any, ``**kwargs``,
    or has no signature to read)."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


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
    label = name  # the bot's name in messages
    if factory is None and "." in name:
        cls_name, _, rest = rest.partition(":")
        label = f"{name}:{cls_name}"
        try:
            factory = getattr(importlib.import_module(name), cls_name)
        except (ImportError, AttributeError) as e:
            raise ValueError(f"cannot import bot {name}:{cls_name}: {e}") from None
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; the built-in bots are {', '.join(sorted(BOT_FACTORIES))}, "
                         "or give an import path 'package.module:Class'")
    if rest:
        kwargs = key_values(rest.split(","), lambda item: f"bot option {item!r} in {spec!r} must look like key=value",
                            lambda key: f"bad options for bot {label!r}: option {key!r} is given twice in {spec!r}")
    known = bot_options(factory)
    unknown = [k for k in kwargs if known is not None and k not in known]
    if unknown:
        close = difflib.get_close_matches(unknown[0], known or [], n=1)
        raise ValueError(f"bad options for bot {label!r}: it has no option {unknown[0]!r}"
                         + (f" (did you mean {close[0]!r}?)" if close else "")
                         + f"; its options are {', '.join(known) if known else 'none'}")
    if seed is not None and "seed" not in kwargs:
        kwargs["seed"] = seed
    try:
        bot = factory(**kwargs)
    except TypeError as e:
        raise ValueError(f"bad options for bot {label!r}: {e}") from None
    return bot
