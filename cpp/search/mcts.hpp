// Game-generic Monte Carlo tree search over any State of cpp/core/game.hpp.
//
// One engine serves both built-in search bots:
//  - ISMCTS (determinize = kPerIteration): every iteration starts from a fresh copy of the root
//    whose hidden parts and future chance were re-drawn with resample_hidden(observer, seed_i).
//    The tree is open loop (a node is a sequence of actions, not a state), so one action may be
//    legal in one determinization and not in another: selection only looks at the children legal
//    in the current determinization and explores with availability counts (single-observer
//    ISMCTS, Cowling, Powley & Whitehouse 2012).
//  - MCTS (determinize = kPerSearch): one determinization per search and per tree (root
//    parallelism gives each thread its own), plain UCT on it.
// Either way the search never reads the real hidden information: the root is always a copy
// re-determinized from the bot's own seed.
// Chance: in sampled mode it happens inside apply() from the (re-seeded) state RNG; in explicit
// mode the tree holds chance nodes whose outcomes are sampled with their probabilities.
// Values are max^n: each node keeps the sum of rewards of the seat that moved into it, so the
// tree handles any number of players. Rewards are each seat's share of the win at the end of a
// game (1/k to each of k co-winners), or, when a rollout stops at its depth cap, a softmax of the
// seats' heuristic values (State::heuristic) with temperature eval_scale.
// Trees live in per-thread arenas (one std::vector<Node> reserved up front), never one heap
// allocation per node. A searcher can keep its tree between moves (re-rooted at the node reached
// by the actions played since) when the new position's history extends the old one.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <thread>
#include <vector>

#include "core/action_list.hpp"
#include "core/bitboard.hpp"
#include "core/contract.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/game.hpp"
#include "core/rng.hpp"
#include "core/threads.hpp"
#include "search/options.hpp"
#include "search/playout.hpp"
#include "search/tree_common.hpp"

namespace tilecraft {

enum class Rollout : int32_t { kRandom = 0, kGreedy = 1 };
inline constexpr const char* kRolloutWords[] = {"random", "greedy"};  // by value
enum class Determinize : int32_t { kPerIteration = 0, kPerSearch = 1 };
inline constexpr const char* kDeterminizeWords[] = {"iteration", "search"};  // by value

// The options of MCTS / ISMCTS, each declared once in visit() (search/options.hpp).
struct MctsConfig {
  int64_t iterations = 1000;
  double seconds = 0.0;
  double exploration = 0.4;
  Rollout rollout = Rollout::kGreedy;
  int32_t rollout_depth = 4;
  double eval_scale = 10.0;
  int32_t threads = 1;
  uint64_t seed = 0;
  bool reuse_tree = true;
  Determinize determinize = Determinize::kPerIteration;
  int64_t max_nodes = 4000000;

  template <class V>
  void visit(V& v) {
    v.integer("iterations", iterations, 0, std::numeric_limits<int64_t>::max(),
              "iterations per search, split over the threads; 0: only the time budget limits");
    v.number("seconds", seconds, 0, kMaxSearchSeconds, "wall-clock budget per search in seconds; 0: none");
    v.number("exploration", exploration, 0, kNoBound, "UCT constant c in mean + c * sqrt(ln(available) / visits)");
    v.choice("rollout", rollout, kRolloutWords, "rollout policy: uniformly random moves, or the one-ply greedy move");
    v.integer("rollout_depth", rollout_depth, -1, kMaxRolloutDepth,
              "player actions per rollout before the heuristic decides; -1: to the end of the game");
    v.number("eval_scale", eval_scale, kMinEvalScale, kMaxEvalScale,
             "temperature of the heuristic softmax at a rollout's depth cap");
    v.integer("threads", threads, 1, 256, "root parallelism: one tree per thread, visit counts summed");
    v.seed("seed", seed, "seed of the search's determinizations and rollouts");
    v.flag("reuse_tree", reuse_tree, "keep the subtree of the position reached between moves");
    v.choice("determinize", determinize, kDeterminizeWords,
             "hidden parts and future re-drawn every iteration (ISMCTS), or once per search and tree (MCTS)");
    v.integer("max_nodes", max_nodes, 1000, std::numeric_limits<int64_t>::max(),
              "nodes per tree; when full the tree stops growing (rollouts go on)");
  }

