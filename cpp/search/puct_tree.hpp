// PUCT's tree (search/puct.hpp): the evaluator's buffer, the nodes, a search's result and the
// PuctSearch class: starting a search, collecting simulations, selection (PUCT, open-loop trees
// for determinize="iteration", chance nodes) and the backup. Its leaf evaluations are defined in
// puct_leaves.hpp, its root (noise, Gumbel, the result) in puct_root.hpp.
#pragma once
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "core/action_list.hpp"
#include "core/contract.hpp"
#include "core/errors.hpp"
#include "core/game.hpp"
#include "core/rng.hpp"
#include "search/mcts.hpp"
#include "search/playout.hpp"
#include "search/puct_config.hpp"
#include "search/tree_common.hpp"

namespace tilecraft {

// Leaves waiting for one evaluator call: inputs written by the searches, outputs by the caller.
struct EvalBuffer {
  int obs_size = 0;
  int num_actions = 0;
  int players = 0;
  int rows = 0;
  std::vector<float> obs;       // rows * obs_size
  std::vector<uint8_t> mask;    // rows * num_actions
  std::vector<int32_t> player;  // rows: the seat to move at the leaf (whose observation it is)
  std::vector<float> logits;    // rows * num_actions (filled by the caller)
  std::vector<float> values;    // rows * players: win shares in [0, 1] (filled by the caller)

  void init(int obs_size_, int num_actions_, int players_) {
    obs_size = obs_size_;
    num_actions = num_actions_;
    players = players_;
    rows = 0;
  }
  void clear() { rows = 0; }
  // Appends the observation of `seat` in `s` and the legal mask; returns the row.
  template <class S, int N>
  int32_t add(const S& s, int seat, const ActionList<N>& legal) {
    const int r = rows++;
    if (static_cast<size_t>(rows) * obs_size > obs.size()) {
      const size_t cap = std::max<size_t>(64, 2 * static_cast<size_t>(rows));
      obs.resize(cap * obs_size);
      mask.resize(cap * num_actions);
      player.resize(cap);
    }
    s.observation(seat, obs.data() + static_cast<size_t>(r) * obs_size);
    uint8_t* m = mask.data() + static_cast<size_t>(r) * num_actions;
    std::memset(m, 0, num_actions);
    for (int32_t a : legal) m[a] = 1;
    player[r] = seat;
    return r;
  }
  // Sizes the outputs for `rows` rows (the caller writes them).
  void size_outputs() {
    logits.resize(static_cast<size_t>(rows) * num_actions);
    values.resize(static_cast<size_t>(rows) * players);
  }
};

struct PuctNode {
  int32_t first_child = -1;  // children are contiguous: [first_child, first_child + num_children)
  int32_t action = -1;
  int32_t visits = 0;        // simulations through this node, those in flight included
  int32_t leaf = -1;         // while waiting for its evaluation: its leaf index
  float prior = 0.0f;        // policy prior, or the outcome's probability below a chance node
  float value = 0.0f;        // sum of the mover's rewards over finished simulations
  float net = 0.0f;          // the evaluator's value of this position for the seat to move here
  int32_t more = -1;         // determinize="iteration": a block header (mover kMoreSeat) whose
                             // [first_child, first_child + num_children) are further children
  int16_t num_children = 0;
  int8_t mover = kTerminalSeat;  // seat that played `action`; kChanceSeat for an outcome
  uint8_t status = 0;        // kNew, kPending, kExpanded, kTerminal
};

struct PuctResult {
  int32_t action = -1;
  std::vector<int32_t> actions;  // root children, ascending action id
  std::vector<int64_t> visits;
  std::vector<double> values;    // mean reward of the mover for each child (0 when unvisited)
  std::vector<double> policy;    // visit distribution, or the Gumbel root's improved policy
  std::vector<double> prior;     // the evaluator's prior at the root (noise included)
  double root_value = 0.0;       // the evaluator's value of the root for the seat to move
  int64_t simulations = 0;
  int64_t nodes = 0;
  int64_t evaluations = 0;       // rows this search handed to the evaluator (the root included)
};

// The root child a search plays: the most visited (ties to the higher mean value), or, with a
// temperature in force, one sampled with probability proportional to visits^(1/temperature).
inline int pick_by_visits(const std::vector<int64_t>& visits, const std::vector<double>& values, const PuctConfig& cfg,
                          size_t history_len, Rng& rng) {
  const int n = static_cast<int>(visits.size());
  int64_t total = 0;
  for (int64_t v : visits) total += v;
  const bool hot = cfg.temperature > 0 &&
                   (cfg.temperature_moves < 0 || history_len < static_cast<size_t>(cfg.temperature_moves));
  int pick = 0;
  if (hot && total > 0) {
    std::vector<double> w(n);
    double z = 0;
    const double inv = 1.0 / cfg.temperature;
    const double vmax = static_cast<double>(*std::max_element(visits.begin(), visits.end()));
    for (int i = 0; i < n; ++i) z += (w[i] = visits[i] ? std::pow(visits[i] / vmax, inv) : 0.0);
    double u = rng.uniform() * z;
    pick = n - 1;
    for (int i = 0; i < n; ++i) {
      if (w[i] > 0 && (u -= w[i]) < 0) {
        pick = i;
        break;
      }
    }
    while (visits[pick] == 0) --pick;  // rounding at the end of the scan
  } else {
    for (int i = 1; i < n; ++i)
      if (visits[i] > visits[pick] || (visits[i] == visits[pick] && values[i] > values[pick])) pick = i;
  }
  return pick;
}

template <class S>
class PuctSearch {
 public:
  static_assert(check_contract<S>());  // cpp/core/contract.hpp: the State contract, checked
  static constexpr uint8_t kNew = 0, kPending = 1, kExpanded = 2, kTerminal = 3;
  static constexpr int kWait = -1;

