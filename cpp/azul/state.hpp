// Azul (spec: shared/rules/azul.md). The whole game state in one trivially copyable struct.
//
// Layout: sources are counts per colour, source 0 = centre, 1..9 = factories; a wall is a 25-bit
// mask (bit = row * 5 + column); pattern lines are (colour, count) pairs. Chance (factory fills,
// the optional random first player) is resolved inside apply() from the state's own RNG in
// sampled mode, or left to the caller as chance nodes in explicit mode (one node per drawn tile).
//
// Action id = source * 30 + colour * 6 + destination (AZ spec 11.2): source 0 centre / 1..9
// factory, colour 0..4 (blue, yellow, red, black, white), destination 0..4 pattern line 1..5,
// 5 floor. 300 distinct actions for every player count. At a chance node the "actions" are the
// outcomes: a colour 0..4 for a tile draw, a seat for the random first player.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "azul/config.hpp"
#include "core/action_list.hpp"
#include "core/bitboard.hpp"
#include "core/game.hpp"
#include "core/rng.hpp"
#include "core/vocab.hpp"

namespace tilecraft::azul {

constexpr int kColours = 5;
constexpr int kLines = 5;
constexpr int kFloorSpaces = 7;
constexpr int kMaxFactories = 9;
constexpr int kSources = 1 + kMaxFactories;
constexpr int kMaxPlayers = 4;
constexpr int kNumActions = kSources * kColours * 6;  // 300
constexpr int kTilesPerColour = 20;
constexpr uint8_t kNoColour = 5;
constexpr int kFloorDest = 5;

using WallGrid = Grid<5, 5>;

// Cumulative floor penalty for 0..7 occupied spaces: 1 1 2 2 2 3 3 (AZ-AMB-4).
constexpr int kPenaltyPrefix[kFloorSpaces + 1] = {0, 1, 2, 4, 6, 8, 11, 14};

// Wall column of colour c in row r: wall_colour(r, col) = (col - r) mod 5 (AZ-AMB-3).
constexpr int wall_column(int row, int colour) { return (row + colour) % 5; }
constexpr int wall_bit(int row, int colour) { return row * 5 + wall_column(row, colour); }
constexpr uint32_t colour_mask(int colour) {
  uint32_t m = 0;
  for (int r = 0; r < 5; ++r) m |= uint32_t{1} << wall_bit(r, colour);
  return m;
}

enum Phase : uint8_t { kFirstPlayerChance = 0, kFill = 1, kOffer = 2, kTerminal = 3, kNumPhases = 4 };
inline constexpr const char* kPhaseNames[kNumPhases] = {"choosing the first player", "filling the factories",
                                                        "taking tiles", "game over"};
// Player action ids: source * 30 + colour * 6 + destination (one kind; the outcome ids of chance
// nodes are listed by chance_outcomes()).
enum ActionKind : uint8_t { kActTake = 0, kNumActionKinds = 1 };
inline constexpr const char* kActionKindNames[kNumActionKinds] = {"take"};

class State {
 public:
  using Config = azul::Config;
  static constexpr const char* kName = "azul";
  // Bumped whenever observation() or the action ids change meaning while keeping their shape, so that
  // a trained network refuses to load (observation_layout() in the binding; tilecraft.baselines).
  static constexpr int kObservationVersion = 1;
  // the game's words (cpp/core/vocab.hpp)
  static constexpr int kNumPhases = azul::kNumPhases;
  static constexpr const char* const* kPhaseNames = azul::kPhaseNames;
  static constexpr int kNumActionKinds = azul::kNumActionKinds;
  static constexpr const char* const* kActionKindNames = azul::kActionKindNames;
  static constexpr int kNumLocations = 0;
  static constexpr const NamedValue* kLocations = nullptr;
  void action_ranges(ActionRange* out) const { out[0] = {kActionKindNames[kActTake], 0, kNumActions}; }
  // (source, colour) pairs on display: at most 9 factories x 4 colours + 5 in the centre = 41, x 6 destinations
  static constexpr int kMaxActions = 256;
  static constexpr int kMaxChanceOutcomes = 5;

  State(const Config& config, uint64_t seed);

