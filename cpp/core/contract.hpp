// check_contract<S>(): the State contract of cpp/core/game.hpp, checked by the compiler. The
// binding template (bindings/bind_game.hpp) and the search templates (cpp/search/) call it once
// at their entry points, so a game whose State lacks a member, has it with the wrong signature, or
// is not trivially copyable fails to compile with a message that names the missing piece, not
// with an error deep inside a template. Optional members (observation_codec, sample_action) are
// not required here; their users detect them.
//
// Usage, one line: static_assert(check_contract<State>());
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/action_list.hpp"
#include "core/vocab.hpp"

namespace tilecraft {
namespace contract {

// The detection idiom (C++17): is_detected<Op, S> is true when Op<S> is a well-formed type.
template <class, template <class> class, class = void>
struct detect : std::false_type {};
template <template <class> class Op, class S>
struct detect<S, Op, std::void_t<Op<S>>> : std::true_type {};
template <template <class> class Op, class S>
constexpr bool is_detected = detect<S, Op>::value;

// The result type of an expression must be R exactly (void) or convertible to R.
template <class R, template <class> class Op, class S>
constexpr bool returns() {
  if constexpr (!is_detected<Op, S>) {
    return false;
  } else if constexpr (std::is_void_v<R>) {
    return true;
  } else {
    return std::is_convertible_v<Op<S>, R>;
  }
}

// A static constexpr int member (Op<S> names its type).
template <template <class> class Op, class S>
constexpr bool int_constant() {
  if constexpr (!is_detected<Op, S>) {
    return false;
  } else {
    return std::is_same_v<std::remove_cv_t<Op<S>>, int>;
  }
}

// A visitor like the ones the binding passes to visit(): v.field("name", member) per field.
struct ProbeVisitor {
  template <class T>
  void field(const char*, T&) {}
};

template <class S> using config_t = typename S::Config;
template <class S> using name_t = decltype(S::kName);
template <class S> using max_actions_t = decltype(S::kMaxActions);
template <class S> using obs_version_t = decltype(S::kObservationVersion);
template <class S> using max_chance_t = decltype(S::kMaxChanceOutcomes);
template <class S> using construct_t = decltype(S(std::declval<const typename S::Config&>(), uint64_t{0}));
template <class S> using config_of_t = decltype(std::declval<const S&>().config());
template <class S> using num_players_t = decltype(std::declval<const S&>().num_players());
template <class S> using num_distinct_t = decltype(std::declval<const S&>().num_distinct_actions());
template <class S> using current_player_t = decltype(std::declval<const S&>().current_player());
template <class S> using is_terminal_t = decltype(std::declval<const S&>().is_terminal());
template <class S> using is_chance_t = decltype(std::declval<const S&>().is_chance_node());
template <class S> using legal_actions_t =
    decltype(std::declval<const S&>().legal_actions(std::declval<ActionList<S::kMaxActions>&>()));
template <class S> using is_legal_t = decltype(std::declval<const S&>().is_legal(int32_t{0}));
template <class S> using illegal_reason_t = decltype(std::declval<const S&>().illegal_reason(int32_t{0}));
template <class S> using apply_t = decltype(std::declval<S&>().apply(int32_t{0}));
template <class S> using chance_outcomes_t =
    decltype(std::declval<const S&>().chance_outcomes(std::declval<ChanceList<S::kMaxChanceOutcomes>&>()));
template <class S> using scores_t = decltype(std::declval<const S&>().scores(std::declval<double*>()));
template <class S> using returns_t = decltype(std::declval<const S&>().returns(std::declval<double*>()));
template <class S> using winners_t = decltype(std::declval<const S&>().winners());
template <class S> using observation_size_t = decltype(std::declval<const S&>().observation_size());
template <class S> using observation_shape_t = decltype(std::declval<const S&>().observation_shape());
template <class S> using observation_t =
    decltype(std::declval<const S&>().observation(0, std::declval<float*>()));
template <class S> using action_to_string_t = decltype(std::declval<const S&>().action_to_string(int32_t{0}));
template <class S> using string_to_action_t =
    decltype(std::declval<const S&>().string_to_action(std::declval<const std::string&>()));
template <class S> using visit_t = decltype(std::declval<S&>().visit(std::declval<ProbeVisitor&>()));
template <class S> using rebuild_derived_t = decltype(std::declval<S&>().rebuild_derived());
template <class S> using validate_t = decltype(std::declval<const S&>().validate());
template <class S> using resample_hidden_t = decltype(std::declval<S&>().resample_hidden(0, uint64_t{0}));
template <class S> using heuristic_t = decltype(std::declval<const S&>().heuristic(0));
// the game's words (cpp/core/vocab.hpp)
template <class S> using num_phases_t = decltype(S::kNumPhases);
template <class S> using phase_names_t = decltype(S::kPhaseNames);
template <class S> using num_action_kinds_t = decltype(S::kNumActionKinds);
template <class S> using action_kind_names_t = decltype(S::kActionKindNames);
template <class S> using num_locations_t = decltype(S::kNumLocations);
template <class S> using locations_t = decltype(S::kLocations);
template <class S> using phase_t = decltype(std::declval<const S&>().phase());
template <class S> using action_ranges_t = decltype(std::declval<const S&>().action_ranges(std::declval<ActionRange*>()));

// The Config's own part of the contract (checked once the State names its Config).
template <class C>
constexpr bool check_config() {
  static_assert(std::is_trivially_copyable_v<C>,
                "tilecraft contract: State::Config must be trivially copyable (rule options and component data "
                "in fixed-size members)");
  static_assert(is_detected<visit_t, C>,
                "tilecraft contract: State::Config needs `template <class V> void visit(V& v)` calling "
                "v.field(\"name\", member) for every field");
  static_assert(is_detected<validate_t, C>,
                "tilecraft contract: State::Config needs `void validate() const` (throws InvalidConfig)");
  return true;
}

}  // namespace contract

// True, or a compile error naming the first part of the contract (cpp/core/game.hpp) S lacks.
template <class S>
constexpr bool check_contract() {
  using namespace contract;
  static_assert(std::is_class_v<S>, "tilecraft contract: a State is a class type");
  static_assert(std::is_trivially_copyable_v<S>,
                "tilecraft contract: State must be trivially copyable (clone() is a copy: no heap members, no "
                "user-defined copy, move or destructor; keep the config behind a pointer)");
  static_assert(std::is_copy_constructible_v<S> && std::is_copy_assignable_v<S>,
                "tilecraft contract: State must be copy constructible and copy assignable (clone() is a copy)");
  static_assert(is_detected<config_t, S>, "tilecraft contract: State needs `using Config = ...;`");
  if constexpr (is_detected<config_t, S>) {
    static_assert(check_config<typename S::Config>());
    static_assert(is_detected<construct_t, S>,
                  "tilecraft contract: State needs the constructor `State(const Config& config, uint64_t seed)`");
    static_assert(returns<const typename S::Config&, config_of_t, S>(),
                  "tilecraft contract: State needs `const Config& config() const`");
  }
  static_assert(returns<const char*, name_t, S>(),
                "tilecraft contract: State needs `static constexpr const char* kName` (the game's name)");
  static_assert(int_constant<max_actions_t, S>(),
                "tilecraft contract: State needs `static constexpr int kMaxActions` (capacity of the legal-action list)");
  static_assert(int_constant<max_chance_t, S>(),
                "tilecraft contract: State needs `static constexpr int kMaxChanceOutcomes`");
  static_assert(int_constant<obs_version_t, S>(),
                "tilecraft contract: State needs `static constexpr int kObservationVersion` (bumped when the "
                "observation or the action ids change meaning)");
  if constexpr (int_constant<max_actions_t, S>() && int_constant<max_chance_t, S>()) {
    static_assert(S::kMaxActions >= 1 && S::kMaxChanceOutcomes >= 1,
                  "tilecraft contract: kMaxActions and kMaxChanceOutcomes must be at least 1");
  }
  static_assert(returns<int, num_players_t, S>(), "tilecraft contract: State needs `int num_players() const`");
  static_assert(returns<int, num_distinct_t, S>(),
                "tilecraft contract: State needs `int num_distinct_actions() const` (fixed for a configuration)");
  static_assert(returns<int, current_player_t, S>(),
                "tilecraft contract: State needs `int current_player() const` (seat, kChanceSeat or kTerminalSeat)");
  static_assert(returns<bool, is_terminal_t, S>(), "tilecraft contract: State needs `bool is_terminal() const`");
  static_assert(returns<bool, is_chance_t, S>(), "tilecraft contract: State needs `bool is_chance_node() const`");
  static_assert(returns<void, legal_actions_t, S>(),
                "tilecraft contract: State needs `void legal_actions(ActionList<kMaxActions>& out) const`");
  static_assert(returns<bool, is_legal_t, S>(), "tilecraft contract: State needs `bool is_legal(int32_t action) const`");
  static_assert(returns<std::string, illegal_reason_t, S>(),
                "tilecraft contract: State needs `std::string illegal_reason(int32_t action) const`");
  static_assert(returns<void, apply_t, S>(), "tilecraft contract: State needs `void apply(int32_t action)`");
  static_assert(returns<void, chance_outcomes_t, S>(),
                "tilecraft contract: State needs `void chance_outcomes(ChanceList<kMaxChanceOutcomes>& out) const`");
  static_assert(returns<void, scores_t, S>(), "tilecraft contract: State needs `void scores(double* out) const`");
  static_assert(returns<void, returns_t, S>(), "tilecraft contract: State needs `void returns(double* out) const`");
  static_assert(returns<uint32_t, winners_t, S>(),
                "tilecraft contract: State needs `uint32_t winners() const` (a bit per seat)");
  static_assert(returns<int, observation_size_t, S>(), "tilecraft contract: State needs `int observation_size() const`");
  static_assert(returns<std::vector<int>, observation_shape_t, S>(),
                "tilecraft contract: State needs `std::vector<int> observation_shape() const`");
  static_assert(returns<void, observation_t, S>(),
                "tilecraft contract: State needs `void observation(int player, float* out) const`");
  static_assert(returns<std::string, action_to_string_t, S>(),
                "tilecraft contract: State needs `std::string action_to_string(int32_t action) const`");
  static_assert(returns<int32_t, string_to_action_t, S>(),
                "tilecraft contract: State needs `int32_t string_to_action(const std::string& s) const`");
  static_assert(is_detected<visit_t, S>,
                "tilecraft contract: State needs `template <class V> void visit(V& v)` calling v.field(\"name\", "
                "member) for every saved field");
  static_assert(returns<void, rebuild_derived_t, S>(), "tilecraft contract: State needs `void rebuild_derived()`");
  static_assert(returns<void, validate_t, S>(),
                "tilecraft contract: State needs `void validate() const` (throws InvalidState)");
  static_assert(returns<void, resample_hidden_t, S>(),
                "tilecraft contract: State needs `void resample_hidden(int observer, uint64_t seed)`");
  static_assert(returns<double, heuristic_t, S>(), "tilecraft contract: State needs `double heuristic(int player) const`");
  // the game's words (cpp/core/vocab.hpp)
  static_assert(int_constant<num_phases_t, S>(),
                "tilecraft contract: State needs `static constexpr int kNumPhases` (the number of phases)");
  static_assert(returns<const char* const*, phase_names_t, S>(),
                "tilecraft contract: State needs `static constexpr const char* const* kPhaseNames` (kNumPhases "
                "names, indexed by phase id: the text picture's words)");
  static_assert(returns<int, phase_t, S>(), "tilecraft contract: State needs `int phase() const` (0..kNumPhases-1)");
  static_assert(int_constant<num_action_kinds_t, S>(),
                "tilecraft contract: State needs `static constexpr int kNumActionKinds` (at least 1)");
  static_assert(returns<const char* const*, action_kind_names_t, S>(),
                "tilecraft contract: State needs `static constexpr const char* const* kActionKindNames` "
                "(kNumActionKinds names, in id order)");
  static_assert(returns<void, action_ranges_t, S>(),
                "tilecraft contract: State needs `void action_ranges(ActionRange* out) const` (kNumActionKinds "
                "entries, in id order, no gaps, covering [0, num_distinct_actions()))");
  static_assert(int_constant<num_locations_t, S>(),
                "tilecraft contract: State needs `static constexpr int kNumLocations` (0 without named locations)");
  static_assert(returns<const NamedValue*, locations_t, S>(),
                "tilecraft contract: State needs `static constexpr const NamedValue* kLocations` (kNumLocations "
                "entries; nullptr when there are none)");
  if constexpr (int_constant<num_phases_t, S>() && int_constant<num_action_kinds_t, S>() &&
                int_constant<num_locations_t, S>()) {
    static_assert(S::kNumPhases >= 1 && S::kNumActionKinds >= 1 && S::kNumLocations >= 0,
                  "tilecraft contract: kNumPhases and kNumActionKinds must be at least 1, kNumLocations at least 0");
  }
  return true;
}

}  // namespace tilecraft