  // A fresh search from `state` (its hidden parts are never read: the root is re-determinized
  // from `seed` and the history length). cfg.seed is ignored in favour of `seed`.
  void start(const S& state, size_t history_len, const PuctConfig& cfg, uint64_t seed) {
    check_searchable(state, "puct");
    cfg_ = cfg;
    rollout_cfg_.rollout = cfg.rollout;
    rollout_cfg_.rollout_depth = cfg.rollout_depth;
    rollout_cfg_.eval_scale = cfg.eval_scale;
    history_len_ = history_len;
    rng_ = Rng(mix_seed(seed, history_len));
    observer_ = state.current_player();
    root_.reset(new S(determinized_root(state, observer_, rng_)));
    nodes_.clear();
    nodes_.push_back(PuctNode{});
    nodes_.reserve(static_cast<size_t>(std::min<int64_t>(int64_t{cfg.simulations} * 24 + 256, 1 << 22)));
    leaves_.clear();
    paths_.clear();
    started_ = completed_ = evaluations_ = 0;
    root_requested_ = false;
    schedule_.clear();
    schedule_pos_ = 0;
  }

  int64_t completed() const { return completed_; }

  static constexpr int64_t kTimedRound = 256;  // simulations per round at most under a time budget

  bool done() const {
    return root_requested_ && nodes_[0].status == kExpanded && completed_ == cfg_.simulations;
  }
  int64_t in_flight() const { return started_ - completed_; }
  const PuctConfig& config() const { return cfg_; }

  // Runs simulations until `quota` new leaves wait in `buf`, every simulation has started, or the
  // search must wait for the leaves already in `buf` (the next simulation would reach one of
  // them). Returns the number of new leaves.
  int collect(EvalBuffer& buf, int quota) {
    if (!root_requested_) {
      root_requested_ = true;
      S& s = scratch_ = *root_;
      request(buf, s, 0);  // the root's evaluation: not a simulation
      return 1;
    }
    if (nodes_[0].status != kExpanded) return 0;
    int added = 0;
    // Under a time budget a round also ends after kTimedRound simulations, so that the clock is read
    // often even where simulations end at the game's end and leave no leaf (a late position); by
    // simulations alone a round runs until its quota of leaves, as always.
    const int64_t round_end = cfg_.seconds > 0 ? started_ + kTimedRound : INT64_MAX;
    while (added < quota && started_ < cfg_.simulations && started_ < round_end) {
      int32_t forced = -1;
      if (cfg_.gumbel) {
        forced = gumbel_next();
        if (forced == kWait) break;
      }
      ++started_;
      const int out = simulate(buf, forced);
      if (out == kCollided) {  // undone: it starts again once the waiting leaves have their values
        assert(!leaves_.empty());  // a pending leaf is always one of this round's
        --started_;
        if (cfg_.gumbel) --schedule_pos_;
        break;
      }
      added += out;
    }
    return added;
  }

