// The one binding template: gives any game's State (see cpp/core/game.hpp) the common Python API.
// A game's binding file calls bind_game<State>(m, "AzulState", "azul") and adds only its own views.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/codec.hpp"
#include "core/contract.hpp"
#include "core/errors.hpp"
#include "core/game.hpp"
#include "core/interrupt.hpp"
#include "core/threads.hpp"
#include "search/playout.hpp"

namespace tilecraft {

namespace py = pybind11;

// Registry of game binders: each bindings/<game>.cpp adds itself with TILECRAFT_REGISTER_GAME.
using Binder = void (*)(py::module_&);
std::vector<Binder>& game_binders();
struct RegisterGame {
  explicit RegisterGame(Binder b) { game_binders().push_back(b); }
};
#define TILECRAFT_REGISTER_GAME(fn) static ::tilecraft::RegisterGame tilecraft_register_##fn(&fn)

// ---- integer arguments: one rule for every entry point (python/tilecraft/_args.py says the same) ----
// An integer argument is a Python int or a numpy integer. bool, numpy bool, floats and strings are
// refused (TypeError for actions, seats and counts; ValueError for seeds, as the Python layer does),
// never truncated or converted. A seed is an integer in 0..2**64-1.

inline bool is_integer_arg(py::handle h) {
  if (!h || PyBool_Check(h.ptr())) return false;
  if (PyLong_Check(h.ptr())) return true;
  static PyObject* const np_integer = [] {
    try {
      return py::object(py::module_::import("numpy").attr("integer")).release().ptr();  // kept for the process
    } catch (const py::error_already_set&) {
      return static_cast<PyObject*>(nullptr);
    }
  }();
  return np_integer != nullptr && PyObject_IsInstance(h.ptr(), np_integer) == 1;
}

inline std::string shown_value(py::handle h) {
  if (PyFloat_Check(h.ptr()) && std::isnan(PyFloat_AsDouble(h.ptr()))) return "nan";
  return py::repr(h);
}

// The Python int of an integer argument, or TypeError naming it.
inline py::int_ integer_arg(py::handle h, const std::string& what) {
  if (!is_integer_arg(h))
    throw py::type_error(what + " must be an integer (a Python int or a numpy integer), got " +
                         std::string(py::str(py::type::of(h).attr("__name__"))) + " " + shown_value(h));
  PyObject* v = PyNumber_Index(h.ptr());
  if (v == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::int_>(v);
}

inline long long int_in_range(py::handle h, const std::string& what, long long lo, long long hi) {
  const py::int_ v = integer_arg(h, what);
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow != 0 || x < lo || x > hi)
    throw py::value_error(what + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                          std::string(py::str(v)));
  return x;
}

// A seed: an integer in 0..2**64-1, else ValueError in the words of tilecraft._args.seed.
inline uint64_t seed_arg(py::handle h, const std::string& who = "") {
  const std::string prefix = who.empty() ? std::string() : who + ": ";
  if (!is_integer_arg(h))
    throw py::value_error(prefix + "seed must be an integer in 0..18446744073709551615, got " + shown_value(h));
  PyObject* v = PyNumber_Index(h.ptr());
  if (v == nullptr) throw py::error_already_set();
  const py::int_ value = py::reinterpret_steal<py::int_>(v);
  const unsigned long long x = PyLong_AsUnsignedLongLong(value.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw py::value_error(prefix + "seed must be in 0..18446744073709551615, got " + std::string(py::str(value)));
  }
  return x;
}

// Argument types of the bindings: their casters apply the rule above, so every function that
// takes one gets the same checks and the same messages (and the stubs say typing.SupportsIndex).
inline constexpr char kArgPlayer[] = "player";
inline constexpr char kArgObserver[] = "observer";
inline constexpr char kArgN[] = "n";
inline constexpr char kArgGames[] = "n_games";
inline constexpr char kArgThreads[] = "threads";
inline constexpr char kArgIndex[] = "index";
inline constexpr char kArgEnv[] = "env";

// A str argument, or TypeError naming it (not pybind11's "incompatible function arguments").
inline std::string text_arg(py::handle h, const std::string& what) {
  if (!PyUnicode_Check(h.ptr()))
    throw py::type_error(what + " must be a str, got " + std::string(py::str(py::type::of(h).attr("__name__"))) + " " +
                         shown_value(h));
  return h.cast<std::string>();
}

inline py::dict dict_arg(py::handle h, const std::string& what) {
  if (!PyDict_Check(h.ptr()))
    throw py::type_error(what + " must be a dict (see tilecraft.make_config), got " +
                         std::string(py::str(py::type::of(h).attr("__name__"))));
  return py::reinterpret_borrow<py::dict>(h);
}
template <const char* Name>
struct IntArg {
  long long value = 0;
};
struct SeedArg {
  uint64_t value = 0;
};
// An action id: any integer is accepted (is_legal answers False out of range, apply explains).
struct ActionArg {
  long long value = -1;
  bool in_range = false;  // fits in int32 and >= 0
  std::string text;       // the value as given, for messages
};

}  // namespace tilecraft

