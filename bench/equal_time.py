"""Where every shipped baseline stands at equal time (issue 48, item 3): for every shipped network's
configuration, its ``baseline`` against the plain search (MCTS for Azul, ISMCTS for the games with
hidden hands), both given the same time budget per move, and its ``baseline-policy`` against
greedy. Seeds 30,000 + i (no setting was tuned on them), seats rotated, 200 games at 2 players and
100 at 3 and 4 (tilecraft.strength.head_to_head), both sides' time per move beside every share.

    python bench/equal_time.py                                  # every configuration at 50 ms
    python bench/equal_time.py --only azul/2p --budget 0.2      # one, at 200 ms
    python bench/equal_time.py --only castle/2p --games 20      # a quick look (not a figure to quote)

Results are merged into ``bench/results/equal_time.json`` (``--out``), one entry per configuration,
budget and pairing, with the command, the commit, the seeds and the machine's load when it ran;
docs/tournaments.md quotes them from there.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

import tilecraft
from tilecraft import baselines
from tilecraft.strength import EQUAL_TIME_TOLERANCE, format_row, head_to_head, plain_search

SEED = 30_000
OUT = pathlib.Path(__file__).resolve().parent / "results" / "equal_time.json"


def load_average() -> Optional[float]:
    """The machine's one-minute load average, recorded beside a measurement (None where the platform has none)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else None


def configurations() -> List[Tuple[str, int, Optional[str]]]:
    out = set()
    for a in baselines.available():
        for players in a["players"]:
            out.add((a["game"], players, a["mode"]))
    return sorted(out, key=lambda c: (c[0], c[1], c[2] or ""))


def key_of(game: str, players: int, mode: Optional[str]) -> str:
    return f"{game}/{players}p" + (f"/{mode}" if mode else "")


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=pathlib.Path(__file__).resolve().parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--budget", type=float, default=0.05, help="seconds per move for both sides (default 0.05)")
    p.add_argument("--only", action="append", default=[], metavar="GAME/Np[/MODE]",
                   help="configurations to run (repeatable; default: every shipped network's)")
    p.add_argument("--games", type=int, default=None, help="games per pairing (default 200 at 2 players, else 100)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--pairings", default="search,policy",
                   help="search (baseline vs the plain search at the budget) and/or policy (baseline-policy vs greedy)")
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--seed", type=int, default=SEED,
                   help=f"game i's seed is SEED + i (default {SEED}: the targets; 40000 screens, 50000 checks)")
    p.add_argument("--path", default=None, help="a network file (of the one --only configuration) instead of the "
                                                "shipped one, played with the configuration's preset")
    args = p.parse_args(argv)
    if args.path is not None and len(args.only) != 1:
        p.error("--path is the network of one configuration: give exactly one --only")
    command = "python bench/equal_time.py " + " ".join(sys.argv[1:] if argv is None else argv)
    configs = [c for c in configurations() if not args.only or key_of(*c) in args.only]
    unknown = set(args.only) - {key_of(*c) for c in configurations()}
    if unknown:
        p.error(f"no shipped network for {', '.join(sorted(unknown))}; there are "
                f"{', '.join(key_of(*c) for c in configurations())}")
    out_path = pathlib.Path(args.out)
    for game, players, mode in configs:
        games = args.games or (200 if players == 2 else 100)
        options = {"mode": mode} if mode else {}
        pairings = []
        net = f",path={args.path}" if args.path else ""
        if "search" in args.pairings:
            b = f"{args.budget:g}"
            pairings.append((f"search@{b}", f"baseline:seconds={b}{net}", f"{plain_search(game)}:seconds={b}"))
        if "policy" in args.pairings:
            pairings.append(("policy", "baseline-policy" + (f":path={args.path}" if args.path else ""), "greedy"))
        for name, bot, opponent in pairings:
            load = load_average()
            r = head_to_head(game, bot, opponent, games, players=players, seed=args.seed, workers=args.workers,
                             options=options, time_tolerance=EQUAL_TIME_TOLERANCE)
            r.update(command=command, commit=_commit(), load_before=load, cpus=os.cpu_count(),
                     date=time.strftime("%Y-%m-%d", time.gmtime()))
            print(f"{key_of(game, players, mode)}: {format_row(r)}", flush=True)
            key = key_of(game, players, mode) + ("" if args.seed == SEED else f"@seed{args.seed}")
            _merge(out_path, key, name, r)  # after every pairing: a long run keeps it
    return 0


def _merge(path: pathlib.Path, config: str, pairing: str, result: Dict[str, Any]) -> None:
    """Adds one result to the file, under a lock: runs of other configurations may share it."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        results: Dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
        results.setdefault(config, {})[pairing] = result
        tmp = path.with_suffix(f".tmp-{os.getpid()}")
        tmp.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
        tmp.replace(path)


if __name__ == "__main__":
    sys.exit(main())
