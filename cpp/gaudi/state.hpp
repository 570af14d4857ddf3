// Gaudí, basic (day) mode for 2-4 players (spec: shared/rules/gaudi.md; docs/gaudi.md).
// One flat, trivially copyable struct; the component data stays in the Config.
//
// Representation: each player's board is one uint64_t per tile colour (the tile's shape is the
// space's shape); fits are shape_mask[s] & ~occupied; same-colour groups are flood fills through
// the board's neighbour masks, and the largest group per colour and the largest count of each
// shape in one component are kept up to date on every placement (tiles never move). The track's
// occupancy is one uint64_t; the leader test and the virtual marker's target are bit scans.
//
// Action ids follow the spec's §11.2 layout (654 ids): see the constants below.
// Frames (GA-ORDER-2): a stack of pending reward multisets, one count per catalogue entry.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/action_list.hpp"
#include "core/bitboard.hpp"
#include "core/game.hpp"
#include "core/rng.hpp"
#include "core/vocab.hpp"
#include "gaudi/config.hpp"

namespace tilecraft::gaudi {

constexpr int kMoveBase = 0;        // 0..48 (48 = central area)
constexpr int kCentralArea = 48;
constexpr int kPencils = 49, kHammers = 50;
constexpr int kTakeTileBase = 51;   // + 16 a + 4 c + s
constexpr int kPlaceBase = 131;     // + b
constexpr int kTakeCardBase = 195;  // + id
constexpr int kPlayBase = 294;      // + id
constexpr int kDiscardBase = 393;   // + id
constexpr int kAdvanceBase = 492;   // + domain
constexpr int kCentralA = 495, kCentralB = 496;
constexpr int kResolveBase = 497;   // + entry
constexpr int kTargetBase = 545;    // + id
constexpr int kCategoryBase = 644;  // + k (expert, never legal in basic mode)
constexpr int kDone = 653;
constexpr int kNumActions = 654;

constexpr int kMaxFrames = 12;
constexpr int kVirtual = 4;  // marker index of the virtual marker (2 players, solo)
constexpr int kAutoma = 1;   // marker index of the solo Gaudí automa (colour 1, GA-AMB-44)
constexpr int8_t kNotEntered = -1;
constexpr int8_t kGone = 48;  // left the board this round
constexpr uint8_t kNoCard = 255;

// where a card is
// kLocAutoma: in the solo automa's area (owner = domain); kLocRemoved: removed by the solo virtual marker
enum CardLoc : uint8_t { kLocDeck = 0, kLocWindow = 1, kLocHand = 2, kLocColumn = 3, kLocDiscard = 4, kLocPool = 5,
                         kLocAutoma = 6, kLocRemoved = 7 };
inline constexpr NamedValue kLocations[] = {{"deck", kLocDeck},       {"window", kLocWindow},   {"hand", kLocHand},
                                            {"column", kLocColumn},   {"discard", kLocDiscard}, {"pool", kLocPool},
                                            {"automa", kLocAutoma},   {"removed", kLocRemoved}};

enum Phase : uint8_t {
  kChance = 0, kMove = 1, kMode = 2, kUses = 3, kPlace = 4, kDiscard = 5, kFrame = 6, kItem = 7, kTarget = 8,
  kCentral = 9, kTerminal = 10, kDraft = 11, kCategory = 12, kNumPhases = 13
};
inline constexpr const char* kPhaseNames[kNumPhases] = {
    "chance", "moving", "choosing pencils or hammers", "using actions", "placing a tile", "discarding",
    "resolving rewards", "carrying out a reward", "choosing a Religion card", "central area", "game over",
    "drafting a starting card", "choosing a category"};
// Action kinds in id order; the ranges are the k*Base constants above (action_ranges()).
enum ActionKind : uint8_t {
  kActMove, kActMoveCentral, kActPencils, kActHammers, kActTakeTile, kActPlace, kActTakeCard, kActPlayCard,
  kActDiscardCard, kActAdvance, kActCentralA, kActCentralB, kActResolve, kActTargetCard, kActCategory, kActDone,
  kNumActionKinds
};
inline constexpr const char* kActionKindNames[kNumActionKinds] = {
    "move",    "move_central", "pencils",   "hammers",   "take_tile", "place",       "take_card", "play_card",
    "discard_card", "advance", "central_a", "central_b", "resolve",   "target_card", "category",  "done"};
inline constexpr int32_t kActionKindFirst[kNumActionKinds + 1] = {
    kMoveBase,    kCentralArea, kPencils,   kHammers,     kTakeTileBase, kPlaceBase,   kTakeCardBase, kPlayBase,
    kDiscardBase, kAdvanceBase, kCentralA,  kCentralB,    kResolveBase,  kTargetBase,  kCategoryBase, kDone,
    kNumActions};
static_assert(ranges_from_zero(kActionKindFirst, kNumActionKinds + 1) && kActionKindFirst[kNumActionKinds] == kNumActions,
              "kActionKindFirst: the kinds' first ids from 0, strictly increasing, then kNumActions");
// An action id read once: its kind and its offset in the kind's range (kActionKindFirst). The kind of
// each id is one table look-up, built at compile time from the ranges; ids outside 0..kNumActions-1
// decode to kNumActionKinds.
struct Decoded {
  ActionKind kind;
  int arg;
};
struct ActionKindTable {
  uint8_t kind[kNumActions];
};
constexpr ActionKindTable make_action_kind_table() {
  ActionKindTable t{};
  int k = 0;
  for (int a = 0; a < kNumActions; ++a) {
    while (a >= kActionKindFirst[k + 1]) ++k;
    t.kind[a] = static_cast<uint8_t>(k);
  }
  return t;
}
inline constexpr ActionKindTable kActionKindOf = make_action_kind_table();
constexpr Decoded decode(int32_t a) {
  if (a < 0 || a >= kNumActions) return {kNumActionKinds, a};
  const ActionKind k = static_cast<ActionKind>(kActionKindOf.kind[a]);
  return {k, a - kActionKindFirst[k]};
}
static_assert(decode(kCentralArea).kind == kActMoveCentral && decode(kTakeTileBase + 17).arg == 17 &&
              decode(kDone).kind == kActDone && decode(kNumActions).kind == kNumActionKinds);
enum ChanceKind : uint8_t { kChFirst = 0, kChTile = 1, kChCard = 2, kChPool = 3, kChDeal = 4, kChCentral = 5, kChChimney = 6 };
enum Flow : uint8_t { kFlowSetup = 0, kFlowRefill = 1, kFlowRound = 2 };

// A frame (GA-ORDER-2) is frame_count[i][entry] (pending items per catalogue entry; VP applies at
// once in basic mode) plus frame_info[i]: [kReps] further repetitions of a column snapshot,
// [kSnapDomain] 255 or 0 Nature / 1 Catalan, [kSnapLen] the column length when the resolution
// started (GA-AMB-48), [kBonusKind] 255 or the bonus kind this frame offers (GA-AMB-31),
// [kCatLo], [kCatHi] 2 bits per pending resolve_catalan item (its times), the last pushed lowest.
// [kChoose] 1 for a choose-one group of ability rewards of one kind (GA-AMB-49): RESOLVE takes one
// member (vp members 37-39 hold the largest amount of their domain), DONE takes none.
enum FrameInfo : int { kReps = 0, kSnapDomain = 1, kSnapLen = 2, kBonusKind = 3, kCatLo = 4, kCatHi = 5, kChoose = 6 };

class State {
 public:
  using Config = gaudi::Config;
  static constexpr const char* kName = "gaudi";
  // Bumped whenever observation() or the action ids change meaning while keeping their shape, so that
  // a trained network refuses to load (observation_layout() in the binding; tilecraft.baselines).
  static constexpr int kObservationVersion = 1;
  // the game's words (cpp/core/vocab.hpp)
  static constexpr int kNumPhases = gaudi::kNumPhases;
  static constexpr const char* const* kPhaseNames = gaudi::kPhaseNames;
  static constexpr int kNumActionKinds = gaudi::kNumActionKinds;
  static constexpr const char* const* kActionKindNames = gaudi::kActionKindNames;
  static constexpr int kNumLocations = int(sizeof(gaudi::kLocations) / sizeof(gaudi::kLocations[0]));
  static constexpr const NamedValue* kLocations = gaudi::kLocations;
  void action_ranges(ActionRange* out) const {
    for (int k = 0; k < kNumActionKinds; ++k) out[k] = {kActionKindNames[k], kActionKindFirst[k], kActionKindFirst[k + 1]};
  }
  // Bound on the legal list (proof): MOVE <= 49 ids (0..48). USES: an area holds <= 5 tiles
  // (refills place 5), so <= 25 distinct TAKE_TILE ids, <= 9 window cards, <= 4 PLAY (hand <= 4),
  // 3 ADVANCE, DONE: <= 42. PLACE <= 64 board spaces. ITEM (generic): <= 25 + 9 + 4 + 3 + 1.
  // FRAME: <= 40 RESOLVE + DONE. TARGET <= 33 + DONE. DISCARD 4. MODE 2. CENTRAL 3.
  // Chance outcomes <= 33 (a deck). So 64 suffices.
  static constexpr int kMaxActions = 64;
  static constexpr int kMaxChanceOutcomes = 33;
  static constexpr Decoded decode(int32_t a) { return gaudi::decode(a); }

