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
#pragma once
#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "core/action_list.hpp"
#include "core/contract.hpp"
#include "core/errors.hpp"
#include "core/game.hpp"
#include "core/rng.hpp"
#include "search/mcts.hpp"
#include "search/options.hpp"
#include "search/playout.hpp"
#include "search/self_play.hpp"
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
  void deliver(const EvalBuffer& buf) {
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

  // An evaluation the search can use: a finite logit for every legal action of node `n` and a win
  // share in [0, 1] for every seat (the Python evaluators are checked before this with messages of
  // their own; this guards every evaluator, the C++ network included). EvaluatorFailure otherwise.
  void check_evaluation(const float* lg, const float* v, int np, const PuctNode& n) const {
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

  // The outcome of a finished search (done()).
  PuctResult result() {
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
  float mixed(const Leaf& lf, const float* v, int seat) const {
    if (cfg_.rollout_mix <= 0) return v[seat];
    return static_cast<float>((1 - cfg_.rollout_mix) * v[seat] + cfg_.rollout_mix * lf.roll[seat]);
  }

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
  int32_t request(EvalBuffer& buf, const S& s, int32_t at) {
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

  // Stores strength * (h(a) - max h) / eval_scale in the prior of each new child of a pending node
  // (legal_ order, from `first`; strength: prior_heuristic, or opponent_prior_heuristic where another
  // seat than the searcher's moves); deliver() adds it to the evaluator's logits.
  void heuristic_bias(const S& s, int seat, int32_t first, double strength) {
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
  void root_expanded(const float*, int) {
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

  // Gamma(alpha, 1) (Marsaglia and Tsang; boosted for alpha < 1), from the search rng.
  double sample_gamma(double alpha) {
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

  // ---- Gumbel root: sequential halving ----
  double sigma_scale() const {
    const PuctNode& root = nodes_[0];
    int32_t max_n = 0;
    for (int i = 0; i < root.num_children; ++i) max_n = std::max(max_n, nodes_[root.first_child + i].visits);
    return (cfg_.gumbel_c_visit + max_n) * cfg_.gumbel_c_scale;
  }

  // Each root child's Q for the mover; unvisited ones get the mixed value estimate.
  std::vector<double> completed_q() const {
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

  void build_phase() {
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

  // The root child the next simulation visits, or kWait until the ones in flight come back.
  int32_t gumbel_next() {
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

// ---- batched self-play: many games at once, one evaluator call per evaluator and step ----

// A seat's bot: the built-in kinds of self_play.hpp plus PUCT with its evaluator index.
struct PuctBotSpec {
  enum Kind : int32_t { kRandom = 0, kGreedy = 1, kMcts = 2, kPuct = 3 };
  Kind kind = kRandom;
  MctsConfig mcts;
  PuctConfig puct;
  int32_t evaluator = 0;
};

struct PuctSelfPlayStats {
  int64_t calls = 0;          // evaluator calls
  int64_t rows = 0;           // observations handed to evaluators
  int64_t steps = 0;          // collect / evaluate / deliver rounds
  int64_t full_calls = 0;     // calls (and their rows) in steps where every slot had a game
  int64_t full_rows = 0;
  int64_t simulations = 0;
  int64_t searches = 0;
  double seconds_cpp = 0.0;   // collect and deliver (the evaluator calls excluded)
  double seconds_eval = 0.0;  // inside eval(): the callback, crossing included
};

// Plays games [first_game, first_game + n_games) of the stream `seed` (game i is seeded from
// mix_seed(seed, i) as in self_play.hpp, so a game does not depend on which others share its
// batches), `concurrent` at a time. eval(e, buf) fills buf's outputs with evaluator e.
template <class S, class Eval>
SelfPlayResults puct_self_play(const typename S::Config& config, const std::vector<PuctBotSpec>& bots,
                               int n_evaluators, int64_t n_games, int64_t first_game, uint64_t seed, int concurrent,
                               bool rotate, bool record, Eval&& eval, PuctSelfPlayStats& stats) {
  using Clock = std::chrono::steady_clock;
  require<std::invalid_argument>(!bots.empty(), "self_play: give at least one bot");
  require<std::invalid_argument>(n_games >= 0 && first_game >= 0, "self_play: n_games must be >= 0, got ", n_games);
  require<std::invalid_argument>(concurrent >= 1, "self_play: concurrent_games must be >= 1, got ", concurrent);
  for (const auto& b : bots) {
    if (b.kind == PuctBotSpec::kMcts) b.mcts.validate();
    if (b.kind == PuctBotSpec::kPuct) {
      b.puct.validate("self_play puct bot");
      require<std::invalid_argument>(b.puct.seconds == 0,
                                     "self_play puct bot: a time budget (seconds) is not deterministic; "
                                     "self-play plays by simulations (give simulations, not seconds)");
      require<std::invalid_argument>(b.evaluator >= 0 && b.evaluator < n_evaluators, "self_play: evaluator index ",
                                     b.evaluator, " out of range");
    }
  }
  const S probe(config, 0);
  const int p = probe.num_players();
  require<std::invalid_argument>(p <= kMaxSearchPlayers, "self_play: at most ", kMaxSearchPlayers, " players");
  const int nb = static_cast<int>(bots.size());
  SelfPlayResults r;
  r.players = p;
  r.games = n_games;
  r.obs_size = probe.observation_size();
  r.num_actions = probe.num_distinct_actions();
  r.scores.assign(n_games * p, 0.0);
  r.returns.assign(n_games * p, 0.0);
  r.winners.assign(n_games * p, 0);
  r.seat_bot.assign(n_games * p, 0);
  r.length.assign(n_games, 0);
  r.state_seed.assign(n_games, 0);
  r.actions.assign(n_games, {});
  std::vector<detail::GameRecord> records(record ? n_games : 0);
  std::vector<EvalBuffer> bufs(n_evaluators);
  for (auto& b : bufs) b.init(r.obs_size, r.num_actions, p);

  struct Slot {
    bool live = false;
    bool searching = false;
    int64_t g = -1;
    uint64_t game_seed = 0;
    std::unique_ptr<S> s;
    Rng rng;
    std::vector<int> who;
    std::vector<std::unique_ptr<MctsSearcher<S>>> mcts;
    PuctWorlds<S> search;
    int search_eval = 0;
    int deficit = 0;  // leaves short of its share in the last step (made up in the next one)
  };
  std::vector<Slot> slots(static_cast<size_t>(std::min<int64_t>(concurrent, std::max<int64_t>(n_games, 1))));
  int64_t next = 0;
  std::vector<float> pol;
  ActionList<S::kMaxActions> legal;

  auto start_game = [&](Slot& sl, int64_t g) {
    sl.live = true;
    sl.searching = false;
    sl.deficit = 0;  // a new game owes nothing to the game before it in this slot
    sl.g = g;
    sl.game_seed = mix_seed(seed, static_cast<uint64_t>(first_game + g));
    r.state_seed[g] = static_cast<int64_t>(mix_seed(sl.game_seed, 0) >> 1);
    sl.s.reset(new S(config, static_cast<uint64_t>(r.state_seed[g])));
    sl.rng = Rng(mix_seed(sl.game_seed, 1));
    sl.who.assign(p, 0);
    sl.mcts.clear();
    sl.mcts.resize(p);
    for (int k = 0; k < p; ++k) {
      sl.who[k] = rotate ? static_cast<int>((k + first_game + g) % nb) : k % nb;
      r.seat_bot[g * p + k] = sl.who[k];
      const PuctBotSpec& b = bots[sl.who[k]];
      if (b.kind == PuctBotSpec::kMcts) {
        MctsConfig c = b.mcts;
        c.seed = mix_seed(sl.game_seed, 2 + static_cast<uint64_t>(k));
        sl.mcts[k] = std::make_unique<MctsSearcher<S>>(c);
      }
    }
  };
  auto record_row = [&](Slot& sl, int me) {
    detail::GameRecord& rec = records[sl.g];
    const S& s = *sl.s;
    const size_t o = rec.observation.size();
    rec.observation.resize(o + r.obs_size);
    s.observation(me, rec.observation.data() + o);
    s.legal_actions(legal);
    const size_t m = rec.legal_mask.size();
    rec.legal_mask.resize(m + r.num_actions, 0);
    for (int32_t x : legal) rec.legal_mask[m + x] = 1;
    rec.policy.insert(rec.policy.end(), pol.begin(), pol.end());
    rec.player.push_back(me);
  };
  auto finish_game = [&](Slot& sl) {
    const S& s = *sl.s;
    const int64_t g = sl.g;
    r.length[g] = static_cast<int32_t>(r.actions[g].size());
    s.scores(&r.scores[g * p]);
    s.returns(&r.returns[g * p]);
    const uint32_t w = s.winners();
    for (int k = 0; k < p; ++k) r.winners[g * p + k] = (w >> k) & 1u;
    sl.live = false;
    sl.s.reset();
  };
  // Moves one game on until it has its share of leaves waiting (or waits, or no game is left).
  // Its share is batch_size plus what it fell short of in the previous step (a search that waits
  // for its root's evaluation, ends, or stops where a simulation would reach a leaf already
  // waiting, leaves fewer), at most twice batch_size: per game, so
  // that a game's course does not depend on the other games.
  int requested = 0, quota = 0;
  auto advance = [&](Slot& sl) {
    requested = 0;
    quota = -1;
    for (;;) {
      if (!sl.live) {
        if (next >= n_games) return;
        start_game(sl, next++);
        requested = 0;  // the new game's share starts here
        quota = -1;
      }
      S& s = *sl.s;
      std::vector<int32_t>& hist = r.actions[sl.g];
      if (s.is_terminal()) {
        finish_game(sl);
        continue;
      }
      int32_t a;
      if (s.is_chance_node()) {
        a = sample_chance(s, sl.rng);
        s.apply(a);
        hist.push_back(a);
        continue;
      }
      const int me = s.current_player();
      const PuctBotSpec& b = bots[sl.who[me]];
      if (b.kind == PuctBotSpec::kPuct) {
        if (!sl.searching) {
          sl.search.start(s, hist.size(), b.puct, mix_seed(sl.game_seed, 2 + static_cast<uint64_t>(me)));
          sl.searching = true;
          sl.search_eval = b.evaluator;
        }
        if (!sl.search.done()) {
          if (quota < 0) quota = b.puct.batch_size + std::min(sl.deficit, b.puct.batch_size);
          if (requested >= quota) return;
          requested += sl.search.collect(bufs[b.evaluator], quota - requested);
          if (!sl.search.done()) return;
        }
        const PuctResult res = sl.search.result();
        sl.searching = false;
        stats.simulations += res.simulations;
        ++stats.searches;
        a = res.action;
        if (record) {
          pol.assign(r.num_actions, 0.0f);
          for (size_t i = 0; i < res.actions.size(); ++i) pol[res.actions[i]] = static_cast<float>(res.policy[i]);
        }
      } else {
        if (record) pol.assign(r.num_actions, 0.0f);
        if (b.kind == PuctBotSpec::kMcts) {
          const SearchResult res = sl.mcts[me]->search(s, hist);
          a = res.action;
          if (record) {
            int64_t total = 0;
            for (int64_t v : res.visits) total += v;
            for (size_t i = 0; i < res.actions.size(); ++i)
              pol[res.actions[i]] = total ? static_cast<float>(res.visits[i]) / total : 0.0f;
            if (!total) pol[a] = 1.0f;
          }
        } else if (b.kind == PuctBotSpec::kGreedy) {
          a = greedy_action(s, sl.rng);
          if (record) pol[a] = 1.0f;
        } else {
          s.legal_actions(legal);
          a = legal.items[sl.rng.below(static_cast<uint32_t>(legal.size))];
          if (record) pol[a] = 1.0f;
        }
      }
      if (record) record_row(sl, me);
      s.apply(a);
      hist.push_back(a);
    }
  };

  auto t0 = Clock::now();
  for (;;) {
    for (auto& b : bufs) b.clear();
    bool any = false, all = true;
    for (auto& sl : slots) {
      advance(sl);
      sl.deficit = quota > 0 ? quota - requested : 0;
      any |= sl.live;
      all &= sl.live;
    }
    if (!any && next >= n_games) break;
    ++stats.steps;
    auto t1 = Clock::now();
    stats.seconds_cpp += std::chrono::duration<double>(t1 - t0).count();
    for (int e = 0; e < n_evaluators; ++e) {
      if (!bufs[e].rows) continue;
      bufs[e].size_outputs();
      ++stats.calls;
      stats.rows += bufs[e].rows;
      if (all) {
        ++stats.full_calls;
        stats.full_rows += bufs[e].rows;
      }
      eval(e, bufs[e]);
    }
    t0 = Clock::now();
    stats.seconds_eval += std::chrono::duration<double>(t0 - t1).count();
    for (auto& sl : slots)
      if (sl.live && sl.searching) sl.search.deliver(bufs[sl.search_eval]);
  }
  stats.seconds_cpp += std::chrono::duration<double>(Clock::now() - t0).count();

  if (record) {
    for (int64_t g = 0; g < n_games; ++g) {
      detail::GameRecord& rec = records[g];
      r.observation.insert(r.observation.end(), rec.observation.begin(), rec.observation.end());
      r.legal_mask.insert(r.legal_mask.end(), rec.legal_mask.begin(), rec.legal_mask.end());
      r.policy.insert(r.policy.end(), rec.policy.begin(), rec.policy.end());
      r.player.insert(r.player.end(), rec.player.begin(), rec.player.end());
      for (size_t i = 0; i < rec.player.size(); ++i) {
        r.game.push_back(static_cast<int32_t>(g));
        r.final_returns.insert(r.final_returns.end(), r.returns.begin() + g * p, r.returns.begin() + (g + 1) * p);
      }
      rec = detail::GameRecord();
    }
  }
  return r;
}

}  // namespace tilecraft
