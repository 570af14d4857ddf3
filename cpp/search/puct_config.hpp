// PUCT's options (search/puct.hpp): PuctConfig, each option declared once in visit(), and its checks.
#pragma once
#include <cstdint>
#include <limits>

#include "core/errors.hpp"
#include "search/mcts.hpp"
#include "search/options.hpp"
#include "search/tree_common.hpp"

namespace tilecraft {

// The most simulations a search may be asked for (and the cap of a search given only a time budget).
constexpr int32_t kMaxPuctSimulations = 10000000;

// The options of PUCT, each declared once in visit() (search/options.hpp); the comments say more.
struct PuctConfig {
  int32_t simulations = 200;  // the root's evaluation comes on top
  // Wall-clock budget per search in seconds (0: none): the search stops after the first round of
  // leaves that ends past it (every tree having finished a simulation), or at `simulations`,
  // whichever comes first. Not deterministic: a search by simulations alone is.
  double seconds = 0.0;
  double c_puct = 1.25;
  double noise_alpha = 0.3;
  double noise_fraction = 0.0;
  double temperature = 0.0;
  int32_t temperature_moves = -1;
  int32_t batch_size = 8;
  uint64_t seed = 0;
  bool gumbel = false;
  int32_t gumbel_actions = 16;
  // sigma(q) = (c_visit + max N) * c_scale * q stays finite within their ranges
  double gumbel_c_visit = 50.0;
  double gumbel_c_scale = 0.1;
  // Leaf values mixed with a rollout (AlphaGo's lambda): (1 - rollout_mix) * the evaluator's value
  // + rollout_mix * the rewards of one rollout from the leaf, played as mcts.hpp's MCTS plays them
  // (rollout policy, rollout_depth player actions, then the heuristic softmax at eval_scale); with
  // `rollouts` > 1 the mean of that many. Each rollout starts from a copy of the leaf whose hidden
  // parts and future chance were re-drawn for the searcher (resample_hidden, from the search's rng),
  // so that rollouts average over what the searcher cannot know, as ISMCTS's iterations do, instead
  // of all replaying the one future of the search's determinization.
  // 0 (the default) runs no rollout and leaves the search exactly as without this option.
  double rollout_mix = 0.0;
  int32_t rollouts = 1;
  Rollout rollout = Rollout::kGreedy;
  int32_t rollout_depth = 4;
  double eval_scale = 10.0;
  Determinize determinize = Determinize::kPerSearch;  // see the top of this file
  // Progressive bias from the game's one-ply heuristic: each new node's prior logits get
  // prior_heuristic * (h(a) - max h) / eval_scale, h(a) being heuristic(mover) after action a on the
  // simulation's own state (what the greedy bot maximises). 0 (the default) computes nothing and
  // leaves the search exactly as without this option.
  double prior_heuristic = 0.0;
  // The prior_heuristic of the nodes where a seat other than the searcher's moves: an opponent model.
  // Large values make the tree expect the others to play what GreedyBot plays (most of their visits go
  // to their greedy moves), the searcher's own nodes keeping prior_heuristic. < 0 (the default): the
  // same as prior_heuristic everywhere, exactly as without this option.
  double opponent_prior_heuristic = -1.0;
  // The evaluator's logits are divided by this before the softmax (Leela Chess Zero's policy softmax
  // temperature): > 1 flattens priors that are too sure of themselves. 1 (the default) changes nothing.
  double prior_temperature = 1.0;
  // Determinized trees per search (a determinized-PUCT ensemble, as MCTS's root-parallel trees):
  // worlds > 1 splits the simulations between that many trees, each on its own draw of the hidden
  // parts and the future, evaluated together (each tree gathers up to batch_size leaves per
  // evaluator call), and sums their root visits (PuctWorlds below). 1 (the default) is one tree,
  // exactly as without this option.
  int32_t worlds = 1;

