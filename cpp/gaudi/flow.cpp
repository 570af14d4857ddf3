// Gaudí: setup, the round's flow and chance (the State is declared in gaudi/state.hpp).
#include "gaudi/detail.hpp"

namespace tilecraft::gaudi {

static_assert(sizeof(State) < 2048, "a Gaudí state must stay under 2 KiB");

namespace {
// pool composition per player count (GA-SETUP-7): domains of the starting cards
const int8_t kPoolDomains[5][4] = {{0}, {0, 1}, {0, 1}, {0, 1, 2}, {0, 0, 1, 1}};  // solo: the 2-player pool (GA-AMB-27)
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

}  // namespace tilecraft::gaudi
