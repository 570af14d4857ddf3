"""Batch self-play scaling: the same games on 1 and on N threads (C++, GIL released).

    PYTHONPATH=python python3 bench/bench_selfplay.py [--games 64] [--threads 2] [--bots mcts:iterations=200,greedy]

Results are identical for any thread count (each game is seeded on its own); the speed-up is
the 1-thread time over the N-thread time, best of --repeat runs each."""
from __future__ import annotations

import argparse
import time

import numpy as np

import tilecraft
from tilecraft.cli import _bots


def timed(args, threads):
    best, result = float("inf"), None
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = tilecraft.self_play(args.game, _bots(args.bots), args.games, seed=1, threads=threads,
                                     players=args.players)
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="azul")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=64)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bots", default="mcts:iterations=200,greedy")
    args = ap.parse_args()
    t1, r1 = timed(args, 1)
    tn, rn = timed(args, args.threads)
    same = all(np.array_equal(a, b) for a, b in zip(r1["actions"], rn["actions"]))
    print(f"{args.games} games of {args.game} ({args.bots}): 1 thread {t1:.2f}s ({args.games / t1:.1f} games/s), "
          f"{args.threads} threads {tn:.2f}s ({args.games / tn:.1f} games/s): speed-up {t1 / tn:.2f}x; "
          f"identical results: {same}")


if __name__ == "__main__":
    main()
