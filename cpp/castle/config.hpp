// Carcassonne: The Castle: rule options and component data (spec: shared/rules/castle.md).
//
// Rule options, their types and defaults:
//   first_player       int 0   seat that starts, or -1 for a chance node (CA-SETUP-6, CA-AMB-24)
//   explicit_chance    int 0   0: draws and reveals are sampled inside apply(); 1: the state stops at chance nodes
//   returns_mode       int 1   0: "score" (returns = final scores), 1: "win_loss" (+1/-1, draw 0) (CA-AMB-29)
//   start_bonus_tiles  int 1   each player is dealt one leftover wall tile at setup (CA-VAR-1, CA-AMB-5)
//   bonus1_mode        int 0   0: "two_turns", 1: "draw_two_choose_one" (CA-AMB-7)
//   bonus7_scope       int 0   0: "one_courtyard", 1: "all_courtyards" (CA-AMB-10)
//   scoring_order      int 0   0: "chosen" (the active player orders simultaneous scores), 1: "canonical" (CA-AMB-14)
//
// Component data (loaded and checked by python/tilecraft/games/castle.py from the JSON files in
// python/tilecraft/data/castle/, checked again here because a saved state carries its config):
//   board: a width x height bounding grid (width * height <= 128), the interior cells, the gates
//   (start spaces: an interior cell, the side of it the gate is on, the 3 edge segments printed on
//   it), the corners of the score track (the lower of the two spaces each spans; one of them is the
//   0/1 corner, which is never stocked) and the wall tiles (copies of kinds 1..9).
//   tiles: up to 64 tile types, each with a count, 12 edge segments (N, E, S, W, each listed
//   clockwise: type 0 road, 1 tower, 2 house, 3 court; a road only in a side's centre), the area
//   each segment belongs to, and per area a well flag and a market (stall) count.
//
// Derived tables (bbox neighbours, rotation tables, gate areas) are computed by validate(), which
// every path that makes a Config calls; they are `mutable` and never serialised.
#pragma once
#include <cstdint>
#include <cstring>

#include "core/bitboard.hpp"
#include "core/errors.hpp"

namespace tilecraft::castle {

constexpr int kMaxCells = 128;     // bounding-grid cells (2 words)
constexpr int kMaxInterior = 100;  // interior cells
constexpr int kMaxGates = 16;
constexpr int kMaxCorners = 16;
constexpr int kMaxTypes = 64;      // tile types (= max chance outcomes of a draw)
constexpr int kSlots = 8;          // K: areas per tile
constexpr int kPendingIds = 8;     // J: "score pending area j" ids
constexpr int kKinds = 9;          // wall-tile kinds 1..9
constexpr int kMaxNodes = 640;     // area nodes: gate areas + placed tiles x their areas
constexpr int kTrackSpaces = 100;

enum SegType : uint8_t { kRoad = 0, kTower = 1, kHouse = 2, kCourt = 3 };
enum Side : uint8_t { kN = 0, kE = 1, kS = 2, kW = 3 };

using Board = Bits<2>;

struct Config {
  // ---- rule options ----
  int32_t first_player = 0;
  int32_t explicit_chance = 0;
  int32_t returns_mode = 1;
  int32_t start_bonus_tiles = 1;
  int32_t bonus1_mode = 0;
  int32_t bonus7_scope = 0;
  int32_t scoring_order = 0;
  // ---- board ----
  int32_t width = 0;
  int32_t height = 0;
  uint8_t interior[kMaxCells] = {};  // 1 = interior cell, bbox row-major
  int32_t num_gates = 0;
  uint8_t gate_cell[kMaxGates] = {};  // bbox index of the interior cell the gate faces
  uint8_t gate_side[kMaxGates] = {};  // side of that cell the gate is on (0 N, 1 E, 2 S, 3 W)
  uint8_t gate_seg[kMaxGates][3] = {};  // segment types, clockwise around the interior cell
  uint8_t gate_stalls[kMaxGates] = {};  // markets printed in the gate's court (CA-AMB-27), 0..8
  int32_t num_corners = 0;
  uint8_t corner_space[kMaxCorners] = {};  // the corner spans spaces a and a+1 (mod 100)
  int32_t start_corner = 0;                // index of the 0/1 corner (never stocked, CA-CORNER-2)
  uint8_t bonus_copies[kKinds] = {};       // wall tiles per kind 1..9 (CA-AMB-3)
  // ---- tiles ----
  int32_t num_types = 0;
  uint8_t type_count[kMaxTypes] = {};
  uint8_t seg_type[kMaxTypes][12] = {};
  uint8_t seg_area[kMaxTypes][12] = {};
  uint8_t area_count[kMaxTypes] = {};
  uint8_t area_well[kMaxTypes][kSlots] = {};
  uint8_t area_stalls[kMaxTypes][kSlots] = {};

