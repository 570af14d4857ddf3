// Bitboard helpers shared by the games.
//  - bit iteration and counting on uint64_t;
//  - Grid<W, H>: a W x H board (W * H <= 64) stored row-major in one word, bit = row * W + col,
//    with shift-and-mask neighbourhoods, dilation and flood fill (no recursion over cells);
//  - Bits<N>: an N-word bitboard for boards larger than 64 cells, with the same operations on a
//    row-major layout of width W (see WideGrid).
#pragma once
#include <cstdint>

namespace tilecraft {

inline int popcount(uint64_t b) { return __builtin_popcountll(b); }
inline int lowest_bit(uint64_t b) { return __builtin_ctzll(b); }  // b != 0
inline uint64_t pop_lowest(uint64_t& b) {
  const uint64_t low = b & (~b + 1);
  b &= b - 1;
  return low;
}
inline uint64_t bit(int i) { return uint64_t{1} << i; }

// Calls f(index) for every set bit, lowest first.
template <class F>
inline void for_each_bit(uint64_t b, F&& f) {
  while (b) {
    f(lowest_bit(b));
    b &= b - 1;
  }
}

// For every N-bit mask: how many bits are set and where, ascending. Legal-move generation writes
// the actions of one mask (destinations, rotations) as a block from this table.
template <int N>
struct MaskTable {
  static_assert(N >= 1 && N <= 8, "MaskTable is for small masks");
  uint8_t count[1 << N];
  uint8_t offsets[1 << N][N];
  constexpr MaskTable() : count(), offsets() {
    for (int m = 0; m < (1 << N); ++m) {
      int n = 0;
      for (int b = 0; b < N; ++b)
        if (m >> b & 1) offsets[m][n++] = static_cast<uint8_t>(b);
      count[m] = static_cast<uint8_t>(n);
    }
  }
};
template <int N>
inline constexpr MaskTable<N> kMaskTable{};

template <int W, int H>
struct Grid {
  static_assert(W >= 1 && H >= 1 && W * H <= 64, "Grid must fit one word");
  static constexpr int kCells = W * H;
  static constexpr uint64_t kAll = kCells == 64 ? ~uint64_t{0} : ((uint64_t{1} << kCells) - 1);

  static constexpr uint64_t column_mask(int col) {
    uint64_t m = 0;
    for (int r = 0; r < H; ++r) m |= uint64_t{1} << (r * W + col);
    return m;
  }
  static constexpr uint64_t row_mask(int row) {
    return ((W == 64) ? ~uint64_t{0} : ((uint64_t{1} << W) - 1)) << (row * W);
  }
  static constexpr uint64_t kNotFirstCol = kAll & ~column_mask(0);
  static constexpr uint64_t kNotLastCol = kAll & ~column_mask(W - 1);

  static constexpr int index(int row, int col) { return row * W + col; }

  static uint64_t east(uint64_t b) { return (b << 1) & kNotFirstCol; }
  static uint64_t west(uint64_t b) { return (b >> 1) & kNotLastCol; }
  static uint64_t south(uint64_t b) { return (b << W) & kAll; }
  static uint64_t north(uint64_t b) { return b >> W; }

  // Cells orthogonally adjacent to b (not including b itself).
  static uint64_t neighbours(uint64_t b) { return (east(b) | west(b) | south(b) | north(b)) & ~b; }
  // b grown by one step in the four directions.
  static uint64_t dilate(uint64_t b) { return b | east(b) | west(b) | south(b) | north(b); }

  // The 4-connected component of `mask` that contains `seed` (seed must lie in mask).
  static uint64_t flood(uint64_t seed, uint64_t mask) {
    uint64_t region = seed & mask, prev = 0;
    while (region != prev) {
      prev = region;
      region = dilate(region) & mask;
    }
    return region;
  }

  // Calls f(component) for each 4-connected component of mask.
  template <class F>
  static void for_each_component(uint64_t mask, F&& f) {
    while (mask) {
      const uint64_t comp = flood(mask & (~mask + 1), mask);
      f(comp);
      mask &= ~comp;
    }
  }

  // Is the set connected (empty and single cells count as connected)?
  static bool connected(uint64_t b) { return b == 0 || flood(b & (~b + 1), b) == b; }

