"""What a generation's self-play targets can teach its network (issue 50's loop): for generation 1 of
a `tilecraft train` run, its self-play chunks but the last fitted and the last held out, from the
run's generation-0 network:

- the held-out policy targets' mean entropy (the floor of any policy's cross-entropy to them), the
  network's cross-entropy to them, and the gap between the two (the mean KL divergence: all that a
  fit could gain on these positions);
- fits of a few sizes (learning rate and passes, ``--fits LR:PASSES ...``; the loop's own is 0.3 times
  ``--lr`` for ``--generation-epochs`` passes: 0.0003:2), each with the held-out cross-entropy and
  top-1 agreement of the weights it keeps (the best of ten held-out checks, as the loop keeps them).

    python bench/policy_targets.py runs/gaudi-2p gaudi-2p --fits 0.0003:2 0.001:8 0.003:8

Results: ``bench/results/policy_targets.json`` (by NAME, with the run's command), rendered into the
journal (docs/journal/2026-12-05-generations.md) by ``python bench/render_results.py``.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import numpy as np

import tilecraft
from tilecraft import baselines
from tilecraft.agents import model
from tilecraft.agents.train import _start_network
from tilecraft.agents.train.data import load_rows, value_targets
from tilecraft.agents.train.files import commit
from tilecraft.agents.train.fitting import fit, held_out_losses

OUT = pathlib.Path(__file__).resolve().parent / "results" / "policy_targets.json"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder", help="a tilecraft train run's folder (--out) with generation 1's self-play")
    p.add_argument("name", help="the name its figures are kept under")
    p.add_argument("--fits", nargs="*", default=["0.0003:2", "0.001:8"], metavar="LR:PASSES")
    p.add_argument("--note", default="", help="what the run's self-play search did that its settings do not say "
                                              "(a run from a changed copy of the code)")
    p.add_argument("--out", default=str(OUT))
    a = p.parse_args(argv)
    folder = pathlib.Path(a.folder)
    run = json.loads((folder / "run.json").read_text())
    s = run["settings"]
    game, players, options = s["game"], s["players"], s["options"]
    state = tilecraft.make(game, players=players, **options)
    mode = baselines.mode_of(state)
    codec, n_act = state.observation_codec(), state.num_distinct_actions()
    arrays, meta = _start_network(str(folder / "net-00.npz"), game, players, mode)
    groups = list(meta.get("groups", []))
    index = model.group_indices(groups, int(np.prod(state.observation_shape()))) if groups else None
    paths = sorted((folder / "data").glob("gen-0001-*.npz"))
    if len(paths) < 2:
        p.error(f"{folder}: generation 1's self-play needs two chunks or more (one held out); found {len(paths)}")
    data, val = load_rows(paths[:-1], n_act), load_rows(paths[-1:], n_act)
    data["target"] = value_targets(data, s["q_weight"])
    pi = val["policy"].astype(np.float64)
    entropy = float(np.mean(-np.where(pi > 0, pi * np.log(np.where(pi > 0, pi, 1.0)), 0.0).sum(1)))
    before = held_out_losses(arrays, val, codec, index)
    r = dict(command="python bench/policy_targets.py " + " ".join(sys.argv[1:] if argv is None else argv),
             run_command=run["command"], commit=commit(), date=time.strftime("%Y-%m-%d", time.gmtime()),
             game=game, players=players, selfplay_simulations=s["selfplay_simulations"],
             selfplay_rollout_mix=s["selfplay_rollout_mix"], note=a.note, rows=len(data["codes"]), held_out_rows=len(val["codes"]),
             legal_actions=float(val["mask"].sum(1).mean()), target_entropy=entropy,
             cross_entropy=before["val_policy_loss"], top1=before["val_top1"], fits=[])
    print(f"{a.name}: target entropy {entropy:.4f}, the network's cross-entropy {r['cross_entropy']:.4f}", flush=True)
    for spec in a.fits:
        lr, passes = (float(x) for x in spec.split(":"))
        kept, losses = fit(dict(arrays), data, codec, passes, lr=lr, seed=1, threads=2, val=val,
                           value_weight=s["value_weight"], groups=groups)
        after = held_out_losses(kept, val, codec, index)
        r["fits"].append(dict(lr=lr, passes=passes, cross_entropy=after["val_policy_loss"], top1=after["val_top1"],
                              kept_step=losses.get("step"), steps=losses.get("steps")))
        print(f"  lr {lr:g}, {passes:g} passes: cross-entropy {after['val_policy_loss']:.4f}, top-1 "
              f"{after['val_top1']:.3f}", flush=True)
    out = pathlib.Path(a.out)
    results = json.loads(out.read_text()) if out.exists() else {}
    results[a.name] = r
    out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