  // Expands the leaves this search put in `buf` (whose outputs the caller has filled) and backs
  // their values up.
  void deliver(const EvalBuffer& buf);  // puct_leaves.hpp

  // An evaluation the search can use: a finite logit for every legal action of node `n` and a win
  // share in [0, 1] for every seat (the Python evaluators are checked before this with messages of
  // their own; this guards every evaluator, the C++ network included). EvaluatorFailure otherwise.
  void check_evaluation(const float* lg, const float* v, int np, const PuctNode& n) const;  // puct_leaves.hpp

  // The outcome of a finished search (done()).
  PuctResult result();  // puct_root.hpp

 private:
  // A node waiting for its evaluation (row `row` of the buffer), and the path of the simulation
  // that reached it (a collision is taken back, so each leaf has exactly one; the root's is empty).
  struct Leaf {
    int32_t node;
    int32_t row;
    int32_t seat;
    int32_t path;    // offset into paths_
    int32_t length;  // 0: the root's evaluation
    float roll[kMaxSearchPlayers];  // the rollout's rewards (rollout_mix > 0)
  };

  // A leaf's value for `seat`: the evaluator's, mixed with its rollout's when rollout_mix > 0.
  float mixed(const Leaf& lf, const float* v, int seat) const;  // puct_leaves.hpp

  // simulate()'s outcomes besides 0 (finished at an end of the game) and 1 (left a new leaf).
  static constexpr int kCollided = 2;

  // One simulation from the root (through root child `forced` when >= 0). Returns 1 when it left
  // a new leaf in `buf`, 0 when it finished (terminal), kCollided when it reached a leaf already
  // waiting for its evaluation: then its visits are taken back, as if it had not started, so that
  // no simulation is spent on a copy of another's value.
  int simulate(EvalBuffer& buf, int32_t forced) {
    S& s = scratch_ = *root_;
    const bool open = cfg_.determinize == Determinize::kPerIteration;
    if (open) s.resample_hidden(observer_, rng_.next());  // this simulation's own draw
    path_.clear();
    path_.push_back(0);
    ++nodes_[0].visits;
    int32_t at = 0;
    for (;;) {
      uint8_t status = nodes_[at].status;
      if (open) {  // a node's kind comes from this draw: the game may end here in one future only
        if (s.is_terminal()) {
          if (status == kNew) nodes_[at].status = kTerminal;
          status = kTerminal;
        } else if (status == kTerminal) {
          status = nodes_[at].status = kNew;
        }
      }
      if (status == kNew) {
        if (s.is_terminal()) {
          nodes_[at].status = status = kTerminal;
        } else if (s.is_chance_node()) {
          expand_chance(at, s);
          status = kExpanded;
        } else {
          const int32_t leaf = request(buf, s, at);
          wait_on(leaf);
          return 1;
        }
      }
      if (status == kTerminal) {
        double r[kMaxSearchPlayers];
        terminal_rewards(s, r);
        backup(path_.data(), static_cast<int32_t>(path_.size()), r);
        return 0;
      }
      if (status == kPending) {
        for (const int32_t n : path_) --nodes_[n].visits;
        return kCollided;
      }
      int32_t child;
      if (s.is_chance_node()) {
        child = open ? open_chance_child(at, s) : sample_child(at);
      } else if (at == 0 && forced >= 0) {
        child = nodes_[0].first_child + forced;
      } else {
        child = open ? select_open(at, s) : select(at);
      }
      s.apply(nodes_[child].action);
      ++nodes_[child].visits;
      path_.push_back(child);
      at = child;
    }
  }

  // Calls f(c) for every child c of `at`, in its first block and in the blocks chained from it.
  template <class F>
  void for_children(int32_t at, F&& f) const {
    for (int32_t b = at; b >= 0; b = nodes_[b].more)
      for (int32_t c = nodes_[b].first_child, e = nodes_[b].first_child + nodes_[b].num_children; c < e; ++c) f(c);
  }

