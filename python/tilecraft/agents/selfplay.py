"""Batch self-play in C++ between built-in bots, with optional AlphaZero-style training data."""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np

from .. import _args
from .._progress import progress_bar
from .bots import BaselineBot, GreedyBot, MCTSBot, RandomBot, make_bot
from ..playouts import resolve_game
from .puct import EvaluatorCall, PUCTBot, native_evaluator


def bot_dict(bot: Any, game: str) -> Dict[str, Any]:
    if isinstance(bot, MCTSBot):
        options = {k: v for k, v in bot._resolved(game).items() if k != "seed"}
        return dict(kind="mcts", **options)
    if isinstance(bot, GreedyBot):
        return {"kind": "greedy"}
    if isinstance(bot, RandomBot):
        return {"kind": "random"}
    raise ValueError(f"self_play runs entirely in C++ and takes only the built-in bots (random, greedy, mcts, "
                     f"ismcts, puct); got {bot!r}. Use tilecraft.tournament or play_match for Python bots.")


def _in_cpp(bot: Any) -> bool:
    return isinstance(bot, (MCTSBot, GreedyBot, RandomBot, PUCTBot))


def _as_cpp_bot(bot: Any, spec: Any, config: Dict[str, Any]) -> Any:
    """A baseline bot as the PUCTBot it searches with for this configuration (its network loaded now)."""
    if isinstance(bot, BaselineBot):
        return bot.puct(spec.state_class(config, 0))
    return bot


def _python_self_play(spec: Any, config: Dict[str, Any], bots: List[Any], n_games: int, seed: int, rotate: bool,
                      record: bool, progress: bool) -> Dict[str, Any]:
    """Self-play through the Python runner, for bots C++ cannot play (the baseline policy, a user's bot):
    game i is the state seeded ``mix_seed(seed, i)`` at a :class:`tilecraft.runner.Table` seeded the
    same way; the result has self_play's format (a recorded policy is the bot's search policy where it
    reports one, else the move played, one-hot)."""
    from ..runner import Table, mix_seed

    probe = spec.state_class(config, 0)
    players, num_actions = probe.num_players(), probe.num_distinct_actions()
    out: Dict[str, Any] = {k: [] for k in ("scores", "returns", "winners", "seat_bot", "length", "state_seed",
                                            "actions")}
    rows: Dict[str, List[Any]] = {k: [] for k in ("observation", "legal_mask", "policy", "player", "game")}
    returns_of_row: List[np.ndarray] = []
    with progress_bar(progress, n_games, f"self_play {spec.name}") as tick:
        for g in range(n_games):
            state_seed = mix_seed(seed, g)
            state = spec.state_class(config, state_seed)
            seat_bot = [((k + g) if rotate else k) % len(bots) for k in range(players)]
            table = Table(state, [bots[b] for b in seat_bot], state_seed)
            actions: List[int] = []
            decisions = 0
            first_row = len(rows["player"])
            while not state.is_terminal():
                seat = state.current_player()
                if seat < 0:
                    a = table.sample_chance()
                else:
                    bot = table.bots[seat]
                    a = int(bot.act(state.clone()))
                    if record:
                        rows["observation"].append(state.observation(seat))
                        rows["legal_mask"].append(state.legal_action_mask())
                        search = getattr(bot, "last_search", None)
                        if isinstance(search, dict) and "policy" in search and int(search.get("action", -1)) == a:
                            pi = np.asarray(search["policy"], np.float32)
                        else:
                            pi = np.zeros(num_actions, np.float32)
                            pi[a] = 1.0
                        rows["policy"].append(pi)
                        rows["player"].append(seat)
                        rows["game"].append(g)
                    decisions += 1
                state.apply(a)
                actions.append(a)
            ret = np.asarray(state.returns(), np.float32)
            returns_of_row += [ret] * (len(rows["player"]) - first_row)
            winners = np.zeros(players, bool)
            winners[list(state.winners())] = True
            for key, value in (("scores", np.asarray(state.scores(), np.float32)), ("returns", ret),
                               ("winners", winners), ("seat_bot", np.asarray(seat_bot, np.int32)),
                               ("length", decisions), ("state_seed", state_seed), ("actions", actions)):
                out[key].append(value)
            if tick is not None:
                tick(g + 1)
    result: Dict[str, Any] = {k: (v if k == "actions" else np.asarray(v)) for k, v in out.items()}
    if n_games == 0:
        result["scores"] = result["returns"] = np.zeros((0, players), np.float32)
        result["winners"] = np.zeros((0, players), bool)
        result["seat_bot"] = np.zeros((0, players), np.int32)
    result["state_seed"] = np.asarray(out["state_seed"], np.uint64)
    if record:
        shape = (0,) + tuple(probe.observation_shape())
        t = {"observation": np.asarray(rows["observation"], np.float32).reshape(-1, *shape[1:]),
             "legal_mask": np.asarray(rows["legal_mask"], bool).reshape(-1, num_actions),
             "policy": np.asarray(rows["policy"], np.float32).reshape(-1, num_actions),
             "player": np.asarray(rows["player"], np.int32), "game": np.asarray(rows["game"], np.int64),
             "returns": np.asarray(returns_of_row, np.float32).reshape(-1, players)}
        result["training"] = t
    return result


