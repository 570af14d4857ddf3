// Gaudí: the solo automa and the solo virtual marker (the State is declared in gaudi/state.hpp).
#include "gaudi/detail.hpp"

namespace tilecraft::gaudi {

// ---- the solo automa (GA-AUTO-*, GA-AMB-19..22) and the solo virtual marker (GA-AMB-18)

bool State::automa_passes(int t, bool leading) const {  // GA-AMB-19
  int act, pe, ha;
  space_data(t, act, pe, ha);
  const int k = leading ? pe + ha : std::max(pe, ha);
  if (act <= kEntTileAny) {
    int n = 0;
    for (int a = 0; a < kAreas; ++a)
      for (int x = 0; x < kTypes; ++x)
        if (tile_ok(act, x)) n += area_[a][x];
    return n >= k;
  }
  if (act >= kEntCardN && act < kEntCardAny) return window_n_[act - kEntCardN] >= k;
  if (act == kEntCardAny || act == kEntPlay || act == kEntGeneric) return window_n_[0] + window_n_[1] + window_n_[2] >= k;
  return false;  // a chimney space: the automa cannot carry it out (engine decision, docs/gaudi.md)
}

void State::scripted_tile(int filter, bool virt) {  // GA-AUTO-TILE-1..3, GA-AMB-20
  const uint8_t* held = virt ? virtual_tiles_ : automa_tiles_;
  int best_a = -1, best_t = -1;
  for (int a = 0; a < kAreas; ++a)
    for (int t = 0; t < kTypes; ++t)
      if (area_[a][t] && tile_ok(filter, t) &&
          (best_a < 0 || held[t] < held[best_t] ||
           (held[t] == held[best_t] && (a < best_a || (a == best_a && t < best_t)))))
        best_a = a, best_t = t;
  if (best_a < 0) return;
  --area_[best_a][best_t];  // no bonus (GA-SOLO-6)
  if (virt) ++virtual_tiles_[best_t];
  else ++automa_tiles_[best_t];
}

void State::scripted_card(int dmask, bool virt) {  // GA-AUTO-CARD-1/2, GA-AMB-21/22
  int cnt[3] = {automa_column_n_[0], automa_column_n_[1], automa_column_n_[2]};
  if (virt) {
    cnt[0] = cnt[1] = cnt[2] = 0;
    for (int c = 0; c < kCards; ++c)
      if (card_loc_[c] == kLocRemoved) ++cnt[cfg_->card_domain[c]];
  }
  int d = -1;
  for (int x = 0; x < 3; ++x)
    if (((dmask >> x) & 1) && window_n_[x] > 0 && (d < 0 || cnt[x] < cnt[d])) d = x;
  if (d < 0) return;
  const int c = window_[d][--window_n_[d]];  // the bottom-most card: the last revealed
  window_[d][window_n_[d]] = kNoCard;
  if (virt) {
    card_loc_[c] = kLocRemoved;
    card_owner_[c] = 0;
  } else {
    automa_column_[d][automa_column_n_[d]++] = static_cast<uint8_t>(c);
    card_loc_[c] = kLocAutoma;
    card_owner_[c] = static_cast<uint8_t>(d);
  }
}

void State::scripted_action(int act, int k, bool virt) {  // GA-AUTO-2: play and generic = a card of any domain
  for (int i = 0; i < k; ++i) {
    if (act <= kEntTileAny) scripted_tile(act, virt);
    else if (act >= kEntCardN && act < kEntCardAny) scripted_card(1 << (act - kEntCardN), virt);
    else if (act == kEntCardAny || act == kEntPlay || act == kEntGeneric) scripted_card(7, virt);
  }
}

void State::automa_turn() {  // GA-AUTO-MOVE-1/2, GA-AMB-19
  const int n = cfg_->track_n[face()];
  const int me = position_[kAutoma];
  const bool on = me >= 0 && me < kTMax;
  if (on) track_occ_ &= ~bit(me);
  const bool block = cfg_->finished_markers_block_leader && anyone_finished_;
  int others = -1, next = -1;
  bool last = on;
  for (int m = 0; m < 5; ++m) {
    if (m == kAutoma || !marker_used(m) || position_[m] < 0 || position_[m] >= kTMax) continue;
    others = std::max<int>(others, position_[m]);
    if (on && position_[m] < me) last = false;
    if (on && position_[m] > me && (next < 0 || position_[m] < next)) next = position_[m];
  }
  const bool special = on && !block && last && next >= 0 && next - me - 1 >= 3;  // GA-AUTO-MOVE-2
  const int lo = on ? me + 1 : entry_of(kAutoma);
  int target = -1;
  for (int t = lo; t < n && target < 0; ++t) {
    if ((track_occ_ >> t) & 1u) continue;
    const bool leading = t > others && !block;
    if (special && !leading) continue;
    if (automa_passes(t, leading)) target = t;
  }
  if (target < 0) {  // the central area always passes (GA-AMB-19); GA-AUTO-3: one card of any domain
    position_[kAutoma] = kGone;
    if (!anyone_finished_) marker_holder_ = kAutoma;  // GA-CHAN-5
    anyone_finished_ = 1;
    scripted_card(7, false);
    return;
  }
  int act, pe, ha;
  space_data(target, act, pe, ha);
  const bool leading = target > others && !block;
  scripted_action(act, leading ? pe + ha : std::max(pe, ha), false);
  if (anyone_finished_ && cfg_->track_red[face()][target]) {  // GA-FIN-2 applies to the automa
    position_[kAutoma] = kGone;
    return;
  }
  position_[kAutoma] = static_cast<int8_t>(target);
  track_occ_ |= bit(target);
}

int State::automa_final() const {  // GA-SOLO-END-2..4, GA-AMB-24/45
  static const int kRemove[4] = {3, 2, 1, 0};
  const int r = kRemove[cfg_->difficulty & 3];
  int vp = 0;
  for (int d = 0; d < 3; ++d)
    for (int k = r; k < automa_column_n_[d]; ++k) vp += cfg_->card_automa_vp[automa_column_[d][k]];
  const int base = vp * (cfg_->difficulty == 3 ? 4 : 3);
  int col[4] = {};
  for (int t = 0; t < kTypes; ++t) col[t >> 2] += automa_tiles_[t];
  std::sort(col, col + 4, [](int a, int b) { return a > b; });
  return base + col[1] + 2 * col[2];
}

}  // namespace tilecraft::gaudi
