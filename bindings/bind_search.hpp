// The search entry points every game gets from bind_game<S>: a searcher class (the engine of
// MCTSBot / ISMCTSBot, reachable as <State>.Searcher) and batch self-play (<State>.self_play); and
// the parsers of search options and bot specs that bind_vector.hpp and bind_puct.hpp share.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "bind_common.hpp"
#include "search/mcts.hpp"
#include "search/self_play.hpp"

namespace tilecraft {

namespace py = pybind11;

// A search configuration (search/options.hpp) from a dict of keyword arguments, by visiting its
// declarations: an option absent or None keeps its default; a number must be a real number (not a
// bool), an integer an integer in its range, a flag True or False, a choice one of its words. Unknown
// keys and bad values raise ValueError naming `who`, the option and what is allowed.
struct OptionsFromPy {
  const py::dict& d;
  const char* who;
  std::vector<const void*> given;  // the fields set from `d`
  size_t used = 0;                 // the keys of `d` read (given or None)

  // The value of `name`, or nullptr when it is absent or None.
  PyObject* value(const char* name, const void* field) {
    PyObject* v = PyDict_GetItemString(d.ptr(), name);  // borrowed
    if (v == nullptr) return nullptr;
    ++used;
    if (v == Py_None) return nullptr;
    given.push_back(field);
    return v;
  }
  template <class T>
  void integer(const char* name, T& x, long long low, long long high, const char*) {
    PyObject* v = value(name, &x);
    if (v == nullptr) return;
    const py::handle h(v);
    require<std::invalid_argument>(is_integer_arg(h), who, ": ", name, " must be an integer, got ", shown_value(h));
    const py::int_ n = integer_arg(h, name);
    int overflow = 0;
    const long long y = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
    require<std::invalid_argument>(overflow == 0 && y >= low && y <= high, who, ": ", name, " must be ",
                                   integer_range(low, high), ", got ", std::string(py::str(n)));
    x = static_cast<T>(y);
  }
  void number(const char* name, double& x, double, double, const char*, bool = false) {
    PyObject* v = value(name, &x);
    if (v == nullptr) return;
    const py::handle h(v);
    require<std::invalid_argument>(!py::isinstance<py::bool_>(h) && (py::isinstance<py::float_>(h) || py::isinstance<py::int_>(h)),
                                   who, ": ", name, " must be a number, got ", shown_value(h));
    x = h.cast<double>();  // the range: validate()
  }
  void flag(const char* name, bool& x, const char*) {
    PyObject* v = value(name, &x);
    if (v == nullptr) return;
    require<std::invalid_argument>(PyBool_Check(v), who, ": ", name, " must be True or False, got ",
                                   shown_value(py::handle(v)));
    x = v == Py_True;
  }
  void seed(const char* name, uint64_t& x, const char*) {
    PyObject* v = value(name, &x);
    if (v != nullptr) x = seed_arg(py::handle(v), who);
  }
  template <class E, size_t N>
  void choice(const char* name, E& x, const char* const (&words)[N], const char*) {
    PyObject* v = value(name, &x);
    if (v == nullptr) return;
    const py::handle h(v);
    const std::string word = py::isinstance<py::str>(h) ? h.cast<std::string>() : std::string();
    for (size_t i = 0; i < N; ++i)
      if (py::isinstance<py::str>(h) && word == words[i]) {
        x = static_cast<E>(i);
        return;
      }
    fail<std::invalid_argument>(who, ": ", name, " must be ", choice_range(words), ", got ", shown_value(h));
  }
};

// The names a configuration's visit() declares, in order.
struct OptionNames {
  std::vector<std::string> names;
  template <class T, class... Rest>
  void integer(const char* name, T&, Rest...) { names.emplace_back(name); }
  template <class... Rest>
  void number(const char* name, double&, Rest...) { names.emplace_back(name); }
  void flag(const char* name, bool&, const char*) { names.emplace_back(name); }
  void seed(const char* name, uint64_t&, const char*) { names.emplace_back(name); }
  template <class E, size_t N>
  void choice(const char* name, E&, const char* const (&)[N], const char*) { names.emplace_back(name); }
  std::string joined() const {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  }
};

template <class C>
std::string option_names() {
  C c;
  OptionNames v;
  c.visit(v);
  return v.joined();
}

// What the declarations of a configuration export: tilecraft._core.puct_options() / mcts_options(),
// one dict per option in declaration order: name, kind ('integer' | 'number' | 'flag' | 'seed' |
// 'choice'), default, low and high (None where there is no bound, or for flags and choices), choices
// (the words of a choice, else None), range (what is allowed, as the error messages say it) and doc.
struct OptionDescriptions {
  py::list out;
  void add(const char* name, const char* kind, py::object value, py::object low, py::object high, py::object choices,
           const std::string& range, const char* doc) {
    py::dict d;
    d["name"] = name;
    d["kind"] = kind;
    d["default"] = value;
    d["low"] = low;
    d["high"] = high;
    d["choices"] = choices;
    d["range"] = range;
    d["doc"] = doc;
    out.append(d);
  }
  static py::object bound(double x) { return std::isinf(x) ? py::object(py::none()) : py::object(py::float_(x)); }
  template <class T>
  void integer(const char* name, T& x, long long low, long long high, const char* doc) {
    add(name, "integer", py::int_(static_cast<long long>(x)), py::int_(low), py::int_(high), py::none(),
        integer_range(low, high), doc);
  }
  void number(const char* name, double& x, double low, double high, const char* doc, bool open = false) {
    add(name, "number", py::float_(x), bound(low), bound(high), py::none(), number_range(low, high, open), doc);
  }
  void flag(const char* name, bool& x, const char* doc) {
    add(name, "flag", py::bool_(x), py::none(), py::none(), py::none(), "True or False", doc);
  }
  void seed(const char* name, uint64_t& x, const char* doc) {
    add(name, "seed", py::int_(x), py::int_(0), py::int_(std::numeric_limits<uint64_t>::max()), py::none(),
        seed_range(), doc);
  }
  template <class E, size_t N>
  void choice(const char* name, E& x, const char* const (&words)[N], const char* doc) {
    py::list choices;
    for (const char* w : words) choices.append(w);
    add(name, "choice", py::str(words[static_cast<size_t>(x)]), py::none(), py::none(), choices, choice_range(words),
        doc);
  }
};

template <class C>
py::list option_descriptions() {
  C c;
  OptionDescriptions v;
  c.visit(v);
  return v.out;
}

// Calls config.complete(given) where the configuration has one (what unset options mean beside those given).
template <class C, class G>
auto complete_options(C& c, const G& given, int) -> decltype(c.complete(given), void()) {
  c.complete(given);
}
template <class C, class G>
void complete_options(C&, const G&, long) {}

template <class C>
C search_config_from_py(const py::dict& d, const char* who) {
  C c;
  OptionsFromPy v{d, who, {}, 0};
  c.visit(v);
  if (v.used != py::len(d)) {
    OptionNames names;
    c.visit(names);
    for (auto item : d) {
      const std::string key = py::str(item.first);
      if (std::find(names.names.begin(), names.names.end(), key) == names.names.end())
        fail<std::invalid_argument>(who, ": unknown option '", key, "'; the options are: ", names.joined());
    }
  }
  const auto given = [&v](const auto& field) {
    return std::find(v.given.begin(), v.given.end(), static_cast<const void*>(&field)) != v.given.end();
  };
  complete_options(c, given, 0);
  c.validate(who);
  return c;
}

inline MctsConfig mcts_config_from_py(const py::dict& d, const char* who) {
  return search_config_from_py<MctsConfig>(d, who);
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

// A bot spec of C++ self-play, VectorGame's opponents and batched PUCT self-play: a dict
// {"kind": "random" | "greedy" | "mcts" | "puct", ...search options}, a "puct" bot with the index of
// its evaluator ("evaluator"); `puct`: whether the caller plays PUCT bots (batched self-play).
inline BotSpec bot_spec_from_py(const py::handle& h, bool puct = false) {
  require<std::invalid_argument>(py::isinstance<py::dict>(h), "self_play: each bot must be a dict with a 'kind'");
  py::dict d = py::reinterpret_borrow<py::dict>(h);
  require<std::invalid_argument>(d.contains("kind"), "self_play: a bot dict needs 'kind' (random, greedy or mcts)");
  const std::string kind = py::str(d["kind"]);
  BotSpec b;
  py::dict rest;
  for (auto item : d) {
    const std::string key = py::str(item.first);
    if (key != "kind" && !(kind == "puct" && key == "evaluator")) rest[item.first] = item.second;
  }
  if (kind == "mcts") {
    b.kind = BotSpec::kMcts;
    b.mcts = mcts_config_from_py(rest, "self_play mcts bot");
  } else if (kind == "puct" && puct) {
    b.kind = BotSpec::kPuct;
    b.evaluator = d["evaluator"].cast<int32_t>();
    b.puct = search_config_from_py<PuctConfig>(rest, "self_play puct bot");
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

// The one result converter of C++ self-play and batched PUCT self-play: per game its scores,
// returns, winners, seats' bots, length, seed and actions; with `record`, the training rows
// (observations as uint8 codes with their codec when `compact`, else float32). A compact record that
// failed (r.compact_error) is a ValueError.
inline py::dict self_play_results_to_py(const SelfPlayResults& r, bool record, bool compact) {
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
           ("A tree-search engine for this game. Options: " + option_names<MctsConfig>() +
            " (tilecraft._core.mcts_options(); docs/search.md).").c_str())
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
        return self_play_results_to_py(r, record, compact);
      },
      py::arg("config"), py::arg("bots"), py::arg("n_games"), py::arg("seed") = SeedArg{},
      py::arg("threads") = IntArg<kArgThreads>{1}, py::arg("rotate") = true, py::arg("record") = false,
      py::arg("compact") = false, py::arg("progress") = py::none(),
      "Plays n_games between built-in bots entirely in C++ (GIL released; Ctrl-C raises KeyboardInterrupt). "
      "compact: record observations as uint8 codes (training[\"observation_codec\"] decodes them). Use tilecraft.self_play.");
}

}  // namespace tilecraft
