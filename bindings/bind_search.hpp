// The search entry points every game gets from bind_game<S>: a searcher class (the engine of
// MCTSBot / ISMCTSBot, reachable as <State>.Searcher) and batch self-play (<State>.self_play); and
// the parsers of search options and bot specs that bind_vector.hpp and bind_puct.hpp share.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "bind_common.hpp"
#include "search/mcts.hpp"
#include "search/self_play.hpp"

namespace tilecraft {

namespace py = pybind11;

// A rollout policy's name ('random' | 'greedy'), as MCTS and PUCT options both take it.
inline Rollout rollout_arg(const py::handle& h, const char* who) {
  const std::string r = py::str(h);
  require<std::invalid_argument>(r == "random" || r == "greedy", who, ": rollout must be 'random' or 'greedy', got '", r,
                                 "'");
  return r == "random" ? Rollout::kRandom : Rollout::kGreedy;
}

// A determinization mode's name ('iteration' | 'search'), as MCTS and PUCT options both take it.
inline Determinize determinize_arg(const py::handle& h, const char* who) {
  const std::string r = py::str(h);
  require<std::invalid_argument>(r == "iteration" || r == "search", who,
                                 ": determinize must be 'iteration' (re-drawn every iteration) or 'search' (one per "
                                 "search), got '", r, "'");
  return r == "iteration" ? Determinize::kPerIteration : Determinize::kPerSearch;
}

// Option `key` of `d` into `out` (left as it is when absent or None): a real number for a floating
// field, an integer that fits the field for an integral one; ValueError naming the option otherwise.
template <class T>
void option_number(const py::dict& d, const char* key, T& out, const char* who) {
  if (!d.contains(key) || d[key].is_none()) return;
  const py::handle v = d[key];
  if constexpr (std::is_floating_point_v<T>) {
    require<std::invalid_argument>(!py::isinstance<py::bool_>(v) && (py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v)),
                                   who, ": ", key, " must be a number, got ", std::string(py::repr(v)));
    out = v.cast<T>();
  } else {
    require<std::invalid_argument>(is_integer_arg(v), who, ": ", key, " must be an integer, got ", shown_value(v));
    long long x = 0;
    try {
      x = integer_arg(v, key).cast<long long>();
    } catch (const py::cast_error&) {
      fail<std::invalid_argument>(who, ": ", key, " = ", std::string(py::str(v)), " is out of range");
    }
    out = static_cast<T>(x);
    require<std::invalid_argument>(static_cast<long long>(out) == x, who, ": ", key, " = ", x, " is out of range");
  }
}

// Search options from a dict (keyword arguments). Unknown keys and bad values raise ValueError
// naming the option and what is allowed.
inline MctsConfig mcts_config_from_py(const py::dict& d, const char* who) {
  MctsConfig c;
  static const char* const known[] = {"iterations", "seconds", "exploration", "rollout", "rollout_depth", "eval_scale",
                                      "threads", "seed", "reuse_tree", "determinize", "max_nodes"};
  for (auto item : d) {
    const std::string key = py::str(item.first);
    bool ok = false;
    for (const char* k : known) ok |= key == k;
    if (!ok) {
      std::string names;
      for (const char* k : known) names += names.empty() ? k : std::string(", ") + k;
      fail<std::invalid_argument>(who, ": unknown option '", key, "'; the options are: ", names);
    }
  }
  auto number = [&](const char* key, auto& out) { option_number(d, key, out, who); };
  number("iterations", c.iterations);
  number("seconds", c.seconds);
  number("exploration", c.exploration);
  number("rollout_depth", c.rollout_depth);
  number("eval_scale", c.eval_scale);
  number("threads", c.threads);
  number("max_nodes", c.max_nodes);
  if (d.contains("seed") && !d["seed"].is_none()) c.seed = seed_arg(d["seed"], who);
  if (d.contains("iterations") && d["iterations"].is_none()) c.iterations = 0;
  if (d.contains("seconds") && !d["seconds"].is_none() && !d.contains("iterations")) c.iterations = 0;
  if (d.contains("rollout")) c.rollout = rollout_arg(d["rollout"], who);
  if (d.contains("determinize")) c.determinize = determinize_arg(d["determinize"], who);
  if (d.contains("reuse_tree")) {
    require<std::invalid_argument>(py::isinstance<py::bool_>(d["reuse_tree"]), who, ": reuse_tree must be True or False");
    c.reuse_tree = d["reuse_tree"].cast<bool>();
  }
  try {
    c.validate();
  } catch (const std::invalid_argument& e) {  // "mcts: ..." -> "<who>: ..."
    const std::string msg = e.what();
    throw std::invalid_argument(who + msg.substr(msg.find(':')));
  }
  return c;
}

