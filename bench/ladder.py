"""The strength ladder of docs/strength.md: every bot against two anchors, seats rotated.

    python bench/ladder.py azul --players 2                     # the whole table (about an hour on 2 cores)
    python bench/ladder.py azul --players 2 --games 20 --games-10k 10 --rows greedy,baseline-policy

Each row plays ``--games`` games (``--games-10k`` for the 10,000-iteration searches) against each
anchor: ``greedy``, and the game's 1,000-iteration search (MCTS for Azul, ISMCTS for the games with
hidden hands). Game i uses seed 10,000 + i with the row's bot in seat i % players and the anchor in
every other seat (tilecraft.strength.head_to_head); a win shared by k seats counts 1/k. The table
gives each win share with its 95% Wilson interval and the row's mean thinking time per move, and is
printed with the command and the games per pairing. ``--json FILE`` also writes the raw results.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import tilecraft
from tilecraft.strength import head_to_head

ROWS = ["random", "greedy",
        "mcts:iterations=100", "mcts:iterations=1000", "mcts:iterations=10000",
        "ismcts:iterations=100", "ismcts:iterations=1000", "ismcts:iterations=10000",
        "baseline-policy", "baseline:simulations=50", "baseline:simulations=200", "baseline:simulations=800"]


def anchor_search(game: str) -> str:
    return "mcts:iterations=1000" if game == "azul" else "ismcts:iterations=1000"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=tilecraft.list_games())
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    p.add_argument("--games-10k", type=int, default=40, help="games per pairing of the 10,000-iteration rows")
    p.add_argument("--rows", default=",".join(ROWS), help="comma-separated bot specs (default: the whole ladder)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--json", default=None)
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    args = p.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    rows = [r for r in args.rows.split(",") if r]
    anchors = ["greedy", anchor_search(args.game)]
    command = "python bench/ladder.py " + " ".join(sys.argv[1:] if argv is None else argv)
    results = []
    start = time.perf_counter()
    for row in rows:
        n = args.games_10k if "iterations=10000" in row else args.games
        for anchor in anchors:
            r = head_to_head(args.game, row, anchor, n, players=args.players, workers=args.workers, options=options)
            results.append(r)
            print(f"  {row} vs {anchor}: {r['share']:.3f} [{r['low']:.3f}, {r['high']:.3f}] ({n} games, "
                  f"{r['wall']:.0f} s)", file=sys.stderr, flush=True)
    print(table(args.game, args.players, rows, anchors, results, command, args.games, args.games_10k,
                time.perf_counter() - start))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(command=command, results=results), f, indent=1)
    return 0


def table(game, players, rows, anchors, results, command, games, games_10k, wall) -> str:
    by = {(r["bot"], r["opponent"]): r for r in results}
    head = [f"`{command}` ({games} games per pairing, {games_10k} for the 10,000-iteration rows; "
            f"{wall / 60:.0f} min)", "",
            "| bot | " + " | ".join(f"vs {a} (x{players - 1})" for a in anchors) + " | ms per move |",
            "|---|" + "---|" * (len(anchors) + 1)]
    for row in rows:
        cells = []
        ms = []
        for a in anchors:
            r = by[(row, a)]
            cells.append(f"{r['share']:.2f} [{r['low']:.2f}, {r['high']:.2f}] ({r['games']})")
            ms.append(r["seconds_per_move"] * 1000)
        head.append(f"| `{row}` | " + " | ".join(cells) + f" | {sum(ms) / len(ms):.1f} |")
    return "\n".join(head)


if __name__ == "__main__":
    sys.exit(main())
