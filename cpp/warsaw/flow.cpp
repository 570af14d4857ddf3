// Warsaw: the flow of the game (spec: shared/rules/warsaw.md): setup, the draft rounds, the war,
// the milestone award, income and the end of each era. The other parts of the State: legal.cpp,
// apply.cpp, score.cpp, observe.cpp, validate.cpp; their shared helpers: detail.hpp.
#include "warsaw/detail.hpp"

#include <algorithm>
#include <cstring>

namespace tilecraft::warsaw {

using namespace detail;

// ---- setup and chance ----

State::State(const Config& config, uint64_t seed) {
  if (!config.validated) config.validate();  // the bindings validate every config when it is loaded
  std::memset(static_cast<void*>(this), 0, sizeof(State));
  cfg_ = &config;
  players_ = config.players;
  rng_.seed(seed);
  for (int i = 0; i < kMilestones; ++i) {  // WA-SETUP-3: a random side of each milestone
    mile_side_[i] = static_cast<uint8_t>(rng_.below(2));
    mile_owner_[i] = -1;
  }
  std::memset(hand_, kNone, sizeof(hand_));
  std::memset(pending_card_, kNone, sizeof(pending_card_));
  std::memset(top_, kNone, sizeof(top_));
  for (int p = 0; p < kMaxPlayers; ++p) {
    pending_[p][0] = pending_[p][1] = -1;
    if (p >= players_) continue;
    coins_[p] = 6;  // WA-SETUP-4
    anchor_x_[p] = anchor_y_[p] = -2;  // the starting card at frame (0, 0) = local (2, 2)
    const int local = 2 * 8 + 2;
    occupied_[p] = bit(local);
    top_[p][local] = static_cast<uint8_t>(kStartBase + p);
    height_[p][local] = 1;
    card_loc_[kStartBase + p] = static_cast<uint8_t>(kLocDistrict + p);
    card_cell_[kStartBase + p] = static_cast<uint16_t>(frame_cell(p, local));
  }
  for (int p = players_; p < kMaxPlayers; ++p) card_loc_[kStartBase + p] = kLocRemoved;  // unused starting cards
  for (int p = 0; p < kMaxPlayers; ++p) refresh_effects(p);
  era_ = 1;  // WA-SETUP-6
  start_era();
}

void State::start_era() {
  // WA-DRAFT-1/2: deal 4 cards to each seat from a shuffled era deck; the rest go to the box unseen.
  uint8_t deck[kMaxCards];
  int n = cfg_->era_size[era_];
  std::memcpy(deck, cfg_->era_deck[era_], n);
  for (int p = 0; p < players_; ++p) {
    seen_[p][0] = seen_[p][1] = 0;
    for (int k = 0; k < 4; ++k) {
      const int j = static_cast<int>(rng_.below(static_cast<uint32_t>(n)));
      const uint8_t c = deck[j];
      deck[j] = deck[--n];
      hand_[p][k] = c;
      card_loc_[c] = static_cast<uint8_t>(kLocHand + p);
      set_seen(seen_[p], c);
    }
    hand_size_[p] = 4;
    sort_hand(p);
  }
  for (int j = 0; j < n; ++j) card_loc_[deck[j]] = kLocBoxUnseen;
  phase_ = kPick;
  round_ = 0;
  chosen_ = 0;
  current_ = 0;
}

void State::sort_hand(int p) {
  uint8_t* h = hand_[p];
  const int n = hand_size_[p];
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && h[j - 1] > h[j]; --j) std::swap(h[j - 1], h[j]);
  for (int i = n; i < 4; ++i) h[i] = kNone;
}

// ---- flow ----

void State::finish_picks() {  // WA-DRAFT-3: reveal together
  phase_ = kResolve;
  chosen_ = 0;
  current_ = 0;
}

