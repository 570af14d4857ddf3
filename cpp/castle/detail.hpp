// Carcassonne: The Castle: helpers shared by the parts of the State (flow.cpp, legal.cpp, apply.cpp,
// score.cpp, observe.cpp, validate.cpp). Private to cpp/castle: state.hpp does not include it.
#pragma once
#include "castle/state.hpp"

namespace tilecraft::castle::detail {

inline constexpr const char* kTypeNames[4] = {"road", "tower", "house", "court"};

}  // namespace tilecraft::castle::detail

namespace tilecraft::castle {

// Small State members on the hot paths of several parts, inline in each (declared inline in
// state.hpp; a part that uses one includes this header).

inline int State::unseen(int kind) const {
  return cfg_->bonus_copies[kind] - held_[0][kind] - held_[1][kind] - fresh_[0][kind] - fresh_[1][kind] -
         used_[0][kind] - used_[1][kind];
}

inline bool State::follower_ok(int slot) const {
  // CA-FOLLOW-1..4, CA-FOLLOW-8, CA-FOLLOW-10
  if (slot >= cfg_->area_count[tile_]) return false;
  const Area& a = area(node_of(last_cell_, slot));
  return a.f[0] + a.f[1] == 0;
}

inline bool State::any_follower_ok() const {
  if (!followers_in_supply(current_)) return false;
  for (int k = 0; k < cfg_->area_count[tile_]; ++k)
    if (follower_ok(k)) return true;
  return false;
}

}  // namespace tilecraft::castle
