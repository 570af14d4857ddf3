"""PUCT speed with a trivial numpy evaluator: batched self-play on one thread.

    PYTHONPATH=python python3 bench/puct_speed.py                 # Azul, 256 concurrent games
    PYTHONPATH=python python3 bench/puct_speed.py --games 256 --simulations 64

Reports, from one run: simulations per second (every simulation of every search of every game,
over the whole wall time), the mean batch handed to the evaluator against the requested size
(concurrent_games x batch_size) over all calls and over the calls made while every slot had a
game (the last games of a run leave slots empty), and the shares of the wall time spent in C++
(selection, expansion, backup, writing observations and masks, playing the moves), in the
evaluator itself, and in the crossing between them (taking the GIL, making the numpy arrays,
checking and copying what comes back). Also a single PUCTBot search for comparison.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import tilecraft


class Trivial:
    """Uniform logits and a draw: the cheapest evaluator that still returns real arrays."""

    def __init__(self, players: int):
        self.players = players

    def __call__(self, obs, mask, players):
        return np.zeros(mask.shape, np.float32), np.full((len(players), self.players), 1.0 / self.players, np.float32)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="azul")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--concurrent", type=int, default=256)
    ap.add_argument("--games", type=int, default=1024)
    ap.add_argument("--simulations", type=int, default=200)
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    ev = Trivial(a.players)
    bot = tilecraft.PUCTBot(simulations=a.simulations, batch_size=a.batch_size)
    start = time.perf_counter()
    r = tilecraft.self_play(a.game, [bot], n_games=a.games, seed=a.seed, players=a.players, evaluator=ev,
                            concurrent_games=a.concurrent)
    wall = time.perf_counter() - start
    st = r["stats"]
    requested = a.concurrent * a.batch_size
    other = max(0.0, wall - st["seconds_cpp"] - st["seconds_evaluator"] - st["seconds_crossing"])
    print(f"{a.game} {a.players}p: {a.games} games, {a.concurrent} concurrent, PUCT({a.simulations}), "
          f"batch_size {a.batch_size} per game, one thread")
    print(f"  simulations        {st['simulations']:,} in {wall:.1f} s = {st['simulations'] / wall:,.0f} /s "
          f"({st['searches']:,} searches, {sum(len(x) for x in r['actions']):,} moves)")
    print(f"  evaluator calls    {st['evaluator_calls']:,}, rows {st['evaluator_rows']:,}")
    print(f"  mean batch         {st['mean_batch']:.0f} of {requested} requested = "
          f"{st['mean_batch'] / requested:.1%} (all calls)")
    print(f"                     {st['mean_batch_all_slots_busy']:.0f} of {requested} = "
          f"{st['mean_batch_all_slots_busy'] / requested:.1%} (calls while every slot had a game: "
          f"{st['full_calls']:,} of {st['evaluator_calls']:,})")
    print(f"  time shares        C++ {st['seconds_cpp'] / wall:.1%}, evaluator {st['seconds_evaluator'] / wall:.1%}, "
          f"crossing {st['seconds_crossing'] / wall:.1%}, rest (Python set-up) {other / wall:.1%}")
    state = tilecraft.make(a.game, players=a.players, seed=1)
    single = tilecraft.PUCTBot(ev, simulations=800, batch_size=a.batch_size)
    t0 = time.perf_counter()
    res = single.search(state)
    dt = time.perf_counter() - t0
    print(f"  one PUCTBot search {res['simulations']} simulations in {dt * 1000:.1f} ms = "
          f"{res['simulations'] / dt:,.0f} /s ({res['evaluations']} rows in calls of <= {a.batch_size})")
    return dict(stats=st, wall=wall, requested=requested)


if __name__ == "__main__":
    main()
