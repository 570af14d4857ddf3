#include "gaudi/state.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>

#include "core/outcome.hpp"

namespace tilecraft::gaudi {

static_assert(sizeof(State) < 2048, "a Gaudí state must stay under 2 KiB");

namespace {
inline uint64_t bit(int i) { return uint64_t{1} << i; }
inline int sum16(const uint8_t* a) {
  int s = 0;
  for (int t = 0; t < kTypes; ++t) s += a[t];
  return s;
}
// pool composition per player count (GA-SETUP-7): domains of the starting cards
const int8_t kPoolDomains[5][4] = {{0}, {0, 1}, {0, 1}, {0, 1, 2}, {0, 0, 1, 1}};  // solo: the 2-player pool (GA-AMB-27)
const char* const kDomainLetters = "NCR";
template <class T>
inline void isort(T* a, int n) {  // small arrays: insertion sort
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && a[j - 1] > a[j]; --j) std::swap(a[j - 1], a[j]);
}
}  // namespace

// ------------------------------------------------------------------ setup and flow

State::State(const Config& config, uint64_t seed) {
  if (!config.validated) config.validate();
  std::memset(static_cast<void*>(this), 0, sizeof(State));
  cfg_ = &config;
  players_ = config.players;
  rng_.seed(seed);
  for (auto& p : position_) p = kNotEntered;
  std::memset(hand_, kNoCard, sizeof(hand_));
  std::memset(start_card_, kNoCard, sizeof(start_card_));
  std::memset(pool_, kNoCard, sizeof(pool_));
  std::memset(window_, kNoCard, sizeof(window_));
  std::memset(column_, kNoCard, sizeof(column_));
  std::memset(chimney_tile_, kNoCard, sizeof(chimney_tile_));
  std::memset(automa_column_, kNoCard, sizeof(automa_column_));
  for (int t = 0; t < kTypes; ++t) bag_[t] = 6;  // GA-COMP-3
  for (int c = 0; c < kCards; ++c) {
    card_loc_[c] = kLocDeck;
    card_owner_[c] = static_cast<uint8_t>(cfg_->card_domain[c]);
  }
  central_tile_ = -1;
  pending_bonus_ = -1;
  new_card_ = kNoCard;
  pending_tile_ = 0;
  round_ = 1;
  flow_ = kFlowSetup;
  setup_step_ = 0;
  rebuild_derived();
  continue_setup();
  resolve_chance();
}

void State::rebuild_derived() {
  track_occ_ = 0;
  for (int m = 0; m < 5; ++m)
    if (marker_used(m) && position_[m] >= 0 && position_[m] < kTMax) track_occ_ |= bit(position_[m]);
  for (int d = 0; d < 3; ++d) deck_n_[d] = 0;
  for (int c = 0; c < kCards; ++c)
    if (card_loc_[c] == kLocDeck && cfg_->card_domain[c] >= 0 && cfg_->card_domain[c] < 3) ++deck_n_[cfg_->card_domain[c]];
  for (int p = 0; p < kMaxPlayers; ++p) recompute_groups(p, largest_[p], shape_comp_[p]);
}

void State::continue_setup() {
  for (;;) {
    switch (setup_step_) {
      case 0:
        setup_step_ = 1;
        if (cfg_->first_player < 0) {  // GA-AMB-26
          phase_ = kChance;
          chance_kind_ = kChFirst;
          return;
        }
        start_player_ = marker_holder_ = static_cast<uint8_t>(cfg_->first_player);
        break;
      case 1:  // GA-SETUP-3: 5 tiles in each area
        for (int a = 0; a < kAreas; ++a)
          if (sum16(area_[a]) < area_cap() && sum16(bag_) > 0) {
            phase_ = kChance;
            chance_kind_ = kChTile;
            chance_arg_ = static_cast<uint8_t>(a);
            return;
          }
        setup_step_ = 2;
        break;
      case 2:  // GA-SETUP-4: 3 cards in each window
        for (int d = 0; d < 3; ++d)
          if (window_n_[d] < 3 && deck_n_[d] > 0) {
            phase_ = kChance;
            chance_kind_ = kChCard;
            chance_arg_ = static_cast<uint8_t>(d);
            return;
          }
        setup_step_ = 3;
        break;
      case 3:  // GA-SETUP-7: the starting pool from the deck tops
        if (pool_n_ < pool_size()) {
          phase_ = kChance;
          chance_kind_ = kChPool;
          chance_arg_ = static_cast<uint8_t>(kPoolDomains[players_][pool_n_]);
          return;
        }
        setup_step_ = 4;
        break;
      case 4:  // ... shuffled and dealt, one at random to each player
        if (expert()) {
          for (int i = 0; i < 3 * players_; ++i)  // GA-EXP-4: random night chimney tiles, per player and domain
            if (chimney_tile_[i / 3][i % 3] == kNoCard) {
              phase_ = kChance;
              chance_kind_ = kChChimney;
              chance_arg_ = static_cast<uint8_t>(i);
              return;
            }
          if (pool_n_ > 0) {  // GA-EXP-5: the draft, start - 1, start - 2, ..., the start player last
            draft_start_ = start_player_;
            phase_ = kDraft;
            current_ = static_cast<uint8_t>(((start_player_ - 1 - (players_ - pool_n_)) % players_ + 2 * players_) % players_);
            return;
          }
          setup_step_ = 5;
          break;
        }
        if (pool_n_ > 0) {
          phase_ = kChance;
          chance_kind_ = kChDeal;
          chance_arg_ = static_cast<uint8_t>(players_ - pool_n_);
          return;
        }
        setup_step_ = 5;
        break;
      default:
        flow_ = kFlowRound;
        start_round();
        return;
    }
  }
}

void State::start_round() {
  if (central_tile_ < 0) {  // GA-SETUP-5 / GA-ROUND-1: reveal the round's tile (drawn lazily, §11.3)
    phase_ = kChance;
    chance_kind_ = kChCentral;
    flow_ = kFlowRound;
    return;
  }
  for (auto& p : position_) p = kNotEntered;  // GA-MOVE-1
  track_occ_ = 0;
  anyone_finished_ = 0;
  start_player_ = marker_holder_;  // GA-ROUND-2
  turn_index_ = 0;
  extra_turns_ = 0;
  begin_turn();
}

void State::begin_turn() {
  bool any = false;
  for (int p = 0; p < participants(); ++p) any |= position_[p] != kGone;
  if (!any) {  // GA-AMB-16
    end_round();
    return;
  }
  const int len = num_markers();
  for (;;) {
    const int m = marker_at(turn_index_);
    if (position_[m] == kGone) {
      turn_index_ = static_cast<uint8_t>((turn_index_ + 1) % len);
      continue;
    }
    bonus_fired_ = 0;
    generic_used_ = 0;
    leader_ = mode_ = pencils_ = hammers_ = exit_after_ = turn_context_ = 0;
    central_options_ = central_first_ = 0;
    space_ = 0;
    if (m == kVirtual || (solo() && m == kAutoma)) {
      current_ = static_cast<uint8_t>(solo() ? 0 : start_player_);
      if (m == kVirtual) virtual_turn();
      else automa_turn();
      end_turn();
      return;
    }
    current_ = static_cast<uint8_t>(m);
    phase_ = kMove;
    return;
  }
}

void State::virtual_turn() {  // GA-DUMMY-2, GA-AMB-15, GA-AMB-17
  const int n = cfg_->track_n[face()];
  int mx = position_[kVirtual] >= 0 ? position_[kVirtual] : entry_of(kVirtual) - 1;
  for (int m = 0; m < participants(); ++m)
    if (position_[m] >= 0 && position_[m] < kTMax) mx = std::max<int>(mx, position_[m]);
  if (position_[kVirtual] >= 0 && position_[kVirtual] < kTMax) track_occ_ &= ~bit(position_[kVirtual]);
  const uint64_t lim = n == 64 ? ~uint64_t{0} : bit(n) - 1;
  const uint64_t free = ~track_occ_ & lim & ~((mx + 1 >= 64) ? ~uint64_t{0} : bit(mx + 1) - 1);
  if (!free) {
    position_[kVirtual] = kGone;
    return;
  }
  const int t = lowest_bit(free);
  if (solo()) {  // GA-SOLO-DUMMY-1, GA-AMB-18: all pencils and hammers as the space action, as far as possible
    int act, pe, ha;
    space_data(t, act, pe, ha);
    scripted_action(act, pe + ha, true);
  }
  if (anyone_finished_ && cfg_->track_red[face()][t]) {
    position_[kVirtual] = kGone;
    return;
  }
  position_[kVirtual] = static_cast<int8_t>(t);
  track_occ_ |= bit(t);
}

// ---- the solo automa (GA-AUTO-*, GA-AMB-19..22) and the solo virtual marker (GA-AMB-18)

bool State::automa_passes(int t, bool leading) const {  // GA-AMB-19
  int act, pe, ha;
  space_data(t, act, pe, ha);
  const int k = leading ? pe + ha : std::max(pe, ha);
  if (act <= kEntTileAny) {
    int n = 0;
    for (int a = 0; a < kAreas; ++a)
      for (int x = 0; x < kTypes; ++x)
        if (tile_ok(act, x)) n += area_[a][x];
    return n >= k;
  }
  if (act >= kEntCardN && act < kEntCardAny) return window_n_[act - kEntCardN] >= k;
  if (act == kEntCardAny || act == kEntPlay || act == kEntGeneric) return window_n_[0] + window_n_[1] + window_n_[2] >= k;
  return false;  // a chimney space: the automa cannot carry it out (engine decision, docs/gaudi.md)
}

void State::scripted_tile(int filter, bool virt) {  // GA-AUTO-TILE-1..3, GA-AMB-20
  const uint8_t* held = virt ? virtual_tiles_ : automa_tiles_;
  int best_a = -1, best_t = -1;
  for (int a = 0; a < kAreas; ++a)
    for (int t = 0; t < kTypes; ++t)
      if (area_[a][t] && tile_ok(filter, t) &&
          (best_a < 0 || held[t] < held[best_t] ||
           (held[t] == held[best_t] && (a < best_a || (a == best_a && t < best_t)))))
        best_a = a, best_t = t;
  if (best_a < 0) return;
  --area_[best_a][best_t];  // no bonus (GA-SOLO-6)
  if (virt) ++virtual_tiles_[best_t];
  else ++automa_tiles_[best_t];
}

void State::scripted_card(int dmask, bool virt) {  // GA-AUTO-CARD-1/2, GA-AMB-21/22
  int cnt[3] = {automa_column_n_[0], automa_column_n_[1], automa_column_n_[2]};
  if (virt) {
    cnt[0] = cnt[1] = cnt[2] = 0;
    for (int c = 0; c < kCards; ++c)
      if (card_loc_[c] == kLocRemoved) ++cnt[cfg_->card_domain[c]];
  }
  int d = -1;
  for (int x = 0; x < 3; ++x)
    if (((dmask >> x) & 1) && window_n_[x] > 0 && (d < 0 || cnt[x] < cnt[d])) d = x;
  if (d < 0) return;
  const int c = window_[d][--window_n_[d]];  // the bottom-most card: the last revealed
  window_[d][window_n_[d]] = kNoCard;
  if (virt) {
    card_loc_[c] = kLocRemoved;
    card_owner_[c] = 0;
  } else {
    automa_column_[d][automa_column_n_[d]++] = static_cast<uint8_t>(c);
    card_loc_[c] = kLocAutoma;
    card_owner_[c] = static_cast<uint8_t>(d);
  }
}

