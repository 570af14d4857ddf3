// Gaudí: applying an action (the State is declared in gaudi/state.hpp).
#include "gaudi/detail.hpp"

namespace tilecraft::gaudi {

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

}  // namespace tilecraft::gaudi
