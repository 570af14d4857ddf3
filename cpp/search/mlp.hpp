// A policy-value MLP evaluated in C++: the forward pass of tilecraft.baselines.Network (its numpy
// one), so that a PUCT search guided by a shipped network never leaves C++ for its leaves (no GIL,
// no Python call, no array per leaf). Game-generic: everything comes from the network's arrays.
//
// The network (docs/search.md): the observation x (n features) is normalised as
// (x - shift) * scale; feature groups (blocks of features sharing one encoder, see
// tilecraft.baselines.group_indices) go through their encoder relu(block @ gw + gb); the trunk's input
// is the features in no group followed by every block's encoding; the trunk is relu layers; the
// policy head gives one logit per action id, the value head a softmax over the seats relative to the
// observer (rolled here to absolute seats). An optional value trunk takes the same input.
//
// The normalisation is folded into the weights at construction (per block for the encoders, per row
// for the trunks' first layers), so that every layer is bias + sum over the nonzero inputs of
// input * weight row: observations are mostly zeros and ReLU outputs half zeros, and a row-major
// weight matrix makes each term one contiguous multiply-add the compiler vectorises. In a search only
// the legal actions' logits are computed (the others are left 0: the search reads no other).
//
// Immutable after construction: evaluate() keeps its scratch on the caller's stack frame (a
// thread_local buffer), so one network can serve any number of threads at once.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "search/puct.hpp"

// On x86-64 Linux the layer loops are compiled twice, for AVX2 and for the baseline ISA, and the
// loader picks one by the CPU (the wheels stay portable). Each output is the same sequence of
// float multiplies and adds either way (no reduction is reordered, no multiply-add fused), so the
// results are bitwise the same on every machine.
#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__) && !defined(__clang__)
#define TILECRAFT_MLP_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TILECRAFT_MLP_CLONES
#endif

namespace tilecraft {

namespace mlp_detail {

// out[0..n_out) += sum over the nonzero in[i] of in[i] * w[i * n_out ..]
TILECRAFT_MLP_CLONES inline void accumulate(const float* in, int n_in, const float* w, int n_out, float* out) {
  for (int i = 0; i < n_in; ++i) {
    const float xi = in[i];
    if (xi == 0.0f) continue;
    const float* row = w + static_cast<size_t>(i) * n_out;
    for (int j = 0; j < n_out; ++j) out[j] += xi * row[j];
  }
}

// The same for `rows` inputs at once (row r's input at in + r * n_in, its output at out + r * n_out):
// each weight row is loaded once for all of them, which matters once a matrix outgrows the caches.
// Every output is still the sum over i in ascending order: a row's result does not depend on the
// rows beside it.
TILECRAFT_MLP_CLONES inline void accumulate_rows(const float* in, int rows, int n_in, const float* w, int n_out,
                                                 float* out) {
  for (int i = 0; i < n_in; ++i) {
    const float* row = w + static_cast<size_t>(i) * n_out;
    for (int r = 0; r < rows; ++r) {
      const float xi = in[static_cast<size_t>(r) * n_in + i];
      if (xi == 0.0f) continue;
      float* o = out + static_cast<size_t>(r) * n_out;
      for (int j = 0; j < n_out; ++j) o[j] += xi * row[j];
    }
  }
}

// every block's encoding: out[k * embed ..] = relu(b[k] + sum over the block's nonzero features)
TILECRAFT_MLP_CLONES inline void encode_blocks(const float* x, const int32_t* idx, int count, int width, int embed,
                                               const float* w, const float* b, float* out) {
  for (int k = 0; k < count; ++k) {
    float* e = out + static_cast<size_t>(k) * embed;
    std::memcpy(e, b + static_cast<size_t>(k) * embed, sizeof(float) * embed);
    for (int j = 0; j < width; ++j) {
      const float xj = x[idx[static_cast<size_t>(k) * width + j]];
      if (xj == 0.0f) continue;
      const float* row = w + (static_cast<size_t>(k) * width + j) * embed;
      for (int t = 0; t < embed; ++t) e[t] += xj * row[t];
    }
    for (int t = 0; t < embed; ++t) e[t] = std::max(e[t], 0.0f);
  }
}

}  // namespace mlp_detail

class MlpNet {
 public:
  struct Dense {  // out = bias + in @ w, w row-major (in x out)
    int in = 0, out = 0;
    std::vector<float> w, b;
  };
  struct Group {   // count blocks of width features, each through the same encoder (folded per block)
    int count = 0, width = 0, embed = 0;
    std::vector<int32_t> idx;  // count * width feature indices
    std::vector<float> w;      // count * width * embed: the encoder's rows times the feature's scale
    std::vector<float> b;      // count * embed: gb minus the block's shift through the folded rows
  };

