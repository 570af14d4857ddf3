// Warsaw: helpers shared by the parts of the State (flow.cpp, legal.cpp, apply.cpp, score.cpp,
// observe.cpp, validate.cpp). Private to cpp/warsaw: state.hpp does not include it.
#pragma once
#include <cstdint>

#include "warsaw/state.hpp"

namespace tilecraft::warsaw::detail {

inline int cell_x(int cell) { return cell % kFrameW - kFrameR; }
inline int cell_y(int cell) { return cell / kFrameW - kFrameR; }

// Column and row occupancy of an 8x8 board as 8-bit masks.
inline unsigned column_bits(uint64_t b) {
  b |= b >> 32;
  b |= b >> 16;
  b |= b >> 8;
  return static_cast<unsigned>(b & 0xFF);
}
inline unsigned row_bits(uint64_t b) {
  // one bit per non-empty byte: fold each byte onto its lowest bit, then gather those bits
  b |= b >> 4;
  b |= b >> 2;
  b |= b >> 1;
  b &= 0x0101010101010101ULL;
  return static_cast<unsigned>((b * 0x0102040810204080ULL) >> 56);
}
inline int span(unsigned m) { return m ? 32 - __builtin_clz(m) - __builtin_ctz(m) : 0; }

inline void set_seen(uint64_t* s, int c) { s[c >> 6] |= uint64_t{1} << (c & 63); }
inline bool test_seen(const uint64_t* s, int c) { return (s[c >> 6] >> (c & 63)) & 1u; }

}  // namespace tilecraft::warsaw::detail

namespace tilecraft::warsaw {

// Small State members on the hot paths of several parts, inline in each (declared inline in
// state.hpp; a part that uses one includes this header).

inline int State::local_of(int p, int cell) const {
  if (cell < 0 || cell >= kCells) return -1;
  const int lx = detail::cell_x(cell) - anchor_x_[p], ly = detail::cell_y(cell) - anchor_y_[p];
  if (lx < 0 || lx > 7 || ly < 0 || ly > 7) return -1;
  return ly * 8 + lx;
}

inline int State::build_cost(int p, int card, int local) const {
  const int price = price_of(card);
  if (!((occupied_[p] >> local) & 1u)) return price;
  const int covered = price_of(top_[p][local]);  // WA-BUILD-3, WA-AMB-11
  return price > covered ? price - covered : 0;
}

inline void State::add_vp(int p, int d) {
  int v = vp_[p] + d;
  if (cfg_->vp_floor_zero && v < 0) v = 0;  // WA-AMB-10
  vp_[p] = static_cast<int16_t>(v);
}

}  // namespace tilecraft::warsaw
