// Seeded random numbers shared by every game: xoshiro256** seeded through splitmix64.
// The generator is a plain 32-byte struct so it lives inside a State and is copied with it:
// clone() reproduces the future exactly, reseed() gives a fresh one (determinization).
#pragma once
#include <cstdint>

namespace tilecraft {

inline uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A stream id mixed into a seed: the n-th game of a batch, the n-th thread, a bot's seat.
inline uint64_t mix_seed(uint64_t seed, uint64_t stream) {
  uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ULL);
  splitmix64(x);
  return splitmix64(x);
}

struct Rng {
  uint64_t s[4];

  Rng() { seed(0); }
  explicit Rng(uint64_t seed_value) { seed(seed_value); }

  void seed(uint64_t seed_value) {
    uint64_t x = seed_value;
    for (auto& w : s) w = splitmix64(x);
  }

  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  uint64_t next() {
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }

  // Uniform integer in [0, n), n >= 1, without bias (Lemire's multiply-and-reject).
  uint32_t below(uint32_t n) {
    uint64_t m = static_cast<uint64_t>(static_cast<uint32_t>(next() >> 32)) * n;
    uint32_t low = static_cast<uint32_t>(m);
    if (low < n) {
      const uint32_t threshold = static_cast<uint32_t>(-n) % n;
      while (low < threshold) {
        m = static_cast<uint64_t>(static_cast<uint32_t>(next() >> 32)) * n;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // A state is valid unless it is all zeros (xoshiro's one fixed point).
  bool valid() const { return (s[0] | s[1] | s[2] | s[3]) != 0; }
};

}  // namespace tilecraft