  template <class V>
  void visit(V& v) {
    v.integer("simulations", simulations, 1, kMaxPuctSimulations,
              "simulations per search (a cap when seconds > 0); the root's evaluation comes on top");
    v.number("seconds", seconds, 0, kMaxSearchSeconds,
             "wall-clock budget per search in seconds; 0: none (not deterministic: simulations alone are)");
    v.number("c_puct", c_puct, 0, 1e6, "exploration constant c in Q + c * P * sqrt(N_parent) / (1 + N_child)");
    v.number("noise_alpha", noise_alpha, 0, 1e6, "alpha of the root's Dirichlet noise (used when noise_fraction > 0)",
             true);
    v.number("noise_fraction", noise_fraction, 0, 1, "weight of the Dirichlet noise mixed into the root priors");
    v.number("temperature", temperature, 0, kNoBound,
             "0: play the most visited child; > 0: sample with visits^(1/temperature)");
    v.integer("temperature_moves", temperature_moves, -1, std::numeric_limits<int32_t>::max(),
              "temperature only while the game has fewer actions than this; -1: always");
    v.integer("batch_size", batch_size, 1, 65536, "leaves per evaluator call (per game in batched self-play)");
    v.seed("seed", seed, "seed of the search's determinizations, noise and sampling");
    v.flag("gumbel", gumbel, "Gumbel root with sequential halving (Danihelka et al. 2022) instead of PUCT there");
    v.integer("gumbel_actions", gumbel_actions, 1, 65536, "m: the actions the Gumbel root considers");
    v.number("gumbel_c_visit", gumbel_c_visit, 0, 1e6, "c_visit of the Gumbel root's sigma(q)");
    v.number("gumbel_c_scale", gumbel_c_scale, 0, 1e6, "c_scale of the Gumbel root's sigma(q)");
    v.number("rollout_mix", rollout_mix, 0, 1,
             "weight of rollouts in each leaf's value (AlphaGo's lambda); 0: the evaluator's value alone");
    v.integer("rollouts", rollouts, 1, 1024, "rollouts per leaf, their rewards averaged (when rollout_mix > 0)");
    v.choice("rollout", rollout, kRolloutWords, "rollout policy: uniformly random moves, or the one-ply greedy move");
    v.integer("rollout_depth", rollout_depth, -1, kMaxRolloutDepth,
              "player actions per rollout before the heuristic decides; -1: to the end of the game");
    v.number("eval_scale", eval_scale, kMinEvalScale, kMaxEvalScale,
             "temperature of the heuristic softmax (a rollout's depth cap, prior_heuristic)");
    v.choice("determinize", determinize, kDeterminizeWords,
             "hidden parts and future re-drawn every simulation (open-loop tree), or once per search");
    v.number("prior_heuristic", prior_heuristic, 0, 1e6,
             "weight of the one-ply heuristic added to new nodes' prior logits (progressive bias); 0: none");
    v.number("opponent_prior_heuristic", opponent_prior_heuristic, -kNoBound, 1e6,
             "prior_heuristic where another seat moves (an opponent model); < 0: prior_heuristic's");
    v.number("prior_temperature", prior_temperature, 0.01, 100,
             "the evaluator's logits are divided by this before the softmax; > 1 flattens the priors");
    v.integer("worlds", worlds, 1, 256, "determinized trees per search, sharing the simulations; root visits summed");
  }

  void validate(const char* who = "puct") const {
    check_ranges(*this, who);
    require<std::invalid_argument>(seconds == 0 || !gumbel, who,
                                   ": gumbel plans its simulations ahead (sequential halving): give it simulations, "
                                   "not a time budget (seconds)");
    require<std::invalid_argument>(worlds <= simulations, who, ": worlds (", worlds,
                                   ") must be at most simulations (", simulations, "): every tree needs one");
    require<std::invalid_argument>(worlds == 1 || !gumbel, who,
                                   ": gumbel needs worlds=1 (its sequential halving runs on one tree)");
  }
};

}  // namespace tilecraft
