// Gaudí: scoring (the State is declared in gaudi/state.hpp).
#include "gaudi/detail.hpp"

namespace tilecraft::gaudi {

// ------------------------------------------------------------------ scoring

int State::count_value(int p, int kind, int arg, const int* cat) const {  // GA-DATA-8, GA-AMB-50
  switch (kind) {
    case 0: return cat[arg];
    case 1: {
      int n = 0;
      for (int k = 0; k < 9; ++k) n += cat[k] > 0;
      return n;
    }
    case 2: return chimney_[p][arg];
    case 3: return chimney_[p][0] + chimney_[p][1] + chimney_[p][2];
    case 4: return popcount(cfg_->shape_mask[arg] & board_occ(p));
    case 5: return popcount(colour_[p][arg]);
    case 6: return std::max(std::max(largest_[p][0], largest_[p][1]), std::max(largest_[p][2], largest_[p][3]));
    default: return 0;
  }
}

static int condition_value(const Config& c, int card, int count) {
  const int vp = c.card_rel_vp[card], m = c.card_rel_threshold[card];
  return m == 0 ? vp * count : (count >= m ? vp : 0);
}

int State::religion_value(int p, int card) const {  // GA-AMB-35 for one card: the wild cards where they help most
  int cat[10] = {}, wild = 0;
  for (int d = 0; d < 3; ++d)
    for (int k = 0; k < column_n_[p][d]; ++k) {
      const int g = cfg_->card_category[column_[p][d][k]];
      if (g == 9) ++wild;
      else ++cat[g];
    }
  const int kind = cfg_->card_rel_count[card][0], arg = cfg_->card_rel_count[card][1];
  if (kind == 0) cat[arg] += wild;
  int count = count_value(p, kind, arg, cat);
  if (kind == 1) count = std::min(9, count + wild);
  return condition_value(*cfg_, card, count);
}

int State::group_sizes(int p, int* out) const {
  int n = 0;
  for (int c = 0; c < 4; ++c) {
    uint64_t rest = colour_[p][c];
    while (rest) {
      uint64_t comp = bit(lowest_bit(rest)), frontier = comp;
      while (frontier) {
        const int i = lowest_bit(frontier);
        frontier &= frontier - 1;
        const uint64_t nb = cfg_->board_nbr[i] & colour_[p][c] & ~comp;
        comp |= nb;
        frontier |= nb;
      }
      rest &= ~comp;
      out[n++] = popcount(comp);
    }
  }
  std::sort(out, out + n, [](int a, int b) { return a > b; });
  return n;
}

static void final_of(bool expert, const int* dom, const int* sizes, int ng, int& fin, int& tb) {
  int v[3] = {dom[0], dom[1], dom[2]};
  isort(v, 3);  // ascending
  const int g2 = ng > 1 ? sizes[1] : 0, g3 = ng > 2 ? sizes[2] : 0;  // GA-AMB-36
  if (expert) fin = 2 * v[0] + v[1] + g2 + 2 * g3;  // GA-EXP-10
  else fin = v[0] + v[1] + g2 + g3;                 // GA-SCORE-3..5
  tb = v[2];                                        // GA-END-3, GA-EXP-11
}

// GA-SCORE-1..5, GA-AMB-34/35/36, GA-EXP-10: every end-game choice (the Gaudí's-life category
// multiset, each end_add domain, each end_swap pair or no swap) is made jointly, maximising
// (final score, tie-break), with the effects applied in the GA-AMB-34 order.
int State::end_scoring(int p, int* best_dom, int* best_tb) const {
  int sizes[64];
  const int ng = group_sizes(p, sizes);
  const bool expert = cfg_->mode == 1;
  int cat[10] = {}, wild = 0;
  for (int d = 0; d < 3; ++d)
    for (int k = 0; k < column_n_[p][d]; ++k) {
      const int g = cfg_->card_category[column_[p][d][k]];
      if (g == 9) ++wild;
      else ++cat[g];
    }
  // the reached end effects in GA-AMB-34 order: step 2 (Religion-only), step 3 (the Catalan
  // chimney's 2nd space), step 4 (the others); within a step chimneys N, C, R, bottom to top
  const int8_t* eff[3 * kChimMax];
  int neff = 0;
  for (int step = 2; step <= 4; ++step)
    for (int d = 0; d < 3; ++d) {
      const int t = chimney_tile(p, d), face = cfg_->mode;
      for (int i = 0; i < chimney_[p][d]; ++i) {
        const int8_t* e = cfg_->chim_end[t][face][i];
        if (e[0] < 0) continue;
        const bool cat2 = d == 1 && i == 1;
        const bool rel_only = (e[0] == 0 || e[0] == 1) && e[1] == 2;
        const int st = cat2 ? 3 : (rel_only ? 2 : 4);
        if (st == step) eff[neff++] = e;
      }
    }
  int best_fin = -(1 << 30), btb = -(1 << 30);
  int assign[9] = {};
  int c2[10];
  auto apply_from = [&](auto&& self, int k, int* dom) -> void {
    if (k == neff) {
      int f, t;
      final_of(expert, dom, sizes, ng, f, t);
      if (f > best_fin || (f == best_fin && t > btb)) {
        best_fin = f;
        btb = t;
        for (int d = 0; d < 3; ++d) best_dom[d] = dom[d];
      }
      return;
    }
    const int8_t* e = eff[k];
    int nd[3] = {dom[0], dom[1], dom[2]};
    if (e[0] == 0 || e[0] == 1) {  // end_vp, end_vp_per
      nd[e[1]] += e[0] == 0 ? e[2] : e[2] * count_value(p, e[3], e[4], c2);
      self(self, k + 1, nd);
    } else if (e[0] == 2) {  // end_add: each domain
      for (int d = 0; d < 3; ++d) {
        nd[d] += e[2];
        self(self, k + 1, nd);
        nd[d] -= e[2];
      }
    } else if (e[0] == 3) {  // end_swap: no swap or one of the three pairs
      self(self, k + 1, nd);
      static const int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
      for (const auto& pr : kPairs) {
        std::swap(nd[pr[0]], nd[pr[1]]);
        self(self, k + 1, nd);
        std::swap(nd[pr[0]], nd[pr[1]]);
      }
    } else {
      self(self, k + 1, nd);
    }
  };
  auto evaluate = [&]() {
    for (int k = 0; k < 10; ++k) c2[k] = cat[k] + (k < 9 ? assign[k] : 0);
    int dom[3] = {score_[p][0], score_[p][1], score_[p][2]};
    for (int k = 0; k < column_n_[p][2]; ++k) {  // step 1: the Religion cards
      const int c = column_[p][2][k];
      if (!cfg_->early_religion_rescored && ((early_[c >> 6] >> (c & 63)) & 1u)) continue;
      if (cfg_->card_rel_count[c][0] < 0) continue;
      dom[2] += condition_value(*cfg_, c, count_value(p, cfg_->card_rel_count[c][0], cfg_->card_rel_count[c][1], c2));
    }
    apply_from(apply_from, 0, dom);
  };
  // enumerate the multisets of categories for the wild cards (C(g + 8, 8))
  auto rec = [&](auto&& self, int k, int left) -> void {
    if (k == 8) {
      assign[8] = left;
      evaluate();
      return;
    }
    for (int x = 0; x <= left; ++x) {
      assign[k] = x;
      self(self, k + 1, left - x);
    }
  };
  rec(rec, 0, wild);
  *best_tb = btb;
  return best_fin;
}

void State::finish_game() {
  for (int p = 0; p < players_; ++p) {
    int dom[3], tb;
    final_[p] = static_cast<int16_t>(end_scoring(p, dom, &tb));
    tiebreak_[p] = static_cast<int16_t>(tb);
    for (int d = 0; d < 3; ++d) score_[p][d] = static_cast<int16_t>(dom[d]);
  }
  if (solo()) automa_score_ = static_cast<int16_t>(automa_final());  // GA-SOLO-END-1..4
  phase_ = kTerminal;
}

void State::scores(double* out) const {
  for (int p = 0; p < players_; ++p) {
    if (phase_ == kTerminal) {
      out[p] = final_[p];
      continue;
    }
    int sizes[64];
    const int ng = group_sizes(p, sizes);
    int f, t;
    int dom[3] = {score_[p][0], score_[p][1], score_[p][2]};
    final_of(cfg_->mode == 1, dom, sizes, ng, f, t);
    out[p] = f;
  }
}

uint32_t State::winners() const {  // GA-END-3
  if (phase_ != kTerminal) return 0;
  if (solo()) return final_[0] > automa_score_ ? 1u : 0u;  // GA-SOLO-END-5: a tie goes to the automa
  uint32_t mask = 0;
  int bf = 0, bt = 0;
  for (int p = 0; p < players_; ++p) {
    if (!mask || final_[p] > bf || (final_[p] == bf && tiebreak_[p] > bt)) {
      bf = final_[p];
      bt = tiebreak_[p];
      mask = 1u << p;
    } else if (final_[p] == bf && tiebreak_[p] == bt) {
      mask |= 1u << p;
    }
  }
  return mask;
}

void State::returns(double* out) const {
  for (int p = 0; p < players_; ++p) out[p] = 0.0;
  if (phase_ != kTerminal) return;
  if (solo()) {  // the margin over the automa, or +1 / -1 (GA-AMB-38)
    out[0] = cfg_->returns_mode == 0 ? static_cast<double>(final_[0] - automa_score_) : (final_[0] > automa_score_ ? 1.0 : -1.0);
    return;
  }
  if (cfg_->returns_mode == 0) {
    scores(out);
    return;
  }
  shared_win_returns(winners(), players_, out);
}

double State::heuristic(int player) const {
  // Provisional final score (two lowest domains + tile bonus), plus 0.5 per card in hand,
  // 0.8 per chimney step, and per card in the columns at least a card in hand's 0.5 plus what
  // it will still yield: a Catalan card its banner (VP, 0.5 per other effect) times the expected
  // remaining Catalan resolutions (kCatalanAhead), a Religion card its condition's current value
  // (docs/gaudi.md, "Heuristic").
  constexpr double kHand = 0.5, kCatalanAhead = 1.0;
  // Solo: the same estimate minus the automa's final score if the game ended now (GA-SOLO-END-2..4),
  // so that the value is the expected margin over the automa (what returns() gives).
  double s[kMaxPlayers];
  scores(s);
  if (phase_ == kTerminal)
    return solo() ? static_cast<double>(final_[0] - automa_score_) : s[player] + 0.01 * tiebreak_[player];
  const double against = solo() ? static_cast<double>(automa_final()) : 0.0;
  double cols = kHand * (column_n_[player][0] + column_n_[player][1] + column_n_[player][2]);
  for (int k = 0; k < column_n_[player][1]; ++k) {
    const int c = column_[player][1][k];
    double b = 0.0;
    for (int i = 0; i < kBanner; ++i) {
      const int e = cfg_->card_banner[c][i][0];
      if (e < 0) break;
      b += e >= kEntVpN ? cfg_->card_banner[c][i][1] : 0.5;
    }
    cols += kCatalanAhead * b;
  }
  for (int k = 0; k < column_n_[player][2]; ++k) cols += religion_value(player, column_[player][2][k]);
  return s[player] + kHand * hand_n_[player] + 0.8 * (chimney_[player][0] + chimney_[player][1] + chimney_[player][2]) + cols -
         against;
}

}  // namespace tilecraft::gaudi