  State(const Config& config, uint64_t seed);

  const Config& config() const { return *cfg_; }
  int num_players() const { return players_; }
  int num_distinct_actions() const { return kNumActions; }
  bool is_terminal() const { return phase_ == kTerminal; }
  bool is_chance_node() const { return phase_ == kChance; }
  int current_player() const {
    return phase_ == kTerminal ? kTerminalSeat : (phase_ == kChance ? kChanceSeat : current_);
  }
  void legal_actions(ActionList<kMaxActions>& out) const;
  bool is_legal(int32_t action) const;
  std::string illegal_reason(int32_t action) const;
  void apply(int32_t action);
  void chance_outcomes(ChanceList<kMaxChanceOutcomes>& out) const;

  void scores(double* out) const;
  void returns(double* out) const;
  uint32_t winners() const;

  int observation_size() const;
  std::vector<int> observation_shape() const { return {observation_size()}; }
  void observation(int player, float* out) const;
  void observation_codec(float* denominator, float* offset) const;  // cpp/core/codec.hpp

  std::string action_to_string(int32_t action) const;
  int32_t string_to_action(const std::string& text) const;

  void validate() const;
  void rebuild_derived();
  void resample_hidden(int observer, uint64_t seed);
  double heuristic(int player) const;

  // ---- read-only views (bindings, renderers, tests) ----
  int phase() const { return phase_; }
  int chance_kind() const { return chance_kind_; }
  int round() const { return round_; }
  int position(int m) const { return position_[m]; }  // -1 not entered, 0..47 on the track, 48 left
  uint64_t track_occupancy() const { return track_occ_; }
  bool leader() const { return leader_; }
  int space() const { return space_; }
  int pencils_left() const { return pencils_; }
  int hammers_left() const { return hammers_; }
  int unit_mode() const { return mode_; }
  int generic_used() const { return generic_used_; }
  int start_player() const { return start_player_; }
  int marker_holder() const { return marker_holder_; }
  bool anyone_finished() const { return anyone_finished_; }
  int central_tile() const { return central_tile_; }
  int central_used() const { return central_used_; }
  int central_options() const { return central_options_; }
  int extra_turns() const { return extra_turns_; }
  int area_count(int a, int t) const { return area_[a][t]; }
  int bag_count(int t) const { return bag_[t]; }
  int window_size(int d) const { return window_n_[d]; }
  int window_card(int d, int k) const { return window_[d][k]; }
  int deck_size(int d) const { return deck_n_[d]; }
  int hand_size(int p) const { return hand_n_[p]; }
  int hand_card(int p, int k) const { return hand_[p][k]; }
  int start_card(int p) const { return start_card_[p] == kNoCard ? -1 : start_card_[p]; }
  int column_size(int p, int d) const { return column_n_[p][d]; }
  int column_card(int p, int d, int k) const { return column_[p][d][k]; }
  int card_location(int c) const { return card_loc_[c]; }
  int card_owner(int c) const { return card_owner_[c]; }
  int chimney(int p, int d) const { return chimney_[p][d]; }
  int chimney_tile(int p, int d) const { return cfg_->mode == 1 ? chimney_tile_[p][d] : cfg_->day_chimney[d]; }
  int draft_start() const { return draft_start_; }
  bool expert() const { return cfg_->mode == 1; }
  bool solo() const { return cfg_->solo != 0; }
  int participants() const { return players_ + (cfg_->solo ? 1 : 0); }  // seats plus the solo automa
  int automa_column_size(int d) const { return automa_column_n_[d]; }
  int automa_column_card(int d, int k) const { return automa_column_[d][k]; }
  int automa_tiles(int t) const { return automa_tiles_[t]; }
  int virtual_tiles(int t) const { return virtual_tiles_[t]; }
  int automa_score() const { return automa_score_; }
  int automa_final_score() const { return automa_final(); }  // GA-SOLO-END-2..4 as if the game ended now
  int draft_index(int q) const { return ((draft_start_ - 1 - q) % players_ + 2 * players_) % players_; }  // GA-EXP-5, GA-AMB-44
  bool knows_passed(int observer, int c) const;  // draft knowledge (GA-ORDER-5 item 2)
  int domain_score(int p, int d) const { return score_[p][d]; }
  uint64_t colour_mask(int p, int c) const { return colour_[p][c]; }
  int largest_group(int p, int c) const { return largest_[p][c]; }
  int shape_component(int p, int s) const { return shape_comp_[p][s]; }
  int pending_tile() const { return phase_ == kPlace ? pending_tile_ : -1; }
  int item_entry() const { return (phase_ == kItem || phase_ == kTarget) ? item_entry_ : -1; }
  int num_frames() const { return nframes_; }
  int frame_count(int i, int e) const { return frame_count_[i][e]; }
  int frame_info(int i, int k) const { return frame_info_[i][k]; }
  int final_score(int p) const { return final_[p]; }
  int tiebreak(int p) const { return tiebreak_[p]; }
  int requirement_total(int p, int card) const;
  bool requirement_met(int p, int card) const;
  int group_sizes(int p, int* out) const;  // every same-colour group size (full flood fill), descending
  void recompute_groups(int p, uint8_t* largest, uint8_t* shape_comp) const;
  int religion_value(int p, int card) const;  // best value of one card's condition (GA-AMB-35)
  int end_scoring(int p, int* domains, int* tiebreak) const;  // final score as if the game ended now

