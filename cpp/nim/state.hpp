// Nim, a tiny test-only game (not registered in tilecraft.list_games(); reached through
// tilecraft.testing.nim()). It follows the State contract of cpp/core/game.hpp in full, so it is
// also the shortest example of a game: one header, one binding (bindings/nim.cpp).
//
// Rules: one heap of `heap` stones; the two players alternately take 1..max_take stones; whoever
// takes the last stone wins. The known answer: the player to move wins exactly when
// heap % (max_take + 1) != 0, by leaving a multiple of max_take + 1.
//
// Action id a (0..max_take-1) takes a + 1 stones. With first_player = -1 the game starts at a chance
// node whose outcomes 0 and 1 (probability 1/2 each) are the seat that moves first.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/action_list.hpp"
#include "core/errors.hpp"
#include "core/game.hpp"
#include "core/vocab.hpp"

namespace tilecraft::nim {

constexpr int kMaxHeap = 200;
constexpr int kMaxTake = 20;

// Nim's options: heap 1..200 (15), max_take 1..20 (3), first_player 0, 1 or -1 (a chance node) (0).
struct Config {
  int32_t heap = 15;
  int32_t max_take = 3;
  int32_t first_player = 0;

  template <class V>
  void visit(V& v) {
    v.field("heap", heap);
    v.field("max_take", max_take);
    v.field("first_player", first_player);
  }
  void validate() const {
    require<InvalidConfig>(heap >= 1 && heap <= kMaxHeap, "nim: heap must be in 1..", kMaxHeap, ", got ", heap);
    require<InvalidConfig>(max_take >= 1 && max_take <= kMaxTake, "nim: max_take must be in 1..", kMaxTake, ", got ",
                           max_take);
    require<InvalidConfig>(first_player >= -1 && first_player <= 1,
                           "nim: first_player must be 0, 1 or -1 (a chance node), got ", first_player);
  }
};

enum Phase : uint8_t { kFirstPlayerChance = 0, kTake = 1, kTerminal = 2, kNumPhases = 3 };
inline constexpr const char* kPhaseNames[kNumPhases] = {"choosing the first player", "taking stones", "game over"};
enum ActionKind : uint8_t { kActTake = 0, kNumActionKinds = 1 };
inline constexpr const char* kActionKindNames[kNumActionKinds] = {"take"};

class State {
 public:
  using Config = nim::Config;
  static constexpr const char* kName = "nim";
  // Bumped whenever observation() or the action ids change meaning while keeping their shape, so that
  // a trained network refuses to load (observation_layout() in the binding; tilecraft.baselines).
  static constexpr int kObservationVersion = 1;
  static constexpr int kMaxActions = kMaxTake;
  static constexpr int kMaxChanceOutcomes = 2;
  // the game's words (cpp/core/vocab.hpp)
  static constexpr int kNumPhases = nim::kNumPhases;
  static constexpr const char* const* kPhaseNames = nim::kPhaseNames;
  static constexpr int kNumActionKinds = nim::kNumActionKinds;
  static constexpr const char* const* kActionKindNames = nim::kActionKindNames;
  static constexpr int kNumLocations = 0;
  static constexpr const NamedValue* kLocations = nullptr;
  void action_ranges(ActionRange* out) const { out[0] = {kActionKindNames[kActTake], 0, cfg_.max_take}; }

  State(const Config& config, uint64_t /*seed: nothing is random but the optional chance node*/)
      : cfg_(config), heap_(config.heap), current_(config.first_player < 0 ? 0 : config.first_player),
        phase_(config.first_player < 0 ? kFirstPlayerChance : kTake), winner_(-1) {
    config.validate();
  }

  const Config& config() const { return cfg_; }
  int num_players() const { return 2; }
  int num_distinct_actions() const { return cfg_.max_take; }
  int phase() const { return phase_; }
  int heap() const { return heap_; }
  bool is_terminal() const { return phase_ == kTerminal; }
  bool is_chance_node() const { return phase_ == kFirstPlayerChance; }
  int current_player() const {
    return phase_ == kTake ? current_ : (phase_ == kTerminal ? kTerminalSeat : kChanceSeat);
  }

