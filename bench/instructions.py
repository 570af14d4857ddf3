"""Engine work counted in instructions (valgrind's callgrind), for a before/after comparison that the
machine's load cannot blur: the same C++ batch playouts, MCTS searches, PUCT searches with a shipped
network, VectorGame steps and recorded self-play (threaded and batched PUCT) run under two builds of
the extension, and each figure is the instructions of the run minus those of the same run with n = 1
(loading the extension, unpickling the configuration, one game, iteration, simulation or step).

    python bench/instructions.py BEFORE_DIR AFTER_DIR [--json PATH]

Each DIR holds a built ``_core*.so`` (e.g. python/tilecraft/ of two checkouts, each built). Needs
valgrind and an importable tilecraft (for the configurations and the networks); about an hour. The
child imports only the extension (not the tilecraft package), with PYTHONHASHSEED=0 and one BLAS
thread, so Python's own work is the same in every run (the counts repeat exactly). ``--json``: the
results with the command and both commits (the git HEAD of each DIR), as
bench/results/ab_redesign.json (bench/README.md renders it)."""
from __future__ import annotations

import argparse
import datetime
import json
import os
import pickle
import re
import subprocess
import sys
import tempfile
from typing import Any, Dict, Optional

import tilecraft
from tilecraft.agents.baselines import load
from tilecraft.agents.model import native_arrays

# (game, players, what, n): what is "playouts" (n random games), a rollout kind (an MCTS search of n
# iterations from the opening with that rollout), "puct" (a PUCT search of n simulations from the
# opening, evaluated in C++ by the game's shipped network, MlpNet), "vector" (VectorGame: VECTOR_ENVS
# games, n steps of one random legal action each, drawn in C++), "selfplay" (n games of C++ self-play on
# one thread, MCTS of SELFPLAY_ITERATIONS iterations against greedy, recorded) or "puct-selfplay" (n
# games of batched PUCT self-play, PUCT of SELFPLAY_SIMULATIONS simulations with the shipped network
# against greedy, recorded, SELFPLAY_CONCURRENT at a time).
RUNS = [
    ("azul", 2, "playouts", 15000), ("castle", 2, "playouts", 1000), ("warsaw", 4, "playouts", 1500),
    ("gaudi", 4, "playouts", 1500),
    ("azul", 2, "greedy", 2000), ("castle", 2, "greedy", 1000), ("warsaw", 4, "greedy", 1000),
    ("gaudi", 4, "greedy", 1000),
    ("azul", 2, "random", 20000), ("castle", 2, "random", 10000), ("warsaw", 4, "random", 10000),
    ("gaudi", 4, "random", 10000),
    ("azul", 2, "puct", 2000), ("gaudi", 2, "puct", 2000),
    ("azul", 2, "vector", 2000), ("castle", 2, "vector", 1000), ("warsaw", 4, "vector", 2000),
    ("gaudi", 4, "vector", 2000),
    ("azul", 2, "selfplay", 40), ("castle", 2, "selfplay", 20), ("azul", 2, "puct-selfplay", 8),
]
# The game options of a configuration (its shipped network's mode for PUCT).
OPTIONS: Dict[str, Dict[str, Any]] = {"gaudi": {"mode": "basic"}}
# PUCT's options, the same in both builds (the rest their common defaults): no rollouts, no noise.
PUCT = dict(c_puct=1.25, batch_size=8, seed=0, rollout_mix=0.0, noise_fraction=0.0, temperature=0.0,
            determinize="search", worlds=1)
VECTOR_ENVS = 64
SELFPLAY_ITERATIONS, SELFPLAY_SIMULATIONS, SELFPLAY_CONCURRENT = 10, 16, 4

