// Warsaw: what a seat sees (spec: shared/rules/warsaw.md): the observation and its codec, the
// resampling of what it cannot see, and the names of the actions.
#include "warsaw/detail.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>
#include <string>

namespace tilecraft::warsaw {

using namespace detail;

namespace {
const char* const kWindowNames[4] = {"top", "bottom", "left", "right"};
}  // namespace

// ---- hidden information ----

void State::resample_hidden(int observer, uint64_t seed) {
  rng_.seed(seed);  // future era decks are dealt from the RNG
  if (phase_ == kTerminal) return;
  const uint64_t* known = seen_[observer];
  // Other seats' hidden picks go back into their hands and are chosen again below.
  uint8_t repick = 0;
  if (phase_ == kPick) {
    for (int q = 0; q < players_ && q < kMaxPlayers; ++q) {
      if (q == observer || !((chosen_ >> q) & 1u) || hand_size_[q] >= 4) continue;
      const int c = pending_card_[q];
      hand_[q][hand_size_[q]++] = static_cast<uint8_t>(c);
      card_loc_[c] = static_cast<uint8_t>(kLocHand + q);
      pending_card_[q] = kNone;
      repick |= static_cast<uint8_t>(1u << q);
    }
  }
  // The pool: cards of this era the observer has never held, in other hands or boxed unseen.
  uint8_t pool[kMaxCards];
  uint8_t* slot[kMaxCards];
  int n = 0;
  uint8_t boxed[kMaxCards];
  int n_boxed = 0;
  for (int q = 0; q < players_; ++q) {
    if (q == observer) continue;
    for (int k = 0; k < hand_size_[q]; ++k)
      if (!test_seen(known, hand_[q][k])) {
        pool[n] = hand_[q][k];
        slot[n++] = &hand_[q][k];
      }
  }
  for (int c = 0; c < cfg_->num_cards; ++c)
    if (card_loc_[c] == kLocBoxUnseen && cfg_->card_era[c] == era_) {
      pool[n] = static_cast<uint8_t>(c);
      boxed[n_boxed++] = static_cast<uint8_t>(c);
      slot[n++] = &boxed[n_boxed - 1];
    }
  uint8_t image[kMaxCards];  // image[c] = the card that takes c's place
  uint8_t shuffled[kMaxCards];
  // Shuffle the pool from a canonical order (ascending ids), so that the new deal depends only on
  // what the observer knows and the seed, never on where the unseen cards really are: searches on
  // states that look the same to the observer are then identical.
  std::memcpy(shuffled, pool, n);
  std::sort(shuffled, shuffled + n);
  for (int i = n - 1; i > 0; --i) std::swap(shuffled[i], shuffled[rng_.below(static_cast<uint32_t>(i + 1))]);
  for (int i = 0; i < n; ++i) image[pool[i]] = shuffled[i];
  uint64_t new_seen[kMaxPlayers][2];
  std::memcpy(new_seen, seen_, sizeof(new_seen));
  for (int q = 0; q < players_; ++q) {
    if (q == observer) continue;
    for (int i = 0; i < n; ++i) {  // the other seats' memories follow the substitution
      const int c = pool[i];
      if (test_seen(seen_[q], c)) new_seen[q][c >> 6] &= ~(uint64_t{1} << (c & 63));
    }
    for (int i = 0; i < n; ++i)
      if (test_seen(seen_[q], pool[i])) set_seen(new_seen[q], image[pool[i]]);
  }
  std::memcpy(seen_, new_seen, sizeof(new_seen));
  for (int i = 0; i < n; ++i) *slot[i] = image[pool[i]];
  for (int q = 0; q < players_; ++q) {
    if (q == observer) continue;
    sort_hand(q);
    for (int k = 0; k < hand_size_[q]; ++k) card_loc_[hand_[q][k]] = static_cast<uint8_t>(kLocHand + q);
  }
  for (int i = 0; i < n_boxed; ++i) card_loc_[boxed[i]] = kLocBoxUnseen;
  for (int q = 0; q < players_; ++q) {
    if (!((repick >> q) & 1u)) continue;
    pick_card(q, static_cast<int>(rng_.below(hand_size_[q])));
  }
  // Other seats' hidden resolve choices and war removals: drawn again among their legal options.
  if (phase_ == kResolve || phase_ == kWar) {
    for (int q = 0; q < players_; ++q) {
      if (q == observer) continue;
      if (!((chosen_ >> q) & 1u)) {
        // A seat between its two WWII removals: its first removal is hidden and not yet marked as
        // chosen, so the observer cannot tell it from a seat that has removed nothing. Forget it.
        pending_count_[q] = 0;
        pending_[q][0] = pending_[q][1] = -1;
        continue;
      }
      const int need = phase_ == kResolve ? 1 : war_need_[q];
      pending_count_[q] = 0;
      for (int k = 0; k < need; ++k) {
        ActionList<kMaxActions> a;
        legal_for(q, a);
        pending_[q][k] = static_cast<int16_t>(a.items[rng_.below(static_cast<uint32_t>(a.size))]);
        pending_count_[q] = static_cast<uint8_t>(k + 1);
      }
    }
  }
}

// ---- observation ----
// Layout (docs/warsaw.md, "Observation"), seats relative to the observer (0 = the observer):
//   global 57: era one-hot 6, pick round one-hot 4, phase one-hot 8, seat to act (relative) one-hot 4,
//              5 milestones x (side one-hot 2, owner relative one-hot 4, discarded 1)
//   own 10: pending resolve (sell, build x, build y, rotation, chosen), pending removals 2 x (x, y), count
//   cards 14 x 112: own hand, own pending pick, revealed picks x4, known cards in other hands x4
//              (held by the observer earlier this era), sold, removed, in districts
//   per seat x4 (565): coins, VP, box corner x, y, chosen, 16 positions (4x4 from the box corner) x
//              (occupied, height, 4 quadrants x 8 type one-hot, price of the top card)
constexpr int kObsSeat = 5 + 16 * 35;  // one seat's block above (565)

int State::observation_size() const { return 57 + 10 + 14 * kMaxCards + kMaxPlayers * kObsSeat; }

void State::observation(int player, float* out) const {
  const int size = observation_size();
  std::memset(out, 0, sizeof(float) * size);
  const int n = players_;
  auto rel = [&](int q) { return (q - player + n) % n; };
  float* o = out;
  o[era_ - 1] = 1;
  o[6 + round_] = 1;
  o[10 + phase_] = 1;
  if (phase_ != kTerminal) o[18 + rel(current_)] = 1;
  o += 22;
  for (int i = 0; i < kMilestones; ++i) {
    o[mile_side_[i]] = 1;
    if (mile_owner_[i] >= 0) o[2 + rel(mile_owner_[i])] = 1;
    if (mile_owner_[i] == -2) o[6] = 1;
    o += 7;
  }
  // own hidden choices
  if ((phase_ == kResolve) && ((chosen_ >> player) & 1u)) {
    const Decoded a = decode(pending_[player][0]);
    if (a.kind == kActSell) o[0] = 1;
    else {
      const int cell = a.arg >> 2;
      o[1] = static_cast<float>(cell_x(cell));
      o[2] = static_cast<float>(cell_y(cell));
      o[3] = static_cast<float>(a.arg & 3);
    }
    o[4] = 1;
  }
  if (phase_ == kWar) {
    for (int k = 0; k < pending_count_[player]; ++k) {
      const int cell = pending_[player][k] - kRemoveBase;
      o[5 + 2 * k] = static_cast<float>(cell_x(cell));
      o[6 + 2 * k] = static_cast<float>(cell_y(cell));
    }
    o[9] = pending_count_[player];
  }
  o += 10;
  float* hand = o;
  float* pick = o + kMaxCards;
  float* revealed = o + 2 * kMaxCards;
  float* known = o + 6 * kMaxCards;
  float* sold = o + 10 * kMaxCards;
  float* removed = o + 11 * kMaxCards;
  float* built = o + 12 * kMaxCards;
  for (int k = 0; k < hand_size_[player]; ++k) hand[hand_[player][k]] = 1;
  if (pending_card_[player] != kNone) pick[pending_card_[player]] = 1;
  for (int q = 0; q < n; ++q) {
    if (phase_ == kResolve && pending_card_[q] != kNone) revealed[rel(q) * kMaxCards + pending_card_[q]] = 1;
    if (q == player) continue;
    for (int k = 0; k < hand_size_[q]; ++k)
      if (test_seen(seen_[player], hand_[q][k])) known[rel(q) * kMaxCards + hand_[q][k]] = 1;
    if (phase_ == kPick && pending_card_[q] != kNone && test_seen(seen_[player], pending_card_[q]))
      known[rel(q) * kMaxCards + pending_card_[q]] = 1;
  }
  for (int c = 0; c < cfg_->num_cards; ++c) {
    if (card_loc_[c] == kLocSold) sold[c] = 1;
    if (card_loc_[c] == kLocRemoved) removed[c] = 1;
    if (card_loc_[c] >= kLocDistrict) built[c] = 1;
  }
  o += 14 * kMaxCards;
  for (int q = 0; q < n; ++q) {
    float* s = o + rel(q) * kObsSeat;
    s[0] = coins_[q];
    s[1] = vp_[q];
    int x0, y0, x1, y1;
    bbox(q, x0, y0, x1, y1);
    s[2] = static_cast<float>(x0);
    s[3] = static_cast<float>(y0);
    s[4] = static_cast<float>((chosen_ >> q) & 1u);
    float* cell = s + 5;
    const int lx0 = x0 - anchor_x_[q], ly0 = y0 - anchor_y_[q];
    for (int dy = 0; dy < 4; ++dy)
      for (int dx = 0; dx < 4; ++dx, cell += 35) {
        const int lx = lx0 + dx, ly = ly0 + dy;
        if (lx > 7 || ly > 7) continue;
        const int i = ly * 8 + lx;
        if (!((occupied_[q] >> i) & 1u)) continue;
        const int c = top_[q][i];
        cell[0] = 1;
        cell[1] = height_[q][i];
        for (int k = 0; k < 4; ++k) cell[2 + 8 * k + shown_type(c, rot_[q][i], k)] = 1;
        cell[34] = static_cast<float>(price_of(c));
      }
  }
}

// Every feature is code + offset (cpp/core/codec.hpp): board coordinates -9..9 (offset -9), and
// victory points, which may fall below 0 when vp_floor_zero is off (then offset -64, -64..191).
void State::observation_codec(float*, float* offset) const {
  float* o = offset + 22 + kMilestones * 7;
  o[1] = o[2] = -static_cast<float>(kFrameR);  // the chosen build's cell
  for (int k = 5; k < 9; ++k) o[k] = -static_cast<float>(kFrameR);  // cells chosen for removal
  o += 10 + 14 * kMaxCards;
  for (int q = 0; q < players_; ++q, o += kObsSeat) {
    if (!cfg_->vp_floor_zero) o[1] = -64.0f;
    o[2] = o[3] = -static_cast<float>(kFrameR);  // the district's bounding box
  }
}

// ---- names ----

std::string State::cell_name(int cell) const {
  return std::to_string(cell_x(cell)) + "," + std::to_string(cell_y(cell));
}

std::string State::action_to_string(int32_t action) const {
  if (action < 0 || action >= kNumActions)
    fail<IllegalAction>("warsaw: no action has id ", action, " (ids are 0..", kNumActions - 1, ")");
  const Decoded d = decode(action);
  const std::string verb = kActionKindNames[d.kind];
  switch (d.kind) {
    case kActPick:
    case kActExchange:
      return verb + " " + std::to_string(d.arg);
    case kActSell:
      return verb;
    case kActBuild:
      return verb + " " + cell_name(d.arg >> 2) + " r" + std::to_string(d.arg & 3);
    case kActRemove:
    case kActKeep:
      return verb + " " + cell_name(d.arg);
    case kActTrim:
      return verb + " " + kWindowNames[d.arg];
    case kNumActionKinds:
      break;
  }
  return verb;  // not reached: decode gives a kind below kNumActionKinds
}

int32_t State::string_to_action(const std::string& text) const {
  std::string t;
  for (char ch : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::istringstream is(t);
  std::string verb, arg, extra, more;
  is >> verb >> arg >> extra >> more;
  auto bad = [&]() -> int32_t {
    fail<IllegalAction>("warsaw: cannot read action '", text,
                        "'; expected 'pick K', 'sell', 'build X,Y rR', 'remove X,Y', 'trim top|bottom|left|right', "
                        "'keep X,Y' or 'exchange K' (X, Y in -9..9, R in 0..3, K in 0..3)");
  };
  auto small = [](const std::string& s, int lo, int hi, int& v) {
    if (s.empty() || s.size() > 3) return false;
    size_t i = s[0] == '-' ? 1 : 0;
    if (i == s.size()) return false;
    for (size_t j = i; j < s.size(); ++j)
      if (!std::isdigit(static_cast<unsigned char>(s[j]))) return false;
    v = std::stoi(s);
    return v >= lo && v <= hi;
  };
  auto cell_of = [&](const std::string& s, int& cell) {
    const size_t comma = s.find(',');
    int x, y;
    if (comma == std::string::npos || !small(s.substr(0, comma), -kFrameR, kFrameR, x) ||
        !small(s.substr(comma + 1), -kFrameR, kFrameR, y))
      return false;
    cell = (y + kFrameR) * kFrameW + x + kFrameR;
    return true;
  };
  int kind = 0;  // the verb is the kind's name
  while (kind < kNumActionKinds && verb != kActionKindNames[kind]) ++kind;
  if (!more.empty() || kind == kNumActionKinds) return bad();
  int v, cell, id = -1;  // the argument within the kind's range
  switch (static_cast<ActionKind>(kind)) {
    case kActSell:
      if (arg.empty()) id = 0;
      break;
    case kActPick:
    case kActExchange:
      if (extra.empty() && small(arg, 0, 3, v)) id = v;
      break;
    case kActRemove:
    case kActKeep:
      if (extra.empty() && cell_of(arg, cell)) id = cell;
      break;
    case kActTrim:
      if (extra.empty())
        for (int w = 0; w < 4; ++w)
          if (arg == kWindowNames[w]) id = w;
      break;
    case kActBuild:
      if (cell_of(arg, cell) && extra.size() == 2 && extra[0] == 'r' && small(extra.substr(1), 0, 3, v))
        id = 4 * cell + v;
      break;
    case kNumActionKinds:
      break;
  }
  return id < 0 ? bad() : kActionKindFirst[kind] + id;
}

}  // namespace tilecraft::warsaw