void State::finish_resolves() {  // WA-DRAFT-4: everyone resolves at the same time
  uint8_t trims = 0;
  for (int p = 0; p < players_; ++p) {
    const Decoded a = decode(pending_[p][0]);
    const int c = pending_card_[p];
    if (a.kind == kActSell) {  // WA-ACT-1, WA-PUB-2
      coins_[p] = static_cast<int16_t>(coins_[p] + (visible_effect_card(p, kSigismund) >= 0 ? 5 : 3));
      card_loc_[c] = kLocSold;
    } else {  // WA-ACT-2
      const int cell = a.arg >> 2, r = a.arg & 3;
      const int local = local_of(p, cell);
      const bool had_prudential = big_limit(p);
      place(p, c, local, r, build_cost(p, c, local));
      if (had_prudential && !big_limit(p) && !within_limit(p)) trims |= static_cast<uint8_t>(1u << p);  // WA-PUB-4
    }
    pending_card_[p] = kNone;
    pending_[p][0] = -1;
    pending_count_[p] = 0;
  }
  chosen_ = 0;
  check_trims(trims, kAfterResolve);
}

void State::check_trims(uint8_t seats, Resume resume) {
  resume_ = resume;
  trim_mask_ = seats;
  if (!seats) {
    continue_after(resume);
    return;
  }
  phase_ = kTrim;
  current_ = static_cast<int8_t>(lowest_bit(seats));
}

void State::continue_after(Resume r) {
  if (r == kAfterResolve) pass_hands();
  else if (r == kAfterWar) award_milestone();
  else pay_income();
}

void State::pass_hands() {
  if (round_ == 3) {  // WA-DRAFT-6: four cards handled
    start_income();
    return;
  }
  // WA-DRAFT-5: left (seat + 1) in eras I, III, V; right (seat - 1) in II, IV, VI (WA-AMB-20)
  const int n = players_;
  const int step = (era_ & 1) ? 1 : n - 1;
  uint8_t hands[kMaxPlayers][4];
  uint8_t sizes[kMaxPlayers];
  std::memcpy(hands, hand_, sizeof(hands));
  std::memcpy(sizes, hand_size_, sizeof(sizes));
  for (int p = 0; p < n; ++p) {
    const int q = (p + step) % n;
    std::memcpy(hand_[q], hands[p], 4);
    hand_size_[q] = sizes[p];
    for (int k = 0; k < hand_size_[q]; ++k) {
      card_loc_[hand_[q][k]] = static_cast<uint8_t>(kLocHand + q);
      set_seen(seen_[q], hand_[q][k]);
    }
  }
  ++round_;
  phase_ = kPick;
  chosen_ = 0;
  current_ = 0;
}

void State::start_income() {
  // WA-INC-1 step 1: war in eras III and IV (WA-FLOW-2, WA-WAR-1/2)
  if (era_ == 3 || era_ == 4) {
    const int base = era_ == 3 ? 1 : 2;
    bool any = false;
    for (int p = 0; p < players_; ++p) {
      int need = base - (visible_effect_card(p, kArsenal) >= 0 ? 1 : 0);  // WA-PUB-1
      need = std::min(need, popcount(occupied_[p]) - 1);                        // WA-AMB-14
      war_need_[p] = static_cast<uint8_t>(std::max(need, 0));
      pending_count_[p] = 0;
      any |= war_need_[p] > 0;
    }
    if (any) {
      phase_ = kWar;
      chosen_ = 0;
      next_seat_or_finish();
      return;
    }
  }
  award_milestone();
}

void State::finish_war() {
  uint8_t trims = 0;
  for (int p = 0; p < players_; ++p) {
    const bool had_prudential = big_limit(p);
    int locals[2];
    for (int k = 0; k < pending_count_[p]; ++k) locals[k] = local_of(p, pending_[p][k] - kRemoveBase);
    for (int k = 0; k < pending_count_[p]; ++k) remove_position(p, locals[k]);
    pending_count_[p] = 0;
    pending_[p][0] = pending_[p][1] = -1;
    war_need_[p] = 0;
    normalize(p);
    if (had_prudential && !big_limit(p) && !within_limit(p)) trims |= static_cast<uint8_t>(1u << p);
  }
  chosen_ = 0;
  check_trims(trims, kAfterWar);
}

