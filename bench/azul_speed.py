"""Azul speed figures, each next to a baseline measured in the same run (the machines are shared
and noisy, so ratios are the figures to quote). Usage: python bench/azul_speed.py [--quick]"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tilecraft  # noqa: E402
from baselines.pyazul import play_random_game  # noqa: E402


def best_of(fn, repeat=3):
    return min(fn() for _ in range(repeat))


def pure_python_games_per_s(games):
    rng = random.Random(0)
    t = time.perf_counter()
    for _ in range(games):
        play_random_game(rng)
    return games / (time.perf_counter() - t)


def cpp_games_per_s(games, threads=1):
    t = time.perf_counter()
    tilecraft.random_playouts("azul", games, seed=1, threads=threads)
    return games / (time.perf_counter() - t)


def python_loop_moves_per_s(games):
    rng = random.Random(0)
    moves = 0
    t = time.perf_counter()
    for g in range(games):
        s = tilecraft.make("azul", players=2, seed=g)
        while not s.is_terminal():
            a = s.legal_actions()
            s.apply(a[rng.randrange(len(a))])
            moves += 1
    return moves / (time.perf_counter() - t)


def python_clone_ns(n):
    s = tilecraft.make("azul", players=2, seed=3)
    t = time.perf_counter()
    for _ in range(n):
        s.clone()
    return 1e9 * (time.perf_counter() - t) / n


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer games (a smoke run)")
    args = ap.parse_args()
    k = 10 if args.quick else 1
    tilecraft.random_playouts("azul", 1000)  # warm up
    base = best_of(lambda: pure_python_games_per_s(400 // k))
    cpp1 = best_of(lambda: cpp_games_per_s(200000 // k))
    cpp2 = best_of(lambda: cpp_games_per_s(200000 // k, threads=2))
    loop = best_of(lambda: python_loop_moves_per_s(1000 // k))
    base_moves = base * 70.4  # the baseline's moves per second (about 70 moves a game)
    clone = best_of(lambda: python_clone_ns(200000 // k))
    print(f"pure-Python baseline (bench/baselines/pyazul.py): {base:,.0f} games/s")
    print(f"C++ random playouts, 1 thread:  {cpp1:,.0f} games/s  = {cpp1 / base:,.0f}x the baseline")
    print(f"C++ random playouts, 2 threads: {cpp2:,.0f} games/s  = {cpp2 / cpp1:.2f}x one thread")
    print(f"Python loop (legal_actions + apply + random.randrange): {loop:,.0f} moves/s "
          f"= {loop / base_moves:.1f}x the baseline's moves/s")
    print(f"clone() called from Python: {clone:,.0f} ns (the C++ copy alone: cpp/tools/azul_profile)")
    print(f"AzulState C++ size: {tilecraft._core.AZUL_STATE_BYTES} bytes")


if __name__ == "__main__":
    main()