def self_play(game: Union[str, Mapping[str, Any]], bots: Sequence[Any], n_games: int, seed: int = 0,
              threads: int = 1, players: int = 2, rotate: bool = True, record: bool = False,
              evaluator: Any = None, concurrent_games: int = 256, backend: str = "local",
              workers: Optional[int] = None, address: Optional[str] = None,
              on_games: Optional[Callable[[Dict[str, Any]], None]] = None, progress: bool = False,
              obs_dtype: Any = np.float32, **options: Any) -> Dict[str, Any]:
    """Plays ``n_games`` games between built-in bots entirely in C++ (GIL released, ``threads``
    games at a time).

    ``game`` is a game name (configured by ``players`` and ``options``) or a config dict from
    ``make_config`` with a ``"game"`` entry. ``bots`` are bot specs (``"mcts:iterations=200"``) or
    built-in bot objects, one per bot index; with ``rotate`` seat k of game i is played by bot
    ``(k + i) % len(bots)``, otherwise by bot ``k % len(bots)``. Bots are seeded per game and
    seat from ``seed``: the results depend on ``seed`` only, not on ``threads``.

    Returns numpy arrays ``scores``, ``returns`` (games x players), ``winners`` (bool),
    ``seat_bot`` (bot index per seat), ``length``, ``state_seed`` (``make(game, seed=state_seed[i])``
    followed by ``actions[i]`` replays game i) and a list ``actions`` per game. With
    ``record=True``, ``training`` holds one row per decision: ``observation`` (the mover's view),
    ``legal_mask``, ``policy`` (normalised root visit counts of a search bot, one-hot for random
    and greedy bots), ``search_value`` (a search bot's estimate of its own win share: the
    visit-weighted mean of its root children's values; NaN for random and greedy bots), ``player``,
    ``game`` and ``returns`` (the game's final returns). ``obs_dtype=numpy.uint8`` stores the
    observations as byte codes (a quarter of the memory, lossless; PUCT bots too):
    ``training["observation_codec"]`` is ``(denominator, offset)``, and
    ``codes / denominator + offset`` is the float32 observation exactly (see docs/training.md).
    ``progress=True`` shows a progress bar; Ctrl-C stops the C++ games within about 50 ms and
    raises KeyboardInterrupt (the unfinished batch is discarded).

    PUCT bots (``"puct"`` specs or :class:`tilecraft.PUCTBot` objects) are guided by a Python
    evaluator: the bot's own, else ``evaluator``. Then ``concurrent_games`` games run at once in
    C++ and every step gathers the leaves of all of them (``batch_size`` per game) into one call
    per evaluator; a search bot's policy row is its visit distribution (the improved policy with
    ``gumbel=True``). Game i is still seeded from (seed, i) alone, so with a deterministic
    evaluator that treats rows independently the games do not depend on ``concurrent_games``.
    ``stats`` then reports evaluator calls and rows, the mean batch, and the seconds spent in C++,
    in the evaluators and in the crossing between them. ``backend="ray"`` splits the games
    between ``workers`` Ray actors (joining ``address`` or a running Ray, else starting a local
    one), each holding its own copy of the bots and evaluators (they must pickle), and merges the
    chunks as they come back (``on_games(chunk)`` sees each one); ``threads`` must stay 1 with PUCT
    bots (the evaluator is where the parallelism goes)."""
    spec, config = resolve_game("self_play", game, players, options)
    n_games = _args.integer("self_play", "n_games", n_games, 0, 2**40)
    seed = _args.seed("self_play", seed)
    threads = _args.integer("self_play", "threads", threads, 1, 256)
    try:
        dtype = np.dtype(obs_dtype)
    except TypeError:
        dtype = None
    if dtype not in (np.dtype(np.float32), np.dtype(np.uint8)):
        raise ValueError(f"self_play: obs_dtype must be numpy.float32 or numpy.uint8, got {obs_dtype!r}")
    compact = dtype == np.dtype(np.uint8)
    if not bots:
        raise ValueError("self_play: give at least one bot")
    resolved = []
    for b in bots:
        try:
            resolved.append(make_bot(b))
        except TypeError:
            resolved.append(b)
    for b in resolved:
        if not callable(getattr(b, "act", None)):
            raise ValueError(f"self_play takes the built-in bots (random, greedy, mcts, ismcts, puct, baseline: played "
                             f"in C++) and bot objects with act(state) (played through the Python runner); got {b!r}")
    resolved = [_as_cpp_bot(b, spec, config) for b in resolved]
    if any(not _in_cpp(b) for b in resolved):
        if compact or backend != "local" or threads != 1:
            raise ValueError("self_play: bots that are not built in (baseline-policy, your own) play through the "
                             "Python runner, which takes backend='local', threads=1 and float32 records; got "
                             f"{[b for b in resolved if not _in_cpp(b)]!r}")
        return _python_self_play(spec, config, resolved, n_games, seed, rotate, record, progress)
    if any(isinstance(b, PUCTBot) for b in resolved) or backend != "local":
        return _puct_self_play(spec, config, resolved, n_games, seed, threads, rotate, record, compact,
                               evaluator, concurrent_games, backend, workers, address, on_games)
    specs = [bot_dict(bot, spec.name) for bot in resolved]
    with progress_bar(progress, n_games, f"self_play {spec.name}") as tick:
        return spec.state_class.self_play(config, specs, n_games, seed, threads, rotate, record, compact, tick)