  template <class V>
  void visit(V& v) {
    v.field("rng", rng_.s);
    v.field("phase", phase_);
    v.field("chance_kind", chance_kind_);
    v.field("flow", flow_);
    v.field("setup_step", setup_step_);
    v.field("round", round_);
    v.field("current", current_);
    v.field("start_player", start_player_);
    v.field("marker_holder", marker_holder_);
    v.field("turn_index", turn_index_);
    v.field("position", position_);
    v.field("anyone_finished", anyone_finished_);
    v.field("leader", leader_);
    v.field("space", space_);
    v.field("mode", mode_);
    v.field("pencils", pencils_);
    v.field("hammers", hammers_);
    v.field("generic_used", generic_used_);
    v.field("exit_after", exit_after_);
    v.field("turn_context", turn_context_);
    v.field("central_tile", central_tile_);
    v.field("central_used", central_used_);
    v.field("central_options", central_options_);
    v.field("central_first", central_first_);
    v.field("extra_turns", extra_turns_);
    v.field("bonus_fired", bonus_fired_);
    v.field("pending_tile", pending_tile_);
    v.field("pending_bonus", pending_bonus_);
    v.field("new_card", new_card_);
    v.field("item_entry", item_entry_);
    v.field("refill_mask", refill_mask_);
    v.field("chance_arg", chance_arg_);
    v.field("area", area_);
    v.field("bag", bag_);
    v.field("window", window_);
    v.field("window_n", window_n_);
    v.field("hand", hand_);
    v.field("hand_n", hand_n_);
    v.field("start_card", start_card_);
    v.field("pool", pool_);
    v.field("pool_n", pool_n_);
    v.field("column", column_);
    v.field("column_n", column_n_);
    v.field("card_loc", card_loc_);
    v.field("card_owner", card_owner_);
    v.field("early", early_);
    v.field("colour", colour_);
    v.field("chimney", chimney_);
    v.field("score", score_);
    v.field("final", final_);
    v.field("tiebreak", tiebreak_);
    v.field("nframes", nframes_);
    v.field("frame_count", frame_count_);
    v.field("frame_info", frame_info_);
    v.field("chimney_tile", chimney_tile_);
    v.field("draft_start", draft_start_);
    v.field("automa_column", automa_column_);
    v.field("automa_column_n", automa_column_n_);
    v.field("automa_tiles", automa_tiles_);
    v.field("virtual_tiles", virtual_tiles_);
    v.field("automa_score", automa_score_);
  }

