// Test-only: a State that breaks the contract of cpp/core/game.hpp in known ways (a heap member,
// so not trivially copyable; no kMaxActions; no apply; no phase names nor action ranges). tests/test_contract_compile.py compiles it
// and expects check_contract to refuse it with those messages.
#include <cstdint>
#include <string>
#include <vector>

#include "core/contract.hpp"

struct BrokenConfig {
  int players = 2;
  template <class V>
  void visit(V& v) { v.field("players", players); }
  void validate() const {}
};

struct BrokenState {
  using Config = BrokenConfig;
  static constexpr const char* kName = "broken";
  static constexpr int kMaxChanceOutcomes = 1;
  static constexpr int kNumPhases = 1;  // of the game's words (cpp/core/vocab.hpp), only this
  std::vector<int> history;  // a heap member: clone() would not be a copy
  BrokenState(const Config&, uint64_t) {}
  const Config& config() const { return *cfg; }
  const Config* cfg = nullptr;
};

static_assert(tilecraft::check_contract<BrokenState>());