void State::scripted_action(int act, int k, bool virt) {  // GA-AUTO-2: play and generic = a card of any domain
  for (int i = 0; i < k; ++i) {
    if (act <= kEntTileAny) scripted_tile(act, virt);
    else if (act >= kEntCardN && act < kEntCardAny) scripted_card(1 << (act - kEntCardN), virt);
    else if (act == kEntCardAny || act == kEntPlay || act == kEntGeneric) scripted_card(7, virt);
  }
}

void State::automa_turn() {  // GA-AUTO-MOVE-1/2, GA-AMB-19
  const int n = cfg_->track_n[face()];
  const int me = position_[kAutoma];
  const bool on = me >= 0 && me < kTMax;
  if (on) track_occ_ &= ~bit(me);
  const bool block = cfg_->finished_markers_block_leader && anyone_finished_;
  int others = -1, next = -1;
  bool last = on;
  for (int m = 0; m < 5; ++m) {
    if (m == kAutoma || !marker_used(m) || position_[m] < 0 || position_[m] >= kTMax) continue;
    others = std::max<int>(others, position_[m]);
    if (on && position_[m] < me) last = false;
    if (on && position_[m] > me && (next < 0 || position_[m] < next)) next = position_[m];
  }
  const bool special = on && !block && last && next >= 0 && next - me - 1 >= 3;  // GA-AUTO-MOVE-2
  const int lo = on ? me + 1 : entry_of(kAutoma);
  int target = -1;
  for (int t = lo; t < n && target < 0; ++t) {
    if ((track_occ_ >> t) & 1u) continue;
    const bool leading = t > others && !block;
    if (special && !leading) continue;
    if (automa_passes(t, leading)) target = t;
  }
  if (target < 0) {  // the central area always passes (GA-AMB-19); GA-AUTO-3: one card of any domain
    position_[kAutoma] = kGone;
    if (!anyone_finished_) marker_holder_ = kAutoma;  // GA-CHAN-5
    anyone_finished_ = 1;
    scripted_card(7, false);
    return;
  }
  int act, pe, ha;
  space_data(target, act, pe, ha);
  const bool leading = target > others && !block;
  scripted_action(act, leading ? pe + ha : std::max(pe, ha), false);
  if (anyone_finished_ && cfg_->track_red[face()][target]) {  // GA-FIN-2 applies to the automa
    position_[kAutoma] = kGone;
    return;
  }
  position_[kAutoma] = static_cast<int8_t>(target);
  track_occ_ |= bit(target);
}

int State::automa_final() const {  // GA-SOLO-END-2..4, GA-AMB-24/45
  static const int kRemove[4] = {3, 2, 1, 0};
  const int r = kRemove[cfg_->difficulty & 3];
  int vp = 0;
  for (int d = 0; d < 3; ++d)
    for (int k = r; k < automa_column_n_[d]; ++k) vp += cfg_->card_automa_vp[automa_column_[d][k]];
  const int base = vp * (cfg_->difficulty == 3 ? 4 : 3);
  int col[4] = {};
  for (int t = 0; t < kTypes; ++t) col[t >> 2] += automa_tiles_[t];
  std::sort(col, col + 4, [](int a, int b) { return a > b; });
  return base + col[1] + 2 * col[2];
}

void State::end_turn() {
  refill_mask_ = 0;  // GA-REFILL-1/2: only empty areas and windows
  for (int a = 0; a < kAreas; ++a)
    if (sum16(area_[a]) == 0) refill_mask_ |= static_cast<uint8_t>(1u << a);
  for (int d = 0; d < 3; ++d)
    if (window_n_[d] == 0) refill_mask_ |= static_cast<uint8_t>(1u << (5 + d));
  bonus_fired_ = 0;
  flow_ = kFlowRefill;
  continue_refill();
}

void State::continue_refill() {
  while (refill_mask_) {
    const int i = lowest_bit(refill_mask_);
    if (i < kAreas) {
      if (sum16(area_[i]) < area_cap() && sum16(bag_) > 0) {
        phase_ = kChance;
        chance_kind_ = kChTile;
        chance_arg_ = static_cast<uint8_t>(i);
        return;
      }
    } else if (window_n_[i - 5] < 3 && deck_n_[i - 5] > 0) {  // GA-HAND-2
      phase_ = kChance;
      chance_kind_ = kChCard;
      chance_arg_ = static_cast<uint8_t>(i - 5);
      return;
    }
    refill_mask_ &= static_cast<uint8_t>(~(1u << i));
  }
  const int m = marker_at(turn_index_);
  if (m != kVirtual && !(solo() && m == kAutoma) && extra_turns_ > 0 && position_[m] != kGone) {  // GA-AMB-33
    --extra_turns_;
  } else {
    extra_turns_ = 0;
    turn_index_ = static_cast<uint8_t>((turn_index_ + 1) % num_markers());
  }
  begin_turn();
}

void State::end_round() {
  position_[kVirtual] = has_virtual() ? kGone : kNotEntered;
  track_occ_ = 0;
  if (round_ >= 3) {  // GA-END-2
    finish_game();
    return;
  }
  ++round_;
  central_tile_ = -1;  // GA-ROUND-1: the used tile is removed
  start_round();
}

// ------------------------------------------------------------------ chance

void State::chance_outcomes(ChanceList<kMaxChanceOutcomes>& out) const {
  out.clear();
  if (phase_ != kChance) return;
  int n = 0;
  switch (chance_kind_) {
    case kChFirst: n = players_; break;
    case kChTile: {
      const int total = sum16(bag_);
      for (int t = 0; t < kTypes; ++t)
        if (bag_[t]) out.push(t, static_cast<double>(bag_[t]) / total);
      return;
    }
    case kChCard:
    case kChPool: n = deck_n_[chance_arg_]; break;
    case kChDeal: n = pool_n_; break;
    case kChCentral: n = kChandeliers - popcount(central_used_); break;
    case kChChimney: n = chimney_free(chance_arg_ % 3, nullptr); break;
    default: break;
  }
  for (int i = 0; i < n; ++i) out.push(i, 1.0 / n);
}

void State::resolve_chance() {
  while (phase_ == kChance && !cfg_->explicit_chance) {
    int32_t o;
    if (chance_kind_ == kChTile) {
      uint32_t x = rng_.below(static_cast<uint32_t>(sum16(bag_)));
      o = 0;
      while (x >= bag_[o]) x -= bag_[o++];
    } else {
      ChanceList<kMaxChanceOutcomes> l;
      chance_outcomes(l);
      o = static_cast<int32_t>(rng_.below(static_cast<uint32_t>(l.size)));
    }
    apply_chance(o);
  }
}

static int nth_in_deck(const uint8_t* loc, const int8_t* dom, int d, int k) {
  for (int c = 0; c < kCards; ++c)
    if (loc[c] == kLocDeck && dom[c] == d && k-- == 0) return c;
  return -1;
}

void State::deal_card_to_window(int d, int c) {
  window_[d][window_n_[d]++] = static_cast<uint8_t>(c);
  card_loc_[c] = kLocWindow;
  card_owner_[c] = static_cast<uint8_t>(d);
  --deck_n_[d];
}

void State::apply_chance(int32_t o) {
  switch (chance_kind_) {
    case kChFirst: start_player_ = marker_holder_ = static_cast<uint8_t>(o); break;
    case kChTile:
      --bag_[o];
      ++area_[chance_arg_][o];
      break;
    case kChCard: deal_card_to_window(chance_arg_, nth_in_deck(card_loc_, cfg_->card_domain, chance_arg_, o)); break;
    case kChPool: {
      const int c = nth_in_deck(card_loc_, cfg_->card_domain, chance_arg_, o);
      pool_[pool_n_++] = static_cast<uint8_t>(c);
      card_loc_[c] = kLocPool;
      card_owner_[c] = 0;
      --deck_n_[chance_arg_];
      break;
    }
    case kChDeal: {
      const int c = pool_[o], p = chance_arg_;
      for (int k = o; k + 1 < pool_n_; ++k) pool_[k] = pool_[k + 1];
      pool_[--pool_n_] = kNoCard;
      hand_[p][hand_n_[p]++] = static_cast<uint8_t>(c);
      card_loc_[c] = kLocHand;
      card_owner_[c] = static_cast<uint8_t>(p);
      start_card_[p] = static_cast<uint8_t>(c);
      break;
    }
    case kChChimney: {
      int ids[kChimneys];
      chimney_free(chance_arg_ % 3, ids);
      chimney_tile_[chance_arg_ / 3][chance_arg_ % 3] = static_cast<uint8_t>(ids[o]);
      break;
    }
    case kChCentral: {
      int k = o;
      for (int t = 0; t < kChandeliers; ++t)
        if (!((central_used_ >> t) & 1u) && k-- == 0) {
          central_tile_ = static_cast<int8_t>(t);
          central_used_ |= static_cast<uint8_t>(1u << t);
          break;
        }
      break;
    }
    default: break;
  }
  next_chance_or_flow();
}

void State::next_chance_or_flow() {
  switch (flow_) {
    case kFlowSetup: continue_setup(); break;
    case kFlowRefill: continue_refill(); break;
    default: start_round(); break;
  }
}

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

// ------------------------------------------------------------------ applying

void State::apply(int32_t action) {
  if (phase_ == kChance) apply_chance(action);
  else apply_decision(action);
  resolve_chance();
}

void State::remove_from_hand(int p, int c) {
  int k = 0;
  while (k < hand_n_[p] && hand_[p][k] != c) ++k;
  for (; k + 1 < hand_n_[p]; ++k) hand_[p][k] = hand_[p][k + 1];
  hand_[p][--hand_n_[p]] = kNoCard;
  if (start_card_[p] == c) start_card_[p] = kNoCard;  // its identity is public from now on
}

void State::recompute_groups(int p, uint8_t* largest, uint8_t* shape_comp) const {
  for (int k = 0; k < 4; ++k) largest[k] = shape_comp[k] = 0;
  if (p >= players_) return;
  auto flood = [&](uint64_t within, int start) {
    uint64_t comp = bit(start), frontier = comp;
    while (frontier) {
      const int i = lowest_bit(frontier);
      frontier &= frontier - 1;
      const uint64_t nb = cfg_->board_nbr[i] & within & ~comp;
      comp |= nb;
      frontier |= nb;
    }
    return comp;
  };
  for (int c = 0; c < 4; ++c) {
    uint64_t rest = colour_[p][c];
    while (rest) {
      const uint64_t g = flood(colour_[p][c], lowest_bit(rest));
      rest &= ~g;
      largest[c] = static_cast<uint8_t>(std::max(largest[c], static_cast<uint8_t>(popcount(g))));
    }
  }
  const uint64_t occ = board_occ(p);
  uint64_t rest = occ;
  while (rest) {
    const uint64_t g = flood(occ, lowest_bit(rest));
    rest &= ~g;
    for (int s = 0; s < 4; ++s)
      shape_comp[s] = static_cast<uint8_t>(std::max(shape_comp[s], static_cast<uint8_t>(popcount(g & cfg_->shape_mask[s]))));
  }
}

