// Castle config validation and the derived tables (see config.hpp).
#include <cstring>

#include "castle/config.hpp"

namespace tilecraft::castle {

namespace {
const char* kSideNames[4] = {"N", "E", "S", "W"};
}

void Config::validate() const {
  auto opt01 = [](int32_t v, const char* name, const char* allowed) {
    require<InvalidConfig>(v == 0 || v == 1, "castle: ", name, " must be ", allowed, ", got ", v);
  };
  require<InvalidConfig>(first_player >= -1 && first_player <= 1, "castle: first_player must be -1 (random), 0 or 1, got ",
                         first_player);
  opt01(explicit_chance, "explicit_chance", "0 (sampled) or 1 (explicit)");
  opt01(returns_mode, "returns_mode", "0 (score) or 1 (win_loss)");
  opt01(start_bonus_tiles, "start_bonus_tiles", "0 or 1");
  opt01(bonus1_mode, "bonus1_mode", "0 (two_turns) or 1 (draw_two_choose_one)");
  opt01(bonus7_scope, "bonus7_scope", "0 (one_courtyard) or 1 (all_courtyards)");
  opt01(scoring_order, "scoring_order", "0 (chosen) or 1 (canonical)");

  // ---- board ----
  require<InvalidConfig>(width >= 1 && height >= 1 && width <= 63 && width * height <= kMaxCells,
                         "castle board: width x height must fit 128 cells (width <= 63), got ", width, " x ", height);
  const int cells = width * height;
  int n = 0;
  for (int c = 0; c < kMaxCells; ++c) {
    require<InvalidConfig>(interior[c] <= 1, "castle board: interior[", c, "] must be 0 or 1");
    require<InvalidConfig>(c < cells || interior[c] == 0, "castle board: interior cell ", c, " lies outside the ", width,
                           " x ", height, " grid");
    n += interior[c];
  }
  require<InvalidConfig>(n >= 1 && n <= kMaxInterior, "castle board: needs 1..", kMaxInterior, " interior cells, got ", n);
  require<InvalidConfig>(num_gates >= 1 && num_gates <= kMaxGates, "castle board: needs 1..", kMaxGates,
                         " start spaces (gates), got ", num_gates);
  for (int g = 0; g < num_gates; ++g) {
    const int c = gate_cell[g], d = gate_side[g];
    require<InvalidConfig>(c < cells && interior[c], "castle board: gate ", g, " faces cell ", c, ", which is not interior");
    require<InvalidConfig>(d < 4, "castle board: gate ", g, " side must be 0..3 (N E S W), got ", d);
    const int r = c / width, col = c % width;
    const int rr = r + (d == 2) - (d == 0), cc = col + (d == 1) - (d == 3);
    const bool inside = rr >= 0 && rr < height && cc >= 0 && cc < width && interior[rr * width + cc];
    require<InvalidConfig>(!inside, "castle board: gate ", g, " on side ", kSideNames[d], " of cell (", r, ",", col,
                           ") would sit on an interior cell; a gate lies in the wall");
    bool court = false;
    for (int i = 0; i < 3; ++i) {
      const int t = gate_seg[g][i];
      require<InvalidConfig>(t <= 3, "castle board: gate ", g, " segment ", i,
                             " must be road, tower, house or court (0..3), got type ", t);
      require<InvalidConfig>(t != kRoad || i == 1, "castle board: gate ", g, " has a road on segment ", i,
                             "; a road may only occupy a side's centre (CA-AMB-19)");
      court |= t == kCourt;
    }
    require<InvalidConfig>(gate_stalls[g] <= 8, "castle board: gate ", g, " markets must be 0..8, got ",
                           int(gate_stalls[g]));
    require<InvalidConfig>(court || gate_stalls[g] == 0, "castle board: gate ", g,
                           " has markets but no court segment (CA-AMB-27)");
    for (int h = 0; h < g; ++h)
      require<InvalidConfig>(gate_cell[h] != c || gate_side[h] != d, "castle board: gates ", h, " and ", g,
                             " are on the same side of the same cell");
  }
  require<InvalidConfig>(num_corners >= 1 && num_corners <= kMaxCorners, "castle board: needs 1..", kMaxCorners,
                         " corners, got ", num_corners);
  require<InvalidConfig>(start_corner >= 0 && start_corner < num_corners, "castle board: start_corner must be 0..",
                         num_corners - 1, ", got ", start_corner);
  int8_t at[kTrackSpaces];
  std::memset(at, -1, sizeof at);
  for (int k = 0; k < num_corners; ++k) {
    const int a = corner_space[k];
    require<InvalidConfig>(a < kTrackSpaces, "castle board: corner ", k, " space must be 0..99, got ", a);
    for (int s : {a, (a + 1) % kTrackSpaces}) {
      require<InvalidConfig>(at[s] < 0, "castle board: corners ", int(at[s]), " and ", k, " share track space ", s);
      at[s] = static_cast<int8_t>(k);
    }
  }
  require<InvalidConfig>(corner_space[start_corner] == 0, "castle board: the start corner must span spaces 0 and 1");
  int copies = 0;
  for (int k = 0; k < kKinds; ++k) {
    require<InvalidConfig>(bonus_copies[k] <= 8, "castle board: wall tile ", k + 1, " copies must be 0..8");
    copies += bonus_copies[k];
  }
  const int stocked = num_corners - 1;
  require<InvalidConfig>(copies >= stocked + (start_bonus_tiles ? 2 : 0), "castle board: ", copies,
                         " wall tiles cannot stock ", stocked, " corners",
                         start_bonus_tiles ? " and deal one to each player" : "");

  // ---- tiles ----
  require<InvalidConfig>(num_types >= 1 && num_types <= kMaxTypes, "castle tiles: needs 1..", kMaxTypes,
                         " tile types, got ", num_types);
  int total = 0, max_a = 0;
  for (int t = 0; t < kMaxTypes; ++t) {
    if (t >= num_types) {
      require<InvalidConfig>(type_count[t] == 0 && area_count[t] == 0, "castle tiles: type ", t, " is beyond num_types");
      continue;
    }
    total += type_count[t];
    const int na = area_count[t];
    require<InvalidConfig>(na >= 1 && na <= kSlots, "castle tiles: type ", t, " must have 1..", kSlots, " areas, got ", na);
    max_a = na > max_a ? na : max_a;
    int8_t atype[kSlots];
    std::memset(atype, -1, sizeof atype);
    for (int s = 0; s < 12; ++s) {
      const int st = seg_type[t][s], a = seg_area[t][s];
      require<InvalidConfig>(st <= 3, "castle tiles: type ", t, " segment ", kSideNames[s / 3], s % 3,
                             " has unknown type ", st);
      require<InvalidConfig>(st != kRoad || s % 3 == 1, "castle tiles: type ", t, " has a road on segment ",
                             kSideNames[s / 3], s % 3, "; a road may only occupy a side's centre (CA-AMB-19)");
      require<InvalidConfig>(a < na, "castle tiles: type ", t, " segment ", kSideNames[s / 3], s % 3, " is in area ", a,
                             ", but the tile has ", na, " areas");
      require<InvalidConfig>(atype[a] < 0 || atype[a] == st, "castle tiles: type ", t, " area ", a,
                             " mixes segment types");
      atype[a] = static_cast<int8_t>(st);
    }
    for (int a = 0; a < kSlots; ++a) {
      if (a >= na) {
        require<InvalidConfig>(area_well[t][a] == 0 && area_stalls[t][a] == 0, "castle tiles: type ", t, " area ", a,
                               " does not exist");
        continue;
      }
      require<InvalidConfig>(atype[a] >= 0, "castle tiles: type ", t, " area ", a, " has no edge segment");
      require<InvalidConfig>(area_well[t][a] <= 1 && (area_well[t][a] == 0 || atype[a] == kRoad), "castle tiles: type ",
                             t, " area ", a, ": a well must be on a road");
      require<InvalidConfig>(area_stalls[t][a] <= 8 && (area_stalls[t][a] == 0 || atype[a] == kCourt),
                             "castle tiles: type ", t, " area ", a, ": markets (0..8) must be in a court");
      area_type[t][a] = static_cast<uint8_t>(atype[a]);
    }
  }
  require<InvalidConfig>(total >= 1 && total <= 250, "castle tiles: the manifest must hold 1..250 tiles, got ", total);
  int markets = 0;
  for (int t = 0; t < num_types; ++t)
    for (int a = 0; a < kSlots; ++a) markets += type_count[t] * area_stalls[t][a];
  for (int g = 0; g < num_gates; ++g) markets += gate_stalls[g];  // CA-AMB-27
  require<InvalidConfig>(markets <= 255, "castle: the tiles and start spaces hold ", markets, " markets; at most 255");

  // ---- derived ----
  num_interior = n;
  total_tiles = total;
  max_areas = max_a;
  interior_mask = not_first_col = not_last_col = Board::zero();
  int k = 0;
  for (int c = 0; c < kMaxCells; ++c) {
    rank[c] = -1;
    if (c < cells && interior[c]) {
      rank[c] = static_cast<int16_t>(k);
      unrank[k++] = static_cast<uint8_t>(c);
      interior_mask.set(c);
    }
    if (c < cells && c % width != 0) not_first_col.set(c);
    if (c < cells && c % width != width - 1) not_last_col.set(c);
  }
  for (int c = 0; c < kMaxCells; ++c) {
    const int r = c / width, col = c % width;
    for (int d = 0; d < 4; ++d) {
      nbr[c][d] = -1;
      gate_at[c][d] = -1;
      if (c >= cells) continue;
      const int rr = r + (d == 2) - (d == 0), cc = col + (d == 1) - (d == 3);
      if (rr >= 0 && rr < height && cc >= 0 && cc < width && interior[rr * width + cc]) nbr[c][d] = static_cast<int16_t>(rr * width + cc);
    }
  }
  int nodes = 0;
  for (int g = 0; g < num_gates; ++g) {
    gate_at[gate_cell[g]][gate_side[g]] = static_cast<int8_t>(g);
    for (int i = 0; i < 3; ++i) {
      // consecutive segments of one type form one gate area
      if (i > 0 && gate_seg[g][i] == gate_seg[g][i - 1]) gate_node[g][i] = gate_node[g][i - 1];
      else gate_node[g][i] = static_cast<uint16_t>(nodes++);
    }
  }
  num_gate_nodes = nodes;
  const int placements = total < n ? total : n;
  require<InvalidConfig>(nodes + placements * max_a <= kMaxNodes, "castle: the board and manifest need up to ",
                         nodes + placements * max_a, " area nodes, more than the engine's ", kMaxNodes);
  for (int t = 0; t < num_types; ++t) {
    uint8_t m0 = 0;
    for (int d = 0; d < 4; ++d) m0 |= static_cast<uint8_t>((seg_type[t][d * 3 + 1] == kRoad) << d);
    rot_mask[t] = 0;
    for (int r = 0; r < 4; ++r) {
      roads[t][r] = static_cast<uint8_t>(((m0 << r) | (m0 >> (4 - r))) & 15);
      // rotation r duplicates r' < r if the tile maps onto itself under r - r'
      bool dup = false;
      for (int q = 1; q <= r && !dup; ++q) {
        if (!((rot_mask[t] >> (r - q)) & 1)) continue;
        // compare the tile rotated by q with itself: segment s -> (s + 3q) % 12
        int map[kSlots];
        std::memset(map, -1, sizeof map);
        bool same = true;
        for (int s = 0; s < 12 && same; ++s) {
          const int s2 = (s + 3 * q) % 12;
          const int a = seg_area[t][s], b = seg_area[t][s2];
          same = seg_type[t][s] == seg_type[t][s2] && area_well[t][a] == area_well[t][b] &&
                 area_stalls[t][a] == area_stalls[t][b] && (map[a] < 0 || map[a] == b);
          map[a] = b;
        }
        dup = same;
      }
      if (!dup) rot_mask[t] |= static_cast<uint8_t>(1u << r);
    }
  }
  for (int t = 0; t < num_types; ++t) {
    for (int r = 0; r < 4; ++r)
      for (int s = 0; s < 12; ++s)
        obs_seg_plane[t][r][s] = static_cast<uint8_t>(2 + 4 * s + seg_type[t][(s + 12 - 3 * r) % 12]);
    obs_wells[t] = obs_stalls[t] = 0.0f;
    for (int k = 0; k < area_count[t]; ++k) {
      obs_wells[t] += area_well[t][k];
      obs_stalls[t] += area_stalls[t][k] / 4.0f;
    }
  }
  std::memset(corner_at, -1, sizeof corner_at);
  for (int c = 0; c < num_corners; ++c) {
    corner_at[corner_space[c]] = static_cast<int8_t>(c);
    corner_at[(corner_space[c] + 1) % kTrackSpaces] = static_cast<int8_t>(c);
  }
  prepared = true;
}

}  // namespace tilecraft::castle
