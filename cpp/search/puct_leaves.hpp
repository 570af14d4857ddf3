// PUCT's leaf values (search/puct.hpp): PuctSearch's members that ask for a leaf's evaluation
// (its children, the heuristic prior bias, the rollouts of rollout_mix) and take the evaluations
// back (the priors' softmax, the check of every evaluation, the backup of the leaves' values).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/errors.hpp"
#include "search/playout.hpp"
#include "search/puct_tree.hpp"
#include "search/tree_common.hpp"

namespace tilecraft {

template <class S>
inline void PuctSearch<S>::deliver(const EvalBuffer& buf) {
  const int np = buf.players;
  for (const Leaf& lf : leaves_) {
    PuctNode& n = nodes_[lf.node];
    const float* lg = buf.logits.data() + static_cast<size_t>(lf.row) * buf.num_actions;
    const float* v = buf.values.data() + static_cast<size_t>(lf.row) * np;
    check_evaluation(lg, v, np, n);
    // Until now a pending node's children hold their heuristic bias (0 without prior_heuristic) as prior.
    // In double: a finite float logit over a temperature of 0.01 (or a bias) may leave float's range,
    // never double's, so the softmax below is finite for every finite input and sums to at least 1.
    const double inv_t = 1.0 / cfg_.prior_temperature;  // exactly 1 by default
    double best = -INFINITY;
    for (int i = 0; i < n.num_children; ++i) {
      const PuctNode& c = nodes_[n.first_child + i];
      best = std::max(best, lg[c.action] * inv_t + c.prior);
    }
    double total = 0;
    for (int i = 0; i < n.num_children; ++i) total += std::exp(lg[nodes_[n.first_child + i].action] * inv_t +
                                                               nodes_[n.first_child + i].prior - best);
    for (int i = 0; i < n.num_children; ++i) {
      PuctNode& c = nodes_[n.first_child + i];
      c.prior = static_cast<float>(std::exp(lg[c.action] * inv_t + c.prior - best) / total);
    }
    n.net = mixed(lf, v, lf.seat);
    n.status = kExpanded;
    n.leaf = -1;
    if (lf.node == 0) root_expanded(v, np);
  }
  double r[kMaxSearchPlayers];
  for (const Leaf& lf : leaves_) {
    if (lf.length == 0) continue;  // the root's evaluation: not a simulation
    const float* v = buf.values.data() + static_cast<size_t>(lf.row) * np;
    for (int p = 0; p < np; ++p) r[p] = mixed(lf, v, p);
    backup(paths_.data() + lf.path, lf.length, r);
  }
  evaluations_ += static_cast<int64_t>(leaves_.size());
  leaves_.clear();
  paths_.clear();
}

template <class S>
inline void PuctSearch<S>::check_evaluation(const float* lg, const float* v, int np, const PuctNode& n) const {
  for (int p = 0; p < np; ++p)
    require<EvaluatorFailure>(v[p] >= 0.0f && v[p] <= 1.0f, S::kName, ": the evaluator returned ",
                              std::isfinite(v[p]) ? "the value " : "a non-finite value (", v[p],
                              std::isfinite(v[p]) ? "" : ")", " for seat ", p,
                              "; values must be win shares in [0, 1] (a network whose sums overflow float32 gives "
                              "inf or nan)");
  for (int i = 0; i < n.num_children; ++i) {
    const int32_t a = nodes_[n.first_child + i].action;
    require<EvaluatorFailure>(std::isfinite(lg[a]), S::kName, ": the evaluator returned a non-finite policy logit (",
                              lg[a], ") for legal action ", a, " (a network whose sums overflow float32 gives "
                              "inf or nan)");
  }
}

template <class S>
inline float PuctSearch<S>::mixed(const Leaf& lf, const float* v, int seat) const {
  if (cfg_.rollout_mix <= 0) return v[seat];
  return static_cast<float>((1 - cfg_.rollout_mix) * v[seat] + cfg_.rollout_mix * lf.roll[seat]);
}

template <class S>
inline int32_t PuctSearch<S>::request(EvalBuffer& buf, const S& s, int32_t at) {
  s.legal_actions(legal_);
  const int seat = s.current_player();
  const int32_t first = static_cast<int32_t>(nodes_.size());
  for (int32_t a : legal_) {
    PuctNode c;
    c.action = a;
    c.mover = static_cast<int8_t>(seat);
    nodes_.push_back(c);
  }
  const double bias = seat == observer_ || cfg_.opponent_prior_heuristic < 0 ? cfg_.prior_heuristic
                                                                              : cfg_.opponent_prior_heuristic;
  if (bias > 0) heuristic_bias(s, seat, first, bias);
  PuctNode& n = nodes_[at];
  n.first_child = first;
  n.num_children = static_cast<int16_t>(legal_.size);
  n.status = kPending;
  n.leaf = static_cast<int32_t>(leaves_.size());
  Leaf lf{at, buf.add(s, seat, legal_), seat, 0, 0, {}};
  if (cfg_.rollout_mix > 0) {
    double sum[kMaxSearchPlayers] = {}, r[kMaxSearchPlayers];
    for (int k = 0; k < cfg_.rollouts; ++k) {
      S t = s;
      t.resample_hidden(observer_, rng_.next());  // a future (and hidden parts) of its own, as ISMCTS draws
      rollout(t, rng_, rollout_cfg_, r);
      for (int p = 0; p < s.num_players(); ++p) sum[p] += r[p];
    }
    for (int p = 0; p < s.num_players(); ++p) lf.roll[p] = static_cast<float>(sum[p] / cfg_.rollouts);
  }
  leaves_.push_back(lf);
  return n.leaf;
}

template <class S>
inline void PuctSearch<S>::heuristic_bias(const S& s, int seat, int32_t first, double strength) {
  double best = -1e300;
  for (int i = 0; i < legal_.size; ++i) {
    S next = s;
    next.apply(legal_.items[i]);
    const float h = static_cast<float>(next.heuristic(seat));
    nodes_[first + i].prior = h;
    best = std::max(best, static_cast<double>(h));
  }
  const double k = strength / cfg_.eval_scale;
  for (int i = 0; i < legal_.size; ++i) {
    PuctNode& c = nodes_[first + i];
    c.prior = static_cast<float>(k * (c.prior - best));
  }
}

}  // namespace tilecraft
