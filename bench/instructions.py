"""Engine work counted in instructions (valgrind's callgrind), for a before/after comparison that the
machine's load cannot blur: the same C++ batch playouts and MCTS searches run under two builds of the
extension, and each figure is the instructions of the run minus those of the same run with n = 1
(loading the extension, unpickling the configuration, one game or one iteration).

    python bench/instructions.py BEFORE_DIR AFTER_DIR

Each DIR holds a built ``_core*.so`` (e.g. a copy of python/tilecraft/ from two commits). Needs
valgrind; about 20 minutes. The child imports only the extension (not the tilecraft package), with
PYTHONHASHSEED=0, so Python's own work is the same in every run."""
from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys
import tempfile

import tilecraft

# (game, players, what, n): what is "playouts" (n random games) or a rollout kind (an MCTS search of
# n iterations from the opening with that rollout, depth 4 for greedy, to the end for random).
RUNS = [
    ("azul", 2, "playouts", 15000), ("castle", 2, "playouts", 1000), ("warsaw", 4, "playouts", 1500),
    ("gaudi", 4, "playouts", 1500),
    ("azul", 2, "greedy", 2000), ("castle", 2, "greedy", 1000), ("warsaw", 4, "greedy", 1000),
    ("gaudi", 4, "greedy", 1000),
    ("azul", 2, "random", 20000), ("castle", 2, "random", 10000), ("warsaw", 4, "random", 10000),
    ("gaudi", 4, "random", 10000),
]

CHILD = """
import sys, pickle
sys.path.insert(0, sys.argv[1])
import _core
cfg = pickle.load(open(sys.argv[2], 'rb'))[sys.argv[3]]
game, what, n = sys.argv[3], sys.argv[4], int(sys.argv[5])
cls = getattr(_core, game.capitalize() + "State")
if what == "playouts":
    getattr(_core, game + "_random_playouts")(cfg, n, 1, 1)
else:
    cls.Searcher(iterations=n, seed=0, reuse_tree=False, rollout=what).search(cls(cfg, 1))
"""


def instructions(so_dir: str, configs: str, game: str, what: str, n: int) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          "-c", CHILD, so_dir, configs, game, what, str(n)],
                         capture_output=True, text=True, env=env, check=True).stderr
    return int(re.search(r"Collected : (\d+)", out).group(1))


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    dirs = {"before": sys.argv[1], "after": sys.argv[2]}
    with tempfile.TemporaryDirectory() as tmp:
        configs = os.path.join(tmp, "configs.pkl")
        with open(configs, "wb") as f:
            pickle.dump({g: tilecraft.make_config(g, p) for g, p, _, _ in RUNS}, f)
        print(f"{'run':<28} {'before':>12} {'after':>12} {'change':>8}")
        for game, players, what, n in RUNS:
            work = {side: instructions(d, configs, game, what, n) - instructions(d, configs, game, what, 1)
                    for side, d in dirs.items()}
            label = f"{game} {players}p {what} {n}"
            print(f"{label:<28} {work['before'] / 1e6:>11.1f}M {work['after'] / 1e6:>11.1f}M "
                  f"{100 * (work['after'] / work['before'] - 1):>+7.1f}%", flush=True)


if __name__ == "__main__":
    main()
