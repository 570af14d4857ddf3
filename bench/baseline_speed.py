"""The speed of the trained baselines, as ratios to a reference measured in the same run:

- self-play rows per second with the baseline evaluating (Gumbel PUCT, 64 simulations, 128 games
  at once; its forward pass in C++, Network.native), against the same search with the uniform
  evaluator (no network: the search's own cost) and with the network's numpy forward pass called
  through Python;
- PUCT(200) milliseconds per move with the baseline (the `baseline` bot with the network's own
  search settings, else the heuristic prior and leaf rollouts; with prior_heuristic=0 the network's
  priors alone; with rollout_mix=0 the network's value alone), against MCTS(1000) (ISMCTS(1000) for the games with
  hidden hands) on the same positions, and `baseline` as shipped where its network sets another
  number of simulations (search.simulations); and the same PUCT(200) with the numpy forward pass
  called through Python, as a ratio to the C++ one;
- the policy alone (one network call a move) against GreedyBot.

    python bench/baseline_speed.py                  # Azul, 2 players (about 1 minute)
    python bench/baseline_speed.py --game azul --players 3 --games 32
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import tilecraft
from tilecraft import baselines
from tilecraft.bots import BaselineBot, BaselinePolicyBot, one_blas_thread
from tilecraft.puct import PUCTBot, UniformEvaluator


class ThroughPython:
    """The network's numpy forward pass as a plain Python evaluator (no ``native()``): a search calls
    it through Python for every batch of leaves, as `baseline` did before the C++ forward pass."""

    def __init__(self, net):
        self.net = net

    def __call__(self, observations, legal_mask, players):
        return self.net(observations, legal_mask, players)


def positions(game: str, players: int, n: int, seed: int = 1):
    """n positions from greedy games (a few per game, spread over the game)."""
    out = []
    g = 0
    while len(out) < n:
        s = tilecraft.make(game, players=players, seed=seed + g)
        k = 0
        while not s.is_terminal() and len(out) < n:
            if s.current_player() >= 0 and k % 7 == 3:
                out.append(s.clone())
            s.apply(int(s.greedy_action(k)) if s.current_player() >= 0 else int(s.chance_outcomes()[0][0]))
            k += 1
        g += 1
    return out


def per_move(bot, states) -> float:
    bot.act(states[0])
    start = time.perf_counter()
    for s in states:
        bot.act(s)
    return (time.perf_counter() - start) / len(states)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="azul")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=64, help="self-play games per measurement")
    p.add_argument("--positions", type=int, default=40)
    a = p.parse_args(argv)
    net = baselines.load(a.game, a.players)
    print(f"{a.game}, {a.players} players: {net!r}")
    with one_blas_thread():
        rates = {}
        for name, ev in (("uniform", UniformEvaluator(a.players)), ("baseline", net), ("numpy", ThroughPython(net))):
            bot = PUCTBot(ev, simulations=64, gumbel=True)
            t = time.perf_counter()
            d = tilecraft.self_play(a.game, [bot], n_games=a.games, players=a.players, record=True,
                                    concurrent_games=128, seed=5)
            rates[name] = len(d["training"]["player"]) / (time.perf_counter() - t)
        print(f"self-play rows/s, Gumbel PUCT(64), 128 games at once: baseline {rates['baseline']:.0f}, "
              f"uniform evaluator {rates['uniform']:.0f} (ratio {rates['baseline'] / rates['uniform']:.2f}); "
              f"the network's numpy forward pass through Python {rates['numpy']:.0f} (ratio "
              f"{rates['numpy'] / rates['uniform']:.2f})")
    states = positions(a.game, a.players, a.positions)
    puct = per_move(BaselineBot(simulations=200), states)
    no_bias = per_move(BaselineBot(simulations=200, prior_heuristic=0.0), states)
    plain = per_move(BaselineBot(simulations=200, rollout_mix=0.0), states)
    search = "mcts" if a.game == "azul" else "ismcts"
    mcts = per_move(tilecraft.make_bot(f"{search}:iterations=1000"), states)
    resolved = BaselineBot(simulations=200).settings(states[0])
    own = ", ".join(f"{k}={resolved[k]}" for k in ("prior_heuristic", "rollout_mix", "c_puct", "prior_temperature",
                                                     "batch_size", "determinize"))
    print(f"PUCT(200) with the baseline (its preset: {own}): {1000 * puct:.1f} ms/move; "
          f"without the heuristic prior (prior_heuristic=0): {1000 * no_bias:.1f} ms/move; without rollouts "
          f"(rollout_mix=0): {1000 * plain:.1f} ms/move; {search.upper()}(1000): {1000 * mcts:.1f} ms/move "
          f"(ratios {puct / mcts:.2f}, {no_bias / mcts:.2f} and {plain / mcts:.2f})")
    numpy_puct = per_move(PUCTBot(ThroughPython(net), **BaselineBot(simulations=200).settings(states[0])),
                          states)
    print(f"the same PUCT(200) with the network's numpy forward pass called through Python (the search's leaves "
          f"leave C++; `baseline` before 2026-12-05): {1000 * numpy_puct:.1f} ms/move (ratio {numpy_puct / mcts:.2f}; "
          f"{numpy_puct / puct:.2f} times the C++ forward pass's time)")
    if resolved["batch_size"] != 8:  # what one network call per leaf costs against eight
        eight = per_move(BaselineBot(simulations=200, batch_size=8), states)
        print(f"PUCT(200) with the baseline, eight leaves a network call (batch_size=8): {1000 * eight:.1f} ms/move "
              f"(ratio {eight / mcts:.2f}; the network's batch_size={resolved['batch_size']} takes "
              f"{puct / eight:.2f} times as long)")
    shipped = BaselineBot().settings(states[0])["simulations"]
    if shipped != 200:  # the preset says how many simulations `baseline` makes with it
        full = per_move(BaselineBot(), states)
        print(f"`baseline` as shipped, PUCT({shipped}) (its preset's simulations, "
              f"determinize={resolved['determinize']}): {1000 * full:.1f} ms/move "
              f"(ratio {full / mcts:.2f} to {search.upper()}(1000))")
    pol = per_move(BaselinePolicyBot(), states)
    greedy = per_move(tilecraft.GreedyBot(), states)
    print(f"baseline-policy: {1000 * pol:.2f} ms/move; greedy: {1000 * greedy:.2f} ms/move (ratio {pol / greedy:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
