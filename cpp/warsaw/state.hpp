// Warsaw: City of Ruins (spec: shared/rules/warsaw.md). The whole game state in one trivially
// copyable struct; component data stays in the Config (the State keeps a pointer to it).
//
// Districts. Each seat's district lives in an 8x8 window of card positions (one uint64_t of
// occupancy, Grid<8,8>) anchored at frame coordinates (ax, ay); the window is re-anchored so the
// district's bounding box (at most 4x4) always lies in local rows/columns 1..6, so every position a
// card can reach is inside the window. Scoring builds, per district, one 8x8 quadrant bitboard per
// area type (4x4 cards = 8x8 quadrants) relative to the bounding box; areas are flood fills and
// area adjacency is tested with dilations (Grid<8,8>::dilate), never by looping over cells.
//
// Fixed frame (DESIGN 12.5): positions are frame coordinates relative to the starting card,
// x, y in -9..9 (19 x 19 = 361 cells, cell = (y + 9) * 19 + (x + 9)). Bound: at the start the box
// holds (0,0) and is at most 4 wide, so every card is within 3 of it; the box can only drift when
// positions are removed, by at most one column/row per removed position in a war (at most 1 + 2 = 3
// over the game, WA-WAR-1/2) and by at most 3 in the single Prudential trim (the kept part lies in
// the old 4x4 box, WA-AMB-13; the data may hold at most one Prudential). 3 + 3 + 3 = 9.
//
// Actions (docs/warsaw.md, "Actions"): 0..3 pick hand slot k (hand sorted by card id); 4 sell;
// 5 + 4 * cell + r build / place a milestone at a frame cell with rotation r; 1449 + cell remove
// that position in a war; 1810 + w choose the Prudential trim window (0 drop top row, 1 bottom,
// 2 left column, 3 right column); 1814 + cell keep the component containing that cell (trim tie);
// 2175 + k exchange k times (a public building's choice). 2179 ids.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/action_list.hpp"
#include "core/bitboard.hpp"
#include "core/game.hpp"
#include "core/rng.hpp"
#include "core/vocab.hpp"
#include "warsaw/config.hpp"

