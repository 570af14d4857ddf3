"""Strength as a measurement: one bot against copies of another, seats rotated, with 95% intervals.

``head_to_head(game, bot, opponent, games)`` plays game i with seed ``seed + i`` (10,000 + i by
default), the bot in seat ``i % players`` and the opponent in every other seat, and counts a win
shared by k seats as 1/k. This is how docs/strength.md and the targets of the learning issues are
measured (``bench/ladder.py``, ``tilecraft train``'s evaluations). Games run in ``workers``
processes; the result does not depend on how many.
"""
from __future__ import annotations

import concurrent.futures
import multiprocessing
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .ratings import wilson

DEFAULT_SEED = 10_000


def _one(args: Tuple[str, Any, Any, int, int, int, Dict[str, Any]]) -> Tuple[float, float, int, float, int]:
    """Game i: (the bot's share, its seconds and moves, the opponents' seconds and moves)."""
    from .match import play_match

    game, bot, opponent, players, i, seed, options = args
    seat = i % players
    seats = [opponent] * players
    seats[seat] = bot
    r = play_match(game, seats, seed=seed + i, players=players, **options)
    share = (1.0 / len(r.winners)) if seat in r.winners else 0.0
    bot_s = opp_s = 0.0
    bot_n = opp_n = 0
    for actor, t in zip(r.actors, r.move_seconds):
        if actor == seat:
            bot_s, bot_n = bot_s + t, bot_n + 1
        elif actor >= 0:
            opp_s, opp_n = opp_s + t, opp_n + 1
    return share, bot_s, bot_n, opp_s, opp_n


def _worker_init() -> None:
    try:  # one BLAS thread per worker process: the networks are evaluated on a few rows at a time
        from threadpoolctl import threadpool_limits

        threadpool_limits(1)
    except ImportError:  # pragma: no cover
        pass


def _chunk(args: Tuple[str, Any, Any, int, Sequence[int], int, Dict[str, Any]]) -> List[Tuple[float, float, int, float, int]]:
    game, bot, opponent, players, indices, seed, options = args
    return [_one((game, bot, opponent, players, i, seed, options)) for i in indices]


def head_to_head(game: str, bot: Any, opponent: Any, games: int, players: int = 2, seed: int = DEFAULT_SEED,
                 workers: int = 1, options: Optional[Dict[str, Any]] = None, progress: bool = False) -> Dict[str, Any]:
    """``bot`` in one seat (seat i % players in game i) against ``opponent`` in all the others.

    Returns ``share`` (the bot's mean win share, ties 1/k), ``low``/``high`` (its 95% Wilson
    interval), ``games``, ``equal`` (1/players), ``seconds_per_move`` of the bot and of the opponents,
    and ``wall`` seconds. Bots are specs (strings) or picklable bot objects."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"head_to_head: games must be an integer >= 1, got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"head_to_head: workers must be an integer >= 1, got {workers!r}")
    options = dict(options or {})
    start = time.perf_counter()
    indices = list(range(games))
    parts = [indices[w::workers] for w in range(workers)] if workers > 1 else [indices]
    jobs = [(game, bot, opponent, players, part, seed, options) for part in parts if part]
    rows: List[Tuple[float, float, int, float, int]] = []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(jobs), desc=f"{game}: {_name(bot)} vs {_name(opponent)}", leave=False)
    if workers == 1:
        for job in jobs:
            rows += _chunk(job)
            if bar is not None:
                bar.update(1)
    else:
        ctx = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init) as pool:
            for part in pool.map(_chunk, jobs):
                rows += part
                if bar is not None:
                    bar.update(1)
    if bar is not None:
        bar.close()
    wins = sum(r[0] for r in rows)
    low, high = wilson(wins, games)
    bot_s, bot_n = sum(r[1] for r in rows), sum(r[2] for r in rows)
    opp_s, opp_n = sum(r[3] for r in rows), sum(r[4] for r in rows)
    return dict(game=game, players=players, bot=_name(bot), opponent=_name(opponent), games=games, seed=seed,
                share=wins / games, low=low, high=high, equal=1.0 / players,
                seconds_per_move=bot_s / max(bot_n, 1), opponent_seconds_per_move=opp_s / max(opp_n, 1),
                wall=time.perf_counter() - start)


def _name(bot: Any) -> str:
    return bot if isinstance(bot, str) else repr(bot)


def meets(result: Dict[str, Any], target: float) -> bool:
    """A target holds when the share is at least ``target`` and the interval's lower end is above the
    equal share."""
    return result["share"] >= target and result["low"] > result["equal"]


def format_row(r: Dict[str, Any]) -> str:
    return (f"{r['bot']} vs {r['opponent']}: {r['share']:.3f} [{r['low']:.3f}, {r['high']:.3f}] over {r['games']} "
            f"games ({1000 * r['seconds_per_move']:.1f} ms/move against {1000 * r['opponent_seconds_per_move']:.1f})")