void State::update_groups(int p, int b, int c) {  // one flood per placement (tiles never move)
  auto flood = [&](uint64_t within) {
    uint64_t comp = bit(b), frontier = comp;
    while (frontier) {
      const int i = lowest_bit(frontier);
      frontier &= frontier - 1;
      const uint64_t nb = cfg_->board_nbr[i] & within & ~comp;
      comp |= nb;
      frontier |= nb;
    }
    return comp;
  };
  const int g = popcount(flood(colour_[p][c]));
  if (g > largest_[p][c]) largest_[p][c] = static_cast<uint8_t>(g);
  const uint64_t comp = flood(board_occ(p));
  for (int s = 0; s < 4; ++s) {
    const int n = popcount(comp & cfg_->shape_mask[s]);
    if (n > shape_comp_[p][s]) shape_comp_[p][s] = static_cast<uint8_t>(n);
  }
}

int State::push_frame() {
  if (nframes_ >= kMaxFrames) return -1;  // engine cap (docs/gaudi.md): the new items are lost
  const int f = nframes_++;
  std::memset(frame_count_[f], 0, kEntUsed);
  std::memset(frame_info_[f], 0, 8);
  frame_info_[f][kSnapDomain] = 255;
  frame_info_[f][kBonusKind] = 255;
  return f;
}

static void add_item(uint8_t* count, uint8_t* info, int e, int amount) {
  if (count[e] < 255) ++count[e];
  if (e == kEntCatalan) {
    uint16_t t = static_cast<uint16_t>(info[kCatLo] | (info[kCatHi] << 8));
    t = static_cast<uint16_t>((t << 2) | (amount & 3));
    info[kCatLo] = static_cast<uint8_t>(t & 0xFF);
    info[kCatHi] = static_cast<uint8_t>(t >> 8);
  }
}

void State::push_effects(const int8_t (*effects)[2], int n, int p, int bonus_kind) {
  int f = -2;
  for (int k = 0; k < n; ++k) {
    const int e = effects[k][0];
    if (e < 0) break;
    if (e >= kEntVpN) {  // GA-VP-1: at once
      add_vp(p, e - kEntVpN, effects[k][1]);
      continue;
    }
    if (f == -2) f = push_frame();
    if (f < 0) continue;
    add_item(frame_count_[f], frame_info_[f], e, effects[k][1]);
    if (bonus_kind != 255) frame_info_[f][kBonusKind] = static_cast<uint8_t>(bonus_kind);
  }
}

void State::fill_column_frame(int f, int p) {  // GA-NAT-2, GA-CAT-2 on the snapshot
  const int d = frame_info_[f][kSnapDomain], len = frame_info_[f][kSnapLen];
  for (int k = 0; k < len; ++k) {
    const int c = column_[p][d][k];
    for (int i = 0; i < kBanner; ++i) {
      const int e = cfg_->card_banner[c][i][0];
      if (e < 0) break;
      if (e >= kEntVpN) add_vp(p, e - kEntVpN, cfg_->card_banner[c][i][1]);
      else add_item(frame_count_[f], frame_info_[f], e, cfg_->card_banner[c][i][1]);
    }
  }
  const int8_t(*r)[2] = d == 0 ? cfg_->nature_reward : cfg_->catalan_reward;
  for (int i = 0; i < kColReward; ++i) {
    const int e = r[i][0];
    if (e < 0) break;
    if (e >= kEntVpN) add_vp(p, e - kEntVpN, r[i][1]);
    else add_item(frame_count_[f], frame_info_[f], e, r[i][1]);
  }
}

void State::pop_frame() {
  --nframes_;
  std::memset(frame_count_[nframes_], 0, kEntUsed);  // items that could not be carried out are skipped (GA-ORDER-2)
  phase_ = nframes_ > 0 ? kFrame : (turn_context_ ? kCentral : kUses);
}

void State::take_tile(int p, int a, int t) {
  (void)p;
  --area_[a][t];
  pending_tile_ = static_cast<uint8_t>(t);
  pending_bonus_ = sum16(area_[a]) == 0 ? static_cast<int8_t>(a) : -1;  // GA-BONUS-1
  phase_ = kPlace;
}

void State::place_tile(int p, int b) {  // GA-TILE-2
  const int c = pending_tile_ >> 2;
  colour_[p][c] |= bit(b);
  update_groups(p, b, c);
  after_event(pending_bonus_);
}

void State::take_card(int p, int c) {  // GA-CARD-*
  const int d = card_owner_[c];
  int k = 0;
  while (window_[d][k] != c) ++k;
  for (; k + 1 < window_n_[d]; ++k) window_[d][k] = window_[d][k + 1];
  window_[d][--window_n_[d]] = kNoCard;
  hand_[p][hand_n_[p]++] = static_cast<uint8_t>(c);
  card_loc_[c] = kLocHand;
  card_owner_[c] = static_cast<uint8_t>(p);
  pending_bonus_ = window_n_[d] == 0 ? static_cast<int8_t>(5 + d) : -1;
  if (hand_n_[p] > 4) {  // GA-HAND-1, GA-AMB-28
    new_card_ = static_cast<uint8_t>(c);
    phase_ = kDiscard;
    return;
  }
  after_event(pending_bonus_);
}

void State::discard(int p, int c) {
  remove_from_hand(p, c);
  card_loc_[c] = kLocDiscard;
  card_owner_[c] = 0;
  new_card_ = kNoCard;
  after_event(pending_bonus_);
}

void State::play_card(int p, int c) {  // GA-PLAY-*, GA-NAT-1, GA-AMB-47/48
  remove_from_hand(p, c);
  const int d = cfg_->card_domain[c];
  column_[p][d][column_n_[p][d]++] = static_cast<uint8_t>(c);
  card_loc_[c] = kLocColumn;
  card_owner_[c] = static_cast<uint8_t>(p);
  pending_bonus_ = -1;
  if (expert() && cfg_->card_category[c] == 9) {  // GA-EXP-9, GA-AMB-49: a Gaudí's-life card picks a category
    const uint16_t trig = category_triggers(p);
    if (trig) {
      new_card_ = static_cast<uint8_t>(c);
      phase_ = kCategory;
      return;
    }
  }
  play_effects(p, c, cfg_->card_category[c]);
}

uint16_t State::category_triggers(int p) const {
  uint16_t m = 0;
  for (int d = 0; d < 3; ++d) {
    const int t = chimney_tile(p, d);
    if (t == kNoCard) continue;
    for (int i = 0; i < chimney_[p][d]; ++i)
      if (cfg_->chim_ability_trigger[t][1][i][0] == 0) m = static_cast<uint16_t>(m | (1u << cfg_->chim_ability_trigger[t][1][i][1]));
  }
  return m;
}

// The play's frame: the Nature resolution (GA-NAT-1) or a Religion card's banner, plus in expert mode
// the rewards of the persistent abilities the play triggers (GA-EXP-9). Ability rewards of one kind
// (effect type of GA-AMB-5; vp in any domain is one kind) form a choose-one group when there are
// several of them (GA-AMB-49); the groups sit on top of the play's frame, so they are decided first.
void State::play_effects(int p, int c, int category) {
  const int d = cfg_->card_domain[c];
  const int base = nframes_;
  if (d == 0) {
    const int f = push_frame();
    if (f >= 0) frame_count_[f][kEntNature] = 1;
  } else if (d == 2) {
    push_effects(cfg_->card_banner[c], kBanner, p);  // usually empty (GA-REL-1)
  }
  if (expert()) {
    static const int8_t kKind[kEntUsed] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                           1, 1, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9};
    const int8_t* eff[3 * kChimMax * kBanner];
    int n = 0, per_kind[10] = {};
    for (int k = 0; k < 3; ++k) {
      const int t = chimney_tile(p, k);
      if (t == kNoCard) continue;
      for (int i = 0; i < chimney_[p][k]; ++i) {
        const int8_t* tr = cfg_->chim_ability_trigger[t][1][i];
        if (!((tr[0] == 0 && tr[1] == category) || (tr[0] == 1 && tr[1] == d))) continue;
        for (int j = 0; j < kBanner; ++j) {
          const int8_t* e = cfg_->chim_ability_effects[t][1][i][j];
          if (e[0] < 0) break;
          eff[n++] = e;
          ++per_kind[kKind[e[0]]];
        }
      }
    }
    int single[3 * kChimMax * kBanner][2], ns = 0;
    for (int i = 0; i < n; ++i)
      if (per_kind[kKind[eff[i][0]]] == 1) single[ns][0] = eff[i][0], single[ns++][1] = eff[i][1];
    if (ns) {  // the single rewards join the play's frame (VP at once)
      int f = nframes_ > base ? nframes_ - 1 : -2;
      for (int i = 0; i < ns; ++i) {
        if (single[i][0] >= kEntVpN) {
          add_vp(p, single[i][0] - kEntVpN, single[i][1]);
          continue;
        }
        if (f == -2) f = push_frame();
        if (f >= 0) add_item(frame_count_[f], frame_info_[f], single[i][0], single[i][1]);
      }
    }
    for (int kind = 0; kind < 10; ++kind) {
      if (per_kind[kind] < 2) continue;
      const int g = push_frame();
      if (g < 0) continue;
      frame_info_[g][kChoose] = 1;
      int cat_times = 0;
      for (int i = 0; i < n; ++i) {
        const int e = eff[i][0];
        if (kKind[e] != kind) continue;
        if (e >= kEntVpN) frame_count_[g][e] = static_cast<uint8_t>(std::max<int>(frame_count_[g][e], eff[i][1]));
        else if (e == kEntCatalan) cat_times = std::max<int>(cat_times, eff[i][1]);
        else frame_count_[g][e] = 1;
      }
      if (cat_times) add_item(frame_count_[g], frame_info_[g], kEntCatalan, cat_times);
    }
  }
  after_event(-1);
}

void State::advance(int p, int d) {  // GA-CHIM-1..3
  const int k = chimney_tile(p, d);
  ++chimney_[p][d];
  push_effects(cfg_->chim_reward[k][cfg_->mode][chimney_[p][d] - 1], kChimReward, p);
  after_event(-1);
}

void State::after_event(int slot) {
  pending_bonus_ = -1;
  if (slot >= 0) {  // GA-BONUS-1/2, GA-AMB-31: optional, now or never, once per kind per turn
    const int8_t* e = slot < kAreas ? cfg_->area_bonus[face()][slot] : cfg_->window_bonus[face()][slot - 5];
    const int kind = cfg_->bonus_kind[face()][slot];
    if (e[0] >= 0 && !((bonus_fired_ >> kind) & 1u)) {
      if (e[0] >= kEntVpN) bonus_fired_ |= static_cast<uint8_t>(1u << kind);
      push_effects(reinterpret_cast<const int8_t(*)[2]>(e), 1, current_, kind);
    }
  }
  phase_ = nframes_ > 0 ? kFrame : (turn_context_ ? kCentral : kUses);
  settle();
}

void State::end_uses() {  // GA-ORDER-1 steps 5, 6
  const int p = current_;
  if (exit_after_) {  // GA-FIN-2
    if (position_[p] >= 0 && position_[p] < kTMax) track_occ_ &= ~bit(position_[p]);
    position_[p] = kGone;
  }
  end_turn();
}

