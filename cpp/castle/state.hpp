// Carcassonne: The Castle (spec: shared/rules/castle.md; docs/castle.md).
//
// Board: bbox cells (row-major, width x height <= 128) in two-word bitboards. Legality of a tile
// placement for all cells at once is a bitboard expression: needs_[d] holds the cells whose
// neighbour on side d presents a road towards them, forbids_[d] those whose neighbour there is
// solid without a road; a rotation with road sides m is legal on
//   frontier & AND_d (m has d ? ~forbids_[d] : ~needs_[d]).
// Areas: union-find over area nodes (gate areas first, then each placed tile's areas in placement
// order) in fixed arrays; a placement unions facing segments of the same type and counts open
// segments (those facing an empty interior cell). An area is complete when it has none. Each root
// keeps its cells as a bitboard, so a tile visited twice by one area counts once.
// The largest empty area at game end is a bitboard flood fill.
//
// Action ids (C = interior cells, K = 8, J = 8; 4C + 21 in all, 325 on the published board):
//   [0, 4C)        place the tile on interior cell c with rotation r (clockwise quarter turns): 4c + r
//   4C + k         put a follower on area slot k of the new tile (k < 8)
//   4C + 8         no follower
//   4C + 9 + j     score pending area j next (j < 8); in draw_two_choose_one mode: keep drawn tile j
//   4C + 17        use wall tile 1 (Step 0)
//   4C + 18 / 19   use wall tile 2 / 3 on the tower / house being scored
//   4C + 20        decline
// Chance outcomes: a tile type (draws), a wall-tile kind 0..8 (= kind 1..9: reveals and the setup
// deal), a seat (random first player).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "castle/config.hpp"
#include "core/action_list.hpp"
#include "core/bitboard.hpp"
#include "core/game.hpp"
#include "core/rng.hpp"
#include "core/vocab.hpp"

