// Gaudí: validation (the State is declared in gaudi/state.hpp).
#include "gaudi/detail.hpp"

namespace tilecraft::gaudi {

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
