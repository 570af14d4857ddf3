// Carcassonne: The Castle: the legal actions (rule IDs refer to shared/rules/castle.md): the bitboard
// placement test, the scoring-order groups, and why an action is illegal.
#include "castle/detail.hpp"

#include <sstream>

namespace tilecraft::castle {

using namespace detail;

namespace {
constexpr const MaskTable<4>& kRotTable = kMaskTable<4>;  // rotation masks
}  // namespace

// ---------------------------------------------------------------- legal actions

Board State::legal_cells(int t, int r) const {
  const uint8_t m = cfg_->roads[t][r];
  Board frontier = Board::zero();
  for (int d = 0; d < 4; ++d) frontier |= needs_[d] | forbids_[d];  // CA-PLACE-3
  Board legal = frontier & ~occ_;
  for (int d = 0; d < 4; ++d) legal &= ~((m >> d) & 1 ? forbids_[d] : needs_[d]);  // CA-PLACE-4/5
  return legal;
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

}  // namespace tilecraft::castle