  // determinize="iteration": the child of chance node `at` for an outcome sampled from `s` (its
  // probabilities are this draw's), made when no earlier draw had it.
  int32_t open_chance_child(int32_t at, const S& s) {
    const int32_t o = sample_chance(s, rng_);
    int32_t child = -1;
    for_children(at, [&](int32_t c) {
      if (nodes_[c].action == o && nodes_[c].mover == kChanceSeat) child = c;
    });
    return child >= 0 ? child : grow(at, kChanceSeat, &o, 1, 0.0f);
  }

  // Appends a block of children of `at` for `actions` (played by `mover`), each with `prior`;
  // returns the first.
  int32_t grow(int32_t at, int mover, const int32_t* actions, int count, float prior) {
    const int32_t header = static_cast<int32_t>(nodes_.size());
    PuctNode h;
    h.mover = static_cast<int8_t>(kMoreSeat);
    h.first_child = header + 1;
    h.num_children = static_cast<int16_t>(count);
    h.status = kExpanded;
    nodes_.push_back(h);
    for (int i = 0; i < count; ++i) {
      PuctNode c;
      c.action = actions[i];
      c.mover = static_cast<int8_t>(mover);
      c.prior = prior;
      nodes_.push_back(c);
    }
    int32_t last = at;
    while (nodes_[last].more >= 0) last = nodes_[last].more;
    nodes_[last].more = header;
    return header + 1;
  }

  // PUCT selection among the children of `at` legal for the mover in `s`; actions legal in `s` and
  // not yet children become children first.
  int32_t select_open(int32_t at, const S& s) {
    const int mover = s.current_player();
    s.legal_actions(legal_);
    if (static_cast<int>(mark_.size()) < s.num_distinct_actions()) mark_.assign(s.num_distinct_actions(), 0);
    stamp_ += 2;
    for (int32_t a : legal_) mark_[a] = stamp_;
    int found = 0;
    for_children(at, [&](int32_t c) {
      if (nodes_[c].mover == mover && mark_[nodes_[c].action] == stamp_) {
        mark_[nodes_[c].action] = stamp_ + 1;  // legal and already a child
        ++found;
      }
    });
    if (found < legal_.size) {
      fresh_.clear();
      for (int32_t a : legal_)
        if (mark_[a] == stamp_) {
          fresh_.push_back(a);
          mark_[a] = stamp_ + 1;
        }
      grow(at, mover, fresh_.data(), static_cast<int>(fresh_.size()), 1.0f / static_cast<float>(legal_.size));
    }
    auto candidate = [&](int32_t c) { return nodes_[c].mover == mover && mark_[nodes_[c].action] == stamp_ + 1; };
    double total_prior = 0;
    for_children(at, [&](int32_t c) {
      if (candidate(c)) total_prior += nodes_[c].prior;
    });
    const PuctNode& n = nodes_[at];
    const double scale = cfg_.c_puct * std::sqrt(static_cast<double>(std::max(1, n.visits))) /
                         (total_prior > 0 ? total_prior : 1.0);
    const double fpu = n.net;
    int32_t best = -1;  // the first candidate until one scores higher: never -1 (every legal action is one)
    double best_score = -1e300;
    for_children(at, [&](int32_t c) {
      if (!candidate(c)) return;
      const double score = puct_score(nodes_[c], scale, fpu);
      if (best < 0 || score > best_score) {
        best_score = score;
        best = c;
      }
    });
    assert(best >= 0);
    return best;
  }

  // Creates the children of decision node `at` (priors come with the evaluation) and asks for it.
  int32_t request(EvalBuffer& buf, const S& s, int32_t at);  // puct_leaves.hpp

  // Stores strength * (h(a) - max h) / eval_scale in the prior of each new child of a pending node
  // (legal_ order, from `first`; strength: prior_heuristic, or opponent_prior_heuristic where another
  // seat than the searcher's moves); deliver() adds it to the evaluator's logits.
  void heuristic_bias(const S& s, int seat, int32_t first, double strength);  // puct_leaves.hpp

  void wait_on(int32_t leaf) {
    leaves_[leaf].path = static_cast<int32_t>(paths_.size());
    leaves_[leaf].length = static_cast<int32_t>(path_.size());
    paths_.insert(paths_.end(), path_.begin(), path_.end());
  }

