"""Keeps a `tilecraft train` run's generation record as a result file, for the docs:
bench/results/loop-NAME.json (the run's generations.json, its command and commit, the machine's
cores) and its plot docs/pictures/loop-NAME.svg, drawn from it as the run draws generations.svg.
``python bench/render_results.py`` then renders the table into docs/training.md.

    python bench/keep_loop_run.py runs/azul-2p azul-2p
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys

from tilecraft.agents.train.record import svg

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder", help="the run's folder (--out)")
    p.add_argument("name", help="the name it is kept under (bench/results/loop-NAME.json)")
    p.add_argument("--cores", type=int, default=os.cpu_count(), help="the cores of the machine that ran it")
    p.add_argument("--commit", default=None, help="the commit the run's code was (when it ran from a copy outside "
                                                  "git, whose run.json says 'unknown')")
    a = p.parse_args(argv)
    folder = pathlib.Path(a.folder)
    run = json.loads((folder / "run.json").read_text())
    record = json.loads((folder / "generations.json").read_text())
    kept = dict(command=run["command"], commit=a.commit or run["commit"], cores=a.cores, wall=record[-1]["wall"] if record else 0.0,
                generations=record)
    (ROOT / "bench" / "results" / f"loop-{a.name}.json").write_text(json.dumps(kept, indent=1) + "\n")
    (ROOT / "docs" / "pictures" / f"loop-{a.name}.svg").write_text(svg(record, f"tilecraft train: {a.name}"))
    print(f"kept {folder} as bench/results/loop-{a.name}.json and docs/pictures/loop-{a.name}.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