namespace tilecraft::warsaw {

constexpr int kMaxPlayers = 4;
constexpr int kFrameR = 9;
constexpr int kFrameW = 2 * kFrameR + 1;    // 19
constexpr int kCells = kFrameW * kFrameW;  // 361
constexpr int kPickBase = 0;
constexpr int kSell = 4;
constexpr int kBuildBase = 5;
constexpr int kRemoveBase = kBuildBase + 4 * kCells;  // 1449
constexpr int kTrimBase = kRemoveBase + kCells;       // 1810
constexpr int kKeepBase = kTrimBase + 4;              // 1814
constexpr int kExchangeBase = kKeepBase + kCells;     // 2175
constexpr int kNumActions = kExchangeBase + 4;        // 2179

// Card ids: 0..kMaxCards-1 era cards, then one starting card per seat, then one per milestone slot.
constexpr int kStartBase = kMaxCards;                  // 112
constexpr int kMileBase = kStartBase + kMaxPlayers;    // 116
constexpr int kCardIds = kMileBase + kMilestones;      // 121
constexpr uint8_t kNone = 255;

// Where a card is (every card is in exactly one place).
enum Loc : uint8_t { kLocSupply = 0, kLocBoxUnseen = 1, kLocSold = 2, kLocRemoved = 3, kLocMileDiscarded = 4,
                     kLocHand = 8, kLocPending = 12, kLocDistrict = 16 };
// kLocHand, kLocPending and kLocDistrict are bases: + seat.
inline constexpr NamedValue kLocations[] = {{"supply", kLocSupply},   {"box_unseen", kLocBoxUnseen},
                                            {"sold", kLocSold},       {"removed", kLocRemoved},
                                            {"milestone_discarded", kLocMileDiscarded},
                                            {"hand", kLocHand},       {"pending", kLocPending},
                                            {"district", kLocDistrict}};

enum Phase : uint8_t { kPick = 0, kResolve = 1, kWar = 2, kTrim = 3, kTrimKeep = 4, kMilePlace = 5, kExchangePhase = 6,
                       kTerminal = 7, kNumPhases = 8 };
inline constexpr const char* kPhaseNames[kNumPhases] = {
    "picking cards", "selling or building", "war removals", "Prudential trim", "Prudential trim (keep)",
    "placing a milestone", "exchange", "game over"};
// Action kinds in id order; the ranges are the k*Base constants above (action_ranges()).
enum ActionKind : uint8_t { kActPick, kActSell, kActBuild, kActRemove, kActTrim, kActKeep, kActExchange, kNumActionKinds };
inline constexpr const char* kActionKindNames[kNumActionKinds] = {"pick", "sell", "build",   "remove",
                                                                  "trim", "keep", "exchange"};
inline constexpr int32_t kActionKindFirst[kNumActionKinds + 1] = {kPickBase, kSell,     kBuildBase,    kRemoveBase,
                                                                  kTrimBase, kKeepBase, kExchangeBase, kNumActions};
static_assert(ranges_from_zero(kActionKindFirst, kNumActionKinds + 1) && kActionKindFirst[kNumActionKinds] == kNumActions,
              "kActionKindFirst: the kinds' first ids from 0, strictly increasing, then kNumActions");
enum Resume : uint8_t { kAfterResolve = 0, kAfterWar = 1, kAfterMilestone = 2 };

using CardGrid = Grid<8, 8>;  // card positions of a district window, bit = ly * 8 + lx
using QuadGrid = Grid<8, 8>;  // quadrants of a district's bounding box (4x4 cards)

// The areas of one district (WA-AREA-*), computed from the visible cards.
struct Regions {
  uint64_t type[kAreaTypes];  // quadrant bitboards per area type
  int n_whole;                // whole-card buildings (each its own area, WA-AREA-3)
  uint64_t whole_bits[16];
  uint8_t whole_card[16];
  int cultural_value, industrial_value, transport_cards;
  int transport_groups;  // WA-AMB-6: groups of transport cards linked by edge-sharing transport quadrants
  int count(int t) const {  // number of areas of type t (flood fills)
    int n = 0;
    QuadGrid::for_each_component(type[t], [&](uint64_t) { ++n; });
    return n;
  }
  int total_areas() const {
    int n = n_whole;
    for (int t = 0; t < kAreaTypes; ++t) n += count(t);
    return n;
  }
};

// What one income phase pays a seat (WA-INC-1 step 3), step by step.
struct Income {
  int park_vp, commercial_coins, cultural_vp, industrial_coins, industrial_penalty, transport_vp;
  int effect_vp, effect_coins;
};

class State {
 public:
  using Config = warsaw::Config;
  static constexpr const char* kName = "warsaw";
  // Bumped whenever observation() or the action ids change meaning while keeping their shape, so that
  // a trained network refuses to load (observation_layout() in the binding; tilecraft.baselines).
  static constexpr int kObservationVersion = 1;
  // the game's words (cpp/core/vocab.hpp)
  static constexpr int kNumPhases = warsaw::kNumPhases;
  static constexpr const char* const* kPhaseNames = warsaw::kPhaseNames;
  static constexpr int kNumActionKinds = warsaw::kNumActionKinds;
  static constexpr const char* const* kActionKindNames = warsaw::kActionKindNames;
  static constexpr int kNumLocations = int(sizeof(warsaw::kLocations) / sizeof(warsaw::kLocations[0]));
  static constexpr const NamedValue* kLocations = warsaw::kLocations;
  void action_ranges(ActionRange* out) const {
    for (int k = 0; k < kNumActionKinds; ++k) out[k] = {kActionKindNames[k], kActionKindFirst[k], kActionKindFirst[k + 1]};
  }
  // Bound: PICK <= 4; RESOLVE: sell + 4 rotations x positions, and the positions (occupied or empty
  // legal) lie in the bounding box (<= 4x4) grown by one step without its 4 corners: 6*6-4 = 32,
  // so <= 1 + 128 = 129; WAR / KEEP <= 16 positions; TRIM 4; EXCHANGE 4; MILESTONE <= 32.
  // build_options writes 4 ids per position and keeps the distinct ones: 129 + 3 spare = 132.
  static constexpr int kMaxActions = 132;
  static constexpr int kMaxChanceOutcomes = 1;  // chance is sampled inside apply() (spec 12.3)

  // An action id read once: its kind and its argument within the kind's id range (kActionKindFirst):
  // the hand slot, 4 * cell + rotation, the cell, the trim window or the exchange count. For ids in
  // 0..kNumActions-1 (callers check the range first).
  struct Decoded {
    ActionKind kind;
    int arg;
  };
  static constexpr Decoded decode(int32_t a) {
    int k = 0;  // from the first kind: the draft's picks, sales and builds are the most frequent
    while (k + 1 < kNumActionKinds && a >= kActionKindFirst[k + 1]) ++k;
    return {static_cast<ActionKind>(k), a - kActionKindFirst[k]};
  }

