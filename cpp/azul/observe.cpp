// Azul: what a seat sees (rule IDs refer to shared/rules/azul.md): the resampling of what it cannot
// see, the observation and the names of the actions.
#include "azul/detail.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace tilecraft::azul {

using namespace detail;

// ---- hidden information ----

void State::resample_hidden(int /*observer*/, uint64_t seed) {
  // Everything in Azul is public but the order of future draws (AZ-AMB-15): a new RNG stream
  // gives a new, equally likely future.
  rng_.seed(seed);
}

// ---- observation ----

void State::observation(int player, float* out) const {
  const int n = cfg_.players;
  float* o = out;
  for (int s = 0; s < kSources; ++s)
    for (int c = 0; c < kColours; ++c) *o++ = src_[s][c];
  *o++ = marker_in_centre_;
  for (int c = 0; c < kColours; ++c) *o++ = bag_[c];
  for (int c = 0; c < kColours; ++c) *o++ = lid_[c];
  for (int i = 0; i < n; ++i) {
    const int p = (player + i) % n;
    for (int b = 0; b < 25; ++b) *o++ = static_cast<float>((wall_[p] >> b) & 1u);
    for (int k = 0; k < kLines; ++k)
      for (int c = 0; c < kColours; ++c) *o++ = line_colour_[p][k] == c ? line_count_[p][k] : 0.0f;
    *o++ = floor_count_[p];
    *o++ = (phase_ == kOffer || phase_ == kTerminal) ? (next_first_ == p) : (round_first_ == p);
    *o++ = score_[p];
  }
  *o++ = round_;
}

// ---- names ----

std::string State::action_to_string(int32_t action) const {
  if (phase_ == kFill) {
    if (action >= 0 && action < kColours) return std::string("draw ") + kColourNames[action];
  } else if (phase_ == kFirstPlayerChance) {
    if (action >= 0 && action < cfg_.players) return "first player " + std::to_string(action);
  } else if (action >= 0 && action < kNumActions) {
    const int s = action / 30, c = (action / 6) % 5, d = action % 6;
    return source_name(s) + " " + kColourNames[c] + " -> " + dest_name(d);
  }
  fail<IllegalAction>("azul: no action has id ", action, " here (ids are 0..", kNumActions - 1,
                      is_chance_node() ? "; at a chance node the outcomes are listed by chance_outcomes())" : ")");
}

int32_t State::string_to_action(const std::string& text) const {
  std::string t;
  for (char ch : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::istringstream is(t);
  std::vector<std::string> w;
  for (std::string tok; is >> tok;) w.push_back(tok);
  auto colour_of = [](const std::string& s) {
    for (int c = 0; c < kColours; ++c)
      if (s == kColourNames[c]) return c;
    return -1;
  };
  auto number = [](const std::string& s, int lo, int hi) {
    if (s.empty() || s.size() > 3 || !std::all_of(s.begin(), s.end(), ::isdigit)) return -1;
    const int v = std::stoi(s);
    return v >= lo && v <= hi ? v : -1;
  };
  const char* expected =
      "azul: cannot read action '%s'; expected e.g. 'factory 2 red -> line 3', 'centre blue -> floor', "
      "'draw white' or 'first player 1'";
  auto bad = [&]() -> int32_t {
    std::string msg = expected;
    msg.replace(msg.find("%s"), 2, text);
    throw IllegalAction(msg);
  };
  if (w.size() == 2 && w[0] == "draw" && colour_of(w[1]) >= 0) return colour_of(w[1]);
  if (w.size() == 3 && w[0] == "first" && w[1] == "player" && number(w[2], 0, kMaxPlayers - 1) >= 0)
    return number(w[2], 0, kMaxPlayers - 1);
  size_t i = 0;
  int s = -1;
  if (i < w.size() && (w[i] == "centre" || w[i] == "center")) {
    s = 0;
    ++i;
  } else if (i + 1 < w.size() && w[i] == "factory") {
    s = number(w[i + 1], 1, kMaxFactories);
    i += 2;
  }
  if (s < 0 || i >= w.size()) return bad();
  const int c = colour_of(w[i++]);
  if (c < 0 || i >= w.size() || w[i++] != "->" || i >= w.size()) return bad();
  int d = -1;
  if (w[i] == "floor" && i + 1 == w.size()) d = kFloorDest;
  else if (w[i] == "line" && i + 2 == w.size()) {
    const int k = number(w[i + 1], 1, 5);
    if (k > 0) d = k - 1;
  }
  if (d < 0) return bad();
  return s * 30 + c * 6 + d;
}

}  // namespace tilecraft::azul
