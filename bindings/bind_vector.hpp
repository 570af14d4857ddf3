// The batched environment every game gets from bind_game<S>:
// <State>.Vector, the engine of tilecraft.VectorGame (python/tilecraft/vector.py).
// Its arrays are numpy views of buffers the C++ object owns and rewrites on every call.
// Evaluator opponents are Python callables (tilecraft.puct.EvaluatorCall wrappers, which check
// what comes back) called through bind_puct.hpp's PyEvaluatorCall, the GIL taken only for them.
// They are handed to every reset() and step() rather than kept here: a C++ object holding Python
// objects hides them from the garbage collector (an evaluator that refers back to its VectorGame,
// a bound method of a trainer holding both, would never be freed).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bind_common.hpp"
#include "bind_puct.hpp"
#include "bind_search.hpp"
#include "search/vector_env.hpp"

namespace tilecraft {

namespace py = pybind11;

template <class S>
struct PyVector {
  VectorEnv<S> env;
  std::mutex busy;  // one call at a time (the GIL is released inside)
  std::atomic<std::thread::id> holder{};  // the thread inside a call (tells re-entry from another thread)
  std::vector<int64_t> actions;
  // Set while reset() or step() runs; left set when one was interrupted (Ctrl-C) or failed, whose
  // games are then part-way through the call: every call but reset() refuses until reset().
  std::string broken;
  PyEvaluatorCall call;  // hands a batch to an evaluator and copies its logits back

  PyVector(std::shared_ptr<const typename S::Config> cfg, const VectorSpec& spec) : env(std::move(cfg), spec) {
    const S probe(*env.config(), 0);
    const std::vector<int> shape = probe.observation_shape();
    call = PyEvaluatorCall{std::vector<py::ssize_t>(shape.begin(), shape.end()), S::kName};
  }

