// Azul: the check of a loaded state (rule IDs refer to shared/rules/azul.md): every saved or edited
// state passes State::validate() or is refused with the reason.
#include "azul/detail.hpp"

namespace tilecraft::azul {

using namespace detail;

// ---- validation of loaded states ----

void State::validate() const {
  cfg_.validate();
  const int n = cfg_.players, nf = cfg_.factories();
  require(rng_.valid(), "azul state: rng state must not be all zeros");
  require(phase_ <= kTerminal, "azul state: phase must be 0..3, got ", int(phase_));
  require(phase_ != kFirstPlayerChance || cfg_.first_player == -1,
          "azul state: phase 0 (first-player chance) needs first_player = -1");
  require(round_ < cfg_.max_rounds || (phase_ == kTerminal && round_ == cfg_.max_rounds), "azul state: round ", round_,
          " is not below max_rounds ", cfg_.max_rounds);
  for (int p = 0; p < kMaxPlayers; ++p) {
    const bool seated = p < n;
    for (int k = 0; k < kLines; ++k) {
      const int lc = line_colour_[p][k], cnt = line_count_[p][k];
      require(lc <= kNoColour, "azul state: line_colour[", p, "][", k, "] must be 0..5, got ", lc);
      require(cnt <= k + 1, "azul state: line_count[", p, "][", k, "] must be at most ", k + 1, ", got ", cnt);
      require((cnt == 0) == (lc == kNoColour), "azul state: line ", k + 1, " of seat ", p,
              " must have colour 5 (none) exactly when it is empty");
      if (lc != kNoColour)
        require(!((wall_[p] >> wall_bit(k, lc)) & 1u), "azul state: seat ", p, " line ", k + 1, " holds ",
                kColourNames[lc], " but wall row ", k + 1, " already has it");
      require(seated || cnt == 0, "azul state: seat ", p, " is not in a ", n, "-player game but has tiles");
    }
    require(wall_[p] < (1u << 25), "azul state: wall[", p, "] must be a 25-bit mask");
    require(seated || wall_[p] == 0, "azul state: seat ", p, " is not in play but has a wall");
    int on_floor = marker_on_floor_[p];
    for (int c = 0; c < kColours; ++c) on_floor += floor_tiles_[p][c];
    require(floor_count_[p] <= kFloorSpaces && on_floor == floor_count_[p], "azul state: floor of seat ", p,
            " is inconsistent (floor_count ", int(floor_count_[p]), ", tiles + marker ", on_floor, ")");
    require(has_marker_[p] <= 1 && marker_on_floor_[p] <= has_marker_[p], "azul state: marker flags of seat ", p,
            " are inconsistent");
    require(score_[p] >= 0 && score_[p] <= 1000, "azul state: score[", p, "] must be 0..1000, got ", score_[p]);
    require(seated || (floor_count_[p] == 0 && has_marker_[p] == 0 && score_[p] == 0), "azul state: seat ", p,
            " is not in play");
  }
  int holders = 0;
  for (int p = 0; p < n; ++p) holders += has_marker_[p];
  require(marker_in_centre_ <= 1, "azul state: marker_in_centre must be 0 or 1");
  require(holders + marker_in_centre_ == 1, "azul state: the start-player marker must be in the centre or with one seat");
  for (int p = 0; p < n; ++p)
    if (has_marker_[p] && phase_ != kOffer && phase_ != kTerminal)
      require(next_first_ == p && round_first_ == p, "azul state: seat ", p,
              " holds the marker during the refill, so it must start the next round");
  for (int s = 0; s < kSources; ++s) {
    int total = 0;
    for (int c = 0; c < kColours; ++c) total += src_[s][c];
    if (s > nf) require(total == 0, "azul state: factory ", s, " is not in play with ", n, " players but holds tiles");
    else if (s > 0) require(total <= 4, "azul state: factory ", s, " holds ", total, " tiles; at most 4");
  }
  for (int c = 0; c < kColours; ++c) {
    int total = bag_[c] + lid_[c];
    for (int s = 0; s < kSources; ++s) total += src_[s][c];
    for (int p = 0; p < n; ++p) {
      for (int k = 0; k < kLines; ++k) total += line_colour_[p][k] == c ? line_count_[p][k] : 0;
      total += floor_tiles_[p][c] + popcount(wall_[p] & colour_mask(c));
    }
    require(total == kTilesPerColour, "azul state: there must be 20 ", kColourNames[c], " tiles in all, found ", total);
  }
  require(round_first_ >= 0 && round_first_ < n && next_first_ >= 0 && next_first_ < n,
          "azul state: round_first and next_first must be seats 0..", n - 1);
  if (phase_ == kOffer) {
    require(current_ >= 0 && current_ < n, "azul state: current must be a seat 0..", n - 1, " during the offer");
    bool any = false;
    for (int s = 0; s <= nf; ++s)
      for (int c = 0; c < kColours; ++c) any |= src_[s][c] > 0;
    require(any, "azul state: during the offer some factory or the centre must hold tiles");
  } else if (phase_ == kTerminal) {
    require(current_ == kTerminalSeat, "azul state: current must be -1 when the game is over");
  }
  if (phase_ == kFill) {
    require(fill_factory_ < nf && fill_slot_ < 4, "azul state: fill cursor out of range");
    for (int f = 1 + fill_factory_; f <= nf; ++f) {
      int total = 0;
      for (int c = 0; c < kColours; ++c) total += src_[f][c];
      const int expect = f == 1 + fill_factory_ ? fill_slot_ : 0;
      require(total == expect, "azul state: factory ", f, " holds ", total, " tiles but the refill cursor expects ", expect);
    }
    int in_bag = 0;
    for (int c = 0; c < kColours; ++c) in_bag += bag_[c];
    require(in_bag > 0, "azul state: a tile draw is pending but the bag is empty");
  } else {
    require(fill_factory_ == 0 && fill_slot_ == 0, "azul state: fill cursor must be 0 outside a refill");
  }
}

}  // namespace tilecraft::azul
