// Search options declared once. Each search configuration (PuctConfig in puct.hpp, MctsConfig in
// mcts.hpp) lists its fields in `template <class V> void visit(V& v)`, one line a field giving its
// name, kind, allowed range and a one-line description, as the games' Configs list theirs. Its
// validate() checks the ranges by visiting (check_ranges below) and adds the rules between fields;
// the binding reads a Python dict and exports the declarations (tilecraft._core.puct_options(),
// mcts_options()) by visiting, so that no other file names an option.
//
// A visitor has one method per kind of option:
//   v.integer(name, field, low, high, doc)           an integer in low..high (an integral field)
//   v.number(name, field, low, high, doc[, open])    a finite real in [low, high], or (low, high] when
//                                                    `open`; an infinite end is no bound
//   v.flag(name, field, doc)                         true or false
//   v.seed(name, field, doc)                         any unsigned 64-bit integer
//   v.choice(name, field, words, doc)                one of `words`, words[i] naming the enum's value i
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/errors.hpp"

namespace tilecraft {

constexpr double kNoBound = std::numeric_limits<double>::infinity();

// What an option allows, as its error messages and the docs say it.
inline std::string integer_range(long long low, long long high) {
  return "in " + std::to_string(low) + ".." + std::to_string(high);
}

inline std::string number_range(double low, double high, bool open = false) {
  std::ostringstream out;
  if (std::isinf(low) && std::isinf(high)) {
    out << "a finite number";
  } else if (std::isinf(low)) {
    out << "<= " << high;
  } else if (std::isinf(high)) {
    out << (open ? "> " : ">= ") << low;
  } else {
    out << "in " << (open ? "(" : "[") << low << ", " << high << "]";
  }
  return out.str();
}

template <size_t N>
std::string choice_range(const char* const (&words)[N]) {
  std::string out;
  for (size_t i = 0; i < N; ++i) {
    if (i) out += i + 1 == N ? " or " : ", ";
    out += std::string("'") + words[i] + "'";
  }
  return out;
}

inline std::string seed_range() { return "in 0.." + std::to_string(std::numeric_limits<uint64_t>::max()); }

// The range check of every declared field; `who` (the search's name) starts each message.
struct OptionRangeCheck {
  const char* who;

  template <class T>
  void integer(const char* name, const T& x, long long low, long long high, const char*) {
    static_assert(std::is_integral_v<T> && std::is_signed_v<T>, "integer options are signed integers");
    require<std::invalid_argument>(x >= low && x <= high, who, ": ", name, " must be ", integer_range(low, high),
                                   ", got ", static_cast<long long>(x));
  }
  void number(const char* name, const double& x, double low, double high, const char*, bool open = false) {
    require<std::invalid_argument>(std::isfinite(x) && (open ? x > low : x >= low) && x <= high, who, ": ", name,
                                   " must be ", number_range(low, high, open), ", got ", x);
  }
  void flag(const char*, const bool&, const char*) {}
  void seed(const char*, const uint64_t&, const char*) {}
  template <class E, size_t N>
  void choice(const char* name, const E& x, const char* const (&words)[N], const char*) {
    require<std::invalid_argument>(static_cast<size_t>(x) < N, who, ": ", name, " must be ", choice_range(words));
  }
};

// Checks every field of a configuration against the range its visit() declares.
template <class C>
void check_ranges(const C& config, const char* who) {
  OptionRangeCheck v{who};
  const_cast<C&>(config).visit(v);
}

}  // namespace tilecraft
