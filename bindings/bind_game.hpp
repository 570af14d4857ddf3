// The one binding template: gives any game's State (see cpp/core/game.hpp) the common Python API.
// A game's binding file calls bind_game<State>(m, "AzulState", "azul") and adds only its own views.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/errors.hpp"
#include "core/game.hpp"
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
    require<InvalidState>(py::isinstance<py::int_>(src), "field '", path, "' must be an integer, got ",
                          std::string(py::str(py::type::of(src).attr("__name__"))));
    if constexpr (std::is_same_v<T, bool>) {
      x = src.cast<bool>();
    } else if constexpr (std::is_signed_v<T>) {
      long long v;
      try {
        v = src.cast<long long>();
      } catch (const py::cast_error&) {
        fail<InvalidState>("field '", path, "' is out of range");
      }
      require<InvalidState>(v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max(), "field '", path,
                            "' = ", v, " is out of range");
      x = static_cast<T>(v);
    } else {
      require<InvalidState>(src.cast<py::int_>() >= py::int_(0), "field '", path, "' must not be negative");
      unsigned long long v;
      try {
        v = src.cast<unsigned long long>();
      } catch (const py::cast_error&) {
        fail<InvalidState>("field '", path, "' is out of range");
      }
      require<InvalidState>(v <= std::numeric_limits<T>::max(), "field '", path, "' = ", v, " is out of range");
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

template <class S>
struct PyState {
  using Config = typename S::Config;
  std::shared_ptr<const Config> cfg;  // keeps the config alive for states that point into it
  S s;
  std::vector<int32_t> hist;

  PyState(std::shared_ptr<const Config> c, uint64_t seed) : cfg(std::move(c)), s(*cfg, seed) {}
};

template <class S>
std::shared_ptr<const typename S::Config> config_from_py(const py::handle& src) {
  auto cfg = std::make_shared<typename S::Config>();
  load_fields<typename S::Config, InvalidConfig>(*cfg, src, (std::string(S::kName) + " config").c_str());
  cfg->validate();
  return cfg;
}

inline uint64_t seed_from_py(long long seed_value) { return static_cast<uint64_t>(seed_value); }

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
    load_fields<S, InvalidState>(p->s, d["state"], (game + " state").c_str());
    p->s.rebuild_derived();
    p->s.validate();
    require<InvalidState>(py::isinstance<py::list>(d["history"]), game, ": 'history' must be a list of action ids");
    for (auto h : d["history"]) {
      require<InvalidState>(py::isinstance<py::int_>(h), game, ": 'history' must hold integers");
      long long v = -1;
      try {
        v = h.cast<long long>();
      } catch (const py::cast_error&) {  // beyond 64 bits: out of range, not a crash-like RuntimeError
      }
      require<InvalidState>(v >= 0 && v < (1 << 30), game, ": 'history' entry ", v, " is out of range");
      p->hist.push_back(static_cast<int32_t>(v));
    }
    return p;
  };

  py::class_<P> cls(m, class_name, py::dynamic_attr());
  cls.def(py::init([](const py::dict& config, long long seed) { return std::make_unique<P>(config_from_py<S>(config), seed_from_py(seed)); }),
          py::arg("config"), py::arg("seed") = 0,
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
      .def("is_legal", [](const P& p, long long a) { return a >= 0 && a < (1LL << 31) && p.s.is_legal(static_cast<int32_t>(a)); })
      .def("apply",
           [](P& p, long long a) {
             const int32_t action = (a >= 0 && a < (1LL << 31)) ? static_cast<int32_t>(a) : -1;
             if (action < 0 || !p.s.is_legal(action)) {
               std::string why = p.s.illegal_reason(action < 0 ? -1 : action);
               if (action < 0) why = "action id " + std::to_string(a) + " is out of range; " + why;
               throw IllegalAction(std::string(S::kName) + ": " + why);
             }
             p.s.apply(action);
             p.hist.push_back(action);
           },
           py::arg("action"),
           "Plays one action (or resolves a chance node with an outcome). Raises IllegalActionError "
           "(a ValueError) naming the action and why it is illegal; the state is then unchanged.")
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
           [](const P& p, long long player, py::object out) {
             check_seat(p.s, player, "observation");
             const auto shape = p.s.observation_shape();
             if (!out.is_none()) {
               auto arr = out.cast<py::array_t<float, py::array::c_style>>();
               require<std::invalid_argument>(arr.size() == p.s.observation_size() && arr.writeable() &&
                                                  py::isinstance<py::array_t<float>>(out),
                                              "observation: out must be a writable float32 C-contiguous array of ",
                                              p.s.observation_size(), " elements");
               p.s.observation(static_cast<int>(player), arr.mutable_data());
               return out;
             }
             py::array_t<float> arr(shape);
             p.s.observation(static_cast<int>(player), arr.mutable_data());
             return py::object(std::move(arr));
           },
           py::arg("player"), py::arg("out") = py::none(),
           "float32 array of observation_shape(): what `player` sees. Pass out= to fill a buffer in place.")
      .def("action_to_string",
           [](const P& p, long long a) {
             require<IllegalAction>(a >= -(1LL << 31) && a < (1LL << 31), S::kName, ": action id ", a, " is out of range");
             return p.s.action_to_string(static_cast<int32_t>(a));
           },
           py::arg("action"))
      .def("string_to_action", [](const P& p, const std::string& text) { return p.s.string_to_action(text); },
           py::arg("text"))
      .def("history", [](const P& p) { return p.hist; }, "Every action and chance outcome applied so far.")
      .def("resample_hidden",
           [](P& p, long long observer, long long seed) {
             check_seat(p.s, observer, "resample_hidden");
             p.s.resample_hidden(static_cast<int>(observer), seed_from_py(seed));
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
                  [from_json_obj](const std::string& text) {
                    py::object obj;
                    try {
                      obj = py::module_::import("json").attr("loads")(text);
                    } catch (py::error_already_set& e) {
                      fail<InvalidState>(S::kName, ": malformed JSON state: ", e.value().attr("__str__")().cast<std::string>());
                    }
                    return from_json_obj(obj);
                  },
                  py::arg("text"))
      .def(py::pickle([to_json_obj](const P& p) { return to_json_obj(p); },
                      [from_json_obj](const py::dict& d) { return std::move(*from_json_obj(d)); }))
      .def("greedy_action",
           [](const P& p, long long seed) {
             require<IllegalAction>(!p.s.is_terminal(), S::kName, ": greedy_action on a finished game");
             Rng rng(seed_from_py(seed));
             const S s = p.s;  // copied under the GIL: another thread may apply to p meanwhile
             py::gil_scoped_release release;
             return greedy_action(s, rng);
           },
           py::arg("seed"), "The greedy bot's choice: the action with the best one-ply heuristic for the mover.")
      .def("heuristic", [](const P& p, long long player) {
        check_seat(p.s, player, "heuristic");
        return p.s.heuristic(static_cast<int>(player));
      }, py::arg("player"), "The one-ply value the greedy bot maximises for `player` (the game's docs define it).")
      .def("__repr__", [](const P& p) {
        return std::string("<") + S::kName + " state: " + std::to_string(p.s.num_players()) + " players, " +
               (p.s.is_terminal() ? std::string("terminal")
                                  : (p.s.is_chance_node() ? std::string("chance node")
                                                          : "seat " + std::to_string(p.s.current_player()) + " to act")) +
               ", " + std::to_string(p.hist.size()) + " actions>";
      });

  m.def((std::string(S::kName) + "_random_playouts").c_str(),
        [](const py::dict& config, long long n, long long seed, int threads) {
          require<std::invalid_argument>(n >= 0, "random_playouts: n must be >= 0, got ", n);
          require<std::invalid_argument>(threads >= 1 && threads <= 256, "random_playouts: threads must be 1..256, got ", threads);
          auto cfg = config_from_py<S>(config);
          PlayoutResults r;
          {
            py::gil_scoped_release release;
            r = random_playouts<S>(*cfg, n, seed_from_py(seed), threads);
          }
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
        py::arg("config"), py::arg("n"), py::arg("seed") = 0, py::arg("threads") = 1);
  bind_search<S>(m, cls, class_name);
  bind_puct<S>(m, cls, class_name);
  return cls;
}

}  // namespace tilecraft

#include "bind_search.hpp"
#include "bind_puct.hpp"
