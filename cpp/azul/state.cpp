#include "azul/state.hpp"

#include "core/outcome.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>

namespace tilecraft::azul {

namespace {
const char* const kColourNames[kColours] = {"blue", "yellow", "red", "black", "white"};

std::string source_name(int s) { return s == 0 ? std::string("centre") : "factory " + std::to_string(s); }
std::string dest_name(int d) { return d == kFloorDest ? std::string("floor") : "line " + std::to_string(d + 1); }
}  // namespace

State::State(const Config& config, uint64_t seed) {
  config.validate();
  std::memset(static_cast<void*>(this), 0, sizeof(State));
  cfg_ = config;
  rng_.seed(seed);
  for (int c = 0; c < kColours; ++c) bag_[c] = kTilesPerColour;  // AZ-SETUP-2, AZ-AMB-1
  for (int p = 0; p < kMaxPlayers; ++p)
    for (int k = 0; k < kLines; ++k) line_colour_[p][k] = kNoColour;
  marker_in_centre_ = 1;  // AZ-SETUP-5
  for (int p = 0; p < kMaxPlayers; ++p) refresh_dest(p);
  if (cfg_.first_player < 0) {
    phase_ = kFirstPlayerChance;  // AZ-AMB-5
  } else {
    round_first_ = next_first_ = static_cast<int8_t>(cfg_.first_player);
    phase_ = kFill;
  }
  advance_chance();
}

void State::rebuild_derived() {
  // from_json calls this on unchecked saved fields: refresh_dest shifts by line_colour and reads the
  // walls, so check them first. validate() reads saved fields only, never the derived ones.
  validate();
  nonempty_ = 0;
  for (int c = 0; c < kColours; ++c) holders_[c] = 0;
  for (int s = 0; s < kSources; ++s) {
    present_[s] = 0;
    for (int c = 0; c < kColours; ++c) {
      present_[s] = static_cast<uint8_t>(present_[s] | ((src_[s][c] > 0) << c));
      holders_[c] = static_cast<uint16_t>(holders_[c] | ((src_[s][c] > 0) << s));
    }
    if (present_[s]) nonempty_ |= static_cast<uint16_t>(1u << s);
  }
  for (int p = 0; p < kMaxPlayers; ++p) refresh_dest(p);
}

// ---- chance ----

int State::draw_colour(int total) {
  int r = static_cast<int>(rng_.below(static_cast<uint32_t>(total)));
  int c = 0;
  while (r >= bag_[c]) r -= bag_[c++];
  return c;
}

void State::place_drawn(int colour) {
  --bag_[colour];
  const int f = 1 + fill_factory_;
  ++src_[f][colour];
  present_[f] = static_cast<uint8_t>(present_[f] | (1u << colour));
  holders_[colour] = static_cast<uint16_t>(holders_[colour] | (1u << f));
  nonempty_ |= static_cast<uint16_t>(1u << f);
  if (++fill_slot_ == 4) {
    fill_slot_ = 0;
    ++fill_factory_;
  }
}

// Moves the state forward through everything that needs no decision: deterministic refill steps,
// and, in sampled mode, the draws themselves. Stops at a player node, a chance node (explicit
// mode) or the end of the game.
void State::advance_chance() {
  for (;;) {
    if (phase_ == kFirstPlayerChance) {
      if (cfg_.explicit_chance) return;
      apply_chance(static_cast<int32_t>(rng_.below(static_cast<uint32_t>(cfg_.players))));
      return;  // apply_chance continues the advance
    }
    if (phase_ != kFill) return;
    int in_bag = bag_[0] + bag_[1] + bag_[2] + bag_[3] + bag_[4];
    const int factories = cfg_.factories();
    while (fill_factory_ < factories) {
      if (in_bag == 0) {  // AZ-REFILL-2: the lid goes back into the bag
        for (int c = 0; c < kColours; ++c) {
          bag_[c] = static_cast<uint8_t>(bag_[c] + lid_[c]);
          in_bag += lid_[c];
          lid_[c] = 0;
        }
        if (in_bag == 0) break;  // AZ-REFILL-3: stop filling
      }
      if (cfg_.explicit_chance) return;
      place_drawn(draw_colour(in_bag));
      --in_bag;
    }
    break;
  }
  // The fill is over.
  fill_factory_ = 0;
  fill_slot_ = 0;
  if (!nonempty_) {  // AZ-AMB-17: nothing to offer at all
    end_game();
    return;
  }
  // The new round starts: the marker goes back to the centre (AZ-REFILL-4, AZ-AMB-6).
  marker_in_centre_ = 1;
  for (int p = 0; p < kMaxPlayers; ++p) has_marker_[p] = 0;
  phase_ = kOffer;
  current_ = round_first_;
}

void State::apply_chance(int32_t outcome) {
  if (phase_ == kFirstPlayerChance) {
    round_first_ = next_first_ = static_cast<int8_t>(outcome);
    phase_ = kFill;
  } else {
    place_drawn(outcome);
  }
  advance_chance();
}

void State::chance_outcomes(ChanceList<kMaxChanceOutcomes>& out) const {
  out.clear();
  if (phase_ == kFirstPlayerChance) {
    for (int p = 0; p < cfg_.players; ++p) out.push(p, 1.0 / cfg_.players);
  } else if (phase_ == kFill) {
    const int total = bag_[0] + bag_[1] + bag_[2] + bag_[3] + bag_[4];
    for (int c = 0; c < kColours; ++c)
      if (bag_[c]) out.push(c, static_cast<double>(bag_[c]) / total);
  }
}

void State::resample_hidden(int /*observer*/, uint64_t seed) {
  // Everything in Azul is public but the order of future draws (AZ-AMB-15): a new RNG stream
  // gives a new, equally likely future.
  rng_.seed(seed);
}

// ---- round end ----

int State::placement_points(uint32_t wall, int i) {
  const int h = WallGrid::run_horizontal(wall, i);
  const int v = WallGrid::run_vertical(wall, i);
  if (h == 1 && v == 1) return 1;              // AZ-SCORE-1
  return (h > 1 ? h : 0) + (v > 1 ? v : 0);   // AZ-SCORE-2..5
}

int State::bonus(uint32_t wall) {
  int b = 0;
  for (int r = 0; r < 5; ++r)
    if ((wall & WallGrid::row_mask(r)) == WallGrid::row_mask(r)) b += 2;
  for (int c = 0; c < 5; ++c)
    if ((wall & WallGrid::column_mask(c)) == WallGrid::column_mask(c)) b += 7;
  for (int c = 0; c < kColours; ++c)
    if ((wall & colour_mask(c)) == colour_mask(c)) b += 10;
  return b;
}

int State::complete_rows(int p) const {
  int n = 0;
  for (int r = 0; r < 5; ++r) n += (wall_[p] & WallGrid::row_mask(r)) == WallGrid::row_mask(r);
  return n;
}

void State::end_round() {
  bool row_done = false;
  for (int p = 0; p < cfg_.players; ++p) {
    int score = score_[p];
    for (int k = 0; k < kLines; ++k) {  // AZ-WALL-1: top to bottom
      if (line_count_[p][k] == k + 1) {
        const int c = line_colour_[p][k];
        const int b = wall_bit(k, c);
        wall_[p] |= uint32_t{1} << b;
        score += placement_points(wall_[p], b);  // AZ-WALL-2
        lid_[c] = static_cast<uint8_t>(lid_[c] + k);
        line_count_[p][k] = 0;
        line_colour_[p][k] = kNoColour;
      }
    }
    score -= kPenaltyPrefix[floor_count_[p]];  // AZ-FLOOR-1/2
    score_[p] = static_cast<int16_t>(score < 0 ? 0 : score);  // AZ-FLOOR-3
    for (int c = 0; c < kColours; ++c) {  // AZ-FLOOR-4
      lid_[c] = static_cast<uint8_t>(lid_[c] + floor_tiles_[p][c]);
      floor_tiles_[p][c] = 0;
    }
    floor_count_[p] = 0;
    marker_on_floor_[p] = 0;  // the holder keeps the marker until the next round starts (AZ-FLOOR-4)
    refresh_dest(p);
    row_done |= complete_rows(p) > 0;
  }
  ++round_;
  if (row_done || round_ >= cfg_.max_rounds) {  // AZ-END-1, AZ-AMB-13, AZ-AMB-16
    end_game();
    return;
  }
  // AZ-REFILL-1, AZ-REFILL-4, AZ-AMB-6: refill; the marker returns to the centre when the new round starts
  round_first_ = next_first_;
  current_ = round_first_;
  phase_ = kFill;
  fill_factory_ = 0;
  fill_slot_ = 0;
  advance_chance();
}

void State::end_game() {
  for (int p = 0; p < cfg_.players; ++p) score_[p] = static_cast<int16_t>(score_[p] + bonus(wall_[p]));  // AZ-END-2
  phase_ = kTerminal;
  current_ = kTerminalSeat;
}

// ---- outcome ----

void State::scores(double* out) const {
  for (int p = 0; p < cfg_.players; ++p) out[p] = score_[p];
}

uint32_t State::winners() const {
  if (phase_ != kTerminal) return 0;
  int best_score = -1, best_rows = -1;
  uint32_t mask = 0;
  for (int p = 0; p < cfg_.players; ++p) {  // AZ-END-3, AZ-END-4
    const int s = score_[p], r = complete_rows(p);
    if (s > best_score || (s == best_score && r > best_rows)) {
      best_score = s;
      best_rows = r;
      mask = 1u << p;
    } else if (s == best_score && r == best_rows) {
      mask |= 1u << p;
    }
  }
  return mask;
}

void State::returns(double* out) const {
  const int n = cfg_.players;
  for (int p = 0; p < n; ++p) out[p] = 0.0;
  if (phase_ != kTerminal) return;
  if (cfg_.returns_mode == 0) {
    scores(out);
    return;
  }
  shared_win_returns(winners(), n, out);  // AZ-AMB-14
}

double State::heuristic(int player) const {
  // The seat's score if wall-tiling and floor penalties happened now, plus the end bonuses the
  // wall would then earn (docs/azul.md, "Greedy bot").
  uint32_t wall = wall_[player];
  int score = score_[player];
  if (phase_ != kTerminal) {
    for (int k = 0; k < kLines; ++k) {
      if (line_count_[player][k] == k + 1) {
        const int b = wall_bit(k, line_colour_[player][k]);
        wall |= uint32_t{1} << b;
        score += placement_points(wall, b);
      }
    }
    score -= kPenaltyPrefix[floor_count_[player]];
    if (score < 0) score = 0;
    score += bonus(wall);
  }
  return score;
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

// ---- validation of loaded states ----

void State::validate() const {
  cfg_.validate();
  const int n = cfg_.players, nf = cfg_.factories();
  require(rng_.valid(), "azul state: rng state must not be all zeros");
  require(phase_ <= kTerminal, "azul state: phase must be 0..3, got ", int(phase_));
  require(phase_ != kFirstPlayerChance || cfg_.first_player == -1,
          "azul state: phase 0 (first-player chance) needs first_player = -1");
  require(round_ < cfg_.max_rounds || (phase_ == kTerminal && round_ == cfg_.max_rounds), "azul state: round ", round_,
          " is not below max_rounds ", cfg_.max_rounds);
  for (int p = 0; p < kMaxPlayers; ++p) {
    const bool seated = p < n;
    for (int k = 0; k < kLines; ++k) {
      const int lc = line_colour_[p][k], cnt = line_count_[p][k];
      require(lc <= kNoColour, "azul state: line_colour[", p, "][", k, "] must be 0..5, got ", lc);
      require(cnt <= k + 1, "azul state: line_count[", p, "][", k, "] must be at most ", k + 1, ", got ", cnt);
      require((cnt == 0) == (lc == kNoColour), "azul state: line ", k + 1, " of seat ", p,
              " must have colour 5 (none) exactly when it is empty");
      if (lc != kNoColour)
        require(!((wall_[p] >> wall_bit(k, lc)) & 1u), "azul state: seat ", p, " line ", k + 1, " holds ",
                kColourNames[lc], " but wall row ", k + 1, " already has it");
      require(seated || cnt == 0, "azul state: seat ", p, " is not in a ", n, "-player game but has tiles");
    }
    require(wall_[p] < (1u << 25), "azul state: wall[", p, "] must be a 25-bit mask");
    require(seated || wall_[p] == 0, "azul state: seat ", p, " is not in play but has a wall");
    int on_floor = marker_on_floor_[p];
    for (int c = 0; c < kColours; ++c) on_floor += floor_tiles_[p][c];
    require(floor_count_[p] <= kFloorSpaces && on_floor == floor_count_[p], "azul state: floor of seat ", p,
            " is inconsistent (floor_count ", int(floor_count_[p]), ", tiles + marker ", on_floor, ")");
    require(has_marker_[p] <= 1 && marker_on_floor_[p] <= has_marker_[p], "azul state: marker flags of seat ", p,
            " are inconsistent");
    require(score_[p] >= 0 && score_[p] <= 1000, "azul state: score[", p, "] must be 0..1000, got ", score_[p]);
    require(seated || (floor_count_[p] == 0 && has_marker_[p] == 0 && score_[p] == 0), "azul state: seat ", p,
            " is not in play");
  }
  int holders = 0;
  for (int p = 0; p < n; ++p) holders += has_marker_[p];
  require(marker_in_centre_ <= 1, "azul state: marker_in_centre must be 0 or 1");
  require(holders + marker_in_centre_ == 1, "azul state: the start-player marker must be in the centre or with one seat");
  for (int p = 0; p < n; ++p)
    if (has_marker_[p] && phase_ != kOffer && phase_ != kTerminal)
      require(next_first_ == p && round_first_ == p, "azul state: seat ", p,
              " holds the marker during the refill, so it must start the next round");
  for (int s = 0; s < kSources; ++s) {
    int total = 0;
    for (int c = 0; c < kColours; ++c) total += src_[s][c];
    if (s > nf) require(total == 0, "azul state: factory ", s, " is not in play with ", n, " players but holds tiles");
    else if (s > 0) require(total <= 4, "azul state: factory ", s, " holds ", total, " tiles; at most 4");
  }
  for (int c = 0; c < kColours; ++c) {
    int total = bag_[c] + lid_[c];
    for (int s = 0; s < kSources; ++s) total += src_[s][c];
    for (int p = 0; p < n; ++p) {
      for (int k = 0; k < kLines; ++k) total += line_colour_[p][k] == c ? line_count_[p][k] : 0;
      total += floor_tiles_[p][c] + popcount(wall_[p] & colour_mask(c));
    }
    require(total == kTilesPerColour, "azul state: there must be 20 ", kColourNames[c], " tiles in all, found ", total);
  }
  require(round_first_ >= 0 && round_first_ < n && next_first_ >= 0 && next_first_ < n,
          "azul state: round_first and next_first must be seats 0..", n - 1);
  if (phase_ == kOffer) {
    require(current_ >= 0 && current_ < n, "azul state: current must be a seat 0..", n - 1, " during the offer");
    bool any = false;
    for (int s = 0; s <= nf; ++s)
      for (int c = 0; c < kColours; ++c) any |= src_[s][c] > 0;
    require(any, "azul state: during the offer some factory or the centre must hold tiles");
  } else if (phase_ == kTerminal) {
    require(current_ == kTerminalSeat, "azul state: current must be -1 when the game is over");
  }
  if (phase_ == kFill) {
    require(fill_factory_ < nf && fill_slot_ < 4, "azul state: fill cursor out of range");
    for (int f = 1 + fill_factory_; f <= nf; ++f) {
      int total = 0;
      for (int c = 0; c < kColours; ++c) total += src_[f][c];
      const int expect = f == 1 + fill_factory_ ? fill_slot_ : 0;
      require(total == expect, "azul state: factory ", f, " holds ", total, " tiles but the refill cursor expects ", expect);
    }
    int in_bag = 0;
    for (int c = 0; c < kColours; ++c) in_bag += bag_[c];
    require(in_bag > 0, "azul state: a tile draw is pending but the bag is empty");
  } else {
    require(fill_factory_ == 0 && fill_slot_ == 0, "azul state: fill cursor must be 0 outside a refill");
  }
}

}  // namespace tilecraft::azul