namespace tilecraft::castle {

constexpr int kFollowers = 6;  // 7 minus the score marker (CA-AMB-4)
constexpr int kMaxPending = 24;
constexpr uint8_t kNone8 = 0xFF;
constexpr uint16_t kNone16 = 0xFFFF;

enum Phase : uint8_t {
  kFirstChance = 0,  // random first player
  kDealChance = 1,   // start wall tiles (CA-VAR-1)
  kBonus0 = 2,       // Step 0: use wall tile 1?
  kDraw = 3,         // chance: a tile draw
  kChoose = 4,       // draw_two_choose_one: keep which drawn tile
  kPlace = 5,
  kFollower = 6,
  kScoreOrder = 7,
  kDouble = 8,       // use wall tile 2/3 on the area being scored?
  kReveal = 9,       // chance: the kind of a wall tile taken from a corner
  kTerminal = 10,
  kNumPhases = 11,
};
inline constexpr const char* kPhaseNames[kNumPhases] = {
    "choosing the first player", "dealing start wall tiles", "may use wall tile 1", "drawing a tile",
    "choosing which drawn tile to keep", "placing the tile", "may place a follower", "choosing the scoring order",
    "may double this score with a wall tile", "revealing a wall tile", "game over"};
// Player action ids, in this order (the place range is 4 per interior cell of the configured board):
// place (cell, rotation), follower k, no follower, pending j ("keep drawn tile j" while choosing a
// drawn tile, "score pending j" while ordering scores), use wall tile 1..3, decline.
enum ActionKind : uint8_t { kActPlace, kActFollower, kActNoFollower, kActPending, kActUseWallTile, kActDecline,
                            kNumActionKinds };
inline constexpr const char* kActionKindNames[kNumActionKinds] = {"place",   "follower",      "no_follower",
                                                                  "pending", "use_wall_tile", "decline"};

// Score categories (their sum is the score): scores_by_category().
enum Category : uint8_t { kCatRoad, kCatTower, kCatHouse, kCatCourt, kCatIncomplete, kCatTile9, kCatKeep, kCats };

struct Area {
  Board cells;       // interior cells (bbox bits) of the area
  uint16_t gates;    // gates (start spaces) in the area
  uint16_t open;     // segments facing an empty interior cell
  uint8_t type : 2;
  uint8_t well : 1;
  uint8_t stalls;    // markets (the manifest holds at most 255, see Config::validate)
  uint8_t f[2];      // followers per player
  int tiles() const { return cells.count() + popcount(gates); }
};

static_assert(sizeof(Area) == 24, "Area is meant to stay 24 bytes");

class State {
 public:
  using Config = castle::Config;
  static constexpr const char* kName = "castle";
  // Bumped whenever observation() or the action ids change meaning while keeping their shape, so that
  // a trained network refuses to load (observation_layout() in the binding; tilecraft.baselines).
  static constexpr int kObservationVersion = 1;
  // the game's words (cpp/core/vocab.hpp)
  static constexpr int kNumPhases = castle::kNumPhases;
  static constexpr const char* const* kPhaseNames = castle::kPhaseNames;
  static constexpr int kNumActionKinds = castle::kNumActionKinds;
  static constexpr const char* const* kActionKindNames = castle::kActionKindNames;
  static constexpr int kNumLocations = 0;
  static constexpr const NamedValue* kLocations = nullptr;
  void action_ranges(ActionRange* out) const {
    const int b = 4 * cfg_->num_interior;
    const int32_t first[kNumActionKinds + 1] = {0, b, b + kSlots, b + kSlots + 1, b + kSlots + 1 + kPendingIds,
                                                b + kSlots + 1 + kPendingIds + 3, b + kSlots + 1 + kPendingIds + 4};
    for (int k = 0; k < kNumActionKinds; ++k) out[k] = {kActionKindNames[k], first[k], first[k + 1]};
  }
  // Bound: placements are <= 4 * 100 cells (400); otherwise at most 9 follower ids, 8 pending
  // ids, 2 bonus ids, the 64 chance outcomes of a draw.
  static constexpr int kMaxActions = 4 * kMaxInterior;
  static constexpr int kMaxChanceOutcomes = kMaxTypes;

  State(const Config& config, uint64_t seed);

  const Config& config() const { return *cfg_; }
  int num_players() const { return 2; }
  int num_distinct_actions() const { return 4 * cfg_->num_interior + kSlots + 1 + kPendingIds + 4; }
  bool is_terminal() const { return phase_ == kTerminal; }
  bool is_chance_node() const {
    return phase_ == kFirstChance || phase_ == kDealChance || phase_ == kDraw || phase_ == kReveal;
  }
  int current_player() const {
    return phase_ == kTerminal ? kTerminalSeat : (is_chance_node() ? kChanceSeat : current_);
  }

  void legal_actions(ActionList<kMaxActions>& out) const;
  bool is_legal(int32_t action) const;
  std::string illegal_reason(int32_t action) const;
  void apply(int32_t action);
  void chance_outcomes(ChanceList<kMaxChanceOutcomes>& out) const;

  void scores(double* out) const {
    out[0] = score_[0];
    out[1] = score_[1];
  }
  void returns(double* out) const;
  uint32_t winners() const;

  int observation_size() const;
  std::vector<int> observation_shape() const { return {observation_size()}; }
  void observation(int player, float* out) const;
  void observation_codec(float* denominator, float* offset) const;  // cpp/core/codec.hpp

  std::string action_to_string(int32_t action) const;
  int32_t string_to_action(const std::string& text) const;

  void validate() const;
  void rebuild_derived();
  void resample_hidden(int observer, uint64_t seed);
  double heuristic(int player) const;

