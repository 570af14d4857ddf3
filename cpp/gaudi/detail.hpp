// File-local helpers shared by the Gaudí engine's source files (cpp/gaudi/*.cpp); not installed,
// not included by anything outside cpp/gaudi.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>
#include <utility>

#include "core/bitboard.hpp"
#include "core/outcome.hpp"
#include "gaudi/state.hpp"

namespace tilecraft::gaudi {

inline int sum16(const uint8_t* a) {
  int s = 0;
  for (int t = 0; t < kTypes; ++t) s += a[t];
  return s;
}
template <class T>
inline void isort(T* a, int n) {  // small arrays: insertion sort
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && a[j - 1] > a[j]; --j) std::swap(a[j - 1], a[j]);
}

}  // namespace tilecraft::gaudi