def _puct_self_play(spec: Any, config: Dict[str, Any], bots: List[Any], n_games: int, seed: int, threads: int,
                    rotate: bool, record: bool, compact: bool, evaluator: Any, concurrent: int, backend: str,
                    workers: Optional[int], address: Optional[str],
                    on_games: Optional[Callable[[Dict[str, Any]], None]]) -> Dict[str, Any]:
    if backend not in ("local", "ray"):
        raise ValueError(f"self_play: backend must be 'local' or 'ray', got {backend!r}")
    if threads != 1:
        raise ValueError("self_play: threads must be 1 with PUCT bots (the C++ loop is one thread; run more "
                         "games at once with concurrent_games, or more processes with backend='ray')")
    if isinstance(concurrent, bool) or not isinstance(concurrent, int) or concurrent < 1:
        raise ValueError(f"self_play: concurrent_games must be an integer >= 1, got {concurrent!r}")
    if evaluator is not None and not callable(evaluator):
        raise TypeError(f"self_play: evaluator must be callable, got {evaluator!r}")
    for b in bots:
        if isinstance(b, PUCTBot) and b.evaluator is None and evaluator is None:
            raise ValueError("self_play: a PUCT bot has no evaluator; pass evaluator=fn (or give the bot one)")
    if backend == "ray":
        return _ray_self_play(spec, config, bots, n_games, seed, rotate, record, compact, evaluator, concurrent,
                              workers, address, on_games)
    return _play_chunk(spec.name, config, bots, evaluator, 0, n_games, seed, concurrent, rotate, record, compact)


def _play_chunk(game: str, config: Dict[str, Any], bots: List[Any], evaluator: Any, first_game: int, n_games: int,
                seed: int, concurrent: int, rotate: bool, record: bool, compact: bool) -> Dict[str, Any]:
    """Games [first_game, first_game + n_games) of the stream `seed`, in this process."""
    from ..games import game_spec

    spec = game_spec(game)
    probe = spec.state_class(config, 0)
    calls: List[EvaluatorCall] = []
    keys: Dict[Any, int] = {}
    specs = []
    for bot in bots:
        if isinstance(bot, PUCTBot):
            fn = bot.evaluator if bot.evaluator is not None else evaluator
            key = (id(fn), bot.values)
            if key not in keys:
                keys[key] = len(calls)
                native = native_evaluator(fn, probe, bot.values, batched=True)  # a grouped Network: in C++
                calls.append(native or EvaluatorCall(fn, spec.name, probe.num_players(), probe.num_distinct_actions(),
                                                     bot.values))
            specs.append(dict(bot.spec(spec.name), evaluator=keys[key]))
        else:
            specs.append(bot_dict(bot, spec.name))
    r = spec.state_class.puct_self_play(config, specs, calls, n_games, first_game, seed, concurrent, rotate, record,
                                        compact)
    st = r["stats"]
    native = st.pop("seconds_native")
    st["seconds_evaluator"] = sum(c.seconds for c in calls if isinstance(c, EvaluatorCall)) + native
    st["seconds_crossing"] = max(0.0, st.pop("seconds_evaluator_calls") - st["seconds_evaluator"])
    st["mean_batch"] = st["evaluator_rows"] / st["evaluator_calls"] if st["evaluator_calls"] else 0.0
    st["mean_batch_all_slots_busy"] = st["full_rows"] / st["full_calls"] if st["full_calls"] else 0.0
    return r