 private:
  friend struct GaudiTestAccess;
  // flow
  void continue_setup();
  void start_round();
  void begin_turn();
  void end_turn();
  void continue_refill();
  void end_round();
  void finish_game();
  void virtual_turn();
  void resolve_chance();
  void apply_chance(int32_t o);
  void apply_decision(int32_t a);
  void settle();  // after every step: auto-applies single options, pops finished frames
  void end_uses();
  // helpers
  const int8_t* space_data(int t, int& action, int& pencils, int& hammers) const;
  bool has_virtual() const { return players_ == 2 || cfg_->solo; }
  int num_markers() const { return has_virtual() ? participants() + 1 : players_; }  // length of the turn order
  bool marker_used(int m) const { return m < participants() || (m == kVirtual && has_virtual()); }
  int marker_at(int idx) const { return idx < participants() ? (start_player_ + idx) % participants() : kVirtual; }
  int pool_size() const { return cfg_->solo ? 2 : players_; }
  void automa_turn();
  bool automa_passes(int t, bool leading) const;
  void scripted_action(int action, int k, bool virt);
  void scripted_tile(int filter, bool virt);
  void scripted_card(int dmask, bool virt);
  int automa_final() const;
  int face() const { return cfg_->mode; }  // track and chimney face: 0 day, 1 night
  int area_cap() const { return cfg_->mode == 1 ? 4 : 5; }  // GA-SETUP-3, GA-EXP-3
  bool hand_room(int p) const { return !(cfg_->mode == 1 && hand_n_[p] >= 4); }  // GA-EXP-6, GA-AMB-29
  int entry_of(int m) const { return cfg_->track_entry[face()][m == kVirtual ? 2 : m]; }
  uint64_t board_occ(int p) const { return colour_[p][0] | colour_[p][1] | colour_[p][2] | colour_[p][3]; }
  bool tile_ok(int filter, int type) const;
  bool tile_fits(int p, int type) const { return (cfg_->shape_mask[type & 3] & ~board_occ(p)) != 0; }
  bool can_take_tile(int p, int filter) const;
  bool can_take_card(int p, int dmask) const;
  bool can_play(int p, bool free) const;
  bool can_advance(int p, int d) const;
  bool can_carry(int p, int entry) const;
  void uses_options(uint8_t& tile_filter_mask, uint8_t& card_mask, bool& play, bool& advance, int& tile_filter) const;
  void push_tile_takes(int p, int filter, ActionList<kMaxActions>& out) const;
  void legal_into(ActionList<kMaxActions>& out) const;
  void take_tile(int p, int a, int type);
  void place_tile(int p, int b);
  void take_card(int p, int c);
  void play_card(int p, int c);
  void play_effects(int p, int c, int category);
  uint16_t category_triggers(int p) const;  // categories with a reached on-play ability (expert)
  void advance(int p, int d);
  void discard(int p, int c);
  void after_event(int bonus_slot);
  void push_effects(const int8_t (*effects)[2], int n, int p, int bonus_kind = 255);
  int push_frame();
  void fill_column_frame(int f, int p);
  void pop_frame();
  void add_vp(int p, int d, int n) { score_[p][d] = static_cast<int16_t>(score_[p][d] + n); }
  void remove_from_hand(int p, int c);
  void update_groups(int p, int b, int colour);
  int count_value(int p, int kind, int arg, const int* cat_counts) const;
  int best_for(int p, int final_domains[3], int& tb) const;
  void deal_card_to_window(int d, int c);
  void next_chance_or_flow();
  bool column_religion(int p, int c) const;
  int chimney_free(int d, int* ids) const;

