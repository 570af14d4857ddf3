"""The speed of `tilecraft train`'s generations (issue 50), per game: one later generation run as the
loop runs it (from the shipped network, ``--start``), with each stage's wall time as the run records
it in ``generations.json`` (``seconds``), and from those:

- self-play rows per second per core (Gumbel PUCT with the network, ``--selfplay-simulations``, on
  one process of one thread: ``--workers 1 --threads 1``);
- the fit's rows per second (JAX on the CPU: rows fitted times passes, over the fit's seconds, its
  compilation included);
- the held-out squared error of the value head and of one rollout (the run's ``value_error``);
- the seconds a game of each stage costs (self-play, gate, the two measurements), and the time a
  generation of ``tilecraft train``'s defaults would take on this machine's cores from them;

and the simulations a second each shipped baseline reaches with 50 ms a move (``baseline:seconds=0.05``
with its preset, over positions of greedy games: every fifth decision, the end of the game included,
where a small tree makes simulations cheap; the median per move is kept beside the mean).

    python bench/loop_speed.py                              # the four games, 2 players (about 15 minutes)
    python bench/loop_speed.py --only castle/2p --games 4
    python bench/loop_speed.py --simulations-only           # every shipped baseline's simulations at 50 ms

A generation is run for each game's 2-player network (``LOOP``); the simulations at 50 ms are
measured for every shipped network's configuration (``bench/equal_time.py``'s list, read from
``tilecraft.baselines``).

Results: ``bench/results/loop_speed.json`` (with the command, the commit and the machine's load),
rendered into bench/README.md by ``python bench/render_results.py``.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import tempfile
import time
from typing import Any, Dict, List

import numpy as np

import tilecraft
from tilecraft import baselines, train
from tilecraft.agents.train.files import commit
from tilecraft.bots import BaselineBot, one_blas_thread
from tilecraft.puct import PUCTBot

from equal_time import configurations, key_of, load_average  # bench/ is on the path when a bench script runs

OUT = pathlib.Path(__file__).resolve().parent / "results" / "loop_speed.json"
# every shipped network's configuration, by its key: (game, players, rule options)
CONFIGS = {key_of(g, n, m): (g, n, {"mode": m} if m else {}) for g, n, m in configurations()}
LOOP = sorted(k for k, (g, n, o) in CONFIGS.items() if n == 2)  # a generation of each game's 2-player network


def simulations_at(game: str, players: int, options: Dict[str, Any], seconds: float, positions: int) -> Dict[str, Any]:
    """The baseline's simulations per move and per second with ``seconds`` a move, over ``positions``
    positions of greedy games (every fifth decision)."""
    net = baselines.load(game, players, options.get("mode"))
    sims: List[int] = []
    spent: List[float] = []
    with one_blas_thread():
        s = tilecraft.make(game, players=players, seed=123, **options)
        bot = PUCTBot(net, **BaselineBot(seconds=seconds).settings(s))
        k = 0
        while len(sims) < positions:
            if s.is_terminal():
                s = tilecraft.make(game, players=players, seed=123 + k, **options)
            if s.is_chance_node():
                s.apply(int(s.chance_outcomes()[0][0]))
                continue
            if k % 5 == 0:
                t0 = time.perf_counter()
                r = bot.search(s)
                spent.append(time.perf_counter() - t0)
                sims.append(int(r["simulations"]))
            s.apply(int(s.greedy_action(k)))
            k += 1
    return dict(budget=seconds, positions=len(sims), simulations_per_move=float(np.mean(sims)),
                median_simulations_per_move=float(np.median(sims)), simulations=sims,
                simulations_per_second=float(np.sum(sims) / np.sum(spent)), seconds_per_move=float(np.mean(spent)))


def generation(key: str, games: int, folder: pathlib.Path) -> Dict[str, Any]:
    """One later generation of a run from the shipped network, as `tilecraft train` runs it."""
    game, players, options = CONFIGS[key]
    net = baselines.load(game, players, options.get("mode"))
    argv = [game, "--players", str(players), "--out", str(folder), "--start", net.path, "--generations", "2",
            "--selfplay-games", str(games), "--selfplay-chunks", "2", "--gate-games", str(games), "--eval-games",
            str(games), "--eval-workers", "1", "--workers", "1", "--threads", "1", "--value-positions", "200",
            "--quiet"] + [f"--option={k}={v}" for k, v in options.items()]
    train.run(train.parser().parse_args(argv), argv)
    record = json.loads((folder / "generations.json").read_text())
    g = record[1]
    sec = g["seconds"]
    rows = 0
    for p in sorted((folder / "data").glob("gen-0001-*.npz")):
        with np.load(p) as z:
            rows += len(z["codes"])
    defaults = train.TrainConfig(game=game)
    fitted_passes = defaults.generation_epochs
    out = dict(games=games, selfplay_rows=rows, fitted_rows=g["rows"], seconds=sec,
               selfplay_rows_per_second_per_core=rows / sec["selfplay"],
               fit_rows_per_second=g["rows"] * fitted_passes / sec["fit"],
               seconds_per_selfplay_game=sec["selfplay"] / games, seconds_per_gate_game=sec["gate"] / games,
               seconds_per_measure_game=sec["measure"] / (2 * games),
               generation_seconds=sum(sec.values()), value_error=g.get("value_error"))
    # a generation of the defaults (selfplay 200 games, gate 40, measurements 2 x 40) on this machine's
    # cores (--workers and --eval-workers at the core count), its fit growing with the data (not counted:
    # the first generation's fit on 200 games' rows)
    cores = os.cpu_count() or 1
    out["default_generation_seconds"] = (
        defaults.selfplay_games * out["seconds_per_selfplay_game"] / cores
        + defaults.gate_games * out["seconds_per_gate_game"] / cores
        + 2 * defaults.eval_games * out["seconds_per_measure_game"] / cores
        + defaults.selfplay_games * rows / games * fitted_passes / out["fit_rows_per_second"]
        + sec.get("value", 0.0))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", action="append", default=[], choices=sorted(CONFIGS))
    p.add_argument("--games", type=int, default=16, help="games of self-play, of the gate and of each measurement")
    p.add_argument("--positions", type=int, default=20, help="positions for the simulations at 50 ms")
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--simulations-only", action="store_true",
                   help="measure only the baselines' simulations at 50 ms (a configuration's generation figures are kept)")
    a = p.parse_args(argv)
    command = "python bench/loop_speed.py " + " ".join(sys.argv[1:] if argv is None else argv)
    out_path = pathlib.Path(a.out)
    results = json.loads(out_path.read_text()) if out_path.exists() else {}
    for key in a.only or sorted(CONFIGS):
        game, players, options = CONFIGS[key]
        if a.simulations_only or key not in LOOP:
            load = load_average()
            results.setdefault(key, {})["baseline_at_50ms"] = dict(simulations_at(game, players, options, 0.05, a.positions),
                                                    command=command, load_before=load)
            out_path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
            continue
        load = load_average()
        with tempfile.TemporaryDirectory() as tmp:
            r = generation(key, a.games, pathlib.Path(tmp) / "run")
        r["baseline_at_50ms"] = dict(simulations_at(game, players, options, 0.05, a.positions), command=command,
                                     load_before=load_average())
        r.update(command=command, commit=commit(), cores=os.cpu_count(), load_before=load,
                 load_after=load_average(),
                 date=time.strftime("%Y-%m-%d", time.gmtime()))
        results[key] = r
        print(f"{key}: self-play {r['selfplay_rows_per_second_per_core']:.0f} rows/s/core, fit "
              f"{r['fit_rows_per_second']:.0f} rows/s, generation of {a.games} games {r['generation_seconds']:.0f} s, "
              f"default generation ~{r['default_generation_seconds'] / 60:.0f} min; baseline at 50 ms: "
              f"{r['baseline_at_50ms']['simulations_per_second']:.0f} simulations/s", flush=True)
        out_path.parent.mkdir(parents=True, exist_ok=True)
        out_path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
