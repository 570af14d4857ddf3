// Carcassonne: The Castle: the rules (rule IDs refer to shared/rules/castle.md).
#include "castle/state.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <sstream>

namespace tilecraft::castle {

namespace {
constexpr const MaskTable<4>& kRotTable = kMaskTable<4>;  // rotation masks
const char* kTypeNames[4] = {"road", "tower", "house", "court"};
inline int opposite(int d) { return (d + 2) & 3; }
}  // namespace

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

// ---------------------------------------------------------------- areas

void State::unite(int a, int b) {
  a = find_mut(a);
  b = find_mut(b);
  if (a == b) return;
  if (b < a) std::swap(a, b);  // the older node stays the root (deterministic)
  Area& x = area_[a];
  const Area& y = area_[b];
  x.cells |= y.cells;
  x.gates = static_cast<uint16_t>(x.gates | y.gates);
  x.open = static_cast<uint16_t>(x.open + y.open);
  x.well = x.well | y.well;
  x.stalls = static_cast<uint8_t>(x.stalls + y.stalls);
  x.f[0] = static_cast<uint8_t>(x.f[0] + y.f[0]);
  x.f[1] = static_cast<uint8_t>(x.f[1] + y.f[1]);
  parent_[b] = static_cast<uint16_t>(a);
}

// Puts tile t with rotation r on cell: new area nodes, unions with facing segments, open counts,
// the placement bitboards. touched receives the roots whose open count fell (their completion is
// checked by the caller), the new tile's nodes first.
void State::lay_tile(int cell, int t, int r, uint16_t* touched, int* num_touched) {
  const Config& c = *cfg_;
  const int node0 = num_nodes_;
  const int na = c.area_count[t];
  for (int k = 0; k < na; ++k) {
    Area& a = area_[node0 + k];
    a.cells = Board::single(cell);
    a.gates = 0;
    a.type = c.area_type[t][k] & 3;
    a.open = 0;
    a.well = c.area_well[t][k] & 1;
    a.stalls = c.area_stalls[t][k];
    a.f[0] = a.f[1] = 0;
    parent_[node0 + k] = static_cast<uint16_t>(node0 + k);
  }
  num_nodes_ = static_cast<uint16_t>(node0 + na);
  cell_node0_[cell] = static_cast<uint16_t>(node0);
  cell_tile_[cell] = static_cast<uint8_t>(t);
  cell_rot_[cell] = static_cast<uint8_t>(r);
  int nt = 0;
  for (int k = 0; k < na; ++k) touched[nt++] = static_cast<uint16_t>(node0 + k);
  const uint8_t* seg_area = c.seg_area[t];
  for (int d = 0; d < 4; ++d) {
    const int tile_side = (d - r) & 3;
    const int n = c.nbr[cell][d];
    if (n >= 0) {
      if (!occ_.test(n)) {  // faces an empty interior cell: open
        for (int i = 0; i < 3; ++i) ++area_[find_mut(node0 + seg_area[tile_side * 3 + i])].open;
        continue;
      }
      const int nt_ = cell_tile_[n], nr = cell_rot_[n];
      const int ns = (opposite(d) - nr) & 3;
      for (int i = 0; i < 3; ++i) {
        const int mine = node0 + seg_area[tile_side * 3 + i];
        const int theirs = cell_node0_[n] + c.seg_area[nt_][ns * 3 + (2 - i)];
        const int rt = find_mut(theirs);
        --area_[rt].open;
        touched[nt++] = static_cast<uint16_t>(rt);
        if (c.seg_type[t][tile_side * 3 + i] == c.seg_type[nt_][ns * 3 + (2 - i)]) unite(mine, theirs);
      }
    } else {
      const int g = c.gate_at[cell][d];
      if (g < 0) continue;  // the castle wall: closed (CA-PLACE-6)
      for (int i = 0; i < 3; ++i)
        if (c.seg_type[t][tile_side * 3 + i] == c.gate_seg[g][i]) unite(node0 + seg_area[tile_side * 3 + i], c.gate_node[g][i]);
    }
  }
  occ_.set(cell);
  const uint8_t m = c.roads[t][r];
  for (int d = 0; d < 4; ++d) {
    const int n = c.nbr[cell][d];
    if (n < 0) continue;
    if ((m >> d) & 1) needs_[opposite(d)].set(n);
    else forbids_[opposite(d)].set(n);
  }
  *num_touched = nt;
}

Board State::legal_cells(int t, int r) const {
  const uint8_t m = cfg_->roads[t][r];
  Board frontier = Board::zero();
  for (int d = 0; d < 4; ++d) frontier |= needs_[d] | forbids_[d];  // CA-PLACE-3
  Board legal = frontier & ~occ_;
  for (int d = 0; d < 4; ++d) legal &= ~((m >> d) & 1 ? forbids_[d] : needs_[d]);  // CA-PLACE-4/5
  return legal;
}

bool State::placeable(int t) const {
  for (int r = 0; r < 4; ++r)
    if ((cfg_->rot_mask[t] >> r) & 1 && legal_cells(t, r).any()) return true;
  return false;
}

int State::points_of(const Area& a) const {
  switch (a.type) {
    case kRoad: return a.tiles() * (a.well ? 2 : 1);  // CA-ROAD-4/5/6
    case kTower: return 2 * a.tiles();                // CA-TOWER-2/3
    case kHouse: return a.tiles();                    // CA-HOUSE-2/3
    default: return 3 * a.stalls;                     // CA-COURT-4
  }
}

int State::largest_empty_area() const {
  // CA-END-3: bitboard flood fill over the empty interior
  Board empty = cfg_->interior_mask & ~occ_;
  int best = 0;
  while (empty.any()) {
    Board region = Board::single(empty.lowest()), prev = Board::zero();
    while (region != prev) {
      prev = region;
      region = cfg_->dilate(region) & empty;
    }
    best = std::max(best, region.count());
    empty &= ~region;
  }
  return best;
}

int State::supply_total() const {
  int n = 0;
  for (int t = 0; t < cfg_->num_types; ++t) n += supply_[t];
  return n;
}

int State::followers_in_supply(int p) const {
  int n = 0;
  for (int i = 0; i < kFollowers; ++i) n += fcell_[p][i] == kNone8;
  return n;
}

int State::unseen(int kind) const {
  return cfg_->bonus_copies[kind] - held_[0][kind] - held_[1][kind] - fresh_[0][kind] - fresh_[1][kind] -
         used_[0][kind] - used_[1][kind];
}

bool State::follower_ok(int slot) const {
  // CA-FOLLOW-1..4, CA-FOLLOW-8, CA-FOLLOW-10
  if (slot >= cfg_->area_count[tile_]) return false;
  const Area& a = area(node_of(last_cell_, slot));
  return a.f[0] + a.f[1] == 0;
}

bool State::any_follower_ok() const {
  if (!followers_in_supply(current_)) return false;
  for (int k = 0; k < cfg_->area_count[tile_]; ++k)
    if (follower_ok(k)) return true;
  return false;
}

// The pending areas the active player may choose from now (CA-AMB-14): the scorer's own group
// first. Writes their indices (at most kPendingIds) and returns how many.
int State::group_size(int* members) const {
  int own = 0;
  for (int j = 0; j < num_pending_; ++j) own += majority(area_[pending_[j]]) == current_;
  const int want = own ? current_ : 1 - current_;
  int n = 0;
  for (int j = 0; j < num_pending_ && n < kPendingIds; ++j)
    if (majority(area_[pending_[j]]) == want) members[n++] = j;
  return n;
}

// ---------------------------------------------------------------- legal actions

void State::legal_actions(ActionList<kMaxActions>& out) const {
  out.clear();
  const Config& c = *cfg_;
  const int b = base();
  switch (phase_) {
    case kPlace: {
      Board lr[4];
      Board all = Board::zero();
      for (int r = 0; r < 4; ++r) {
        lr[r] = (c.rot_mask[tile_] >> r) & 1 ? legal_cells(tile_, r) : Board::zero();
        all |= lr[r];
      }
      // per cell, the 4-bit mask of legal rotations, written as one block (ascending ids)
      for (int k = 0; k < 2; ++k) {  // Board = Bits<2>
        uint64_t bits = all.w[k];
        while (bits) {
          const int i = lowest_bit(bits);
          bits &= bits - 1;
          const unsigned m = static_cast<unsigned>((lr[0].w[k] >> i) & 1) | static_cast<unsigned>(((lr[1].w[k] >> i) & 1) << 1) |
                             static_cast<unsigned>(((lr[2].w[k] >> i) & 1) << 2) | static_cast<unsigned>(((lr[3].w[k] >> i) & 1) << 3);
          out.push_block(4 * c.rank[k * 64 + i], kRotTable.offsets[m], kRotTable.count[m]);
        }
      }
      break;
    }
    case kFollower:
      if (followers_in_supply(current_))
        for (int k = 0; k < c.area_count[tile_]; ++k)
          if (follower_ok(k)) out.push(b + k);
      out.push(b + kSlots);
      break;
    case kScoreOrder: {
      int members[kPendingIds];
      const int n = group_size(members);
      for (int j = 0; j < n; ++j) out.push(b + kSlots + 1 + j);
      break;
    }
    case kChoose:
      out.push(b + kSlots + 1);
      out.push(b + kSlots + 2);
      break;
    case kBonus0:
      out.push(action_use1());
      out.push(action_decline());
      break;
    case kDouble:
      out.push(area_[double_area_].type == kTower ? action_use2() : action_use3());
      out.push(action_decline());
      break;
    default: {
      ChanceList<kMaxChanceOutcomes> co;
      chance_outcomes(co);
      for (const auto& o : co) out.push(o.outcome);
    }
  }
}

bool State::is_legal(int32_t action) const {
  if (action < 0) return false;
  const Config& c = *cfg_;
  const int b = base();
  switch (phase_) {
    case kPlace: {
      if (action >= b) return false;
      const int cell = c.unrank[action / 4], r = action % 4;
      return (c.rot_mask[tile_] >> r) & 1 && legal_cells(tile_, r).test(cell);
    }
    case kFollower:
      if (action == b + kSlots) return true;
      return action >= b && action < b + kSlots && followers_in_supply(current_) && follower_ok(action - b);
    case kScoreOrder: {
      int members[kPendingIds];
      const int n = group_size(members);
      return action >= b + kSlots + 1 && action < b + kSlots + 1 + n;
    }
    case kChoose: return action == b + kSlots + 1 || action == b + kSlots + 2;
    case kBonus0: return action == action_use1() || action == action_decline();
    case kDouble:
      return action == action_decline() || action == (area_[double_area_].type == kTower ? action_use2() : action_use3());
    case kTerminal: return false;
    default: {
      ChanceList<kMaxChanceOutcomes> co;
      chance_outcomes(co);
      for (const auto& o : co)
        if (o.outcome == action) return true;
      return false;
    }
  }
}

std::string State::illegal_reason(int32_t action) const {
  std::ostringstream os;
  const Config& c = *cfg_;
  const int b = base();
  if (phase_ == kTerminal) return "the game is over";
  if (action < 0 || action >= num_distinct_actions()) {
    if (!is_chance_node()) {
      os << "action id " << action << " is outside 0.." << num_distinct_actions() - 1;
      return os.str();
    }
  }
  switch (phase_) {
    case kPlace:
      if (action >= b) {
        os << "the current decision is where to place tile " << int(tile_) << "; " << action_to_string(action)
           << " is not a placement";
      } else {
        const int cell = c.unrank[action / 4], r = action % 4;
        os << "cannot place tile " << int(tile_) << " on cell (" << cell / c.width << "," << cell % c.width
           << ") with rotation " << r << ": ";
        if (occ_.test(cell)) os << "the cell already holds a tile";
        else if (!((c.rot_mask[tile_] >> r) & 1)) os << "this rotation duplicates a smaller one of this symmetric tile";
        else {
          bool adj = false;
          for (int d = 0; d < 4; ++d) adj |= needs_[d].test(cell) || forbids_[d].test(cell);
          if (!adj) os << "it is not next to a placed tile or a start space (CA-PLACE-3)";
          else os << "a road would meet a non-road edge (CA-PLACE-4)";
        }
      }
      break;
    case kFollower:
      if (action >= b && action < b + kSlots) {
        const int k = action - b;
        if (k >= c.area_count[tile_]) os << "the new tile has no area slot " << k;
        else if (!followers_in_supply(current_)) os << "seat " << int(current_) << " has no follower in supply";
        else os << "area slot " << k << " (" << kTypeNames[c.area_type[tile_][k]]
                << ") is connected to an area that already holds a follower (CA-FOLLOW-8)";
      } else {
        os << "the current decision is a follower on the new tile or none; " << action_to_string(action) << " is not one";
      }
      break;
    case kScoreOrder: os << "choose which pending area to score next; " << action << " is not one"; break;
    case kBonus0: os << "choose to use wall tile 1 or decline; " << action << " is neither"; break;
    case kDouble: os << "choose to double this score with a wall tile or decline; " << action << " is neither"; break;
    case kChoose: os << "choose which drawn tile to keep; " << action << " is not one"; break;
    default: os << "chance node: " << action << " is not a possible outcome"; break;
  }
  return os.str();
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

void State::apply(int32_t action) {
  if (is_chance_node()) apply_chance(action);
  else apply_decision(action);
  resolve_chance();
}

void State::apply_chance(int32_t o) {
  switch (phase_) {
    case kFirstChance:
      current_ = static_cast<uint8_t>(o);
      if (cfg_->start_bonus_tiles) phase_ = kDealChance;
      else start_turn();
      break;
    case kDealChance: {
      // CA-AMB-5: starting with the first player, one leftover tile each, public, usable at once
      const int p = deal_step_ == 0 ? current_ : 1 - current_;
      ++held_[p][o];
      if (++deal_step_ == 2) start_turn();
      break;
    }
    case kDraw: on_drawn(o); break;
    case kReveal:
      give_bonus(reveal_for_, o);
      reveal_for_ = kNone8;
      continue_scoring();
      break;
    default: break;
  }
}

void State::give_bonus(int p, int kind) { ++fresh_[p][kind]; }  // CA-CORNER-3, CA-AMB-6

// ---------------------------------------------------------------- turn flow

void State::start_turn() {
  // CA-AMB-6: tiles taken since the holder's last turn become usable now
  for (int k = 0; k < kKinds; ++k) {
    held_[current_][k] = static_cast<uint8_t>(held_[current_][k] + fresh_[current_][k]);
    fresh_[current_][k] = 0;
  }
  ++turn_;
  if (held_[current_][0] && supply_total() > 0) phase_ = kBonus0;  // CA-BONUS-1 in Step 0
  else begin_draw();
}

void State::begin_draw() {
  tile_ = alt_tile_ = kNone8;
  if (supply_total() == 0) {  // CA-END-1 (and CA-AMB-7: a lapsed second turn)
    end_game();
    return;
  }
  phase_ = kDraw;
}

void State::on_drawn(int t) {
  --supply_[t];
  if (!placeable(t)) {  // CA-PLACE-9, CA-AMB-22: set aside, draw again
    ++removed_[t];
    if (supply_total() > 0) {
      phase_ = kDraw;
    } else if (alt_tile_ != kNone8) {  // draw-two: the first tile stands alone
      tile_ = alt_tile_;
      alt_tile_ = kNone8;
      extra_turns_ = 0;
      phase_ = kPlace;
    } else {
      end_turn();  // no placement; the supply is empty, so the game ends
    }
    return;
  }
  if (cfg_->bonus1_mode == 1 && extra_turns_) {  // CA-AMB-7 alternative: draw two, keep one
    if (alt_tile_ == kNone8 && supply_total() > 0) {
      alt_tile_ = static_cast<uint8_t>(t);
      phase_ = kDraw;
      return;
    }
    if (alt_tile_ != kNone8) {
      tile_ = static_cast<uint8_t>(t);
      phase_ = kChoose;
      return;
    }
    extra_turns_ = 0;  // the supply held only one tile
  }
  tile_ = static_cast<uint8_t>(t);
  phase_ = kPlace;
}

void State::apply_decision(int32_t action) {
  const int b = base();
  switch (phase_) {
    case kBonus0:
      if (action == action_use1()) {  // CA-BONUS-1, CA-AMB-7
        --held_[current_][0];
        ++used_[current_][0];
        ++extra_turns_;
        if (!held_[current_][0] || cfg_->bonus1_mode == 1) begin_draw();
      } else {
        begin_draw();
      }
      break;
    case kChoose: {
      // draw_two_choose_one: keep tile j (0 = first drawn, 1 = second); the other goes back
      const int j = action - (b + kSlots + 1);
      const uint8_t keep = j == 0 ? alt_tile_ : tile_;
      const uint8_t back = j == 0 ? tile_ : alt_tile_;
      ++supply_[back];  // back into the supply at a random position: draws are uniform anyway
      --extra_turns_;
      alt_tile_ = kNone8;
      tile_ = keep;
      phase_ = kPlace;
      break;
    }
    case kPlace: place(cfg_->unrank[action / 4], action % 4); break;
    case kFollower:
      if (action < b + kSlots) {  // CA-FOLLOW-1..4
        const int p = current_;
        for (int i = 0; i < kFollowers; ++i)
          if (fcell_[p][i] == kNone8) {
            fcell_[p][i] = last_cell_;
            fslot_[p][i] = static_cast<uint8_t>(action - b);
            break;
          }
        ++area_[find_mut(node_of(last_cell_, action - b))].f[p];
      }
      begin_scoring();
      break;
    case kScoreOrder: {
      int members[kPendingIds];
      group_size(members);
      select_pending(members[action - (b + kSlots + 1)]);
      break;
    }
    case kDouble: {
      const int root = double_area_;
      const bool use = action != action_decline();
      if (use) {  // CA-BONUS-2/3, CA-AMB-8
        const int k = area_[root].type == kTower ? 1 : 2;
        --held_[current_][k];
        ++used_[current_][k];
      }
      double_area_ = kNone16;
      score_area(root, use);
      break;
    }
    default: break;
  }
}

void State::place(int cell, int r) {
  uint16_t touched[32];
  int nt;
  order_[num_placed_++] = static_cast<uint8_t>(cell);
  lay_tile(cell, tile_, r, touched, &nt);
  last_cell_ = static_cast<uint8_t>(cell);
  // completed areas (CA-ROAD-1..3, CA-TOWER-1, CA-HOUSE-1): no open segment left
  num_pending_ = 0;
  for (int i = 0; i < nt; ++i) {
    const int root = find_mut(touched[i]);
    const Area& a = area_[root];
    if (a.open || a.type == kCourt) continue;  // CA-COURT-1: courts score only at game end
    bool dup = false;
    for (int j = 0; j < num_pending_; ++j) dup |= pending_[j] == root;
    if (!dup) pending_[num_pending_++] = static_cast<uint16_t>(root);
  }
  if (any_follower_ok()) phase_ = kFollower;  // CA-FOLLOW-1: optional
  else begin_scoring();
}

void State::begin_scoring() {
  // CA-MERGE-2, CA-MAJ-1: areas without followers or tied score nothing; their followers return
  int n = 0;
  for (int j = 0; j < num_pending_; ++j) {
    const int root = pending_[j];
    Area& a = area_[root];
    if (a.f[0] + a.f[1] == 0) continue;
    if (a.f[0] == a.f[1]) {
      for (int p = 0; p < 2; ++p)
        for (int i = 0; i < kFollowers; ++i)
          if (fcell_[p][i] != kNone8 && find(node_of(fcell_[p][i], fslot_[p][i])) == root) fcell_[p][i] = kNone8;
      a.f[0] = a.f[1] = 0;
      continue;
    }
    pending_[n++] = static_cast<uint16_t>(root);
  }
  num_pending_ = static_cast<uint8_t>(n);
  if (cfg_->scoring_order == 1) std::sort(pending_, pending_ + n);  // canonical: ascending area id
  continue_scoring();
}

void State::continue_scoring() {
  if (num_pending_ == 0) {
    end_turn();
    return;
  }
  int members[kPendingIds];
  const int n = group_size(members);
  if (cfg_->scoring_order == 0 && n >= 2) {
    phase_ = kScoreOrder;  // CA-AMB-14
    return;
  }
  select_pending(members[0]);
}

void State::select_pending(int index) {
  const int root = pending_[index];
  for (int j = index; j + 1 < num_pending_; ++j) pending_[j] = pending_[j + 1];
  --num_pending_;
  const Area& a = area_[root];
  const int w = majority(a);
  // CA-AMB-6/8: tiles 2 and 3 on the holder's own turn, on an area the holder wins (CA-BONUS-10)
  if (w == current_ && ((a.type == kTower && held_[w][1]) || (a.type == kHouse && held_[w][2]))) {
    double_area_ = static_cast<uint16_t>(root);
    phase_ = kDouble;
    return;
  }
  score_area(root, false);
}

void State::score_area(int root, bool doubled) {
  Area& a = area_[root];
  const int w = majority(a);
  const int pts = points_of(a) * (doubled ? 2 : 1);
  score_[w] = static_cast<int16_t>(score_[w] + pts);  // CA-SCORE-1
  cat_[w][a.type] = static_cast<int16_t>(cat_[w][a.type] + pts);
  if (a.type == kHouse && a.tiles() > keep_size_[w]) {  // CA-PALACE-1, CA-AMB-17
    keep_size_[w] = static_cast<uint8_t>(a.tiles());
    // the keep's cell and slot: any follower-free (cell, slot) of the area will do; use the
    // area's lowest cell and the first slot of it that belongs to the area
    const int cell = a.cells.lowest();
    keep_cell_[w] = static_cast<uint8_t>(cell);
    for (int k = 0; k < cfg_->area_count[cell_tile_[cell]]; ++k)
      if (find(node_of(cell, k)) == root) {
        keep_slot_[w] = static_cast<uint8_t>(k);
        break;
      }
  }
  // CA-SCORE-2: followers on the scored area return to their owners
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < kFollowers; ++i)
      if (fcell_[p][i] != kNone8 && find(node_of(fcell_[p][i], fslot_[p][i])) == root) fcell_[p][i] = kNone8;
  a.f[0] = a.f[1] = 0;
  // CA-CORNER-1, CA-AMB-16: a marker ending its move on a stocked corner takes the tile
  const int c = cfg_->corner_at[score_[w] % kTrackSpaces];
  if (c >= 0 && ((corner_stocked_ >> c) & 1)) {
    corner_stocked_ = static_cast<uint16_t>(corner_stocked_ & ~(1u << c));
    reveal_for_ = static_cast<uint8_t>(w);
    phase_ = kReveal;  // CA-AMB-25: its kind is revealed now (a chance node)
    return;
  }
  continue_scoring();
}

void State::end_turn() {
  tile_ = kNone8;
  last_cell_ = kNone8;
  if (supply_total() == 0) {  // CA-END-1
    end_game();
    return;
  }
  if (extra_turns_ && cfg_->bonus1_mode == 0) {  // CA-AMB-7: the second tile turn
    --extra_turns_;
    begin_draw();
    return;
  }
  current_ = static_cast<uint8_t>(1 - current_);
  start_turn();
}

void State::end_game() {
  const Config& c = *cfg_;
  corner_stocked_ = 0;  // CA-END-2 step 1
  extra_turns_ = 0;
  tile_ = alt_tile_ = last_cell_ = kNone8;
  num_pending_ = 0;
  // Game-end wall tiles: every tile a player holds, usable or fresh (docs/castle.md)
  int have[2][kKinds];
  for (int p = 0; p < 2; ++p)
    for (int k = 0; k < kKinds; ++k) have[p][k] = held_[p][k] + fresh_[p][k];
  auto add = [&](int p, int cat, int pts) {
    score_[p] = static_cast<int16_t>(score_[p] + pts);
    cat_[p][cat] = static_cast<int16_t>(cat_[p][cat] + pts);
  };
  // Step 2: courts (CA-COURT-3..6, CA-BONUS-7, CA-AMB-10). Best = the winner's courts by stalls.
  int court_stalls[2][kMaxNodes / 2];
  int nc[2] = {0, 0};
  // Step 3 candidates: incomplete roads/towers/houses won by each player (CA-BONUS-4..6, CA-AMB-9)
  int inc[2][3][kMaxNodes / 2];
  int ni[2][3] = {{0, 0, 0}, {0, 0, 0}};
  for (int node = 0; node < num_nodes_; ++node) {
    if (parent_[node] != node) continue;
    const Area& a = area_[node];
    const int w = majority(a);
    if (w < 0) continue;
    if (a.type == kCourt) {
      add(w, kCatCourt, 3 * a.stalls);
      court_stalls[w][nc[w]++] = a.stalls;
    } else if (a.open) {
      inc[w][a.type][ni[w][a.type]++] = points_of(a);
    }
  }
  for (int p = 0; p < 2; ++p) {
    std::sort(court_stalls[p], court_stalls[p] + nc[p], [](int x, int y) { return x > y; });
    const int n7 = c.bonus7_scope ? (have[p][6] ? nc[p] : 0) : std::min(have[p][6], nc[p]);
    for (int i = 0; i < n7; ++i) add(p, kCatCourt, court_stalls[p][i]);  // 4 instead of 3 per stall
    for (int ty = 0; ty < 3; ++ty) {
      std::sort(inc[p][ty], inc[p][ty] + ni[p][ty], [](int x, int y) { return x > y; });
      const int n = std::min(have[p][3 + ty], ni[p][ty]);
      for (int i = 0; i < n; ++i) add(p, kCatIncomplete, inc[p][ty][i]);
    }
    add(p, kCatTile9, 5 * have[p][8]);  // CA-BONUS-9
  }
  // Step 5: the largest keep (CA-END-3, CA-BONUS-8, CA-AMB-11, CA-AMB-12)
  int size[2];
  for (int p = 0; p < 2; ++p) size[p] = keep_size_[p] ? keep_size_[p] + 2 * have[p][7] : 0;
  empty_area_ = static_cast<uint8_t>(largest_empty_area());
  if (size[0] != size[1]) add(size[0] > size[1] ? 0 : 1, kCatKeep, empty_area_);
  phase_ = kTerminal;
}

// ---------------------------------------------------------------- outcome

void State::returns(double* out) const {
  out[0] = out[1] = 0;
  if (phase_ != kTerminal) return;
  if (cfg_->returns_mode == 0) {
    out[0] = score_[0];
    out[1] = score_[1];
    return;
  }
  const int diff = score_[0] - score_[1];  // CA-AMB-12, CA-AMB-29
  out[0] = diff > 0 ? 1 : (diff < 0 ? -1 : 0);
  out[1] = -out[0];
}

uint32_t State::winners() const {
  if (phase_ != kTerminal) return 0;
  if (score_[0] == score_[1]) return 3u;  // CA-END-4, CA-AMB-12: a shared victory
  return score_[0] > score_[1] ? 1u : 2u;
}

void State::resample_hidden(int observer, uint64_t seed) {
  // Hidden from both players: the order of the tile supply and the kinds of the face-down wall
  // tiles. Both are drawn lazily from the RNG, so a new stream is a new, equally likely future.
  rng_.seed(mix_seed(seed, static_cast<uint64_t>(observer)));
}

double State::heuristic(int player) const {
  // Score difference, plus half the value of the incomplete areas the player leads
  double v = score_[player] - score_[1 - player];
  for (int node = 0; node < num_nodes_; ++node) {
    if (parent_[node] != node) continue;
    const Area& a = area_[node];
    const int w = majority(a);
    if (w < 0 || (a.open == 0 && a.type != kCourt)) continue;
    v += (w == player ? 0.5 : -0.5) * points_of(a);
  }
  return v;
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

// ---------------------------------------------------------------- validation

void State::validate() const {
  const Config& c = *cfg_;
  require<InvalidState>(rng_.valid(), "castle state: the RNG state is all zeros");
  int placed_by_type[kMaxTypes] = {};
  for (int k = 0; k < num_placed_; ++k) ++placed_by_type[cell_tile_[order_[k]]];
  for (int t = 0; t < kMaxTypes; ++t) {
    const int in_hand = ((phase_ == kPlace || phase_ == kChoose) && t == tile_) + (alt_tile_ != kNone8 && t == alt_tile_);
    const int expect = t < c.num_types ? c.type_count[t] : 0;
    require<InvalidState>(supply_[t] + removed_[t] + placed_by_type[t] + in_hand == expect, "castle state: tile type ", t,
                          ": supply ", int(supply_[t]), " + removed ", int(removed_[t]), " + placed ", placed_by_type[t],
                          " + in hand ", in_hand, " != ", expect);
  }
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < kFollowers; ++i)
      for (int j = 0; j < i; ++j)
        require<InvalidState>(fcell_[p][i] == kNone8 || fcell_[p][i] != fcell_[p][j] || fslot_[p][i] != fslot_[p][j],
                              "castle state: two followers of seat ", p, " on one spot");
    int sum = 0;
    for (int k = 0; k < kCats; ++k) sum += cat_[p][k];
    require<InvalidState>(sum == score_[p] && score_[p] >= 0, "castle state: seat ", p, " score ", score_[p],
                          " is not the sum of its categories");
    require<InvalidState>(keep_size_[p] <= 100, "castle state: keep size out of range");
    require<InvalidState>((keep_size_[p] == 0) == (keep_cell_[p] == kNone8), "castle state: keep size and cell disagree");
    if (keep_cell_[p] != kNone8)
      require<InvalidState>(keep_cell_[p] < kMaxCells && occ_.test(keep_cell_[p]) &&
                                keep_slot_[p] < c.area_count[cell_tile_[keep_cell_[p]]],
                            "castle state: the keep of seat ", p, " is not on a placed tile");
  }
  for (int k = 0; k < kKinds; ++k)
    require<InvalidState>(unseen(k) >= 0, "castle state: more wall tiles of kind ", k + 1, " than exist");
  require<InvalidState>((corner_stocked_ >> c.num_corners) == 0 && !((corner_stocked_ >> c.start_corner) & 1),
                        "castle state: corner_stocked names a corner that cannot hold a tile");
  require<InvalidState>(current_ <= 1, "castle state: current must be 0 or 1");
  require<InvalidState>(phase_ <= kTerminal, "castle state: unknown phase ", int(phase_));
  require<InvalidState>(num_pending_ <= kMaxPending, "castle state: num_pending out of range");
  for (int j = 0; j < num_pending_; ++j)
    require<InvalidState>(pending_[j] < num_nodes_ && parent_[pending_[j]] == pending_[j] &&
                              area_[pending_[j]].open == 0 && area_[pending_[j]].type != kCourt,
                          "castle state: pending[", j, "] is not a completed area");
  require<InvalidState>(tile_ == kNone8 || tile_ < c.num_types, "castle state: tile out of range");
  require<InvalidState>(alt_tile_ == kNone8 || alt_tile_ < c.num_types, "castle state: alt_tile out of range");
  require<InvalidState>(extra_turns_ <= 2 * kKinds, "castle state: extra_turns out of range");
  require<InvalidState>(deal_step_ <= 2, "castle state: deal_step out of range");
  switch (phase_) {
    case kFirstChance:
      require<InvalidState>(c.first_player < 0 && turn_ == 0, "castle state: phase 'first player' out of place");
      break;
    case kDealChance: require<InvalidState>(c.start_bonus_tiles && deal_step_ < 2 && turn_ == 0, "castle state: phase 'deal' out of place"); break;
    case kBonus0: require<InvalidState>(held_[current_][0] > 0 && supply_total() > 0, "castle state: phase 'use tile 1' without the tile"); break;
    case kDraw: require<InvalidState>(supply_total() > 0 && tile_ == kNone8, "castle state: phase 'draw' with nothing to draw"); break;
    case kChoose:
      require<InvalidState>(tile_ != kNone8 && alt_tile_ != kNone8 && extra_turns_ > 0 && c.bonus1_mode == 1,
                            "castle state: phase 'choose' without two tiles");
      break;
    case kPlace: require<InvalidState>(tile_ != kNone8 && placeable(tile_), "castle state: phase 'place' without a placeable tile"); break;
    case kFollower:
      require<InvalidState>(tile_ != kNone8 && last_cell_ < kMaxCells && occ_.test(last_cell_) &&
                                cell_tile_[last_cell_] == tile_ && num_placed_ > 0 && order_[num_placed_ - 1] == last_cell_,
                            "castle state: phase 'follower' without a just-placed tile");
      break;
    case kScoreOrder: {
      int members[kPendingIds];
      require<InvalidState>(group_size(members) >= 1, "castle state: phase 'score order' without pending areas");
      break;
    }
    case kDouble:
      require<InvalidState>(double_area_ < num_nodes_ && parent_[double_area_] == double_area_ &&
                                majority(area_[double_area_]) == current_ &&
                                ((area_[double_area_].type == kTower && held_[current_][1]) ||
                                 (area_[double_area_].type == kHouse && held_[current_][2])),
                            "castle state: phase 'double' without a matching area and tile");
      break;
    case kReveal: {
      int total = 0;
      for (int k = 0; k < kKinds; ++k) total += unseen(k);
      require<InvalidState>(reveal_for_ <= 1 && total > 0, "castle state: phase 'reveal' out of place");
      break;
    }
    default: break;
  }
  if (phase_ == kScoreOrder || phase_ == kDouble || phase_ == kReveal || phase_ == kFollower)
    require<InvalidState>(last_cell_ != kNone8, "castle state: a scoring phase needs the just-placed tile");
}

}  // namespace tilecraft::castle
