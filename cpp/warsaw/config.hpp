// Warsaw: City of Ruins rule options and component data (spec: shared/rules/warsaw.md).
// Every option, its type and default:
//   players                     int 2   2, 3 or 4 (WA-SCOPE-1)
//   returns_mode                int 0   0: "score" (returns = final VP), 1: "win_loss" (1/k per co-winner) (WA-AMB-22)
//   vp_floor_zero               int 0   1: VP never drop below 0 (WA-AMB-10)
//   transport_mode              int 0   0: the >= 2 threshold counts transport groups, 1: transport cards (WA-AMB-6)
//   max_stack_height            int 0   0: unlimited; k: a position may hold at most k cards (WA-AMB-12)
//   milestone_requires_positive int 0   1: a "most ..." milestone needs a count above 0 to be won (WA-AMB-19)
// Component data (loaded from JSON by python/tilecraft/games/warsaw.py, see docs/warsaw.md):
//   num_cards, card_*[kMaxCards]        the era-deck cards: era 1..6, price, four quadrants (type, value) in
//                                       the order NW, NE, SE, SW, or a whole-card public building (effect)
//   start_type/start_value[4]           the starting card (WA-COMP-8, WA-AMB-5)
//   mile_*[5][2]                        milestone slot i (awarded in era i+1), side 0/1: condition and effect
//   park_table[9], park_extra           park VP for 0..8 adjacent residential areas, and per area beyond 8
#pragma once
#include <cstdint>

#include "core/errors.hpp"

namespace tilecraft::warsaw {

constexpr int kMaxCards = 112;  // era-deck cards (the default set has 6 x 16 = 96)
constexpr int kEras = 6;
constexpr int kMilestones = 5;

// Quadrant types. 0..5 are area types; kPublic and kMilestoneType mark whole-card buildings.
enum QuadType : int8_t { kPark = 0, kResidential = 1, kCommercial = 2, kIndustrial = 3, kCultural = 4, kTransport = 5,
                         kPublic = 6, kMilestoneType = 7 };
constexpr int kAreaTypes = 6;

// Effects of public buildings and milestones (WA-PUB-*, WA-MILE-4).
enum Effect : int8_t {
  kNoEffect = 0,
  kArsenal = 1,      // WA-PUB-1
  kSigismund = 2,    // WA-PUB-2
  kJablonowski = 3,  // WA-PUB-3
  kPrudential = 4,   // WA-PUB-4
  kPerArea = 5,      // amount per area of effect_type in the district
  kAdjacent = 6,     // amount per distinct area of effect_type adjacent to the building
  kFlat = 7,         // amount every income phase
  kPerPublic = 8,    // amount per visible public building in the district (itself included)
  kExchange = 9,     // owner may pay `amount` coins for 1 VP, up to `extra` times (a choice)
  kNumEffects = 10
};
enum Resource : int8_t { kVP = 0, kCoins = 1 };

// Milestone conditions (WA-AMB-4).
enum Condition : int8_t { kMostAreas = 0, kFewestAreas = 1, kMostAreasOf = 2, kMostPublic = 3, kMostOverbuilt = 4,
                          kNumConditions = 5 };

struct Config {
  int32_t players = 2;
  int32_t returns_mode = 0;
  int32_t vp_floor_zero = 0;
  int32_t transport_mode = 0;
  int32_t max_stack_height = 0;
  int32_t milestone_requires_positive = 0;

  int32_t num_cards = 0;
  int8_t card_era[kMaxCards] = {};
  int8_t card_price[kMaxCards] = {};
  int8_t card_type[kMaxCards][4] = {};
  int8_t card_value[kMaxCards][4] = {};
  int8_t card_effect[kMaxCards] = {};
  int8_t card_effect_type[kMaxCards] = {};
  int8_t card_effect_amount[kMaxCards] = {};
  int8_t card_effect_resource[kMaxCards] = {};
  int8_t card_effect_extra[kMaxCards] = {};

