"""The solo balance table of docs/gaudi.md ("Solo balance") from tournament results files.

Each file is the ``--out`` of one solo tournament (``tilecraft tournament gaudi --players 1 -o
difficulty=D ...``). Every game is replayed from its seed and actions; the table gives per file the
bot's win rate against the automa with its 95% Wilson interval, the mean margin (final minus the
automa's score) with a normal 95% interval, and the mean scores. ``--rescore`` adds, for the games
of the first file, what the same play would give against each difficulty: the automa plays the
same way at every difficulty (only its end scoring differs, GA-SOLO-END-2/3), so its final
position can be rescored.

    PYTHONPATH=python python3 bench/gaudi_solo_table.py solo-easy.jsonl solo-normal.jsonl ... [--rescore]
"""
from __future__ import annotations

import argparse
import json
import math
import sys

import tilecraft
from tilecraft.games.gaudi import DIFFICULTIES
from tilecraft.ratings import wilson


def _load(path):
    with open(path, encoding="utf-8") as f:
        items = [json.loads(x) for x in f if x.strip()]
    header = items[0]
    games = {}
    for g in items[1:]:
        if g.get("type") == "game":
            games.setdefault(g["id"], g)
    return header, [games[k] for k in sorted(games)]


def _final_state(header, g):
    s = tilecraft.make(header["game"], players=1, seed=g["seed"], **header["options"])
    for a in g["actions"]:
        s.apply(int(a))
    assert s.is_terminal()
    return s


def _mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return m, 1.96 * sd / math.sqrt(n)


def _row(label, n, wins, margins, mine, automa):
    lo, hi = wilson(wins, n)
    m, h = _mean_ci(margins)
    return (f"| {label} | {n} | {100 * wins / n:.1f}% | {100 * lo:.1f}–{100 * hi:.1f}% | {m:+.1f} ± {h:.1f} | "
            f"{sum(mine) / n:.1f} | {sum(automa) / n:.1f} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--rescore", action="store_true")
    args = ap.parse_args(argv)
    head = ("| difficulty | games | win rate | 95% Wilson | mean margin (95%) | player's final | automa's final |\n"
            "|---|---|---|---|---|---|---|")
    print(head)
    first = None
    for path in args.files:
        header, games = _load(path)
        states = [_final_state(header, g) for g in games]
        first = first or (header, states)
        mine = [s.scores()[0] for s in states]
        automa = [s.automa_score() for s in states]
        margins = [a - b for a, b in zip(mine, automa)]
        wins = sum(1 for x in margins if x > 0)  # a tie goes to the automa (GA-SOLO-END-5)
        assert all(g["returns"][0] == x for g, x in zip(games, margins))
        print(_row(header["options"]["difficulty"], len(games), wins, margins, mine, automa))
    if args.rescore and first:
        header, states = first
        print()
        print(f"The games of {args.files[0]} (played against {header['options']['difficulty']}), rescored:")
        print()
        print(head)
        for i, d in enumerate(DIFFICULTIES):
            mine, automa = [], []
            for s in states:
                dd = s.to_dict()
                dd["config"]["difficulty"] = i
                t = type(s).from_dict(dd)
                mine.append(t.scores()[0])
                automa.append(t.automa_final_score())
            margins = [a - b for a, b in zip(mine, automa)]
            print(_row(d, len(states), sum(1 for x in margins if x > 0), margins, mine, automa))
    return 0


if __name__ == "__main__":
    sys.exit(main())