  // Length of the horizontal / vertical run through cell i within `occupied` (0 if i is empty).
  static int run_horizontal(uint64_t occupied, int i) {
    if (!(occupied >> i & 1)) return 0;
    const int row = i / W, col = i % W;
    int n = 1;
    for (int c = col - 1; c >= 0 && (occupied >> (row * W + c) & 1); --c) ++n;
    for (int c = col + 1; c < W && (occupied >> (row * W + c) & 1); ++c) ++n;
    return n;
  }
  static int run_vertical(uint64_t occupied, int i) {
    if (!(occupied >> i & 1)) return 0;
    const int row = i / W, col = i % W;
    int n = 1;
    for (int r = row - 1; r >= 0 && (occupied >> (r * W + col) & 1); --r) ++n;
    for (int r = row + 1; r < H && (occupied >> (r * W + col) & 1); ++r) ++n;
    return n;
  }
};

// Multi-word bitboard for boards of more than 64 cells.
template <int N>
struct Bits {
  uint64_t w[N];

  static Bits zero() {
    Bits b;
    for (auto& x : b.w) x = 0;
    return b;
  }
  static Bits single(int i) {
    Bits b = zero();
    b.w[i >> 6] = uint64_t{1} << (i & 63);
    return b;
  }
  bool test(int i) const { return (w[i >> 6] >> (i & 63)) & 1; }
  void set(int i) { w[i >> 6] |= uint64_t{1} << (i & 63); }
  void reset(int i) { w[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  bool any() const {
    uint64_t a = 0;
    for (auto x : w) a |= x;
    return a != 0;
  }
  int count() const {
    int n = 0;
    for (auto x : w) n += popcount(x);
    return n;
  }
  int lowest() const {  // any() must hold
    for (int k = 0; k < N; ++k)
      if (w[k]) return k * 64 + lowest_bit(w[k]);
    return -1;
  }
  Bits operator&(const Bits& o) const { Bits r; for (int k = 0; k < N; ++k) r.w[k] = w[k] & o.w[k]; return r; }
  Bits operator|(const Bits& o) const { Bits r; for (int k = 0; k < N; ++k) r.w[k] = w[k] | o.w[k]; return r; }
  Bits operator^(const Bits& o) const { Bits r; for (int k = 0; k < N; ++k) r.w[k] = w[k] ^ o.w[k]; return r; }
  Bits operator~() const { Bits r; for (int k = 0; k < N; ++k) r.w[k] = ~w[k]; return r; }
  Bits& operator|=(const Bits& o) { for (int k = 0; k < N; ++k) w[k] |= o.w[k]; return *this; }
  Bits& operator&=(const Bits& o) { for (int k = 0; k < N; ++k) w[k] &= o.w[k]; return *this; }
  bool operator==(const Bits& o) const { for (int k = 0; k < N; ++k) if (w[k] != o.w[k]) return false; return true; }
  bool operator!=(const Bits& o) const { return !(*this == o); }

  // Shift towards higher bit indices by s (0 < s < 64).
  Bits shl(int s) const {
    Bits r;
    for (int k = N - 1; k > 0; --k) r.w[k] = (w[k] << s) | (w[k - 1] >> (64 - s));
    r.w[0] = w[0] << s;
    return r;
  }
  // Shift towards lower bit indices by s (0 < s < 64).
  Bits shr(int s) const {
    Bits r;
    for (int k = 0; k < N - 1; ++k) r.w[k] = (w[k] >> s) | (w[k + 1] << (64 - s));
    r.w[N - 1] = w[N - 1] >> s;
    return r;
  }
  template <class F>
  void for_each(F&& f) const {
    for (int k = 0; k < N; ++k) for_each_bit(w[k], [&](int i) { f(k * 64 + i); });
  }
};

// A W x H board (W < 64) in a multi-word bitboard, row-major, bit = row * W + col.
template <int W, int H>
struct WideGrid {
  static constexpr int kCells = W * H;
  static constexpr int kWords = (kCells + 63) / 64;
  using B = Bits<kWords>;

  static B all() {
    B b = B::zero();
    for (int i = 0; i < kCells; ++i) b.set(i);
    return b;
  }
  static B column(int col) {
    B b = B::zero();
    for (int r = 0; r < H; ++r) b.set(r * W + col);
    return b;
  }
  static B dilate(const B& b) {
    static const B not_first = all() & ~column(0);
    static const B not_last = all() & ~column(W - 1);
    static const B everything = all();
    return (b | (b.shl(1) & not_first) | (b.shr(1) & not_last) | b.shl(W) | b.shr(W)) & everything;
  }
  static B flood(const B& seed, const B& mask) {
    B region = seed & mask, prev = B::zero();
    while (region != prev) {
      prev = region;
      region = dilate(region) & mask;
    }
    return region;
  }
};

}  // namespace tilecraft
