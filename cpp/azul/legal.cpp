// Azul: why an action is illegal (rule IDs refer to shared/rules/azul.md); the legal actions
// themselves are inline in state.hpp.
#include "azul/detail.hpp"

#include <sstream>

namespace tilecraft::azul {

using namespace detail;

// ---- illegal actions ----

std::string State::illegal_reason(int32_t action) const {
  std::ostringstream os;
  if (phase_ == kTerminal) {
    os << "the game is over; no action can be applied";
    return os.str();
  }
  if (phase_ == kFill) {
    os << "this is a chance node (a tile draw): the outcome must be a colour 0..4 still in the bag (";
    bool first = true;
    for (int c = 0; c < kColours; ++c)
      if (bag_[c]) {
        os << (first ? "" : ", ") << c << " " << kColourNames[c];
        first = false;
      }
    os << "), got " << action;
    return os.str();
  }
  if (phase_ == kFirstPlayerChance) {
    os << "this is a chance node (the first player): the outcome must be a seat 0.." << cfg_.players - 1 << ", got "
       << action;
    return os.str();
  }
  if (action < 0 || action >= kNumActions) {
    os << "action id " << action << " is out of range; ids are 0.." << kNumActions - 1;
    return os.str();
  }
  const int s = action / 30, c = (action / 6) % 5, d = action % 6;
  os << "action " << action << " (" << action_to_string(action) << ") is illegal: ";
  if (s > cfg_.factories()) {
    os << "factory " << s << " is not in play with " << cfg_.players << " players (factories 1.." << cfg_.factories() << ")";
  } else if (!src_[s][c]) {
    os << "the " << source_name(s) << " has no " << kColourNames[c] << " tiles";
  } else {
    const int p = current_;
    const uint8_t lc = line_colour_[p][d];
    if (lc != kNoColour && lc != c) os << "line " << d + 1 << " already holds " << kColourNames[lc] << " tiles";
    else if (line_count_[p][d] == d + 1) os << "line " << d + 1 << " is full (send the tiles to the floor instead)";
    else os << "wall row " << d + 1 << " already has a " << kColourNames[c] << " tile";
  }
  return os.str();
}

}  // namespace tilecraft::azul