  template <class V>
  void visit(V& v) {
    v.field("rng", rng_.s);
    v.field("supply", supply_);
    v.field("removed", removed_);
    v.field("cell_tile", cell_tile_);
    v.field("cell_rot", cell_rot_);
    v.field("order", order_);
    v.field("num_placed", num_placed_);
    v.field("follower_cell", fcell_);
    v.field("follower_slot", fslot_);
    v.field("score", score_);
    v.field("by_category", cat_);
    v.field("keep_size", keep_size_);
    v.field("keep_cell", keep_cell_);
    v.field("keep_slot", keep_slot_);
    v.field("corner_stocked", corner_stocked_);
    v.field("held", held_);
    v.field("fresh", fresh_);
    v.field("used", used_);
    v.field("current", current_);
    v.field("phase", phase_);
    v.field("turn", turn_);
    v.field("extra_turns", extra_turns_);
    v.field("tile", tile_);
    v.field("alt_tile", alt_tile_);
    v.field("last_cell", last_cell_);
    v.field("pending", pending_);
    v.field("num_pending", num_pending_);
    v.field("double_area", double_area_);
    v.field("reveal_for", reveal_for_);
    v.field("deal_step", deal_step_);
    v.field("empty_area", empty_area_);
  }

  // ---- read-only views (bindings, renderers, tests) ----
  int phase() const { return phase_; }
  int score(int p) const { return score_[p]; }
  int category_score(int p, int c) const { return cat_[p][c]; }
  int cell_tile(int cell) const { return cell_tile_[cell] == kNone8 ? -1 : cell_tile_[cell]; }
  int cell_rot(int cell) const { return cell_rot_[cell]; }
  int supply(int t) const { return supply_[t]; }
  int removed(int t) const { return removed_[t]; }
  int supply_total() const;
  int num_placed() const { return num_placed_; }
  int placed_cell(int k) const { return order_[k]; }
  int follower_cell(int p, int i) const { return fcell_[p][i] == kNone8 ? -1 : fcell_[p][i]; }
  int follower_slot(int p, int i) const { return fslot_[p][i]; }
  int followers_in_supply(int p) const;
  int keep_size(int p) const { return keep_size_[p]; }
  int keep_cell(int p) const { return keep_cell_[p] == kNone8 ? -1 : keep_cell_[p]; }
  int keep_slot(int p) const { return keep_slot_[p]; }
  bool corner_stocked(int c) const { return (corner_stocked_ >> c) & 1u; }
  int held(int p, int kind) const { return held_[p][kind]; }    // usable now (kind 0..8 = tiles 1..9)
  int fresh(int p, int kind) const { return fresh_[p][kind]; }  // taken, usable from the next own turn
  int used(int p, int kind) const { return used_[p][kind]; }
  int current_tile() const { return tile_ == kNone8 ? -1 : tile_; }
  int alt_tile() const { return alt_tile_ == kNone8 ? -1 : alt_tile_; }
  int last_cell() const { return last_cell_ == kNone8 ? -1 : last_cell_; }
  int extra_turns() const { return extra_turns_; }
  int turn() const { return turn_; }
  int empty_area() const { return empty_area_; }
  int num_pending() const { return num_pending_; }
  int pending(int j) const { return pending_[j]; }
  // Areas: the node of (cell, slot); its root's data.
  int node_of(int cell, int slot) const { return cell_node0_[cell] + slot; }
  int find(int node) const {
    while (parent_[node] != node) node = parent_[node];
    return node;
  }
  const Area& area(int node) const { return area_[find(node)]; }
  int num_nodes() const { return num_nodes_; }
  bool is_root(int node) const { return parent_[node] == node; }
  int largest_empty_area() const;
  // Legal cells (bbox bitboard) of tile type t with rotation r: the bitboard placement test.
  Board legal_cells(int t, int r) const;
  bool placeable(int t) const;
  int majority(const Area& a) const { return a.f[0] > a.f[1] ? 0 : (a.f[1] > a.f[0] ? 1 : -1); }
  int points_of(const Area& a) const;  // the area's value when scored (no doubling)

