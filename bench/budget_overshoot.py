"""How far past its time budget a search bot's move runs (issue 48): for every game, the shipped
`baseline` and the plain search (MCTS for Azul, ISMCTS for the others) with ``seconds=BUDGET``,
each move's wall time as play_match records it in ``move_seconds`` (one ``act()`` call on one
thread), minus the budget; the median and the worst over ``--moves`` moves per bot (the bots play
each other, 2 players, seeds 60,000 + i).

    python bench/budget_overshoot.py                     # 1,000 moves per game and bot at 50 ms
    python bench/budget_overshoot.py --moves 100 --games azul

A process's first `baseline` move also loads the network (the file, then its C++ form: 0.1-0.3 s);
that move is reported apart (``first_move_ms``), not in the median or the worst. Results go to
``bench/results/budget_overshoot.json``, with the command, the commit and the load average.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

import numpy as np

import tilecraft
from tilecraft.strength import plain_search

OUT = pathlib.Path(__file__).resolve().parent / "results" / "budget_overshoot.json"


def measure(game: str, budget: float, moves: int) -> dict:
    bots = {"baseline": f"baseline:seconds={budget:g}", "plain": f"{plain_search(game)}:seconds={budget:g}"}
    times = {k: [] for k in bots}
    first = None
    i = 0
    while min(len(t) for t in times.values()) < moves:
        seats = [bots["baseline"], bots["plain"]] if i % 2 == 0 else [bots["plain"], bots["baseline"]]
        names = ["baseline", "plain"] if i % 2 == 0 else ["plain", "baseline"]
        r = tilecraft.play_match(game, seats, seed=60_000 + i)
        for actor, t in zip(r.actors, r.move_seconds):
            if actor < 0:
                continue
            if first is None and names[actor] == "baseline":
                first = t  # the process's first baseline move: it loads the network
                continue
            times[names[actor]].append(t)
        i += 1
    out = {}
    for name, spec in bots.items():
        over = (np.array(times[name][:moves]) - budget) * 1000
        out[name] = dict(bot=spec, moves=moves, median_ms=float(np.median(over)), worst_ms=float(over.max()),
                         p99_ms=float(np.percentile(over, 99)))
    out["first_move_ms"] = None if first is None else 1000 * first
    out["games"] = i
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--budget", type=float, default=0.05)
    p.add_argument("--moves", type=int, default=1000)
    p.add_argument("--games", default=",".join(tilecraft.list_games()))
    p.add_argument("--out", default=str(OUT))
    args = p.parse_args(argv)
    command = "python bench/budget_overshoot.py " + " ".join(sys.argv[1:] if argv is None else argv)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=pathlib.Path(__file__).resolve().parent).stdout.strip() or "unknown"
    results = dict(command=command, commit=commit, budget=args.budget, cpus=os.cpu_count(),
                   date=time.strftime("%Y-%m-%d", time.gmtime()),
                   load_before=os.getloadavg()[0] if hasattr(os, "getloadavg") else None, games={})
    print("| game | bot | moves | median past the budget (ms) | p99 (ms) | worst (ms) |")
    print("|---|---|---|---|---|---|")
    for game in args.games.split(","):
        r = results["games"][game] = measure(game, args.budget, args.moves)
        for name in ("baseline", "plain"):
            m = r[name]
            print(f"| {game} | `{m['bot']}` | {m['moves']} | {m['median_ms']:.2f} | {m['p99_ms']:.2f} | "
                  f"{m['worst_ms']:.2f} |", flush=True)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
