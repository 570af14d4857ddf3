// Carcassonne: The Castle: applying an action (rule IDs refer to shared/rules/castle.md): chance
// outcomes, the turn's flow, a placement and its areas, followers and the scoring of completed areas.
#include "castle/detail.hpp"

#include <algorithm>

namespace tilecraft::castle {

namespace {
inline int opposite(int d) { return (d + 2) & 3; }
}  // namespace

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

// ---------------------------------------------------------------- applying actions

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

}  // namespace tilecraft::castle
