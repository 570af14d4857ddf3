// Gaudí: legality (the State is declared in gaudi/state.hpp).
#include "gaudi/detail.hpp"

namespace tilecraft::gaudi {

// ------------------------------------------------------------------ legality

bool State::tile_ok(int filter, int type) const {  // GA-TILE-1 by catalogue entry
  if (filter < 16) return type == filter;
  if (filter < 20) return (type & 3) == filter - 16;
  if (filter < 24) return (type >> 2) == filter - 20;
  return true;
}

bool State::can_take_tile(int p, int filter) const {
  for (int a = 0; a < kAreas; ++a)
    for (int t = 0; t < kTypes; ++t)
      if (area_[a][t] && tile_ok(filter, t) && tile_fits(p, t)) return true;
  return false;
}

bool State::can_take_card(int p, int dmask) const {
  if (!hand_room(p)) return false;  // GA-AMB-29: expert, a full hand cannot take
  for (int d = 0; d < 3; ++d)
    if (((dmask >> d) & 1) && window_n_[d] > 0) return true;
  return false;
}

int State::requirement_total(int p, int card) const {  // GA-REQ-1
  const int d = cfg_->card_domain[card];
  int total = cfg_->card_req_n[card];
  for (int k = 0; k < column_n_[p][d]; ++k) total += cfg_->card_req_n[column_[p][d][k]];
  return total;
}

bool State::requirement_met(int p, int card) const {  // GA-REQ-2, GA-REQ-3
  const int total = requirement_total(p, card);
  const int c = cfg_->card_req_colour[card];
  if (expert()) {  // GA-EXP-7: one same-colour group, an O(1) read of the kept largest group
    if (c < 4) return largest_[p][c] >= total;
    return std::max(std::max(largest_[p][0], largest_[p][1]), std::max(largest_[p][2], largest_[p][3])) >= total;
  }
  if (c < 4) return popcount(colour_[p][c]) >= total;
  for (int k = 0; k < 4; ++k)
    if (popcount(colour_[p][k]) >= total) return true;
  return false;
}

bool State::can_play(int p, bool free) const {
  for (int k = 0; k < hand_n_[p]; ++k)
    if (free || requirement_met(p, hand_[p][k])) return true;
  return false;
}

bool State::can_advance(int p, int d) const {  // GA-CHIM-2, GA-CHIM-4
  const int k = chimney_tile(p, d), f = cfg_->mode, i = chimney_[p][d];
  if (i >= cfg_->chim_n[k][f]) return false;
  const int s = cfg_->chim_req_shape[k][f][i];
  if (f == 1) return shape_comp_[p][s] >= cfg_->chim_req_n[k][f][i];  // GA-EXP-8: O(1) read
  return popcount(cfg_->shape_mask[s] & board_occ(p)) >= cfg_->chim_req_n[k][f][i];
}

bool State::can_carry(int p, int e) const {  // GA-ORDER-2: an item that cannot be carried out is skipped
  if (e <= kEntTileAny) return can_take_tile(p, e);
  if (e <= kEntCardAny) return can_take_card(p, e == kEntCardAny ? 7 : 1 << (e - kEntCardN));
  switch (e) {
    case kEntPlay: return can_play(p, false);
    case kEntPlayFree: return can_play(p, true);
    case kEntNature:
    case kEntCatalan:
    case kEntExtra:
    case kEntVpN:
    case kEntVpN + 1:
    case kEntVpR: return true;  // vp members wait only in choose-one groups
    case kEntReligion:
      for (int k = 0; k < column_n_[p][2]; ++k)
        if (cfg_->early_religion_rescored || !column_religion(p, column_[p][2][k])) return true;
      return false;
    case kEntGeneric:
      return can_take_tile(p, kEntTileAny) || can_take_card(p, 7) || can_play(p, false) || can_advance(p, 0) ||
             can_advance(p, 1) || can_advance(p, 2);
    case kEntAdvance: return can_advance(p, 0) || can_advance(p, 1) || can_advance(p, 2);
    default: return false;
  }
}

int State::chimney_free(int d, int* ids) const {  // tiles of domain d no player holds yet (id order)
  int n = 0;
  for (int k = 0; k < kChimneys; ++k) {
    if (cfg_->chim_domain[k] != d) continue;
    bool used = false;
    for (int q = 0; q < players_; ++q) used |= chimney_tile_[q][d] == k;
    if (!used) {
      if (ids) ids[n] = k;
      ++n;
    }
  }
  return n;
}

// Draft knowledge (GA-ORDER-5 item 2, GA-AMB-27): the observer knows, as a set, the cards it
// passed on that are still hidden: the pool once it has seen it, and the hidden starting cards of
// the drafters after it, once it has picked.
bool State::knows_passed(int o, int c) const {
  if (!expert() || o < 0 || o >= players_) return false;
  if (solo()) return card_loc_[c] == kLocPool;  // both solo starting cards are seen (GA-AMB-27)
  const bool drafting = setup_step_ == 4 && phase_ == kDraft;
  if (!drafting && setup_step_ < 5) return false;
  const int done = drafting ? players_ - pool_n_ : players_;
  const int io = draft_index(o);
  if (card_loc_[c] == kLocPool) return io <= done;
  if (card_loc_[c] != kLocHand) return false;
  const int w = card_owner_[c];
  return w != o && start_card_[w] == c && io < done && draft_index(w) > io;
}

bool State::column_religion(int, int c) const { return (early_[c >> 6] >> (c & 63)) & 1u; }

const int8_t* State::space_data(int t, int& action, int& pencils, int& hammers) const {
  action = cfg_->track_action[face()][t];
  pencils = cfg_->track_pencils[face()][t];
  hammers = cfg_->track_hammers[face()][t];
  return nullptr;
}

// What the remaining units allow (GA-ACTN-*, GA-AMB-12, GA-AMB-13): a tile filter (-1 none),
// a mask of card domains, play, advance.
void State::uses_options(uint8_t&, uint8_t& card_mask, bool& play, bool& adv, int& tile_filter) const {
  tile_filter = -1;
  card_mask = 0;
  play = adv = false;
  if (pencils_ + hammers_ == 0) return;
  int a, pe, ha;
  space_data(space_, a, pe, ha);
  if (a == kEntGeneric) {
    const int used = cfg_->generic_distinct ? generic_used_ : 0;
    if (!(used & 1)) tile_filter = kEntTileAny;
    if (!(used & 2)) card_mask = 7;
    play = !(used & 4);
    adv = !(used & 8);
    return;
  }
  if (a <= kEntTileAny) tile_filter = a;
  else if (a <= kEntCardAny) card_mask = static_cast<uint8_t>(a == kEntCardAny ? 7 : 1 << (a - kEntCardN));
  else if (a == kEntPlay) play = true;
  else if (a == kEntAdvance) adv = true;
  if (hammers_ > 0) play = adv = true;  // GA-ACTN-3 (b), (c)
}

void State::push_tile_takes(int p, int filter, ActionList<kMaxActions>& out) const {
  const uint64_t occ = board_occ(p);
  bool fit[4];
  for (int s = 0; s < 4; ++s) fit[s] = (cfg_->shape_mask[s] & ~occ) != 0;  // GA-AMB-41
  for (int a = 0; a < kAreas; ++a)
    for (int t = 0; t < kTypes; ++t)
      if (area_[a][t] && fit[t & 3] && tile_ok(filter, t)) out.push(kTakeTileBase + 16 * a + t);
}

static void push_cards(const State& s, int dmask, ActionList<State::kMaxActions>& out) {
  int ids[9], n = 0;
  for (int d = 0; d < 3; ++d)
    if ((dmask >> d) & 1)
      for (int k = 0; k < s.window_size(d); ++k) ids[n++] = s.window_card(d, k);
  isort(ids, n);
  for (int i = 0; i < n; ++i) out.push(kTakeCardBase + ids[i]);
}

void State::legal_actions(ActionList<kMaxActions>& out) const {
  out.clear();
  if (phase_ == kChance) {
    ChanceList<kMaxChanceOutcomes> l;
    chance_outcomes(l);
    for (const auto& o : l) out.push(o.outcome);
    return;
  }
  legal_into(out);
}

void State::legal_into(ActionList<kMaxActions>& out) const {
  const int p = current_;
  auto plays = [&](bool free) {
    int ids[5], n = 0;
    for (int k = 0; k < hand_n_[p]; ++k)
      if (free || requirement_met(p, hand_[p][k])) ids[n++] = hand_[p][k];
    isort(ids, n);
    for (int i = 0; i < n; ++i) out.push(kPlayBase + ids[i]);
  };
  auto advances = [&]() {
    for (int d = 0; d < 3; ++d)
      if (can_advance(p, d)) out.push(kAdvanceBase + d);
  };
  switch (phase_) {
    case kMove: {  // GA-MOVE-2..4, GA-AMB-10
      const int n = cfg_->track_n[face()];
      const int lo = position_[p] < 0 ? entry_of(p) : position_[p] + 1;
      uint64_t free = ~track_occ_ & (bit(n) - 1) & ~(bit(lo) - 1);
      while (free) {
        out.push(lowest_bit(free));
        free &= free - 1;
      }
      out.push(kCentralArea);
      break;
    }
    case kMode:
      out.push(kPencils);
      out.push(kHammers);
      break;
    case kUses: {
      uint8_t unused, cards;
      bool play, adv;
      int tile;
      uses_options(unused, cards, play, adv, tile);
      if (tile >= 0) push_tile_takes(p, tile, out);
      if (cards && hand_room(p)) push_cards(*this, cards, out);
      if (play) plays(false);
      if (adv) advances();
      out.push(kDone);
      break;
    }
    case kPlace: {
      uint64_t b = cfg_->shape_mask[pending_tile_ & 3] & ~board_occ(p);
      while (b) {
        out.push(kPlaceBase + lowest_bit(b));
        b &= b - 1;
      }
      break;
    }
    case kDiscard: {  // GA-AMB-28: one of the 4 cards held before the take
      int ids[5], n = 0;
      for (int k = 0; k < hand_n_[p]; ++k)
        if (hand_[p][k] != new_card_) ids[n++] = hand_[p][k];
      isort(ids, n);
      for (int i = 0; i < n; ++i) out.push(kDiscardBase + ids[i]);
      break;
    }
    case kFrame: {
      const uint8_t* f = frame_count_[nframes_ - 1];
      for (int e = 0; e < kEntUsed; ++e)
        if (f[e] && can_carry(p, e)) out.push(kResolveBase + e);
      if (frame_info_[nframes_ - 1][kChoose] || (!f[kEntNature] && !f[kEntCatalan])) out.push(kDone);
      break;
    }
    case kCategory: {  // GA-AMB-49: one category per distinct set of triggered abilities, the lowest id
      const uint16_t trig = category_triggers(p);
      int empty = -1;
      for (int k = 0; k < 9 && empty < 0; ++k)
        if (!((trig >> k) & 1u)) empty = k;
      for (int k = 0; k < 9; ++k)
        if (((trig >> k) & 1u) || k == empty) out.push(kCategoryBase + k);
      break;
    }
    case kItem: {
      const int e = item_entry_;
      if (e <= kEntTileAny) push_tile_takes(p, e, out);
      else if (e <= kEntCardAny) {
        if (hand_room(p)) push_cards(*this, e == kEntCardAny ? 7 : 1 << (e - kEntCardN), out);
      }
      else if (e == kEntPlay || e == kEntPlayFree) plays(e == kEntPlayFree);
      else if (e == kEntAdvance) advances();
      else if (e == kEntGeneric) {  // GA-GEN-1: any one ordinary action
        push_tile_takes(p, kEntTileAny, out);
        if (hand_room(p)) push_cards(*this, 7, out);
        plays(false);
        advances();
      }
      out.push(kDone);
      break;
    }
    case kTarget: {
      int ids[33], n = 0;
      for (int k = 0; k < column_n_[p][2]; ++k)
        if (cfg_->early_religion_rescored || !column_religion(p, column_[p][2][k])) ids[n++] = column_[p][2][k];
      isort(ids, n);
      for (int i = 0; i < n; ++i) out.push(kTargetBase + ids[i]);
      out.push(kDone);
      break;
    }
    case kDraft: {  // GA-EXP-5: pick one of the cards passed to this drafter
      int ids[kMaxPlayers], n = 0;
      for (int k = 0; k < pool_n_; ++k) ids[n++] = pool_[k];
      isort(ids, n);
      for (int i = 0; i < n; ++i) out.push(kTakeCardBase + ids[i]);
      break;
    }
    case kCentral:  // GA-CHAN-2, GA-CHAN-3
      if (central_options_ & 1) out.push(kCentralA);
      if (central_options_ & 2) out.push(kCentralB);
      if (central_first_ && central_options_ != 3) out.push(kDone);
      break;
    default: break;
  }
}

bool State::is_legal(int32_t action) const {
  if (phase_ == kTerminal || action < 0 || action >= kNumActions) return false;
  ActionList<kMaxActions> l;
  legal_actions(l);
  for (int32_t a : l)
    if (a == action) return true;
  return false;
}

}  // namespace tilecraft::gaudi
