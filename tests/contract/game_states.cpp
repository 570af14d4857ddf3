// Test-only: every game's State satisfies check_contract (tests/test_contract_compile.py compiles
// this with -fsyntax-only; the binding and search templates check the same when the module builds).
#include "azul/state.hpp"
#include "castle/state.hpp"
#include "core/contract.hpp"
#include "gaudi/state.hpp"
#include "warsaw/state.hpp"

static_assert(tilecraft::check_contract<tilecraft::azul::State>());
static_assert(tilecraft::check_contract<tilecraft::castle::State>());
static_assert(tilecraft::check_contract<tilecraft::gaudi::State>());
static_assert(tilecraft::check_contract<tilecraft::warsaw::State>());
