"""Strength as a measurement: one bot against copies of another, seats rotated, with 95% intervals.

``head_to_head(game, bot, opponent, games)`` plays game i with seed ``seed + i`` (10,000 + i by
default), the bot in seat ``i % players`` and the opponent in every other seat, and counts a win
shared by k seats as 1/k. This is how docs/tournaments.md and the targets of the learning issues are
measured (``bench/ladder.py``, ``tilecraft train``'s evaluations). Games run in ``workers``
processes; the result does not depend on how many.
"""
from __future__ import annotations

import concurrent.futures
import multiprocessing
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..ratings import wilson

DEFAULT_SEED = 10_000


def _one(args: Tuple[str, Any, Any, int, int, int, Dict[str, Any]]) -> Tuple[float, float, int, float, int]:
    """Game i: (the bot's share, its seconds and moves, the opponents' seconds and moves)."""
    from ..match import play_match

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
                 workers: int = 1, options: Optional[Dict[str, Any]] = None, progress: bool = False,
                 first: int = 0, time_tolerance: Optional[float] = None) -> Dict[str, Any]:
    """``bot`` in one seat (seat i % players in game i) against ``opponent`` in all the others.

    The games are i = ``first``, ..., ``first + games - 1``: a long measurement can be played in
    parts (``first=0, games=50`` then ``first=50, games=50``) whose wins add up to the whole's.

    Returns ``share`` (the bot's mean win share, ties 1/k), ``low``/``high`` (its 95% Wilson
    interval), ``games``, ``equal`` (1/players), ``seconds_per_move`` of the bot and of the opponents,
    ``time_ratio`` (the bot's time per move over the opponents'), and ``wall`` seconds. With
    ``time_tolerance`` (say 0.2) the result also says ``equal_time``: whether the two sides' times per
    move differ by at most that fraction of the larger, i.e. whether the pairing measured strength at
    equal time (:func:`format_row` flags it when not). Bots are specs (strings) or picklable bot
    objects."""
    if time_tolerance is not None and (isinstance(time_tolerance, bool) or
                                       not isinstance(time_tolerance, (int, float)) or not 0 <= time_tolerance < 1):
        raise ValueError(f"head_to_head: time_tolerance must be a fraction in [0, 1), got {time_tolerance!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"head_to_head: games must be an integer >= 1, got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"head_to_head: workers must be an integer >= 1, got {workers!r}")
    if isinstance(first, bool) or not isinstance(first, int) or first < 0:
        raise ValueError(f"head_to_head: first must be an integer >= 0, got {first!r}")
    options = dict(options or {})
    start = time.perf_counter()
    indices = list(range(first, first + games))
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
    out = dict(game=game, players=players, bot=_name(bot), opponent=_name(opponent), games=games, seed=seed,
               first=first, wins=wins, share=wins / games, low=low, high=high, equal=1.0 / players,
               seconds_per_move=bot_s / max(bot_n, 1), opponent_seconds_per_move=opp_s / max(opp_n, 1),
               moves=bot_n, opponent_moves=opp_n, wall=time.perf_counter() - start)
    return _timed(out, time_tolerance)


def _timed(r: Dict[str, Any], tolerance: Optional[float]) -> Dict[str, Any]:
    """``r`` with its time_ratio and, given a tolerance, equal_time."""
    a, b = r["seconds_per_move"], r["opponent_seconds_per_move"]
    r["time_ratio"] = a / b if b > 0 else float("inf") if a > 0 else 1.0
    if tolerance is not None:
        r["time_tolerance"] = tolerance
        r["equal_time"] = abs(a - b) <= tolerance * max(a, b)
    return r


def combine(parts: Sequence[Dict[str, Any]]) -> Dict[str, Any]:
    """One result from ``head_to_head`` results over consecutive game ranges of the same pairing
    (the same game, players, bot, opponent and seed; ``first`` of each part where the one before
    it ended): the wins add up and the interval is the whole's, as if it had been played at once."""
    parts = sorted(parts, key=lambda r: r["first"])
    if not parts:
        raise ValueError("combine: no results to combine")
    keys = ("game", "players", "bot", "opponent", "seed")
    at = parts[0]["first"]
    for r in parts:
        differs = [k for k in keys if r[k] != parts[0][k]]
        if differs:
            raise ValueError(f"combine: results differ in {', '.join(differs)}: "
                             + "; ".join(f"{k} {parts[0][k]!r} and {r[k]!r}" for k in differs))
        if r["first"] != at:
            raise ValueError(f"combine: the parts must follow each other: games {parts[0]['first']}..{at - 1} "
                             f"then a part starting at game {r['first']}")
        at += r["games"]
    games, wins = at - parts[0]["first"], sum(r["wins"] for r in parts)
    bot_n, opp_n = sum(r["moves"] for r in parts), sum(r["opponent_moves"] for r in parts)
    low, high = wilson(wins, games)
    out = {k: parts[0][k] for k in keys}
    out.update(first=parts[0]["first"], games=games, wins=wins, share=wins / games, low=low, high=high,
               equal=parts[0]["equal"], moves=bot_n, opponent_moves=opp_n,
               seconds_per_move=sum(r["seconds_per_move"] * r["moves"] for r in parts) / max(bot_n, 1),
               opponent_seconds_per_move=sum(r["opponent_seconds_per_move"] * r["opponent_moves"] for r in parts)
               / max(opp_n, 1), wall=sum(r["wall"] for r in parts))
    return _timed(out, parts[0].get("time_tolerance"))


def _name(bot: Any) -> str:
    return bot if isinstance(bot, str) else repr(bot)


# "equal time": the two sides' mean times per move within this fraction of the larger
# (head_to_head's time_tolerance, as the equal-time measurements use it)
EQUAL_TIME_TOLERANCE = 0.2


def plain_search(game: str) -> str:
    """The plain search a network's search is measured against at equal time: MCTS where nothing is
    hidden (Azul), else ISMCTS."""
    return "mcts" if game == "azul" else "ismcts"


def meets(result: Dict[str, Any], target: float) -> bool:
    """A target holds when the share is at least ``target`` and the interval's lower end is above the
    equal share."""
    return result["share"] >= target and result["low"] > result["equal"]


def format_row(r: Dict[str, Any]) -> str:
    first = r.get("first", 0)
    part = f" {first}..{first + r['games'] - 1}, {r['wins']:g} won," if first else ""
    unequal = "" if r.get("equal_time", True) else (
        f"; NOT at equal time: the times differ by more than {100 * r['time_tolerance']:.0f}%")
    return (f"{r['bot']} vs {r['opponent']}: {r['share']:.3f} [{r['low']:.3f}, {r['high']:.3f}] over {r['games']} "
            f"games{part} ({1000 * r['seconds_per_move']:.1f} ms/move against {1000 * r['opponent_seconds_per_move']:.1f}"
            f"{unequal})")
