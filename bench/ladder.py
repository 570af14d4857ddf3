"""The strength ladder of docs/tournaments.md: every bot against two anchors, seats rotated.

    python bench/ladder.py azul --players 2                     # the whole table (about an hour on 2 cores)
    python bench/ladder.py azul --players 2 --games 20 --games-10k 10 --rows greedy,baseline-policy
    python bench/ladder.py castle --rows greedy --budgets 0.05,0.2          # and at 50 and 200 ms a move

Each row plays ``--games`` games (``--games-10k`` for the 10,000-iteration searches) against each
anchor: ``greedy``, and the game's 1,000-iteration search (MCTS for Azul, ISMCTS for the games with
hidden hands). Game i uses seed 10,000 + i with the row's bot in seat i % players and the anchor in
every other seat (tilecraft.strength.head_to_head); a win shared by k seats counts 1/k. The table
gives each win share with its 95% Wilson interval and both sides' mean thinking time per move, and is
printed with the command and the games per pairing. ``--json FILE`` also writes the raw results.

``--budgets 0.05,0.2`` (seconds per move) adds, for each budget B, the rows ``baseline:seconds=B``
and the plain search at B (``mcts:seconds=B`` for Azul, ``ismcts:seconds=B`` for the others), and
the equal-time pairing: that baseline against that plain search. Every cell gives both sides' mean
time per move (the row's bot's, then its opponent's) and is marked when the two differ by more than
20% of the larger (not at equal time: ``head_to_head``'s ``time_tolerance``, bench/equal_time.py's).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Dict, List, Sequence, Tuple

import tilecraft
from tilecraft.strength import EQUAL_TIME_TOLERANCE, head_to_head, plain_search


ROWS = ["random", "greedy",
        "mcts:iterations=100", "mcts:iterations=1000", "mcts:iterations=10000",
        "ismcts:iterations=100", "ismcts:iterations=1000", "ismcts:iterations=10000",
        "baseline-policy", "baseline:simulations=50", "baseline:simulations=200", "baseline:simulations=800"]


def anchor_search(game: str) -> str:
    """The game's anchor search: its plain search at 1,000 iterations."""
    return f"{plain_search(game)}:iterations=1000"


def budgets(text: str) -> List[float]:
    """``--budgets 0.05,0.2``: seconds per move (the bots check the range: see main)."""
    try:
        return [float(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"budgets are seconds per move, such as 0.05,0.2; got {text!r}") from None


def budget_pairs(game: str, seconds: Sequence[float]) -> List[Tuple[str, str]]:
    """(baseline, plain search) at each budget: the equal-time pairings, and rows of the ladder."""
    return [(f"baseline:seconds={b:g}", f"{plain_search(game)}:seconds={b:g}") for b in seconds]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=tilecraft.list_games())
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    p.add_argument("--games-10k", type=int, default=40, help="games per pairing of the 10,000-iteration rows")
    p.add_argument("--rows", default=",".join(ROWS), help="comma-separated bot specs (default: the whole ladder)")
    p.add_argument("--budgets", type=budgets, default=[], metavar="SECONDS[,SECONDS...]",
                   help="time budgets per move: adds the baseline and the plain search at each, and the "
                        "pairing of the two (default: none)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--json", default=None)
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    args = p.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    pairs = budget_pairs(args.game, args.budgets)
    rows = list(dict.fromkeys([r for r in args.rows.split(",") if r] + [r for pair in pairs for r in pair]))
    anchors = ["greedy", anchor_search(args.game)]
    for spec in rows + anchors:  # a bad spec or budget fails now, not an hour into the run
        try:
            tilecraft.make_bot(spec)
        except (ValueError, TypeError) as e:
            p.error(str(e))
    command = "python bench/ladder.py " + " ".join(sys.argv[1:] if argv is None else argv)
    pairings = [(row, anchor) for row in rows for anchor in anchors] + pairs
    results = []
    start = time.perf_counter()
    for bot, opponent in pairings:
        n = args.games_10k if "iterations=10000" in bot else args.games
        r = head_to_head(args.game, bot, opponent, n, players=args.players, workers=args.workers, options=options,
                         time_tolerance=EQUAL_TIME_TOLERANCE)
        results.append(r)
        print(f"  {bot} vs {opponent}: {cell(r)} ({r['wall']:.0f} s)", file=sys.stderr, flush=True)
    print(table(args.players, rows, anchors, pairs, results, command, args.games, args.games_10k,
                time.perf_counter() - start))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(command=command, budgets=args.budgets, time_tolerance=EQUAL_TIME_TOLERANCE, results=results), f,
                      indent=1)
    return 0


def cell(r: Dict[str, Any]) -> str:
    """Share [95% interval] (games), then the bot's and the opponent's ms per move; † when those two
    are not at equal time."""
    mark = "" if r["equal_time"] else " †"
    return (f"{r['share']:.2f} [{r['low']:.2f}, {r['high']:.2f}] ({r['games']}) "
            f"{_ms(r['seconds_per_move'])}/{_ms(r['opponent_seconds_per_move'])} ms{mark}")


def _ms(seconds: float) -> str:
    """Milliseconds to one decimal, or two significant digits below 1 ms (greedy's 0.021)."""
    ms = 1000 * seconds
    return f"{ms:.1f}" if ms >= 1 or ms == 0 else f"{ms:.2g}"


def table(players, rows, anchors, pairs, results, command, games, games_10k, wall) -> str:
    by = {(r["bot"], r["opponent"]): r for r in results}
    same = dict(pairs)  # baseline at B -> the plain search at B
    columns = [f"vs {a} (x{players - 1})" for a in anchors]
    if pairs:
        columns.append(f"vs the plain search at the same budget (x{players - 1})")
    head = [f"`{command}` ({games} games per pairing, {games_10k} for the 10,000-iteration rows; "
            f"{wall / 60:.0f} min)", "",
            "| bot | " + " | ".join(columns) + " |",
            "|---|" + "---|" * len(columns)]
    for row in rows:
        cells = [cell(by[(row, a)]) for a in anchors]
        if pairs:
            cells.append(cell(by[(row, same[row])]) if row in same else "")
        head.append(f"| `{row}` | " + " | ".join(cells) + " |")
    head += ["", f"Each cell: the row's win share [95% interval] (games), then the row's and its opponent's mean "
                 f"time per move; † marks a pairing not at equal time (the two times differ by more than "
                 f"{100 * EQUAL_TIME_TOLERANCE:.0f}% of the larger)."]
    return "\n".join(head)


if __name__ == "__main__":
    sys.exit(main())