namespace pybind11::detail {
template <const char* Name>
struct type_caster<tilecraft::IntArg<Name>> {
  PYBIND11_TYPE_CASTER(tilecraft::IntArg<Name>, io_name("typing.SupportsIndex", "int"));
  bool load(handle src, bool) {
    value.value = tilecraft::int_in_range(src, Name, std::numeric_limits<long long>::min(),
                                          std::numeric_limits<long long>::max());
    return true;
  }
  static handle cast(const tilecraft::IntArg<Name>& v, return_value_policy, handle) {
    return PyLong_FromLongLong(v.value);
  }
};
template <>
struct type_caster<tilecraft::SeedArg> {
  PYBIND11_TYPE_CASTER(tilecraft::SeedArg, io_name("typing.SupportsIndex", "int"));
  bool load(handle src, bool) {
    value.value = tilecraft::seed_arg(src);
    return true;
  }
  static handle cast(const tilecraft::SeedArg& v, return_value_policy, handle) {
    return PyLong_FromUnsignedLongLong(v.value);
  }
};
template <>
struct type_caster<tilecraft::ActionArg> {
  PYBIND11_TYPE_CASTER(tilecraft::ActionArg, io_name("typing.SupportsIndex", "int"));
  bool load(handle src, bool) {
    const int_ v = tilecraft::integer_arg(src, "action");
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    value.in_range = overflow == 0 && x >= 0 && x < (1LL << 31);
    value.value = value.in_range ? x : -1;
    value.text = std::string(pybind11::str(v));
    return true;
  }
  static handle cast(const tilecraft::ActionArg& v, return_value_policy, handle) {
    return PyLong_FromLongLong(v.value);
  }
};
}  // namespace pybind11::detail

namespace tilecraft {

// ---- long C++ calls: Ctrl-C and progress ----
// Runs fn() (pure C++, no Python) with the GIL released, on the calling thread, as the owner of a
// StopFlag (core/interrupt.hpp): every 50 ms the loops inside fn take the GIL briefly, check for
// signals (PyErr_CheckSignals: Ctrl-C) and report progress through tick(done) (done: units
// counted with count_done()). On a signal, or when tick raises, the work is asked to stop
// (stop_requested() turns true in every thread it started, which parallel_for and the searchers
// join before returning) and the Python exception (KeyboardInterrupt) is raised; the partial
// result is dropped. A short call costs nothing extra: no thread is started.
struct PollContext {
  py::object tick;  // None or a callable(done)
  bool raised = false;
  PyObject* type = nullptr;  // the pending Python exception, kept while the GIL is released
  PyObject* value = nullptr;
  PyObject* trace = nullptr;
};

inline void poll_python(StopFlag* flag, void* arg) {
  auto* ctx = static_cast<PollContext*>(arg);
  if (ctx->raised) return;
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) {
    ctx->raised = true;
  } else if (!ctx->tick.is_none()) {
    try {
      ctx->tick(flag->done.load(std::memory_order_relaxed));
    } catch (py::error_already_set& e) {
      e.restore();
      ctx->raised = true;
    }
  }
  if (ctx->raised) {
    PyErr_Fetch(&ctx->type, &ctx->value, &ctx->trace);
    flag->stop.store(true);
  }
}

// The calling thread's stop hook, if it set one (python/tilecraft/_stop.py, used by threads that
// Ctrl-C cannot reach, such as the play server's bots): a callable(done) that raises to stop. It is
// the tick of every long call that was given none. Costs one dict lookup while _stop is not loaded.
inline py::object thread_stop_hook() {
  PyObject* module = PyDict_GetItemString(PyImport_GetModuleDict(), "tilecraft._stop");  // borrowed
  if (module == nullptr) return py::none();
  return py::reinterpret_borrow<py::object>(module).attr("thread_hook")();
}

template <class F>
auto run_interruptible(F&& fn, const py::object& given_tick = py::none()) -> decltype(fn()) {
  using R = decltype(fn());
  StopFlag flag;
  PollContext ctx;
  const py::object tick = given_tick.is_none() ? thread_stop_hook() : given_tick;
  ctx.tick = tick;
  flag.poll = &poll_python;
  flag.poll_arg = &ctx;
  flag.next_poll = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  std::optional<R> result;
  try {
    py::gil_scoped_release release;
    StopScope scope(&flag, /*owner=*/true);
    result.emplace(fn());
  } catch (...) {
    if (ctx.raised) PyErr_Restore(ctx.type, ctx.value, ctx.trace);
    if (ctx.raised) throw py::error_already_set();
    throw;
  }
  if (ctx.raised) {
    PyErr_Restore(ctx.type, ctx.value, ctx.trace);
    throw py::error_already_set();
  }
  if (!tick.is_none()) tick(flag.done.load());
  return std::move(*result);
}

// ---- module-wide tools (called once by module.cpp, after every game is bound) ----
// - Pickling: a bound class without its own __reduce__ / __getstate__ (searchers, vector
//   environments) gets a __reduce_ex__ that raises TypeError for every protocol. Without it,
//   protocols 0 and 1 go through copyreg, which tries to allocate the pybind11 instance from
//   `object` and aborts the interpreter.
// - _test_fail_worker(k, kind): test-only failure injection (core/threads.hpp).
inline void forbid_default_pickling(const py::handle& cls) {
  const py::dict own = cls.attr("__dict__");
  if (own.contains("__reduce__") || own.contains("__reduce_ex__") || own.contains("__getstate__")) return;
  const std::string name = py::str(cls.attr("__module__")).cast<std::string>() + "." +
                           py::str(cls.attr("__qualname__")).cast<std::string>();
  py::setattr(cls, "__reduce_ex__",
              py::cpp_function(
                  [name](const py::handle&, const py::handle&) -> py::object {
                    throw py::type_error("cannot pickle '" + name +
                                         "' object: it is a C++ engine (a search or a batch of games), with no "
                                         "saved form; build a new one from its options where it is needed");
                  },
                  py::is_method(cls), py::arg("protocol")));
}

