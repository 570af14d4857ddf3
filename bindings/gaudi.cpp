// Gaudí's binding: the common API from bind_game.hpp plus read-only views for tests and tools.
#include "bind_game.hpp"
#include "gaudi/state.hpp"

namespace tilecraft {
namespace {

using gaudi::State;
using P = PyState<State>;

void bind_gaudi(py::module_& m) {
  auto cls = bind_game<State>(m, "GaudiState");
  cls.def("round", [](const P& p) { return p.s.round(); })
      .def("expert", [](const P& p) { return p.s.expert(); },
           "Whether the game plays the expert (night) rules; config()['mode'] == 1, without building the dict.")
      .def("positions", [](const P& p) {
        py::list l;
        for (int k = 0; k < 5; ++k) l.append(p.s.position(k));
        return l;
      }, "Track index per marker (seats 0..3, then the virtual marker): -1 not entered, 0..47, 48 left.")
      .def("track_occupancy", [](const P& p) { return p.s.track_occupancy(); })
      .def("leader", [](const P& p) { return p.s.leader(); }, "Whether the seat to act leads this turn (GA-AMB-9).")
      .def("units", [](const P& p) {
        return py::make_tuple(p.s.space(), p.s.pencils_left(), p.s.hammers_left(), p.s.unit_mode(), p.s.generic_used());
      }, "(space, pencils left, hammers left, mode 1 pencils / 2 hammers / 3 both, generic types used mask).")
      .def("start_player", [](const P& p) { return p.s.start_player(); })
      .def("marker_holder", [](const P& p) { return p.s.marker_holder(); }, "Holder of the start-player marker.")
      .def("anyone_finished", [](const P& p) { return p.s.anyone_finished(); })
      .def("central", [](const P& p) {
        return py::make_tuple(p.s.central_tile(), p.s.central_used(), p.s.central_options());
      }, "(current central tile or -1, mask of tiles drawn, options still available mask).")
      .def("extra_turns", [](const P& p) { return p.s.extra_turns(); })
      .def("areas", [](const P& p) {
        py::list l;
        for (int a = 0; a < gaudi::kAreas; ++a) {
          py::list x;
          for (int t = 0; t < gaudi::kTypes; ++t) x.append(p.s.area_count(a, t));
          l.append(x);
        }
        return l;
      }, "Per supply area, the count of each tile type 4 * colour + shape.")
      .def("bag", [](const P& p) {
        py::list l;
        for (int t = 0; t < gaudi::kTypes; ++t) l.append(p.s.bag_count(t));
        return l;
      })
      .def("windows", [](const P& p) {
        py::list l;
        for (int d = 0; d < 3; ++d) {
          py::list x;
          for (int k = 0; k < p.s.window_size(d); ++k) x.append(p.s.window_card(d, k));
          l.append(x);
        }
        return l;
      }, "Card ids per window (Nature, Catalan, Religion) in reveal order.")
      .def("deck_sizes", [](const P& p) { return py::make_tuple(p.s.deck_size(0), p.s.deck_size(1), p.s.deck_size(2)); })
      .def("hand", [](const P& p, int q) {
        check_seat(p.s, q, "hand");
        py::list l;
        for (int k = 0; k < p.s.hand_size(q); ++k) l.append(p.s.hand_card(q, k));
        return l;
      }, py::arg("seat"), "Card ids in a hand (hidden information: for tests and tools, not bots).")
      .def("start_card", [](const P& p, int q) {
        check_seat(p.s, q, "start_card");
        return p.s.start_card(q);
      }, py::arg("seat"), "The seat's hidden starting card while it is in hand, else -1.")
      .def("columns", [](const P& p, int q) {
        check_seat(p.s, q, "columns");
        py::list l;
        for (int d = 0; d < 3; ++d) {
          py::list x;
          for (int k = 0; k < p.s.column_size(q, d); ++k) x.append(p.s.column_card(q, d, k));
          l.append(x);
        }
        return l;
      }, py::arg("seat"))
      .def("discards", [](const P& p) {
        py::list l;
        for (int c = 0; c < gaudi::kCards; ++c)
          if (p.s.card_location(c) == gaudi::kLocDiscard) l.append(c);
        return l;
      })
      .def("card_location", [](const P& p, int c) {
        require<std::out_of_range>(c >= 0 && c < gaudi::kCards, "card id must be 0..98");
        return py::make_tuple(p.s.card_location(c), p.s.card_owner(c));
      }, py::arg("card"), "(0 deck, 1 window, 2 hand, 3 column, 4 discard, 5 pool; owner seat or domain).")
      .def("chimney_tiles", [](const P& p, int q) {
        check_seat(p.s, q, "chimney_tiles");
        return py::make_tuple(p.s.chimney_tile(q, 0), p.s.chimney_tile(q, 1), p.s.chimney_tile(q, 2));
      }, "The chimney tile id per domain (expert: dealt at random, 255 before; basic: the day tile).")
      .def("draft_start", [](const P& p) { return p.s.draft_start(); }, "Expert: the start player when the draft ran.")
      .def("knows_passed", [](const P& p, int q, int c) {
        check_seat(p.s, q, "knows_passed");
        return p.s.knows_passed(q, c);
      }, "Expert draft: whether seat q knows card c as one of the hidden cards it has seen or passed on.")
      .def("automa_score", [](const P& p) { return p.s.automa_score(); }, "Solo: the automa's final score (0 before the end).")
      .def("automa_final_score", [](const P& p) { return p.s.automa_final_score(); },
           "Solo: the automa's score by GA-SOLO-END-2..4 as if the game ended now.")
      .def("automa_area", [](const P& p) {
        py::list cols, tiles, vtiles;
        for (int d = 0; d < 3; ++d) {
          py::list x;
          for (int k = 0; k < p.s.automa_column_size(d); ++k) x.append(p.s.automa_column_card(d, k));
          cols.append(x);
        }
        for (int t = 0; t < gaudi::kTypes; ++t) tiles.append(p.s.automa_tiles(t)), vtiles.append(p.s.virtual_tiles(t));
        return py::make_tuple(cols, tiles, vtiles);
      }, "Solo: (the automa's columns N, C, R earliest first, its tiles per type, the virtual marker's removed tiles per type).")
      .def("chimneys", [](const P& p, int q) {
        check_seat(p.s, q, "chimneys");
        return py::make_tuple(p.s.chimney(q, 0), p.s.chimney(q, 1), p.s.chimney(q, 2));
      }, py::arg("seat"))
      .def("domain_scores", [](const P& p, int q) {
        check_seat(p.s, q, "domain_scores");
        return py::make_tuple(p.s.domain_score(q, 0), p.s.domain_score(q, 1), p.s.domain_score(q, 2));
      }, py::arg("seat"))
      .def("board", [](const P& p, int q) {
        check_seat(p.s, q, "board");
        py::list l;
        for (int c = 0; c < 4; ++c) l.append(p.s.colour_mask(q, c));
        return l;
      }, py::arg("seat"), "One occupancy mask per colour (bit b = board space b).")
      .def("largest_groups", [](const P& p, int q) {
        check_seat(p.s, q, "largest_groups");
        py::list l;
        for (int c = 0; c < 4; ++c) l.append(p.s.largest_group(q, c));
        return l;
      }, py::arg("seat"), "Largest same-colour group per colour (kept incrementally).")
      .def("shape_components", [](const P& p, int q) {
        check_seat(p.s, q, "shape_components");
        py::list l;
        for (int s = 0; s < 4; ++s) l.append(p.s.shape_component(q, s));
        return l;
      }, py::arg("seat"), "Per shape, the most tiles of that shape in one connected component (kept incrementally).")
      .def("recomputed_groups", [](const P& p, int q) {
        check_seat(p.s, q, "recomputed_groups");
        uint8_t a[4], b[4];
        p.s.recompute_groups(q, a, b);
        return py::make_tuple(py::make_tuple(a[0], a[1], a[2], a[3]), py::make_tuple(b[0], b[1], b[2], b[3]));
      }, py::arg("seat"), "The same two lists from a full recompute.")
      .def("group_sizes", [](const P& p, int q) {
        check_seat(p.s, q, "group_sizes");
        int out[64];
        const int n = p.s.group_sizes(q, out);
        py::list l;
        for (int i = 0; i < n; ++i) l.append(out[i]);
        return l;
      }, py::arg("seat"), "Every same-colour group size, descending.")
      .def("pending_tile", [](const P& p) { return p.s.pending_tile(); })
      .def("item_entry", [](const P& p) { return p.s.item_entry(); })
      .def("frames", [](const P& p) {
        py::list l;
        for (int f = 0; f < p.s.num_frames(); ++f) {
          py::dict d;
          py::dict items;
          for (int e = 0; e < gaudi::kEntUsed; ++e)
            if (p.s.frame_count(f, e)) items[py::int_(e)] = p.s.frame_count(f, e);
          d["items"] = items;
          d["reps"] = p.s.frame_info(f, gaudi::kReps);
          const int sd = p.s.frame_info(f, gaudi::kSnapDomain), bk = p.s.frame_info(f, gaudi::kBonusKind);
          d["snapshot_domain"] = sd == 255 ? -1 : sd;
          d["snapshot_length"] = p.s.frame_info(f, gaudi::kSnapLen);
          d["bonus_kind"] = bk == 255 ? -1 : bk;
          l.append(d);
        }
        return l;
      }, "The frame stack, bottom first: pending items per catalogue entry, snapshot, repetitions left.")
      .def("requirement", [](const P& p, int q, int c) {
        check_seat(p.s, q, "requirement");
        require<std::out_of_range>(c >= 0 && c < gaudi::kCards, "card id must be 0..98");
        return py::make_tuple(p.s.requirement_total(q, c), p.s.requirement_met(q, c));
      }, py::arg("seat"), py::arg("card"), "(total requirement if the seat played the card now, whether it is met).")
      .def("religion_value", [](const P& p, int q, int c) {
        check_seat(p.s, q, "religion_value");
        require<std::out_of_range>(c >= 0 && c < gaudi::kCards, "card id must be 0..98");
        return p.s.religion_value(q, c);
      }, py::arg("seat"), py::arg("card"))
      .def("final_scoring", [](const P& p, int q) {
        check_seat(p.s, q, "final_scoring");
        int dom[3], tb, f;
        if (p.s.is_terminal()) {  // the end scoring was applied when the game ended: report that result
          f = p.s.final_score(q);
          for (int d = 0; d < 3; ++d) dom[d] = p.s.domain_score(q, d);
          tb = p.s.tiebreak(q);
        } else {
          f = p.s.end_scoring(q, dom, &tb);
        }
        return py::make_tuple(f, py::make_tuple(dom[0], dom[1], dom[2]), tb);
      }, py::arg("seat"),
         "(final score, domain scores after end scoring, tie-break): as if the game ended now, or, once it has "
         "ended, the recorded result.");
  m.attr("GAUDI_STATE_BYTES") = sizeof(State);
}

}  // namespace

TILECRAFT_REGISTER_GAME(bind_gaudi);

}  // namespace tilecraft
