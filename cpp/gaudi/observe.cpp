// Gaudí: hidden information, the observation and the actions' names (the State is declared in gaudi/state.hpp).
#include "gaudi/detail.hpp"

namespace tilecraft::gaudi {

namespace {
const char* const kDomainLetters = "NCR";
}  // namespace

// ------------------------------------------------------------------ hidden information

void State::resample_hidden(int observer, uint64_t seed) {
  // Unknown to the observer: the deck cards, the starting pool it has not seen and the other
  // seats' starting cards still in hand (GA-ORDER-5). Per domain, two groups are re-dealt from a
  // canonical order (ascending ids) with the seed, so the result depends only on the observer's
  // view, for every observer and phase: the cards it knows as a set (expert draft: the cards it
  // passed on, still hidden, among the pool and the later drafters' hands; GA-ORDER-5 item 2)
  // among their own slots, and everything else among the other hidden slots and the decks.
  rng_.seed(seed);
  if (phase_ == kTerminal) return;
  int sidx[kMaxPlayers];
  for (int q = 0; q < kMaxPlayers; ++q) {
    sidx[q] = -1;
    if (q < players_ && start_card_[q] != kNoCard)
      for (int k = 0; k < hand_n_[q]; ++k)
        if (hand_[q][k] == start_card_[q]) sidx[q] = k;
  }
  for (int grp = 0; grp < 2; ++grp)  // 0: unknown (with the deck), 1: known as a set
    for (int d = 0; d < 3; ++d) {
      uint8_t cards[kCards];
      int n = 0;
      uint8_t* slots[kMaxPlayers * 2];
      int ns = 0;
      for (int q = 0; q < players_; ++q) {
        const int c = start_card_[q];
        if (q == observer || c == kNoCard || cfg_->card_domain[c] != d || card_loc_[c] != kLocHand) continue;
        if (knows_passed(observer, c) != (grp == 1)) continue;
        for (int k = 0; k < hand_n_[q]; ++k)
          if (hand_[q][k] == c) slots[ns++] = &hand_[q][k];
      }
      for (int k = 0; k < pool_n_; ++k)
        if (cfg_->card_domain[pool_[k]] == d && knows_passed(observer, pool_[k]) == (grp == 1)) slots[ns++] = &pool_[k];
      if (ns == 0) continue;
      if (grp == 0)
        for (int c = 0; c < kCards; ++c)
          if (cfg_->card_domain[c] == d && card_loc_[c] == kLocDeck) cards[n++] = static_cast<uint8_t>(c);
      for (int i = 0; i < ns; ++i) cards[n++] = *slots[i];
      isort(cards, n);
      for (int i = n - 1; i > 0; --i) std::swap(cards[i], cards[rng_.below(static_cast<uint32_t>(i + 1))]);
      if (grp == 0)
        for (int i = 0; i < n; ++i) card_loc_[cards[i]] = kLocDeck, card_owner_[cards[i]] = static_cast<uint8_t>(d);
      for (int i = 0; i < ns; ++i) *slots[i] = cards[i];
      if (grp == 1)  // the known group's locations are fixed below from the slots
        for (int i = 0; i < ns; ++i) card_loc_[cards[i]] = kLocDeck, card_owner_[cards[i]] = static_cast<uint8_t>(d);
      for (int q = 0; q < players_; ++q) {
        for (int k = 0; k < hand_n_[q]; ++k) {
          const int c = hand_[q][k];
          if (card_loc_[c] == kLocDeck) {
            card_loc_[c] = kLocHand;
            card_owner_[c] = static_cast<uint8_t>(q);
          }
        }
        if (sidx[q] >= 0) start_card_[q] = hand_[q][sidx[q]];
      }
      for (int k = 0; k < pool_n_; ++k) card_loc_[pool_[k]] = kLocPool, card_owner_[pool_[k]] = 0;
    }
  rebuild_derived();
}

// ------------------------------------------------------------------ observation
// Layout (docs/gaudi.md), seats relative to the observer (0 = the observer):
//   global: round 3, phase 13, chance kind 7, seat to act 4, draft start 4 (expert), chimney tiles
//     4 seats x 12 (expert), central tile 7, central tiles used 7,
//     central options 2, first arrival 1, someone finished 1, start player 4, marker holder 4,
//     extra turns 1, leader 1, unit mode 3, pencils 1, hammers 1, generic types used 4, exit 1,
//     space 48, pending tile 16, item entry 40, frames 12 x (40 counts + 5 info)
//   track: 5 markers (4 seats, then the virtual marker) x 50 (not entered, 0..47, left)
//   supply: 5 areas x 16 + bag 16 + deck sizes 3
//   cards: 99 x 12 (unknown to the observer, window, discarded, pool, hand of seat k x4, column of seat k x4)
//   seats x4: hand domain counts 3, hand size 1, domain scores 3, chimneys 3, board 64 x 4 colours
namespace {
constexpr int kObsGlobal = 3 + 13 + 7 + 4 + 4 + 48 + 7 + 7 + 2 + 1 + 1 + 4 + 4 + 1 + 1 + 3 + 1 + 1 + 4 + 1 + 48 + 16 + 40 +
                           kMaxFrames * 45;
constexpr int kObsTrack = 5 * 50;
constexpr int kObsSupply = 5 * 16 + 16 + 3;
constexpr int kObsCards = kCards * 12;
constexpr int kObsSeat = 3 + 1 + 3 + 3 + 64 * 4;
constexpr int kObsSize = kObsGlobal + kObsTrack + kObsSupply + kObsCards + 4 * kObsSeat;
}  // namespace

int State::observation_size() const { return kObsSize; }

void State::observation(int player, float* out) const {
  std::memset(out, 0, sizeof(float) * kObsSize);
  float* o = out;
  auto rel = [&](int q) { return solo() ? q : (q - player + players_) % players_; };
  o[round_ - 1] = 1;
  o += 3;
  o[phase_] = 1;
  o += 13;
  if (phase_ == kChance) o[chance_kind_] = 1;
  o += 7;
  if (phase_ != kChance && phase_ != kTerminal) o[rel(current_)] = 1;
  o += 4;
  if (expert()) o[rel(draft_start_)] = 1;
  o += 4;
  for (int k = 0; k < players_; ++k)  // expert: each seat's chimney tiles (public once dealt)
    for (int d = 0; d < 3; ++d)
      if (expert() && chimney_tile_[(player + k) % players_][d] != kNoCard) o[12 * k + chimney_tile_[(player + k) % players_][d]] = 1;
  o += 48;
  if (central_tile_ >= 0) o[central_tile_] = 1;
  o += 7;
  for (int t = 0; t < 7; ++t) o[t] = (central_used_ >> t) & 1;
  o += 7;
  o[0] = central_options_ & 1;
  o[1] = (central_options_ >> 1) & 1;
  o += 2;
  *o++ = central_first_;
  *o++ = anyone_finished_;
  o[rel(start_player_)] = 1;
  o += 4;
  o[rel(marker_holder_)] = 1;
  o += 4;
  *o++ = extra_turns_ / 4.0f;
  *o++ = leader_;
  if (mode_ >= 1 && mode_ <= 3) o[mode_ - 1] = 1;
  o += 3;
  *o++ = pencils_ / 3.0f;
  *o++ = hammers_ / 3.0f;
  for (int k = 0; k < 4; ++k) o[k] = (generic_used_ >> k) & 1;
  o += 4;
  *o++ = exit_after_;
  if (phase_ != kChance && phase_ != kTerminal && phase_ != kMove && phase_ != kCentral) o[space_] = 1;
  o += 48;
  if (phase_ == kPlace) o[pending_tile_] = 1;
  o += 16;
  if (phase_ == kItem || phase_ == kTarget) o[item_entry_] = 1;
  o += 40;
  for (int f = 0; f < kMaxFrames; ++f) {
    if (f < nframes_) {
      for (int e = 0; e < kEntUsed; ++e) o[e] = frame_count_[f][e] / 4.0f;
      o[40] = frame_info_[f][kReps];
      o[41] = frame_info_[f][kSnapDomain] == 255 ? -1.0f : frame_info_[f][kSnapDomain];
      o[42] = frame_info_[f][kSnapLen] / 10.0f;
      o[43] = frame_info_[f][kBonusKind] == 255 ? -1.0f : frame_info_[f][kBonusKind];
      o[44] = frame_info_[f][kChoose];
    }
    o += 45;
  }
  for (int m = 0; m < 5; ++m) {
    const int q = m < 4 ? m : kVirtual;  // slot m: relative seat m, then the virtual marker
    const int real = q == kVirtual ? kVirtual : (q < players_ ? (q + player) % players_ : (solo() && q == kAutoma ? kAutoma : -1));
    if (real >= 0 && marker_used(real)) o[position_[real] + 1] = 1;
    o += 50;
  }
  for (int a = 0; a < kAreas; ++a)
    for (int t = 0; t < kTypes; ++t) *o++ = area_[a][t] / 5.0f;
  for (int t = 0; t < kTypes; ++t) *o++ = bag_[t] / 6.0f;
  for (int d = 0; d < 3; ++d) *o++ = deck_n_[d] / 33.0f;
  for (int c = 0; c < kCards; ++c) {
    const int l = card_loc_[c], w = card_owner_[c];
    if (l == kLocWindow) o[1] = 1;
    else if (l == kLocDiscard) o[2] = 1;
    else if (l == kLocHand) {
      if (w != player && start_card_[w] == c) o[knows_passed(player, c) ? 3 : 0] = 1;  // hidden identity
      else o[4 + rel(w)] = 1;
    } else if (l == kLocColumn) o[8 + rel(w)] = 1;
    else if (l == kLocAutoma) o[9] = 1;   // solo: the automa's area (column slot of relative seat 1)
    else if (l == kLocRemoved) o[2] = 1;  // solo: removed by the virtual marker (public, like a discard)
    else if (l == kLocPool && knows_passed(player, c)) o[3] = 1;  // a pool card this drafter has seen
    else o[0] = 1;  // deck or undealt pool: unknown
    o += 12;
  }
  for (int k = 0; k < 4; ++k) {
    if (k < players_) {
      const int q = (player + k) % players_;
      for (int i = 0; i < hand_n_[q]; ++i) o[cfg_->card_domain[hand_[q][i]]] += 0.25f;
      o[3] = hand_n_[q] / 4.0f;
      for (int d = 0; d < 3; ++d) o[4 + d] = score_[q][d] / 50.0f;
      for (int d = 0; d < 3; ++d) o[7 + d] = chimney_[q][d] / 6.0f;
      for (int c = 0; c < 4; ++c)
        for_each_bit(colour_[q][c], [&](int b) { o[10 + 4 * b + c] = 1; });
    } else if (solo() && k <= 2) {  // solo: seat block 1 = the automa's tiles, block 2 = the virtual pile
      for (int t = 0; t < kTypes; ++t) o[10 + t] = (k == 1 ? automa_tiles_[t] : virtual_tiles_[t]) / 6.0f;
      if (k == 1)
        for (int d = 0; d < 3; ++d) o[d] = automa_column_n_[d] / 10.0f;
    }
    o += kObsSeat;
  }
}

// Every feature is code / denominator + offset (cpp/core/codec.hpp), following observation()'s
// layout: extra turns / 4, pencils and hammers / 3, frame counts / 4, snapshot length / 10, the
// snapshot domain and bonus kind -1 when unset (offset -1), area tiles / 5, bag / 6, deck sizes
// / 33, hand domain counts and hand size / 4, domain scores / 50, chimneys / 6; solo: the
// automa's and the virtual pile's tiles / 6, the automa's domain counts / 10.
void State::observation_codec(float* denominator, float* offset) const {
  float* d = denominator;
  d += 3 + 13 + 7 + 4 + 4 + 48 + 7 + 7 + 2 + 1 + 1 + 4 + 4;
  *d++ = 4.0f;  // extra turns
  d += 1 + 3;
  *d++ = 3.0f;  // pencils
  *d++ = 3.0f;  // hammers
  d += 4 + 1 + 48 + 16 + 40;
  for (int f = 0; f < kMaxFrames; ++f, d += 45) {
    std::fill(d, d + kEntUsed, 4.0f);
    offset[(d - denominator) + 41] = -1.0f;
    d[42] = 10.0f;
    offset[(d - denominator) + 43] = -1.0f;
  }
  d += kObsTrack;
  std::fill(d, d + kAreas * kTypes, 5.0f);
  d += kAreas * kTypes;
  std::fill(d, d + kTypes, 6.0f);
  d += kTypes;
  std::fill(d, d + 3, 33.0f);
  d += 3 + kObsCards;
  for (int k = 0; k < 4; ++k, d += kObsSeat) {
    if (k < players_) {
      std::fill(d, d + 4, 4.0f);        // hand domain counts, hand size
      std::fill(d + 4, d + 7, 50.0f);   // domain scores
      std::fill(d + 7, d + 10, 6.0f);   // chimneys
    } else if (solo() && k <= 2) {
      std::fill(d + 10, d + 10 + kTypes, 6.0f);
      if (k == 1) std::fill(d, d + 3, 10.0f);
    }
  }
}

// ------------------------------------------------------------------ names

std::string State::action_to_string(int32_t a) const {
  if (phase_ == kChance) {
    require<IllegalAction>(a >= 0 && a < kMaxChanceOutcomes, "gaudi: no chance outcome ", a);
    return "outcome " + std::to_string(a);
  }
  require<IllegalAction>(a >= 0 && a < kNumActions, "gaudi: no action has id ", a, " (ids are 0..653)");
  std::ostringstream os;
  const Decoded d = decode(a);
  switch (d.kind) {
    case kActMove: os << "move " << d.arg; break;
    case kActMoveCentral: os << "move central"; break;
    case kActPencils: os << "pencils"; break;
    case kActHammers: os << "hammers"; break;
    case kActTakeTile: os << "take tile a" << (d.arg >> 4) << " c" << ((d.arg >> 2) & 3) << " s" << (d.arg & 3); break;
    case kActPlace: os << "place " << d.arg; break;
    case kActTakeCard: os << "take card " << d.arg; break;
    case kActPlayCard: os << "play card " << d.arg; break;
    case kActDiscardCard: os << "discard card " << d.arg; break;
    case kActAdvance: os << "advance " << kDomainLetters[d.arg]; break;
    case kActCentralA: os << "central A"; break;
    case kActCentralB: os << "central B"; break;
    case kActResolve: os << "resolve " << d.arg; break;
    case kActTargetCard: os << "target card " << d.arg; break;
    case kActCategory: os << "category " << d.arg; break;
    case kActDone:
    case kNumActionKinds: os << "done"; break;  // (ids are checked above)
  }
  return os.str();
}

int32_t State::string_to_action(const std::string& text) const {
  std::string t;
  for (char ch : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (phase_ == kChance && t.rfind("outcome ", 0) == 0) {
    for (int o = 0; o < kMaxChanceOutcomes; ++o)
      if (t == "outcome " + std::to_string(o)) return o;
  }
  // names are unique per id: compare against the generated names of the kinds the prefix names
  struct Prefix {
    const char* text;
    ActionKind first, last;
  };
  static constexpr Prefix kPrefixes[] = {
      {"move", kActMove, kActMoveCentral},     {"take tile", kActTakeTile, kActTakeTile},
      {"place", kActPlace, kActPlace},         {"take card", kActTakeCard, kActTakeCard},
      {"play card", kActPlayCard, kActPlayCard}, {"discard", kActDiscardCard, kActDiscardCard},
      {"resolve", kActResolve, kActResolve},   {"target", kActTargetCard, kActTargetCard},
      {"category", kActCategory, kActCategory}};
  int lo = 0, hi = kNumActions;
  for (const Prefix& x : kPrefixes)
    if (t.rfind(x.text, 0) == 0) {
      lo = kActionKindFirst[x.first];
      hi = kActionKindFirst[x.last + 1];
      break;
    }
  State copy = *this;
  copy.phase_ = kMove;  // decision names do not depend on the phase
  for (int a = lo; a < hi; ++a) {
    std::string name = copy.action_to_string(a);
    for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (name == t) return a;
  }
  fail<IllegalAction>("gaudi: cannot read action '", text, "'; expected e.g. 'move 7', 'move central', 'pencils', "
                      "'hammers', 'take tile a2 c1 s3', 'place 12', 'take card 40', 'play card 40', 'discard card 40', "
                      "'advance N', 'central A', 'resolve 24', 'target card 70', 'done'");
}

std::string State::illegal_reason(int32_t a) const {
  std::ostringstream os;
  if (phase_ == kTerminal) return "the game is over";
  if (a < 0 || a >= kNumActions) {
    os << "action id " << a << " is out of range (0..653)";
    return os.str();
  }
  if (phase_ == kChance) {
    os << "chance node: " << a << " is not a possible outcome";
    return os.str();
  }
  const std::string name = action_to_string(a);
  const int p = current_;
  const Decoded d = decode(a);
  os << "'" << name << "' is not legal now (seat " << p << ", phase: " << kPhaseNames[phase_] << "): ";
  const bool uses = phase_ == kUses || phase_ == kItem;
  bool said = true;
  switch (d.kind) {
    case kActMove:
    case kActMoveCentral: {
      if (phase_ != kMove) {
        said = false;
        break;
      }
      const int lo = position_[p] < 0 ? entry_of(p) : position_[p] + 1;
      if (a < lo) os << "a marker moves forward only, to index " << lo << " or beyond";
      else if (a >= cfg_->track_n[face()]) os << "the track has " << cfg_->track_n[face()] << " spaces";
      else os << "the space is occupied by another marker (GA-MOVE-4)";
      break;
    }
    case kActTakeTile:
      if (!uses) said = false;
      else if (!area_[d.arg >> 4][d.arg & 15]) os << "area " << (d.arg >> 4) << " has no such tile";
      else if (!tile_fits(p, d.arg & 15)) os << "the tile fits no empty space of its shape (GA-AMB-41)";
      else os << "this action does not allow that tile";
      break;
    case kActPlace:
      if (phase_ != kPlace) said = false;
      else os << "space " << d.arg << " is occupied, absent or of another shape (GA-TILE-2/5)";
      break;
    case kActPlayCard:
      if (!uses) said = false;
      else if (card_loc_[d.arg] != kLocHand || card_owner_[d.arg] != p) os << "card " << d.arg << " is not in the hand";
      else if (!requirement_met(p, d.arg))
        os << "the requirement is not met: " << requirement_total(p, d.arg) << " tiles needed (GA-REQ-*)";
      else os << "no unit or reward allows a play now";
      break;
    case kActTakeCard:
      if (phase_ != kDiscard) said = false;
      else os << "the hand is full: discard one of the 4 older cards first (GA-AMB-28)";
      break;
    case kActDone:
      if (phase_ != kFrame) said = false;
      else os << "a column resolution is always carried out (GA-ORDER-2)";
      break;
    default: said = false; break;
  }
  if (!said) {
    if (phase_ == kDiscard) os << "a card must be discarded (the hand holds 5)";
    else if (d.kind == kActAdvance) os << "the chimney is at its top or its next requirement is not met (GA-CHIM-2)";
    else os << "it is not among the legal actions";
  }
  return os.str();
}

}  // namespace tilecraft::gaudi
