// Warsaw: areas, income and scores (spec: shared/rules/warsaw.md, WA-AREA-*, WA-SCORE-*): the
// milestone counts, the outcome and the greedy heuristic.
#include "warsaw/detail.hpp"

#include "core/outcome.hpp"

#include <algorithm>
#include <cstring>

namespace tilecraft::warsaw {

using namespace detail;

// ---- milestone counts (WA-MILE-*) ----

int State::milestone_value(int p, int cond, int type) const {
  if (cond == kMostPublic) {
    int n = 0;
    for_each_bit(occupied_[p], [&](int i) {
      const int c = top_[p][i];
      n += c < kMaxCards && cfg_->card_type[c][0] == kPublic;
    });
    return n;
  }
  if (cond == kMostOverbuilt) {
    int n = 0;
    for_each_bit(occupied_[p], [&](int i) { n += height_[p][i] >= 2; });
    return n;
  }
  const Regions r = regions(p);
  if (cond == kMostAreasOf) return r.count(type);
  return r.total_areas();
}

// ---- areas and income (WA-AREA-*, WA-SCORE-*) ----

Regions State::regions(int p) const {
  // Quadrant q of the card at bounding-box cell (cx, cy) is bit 16 cy + 2 cx + {0, 1, 9, 8}[k].
  // kScatter[m] places a 4-bit quadrant mask (NW, NE, SE, SW) at q = 0; rotation r turns the
  // printed mask left by r (printed quadrant j shows at k = j + r).
  static constexpr uint64_t kScatter[16] = {0, 1, 2, 3, 512, 513, 514, 515, 256, 257, 258, 259, 768, 769, 770, 771};
  Regions r;
  for (int t = 0; t < kAreaTypes; ++t) r.type[t] = 0;
  r.n_whole = r.cultural_value = r.industrial_value = r.transport_cards = r.transport_groups = 0;
  uint64_t transport_of[16];  // transport quadrants of each transport card (WA-AMB-6)
  const uint64_t occ = occupied_[p];
  const int x0 = __builtin_ctz(column_bits(occ)), y0 = __builtin_ctz(row_bits(occ));
  uint64_t b = occ;
  while (b) {
    const int i = lowest_bit(b);
    b &= b - 1;
    const int c = top_[p][i], rot = rot_[p][i];
    const int q = 16 * ((i >> 3) - y0) + 2 * ((i & 7) - x0);
    if (c >= kMileBase || (c < kMaxCards && cfg_->card_type[c][0] == kPublic)) {  // WA-AREA-3
      r.whole_bits[r.n_whole] = uint64_t{0x303} << q;
      r.whole_card[r.n_whole++] = static_cast<uint8_t>(c);
      continue;
    }
    const int d = c < kMaxCards ? c : kMaxCards;
    const uint8_t* masks = cfg_->quad_mask[d];
    for (int t = 0; t < kAreaTypes; ++t) {
      const unsigned m = masks[t];
      if (!m) continue;
      const unsigned turned = ((m << rot) | (m >> (4 - rot))) & 15u;
      r.type[t] |= kScatter[turned] << q;
    }
    r.cultural_value += cfg_->cultural_total[d];
    r.industrial_value += cfg_->industrial_total[d];
    if (const unsigned m = masks[kTransport]) {
      const unsigned turned = ((m << rot) | (m >> (4 - rot))) & 15u;
      transport_of[r.transport_cards++] = kScatter[turned] << q;
    }
  }
  // WA-AMB-6: a transport group is a set of CARDS; two cards are linked when a transport quadrant of
  // one shares an edge with a transport quadrant of the other. A card whose own transport quadrants
  // touch only diagonally is still one member. Grow each group by every card its quadrants touch.
  uint32_t left = (1u << r.transport_cards) - 1u;
  while (left) {
    const int first = __builtin_ctz(left);
    left &= left - 1u;
    uint64_t group = transport_of[first];
    for (bool grew = true; grew;) {
      grew = false;
      const uint64_t reach = QuadGrid::dilate(group);
      for (uint32_t b = left; b; b &= b - 1u) {
        const int j = __builtin_ctz(b);
        if (transport_of[j] & reach) {
          group |= transport_of[j];
          left &= ~(1u << j);
          grew = true;
        }
      }
    }
    ++r.transport_groups;
  }
  return r;
}

int State::park_score(int n) const {  // WA-SCORE-1, WA-AMB-8 (n = 0 scores the table's 0)
  return n <= 8 ? cfg_->park_table[n] : cfg_->park_table[8] + cfg_->park_extra * (n - 8);
}

Income State::income(int p) const {
  Income in;
  std::memset(&in, 0, sizeof(in));
  const Regions r = regions(p);
  // Residential areas, each grown by one quadrant: area X touches residential area R iff X meets dilate(R).
  uint64_t res_grown[32];
  int n_res = 0;
  QuadGrid::for_each_component(r.type[kResidential], [&](uint64_t comp) { res_grown[n_res++] = QuadGrid::dilate(comp); });
  auto touching_res = [&](uint64_t area) {
    int n = 0;
    for (int j = 0; j < n_res; ++j) n += (res_grown[j] & area) != 0;
    return n;
  };
  // WA-SCORE-1/2, WA-AMB-8: the best single park
  QuadGrid::for_each_component(r.type[kPark], [&](uint64_t park) {
    in.park_vp = std::max(in.park_vp, park_score(touching_res(park)));
  });
  // WA-SCORE-3
  QuadGrid::for_each_component(r.type[kCommercial], [&](uint64_t com) { in.commercial_coins += touching_res(com); });
  // WA-SCORE-4, WA-AMB-7
  in.cultural_vp = r.cultural_value;
  // WA-SCORE-5: each residential area next to any industry costs 1 VP once
  in.industrial_coins = r.industrial_value;
  in.industrial_penalty = r.type[kIndustrial] ? touching_res(r.type[kIndustrial]) : 0;
  // WA-SCORE-6, WA-AMB-6
  const int groups = r.transport_groups;
  const int threshold = cfg_->transport_mode ? r.transport_cards : groups;
  in.transport_vp = threshold >= 2 ? 2 * groups : 0;
  // WA-SCORE-7, WA-AMB-18: milestones first, then public buildings, each in build order
  int order[16], n = 0;
  for (int k = 0; k < r.n_whole; ++k) order[n++] = k;
  std::sort(order, order + n, [&](int a, int b) {
    const int ca = r.whole_card[a], cb = r.whole_card[b];
    const bool ma = ca >= kMileBase, mb = cb >= kMileBase;
    if (ma != mb) return ma;
    return built_at_[ca] < built_at_[cb];
  });
  int n_public = 0;
  for (int k = 0; k < r.n_whole; ++k) n_public += r.whole_card[k] < kMaxCards;
  for (int j = 0; j < n; ++j) {
    const int k = order[j];
    int type, amount, resource, extra;
    const int e = effect_of(r.whole_card[k], type, amount, resource, extra);
    int gain = 0;
    if (e == kPerArea) {
      gain = amount * r.count(type);
    } else if (e == kAdjacent) {
      const uint64_t ring = QuadGrid::neighbours(r.whole_bits[k]);
      QuadGrid::for_each_component(r.type[type], [&](uint64_t comp) { gain += amount * ((comp & ring) != 0); });
    } else if (e == kFlat) {
      gain = amount;
    } else if (e == kPerPublic) {
      gain = amount * n_public;
    }
    (resource == kCoins ? in.effect_coins : in.effect_vp) += gain;
  }
  return in;
}

// ---- outcome ----

void State::scores(double* out) const {
  for (int p = 0; p < players_; ++p) out[p] = vp_[p];
}

uint32_t State::winners() const {  // WA-END-3
  if (phase_ != kTerminal) return 0;
  uint32_t mask = 0;
  int best_vp = 0, best_coins = 0;
  for (int p = 0; p < players_; ++p) {
    if (!mask || vp_[p] > best_vp || (vp_[p] == best_vp && coins_[p] > best_coins)) {
      best_vp = vp_[p];
      best_coins = coins_[p];
      mask = 1u << p;
    } else if (vp_[p] == best_vp && coins_[p] == best_coins) {
      mask |= 1u << p;
    }
  }
  return mask;
}

void State::returns(double* out) const {
  for (int p = 0; p < players_; ++p) out[p] = 0.0;
  if (phase_ != kTerminal) return;
  if (cfg_->returns_mode == 0) {
    scores(out);
    return;
  }
  shared_win_returns(winners(), players_, out);
}

// ---- greedy heuristic ----

double State::heuristic(int player) const {
  // VP + 0.4 per coin + the district's income now, counted once per remaining income phase; a
  // seat's own hidden choice is evaluated as if it were already resolved (docs/warsaw.md).
  if (phase_ == kTerminal) return vp_[player] + (coins_[player] % 5) * 0.01;
  auto value = [&](const State& s) {
    const Income in = s.income(player);
    const int left = kEras - s.era_ + 1;
    const double per = in.park_vp + in.cultural_vp - in.industrial_penalty + in.transport_vp + in.effect_vp +
                       0.4 * (in.commercial_coins + in.industrial_coins + in.effect_coins);
    return s.vp_[player] + 0.4 * s.coins_[player] + left * per;
  };
  auto resolved = [&](const State& s, int action) {
    State t = s;
    const int c = t.pending_card_[player];
    const Decoded d = decode(action);
    if (d.kind == kActSell) {
      t.coins_[player] = static_cast<int16_t>(t.coins_[player] + (t.visible_effect_card(player, kSigismund) >= 0 ? 5 : 3));
    } else {
      const int cell = d.arg >> 2, r = d.arg & 3;
      const int local = t.local_of(player, cell);
      t.place(player, c, local, r, t.build_cost(player, c, local));
    }
    return value(t);
  };
  const bool chosen = (chosen_ >> player) & 1u;
  if (phase_ == kWar && pending_count_[player] > 0) {  // the seat's hidden removals, as if done
    State t = *this;
    int locals[2];
    for (int k = 0; k < pending_count_[player]; ++k) locals[k] = t.local_of(player, pending_[player][k] - kRemoveBase);
    for (int k = 0; k < pending_count_[player]; ++k) t.remove_position(player, locals[k]);
    t.normalize(player);
    return value(t);
  }
  if (phase_ == kResolve && chosen) return resolved(*this, pending_[player][0]);
  if ((phase_ == kPick && chosen) || phase_ == kResolve) {  // a picked or revealed card: its best use
    State t = *this;
    t.phase_ = kResolve;
    ActionList<kMaxActions> opts;
    t.legal_for(player, opts);
    double best = -1e300;
    for (int32_t a : opts) best = std::max(best, resolved(t, a));
    return best;
  }
  return value(*this);
}

}  // namespace tilecraft::warsaw
