// PUCT with a Python evaluator, for every game bind_game<S> binds: <State>.PUCTSearcher (the engine
// of tilecraft.PUCTBot) and <State>.puct_self_play (batched self-play; use tilecraft.self_play).
// The C++ work runs with the GIL released; the GIL is taken only to call the evaluator, which gets
// fresh numpy arrays (observations, legal mask, seats) and returns (logits, values). The Python
// side (tilecraft.puct) wraps the user's evaluator so that what comes back is already checked
// (shapes, NaN) and float32; the checks here only guard the C++ side.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bind_common.hpp"
#include "bind_search.hpp"
#include "search/mlp.hpp"
#include "search/puct.hpp"

namespace tilecraft {

namespace py = pybind11;

inline PuctConfig puct_config_from_py(const py::dict& d, const char* who) {
  return search_config_from_py<PuctConfig>(d, who);
}

// tilecraft._core.check_puct_options(**options): the options PUCTSearcher(**options) would take, checked
// without a game (PUCTBot checks its options with it when it is made, and tilecraft.baselines a network
// file's search settings): ValueError naming the option and its range, nothing returned.
// tilecraft._core.check_mcts_options(who, **options): the same for MCTS/ISMCTS options (Searcher(**options)),
// the message starting with `who`.
inline void bind_search_options(py::module_& m) {
  m.attr("PUCT_MAX_SIMULATIONS") = kMaxPuctSimulations;  // a PUCT search's cap (and a time budget's, given alone)
  m.attr("MAX_SEARCH_SECONDS") = kMaxSearchSeconds;       // the largest time budget per move
  m.def("check_puct_options", [](const py::kwargs& kw) { puct_config_from_py(kw, "puct"); },
        "Checks PUCT search options as PUCTSearcher(**options) does (ValueError naming the option and its range).");
  m.def("puct_options", &option_descriptions<PuctConfig>,
        "The PUCT search options as PuctConfig declares them, in order: dicts with name, kind ('integer', "
        "'number', 'flag', 'seed' or 'choice'), default, low, high (None: no bound), choices, range and doc.");
  m.def("mcts_options", &option_descriptions<MctsConfig>,
        "The MCTS / ISMCTS search options as MctsConfig declares them, in order (the keys as puct_options()'s).");
  m.def("check_mcts_options", [](const std::string& who, const py::kwargs& kw) { mcts_config_from_py(kw, who.c_str()); },
        py::arg("who"), "Checks MCTS / ISMCTS search options as Searcher(**options) does (ValueError naming `who`, "
        "the option and its range).");
}

// Calls a (wrapped) Python evaluator on a buffer: takes the GIL, hands over copies of the inputs,
// copies the outputs back.
struct PyEvaluatorCall {
  std::vector<py::ssize_t> obs_shape;  // of one observation
  const char* game = "";