  int obs_size = 0, num_actions = 0, players = 0;
  std::vector<int32_t> rest;  // features in no group, in the order the trunk's input takes them
  std::vector<Group> groups;
  std::vector<Dense> trunk;   // first layer: rows of `rest` scaled, bias shifted (see fold_first)
  std::vector<Dense> value_trunk;  // empty: the value head sits on the policy trunk
  Dense policy;               // stored transposed (out x in) so that one action's logit is one dot product
  Dense value;

  int input_width() const {
    int w = static_cast<int>(rest.size());
    for (const Group& g : groups) w += g.count * g.embed;
    return w;
  }

  // std::invalid_argument unless the network fits a game of these sizes.
  void check(int obs_size_, int num_actions_, int players_) const {
    require<std::invalid_argument>(obs_size_ == obs_size && num_actions_ == num_actions && players_ == players,
                                   "MlpNet: the network takes ", obs_size, " features, ", num_actions,
                                   " actions and ", players, " players; the game has ", obs_size_, ", ", num_actions_,
                                   " and ", players_);
  }

  // Fills rows [0, buf.rows) of buf's logits (legal actions only, or all with all_actions) and values,
  // kBlock rows at a time through the layers.
  void evaluate(EvalBuffer& buf, bool all_actions = false) const {
    check(buf.obs_size, buf.num_actions, buf.players);
    buf.size_outputs();
    thread_local std::vector<float> in, a, b, v;
    const int iw = input_width();
    for (int r0 = 0; r0 < buf.rows; r0 += kBlock) {
      const int n = std::min(kBlock, buf.rows - r0);
      in.resize(static_cast<size_t>(n) * iw);
      for (int r = 0; r < n; ++r)
        encode(buf.obs.data() + static_cast<size_t>(r0 + r) * obs_size, in.data() + static_cast<size_t>(r) * iw);
      const std::vector<float>* h = forward(trunk, in, n, a, b);  // the policy trunk
      const int hw = trunk.back().out;
      for (int r = 0; r < n; ++r) {
        float* lg = buf.logits.data() + static_cast<size_t>(r0 + r) * num_actions;
        const uint8_t* m = buf.mask.data() + static_cast<size_t>(r0 + r) * num_actions;
        const float* hp = h->data() + static_cast<size_t>(r) * hw;
        for (int k = 0; k < num_actions; ++k) {
          if (!all_actions && !m[k]) {
            lg[k] = 0.0f;
            continue;
          }
          const float* col = policy.w.data() + static_cast<size_t>(k) * policy.in;
          float s = 0.0f;  // in order: the same sum on every machine
          for (int i = 0; i < policy.in; ++i) s += hp[i] * col[i];
          lg[k] = policy.b[k] + s;
        }
      }
      if (!value_trunk.empty()) h = forward(value_trunk, in, n, a, b);
      for (int r = 0; r < n; ++r) {
        v.assign(value.b.begin(), value.b.end());
        mlp_detail::accumulate(h->data() + static_cast<size_t>(r) * value.in, value.in, value.w.data(), value.out,
                               v.data());
        float mx = v[0];
        for (int k = 1; k < value.out; ++k) mx = std::max(mx, v[k]);
        float tot = 0.0f;
        for (int k = 0; k < value.out; ++k) tot += (v[k] = std::exp(v[k] - mx));
        float* out = buf.values.data() + static_cast<size_t>(r0 + r) * players;
        const int seat = buf.player[r0 + r];
        for (int k = 0; k < players; ++k) out[(seat + k) % players] = v[k] / tot;  // relative -> absolute seats
      }
    }
  }

 private:
  static constexpr int kBlock = 8;  // rows through the layers together

  // The trunk's input: the raw `rest` features (their normalisation is in the first layers), then
  // every block's encoding.
  void encode(const float* x, float* in) const {
    size_t o = 0;
    for (int32_t f : rest) in[o++] = x[f];
    for (const Group& g : groups) {
      mlp_detail::encode_blocks(x, g.idx.data(), g.count, g.width, g.embed, g.w.data(), g.b.data(), in + o);
      o += static_cast<size_t>(g.count) * g.embed;
    }
  }

  // relu layers from `rows` inputs; returns the last one's outputs (a or b)
  static const std::vector<float>* forward(const std::vector<Dense>& layers, const std::vector<float>& in, int rows,
                                           std::vector<float>& a, std::vector<float>& b) {
    const std::vector<float>* cur = &in;
    std::vector<float>* out = &a;
    for (const Dense& d : layers) {
      out->resize(static_cast<size_t>(rows) * d.out);
      for (int r = 0; r < rows; ++r) std::copy(d.b.begin(), d.b.end(), out->begin() + static_cast<size_t>(r) * d.out);
      mlp_detail::accumulate_rows(cur->data(), rows, d.in, d.w.data(), d.out, out->data());
      for (float& t : *out) t = std::max(t, 0.0f);
      cur = out;
      out = out == &a ? &b : &a;
    }
    return cur;
  }
};

}  // namespace tilecraft
