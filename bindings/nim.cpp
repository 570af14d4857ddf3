// Nim's binding (a test-only game, not in tilecraft.list_games(); tilecraft.testing.nim() makes one):
// the common API from bind_game.hpp plus the heap.
#include "bind_game.hpp"
#include "nim/state.hpp"

namespace tilecraft {
namespace {

using nim::State;
using P = PyState<State>;

void bind_nim(py::module_& m) {
  auto cls = bind_game<State>(m, "NimState");
  cls.def("heap", [](const P& p) { return p.s.heap(); }, "Stones left on the heap.")
      .def("phase", [](const P& p) { return p.s.phase(); }, "0 choosing the first player, 1 taking stones, 2 game over.");
}

}  // namespace

TILECRAFT_REGISTER_GAME(bind_nim);

}  // namespace tilecraft