  int8_t start_type[4] = {kPark, kResidential, kResidential, kPark};
  int8_t start_value[4] = {};

  int8_t mile_condition[kMilestones][2] = {};
  int8_t mile_condition_type[kMilestones][2] = {};
  int8_t mile_effect[kMilestones][2] = {};
  int8_t mile_effect_type[kMilestones][2] = {};
  int8_t mile_effect_amount[kMilestones][2] = {};
  int8_t mile_effect_resource[kMilestones][2] = {};

  int16_t park_table[9] = {0, 1, 2, 3, 5, 7, 10, 13, 16};
  int16_t park_extra = 3;

  // Derived by validate() (not options, not saved): per card (era cards, then the starting card at
  // index kMaxCards) a 4-bit mask of its printed quadrants of each area type (bit k = quadrant k in
  // the order NW, NE, SE, SW) and its cultural / industrial icon totals.
  mutable uint8_t quad_mask[kMaxCards + 1][kAreaTypes] = {};
  mutable uint8_t cultural_total[kMaxCards + 1] = {};
  mutable uint8_t industrial_total[kMaxCards + 1] = {};
  mutable uint8_t rotations[kMaxCards + 1] = {};  // distinct rotations (1, 2 or 4)
  mutable uint8_t era_deck[kEras + 1][kMaxCards] = {};  // card ids of each era, ascending
  mutable uint8_t era_size[kEras + 1] = {};
  mutable uint8_t validated = 0;  // set by validate(); a State validates an unvalidated config once

  template <class V>
  void visit(V& v) {
    v.field("players", players);
    v.field("returns_mode", returns_mode);
    v.field("vp_floor_zero", vp_floor_zero);
    v.field("transport_mode", transport_mode);
    v.field("max_stack_height", max_stack_height);
    v.field("milestone_requires_positive", milestone_requires_positive);
    v.field("num_cards", num_cards);
    v.field("card_era", card_era);
    v.field("card_price", card_price);
    v.field("card_type", card_type);
    v.field("card_value", card_value);
    v.field("card_effect", card_effect);
    v.field("card_effect_type", card_effect_type);
    v.field("card_effect_amount", card_effect_amount);
    v.field("card_effect_resource", card_effect_resource);
    v.field("card_effect_extra", card_effect_extra);
    v.field("start_type", start_type);
    v.field("start_value", start_value);
    v.field("mile_condition", mile_condition);
    v.field("mile_condition_type", mile_condition_type);
    v.field("mile_effect", mile_effect);
    v.field("mile_effect_type", mile_effect_type);
    v.field("mile_effect_amount", mile_effect_amount);
    v.field("mile_effect_resource", mile_effect_resource);
    v.field("park_table", park_table);
    v.field("park_extra", park_extra);
  }

  static void check_effect(const char* who, int idx, int effect, int type, int amount, int resource, int extra,
                           bool milestone) {
    require<InvalidConfig>(effect >= 0 && effect < kNumEffects, "warsaw: ", who, " ", idx, ": effect must be 0..",
                           kNumEffects - 1, ", got ", effect);
    if (milestone)
      require<InvalidConfig>(effect == kNoEffect || effect == kPerArea || effect == kAdjacent || effect == kFlat ||
                                 effect == kPerPublic,
                             "warsaw: ", who, " ", idx, ": a milestone effect must be none, per_area, adjacent, flat "
                             "or per_public, got ", effect);
    require<InvalidConfig>(type >= 0 && type < kAreaTypes, "warsaw: ", who, " ", idx,
                           ": effect type must be an area type 0..5, got ", type);
    require<InvalidConfig>(amount >= 0 && amount <= 20, "warsaw: ", who, " ", idx, ": effect amount must be 0..20, got ",
                           amount);
    require<InvalidConfig>(resource == kVP || resource == kCoins, "warsaw: ", who, " ", idx,
                           ": effect resource must be 0 (VP) or 1 (coins), got ", resource);
    require<InvalidConfig>(extra >= 0 && extra <= 3, "warsaw: ", who, " ", idx, ": effect extra must be 0..3, got ",
                           extra);
    if (effect == kExchange)
      require<InvalidConfig>(amount >= 1 && extra >= 1, "warsaw: ", who, " ", idx,
                             ": an exchange needs a rate (amount) >= 1 and a limit (extra) 1..3");
  }