  const Config& config() const { return cfg_; }
  int num_players() const { return cfg_.players; }
  int num_distinct_actions() const { return kNumActions; }
  int max_chance_outcomes() const { return kMaxChanceOutcomes; }
  bool is_terminal() const { return phase_ == kTerminal; }
  bool is_chance_node() const { return phase_ == kFirstPlayerChance || phase_ == kFill; }
  int current_player() const {
    return phase_ == kOffer ? current_ : (phase_ == kTerminal ? kTerminalSeat : kChanceSeat);
  }

  void legal_actions(ActionList<kMaxActions>& out) const;
  bool is_legal(int32_t action) const;
  // A uniformly random legal action at a player node, without building the list (playouts).
  int32_t sample_action(Rng& rng) const;
  std::string illegal_reason(int32_t action) const;
  void apply(int32_t action) {
    if (phase_ == kOffer) take(action);
    else apply_chance(action);
  }
  void chance_outcomes(ChanceList<kMaxChanceOutcomes>& out) const;

  void scores(double* out) const;
  void returns(double* out) const;
  uint32_t winners() const;

  int observation_size() const { return 62 + 53 * cfg_.players; }  // 61 + 53 per seat + the round
  std::vector<int> observation_shape() const { return {observation_size()}; }
  void observation(int player, float* out) const;

  std::string action_to_string(int32_t action) const;
  int32_t string_to_action(const std::string& text) const;

  void validate() const;
  void resample_hidden(int observer, uint64_t seed);
  double heuristic(int player) const;

  // Read-only views (bindings, renderers, tests).
  int phase() const { return phase_; }
  int round() const { return round_; }
  int score(int p) const { return score_[p]; }
  uint32_t wall(int p) const { return wall_[p]; }
  int line_colour(int p, int k) const { return line_colour_[p][k] == kNoColour ? -1 : line_colour_[p][k]; }
  int line_count(int p, int k) const { return line_count_[p][k]; }
  int floor_count(int p) const { return floor_count_[p]; }
  int floor_tiles(int p, int c) const { return floor_tiles_[p][c]; }
  bool holds_marker(int p) const { return has_marker_[p]; }
  bool marker_in_centre() const { return marker_in_centre_; }
  int source_count(int s, int c) const { return src_[s][c]; }
  int bag(int c) const { return bag_[c]; }
  int lid(int c) const { return lid_[c]; }
  int round_first_player() const { return round_first_; }
  int next_first_player() const { return next_first_; }
  int complete_rows(int p) const;
  Rng& rng() { return rng_; }

  template <class V>
  void visit(V& v) {
    v.field("rng", rng_.s);
    v.field("bag", bag_);
    v.field("lid", lid_);
    v.field("sources", src_);
    v.field("marker_in_centre", marker_in_centre_);
    v.field("line_colour", line_colour_);
    v.field("line_count", line_count_);
    v.field("wall", wall_);
    v.field("floor_count", floor_count_);
    v.field("floor_tiles", floor_tiles_);
    v.field("has_marker", has_marker_);
    v.field("marker_on_floor", marker_on_floor_);
    v.field("score", score_);
    v.field("current", current_);
    v.field("round_first", round_first_);
    v.field("next_first", next_first_);
    v.field("phase", phase_);
    v.field("fill_factory", fill_factory_);
    v.field("fill_slot", fill_slot_);
    v.field("round", round_);
  }
  // Recomputes the fields derived from the visited ones (after from_json).
  void rebuild_derived();

 private:
  // dest_[player][colour]: bit k = pattern line k+1 is open to the colour (AZ-MOVE-6), bit 5 = floor.
  void refresh_dest(int player) {
    uint8_t m[kColours] = {1u << kFloorDest, 1u << kFloorDest, 1u << kFloorDest, 1u << kFloorDest, 1u << kFloorDest};
    for (int k = 0; k < kLines; ++k) {
      const uint32_t row = (wall_[player] >> (5 * k)) & 31u;
      const uint32_t on_wall = ((row >> k) | (row << (5 - k))) & 31u;  // bit c: colour c is on row k
      const uint8_t lc = line_colour_[player][k];
      const uint32_t open = lc == kNoColour ? (~on_wall & 31u) : (line_count_[player][k] <= k ? (1u << lc) : 0u);
      for (int c = 0; c < kColours; ++c) m[c] = static_cast<uint8_t>(m[c] | (((open >> c) & 1u) << k));
    }
    for (int c = 0; c < kColours; ++c) dest_[player][c] = m[c];
  }
  void take(int32_t action);
  void apply_chance(int32_t outcome);
  void advance_chance();
  void place_drawn(int colour);
  int draw_colour(int bag_total);
  void end_round();
  void end_game();
  static int placement_points(uint32_t wall, int bit_index);
  static int bonus(uint32_t wall);

