// Observations as bytes, losslessly: every feature of every game is a small integer code divided by
// a fixed denominator plus a fixed offset,
//
//     feature == code / denominator + offset     (float32 arithmetic, code an integer 0..255)
//
// for example a score written as score / 100.0f (denominator 100), or a coordinate -9..9 (offset
// -9). A game states its denominators and offsets with the optional State method
//
//     void observation_codec(float* denominator, float* offset) const;   // observation_size() each,
//                                                                        // filled with 1 and 0 first
//
// (a game whose features are all integers 0..255, like Azul, needs none). They depend on the
// configuration only. encode_observation() checks every code: a feature that the codec cannot
// give back exactly is reported, never rounded.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tilecraft {

template <class S, class = void>
struct HasObservationCodec : std::false_type {};
template <class S>
struct HasObservationCodec<S, std::void_t<decltype(std::declval<const S&>().observation_codec(
                                  static_cast<float*>(nullptr), static_cast<float*>(nullptr)))>> : std::true_type {};

// Fills observation_size() denominators and offsets for the state's configuration.
template <class S>
void observation_codec(const S& s, float* denominator, float* offset) {
  const int n = s.observation_size();
  std::fill(denominator, denominator + n, 1.0f);
  std::fill(offset, offset + n, 0.0f);
  if constexpr (HasObservationCodec<S>::value) s.observation_codec(denominator, offset);
}

// Codes of n features; returns the index of the first feature that no code 0..255 gives back
// exactly (out is then incomplete), or -1.
inline int encode_observation(const float* in, const float* denominator, const float* offset, uint8_t* out, int n) {
  for (int i = 0; i < n; ++i) {
    const float c = std::nearbyint((in[i] - offset[i]) * denominator[i]);
    if (!(c >= 0.0f && c <= 255.0f)) return i;
    const auto code = static_cast<uint8_t>(c);
    if (static_cast<float>(code) / denominator[i] + offset[i] != in[i]) return i;
    out[i] = code;
  }
  return -1;
}

}  // namespace tilecraft