CHILD = """
import sys, pickle
sys.path.insert(0, sys.argv[1])
import _core
data = pickle.load(open(sys.argv[2], 'rb'))
game, players, what, n = sys.argv[3], int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
cfg = data['configs'][game, players]
cls = getattr(_core, game.capitalize() + "State")
if what == "playouts":
    getattr(_core, game + "_random_playouts")(cfg, n, 1, 1)
elif what == "puct":
    net = _core.MlpNet(**data['nets'][game, players])
    cls.PUCTSearcher(simulations=n, **data['puct']).search(cls(cfg, 1), net, 0.0)
elif what == "selfplay":
    mcts = dict(kind="mcts", iterations=data['selfplay'][0])
    cls.self_play(cfg, [mcts, dict(kind="greedy")], n, 1, 1, True, True)
elif what == "puct-selfplay":
    net = _core.MlpNet(**data['nets'][game, players])
    puct = dict(data['puct'], kind="puct", evaluator=0, simulations=data['selfplay'][1])
    cls.puct_self_play(cfg, [puct, dict(kind="greedy")], [net], n, 0, 1, data['selfplay'][2], True, True)
elif what == "vector":
    v = cls.Vector(cfg, data['envs'], 1, 1, -1, [], False, 0)
    sample = v.buffers()["sample"]
    v.reset(1, evaluators=[])
    for _ in range(n):
        v.sample_legal()
        v.step(sample, evaluators=[])
else:
    cls.Searcher(iterations=n, seed=0, reuse_tree=False, rollout=what).search(cls(cfg, 1))
"""


def instructions(so_dir: str, data: str, game: str, players: int, what: str, n: int) -> int:
    # One BLAS thread: numpy (which the extension loads) otherwise starts OpenBLAS's threads, whose spinning
    # adds a few million instructions that differ from run to run; with it the counts repeat exactly.
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          "-c", CHILD, so_dir, data, game, str(players), what, str(n)],
                         capture_output=True, text=True, env=env)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or not found:
        sys.exit(f"{so_dir}: {game} {players}p {what} {n} failed (exit {out.returncode}):\n{out.stderr[-3000:]}")
    return int(found.group(1))


def commit(so_dir: str) -> Optional[str]:
    try:
        return subprocess.run(["git", "-C", so_dir, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("before", help="folder with the BEFORE build's _core*.so")
    p.add_argument("after", help="folder with the AFTER build's _core*.so")
    p.add_argument("--json", help="write the results there (e.g. bench/results/ab_redesign.json)")
    p.add_argument("--only", default="", help="only these kinds of run, comma-separated (playouts, greedy, random, "
                   "puct, vector, selfplay, puct-selfplay); default: all")
    args = p.parse_args()
    runs = [r for r in RUNS if not args.only or r[2] in args.only.split(",")]
    dirs = {"before": args.before, "after": args.after}
    pairs = {(g, pl) for g, pl, _, _ in runs}
    nets = {}
    for g, pl, what, _ in runs:
        if what in ("puct", "puct-selfplay"):
            net = load(g, pl, OPTIONS.get(g, {}).get("mode"))
            nets[g, pl] = native_arrays(net.arrays, net.observation_size, net.num_actions, net.players,
                                        net.meta.get("groups") or [])
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "data.pkl")
        with open(data, "wb") as f:
            pickle.dump({"configs": {(g, pl): tilecraft.make_config(g, pl, **OPTIONS.get(g, {})) for g, pl in pairs},
                         "nets": nets, "puct": PUCT, "envs": VECTOR_ENVS,
                         "selfplay": (SELFPLAY_ITERATIONS, SELFPLAY_SIMULATIONS, SELFPLAY_CONCURRENT)}, f)
        print(f"{'run':<28} {'before':>12} {'after':>12} {'change':>8}")
        for game, players, what, n in runs:
            work = {side: instructions(d, data, game, players, what, n) - instructions(d, data, game, players, what, 1)
                    for side, d in dirs.items()}
            label = f"{game} {players}p {what} {n}"
            change = 100 * (work["after"] / work["before"] - 1)
            print(f"{label:<28} {work['before'] / 1e6:>11.1f}M {work['after'] / 1e6:>11.1f}M {change:>+7.1f}%",
                  flush=True)
            results.append(dict(run=label, game=game, players=players, what=what, n=n, before=work["before"],
                                after=work["after"], change_percent=round(change, 2)))
    if args.json:
        out = dict(command="python bench/instructions.py " + " ".join(sys.argv[1:]),
                   commits={side: commit(d) for side, d in dirs.items()},
                   date=datetime.date.today().isoformat(), vector_envs=VECTOR_ENVS, puct=PUCT, runs=results)
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