inline void bind_module_tools(py::module_& m) {
  const py::object type = py::module_::import("builtins").attr("type");
  const py::object base_exception = py::module_::import("builtins").attr("BaseException");
  auto is_bound_class = [&](const py::handle& v) {
    return py::isinstance(v, type) && !PyObject_IsSubclass(v.ptr(), base_exception.ptr()) &&
           py::str(v.attr("__module__")).cast<std::string>() == "tilecraft._core";
  };
  for (auto item : py::dict(m.attr("__dict__"))) {
    if (!is_bound_class(item.second)) continue;
    forbid_default_pickling(item.second);
    for (auto inner : py::dict(item.second.attr("__dict__")))  // classes held as class attributes
      if (is_bound_class(inner.second)) forbid_default_pickling(inner.second);
  }
  m.def(
      "_test_fail_worker",
      [](long long k, const std::string& kind) {
        TestFailure f;
        if (kind == "memory") f = TestFailure::kMemory;
        else if (kind == "config") f = TestFailure::kInvalidConfig;
        else if (kind == "runtime") f = TestFailure::kRuntime;
        else throw std::invalid_argument("_test_fail_worker: kind must be 'memory', 'config' or 'runtime', got '" + kind + "'");
        set_test_failure(k, f);
      },
      py::arg("k"), py::arg("kind") = "memory",
      "Tests only: the k-th unit of work run on a worker thread from now on throws (std::bad_alloc for "
      "'memory', InvalidConfigError for 'config', RuntimeError for 'runtime'); k = 0 turns it off.");
}

// ---- fields <-> Python objects (to_json / from_json / pickling) ----

template <class T>
py::object field_to_py(const T& x) {
  if constexpr (std::is_array_v<T>) {
    py::list l;
    for (const auto& e : x) l.append(field_to_py(e));
    return std::move(l);
  } else if constexpr (std::is_same_v<T, bool>) {
    return py::bool_(x);
  } else if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) return py::int_(static_cast<long long>(x));
    else return py::int_(static_cast<unsigned long long>(x));
  } else if constexpr (std::is_floating_point_v<T>) {
    return py::float_(x);
  } else {
    static_assert(sizeof(T) == 0, "unsupported field type");
  }
}

template <class T>
void field_from_py(const py::handle& src, T& x, const std::string& path) {
  if constexpr (std::is_array_v<T>) {
    constexpr size_t n = std::extent_v<T>;
    require<InvalidState>(py::isinstance<py::list>(src) || py::isinstance<py::tuple>(src), "field '", path,
                          "' must be a list of ", n, " items");
    py::sequence seq = py::reinterpret_borrow<py::sequence>(src);
    require<InvalidState>(seq.size() == n, "field '", path, "' must have ", n, " items, got ", seq.size());
    for (size_t i = 0; i < n; ++i) field_from_py(seq[i], x[i], path + "[" + std::to_string(i) + "]");
  } else if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_same_v<T, bool>) {
      require<InvalidState>(PyBool_Check(src.ptr()) || (is_integer_arg(src) && (py::int_(0).equal(src) || py::int_(1).equal(src))),
                            "field '", path, "' must be true or false, got ", shown_value(src));
      x = PyObject_IsTrue(src.ptr()) == 1;
      return;
    }
    require<InvalidState>(is_integer_arg(src), "field '", path, "' must be an integer, got ",
                          std::string(py::str(py::type::of(src).attr("__name__"))), " ", shown_value(src));
    const py::int_ src_int = integer_arg(src, path);
    if constexpr (std::is_same_v<T, bool>) {
      x = false;
    } else if constexpr (std::is_signed_v<T>) {
      long long v;
      try {
        v = src_int.cast<long long>();
      } catch (const py::cast_error&) {
        fail<InvalidState>("field '", path, "' = ", std::string(py::str(src_int)), " is out of range (",
                           +std::numeric_limits<T>::min(), "..", +std::numeric_limits<T>::max(), ")");
      }
      require<InvalidState>(v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max(), "field '", path,
                            "' = ", v, " is out of range (", +std::numeric_limits<T>::min(), "..",
                            +std::numeric_limits<T>::max(), ")");
      x = static_cast<T>(v);
    } else {
      require<InvalidState>(src_int >= py::int_(0), "field '", path, "' = ", std::string(py::str(src_int)),
                            " must not be negative");
      unsigned long long v;
      try {
        v = src_int.cast<unsigned long long>();
      } catch (const py::cast_error&) {
        fail<InvalidState>("field '", path, "' = ", std::string(py::str(src_int)), " is out of range (0..",
                           +std::numeric_limits<T>::max(), ")");
      }
      require<InvalidState>(v <= std::numeric_limits<T>::max(), "field '", path, "' = ", v, " is out of range (0..",
                            +std::numeric_limits<T>::max(), ")");
      x = static_cast<T>(v);
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    require<InvalidState>(py::isinstance<py::float_>(src) || py::isinstance<py::int_>(src), "field '", path,
                          "' must be a number");
    x = src.cast<T>();
  } else {
    static_assert(sizeof(T) == 0, "unsupported field type");
  }
}

struct ToDict {
  py::dict d;
  template <class T>
  void field(const char* name, T& x) {
    d[name] = field_to_py(x);
  }
};

template <class E>
struct FromDict {
  py::dict d;
  const char* what;
  size_t used = 0;
  template <class T>
  void field(const char* name, T& x) {
    require<E>(d.contains(name), what, ": missing field '", name, "'");
    try {
      field_from_py(d[name], x, name);
    } catch (const InvalidState& e) {
      throw E(std::string(what) + ": " + e.what());
    }
    ++used;
  }
  void check_no_extra(const std::vector<std::string>& known) {
    for (auto item : d) {
      const std::string key = py::str(item.first);
      bool ok = false;
      for (const auto& k : known) ok |= k == key;
      require<E>(ok, what, ": unknown field '", key, "'");
    }
  }
};