  void validate() const {
    require<InvalidConfig>(players >= 2 && players <= 4, "warsaw: players must be 2, 3 or 4, got ", players);
    require<InvalidConfig>(returns_mode == 0 || returns_mode == 1,
                           "warsaw: returns_mode must be 0 (score) or 1 (win_loss), got ", returns_mode);
    require<InvalidConfig>(vp_floor_zero == 0 || vp_floor_zero == 1, "warsaw: vp_floor_zero must be 0 or 1, got ",
                           vp_floor_zero);
    require<InvalidConfig>(transport_mode == 0 || transport_mode == 1,
                           "warsaw: transport_mode must be 0 (groups) or 1 (cards), got ", transport_mode);
    require<InvalidConfig>(max_stack_height >= 0 && max_stack_height <= 30,
                           "warsaw: max_stack_height must be 0 (unlimited) or 1..30, got ", max_stack_height);
    require<InvalidConfig>(milestone_requires_positive == 0 || milestone_requires_positive == 1,
                           "warsaw: milestone_requires_positive must be 0 or 1, got ", milestone_requires_positive);
    require<InvalidConfig>(num_cards >= 0 && num_cards <= kMaxCards, "warsaw: num_cards must be 0..", kMaxCards,
                           ", got ", num_cards);
    int per_era[kEras + 1] = {};
    int special[kNumEffects] = {};
    for (int c = 0; c < kMaxCards; ++c) {
      if (c >= num_cards) {
        require<InvalidConfig>(card_era[c] == 0, "warsaw: card ", c, " is beyond num_cards and must have era 0");
        continue;
      }
      require<InvalidConfig>(card_era[c] >= 1 && card_era[c] <= kEras, "warsaw: card ", c, ": era must be 1..6, got ",
                             int(card_era[c]));
      ++per_era[card_era[c]];
      require<InvalidConfig>(card_price[c] >= 0 && card_price[c] <= 20, "warsaw: card ", c,
                             ": price must be 0..20, got ", int(card_price[c]));
      const bool whole = card_type[c][0] == kPublic;
      for (int k = 0; k < 4; ++k) {
        const int t = card_type[c][k];
        if (whole) {
          require<InvalidConfig>(t == kPublic && card_value[c][k] == 0, "warsaw: card ", c,
                                 ": a public building fills all four quadrants (type 6) and has no icon values");
        } else {
          require<InvalidConfig>(t >= 0 && t < kAreaTypes, "warsaw: card ", c, " quadrant ", k,
                                 ": type must be an area type 0..5, got ", t);
          require<InvalidConfig>(card_value[c][k] >= 0 && card_value[c][k] <= 9, "warsaw: card ", c, " quadrant ", k,
                                 ": value must be 0..9, got ", int(card_value[c][k]));
          require<InvalidConfig>(card_value[c][k] == 0 || t == kCultural || t == kIndustrial, "warsaw: card ", c,
                                 " quadrant ", k, ": only cultural and industrial quadrants carry values");
        }
      }
      if (whole) {
        check_effect("card", c, card_effect[c], card_effect_type[c], card_effect_amount[c], card_effect_resource[c],
                     card_effect_extra[c], false);
        ++special[card_effect[c]];
      } else {
        require<InvalidConfig>(card_effect[c] == kNoEffect, "warsaw: card ", c,
                               ": only a public building (whole card) has an effect");
      }
    }
    for (int e : {kArsenal, kSigismund, kJablonowski, kPrudential, kExchange})
      require<InvalidConfig>(special[e] <= 1, "warsaw: at most one card may have effect ", e, " (it is a unique "
                             "landmark), found ", special[e]);
    for (int e = 1; e <= kEras; ++e)
      require<InvalidConfig>(per_era[e] >= 4 * players, "warsaw: era ", e, " has ", per_era[e], " cards but ", players,
                             " players need ", 4 * players, " (4 each, WA-DRAFT-1)");
    for (int k = 0; k < 4; ++k) {
      require<InvalidConfig>(start_type[k] >= 0 && start_type[k] < kAreaTypes, "warsaw: start card quadrant ", k,
                             ": type must be 0..5");
      require<InvalidConfig>(start_value[k] >= 0 && start_value[k] <= 9 &&
                                 (start_value[k] == 0 || start_type[k] == kCultural || start_type[k] == kIndustrial),
                             "warsaw: start card quadrant ", k, ": bad value");
    }
    for (int i = 0; i < kMilestones; ++i)
      for (int s = 0; s < 2; ++s) {
        require<InvalidConfig>(mile_condition[i][s] >= 0 && mile_condition[i][s] < kNumConditions, "warsaw: milestone ",
                               i + 1, " side ", s, ": condition must be 0..4, got ", int(mile_condition[i][s]));
        require<InvalidConfig>(mile_condition_type[i][s] >= 0 && mile_condition_type[i][s] < kAreaTypes,
                               "warsaw: milestone ", i + 1, " side ", s, ": condition type must be 0..5");
        check_effect("milestone", i + 1, mile_effect[i][s], mile_effect_type[i][s], mile_effect_amount[i][s],
                     mile_effect_resource[i][s], 0, true);
      }
    for (int n = 0; n < 9; ++n)
      require<InvalidConfig>(park_table[n] >= 0 && park_table[n] <= 200, "warsaw: park_table[", n, "] must be 0..200");
    require<InvalidConfig>(park_extra >= 0 && park_extra <= 50, "warsaw: park_extra must be 0..50");
    derive();
  }

