// Typed errors. The bindings map each to a Python exception:
//   IllegalAction -> tilecraft.IllegalActionError (a ValueError)
//   InvalidState  -> tilecraft.InvalidStateError  (a ValueError): malformed or inconsistent state data
//   InvalidConfig -> tilecraft.InvalidConfigError (a ValueError): a bad rule option or component data
//   EvaluatorFailure -> tilecraft.EvaluatorError (a RuntimeError): a search's evaluator (Python or
//                    the C++ network) gave a result the search cannot use (a non-finite logit or value)
// C++ asserts are kept for internal invariants only; anything a user can cause throws one of these.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

namespace tilecraft {

struct IllegalAction : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
struct InvalidState : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
struct InvalidConfig : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
struct EvaluatorFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Builds a message from pieces: fail<InvalidState>("bag has ", n, " tiles, expected ", m).
template <class E, class... Parts>
[[noreturn]] inline void fail(const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  throw E(os.str());
}

// Checks a condition on user-supplied data; throws E with the message when it does not hold.
template <class E = InvalidState, class... Parts>
inline void require(bool ok, const Parts&... parts) {
  if (!ok) fail<E>(parts...);
}

}  // namespace tilecraft