  // The call's `evaluators` argument, checked and read with the GIL held: references held for the
  // call (made and dropped with the GIL held; an evaluator may change the list meanwhile).
  std::vector<py::object> evaluator_refs(const py::list& fns, const char* call_name) const {
    require<std::invalid_argument>(static_cast<int>(py::len(fns)) == env.evaluators(), "VectorGame.", call_name,
                                   ": this environment has ", env.evaluators(),
                                   " evaluator opponent(s), to be given as `evaluators`; got ", py::len(fns));
    std::vector<py::object> out;
    for (auto f : fns) {
      require<std::invalid_argument>(PyCallable_Check(f.ptr()) != 0, "VectorGame.", call_name,
                                     ": an evaluator must be callable");
      out.push_back(py::reinterpret_borrow<py::object>(f));
    }
    return out;
  }
  // What reset() and step() call for evaluator k's batch: on the calling thread, with the GIL
  // released around it (PyEvaluatorCall takes it). Empty without evaluators.
  VectorEvaluatorFn evaluator_fn(const std::vector<py::object>& fns) {
    if (fns.empty()) return {};
    return [this, &fns](int k, EvalBuffer& buf) { call(fns[k], buf); };
  }
};

// The object's lock for one call, and the note of which thread holds it.
struct VectorCallLock {
  std::unique_lock<std::mutex> lock;
  std::atomic<std::thread::id>* holder;
  ~VectorCallLock() {
    if (lock.owns_lock()) holder->store(std::thread::id{});
  }
};

// Holds the object's lock for a call, or says plainly why it cannot: another thread is inside, or
// this thread is (an evaluator or opponent calling back into the VectorGame that is calling it).
template <class V>
VectorCallLock vector_lock(V& v) {
  std::unique_lock<std::mutex> lock(v.busy, std::try_to_lock);
  if (!lock.owns_lock()) {
    require<std::runtime_error>(v.holder.load() != std::this_thread::get_id(),
                                "VectorGame: re-entry: this VectorGame was called from inside one of its own calls "
                                "(an evaluator called by reset() or step() called it back, on the same thread); a "
                                "nested game needs a VectorGame of its own");
    fail<std::runtime_error>("VectorGame: another thread is calling this VectorGame; use one per thread");
  }
  v.holder.store(std::this_thread::get_id());
  return VectorCallLock{std::move(lock), &v.holder};
}

// Refuses a call on games left part-way through an interrupted or failed reset() / step().
template <class V>
void check_not_broken(const V& v, const char* call) {
  require<std::runtime_error>(v.broken.empty(), "VectorGame.", call, ": the last ", v.broken,
                              " was interrupted or failed part-way, so its games are in no defined state; call "
                              "reset() to start new episodes");
}

// Runs a reset() or step() of `v` (GIL released, Ctrl-C reaching the opponents' searches through
// run_interruptible); until it returns normally the games count as broken.
template <class V, class F>
void run_vector_call(V& v, const char* call, F&& fn) {
  v.broken = call;
  run_interruptible([&] {
    fn();
    return 0;
  });
  v.broken.clear();
}

template <class T>
py::array view_of(std::vector<T>& v, std::vector<py::ssize_t> shape, const py::handle& owner) {
  return py::array_t<T>(shape, v.data(), owner);
}

// The actions of one step as int64, checked for shape and dtype (values are checked in C++; a
// uint64 above the int64 range is refused here, with its real value).
inline void actions_from_py(const py::handle& obj, int64_t n, std::vector<int64_t>& out, const char* game,
                            int num_actions) {
  py::array arr;
  try {
    arr = py::array::ensure(obj);
  } catch (const py::error_already_set&) {
  }
  require<std::invalid_argument>(arr.ptr() != nullptr, "VectorGame.step: actions must be an array of ", n,
                                 " integers, got ", std::string(py::str(py::type::of(obj).attr("__name__"))));
  const char kind = arr.dtype().kind();
  require<std::invalid_argument>(kind == 'i' || kind == 'u', "VectorGame.step: actions must be integers (one action id per env), got dtype ",
                                 std::string(py::str(arr.dtype())));
  require<std::invalid_argument>(arr.ndim() == 1 && arr.shape(0) == n, "VectorGame.step: actions must have shape (",
                                 n, ",) (one per env), got shape ",
                                 std::string(py::str(py::tuple(py::cast(std::vector<py::ssize_t>(arr.shape(), arr.shape() + arr.ndim()))))));
  out.resize(n);
  if (kind == 'u' && arr.itemsize() == 8) {
    auto a = py::array_t<uint64_t, py::array::forcecast>::ensure(arr);
    const uint64_t* p = a.data();
    for (int64_t i = 0; i < n; ++i) {
      if (p[i] > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        throw IllegalAction(std::string(game) + " VectorGame.step: env " + std::to_string(i) + ": action " +
                            std::to_string(p[i]) + " is out of range: action ids are 0.." +
                            std::to_string(num_actions - 1) + "; nothing was applied to any env");
      out[i] = static_cast<int64_t>(p[i]);
    }
    return;
  }
  auto a = py::array_t<int64_t, py::array::forcecast | py::array::c_style>::ensure(arr);
  std::memcpy(out.data(), a.data(), sizeof(int64_t) * n);
}

template <class S, class Cls>
void bind_vector(py::module_& m, Cls& cls, const std::string& class_name) {
  using V = PyVector<S>;
  using P = PyState<S>;
  if (!py::hasattr(m, "mix_seed"))
    m.def("mix_seed", [](uint64_t seed, uint64_t stream) { return mix_seed(seed, stream); }, py::arg("seed"),
          py::arg("stream"), "The engine's seed mixer (cpp/core/rng.hpp): a 64-bit seed for stream `stream` of `seed`.");

  py::class_<V> vec(m, (class_name + "Vector").c_str());
  vec.def(py::init([](const py::dict& config, long long num_envs, uint64_t seed, int threads, int learner,
                      const py::list& opponents, bool all_observations, int evaluators) {
            VectorSpec spec;
            spec.num_envs = num_envs;
            spec.seed = seed;
            spec.threads = threads;
            spec.learner = learner;
            spec.all_observations = all_observations;
            spec.evaluators = evaluators;
            for (auto b : opponents) {
              // {"kind": "evaluator", "index": k}: the seat is played by evaluators[k]
              const bool by_evaluator = py::isinstance<py::dict>(b) && b.cast<py::dict>().contains("kind") &&
                                        std::string(py::str(b["kind"])) == "evaluator";
              spec.opponents.push_back(by_evaluator ? BotSpec{} : bot_spec_from_py(b));
              spec.opponent_evaluator.push_back(by_evaluator ? b["index"].cast<int>() : -1);
            }
            auto cfg = config_from_py<S>(config);
            return std::make_unique<V>(cfg, spec);
          }),
          py::arg("config"), py::arg("num_envs"), py::arg("seed") = 0, py::arg("threads") = 1, py::arg("learner") = kEverySeat,
          py::arg("opponents") = py::list(), py::arg("all_observations") = false, py::arg("evaluators") = 0,
          "N games held in C++ (use tilecraft.VectorGame, which validates its arguments). An opponent is a bot dict "
          "(self_play's) or {'kind': 'evaluator', 'index': k}, k < `evaluators`: then the k-th evaluator given to "
          "reset() and step(), evaluate(observations, legal_mask, players) -> (logits, values), plays it (the argmax "
          "of its logits over the legal actions).")
      .def_property_readonly("num_envs", [](const V& v) { return v.env.num_envs(); })
      .def_property_readonly("players", [](const V& v) { return v.env.players(); })
      .def_property_readonly("num_actions", [](const V& v) { return v.env.num_actions(); })
      .def_property_readonly("threads", [](const V& v) { return v.env.spec().threads; })
      .def_property_readonly("seed", [](const V& v) { return v.env.spec().seed; })
      .def_property_readonly("started", [](const V& v) { return v.env.started(); })
      .def_property_readonly("evaluators", [](const V& v) { return v.env.evaluators(); },
                             "How many evaluators play opponent seats (reset() and step() take them).")
      .def_property_readonly("observation_shape", [](const V& v) {
        S probe(*v.env.config(), 0);
        return py::tuple(py::cast(probe.observation_shape()));
      })
      .def("buffers",
           [](py::object self) {
             V& v = self.cast<V&>();
             VectorBuffers& b = v.env.buffers();
             const py::ssize_t n = v.env.num_envs(), np = v.env.players(), a = v.env.num_actions();
             S probe(*v.env.config(), 0);
             std::vector<py::ssize_t> obs_shape{n};
             if (v.env.all_observations()) obs_shape.push_back(np);
             for (int d : probe.observation_shape()) obs_shape.push_back(d);
             py::dict d;
             d["observation"] = view_of(b.observation, obs_shape, self);
             d["legal_mask"] = view_of(b.legal_mask, {n, a}, self).attr("view")("bool");
             d["current_player"] = view_of(b.current_player, {n}, self);
             d["rewards"] = view_of(b.rewards, {n, np}, self);
             d["terminated"] = view_of(b.terminated, {n}, self).attr("view")("bool");
             d["truncated"] = view_of(b.truncated, {n}, self).attr("view")("bool");
             d["episode"] = view_of(b.episode, {n}, self);
             d["reset"] = view_of(b.reset, {n}, self).attr("view")("bool");
             d["episode_returns"] = view_of(b.episode_returns, {n, np}, self);
             d["episode_length"] = view_of(b.episode_length, {n}, self);
             d["learner_seat"] = view_of(b.learner_seat, {n}, self);
             d["sample"] = view_of(b.sample, {n}, self);
             return d;
           },
           "numpy views (no copies) of the buffers every call rewrites, by field name.")
      .def("reset",
           [](V& v, py::object seed, const py::list& evaluators) {
             auto lock = vector_lock(v);
             const bool new_seed = !seed.is_none();
             const uint64_t s = new_seed ? seed.cast<uint64_t>() : 0;
             const std::vector<py::object> fns = v.evaluator_refs(evaluators, "reset");
             const VectorEvaluatorFn eval = v.evaluator_fn(fns);
             run_vector_call(v, "reset()", [&] { v.env.reset(new_seed, s, eval); });
           },
           py::arg("seed") = py::none(), py::arg("evaluators") = py::list(),
           "Starts a new episode in every game (from episode 0 of a new seed's stream), advanced to the learner's "
           "first decision (evaluator opponents called as in step()).")
      .def("step",
           [](V& v, py::handle actions, const py::list& evaluators) {
             auto lock = vector_lock(v);
             check_not_broken(v, "step");
             const std::vector<py::object> fns = v.evaluator_refs(evaluators, "step");
             const VectorEvaluatorFn eval = v.evaluator_fn(fns);
             actions_from_py(actions, v.env.num_envs(), v.actions, S::kName, v.env.num_actions());
             std::string problem;
             {
               py::gil_scoped_release release;
               problem = v.env.check(v.actions.data());
             }
             if (!problem.empty()) throw IllegalAction(problem);
             run_vector_call(v, "step()", [&] { v.env.step(v.actions.data(), eval); });
           },
           py::arg("actions"), py::arg("evaluators") = py::list(),
           "Applies one action per game after checking them all; raises IllegalActionError naming the first "
           "bad env and action, and then applies nothing. Evaluator opponents are called once per round on all "
           "the games waiting for them. Ctrl-C stops it (the opponents' searches included) with "
           "KeyboardInterrupt, and an evaluator's error fails it; then only reset() is accepted.")
      .def("sample_legal",
           [](V& v) {
             auto lock = vector_lock(v);
             check_not_broken(v, "sample_legal");
             py::gil_scoped_release release;
             v.env.sample_legal();
           },
           "Draws one uniformly random legal action per game into the 'sample' buffer.")
      .def("legal_actions",
           [](V& v) {
             auto lock = vector_lock(v);
             check_not_broken(v, "legal_actions");
             std::vector<int32_t> flat;
             std::vector<int64_t> offsets;
             v.env.legal_actions(flat, offsets);
             return py::make_tuple(to_array(flat, {static_cast<py::ssize_t>(flat.size())}),
                                   to_array(offsets, {static_cast<py::ssize_t>(offsets.size())}));
           },
           "(flat, offsets): game i's legal actions are flat[offsets[i]:offsets[i+1]] (none while it awaits its reset).")
      .def("state",
           [](V& v, IntArg<kArgEnv> env_arg) {
             const long long i = env_arg.value;
             auto lock = vector_lock(v);
             require<std::out_of_range>(i >= 0 && i < v.env.num_envs(), "VectorGame.state: env index must be 0..",
                                        v.env.num_envs() - 1, ", got ", i);
             P p(v.env.config(), 0);
             p.s = v.env.env(i).state;
             p.hist = v.env.env(i).history;
             p.origin = v.env.state_seed(v.env.env(i));  // the episode's game: make(seed=...) + history
             return p;
           },
           py::arg("env"), "A copy of game `env` as a state object (with its history).")
      .def("seeds",
           [](V& v, IntArg<kArgEnv> env_arg) {
             const long long i = env_arg.value;
             auto lock = vector_lock(v);
             require<std::out_of_range>(i >= 0 && i < v.env.num_envs(), "VectorGame.seeds: env index must be 0..",
                                        v.env.num_envs() - 1, ", got ", i);
             require<std::logic_error>(v.env.started(), "VectorGame: call reset() first");
             const auto& e = v.env.env(i);
             py::dict d;
             d["episode"] = e.episode;
             d["state_seed"] = v.env.state_seed(e);
             d["learner_seat"] = e.learner;
             py::list bots;
             if (e.learner != kEverySeat)
               for (int k = 0; k < v.env.players(); ++k) bots.append(e.learner == k ? py::object(py::none()) : py::int_(e.bot_seed[k]));
             d["bot_seeds"] = bots;
             return d;
           },
           py::arg("env"), "The seeds of game `env`'s current episode.");
  cls.attr("Vector") = vec;
}

}  // namespace tilecraft
