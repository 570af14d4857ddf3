// Outcome helpers shared by the games.
#pragma once
#include <cstdint>

#include "core/bitboard.hpp"

namespace tilecraft {

// "win_loss" returns: 1/k for each of k co-winners (bit per seat in `winners`), 0 for the others.
inline void shared_win_returns(uint32_t winners, int players, double* out) {
  const int k = popcount(winners);
  for (int p = 0; p < players; ++p) out[p] = (k && (winners >> p & 1u)) ? 1.0 / k : 0.0;
}

}  // namespace tilecraft
