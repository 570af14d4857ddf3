"""How well a baseline's value head judges positions, beside what MCTS's leaves use: over games of
greedy against greedy, the correlation with the mover's final win share (1/k for k co-winners) of

- the network's value of the mover's observation (what `baseline:rollout_mix=0` backs up);
- one rollout from the position, the game's tuned MCTS rollout policy then its heuristic softmax
  (what `baseline`, rollout_mix=1, backs up: PUCTBot's leaf rollout, on a copy re-drawn for the mover);
- the game's heuristic softmax of the position re-drawn for the mover (no rollout);

by quarter of the game (each position's move number over its game's length).

    python bench/value_check.py gaudi --games 30
    python bench/value_check.py azul --players 2 --games 30
    python bench/value_check.py azul --games 30 --path runs/azul-2p/net-00.npz
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

import tilecraft
from tilecraft import baselines
from tilecraft.bots import one_blas_thread
from tilecraft.puct import PUCTBot, UniformEvaluator, tuned_options


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--seed", type=int, default=500)
    p.add_argument("--path", default=None, help="a network file instead of the shipped baseline")
    a = p.parse_args(argv)
    net = baselines.load(a.game, a.players, path=a.path)
    scale = tuned_options({"eval_scale": None}, a.game)["eval_scale"]
    roller = PUCTBot(UniformEvaluator(a.players), simulations=1, batch_size=1, rollout_mix=1.0)
    rows = []  # (phase, network value, rollout value, heuristic share, final win share), for the mover
    with one_blas_thread():
        for g in range(a.games):
            s = tilecraft.make(a.game, players=a.players, seed=a.seed + g)
            seen = []
            k = 0
            while not s.is_terminal():
                p_ = s.current_player()
                if p_ < 0:  # a chance node (explicit chance): its first outcome
                    s.apply(int(s.chance_outcomes()[0][0]))
                    continue
                obs = np.asarray(s.observation(p_), np.float32)[None]
                _, v = net(obs, s.legal_action_mask()[None], np.array([p_], np.int32))
                roller.reset(p_, a.seed * 1000 + k)
                rollout = float(roller.search(s)["root_value"])
                view = s.clone()
                view.resample_hidden(p_, a.seed * 1000 + k)
                h = np.array([view.heuristic(q) for q in range(a.players)]) / scale
                h = np.exp(h - h.max())
                seen.append((p_, float(v[0, p_]), rollout, float(h[p_] / h.sum())))
                s.apply(int(s.greedy_action(k)))
                k += 1
            w = np.zeros(a.players)
            for q in s.winners():
                w[q] = 1.0
            w /= max(1.0, w.sum())
            for i, (q, v, r, h) in enumerate(seen):
                rows.append((i / len(seen), v, r, h, w[q]))
    rows = np.array(rows)
    print(f"{a.game}, {a.players} players, {a.games} greedy games, {len(rows)} positions; "
          f"correlation with the mover's final win share")
    print("| quarter of the game | network value | one rollout | heuristic softmax | positions |")
    print("|---|---|---|---|---|")
    for lo in (0.0, 0.25, 0.5, 0.75):
        m = (rows[:, 0] >= lo) & (rows[:, 0] < lo + 0.25)
        c = [np.corrcoef(rows[m, j], rows[m, 4])[0, 1] for j in (1, 2, 3)]
        print(f"| {lo:.2f}-{lo + 0.25:.2f} | {c[0]:.2f} | {c[1]:.2f} | {c[2]:.2f} | {int(m.sum())} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
