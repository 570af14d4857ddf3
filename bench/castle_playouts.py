"""Random-playout throughput of Carcassonne: The Castle (C++ batch playouts, GIL released).

    PYTHONPATH=python python3 bench/castle_playouts.py [--games 20000] [--threads 1] [--repeat 3] [-o NAME=VALUE]

Prints games/s by wall clock and by process CPU time (on a shared machine the two differ: the
CPU figure is what one thread does when it has a core to itself), actions per game and the size
of a State (what a clone copies)."""
from __future__ import annotations

import argparse
import time

import tilecraft
from tilecraft import _core
from tilecraft._args import parse_value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    options = {}
    for pair in args.option:
        k, _, v = pair.partition("=")
        options[k] = parse_value(v)
    print(f"castle: {args.games} random games x {args.repeat}, {args.threads} thread(s), options {options or 'default'}; "
          f"State = {_core.CASTLE_STATE_BYTES} bytes")
    for i in range(args.repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        r = tilecraft.random_playouts("castle", args.games, seed=args.seed + i, threads=args.threads, **options)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        actions = int(r["length"].sum())
        print(f"  run {i + 1}: {args.games / wall:>9,.0f} games/s wall, {args.games / cpu:>9,.0f} "
              f"games per CPU-second, {actions / wall:>11,.0f} actions/s wall, "
              f"{actions / args.games:.1f} actions/game, mean scores {r['scores'].mean(axis=0).round(1).tolist()}")


if __name__ == "__main__":
    main()
