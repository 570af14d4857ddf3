"""Neural-guided search: PUCT in C++ with a Python evaluator (numpy, PyTorch, JAX...).

The evaluator protocol (see docs/search.md)::

    evaluate(observations, legal_mask, players) -> (policy_logits, values)

- ``observations``: float32 ``(B, *observation_shape)``, each row the view of the seat to move at a
  leaf of a determinized search tree (never another seat's hidden information);
- ``legal_mask``: bool ``(B, A)`` with ``A = num_distinct_actions()``;
- ``players``: int32 ``(B,)``, the seat each row belongs to;
- ``policy_logits``: ``(B, A)``, finite at the legal actions (anything, even ``-inf``, elsewhere);
- ``values``: ``(B, num_players)``, each seat's expected **share of the win** in [0, 1] (1/k to each
  of k co-winners): the scale the MCTS bots use. An evaluator that predicts per-seat returns in
  [-1, 1] instead says so with ``values="returns"`` on the bot; they are converted with
  ``(v + 1) / 2``.

Numpy arrays, anything ``numpy.asarray`` takes, and PyTorch tensors of real numbers are accepted.
A wrong shape, a bool, complex or object dtype, a NaN, a value outside the scale, or an exception
inside the evaluator (or inside its outputs' ``__array__``) raises :class:`EvaluatorError` naming
the game and the batch; the search stops cleanly (no thread keeps running) and the bot stays
usable. One bot shared by Python threads searches for one at a time; an evaluator that calls the
bot it serves (a nested search on the same bot) is refused with an error saying it is already
searching.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _core
from .search_options import CHANCE_TREE_MODES, check_puct

Evaluator = Callable[[np.ndarray, np.ndarray, np.ndarray], Tuple[Any, Any]]


class EvaluatorError(RuntimeError):
    """The evaluator raised, or returned something that is not (logits (B, A), values (B, players))."""


_EVALUATORS: Dict[str, Callable[..., Evaluator]] = {}


def register_evaluator(name: str, evaluator: Union[Evaluator, Callable[..., Evaluator]],
                       factory: bool = False) -> None:
    """Makes ``PUCTBot(evaluator=name)`` and the bot spec ``"puct:evaluator=name"`` find an evaluator.
    With ``factory=True``, ``evaluator`` is called with no arguments to build one per bot."""
    _EVALUATORS[name] = evaluator if factory else (lambda: evaluator)


def get_evaluator(name: str) -> Evaluator:
    if name not in _EVALUATORS:
        raise ValueError(f"unknown evaluator {name!r}; registered: {', '.join(sorted(_EVALUATORS)) or 'none'} "
                         "(tilecraft.register_evaluator(name, fn) adds one)")
    return _EVALUATORS[name]()


def uniform_evaluator(observations: np.ndarray, legal_mask: np.ndarray, players: np.ndarray,
                      num_players: Optional[int] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Uniform priors and a draw for everyone (1/players each): PUCT with it is a plain tree search
    without any knowledge, the baseline of the learning curve."""
    n = int(num_players) if num_players else 2
    return (np.zeros(legal_mask.shape, np.float32), np.full((len(players), n), 1.0 / n, np.float32))


class UniformEvaluator:
    """:func:`uniform_evaluator` for a given number of players (picklable)."""

    def __init__(self, players: int = 2):
        self.players = players

    def __call__(self, observations, legal_mask, players):
        return uniform_evaluator(observations, legal_mask, players, self.players)

    def __repr__(self) -> str:
        return f"UniformEvaluator(players={self.players})"


register_evaluator("uniform", UniformEvaluator, factory=True)


def _to_numpy(x: Any, what: str, where: str) -> np.ndarray:
    """One evaluator output as float32; anything that is not an array of real numbers (an
    ``__array__`` that raises, bool, complex, object or string dtypes) is an EvaluatorError."""
    try:
        if hasattr(x, "detach") and hasattr(x, "cpu"):  # a torch tensor
            x = x.detach().cpu().numpy()
        a = np.asarray(x)
    except Exception as e:  # noqa: BLE001 - whatever the output's conversion raises
        raise EvaluatorError(f"{where} returned {what} that cannot be read as an array: "
                             f"{type(e).__name__}: {e}") from e
    if a.dtype.kind not in "iuf":
        raise EvaluatorError(f"{where} returned {what} of dtype {a.dtype}; expected real numbers "
                             "(a float or integer dtype; not bool, complex, object or strings)")
    return a.astype(np.float32, copy=False)


