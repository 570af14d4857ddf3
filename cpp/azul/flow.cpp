// Azul: the flow of the game (rule IDs refer to shared/rules/azul.md): setup, the refill of the
// factories and its draws, the end of a round (wall-tiling, floor penalties) and of the game. The
// other parts of the State: legal.cpp, score.cpp, observe.cpp, validate.cpp (the hot paths,
// legal_actions and a take, are inline in state.hpp); their shared helpers: detail.hpp.
#include "azul/detail.hpp"

#include <cstring>

namespace tilecraft::azul {

// ---- setup ----

State::State(const Config& config, uint64_t seed) {
  config.validate();
  std::memset(static_cast<void*>(this), 0, sizeof(State));
  cfg_ = config;
  rng_.seed(seed);
  for (int c = 0; c < kColours; ++c) bag_[c] = kTilesPerColour;  // AZ-SETUP-2, AZ-AMB-1
  for (int p = 0; p < kMaxPlayers; ++p)
    for (int k = 0; k < kLines; ++k) line_colour_[p][k] = kNoColour;
  marker_in_centre_ = 1;  // AZ-SETUP-5
  for (int p = 0; p < kMaxPlayers; ++p) refresh_dest(p);
  if (cfg_.first_player < 0) {
    phase_ = kFirstPlayerChance;  // AZ-AMB-5
  } else {
    round_first_ = next_first_ = static_cast<int8_t>(cfg_.first_player);
    phase_ = kFill;
  }
  advance_chance();
}

void State::rebuild_derived() {
  // from_json calls this on unchecked saved fields: refresh_dest shifts by line_colour and reads the
  // walls, so check them first. validate() reads saved fields only, never the derived ones.
  validate();
  nonempty_ = 0;
  for (int c = 0; c < kColours; ++c) holders_[c] = 0;
  for (int s = 0; s < kSources; ++s) {
    present_[s] = 0;
    for (int c = 0; c < kColours; ++c) {
      present_[s] = static_cast<uint8_t>(present_[s] | ((src_[s][c] > 0) << c));
      holders_[c] = static_cast<uint16_t>(holders_[c] | ((src_[s][c] > 0) << s));
    }
    if (present_[s]) nonempty_ |= static_cast<uint16_t>(1u << s);
  }
  for (int p = 0; p < kMaxPlayers; ++p) refresh_dest(p);
}

// ---- chance ----

int State::draw_colour(int total) {
  int r = static_cast<int>(rng_.below(static_cast<uint32_t>(total)));
  int c = 0;
  while (r >= bag_[c]) r -= bag_[c++];
  return c;
}

void State::place_drawn(int colour) {
  --bag_[colour];
  const int f = 1 + fill_factory_;
  ++src_[f][colour];
  present_[f] = static_cast<uint8_t>(present_[f] | (1u << colour));
  holders_[colour] = static_cast<uint16_t>(holders_[colour] | (1u << f));
  nonempty_ |= static_cast<uint16_t>(1u << f);
  if (++fill_slot_ == 4) {
    fill_slot_ = 0;
    ++fill_factory_;
  }
}

// Moves the state forward through everything that needs no decision: deterministic refill steps,
// and, in sampled mode, the draws themselves. Stops at a player node, a chance node (explicit
// mode) or the end of the game.
void State::advance_chance() {
  for (;;) {
    if (phase_ == kFirstPlayerChance) {
      if (cfg_.explicit_chance) return;
      apply_chance(static_cast<int32_t>(rng_.below(static_cast<uint32_t>(cfg_.players))));
      return;  // apply_chance continues the advance
    }
    if (phase_ != kFill) return;
    int in_bag = bag_[0] + bag_[1] + bag_[2] + bag_[3] + bag_[4];
    const int factories = cfg_.factories();
    while (fill_factory_ < factories) {
      if (in_bag == 0) {  // AZ-REFILL-2: the lid goes back into the bag
        for (int c = 0; c < kColours; ++c) {
          bag_[c] = static_cast<uint8_t>(bag_[c] + lid_[c]);
          in_bag += lid_[c];
          lid_[c] = 0;
        }
        if (in_bag == 0) break;  // AZ-REFILL-3: stop filling
      }
      if (cfg_.explicit_chance) return;
      place_drawn(draw_colour(in_bag));
      --in_bag;
    }
    break;
  }
  // The fill is over.
  fill_factory_ = 0;
  fill_slot_ = 0;
  if (!nonempty_) {  // AZ-AMB-17: nothing to offer at all
    end_game();
    return;
  }
  // The new round starts: the marker goes back to the centre (AZ-REFILL-4, AZ-AMB-6).
  marker_in_centre_ = 1;
  for (int p = 0; p < kMaxPlayers; ++p) has_marker_[p] = 0;
  phase_ = kOffer;
  current_ = round_first_;
}

void State::apply_chance(int32_t outcome) {
  if (phase_ == kFirstPlayerChance) {
    round_first_ = next_first_ = static_cast<int8_t>(outcome);
    phase_ = kFill;
  } else {
    place_drawn(outcome);
  }
  advance_chance();
}

void State::chance_outcomes(ChanceList<kMaxChanceOutcomes>& out) const {
  out.clear();
  if (phase_ == kFirstPlayerChance) {
    for (int p = 0; p < cfg_.players; ++p) out.push(p, 1.0 / cfg_.players);
  } else if (phase_ == kFill) {
    const int total = bag_[0] + bag_[1] + bag_[2] + bag_[3] + bag_[4];
    for (int c = 0; c < kColours; ++c)
      if (bag_[c]) out.push(c, static_cast<double>(bag_[c]) / total);
  }
}

// ---- round end ----

void State::end_round() {
  bool row_done = false;
  for (int p = 0; p < cfg_.players; ++p) {
    int score = score_[p];
    for (int k = 0; k < kLines; ++k) {  // AZ-WALL-1: top to bottom
      if (line_count_[p][k] == k + 1) {
        const int c = line_colour_[p][k];
        const int b = wall_bit(k, c);
        wall_[p] |= uint32_t{1} << b;
        score += placement_points(wall_[p], b);  // AZ-WALL-2
        lid_[c] = static_cast<uint8_t>(lid_[c] + k);
        line_count_[p][k] = 0;
        line_colour_[p][k] = kNoColour;
      }
    }
    score -= kPenaltyPrefix[floor_count_[p]];  // AZ-FLOOR-1/2
    score_[p] = static_cast<int16_t>(score < 0 ? 0 : score);  // AZ-FLOOR-3
    for (int c = 0; c < kColours; ++c) {  // AZ-FLOOR-4
      lid_[c] = static_cast<uint8_t>(lid_[c] + floor_tiles_[p][c]);
      floor_tiles_[p][c] = 0;
    }
    floor_count_[p] = 0;
    marker_on_floor_[p] = 0;  // the holder keeps the marker until the next round starts (AZ-FLOOR-4)
    refresh_dest(p);
    row_done |= complete_rows(p) > 0;
  }
  ++round_;
  if (row_done || round_ >= cfg_.max_rounds) {  // AZ-END-1, AZ-AMB-13, AZ-AMB-16
    end_game();
    return;
  }
  // AZ-REFILL-1, AZ-REFILL-4, AZ-AMB-6: refill; the marker returns to the centre when the new round starts
  round_first_ = next_first_;
  current_ = round_first_;
  phase_ = kFill;
  fill_factory_ = 0;
  fill_slot_ = 0;
  advance_chance();
}

void State::end_game() {
  for (int p = 0; p < cfg_.players; ++p) score_[p] = static_cast<int16_t>(score_[p] + bonus(wall_[p]));  // AZ-END-2
  phase_ = kTerminal;
  current_ = kTerminalSeat;
}

}  // namespace tilecraft::azul
