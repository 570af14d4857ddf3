// Azul's binding: the common API from bind_game.hpp plus numpy views of the board.
#include "azul/state.hpp"
#include "bind_game.hpp"

namespace tilecraft {
namespace {

using azul::State;
using P = PyState<State>;

void bind_azul(py::module_& m) {
  auto cls = bind_game<State>(m, "AzulState");
  cls.def("walls",
          [](const P& p) {
            const int n = p.s.num_players();
            py::array_t<bool> out({n, 5, 5});
            auto v = out.mutable_unchecked<3>();
            for (int q = 0; q < n; ++q)
              for (int r = 0; r < 5; ++r)
                for (int c = 0; c < 5; ++c) v(q, r, c) = (p.s.wall(q) >> (r * 5 + c)) & 1u;
            return out;
          },
          "bool array [player, row, column]: the tiles on each wall.")
      .def("pattern_lines",
           [](const P& p) {
             const int n = p.s.num_players();
             py::array_t<int8_t> out({n, 5, 2});
             auto v = out.mutable_unchecked<3>();
             for (int q = 0; q < n; ++q)
               for (int k = 0; k < 5; ++k) {
                 v(q, k, 0) = static_cast<int8_t>(p.s.line_colour(q, k));
                 v(q, k, 1) = static_cast<int8_t>(p.s.line_count(q, k));
               }
             return out;
           },
           "int8 array [player, line, (colour or -1, count)].")
      .def("factories",
           [](const P& p) {
             const int nf = p.s.config().factories();
             py::array_t<int8_t> out({nf + 1, 5});
             auto v = out.mutable_unchecked<2>();
             for (int s = 0; s <= nf; ++s)
               for (int c = 0; c < 5; ++c) v(s, c) = static_cast<int8_t>(p.s.source_count(s, c));
             return out;
           },
           "int8 array [source, colour] of tile counts: row 0 is the centre, rows 1.. the factories.")
      .def("floors",
           [](const P& p) {
             const int n = p.s.num_players();
             py::array_t<int8_t> out({n, 7});
             auto v = out.mutable_unchecked<2>();
             for (int q = 0; q < n; ++q) {
               v(q, 0) = static_cast<int8_t>(p.s.floor_count(q));
               v(q, 1) = static_cast<int8_t>(p.s.holds_marker(q));
               for (int c = 0; c < 5; ++c) v(q, 2 + c) = static_cast<int8_t>(p.s.floor_tiles(q, c));
             }
             return out;
           },
           "int8 array [player, (occupied spaces, holds marker, tiles of colour 0..4)].")
      .def("bag", [](const P& p) {
        py::array_t<int8_t> out(5);
        for (int c = 0; c < 5; ++c) out.mutable_data()[c] = static_cast<int8_t>(p.s.bag(c));
        return out;
      }, "Tile counts per colour in the bag.")
      .def("lid", [](const P& p) {
        py::array_t<int8_t> out(5);
        for (int c = 0; c < 5; ++c) out.mutable_data()[c] = static_cast<int8_t>(p.s.lid(c));
        return out;
      }, "Tile counts per colour in the box lid.")
      .def("marker_in_centre", [](const P& p) { return p.s.marker_in_centre(); })
      .def("round", [](const P& p) { return p.s.round(); }, "0-based index of the current round.")
      .def("first_player", [](const P& p) { return p.s.round_first_player(); }, "Seat that started this round.")
      .def("next_first_player", [](const P& p) { return p.s.next_first_player(); },
           "Seat that will start the next round (the marker's holder, or this round's first player).")
      .def("complete_rows", [](const P& p, int q) {
        check_seat(p.s, q, "complete_rows");
        return p.s.complete_rows(q);
      });
  m.attr("AZUL_STATE_BYTES") = sizeof(State);
}

}  // namespace

TILECRAFT_REGISTER_GAME(bind_azul);

}  // namespace tilecraft