  // What an option left unset means beside those given (`given(field)`: whether the user set it):
  // a time budget given without iterations is the search's only limit.
  template <class Given>
  void complete(const Given& given) {
    if (given(seconds) && !given(iterations)) iterations = 0;
  }

  void validate(const char* who = "mcts") const {
    check_ranges(*this, who);
    require<std::invalid_argument>(iterations > 0 || seconds > 0, who,
                                   ": give iterations >= 1 or a time budget seconds > 0 (both were 0)");
  }
};

// What a search found at the root.
struct SearchResult {
  int32_t action = -1;
  std::vector<int32_t> actions;  // root children, ascending action id
  std::vector<int64_t> visits;   // summed over the threads' trees
  std::vector<double> values;    // mean reward of the mover for each child
  int64_t iterations = 0;
  int64_t nodes = 0;
  double seconds = 0.0;
};

// terminal_rewards and heuristic_rewards are in tree_common.hpp (shared with PUCT).

// Plays s forward with the rollout policy and writes each seat's reward.
template <class S>
void rollout(S& s, Rng& rng, const MctsConfig& cfg, double* r) {
  ActionList<S::kMaxActions> actions;
  int moves = 0;
  while (!s.is_terminal()) {
    if (s.is_chance_node()) {
      s.apply(sample_chance(s, rng));
      continue;
    }
    if (cfg.rollout_depth >= 0 && moves >= cfg.rollout_depth) {
      heuristic_rewards(s, cfg.eval_scale, r);
      return;
    }
    if (cfg.rollout == Rollout::kGreedy) {
      s.apply(greedy_pick(s, rng));
    } else {
      s.apply(random_action(s, rng, actions));  // the game's list-free sampler where it has one
    }
    ++moves;
  }
  terminal_rewards(s, r);
}

struct MctsNode {
  int32_t first_child = -1;
  int32_t next_sibling = -1;
  int32_t action = -1;
  int32_t visits = 0;
  int32_t available = 0;  // how often this node was legal when its parent chose (ISMCTS)
  int32_t mover = kTerminalSeat;  // seat that played `action`; kChanceSeat for an outcome
  double value = 0.0;            // sum of the mover's rewards
};

// One tree in its arena, with the scratch space of the thread that grows it.
template <class S>
class MctsTree {
 public:
  static_assert(check_contract<S>());  // cpp/core/contract.hpp: the State contract, checked
  void reset() {
    nodes_.clear();
    nodes_.push_back(MctsNode{});
  }
  int64_t size() const { return static_cast<int64_t>(nodes_.size()); }
  // Preallocates the arena for `more` nodes (at most max_nodes in all).
  void reserve(int64_t more, int64_t max_nodes) {
    nodes_.reserve(static_cast<size_t>(std::min<int64_t>(max_nodes, size() + more)));
  }
  const MctsNode& node(int32_t i) const { return nodes_[i]; }

  // Moves the root down the given actions; false (and the tree is emptied) if a step is missing.
  bool descend(const int32_t* actions, int n) {
    int32_t at = 0;
    for (int i = 0; i < n && at >= 0; ++i) at = find_child(at, actions[i]);
    if (at < 0) {
      reset();
      return false;
    }
    if (at == 0) return true;
    // Copy the subtree into a fresh arena (depth first, children kept in order).
    std::vector<MctsNode> out;
    out.reserve(std::min<size_t>(nodes_.size(), 1 << 20));
    out.push_back(nodes_[at]);
    out[0].next_sibling = -1;
    std::vector<std::pair<int32_t, int32_t>> stack{{at, 0}};  // (old index, new index)
    while (!stack.empty()) {
      const auto [old_index, new_index] = stack.back();
      stack.pop_back();
      int32_t prev_new = -1;
      for (int32_t c = nodes_[old_index].first_child; c >= 0; c = nodes_[c].next_sibling) {
        const int32_t ni = static_cast<int32_t>(out.size());
        out.push_back(nodes_[c]);
        out[ni].first_child = -1;
        out[ni].next_sibling = -1;
        if (prev_new < 0) out[new_index].first_child = ni;
        else out[prev_new].next_sibling = ni;
        prev_new = ni;
        stack.emplace_back(c, ni);
      }
    }
    nodes_.swap(out);
    return true;
  }