// ---- milestones (WA-MILE-*) ----

void State::award_milestone() {
  // WA-INC-1 step 2; none in era VI (WA-MILE-5)
  if (era_ > kMilestones) {
    pay_income();
    return;
  }
  const int i = era_ - 1, s = mile_side_[i];
  const int cond = cfg_->mile_condition[i][s], type = cfg_->mile_condition_type[i][s];
  const bool fewest = cond == kFewestAreas;
  int value[kMaxPlayers];
  int best = 0;
  for (int p = 0; p < players_; ++p) {
    value[p] = milestone_value(p, cond, type);
    if (p == 0 || (fewest ? value[p] < best : value[p] > best)) best = value[p];
  }
  int winner = -1;
  if (!(cfg_->milestone_requires_positive && !fewest && best == 0)) {  // WA-AMB-19
    // WA-MILE-3: fewer coins, then fewer VP, else nobody
    int w = -1, tie = 0;
    for (int p = 0; p < players_; ++p) {
      if (value[p] != best) continue;
      if (w < 0 || coins_[p] < coins_[w] || (coins_[p] == coins_[w] && vp_[p] < vp_[w])) {
        w = p;
        tie = 0;
      } else if (coins_[p] == coins_[w] && vp_[p] == vp_[w]) {
        tie = 1;
      }
    }
    if (!tie) winner = w;
  }
  if (winner >= 0) {  // a full district whose stacks all reached max_stack_height cannot take it
    ActionList<kMaxActions> spots;
    build_options(winner, kMileBase + i, true, spots);
    if (spots.empty()) winner = -1;
  }
  if (winner < 0) {
    mile_owner_[i] = -2;
    card_loc_[kMileBase + i] = kLocMileDiscarded;
    pay_income();
    return;
  }
  phase_ = kMilePlace;
  current_ = static_cast<int8_t>(winner);
}

// ---- income and the end of an era (WA-INC-1, WA-END-*) ----

void State::pay_income() {
  // WA-INC-1 step 3, in the reference-card order
  for (int p = 0; p < players_; ++p) {
    const Income in = income(p);
    add_vp(p, in.park_vp);
    coins_[p] = static_cast<int16_t>(coins_[p] + in.commercial_coins);
    add_vp(p, in.cultural_vp);
    coins_[p] = static_cast<int16_t>(coins_[p] + in.industrial_coins);
    add_vp(p, -in.industrial_penalty);
    add_vp(p, in.transport_vp);
    coins_[p] = static_cast<int16_t>(coins_[p] + in.effect_coins);
    add_vp(p, in.effect_vp);
  }
  // Exchange buildings ask their owners last (docs/warsaw.md: no other effect depends on coins).
  exchange_mask_ = 0;
  for (int p = 0; p < players_; ++p) {
    const int c = visible_effect_card(p, kExchange);
    if (c >= 0 && coins_[p] >= cfg_->card_effect_amount[c]) exchange_mask_ |= static_cast<uint8_t>(1u << p);
  }
  if (exchange_mask_) {
    phase_ = kExchangePhase;
    current_ = static_cast<int8_t>(lowest_bit(exchange_mask_));
    return;
  }
  end_of_era();
}

void State::end_of_era() {
  if (era_ == kEras) {  // WA-END-1, WA-END-2: 5 coins = 1 VP
    for (int p = 0; p < players_; ++p) {
      add_vp(p, coins_[p] / 5);
      coins_[p] = static_cast<int16_t>(coins_[p] % 5);
    }
    phase_ = kTerminal;
    current_ = kTerminalSeat;
    return;
  }
  ++era_;  // WA-FLOW-4
  start_era();
}

}  // namespace tilecraft::warsaw
