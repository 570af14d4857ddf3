// What the game-generic tree searches share (mcts.hpp's MCTS/ISMCTS and puct.hpp's PUCT): the
// reward scale, the preconditions of a search, and the determinized root a search starts from.
//
// Rewards are each seat's share of the win at the end of a game (1/k to each of k co-winners), in
// [0, 1]; a search that stops early uses a softmax of the seats' heuristic values (MCTS) or an
// evaluator's values (PUCT) on the same scale. Nodes keep the sum of the rewards of the seat that
// moved into them (max^n), so any number of players works.
//
// Search never peeks: the root of every search is a copy of the state whose hidden parts and future
// chance were re-drawn with resample_hidden(observer, seed) from the searcher's own seed.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/bitboard.hpp"
#include "core/errors.hpp"
#include "core/game.hpp"
#include "core/rng.hpp"

namespace tilecraft {

constexpr int kMaxSearchPlayers = 8;

// Each seat's share of the win of a finished game.
template <class S>
void terminal_rewards(const S& s, double* r) {
  const int n = s.num_players();
  const uint32_t w = s.winners();
  const int k = popcount(w);
  for (int p = 0; p < n; ++p) r[p] = k && (w >> p & 1u) ? 1.0 / k : 0.0;
}

// The range of a heuristic softmax's temperature (MCTS's and PUCT's eval_scale): below it the
// heuristic's differences divided by the scale leave double's range (1 / 5e-324 is infinite) and the
// softmax is NaN; above it every position looks drawn. The searches' options use these ranges in
// their visit() (search/options.hpp).
constexpr double kMinEvalScale = 1e-3, kMaxEvalScale = 1e6;

// A search's wall-clock budget per move in seconds: 0 for none, else up to an hour (a budget past it
// is a mistake, never a plan).
constexpr double kMaxSearchSeconds = 3600.0;

// The range of a rollout's depth in player actions (-1: to the end of the game).
constexpr int32_t kMaxRolloutDepth = 1000000;

// A softmax of the seats' heuristic values with temperature `scale`. A one-seat game (solo against
// an automa, whose heuristic is the seat's expected margin over the automa) has the automa as the
// other side at 0: the logistic of the value, so that the search still tells good from bad.
template <class S>
void heuristic_rewards(const S& s, double scale, double* r) {
  const int n = s.num_players();
  if (n == 1) {
    r[0] = 1.0 / (1.0 + std::exp(-s.heuristic(0) / scale));
    return;
  }
  double best = -1e300;
  for (int p = 0; p < n; ++p) {
    r[p] = s.heuristic(p) / scale;
    best = std::max(best, r[p]);
  }
  double total = 0;
  for (int p = 0; p < n; ++p) total += (r[p] = std::exp(r[p] - best));
  for (int p = 0; p < n; ++p) r[p] /= total;
}

// The checks every search makes on the position it is asked about (`who` names the searcher in
// the error about the player count).
template <class S>
void check_searchable(const S& state, const char* who) {
  require<IllegalAction>(!state.is_terminal(), S::kName, ": cannot search a finished game");
  require<IllegalAction>(!state.is_chance_node(), S::kName,
                         ": cannot search at a chance node (resolve it with one of chance_outcomes())");
  require<std::invalid_argument>(state.num_players() <= kMaxSearchPlayers, who, ": at most ", kMaxSearchPlayers,
                                 " players, got ", state.num_players());
}

// A copy of `state` re-determinized for `observer` from the searcher's rng: what a search starts from.
template <class S>
S determinized_root(const S& state, int observer, Rng& rng) {
  S root = state;
  root.resample_hidden(observer, rng.next());
  return root;
}

}  // namespace tilecraft