  State(const Config& config, uint64_t seed);

  const Config& config() const { return *cfg_; }
  int num_players() const { return players_; }
  int num_distinct_actions() const { return kNumActions; }
  bool is_terminal() const { return phase_ == kTerminal; }
  bool is_chance_node() const { return false; }
  int current_player() const { return phase_ == kTerminal ? kTerminalSeat : current_; }

  void legal_actions(ActionList<kMaxActions>& out) const { legal_for(current_, out); }
  bool is_legal(int32_t action) const;
  std::string illegal_reason(int32_t action) const;
  void apply(int32_t action);
  void chance_outcomes(ChanceList<kMaxChanceOutcomes>& out) const { out.clear(); }

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
  void rebuild_derived() {
    for (int p = 0; p < kMaxPlayers; ++p) refresh_effects(p);
  }
  void resample_hidden(int observer, uint64_t seed);
  double heuristic(int player) const;

  // ---- read-only views (bindings, renderers, tests) ----
  int phase() const { return phase_; }
  int era() const { return era_; }
  int pick_round() const { return round_; }
  int coins(int p) const { return coins_[p]; }
  int vp(int p) const { return vp_[p]; }
  int hand_size(int p) const { return hand_size_[p]; }
  int hand_card(int p, int k) const { return hand_[p][k]; }
  int revealed_card(int p) const { return phase_ == kResolve ? pending_card_[p] : -1; }
  int pending_card(int p) const { return pending_card_[p] == kNone ? -1 : pending_card_[p]; }
  int milestone_side(int i) const { return mile_side_[i]; }
  int milestone_owner(int i) const { return mile_owner_[i]; }
  int card_location(int c) const { return card_loc_[c]; }
  int card_cell(int c) const { return card_cell_[c]; }
  // Top card / rotation / height at frame cell, or -1 / 0 when empty.
  int top_at(int p, int x, int y) const;
  int rotation_at(int p, int x, int y) const;
  int height_at(int p, int x, int y) const;
  void bbox(int p, int& x0, int& y0, int& x1, int& y1) const;  // frame coordinates
  int num_positions(int p) const { return popcount(occupied_[p]); }
  bool district_connected(int p) const { return CardGrid::connected(occupied_[p]); }
  bool within_limit(int p) const;
  Regions regions(int p) const;
  Income income(int p) const;
  int park_score(int adjacent_residential_areas) const;
  int visible_effect_card(int p, int effect) const;  // a visible public building with that effect, or -1
  int price_of(int c) const { return c < kMaxCards ? cfg_->card_price[c] : 0; }
  int printed_type(int c, int k) const;
  int printed_value(int c, int k) const;
  int removals_needed(int p) const { return war_need_[p]; }
  bool has_chosen(int p) const { return (chosen_ >> p) & 1u; }

  template <class V>
  void visit(V& v) {
    v.field("rng", rng_.s);
    v.field("phase", phase_);
    v.field("resume", resume_);
    v.field("era", era_);
    v.field("round", round_);
    v.field("current", current_);
    v.field("chosen", chosen_);
    v.field("trim_mask", trim_mask_);
    v.field("trim_window", trim_window_);
    v.field("exchange_mask", exchange_mask_);
    v.field("mile_side", mile_side_);
    v.field("mile_owner", mile_owner_);
    v.field("coins", coins_);
    v.field("vp", vp_);
    v.field("card_loc", card_loc_);
    v.field("card_cell", card_cell_);
    v.field("built_at", built_at_);
    v.field("build_seq", build_seq_);
    v.field("hand", hand_);
    v.field("hand_size", hand_size_);
    v.field("pending_card", pending_card_);
    v.field("pending", pending_);
    v.field("pending_count", pending_count_);
    v.field("war_need", war_need_);
    v.field("seen", seen_);
    v.field("anchor_x", anchor_x_);
    v.field("anchor_y", anchor_y_);
    v.field("occupied", occupied_);
    v.field("top", top_);
    v.field("rot", rot_);
    v.field("height", height_);
  }