class EvaluatorCall:
    """Wraps a user evaluator for the C++ search: calls it, checks and converts what comes back,
    and times it (``seconds``, ``calls``, ``rows``)."""

    def __init__(self, evaluator: Evaluator, game: str, num_players: int, num_actions: int,
                 values: str = "share"):
        if not callable(evaluator):
            raise TypeError(f"an evaluator must be callable as evaluate(observations, legal_mask, players); "
                            f"got {evaluator!r}")
        if values not in ("share", "returns"):
            raise ValueError(f"values must be 'share' (win share in [0, 1]) or 'returns' ([-1, 1]), got {values!r}")
        if isinstance(evaluator, UniformEvaluator):
            evaluator = UniformEvaluator(num_players)
        self.evaluator = evaluator
        self.game = game
        self.players = num_players
        self.actions = num_actions
        self.values = values
        self.seconds = 0.0
        self.calls = 0
        self.rows = 0

    def __call__(self, observations: np.ndarray, legal_mask: np.ndarray, players: np.ndarray):
        b = len(players)
        where = f"{self.game}: evaluator call {self.calls + 1} on a batch of {b} observations"
        start = time.perf_counter()
        try:
            out = self.evaluator(observations, legal_mask, players)
        except Exception as e:
            raise EvaluatorError(f"{where} raised {type(e).__name__}: {e}") from e
        finally:
            self.seconds += time.perf_counter() - start
            self.calls += 1
            self.rows += b
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise EvaluatorError(f"{where} returned {type(out).__name__}; expected a pair (policy_logits, values)")
        logits, values = _to_numpy(out[0], "policy_logits", where), _to_numpy(out[1], "values", where)
        if logits.shape != (b, self.actions):
            raise EvaluatorError(f"{where} returned policy_logits of shape {logits.shape}; expected "
                                 f"({b}, {self.actions}) (batch, num_distinct_actions)")
        if values.shape != (b, self.players):
            raise EvaluatorError(f"{where} returned values of shape {values.shape}; expected ({b}, {self.players}) "
                                 "(batch, num_players): each seat's win share")
        if not np.isfinite(logits.sum(dtype=np.float64)):  # one pass when all is finite (the usual case)
            bad = ~np.isfinite(logits) & legal_mask
        else:
            bad = None
        if bad is not None and bad.any():
            row, col = map(int, np.argwhere(bad)[0])
            raise EvaluatorError(f"{where} returned a non-finite policy logit ({logits[row, col]}) for legal "
                                 f"action {col} in row {row}")
        if not np.isfinite(values).all():
            row = int(np.argwhere(~np.isfinite(values))[0][0])
            raise EvaluatorError(f"{where} returned non-finite values {values[row].tolist()} in row {row}")
        low, high = (-1.0, 1.0) if self.values == "returns" else (0.0, 1.0)
        if values.size and (values.min() < low or values.max() > high):
            row, col = map(int, np.argwhere((values < low) | (values > high))[0])
            scale = ("returns (values='returns')" if self.values == "returns"
                     else "win shares (values='share'; say values='returns' for returns in [-1, 1])")
            raise EvaluatorError(f"{where} returned value {float(values[row, col])} for seat {col} in row {row}; "
                                 f"values must be {scale} in [{low:g}, {high:g}]")
        if self.values == "returns":
            values = (values + 1.0) * 0.5
        return np.ascontiguousarray(logits), np.ascontiguousarray(values)


