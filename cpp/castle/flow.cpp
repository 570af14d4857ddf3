// Carcassonne: The Castle: setup and chance (rule IDs refer to shared/rules/castle.md). The other
// parts of the State: legal.cpp, apply.cpp, score.cpp, observe.cpp, validate.cpp; their shared
// helpers: detail.hpp.
#include "castle/detail.hpp"

#include <cstddef>
#include <cstring>

namespace tilecraft::castle {

// ---------------------------------------------------------------- setup

State::State(const Config& config, uint64_t seed) {
  if (!config.prepared) config.validate();
  // Everything up to the union-find arrays; those are written before they are read (num_nodes_).
  std::memset(static_cast<void*>(this), 0, offsetof(State, parent_));
  cfg_ = &config;
  rng_.seed(seed);
  for (int t = 0; t < config.num_types; ++t) supply_[t] = config.type_count[t];  // CA-SETUP-2
  std::memset(cell_tile_, kNone8, sizeof cell_tile_);
  std::memset(fcell_, kNone8, sizeof fcell_);  // CA-SETUP-4/5, CA-AMB-4: 6 followers each
  keep_cell_[0] = keep_cell_[1] = kNone8;
  // CA-SETUP-3: every corner but the 0/1 corner holds a face-down wall tile (kinds drawn lazily)
  corner_stocked_ = static_cast<uint16_t>(((1u << config.num_corners) - 1) & ~(1u << config.start_corner));
  tile_ = alt_tile_ = last_cell_ = kNone8;
  double_area_ = kNone16;
  reveal_for_ = kNone8;
  rebuild_derived();
  if (config.first_player < 0) {
    phase_ = kFirstChance;  // CA-AMB-24
  } else {
    current_ = static_cast<uint8_t>(config.first_player);
    if (config.start_bonus_tiles) phase_ = kDealChance;  // CA-VAR-1, CA-AMB-5
    else start_turn();
  }
  resolve_chance();
}

void State::reset_areas() {
  const Config& c = *cfg_;
  num_nodes_ = static_cast<uint16_t>(c.num_gate_nodes);
  for (int g = 0; g < c.num_gates; ++g) {
    int stalls = c.gate_stalls[g];  // CA-AMB-27: the markets printed in the gate's (first) court run
    for (int i = 0; i < 3; ++i) {
      const int node = c.gate_node[g][i];
      if (i > 0 && c.gate_node[g][i - 1] == node) continue;  // a run of one type is one area
      Area& a = area_[node];
      a.cells = Board::zero();
      a.gates = static_cast<uint16_t>(1u << g);
      a.type = c.gate_seg[g][i] & 3;
      a.open = 0;
      a.well = 0;
      a.stalls = 0;
      if (a.type == kCourt) {
        a.stalls = static_cast<uint8_t>(stalls);
        stalls = 0;
      }
      a.f[0] = a.f[1] = 0;
      parent_[node] = static_cast<uint16_t>(node);
    }
  }
  occ_ = Board::zero();
  for (int d = 0; d < 4; ++d) needs_[d] = forbids_[d] = Board::zero();
  for (int g = 0; g < c.num_gates; ++g) {
    const int cell = c.gate_cell[g], d = c.gate_side[g];
    if (c.gate_seg[g][1] == kRoad) needs_[d].set(cell);
    else forbids_[d].set(cell);
  }
}

void State::rebuild_derived() {
  const Config& c = *cfg_;
  reset_areas();
  std::memset(cell_node0_, 0, sizeof cell_node0_);
  require<InvalidState>(num_placed_ <= c.num_interior && num_placed_ <= c.total_tiles, "castle state: num_placed ",
                        int(num_placed_), " exceeds the interior cells or the tiles");
  uint16_t touched[32];
  int nt;
  for (int k = 0; k < num_placed_; ++k) {
    const int cell = order_[k];
    require<InvalidState>(cell < kMaxCells && c.rank[cell] >= 0, "castle state: order[", k, "] = ", cell,
                          " is not an interior cell");
    require<InvalidState>(!occ_.test(cell), "castle state: cell ", cell, " is placed twice in 'order'");
    const int t = cell_tile_[cell], r = cell_rot_[cell];
    require<InvalidState>(t < c.num_types && r < 4, "castle state: cell ", cell, " holds tile ", t, " rotation ", r,
                          ", out of range");
    lay_tile(cell, t, r, touched, &nt);
  }
  for (int cell = 0; cell < kMaxCells; ++cell)
    require<InvalidState>((cell_tile_[cell] != kNone8) == occ_.test(cell), "castle state: cell_tile[", cell,
                          "] disagrees with 'order'");
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < kFollowers; ++i) {
      if (fcell_[p][i] == kNone8) continue;
      const int cell = fcell_[p][i];
      require<InvalidState>(cell < kMaxCells && occ_.test(cell) && fslot_[p][i] < c.area_count[cell_tile_[cell]],
                            "castle state: follower ", i, " of seat ", p, " is not on an area of a placed tile");
      ++area_[find(node_of(cell, fslot_[p][i]))].f[p];
    }
}

// ---------------------------------------------------------------- chance

void State::chance_outcomes(ChanceList<kMaxChanceOutcomes>& out) const {
  out.clear();
  if (phase_ == kFirstChance) {
    out.push(0, 0.5);
    out.push(1, 0.5);
  } else if (phase_ == kDraw) {  // CA-PLACE-1, CA-AMB-22
    const int total = supply_total();
    for (int t = 0; t < cfg_->num_types; ++t)
      if (supply_[t]) out.push(t, static_cast<double>(supply_[t]) / total);
  } else if (phase_ == kDealChance || phase_ == kReveal) {  // CA-AMB-5, CA-AMB-25
    int total = 0;
    for (int k = 0; k < kKinds; ++k) total += unseen(k);
    for (int k = 0; k < kKinds; ++k)
      if (unseen(k) > 0) out.push(k, static_cast<double>(unseen(k)) / total);
  }
}

void State::resolve_chance() {
  while (!cfg_->explicit_chance && is_chance_node()) {
    int32_t o;
    if (phase_ == kFirstChance) {
      o = static_cast<int32_t>(rng_.below(2));
    } else if (phase_ == kDraw) {
      uint32_t x = rng_.below(static_cast<uint32_t>(supply_total()));
      o = 0;
      while (x >= supply_[o]) x -= supply_[o++];
    } else {
      int total = 0;
      for (int k = 0; k < kKinds; ++k) total += unseen(k);
      uint32_t x = rng_.below(static_cast<uint32_t>(total));
      o = 0;
      while (x >= static_cast<uint32_t>(unseen(o))) x -= unseen(o++);
    }
    apply_chance(o);
  }
}

}  // namespace tilecraft::castle
