// Gaudí config validation: every index the engine reads is range-checked here, so a State can
// trust its Config (the loader in Python gives friendlier, file-level messages first).
#include "gaudi/config.hpp"

#include "core/bitboard.hpp"

namespace tilecraft::gaudi {

namespace {
void check_effect(const char* where, int i, int entry, int amount) {
  if (entry == -1) return;
  require<InvalidConfig>(entry >= 0 && entry < kEntUsed, "gaudi: ", where, " ", i, ": effect entry must be 0..39 or -1, got ", entry);
  if (entry >= kEntVpN)
    require<InvalidConfig>(amount >= 1 && amount <= 20, "gaudi: ", where, " ", i, ": vp amount must be 1..20, got ", amount);
  else if (entry == kEntCatalan)
    require<InvalidConfig>(amount >= 1 && amount <= 3, "gaudi: ", where, " ", i, ": resolve_catalan times must be 1..3, got ", amount);
  else
    require<InvalidConfig>(amount == 1, "gaudi: ", where, " ", i, ": effect amount must be 1, got ", amount);
}
template <int N>
void check_list(const char* where, int i, const int8_t (&l)[N][2]) {
  int cat = 0;
  bool ended = false;
  for (int k = 0; k < N; ++k) {
    check_effect(where, i, l[k][0], l[k][1]);
    if (l[k][0] == -1) ended = true;
    else require<InvalidConfig>(!ended, "gaudi: ", where, " ", i, ": effects must be packed before the -1 padding");
    cat += l[k][0] == kEntCatalan;
  }
  require<InvalidConfig>(cat <= 1, "gaudi: ", where, " ", i, ": at most one resolve_catalan per list (GA-DATA-7)");
}
void check_count(const char* where, int i, int kind, int arg) {
  require<InvalidConfig>(kind >= 0 && kind <= 6, "gaudi: ", where, " ", i, ": count kind must be 0..6, got ", kind);
  const int hi[7] = {8, 0, 2, 0, 3, 3, 0};
  require<InvalidConfig>(arg >= 0 && arg <= hi[kind], "gaudi: ", where, " ", i, ": count argument out of range: ", arg);
}
}  // namespace

void Config::validate() const {
  require<InvalidConfig>(players >= 1 && players <= 4, "gaudi: players must be 1 (solo), 2, 3 or 4, got ", players);
  require<InvalidConfig>(mode == 0 || mode == 1, "gaudi: mode must be 0 (basic) or 1 (expert), got ", mode);
  require<InvalidConfig>(solo == (players == 1 ? 1 : 0), "gaudi: solo must be 1 exactly when players is 1, got solo ", solo);
  require<InvalidConfig>(players != 1 || mode == 1, "gaudi: solo play uses expert mode (mode 1) (GA-SCOPE-3)");
  require<InvalidConfig>(difficulty >= 0 && difficulty <= 3 && (players == 1 || difficulty == 0),
                         "gaudi: difficulty must be 0..3 (easy, normal, hard, crazy) in solo play and 0 otherwise, got ", difficulty);
  require<InvalidConfig>(players != 1 || first_player == 0, "gaudi: in solo play the solo player starts round 1 (first_player 0) (GA-SOLO-5)");
  require<InvalidConfig>(explicit_chance == 0 || explicit_chance == 1, "gaudi: explicit_chance must be 0 or 1");
  require<InvalidConfig>(first_player >= -1 && first_player < players, "gaudi: first_player must be -1..", players - 1,
                         ", got ", first_player);
  for (int x : {returns_mode, generic_distinct, early_religion_rescored, finished_markers_block_leader})
    require<InvalidConfig>(x == 0 || x == 1, "gaudi: returns_mode and the boolean options must be 0 or 1");
  require<InvalidConfig>(board_n >= 1 && board_n <= kBMax, "gaudi: board_n must be 1..64, got ", board_n);
  const uint64_t all = board_n == 64 ? ~uint64_t{0} : (uint64_t{1} << board_n) - 1;
  for (int s = 0; s < 4; ++s) shape_mask[s] = 0;
  for (int b = 0; b < kBMax; ++b) {
    if (b >= board_n) {
      require<InvalidConfig>(board_nbr[b] == 0 && board_shape[b] == 0, "gaudi: board space ", b, " is beyond board_n");
      continue;
    }
    require<InvalidConfig>(board_shape[b] >= 0 && board_shape[b] < 4, "gaudi: board space ", b, ": shape must be 0..3");
    shape_mask[board_shape[b]] |= uint64_t{1} << b;
    require<InvalidConfig>((board_nbr[b] & ~all) == 0 && !((board_nbr[b] >> b) & 1u), "gaudi: board space ", b,
                           ": neighbours out of range or itself");
    for (int c = 0; c < board_n; ++c)
      if ((board_nbr[b] >> c) & 1u)
        require<InvalidConfig>((board_nbr[c] >> b) & 1u, "gaudi: board adjacency ", b, "-", c, " is not symmetric");
  }
  board_all = all;
  check_list("nature_reward", 0, nature_reward);
  check_list("catalan_reward", 0, catalan_reward);
  for (int f = 0; f < 2; ++f) {
    const int n = track_n[f];
    require<InvalidConfig>(n >= (f == 0 ? 4 : 0) && n <= kTMax, "gaudi: track face ", f, ": 4..48 spaces needed, got ", n);
    for (int t = 0; t < kTMax; ++t) {
      const int a = track_action[f][t], pe = track_pencils[f][t], ha = track_hammers[f][t];
      if (t >= n) {
        require<InvalidConfig>(a == 0 && pe == 0 && ha == 0 && track_red[f][t] == 0, "gaudi: track space ", t, " beyond track_n");
        continue;
      }
      require<InvalidConfig>(a <= kEntCardAny || a == kEntPlay || a == kEntGeneric || a == kEntAdvance,
                             "gaudi: track space ", t, ": action entry must be a tile (0..24), card (25..28), play (29), "
                             "generic (34) or chimney (35), got ", a);
      require<InvalidConfig>(a >= 0 && pe >= 0 && pe <= 3 && ha >= 0 && ha <= 3 && pe + ha >= 1, "gaudi: track space ", t,
                             ": pencils and hammers must be 0..3 with at least one icon");
      require<InvalidConfig>(a != kEntGeneric || pe + ha <= 2, "gaudi: track space ", t, ": a generic space has at most 2 icons (GA-AMB-13)");
      require<InvalidConfig>(track_red[f][t] == 0 || track_red[f][t] == 1, "gaudi: track space ", t, ": red must be 0 or 1");
    }
    if (n > 0)
      for (int i = 0; i < 4; ++i) {
        require<InvalidConfig>(track_entry[f][i] >= 0 && track_entry[f][i] < n, "gaudi: track face ", f, ": entry ", i, " out of range");
        for (int j = 0; j < i; ++j)
          require<InvalidConfig>(track_entry[f][i] != track_entry[f][j], "gaudi: track face ", f, ": entry spaces must be distinct");
      }
    for (int a = 0; a < kAreas; ++a) check_effect("area_bonus", a, area_bonus[f][a][0], area_bonus[f][a][1]);
    for (int w = 0; w < 3; ++w) check_effect("window_bonus", w, window_bonus[f][w][0], window_bonus[f][w][1]);
  }
  int per_domain[3] = {};
  for (int c = 0; c < kCards; ++c) {
    require<InvalidConfig>(card_domain[c] >= 0 && card_domain[c] < 3, "gaudi: card ", c, ": domain must be 0..2");
    ++per_domain[card_domain[c]];
    require<InvalidConfig>(card_category[c] >= 0 && card_category[c] <= 9, "gaudi: card ", c, ": category must be 0..9");
    require<InvalidConfig>(card_req_colour[c] >= 0 && card_req_colour[c] <= 4, "gaudi: card ", c, ": requirement colour must be 0..4");
    require<InvalidConfig>(card_req_n[c] >= 1 && card_req_n[c] <= 4, "gaudi: card ", c, ": requirement n must be 1..4");
    check_list("card", c, card_banner[c]);
    const bool rel = card_domain[c] == 2;
    if (rel) {
      check_count("card", c, card_rel_count[c][0], card_rel_count[c][1]);
      require<InvalidConfig>(card_rel_vp[c] >= 0 && card_rel_vp[c] <= 20 && card_rel_threshold[c] >= 0 &&
                                 card_rel_threshold[c] <= 64,
                             "gaudi: card ", c, ": religion vp 0..20 and threshold 0..64");
    } else {
      require<InvalidConfig>(card_rel_count[c][0] == -1, "gaudi: card ", c, ": only religion cards have a condition");
    }
    require<InvalidConfig>(card_automa_vp[c] >= 0 && card_automa_vp[c] <= 20, "gaudi: card ", c, ": automa_vp 0..20");
  }
  for (int d = 0; d < 3; ++d) require<InvalidConfig>(per_domain[d] == 33, "gaudi: domain ", d, " has ", per_domain[d], " cards, 33 needed");
  int per_chim[3] = {};
  for (int k = 0; k < kChimneys; ++k) {
    require<InvalidConfig>(chim_domain[k] >= 0 && chim_domain[k] < 3, "gaudi: chimney ", k, ": domain must be 0..2");
    if (per_chim[chim_domain[k]]++ == 0) day_chimney[chim_domain[k]] = static_cast<int8_t>(k);
    for (int f = 0; f < 2; ++f) {
      const int n = chim_n[k][f];
      require<InvalidConfig>(n >= (f == 0 ? 2 : 0) && n <= kChimMax, "gaudi: chimney ", k, " face ", f, ": 2..6 spaces");
      for (int i = 0; i < n; ++i) {
        const int s = chim_req_shape[k][f][i], r = chim_req_n[k][f][i];
        require<InvalidConfig>(s >= 0 && s < 4 && r >= 1 && r <= popcount(shape_mask[s]), "gaudi: chimney ", k, " face ", f,
                               " space ", i, ": requirement shape 0..3 and 1 <= n <= spaces of that shape");
        check_list("chimney reward", k, chim_reward[k][f][i]);
        const int8_t* e = chim_end[k][f][i];
        if (e[0] != -1) {
          require<InvalidConfig>(e[0] >= 0 && e[0] <= 3 && e[1] >= 0 && e[1] < 3 && e[2] >= 0 && e[2] <= 20,
                                 "gaudi: chimney ", k, " space ", i, ": bad end effect");
          if (e[0] == 1) check_count("chimney end effect", k, e[3], e[4]);
        }
      }
    }
  }
  for (int d = 0; d < 3; ++d) require<InvalidConfig>(per_chim[d] == 4, "gaudi: 4 chimney tiles per domain needed");
  if (mode == 1) {  // expert: the night faces are used
    require<InvalidConfig>(track_n[1] >= 4, "gaudi: expert mode needs a night track face of 4..48 spaces, got ", track_n[1]);
    for (int k = 0; k < kChimneys; ++k)
      require<InvalidConfig>(chim_n[k][1] >= 2, "gaudi: expert mode needs night chimney faces of 2..6 spaces (tile ", k, ")");
  }
  for (int k = 0; k < kChimneys; ++k)
    for (int f = 0; f < 2; ++f)
      for (int i = 0; i < kChimMax; ++i) {
        const int8_t* t = chim_ability_trigger[k][f][i];
        if (t[0] == -1) continue;
        require<InvalidConfig>(f == 1 && i < chim_n[k][f] && ((t[0] == 0 && t[1] >= 0 && t[1] <= 8) || (t[0] == 1 && t[1] >= 0 && t[1] < 3)),
                               "gaudi: chimney ", k, " space ", i, ": an ability (night faces only) triggers on a category 0..8 or a domain 0..2");
        check_list("chimney ability", k, chim_ability_effects[k][f][i]);
      }
  for (int t = 0; t < kChandeliers; ++t) {
    int cat = 0;
    for (int o = 0; o < 2; ++o) {
      check_list("chandelier", t, chandelier[t][o]);
      for (int k = 0; k < kCentralEff; ++k) cat += chandelier[t][o][k][0] == kEntCatalan;
    }
    require<InvalidConfig>(cat >= 1, "gaudi: chandelier ", t, ": one option must resolve the Catalan column (GA-DATA-7)");
  }
  for (int f = 0; f < 2; ++f)
    for (int i = 0; i < 8; ++i) {
      const int8_t* e = i < 5 ? area_bonus[f][i] : window_bonus[f][i - 5];
      bonus_kind[f][i] = static_cast<int8_t>(i);
      for (int j = 0; j < i; ++j) {
        const int8_t* o = j < 5 ? area_bonus[f][j] : window_bonus[f][j - 5];
        if (o[0] == e[0] && o[1] == e[1]) {
          bonus_kind[f][i] = bonus_kind[f][j];
          break;
        }
      }
    }
  validated = 1;
}

}  // namespace tilecraft::gaudi