class PUCTBot:
    """AlphaZero-style search: PUCT in C++ whose priors and values come from ``evaluator``.

    ``evaluator``: a callable following the protocol above, or the name of a registered one
    (``"uniform"`` is built in). Left None, the bot searches with the uniform evaluator (so the
    ``"puct"`` bot spec plays out of the box), except in :func:`tilecraft.self_play`, whose
    ``evaluator=`` then supplies it.
    ``simulations`` per move (the root's own evaluation comes on top; 200 when neither it nor
    ``seconds`` is given) and/or a time budget ``seconds`` per move, the wall time of one ``act()`` on
    one thread (the search stops after the first round of leaves that ends past it, or at the
    simulations given, whichever comes first; the result's ``simulations`` says how many it made).
    A search by simulations is deterministic; one by time is not. With a budget, ``worlds`` trees
    share it (each grows one round of leaves in turn), and ``gumbel`` is refused (its sequential
    halving plans a count of simulations ahead). ``c_puct`` the exploration
    constant; ``root_noise=(alpha, fraction)`` mixes Dirichlet noise into the root priors;
    ``temperature`` > 0 samples the move with probability proportional to visits^(1/temperature)
    (while the game has fewer than ``temperature_moves`` actions, -1: always), 0 plays the most
    visited; up to ``batch_size`` leaves are gathered (with virtual loss) per evaluator call, a
    call ending early where the next simulation would reach a leaf already in it;
    ``gumbel=True`` uses a Gumbel root with sequential halving over ``gumbel_actions`` actions
    (``gumbel_c_visit`` and ``gumbel_c_scale``: the c_visit and c_scale of its sigma(q))
    (then ``temperature`` and ``root_noise`` are not used: the Gumbel noise does their job, and the
    policy target is the improved policy, not the visit counts). ``values="returns"`` when the
    evaluator predicts returns in [-1, 1] rather than win shares in [0, 1].
    ``rollout_mix`` > 0 mixes each leaf's value with the mean of ``rollouts`` rollouts from it
    (AlphaGo's lambda): ``(1 - rollout_mix) * evaluator + rollout_mix * rollouts``, each played as
    MCTSBot plays its own (``rollout``, ``rollout_depth`` player actions, then the game's heuristic at
    ``eval_scale``; left None, the game's tuned search defaults) from a copy of the leaf whose hidden
    parts and future were re-drawn for the searcher. 0 (the default) runs none.
    ``determinize``: ``"search"`` (the default) draws the hidden parts and the future once per
    search, so the tree plans for that one future; ``"iteration"`` draws them again for every
    simulation, as ISMCTS does (information-set PUCT: an open-loop tree whose selection looks only at
    the children legal in the simulation's own draw; docs/search.md, PUCTBot); ``"hidden"`` draws
    the hidden parts once per search, on a copy of the position whose chance is explicit
    (:func:`chance_tree`), so the draws, refills and dice to come are chance nodes of the tree,
    sampled on every descent (Azul, The Castle and Gaudí; not in C++ self-play);
    ``"hidden-iteration"`` searches the same copy but draws its hidden parts (the other seats'
    hands) again for every simulation, as ``"iteration"`` does (an open-loop tree over the
    unknown hands, chance nodes for the future).
    ``prior_heuristic`` > 0 adds a progressive bias from the game's one-ply heuristic to every new
    node's prior logits: ``prior_heuristic * (h(a) - max h) / eval_scale``, h(a) being the mover's
    ``heuristic`` after action a on the simulation's state (what GreedyBot maximises). 0 (the
    default) computes nothing. ``opponent_prior_heuristic`` (None: ``prior_heuristic``) is that
    bias where a seat other than the searcher's moves, an opponent model: large values make the tree
    expect the others to play what GreedyBot plays. ``prior_temperature`` divides the evaluator's logits before the
    softmax (Leela Chess Zero's policy softmax temperature): above 1 flattens over-sure priors.
    ``worlds`` > 1 (a determinized-PUCT ensemble, as MCTSBot's ``threads``; in either
    ``determinize`` mode) splits the simulations between that many trees, each on its own draw of the hidden
    parts and the future, gathers up to ``batch_size`` leaves from every tree per evaluator call, and
    sums the trees' root visits: the move is the one the most draws favour, not the best move for one
    draw (docs/journal/2026-12-04-several-worlds.md). 1 (the default) is one tree.

    The search never peeks: it runs on a copy whose hidden parts were re-drawn from the bot's seed,
    and the evaluator sees only observations of the seat to move. Deterministic for a seed, a
    deterministic evaluator and a batch size (``batch_size=1`` is exact sequential PUCT)."""

    name = "puct"

    def __init__(self, evaluator: Union[Evaluator, str, None] = None, simulations: Optional[int] = None,
                 c_puct: float = 1.25,
                 root_noise: Optional[Sequence[float]] = None, temperature: float = 0.0, temperature_moves: int = -1,
                 batch_size: int = 8, seed: int = 0, gumbel: bool = False, gumbel_actions: int = 16,
                 gumbel_c_visit: float = 50.0, gumbel_c_scale: float = 0.1, values: str = "share", rollout_mix: float = 0.0, rollouts: int = 1, rollout: Optional[str] = None,
                 rollout_depth: Optional[int] = None, eval_scale: Optional[float] = None,
                 determinize: str = "search", prior_heuristic: float = 0.0,
                 prior_temperature: float = 1.0, worlds: int = 1,
                 opponent_prior_heuristic: Optional[float] = None, seconds: Optional[float] = None):
        if isinstance(evaluator, str):
            evaluator = get_evaluator(evaluator)
        if evaluator is not None and not callable(evaluator):
            raise TypeError(f"PUCTBot: evaluator must be callable or a registered name, got {evaluator!r}")
        if root_noise is None:
            alpha, fraction = 0.3, 0.0
        else:
            try:
                alpha, fraction = (float(x) for x in root_noise)
            except (TypeError, ValueError):
                raise ValueError(f"PUCTBot: root_noise must be (alpha, fraction), got {root_noise!r}") from None
        self.evaluator = evaluator
        self.values = values
        if simulations is None:  # 200, or with a time budget alone no cap but the search's own
            simulations = DEFAULT_SIMULATIONS if seconds is None else _core.PUCT_MAX_SIMULATIONS
        self.options: Dict[str, Any] = dict(
            simulations=simulations, seconds=seconds, c_puct=c_puct, noise_alpha=alpha, noise_fraction=fraction,
            temperature=temperature, temperature_moves=temperature_moves, batch_size=batch_size, seed=seed,
            gumbel=gumbel, gumbel_actions=gumbel_actions, gumbel_c_visit=gumbel_c_visit,
            gumbel_c_scale=gumbel_c_scale, rollout_mix=rollout_mix, rollouts=rollouts, rollout=rollout,
            rollout_depth=rollout_depth, eval_scale=eval_scale, determinize=determinize,
            prior_heuristic=prior_heuristic, prior_temperature=prior_temperature, worlds=worlds,
            opponent_prior_heuristic=opponent_prior_heuristic)
        check_puct(self.options)
        if values not in ("share", "returns"):
            raise ValueError(f"PUCTBot: values must be 'share' or 'returns', got {values!r}")
        self._searchers: Dict[type, Any] = {}
        self._calls: Dict[type, EvaluatorCall] = {}
        self.last_search: Optional[Dict[str, Any]] = None

    def __getstate__(self) -> Dict[str, Any]:  # the C++ engine stays behind; the evaluator must pickle
        return {"evaluator": self.evaluator, "values": self.values, "options": self.options}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.evaluator, self.values, self.options = state["evaluator"], state["values"], state["options"]
        self._searchers, self._calls, self.last_search = {}, {}, None

    def reset(self, seat: int, seed: int) -> None:
        self.options["seed"] = int(seed) & (2**63 - 1)
        self._searchers = {}

    def _call(self, state: Any) -> EvaluatorCall:
        cls = type(state)
        call = self._calls.get(cls)
        if self.evaluator is None:  # the plain "puct" bot: a tree search with uniform priors
            if call is None or not isinstance(call.evaluator, UniformEvaluator):
                call = self._calls[cls] = EvaluatorCall(UniformEvaluator(), cls.game_name, state.num_players(),
                                                        state.num_distinct_actions(), self.values)
            return call
        if call is None or call.evaluator is not self.evaluator:
            call = self._calls[cls] = EvaluatorCall(self.evaluator, cls.game_name, state.num_players(),
                                                    state.num_distinct_actions(), self.values)
        return call

    def _native(self, state: Any) -> Any:
        return native_evaluator(self.evaluator, state, self.values)

    def search(self, state: Any, started: Optional[float] = None) -> Dict[str, Any]:
        """action, and visits / policy / values / prior indexed by action id, root_value,
        simulations, nodes, evaluations. ``started``: the ``time.perf_counter()`` at which the move
        began, where a caller spent some of a time budget before this call (default: now)."""
        started = time.perf_counter() if started is None else started
        cls = type(state)
        if self.options["determinize"] in CHANCE_TREE_MODES:
            state = chance_tree(state)  # before anything else: a game without explicit chance is refused
        call = self._native(state) or self._call(state)
        searcher = self._searchers.get(cls)
        if searcher is None:
            options = self._resolved(cls.game_name)
            if options["determinize"] in CHANCE_TREE_MODES:  # the copy's chance is in the tree; its hidden parts
                options["determinize"] = CHANCE_TREE_MODES[options["determinize"]]  # once, or every simulation
            searcher = self._searchers[cls] = cls.PUCTSearcher(**options)
        self.last_search = searcher.search(state, call, time.perf_counter() - started)
        return self.last_search

    def act(self, state: Any) -> int:
        return int(self.search(state)["action"])

    def _resolved(self, game: Optional[str]) -> Dict[str, Any]:
        """The options for a game: the rollout's that were left None from the game's search defaults."""
        return tuned_options(self.options, game)

    def spec(self, game: Optional[str] = None) -> Dict[str, Any]:
        """The bot as a C++ self-play spec for ``game`` (without the evaluator index)."""
        if self.options["seconds"] is not None:
            raise ValueError("PUCTBot: a time budget (seconds) is not deterministic, and self-play (tilecraft.self_play, "
                             "tilecraft train's teachers) must be: give it simulations instead")
        if self.options["determinize"] in CHANCE_TREE_MODES:
            raise ValueError(f"PUCTBot: determinize={self.options['determinize']!r} searches a copy of the position "
                             "made in Python "
                             "(chance_tree), which C++ self-play (tilecraft.self_play, tilecraft train's teachers) "
                             "cannot make; play such a bot with play_match or the tournament runner, or use "
                             "determinize='search' or 'iteration' there")
        return dict(kind="puct", **{k: v for k, v in self._resolved(game).items() if k != "seed"})

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"PUCTBot(evaluator={self.evaluator!r}, {shown})"


