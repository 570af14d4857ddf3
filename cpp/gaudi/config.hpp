// Gaudí rule options and component data (spec: shared/rules/gaudi.md; docs/gaudi.md).
// Options (int fields; python/tilecraft/games/gaudi.py validates and names them):
//   players 1 (solo: solo 1, mode 1, difficulty 0..3 easy/normal/hard/crazy) or 2..4; mode 0 basic / 1 expert (night faces, GA-EXP-*); explicit_chance 0 sampled / 1 explicit (§11.3);
//   first_player 0..players-1 or -1 random at a chance node (GA-AMB-26); returns_mode 0 score / 1 win_loss
//   (GA-AMB-38); generic_distinct (GA-AMB-13); early_religion_rescored (GA-AMB-32);
//   finished_markers_block_leader (GA-AMB-9). solo/difficulty are reserved for part 2 (must be 0 now).
// Component data (the normalized edition of docs/gaudi.md): an EFFECT is (entry, amount) with the
// reward-catalogue entry of §11.2, entry -1 = none. Lists are padded with -1.
#pragma once
#include <cstdint>

#include "core/errors.hpp"

namespace tilecraft::gaudi {

constexpr int kMaxPlayers = 4;
constexpr int kTMax = 48;     // track spaces (index 48 = central area)
constexpr int kBMax = 64;     // board spaces
constexpr int kCards = 99;
constexpr int kAreas = 5;
constexpr int kTypes = 16;    // tile type = 4 * colour + shape
constexpr int kEntries = 48;  // reward catalogue
constexpr int kChimneys = 12;
constexpr int kChimMax = 6;   // spaces per chimney face
constexpr int kChandeliers = 7;
constexpr int kBanner = 4, kChimReward = 3, kColReward = 3, kCentralEff = 4;

// catalogue entries (§11.2)
constexpr int kEntTileAny = 24, kEntCardN = 25, kEntCardAny = 28, kEntPlay = 29, kEntPlayFree = 30,
              kEntNature = 31, kEntCatalan = 32, kEntReligion = 33, kEntGeneric = 34, kEntAdvance = 35,
              kEntExtra = 36, kEntVpN = 37, kEntVpR = 39, kEntUsed = 40;

struct Config {
  int32_t players = 2;
  int32_t mode = 0;
  int32_t explicit_chance = 0;
  int32_t first_player = 0;
  int32_t returns_mode = 0;
  int32_t generic_distinct = 1;
  int32_t early_religion_rescored = 1;
  int32_t finished_markers_block_leader = 0;
  int32_t solo = 0;
  int32_t difficulty = 0;

  // player board (GA-DATA-3)
  int32_t board_n = 0;
  int8_t board_shape[kBMax] = {};
  uint64_t board_nbr[kBMax] = {};
  int8_t nature_reward[kColReward][2] = {{-1, 0}, {-1, 0}, {-1, 0}};
  int8_t catalan_reward[kColReward][2] = {{-1, 0}, {-1, 0}, {-1, 0}};
  // track, face 0 day / 1 night (GA-DATA-1, GA-DATA-2)
  int32_t track_n[2] = {};
  int8_t track_action[2][kTMax] = {};
  int8_t track_pencils[2][kTMax] = {};
  int8_t track_hammers[2][kTMax] = {};
  int8_t track_red[2][kTMax] = {};
  int8_t track_entry[2][4] = {};
  int8_t area_bonus[2][kAreas][2] = {};
  int8_t window_bonus[2][3][2] = {};
  // cards (GA-DATA-5); religion condition: vp, threshold (0 = vp per count), count kind/arg
  int8_t card_domain[kCards] = {};
  int8_t card_category[kCards] = {};  // 0..8, 9 = Gaudí's life
  int8_t card_req_colour[kCards] = {};  // 0..3, 4 = black
  int8_t card_req_n[kCards] = {};
  int8_t card_banner[kCards][kBanner][2] = {};
  int8_t card_rel_vp[kCards] = {};
  int8_t card_rel_threshold[kCards] = {};
  int8_t card_rel_count[kCards][2] = {};  // kind -1 = no condition
  int8_t card_automa_vp[kCards] = {};
  // chimneys (GA-DATA-6), face 0 day / 1 night; end = kind, domain, n, count kind, count arg (kind -1 none)
  int8_t chim_domain[kChimneys] = {};
  int8_t chim_n[kChimneys][2] = {};
  int8_t chim_req_shape[kChimneys][2][kChimMax] = {};
  int8_t chim_req_n[kChimneys][2][kChimMax] = {};
  int8_t chim_reward[kChimneys][2][kChimMax][kChimReward][2] = {};
  int8_t chim_end[kChimneys][2][kChimMax][5] = {};
  int8_t chim_ability_trigger[kChimneys][2][kChimMax][2] = {};  // night faces (part 2); kind -1 none
  int8_t chim_ability_effects[kChimneys][2][kChimMax][kBanner][2] = {};
  // central chandelier tiles (GA-DATA-7)
  int8_t chandelier[kChandeliers][2][kCentralEff][2] = {};

  // derived by validate()
  mutable uint64_t shape_mask[4] = {};
  mutable uint64_t board_all = 0;
  mutable int8_t bonus_kind[2][8] = {};   // per face: areas 0..4, windows 5..7: lowest slot with the same icon
  mutable int8_t day_chimney[3] = {};  // the chimney tile a player uses per domain in basic mode
  mutable uint8_t validated = 0;

  template <class V>
  void visit(V& v) {
    v.field("players", players);
    v.field("mode", mode);
    v.field("explicit_chance", explicit_chance);
    v.field("first_player", first_player);
    v.field("returns_mode", returns_mode);
    v.field("generic_distinct", generic_distinct);
    v.field("early_religion_rescored", early_religion_rescored);
    v.field("finished_markers_block_leader", finished_markers_block_leader);
    v.field("solo", solo);
    v.field("difficulty", difficulty);
    v.field("board_n", board_n);
    v.field("board_shape", board_shape);
    v.field("board_nbr", board_nbr);
    v.field("nature_reward", nature_reward);
    v.field("catalan_reward", catalan_reward);
    v.field("track_n", track_n);
    v.field("track_action", track_action);
    v.field("track_pencils", track_pencils);
    v.field("track_hammers", track_hammers);
    v.field("track_red", track_red);
    v.field("track_entry", track_entry);
    v.field("area_bonus", area_bonus);
    v.field("window_bonus", window_bonus);
    v.field("card_domain", card_domain);
    v.field("card_category", card_category);
    v.field("card_req_colour", card_req_colour);
    v.field("card_req_n", card_req_n);
    v.field("card_banner", card_banner);
    v.field("card_rel_vp", card_rel_vp);
    v.field("card_rel_threshold", card_rel_threshold);
    v.field("card_rel_count", card_rel_count);
    v.field("card_automa_vp", card_automa_vp);
    v.field("chim_domain", chim_domain);
    v.field("chim_n", chim_n);
    v.field("chim_req_shape", chim_req_shape);
    v.field("chim_req_n", chim_req_n);
    v.field("chim_reward", chim_reward);
    v.field("chim_end", chim_end);
    v.field("chim_ability_trigger", chim_ability_trigger);
    v.field("chim_ability_effects", chim_ability_effects);
    v.field("chandelier", chandelier);
  }

  void validate() const;  // config.cpp
};

}  // namespace tilecraft::gaudi