void State::settle() {
  const int p = current_;
  for (;;) {
    if (phase_ == kFrame) {
      const int f = nframes_ - 1;
      uint8_t* cnt = frame_count_[f];
      int n = 0, only = -1;
      for (int e = 0; e < kEntUsed; ++e)
        if (cnt[e] && can_carry(p, e)) {
          ++n;
          only = e;
        }
      if (n == 0) {  // nothing can be carried out: DONE is the only option
        if (frame_info_[f][kReps] > 0) {
          --frame_info_[f][kReps];
          std::memset(cnt, 0, kEntUsed);
          frame_info_[f][kCatLo] = frame_info_[f][kCatHi] = 0;
          fill_column_frame(f, p);
          continue;
        }
        pop_frame();
        continue;
      }
      if (n == 1 && !frame_info_[f][kChoose] && (only == kEntNature || only == kEntCatalan) && cnt[only] == 1) {  // a column resolution alone
        apply_decision(kResolveBase + only);
        return;
      }
      return;
    }
    if (phase_ == kUses) {
      uint8_t unused, cards;
      bool play, adv;
      int tile;
      uses_options(unused, cards, play, adv, tile);
      const bool any = (tile >= 0 && can_take_tile(p, tile)) || (cards && can_take_card(p, cards)) ||
                       (play && can_play(p, false)) || (adv && (can_advance(p, 0) || can_advance(p, 1) || can_advance(p, 2)));
      if (!any) end_uses();
      return;
    }
    if (phase_ == kCentral && central_options_ == 0) {
      end_turn();
      return;
    }
    return;
  }
}

void State::apply_decision(int32_t a) {
  const int p = current_;
  // GA-AMB-31: a bonus uses up its kind when it is carried out; choosing it (RESOLVE) and then
  // declining its item (DONE) leaves the kind available for another emptied area this turn.
  if ((phase_ == kItem || phase_ == kTarget) && a != kDone && nframes_ > 0 &&
      frame_info_[nframes_ - 1][kBonusKind] != 255)
    bonus_fired_ |= static_cast<uint8_t>(1u << frame_info_[nframes_ - 1][kBonusKind]);
  if (phase_ == kDraft) {  // GA-EXP-5, GA-AMB-27: the pick is private (its domain is public)
    const int c = a - kTakeCardBase;
    int k = 0;
    while (k < pool_n_ && pool_[k] != c) ++k;
    for (; k + 1 < pool_n_; ++k) pool_[k] = pool_[k + 1];
    pool_[--pool_n_] = kNoCard;
    hand_[p][hand_n_[p]++] = static_cast<uint8_t>(c);
    card_loc_[c] = kLocHand;
    card_owner_[c] = static_cast<uint8_t>(p);
    if (solo()) {  // GA-SOLO-3, GA-AMB-23/27: public; the other card goes to the automa as its earliest card
      while (pool_n_ > 0) {
        const int o = pool_[--pool_n_], d = cfg_->card_domain[o];
        pool_[pool_n_] = kNoCard;
        automa_column_[d][automa_column_n_[d]++] = static_cast<uint8_t>(o);
        card_loc_[o] = kLocAutoma;
        card_owner_[o] = static_cast<uint8_t>(d);
      }
    } else {
      start_card_[p] = static_cast<uint8_t>(c);
    }
    continue_setup();
    return;
  }
  const Decoded d = decode(a);
  // GA-ACTN-*: in the uses phase, an ordinary action spends a pencil where the space's action
  // allows it, a hammer otherwise (use type: 0 tile, 1 card, 2 play, 3 advance)
  auto spend_unit = [&](int type) {
    if (phase_ != kUses) return;
    int act, pe, ha;
    space_data(space_, act, pe, ha);
    const bool pencil_can = act == kEntGeneric || (type == 0 && act <= kEntTileAny) ||
                            (type == 1 && act >= kEntCardN && act <= kEntCardAny) || (type == 2 && act == kEntPlay) ||
                            (type == 3 && act == kEntAdvance);
    if (pencil_can && pencils_ > 0) --pencils_;
    else --hammers_;
    if (act == kEntGeneric) generic_used_ |= static_cast<uint8_t>(1u << type);
  };
  switch (d.kind) {
    case kActMove:
    case kActMoveCentral: {
      if (position_[p] >= 0 && position_[p] < kTMax) track_occ_ &= ~bit(position_[p]);
      if (d.kind == kActMoveCentral) {  // GA-CHAN-*
        position_[p] = kGone;
        central_first_ = !anyone_finished_;
        if (central_first_) marker_holder_ = static_cast<uint8_t>(p);  // GA-CHAN-5
        anyone_finished_ = 1;
        central_options_ = 3;
        turn_context_ = 1;
        phase_ = kCentral;
        return;
      }
      position_[p] = static_cast<int8_t>(a);
      track_occ_ |= bit(a);
      space_ = static_cast<uint8_t>(a);
      int mx = -1;  // GA-MOVE-5, GA-AMB-9: strictly ahead of every other marker on the track
      for (int m = 0; m < 5; ++m)
        if (m != p && marker_used(m) && position_[m] >= 0 && position_[m] < kTMax) mx = std::max<int>(mx, position_[m]);
      leader_ = a > mx && !(cfg_->finished_markers_block_leader && anyone_finished_);
      exit_after_ = anyone_finished_ && cfg_->track_red[face()][a];  // GA-FIN-2, GA-AMB-14
      int act, pe, ha;
      space_data(a, act, pe, ha);
      pencils_ = static_cast<uint8_t>(pe);
      hammers_ = static_cast<uint8_t>(ha);
      if (leader_) mode_ = 3;
      else if (pe > 0 && ha > 0) {  // GA-ACTN-5
        phase_ = kMode;
        return;
      } else mode_ = pe > 0 ? 1 : 2;
      phase_ = kUses;
      settle();
      return;
    }
    case kActPencils:
    case kActHammers:
      mode_ = d.kind == kActPencils ? 1 : 2;
      if (d.kind == kActPencils) hammers_ = 0;
      else pencils_ = 0;
      phase_ = kUses;
      settle();
      return;
    case kActDone:
      switch (phase_) {
        case kUses: end_uses(); return;
        case kFrame:
          std::memset(frame_count_[nframes_ - 1], 0, kEntUsed);  // declines the rest (reps follow in settle)
          frame_info_[nframes_ - 1][kCatLo] = frame_info_[nframes_ - 1][kCatHi] = 0;
          phase_ = kFrame;
          settle();
          return;
        case kItem:
        case kTarget:
          phase_ = kFrame;
          settle();
          return;
        case kCentral:
          central_options_ = 0;
          settle();
          return;
      }
      return;
    case kActTakeTile:
      spend_unit(0);
      take_tile(p, d.arg >> 4, d.arg & 15);
      return;
    case kActPlace:
      place_tile(p, d.arg);
      return;
    case kActTakeCard:
      spend_unit(1);
      take_card(p, d.arg);
      return;
    case kActPlayCard:
      spend_unit(2);
      play_card(p, d.arg);
      return;
    case kActDiscardCard:
      discard(p, d.arg);
      return;
    case kActAdvance:
      spend_unit(3);
      advance(p, d.arg);
      return;
    case kActCentralA:
    case kActCentralB: {
      const int o = d.kind == kActCentralA ? 0 : 1;
      central_options_ = central_first_ ? static_cast<uint8_t>(central_options_ & ~(1u << o)) : 0;
      phase_ = kCentral;
      push_effects(cfg_->chandelier[central_tile_][o], kCentralEff, p);
      phase_ = nframes_ > 0 ? kFrame : kCentral;
      settle();
      return;
    }
    case kActResolve: {
      const int e = d.arg, f = nframes_ - 1;
      if (frame_info_[f][kChoose]) {  // GA-AMB-49: take this member, the others are lost
        const int amount = frame_count_[f][e];
        std::memset(frame_count_[f], 0, kEntUsed);
        if (e == kEntCatalan) frame_count_[f][e] = 1;
        else if (e >= kEntVpN) {
          add_vp(p, e - kEntVpN, amount);
          phase_ = kFrame;
          settle();
          return;
        } else frame_count_[f][e] = 1;
      }
      --frame_count_[f][e];
      // an item carried out at once (a column resolution, an extra turn) uses up its bonus kind now;
      // one with a decision of its own does so when that decision is made (above)
      if (frame_info_[f][kBonusKind] != 255 && (e == kEntNature || e == kEntCatalan || e == kEntExtra))
        bonus_fired_ |= static_cast<uint8_t>(1u << frame_info_[f][kBonusKind]);
      if (e == kEntNature || e == kEntCatalan) {
        int times = 1;
        if (e == kEntCatalan) {
          uint16_t t = static_cast<uint16_t>(frame_info_[f][kCatLo] | (frame_info_[f][kCatHi] << 8));
          times = (t & 3) ? (t & 3) : 1;
          t = static_cast<uint16_t>(t >> 2);
          frame_info_[f][kCatLo] = static_cast<uint8_t>(t & 0xFF);
          frame_info_[f][kCatHi] = static_cast<uint8_t>(t >> 8);
        }
        const int g = push_frame();
        if (g >= 0) {
          frame_info_[g][kSnapDomain] = static_cast<uint8_t>(e - kEntNature);
          frame_info_[g][kSnapLen] = column_n_[p][e - kEntNature];
          frame_info_[g][kReps] = static_cast<uint8_t>(times - 1);
          fill_column_frame(g, p);
        }
        phase_ = kFrame;
        settle();
        return;
      }
      if (e == kEntExtra) {  // GA-AMB-33
        if (extra_turns_ < 255) ++extra_turns_;
        settle();
        return;
      }
      item_entry_ = static_cast<uint8_t>(e);
      phase_ = e == kEntReligion ? kTarget : kItem;
      return;
    }
    case kActCategory: {  // GA-AMB-49
      if (phase_ != kCategory) return;
      const int c = new_card_;
      new_card_ = kNoCard;
      play_effects(p, c, d.arg);
      return;
    }
    case kActTargetCard: {  // GA-REL-2, GA-AMB-32
      const int c = d.arg;
      add_vp(p, 2, religion_value(p, c));
      early_[c >> 6] |= bit(c & 63);
      phase_ = kFrame;
      settle();
      return;
    }
    case kNumActionKinds: return;  // no action has this id
  }
}

// ------------------------------------------------------------------ scoring

int State::count_value(int p, int kind, int arg, const int* cat) const {  // GA-DATA-8, GA-AMB-50
  switch (kind) {
    case 0: return cat[arg];
    case 1: {
      int n = 0;
      for (int k = 0; k < 9; ++k) n += cat[k] > 0;
      return n;
    }
    case 2: return chimney_[p][arg];
    case 3: return chimney_[p][0] + chimney_[p][1] + chimney_[p][2];
    case 4: return popcount(cfg_->shape_mask[arg] & board_occ(p));
    case 5: return popcount(colour_[p][arg]);
    case 6: return std::max(std::max(largest_[p][0], largest_[p][1]), std::max(largest_[p][2], largest_[p][3]));
    default: return 0;
  }
}

