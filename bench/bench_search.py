"""MCTS iterations per second per thread from the opening of a game (default: 2-player Azul).

    PYTHONPATH=python python3 bench/bench_search.py [--game azul] [--iterations 200000] [--repeat 3]

Each row searches the opening position once per repeat with a fresh tree (reuse_tree=False) on
one thread and reports the best and median rate. The rate depends on the engine's per-move
speed (full-length random rollouts are whole random games) and on the machine's load."""
from __future__ import annotations

import argparse
import statistics
import time

import tilecraft

CONFIGS = [
    ("MCTS, random rollouts to the end", dict(rollout="random", rollout_depth=-1)),
    ("MCTS, random rollouts, depth 4", dict(rollout="random", rollout_depth=4)),
    ("MCTS, greedy rollouts, depth 4 (default)", dict(rollout="greedy", rollout_depth=4)),
    ("ISMCTS, random rollouts to the end", dict(rollout="random", rollout_depth=-1, ismcts=True)),
    ("ISMCTS, greedy rollouts, depth 4 (default)", dict(rollout="greedy", rollout_depth=4, ismcts=True)),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="azul")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=200000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    state = tilecraft.make(args.game, players=args.players, seed=1)
    print(f"{args.game}, {args.players} players, opening position, 1 thread, {args.iterations} iterations x {args.repeat}")
    print(f"{'configuration':<44} {'best it/s':>12} {'median it/s':>12} {'nodes':>10}")
    for label, options in CONFIGS:
        options = dict(options)
        cls = tilecraft.ISMCTSBot if options.pop("ismcts", False) else tilecraft.MCTSBot
        rates, nodes = [], 0
        for r in range(args.repeat):
            bot = cls(iterations=args.iterations, seed=r, reuse_tree=False, **options)
            start = time.perf_counter()
            result = bot.search(state)
            rates.append(result["iterations"] / (time.perf_counter() - start))
            nodes = result["nodes"]
        print(f"{label:<44} {max(rates):>12,.0f} {statistics.median(rates):>12,.0f} {nodes:>10,}")


if __name__ == "__main__":
    main()
