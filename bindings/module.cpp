// The extension module tilecraft._core: the shared exception types, then every registered game.
#include "bind_game.hpp"
#include "bind_mlp.hpp"

namespace tilecraft {

std::vector<Binder>& game_binders() {
  static std::vector<Binder> binders;
  return binders;
}

}  // namespace tilecraft

PYBIND11_MODULE(_core, m) {
  namespace py = pybind11;
  m.doc() = "tilecraft's C++ engines (use the tilecraft package, not this module directly)";
  static py::exception<tilecraft::IllegalAction> illegal(m, "IllegalActionError", PyExc_ValueError);
  static py::exception<tilecraft::InvalidState> invalid_state(m, "InvalidStateError", PyExc_ValueError);
  static py::exception<tilecraft::InvalidConfig> invalid_config(m, "InvalidConfigError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const tilecraft::IllegalAction& e) {
      py::set_error(illegal, e.what());
    } catch (const tilecraft::InvalidState& e) {
      py::set_error(invalid_state, e.what());
    } catch (const tilecraft::InvalidConfig& e) {
      py::set_error(invalid_config, e.what());
    } catch (const tilecraft::EvaluatorFailure& e) {  // a search's evaluation it cannot use
      py::set_error(py::module_::import("tilecraft.puct").attr("EvaluatorError"), e.what());
    }
  });
  m.attr("CHANCE") = tilecraft::kChanceSeat;
  m.attr("TERMINAL") = tilecraft::kTerminalSeat;
  // Unpickling of every state class (their __reduce__ names it): cls.from_dict(saved).
  m.def("_restore_state", [](const py::object& cls, const py::object& saved) { return cls.attr("from_dict")(saved); },
        py::arg("cls"), py::arg("saved"));
  tilecraft::bind_search_options(m);  // game-independent option checks
  tilecraft::bind_mlp(m);  // before the games: their PUCT searchers take it as an evaluator
  for (auto bind : tilecraft::game_binders()) bind(m);
  tilecraft::bind_module_tools(m);  // pickling refusals, test hooks: after every class exists
}
