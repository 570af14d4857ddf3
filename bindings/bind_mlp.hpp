// tilecraft._core.MlpNet: cpp/search/mlp.hpp's network, built once per network file from arrays that
// tilecraft.baselines.Network prepares (the normalisation already folded in), so that PUCT searches
// and batched self-play evaluate it without Python. Game-generic: bound once, in module.cpp.
// Every shape is checked here: a wrong array is a ValueError naming it, never a read out of bounds.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "core/errors.hpp"
#include "search/mlp.hpp"

namespace tilecraft {

namespace py = pybind11;

namespace detail {

using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;
using IntArray = py::array_t<int32_t, py::array::c_style | py::array::forcecast>;

template <class T, class A>
std::vector<T> flat(const A& a, py::ssize_t want, const std::string& what) {
  require<std::invalid_argument>(a.size() == want, "MlpNet: ", what, " has ", a.size(), " entries, expected ", want);
  return std::vector<T>(a.data(), a.data() + a.size());
}

// A tuple or list of `n` items (`shape` names them in the error), as a sequence.
inline py::sequence items_of(const py::handle& h, size_t n, const std::string& what, const char* shape) {
  require<std::invalid_argument>((py::isinstance<py::tuple>(h) || py::isinstance<py::list>(h)) && py::len(h) == n,
                                 "MlpNet: ", what, " must be a tuple ", shape, ", got ",
                                 std::string(py::str(py::type::of(h).attr("__name__"))),
                                 py::isinstance<py::sequence>(h) ? " of another length" : "");
  return py::reinterpret_borrow<py::sequence>(h);
}

inline MlpNet::Dense dense_from_py(const py::handle& pair, int in, const std::string& what, bool transposed = false) {
  const py::sequence t = items_of(pair, 2, what, "(weights, bias)");
  const FloatArray w = FloatArray::ensure(t[0]), b = FloatArray::ensure(t[1]);
  require<std::invalid_argument>(w && w.ndim() == 2 && b && b.ndim() == 1, "MlpNet: ", what,
                                 " must be a 2-d weight array and a 1-d bias");
  MlpNet::Dense d;
  d.in = static_cast<int>(transposed ? w.shape(1) : w.shape(0));
  d.out = static_cast<int>(transposed ? w.shape(0) : w.shape(1));
  require<std::invalid_argument>(d.in == in, "MlpNet: ", what, " takes ", d.in, " inputs; the layer before gives ",
                                 in);
  d.w = flat<float>(w, w.size(), what + " weights");
  d.b = flat<float>(b, d.out, what + " bias");
  return d;
}

}  // namespace detail

inline void bind_mlp(py::module_& m) {
  using detail::FloatArray;
  using detail::IntArray;
  py::class_<MlpNet>(m, "MlpNet",
                     "A policy-value MLP evaluated in C++ (tilecraft.baselines.Network.native() builds it); "
                     "immutable, usable from any number of threads at once.")
      .def(py::init([](int obs_size, int num_actions, int players, const IntArray& rest, const py::list& groups,
                       const py::list& trunk, const py::list& value_trunk, const py::object& policy,
                       const py::object& value) {
             require<std::invalid_argument>(obs_size >= 1 && num_actions >= 1 && players >= 1 &&
                                                players <= kMaxSearchPlayers,
                                            "MlpNet: obs_size, num_actions and players must be >= 1 (players at most ",
                                            kMaxSearchPlayers, ")");
             auto net = std::make_unique<MlpNet>();
             net->obs_size = obs_size;
             net->num_actions = num_actions;
             net->players = players;
             net->rest = detail::flat<int32_t>(rest, rest.size(), "rest");
             std::vector<uint8_t> used(obs_size, 0);
             auto claim = [&](int32_t f, const char* what) {
               require<std::invalid_argument>(f >= 0 && f < obs_size, "MlpNet: ", what, " names feature ", f,
                                              "; the observation has ", obs_size);
               require<std::invalid_argument>(!used[f], "MlpNet: feature ", f, " is used twice");
               used[f] = 1;
             };
             for (int32_t f : net->rest) claim(f, "rest");
             int gi = 0;
             for (auto h : groups) {
               const std::string what = "group " + std::to_string(gi++);
               const py::sequence t = detail::items_of(h, 3, what, "(indices, weights, bias)");
               const IntArray idx = IntArray::ensure(t[0]);
               const FloatArray w = FloatArray::ensure(t[1]), b = FloatArray::ensure(t[2]);
               require<std::invalid_argument>(idx && idx.ndim() == 2 && w && w.ndim() == 3 && b && b.ndim() == 2,
                                              "MlpNet: ", what,
                                              " must be indices (count, width), weights (count, width, embed) "
                                              "and bias (count, embed)");
               MlpNet::Group g;
               g.count = static_cast<int>(idx.shape(0));
               g.width = static_cast<int>(idx.shape(1));
               g.embed = static_cast<int>(w.shape(2));
               require<std::invalid_argument>(w.shape(0) == g.count && w.shape(1) == g.width && b.shape(0) == g.count &&
                                                  b.shape(1) == g.embed && g.embed >= 1,
                                              "MlpNet: ", what, "'s weights and bias do not match its indices");
               g.idx = detail::flat<int32_t>(idx, idx.size(), what + " indices");
               for (int32_t f : g.idx) claim(f, what.c_str());
               g.w = detail::flat<float>(w, w.size(), what + " weights");
               g.b = detail::flat<float>(b, b.size(), what + " bias");
               net->groups.push_back(std::move(g));
             }
             require<std::invalid_argument>(trunk.size() >= 1, "MlpNet: the trunk needs a layer");
             int in = net->input_width();
             int li = 0;
             for (auto h : trunk) {
               net->trunk.push_back(detail::dense_from_py(h, in, "trunk layer " + std::to_string(li++)));
               in = net->trunk.back().out;
             }
             const int policy_in = in;
             net->policy = detail::dense_from_py(policy, policy_in, "policy head", true);
             require<std::invalid_argument>(net->policy.out == num_actions, "MlpNet: the policy head gives ",
                                            net->policy.out, " logits for ", num_actions, " actions");
             in = net->input_width();
             li = 0;
             for (auto h : value_trunk) {
               net->value_trunk.push_back(detail::dense_from_py(h, in, "value layer " + std::to_string(li++)));
               in = net->value_trunk.back().out;
             }
             net->value = detail::dense_from_py(value, value_trunk.size() ? in : policy_in, "value head");
             require<std::invalid_argument>(net->value.out == players, "MlpNet: the value head gives ",
                                            net->value.out, " values for ", players, " players");
             return net;
           }),
           py::arg("obs_size"), py::arg("num_actions"), py::arg("players"), py::arg("rest"), py::arg("groups"),
           py::arg("trunk"), py::arg("value_trunk"), py::arg("policy"), py::arg("value"))
      .def_readonly("obs_size", &MlpNet::obs_size)
      .def_readonly("num_actions", &MlpNet::num_actions)
      .def_readonly("players", &MlpNet::players)
      .def(
          "__call__",
          [](const MlpNet& net, const FloatArray& obs, const py::array_t<bool, py::array::c_style | py::array::forcecast>& mask,
             const py::object& seats_arg) {
            // seats as 64-bit integers: a cast to int32 would read 2**32 as seat 0
            const py::array seats = py::array::ensure(seats_arg);
            require<std::invalid_argument>(seats && (seats.dtype().kind() == 'i' || seats.dtype().kind() == 'u'),
                                           "MlpNet: players must be integer seats, got ",
                                           seats ? std::string(py::str(seats.dtype())) : std::string("no array"));
            const auto players = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(seats);
            require<std::invalid_argument>(static_cast<bool>(players), "MlpNet: players must be 64-bit integer seats");
            require<std::invalid_argument>(obs.ndim() >= 1 && mask.ndim() == 2 && players.ndim() == 1,
                                           "MlpNet: give observations (B, ...), legal_mask (B, A) and players (B)");
            const py::ssize_t rows = obs.shape(0);
            require<std::invalid_argument>(obs.size() == rows * net.obs_size && mask.shape(0) == rows &&
                                               mask.shape(1) == net.num_actions && players.shape(0) == rows,
                                           "MlpNet: the batch must be ", net.obs_size, " features, ", net.num_actions,
                                           " mask entries and one seat per row");
            EvalBuffer buf;
            buf.init(net.obs_size, net.num_actions, net.players);
            buf.rows = static_cast<int>(rows);
            buf.obs.assign(obs.data(), obs.data() + obs.size());
            buf.mask.assign(mask.data(), mask.data() + mask.size());
            for (py::ssize_t r = 0; r < rows; ++r) {
              const int64_t seat = players.data()[r];
              require<std::invalid_argument>(seat >= 0 && seat < net.players, "MlpNet: seat ", seat, " is not one of the ",
                                             net.players, " players (0..", net.players - 1, "), in row ", r);
              buf.player.push_back(static_cast<int32_t>(seat));
            }
            {
              py::gil_scoped_release release;
              net.evaluate(buf, true);
            }
            py::array_t<float> logits({rows, static_cast<py::ssize_t>(net.num_actions)});
            py::array_t<float> values({rows, static_cast<py::ssize_t>(net.players)});
            if (rows) {
              std::memcpy(logits.mutable_data(), buf.logits.data(), sizeof(float) * buf.logits.size());
              std::memcpy(values.mutable_data(), buf.values.data(), sizeof(float) * buf.values.size());
            }
            return py::make_tuple(logits, values);
          },
          py::arg("observations"), py::arg("legal_mask"), py::arg("players"),
          "The evaluator protocol: (logits (B, A) for every action, each absolute seat's win share (B, players)).");
}

}  // namespace tilecraft