  void operator()(const py::handle& fn, EvalBuffer& buf) const {
    py::gil_scoped_acquire gil;
    const py::ssize_t rows = buf.rows, na = buf.num_actions, np_ = buf.players;
    std::vector<py::ssize_t> shape{rows};
    shape.insert(shape.end(), obs_shape.begin(), obs_shape.end());
    py::array_t<float> obs(shape);
    std::memcpy(obs.mutable_data(), buf.obs.data(), sizeof(float) * rows * buf.obs_size);
    py::array_t<bool> mask({rows, na});
    std::memcpy(mask.mutable_data(), buf.mask.data(), static_cast<size_t>(rows * na));
    py::array_t<int32_t> players(rows);
    std::memcpy(players.mutable_data(), buf.player.data(), sizeof(int32_t) * rows);
    py::object out = fn(obs, mask, players);
    require<std::invalid_argument>(py::isinstance<py::tuple>(out) && py::len(out) == 2, game,
                                   ": the evaluator must return (policy_logits, values)");
    py::tuple t = out;
    auto logits = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(t[0]);
    auto values = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(t[1]);
    require<std::invalid_argument>(logits && logits.ndim() == 2 && logits.shape(0) == rows && logits.shape(1) == na,
                                   game, ": the evaluator's policy_logits must have shape (", rows, ", ", na, ")");
    require<std::invalid_argument>(values && values.ndim() == 2 && values.shape(0) == rows && values.shape(1) == np_,
                                   game, ": the evaluator's values must have shape (", rows, ", ", np_, ")");
    std::memcpy(buf.logits.data(), logits.data(), sizeof(float) * rows * na);
    std::memcpy(buf.values.data(), values.data(), sizeof(float) * rows * np_);
  }
};

template <class S>
py::dict puct_result_to_py(const S& s, const PuctResult& r) {
  const py::ssize_t n = s.num_distinct_actions();
  py::array_t<int64_t> visits(n);
  py::array_t<float> policy(n), prior(n);
  py::array_t<double> values(n);
  std::memset(visits.mutable_data(), 0, sizeof(int64_t) * n);
  std::memset(policy.mutable_data(), 0, sizeof(float) * n);
  std::memset(prior.mutable_data(), 0, sizeof(float) * n);
  std::memset(values.mutable_data(), 0, sizeof(double) * n);
  for (size_t i = 0; i < r.actions.size(); ++i) {
    visits.mutable_data()[r.actions[i]] = r.visits[i];
    values.mutable_data()[r.actions[i]] = r.values[i];
    policy.mutable_data()[r.actions[i]] = static_cast<float>(r.policy[i]);
    prior.mutable_data()[r.actions[i]] = static_cast<float>(r.prior[i]);
  }
  py::dict d;
  d["action"] = r.action;
  d["visits"] = visits;
  d["policy"] = policy;
  d["values"] = values;
  d["prior"] = prior;
  d["root_value"] = r.root_value;
  d["simulations"] = r.simulations;
  d["nodes"] = r.nodes;
  d["evaluations"] = r.evaluations;
  return d;
}

// The engine of PUCTBot: one search at a time, its tree rebuilt for every search. Searches run
// with the GIL released, so Python threads sharing one searcher (one bot) take turns on `busy`.
// `searching` is the thread inside: an evaluator that calls the same searcher again from that
// thread (a nested search) is refused instead of overwriting the tree under the search.
template <class S>
struct PuctSearcher {
  PuctConfig cfg;
  PuctWorlds<S> search;
  EvalBuffer buf;
  std::mutex busy;
  std::atomic<std::thread::id> searching{};
};

template <class S, class Cls>
void bind_puct(py::module_& m, Cls& cls, const std::string& class_name) {
  using P = PyState<S>;
  using Searcher = PuctSearcher<S>;
  py::class_<Searcher> searcher(m, (class_name + "PUCTSearcher").c_str());
  searcher
      .def(py::init([](const py::kwargs& kw) {
             auto s = std::make_unique<Searcher>();
             s->cfg = puct_config_from_py(kw, "puct");
             return s;
           }),
           "PUCT guided by an evaluator; use tilecraft.PUCTBot.")
      .def("search",
           [](Searcher& self, const P& p, const py::object& evaluator, double spent) {
             require<std::runtime_error>(self.searching.load() != std::this_thread::get_id(), S::kName,
                                         " PUCTSearcher.search: this searcher (bot) is already searching on this "
                                         "thread: its evaluator called it again. A nested search needs a bot of "
                                         "its own; the outer search goes on unharmed");
             // Copied under the GIL: another Python thread may apply actions to `p` meanwhile.
             const S s = p.s;
             const size_t history_len = p.hist.size();
             const std::vector<int> shape = s.observation_shape();
             PyEvaluatorCall call{std::vector<py::ssize_t>(shape.begin(), shape.end()), S::kName};
             const MlpNet* native = py::isinstance<MlpNet>(evaluator) ? &evaluator.cast<const MlpNet&>() : nullptr;
             if (native) native->check(s.observation_size(), s.num_distinct_actions(), s.num_players());
             PuctResult r;
             {
               py::gil_scoped_release release;  // before waiting: the thread searching needs the GIL
               std::lock_guard<std::mutex> lock(self.busy);
               self.searching.store(std::this_thread::get_id());
               struct Clear {
                 std::atomic<std::thread::id>& id;
                 ~Clear() { id.store(std::thread::id{}); }
               } clear{self.searching};
               self.buf.init(s.observation_size(), s.num_distinct_actions(), s.num_players());
               PuctConfig cfg = self.cfg;  // a time budget counts what the caller spent before the search
               if (cfg.seconds > 0) cfg.seconds = std::max(cfg.seconds - std::max(spent, 0.0), 1e-9);
               if (native)  // the whole search in C++
                 r = run_puct(self.search, self.buf, s, history_len, cfg, [&](EvalBuffer& b) { native->evaluate(b); });
               else
                 r = run_puct(self.search, self.buf, s, history_len, cfg, [&](EvalBuffer& b) { call(evaluator, b); });
             }
             return puct_result_to_py(s, r);
           },
           py::arg("state"), py::arg("evaluator"), py::arg("spent") = 0.0,
           "Searches from `state` (a re-determinized copy) calling evaluator(observations, legal_mask, players) "
           "-> (logits float32 (B, A), values float32 (B, players)) on batches of at most batch_size leaves. "
           "`spent`: seconds of the move's time budget already used by the caller.");
  cls.attr("PUCTSearcher") = searcher;

  cls.def_static(
      "puct_self_play",
      [](const py::dict& config, const py::list& bots, const py::list& evaluators, long long n_games,
         long long first_game, SeedArg seed, int concurrent, bool rotate, bool record, bool compact) {
        auto cfg = config_from_py<S>(config);
        std::vector<BotSpec> specs;
        for (auto h : bots) specs.push_back(bot_spec_from_py(h, true));
        const S probe(*cfg, 0);
        const std::vector<int> shape = probe.observation_shape();
        PyEvaluatorCall call{std::vector<py::ssize_t>(shape.begin(), shape.end()), S::kName};
        std::vector<py::object> fns;
        std::vector<const MlpNet*> natives;  // an MlpNet evaluator runs in C++, without the GIL
        for (auto e : evaluators) {
          fns.push_back(py::reinterpret_borrow<py::object>(e));
          natives.push_back(py::isinstance<MlpNet>(e) ? &e.cast<const MlpNet&>() : nullptr);
          if (natives.back())
            natives.back()->check(probe.observation_size(), probe.num_distinct_actions(), probe.num_players());
        }
        PuctSelfPlayStats stats;
        double seconds_native = 0.0;  // inside MlpNet evaluators (part of seconds_evaluator_calls)
        SelfPlayResults r;
        {
          py::gil_scoped_release release;
          r = puct_self_play<S>(*cfg, specs, static_cast<int>(fns.size()), n_games, first_game, seed.value,
                                concurrent, rotate, record, compact, [&](int e, EvalBuffer& b) {
                                  if (!natives[e]) return call(fns[e], b);
                                  const auto t = std::chrono::steady_clock::now();
                                  natives[e]->evaluate(b);
                                  seconds_native += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
                                }, stats);
        }
        py::dict d = self_play_results_to_py(r, record, compact);
        py::dict st;
        st["evaluator_calls"] = stats.calls;
        st["evaluator_rows"] = stats.rows;
        st["steps"] = stats.steps;
        st["full_calls"] = stats.full_calls;
        st["full_rows"] = stats.full_rows;
        st["simulations"] = stats.simulations;
        st["searches"] = stats.searches;
        st["seconds_cpp"] = stats.seconds_cpp;
        st["seconds_evaluator_calls"] = stats.seconds_eval;
        st["seconds_native"] = seconds_native;
        d["stats"] = st;
        return d;
      },
      py::arg("config"), py::arg("bots"), py::arg("evaluators"), py::arg("n_games"), py::arg("first_game") = 0,
      py::arg("seed") = 0, py::arg("concurrent") = 256, py::arg("rotate") = true, py::arg("record") = false,
      py::arg("compact") = false,
      "Batched self-play with PUCT bots guided by Python evaluators. compact: record observations as uint8 "
      "codes (training[\"observation_codec\"] decodes them). Use tilecraft.self_play.");
}

}  // namespace tilecraft
