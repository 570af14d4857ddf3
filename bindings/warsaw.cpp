// Warsaw's binding: the common API from bind_game.hpp plus views of districts, hands and income.
#include "bind_game.hpp"
#include "warsaw/state.hpp"

namespace tilecraft {
namespace {

using warsaw::State;
using P = PyState<State>;

void bind_warsaw(py::module_& m) {
  auto cls = bind_game<State>(m, "WarsawState");
  cls.def_static("card_ids", []() {
    py::dict d;
    d["era"] = py::make_tuple(0, warsaw::kStartBase);
    d["start"] = py::make_tuple(warsaw::kStartBase, warsaw::kMileBase);
    d["milestone"] = py::make_tuple(warsaw::kMileBase, warsaw::kCardIds);
    return d;
  }, "The card id ranges, name -> (first, end): era cards (the deck's capacity), one starting card per "
     "seat, one card per milestone slot.");
  cls.def("era", [](const P& p) { return p.s.era(); }, "Current era 1..6.")
      .def("pick_round", [](const P& p) { return p.s.pick_round(); }, "Pick round 0..3 of the era's draft.")
      .def("coins", [](const P& p) {
        py::list l;
        for (int q = 0; q < p.s.num_players(); ++q) l.append(p.s.coins(q));
        return l;
      })
      .def("vp", [](const P& p) {
        py::list l;
        for (int q = 0; q < p.s.num_players(); ++q) l.append(p.s.vp(q));
        return l;
      })
      .def("hand", [](const P& p, int q) {
        check_seat(p.s, q, "hand");
        py::list l;
        for (int k = 0; k < p.s.hand_size(q); ++k) l.append(p.s.hand_card(q, k));
        return l;
      }, py::arg("seat"), "Card ids in a seat's hand (hidden information: for tests and tools, not bots).")
      .def("picked_card", [](const P& p, int q) {
        check_seat(p.s, q, "picked_card");
        return p.s.pending_card(q);
      }, py::arg("seat"), "The seat's picked (or revealed) card id, or -1.")
      .def("district", [](const P& p, int q) {
        check_seat(p.s, q, "district");
        py::list l;
        int x0, y0, x1, y1;
        p.s.bbox(q, x0, y0, x1, y1);
        for (int y = y0; y <= y1; ++y)
          for (int x = x0; x <= x1; ++x) {
            const int c = p.s.top_at(q, x, y);
            if (c >= 0) l.append(py::make_tuple(x, y, c, p.s.rotation_at(q, x, y), p.s.height_at(q, x, y)));
          }
        return l;
      }, py::arg("seat"), "[(x, y, top card id, rotation, stack height)] in frame coordinates, row by row.")
      .def("shown_types", [](const P& p, int q, int x, int y) {
        check_seat(p.s, q, "shown_types");
        const int c = p.s.top_at(q, x, y);
        py::list l;
        if (c < 0) return l;
        const int r = p.s.rotation_at(q, x, y);
        for (int k = 0; k < 4; ++k) l.append(p.s.printed_type(c, (k - r) & 3));
        return l;
      }, py::arg("seat"), py::arg("x"), py::arg("y"),
           "Types shown in the NW, NE, SE, SW quadrants at a position (6 public, 7 milestone), [] if empty.")
      .def("card_location", [](const P& p, int c) {
        require<std::out_of_range>(c >= 0 && c < warsaw::kCardIds, "card id must be 0..", warsaw::kCardIds - 1);
        return p.s.card_location(c);
      }, py::arg("card"))
      .def("milestones", [](const P& p) {
        py::list l;
        for (int i = 0; i < warsaw::kMilestones; ++i) l.append(py::make_tuple(p.s.milestone_side(i), p.s.milestone_owner(i)));
        return l;
      }, "[(side, owner)] per slot; owner -1 not yet awarded, -2 discarded.")
      .def("income", [](const P& p, int q) {
        check_seat(p.s, q, "income");
        const warsaw::Income in = p.s.income(q);
        py::dict d;
        d["park_vp"] = in.park_vp;
        d["commercial_coins"] = in.commercial_coins;
        d["cultural_vp"] = in.cultural_vp;
        d["industrial_coins"] = in.industrial_coins;
        d["industrial_penalty"] = in.industrial_penalty;
        d["transport_vp"] = in.transport_vp;
        d["effect_vp"] = in.effect_vp;
        d["effect_coins"] = in.effect_coins;
        return d;
      }, py::arg("seat"), "What an income phase would pay the seat now, step by step (WA-INC-1).")
      .def("park_score", [](const P& p, int n) {
        require<std::out_of_range>(n >= 0 && n <= 64, "park_score: n must be 0..64, got ", n);
        return p.s.park_score(n);
      }, py::arg("n"), "VP of a park touching n distinct residential areas (WA-SCORE-1).")
      .def("area_counts", [](const P& p, int q) {
        check_seat(p.s, q, "area_counts");
        const warsaw::Regions r = p.s.regions(q);
        py::list l;
        for (int t = 0; t < warsaw::kAreaTypes; ++t) l.append(r.count(t));
        l.append(r.n_whole);
        return l;
      }, py::arg("seat"), "Areas per type (park, residential, commercial, industrial, cultural, transport, whole-card).")
      .def("removals_needed", [](const P& p, int q) {
        check_seat(p.s, q, "removals_needed");
        return p.s.removals_needed(q);
      }, py::arg("seat"))
      .def("within_limit", [](const P& p, int q) {
        check_seat(p.s, q, "within_limit");
        return p.s.within_limit(q);
      }, py::arg("seat"))
      .def("district_connected", [](const P& p, int q) {
        check_seat(p.s, q, "district_connected");
        return p.s.district_connected(q);
      }, py::arg("seat"));
  m.attr("WARSAW_STATE_BYTES") = sizeof(State);
}

}  // namespace

TILECRAFT_REGISTER_GAME(bind_warsaw);

}  // namespace tilecraft
