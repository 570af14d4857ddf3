"""Self-play check of the default Warsaw data (docs/warsaw.md, "Balance"): a greedy bot against
two fixed strategies, always sell and always build the cheapest placement.
Run: PYTHONPATH=python python3 bench/warsaw_strategies.py [games]"""
import random
import sys

import tilecraft
from tilecraft.games import warsaw as W


def always_sell(state, rng):
    legal = [int(a) for a in state.legal_actions()]
    if W.SELL in legal:
        return W.SELL
    return legal[rng.randrange(len(legal))]


def cheapest_build(state, rng):
    legal = [int(a) for a in state.legal_actions()]
    if state.phase() != 1:
        return legal[rng.randrange(len(legal))]
    p = state.current_player()
    builds = [a for a in legal if a >= W.BUILD_BASE]
    if not builds:
        return W.SELL
    best, choice = None, builds[0]
    for a in builds:  # the cost is the coins a build would take (resolved on a copy)
        c = state.clone()
        c.apply(a)
        while c.phase() == 1 and c.current_player() != p:
            c.apply(W.SELL)
        cost = (state.coins()[p] - c.coins()[p]) if c.era() == state.era() else 0
        key = (cost, rng.random())
        if best is None or key < best:
            best, choice = key, a
    return choice


PRICES = W.data_for("default")["config"]["card_price"]


def cheapest_card(state, rng):
    """Picks the cheapest card of the hand and builds it at a random legal placement (sells when it
    cannot pay)."""
    legal = [int(a) for a in state.legal_actions()]
    if state.phase() == 0:
        hand = state.hand(state.current_player())
        return min(range(len(hand)), key=lambda k: (PRICES[hand[k]], rng.random()))
    if state.phase() == 1:
        builds = [a for a in legal if a >= W.BUILD_BASE]
        return builds[rng.randrange(len(builds))] if builds else W.SELL
    return legal[rng.randrange(len(legal))]


def greedy(state, rng):
    return int(state.greedy_action(rng.getrandbits(62)))


BOTS = {"greedy": greedy, "always_sell": always_sell, "cheapest_build": cheapest_build, "cheapest_card": cheapest_card}


def match(names, games, seed=0):
    wins = {n: 0.0 for n in names}
    total = {n: 0.0 for n in names}
    for g in range(games):
        order = names[g % len(names):] + names[:g % len(names)]  # rotate seats
        s = tilecraft.make("warsaw", players=len(order), seed=seed + g)
        rng = random.Random(seed + g)
        while not s.is_terminal():
            s.apply(BOTS[order[s.current_player()]](s, rng))
        w = s.winners()
        for p, n in enumerate(order):
            total[n] += s.scores()[p]
            if p in w:
                wins[n] += 1.0 / len(w)
    return {n: (wins[n] / games, total[n] / games) for n in names}


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    for pair in (["greedy", "always_sell"], ["greedy", "cheapest_build"], ["greedy", "cheapest_card"],
                 ["always_sell", "cheapest_build"], ["always_sell", "cheapest_card"]):
        print(pair, match(pair, games))
    print(["greedy", "always_sell", "cheapest_build"], match(["greedy", "always_sell", "cheapest_build"], games))
