// Warsaw: applying a seat's action (spec: shared/rules/warsaw.md): a pick, a hidden resolve or war
// choice, a milestone placement, a Prudential trim, an exchange; what follows is in flow.cpp.
#include "warsaw/detail.hpp"

namespace tilecraft::warsaw {

using namespace detail;

// ---- applying actions ----

void State::refresh_effects(int p) {
  uint16_t m = 0;
  if (p < players_) {
    uint64_t b = occupied_[p];
    while (b) {
      const int i = lowest_bit(b);
      b &= b - 1;
      const int c = top_[p][i];
      if (c < kMaxCards && cfg_->card_type[c][0] == kPublic) m |= static_cast<uint16_t>(1u << cfg_->card_effect[c]);
    }
  }
  effects_[p] = m;
}

void State::normalize(int p) {
  const uint64_t occ = occupied_[p];
  const unsigned cols = column_bits(occ), rows = row_bits(occ);
  const int x0 = __builtin_ctz(cols), x1 = 31 - __builtin_clz(cols);
  const int y0 = __builtin_ctz(rows), y1 = 31 - __builtin_clz(rows);
  if (x0 >= 1 && x1 <= 6 && y0 >= 1 && y1 <= 6) return;
  const int dx = x0 - 2, dy = y0 - 2;  // move the box's corner to local (2, 2)
  uint8_t top[64], rot[64], height[64];
  std::memset(top, kNone, sizeof(top));
  std::memset(rot, 0, sizeof(rot));
  std::memset(height, 0, sizeof(height));
  uint64_t nocc = 0;
  for_each_bit(occ, [&](int i) {
    const int j = ((i >> 3) - dy) * 8 + ((i & 7) - dx);
    top[j] = top_[p][i];
    rot[j] = rot_[p][i];
    height[j] = height_[p][i];
    nocc |= bit(j);
  });
  std::memcpy(top_[p], top, 64);
  std::memcpy(rot_[p], rot, 64);
  std::memcpy(height_[p], height, 64);
  occupied_[p] = nocc;
  anchor_x_[p] = static_cast<int8_t>(anchor_x_[p] + dx);
  anchor_y_[p] = static_cast<int8_t>(anchor_y_[p] + dy);
}

void State::place(int p, int card, int local, int rot, int cost) {
  coins_[p] = static_cast<int16_t>(coins_[p] - cost);
  if ((occupied_[p] >> local) & 1u) {
    if (visible_effect_card(p, kJablonowski) >= 0) add_vp(p, 2);  // WA-PUB-3, WA-AMB-15
    ++height_[p][local];
  } else {
    occupied_[p] |= bit(local);
    height_[p][local] = 1;
  }
  top_[p][local] = static_cast<uint8_t>(card);
  rot_[p][local] = static_cast<uint8_t>(rot);
  card_loc_[card] = static_cast<uint8_t>(kLocDistrict + p);
  card_cell_[card] = static_cast<uint16_t>(frame_cell(p, local));
  built_at_[card] = ++build_seq_;
  refresh_effects(p);
  normalize(p);
}

void State::remove_position(int p, int local) {
  const int cell = frame_cell(p, local);
  if (height_[p][local] == 1) {
    const int c = top_[p][local];
    card_loc_[c] = kLocRemoved;
    card_cell_[c] = 0;
  } else {
    for (int c = 0; c < kCardIds; ++c)  // the whole stack goes to the box (WA-WAR-1/2)
      if (card_loc_[c] == kLocDistrict + p && card_cell_[c] == cell) {
        card_loc_[c] = kLocRemoved;
        card_cell_[c] = 0;
      }
  }
  occupied_[p] &= ~bit(local);
  top_[p][local] = kNone;
  rot_[p][local] = 0;
  height_[p][local] = 0;
  refresh_effects(p);
}

void State::pick_card(int p, int slot) {
  const int c = hand_[p][slot];
  for (int j = slot; j < 3; ++j) hand_[p][j] = hand_[p][j + 1];
  hand_[p][3] = kNone;
  --hand_size_[p];
  pending_card_[p] = static_cast<uint8_t>(c);
  card_loc_[c] = static_cast<uint8_t>(kLocPending + p);
}

void State::apply(int32_t action) {  // action is legal (the callers check)
  const int p = current_;
  const Decoded d = decode(action);
  switch (d.kind) {
    case kActPick:  // WA-DRAFT-3: a hidden choice
      pick_card(p, d.arg);
      chosen_ |= static_cast<uint8_t>(1u << p);
      next_seat_or_finish();
      break;
    case kActSell:
    case kActBuild:
      if (phase_ == kMilePlace) {  // WA-MILE-2: free, on an empty position or over a card
        const int cell = d.arg >> 2, r = d.arg & 3;
        const bool had_prudential = big_limit(p);
        place(p, kMileBase + era_ - 1, local_of(p, cell), r, 0);
        mile_owner_[era_ - 1] = static_cast<int8_t>(p);
        check_trims(had_prudential && !big_limit(p) && !within_limit(p) ? static_cast<uint8_t>(1u << p) : 0,
                    kAfterMilestone);
        break;
      }
      // kResolve, WA-DRAFT-4: hidden until all have chosen
      pending_[p][0] = static_cast<int16_t>(action);
      pending_count_[p] = 1;
      chosen_ |= static_cast<uint8_t>(1u << p);
      next_seat_or_finish();
      break;
    case kActRemove:
      pending_[p][pending_count_[p]++] = static_cast<int16_t>(action);
      if (pending_count_[p] == war_need_[p]) {
        chosen_ |= static_cast<uint8_t>(1u << p);
        next_seat_or_finish();
      }
      break;
    case kActTrim: {
      const int w = d.arg;
      trim_window_[p] = static_cast<uint8_t>(w);
      const uint64_t kept = occupied_[p] & trim_window_mask(p, w);
      uint64_t comps[16];
      int n;
      tied_components(p, kept, comps, n);
      if (n > 1) {
        phase_ = kTrimKeep;  // WA-AMB-13: the owner chooses among tied largest parts
        return;
      }
      keep_component(p, comps[0]);
      break;
    }
    case kActKeep: {
      const int local = local_of(p, d.arg);
      const uint64_t kept = occupied_[p] & trim_window_mask(p, trim_window_[p]);
      keep_component(p, CardGrid::flood(bit(local), kept));
      break;
    }
    case kActExchange: {
      const int k = d.arg;
      int type, amount, resource, extra;
      effect_of(visible_effect_card(p, kExchange), type, amount, resource, extra);
      coins_[p] = static_cast<int16_t>(coins_[p] - k * amount);
      add_vp(p, k);
      exchange_mask_ &= static_cast<uint8_t>(~(1u << p));
      if (exchange_mask_) current_ = static_cast<int8_t>(lowest_bit(exchange_mask_));
      else end_of_era();
      break;
    }
    case kNumActionKinds:
      break;
  }
}

void State::next_seat_or_finish() {
  for (int q = 0; q < players_; ++q) {
    if ((chosen_ >> q) & 1u) continue;
    if (phase_ == kWar && war_need_[q] == 0) continue;
    current_ = static_cast<int8_t>(q);
    return;
  }
  if (phase_ == kPick) finish_picks();
  else if (phase_ == kResolve) finish_resolves();
  else if (phase_ == kWar) finish_war();
}

// ---- Prudential trim (WA-PUB-4, WA-AMB-13) ----

void State::keep_component(int p, uint64_t keep) {
  uint64_t drop = occupied_[p] & ~keep;
  while (drop) {
    const int i = lowest_bit(drop);
    drop &= drop - 1;
    remove_position(p, i);
  }
  normalize(p);
  trim_mask_ &= static_cast<uint8_t>(~(1u << p));
  if (trim_mask_) {
    phase_ = kTrim;
    current_ = static_cast<int8_t>(lowest_bit(trim_mask_));
    return;
  }
  continue_after(static_cast<Resume>(resume_));
}

}  // namespace tilecraft::warsaw