struct FieldNames {
  std::vector<std::string> names;
  template <class T>
  void field(const char* name, T&) {
    names.emplace_back(name);
  }
};

template <class T, class E>
void load_fields(T& obj, const py::handle& src, const char* what) {
  require<E>(py::isinstance<py::dict>(src), what, " must be a JSON object (dict)");
  FromDict<E> v{py::reinterpret_borrow<py::dict>(src), what};
  obj.visit(v);
  FieldNames names;
  obj.visit(names);
  v.check_no_extra(names.names);
}

template <class T>
py::dict dump_fields(const T& obj) {
  ToDict v;
  const_cast<T&>(obj).visit(v);
  return v.d;
}

// ---- the Python-facing state ----

// The saved content of a struct with visit(): every field's bytes, field by field in visiting order.
// Every saved field is an integer, enum, bool or floating-point value or a (nested) array of them,
// so equal values are equal bytes (no padding inside a field). The basis of state equality and
// hash_key(). Fields are members (or members of members) of the object, so a field of `a` lies at
// the same offset in `b`.
template <class T>
struct FieldCompare {
  const unsigned char* a;
  const unsigned char* b;
  bool same = true;
  const char* first_difference = nullptr;  // the name of the first field that differs
  template <class F>
  void field(const char* name, F& x) {
    using E = std::remove_all_extents_t<F>;
    static_assert(std::is_arithmetic_v<E> || std::is_enum_v<E>, "saved fields are numbers or arrays of numbers");
    const auto* p = reinterpret_cast<const unsigned char*>(&x);
    if (!same) return;
    if (p < a || p + sizeof(F) > a + sizeof(T)) throw std::logic_error("visit() saved a field outside the object");
    same = std::memcmp(p, b + (p - a), sizeof(F)) == 0;
    if (!same) first_difference = name;
  }
};

// Whether a and b hold the same saved content; else, if `difference` is given, the first field that differs.
template <class T>
bool same_fields(const T& a, const T& b, const char** difference = nullptr) {
  FieldCompare<T> v{reinterpret_cast<const unsigned char*>(&a), reinterpret_cast<const unsigned char*>(&b)};
  const_cast<T&>(a).visit(v);
  if (difference) *difference = v.first_difference;
  return v.same;
}

// A 64-bit hash of the saved content: 8 bytes at a time over four independent lanes (multiply,
// rotate), then a splitmix64 finaliser over the lanes and the length. Field boundaries are fixed by
// the type, so the byte stream alone identifies the content.
struct FieldHasher {
  static constexpr uint64_t k1 = 0x9E3779B185EBCA87ull, k2 = 0xC2B2AE3D27D4EB4Full;
  uint64_t lane[4];
  uint64_t words = 0;
  explicit FieldHasher(uint64_t seed) : lane{seed + k1 + k2, seed + k2, seed, seed - k1} {}
  void add(uint64_t w) {
    uint64_t& acc = lane[words++ & 3];
    acc += w * k2;
    acc = (acc << 31) | (acc >> 33);
    acc *= k1;
  }
  template <class T>
  void field(const char*, T& x) {
    using E = std::remove_all_extents_t<T>;
    static_assert(std::is_arithmetic_v<E> || std::is_enum_v<E>, "saved fields are numbers or arrays of numbers");
    const auto* p = reinterpret_cast<const unsigned char*>(&x);
    constexpr size_t n = sizeof(T);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      add(w);
    }
    if constexpr (n % 8 != 0) {
      uint64_t w = 0;
      std::memcpy(&w, p + i, n % 8);
      add(w);
    }
  }
  uint64_t finish() const {
    uint64_t h = words;
    for (uint64_t x : lane) {
      uint64_t z = (h ^ x) + 0x9E3779B97F4A7C15ull;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      h = z ^ (z >> 31);
    }
    return h;
  }
};

template <class T>
uint64_t hash_fields(const T& obj, uint64_t seed = 0x9E3779B97F4A7C15ull) {
  FieldHasher v(seed);
  const_cast<T&>(obj).visit(v);
  return v.finish();
}

template <class S>
struct PyState {
  using Config = typename S::Config;
  static constexpr uint64_t kAlive = 0x7431c3a1f7a5b2d9ull;  // set by every constructor: see the caster below
  uint64_t alive = kAlive;
  std::shared_ptr<const Config> cfg;  // keeps the config alive for states that point into it
  uint64_t cfg_hash = 0;              // hash_fields(*cfg), for hash_key()
  S s;
  std::vector<int32_t> hist;
  // The seed the game was made with, while the state is exactly that game after `hist` (saved as
  // "seed", so that loading replays the history); unknown after resample_hidden() or for a saved
  // position without a seed (a hand-built one).
  bool has_origin = false;
  uint64_t origin = 0;

  PyState(std::shared_ptr<const Config> c, uint64_t seed)
      : cfg(std::move(c)), cfg_hash(hash_fields(*cfg)), s(*cfg, seed), has_origin(true), origin(seed) {}
  PyState(const PyState&) = default;
  PyState& operator=(const PyState&) = default;
  ~PyState() { alive = 0; }

