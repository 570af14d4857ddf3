"""How much a teacher's policy targets say: for the rows of a training run's chunks, grouped by the
number of legal moves, the mean entropy of the visit shares against the entropy of a uniform choice
among the legal moves (log of their number), and the mean share of the most visited move. A target
whose entropy is close to the uniform one carries little for a network to learn, whatever the
teacher's strength (docs/journal/2026-12-03-gaudi-warsaw-teacher-games.md).

    python bench/teacher_targets.py runs/gaudi-2p/data/teacher-0000.npz runs/gaudi-2p/data/teacher-0001.npz
    python bench/teacher_targets.py runs/warsaw-u/data/teacher-000*.npz --temperature 0.25
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

import numpy as np

from tilecraft.agents.train import sharpen
from tilecraft.agents.train.data import load_rows

BANDS = ((2, 5), (5, 20), (20, 100), (100, 100000))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("chunks", nargs="+", help="teacher chunk files (runs/NAME/data/teacher-NNNN.npz)")
    p.add_argument("--temperature", type=float, default=1.0,
                   help="the targets as `tilecraft train --target-temperature T` makes them (1: as recorded)")
    args = p.parse_args(argv)
    if not 0.0 <= args.temperature <= 100.0:  # the range `tilecraft train --target-temperature` takes
        p.error(f"--temperature must be between 0 and 100, got {args.temperature}")
    paths = [pathlib.Path(c) for c in args.chunks]
    for c in paths:
        if not c.is_file():
            p.error(f"{c}: no such chunk file")
    with np.load(paths[0], allow_pickle=False) as z:
        n_act = int(z["policy"].shape[1])
        bots = json.loads(str(z["meta"])).get("bots")
    d = load_rows(paths, n_act)
    pi = sharpen(d["policy"], args.temperature).astype(np.float32)
    pi /= np.maximum(pi.sum(1, keepdims=True), 1e-9)
    legal = d["mask"].sum(1)
    entropy = -(pi * np.log(np.maximum(pi, 1e-12))).sum(1)
    print(f"{len(paths)} chunks, {len(pi)} rows, {int(d['games'])} games; teacher {bots}; "
          f"target temperature {args.temperature:g}")
    print("| legal moves | rows | target entropy | uniform entropy | ratio | top move's share |")
    print("|---|---|---|---|---|---|")
    for lo, hi in BANDS:
        m = (legal >= lo) & (legal < hi)
        if not m.any():
            continue
        u = float(np.log(legal[m]).mean())
        e = float(entropy[m].mean())
        band = f"{lo}-{hi - 1}" if hi < 100000 else f"{lo}+"
        print(f"| {band} | {int(m.sum())} | {e:.3f} | {u:.3f} | {e / u:.2f} | {float(pi[m].max(1).mean()):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
