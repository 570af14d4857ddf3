// PUCT's root (search/puct.hpp): PuctSearch's members for the root once it is evaluated (Dirichlet
// noise, the Gumbel root's sequential halving) and the result of a search (the improved policy of
// the Gumbel root, or the visits and the move picked by them).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "search/puct_tree.hpp"

namespace tilecraft {

template <class S>
inline PuctResult PuctSearch<S>::result() {
  PuctResult out;
  const PuctNode& root = nodes_[0];
  out.simulations = completed_;
  out.nodes = static_cast<int64_t>(nodes_.size());
  out.evaluations = evaluations_;
  out.root_value = root.net;
  const int n = root.num_children;
  int64_t total = 0;
  for (int i = 0; i < n; ++i) {
    const PuctNode& c = nodes_[root.first_child + i];
    out.actions.push_back(c.action);
    out.visits.push_back(c.visits);
    out.values.push_back(c.visits ? c.value / c.visits : 0.0);
    out.prior.push_back(c.prior);
    total += c.visits;
  }
  if (cfg_.gumbel) {
    std::vector<double> q = completed_q();
    const double sig = sigma_scale();
    double best = -1e300;
    out.policy.resize(n);
    for (int i = 0; i < n; ++i) best = std::max(best, out.policy[i] = logp_[i] + sig * q[i]);
    double z = 0;
    for (int i = 0; i < n; ++i) z += (out.policy[i] = std::exp(out.policy[i] - best));
    for (int i = 0; i < n; ++i) out.policy[i] /= z;
    int pick = remaining_.empty() ? 0 : remaining_[0];
    double pick_score = -1e300;
    for (int i : remaining_) {
      const double sc = gumbel_[i] + logp_[i] + sig * q[i];
      if (sc > pick_score) {
        pick_score = sc;
        pick = i;
      }
    }
    out.action = out.actions[pick];
    return out;
  }
  for (int i = 0; i < n; ++i) out.policy.push_back(total ? static_cast<double>(out.visits[i]) / total : 1.0 / n);
  const int pick = pick_by_visits(out.visits, out.values, cfg_, history_len_, rng_);
  out.action = out.actions[pick];
  return out;
}

template <class S>
inline void PuctSearch<S>::root_expanded(const float*, int) {
  PuctNode& root = nodes_[0];
  const int n = root.num_children;
  if (cfg_.gumbel) {
    logp_.assign(n, 0.0);
    gumbel_.assign(n, 0.0);
    for (int i = 0; i < n; ++i) {
      logp_[i] = std::log(std::max(1e-30, static_cast<double>(nodes_[root.first_child + i].prior)));
      double u = rng_.uniform();
      while (u <= 0.0) u = rng_.uniform();
      gumbel_[i] = -std::log(-std::log(u));
    }
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return gumbel_[a] + logp_[a] > gumbel_[b] + logp_[b]; });
    considered_ = std::min(n, cfg_.gumbel_actions);
    remaining_.assign(order.begin(), order.begin() + considered_);
    phases_ = 0;
    while ((1 << phases_) < considered_) ++phases_;
    phases_ = std::max(phases_, 1);
    build_phase();
    return;
  }
  if (cfg_.noise_fraction > 0 && n > 0) {
    std::vector<double> noise(n);
    double z = 0;
    for (int i = 0; i < n; ++i) z += (noise[i] = sample_gamma(cfg_.noise_alpha));
    for (int i = 0; i < n; ++i) {
      PuctNode& c = nodes_[root.first_child + i];
      const double eta = z > 0 ? noise[i] / z : 1.0 / n;
      c.prior = static_cast<float>((1 - cfg_.noise_fraction) * c.prior + cfg_.noise_fraction * eta);
    }
  }
}

template <class S>
inline double PuctSearch<S>::sample_gamma(double alpha) {
  if (alpha < 1.0) {
    double u = rng_.uniform();
    while (u <= 0.0) u = rng_.uniform();
    return sample_gamma(alpha + 1.0) * std::pow(u, 1.0 / alpha);
  }
  const double d = alpha - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      double u1 = rng_.uniform();
      while (u1 <= 0.0) u1 = rng_.uniform();
      const double u2 = rng_.uniform();
      x = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = rng_.uniform();
    if (u < 1 - 0.0331 * x * x * x * x || std::log(std::max(u, 1e-300)) < 0.5 * x * x + d * (1 - v + std::log(v)))
      return d * v;
  }
}

template <class S>
inline double PuctSearch<S>::sigma_scale() const {
  const PuctNode& root = nodes_[0];
  int32_t max_n = 0;
  for (int i = 0; i < root.num_children; ++i) max_n = std::max(max_n, nodes_[root.first_child + i].visits);
  return (cfg_.gumbel_c_visit + max_n) * cfg_.gumbel_c_scale;
}

template <class S>
inline std::vector<double> PuctSearch<S>::completed_q() const {
  const PuctNode& root = nodes_[0];
  const int n = root.num_children;
  std::vector<double> q(n, 0.0);
  double sum_n = 0, sum_p = 0, sum_pq = 0;
  for (int i = 0; i < n; ++i) {
    const PuctNode& c = nodes_[root.first_child + i];
    if (c.visits > 0) {
      q[i] = static_cast<double>(c.value) / c.visits;
      sum_n += c.visits;
      sum_p += c.prior;
      sum_pq += c.prior * q[i];
    }
  }
  const double mixed = sum_p > 0 ? (root.net + sum_n * sum_pq / sum_p) / (1 + sum_n) : root.net;
  for (int i = 0; i < n; ++i)
    if (nodes_[root.first_child + i].visits == 0) q[i] = mixed;
  return q;
}

template <class S>
inline void PuctSearch<S>::build_phase() {
  schedule_.clear();
  schedule_pos_ = 0;
  const int left = cfg_.simulations - static_cast<int>(started_);
  if (left <= 0) return;
  const int k = static_cast<int>(remaining_.size());
  if (k == 1) {
    schedule_.assign(left, remaining_[0]);
    return;
  }
  const int per = std::max(1, cfg_.simulations / (phases_ * k));
  for (int round = 0; round < per; ++round)
    for (int i : remaining_) schedule_.push_back(i);
  if (static_cast<int>(schedule_.size()) > left) schedule_.resize(left);
}

template <class S>
inline int32_t PuctSearch<S>::gumbel_next() {
  if (schedule_pos_ < schedule_.size()) return schedule_[schedule_pos_++];
  if (in_flight() > 0) return kWait;
  // Halve: keep the better half by g + logits + sigma(q).
  const std::vector<double> q = completed_q();
  const double sig = sigma_scale();
  std::stable_sort(remaining_.begin(), remaining_.end(), [&](int a, int b) {
    return gumbel_[a] + logp_[a] + sig * q[a] > gumbel_[b] + logp_[b] + sig * q[b];
  });
  if (remaining_.size() > 1) remaining_.resize((remaining_.size() + 1) / 2);
  build_phase();
  if (schedule_pos_ < schedule_.size()) return schedule_[schedule_pos_++];
  return kWait;  // nothing left to start
}

}  // namespace tilecraft
