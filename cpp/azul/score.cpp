// Azul: scores (rule IDs refer to shared/rules/azul.md): the points of a wall tile, the end
// bonuses, the outcome and the greedy heuristic.
#include "azul/detail.hpp"

#include "core/outcome.hpp"

namespace tilecraft::azul {

// ---- points ----

int State::placement_points(uint32_t wall, int i) {
  const int h = WallGrid::run_horizontal(wall, i);
  const int v = WallGrid::run_vertical(wall, i);
  if (h == 1 && v == 1) return 1;              // AZ-SCORE-1
  return (h > 1 ? h : 0) + (v > 1 ? v : 0);   // AZ-SCORE-2..5
}

int State::bonus(uint32_t wall) {
  int b = 0;
  for (int r = 0; r < 5; ++r)
    if ((wall & WallGrid::row_mask(r)) == WallGrid::row_mask(r)) b += 2;
  for (int c = 0; c < 5; ++c)
    if ((wall & WallGrid::column_mask(c)) == WallGrid::column_mask(c)) b += 7;
  for (int c = 0; c < kColours; ++c)
    if ((wall & colour_mask(c)) == colour_mask(c)) b += 10;
  return b;
}

// ---- outcome ----

void State::scores(double* out) const {
  for (int p = 0; p < cfg_.players; ++p) out[p] = score_[p];
}

uint32_t State::winners() const {
  if (phase_ != kTerminal) return 0;
  int best_score = -1, best_rows = -1;
  uint32_t mask = 0;
  for (int p = 0; p < cfg_.players; ++p) {  // AZ-END-3, AZ-END-4
    const int s = score_[p], r = complete_rows(p);
    if (s > best_score || (s == best_score && r > best_rows)) {
      best_score = s;
      best_rows = r;
      mask = 1u << p;
    } else if (s == best_score && r == best_rows) {
      mask |= 1u << p;
    }
  }
  return mask;
}

void State::returns(double* out) const {
  const int n = cfg_.players;
  for (int p = 0; p < n; ++p) out[p] = 0.0;
  if (phase_ != kTerminal) return;
  if (cfg_.returns_mode == 0) {
    scores(out);
    return;
  }
  shared_win_returns(winners(), n, out);  // AZ-AMB-14
}

double State::heuristic(int player) const {
  // The seat's score if wall-tiling and floor penalties happened now, plus the end bonuses the
  // wall would then earn (docs/azul.md, "Greedy bot").
  uint32_t wall = wall_[player];
  int score = score_[player];
  if (phase_ != kTerminal) {
    for (int k = 0; k < kLines; ++k) {
      if (line_count_[player][k] == k + 1) {
        const int b = wall_bit(k, line_colour_[player][k]);
        wall |= uint32_t{1} << b;
        score += placement_points(wall, b);
      }
    }
    score -= kPenaltyPrefix[floor_count_[player]];
    if (score < 0) score = 0;
    score += bonus(wall);
  }
  return score;
}

}  // namespace tilecraft::azul
