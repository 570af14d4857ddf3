// Carcassonne: The Castle: scores (rule IDs refer to shared/rules/castle.md): an area's value, the
// game-end scoring, the outcome and the greedy heuristic.
#include "castle/detail.hpp"

#include <algorithm>

namespace tilecraft::castle {

// ---------------------------------------------------------------- scoring

int State::points_of(const Area& a) const {
  switch (a.type) {
    case kRoad: return a.tiles() * (a.well ? 2 : 1);  // CA-ROAD-4/5/6
    case kTower: return 2 * a.tiles();                // CA-TOWER-2/3
    case kHouse: return a.tiles();                    // CA-HOUSE-2/3
    default: return 3 * a.stalls;                     // CA-COURT-4
  }
}

int State::largest_empty_area() const {
  // CA-END-3: bitboard flood fill over the empty interior
  Board empty = cfg_->interior_mask & ~occ_;
  int best = 0;
  while (empty.any()) {
    Board region = Board::single(empty.lowest()), prev = Board::zero();
    while (region != prev) {
      prev = region;
      region = cfg_->dilate(region) & empty;
    }
    best = std::max(best, region.count());
    empty &= ~region;
  }
  return best;
}

void State::end_game() {
  const Config& c = *cfg_;
  corner_stocked_ = 0;  // CA-END-2 step 1
  extra_turns_ = 0;
  tile_ = alt_tile_ = last_cell_ = kNone8;
  num_pending_ = 0;
  // Game-end wall tiles: every tile a player holds, usable or fresh (docs/castle.md)
  int have[2][kKinds];
  for (int p = 0; p < 2; ++p)
    for (int k = 0; k < kKinds; ++k) have[p][k] = held_[p][k] + fresh_[p][k];
  auto add = [&](int p, int cat, int pts) {
    score_[p] = static_cast<int16_t>(score_[p] + pts);
    cat_[p][cat] = static_cast<int16_t>(cat_[p][cat] + pts);
  };
  // Step 2: courts (CA-COURT-3..6, CA-BONUS-7, CA-AMB-10). Best = the winner's courts by stalls.
  int court_stalls[2][kMaxNodes / 2];
  int nc[2] = {0, 0};
  // Step 3 candidates: incomplete roads/towers/houses won by each player (CA-BONUS-4..6, CA-AMB-9)
  int inc[2][3][kMaxNodes / 2];
  int ni[2][3] = {{0, 0, 0}, {0, 0, 0}};
  for (int node = 0; node < num_nodes_; ++node) {
    if (parent_[node] != node) continue;
    const Area& a = area_[node];
    const int w = majority(a);
    if (w < 0) continue;
    if (a.type == kCourt) {
      add(w, kCatCourt, 3 * a.stalls);
      court_stalls[w][nc[w]++] = a.stalls;
    } else if (a.open) {
      inc[w][a.type][ni[w][a.type]++] = points_of(a);
    }
  }
  for (int p = 0; p < 2; ++p) {
    std::sort(court_stalls[p], court_stalls[p] + nc[p], [](int x, int y) { return x > y; });
    const int n7 = c.bonus7_scope ? (have[p][6] ? nc[p] : 0) : std::min(have[p][6], nc[p]);
    for (int i = 0; i < n7; ++i) add(p, kCatCourt, court_stalls[p][i]);  // 4 instead of 3 per stall
    for (int ty = 0; ty < 3; ++ty) {
      std::sort(inc[p][ty], inc[p][ty] + ni[p][ty], [](int x, int y) { return x > y; });
      const int n = std::min(have[p][3 + ty], ni[p][ty]);
      for (int i = 0; i < n; ++i) add(p, kCatIncomplete, inc[p][ty][i]);
    }
    add(p, kCatTile9, 5 * have[p][8]);  // CA-BONUS-9
  }
  // Step 5: the largest keep (CA-END-3, CA-BONUS-8, CA-AMB-11, CA-AMB-12)
  int size[2];
  for (int p = 0; p < 2; ++p) size[p] = keep_size_[p] ? keep_size_[p] + 2 * have[p][7] : 0;
  empty_area_ = static_cast<uint8_t>(largest_empty_area());
  if (size[0] != size[1]) add(size[0] > size[1] ? 0 : 1, kCatKeep, empty_area_);
  phase_ = kTerminal;
}

// ---------------------------------------------------------------- outcome

void State::returns(double* out) const {
  out[0] = out[1] = 0;
  if (phase_ != kTerminal) return;
  if (cfg_->returns_mode == 0) {
    out[0] = score_[0];
    out[1] = score_[1];
    return;
  }
  const int diff = score_[0] - score_[1];  // CA-AMB-12, CA-AMB-29
  out[0] = diff > 0 ? 1 : (diff < 0 ? -1 : 0);
  out[1] = -out[0];
}

uint32_t State::winners() const {
  if (phase_ != kTerminal) return 0;
  if (score_[0] == score_[1]) return 3u;  // CA-END-4, CA-AMB-12: a shared victory
  return score_[0] > score_[1] ? 1u : 2u;
}

double State::heuristic(int player) const {
  // Score difference, plus half the value of the incomplete areas the player leads
  double v = score_[player] - score_[1 - player];
  for (int node = 0; node < num_nodes_; ++node) {
    if (parent_[node] != node) continue;
    const Area& a = area_[node];
    const int w = majority(a);
    if (w < 0 || (a.open == 0 && a.type != kCourt)) continue;
    v += (w == player ? 0.5 : -0.5) * points_of(a);
  }
  return v;
}

}  // namespace tilecraft::castle
