"""The strength targets of the learning issues, measured as they are stated (tilecraft.strength):
game i uses seed 10,000 + i, the bot in seat i % players and the opponent in every other seat, a
shared win counts 1/k; a target holds when the win share is at least the target and the lower end
of its 95% Wilson interval is above the equal share.

    python bench/baseline_targets.py azul                 # the three Azul targets, 200 games each
    python bench/baseline_targets.py azul --games 40 --pair baseline-policy,greedy,0.6
    python bench/baseline_targets.py gaudi                # part 2's targets and their reference rows
    python bench/baseline_targets.py azul --seed 20000    # the same pairings on other deals
    python bench/baseline_targets.py azul --first 50 --games 50   # games 50-99 of a measurement
"""
from __future__ import annotations

import argparse
import json
import sys

from tilecraft.strength import format_row, head_to_head, meets

TARGETS = {
    ("azul", 2): [("baseline", "mcts:iterations=1000", 0.65), ("baseline", "greedy", 0.95),
                  ("baseline-policy", "greedy", 0.60)],
}
# part 2: against ISMCTS(1000) and greedy (the greedy target is 0.80, or ISMCTS(1000)'s own rate
# against greedy where that is lower: the ismcts row measures it in the same run)
for _game in ("castle", "warsaw", "gaudi"):
    TARGETS[(_game, 2)] = [("baseline", "ismcts:iterations=1000", 0.55), ("baseline", "greedy", 0.80),
                           ("ismcts:iterations=1000", "greedy", None), ("baseline-policy", "greedy", None)]
for _game in ("warsaw", "gaudi"):
    TARGETS[(_game, 4)] = [("baseline", "ismcts:iterations=1000", 0.33), ("baseline", "greedy", 0.50)]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--pair", action="append", default=[], metavar="BOT,OPPONENT,TARGET",
                   help="a pairing and its target instead of the game's own (repeatable; TARGET '-': a "
                        "reference row with no target)")
    p.add_argument("--seed", type=int, default=10_000,
                   help="game i uses seed SEED + i (the issues' 10,000; another checks a setting chosen on those)")
    p.add_argument("--first", type=int, default=0,
                   help="play games FIRST .. FIRST+GAMES-1 (a measurement in parts: their wins add up)")
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    pairs = ([(b, o, None if t in ("", "-") else float(t)) for b, o, t in (x.rsplit(",", 2) for x in args.pair)]
             or TARGETS[(args.game, args.players)])
    command = "python bench/baseline_targets.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(command)
    out = []
    for bot, opponent, target in pairs:
        r = head_to_head(args.game, bot, opponent, args.games, players=args.players, seed=args.seed,
                         workers=args.workers, first=args.first)
        r["target"], r["met"] = target, (None if target is None else meets(r, target))
        out.append(r)
        verdict = "a reference, no target" if target is None else f"target {target}: {'met' if r['met'] else 'NOT met'}"
        print(f"{format_row(r)}; {verdict} ({r['wall']:.0f} s)", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(command=command, results=out), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
