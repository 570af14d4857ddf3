// The one binding template: gives any game's State (see cpp/core/game.hpp) the common Python API.
// A game's binding file calls bind_game<State>(m, "AzulState") and adds only its own views.
// bind_game is made of named parts: construction, play, observation, serialization, vocabulary,
// random playouts, then the search entry points (bind_search.hpp, bind_vector.hpp, bind_puct.hpp).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bind_common.hpp"
#include "bind_puct.hpp"
#include "bind_search.hpp"
#include "bind_vector.hpp"
#include "core/codec.hpp"
#include "core/contract.hpp"
#include "core/errors.hpp"
#include "core/rng.hpp"
#include "core/vocab.hpp"
#include "search/playout.hpp"

namespace tilecraft {

// The saved form of a state (to_dict, to_json, pickling): {game, format, config, state, history, seed}.
template <class S>
py::dict saved_state(const PyState<S>& p) {
  py::dict d;
  d["game"] = S::kName;
  d["format"] = 1;
  d["config"] = dump_fields(*p.cfg);
  d["state"] = dump_fields(p.s);
  d["history"] = py::cast(p.hist);
  d["seed"] = p.has_origin ? py::object(py::int_(p.origin)) : py::object(py::none());
  return d;
}

// A state from its saved form (from_dict, from_json, unpickling), checked: the fields, the
// configuration, the position (validate()) and the history, which must replay from the saved seed.
template <class S>
std::unique_ptr<PyState<S>> load_saved_state(const py::handle& obj) {
  using P = PyState<S>;
  using Config = typename S::Config;
  const std::string game = S::kName;
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
}

// Making states: the constructor, sizes of the configuration, copies, the config.
template <class S, class Cls>
void bind_construction(Cls& cls) {
  using P = PyState<S>;
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
      .def("clone", [](const P& p) { return P(p); }, "An independent copy.")
      .def("new_game", [](const P& p, SeedArg seed) { return P(p.cfg, seed.value); }, py::arg("seed"),
           "A new game of this state's configuration (shared, not converted again) from `seed`: the state "
           "the class constructor gives for this config and seed (tilecraft.make uses it for a warm make).")
      .def("__copy__", [](const P& p) { return P(p); })
      .def("__deepcopy__", [](const P& p, py::dict) { return P(p); }, py::arg("memo"))
      .def("config", [](const P& p) { return dump_fields(*p.cfg); }, "The rule configuration as a dict.");
}

// Playing: whose turn, the legal actions, apply, chance, outcomes, action names, the greedy bot, repr.
template <class S, class Cls>
void bind_play(Cls& cls) {
  using P = PyState<S>;
  cls.def("current_player", [](const P& p) { return p.s.current_player(); },
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
;
}

// What a seat sees: observation (float32 or uint8) and its codec.
template <class S, class Cls>
void bind_observation(Cls& cls) {
  using P = PyState<S>;
  cls.def("observation_shape", [](const P& p) { return py::tuple(py::cast(p.s.observation_shape())); })
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
      .def("observation_layout",
           [](const P& p) {
             // FNV-1a over what a trained network depends on: the shape, the action-id range, the player
             // count and the codec (bit patterns); the game's own version constant says the rest.
             uint64_t h = 1469598103934665603ull;
             auto mix = [&h](const void* data, size_t n) {
               const auto* b = static_cast<const unsigned char*>(data);
               for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
             };
             const auto shape = p.s.observation_shape();
             for (int d : shape) mix(&d, sizeof d);
             const int actions = p.s.num_distinct_actions(), players = p.s.num_players();
             mix(&actions, sizeof actions);
             mix(&players, sizeof players);
             const int n = p.s.observation_size();
             std::vector<float> denominator(static_cast<size_t>(n)), offset(static_cast<size_t>(n));
             observation_codec(p.s, denominator.data(), offset.data());
             mix(denominator.data(), sizeof(float) * denominator.size());
             mix(offset.data(), sizeof(float) * offset.size());
             char hex[17];
             std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
             return std::string(S::kName) + "/v" + std::to_string(S::kObservationVersion) + "/" + hex;
           },
           "The observation layout as 'game/vVERSION/HASH': the game's observation version (bumped when the "
           "observation or the action ids change meaning) and a hash of observation_shape(), "
           "num_distinct_actions(), num_players() and observation_codec(). A trained network records it and "
           "refuses a state whose layout differs (tilecraft.baselines).");
}

// Saving and loading: to_dict / to_json / from_dict / from_json, pickling, equality and hashing.
template <class S, class Cls>
void bind_serialization(Cls& cls) {
  using P = PyState<S>;
  cls.def("to_dict", &saved_state<S>, "The full state (RNG and hidden parts included) as a JSON-ready dict.")
      .def("to_json",
           [](const P& p) {
             return py::module_::import("json").attr("dumps")(saved_state<S>(p), py::arg("separators") = py::make_tuple(",", ":"));
           },
           "The full state as a JSON string; from_json() restores it exactly.")
      .def_static("from_dict", &load_saved_state<S>, py::arg("data"))
      .def_static("from_json",
                  [](const py::object& text_obj) {
                    text_arg(text_obj, std::string(S::kName) + " from_json: text");  // a str, else TypeError
                    // The one JSON reader of saved states (tilecraft.from_json's): duplicate keys, deep
                    // nesting, huge integers and non-JSON constants raise InvalidStateError naming the path.
                    const py::object obj = py::module_::import("tilecraft.games._schema")
                                               .attr("parse_saved_state")(text_obj, S::kName);
                    return load_saved_state<S>(obj);
                  },
                  py::arg("text"))
      .def("__reduce__",
           [](const py::object& self) -> py::tuple {
             // (restore, (class, saved dict)): works with every pickle protocol, 0 and 1 included
             const py::object restore = py::module_::import("tilecraft._core").attr("_restore_state");
             return py::make_tuple(restore, py::make_tuple(py::type::of(self), saved_state<S>(self.cast<const P&>())));
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
           "included; history excluded): equal states have equal keys. Computed on each call.");
}

// The game's words (cpp/core/vocab.hpp): phases, action kinds and their id ranges, named locations.
template <class S, class Cls>
void bind_vocabulary(Cls& cls) {
  using P = PyState<S>;
  using Names = py::typing::Tuple<py::str, py::ellipsis>;  // typed for the stubs: tuple[str, ...]
  auto ranges = [](const P& p) {
    std::array<ActionRange, S::kNumActionKinds> r{};
    p.s.action_ranges(r.data());
    return r;
  };
  cls.def("phase", [](const P& p) { return static_cast<int>(p.s.phase()); },
          "The phase id: an index into phase_names().")
      .def("phase_name",
           [](const P& p) {
             const int k = static_cast<int>(p.s.phase());
             require<std::logic_error>(k >= 0 && k < S::kNumPhases, S::kName, ": phase ", k, " has no name");
             return std::string(S::kPhaseNames[k]);
           },
           "The name of the current phase: phase_names()[phase()] (the words of the text picture).")
      .def_static("phase_names",
                  [] {
                    Names t(S::kNumPhases);
                    for (int k = 0; k < S::kNumPhases; ++k) t[k] = py::str(S::kPhaseNames[k]);
                    return t;
                  },
                  "Every phase's name, indexed by phase id.")
      .def_static("action_kinds",
                  [] {
                    Names t(S::kNumActionKinds);
                    for (int k = 0; k < S::kNumActionKinds; ++k) t[k] = py::str(S::kActionKindNames[k]);
                    return t;
                  },
                  "The kinds of player actions, in id order (the kinds of action_ranges()).")
      .def("action_ranges",
           [ranges](const P& p) {
             py::typing::List<py::typing::Tuple<py::str, py::int_, py::int_>> out;
             for (const ActionRange& r : ranges(p)) out.append(py::make_tuple(r.kind, r.first, r.end));
             return out;
           },
           "[(kind, first, end), ...]: action ids first..end-1 are of that kind; in id order, without gaps, "
           "covering 0..num_distinct_actions()-1 for this state's configuration.")
      .def("action_kind",
           [ranges](const P& p, ActionArg a) {
             const int n = p.s.num_distinct_actions();
             require<IllegalAction>(a.in_range && a.value < n, S::kName, ": action id ", a.text,
                                    " is out of range; action ids are 0..", n - 1);
             for (const ActionRange& r : ranges(p))
               if (a.value >= r.first && a.value < r.end) return std::string(r.kind);
             fail<std::logic_error>(S::kName, ": action id ", a.text, " is in no range of action_ranges()");
           },
           py::arg("action"), "The kind of an action id (one of action_kinds()); IllegalActionError out of range.")
      .def_static("locations",
                  [] {
                    py::typing::Dict<py::str, py::int_> d;
                    for (int k = 0; k < S::kNumLocations; ++k) d[S::kLocations[k].name] = S::kLocations[k].value;
                    return d;
                  },
                  "Named card or tile locations, name -> number ({} for games without them).");
}

// <game>_random_playouts(config, n, seed, threads, progress): n random games in C++.
template <class S>
void bind_random_playouts(py::module_& m) {
  m.def((std::string(S::kName) + "_random_playouts").c_str(),
        [](const py::dict& config, IntArg<kArgN> n_arg, SeedArg seed, IntArg<kArgThreads> threads_arg, py::object progress) {
          const long long n = n_arg.value, threads = threads_arg.value;
          require<std::invalid_argument>(n >= 0 && n <= (1LL << 40), "random_playouts: n must be 0..2**40, got ", n);
          require<std::invalid_argument>(threads >= 1 && threads <= 256, "random_playouts: threads must be 1..256, got ", threads);
          auto cfg = config_from_py<S>(config);
          const py::ssize_t rows = n, cols = num_players_of<S>(*cfg);
          // bytes of results per game (scores, returns, winners, length): refused before anything is
          // allocated when they could not fit in the machine's memory
          const double need = static_cast<double>(n) * (cols * (2 * sizeof(double) + 1) + sizeof(int32_t));
          const double have = physical_memory();
          require<std::invalid_argument>(have <= 0 || need <= have, "random_playouts: ", n, " games need ",
                                         need / (1 << 30), " GiB for their results; this machine has ",
                                         have / (1 << 30), " GiB: play them in smaller batches (seed them apart)");
          py::array_t<double> scores({rows, cols}), returns({rows, cols});  // uninitialised: every entry is written
          py::array_t<bool> winners({rows, cols});
          py::array_t<int32_t> length(rows);
          const PlayoutOut out{scores.mutable_data(), returns.mutable_data(),
                               reinterpret_cast<uint8_t*>(winners.mutable_data()), length.mutable_data()};
          run_interruptible(
              [&] {
                random_playouts_into<S>(*cfg, n, seed.value, static_cast<int>(threads), out);
                return true;
              },
              progress);
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
}

template <class S>
py::class_<PyState<S>> bind_game(py::module_& m, const char* class_name) {
  static_assert(check_contract<S>());  // cpp/core/contract.hpp: the State contract, checked
  py::class_<PyState<S>> cls(m, class_name, py::dynamic_attr());
  bind_construction<S>(cls);
  bind_play<S>(cls);
  bind_observation<S>(cls);
  bind_serialization<S>(cls);
  bind_vocabulary<S>(cls);
  bind_random_playouts<S>(m);
  bind_search<S>(m, cls, class_name);
  bind_vector<S>(m, cls, class_name);
  bind_puct<S>(m, cls, class_name);
  return cls;
}

}  // namespace tilecraft
