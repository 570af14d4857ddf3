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
