// Game-generic batch runners: random playouts, and the thread pool helper every batch entry
// point uses. Game i of a batch is seeded from mix_seed(seed, i), so results do not depend on the
// number of threads.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/action_list.hpp"
#include "core/contract.hpp"
#include "core/interrupt.hpp"
#include "core/rng.hpp"
#include "core/threads.hpp"

namespace tilecraft {

// Picks a chance outcome with its probability.
template <class S>
int32_t sample_chance(const S& s, Rng& rng) {
  ChanceList<S::kMaxChanceOutcomes> outcomes;
  s.chance_outcomes(outcomes);
  double r = rng.uniform();
  for (int i = 0; i < outcomes.size - 1; ++i) {
    r -= outcomes.items[i].probability;
    if (r < 0) return outcomes.items[i].outcome;
  }
  return outcomes.items[outcomes.size - 1].outcome;
}

// Does S offer sample_action(Rng&), a uniformly random legal action drawn without building the list?
template <class S, class = void>
struct has_sample_action : std::false_type {};
template <class S>
struct has_sample_action<S, std::void_t<decltype(std::declval<const S&>().sample_action(std::declval<Rng&>()))>>
    : std::true_type {};

// A uniformly random legal action (player node) or a chance outcome with its probability.
template <class S>
int32_t random_action(const S& s, Rng& rng, ActionList<S::kMaxActions>& scratch) {
  if (s.is_chance_node()) return sample_chance(s, rng);
  if constexpr (has_sample_action<S>::value) {
    return s.sample_action(rng);
  } else {
    s.legal_actions(scratch);
    return scratch.items[rng.below(static_cast<uint32_t>(scratch.size))];
  }
}

// Plays uniformly random legal actions (and chance outcomes with their probabilities) to the end.
// Returns the number of actions applied.
template <class S>
int random_playout(S& s, Rng& rng, int max_actions = 1 << 30) {
  ActionList<S::kMaxActions> actions;
  int n = 0;
  while (!s.is_terminal() && n < max_actions) {
    s.apply(random_action(s, rng, actions));
    ++n;
  }
  return n;
}

// Runs fn(i) for i in [0, n) on `threads` threads (core/threads.hpp; work is handed out in small
// chunks). Stops early, leaving later items undone, when the caller's StopFlag is raised
// (core/interrupt.hpp) or an item throws (the exception is rethrown here once every thread has
// ended); every finished item is counted on that flag.
template <class F>
void parallel_for(int64_t n, int threads, F&& fn) {
  threads = std::max(1, threads);
  if (threads == 1 || n < 2) {
    for (int64_t i = 0; i < n && !stop_requested(); ++i) {
      fn(i);
      count_done();
    }
    return;
  }
  std::atomic<int64_t> next{0};
  const int64_t chunk = std::max<int64_t>(1, std::min<int64_t>(64, n / (threads * 8)));
  run_on_threads(threads, [&](int t) {
    for (;;) {
      const int64_t begin = next.fetch_add(chunk);
      if (begin >= n) return;
      const int64_t end = std::min(n, begin + chunk);
      for (int64_t i = begin; i < end; ++i) {
        if (stop_requested()) return;
        if (t != 0) test_failure_point();
        fn(i);
        count_done();
      }
    }
  });
}

struct PlayoutResults {
  int players = 0;
  std::vector<double> scores;    // n * players
  std::vector<double> returns;   // n * players
  std::vector<uint8_t> winners;  // n * players, 1 for each (co-)winner
  std::vector<int32_t> length;   // actions per game, chance outcomes included
};

// Where random_playouts_into writes game i: scores, returns and winners at [i * players, (i + 1) *
// players), length at [i]. Every entry of game i is written, so the buffers need no zero-filling
// first (the binding hands numpy arrays straight from the allocator: nothing touches their pages
// before the games do, so a large request is interruptible from its start).
struct PlayoutOut {
  double* scores;
  double* returns;
  uint8_t* winners;
  int32_t* length;
};

template <class S>
int num_players_of(const typename S::Config& config) {
  return S(config, 0).num_players();
}

template <class S>
void random_playouts_into(const typename S::Config& config, int64_t n, uint64_t seed, int threads,
                          const PlayoutOut& out) {
  static_assert(check_contract<S>());  // cpp/core/contract.hpp: the State contract, checked
  const int p = num_players_of<S>(config);
  parallel_for(n, threads, [&](int64_t i) {
    S s(config, mix_seed(seed, 2 * static_cast<uint64_t>(i)));
    Rng rng(mix_seed(seed, 2 * static_cast<uint64_t>(i) + 1));
    out.length[i] = random_playout(s, rng);
    s.scores(&out.scores[i * p]);
    s.returns(&out.returns[i * p]);
    const uint32_t w = s.winners();
    for (int k = 0; k < p; ++k) out.winners[i * p + k] = (w >> k) & 1u;
  });
}

template <class S>
PlayoutResults random_playouts(const typename S::Config& config, int64_t n, uint64_t seed, int threads) {
  PlayoutResults r;
  const int p = r.players = num_players_of<S>(config);
  r.scores.resize(n * p);
  r.returns.resize(n * p);
  r.winners.resize(n * p);
  r.length.resize(n);
  random_playouts_into<S>(config, n, seed, threads,
                          PlayoutOut{r.scores.data(), r.returns.data(), r.winners.data(), r.length.data()});
  return r;
}

// The greedy one-ply choice on `state` as it is (no re-determinization: a rollout's state already
// is one): the legal action whose successor has the highest heuristic value for the mover, ties
// broken uniformly by rng. At a chance node, an outcome sampled with its probability.
template <class S>
int32_t greedy_pick(const S& state, Rng& rng) {
  if (state.is_chance_node()) return sample_chance(state, rng);
  ActionList<S::kMaxActions> actions;
  state.legal_actions(actions);
  const int me = state.current_player();
  double best = -1e300;
  int32_t choice = actions.size ? actions.items[0] : -1;
  int ties = 0;
  for (int32_t a : actions) {
    S next = state;
    next.apply(a);
    const double v = next.heuristic(me);
    if (v > best) {
      best = v;
      choice = a;
      ties = 1;
    } else if (v == best && rng.below(static_cast<uint32_t>(++ties)) == 0) {
      choice = a;
    }
  }
  return choice;
}

// The greedy bot's choice: greedy_pick on a copy whose hidden parts were re-determinized from
// rng, so the choice never depends on the real future.
template <class S>
int32_t greedy_action(const S& state, Rng& rng) {
  if (state.is_chance_node()) return sample_chance(state, rng);
  S base = state;
  base.resample_hidden(state.current_player(), rng.next());
  return greedy_pick(base, rng);
}

}  // namespace tilecraft
