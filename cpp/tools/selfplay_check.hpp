// The game-generic self-play checker: a template over the State contract (cpp/core/game.hpp), like
// the binding template. For one configuration of any game it
//  - plays random games (random legal actions, chance outcomes with their probabilities) and after
//    every action calls validate() and every read path on exactly sized heap buffers (observation
//    of every seat, scores, returns, winners, legal list and mask agreement, action names and their
//    round trip, chance outcome probabilities, heuristic), tries out-of-range and illegal actions
//    (is_legal false, illegal_reason non-empty, state unchanged), copies the state field by field
//    through visit() (what to_json/from_json do) and checks the copy is identical, and
//    re-determinizes a clone for every seat (validate() after, the mover's own legal actions
//    unchanged by its own resample);
//  - runs the search: MCTS and ISMCTS (1 and 2 root-parallel threads, tree reuse across moves),
//    batch random playouts and batch self-play (random, greedy and MCTS bots, recorded) on 2 threads,
//    and the batched environment (VectorEnv) on 2 threads against 1, buffer for buffer.
// Any broken check throws CheckFailed; sanitizer reports come from the build (CMakeLists.txt).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/action_list.hpp"
#include "core/game.hpp"
#include "core/rng.hpp"
#include "search/mcts.hpp"
#include "search/playout.hpp"
#include "search/puct.hpp"
#include "search/self_play.hpp"
#include "search/vector_env.hpp"