#: A search's simulations when it is given neither simulations nor a time budget.
DEFAULT_SIMULATIONS = 200



def native_evaluator(evaluator: Any, state: Any, values: str = "share", batched: bool = False) -> Any:
    """The evaluator's C++ form (``evaluator.native()``: a tilecraft.baselines.Network's MlpNet) where
    it has one that fits the state's game, for win shares: a search or self-play then evaluates it
    without calling Python. None otherwise (an evaluator that does not fit goes the Python way, whose
    errors say what differs). ``batched`` (self-play: hundreds of rows a call): only for a network
    with feature groups; a dense one's numpy pass, one BLAS matrix product a layer, is faster there
    (docs/journal/2026-12-05-network-in-cpp.md)."""
    make = getattr(evaluator, "native", None)
    if make is None or values != "share":
        return None
    if batched and not (getattr(evaluator, "meta", None) or {}).get("groups"):
        return None
    net = make()
    size = int(np.prod(state.observation_shape()))
    if (net.obs_size, net.num_actions, net.players) != (size, state.num_distinct_actions(), state.num_players()):
        return None
    return net


def chance_tree(state: Any) -> Any:
    """A copy of ``state`` that stops at its chance nodes (the game's ``chance="explicit"``): the same
    position, the same legal actions and observations, but the draws, refills and dice still to come
    are chance nodes instead of happening inside ``apply()`` from the state's RNG. A search on it
    (``PUCTBot(determinize="hidden")``) samples them in its tree with their probabilities, so it
    plans for every future the game can bring, not for the one a single draw shows. A state whose
    chance is explicit already comes back as it is. ValueError for a game without explicit chance
    (Warsaw deals its eras from hidden decks; only its ``resample_hidden`` can re-draw them)."""
    data = state.to_dict() if hasattr(state, "to_dict") else {}
    config = data.get("config")
    if not isinstance(config, dict) or "explicit_chance" not in config:
        from ..games import list_games, game_spec

        able = [g for g in list_games() if any(o.name == "chance" for o in game_spec(g).options)]
        raise ValueError(f"{type(state).game_name}: determinize='hidden' or 'hidden-iteration' needs a game whose "
                         f"chance can be explicit "
                         f"(the option chance='explicit': {', '.join(able)}); use 'search' or 'iteration'")
    if config["explicit_chance"]:
        return state
    config["explicit_chance"] = 1
    data["seed"], data["history"] = None, []  # a position, not a replay: its past was sampled
    return type(state).from_dict(data)


def tuned_options(options: Dict[str, Any], game: Optional[str]) -> Dict[str, Any]:
    """``options`` with each one left None that the presets' ``mcts`` section sets (the rollout's
    policy, depth and scale, the exploration constant) taken from ``game``'s presets, else the
    defaults (``game`` None or unregistered, such as tilecraft.testing's nim)."""
    from . import presets
    from ..games import list_games

    tuned = presets.mcts_defaults(game if game in list_games() else None)
    return {k: (tuned[k] if k in tuned and v is None else v) for k, v in options.items()}


def win_shares(winners: np.ndarray) -> np.ndarray:
    """(games, players) bool winners -> each seat's share of the win (the value target)."""
    w = np.asarray(winners, dtype=np.float32)
    k = w.sum(axis=-1, keepdims=True)
    return np.divide(w, k, out=np.zeros_like(w), where=k > 0)