  const Config* cfg_;
  int32_t players_;
  Rng rng_;
  uint8_t phase_, chance_kind_, flow_, setup_step_;
  uint8_t round_, current_, start_player_, marker_holder_, turn_index_;
  int8_t position_[5];
  uint8_t anyone_finished_, leader_, space_, mode_, pencils_, hammers_, generic_used_, exit_after_, turn_context_;
  int8_t central_tile_;
  uint8_t central_used_, central_options_, central_first_, extra_turns_, bonus_fired_;
  uint8_t pending_tile_;
  int8_t pending_bonus_;
  uint8_t new_card_, item_entry_, refill_mask_, chance_arg_;
  uint8_t area_[kAreas][kTypes];
  uint8_t bag_[kTypes];
  uint8_t window_[3][3];
  uint8_t window_n_[3];
  uint8_t hand_[kMaxPlayers][5];
  uint8_t hand_n_[kMaxPlayers];
  uint8_t start_card_[kMaxPlayers];
  uint8_t pool_[kMaxPlayers];
  uint8_t pool_n_;
  uint8_t column_[kMaxPlayers][3][33];
  uint8_t column_n_[kMaxPlayers][3];
  uint8_t card_loc_[kCards];
  uint8_t card_owner_[kCards];
  uint64_t early_[2];
  uint64_t colour_[kMaxPlayers][4];
  uint8_t chimney_[kMaxPlayers][3];
  int16_t score_[kMaxPlayers][3];
  int16_t final_[kMaxPlayers];
  int16_t tiebreak_[kMaxPlayers];
  uint8_t nframes_;
  uint8_t frame_count_[kMaxFrames][kEntUsed];
  uint8_t frame_info_[kMaxFrames][8];
  uint8_t chimney_tile_[kMaxPlayers][3];  // expert: the chimney tile per domain (255 not dealt; basic: unused)
  uint8_t draft_start_;                // expert: the start player when the draft ran
  uint8_t automa_column_[3][33];            // solo: the automa's columns, earliest first (GA-AUTO-1)
  uint8_t automa_column_n_[3];
  uint8_t automa_tiles_[kTypes];         // solo: the automa's tiles by type
  uint8_t virtual_tiles_[kTypes];              // solo: tiles removed by the virtual marker (GA-AMB-18)
  int16_t automa_score_;
  // derived (not saved; rebuild_derived recomputes them)
  uint64_t track_occ_;
  uint8_t deck_n_[3];
  uint8_t largest_[kMaxPlayers][4];
  uint8_t shape_comp_[kMaxPlayers][4];
};

}  // namespace tilecraft::gaudi
