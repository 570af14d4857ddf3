"""Search in solo play (GA-SOLO-END-5, GA-AMB-38): the automa is the environment, not a seat, so a
solo game has one seat. A search that values truncated rollouts by a softmax over the seats would
give that one seat 1.0 everywhere and could not tell good moves from bad; the generic search values
a one-seat leaf by the logistic of the heuristic, and Gaudí's solo heuristic is the estimated margin
over the automa (the automa's score as if the game ended now)."""
import math
import random

import numpy as np

import tilecraft


def _solo_position(seed=3, steps=12, difficulty="crazy"):
    s = tilecraft.make("gaudi", players=1, seed=seed, difficulty=difficulty)
    rng = random.Random(1)
    for _ in range(steps):
        s.apply(int(rng.choice(list(s.legal_actions()))))
    assert not s.is_terminal() and not s.is_chance_node()
    return s


def test_solo_heuristic_is_a_margin_over_the_automa():
    """At the end the heuristic is exactly the margin that returns() reports (final minus the
    automa's score); during play it counts the automa's current final score against the player."""
    s = tilecraft.make("gaudi", players=1, seed=5, difficulty="hard")
    rng = random.Random(2)
    while not s.is_terminal():
        s.apply(int(rng.choice(list(s.legal_actions()))))
    assert s.automa_score() > 0
    assert s.heuristic(0) == s.returns()[0] == s.scores()[0] - s.automa_score()


def test_solo_search_values_tell_moves_apart():
    """rollout_depth=0: every leaf is valued by the heuristic at once. With the automa ahead (a
    negative margin), the visited actions' values lie strictly between 0 and 0.5 and differ; a
    constant 1.0 (a softmax over one seat) fails both."""
    s = _solo_position()
    assert s.heuristic(0) < 0
    out = tilecraft.MCTSBot(iterations=300, seed=1, rollout_depth=0).search(s)
    visited = out["visits"] > 0
    vals = out["values"][visited]
    assert visited.sum() >= 2
    assert np.all(vals > 0.0) and np.all(vals < 0.5), vals
    assert len(set(np.round(vals, 6))) >= 2, vals
    # With one iteration per legal action, each child is visited once and valued by the logistic
    # of its own heuristic at eval_scale 10.
    legal = [int(a) for a in s.legal_actions()]
    out = tilecraft.MCTSBot(iterations=len(legal), seed=1, rollout_depth=0).search(s)
    checked = 0
    for a in legal:
        c = s.clone()
        c.apply(a)
        if c.is_chance_node() or c.is_terminal():
            continue
        assert out["visits"][a] == 1
        assert math.isclose(out["values"][a], 1.0 / (1.0 + math.exp(-c.heuristic(0) / 10.0)), rel_tol=1e-9)
        checked += 1
    assert checked >= 2