namespace tilecraft::check {

struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

#define TC_CHECK(cond, msg)                                                                     \
  do {                                                                                          \
    if (!(cond)) throw ::tilecraft::check::CheckFailed(std::string(msg) + " [" #cond "]");     \
  } while (0)

struct Stats {
  int64_t games = 0, actions = 0, illegal_probes = 0, searches = 0, playouts = 0, selfplay_games = 0;
  int64_t known = 0;  // hits of a known, reported finding (KNOWN_FINDINGS below)
};

// Findings reported to a game's owner and not yet fixed: a check that fails with one of these
// messages is counted and printed, not fatal. Keep this list short and each entry documented.
// Empty now: Gaudí F1 (states reached by legal play failing validate(): "unused frame k must be
// empty", "chance_arg out of range") was fixed in cpp/gaudi and the exception removed.
inline bool known_finding(const char* /*game*/, const std::string& /*what*/) { return false; }

// ---- a config from `name count v...` lines (cpp/tools/configs.py writes them) ----
struct ConfigText {
  std::string game, label;
  std::map<std::string, std::vector<std::string>> fields;
};

struct FillConfig {
  const ConfigText& text;
  template <class T>
  static void count(const T&, size_t& n) {
    if constexpr (std::is_array_v<T>) n *= std::extent_v<T>, count(std::declval<std::remove_extent_t<T>&>(), n);
  }
  template <class T>
  static void put(T& x, const std::vector<std::string>& v, size_t& i) {
    if constexpr (std::is_array_v<T>) {
      for (auto& e : x) put(e, v, i);
    } else if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(std::stod(v.at(i++)));
    } else if constexpr (std::is_unsigned_v<T>) {
      x = static_cast<T>(std::stoull(v.at(i++)));
    } else {
      x = static_cast<T>(std::stoll(v.at(i++)));
    }
  }
  template <class T>
  void field(const char* name, T& x) {
    auto it = text.fields.find(name);
    TC_CHECK(it != text.fields.end(), std::string("config field missing: ") + name);
    size_t n = 1;
    if constexpr (std::is_array_v<T>) n = sizeof(T) / sizeof(std::remove_all_extents_t<T>);
    TC_CHECK(it->second.size() == n, std::string("config field has the wrong length: ") + name);
    size_t i = 0;
    put(x, it->second, i);
  }
};

// ---- the state's fields as bytes, in visit() order (what to_json/from_json carry) ----
struct SaveFields {
  std::vector<uint8_t> bytes;
  template <class T>
  void field(const char*, T& x) {
    const auto* p = reinterpret_cast<const uint8_t*>(&x);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
};
struct LoadFields {
  const std::vector<uint8_t>& bytes;
  size_t at = 0;
  template <class T>
  void field(const char*, T& x) {
    TC_CHECK(at + sizeof(T) <= bytes.size(), "visit() reads more fields than it wrote");
    std::memcpy(&x, bytes.data() + at, sizeof(T));
    at += sizeof(T);
  }
};

template <class S>
std::vector<uint8_t> fields_of(const S& s) {
  SaveFields v;
  const_cast<S&>(s).visit(v);
  return v.bytes;
}

template <class S>
std::vector<int32_t> legal_of(const S& s) {
  ActionList<S::kMaxActions> l;
  s.legal_actions(l);
  return std::vector<int32_t>(l.begin(), l.end());
}

// validate(), except that a known finding is counted and printed instead of ending the check.
template <class S>
void validate_or_known(const S& s, Stats& st) {
  try {
    s.validate();
  } catch (const std::exception& e) {
    if (!known_finding(S::kName, e.what())) throw;
    if (st.known++ == 0) std::printf("KNOWN %s finding (not fatal, reported): %s\n", S::kName, e.what());
  }
}

// Every read path, on exactly sized heap buffers so that ASan sees any overrun.
template <class S>
void read_everything(const S& s, Rng& rng, Stats& st) {
  const int n = s.num_players();
  const int na = s.num_distinct_actions();
  std::vector<float> obs(s.observation_size());
  int shape = 1;
  for (int d : s.observation_shape()) shape *= d;
  TC_CHECK(shape == s.observation_size(), "observation_shape() disagrees with observation_size()");
  for (int p = 0; p < n; ++p) {
    s.observation(p, obs.data());
    for (float f : obs) TC_CHECK(std::isfinite(f), "observation has a non-finite value");
  }
  std::vector<double> out(n);
  s.scores(out.data());
  s.returns(out.data());
  for (double x : out) TC_CHECK(std::isfinite(x), "returns has a non-finite value");
  const uint32_t w = s.winners();
  // A solo game (Gaudí against its automa) may end with no winning seat: the automa won.
  TC_CHECK(s.is_terminal() ? ((w != 0 || n == 1) && (w >> n) == 0) : w == 0,
           "winners() inconsistent with is_terminal()");
  const int cp = s.current_player();
  TC_CHECK(s.is_terminal() == (cp == kTerminalSeat), "current_player() and is_terminal() disagree");
  TC_CHECK(s.is_chance_node() == (cp == kChanceSeat), "current_player() and is_chance_node() disagree");
  TC_CHECK(s.is_terminal() || (cp >= 0 && cp < n) || cp == kChanceSeat, "current_player() out of range");
  const std::vector<int32_t> legal = legal_of(s);
  TC_CHECK(s.is_terminal() == legal.empty(), "no legal actions but not terminal (or the reverse)");
  std::vector<uint8_t> mask(na, 0);
  for (size_t i = 0; i < legal.size(); ++i) {
    const int32_t a = legal[i];
    TC_CHECK(a >= 0 && a < na, "legal action id out of range");
    TC_CHECK(i == 0 || legal[i - 1] < a, "legal actions not strictly ascending");
    TC_CHECK(s.is_legal(a), "a listed action is not is_legal()");
    mask[a] = 1;
    const std::string name = s.action_to_string(a);
    TC_CHECK(!name.empty(), "empty action name");
    if (!s.is_chance_node()) TC_CHECK(s.string_to_action(name) == a, "string_to_action(action_to_string(a)) != a: " + name);
  }
  // Illegal probes: out of range and unlisted ids are rejected with a reason and change nothing.
  const std::vector<uint8_t> before = fields_of(s);
  const int32_t probes[] = {-1, -1000000, na, na + 1, 1 << 30, static_cast<int32_t>(rng.below(static_cast<uint32_t>(na)))};
  for (int32_t a : probes) {
    if (a >= 0 && a < na && mask[a]) continue;
    TC_CHECK(!s.is_legal(a), "is_legal() true for an unlisted action " + std::to_string(a));
    TC_CHECK(!s.illegal_reason(a).empty(), "illegal_reason() empty for " + std::to_string(a));
    ++st.illegal_probes;
  }
  TC_CHECK(fields_of(s) == before, "a read path changed the state");
  if (s.is_chance_node()) {
    ChanceList<S::kMaxChanceOutcomes> outs;
    s.chance_outcomes(outs);
    double total = 0;
    std::vector<int32_t> ids;
    for (int i = 0; i < outs.size; ++i) {
      TC_CHECK(outs.items[i].probability > 0 && outs.items[i].probability <= 1, "chance probability outside (0, 1]");
      total += outs.items[i].probability;
      ids.push_back(outs.items[i].outcome);
    }
    TC_CHECK(std::fabs(total - 1.0) < 1e-9, "chance probabilities do not sum to 1");
    std::sort(ids.begin(), ids.end());
    TC_CHECK(ids == legal, "chance_outcomes() and legal_actions() differ");
  } else if (!s.is_terminal()) {
    TC_CHECK(std::isfinite(s.heuristic(cp)), "heuristic() not finite");
  }
}

// The field-by-field copy (to_json/from_json's path) is identical and behaves identically.
template <class S>
void check_roundtrip(const S& s) {
  const std::vector<uint8_t> bytes = fields_of(s);
  S t(s.config(), 12345);
  LoadFields in{bytes};
  t.visit(in);
  TC_CHECK(in.at == bytes.size(), "visit() wrote fields it did not read back");
  t.rebuild_derived();  // what from_json does after loading the fields
  t.validate();
  TC_CHECK(fields_of(t) == bytes, "fields differ after a visit() round trip");
  TC_CHECK(legal_of(t) == legal_of(s), "legal actions differ after a visit() round trip");
  TC_CHECK(t.current_player() == s.current_player(), "current player differs after a visit() round trip");
  std::vector<float> a(s.observation_size()), b(s.observation_size());
  for (int p = 0; p < s.num_players(); ++p) {
    s.observation(p, a.data());
    t.observation(p, b.data());
    TC_CHECK(a == b, "observation differs after a visit() round trip");
  }
}

template <class S>
void check_resample(const S& s, uint64_t seed) {
  if (s.is_terminal()) return;
  for (int p = 0; p < s.num_players(); ++p) {
    S c = s;
    c.resample_hidden(p, mix_seed(seed, p));
    c.validate();
    TC_CHECK(c.current_player() == s.current_player(), "resample_hidden changed the seat to move");
    if (!s.is_chance_node() && p == s.current_player())
      TC_CHECK(legal_of(c) == legal_of(s), "the mover's own resample changed its legal actions");
  }
}

// Random games with every check after every action. deep_every: the costly checks (round trip,
// resample) run on every k-th action.
template <class S>
void random_games(const typename S::Config& cfg, int games, uint64_t seed, Stats& st, int deep_every = 1) {
  for (int g = 0; g < games; ++g) {
    S s(cfg, mix_seed(seed, 2 * g));
    Rng rng(mix_seed(seed, 2 * g + 1));
    ActionList<S::kMaxActions> scratch;
    s.validate();
    read_everything(s, rng, st);
    int64_t k = 0;
    while (!s.is_terminal()) {
      const int32_t a = random_action(s, rng, scratch);
      TC_CHECK(s.is_legal(a), "random_action gave an illegal action " + std::to_string(a));
      s.apply(a);
      validate_or_known(s, st);
      ++st.actions;
      read_everything(s, rng, st);
      if (++k % deep_every == 0) {
        try {
          check_roundtrip(s);
          check_resample(s, rng.next());
        } catch (const std::exception& e) {
          if (!known_finding(S::kName, e.what())) throw;
          if (st.known++ == 0) std::printf("KNOWN %s finding (not fatal, reported): %s\n", S::kName, e.what());
        }
      }
      TC_CHECK(k < 100000, "a random game did not end after 100000 actions");
    }
    ++st.games;
  }
}

// Positions from a random game: the start and a few points along the way.
template <class S>
std::vector<std::pair<S, std::vector<int32_t>>> positions(const typename S::Config& cfg, uint64_t seed, int count) {
  std::vector<std::pair<S, std::vector<int32_t>>> out;
  S s(cfg, seed);
  Rng rng(mix_seed(seed, 1));
  ActionList<S::kMaxActions> scratch;
  std::vector<int32_t> hist;
  int step = 0;
  while (!s.is_terminal() && static_cast<int>(out.size()) < count) {
    if (!s.is_chance_node() && step % 7 == 0) out.emplace_back(s, hist);
    const int32_t a = random_action(s, rng, scratch);
    s.apply(a);
    hist.push_back(a);
    ++step;
  }
  return out;
}

// MCTS and ISMCTS on a few positions; `threaded`: only the multi-threaded variants (for TSan).
template <class S>
void search_checks(const typename S::Config& cfg, int count, uint64_t seed, bool threaded, Stats& st) {
  for (auto& [pos, hist] : positions<S>(cfg, seed, count)) {
    for (int det = 0; det <= 1; ++det) {
      for (int threads = threaded ? 2 : 1; threads <= 2; ++threads) {
        MctsConfig mc;
        mc.iterations = 60;
        mc.threads = threads;
        mc.seed = mix_seed(seed, 10 * det + threads);
        mc.determinize = det ? Determinize::kPerSearch : Determinize::kPerIteration;
        mc.rollout = det ? Rollout::kRandom : Rollout::kGreedy;
        mc.max_nodes = 1000;  // also exercises a full tree
        mc.validate();
        MctsSearcher<S> searcher(mc);
        S s = pos;
        std::vector<int32_t> h = hist;
        for (int move = 0; move < 3 && !s.is_terminal(); ++move) {  // tree reuse across moves
          if (s.is_chance_node()) {
            Rng r(mix_seed(seed, 99 + move));
            const int32_t c = sample_chance(s, r);
            s.apply(c);
            h.push_back(c);
            continue;
          }
          const SearchResult res = searcher.search(s, h);
          ++st.searches;
          TC_CHECK(s.is_legal(res.action), "search chose an illegal action");
          TC_CHECK(res.actions.size() == res.visits.size() && res.visits.size() == res.values.size(),
                   "search result arrays differ in length");
          s.apply(res.action);
          h.push_back(res.action);
          validate_or_known(s, st);
        }
      }
    }
  }
}

// PUCT (both determinization modes, leaf rollouts, the Gumbel root, the heuristic prior) with an evaluator in C++ whose
// logits and values are fixed functions of the observation, so that a run is reproducible.
template <class S>
void puct_checks(const typename S::Config& cfg, int count, uint64_t seed, Stats& st) {
  for (auto& [pos, hist] : positions<S>(cfg, seed, count)) {
    if (pos.is_terminal() || pos.is_chance_node()) continue;
    for (int variant = 0; variant < 4; ++variant) {
      PuctConfig pc;
      pc.simulations = 48;
      pc.batch_size = variant == 1 ? 1 : 4;
      pc.seed = mix_seed(seed, 50 + variant);
      pc.determinize = variant % 2 ? Determinize::kPerIteration : Determinize::kPerSearch;
      pc.rollout_mix = variant >= 2 ? 0.5 : 0.0;
      pc.rollouts = variant == 3 ? 2 : 1;
      pc.gumbel = variant == 2;
      pc.prior_heuristic = variant % 2 ? 2.0 : 0.0;  // the heuristic bias: every legal action applied
      pc.prior_temperature = variant == 3 ? 2.0 : 1.0;
      pc.worlds = variant == 3 ? 3 : 1;  // three trees: their root visits still add up to the simulations
      pc.validate();
      PuctWorlds<S> search;
      EvalBuffer buf;
      buf.init(pos.observation_size(), pos.num_distinct_actions(), pos.num_players());
      const PuctResult res = run_puct(search, buf, pos, hist.size(), pc, [](EvalBuffer& b) {
        for (int r = 0; r < b.rows; ++r) {
          const float* o = b.obs.data() + static_cast<size_t>(r) * b.obs_size;
          double h = 0;
          for (int i = 0; i < b.obs_size; ++i) h += o[i] * ((i * 7 + 3) % 11 - 5);
          for (int a = 0; a < b.num_actions; ++a)
            b.logits[static_cast<size_t>(r) * b.num_actions + a] = static_cast<float>(std::sin(h * 0.01 + a));
          for (int p = 0; p < b.players; ++p)
            b.values[static_cast<size_t>(r) * b.players + p] = p == b.player[r] ? 0.6f : 0.4f / std::max(1, b.players - 1);
        }
      });
      ++st.searches;
      TC_CHECK(pos.is_legal(res.action), "puct chose an illegal action");
      int64_t visits = 0;
      for (int64_t v : res.visits) visits += v;
      TC_CHECK(visits == pc.simulations && res.simulations == pc.simulations, "puct root visits differ from simulations");
    }
  }
}

// Batch random playouts and batch self-play with every bot kind, on `threads` threads.
template <class S>
void batch_checks(const typename S::Config& cfg, int n, uint64_t seed, int threads, Stats& st) {
  const PlayoutResults pr = random_playouts<S>(cfg, n, seed, threads);
  for (int32_t len : pr.length) TC_CHECK(len > 0, "a batch playout has no actions");
  st.playouts += n;
  std::vector<BotSpec> bots(3);
  bots[0].kind = BotSpec::kRandom;
  bots[1].kind = BotSpec::kGreedy;
  bots[2].kind = BotSpec::kMcts;
  bots[2].mcts.iterations = 20;
  bots[2].mcts.threads = threads;
  bots[2].mcts.max_nodes = 1000;
  const int games = std::max(2, n / 4);
  const SelfPlayResults r = self_play<S>(cfg, bots, games, seed, threads, true, true);
  TC_CHECK(r.player.size() == r.game.size(), "self_play record lengths differ");
  TC_CHECK(r.observation.size() == r.player.size() * static_cast<size_t>(r.obs_size), "self_play observation rows");
  for (size_t row = 0; row < r.player.size(); ++row) {
    double total = 0;
    for (int a = 0; a < r.num_actions; ++a) {
      const float p = r.policy[row * r.num_actions + a];
      TC_CHECK(p == 0 || r.legal_mask[row * r.num_actions + a], "self_play policy on an illegal action");
      total += p;
    }
    TC_CHECK(std::fabs(total - 1.0) < 1e-4, "self_play policy row does not sum to 1");
  }
  // Replaying a recorded game from its seed reaches the same outcome (thread-count independence).
  for (int64_t g = 0; g < r.games; ++g) {
    S s(cfg, static_cast<uint64_t>(r.state_seed[g]));
    for (int32_t a : r.actions[g]) {
      TC_CHECK(s.is_legal(a), "a recorded self_play action does not replay");
      s.apply(a);
    }
    TC_CHECK(s.is_terminal(), "a replayed self_play game is not over");
    std::vector<double> sc(s.num_players());
    s.scores(sc.data());
    for (int p = 0; p < s.num_players(); ++p) TC_CHECK(sc[p] == r.scores[g * r.players + p], "replayed scores differ");
  }
  st.selfplay_games += games;
}

// VectorEnv on `threads` threads against one thread, stepped together with sample_legal(): every
// sampled action passes check(), and every buffer is identical after every call (the pool hands
// games to threads in any split; the results must not depend on it).
template <class S>
void vector_checks(const typename S::Config& cfg, int n, uint64_t seed, int threads, Stats& st) {
  auto shared = std::make_shared<const typename S::Config>(cfg);
  VectorSpec spec;
  spec.num_envs = std::max(8, n * 2);
  spec.seed = seed;
  spec.threads = threads;
  VectorEnv<S> many(shared, spec);
  spec.threads = 1;
  VectorEnv<S> one(shared, spec);
  many.reset(false, seed);
  one.reset(false, seed);
  for (int step = 0; step < 100; ++step) {
    many.sample_legal();
    one.sample_legal();
    const auto& a = many.buffers();
    const auto& b = one.buffers();
    TC_CHECK(a.sample == b.sample, "VectorEnv: sample_legal() depends on the thread count");
    std::vector<int64_t> actions(a.sample.begin(), a.sample.end());
    TC_CHECK(many.check(actions.data()).empty(), "VectorEnv: a sampled action fails check()");
    many.step(actions.data());
    one.step(actions.data());
    TC_CHECK(a.observation == b.observation && a.legal_mask == b.legal_mask && a.rewards == b.rewards &&
                 a.terminated == b.terminated && a.current_player == b.current_player && a.episode == b.episode,
             "VectorEnv: a step's buffers depend on the thread count");
    st.actions += spec.num_envs;
  }
}

}  // namespace tilecraft::check