static int condition_value(const Config& c, int card, int count) {
  const int vp = c.card_rel_vp[card], m = c.card_rel_threshold[card];
  return m == 0 ? vp * count : (count >= m ? vp : 0);
}

int State::religion_value(int p, int card) const {  // GA-AMB-35 for one card: the wild cards where they help most
  int cat[10] = {}, wild = 0;
  for (int d = 0; d < 3; ++d)
    for (int k = 0; k < column_n_[p][d]; ++k) {
      const int g = cfg_->card_category[column_[p][d][k]];
      if (g == 9) ++wild;
      else ++cat[g];
    }
  const int kind = cfg_->card_rel_count[card][0], arg = cfg_->card_rel_count[card][1];
  if (kind == 0) cat[arg] += wild;
  int count = count_value(p, kind, arg, cat);
  if (kind == 1) count = std::min(9, count + wild);
  return condition_value(*cfg_, card, count);
}

int State::group_sizes(int p, int* out) const {
  int n = 0;
  for (int c = 0; c < 4; ++c) {
    uint64_t rest = colour_[p][c];
    while (rest) {
      uint64_t comp = bit(lowest_bit(rest)), frontier = comp;
      while (frontier) {
        const int i = lowest_bit(frontier);
        frontier &= frontier - 1;
        const uint64_t nb = cfg_->board_nbr[i] & colour_[p][c] & ~comp;
        comp |= nb;
        frontier |= nb;
      }
      rest &= ~comp;
      out[n++] = popcount(comp);
    }
  }
  std::sort(out, out + n, [](int a, int b) { return a > b; });
  return n;
}

static void final_of(bool expert, const int* dom, const int* sizes, int ng, int& fin, int& tb) {
  int v[3] = {dom[0], dom[1], dom[2]};
  isort(v, 3);  // ascending
  const int g2 = ng > 1 ? sizes[1] : 0, g3 = ng > 2 ? sizes[2] : 0;  // GA-AMB-36
  if (expert) fin = 2 * v[0] + v[1] + g2 + 2 * g3;  // GA-EXP-10
  else fin = v[0] + v[1] + g2 + g3;                 // GA-SCORE-3..5
  tb = v[2];                                        // GA-END-3, GA-EXP-11
}

// GA-SCORE-1..5, GA-AMB-34/35/36, GA-EXP-10: every end-game choice (the Gaudí's-life category
// multiset, each end_add domain, each end_swap pair or no swap) is made jointly, maximising
// (final score, tie-break), with the effects applied in the GA-AMB-34 order.
int State::end_scoring(int p, int* best_dom, int* best_tb) const {
  int sizes[64];
  const int ng = group_sizes(p, sizes);
  const bool expert = cfg_->mode == 1;
  int cat[10] = {}, wild = 0;
  for (int d = 0; d < 3; ++d)
    for (int k = 0; k < column_n_[p][d]; ++k) {
      const int g = cfg_->card_category[column_[p][d][k]];
      if (g == 9) ++wild;
      else ++cat[g];
    }
  // the reached end effects in GA-AMB-34 order: step 2 (Religion-only), step 3 (the Catalan
  // chimney's 2nd space), step 4 (the others); within a step chimneys N, C, R, bottom to top
  const int8_t* eff[3 * kChimMax];
  int neff = 0;
  for (int step = 2; step <= 4; ++step)
    for (int d = 0; d < 3; ++d) {
      const int t = chimney_tile(p, d), face = cfg_->mode;
      for (int i = 0; i < chimney_[p][d]; ++i) {
        const int8_t* e = cfg_->chim_end[t][face][i];
        if (e[0] < 0) continue;
        const bool cat2 = d == 1 && i == 1;
        const bool rel_only = (e[0] == 0 || e[0] == 1) && e[1] == 2;
        const int st = cat2 ? 3 : (rel_only ? 2 : 4);
        if (st == step) eff[neff++] = e;
      }
    }
  int best_fin = -(1 << 30), btb = -(1 << 30);
  int assign[9] = {};
  int c2[10];
  auto apply_from = [&](auto&& self, int k, int* dom) -> void {
    if (k == neff) {
      int f, t;
      final_of(expert, dom, sizes, ng, f, t);
      if (f > best_fin || (f == best_fin && t > btb)) {
        best_fin = f;
        btb = t;
        for (int d = 0; d < 3; ++d) best_dom[d] = dom[d];
      }
      return;
    }
    const int8_t* e = eff[k];
    int nd[3] = {dom[0], dom[1], dom[2]};
    if (e[0] == 0 || e[0] == 1) {  // end_vp, end_vp_per
      nd[e[1]] += e[0] == 0 ? e[2] : e[2] * count_value(p, e[3], e[4], c2);
      self(self, k + 1, nd);
    } else if (e[0] == 2) {  // end_add: each domain
      for (int d = 0; d < 3; ++d) {
        nd[d] += e[2];
        self(self, k + 1, nd);
        nd[d] -= e[2];
      }
    } else if (e[0] == 3) {  // end_swap: no swap or one of the three pairs
      self(self, k + 1, nd);
      static const int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
      for (const auto& pr : kPairs) {
        std::swap(nd[pr[0]], nd[pr[1]]);
        self(self, k + 1, nd);
        std::swap(nd[pr[0]], nd[pr[1]]);
      }
    } else {
      self(self, k + 1, nd);
    }
  };
  auto evaluate = [&]() {
    for (int k = 0; k < 10; ++k) c2[k] = cat[k] + (k < 9 ? assign[k] : 0);
    int dom[3] = {score_[p][0], score_[p][1], score_[p][2]};
    for (int k = 0; k < column_n_[p][2]; ++k) {  // step 1: the Religion cards
      const int c = column_[p][2][k];
      if (!cfg_->early_religion_rescored && ((early_[c >> 6] >> (c & 63)) & 1u)) continue;
      if (cfg_->card_rel_count[c][0] < 0) continue;
      dom[2] += condition_value(*cfg_, c, count_value(p, cfg_->card_rel_count[c][0], cfg_->card_rel_count[c][1], c2));
    }
    apply_from(apply_from, 0, dom);
  };
  // enumerate the multisets of categories for the wild cards (C(g + 8, 8))
  auto rec = [&](auto&& self, int k, int left) -> void {
    if (k == 8) {
      assign[8] = left;
      evaluate();
      return;
    }
    for (int x = 0; x <= left; ++x) {
      assign[k] = x;
      self(self, k + 1, left - x);
    }
  };
  rec(rec, 0, wild);
  *best_tb = btb;
  return best_fin;
}

void State::finish_game() {
  for (int p = 0; p < players_; ++p) {
    int dom[3], tb;
    final_[p] = static_cast<int16_t>(end_scoring(p, dom, &tb));
    tiebreak_[p] = static_cast<int16_t>(tb);
    for (int d = 0; d < 3; ++d) score_[p][d] = static_cast<int16_t>(dom[d]);
  }
  if (solo()) automa_score_ = static_cast<int16_t>(automa_final());  // GA-SOLO-END-1..4
  phase_ = kTerminal;
}

void State::scores(double* out) const {
  for (int p = 0; p < players_; ++p) {
    if (phase_ == kTerminal) {
      out[p] = final_[p];
      continue;
    }
    int sizes[64];
    const int ng = group_sizes(p, sizes);
    int f, t;
    int dom[3] = {score_[p][0], score_[p][1], score_[p][2]};
    final_of(cfg_->mode == 1, dom, sizes, ng, f, t);
    out[p] = f;
  }
}

uint32_t State::winners() const {  // GA-END-3
  if (phase_ != kTerminal) return 0;
  if (solo()) return final_[0] > automa_score_ ? 1u : 0u;  // GA-SOLO-END-5: a tie goes to the automa
  uint32_t mask = 0;
  int bf = 0, bt = 0;
  for (int p = 0; p < players_; ++p) {
    if (!mask || final_[p] > bf || (final_[p] == bf && tiebreak_[p] > bt)) {
      bf = final_[p];
      bt = tiebreak_[p];
      mask = 1u << p;
    } else if (final_[p] == bf && tiebreak_[p] == bt) {
      mask |= 1u << p;
    }
  }
  return mask;
}

void State::returns(double* out) const {
  for (int p = 0; p < players_; ++p) out[p] = 0.0;
  if (phase_ != kTerminal) return;
  if (solo()) {  // the margin over the automa, or +1 / -1 (GA-AMB-38)
    out[0] = cfg_->returns_mode == 0 ? static_cast<double>(final_[0] - automa_score_) : (final_[0] > automa_score_ ? 1.0 : -1.0);
    return;
  }
  if (cfg_->returns_mode == 0) {
    scores(out);
    return;
  }
  shared_win_returns(winners(), players_, out);
}

double State::heuristic(int player) const {
  // Provisional final score (two lowest domains + tile bonus), plus 0.5 per card in hand,
  // 0.8 per chimney step, and per card in the columns at least a card in hand's 0.5 plus what
  // it will still yield: a Catalan card its banner (VP, 0.5 per other effect) times the expected
  // remaining Catalan resolutions (kCatalanAhead), a Religion card its condition's current value
  // (docs/gaudi.md, "Heuristic").
  constexpr double kHand = 0.5, kCatalanAhead = 1.0;
  // Solo: the same estimate minus the automa's final score if the game ended now (GA-SOLO-END-2..4),
  // so that the value is the expected margin over the automa (what returns() gives).
  double s[kMaxPlayers];
  scores(s);
  if (phase_ == kTerminal)
    return solo() ? static_cast<double>(final_[0] - automa_score_) : s[player] + 0.01 * tiebreak_[player];
  const double against = solo() ? static_cast<double>(automa_final()) : 0.0;
  double cols = kHand * (column_n_[player][0] + column_n_[player][1] + column_n_[player][2]);
  for (int k = 0; k < column_n_[player][1]; ++k) {
    const int c = column_[player][1][k];
    double b = 0.0;
    for (int i = 0; i < kBanner; ++i) {
      const int e = cfg_->card_banner[c][i][0];
      if (e < 0) break;
      b += e >= kEntVpN ? cfg_->card_banner[c][i][1] : 0.5;
    }
    cols += kCatalanAhead * b;
  }
  for (int k = 0; k < column_n_[player][2]; ++k) cols += religion_value(player, column_[player][2][k]);
  return s[player] + kHand * hand_n_[player] + 0.8 * (chimney_[player][0] + chimney_[player][1] + chimney_[player][2]) + cols -
         against;
}

// ------------------------------------------------------------------ hidden information