 private:
  friend struct WarsawTestAccess;
  // card data
  bool is_whole(int c) const { return printed_type(c, 0) >= kPublic; }
  int effect_of(int c, int& type, int& amount, int& resource, int& extra) const;
  int distinct_rotations(int c) const;
  int shown_type(int c, int r, int k) const { return printed_type(c, (k - r) & 3); }
  // geometry
  int frame_cell(int p, int local) const {
    return (anchor_y_[p] + (local >> 3) + kFrameR) * kFrameW + (anchor_x_[p] + (local & 7) + kFrameR);
  }
  inline int local_of(int p, int cell) const;  // -1 if the frame cell is outside p's window (detail.hpp)
  bool fits(uint64_t occ, bool big) const;
  bool big_limit(int p) const { return visible_effect_card(p, kPrudential) >= 0; }
  void normalize(int p);
  void refresh_effects(int p);
  // legality per seat
  void legal_for(int seat, ActionList<kMaxActions>& out) const;
  void build_options(int p, int card, bool milestone, ActionList<kMaxActions>& out) const;
  bool removable(int p, int local, uint64_t occ) const;
  inline int build_cost(int p, int card, int local) const;  // detail.hpp
  // flow
  void start_era();
  void next_seat_or_finish();
  void finish_picks();
  void finish_resolves();
  void pass_hands();
  void start_income();
  void finish_war();
  void award_milestone();
  void pay_income();
  void end_of_era();
  void check_trims(uint8_t seats, Resume resume);
  void after_trims();
  void continue_after(Resume r);
  void place(int p, int card, int local, int rot, int cost);
  void remove_position(int p, int local);
  void apply_trim_window(int p, int w);
  void keep_component(int p, uint64_t keep);
  uint64_t trim_window_mask(int p, int w) const;
  void trim_windows(int p, uint8_t& legal) const;
  void tied_components(int p, uint64_t kept, uint64_t* comps, int& n) const;
  inline void add_vp(int p, int d);  // detail.hpp
  int milestone_value(int p, int cond, int type) const;
  void sort_hand(int p);
  void pick_card(int p, int slot);  // hand slot -> the seat's hidden pick
  std::string cell_name(int cell) const;
  std::string explain_build(int p, int card, int cell, int r, bool milestone) const;

  const Config* cfg_;
  int32_t players_;
  Rng rng_;
  uint8_t phase_;
  uint8_t resume_;
  uint8_t era_;    // 1..6
  uint8_t round_;  // pick round 0..3
  int8_t current_;
  uint8_t chosen_;  // seats that committed at the current simultaneous node
  uint8_t trim_mask_;
  uint8_t trim_window_[kMaxPlayers];
  uint8_t exchange_mask_;
  uint8_t mile_side_[kMilestones];
  int8_t mile_owner_[kMilestones];  // -1 not yet awarded, -2 discarded (WA-MILE-3), else seat
  int16_t coins_[kMaxPlayers];
  int16_t vp_[kMaxPlayers];
  uint8_t card_loc_[kCardIds];
  uint16_t card_cell_[kCardIds];
  uint16_t built_at_[kCardIds];
  uint16_t build_seq_;
  uint8_t hand_[kMaxPlayers][4];
  uint8_t hand_size_[kMaxPlayers];
  uint8_t pending_card_[kMaxPlayers];
  int16_t pending_[kMaxPlayers][2];  // hidden resolve action / war removals (action ids)
  uint8_t pending_count_[kMaxPlayers];
  uint8_t war_need_[kMaxPlayers];
  uint64_t seen_[kMaxPlayers][2];  // era cards each seat has held this era (perfect recall)
  int8_t anchor_x_[kMaxPlayers], anchor_y_[kMaxPlayers];
  uint64_t occupied_[kMaxPlayers];
  uint8_t top_[kMaxPlayers][64];
  uint8_t rot_[kMaxPlayers][64];
  uint8_t height_[kMaxPlayers][64];
  uint16_t effects_[kMaxPlayers];  // derived: bit e set when a visible public building has effect e
};

// Inline: on the hot paths of several parts of the State (cpp/warsaw/*.cpp).
inline int State::visible_effect_card(int p, int effect) const {
  if (!((effects_[p] >> effect) & 1u)) return -1;
  uint64_t b = occupied_[p];
  while (b) {
    const int i = lowest_bit(b);
    b &= b - 1;
    const int c = top_[p][i];
    if (c < kMaxCards && cfg_->card_type[c][0] == kPublic && cfg_->card_effect[c] == effect) return c;
  }
  return -1;
}

}  // namespace tilecraft::warsaw
