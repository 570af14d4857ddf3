// The contract every game's State follows. The binding template (bindings/bind_game.hpp), the
// search templates (cpp/search/) and the batch runners are written against it and nothing else.
//
//   struct Config {                       // rule options and component data; trivially copyable
//     template <class V> void visit(V& v);   // v.field("name", member) for every field
//     void validate() const;                 // throws InvalidConfig naming the field and what is allowed
//   };
//   struct State {                        // trivially copyable: clone() is a copy
//     using Config = ...;
//     static constexpr const char* kName;     // "azul"
//     static constexpr int kMaxActions;       // capacity of the legal-action list
//     static constexpr int kMaxChanceOutcomes;
//     State(const Config& config, uint64_t seed);   // config must outlive the state
//     const Config& config() const;
//     int num_players() const;
//     int num_distinct_actions() const;       // fixed for a configuration
//     int current_player() const;             // seat >= 0, kChanceSeat or kTerminalSeat
//     bool is_terminal() const;
//     bool is_chance_node() const;
//     void legal_actions(ActionList<kMaxActions>& out) const;   // ascending; outcomes at chance nodes
//     bool is_legal(int32_t action) const;
//     std::string illegal_reason(int32_t action) const;   // why it is illegal (for the error text)
//     void apply(int32_t action);             // precondition: is_legal(action)
//     void chance_outcomes(ChanceList<kMaxChanceOutcomes>& out) const;
//     void scores(double* out) const;         // num_players() values
//     void returns(double* out) const;
//     uint32_t winners() const;               // bit per seat; 0 while not terminal
//     int observation_size() const;           // flat size; observation_shape() gives its shape
//     std::vector<int> observation_shape() const;   (not on hot paths)
//     void observation(int player, float* out) const;   // finite values (the adapters declare Box(-max, max))
//     (optional) void observation_codec(float* denominator, float* offset) const;   // cpp/core/codec.hpp
//     std::string action_to_string(int32_t action) const;
//     int32_t string_to_action(const std::string& s) const;   // throws IllegalAction if unknown
//     template <class V> void visit(V& v);    // every field except the config, for to_json/from_json
//     void rebuild_derived();                 // from_json: recompute caches from the saved fields. It runs
//                                             // BEFORE validate(), on untrusted data: it must check (throw
//                                             // InvalidState) every saved value it uses as an index, a shift
//                                             // or a loop bound before using it.
//     void validate() const;                  // after from_json: throws InvalidState if inconsistent
//     void resample_hidden(int observer, uint64_t seed);   // new future for what observer cannot see
//     double heuristic(int player) const;     // the greedy bot's one-ply value for a seat
//   };
#pragma once
#include <cstdint>

namespace tilecraft {

constexpr int kTerminalSeat = -1;
constexpr int kChanceSeat = -2;

}  // namespace tilecraft