void State::resample_hidden(int observer, uint64_t seed) {
  // Unknown to the observer: the deck cards, the starting pool it has not seen and the other
  // seats' starting cards still in hand (GA-ORDER-5). Per domain, two groups are re-dealt from a
  // canonical order (ascending ids) with the seed, so the result depends only on the observer's
  // view, for every observer and phase: the cards it knows as a set (expert draft: the cards it
  // passed on, still hidden, among the pool and the later drafters' hands; GA-ORDER-5 item 2)
  // among their own slots, and everything else among the other hidden slots and the decks.
  rng_.seed(seed);
  if (phase_ == kTerminal) return;
  int sidx[kMaxPlayers];
  for (int q = 0; q < kMaxPlayers; ++q) {
    sidx[q] = -1;
    if (q < players_ && start_card_[q] != kNoCard)
      for (int k = 0; k < hand_n_[q]; ++k)
        if (hand_[q][k] == start_card_[q]) sidx[q] = k;
  }
  for (int grp = 0; grp < 2; ++grp)  // 0: unknown (with the deck), 1: known as a set
    for (int d = 0; d < 3; ++d) {
      uint8_t cards[kCards];
      int n = 0;
      uint8_t* slots[kMaxPlayers * 2];
      int ns = 0;
      for (int q = 0; q < players_; ++q) {
        const int c = start_card_[q];
        if (q == observer || c == kNoCard || cfg_->card_domain[c] != d || card_loc_[c] != kLocHand) continue;
        if (knows_passed(observer, c) != (grp == 1)) continue;
        for (int k = 0; k < hand_n_[q]; ++k)
          if (hand_[q][k] == c) slots[ns++] = &hand_[q][k];
      }
      for (int k = 0; k < pool_n_; ++k)
        if (cfg_->card_domain[pool_[k]] == d && knows_passed(observer, pool_[k]) == (grp == 1)) slots[ns++] = &pool_[k];
      if (ns == 0) continue;
      if (grp == 0)
        for (int c = 0; c < kCards; ++c)
          if (cfg_->card_domain[c] == d && card_loc_[c] == kLocDeck) cards[n++] = static_cast<uint8_t>(c);
      for (int i = 0; i < ns; ++i) cards[n++] = *slots[i];
      isort(cards, n);
      for (int i = n - 1; i > 0; --i) std::swap(cards[i], cards[rng_.below(static_cast<uint32_t>(i + 1))]);
      if (grp == 0)
        for (int i = 0; i < n; ++i) card_loc_[cards[i]] = kLocDeck, card_owner_[cards[i]] = static_cast<uint8_t>(d);
      for (int i = 0; i < ns; ++i) *slots[i] = cards[i];
      if (grp == 1)  // the known group's locations are fixed below from the slots
        for (int i = 0; i < ns; ++i) card_loc_[cards[i]] = kLocDeck, card_owner_[cards[i]] = static_cast<uint8_t>(d);
      for (int q = 0; q < players_; ++q) {
        for (int k = 0; k < hand_n_[q]; ++k) {
          const int c = hand_[q][k];
          if (card_loc_[c] == kLocDeck) {
            card_loc_[c] = kLocHand;
            card_owner_[c] = static_cast<uint8_t>(q);
          }
        }
        if (sidx[q] >= 0) start_card_[q] = hand_[q][sidx[q]];
      }
      for (int k = 0; k < pool_n_; ++k) card_loc_[pool_[k]] = kLocPool, card_owner_[pool_[k]] = 0;
    }
  rebuild_derived();
}

// ------------------------------------------------------------------ observation
// Layout (docs/gaudi.md), seats relative to the observer (0 = the observer):
//   global: round 3, phase 13, chance kind 7, seat to act 4, draft start 4 (expert), chimney tiles
//     4 seats x 12 (expert), central tile 7, central tiles used 7,
//     central options 2, first arrival 1, someone finished 1, start player 4, marker holder 4,
//     extra turns 1, leader 1, unit mode 3, pencils 1, hammers 1, generic types used 4, exit 1,
//     space 48, pending tile 16, item entry 40, frames 12 x (40 counts + 5 info)
//   track: 5 markers (4 seats, then the virtual marker) x 50 (not entered, 0..47, left)
//   supply: 5 areas x 16 + bag 16 + deck sizes 3
//   cards: 99 x 12 (unknown to the observer, window, discarded, pool, hand of seat k x4, column of seat k x4)
//   seats x4: hand domain counts 3, hand size 1, domain scores 3, chimneys 3, board 64 x 4 colours
namespace {
constexpr int kObsGlobal = 3 + 13 + 7 + 4 + 4 + 48 + 7 + 7 + 2 + 1 + 1 + 4 + 4 + 1 + 1 + 3 + 1 + 1 + 4 + 1 + 48 + 16 + 40 +
                           kMaxFrames * 45;
constexpr int kObsTrack = 5 * 50;
constexpr int kObsSupply = 5 * 16 + 16 + 3;
constexpr int kObsCards = kCards * 12;
constexpr int kObsSeat = 3 + 1 + 3 + 3 + 64 * 4;
constexpr int kObsSize = kObsGlobal + kObsTrack + kObsSupply + kObsCards + 4 * kObsSeat;
}  // namespace

int State::observation_size() const { return kObsSize; }

void State::observation(int player, float* out) const {
  std::memset(out, 0, sizeof(float) * kObsSize);
  float* o = out;
  auto rel = [&](int q) { return solo() ? q : (q - player + players_) % players_; };
  o[round_ - 1] = 1;
  o += 3;
  o[phase_] = 1;
  o += 13;
  if (phase_ == kChance) o[chance_kind_] = 1;
  o += 7;
  if (phase_ != kChance && phase_ != kTerminal) o[rel(current_)] = 1;
  o += 4;
  if (expert()) o[rel(draft_start_)] = 1;
  o += 4;
  for (int k = 0; k < players_; ++k)  // expert: each seat's chimney tiles (public once dealt)
    for (int d = 0; d < 3; ++d)
      if (expert() && chimney_tile_[(player + k) % players_][d] != kNoCard) o[12 * k + chimney_tile_[(player + k) % players_][d]] = 1;
  o += 48;
  if (central_tile_ >= 0) o[central_tile_] = 1;
  o += 7;
  for (int t = 0; t < 7; ++t) o[t] = (central_used_ >> t) & 1;
  o += 7;
  o[0] = central_options_ & 1;
  o[1] = (central_options_ >> 1) & 1;
  o += 2;
  *o++ = central_first_;
  *o++ = anyone_finished_;
  o[rel(start_player_)] = 1;
  o += 4;
  o[rel(marker_holder_)] = 1;
  o += 4;
  *o++ = extra_turns_ / 4.0f;
  *o++ = leader_;
  if (mode_ >= 1 && mode_ <= 3) o[mode_ - 1] = 1;
  o += 3;
  *o++ = pencils_ / 3.0f;
  *o++ = hammers_ / 3.0f;
  for (int k = 0; k < 4; ++k) o[k] = (generic_used_ >> k) & 1;
  o += 4;
  *o++ = exit_after_;
  if (phase_ != kChance && phase_ != kTerminal && phase_ != kMove && phase_ != kCentral) o[space_] = 1;
  o += 48;
  if (phase_ == kPlace) o[pending_tile_] = 1;
  o += 16;
  if (phase_ == kItem || phase_ == kTarget) o[item_entry_] = 1;
  o += 40;
  for (int f = 0; f < kMaxFrames; ++f) {
    if (f < nframes_) {
      for (int e = 0; e < kEntUsed; ++e) o[e] = frame_count_[f][e] / 4.0f;
      o[40] = frame_info_[f][kReps];
      o[41] = frame_info_[f][kSnapDomain] == 255 ? -1.0f : frame_info_[f][kSnapDomain];
      o[42] = frame_info_[f][kSnapLen] / 10.0f;
      o[43] = frame_info_[f][kBonusKind] == 255 ? -1.0f : frame_info_[f][kBonusKind];
      o[44] = frame_info_[f][kChoose];
    }
    o += 45;
  }
  for (int m = 0; m < 5; ++m) {
    const int q = m < 4 ? m : kVirtual;  // slot m: relative seat m, then the virtual marker
    const int real = q == kVirtual ? kVirtual : (q < players_ ? (q + player) % players_ : (solo() && q == kAutoma ? kAutoma : -1));
    if (real >= 0 && marker_used(real)) o[position_[real] + 1] = 1;
    o += 50;
  }
  for (int a = 0; a < kAreas; ++a)
    for (int t = 0; t < kTypes; ++t) *o++ = area_[a][t] / 5.0f;
  for (int t = 0; t < kTypes; ++t) *o++ = bag_[t] / 6.0f;
  for (int d = 0; d < 3; ++d) *o++ = deck_n_[d] / 33.0f;
  for (int c = 0; c < kCards; ++c) {
    const int l = card_loc_[c], w = card_owner_[c];
    if (l == kLocWindow) o[1] = 1;
    else if (l == kLocDiscard) o[2] = 1;
    else if (l == kLocHand) {
      if (w != player && start_card_[w] == c) o[knows_passed(player, c) ? 3 : 0] = 1;  // hidden identity
      else o[4 + rel(w)] = 1;
    } else if (l == kLocColumn) o[8 + rel(w)] = 1;
    else if (l == kLocAutoma) o[9] = 1;   // solo: the automa's area (column slot of relative seat 1)
    else if (l == kLocRemoved) o[2] = 1;  // solo: removed by the virtual marker (public, like a discard)
    else if (l == kLocPool && knows_passed(player, c)) o[3] = 1;  // a pool card this drafter has seen
    else o[0] = 1;  // deck or undealt pool: unknown
    o += 12;
  }
  for (int k = 0; k < 4; ++k) {
    if (k < players_) {
      const int q = (player + k) % players_;
      for (int i = 0; i < hand_n_[q]; ++i) o[cfg_->card_domain[hand_[q][i]]] += 0.25f;
      o[3] = hand_n_[q] / 4.0f;
      for (int d = 0; d < 3; ++d) o[4 + d] = score_[q][d] / 50.0f;
      for (int d = 0; d < 3; ++d) o[7 + d] = chimney_[q][d] / 6.0f;
      for (int c = 0; c < 4; ++c)
        for_each_bit(colour_[q][c], [&](int b) { o[10 + 4 * b + c] = 1; });
    } else if (solo() && k <= 2) {  // solo: seat block 1 = the automa's tiles, block 2 = the virtual pile
      for (int t = 0; t < kTypes; ++t) o[10 + t] = (k == 1 ? automa_tiles_[t] : virtual_tiles_[t]) / 6.0f;
      if (k == 1)
        for (int d = 0; d < 3; ++d) o[d] = automa_column_n_[d] / 10.0f;
    }
    o += kObsSeat;
  }
}

// Every feature is code / denominator + offset (cpp/core/codec.hpp), following observation()'s
// layout: extra turns / 4, pencils and hammers / 3, frame counts / 4, snapshot length / 10, the
// snapshot domain and bonus kind -1 when unset (offset -1), area tiles / 5, bag / 6, deck sizes
// / 33, hand domain counts and hand size / 4, domain scores / 50, chimneys / 6; solo: the
// automa's and the virtual pile's tiles / 6, the automa's domain counts / 10.
void State::observation_codec(float* denominator, float* offset) const {
  float* d = denominator;
  d += 3 + 13 + 7 + 4 + 4 + 48 + 7 + 7 + 2 + 1 + 1 + 4 + 4;
  *d++ = 4.0f;  // extra turns
  d += 1 + 3;
  *d++ = 3.0f;  // pencils
  *d++ = 3.0f;  // hammers
  d += 4 + 1 + 48 + 16 + 40;
  for (int f = 0; f < kMaxFrames; ++f, d += 45) {
    std::fill(d, d + kEntUsed, 4.0f);
    offset[(d - denominator) + 41] = -1.0f;
    d[42] = 10.0f;
    offset[(d - denominator) + 43] = -1.0f;
  }
  d += kObsTrack;
  std::fill(d, d + kAreas * kTypes, 5.0f);
  d += kAreas * kTypes;
  std::fill(d, d + kTypes, 6.0f);
  d += kTypes;
  std::fill(d, d + 3, 33.0f);
  d += 3 + kObsCards;
  for (int k = 0; k < 4; ++k, d += kObsSeat) {
    if (k < players_) {
      std::fill(d, d + 4, 4.0f);        // hand domain counts, hand size
      std::fill(d + 4, d + 7, 50.0f);   // domain scores
      std::fill(d + 7, d + 10, 6.0f);   // chimneys
    } else if (solo() && k <= 2) {
      std::fill(d + 10, d + 10 + kTypes, 6.0f);
      if (k == 1) std::fill(d, d + 3, 10.0f);
    }
  }
}

