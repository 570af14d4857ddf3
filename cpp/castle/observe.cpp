// Carcassonne: The Castle: what a seat sees (rule IDs refer to shared/rules/castle.md): the
// resampling of what it cannot see, the observation and its codec, and the names of the actions.
#include "castle/detail.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace tilecraft::castle {

using namespace detail;

// ---------------------------------------------------------------- hidden information

void State::resample_hidden(int observer, uint64_t seed) {
  // Hidden from both players: the order of the tile supply and the kinds of the face-down wall
  // tiles. Both are drawn lazily from the RNG, so a new stream is a new, equally likely future.
  rng_.seed(mix_seed(seed, static_cast<uint64_t>(observer)));
}

// ---------------------------------------------------------------- observation

// Layout (flat float32; H x W = the board's bounding grid, P = 56 planes):
//   planes [P, H, W]: 0 interior, 1 occupied, 2..49 segment s (0..11, board orientation) of type
//   y (0..3) at plane 2 + 4s + y, 50 well on the cell, 51 markets on the cell / 4, 52 observer's
//   followers on the cell, 53 opponent's followers, 54 observer's keep, 55 opponent's keep;
//   then the tail: 48 current tile (segment x type one-hot, tile orientation), 2 scores / 100
//   (observer first), 2 followers in supply / 6, 4 x 9 wall tiles (observer usable, observer
//   fresh, opponent usable, opponent fresh), 16 corners stocked, 11 phase one-hot, 1 supply / total,
//   1 "observer to act", 2 keep sizes / 10.
constexpr int kPlanes = 56;
constexpr int kTail = 48 + 2 + 2 + 36 + kMaxCorners + 11 + 1 + 1 + 2;

int State::observation_size() const { return kPlanes * cfg_->width * cfg_->height + kTail; }

void State::observation(int player, float* out) const {
  const Config& c = *cfg_;
  const int hw = c.width * c.height;
  std::memset(out, 0, sizeof(float) * observation_size());
  const int opp = 1 - player;
  for (int i = 0; i < c.num_interior; ++i) out[c.unrank[i]] = 1;
  occ_.for_each([&](int cell) {
    out[hw + cell] = 1;
    const int t = cell_tile_[cell];
    const uint8_t* plane = c.obs_seg_plane[t][cell_rot_[cell]];
    for (int s = 0; s < 12; ++s) out[plane[s] * hw + cell] = 1;
    out[50 * hw + cell] = c.obs_wells[t];
    out[51 * hw + cell] = c.obs_stalls[t];
  });
  for (int p = 0; p < 2; ++p) {
    const int plane = p == player ? 52 : 53;
    for (int i = 0; i < kFollowers; ++i)
      if (fcell_[p][i] != kNone8) out[plane * hw + fcell_[p][i]] += 1;
    if (keep_cell_[p] != kNone8) out[(p == player ? 54 : 55) * hw + keep_cell_[p]] = 1;
  }
  float* tail = out + kPlanes * hw;
  if (tile_ != kNone8)
    for (int s = 0; s < 12; ++s) tail[4 * s + c.seg_type[tile_][s]] = 1;
  tail += 48;
  tail[0] = score_[player] / 100.0f;
  tail[1] = score_[opp] / 100.0f;
  tail[2] = followers_in_supply(player) / 6.0f;
  tail[3] = followers_in_supply(opp) / 6.0f;
  tail += 4;
  for (int k = 0; k < kKinds; ++k) {
    tail[k] = held_[player][k];
    tail[9 + k] = fresh_[player][k];
    tail[18 + k] = held_[opp][k];
    tail[27 + k] = fresh_[opp][k];
  }
  tail += 36;
  for (int k = 0; k < c.num_corners; ++k) tail[k] = (corner_stocked_ >> k) & 1;
  tail += kMaxCorners;
  tail[phase_] = 1;
  tail += 11;
  tail[0] = static_cast<float>(supply_total()) / c.total_tiles;
  tail[1] = current_player() == player;
  tail[2] = keep_size_[player] / 10.0f;
  tail[3] = keep_size_[opp] / 10.0f;
}

// Every feature is code / denominator (cpp/core/codec.hpp): markets / 4, scores / 100,
// followers / 6, supply / total tiles, keep sizes / 10; the rest are counts and flags.
void State::observation_codec(float* denominator, float*) const {
  const Config& c = *cfg_;
  const int hw = c.width * c.height;
  std::fill(denominator + 51 * hw, denominator + 52 * hw, 4.0f);
  float* tail = denominator + kPlanes * hw + 48;
  tail[0] = tail[1] = 100.0f;
  tail[2] = tail[3] = 6.0f;
  tail += 4 + 36 + kMaxCorners + 11;
  tail[0] = static_cast<float>(c.total_tiles);
  tail[2] = tail[3] = 10.0f;
}

// ---------------------------------------------------------------- names

std::string State::action_to_string(int32_t action) const {
  const Config& c = *cfg_;
  const int b = base();
  std::ostringstream os;
  if (is_chance_node()) {
    if (phase_ == kFirstChance) os << "first player " << action;
    else if (phase_ == kDraw) os << "draw tile type " << action;
    else os << "wall tile " << action + 1;
    return os.str();
  }
  if (action >= 0 && action < b) {
    const int cell = c.unrank[action / 4];
    os << "place (" << cell / c.width << "," << cell % c.width << ") rot " << 90 * (action % 4);
  } else if (action >= b && action < b + kSlots) {
    const int k = action - b;
    os << "follower " << k;
    if (tile_ != kNone8 && k < c.area_count[tile_]) os << " (" << kTypeNames[c.area_type[tile_][k]] << ")";
  } else if (action == b + kSlots) {
    os << "no follower";
  } else if (action > b + kSlots && action < action_use1()) {
    os << (phase_ == kChoose ? "keep drawn tile " : "score pending ") << action - b - kSlots - 1;
  } else if (action == action_use1()) {
    os << "use wall tile 1";
  } else if (action == action_use2()) {
    os << "use wall tile 2";
  } else if (action == action_use3()) {
    os << "use wall tile 3";
  } else if (action == action_decline()) {
    os << "decline";
  } else {
    os << "action " << action;
  }
  return os.str();
}

int32_t State::string_to_action(const std::string& text) const {
  for (int a = 0; a < num_distinct_actions(); ++a)
    if (action_to_string(a) == text) return a;
  fail<IllegalAction>("castle: unknown action name '", text, "'");
}

}  // namespace tilecraft::castle
