// Game-generic PUCT (AlphaZero-style search) over any State of cpp/core/game.hpp, guided by a
// batched evaluator that lives outside C++ (a Python model: numpy, PyTorch, JAX...).
//
// The search is a resumable state machine so that many searches (many games) can share one
// evaluator call: collect() runs simulations until `quota` new leaves wait for an evaluation (or
// the budget is spent, or the search must wait for results), writing each leaf's observation,
// legal mask and seat into an EvalBuffer; the caller fills the buffer's logits and values (one
// evaluator call for the whole buffer); deliver() expands those leaves and backs their values up.
// Simulations in flight carry a virtual loss (their visit is counted before their value arrives,
// i.e. as a reward of 0), which spreads one batch over different leaves. A simulation that reaches
// a leaf already waiting for its evaluation is taken back (its visits undone) and ends the batch:
// it starts again after the evaluation, so every simulation reaches a leaf of its own or an end
// of the game, and a batch never holds copies (earlier versions counted such a simulation as done
// with the waiting leaf's value, which in narrow positions spent most of a budget on copies).
//
// Determinization, as mcts.hpp's two engines (PuctConfig::determinize):
//  - "search" (the default): one determinization of the root per search, drawn with
//    resample_hidden(observer, seed) from the searcher's own seed (tree_common.hpp). In
//    sampled-chance games chance happens inside apply() from the determinized state's RNG, so the
//    tree is closed-loop: it plans for the one future that determinization drew.
//  - "iteration" (information-set PUCT): every simulation re-draws the hidden parts and future
//    chance of the root (resample_hidden(observer, ...)), as ISMCTS does. The tree is open-loop: a
//    node is a sequence of actions, and selection only looks at its children that are legal (for
//    the same mover) in the simulation's own determinization. An action that no earlier
//    determinization offered there becomes a new child (in a block of its own, chained from the
//    node) with prior 1/L, L being the number of legal actions; the priors of the legal children
//    are renormalised to sum to 1 in the PUCT term. A node keeps the evaluation of the first
//    determinization that reached it. A node's kind (decision, chance or end) is taken from the
//    simulation's own state, so a game that ends in one future and not in another is handled.
//    The root's children are the searcher's own actions, which no determinization changes.
// Either way the evaluator only ever sees observations of the seat to move in a determinized
// state, never the real hidden information; explicit chance nodes are tree nodes whose outcomes
// are sampled with their probabilities. Values are max^n: each node keeps the sum of the
// rewards of the seat that moved into it, on the [0, 1] win-share scale of tree_common.hpp.
//
// The root's own evaluation is not a simulation: after a search of n simulations the root's
// children hold exactly n visits. Options:
//  - PUCT selection: Q + c_puct * P * sqrt(N_parent) / (1 + N_child); an unvisited child's Q is the
//    evaluator's value of the parent for the seat to move there.
//  - root noise: Dirichlet(alpha) mixed into the root priors with weight `fraction`.
//  - Gumbel root (Danihelka et al. 2022, "Policy improvement by planning with Gumbel"): the root
//    considers the top-m actions by Gumbel noise + logits and splits the simulations between them by
//    sequential halving on g + logits + sigma(q); the policy target is softmax(logits +
//    sigma(completed q)). Interior nodes use PUCT.
//  - leaf rollouts (rollout_mix > 0): each leaf's value mixed with MCTS-style rollouts from it
//    (PuctConfig below).
// Everything is deterministic for a seed and a deterministic evaluator; batch_size changes the
// result (virtual loss changes which leaves are expanded together) except with batch_size = 1,
// which is plain sequential PUCT.
//
// The parts, by concern (this header includes them all; include this one):
//   puct_config.hpp     PuctConfig: the options, their ranges and checks
//   puct_tree.hpp       EvalBuffer, PuctNode, PuctResult and PuctSearch: simulations, selection, backup
//   puct_leaves.hpp     PuctSearch's leaf evaluations: requests, rollouts, heuristic priors, deliver()
//   puct_root.hpp       PuctSearch's root: Dirichlet noise, the Gumbel root, result()
//   puct_worlds.hpp     PuctWorlds (the determinized-tree ensemble of PuctConfig::worlds) and run_puct
//   puct_self_play.hpp  puct_self_play: batched self-play with PUCT bots
#pragma once

#include "search/puct_config.hpp"
#include "search/puct_leaves.hpp"
#include "search/puct_root.hpp"
#include "search/puct_self_play.hpp"
#include "search/puct_tree.hpp"
#include "search/puct_worlds.hpp"