// ------------------------------------------------------------------ names

std::string State::action_to_string(int32_t a) const {
  if (phase_ == kChance) {
    require<IllegalAction>(a >= 0 && a < kMaxChanceOutcomes, "gaudi: no chance outcome ", a);
    return "outcome " + std::to_string(a);
  }
  require<IllegalAction>(a >= 0 && a < kNumActions, "gaudi: no action has id ", a, " (ids are 0..653)");
  std::ostringstream os;
  const Decoded d = decode(a);
  switch (d.kind) {
    case kActMove: os << "move " << d.arg; break;
    case kActMoveCentral: os << "move central"; break;
    case kActPencils: os << "pencils"; break;
    case kActHammers: os << "hammers"; break;
    case kActTakeTile: os << "take tile a" << (d.arg >> 4) << " c" << ((d.arg >> 2) & 3) << " s" << (d.arg & 3); break;
    case kActPlace: os << "place " << d.arg; break;
    case kActTakeCard: os << "take card " << d.arg; break;
    case kActPlayCard: os << "play card " << d.arg; break;
    case kActDiscardCard: os << "discard card " << d.arg; break;
    case kActAdvance: os << "advance " << kDomainLetters[d.arg]; break;
    case kActCentralA: os << "central A"; break;
    case kActCentralB: os << "central B"; break;
    case kActResolve: os << "resolve " << d.arg; break;
    case kActTargetCard: os << "target card " << d.arg; break;
    case kActCategory: os << "category " << d.arg; break;
    case kActDone:
    case kNumActionKinds: os << "done"; break;  // (ids are checked above)
  }
  return os.str();
}