  // Content equality: the same configuration and the same position (every saved field, RNG and
  // hidden parts included); the history is not compared.
  bool same_content(const PyState& o) const {
    if (cfg != o.cfg && (cfg_hash != o.cfg_hash || !same_fields(*cfg, *o.cfg))) return false;
    return same_fields(s, o.s);
  }
  uint64_t hash_key() const { return hash_fields(s, cfg_hash); }
};

}  // namespace tilecraft

// States made without a constructor (S.__new__(S)) hold no state: every method refuses them with a
// TypeError instead of reading uninitialised memory.
namespace pybind11::detail {
template <class S>
class type_caster<tilecraft::PyState<S>> : public type_caster_base<tilecraft::PyState<S>> {
 public:
  bool load(handle src, bool convert) {
    if (!type_caster_base<tilecraft::PyState<S>>::load(src, convert)) return false;
    const auto* p = static_cast<const tilecraft::PyState<S>*>(this->value);
    if (p == nullptr || p->alive != tilecraft::PyState<S>::kAlive)
      throw type_error(std::string("this ") + S::kName +
                       " state is not initialised (made with __new__ without __init__); make states with "
                       "tilecraft.make(), the class constructor, clone() or from_json()");
    return true;
  }
};
}  // namespace pybind11::detail

namespace tilecraft {

template <class S>
std::shared_ptr<const typename S::Config> config_from_py(const py::handle& src) {
  auto cfg = std::make_shared<typename S::Config>();
  load_fields<typename S::Config, InvalidConfig>(*cfg, src, (std::string(S::kName) + " config").c_str());
  cfg->validate();
  return cfg;
}


template <class S>
py::array_t<int32_t> legal_array(const S& s) {
  ActionList<S::kMaxActions> a;
  s.legal_actions(a);
  py::array_t<int32_t> out(a.size);
  if (a.size) std::memcpy(out.mutable_data(), a.items, sizeof(int32_t) * a.size);
  return out;
}

template <class S>
void check_seat(const S& s, long long player, const char* what) {
  require<std::out_of_range>(player >= 0 && player < s.num_players(), what, ": seat must be 0..", s.num_players() - 1,
                             ", got ", player);
}

template <class S, class Cls>
void bind_search(py::module_& m, Cls& cls, const std::string& class_name);  // bind_search.hpp
template <class S, class Cls>
void bind_puct(py::module_& m, Cls& cls, const std::string& class_name);  // bind_puct.hpp

template <class S>
py::class_<PyState<S>> bind_game(py::module_& m, const char* class_name) {
  static_assert(check_contract<S>());  // cpp/core/contract.hpp: the State contract, checked
  using P = PyState<S>;
  using Config = typename S::Config;
  const std::string game = S::kName;

  auto to_json_obj = [](const P& p) {
    py::dict d;
    d["game"] = S::kName;
    d["format"] = 1;
    d["config"] = dump_fields(*p.cfg);
    d["state"] = dump_fields(p.s);
    d["history"] = py::cast(p.hist);
    d["seed"] = p.has_origin ? py::object(py::int_(p.origin)) : py::object(py::none());
    return d;
  };
  auto from_json_obj = [game](const py::handle& obj) {
    require<InvalidState>(py::isinstance<py::dict>(obj), game, ": a saved state must be a JSON object");
    py::dict d = py::reinterpret_borrow<py::dict>(obj);
    require<InvalidState>(d.contains("game"), game, ": saved state has no 'game' field");
    const std::string other = py::str(d["game"]);
    require<InvalidState>(other == game, "this is a saved '", other, "' state, not a '", game,
                          "' state; load it with tilecraft.from_json() or that game's class");
    require<InvalidState>(d.contains("format") && py::isinstance<py::int_>(d["format"]) && py::object(d["format"]).equal(py::int_(1)),
                          game, ": unsupported saved-state format (expected 1)");
    for (const char* key : {"config", "state", "history"})
      require<InvalidState>(d.contains(key), game, ": saved state has no '", key, "' field");
    std::shared_ptr<const Config> cfg;
    try {
      cfg = config_from_py<S>(d["config"]);
    } catch (const InvalidConfig& e) {
      throw InvalidState(e.what());
    }
    auto p = std::make_unique<P>(cfg, 0);
    p->has_origin = false;  // set below when the saved seed and history reach the saved state
    load_fields<S, InvalidState>(p->s, d["state"], (game + " state").c_str());
    p->s.rebuild_derived();
    p->s.validate();
    require<InvalidState>(py::isinstance<py::list>(d["history"]), game, ": 'history' must be a list of action ids");
    // Each entry must be an action id or a chance outcome of this configuration.
    const long long limit = std::max<long long>(p->s.num_distinct_actions(), S::kMaxChanceOutcomes);
    size_t index = 0;
    for (auto h : d["history"]) {
      require<InvalidState>(is_integer_arg(h), game, ": 'history' must hold integers, got ", shown_value(h));
      long long v = -1;
      try {
        v = h.cast<long long>();
      } catch (const py::cast_error&) {  // beyond 64 bits: out of range, not a crash-like RuntimeError
      }
      require<InvalidState>(v >= 0 && v < limit, game, ": 'history' entry ", index, " = ", std::string(py::str(h)),
                            " is not an action id or chance outcome of this configuration (0..", limit - 1, ")");
      p->hist.push_back(static_cast<int32_t>(v));
      ++index;
    }
    // With the seed the game was made with, a non-empty history must replay from it to the saved
    // state. Without a seed (null or absent: a hand-built or resampled position) the history is kept
    // as given; an empty history claims no past, so a position edited from a new game loads (and is
    // saved again without a seed unless it is still that game's first position).
    if (d.contains("seed") && !py::object(d["seed"]).is_none()) {
      const py::object seed_obj = d["seed"];
      uint64_t seed = 0;
      try {
        seed = seed_arg(seed_obj);  // the one rule for seeds
      } catch (const py::value_error&) {
        fail<InvalidState>(game, ": 'seed' must be an integer 0..2**64-1 or null, got ", shown_value(seed_obj));
      }
      S replay(*cfg, seed);
      for (size_t i = 0; i < p->hist.size(); ++i) {
        const int32_t a = p->hist[i];
        require<InvalidState>(!replay.is_terminal() && replay.is_legal(a), game, ": 'history' entry ", i, " = ", a,
                              " is not legal at that point of the game made with seed ", seed, " (",
                              replay.is_terminal() ? std::string("the game is over") : replay.illegal_reason(a),
                              "); a hand-built position must have 'seed': null");
        replay.apply(a);
      }
      const char* field = nullptr;
      const bool reached = same_fields(replay, p->s, &field);
      require<InvalidState>(reached || p->hist.empty(), game, ": the 'history' (", p->hist.size(),
                            " actions) replayed from 'seed' ", seed, " does not reach the saved state (field '",
                            field ? field : "?", "' differs); a hand-built position must have 'seed': null");
      p->has_origin = reached;
      p->origin = seed;
    }
    return p;
  };

  py::class_<P> cls(m, class_name, py::dynamic_attr());
  cls.def(py::init([](const py::object& config, SeedArg seed) {
            return std::make_unique<P>(config_from_py<S>(dict_arg(config, "config")), seed.value);
          }),
          py::arg("config"), py::arg("seed") = SeedArg{},
          "A new game from a config dict (see tilecraft.make for validated options) and a seed.")
      .def_property_readonly_static("game_name", [](py::object) { return std::string(S::kName); })
      .def("num_players", [](const P& p) { return p.s.num_players(); })
      .def("num_distinct_actions", [](const P& p) { return p.s.num_distinct_actions(); },
           "Size of the fixed action-id range [0, n) of this configuration.")
      .def("max_chance_outcomes", [](const P&) { return S::kMaxChanceOutcomes; })
      .def("current_player", [](const P& p) { return p.s.current_player(); },
           "Seat to act (0-based); -2 (tilecraft.CHANCE) at a chance node; -1 (tilecraft.TERMINAL) when the game is over.")
      .def("is_terminal", [](const P& p) { return p.s.is_terminal(); })
      .def("is_chance_node", [](const P& p) { return p.s.is_chance_node(); })
      .def("legal_actions", [](const P& p) { return legal_array(p.s); },
           "Legal action ids as an ascending int32 numpy array (the outcomes at a chance node).")
      .def("legal_action_mask",
           [](const P& p) {
             ActionList<S::kMaxActions> a;
             p.s.legal_actions(a);
             py::array_t<bool> mask(p.s.num_distinct_actions());
             bool* m = mask.mutable_data();
             std::memset(m, 0, mask.size());
             for (int32_t x : a) m[x] = true;
             return mask;
           },
           "Bool numpy array of length num_distinct_actions(), True at the legal ids.")
      .def("is_legal", [](const P& p, ActionArg a) { return a.in_range && p.s.is_legal(static_cast<int32_t>(a.value)); },
           py::arg("action"), "Whether `action` (an int or numpy integer) is legal now; False for any out-of-range id.")
      .def("apply",
           [](P& p, ActionArg a) {
             const int32_t action = a.in_range ? static_cast<int32_t>(a.value) : -1;
             if (action < 0 || !p.s.is_legal(action)) {
               std::string why = p.s.illegal_reason(action < 0 ? -1 : action);
               if (action < 0) why = "action id " + a.text + " is out of range; " + why;
               throw IllegalAction(std::string(S::kName) + ": " + why);
             }
             p.s.apply(action);
             p.hist.push_back(action);
           },
           py::arg("action"),
           "Plays one action (or resolves a chance node with an outcome). Actions are Python ints or numpy "
           "integers (TypeError for bool, float, str). Raises IllegalActionError (a ValueError) naming the "
           "action and why it is illegal; the state is then unchanged.")
      .def("chance_outcomes",
           [](const P& p) {
             ChanceList<S::kMaxChanceOutcomes> c;
             p.s.chance_outcomes(c);
             py::list out;
             for (const auto& o : c) out.append(py::make_tuple(o.outcome, o.probability));
             return out;
           },
           "[(outcome, probability), ...] at a chance node, [] elsewhere.")
      .def("clone", [](const P& p) { return P(p); }, "An independent copy.")
      .def("new_game", [](const P& p, SeedArg seed) { return P(p.cfg, seed.value); }, py::arg("seed"),
           "A new game of this state's configuration (shared, not converted again) from `seed`: the state "
           "the class constructor gives for this config and seed (tilecraft.make uses it for a warm make).")
      .def("__copy__", [](const P& p) { return P(p); })
      .def("__deepcopy__", [](const P& p, py::dict) { return P(p); }, py::arg("memo"))
      .def("scores",
           [](const P& p) {
             py::array_t<double> out(p.s.num_players());
             p.s.scores(out.mutable_data());
             return out;
           },
           "Current scores per seat (final scores once terminal).")
      .def("returns",
           [](const P& p) {
             py::array_t<double> out(p.s.num_players());
             p.s.returns(out.mutable_data());
             return out;
           },
           "Per-seat returns at the end of the game (zeros before); see the game's returns_mode.")
      .def("winners",
           [](const P& p) {
             std::vector<int> w;
             const uint32_t mask = p.s.winners();
             for (int k = 0; k < p.s.num_players(); ++k)
               if (mask >> k & 1u) w.push_back(k);
             return w;
           },
           "Seats that won (several on a shared victory); [] before the end.")
      .def("observation_shape", [](const P& p) { return py::tuple(py::cast(p.s.observation_shape())); })
      .def("observation",
           [](const P& p, IntArg<kArgPlayer> player_arg, py::object out, py::object dtype) {
             const long long player = player_arg.value;
             check_seat(p.s, player, "observation");
             const int n = p.s.observation_size();
             py::module_ np = py::module_::import("numpy");
             const py::object f32 = np.attr("dtype")("float32"), u8 = np.attr("dtype")("uint8");
             py::object want = py::none();  // the dtype to produce: float32 (default) or uint8 (small counts)
             if (!dtype.is_none()) {
               try {
                 want = np.attr("dtype")(dtype);
               } catch (py::error_already_set&) {
                 want = py::none();
               }
               require<std::invalid_argument>(!want.is_none() && (want.equal(f32) || want.equal(u8)),
                                              "observation: dtype must be numpy.float32 or numpy.uint8, got ",
                                              shown_value(dtype));
             }
             if (!out.is_none()) {
               if (!py::isinstance<py::array>(out))
                 throw py::type_error("observation: out must be a numpy array (float32 or uint8) of " +
                                      std::to_string(n) + " elements, got " +
                                      std::string(py::str(py::type::of(out).attr("__name__"))));
               py::array arr = py::reinterpret_borrow<py::array>(out);
               const py::object have = arr.attr("dtype");
               if (want.is_none()) want = have.equal(u8) ? u8 : f32;
               require<std::invalid_argument>(have.equal(want), "observation: out must be a writable ",
                                              std::string(py::str(want)), " array of ", n, " elements, got dtype ",
                                              std::string(py::str(have)));
               require<std::invalid_argument>(arr.size() == n, "observation: out must be a writable ",
                                              std::string(py::str(want)), " array of ", n, " elements, got ", arr.size(),
                                              " elements");
               require<std::invalid_argument>(arr.writeable(), "observation: out must be a writable ",
                                              std::string(py::str(want)), " array of ", n, " elements (it is read-only)");
             }
             if (want.is_none()) want = f32;
             const bool compact = want.equal(u8);
             const auto shape = p.s.observation_shape();
             py::object result;
             if (!compact) {
               py::array_t<float> arr(shape);
               p.s.observation(static_cast<int>(player), arr.mutable_data());
               result = std::move(arr);
             } else {
               std::vector<float> tmp(3 * static_cast<size_t>(n));
               float* denominator = tmp.data() + n;
               float* offset = denominator + n;
               p.s.observation(static_cast<int>(player), tmp.data());
               observation_codec(p.s, denominator, offset);
               py::array_t<uint8_t> arr(shape);
               const int bad = encode_observation(tmp.data(), denominator, offset, arr.mutable_data(), n);
               require<std::invalid_argument>(bad < 0, "observation: feature ", bad, " = ", tmp[std::max(bad, 0)],
                                              " of this ", S::kName, " observation is not code / ",
                                              denominator[std::max(bad, 0)], " + ", offset[std::max(bad, 0)],
                                              " for a code 0..255 (observation_codec()), so it has no uint8 form; "
                                              "use float32");
               result = std::move(arr);
             }
             if (out.is_none()) return result;
             // any writable buffer of the right size, contiguous or not (a row of an F-order batch, x[::2])
             np.attr("copyto")(out, result.attr("reshape")(out.attr("shape")));
             return out;
           },
           py::arg("player"), py::arg("out") = py::none(), py::arg("dtype") = py::none(),
           "Array of observation_shape(): what `player` sees, float32 by default. dtype=numpy.uint8 gives "
           "every feature as a byte code, losslessly: the float32 observation is code / denominator + offset "
           "(see observation_codec()); a feature outside its codec's 0..255 range raises ValueError. out= "
           "fills any writable numpy array of that dtype and size (any strides) and returns it.")
      .def("observation_codec",
           [](const P& p) {
             const auto shape = p.s.observation_shape();
             py::array_t<float> denominator(shape), offset(shape);
             observation_codec(p.s, denominator.mutable_data(), offset.mutable_data());
             return py::make_tuple(denominator, offset);
           },
           "(denominator, offset): float32 arrays of observation_shape() with which the uint8 observation "
           "decodes exactly: observation(p) == observation(p, dtype=numpy.uint8) / denominator + offset. They "
           "depend on the configuration only.")
      .def("action_to_string",
           [](const P& p, ActionArg a) {
             require<IllegalAction>(a.in_range, S::kName, ": action id ", a.text, " is out of range");
             return p.s.action_to_string(static_cast<int32_t>(a.value));
           },
           py::arg("action"))
      .def("string_to_action",
           [](const P& p, const py::object& text) { return p.s.string_to_action(text_arg(text, "string_to_action: text")); },
           py::arg("text"))
      .def("history", [](const P& p) { return p.hist; }, "Every action and chance outcome applied so far.")
      .def("resample_hidden",
           [](P& p, IntArg<kArgObserver> observer, SeedArg seed) {
             check_seat(p.s, observer.value, "resample_hidden");
             p.s.resample_hidden(static_cast<int>(observer.value), seed.value);
             p.has_origin = false;  // the hidden parts no longer follow from the game's seed
           },
           py::arg("observer"), py::arg("seed"),
           "Reshuffles everything `observer` cannot see (hidden cards, future draws) from `seed`, "
           "consistently with what it has seen. Use it on a clone before searching.")
      .def("config", [](const P& p) { return dump_fields(*p.cfg); }, "The rule configuration as a dict.")
      .def("to_dict", to_json_obj, "The full state (RNG and hidden parts included) as a JSON-ready dict.")
      .def("to_json",
           [to_json_obj](const P& p) {
             return py::module_::import("json").attr("dumps")(to_json_obj(p), py::arg("separators") = py::make_tuple(",", ":"));
           },
           "The full state as a JSON string; from_json() restores it exactly.")
      .def_static("from_dict", from_json_obj, py::arg("data"))
      .def_static("from_json",
                  [from_json_obj](const py::object& text_obj) {
                    text_arg(text_obj, std::string(S::kName) + " from_json: text");  // a str, else TypeError
                    // The one JSON reader of saved states (tilecraft.from_json's): duplicate keys, deep
                    // nesting, huge integers and non-JSON constants raise InvalidStateError naming the path.
                    const py::object obj = py::module_::import("tilecraft.games._schema")
                                               .attr("parse_saved_state")(text_obj, S::kName);
                    return from_json_obj(obj);
                  },
                  py::arg("text"))
      .def("__reduce__",
           [to_json_obj](const py::object& self) -> py::tuple {
             // (restore, (class, saved dict)): works with every pickle protocol, 0 and 1 included
             const py::object restore = py::module_::import("tilecraft._core").attr("_restore_state");
             return py::make_tuple(restore, py::make_tuple(py::type::of(self), to_json_obj(self.cast<const P&>())));
           })
      .def("__eq__",
           [](const P& a, const py::object& other) -> py::object {
             if (!py::isinstance<P>(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
             return py::bool_(a.same_content(other.cast<const P&>()));
           },
           py::is_operator(), "Content equality: same configuration and position (RNG and hidden parts included); "
           "the history is not compared.")
      .def("__hash__", [](const P& p) { return static_cast<py::ssize_t>(p.hash_key() >> 1); },
           "hash(state): from hash_key(); it changes when the state changes (do not mutate a state used as a key).")
      .def("hash_key", [](const P& p) { return p.hash_key(); },
           "A 64-bit content hash of the position (config and every saved field, RNG and hidden parts "
           "included; history excluded): equal states have equal keys. Computed on each call.")
      .def("greedy_action",
           [](const P& p, SeedArg seed) {
             require<IllegalAction>(!p.s.is_terminal(), S::kName, ": greedy_action on a finished game");
             Rng rng(seed.value);
             const S s = p.s;  // copied under the GIL: another thread may apply to p meanwhile
             py::gil_scoped_release release;
             return greedy_action(s, rng);
           },
           py::arg("seed"), "The greedy bot's choice: the action with the best one-ply heuristic for the mover.")
      .def("heuristic", [](const P& p, IntArg<kArgPlayer> player) {
        check_seat(p.s, player.value, "heuristic");
        return p.s.heuristic(static_cast<int>(player.value));
      }, py::arg("player"), "The one-ply value the greedy bot maximises for `player` (the game's docs define it).")
      .def("__repr__", [](const P& p) {
        return std::string("<") + S::kName + " state: " + std::to_string(p.s.num_players()) + " players, " +
               (p.s.is_terminal() ? std::string("terminal")
                                  : (p.s.is_chance_node() ? std::string("chance node")
                                                          : "seat " + std::to_string(p.s.current_player()) + " to act")) +
               ", " + std::to_string(p.hist.size()) + " actions>";
      });

  m.def((std::string(S::kName) + "_random_playouts").c_str(),
        [](const py::dict& config, IntArg<kArgN> n_arg, SeedArg seed, IntArg<kArgThreads> threads_arg, py::object progress) {
          const long long n = n_arg.value, threads = threads_arg.value;
          require<std::invalid_argument>(n >= 0 && n <= (1LL << 40), "random_playouts: n must be 0..2**40, got ", n);
          require<std::invalid_argument>(threads >= 1 && threads <= 256, "random_playouts: threads must be 1..256, got ", threads);
          auto cfg = config_from_py<S>(config);
          const PlayoutResults r = run_interruptible(
              [&] { return random_playouts<S>(*cfg, n, seed.value, static_cast<int>(threads)); }, progress);
          const py::ssize_t rows = n, cols = r.players;
          py::array_t<double> scores({rows, cols}), returns({rows, cols});
          py::array_t<bool> winners({rows, cols});
          py::array_t<int32_t> length(rows);
          if (n > 0) {
            std::memcpy(scores.mutable_data(), r.scores.data(), sizeof(double) * r.scores.size());
            std::memcpy(returns.mutable_data(), r.returns.data(), sizeof(double) * r.returns.size());
            std::memcpy(winners.mutable_data(), r.winners.data(), r.winners.size());
            std::memcpy(length.mutable_data(), r.length.data(), sizeof(int32_t) * r.length.size());
          }
          py::dict d;
          d["scores"] = scores;
          d["returns"] = returns;
          d["winners"] = winners;
          d["length"] = length;
          return d;
        },
        py::arg("config"), py::arg("n"), py::arg("seed") = SeedArg{}, py::arg("threads") = IntArg<kArgThreads>{1},
        py::arg("progress") = py::none(),
        "n random games in C++ (GIL released; Ctrl-C stops them with KeyboardInterrupt). progress: "
        "None or a callable given the number of finished games every 50 ms.");
  bind_search<S>(m, cls, class_name);
  bind_puct<S>(m, cls, class_name);
  return cls;
}

}  // namespace tilecraft

#include "bind_search.hpp"
#include "bind_puct.hpp"