template <class S>
py::dict search_result_to_py(const S& s, const SearchResult& r) {
  const py::ssize_t n = s.num_distinct_actions();
  py::array_t<int64_t> visits(n);
  py::array_t<float> policy(n);
  py::array_t<double> values(n);
  std::memset(visits.mutable_data(), 0, sizeof(int64_t) * n);
  std::memset(policy.mutable_data(), 0, sizeof(float) * n);
  std::memset(values.mutable_data(), 0, sizeof(double) * n);
  int64_t total = 0;
  for (int64_t v : r.visits) total += v;
  for (size_t i = 0; i < r.actions.size(); ++i) {
    visits.mutable_data()[r.actions[i]] = r.visits[i];
    values.mutable_data()[r.actions[i]] = r.values[i];
    policy.mutable_data()[r.actions[i]] = total ? static_cast<float>(r.visits[i]) / total : 0.0f;
  }
  py::dict d;
  d["action"] = r.action;
  d["visits"] = visits;
  d["policy"] = policy;
  d["values"] = values;
  d["iterations"] = r.iterations;
  d["nodes"] = r.nodes;
  d["seconds"] = r.seconds;
  return d;
}

// Bot specs for self_play: dicts {"kind": "random" | "greedy" | "mcts", ...search options}.
inline BotSpec bot_spec_from_py(const py::handle& h) {
  require<std::invalid_argument>(py::isinstance<py::dict>(h), "self_play: each bot must be a dict with a 'kind'");
  py::dict d = py::reinterpret_borrow<py::dict>(h);
  require<std::invalid_argument>(d.contains("kind"), "self_play: a bot dict needs 'kind' (random, greedy or mcts)");
  const std::string kind = py::str(d["kind"]);
  BotSpec b;
  py::dict rest;
  for (auto item : d)
    if (std::string(py::str(item.first)) != "kind") rest[item.first] = item.second;
  if (kind == "mcts") {
    b.kind = BotSpec::kMcts;
    b.mcts = mcts_config_from_py(rest, "self_play mcts bot");
  } else {
    require<std::invalid_argument>(kind == "random" || kind == "greedy", "self_play: unknown bot kind '", kind,
                                   "'; C++ self-play knows random, greedy and mcts");
    require<std::invalid_argument>(rest.empty() || (rest.size() == 1 && rest.contains("seed")), "self_play: the ", kind,
                                   " bot takes no options");
    b.kind = kind == "random" ? BotSpec::kRandom : BotSpec::kGreedy;
  }
  return b;
}

template <class T>
py::array_t<T> to_array(const std::vector<T>& v, std::vector<py::ssize_t> shape) {
  py::array_t<T> a(shape);
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), sizeof(T) * v.size());
  return a;
}

// A searcher and its lock. Searches run with the GIL released, so two Python threads may call one
// searcher (a bot shared between threads) at once: they take turns instead of racing on its trees.
template <class S>
struct LockedSearcher {
  MctsSearcher<S> searcher;
  std::mutex busy;
  explicit LockedSearcher(const MctsConfig& c) : searcher(c) {}
};

