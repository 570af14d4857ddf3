"""Head-to-head tuning of Gaudí's search defaults (docs/gaudi.md, "Search defaults and strength"):
each candidate bot and a reference bot sit at one 4-player table with two GreedyBots, seats
rotated by tilecraft.self_play; prints the win shares of the four seats' bots.

    PYTHONPATH=python python3 bench/gaudi_search_tuning.py --games 40 \\
        ismcts:iterations=1000,rollout_depth=8 ismcts:iterations=1000,eval_scale=4

Bot specs given in full override the game's search_defaults; the reference defaults to
ismcts:iterations=1000,rollout_depth=4,eval_scale=10 (the generic defaults)."""
import argparse
import time

import numpy as np

import tilecraft


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidates", nargs="+")
    ap.add_argument("--reference", default="ismcts:iterations=1000,rollout_depth=4,eval_scale=10")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    for spec in args.candidates:
        t = time.time()
        bots = [spec, args.reference, "greedy", "greedy"]
        r = tilecraft.self_play("gaudi", bots, args.games, seed=args.seed, players=4, threads=1)
        sb, w = r["seat_bot"], r["winners"]
        shares = np.array([[w[g][list(sb[g]).index(b)] / w[g].sum() for b in range(4)] for g in range(args.games)])
        print(f"{spec} | {args.reference} | greedy | greedy: {' / '.join(f'{x:.3f}' for x in shares.mean(0))} "
              f"({args.games} games, {time.time() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
