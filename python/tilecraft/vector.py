"""Batched environments: N games of one configuration stepped per call in C++ (docs/vector.md).

>>> import tilecraft
>>> v = tilecraft.VectorGame("azul", num_envs=1024, seed=0)
>>> r = v.reset()
>>> r = v.step(v.sample_legal())        # one legal action per game, drawn in C++
>>> r.observation.shape, r.legal_mask.shape, r.rewards.shape
((1024, 168), (1024, 300), (1024, 2))

The loop is C++ (cpp/search/vector_env.hpp); this module only validates arguments, names the
arrays, and puts the Gymnasium vector API on top (``GymnasiumVectorEnv``, extra ``adapters``).

The arrays of a result are views of buffers the engine rewrites on the next call (no copies,
``np.asarray`` and ``torch.from_numpy`` share them); pass ``copy=True`` to get fresh arrays."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _args
from .agents.bots import make_bot
from .games import GameSpec, game_spec
from .agents.puct import EvaluatorCall
from .agents.selfplay import bot_dict

MAX_ENVS = 1 << 22
MAX_THREADS = 256
BASELINE_POLICY = "baseline-policy"  # the opponent spec of tilecraft.baselines.load(game, ...)


class VectorResult:
    """What reset() and step() return: one row per game.

    ``observation``: float32 ``(N, *obs_shape)``, the view of the seat to act (with opponents: the
    learner's; once a game has ended: the seat that moved last, or the learner), or
    ``(N, players, *obs_shape)`` every seat's view with ``observe="all"``;
    ``legal_mask``: bool ``(N, A)`` (all False once a game has ended);
    ``current_player``: int32 ``(N,)`` seat to act, -1 once a game has ended;
    ``rewards``: float32 ``(N, players)``: each seat's ``returns()`` in the step its game ends, 0 before;
    ``terminated``, ``truncated``: bool ``(N,)`` (truncated is always False: games end by their rules);
    ``info``: dict of arrays: ``episode_index`` (episode number per game), ``reset`` (True where this call
    started a new episode, whose action was then ignored), ``episode_returns`` ``(N, players)`` and
    ``episode_length`` (actions of the finished episode, every seat's and chance outcomes), both
    set where ``terminated`` and 0 elsewhere, and ``learner_seat`` with opponents."""

    __slots__ = ("observation", "legal_mask", "current_player", "rewards", "terminated", "truncated", "info")

    def __init__(self, buffers: Dict[str, np.ndarray], learner: bool, copy: bool):
        take = (lambda a: np.array(a)) if copy else (lambda a: a)
        self.observation = take(buffers["observation"])
        self.legal_mask = take(buffers["legal_mask"])
        self.current_player = take(buffers["current_player"])
        self.rewards = take(buffers["rewards"])
        self.terminated = take(buffers["terminated"])
        self.truncated = take(buffers["truncated"])
        keys = ("episode", "reset", "episode_returns", "episode_length") + (("learner_seat",) if learner else ())
        # "episode_index", not "episode": Gymnasium's RecordEpisodeStatistics writes info["episode"]
        self.info: Dict[str, np.ndarray] = {("episode_index" if k == "episode" else k): take(buffers[k]) for k in keys}

    def __repr__(self) -> str:
        n = len(self.terminated)
        return f"<VectorResult: {n} envs, {int(self.terminated.sum())} terminated>"


def _integer(who: str, name: str, value: Any, low: int, high: int) -> int:
    return _args.integer(who, name, value, low, high)


def _seed(who: str, seed: Any) -> int:
    return _args.seed(who, seed)


def is_evaluator(opponent: Any) -> bool:
    """An opponent given as an evaluator: a callable without an ``act`` method (bots have one)."""
    return not isinstance(opponent, str) and callable(opponent) and not hasattr(opponent, "act")


def _baseline_policy(who: str, spec: GameSpec, players: int, values: Dict[str, Any]) -> Any:
    """The ``"baseline-policy"`` opponent: ``tilecraft.baselines.load(game, players, mode)`` (the
    game's ``mode`` option where it has one), imported only when asked for."""
    try:
        from .agents.baselines import BaselineError, load
    except ImportError as e:
        raise ValueError(f"{who}: opponent {BASELINE_POLICY!r}: tilecraft.baselines is not available ({e})") from None
    mode = values["mode"] if any(o.name == "mode" for o in spec.options) else None
    try:
        evaluator = load(spec.name, players=players, mode=mode)
    except BaselineError as e:
        raise ValueError(f"{who}: opponent {BASELINE_POLICY!r}: {e}") from None
    if not is_evaluator(evaluator):
        raise ValueError(f"{who}: opponent {BASELINE_POLICY!r}: tilecraft.baselines.load returned {evaluator!r}, "
                         "not an evaluator")
    return evaluator


def _opponents(who: str, spec: GameSpec, players: int, values: Dict[str, Any], num_actions: int,
               opponents: Any) -> Tuple[List[Dict[str, Any]], List[EvaluatorCall]]:
    """The C++ engine's opponent list (one per non-learner seat: a built-in bot's dict, or
    ``{"kind": "evaluator", "index": k}``) and the distinct evaluators, each wrapped in the PUCT
    checks (``EvaluatorCall``). The same evaluator object on several seats is one evaluator (one
    call per round for all of them), and so is ``"baseline-policy"``."""
    specs = [opponents] * (players - 1) if isinstance(opponents, str) or not isinstance(opponents, (list, tuple)) \
        else list(opponents)
    if len(specs) != players - 1:
        raise ValueError(f"{who}: a {players}-player game has {players - 1} opponent seat(s); give one opponent "
                         f"for all of them or a list of {players - 1}, got {len(specs)}")
    bots: List[Dict[str, Any]] = []
    calls: List[EvaluatorCall] = []
    index: Dict[int, int] = {}  # id(evaluator object) -> its index
    baseline: Optional[Any] = None
    for s in specs:
        if isinstance(s, str) and s.partition(":")[0] == BASELINE_POLICY:
            if s != BASELINE_POLICY:
                raise ValueError(f"{who}: opponent {s!r}: {BASELINE_POLICY!r} takes no options; give "
                                 f"{BASELINE_POLICY!r} alone (or load an evaluator yourself and pass it)")
            if baseline is None:
                baseline = _baseline_policy(who, spec, players, values)
            s = baseline
        if is_evaluator(s):
            if id(s) not in index:
                index[id(s)] = len(calls)
                calls.append(EvaluatorCall(s, spec.name, players, num_actions))
            bots.append({"kind": "evaluator", "index": index[id(s)]})
            continue
        try:
            bot = make_bot(s)
        except (ValueError, TypeError) as e:
            raise ValueError(f"{who}: opponent {s!r}: {e}") from None
        try:
            bots.append(bot_dict(bot, spec.name))
        except ValueError:
            raise ValueError(f"{who}: opponents are played in C++ and must be built-in bots (random, greedy, "
                             f"mcts, ismcts, as specs or objects) or evaluators (callables without an act "
                             f"method; {BASELINE_POLICY!r}); got {bot!r}") from None
    return bots, calls


class VectorGame:
    """N independent games of one configuration, held and stepped in C++.

    ``game``, ``players`` and ``**options`` configure every game as ``tilecraft.make`` does.
    ``num_envs`` (1..4,194,304) games; ``threads`` (1..256) C++ threads share each call; results
    never depend on them. Game i's episode e is seeded from (``seed``, i, e) only.

    ``opponents``: None (the caller plays every seat; each step applies the action of the seat
    to act) or opponents for the other seats: one for all of them or a list of ``players - 1``,
    given to the non-learner seats in seat order. An opponent is a built-in bot spec
    (``"greedy"``, ``"random"``, ``"mcts:iterations=200"``, ``"ismcts"``, bot objects of those
    classes), an evaluator (a callable without an ``act`` method, following the PUCT evaluator
    protocol ``evaluate(observations, legal_mask, players) -> (logits, values)``: it plays the
    argmax of its logits over the legal actions, ties to the lower id) or ``"baseline-policy"``
    (``tilecraft.baselines.load(game, players, mode)``). Then ``learner_seat`` (a seat, or
    ``"rotate"``: seat ``(i + episode) % players`` in game i) is the caller's, and every call
    returns each game at the learner's next decision, the bots having played in C++ on copies
    re-determinized for their own seat (they never see what their seat cannot), and each
    evaluator having been called once per round on every game waiting for it, with the mover's
    own observation (docs/vector.md). An evaluator's error (``tilecraft.EvaluatorError``) leaves
    the games part-way through the call: then only ``reset()`` is accepted.

    ``observe``: ``"current"`` (the acting seat's or the learner's view) or ``"all"`` (every
    seat's, shape ``(N, players, *obs_shape)``). ``copy``: return fresh arrays instead of views
    of the reused buffers."""

    def __init__(self, game: str, num_envs: int, players: int = 2, seed: int = 0, threads: int = 1,
                 opponents: Union[None, str, Any, Sequence[Any]] = None, learner_seat: Union[int, str] = 0,
                 observe: str = "current", copy: bool = False, **options: Any):
        who = "VectorGame"
        spec = game_spec(game)
        values = spec.validate(players, options)
        config = spec.to_core(players, values)
        num_envs = _integer(who, "num_envs", num_envs, 1, MAX_ENVS)
        threads = _integer(who, "threads", threads, 1, MAX_THREADS)
        seed = _seed(who, seed)
        if observe not in ("current", "all"):
            raise ValueError(f"{who}: observe must be 'current' or 'all', got {observe!r}")
        if not isinstance(copy, bool):
            raise ValueError(f"{who}: copy must be True or False, got {copy!r}")
        learner = -1
        bots: List[Dict[str, Any]] = []
        calls: List[EvaluatorCall] = []
        if opponents is not None:
            if learner_seat == "rotate":
                learner = -2
            elif isinstance(learner_seat, str):
                raise ValueError(f"{who}: learner_seat must be a seat 0..{players - 1} or 'rotate', got {learner_seat!r}")
            else:
                learner = _integer(who, "learner_seat", learner_seat, 0, players - 1)
            num_actions = spec.new_state(players, 0, values).num_distinct_actions()
            bots, calls = _opponents(who, spec, players, values, num_actions, opponents)
        elif learner_seat != 0:
            raise ValueError(f"{who}: learner_seat needs opponents (without them the caller plays every seat)")
        self.game = spec.name
        self.players = players
        self.observe = observe
        self.copy = copy
        self._learner = learner
        self._evaluator_calls = calls
        # The evaluators stay here, handed to every call: a Python object held inside the C++ engine
        # would be hidden from the garbage collector (and a cycle through it never freed).
        self._core = spec.state_class.Vector(config, num_envs, seed, threads, learner, bots, observe == "all", len(calls))
        self._buffers = self._core.buffers()

    # ---- what it is ----
    @property
    def num_envs(self) -> int:
        return self._core.num_envs

    @property
    def num_actions(self) -> int:
        """Size of the action-id range [0, A) (the legal mask's width)."""
        return self._core.num_actions

    @property
    def observation_shape(self) -> Tuple[int, ...]:
        """Shape of one seat's observation."""
        return tuple(self._core.observation_shape)

    @property
    def threads(self) -> int:
        return self._core.threads

    @property
    def seed(self) -> int:
        return self._core.seed

    def evaluator_stats(self) -> List[Dict[str, Any]]:
        """Per distinct evaluator opponent (in the order first given): the ``evaluator`` object,
        its ``calls``, ``rows`` (observations evaluated) and ``seconds`` spent inside it."""
        return [dict(evaluator=c.evaluator, calls=c.calls, rows=c.rows, seconds=c.seconds)
                for c in self._evaluator_calls]

    # ---- the calls ----
    def reset(self, seed: Optional[int] = None) -> VectorResult:
        """Starts a new episode in every game: with ``seed``, episode 0 of that seed's stream;
        without, each game's next episode. Each game is returned at the learner's first decision
        (the opponents, evaluators included, play until then)."""
        if seed is not None:
            seed = _seed("VectorGame.reset", seed)
        self._core.reset(seed, evaluators=self._evaluator_calls)
        return self._result()

    def step(self, actions: Any) -> VectorResult:
        """Applies ``actions[i]`` to game i (an integer array of length N). The whole batch is
        checked first: a wrong length or dtype raises ValueError, an illegal or out-of-range
        action raises IllegalActionError naming the env and the action, and nothing is applied.
        A game that ended in the previous call starts its next episode instead (its action is
        ignored, and ``info["reset"]`` is True for it). Evaluator opponents are called once per
        round, each on all the games waiting for it; an error inside one raises
        ``tilecraft.EvaluatorError``, after which only ``reset()`` is accepted."""
        self._core.step(actions, evaluators=self._evaluator_calls)
        return self._result()

    def sample_legal(self) -> np.ndarray:
        """int32 ``(N,)``: one uniformly random legal action per game, drawn in C++ (-1 for a game
        awaiting its reset). A view of a reused buffer unless ``copy=True``."""
        self._core.sample_legal()
        sample = self._buffers["sample"]
        return np.array(sample) if self.copy else sample

    def legal_actions(self) -> Tuple[np.ndarray, np.ndarray]:
        """``(flat, offsets)``: game i's legal actions are ``flat[offsets[i]:offsets[i + 1]]``,
        ascending (fresh arrays). A numpy policy picks among them without scanning the mask:
        ``flat[offsets[:-1] + (rng.random(N) * np.diff(offsets)).astype(int)]``."""
        return self._core.legal_actions()

    def state(self, env: int):
        """A copy of game ``env`` as a state object (``tilecraft.make``'s kind, with its history)."""
        return self._core.state(env)

    def seeds(self, env: int) -> Dict[str, Any]:
        """The seeds of game ``env``'s current episode: ``episode``, ``state_seed``
        (``tilecraft.make(game, seed=state_seed)`` is its first position), ``learner_seat`` and
        ``bot_seeds`` per seat (None for the learner) with opponents. See docs/vector.md."""
        return self._core.seeds(env)

    def _result(self) -> VectorResult:
        return VectorResult(self._buffers, self._learner != -1, self.copy)

    def __repr__(self) -> str:
        return f"<VectorGame {self.game}: {self.num_envs} envs, {self.players} players, {self.threads} thread(s)>"


try:  # the Gymnasium vector API (extra: pip install tilecraft[adapters])
    import gymnasium as _gym
    from gymnasium import spaces as _spaces
    from gymnasium.vector.utils import batch_space as _batch_space
except ImportError:  # pragma: no cover - exercised only without gymnasium
    _gym = None


if _gym is not None:
    try:
        from gymnasium.vector import AutoresetMode as _AutoresetMode

        _NEXT_STEP: Any = _AutoresetMode.NEXT_STEP
    except ImportError:  # gymnasium < 1.1
        _NEXT_STEP = "NextStep"

    class GymnasiumVectorEnv(_gym.vector.VectorEnv):
        """``gymnasium.vector.VectorEnv`` for one learner against opponents, on a VectorGame.

        ``opponents`` (one per other seat, as VectorGame takes them: built-in bot specs or
        objects, evaluators, ``"baseline-policy"``; a single one means one other seat; the player
        count is ``len(opponents) + 1``),
        ``seat`` (the learner's seat or ``"rotate"``), ``num_envs``, ``seed``, ``threads`` and the
        game's options. Observations are ``{"observation": float32, "action_mask": int8}`` (the
        project's adapters' layout), or, with ``dict_observation=False``, the float32 tensor with
        the mask in ``info["action_mask"]``. The reward is the learner's ``returns()`` when its
        game ends, 0 before. Autoreset: next step (``metadata["autoreset_mode"]``). ``copy``
        (default True, as in Gymnasium's SyncVectorEnv): return fresh arrays; False returns views
        of the engine's buffers, valid until the next call."""

        metadata = {"autoreset_mode": _NEXT_STEP, "render_modes": []}

        def __init__(self, game: str = "azul", num_envs: int = 8, opponents: Sequence[Any] = ("random",),
                     seat: Union[int, str] = 0, seed: int = 0, threads: int = 1, dict_observation: bool = True,
                     copy: bool = True, **options: Any):
            if isinstance(opponents, str) or not isinstance(opponents, (list, tuple)):
                opponents = [opponents]
            self.vector = VectorGame(game, num_envs, players=len(opponents) + 1, seed=seed, threads=threads,
                                     opponents=list(opponents), learner_seat=seat, copy=copy, **options)
            self.num_envs = self.vector.num_envs
            self.dict_observation = dict_observation
            from .adapters._common import observation_bounds  # here: `import tilecraft` imports no adapter

            obs = _spaces.Box(*observation_bounds(self.vector.state(0)), dtype=np.float32)
            mask = _spaces.Box(low=0, high=1, shape=(self.vector.num_actions,), dtype=np.int8)
            self.single_observation_space = _spaces.Dict({"observation": obs, "action_mask": mask}) if dict_observation else obs
            self.single_action_space = _spaces.Discrete(self.vector.num_actions)
            self.observation_space = _batch_space(self.single_observation_space, self.num_envs)
            self.action_space = _batch_space(self.single_action_space, self.num_envs)
            self._rows = np.arange(self.num_envs)
            self._reward = np.zeros(self.num_envs, dtype=np.float32)

        def _out(self, r: VectorResult):
            mask = r.legal_mask.view(np.int8)
            info = dict(r.info)
            if self.dict_observation:
                obs: Any = {"observation": r.observation, "action_mask": mask}
            else:
                obs = r.observation
                info["action_mask"] = mask
            self._reward[:] = r.rewards[self._rows, r.info["learner_seat"]]
            return obs, info

        def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
            super().reset(seed=seed)
            obs, info = self._out(self.vector.reset(seed))
            return obs, info

        def step(self, actions):
            r = self.vector.step(actions)
            obs, info = self._out(r)
            reward = self._reward.copy() if self.vector.copy else self._reward
            return obs, reward, r.terminated, r.truncated, info

        def sample_legal(self) -> np.ndarray:
            """One random legal action per env, drawn in C++ (a baseline policy)."""
            return self.vector.sample_legal()

        def close_extras(self, **kwargs: Any) -> None:
            self.vector = None  # type: ignore[assignment]
else:  # pragma: no cover
    class GymnasiumVectorEnv:  # type: ignore[no-redef]
        def __init__(self, *args: Any, **kwargs: Any):
            raise ImportError("GymnasiumVectorEnv needs gymnasium: pip install 'tilecraft[adapters]'")
