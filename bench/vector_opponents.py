"""Steps per second of tilecraft.VectorGame against an evaluator opponent (a frozen network played
in the engine's step, docs/vector.md) and against the built-in greedy bot, in the same run.

Usage: python bench/vector_opponents.py [--games azul] [--num-envs 1024] [--threads 1]
[--seconds 2] [--repeat 3] [--hidden 128] [--baseline] [--quick]

For every game (2 players, the learner at seat 0, default options) it measures, best of --repeat,
interleaved:
  greedy      opponents="greedy" (C++ only)
  evaluator   opponents=<a numpy MLP>: observation -> hidden -> hidden (ReLU) -> policy logits and
              value (softmax), random weights (the shape of examples/alphazero.py's network, which a
              baseline would have); with --baseline, tilecraft.baselines.load(game) instead
The learner's actions come from sample_legal() (C++). A step is one learner decision of one game,
the opponents' moves in between included (a game's reset in the call after its end is not
counted). It also prints the evaluator's calls per step() call, its mean batch, the share of the
wall time spent inside it (what the network costs), and the rate with that time taken out (what
the engine and the crossing to Python cost: gathering the batch, the copies, the GIL, the checks
of tilecraft.puct.EvaluatorCall, the argmax)."""
import argparse
import os
import time

import numpy as np

import tilecraft


class NumpyMLP:
    """A frozen two-layer MLP evaluator (float32, numpy): logits (B, A), values (B, players)."""

    def __init__(self, obs_size, actions, players, hidden=128, seed=0):
        rng = np.random.default_rng(seed)
        he = lambda n, m: (rng.normal(size=(n, m)) * np.sqrt(2.0 / n)).astype(np.float32)  # noqa: E731
        self.players = players
        self.w1, self.b1 = he(obs_size, hidden), np.zeros(hidden, np.float32)
        self.w2, self.b2 = he(hidden, hidden), np.zeros(hidden, np.float32)
        self.wp, self.bp = he(hidden, actions), np.zeros(actions, np.float32)
        self.wv, self.bv = he(hidden, players), np.zeros(players, np.float32)

    def __call__(self, observations, legal_mask, players):
        x = observations.reshape(len(observations), -1)
        h = np.maximum(x @ self.w1 + self.b1, 0)
        h = np.maximum(h @ self.w2 + self.b2, 0)
        v = h @ self.wv + self.bv
        v = np.exp(v - v.max(axis=1, keepdims=True))
        return h @ self.wp + self.bp, v / v.sum(axis=1, keepdims=True)

    def __repr__(self):
        return f"NumpyMLP({self.w1.shape[0]}-{self.w1.shape[1]}-{self.w2.shape[1]}-{self.wp.shape[1]})"


def rate(game, num_envs, threads, opponent, seconds):
    v = tilecraft.VectorGame(game, num_envs, players=2, seed=1, threads=threads, opponents=opponent)
    v.reset()
    steps = calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(5):
            r = v.step(v.sample_legal())
            steps += num_envs - int(np.count_nonzero(r.info["reset"]))
            calls += 1
    wall = time.perf_counter() - start
    stats = v.evaluator_stats()
    inside = stats[0] if stats else None
    return steps / wall, calls, wall, inside


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", nargs="+", default=["azul"])
    p.add_argument("--num-envs", type=int, default=1024)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--baseline", action="store_true", help="the evaluator is tilecraft.baselines.load(game)")
    p.add_argument("--quick", action="store_true", help="one short round (a smoke run)")
    a = p.parse_args()
    if a.quick:
        a.seconds, a.repeat = 0.3, 1
    print(f"load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} CPUs; {a.num_envs} envs; {a.threads} thread(s); "
          f"best of {a.repeat} x {a.seconds} s")
    print("| game | evaluator | greedy steps/s | evaluator steps/s | evaluator / greedy | evaluator calls per step() "
          "| mean batch | time inside the evaluator | steps/s without that time | that / greedy |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game in a.games:
        if a.baseline:
            from tilecraft.baselines import load
            evaluator = load(game, players=2)
        else:
            s = tilecraft.make(game, players=2)
            evaluator = NumpyMLP(int(np.prod(s.observation_shape())), s.num_distinct_actions(), 2, hidden=a.hidden)
        best_greedy, best_eval, shown = 0.0, 0.0, None
        for _ in range(a.repeat):
            best_greedy = max(best_greedy, rate(game, a.num_envs, a.threads, "greedy", a.seconds)[0])
            r, calls, wall, inside = rate(game, a.num_envs, a.threads, evaluator, a.seconds)
            if r > best_eval:
                best_eval, shown = r, (inside["calls"] / calls, inside["rows"] / max(1, inside["calls"]),
                                       inside["seconds"] / wall)
        per_call, batch, share = shown
        engine = best_eval / (1.0 - share) if share < 1.0 else float("inf")
        print(f"| {game} | {evaluator!r} | {best_greedy:,.0f} | {best_eval:,.0f} | {best_eval / best_greedy:.2f}x | "
              f"{per_call:.2f} | {batch:,.0f} | {100 * share:.0f}% | {engine:,.0f} | {engine / best_greedy:.2f}x |",
              flush=True)


if __name__ == "__main__":
    main()