template <class S, class Cls>
void bind_search(py::module_& m, Cls& cls, const std::string& class_name) {
  using P = PyState<S>;
  using Searcher = LockedSearcher<S>;
  py::class_<Searcher> searcher(m, (class_name + "Searcher").c_str());
  // The state and its history are copied while the GIL is held: another Python thread may apply
  // actions to the same state object while the search runs without the GIL.
  searcher
      .def(py::init([](const py::kwargs& kw) { return std::make_unique<Searcher>(mcts_config_from_py(kw, "mcts")); }),
           "A tree-search engine for this game. Options: iterations, seconds, exploration, rollout "
           "('random' | 'greedy'), rollout_depth, eval_scale, threads, seed, reuse_tree, determinize "
           "('iteration' | 'search'), max_nodes. See docs/bots.md.")
      .def("search",
           [](Searcher& self, const P& p) {
             const S s = p.s;
             const std::vector<int32_t> hist = p.hist;
             const SearchResult r = run_interruptible([&] {
               std::lock_guard<std::mutex> lock(self.busy);
               return self.searcher.search(s, hist);
             });
             return search_result_to_py(s, r);
           },
           py::arg("state"),
           "Searches from `state` (on re-determinized copies: its hidden parts are never read) and returns "
           "{action, visits, policy, values, iterations, nodes, seconds}; arrays are indexed by action id.")
      .def("act",
           [](Searcher& self, const P& p) {
             const S s = p.s;
             const std::vector<int32_t> hist = p.hist;
             return run_interruptible([&] {
                      std::lock_guard<std::mutex> lock(self.busy);
                      return self.searcher.search(s, hist);
                    }).action;
           },
           py::arg("state"), "The most visited root action.")
      .def("reset",
           [](Searcher& self) {
             py::gil_scoped_release release;
             std::lock_guard<std::mutex> lock(self.busy);
             self.searcher.reset();
           },
           "Forgets the kept tree (call it before a new game).");
  cls.attr("Searcher") = searcher;

  cls.def_static(
      "self_play",
      [](const py::dict& config, const py::list& bots, IntArg<kArgGames> n_games_arg, SeedArg seed,
         IntArg<kArgThreads> threads_arg, bool rotate, bool record, bool compact, py::object progress) {
        const long long n_games = n_games_arg.value, threads = threads_arg.value;
        require<std::invalid_argument>(n_games >= 0 && n_games <= (1LL << 40), "self_play: n_games must be 0..2**40, got ",
                                       n_games);
        require<std::invalid_argument>(threads >= 1 && threads <= 256, "self_play: threads must be 1..256, got ", threads);
        auto cfg = config_from_py<S>(config);
        std::vector<BotSpec> specs;
        for (auto b : bots) specs.push_back(bot_spec_from_py(b));
        SelfPlayResults r = run_interruptible(
            [&] { return self_play<S>(*cfg, specs, n_games, seed.value, static_cast<int>(threads), rotate, record, compact); },
            progress);
        require<std::invalid_argument>(r.compact_error.empty(), "self_play: ", r.compact_error);
        const py::ssize_t g = r.games, np = r.players;
        py::dict d;
        d["scores"] = to_array(r.scores, {g, np});
        d["returns"] = to_array(r.returns, {g, np});
        py::array_t<bool> winners({g, np});
        if (g) std::memcpy(winners.mutable_data(), r.winners.data(), r.winners.size());
        d["winners"] = winners;
        d["seat_bot"] = to_array(r.seat_bot, {g, np});
        d["length"] = to_array(r.length, {g});
        d["state_seed"] = to_array(r.state_seed, {g});
        py::list actions;
        for (const auto& a : r.actions) actions.append(to_array(a, {static_cast<py::ssize_t>(a.size())}));
        d["actions"] = actions;
        if (record) {
          const py::ssize_t rows = static_cast<py::ssize_t>(r.player.size());
          py::dict t;
          if (compact) {
            t["observation"] = to_array(r.observation_u8, {rows, r.obs_size});
            // the decoding: float32 observation = code / denominator + offset (cpp/core/codec.hpp)
            t["observation_codec"] = py::make_tuple(to_array(r.codec_denominator, {r.obs_size}),
                                                    to_array(r.codec_offset, {r.obs_size}));
          } else {
            t["observation"] = to_array(r.observation, {rows, r.obs_size});
          }
          py::array_t<bool> mask({rows, static_cast<py::ssize_t>(r.num_actions)});
          if (rows) std::memcpy(mask.mutable_data(), r.legal_mask.data(), r.legal_mask.size());
          t["legal_mask"] = mask;
          t["policy"] = to_array(r.policy, {rows, r.num_actions});
          t["search_value"] = to_array(r.search_value, {rows});
          t["player"] = to_array(r.player, {rows});
          t["game"] = to_array(r.game, {rows});
          t["returns"] = to_array(r.final_returns, {rows, np});
          d["training"] = t;
        }
        return d;
      },
      py::arg("config"), py::arg("bots"), py::arg("n_games"), py::arg("seed") = SeedArg{},
      py::arg("threads") = IntArg<kArgThreads>{1}, py::arg("rotate") = true, py::arg("record") = false,
      py::arg("compact") = false, py::arg("progress") = py::none(),
      "Plays n_games between built-in bots entirely in C++ (GIL released; Ctrl-C raises KeyboardInterrupt). "
      "compact: record observations as uint8 codes (training[\"observation_codec\"] decodes them). Use tilecraft.self_play.");
}

}  // namespace tilecraft
