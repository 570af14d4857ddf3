// Carcassonne: The Castle's binding: the common API from bind_game.hpp plus views of the board.
#include "bind_game.hpp"
#include "castle/state.hpp"

namespace tilecraft {
namespace {

using castle::State;
using P = PyState<State>;

py::dict area_dict(const State& s, int node) {
  const castle::Area& a = s.area(node);
  py::dict d;
  static const char* names[4] = {"road", "tower", "house", "court"};
  d["root"] = s.find(node);
  d["type"] = names[a.type];
  d["tiles"] = a.tiles();
  d["open"] = static_cast<int>(a.open);
  d["complete"] = a.open == 0;
  d["well"] = static_cast<bool>(a.well);
  d["markets"] = static_cast<int>(a.stalls);
  d["followers"] = py::make_tuple(static_cast<int>(a.f[0]), static_cast<int>(a.f[1]));
  d["points"] = s.points_of(a);
  py::list cells;
  a.cells.for_each([&](int c) { cells.append(c); });
  d["cells"] = cells;
  py::list gates;
  for (int g = 0; g < 16; ++g)
    if ((a.gates >> g) & 1) gates.append(g);
  d["gates"] = gates;
  return d;
}

// One count per tile type, from a State accessor (supply, removed).
py::array_t<int16_t> per_type(const State& s, int (State::*count)(int) const) {
  const int n = s.config().num_types;
  py::array_t<int16_t> out(n);
  for (int t = 0; t < n; ++t) out.mutable_data()[t] = static_cast<int16_t>((s.*count)(t));
  return out;
}

void bind_castle(py::module_& m) {
  auto cls = bind_game<State>(m, "CastleState");
  cls.def("board",
          [](const P& p) {
            const auto& c = p.s.config();
            py::array_t<int16_t> out({c.height, c.width, 2});
            auto v = out.mutable_unchecked<3>();
            for (int r = 0; r < c.height; ++r)
              for (int col = 0; col < c.width; ++col) {
                const int cell = r * c.width + col;
                v(r, col, 0) = static_cast<int16_t>(c.interior[cell] ? p.s.cell_tile(cell) : -2);
                v(r, col, 1) = static_cast<int16_t>(p.s.cell_tile(cell) >= 0 ? p.s.cell_rot(cell) : 0);
              }
            return out;
          },
          "int16 array [row, col, (tile type, rotation)]: type -1 = empty interior, -2 = outside the wall.")
      .def("followers",
           [](const P& p) {
             py::list out;
             for (int q = 0; q < 2; ++q)
               for (int i = 0; i < castle::kFollowers; ++i) {
                 const int cell = p.s.follower_cell(q, i);
                 if (cell < 0) continue;
                 const int slot = p.s.follower_slot(q, i);
                 py::dict d = area_dict(p.s, p.s.node_of(cell, slot));
                 d["seat"] = q;
                 d["cell"] = cell;
                 d["slot"] = slot;
                 out.append(d);
               }
             return out;
           },
           "Followers on the board: dicts with seat, cell (bbox index row * width + col), slot and their area.")
      .def("area_at",
           [](const P& p, int cell, int slot) {
             const auto& c = p.s.config();
             require<std::out_of_range>(cell >= 0 && cell < castle::kMaxCells && p.s.cell_tile(cell) >= 0,
                                        "area_at: cell ", cell, " holds no tile");
             require<std::out_of_range>(slot >= 0 && slot < c.area_count[p.s.cell_tile(cell)], "area_at: tile on cell ",
                                        cell, " has no area slot ", slot);
             return area_dict(p.s, p.s.node_of(cell, slot));
           },
           py::arg("cell"), py::arg("slot"), "The area through area slot `slot` of the tile on `cell`.")
      .def("areas",
           [](const P& p) {
             py::list out;
             for (int n = 0; n < p.s.num_nodes(); ++n)
               if (p.s.is_root(n)) out.append(area_dict(p.s, n));
             return out;
           },
           "Every area on the board (gate-only areas included).")
      .def("pending_areas",
           [](const P& p) {
             py::list out;
             for (int j = 0; j < p.s.num_pending(); ++j) out.append(area_dict(p.s, p.s.pending(j)));
             return out;
           },
           "Completed areas still to be scored this turn, in pending order.")
      .def("current_tile", [](const P& p) { return p.s.current_tile(); }, "Tile type in hand (-1 none).")
      .def("alt_tile", [](const P& p) { return p.s.alt_tile(); }, "The other drawn tile in draw_two_choose_one mode.")
      .def("last_cell", [](const P& p) { return p.s.last_cell(); })
      .def("supply", [](const P& p) { return per_type(p.s, &State::supply); },
           "Tiles left in the supply per type (what is left is public; the order is not).")
      .def("removed", [](const P& p) { return per_type(p.s, &State::removed); },
           "Tiles set aside as unplaceable, per type.")
      .def("placed_cells",
           [](const P& p) {
             std::vector<int> v;
             for (int k = 0; k < p.s.num_placed(); ++k) v.push_back(p.s.placed_cell(k));
             return v;
           },
           "Cells in placement order.")
      .def("followers_in_supply", [](const P& p, int q) {
        check_seat(p.s, q, "followers_in_supply");
        return p.s.followers_in_supply(q);
      })
      .def("keep",
           [](const P& p, int q) {
             check_seat(p.s, q, "keep");
             return py::make_tuple(p.s.keep_size(q), p.s.keep_cell(q));
           },
           "(size, cell) of a seat's keep (palace); (0, -1) when it has none.")
      .def("wall_tiles",
           [](const P& p) {
             py::array_t<int8_t> out({2, 3, 9});
             auto v = out.mutable_unchecked<3>();
             for (int q = 0; q < 2; ++q)
               for (int k = 0; k < 9; ++k) {
                 v(q, 0, k) = static_cast<int8_t>(p.s.held(q, k));
                 v(q, 1, k) = static_cast<int8_t>(p.s.fresh(q, k));
                 v(q, 2, k) = static_cast<int8_t>(p.s.used(q, k));
               }
             return out;
           },
           "int8 [seat, (usable, taken this round, used), kind 1..9] wall-tile counts.")
      .def("corners_stocked",
           [](const P& p) {
             std::vector<bool> v;
             for (int k = 0; k < p.s.config().num_corners; ++k) v.push_back(p.s.corner_stocked(k));
             return v;
           },
           "Per corner: does it still hold a face-down wall tile?")
      .def("scores_by_category",
           [](const P& p) {
             py::array_t<int16_t> out({2, static_cast<int>(castle::kCats)});
             auto v = out.mutable_unchecked<2>();
             for (int q = 0; q < 2; ++q)
               for (int k = 0; k < castle::kCats; ++k) v(q, k) = static_cast<int16_t>(p.s.category_score(q, k));
             return out;
           },
           "int16 [seat, (road, tower, house, court, wall tiles 4-6, wall tile 9, keep)]; rows sum to the scores.")
      .def("largest_empty_area", [](const P& p) { return p.s.largest_empty_area(); },
           "Cells in the largest connected group of empty interior cells (bitboard flood fill).")
      .def("extra_turns", [](const P& p) { return p.s.extra_turns(); })
      .def("turn", [](const P& p) { return p.s.turn(); })
      .def("legal_cells",
           [](const P& p, int t, int r) {
             require<std::out_of_range>(t >= 0 && t < p.s.config().num_types && r >= 0 && r < 4,
                                        "legal_cells: bad tile type or rotation");
             std::vector<int> v;
             p.s.legal_cells(t, r).for_each([&](int c) { v.push_back(c); });
             return v;
           },
           py::arg("tile"), py::arg("rotation"), "Cells where tile type `tile` fits with `rotation` now.");
  m.attr("CASTLE_STATE_BYTES") = sizeof(State);
}

}  // namespace

TILECRAFT_REGISTER_GAME(bind_castle);

}  // namespace tilecraft