  void derive() const {
    for (int c = 0; c <= kMaxCards; ++c) {
      const int8_t* types = c < kMaxCards ? card_type[c] : start_type;
      const int8_t* values = c < kMaxCards ? card_value[c] : start_value;
      for (int t = 0; t < kAreaTypes; ++t) quad_mask[c][t] = 0;
      cultural_total[c] = industrial_total[c] = 0;
      for (int k = 0; k < 4; ++k) {
        const int t = types[k];
        if (t < 0 || t >= kAreaTypes) continue;
        quad_mask[c][t] = static_cast<uint8_t>(quad_mask[c][t] | (1u << k));
        if (t == kCultural) cultural_total[c] = static_cast<uint8_t>(cultural_total[c] + values[k]);
        if (t == kIndustrial) industrial_total[c] = static_cast<uint8_t>(industrial_total[c] + values[k]);
      }
    }
    for (int c = 0; c <= kMaxCards; ++c) {
      const int8_t* types = c < kMaxCards ? card_type[c] : start_type;
      const int8_t* values = c < kMaxCards ? card_value[c] : start_value;
      auto same = [&](int r) {
        for (int k = 0; k < 4; ++k)
          if (types[k] != types[(k + r) & 3] || values[k] != values[(k + r) & 3]) return false;
        return true;
      };
      rotations[c] = static_cast<uint8_t>(same(1) ? 1 : (same(2) ? 2 : 4));  // a whole card: 1
    }
    for (int e = 0; e <= kEras; ++e) era_size[e] = 0;
    for (int c = 0; c < num_cards; ++c) {
      const int e = card_era[c];
      if (e >= 1 && e <= kEras) era_deck[e][era_size[e]++] = static_cast<uint8_t>(c);
    }
    validated = 1;
  }
};

}  // namespace tilecraft::warsaw