int32_t State::string_to_action(const std::string& text) const {
  std::string t;
  for (char ch : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (phase_ == kChance && t.rfind("outcome ", 0) == 0) {
    for (int o = 0; o < kMaxChanceOutcomes; ++o)
      if (t == "outcome " + std::to_string(o)) return o;
  }
  // names are unique per id: compare against the generated names of the kinds the prefix names
  struct Prefix {
    const char* text;
    ActionKind first, last;
  };
  static constexpr Prefix kPrefixes[] = {
      {"move", kActMove, kActMoveCentral},     {"take tile", kActTakeTile, kActTakeTile},
      {"place", kActPlace, kActPlace},         {"take card", kActTakeCard, kActTakeCard},
      {"play card", kActPlayCard, kActPlayCard}, {"discard", kActDiscardCard, kActDiscardCard},
      {"resolve", kActResolve, kActResolve},   {"target", kActTargetCard, kActTargetCard},
      {"category", kActCategory, kActCategory}};
  int lo = 0, hi = kNumActions;
  for (const Prefix& x : kPrefixes)
    if (t.rfind(x.text, 0) == 0) {
      lo = kActionKindFirst[x.first];
      hi = kActionKindFirst[x.last + 1];
      break;
    }
  State copy = *this;
  copy.phase_ = kMove;  // decision names do not depend on the phase
  for (int a = lo; a < hi; ++a) {
    std::string name = copy.action_to_string(a);
    for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (name == t) return a;
  }
  fail<IllegalAction>("gaudi: cannot read action '", text, "'; expected e.g. 'move 7', 'move central', 'pencils', "
                      "'hammers', 'take tile a2 c1 s3', 'place 12', 'take card 40', 'play card 40', 'discard card 40', "
                      "'advance N', 'central A', 'resolve 24', 'target card 70', 'done'");
}

std::string State::illegal_reason(int32_t a) const {
  std::ostringstream os;
  if (phase_ == kTerminal) return "the game is over";
  if (a < 0 || a >= kNumActions) {
    os << "action id " << a << " is out of range (0..653)";
    return os.str();
  }
  if (phase_ == kChance) {
    os << "chance node: " << a << " is not a possible outcome";
    return os.str();
  }
  const std::string name = action_to_string(a);
  const int p = current_;
  const Decoded d = decode(a);
  os << "'" << name << "' is not legal now (seat " << p << ", phase: " << kPhaseNames[phase_] << "): ";
  const bool uses = phase_ == kUses || phase_ == kItem;
  bool said = true;
  switch (d.kind) {
    case kActMove:
    case kActMoveCentral: {
      if (phase_ != kMove) {
        said = false;
        break;
      }
      const int lo = position_[p] < 0 ? entry_of(p) : position_[p] + 1;
      if (a < lo) os << "a marker moves forward only, to index " << lo << " or beyond";
      else if (a >= cfg_->track_n[face()]) os << "the track has " << cfg_->track_n[face()] << " spaces";
      else os << "the space is occupied by another marker (GA-MOVE-4)";
      break;
    }
    case kActTakeTile:
      if (!uses) said = false;
      else if (!area_[d.arg >> 4][d.arg & 15]) os << "area " << (d.arg >> 4) << " has no such tile";
      else if (!tile_fits(p, d.arg & 15)) os << "the tile fits no empty space of its shape (GA-AMB-41)";
      else os << "this action does not allow that tile";
      break;
    case kActPlace:
      if (phase_ != kPlace) said = false;
      else os << "space " << d.arg << " is occupied, absent or of another shape (GA-TILE-2/5)";
      break;
    case kActPlayCard:
      if (!uses) said = false;
      else if (card_loc_[d.arg] != kLocHand || card_owner_[d.arg] != p) os << "card " << d.arg << " is not in the hand";
      else if (!requirement_met(p, d.arg))
        os << "the requirement is not met: " << requirement_total(p, d.arg) << " tiles needed (GA-REQ-*)";
      else os << "no unit or reward allows a play now";
      break;
    case kActTakeCard:
      if (phase_ != kDiscard) said = false;
      else os << "the hand is full: discard one of the 4 older cards first (GA-AMB-28)";
      break;
    case kActDone:
      if (phase_ != kFrame) said = false;
      else os << "a column resolution is always carried out (GA-ORDER-2)";
      break;
    default: said = false; break;
  }
  if (!said) {
    if (phase_ == kDiscard) os << "a card must be discarded (the hand holds 5)";
    else if (d.kind == kActAdvance) os << "the chimney is at its top or its next requirement is not met (GA-CHIM-2)";
    else os << "it is not among the legal actions";
  }
  return os.str();
}

// ------------------------------------------------------------------ validation

void State::validate() const {
  const Config& c = *cfg_;
  auto req = [](bool ok, const auto&... parts) { require<InvalidState>(ok, "gaudi state: ", parts...); };
  req(rng_.valid(), "the RNG state is all zeros");
  req(phase_ < kNumPhases, "unknown phase ", int(phase_));
  req(chance_kind_ <= kChChimney && flow_ <= kFlowRound && setup_step_ <= 5, "chance kind, flow or setup step out of range");
  req(round_ >= 1 && round_ <= 3, "round must be 1..3");
  req(current_ < players_ && start_player_ < participants() && marker_holder_ < participants(), "a seat index is out of range");
  req(turn_index_ < num_markers(), "turn_index out of range");
  // markers
  uint64_t occ = 0;
  for (int m = 0; m < 5; ++m) {
    const int x = position_[m];
    if (!marker_used(m)) {
      req(x == kNotEntered || (m == kVirtual && x == kGone), "marker ", m, " is not in this game");
      continue;
    }
    req(x == kNotEntered || x == kGone || (x >= 0 && x < c.track_n[face()]), "marker ", m, " position out of range");
    if (x >= 0 && x < kTMax) {
      req(!((occ >> x) & 1u), "two markers on track index ", x);
      occ |= bit(x);
      if (m != kVirtual) req(x >= entry_of(m), "marker ", m, " stands before its entry space");
    }
  }
  // tiles: 96 accounted for
  int per_type[kTypes];
  for (int t = 0; t < kTypes; ++t) per_type[t] = bag_[t];
  for (int a = 0; a < kAreas; ++a) {
    req(sum16(area_[a]) <= area_cap(), "area ", a, " holds more than ", area_cap(), " tiles");
    for (int t = 0; t < kTypes; ++t) per_type[t] += area_[a][t];
  }
  for (int p = 0; p < kMaxPlayers; ++p) {
    uint64_t seen = 0;
    for (int k = 0; k < 4; ++k) {
      req(p < players_ || colour_[p][k] == 0, "seat ", p, " is not in this game but has tiles");
      req((colour_[p][k] & ~c.board_all) == 0 && (colour_[p][k] & seen) == 0, "seat ", p, " colour ", k,
          ": tiles off the board or on a space that holds another tile");
      seen |= colour_[p][k];
      for (int s = 0; s < 4; ++s) per_type[4 * k + s] += popcount(colour_[p][k] & c.shape_mask[s]);
    }
  }
  for (int t = 0; t < kTypes; ++t) {
    req(solo() || (automa_tiles_[t] == 0 && virtual_tiles_[t] == 0), "automa and virtual tiles exist only in solo play");
    per_type[t] += automa_tiles_[t] + virtual_tiles_[t];
  }
  const bool placing = phase_ == kPlace;
  for (int t = 0; t < kTypes; ++t)
    req(per_type[t] + (placing && pending_tile_ == t) == 6, "tile type ", t, ": ", per_type[t] + (placing && pending_tile_ == t),
        " accounted for, 6 expected");
  req(pending_tile_ < kTypes, "pending_tile out of range");
  // cards: 99 accounted for, each exactly once
  int seen_card[kCards] = {};
  int dn[3] = {};
  for (int d = 0; d < 3; ++d) {
    req(window_n_[d] <= 3, "window ", d, " holds more than 3 cards");
    for (int k = 0; k < 3; ++k) {
      const int x = window_[d][k];
      if (k >= window_n_[d]) {
        req(x == kNoCard, "window ", d, " has a card past its size");
        continue;
      }
      req(x < kCards && c.card_domain[x] == d && card_loc_[x] == kLocWindow && card_owner_[x] == d, "window ", d, " slot ", k, " is inconsistent");
      ++seen_card[x];
    }
  }
  req(pool_n_ <= pool_size(), "pool too large");
  for (int d = 0; d < 3; ++d) {
    req(automa_column_n_[d] <= 33 && (solo() || automa_column_n_[d] == 0), "automa column ", d, " size out of range");
    for (int k = 0; k < 33; ++k) {
      const int x = automa_column_[d][k];
      if (k >= automa_column_n_[d]) {
        req(x == kNoCard, "automa column ", d, " has a card past its size");
        continue;
      }
      req(x < kCards && c.card_domain[x] == d && card_loc_[x] == kLocAutoma && card_owner_[x] == d, "automa column ", d, " slot ", k,
          " is inconsistent");
      ++seen_card[x];
    }
  }
  req(solo() || automa_score_ == 0, "automa_score exists only in solo play");
  for (int k = 0; k < kMaxPlayers; ++k) {
    const int x = pool_[k];
    if (k >= pool_n_) {
      req(x == kNoCard, "pool slot ", k, " must be empty");
      continue;
    }
    req(x < kCards && card_loc_[x] == kLocPool, "pool slot ", k, " is inconsistent");
    ++seen_card[x];
  }
  for (int p = 0; p < kMaxPlayers; ++p) {
    const int limit = (phase_ == kDiscard && p == current_) ? 5 : 4;
    req(hand_n_[p] <= limit && (p < players_ || hand_n_[p] == 0), "seat ", p, " hand size ", int(hand_n_[p]), " out of range");
    bool start_found = start_card_[p] == kNoCard;
    for (int k = 0; k < 5; ++k) {
      const int x = hand_[p][k];
      if (k >= hand_n_[p]) {
        req(x == kNoCard, "seat ", p, " hand slot ", k, " must be empty");
        continue;
      }
      req(x < kCards && card_loc_[x] == kLocHand && card_owner_[x] == p, "seat ", p, " hand slot ", k, " is inconsistent");
      ++seen_card[x];
      start_found |= x == start_card_[p];
    }
    req(start_found, "seat ", p, " start_card is not in its hand");
    for (int d = 0; d < 3; ++d) {
      req(column_n_[p][d] <= 33 && (p < players_ || column_n_[p][d] == 0), "seat ", p, " column ", d, " size out of range");
      for (int k = 0; k < 33; ++k) {
        const int x = column_[p][d][k];
        if (k >= column_n_[p][d]) {
          req(x == kNoCard, "seat ", p, " column ", d, " has a card past its size");
          continue;
        }
        req(x < kCards && c.card_domain[x] == d && card_loc_[x] == kLocColumn && card_owner_[x] == p, "seat ", p, " column ", d,
            " slot ", k, " is inconsistent");
        ++seen_card[x];
      }
      const int tile = p < players_ ? chimney_tile(p, d) : kNoCard;
      if (tile == kNoCard) req(chimney_[p][d] == 0, "seat ", p, " chimney ", d, " advanced without a tile");
      else req(chimney_[p][d] <= c.chim_n[tile][c.mode], "seat ", p, " chimney ", d, " beyond its top");
      if (!expert() || p >= players_) req(chimney_tile_[p][d] == kNoCard, "seat ", p, ": chimney_tile is for expert seats only");
      else {
        const int t = chimney_tile_[p][d];
        req(t == kNoCard || (t < kChimneys && c.chim_domain[t] == d), "seat ", p, " chimney tile ", d, " is not a tile of that domain");
        for (int q = 0; q < p; ++q) req(t == kNoCard || chimney_tile_[q][d] != t, "two seats hold chimney tile ", t);
        req(t != kNoCard || setup_step_ < 4 || (setup_step_ == 4 && phase_ == kChance), "seat ", p, ": chimney tile not dealt after setup");
      }
    }
  }
  for (int x = 0; x < kCards; ++x) {
    req(card_loc_[x] <= kLocRemoved && (solo() || card_loc_[x] <= kLocPool), "card ", x, " location out of range");
    if (card_loc_[x] == kLocRemoved) {
      req(card_owner_[x] == 0, "removed card ", x, " has an owner");
      ++seen_card[x];
    }
    if (card_loc_[x] == kLocDeck) {
      req(card_owner_[x] == c.card_domain[x], "card ", x, " in the deck has a wrong owner");
      ++seen_card[x];
      ++dn[c.card_domain[x]];
    } else if (card_loc_[x] == kLocDiscard) {
      req(card_owner_[x] == 0, "discarded card ", x, " has an owner");
      ++seen_card[x];
    }
    req(seen_card[x] == 1, "card ", x, " is listed ", seen_card[x], " times");
  }
  req(new_card_ == kNoCard || (phase_ == kDiscard && new_card_ < kCards && card_loc_[new_card_] == kLocHand &&
                               card_owner_[new_card_] == current_) ||
          (phase_ == kCategory && new_card_ < kCards && card_loc_[new_card_] == kLocColumn && card_owner_[new_card_] == current_ &&
           c.card_category[new_card_] == 9 && expert()),
      "new_card is inconsistent");
  req(phase_ != kDiscard || (new_card_ != kNoCard && hand_n_[current_] == 5), "discard phase without a fifth card");
  req(phase_ != kDiscard || !expert(), "no discards in expert mode (GA-EXP-6)");
  // turn state
  req(pencils_ <= 3 && hammers_ <= 3 && mode_ <= 3 && generic_used_ < 16 && space_ < c.track_n[face()], "unit counters out of range");
  req(leader_ <= 1 && anyone_finished_ <= 1 && exit_after_ <= 1 && turn_context_ <= 1 && central_first_ <= 1,
      "flags must be 0 or 1");
  req(central_tile_ >= -1 && central_tile_ < kChandeliers && central_used_ < 128 && central_options_ <= 3,
      "central tile fields out of range");
  req(central_tile_ < 0 || ((central_used_ >> central_tile_) & 1u), "the central tile is not marked used");
  req(popcount(central_used_) == round_ - (central_tile_ < 0 ? 1 : 0), "central tiles used disagree with the round");
  req(pending_bonus_ >= -1 && pending_bonus_ < 8, "pending_bonus out of range");
  req(item_entry_ < kEntUsed, "item_entry out of range");
  req(draft_start_ < players_, "draft_start out of range");
  req(phase_ != kChance || chance_kind_ == kChCentral || chance_kind_ == kChFirst ||
          chance_arg_ < (chance_kind_ == kChTile ? kAreas : (chance_kind_ == kChDeal ? kMaxPlayers : (chance_kind_ == kChChimney ? 3 * players_ : 3))),
      "chance_arg out of range");
  req(nframes_ <= kMaxFrames, "too many frames");
  for (int f = 0; f < nframes_; ++f) {
    req(frame_info_[f][kSnapDomain] == 255 || frame_info_[f][kSnapDomain] <= 1, "frame ", f, " snapshot domain out of range");
    req(frame_info_[f][kSnapDomain] == 255 || frame_info_[f][kSnapLen] <= column_n_[current_][frame_info_[f][kSnapDomain]],
        "frame ", f, " snapshot longer than the column");
    req(frame_info_[f][kBonusKind] == 255 || frame_info_[f][kBonusKind] < 8, "frame ", f, " bonus kind out of range");
    req(frame_info_[f][kReps] <= 2, "frame ", f, " repetitions out of range");
    req(frame_info_[f][kChoose] <= 1 && (!frame_info_[f][kChoose] || (expert() && frame_info_[f][kSnapDomain] == 255)), "frame ", f,
        ": choose-one groups are expert ability frames");
    for (int e = kEntVpN; e < kEntUsed; ++e)
      req(frame_count_[f][e] == 0 || (frame_info_[f][kChoose] && frame_count_[f][e] <= 20), "frame ", f, ": VP items wait only in a choose-one group");
  }
  for (int f = nframes_; f < kMaxFrames; ++f)
    for (int e = 0; e < kEntUsed; ++e) req(frame_count_[f][e] == 0, "unused frame ", f, " must be empty");
  for (int p = 0; p < kMaxPlayers; ++p)
    for (int d = 0; d < 3; ++d) req(score_[p][d] >= -1000 && score_[p][d] <= 10000, "scores out of range");
  switch (phase_) {
    case kChance: {
      ChanceList<kMaxChanceOutcomes> l;
      if (chance_kind_ == kChCard || chance_kind_ == kChPool)
        req(chance_arg_ < 3 && deck_n_[chance_arg_] > 0, "a card draw from an empty deck");
      if (chance_kind_ == kChTile) req(sum16(bag_) > 0 && chance_arg_ < kAreas, "a tile draw from an empty bag");
      if (chance_kind_ == kChDeal) req(pool_n_ > 0 && chance_arg_ < players_, "a deal without a pool");
      if (chance_kind_ == kChCentral) req(popcount(central_used_) < kChandeliers, "no central tile left");
      if (chance_kind_ == kChChimney) req(expert() && chimney_tile_[chance_arg_ / 3][chance_arg_ % 3] == kNoCard,
                                          "a chimney-tile draw out of place");
      if (chance_kind_ == kChDeal) req(!expert(), "expert starting cards are drafted, not dealt");
      static const uint8_t kSetupStep[7] = {1, 1, 2, 3, 4, 0, 4};  // the setup step each chance kind belongs to
      if (flow_ == kFlowSetup) req(chance_kind_ != kChCentral && setup_step_ == kSetupStep[chance_kind_],
                                   "a setup chance node out of place");
      else req(setup_step_ == 5 && (flow_ == kFlowRound ? chance_kind_ == kChCentral
                                                         : (chance_kind_ == kChTile || chance_kind_ == kChCard)),
               "a chance node out of place");
      if (chance_kind_ == kChDeal) req(hand_n_[chance_arg_] == 0 && start_card_[chance_arg_] == kNoCard,
                                       "a starting card dealt to a seat that has one");
      if (chance_kind_ == kChFirst) req(cfg_->first_player < 0, "a first-player draw without first_player = -1");
      chance_outcomes(l);
      req(l.size > 0 && l.size <= kMaxChanceOutcomes, "a chance node without outcomes");
      break;
    }
    case kTerminal: break;
    case kDraft: {
      req(expert() && setup_step_ == 4 && flow_ == kFlowSetup && pool_n_ > 0 && draft_start_ == start_player_,
          "a draft outside the expert setup");
      req(current_ == ((start_player_ - 1 - (players_ - pool_n_)) % players_ + 2 * players_) % players_,
          "the seat to draft is not the next drafter (GA-EXP-5)");
      req(hand_n_[current_] == 0, "a drafter who already holds a card");
      break;
    }
    default: {
      req(central_tile_ >= 0 && setup_step_ == 5, "a decision before setup is complete");
      req(position_[current_] != kNotEntered || phase_ == kMove, "the mover has not entered the track");
      req(phase_ != kMove || position_[current_] != kGone, "the mover has already left the board");
      if (phase_ == kFrame) req(nframes_ > 0, "frame phase without frames");
      if (phase_ == kItem || phase_ == kTarget) req(nframes_ > 0 && item_entry_ != kEntNature && item_entry_ != kEntCatalan &&
                                                        item_entry_ != kEntExtra && (phase_ == kTarget) == (item_entry_ == kEntReligion),
                                                    "item phase inconsistent");
      if (phase_ == kPlace) req(tile_fits(current_, pending_tile_), "the pending tile fits nowhere");
      if (phase_ == kCategory) req(new_card_ != kNoCard && category_triggers(current_) != 0, "a category choice without a card to play");
      if (phase_ == kCentral || turn_context_) req(position_[current_] == kGone, "central phase while the marker is on the track");
      if (phase_ == kUses || phase_ == kMode) req(position_[current_] >= 0 && position_[current_] < kTMax && space_ == position_[current_],
                                                  "uses while the marker is not on its space");
      ActionList<kMaxActions> l;
      legal_actions(l);
      req(l.size > 0, "a decision node without a legal action");
      break;
    }
  }
}

}  // namespace tilecraft::gaudi
