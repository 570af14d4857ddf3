// Fixed-capacity list of action ids: written by legal-move generation without allocation.
#pragma once
#include <cassert>
#include <cstdint>
#include <cstring>

namespace tilecraft {

template <int Capacity>
struct ActionList {
  static constexpr int kCapacity = Capacity;
  int32_t size = 0;
  int32_t items[Capacity];

  void clear() { size = 0; }
  void push(int32_t a) {
    assert(size < Capacity);
    items[size++] = a;
  }
  // Append n consecutive values a0 + offsets[i] (a block written from a lookup table).
  void push_block(int32_t base, const uint8_t* offsets, int n) {
    assert(size + n <= Capacity);
    for (int i = 0; i < n; ++i) items[size + i] = base + offsets[i];
    size += n;
  }
  bool empty() const { return size == 0; }
  int32_t operator[](int i) const { return items[i]; }
  const int32_t* begin() const { return items; }
  const int32_t* end() const { return items + size; }
};

// A chance outcome with its probability.
struct ChanceOutcome {
  int32_t outcome;
  double probability;
};

template <int Capacity>
struct ChanceList {
  int32_t size = 0;
  ChanceOutcome items[Capacity];
  void clear() { size = 0; }
  void push(int32_t o, double p) {
    assert(size < Capacity);
    items[size++] = ChanceOutcome{o, p};
  }
  const ChanceOutcome* begin() const { return items; }
  const ChanceOutcome* end() const { return items + size; }
};

}  // namespace tilecraft
