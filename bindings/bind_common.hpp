// The common part of the binding templates (bind_game.hpp, bind_search.hpp, bind_puct.hpp,
// bind_vector.hpp): the registry of game binders, the argument types and their casters, long calls
// (Ctrl-C, progress), the module-wide tools, saved fields <-> Python objects, and PyState<S>, the
// Python-facing state.
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

#include "core/action_list.hpp"
#include "core/errors.hpp"
#include "core/game.hpp"
#include "core/interrupt.hpp"
#include "core/threads.hpp"

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

}  // namespace tilecraft