  int action_place(int cell_rank, int rot) const { return 4 * cell_rank + rot; }
  int action_follower(int slot) const { return 4 * cfg_->num_interior + slot; }
  int action_no_follower() const { return 4 * cfg_->num_interior + kSlots; }
  int action_pending(int j) const { return 4 * cfg_->num_interior + kSlots + 1 + j; }
  int action_use1() const { return 4 * cfg_->num_interior + kSlots + 1 + kPendingIds; }
  int action_use2() const { return action_use1() + 1; }
  int action_use3() const { return action_use1() + 2; }
  int action_decline() const { return action_use1() + 3; }

 private:
  int base() const { return 4 * cfg_->num_interior; }
  int find_mut(int node) {
    while (parent_[node] != node) {
      parent_[node] = parent_[parent_[node]];
      node = parent_[node];
    }
    return node;
  }
  void unite(int a, int b);
  void reset_areas();
  void lay_tile(int cell, int t, int r, uint16_t* touched, int* num_touched);
  inline bool follower_ok(int slot) const;  // detail.hpp
  inline bool any_follower_ok() const;  // detail.hpp
  int group_size(int* members) const;
  void resolve_chance();
  void apply_chance(int32_t outcome);
  void apply_decision(int32_t action);
  void start_turn();
  void begin_draw();
  void on_drawn(int t);
  void place(int cell, int r);
  void begin_scoring();
  void continue_scoring();
  void select_pending(int index);
  void score_area(int root, bool doubled);
  void end_turn();
  void end_game();
  void give_bonus(int p, int kind);
  inline int unseen(int kind) const;  // detail.hpp

  const Config* cfg_;
  Rng rng_;
  uint8_t supply_[kMaxTypes];
  uint8_t removed_[kMaxTypes];
  uint8_t cell_tile_[kMaxCells];
  uint8_t cell_rot_[kMaxCells];
  uint8_t order_[kMaxInterior];
  uint8_t num_placed_;
  uint8_t fcell_[2][kFollowers];
  uint8_t fslot_[2][kFollowers];
  int16_t score_[2];
  int16_t cat_[2][kCats];
  uint8_t keep_size_[2];
  uint8_t keep_cell_[2];
  uint8_t keep_slot_[2];
  uint16_t corner_stocked_;
  uint8_t held_[2][kKinds];
  uint8_t fresh_[2][kKinds];
  uint8_t used_[2][kKinds];
  uint8_t current_;
  uint8_t phase_;
  uint8_t turn_;
  uint8_t extra_turns_;
  uint8_t tile_;
  uint8_t alt_tile_;
  uint8_t last_cell_;
  uint16_t pending_[kMaxPending];
  uint8_t num_pending_;
  uint16_t double_area_;
  uint8_t reveal_for_;
  uint8_t deal_step_;
  uint8_t empty_area_;  // the keep bonus's empty area (set at game end, for the record)
  // ---- derived (rebuild_derived) ----
  Board occ_;
  Board needs_[4];
  Board forbids_[4];
  uint16_t cell_node0_[kMaxCells];
  uint16_t num_nodes_;
  uint16_t parent_[kMaxNodes];
  Area area_[kMaxNodes];
};

// Views used on the hot paths of several parts (cpp/castle/*.cpp), inline in each.

inline int State::supply_total() const {
  int n = 0;
  for (int t = 0; t < cfg_->num_types; ++t) n += supply_[t];
  return n;
}

inline int State::followers_in_supply(int p) const {
  int n = 0;
  for (int i = 0; i < kFollowers; ++i) n += fcell_[p][i] == kNone8;
  return n;
}

inline bool State::placeable(int t) const {
  for (int r = 0; r < 4; ++r)
    if ((cfg_->rot_mask[t] >> r) & 1 && legal_cells(t, r).any()) return true;
  return false;
}

}  // namespace tilecraft::castle