  // Runs one iteration from `root` (already a determinization when the caller wants one fixed).
  void iterate(const S& root, int observer, const MctsConfig& cfg, Rng& rng) {
    S s = root;
    if (cfg.determinize == Determinize::kPerIteration) s.resample_hidden(observer, rng.next());
    path_.clear();
    path_.push_back(0);
    int32_t at = 0;
    double r[kMaxSearchPlayers];
    const bool room = static_cast<int64_t>(nodes_.size()) < cfg.max_nodes;
    while (!s.is_terminal()) {
      if (s.is_chance_node()) {
        const int32_t o = sample_chance(s, rng);
        s.apply(o);
        int32_t c = find_child(at, o, kChanceSeat);
        if (c < 0) {
          if (!room) break;
          c = add_child(at, o, kChanceSeat);
          path_.push_back(c);
          break;
        }
        at = c;
        path_.push_back(c);
        continue;
      }
      const int mover = s.current_player();
      s.legal_actions(legal_);
      ensure_marks(s.num_distinct_actions());
      stamp_ += 2;
      for (int32_t a : legal_) mark_[a] = stamp_;
      int legal_children = 0;
      int32_t best = -1;
      double best_score = -1e300;
      for (int32_t c = nodes_[at].first_child; c >= 0; c = nodes_[c].next_sibling) {
        MctsNode& ch = nodes_[c];
        if (ch.mover != mover || mark_[ch.action] != stamp_) continue;
        mark_[ch.action] = stamp_ + 1;  // legal and already a child
        ++legal_children;
        ++ch.available;
        const double score = ch.value / ch.visits +
                             cfg.exploration * std::sqrt(std::log(static_cast<double>(ch.available)) / ch.visits);
        if (score > best_score) {
          best_score = score;
          best = c;
        }
      }
      if (legal_children < legal_.size && room) {
        // Expand one untried action, chosen uniformly, then roll out from it.
        uint32_t k = rng.below(static_cast<uint32_t>(legal_.size - legal_children));
        int32_t a = -1;
        for (int32_t x : legal_)
          if (mark_[x] == stamp_ && k-- == 0) {
            a = x;
            break;
          }
        const int32_t c = add_child(at, a, mover);
        nodes_[c].available = 1;
        s.apply(a);
        path_.push_back(c);
        break;
      }
      if (best < 0) {  // the arena is full and nothing here is expanded: roll out
        break;
      }
      s.apply(nodes_[best].action);
      at = best;
      path_.push_back(best);
    }
    if (s.is_terminal()) terminal_rewards(s, r);
    else tilecraft::rollout(s, rng, cfg, r);
    for (int32_t i : path_) {
      MctsNode& n = nodes_[i];
      ++n.visits;
      if (n.mover >= 0) n.value += r[n.mover];
    }
  }

 private:
  // The child reached by `action` (played by `mover`, or by anyone when mover is kAnySeat).
  static constexpr int kAnySeat = -100;
  int32_t find_child(int32_t parent, int32_t action, int mover = kAnySeat) const {
    for (int32_t c = nodes_[parent].first_child; c >= 0; c = nodes_[c].next_sibling)
      if (nodes_[c].action == action && (mover == kAnySeat || nodes_[c].mover == mover)) return c;
    return -1;
  }
  int32_t add_child(int32_t parent, int32_t action, int mover) {
    const int32_t c = static_cast<int32_t>(nodes_.size());
    MctsNode n;
    n.action = action;
    n.mover = mover;
    n.next_sibling = nodes_[parent].first_child;
    nodes_.push_back(n);
    nodes_[parent].first_child = c;
    return c;
  }
  void ensure_marks(int n) {
    if (static_cast<int>(mark_.size()) < n) mark_.assign(n, 0);
  }

  std::vector<MctsNode> nodes_{MctsNode{}};
  std::vector<int32_t> path_;
  std::vector<uint64_t> mark_;
  uint64_t stamp_ = 0;
  ActionList<S::kMaxActions> legal_;
};

// A search bot's engine: one tree per thread, kept between moves when the history allows.
template <class S>
class MctsSearcher {
 public:
  explicit MctsSearcher(const MctsConfig& cfg) : cfg_(cfg), trees_(cfg.threads) {
    cfg_.validate();
    for (auto& t : trees_) t.reset();
  }
  const MctsConfig& config() const { return cfg_; }

