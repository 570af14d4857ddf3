"""Strength of the built-in bots, measured with the tournament runner (the figures of docs/journal/2026-11-29-search-bots.md).

    PYTHONPATH=python python3 bench/search_strength.py [--game azul] [--games 100] [--workers 2] [--out DIR]

Runs, for each game: a 2-player round robin between random, greedy, MCTS with 100 / 1,000 /
10,000 iterations, ISMCTS with 1,000 iterations and MCTS with 1,000 iterations of random
rollouts (--games games per pairing, seats rotated),
then one table per larger player count with random, greedy, MCTS and ISMCTS (1,000 iterations).
Results go to DIR/<game>-<players>p.jsonl as they finish, so a stopped run resumes. Prints
markdown tables: standings and the pairwise win-rate matrix."""
from __future__ import annotations

import argparse
import os

import tilecraft

TWO_PLAYER = ["random", "greedy", "mcts:iterations=100", "mcts:iterations=1000", "mcts:iterations=10000",
              "ismcts:iterations=1000", "mcts:iterations=1000,rollout=random"]
MULTI = ["random", "greedy", "mcts:iterations=1000", "ismcts:iterations=1000"]


def markdown(result) -> str:
    rows = result.standings()
    lines = ["| bot | games | win % (95% interval) | mean score | rating | ms/move |", "|---|---|---|---|---|---|"]
    for r in rows:
        rating = (f"Elo {r['elo']:+.0f} ± {r['elo_ci']:.0f}" if "elo" in r
                  else f"mu {r['mu']:.1f} ± {2 * r['sigma']:.1f}" if "mu" in r else "")
        lines.append(f"| `{r['bot']}` | {r['games']} | {100 * r['win_rate']:.1f} ({100 * r['win_rate_low']:.1f}–"
                     f"{100 * r['win_rate_high']:.1f}) | {r['mean_score']:.1f} | {rating} | {r['ms_per_move']:.2f} |")
    rate, count = result.win_matrix()
    lines += ["", "Row finishes ahead of column (win %; a tie counts half):", "",
              "| | " + " | ".join(f"`{b}`" for b in result.bots) + " |", "|---" * (len(result.bots) + 1) + "|"]
    for i, b in enumerate(result.bots):
        cells = [f"{100 * rate[i, j]:.0f}" if count[i, j] else "–" for j in range(len(result.bots))]
        lines.append(f"| `{b}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", help="game(s) to measure (default: every registered game)")
    ap.add_argument("--games", type=int, default=100, help="games per 2-player pairing (default 100)")
    ap.add_argument("--multi-games", type=int, default=24, help="games per table for 3+ players (default 24)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="bench/results")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default=None, help="override the 2-player bot list (comma-separated specs)")
    ap.add_argument("--max-players", type=int, default=4, help="skip larger player counts")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for game in args.game or tilecraft.list_games():
        spec = tilecraft.game_spec(game)
        for players in [p for p in spec.players if p <= args.max_players]:
            bots = (args.bots.split(",") if args.bots else TWO_PLAYER) if players == 2 else MULTI
            n = args.games if players == 2 else args.multi_games
            result = tilecraft.tournament(game, bots, games_per_pairing=n, players=players, workers=args.workers,
                                          seed=args.seed, out=os.path.join(args.out, f"{game}-{players}p.jsonl"),
                                          progress=True, plot_path=os.path.join(args.out, f"{game}-{players}p.svg"))
            print(f"\n### {spec.title}, {players} players ({len(result.games)} games, {n} per "
                  f"{'pairing' if players == 2 else 'table'}, seats rotated)\n")
            print(markdown(result), flush=True)


if __name__ == "__main__":
    main()
