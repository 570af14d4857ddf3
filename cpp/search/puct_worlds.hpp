// PUCT's multi-world ensemble (search/puct.hpp): PuctWorlds, cfg.worlds determinized trees behind
// PuctSearch's interface, and run_puct, one search to the end with one evaluator.
#pragma once
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "search/puct_leaves.hpp"
#include "search/puct_root.hpp"
#include "search/puct_tree.hpp"

namespace tilecraft {

// A search of cfg.worlds determinized trees (PuctConfig::worlds) with PuctSearch's interface: the
// simulations are split between the trees (the first ones take the remainder), tree k is seeded
// with mix_seed(seed, kWorldStream + k) (tree 0 with `seed` itself, so one world is exactly one
// PuctSearch), and every tree gathers up to `quota` leaves per collect() into the same buffer. The
// result sums the trees' root visits, averages their values weighted by visits and their priors,
// and picks as one tree does (pick_by_visits), sampling from a generator of its own.
template <class S>
class PuctWorlds {
 public:
  static constexpr uint64_t kWorldStream = 0x776f726c64ULL;  // "world"

  void start(const S& state, size_t history_len, const PuctConfig& cfg, uint64_t seed) {
    cfg_ = cfg;
    history_len_ = history_len;
    const int k = cfg.worlds;
    if (static_cast<int>(trees_.size()) < k) trees_.resize(k);
    used_ = k;
    for (int i = 0; i < k; ++i) {
      PuctConfig c = cfg;
      c.worlds = 1;
      c.simulations = cfg.simulations / k + (i < cfg.simulations % k ? 1 : 0);
      trees_[i].start(state, history_len, c, i == 0 ? seed : mix_seed(seed, kWorldStream + i));
    }
    rng_ = Rng(mix_seed(mix_seed(seed, kWorldStream), history_len));
  }

  bool done() const {
    for (int i = 0; i < used_; ++i)
      if (!trees_[i].done()) return false;
    return true;
  }

  // Every tree has a move to report: its root evaluated and one simulation finished (or it is done).
  bool has_result() const {
    for (int i = 0; i < used_; ++i)
      if (!trees_[i].done() && trees_[i].completed() < 1) return false;
    return true;
  }

  // Up to `quota` new leaves from every unfinished tree; returns how many in all.
  int collect(EvalBuffer& buf, int quota) {
    int added = 0;
    for (int i = 0; i < used_; ++i)
      if (!trees_[i].done()) added += trees_[i].collect(buf, quota);
    return added;
  }

  void deliver(const EvalBuffer& buf) {
    for (int i = 0; i < used_; ++i) trees_[i].deliver(buf);
  }

  PuctResult result() {
    if (used_ == 1) return trees_[0].result();
    PuctResult out = trees_[0].result();
    std::vector<double> value_sum(out.actions.size());
    for (size_t j = 0; j < out.actions.size(); ++j) value_sum[j] = out.values[j] * out.visits[j];
    for (int i = 1; i < used_; ++i) {
      const PuctResult r = trees_[i].result();
      // the root's children are the searcher's own legal actions, the same in every draw
      require<std::logic_error>(r.actions == out.actions, "puct: the worlds' root actions differ");
      for (size_t j = 0; j < out.actions.size(); ++j) {
        out.visits[j] += r.visits[j];
        value_sum[j] += r.values[j] * r.visits[j];
        out.prior[j] += r.prior[j];
      }
      out.root_value += r.root_value;
      out.simulations += r.simulations;
      out.nodes += r.nodes;
      out.evaluations += r.evaluations;
    }
    int64_t total = 0;
    for (int64_t v : out.visits) total += v;
    const size_t n = out.actions.size();
    for (size_t j = 0; j < n; ++j) {
      out.values[j] = out.visits[j] ? value_sum[j] / out.visits[j] : 0.0;
      out.prior[j] /= used_;
      out.policy[j] = total ? static_cast<double>(out.visits[j]) / total : 1.0 / n;
    }
    out.root_value /= used_;
    out.action = out.actions[pick_by_visits(out.visits, out.values, cfg_, history_len_, rng_)];
    return out;
  }

 private:
  PuctConfig cfg_;
  size_t history_len_ = 0;
  std::vector<PuctSearch<S>> trees_;  // kept between searches (their node storage is reused)
  int used_ = 0;
  Rng rng_;
};

// One search to the end with one evaluator: eval(EvalBuffer&) fills the buffer's outputs.
template <class S, class Eval>
PuctResult run_puct(PuctWorlds<S>& search, EvalBuffer& buf, const S& state, size_t history_len, const PuctConfig& cfg,
                    Eval&& eval) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  search.start(state, history_len, cfg, cfg.seed);
  while (!search.done()) {
    buf.clear();
    search.collect(buf, cfg.batch_size);
    if (buf.rows) {
      buf.size_outputs();
      eval(buf);
    }
    search.deliver(buf);
    if (cfg.seconds > 0 && search.has_result() &&
        std::chrono::duration<double>(Clock::now() - start).count() >= cfg.seconds)
      break;
  }
  return search.result();
}

}  // namespace tilecraft
