// A game's words, declared once in its header and exported by the binding template for every game:
// phase names (indexed by the Phase enum), action kinds with their id ranges, and named locations.
//
// In each game's header, at namespace scope:
//   enum Phase : uint8_t { ..., kNumPhases };                  (or a kNumPhases constant)
//   inline constexpr const char* kPhaseNames[kNumPhases] = {...};
//   enum ActionKind : uint8_t { ..., kNumActionKinds };
//   inline constexpr const char* kActionKindNames[kNumActionKinds] = {...};
//   inline constexpr NamedValue kLocations[] = {...};          (games with named card/tile places)
// and in its State:
//   static constexpr int kNumPhases, kNumActionKinds;
//   static constexpr const char* const* kPhaseNames;           (points at the table above)
//   static constexpr const char* const* kActionKindNames;      (points at the table above)
//   static constexpr int kNumLocations;  static constexpr const NamedValue* kLocations;  (0, nullptr: none)
//   int phase() const;
//   void action_ranges(ActionRange* out) const;  // kNumActionKinds entries, in id order, no gaps,
//                                                // covering [0, num_distinct_actions())
#pragma once
#include <cstdint>

namespace tilecraft {

// Action ids [first, end) are of one kind; kind names are lower-case words ("take", "place").
struct ActionRange {
  const char* kind;
  int32_t first;
  int32_t end;
};

// A named constant of the game's vocabulary (a card location, a tile place).
struct NamedValue {
  const char* name;
  int value;
};

// For the headers' static_asserts: a[0] == 0 and a[0] < a[1] < ... < a[n-1] (the first ids of the
// action kinds in order, then the end of the last kind: every kind has at least one id, no gaps).
constexpr bool ranges_from_zero(const int32_t* a, int n) {
  if (n < 1 || a[0] != 0) return false;
  for (int k = 1; k < n; ++k)
    if (a[k] <= a[k - 1]) return false;
  return true;
}

}  // namespace tilecraft
