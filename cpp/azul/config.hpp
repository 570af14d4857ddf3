// Azul rule options. Every option, its type and default:
//   players        int  2      2, 3 or 4 (AZ-SCOPE-3); selects 5/7/9 factories (AZ-SETUP-1)
//   first_player   int  0      seat of round 1's first player, or -1 for a chance node (AZ-AMB-5)
//   explicit_chance int 0      0: draws are sampled inside apply(); 1: the state stops at chance nodes
//   returns_mode   int  0      0: "score" (returns = final scores), 1: "win_loss" (1/k per co-winner) (AZ-AMB-14)
//   max_rounds     int  100    engine safety cap on rounds (AZ-AMB-16); not a rule of Azul
#pragma once
#include <cstdint>

#include "core/errors.hpp"

namespace tilecraft::azul {

struct Config {
  int32_t players = 2;
  int32_t first_player = 0;
  int32_t explicit_chance = 0;
  int32_t returns_mode = 0;
  int32_t max_rounds = 100;

  template <class V>
  void visit(V& v) {
    v.field("players", players);
    v.field("first_player", first_player);
    v.field("explicit_chance", explicit_chance);
    v.field("returns_mode", returns_mode);
    v.field("max_rounds", max_rounds);
  }

  void validate() const {
    require<InvalidConfig>(players >= 2 && players <= 4, "azul: players must be 2, 3 or 4, got ", players);
    require<InvalidConfig>(first_player >= -1 && first_player < players, "azul: first_player must be -1 (random) or a seat 0..",
                           players - 1, ", got ", first_player);
    require<InvalidConfig>(explicit_chance == 0 || explicit_chance == 1,
                           "azul: explicit_chance must be 0 (sampled) or 1 (explicit), got ", explicit_chance);
    require<InvalidConfig>(returns_mode == 0 || returns_mode == 1,
                           "azul: returns_mode must be 0 (score) or 1 (win_loss), got ", returns_mode);
    require<InvalidConfig>(max_rounds >= 1 && max_rounds <= 10000, "azul: max_rounds must be in 1..10000, got ", max_rounds);
  }

  int factories() const { return 2 * players + 1; }
};

}  // namespace tilecraft::azul