  void expand_chance(int32_t at, const S& s) {
    ChanceList<S::kMaxChanceOutcomes> outcomes;
    s.chance_outcomes(outcomes);
    const int32_t first = static_cast<int32_t>(nodes_.size());
    for (const auto& o : outcomes) {
      PuctNode c;
      c.action = o.outcome;
      c.mover = static_cast<int8_t>(kChanceSeat);
      c.prior = static_cast<float>(o.probability);
      nodes_.push_back(c);
    }
    PuctNode& n = nodes_[at];
    n.first_child = first;
    n.num_children = static_cast<int16_t>(outcomes.size);
    n.status = kExpanded;
  }

  int32_t sample_child(int32_t at) {
    const PuctNode& n = nodes_[at];
    double u = rng_.uniform();
    for (int i = 0; i < n.num_children - 1; ++i)
      if ((u -= nodes_[n.first_child + i].prior) < 0) return n.first_child + i;
    return n.first_child + n.num_children - 1;
  }

  // A child's PUCT score: its mean reward (or `fpu` while unvisited) plus the prior's exploration
  // term; `scale` is c_puct * sqrt(parent visits), over the candidates' prior total in open trees.
  static double puct_score(const PuctNode& ch, double scale, double fpu) {
    const double q = ch.visits ? static_cast<double>(ch.value) / ch.visits : fpu;
    return q + scale * ch.prior / (1 + ch.visits);
  }

  int32_t select(int32_t at) const {
    const PuctNode& n = nodes_[at];
    const double scale = cfg_.c_puct * std::sqrt(static_cast<double>(std::max(1, n.visits)));
    const double fpu = n.net;
    int32_t best = n.first_child;
    double best_score = -1e300;
    for (int32_t c = n.first_child, e = n.first_child + n.num_children; c < e; ++c) {
      const double score = puct_score(nodes_[c], scale, fpu);
      if (score > best_score) {
        best_score = score;
        best = c;
      }
    }
    return best;
  }

  void backup(const int32_t* path, int32_t length, const double* r) {
    for (int32_t i = 1; i < length; ++i) {
      PuctNode& n = nodes_[path[i]];
      if (n.mover >= 0) n.value += static_cast<float>(r[n.mover]);
    }
    ++completed_;
  }

  // Root noise and the Gumbel root's set-up, once the root's priors are known.
  void root_expanded(const float*, int);  // puct_root.hpp

  // Gamma(alpha, 1) (Marsaglia and Tsang; boosted for alpha < 1), from the search rng.
  double sample_gamma(double alpha);  // puct_root.hpp

  // ---- Gumbel root: sequential halving ----
  double sigma_scale() const;  // puct_root.hpp

  // Each root child's Q for the mover; unvisited ones get the mixed value estimate.
  std::vector<double> completed_q() const;  // puct_root.hpp

  void build_phase();  // puct_root.hpp

  // The root child the next simulation visits, or kWait until the ones in flight come back.
  int32_t gumbel_next();  // puct_root.hpp

  PuctConfig cfg_;
  MctsConfig rollout_cfg_;  // the rollout part of cfg_, as rollout() takes it
  size_t history_len_ = 0;
  Rng rng_;
  int observer_ = 0;
  std::unique_ptr<S> root_;
  std::vector<PuctNode> nodes_{PuctNode{}};
  std::vector<Leaf> leaves_;
  std::vector<int32_t> paths_;
  std::vector<int32_t> path_;
  ActionList<S::kMaxActions> legal_;
  // determinize="iteration": legal-action marks (stamped) and the actions new to a node
  std::vector<uint64_t> mark_;
  uint64_t stamp_ = 0;
  std::vector<int32_t> fresh_;
  static constexpr int kMoreSeat = -3;  // a block header's mover: never a seat, chance or the end
  int64_t started_ = 0, completed_ = 0, evaluations_ = 0;
  bool root_requested_ = false;
  // Gumbel root
  int considered_ = 0, phases_ = 1;
  std::vector<double> logp_, gumbel_;
  std::vector<int> remaining_;
  std::vector<int32_t> schedule_;
  size_t schedule_pos_ = 0;

 public:
  // Scratch state of the running simulation (States may have no default constructor).
  struct Scratch {
    std::unique_ptr<S> p;
    S& operator=(const S& s) {
      if (!p) p.reset(new S(s));
      else *p = s;
      return *p;
    }
  };

 private:
  Scratch scratch_;
};

}  // namespace tilecraft
