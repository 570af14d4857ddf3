// Warsaw: the check of a loaded state (spec: shared/rules/warsaw.md): every saved or edited state passes
// State::validate() or is refused with the reason.
#include "warsaw/detail.hpp"

#include <algorithm>

namespace tilecraft::warsaw {

using namespace detail;

// ---- validation of loaded states ----

void State::validate() const {
  const Config& cfg = *cfg_;
  cfg.validate();
  const int n = players_;
  require(rng_.valid(), "warsaw state: rng state must not be all zeros");
  require(phase_ <= kTerminal, "warsaw state: phase must be 0..7, got ", int(phase_));
  require(resume_ <= kAfterMilestone, "warsaw state: resume must be 0..2");
  require(era_ >= 1 && era_ <= kEras, "warsaw state: era must be 1..6, got ", int(era_));
  require(round_ <= 3, "warsaw state: round must be 0..3, got ", int(round_));
  if (phase_ == kTerminal) require(current_ == kTerminalSeat, "warsaw state: current must be -1 when the game is over");
  else require(current_ >= 0 && current_ < n, "warsaw state: current must be a seat 0..", n - 1);
  require(chosen_ < (1u << n) && trim_mask_ < (1u << n) && exchange_mask_ < (1u << n),
          "warsaw state: seat masks must only name seats 0..", n - 1);
  for (int i = 0; i < kMilestones; ++i) {
    require(mile_side_[i] <= 1, "warsaw state: mile_side must be 0 or 1");
    require(mile_owner_[i] >= -2 && mile_owner_[i] < n, "warsaw state: mile_owner must be -2, -1 or a seat");
    const bool past = i + 1 < era_ || (i + 1 == era_ && (phase_ == kExchangePhase || phase_ == kTerminal ||
                                                         (phase_ == kTrim && resume_ == kAfterMilestone) ||
                                                         (phase_ == kTrimKeep && resume_ == kAfterMilestone)));
    if (!past) require(mile_owner_[i] == -1, "warsaw state: milestone ", i + 1, " cannot be decided yet");
    const int loc = card_loc_[kMileBase + i];
    if (mile_owner_[i] == -1) require(loc == kLocSupply, "warsaw state: an unawarded milestone must be on the board");
    if (mile_owner_[i] == -2) require(loc == kLocMileDiscarded, "warsaw state: a discarded milestone must be discarded");
    if (mile_owner_[i] >= 0)
      require(loc == kLocDistrict + mile_owner_[i] || loc == kLocRemoved,
              "warsaw state: an awarded milestone must be in its owner's district or removed");
  }
  for (int p = 0; p < kMaxPlayers; ++p) {
    const bool seated = p < n;
    require(coins_[p] >= 0 && coins_[p] <= 2000, "warsaw state: coins[", p, "] must be 0..2000, got ", coins_[p]);
    require(vp_[p] >= -2000 && vp_[p] <= 5000, "warsaw state: vp[", p, "] out of range");
    require(cfg.vp_floor_zero == 0 || vp_[p] >= 0, "warsaw state: vp[", p, "] is negative with vp_floor_zero");
    require(hand_size_[p] <= 4, "warsaw state: hand_size[", p, "] must be 0..4");
    require(pending_count_[p] <= 2 && war_need_[p] <= 2, "warsaw state: pending counts must be 0..2");
    require(trim_window_[p] <= 3, "warsaw state: trim_window must be 0..3");
    require(anchor_x_[p] >= -kFrameR - 2 && anchor_x_[p] <= kFrameR && anchor_y_[p] >= -kFrameR - 2 &&
                anchor_y_[p] <= kFrameR,
            "warsaw state: district anchor out of range");
    for (int k = 0; k < 2; ++k)
      require(seen_[p][k] == 0 || seated, "warsaw state: seat ", p, " is not in play");
    if (!seated) {
      require(occupied_[p] == 0 && hand_size_[p] == 0 && coins_[p] == 0 && vp_[p] == 0 && pending_card_[p] == kNone,
              "warsaw state: seat ", p, " is not in play but has pieces");
      continue;
    }
    const uint64_t occ = occupied_[p];
    require(occ != 0 && CardGrid::connected(occ), "warsaw state: seat ", p,
            "'s district must be non-empty and connected (WA-BUILD-5)");
    const unsigned cols = column_bits(occ), rows = row_bits(occ);
    require(__builtin_ctz(cols) >= 1 && 31 - __builtin_clz(cols) <= 6 && __builtin_ctz(rows) >= 1 &&
                31 - __builtin_clz(rows) <= 6,
            "warsaw state: seat ", p, "'s district must lie in local rows and columns 1..6 of its window");
    for (int i = 0; i < 64; ++i) {
      const bool on = (occ >> i) & 1u;
      if (!on) {
        require(top_[p][i] == kNone && height_[p][i] == 0 && rot_[p][i] == 0, "warsaw state: seat ", p,
                " has data on an empty position");
        continue;
      }
      const int cell = frame_cell(p, i);
      const int x = cell_x(cell), y = cell_y(cell);
      const int fx = anchor_x_[p] + (i & 7), fy = anchor_y_[p] + (i >> 3);
      require(fx == x && fy == y && x >= -kFrameR && x <= kFrameR && y >= -kFrameR && y <= kFrameR,
              "warsaw state: seat ", p, " has a position outside the frame");
      const int c = top_[p][i];
      require(c < kCardIds && card_loc_[c] == kLocDistrict + p && card_cell_[c] == cell, "warsaw state: seat ", p,
              "'s top card at (", x, ",", y, ") is not recorded there");
      require(rot_[p][i] <= 3, "warsaw state: rotation must be 0..3");
      int h = 0;
      uint16_t latest = 0;
      for (int d = 0; d < kCardIds; ++d)
        if (card_loc_[d] == kLocDistrict + p && card_cell_[d] == cell) {
          ++h;
          latest = std::max(latest, built_at_[d]);
        }
      require(h == height_[p][i] && h >= 1, "warsaw state: seat ", p, " stack height at (", x, ",", y,
              ") does not match its cards");
      require(c >= kStartBase && c < kMileBase ? h == 1 && c == kStartBase + p : built_at_[c] == latest,
              "warsaw state: the top card at (", x, ",", y, ") must be the last one built there");
      require(cfg.max_stack_height == 0 || h <= cfg.max_stack_height, "warsaw state: stack above max_stack_height");
    }
    const bool trimming = (phase_ == kTrim || phase_ == kTrimKeep) && ((trim_mask_ >> p) & 1u);
    require(trimming ? fits(occ, true) : within_limit(p), "warsaw state: seat ", p,
            "'s district exceeds its size limit (WA-BUILD-2)");
  }
  // every card in exactly one place
  int in_hand[kMaxPlayers] = {}, pending_count[kMaxPlayers] = {};
  for (int c = 0; c < kCardIds; ++c) {
    const int loc = card_loc_[c];
    const bool valid = loc <= kLocMileDiscarded || (loc >= kLocHand && loc < kLocHand + n) ||
                       (loc >= kLocPending && loc < kLocPending + n) || (loc >= kLocDistrict && loc < kLocDistrict + n);
    require(valid, "warsaw state: card ", c, " has an unknown location ", loc);
    if (c >= cfg.num_cards && c < kMaxCards) require(loc == kLocSupply, "warsaw state: card ", c, " does not exist");
    if (c < kMaxCards && c < cfg.num_cards) {
      const int e = cfg.card_era[c];
      if (e > era_) require(loc == kLocSupply, "warsaw state: card ", c, " of a later era is out of its deck");
      if (e <= era_) require(loc != kLocSupply, "warsaw state: card ", c, " of a dealt era is still in its deck");
      if (loc >= kLocHand && loc < kLocDistrict)
        require(e == era_, "warsaw state: card ", c, " in a hand is not of the current era");
    }
    if (c >= kStartBase && c < kMileBase && c - kStartBase < n)
      require(loc == kLocDistrict + (c - kStartBase) || loc == kLocRemoved, "warsaw state: starting card ", c,
              " must be in its seat's district or removed");
    if (c >= kStartBase && c < kMileBase && c - kStartBase >= n)
      require(loc == kLocRemoved, "warsaw state: unused starting card ", c, " must be in the box");
    if (c >= kMileBase) require(loc < kLocHand || loc >= kLocDistrict, "warsaw state: milestone ", c, " in a hand");
    if (c >= kStartBase) require(loc < kLocHand || loc >= kLocDistrict, "warsaw state: card ", c, " in a hand");
    if (loc >= kLocHand && loc < kLocPending) ++in_hand[loc - kLocHand];
    if (loc >= kLocPending && loc < kLocDistrict) ++pending_count[loc - kLocPending];
    if (loc >= kLocDistrict) {
      require(card_cell_[c] < kCells, "warsaw state: card ", c, " has a cell outside the frame");
      const int p = loc - kLocDistrict, l = local_of(p, card_cell_[c]);
      require(l >= 0 && ((occupied_[p] >> l) & 1u), "warsaw state: card ", c, " lies on an empty position");
      require(built_at_[c] <= build_seq_, "warsaw state: card ", c, " was built in the future");
    }
  }
  for (int p = 0; p < n; ++p) {
    require(in_hand[p] == hand_size_[p], "warsaw state: seat ", p, " hand size does not match its cards");
    for (int k = 0; k < 4; ++k) {
      const int c = hand_[p][k];
      if (k < hand_size_[p])
        require(c < kMaxCards && card_loc_[c] == kLocHand + p && (k == 0 || hand_[p][k - 1] < c),
                "warsaw state: seat ", p, "'s hand must list its cards in ascending order");
      else
        require(c == kNone, "warsaw state: unused hand slots must be 255");
    }
    for (int k = 0; k < 2; ++k)
      require((seen_[p][k] & ~(k == 0 ? (cfg.num_cards >= 64 ? ~uint64_t{0} : (uint64_t{1} << cfg.num_cards) - 1)
                                      : (cfg.num_cards >= 128 ? ~uint64_t{0}
                                         : cfg.num_cards <= 64 ? 0 : (uint64_t{1} << (cfg.num_cards - 64)) - 1))) == 0,
              "warsaw state: seen cards must exist");
    for (int k = 0; k < hand_size_[p]; ++k)
      require(test_seen(seen_[p], hand_[p][k]), "warsaw state: a seat has always seen its own hand");
    const bool has_pending = pending_card_[p] != kNone;
    require(pending_count[p] == (has_pending ? 1 : 0) &&
                (!has_pending || (pending_card_[p] < kMaxCards && card_loc_[pending_card_[p]] == kLocPending + p)),
            "warsaw state: seat ", p, "'s picked card is inconsistent");
    const bool picked = (chosen_ >> p) & 1u;
    if (phase_ == kPick) {
      require(has_pending == picked, "warsaw state: seat ", p, " has a picked card exactly when it has chosen");
      require(hand_size_[p] + (picked ? 1 : 0) == 4 - round_, "warsaw state: hand sizes must match the pick round");
    } else if (phase_ == kResolve) {
      require(has_pending && hand_size_[p] == 3 - round_, "warsaw state: while resolving every seat has a revealed card");
    } else if ((phase_ == kTrim || phase_ == kTrimKeep) && resume_ == kAfterResolve) {
      require(!has_pending && hand_size_[p] == 3 - round_,
              "warsaw state: a trim between two picks leaves each seat 3 - round cards");
    } else {
      require(!has_pending && hand_size_[p] == 0, "warsaw state: outside the draft no seat holds cards");
    }
    if (phase_ == kPick) require(p >= current_ || picked, "warsaw state: seats choose in order");
    if (phase_ == kPick || phase_ == kResolve)
      require(((chosen_ >> p) & 1u) == (p < current_ ? 1u : 0u), "warsaw state: seats before the current one have chosen");
  }
  // pending hidden choices must be legal
  for (int p = 0; p < n; ++p) {
    if (phase_ == kResolve && ((chosen_ >> p) & 1u)) {
      ActionList<kMaxActions> a;
      legal_for(p, a);
      bool ok = pending_count_[p] == 1;
      if (ok) {
        ok = false;
        for (int32_t x : a) ok |= x == pending_[p][0];
      }
      require(ok, "warsaw state: seat ", p, "'s hidden resolve choice is not legal");
    } else if (phase_ == kWar) {
      require(pending_count_[p] <= war_need_[p], "warsaw state: too many war removals");
      require(war_need_[p] <= 2 && war_need_[p] < popcount(occupied_[p]), "warsaw state: seat ", p,
              " cannot remove ", int(war_need_[p]), " of its ", popcount(occupied_[p]), " positions (WA-AMB-14)");
      require(((chosen_ >> p) & 1u) == (war_need_[p] > 0 && pending_count_[p] == war_need_[p] ? 1u : 0u),
              "warsaw state: war choice flags inconsistent");
      State t = *this;
      t.current_ = static_cast<int8_t>(p);
      t.pending_count_[p] = 0;
      for (int k = 0; k < pending_count_[p]; ++k) {
        ActionList<kMaxActions> a;
        t.legal_for(p, a);
        bool ok = false;
        for (int32_t x : a) ok |= x == pending_[p][k];
        require(ok, "warsaw state: seat ", p, "'s hidden war removal is not legal");
        t.pending_[p][k] = pending_[p][k];
        t.pending_count_[p] = static_cast<uint8_t>(k + 1);
      }
    } else {
      require(phase_ == kResolve || pending_count_[p] == 0, "warsaw state: no hidden choice is pending");
    }
  }
  if (phase_ == kWar)
    require(war_need_[current_] > pending_count_[current_], "warsaw state: the war seat has nothing to do");
  if (phase_ == kTrim || phase_ == kTrimKeep) {
    require((trim_mask_ >> current_) & 1u, "warsaw state: the trimming seat must need a trim");
    require(!big_limit(current_) && !within_limit(current_), "warsaw state: the trimming seat does not need a trim");
  }
  if (phase_ == kTrimKeep) {
    uint64_t comps[16];
    int k;
    tied_components(current_, occupied_[current_] & trim_window_mask(current_, trim_window_[current_]), comps, k);
    require(k > 1, "warsaw state: no tie to break in the trim");
  }
  if (phase_ == kExchangePhase) {
    require((exchange_mask_ >> current_) & 1u, "warsaw state: the exchanging seat must be in the exchange mask");
    for (int p = 0; p < n; ++p)
      if ((exchange_mask_ >> p) & 1u)
        require(visible_effect_card(p, kExchange) >= 0, "warsaw state: an exchanging seat needs an exchange building");
  }
  if (phase_ == kMilePlace) require(era_ <= kMilestones && mile_owner_[era_ - 1] == -1,
                                    "warsaw state: this era's milestone is not waiting for placement");
  if (phase_ == kPick || phase_ == kResolve) require(chosen_ != (1u << n) - 1, "warsaw state: everyone has chosen");
}

}  // namespace tilecraft::warsaw
