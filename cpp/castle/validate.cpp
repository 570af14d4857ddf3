// Carcassonne: The Castle: the check of a loaded state (rule IDs refer to shared/rules/castle.md).
#include "castle/detail.hpp"

namespace tilecraft::castle {

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