  template <class V>
  void visit(V& v) {
    v.field("first_player", first_player);
    v.field("explicit_chance", explicit_chance);
    v.field("returns_mode", returns_mode);
    v.field("start_bonus_tiles", start_bonus_tiles);
    v.field("bonus1_mode", bonus1_mode);
    v.field("bonus7_scope", bonus7_scope);
    v.field("scoring_order", scoring_order);
    v.field("width", width);
    v.field("height", height);
    v.field("interior", interior);
    v.field("num_gates", num_gates);
    v.field("gate_cell", gate_cell);
    v.field("gate_side", gate_side);
    v.field("gate_seg", gate_seg);
    v.field("gate_stalls", gate_stalls);
    v.field("num_corners", num_corners);
    v.field("corner_space", corner_space);
    v.field("start_corner", start_corner);
    v.field("bonus_copies", bonus_copies);
    v.field("num_types", num_types);
    v.field("type_count", type_count);
    v.field("seg_type", seg_type);
    v.field("seg_area", seg_area);
    v.field("area_count", area_count);
    v.field("area_well", area_well);
    v.field("area_stalls", area_stalls);
  }

  // Throws InvalidConfig naming the field and what is allowed; then fills the derived tables.
  void validate() const;

  // ---- derived (validate() fills them) ----
  mutable bool prepared = false;
  mutable int num_interior = 0;
  mutable int total_tiles = 0;
  mutable int16_t rank[kMaxCells];        // bbox -> interior index, -1 outside
  mutable uint8_t unrank[kMaxInterior];   // interior index -> bbox
  mutable int16_t nbr[kMaxCells][4];      // bbox neighbour that is interior, else -1
  mutable int8_t gate_at[kMaxCells][4];   // gate on that side of the cell, else -1
  mutable Board interior_mask, not_first_col, not_last_col;
  mutable uint8_t roads[kMaxTypes][4];    // board sides with a road centre, per rotation (bit d)
  mutable uint8_t rot_mask[kMaxTypes];    // distinct rotations (duplicates of symmetric tiles dropped)
  mutable uint8_t area_type[kMaxTypes][kSlots];
  mutable int num_gate_nodes = 0;
  mutable uint16_t gate_node[kMaxGates][3];
  mutable int8_t corner_at[kTrackSpaces];  // corner index at a track space, else -1
  mutable int max_areas = 0;
  // observation planes (State::observation): per type and rotation, the plane of each of the 12
  // segment slots (2 + 4 * slot + segment type), and the tile's wells and markets / 4
  mutable uint8_t obs_seg_plane[kMaxTypes][4][12];
  mutable float obs_wells[kMaxTypes], obs_stalls[kMaxTypes];

  Board dilate(const Board& b) const {
    return b | (b.shl(1) & not_first_col) | (b.shr(1) & not_last_col) | b.shl(width) | b.shr(width);
  }
};

}  // namespace tilecraft::castle