  Config cfg_;
  Rng rng_;
  uint8_t bag_[kColours];
  uint8_t lid_[kColours];
  uint8_t src_[kSources][kColours];
  uint16_t nonempty_;  // derived: bit s set when source s holds a tile
  uint8_t present_[kSources];  // derived: bit c set when source s holds colour c
  uint16_t holders_[kColours];  // derived: bit s set when source s holds colour c (present_ transposed)
  uint8_t dest_[kMaxPlayers][8];  // derived: dest_mask(p, c) cached, updated incrementally
  uint8_t marker_in_centre_;
  uint8_t line_colour_[kMaxPlayers][kLines];
  uint8_t line_count_[kMaxPlayers][kLines];
  uint32_t wall_[kMaxPlayers];
  uint8_t floor_count_[kMaxPlayers];  // occupied floor spaces, the marker's included
  uint8_t floor_tiles_[kMaxPlayers][kColours];
  uint8_t has_marker_[kMaxPlayers];
  uint8_t marker_on_floor_[kMaxPlayers];
  int16_t score_[kMaxPlayers];
  int8_t current_;
  int8_t round_first_;
  int8_t next_first_;
  uint8_t phase_;
  uint8_t fill_factory_;
  uint8_t fill_slot_;
  uint16_t round_;  // 0-based index of the current round
};

// A view used by several parts (flow.cpp's end_round, score.cpp's winners) and the binding, inline in each.
inline int State::complete_rows(int p) const {
  int n = 0;
  for (int r = 0; r < 5; ++r) n += (wall_[p] & WallGrid::row_mask(r)) == WallGrid::row_mask(r);
  return n;
}

// ---- hot paths, inline ----

namespace detail {
inline constexpr const MaskTable<6>& kDestTable = kMaskTable<6>;  // destination masks: 5 lines + floor
}  // namespace detail

inline void State::legal_actions(ActionList<kMaxActions>& out) const {
  out.clear();
  if (phase_ == kOffer) {
    const uint8_t* masks = dest_[current_];
    uint32_t sources = nonempty_;
    while (sources) {  // only non-empty sources, only colours present, one block per pair
      const int s = lowest_bit(sources);
      sources &= sources - 1;
      uint32_t colours = present_[s];
      while (colours) {
        const int c = lowest_bit(colours);
        colours &= colours - 1;
        const uint8_t m = masks[c];
        out.push_block(s * 30 + c * 6, detail::kDestTable.offsets[m], detail::kDestTable.count[m]);
      }
    }
  } else if (phase_ == kFill) {
    for (int c = 0; c < kColours; ++c)
      if (bag_[c]) out.push(c);
  } else if (phase_ == kFirstPlayerChance) {
    for (int p = 0; p < cfg_.players; ++p) out.push(p);
  }
}

inline int32_t State::sample_action(Rng& rng) const {
  // Legal actions of colour c: (sources holding c) x (destinations open to c). Pick a colour
  // block with probability proportional to its size, then a (source, destination) inside it:
  // uniform over all legal actions, with no walk over the sources.
  const uint8_t* masks = dest_[current_];
  uint32_t block[kColours];
  uint32_t total = 0;
  for (int c = 0; c < kColours; ++c) {
    block[c] = static_cast<uint32_t>(popcount(holders_[c])) * detail::kDestTable.count[masks[c]];
    total += block[c];
  }
  uint32_t r = rng.below(total);
  int c = 0;
  while (r >= block[c]) r -= block[c++];
  const uint32_t width = detail::kDestTable.count[masks[c]];
  const uint32_t k = r / width;
  uint32_t sources = holders_[c];
  for (uint32_t i = 0; i < k; ++i) sources &= sources - 1;
  return lowest_bit(sources) * 30 + c * 6 + detail::kDestTable.offsets[masks[c]][r - k * width];
}

inline bool State::is_legal(int32_t action) const {
  if (phase_ == kOffer) {
    if (action < 0 || action >= kNumActions) return false;
    const int s = action / 30, c = (action / 6) % 5, d = action % 6;
    if (s > cfg_.factories() || !src_[s][c]) return false;
    return (dest_[current_][c] >> d) & 1;
  }
  if (phase_ == kFill) return action >= 0 && action < kColours && bag_[action] > 0;
  if (phase_ == kFirstPlayerChance) return action >= 0 && action < cfg_.players;
  return false;
}

inline void State::take(int32_t action) {
  const int p = current_;
  const int s = action / 30, c = (action / 6) % 5, d = action % 6;
  // Precondition is_legal(action): tell the compiler the indices are in range (no code emitted).
  if (static_cast<unsigned>(action) >= static_cast<unsigned>(kNumActions)) __builtin_unreachable();
  const int n = src_[s][c];
  src_[s][c] = 0;
  if (s > 0) {  // factory: the rest goes to the centre (AZ-MOVE-3)
    for (int k = 0; k < kColours; ++k) {
      src_[0][k] = static_cast<uint8_t>(src_[0][k] + src_[s][k]);
      src_[s][k] = 0;
    }
    const uint32_t rest = present_[s] & ~(1u << c);
    for (int k = 0; k < kColours; ++k)
      holders_[k] = static_cast<uint16_t>((holders_[k] & ~(1u << s)) | ((rest >> k) & 1u));
    present_[0] = static_cast<uint8_t>(present_[0] | rest);
    present_[s] = 0;
    nonempty_ = static_cast<uint16_t>((nonempty_ & ~(1u << s)) | (present_[0] != 0));
  } else {
    present_[0] = static_cast<uint8_t>(present_[0] & ~(1u << c));
    holders_[c] = static_cast<uint16_t>(holders_[c] & ~1u);
    nonempty_ = static_cast<uint16_t>((nonempty_ & ~1u) | (present_[0] != 0));
    if (marker_in_centre_) {  // first take from the centre (AZ-MOVE-4, AZ-AMB-8, AZ-AMB-9)
      marker_in_centre_ = 0;
      has_marker_[p] = 1;
      next_first_ = static_cast<int8_t>(p);
      if (floor_count_[p] < kFloorSpaces) {
        ++floor_count_[p];
        marker_on_floor_[p] = 1;
      }
    }
  }
  int overflow = n;
  if (d < kFloorDest) {  // pattern line d+1 holds d+1 tiles, filled right to left (AZ-MOVE-7/8)
    const int room = d + 1 - line_count_[p][d];
    const int put = n < room ? n : room;
    line_colour_[p][d] = static_cast<uint8_t>(c);
    line_count_[p][d] = static_cast<uint8_t>(line_count_[p][d] + put);
    overflow = n - put;
    // Only line d changed: it is now open to colour c alone, and only while not full.
    for (int k = 0; k < kColours; ++k) dest_[p][k] = static_cast<uint8_t>(dest_[p][k] & ~(1u << d));
    dest_[p][c] = static_cast<uint8_t>(dest_[p][c] | ((line_count_[p][d] <= d) << d));
  }
  const int space = kFloorSpaces - floor_count_[p];
  const int on_floor = overflow < space ? overflow : space;
  floor_count_[p] = static_cast<uint8_t>(floor_count_[p] + on_floor);
  floor_tiles_[p][c] = static_cast<uint8_t>(floor_tiles_[p][c] + on_floor);
  lid_[c] = static_cast<uint8_t>(lid_[c] + overflow - on_floor);  // AZ-MOVE-10
  current_ = static_cast<int8_t>(p + 1 == cfg_.players ? 0 : p + 1);
  if (!nonempty_) end_round();
}

}  // namespace tilecraft::azul
