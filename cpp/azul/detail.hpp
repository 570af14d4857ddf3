// Azul: helpers shared by the parts of the State (flow.cpp, legal.cpp, score.cpp, observe.cpp,
// validate.cpp; applying a take is inline in state.hpp). Private to cpp/azul: state.hpp does not
// include it.
#pragma once
#include <string>

#include "azul/state.hpp"

namespace tilecraft::azul::detail {

inline constexpr const char* kColourNames[kColours] = {"blue", "yellow", "red", "black", "white"};

inline std::string source_name(int s) { return s == 0 ? std::string("centre") : "factory " + std::to_string(s); }
inline std::string dest_name(int d) { return d == kFloorDest ? std::string("floor") : "line " + std::to_string(d + 1); }

}  // namespace tilecraft::azul::detail
