"""Steps per second of tilecraft.VectorGame (masks and observations included) against the
PettingZoo adapter stepping one environment, in the same run (issue #15).

Usage: python bench/vector_speed.py [--games azul castle warsaw] [--num-envs 1024] [--seconds 2]
[--repeat 3] [--quick]

For every game (2 players, default options) it measures, best of --repeat, interleaved:
  adapter    the PettingZoo AEC adapter, one env: last(), a random legal action from the mask, step()
  vec 1t     VectorGame, --num-envs games, one thread, actions from sample_legal() (C++)
  vec 2t     the same on two threads
  numpy 1t   one thread, a masked random policy in numpy (random scores, -inf where illegal, argmax)
  csr 1t     one thread, a numpy policy over legal_actions() (flat + offsets, no mask scan)
A step is one move of one game (a game's reset in the call after its end is not counted).
It also prints the observation bytes written per second at the 1-thread rate against the
machine's write bandwidth, measured here by filling a 256 MiB numpy array, and, for the two-thread
run, the process's CPU time over wall time: the cores it actually got (about 2 on an idle machine;
near 1 when other jobs hold the CPUs, and then no speed-up can show)."""
import argparse
import os
import time

import numpy as np

import tilecraft
from tilecraft.adapters.pettingzoo import env as pettingzoo_env


def adapter_rate(game, seconds):
    e = pettingzoo_env(game, players=2)
    rng = np.random.default_rng(0)
    steps, episode = 0, 0
    e.reset(seed=episode)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        episode += 1
        e.reset(seed=episode)
    return steps / (time.perf_counter() - start)


def vector_rate(game, num_envs, threads, policy, seconds):
    v = tilecraft.VectorGame(game, num_envs, players=2, seed=1, threads=threads)
    r = v.reset()
    rng = np.random.default_rng(0)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            if policy == "sample":
                actions = v.sample_legal()
            elif policy == "numpy":
                scores = rng.random(r.legal_mask.shape, dtype=np.float32)
                scores[~r.legal_mask] = -1.0
                actions = scores.argmax(axis=1)
            else:  # csr
                flat, offsets = v.legal_actions()
                counts = np.diff(offsets)
                pick = offsets[:-1] + (rng.random(num_envs) * counts).astype(np.int64)
                actions = np.where(counts > 0, flat[np.minimum(pick, len(flat) - 1)], -1)
            r = v.step(actions)
            steps += num_envs - int(np.count_nonzero(r.info["reset"]))
    wall = time.perf_counter() - start
    return steps / wall, v, (time.process_time() - cpu) / wall


def write_bandwidth():
    a = np.empty(64 * 2**20, dtype=np.float32)  # 256 MiB, far larger than any cache
    best = 0.0
    for _ in range(5):
        t = time.perf_counter()
        a.fill(1.0)
        best = max(best, a.nbytes / (time.perf_counter() - t))
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", nargs="+", default=tilecraft.list_games())
    p.add_argument("--num-envs", type=int, default=1024)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="one short round (a smoke run)")
    a = p.parse_args()
    if a.quick:
        a.seconds, a.repeat = 0.3, 1
    bandwidth = write_bandwidth()
    print(f"load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} CPUs; {a.num_envs} envs; best of {a.repeat} "
          f"x {a.seconds} s; machine write bandwidth (numpy fill, 256 MiB) {bandwidth / 1e9:.1f} GB/s")
    print("| game | adapter steps/s | vec 1t steps/s | 1t / adapter | vec 2t steps/s | 2t / 1t | 2t CPU/wall "
          "| numpy policy 1t | csr policy 1t | obs+mask bytes/step | GB/s written at 1t | target |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for game in a.games:
        best = {k: 0.0 for k in ("adapter", "1t", "2t", "numpy", "csr")}
        v, busy = None, 0.0
        for _ in range(a.repeat):
            best["adapter"] = max(best["adapter"], adapter_rate(game, a.seconds))
            rate, v, _ = vector_rate(game, a.num_envs, 1, "sample", a.seconds)
            best["1t"] = max(best["1t"], rate)
            rate, _, cores = vector_rate(game, a.num_envs, 2, "sample", a.seconds)
            if rate > best["2t"]:
                best["2t"], busy = rate, cores
            best["numpy"] = max(best["numpy"], vector_rate(game, a.num_envs, 1, "numpy", a.seconds)[0])
            best["csr"] = max(best["csr"], vector_rate(game, a.num_envs, 1, "csr", a.seconds)[0])
        per_step = int(np.prod(v.observation_shape)) * 4 + v.num_actions
        ratio = best["1t"] / best["adapter"]
        need = 20 if game == "azul" else 10
        single = f">= {need}x: " + ("met" if ratio >= need else "**not met**")
        if busy < 1.8:  # the two-thread run did not get two cores: its speed-up says nothing
            double = f"2t >= 1.7x: not measurable (the run got {busy:.2f} cores)"
        else:
            double = "2t >= 1.7x: " + ("met" if best["2t"] / best["1t"] >= 1.7 else "**not met**")
        print(f"| {game} | {best['adapter']:,.0f} | {best['1t']:,.0f} | {ratio:.1f}x | {best['2t']:,.0f} | "
              f"{best['2t'] / best['1t']:.2f}x | {busy:.2f} | {best['numpy']:,.0f} | {best['csr']:,.0f} | {per_step:,} | "
              f"{best['1t'] * per_step / 1e9:.2f} ({100 * best['1t'] * per_step / bandwidth:.0f}% of the machine's) | "
              f"{single}; {double} |", flush=True)


if __name__ == "__main__":
    main()