def _merge(chunks: List[Dict[str, Any]], record: bool) -> Dict[str, Any]:
    """Chunks of consecutive games (in game order) as one result."""
    out: Dict[str, Any] = {}
    for key in ("scores", "returns", "winners", "seat_bot", "length", "state_seed"):
        out[key] = np.concatenate([c[key] for c in chunks])
    out["actions"] = [a for c in chunks for a in c["actions"]]
    if record:
        t: Dict[str, Any] = {}
        offset, parts = 0, []
        for c in chunks:
            part = dict(c["training"])
            part["game"] = part["game"] + offset
            parts.append(part)
            offset += len(c["length"])
        for key in parts[0]:
            # the codec of compact records depends on the configuration only: every chunk's is the same
            t[key] = parts[0][key] if key == "observation_codec" else np.concatenate([p[key] for p in parts])
        out["training"] = t
    stats: Dict[str, Any] = {}
    for key in ("evaluator_calls", "evaluator_rows", "steps", "full_calls", "full_rows", "simulations", "searches", "seconds_cpp",
                "seconds_evaluator", "seconds_crossing"):
        stats[key] = sum(c["stats"][key] for c in chunks)
    stats["mean_batch"] = stats["evaluator_rows"] / stats["evaluator_calls"] if stats["evaluator_calls"] else 0.0
    stats["mean_batch_all_slots_busy"] = stats["full_rows"] / stats["full_calls"] if stats["full_calls"] else 0.0
    out["stats"] = stats
    return out


def _ray_self_play(spec: Any, config: Dict[str, Any], bots: List[Any], n_games: int, seed: int, rotate: bool,
                   record: bool, compact: bool, evaluator: Any, concurrent: int, workers: Optional[int],
                   address: Optional[str], on_games: Optional[Callable[[Dict[str, Any]], None]]) -> Dict[str, Any]:
    import os

    from ..distributed import ray_session

    workers = workers or os.cpu_count() or 1
    with ray_session(workers, address) as ray:
        return _ray_chunks(ray, spec, config, bots, n_games, seed, rotate, record, compact, evaluator, concurrent,
                           workers, on_games)


def _ray_chunks(ray: Any, spec: Any, config: Dict[str, Any], bots: List[Any], n_games: int, seed: int, rotate: bool,
                record: bool, compact: bool, evaluator: Any, concurrent: int, workers: int,
                on_games: Optional[Callable[[Dict[str, Any]], None]]) -> Dict[str, Any]:
    class SelfPlayActor:
        """Holds its own copy of the bots and evaluators; plays chunks of games on request."""

        def __init__(self, game, config, bots, evaluator, seed, concurrent, rotate, record, compact):
            self.args = (game, config, bots, evaluator)
            self.rest = (seed, concurrent, rotate, record, compact)

        def play(self, first_game, n):
            game, config, bots, evaluator = self.args
            seed, concurrent, rotate, record, compact = self.rest
            return _play_chunk(game, config, bots, evaluator, first_game, n, seed, concurrent, rotate, record, compact)

    actor_cls = ray.remote(num_cpus=1)(SelfPlayActor)
    chunk = max(1, min(concurrent, -(-n_games // max(1, workers))))
    todo = [(g, min(chunk, n_games - g)) for g in range(0, n_games, chunk)]
    actors = [actor_cls.remote(spec.name, config, bots, evaluator, seed, concurrent, rotate, record, compact)
              for _ in range(min(workers, max(1, len(todo))))]
    done: Dict[int, Dict[str, Any]] = {}
    pending: Dict[Any, Any] = {}
    free = list(actors)
    try:
        while todo or pending:
            while todo and free:
                actor = free.pop()
                first, n = todo.pop(0)
                pending[actor.play.remote(first, n)] = (actor, first)
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                actor, first = pending.pop(ref)
                done[first] = ray.get(ref)
                free.append(actor)
                if on_games is not None:
                    on_games(done[first])
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        for actor in actors:
            ray.kill(actor)
    if not done:
        return _play_chunk(spec.name, config, bots, evaluator, 0, 0, seed, concurrent, rotate, record, compact)
    return _merge([done[k] for k in sorted(done)], record)