  void legal_actions(ActionList<kMaxActions>& out) const {
    out.clear();
    if (phase_ == kFirstPlayerChance) {
      out.push(0);
      out.push(1);
    } else if (phase_ == kTake) {
      for (int a = 0; a < cfg_.max_take && a < heap_; ++a) out.push(a);
    }
  }
  bool is_legal(int32_t action) const {
    if (phase_ == kFirstPlayerChance) return action == 0 || action == 1;
    return phase_ == kTake && action >= 0 && action < cfg_.max_take && action < heap_;
  }
  std::string illegal_reason(int32_t action) const {
    if (phase_ == kTerminal) return "the game is over";
    if (phase_ == kFirstPlayerChance) return "at the chance node the outcomes are seats 0 and 1, got " + std::to_string(action);
    if (action < 0 || action >= cfg_.max_take)
      return "action " + std::to_string(action) + " is out of range 0.." + std::to_string(cfg_.max_take - 1);
    return "cannot take " + std::to_string(action + 1) + " stones from a heap of " + std::to_string(heap_);
  }
  void apply(int32_t action) {
    if (phase_ == kFirstPlayerChance) {
      current_ = action;
      phase_ = kTake;
      return;
    }
    heap_ -= action + 1;
    if (heap_ == 0) {
      winner_ = current_;
      phase_ = kTerminal;
    } else {
      current_ = 1 - current_;
    }
  }
  void chance_outcomes(ChanceList<kMaxChanceOutcomes>& out) const {
    out.clear();
    if (phase_ == kFirstPlayerChance) {
      out.push(0, 0.5);
      out.push(1, 0.5);
    }
  }

  void scores(double* out) const {
    for (int p = 0; p < 2; ++p) out[p] = winner_ == p ? 1.0 : 0.0;
  }
  void returns(double* out) const {
    for (int p = 0; p < 2; ++p) out[p] = winner_ < 0 ? 0.0 : (winner_ == p ? 1.0 : -1.0);
  }
  uint32_t winners() const { return winner_ < 0 ? 0u : (1u << winner_); }

  // [stones left, 1 if the observer is to move, max_take]: small integers (no codec needed)
  int observation_size() const { return 3; }
  std::vector<int> observation_shape() const { return {3}; }
  void observation(int player, float* out) const {
    out[0] = static_cast<float>(heap_);
    out[1] = phase_ == kTake && current_ == player ? 1.0f : 0.0f;
    out[2] = static_cast<float>(cfg_.max_take);
  }

  std::string action_to_string(int32_t action) const {
    if (phase_ == kFirstPlayerChance) return "seat " + std::to_string(action) + " starts";
    return "take " + std::to_string(action + 1);
  }
  int32_t string_to_action(const std::string& text) const {
    for (int32_t a = 0; a < cfg_.max_take; ++a)
      if (text == "take " + std::to_string(a + 1)) return a;
    for (int32_t a = 0; a < 2; ++a)
      if (text == "seat " + std::to_string(a) + " starts") return a;
    fail<IllegalAction>("nim: unknown action '", text, "'; actions are 'take 1'..'take ", cfg_.max_take,
                        "' (and 'seat 0 starts', 'seat 1 starts' at the chance node)");
  }

  template <class V>
  void visit(V& v) {
    v.field("heap", heap_);
    v.field("current", current_);
    v.field("phase", phase_);
    v.field("winner", winner_);
  }
  void rebuild_derived() {}  // nothing is derived
  void validate() const {
    require<InvalidState>(heap_ >= 0 && heap_ <= cfg_.heap, "nim: heap must be in 0..", cfg_.heap, ", got ", heap_);
    require<InvalidState>(current_ == 0 || current_ == 1, "nim: current must be 0 or 1, got ", current_);
    require<InvalidState>(phase_ >= 0 && phase_ < kNumPhases, "nim: phase must be 0, 1 or 2, got ", phase_);
    require<InvalidState>((phase_ == kTerminal) == (heap_ == 0), "nim: the game is over exactly when the heap is empty");
    require<InvalidState>(phase_ != kFirstPlayerChance || (cfg_.first_player < 0 && heap_ == cfg_.heap),
                          "nim: the first-player chance node comes only first, with first_player -1");
    require<InvalidState>(phase_ == kTerminal ? winner_ == current_ : winner_ == -1,
                          "nim: winner must be the seat that took the last stone (-1 before the end), got ", winner_);
  }
  void resample_hidden(int /*observer*/, uint64_t /*seed*/) {}  // nothing is hidden
  // The exact game value for `player`: positions that are multiples of max_take + 1 lose for the mover.
  double heuristic(int player) const {
    if (phase_ == kTerminal) return winner_ == player ? 1.0 : -1.0;
    if (phase_ != kTake) return 0.0;
    const bool mover_wins = heap_ % (cfg_.max_take + 1) != 0;
    return (mover_wins == (current_ == player)) ? 1.0 : -1.0;
  }

 private:
  Config cfg_;
  int32_t heap_;
  int32_t current_;
  int32_t phase_;
  int32_t winner_;
};

}  // namespace tilecraft::nim