  // Forgets the trees (a new game).
  void reset() {
    for (auto& t : trees_) t.reset();
    root_history_.clear();
    have_root_ = false;
  }

  // Searches from `state`, whose actions so far are `history` (used only to re-root the kept
  // trees). The state's hidden parts are never read: the search runs on re-determinized copies.
  SearchResult search(const S& state, const std::vector<int32_t>& history) {
    check_searchable(state, "mcts");
    reroot(history);
    const int observer = state.current_player();
    const uint64_t base = mix_seed(cfg_.seed, history.size());
    const auto start = std::chrono::steady_clock::now();
    std::vector<int64_t> done(trees_.size(), 0);
    auto work = [&](int t) {
      Rng rng(mix_seed(base, static_cast<uint64_t>(t)));
      const S root = determinized_root(state, observer, rng);  // never the real hidden information
      const int64_t quota = cfg_.iterations > 0
                                ? cfg_.iterations / cfg_.threads + (t < cfg_.iterations % cfg_.threads ? 1 : 0)
                                : INT64_MAX;
      trees_[t].reserve(quota == INT64_MAX ? int64_t{1} << 16 : quota + 1, cfg_.max_nodes);
      const double budget = cfg_.seconds;
      int64_t i = 0;
      for (; i < quota && !stop_requested(); ++i) {
        if (budget > 0 && (i & 15) == 0) {
          const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          if (spent >= budget && i > 0) break;
        }
        trees_[t].iterate(root, observer, cfg_, rng);
      }
      done[t] = i;
    };
    // Root parallelism: one tree per thread (core/threads.hpp: Ctrl-C reaches every tree's
    // thread; an exception on one stops the others and is rethrown here).
    // A failed search leaves its trees half re-rooted: they are dropped.
    try {
      run_on_threads(cfg_.threads, [&work](int t) {
        if (t != 0) test_failure_point();
        work(t);
      });
    } catch (...) {
      reset();
      throw;
    }
    SearchResult out;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    summarize(state, out);
    for (int64_t d : done) out.iterations += d;
    root_history_ = history;
    have_root_ = cfg_.reuse_tree;
    if (!cfg_.reuse_tree) reset();
    return out;
  }

 private:
  void reroot(const std::vector<int32_t>& history) {
    const bool extends = have_root_ && history.size() >= root_history_.size() &&
                         std::equal(root_history_.begin(), root_history_.end(), history.begin());
    if (!extends) {
      for (auto& t : trees_) t.reset();
      return;
    }
    const int n = static_cast<int>(history.size() - root_history_.size());
    for (auto& t : trees_) t.descend(history.data() + root_history_.size(), n);
  }

  void summarize(const S& state, SearchResult& out) const {
    ActionList<S::kMaxActions> legal;
    state.legal_actions(legal);
    std::vector<int64_t> visits(legal.size, 0);
    std::vector<double> value(legal.size, 0.0);
    const int mover = state.current_player();
    for (const auto& t : trees_) {
      for (int32_t c = t.node(0).first_child; c >= 0; c = t.node(c).next_sibling) {
        const MctsNode& ch = t.node(c);
        if (ch.mover != mover) continue;
        const int32_t* pos = std::lower_bound(legal.begin(), legal.end(), ch.action);
        if (pos == legal.end() || *pos != ch.action) continue;
        visits[pos - legal.begin()] += ch.visits;
        value[pos - legal.begin()] += ch.value;
      }
      out.nodes += t.size();
    }
    int best = 0;
    for (int i = 0; i < legal.size; ++i) {
      out.actions.push_back(legal.items[i]);
      out.visits.push_back(visits[i]);
      out.values.push_back(visits[i] ? value[i] / visits[i] : 0.0);
      const double vb = visits[best] ? value[best] / visits[best] : -1.0;
      const double vi = visits[i] ? value[i] / visits[i] : -1.0;
      if (visits[i] > visits[best] || (visits[i] == visits[best] && vi > vb)) best = i;
    }
    out.action = legal.items[best];
  }

  MctsConfig cfg_;
  std::vector<MctsTree<S>> trees_;
  std::vector<int32_t> root_history_;
  bool have_root_ = false;
};

}  // namespace tilecraft
