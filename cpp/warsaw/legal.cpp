// Warsaw: the legal actions (spec: shared/rules/warsaw.md) and what they read: card data, the
// geometry of a district, the Prudential trim windows, and why an action is illegal.
#include "warsaw/detail.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>

namespace tilecraft::warsaw {

using namespace detail;

namespace {
// kColumnRange[a][b]: the cells of columns a..b of the 8x8 window; kRowRange likewise for rows.
struct RangeTable {
  uint64_t col[8][8], row[8][8];
  constexpr RangeTable() : col(), row() {
    for (int a = 0; a < 8; ++a)
      for (int b = a; b < 8; ++b) {
        uint64_t c = 0, r = 0;
        for (int k = a; k <= b; ++k) {
          c |= CardGrid::column_mask(k);
          r |= CardGrid::row_mask(k);
        }
        col[a][b] = c;
        row[a][b] = r;
      }
  }
};
constexpr RangeTable kRanges{};
constexpr const uint64_t (&kColumnRange)[8][8] = kRanges.col;
constexpr const uint64_t (&kRowRange)[8][8] = kRanges.row;
}  // namespace

// ---- card data ----

int State::printed_type(int c, int k) const {
  if (c < kMaxCards) return cfg_->card_type[c][k];
  if (c < kMileBase) return cfg_->start_type[k];
  return kMilestoneType;
}

int State::printed_value(int c, int k) const {
  if (c < kMaxCards) return cfg_->card_value[c][k];
  if (c < kMileBase) return cfg_->start_value[k];
  return 0;
}

int State::effect_of(int c, int& type, int& amount, int& resource, int& extra) const {
  if (c < kMaxCards) {
    type = cfg_->card_effect_type[c];
    amount = cfg_->card_effect_amount[c];
    resource = cfg_->card_effect_resource[c];
    extra = cfg_->card_effect_extra[c];
    return cfg_->card_effect[c];
  }
  if (c >= kMileBase) {
    const int i = c - kMileBase, s = mile_side_[i];
    type = cfg_->mile_effect_type[i][s];
    amount = cfg_->mile_effect_amount[i][s];
    resource = cfg_->mile_effect_resource[i][s];
    extra = 0;
    return cfg_->mile_effect[i][s];
  }
  type = amount = resource = extra = 0;
  return kNoEffect;
}

int State::distinct_rotations(int c) const {
  return c >= kMileBase ? 1 : cfg_->rotations[c < kMaxCards ? c : kMaxCards];
}

// ---- geometry ----

bool State::fits(uint64_t occ, bool big) const {  // WA-BUILD-2 (4x4 with the Prudential, WA-PUB-4)
  const int w = span(column_bits(occ)), h = span(row_bits(occ));
  return w <= 4 && h <= 4 && (big || std::min(w, h) <= 3);
}

bool State::within_limit(int p) const { return fits(occupied_[p], big_limit(p)); }

void State::bbox(int p, int& x0, int& y0, int& x1, int& y1) const {
  const unsigned cols = column_bits(occupied_[p]), rows = row_bits(occupied_[p]);
  x0 = anchor_x_[p] + __builtin_ctz(cols);
  x1 = anchor_x_[p] + 31 - __builtin_clz(cols);
  y0 = anchor_y_[p] + __builtin_ctz(rows);
  y1 = anchor_y_[p] + 31 - __builtin_clz(rows);
}

int State::top_at(int p, int x, int y) const {
  if (x < -kFrameR || x > kFrameR || y < -kFrameR || y > kFrameR) return -1;
  const int l = local_of(p, (y + kFrameR) * kFrameW + x + kFrameR);
  return (l < 0 || !((occupied_[p] >> l) & 1u)) ? -1 : top_[p][l];
}
int State::rotation_at(int p, int x, int y) const {
  if (top_at(p, x, y) < 0) return -1;
  return rot_[p][local_of(p, (y + kFrameR) * kFrameW + x + kFrameR)];
}
int State::height_at(int p, int x, int y) const {
  if (top_at(p, x, y) < 0) return 0;
  return height_[p][local_of(p, (y + kFrameR) * kFrameW + x + kFrameR)];
}

// ---- legal actions ----

void State::build_options(int p, int card, bool milestone, ActionList<kMaxActions>& out) const {
  const uint64_t occ = occupied_[p];
  const bool big = big_limit(p) || (card < kMaxCards && is_whole(card) && cfg_->card_effect[card] == kPrudential);
  const int nrot = distinct_rotations(card);
  const int coins = coins_[p];
  const int max_h = cfg_->max_stack_height;
  // WA-BUILD-1: empty edge neighbours; WA-BUILD-2 by bitboard: a neighbour inside the bounding box
  // keeps it, one in the column left/right of it widens it by 1, one in the row above/below makes it
  // taller by 1 (a neighbour is never outside in both directions).
  const unsigned cols = column_bits(occ), rows = row_bits(occ);
  const int x0 = __builtin_ctz(cols), x1 = 31 - __builtin_clz(cols);
  const int y0 = __builtin_ctz(rows), y1 = 31 - __builtin_clz(rows);
  const int w = x1 - x0 + 1, h = y1 - y0 + 1;
  auto ok = [big](int ww, int hh) { return ww <= 4 && hh <= 4 && (big || std::min(ww, hh) <= 3); };
  const uint64_t col_in = kColumnRange[x0][x1], row_in = kRowRange[y0][y1];
  uint64_t allowed = col_in & row_in;
  if (ok(w + 1, h)) allowed |= (kColumnRange[x0 > 0 ? x0 - 1 : 0][x1 < 7 ? x1 + 1 : 7] & row_in);
  if (ok(w, h + 1)) allowed |= (kRowRange[y0 > 0 ? y0 - 1 : 0][y1 < 7 ? y1 + 1 : 7] & col_in);
  uint64_t cands = (CardGrid::neighbours(occ) & allowed) | occ;
  while (cands) {
    const int i = lowest_bit(cands);
    cands &= cands - 1;
    if (((occ >> i) & 1u) && max_h && height_[p][i] >= max_h) continue;  // WA-AMB-12
    if (!milestone && build_cost(p, card, i) > coins) continue;         // WA-ACT-3
    const int x = anchor_x_[p] + (i & 7), y = anchor_y_[p] + (i >> 3);
    if (x < -kFrameR || x > kFrameR || y < -kFrameR || y > kFrameR) continue;  // cannot happen (see the bound)
    // Four ids are written and nrot kept: at most 128 + 1 ids precede them, and kMaxActions = 132
    // leaves room for the 3 spare writes.
    const int32_t base = kBuildBase + 4 * ((y + kFrameR) * kFrameW + x + kFrameR);
    int32_t* dst = out.items + out.size;
    dst[0] = base;
    dst[1] = base + 1;
    dst[2] = base + 2;
    dst[3] = base + 3;
    out.size += nrot;
  }
}

bool State::removable(int p, int local, uint64_t occ) const {
  if (!((occ >> local) & 1u)) return false;
  const int c = top_[p][local];
  if (c < kMaxCards && cfg_->card_type[c][0] == kPublic && cfg_->card_effect[c] == kArsenal) return false;  // WA-PUB-1
  const uint64_t rest = occ & ~bit(local);
  return rest != 0 && CardGrid::connected(rest);  // WA-WAR-3, WA-AMB-14
}

void State::legal_for(int seat, ActionList<kMaxActions>& out) const {
  out.clear();
  switch (phase_) {
    case kPick:
      for (int k = 0; k < hand_size_[seat]; ++k) out.push(kPickBase + k);
      break;
    case kResolve:
      out.push(kSell);  // WA-ACT-1: selling is always legal
      build_options(seat, pending_card_[seat], false, out);
      break;
    case kMilePlace:
      build_options(seat, kMileBase + era_ - 1, true, out);
      break;
    case kWar: {
      uint64_t occ = occupied_[seat];
      int first_local = -1;
      if (pending_count_[seat] == 1) {
        first_local = local_of(seat, pending_[seat][0] - kRemoveBase);
        occ &= ~bit(first_local);
      }
      uint64_t b = occ;
      while (b) {
        const int i = lowest_bit(b);
        b &= b - 1;
        if (removable(seat, i, occ)) out.push(kRemoveBase + frame_cell(seat, i));
      }
      break;
    }
    case kTrim: {
      uint8_t legal;
      trim_windows(seat, legal);
      for (int w = 0; w < 4; ++w)
        if ((legal >> w) & 1u) out.push(kTrimBase + w);
      break;
    }
    case kTrimKeep: {
      uint64_t comps[16];
      int n;
      tied_components(seat, occupied_[seat] & trim_window_mask(seat, trim_window_[seat]), comps, n);
      int ids[16];
      for (int k = 0; k < n; ++k) ids[k] = kKeepBase + frame_cell(seat, lowest_bit(comps[k]));
      std::sort(ids, ids + n);
      for (int k = 0; k < n; ++k) out.push(ids[k]);
      break;
    }
    case kExchangePhase: {
      int type, amount, resource, extra;
      effect_of(visible_effect_card(seat, kExchange), type, amount, resource, extra);
      const int most = std::min(extra, coins_[seat] / amount);
      for (int k = 0; k <= most; ++k) out.push(kExchangeBase + k);
      break;
    }
    default:
      break;
  }
}

bool State::is_legal(int32_t action) const {
  if (phase_ == kTerminal || action < 0 || action >= kNumActions) return false;
  ActionList<kMaxActions> a;
  legal_for(current_, a);
  for (int32_t x : a)
    if (x == action) return true;
  return false;
}

// ---- Prudential trim (WA-PUB-4, WA-AMB-13) ----

uint64_t State::trim_window_mask(int p, int w) const {
  const unsigned cols = column_bits(occupied_[p]), rows = row_bits(occupied_[p]);
  const int x0 = __builtin_ctz(cols), x1 = 31 - __builtin_clz(cols);
  const int y0 = __builtin_ctz(rows), y1 = 31 - __builtin_clz(rows);
  uint64_t m = 0;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      if ((w == 0 && y == y0) || (w == 1 && y == y1) || (w == 2 && x == x0) || (w == 3 && x == x1)) continue;
      m |= bit(y * 8 + x);
    }
  return m;
}

void State::trim_windows(int p, uint8_t& legal) const {
  uint8_t connected = 0;
  int best = -1;
  uint8_t most = 0;
  for (int w = 0; w < 4; ++w) {
    const uint64_t kept = occupied_[p] & trim_window_mask(p, w);
    if (kept && CardGrid::connected(kept)) connected |= static_cast<uint8_t>(1u << w);
    const int n = popcount(kept);
    if (n > best) {
      best = n;
      most = static_cast<uint8_t>(1u << w);
    } else if (n == best) {
      most |= static_cast<uint8_t>(1u << w);
    }
  }
  legal = connected ? connected : most;
}

void State::tied_components(int p, uint64_t kept, uint64_t* comps, int& n) const {
  (void)p;
  n = 0;
  int best = 0;
  CardGrid::for_each_component(kept, [&](uint64_t comp) {
    const int size = popcount(comp);
    if (size > best) {
      best = size;
      n = 0;
    }
    if (size == best) comps[n++] = comp;
  });
}

// ---- why an action is illegal ----

std::string State::explain_build(int p, int card, int cell, int r, bool milestone) const {
  std::ostringstream os;
  const int local = local_of(p, cell);
  if (r >= distinct_rotations(card)) {
    os << "rotation " << r << " repeats an earlier rotation of this card (use r0.." << distinct_rotations(card) - 1
       << ")";
    return os.str();
  }
  if (local < 0) {
    os << "position (" << cell_name(cell) << ") is not next to the district (WA-BUILD-1)";
    return os.str();
  }
  const uint64_t occ = occupied_[p];
  const bool on = (occ >> local) & 1u;
  if (on) {
    if (cfg_->max_stack_height && height_[p][local] >= cfg_->max_stack_height) {
      os << "the stack at (" << cell_name(cell) << ") already has " << int(height_[p][local])
         << " cards, the limit (WA-AMB-12)";
      return os.str();
    }
  } else {
    if (!(CardGrid::neighbours(occ) & bit(local))) {
      os << "position (" << cell_name(cell) << ") shares no edge with the district, so the district would not be "
         << "connected (WA-BUILD-1)";
      return os.str();
    }
    const bool big = big_limit(p) || (card < kMaxCards && is_whole(card) && cfg_->card_effect[card] == kPrudential);
    if (!fits(occ | bit(local), big)) {
      os << "position (" << cell_name(cell) << ") is outside the " << (big ? "4x4" : "3x4 / 4x3")
         << " bound of the district (WA-BUILD-2)";
      return os.str();
    }
  }
  if (!milestone) {
    const int cost = build_cost(p, card, local);
    os << "it costs " << cost << " coins" << (on ? " (overbuild: price difference, WA-BUILD-3)" : "") << " but seat "
       << p << " has " << coins_[p] << " (WA-ACT-3)";
    return os.str();
  }
  os << "not a legal placement";
  return os.str();
}

std::string State::illegal_reason(int32_t action) const {
  std::ostringstream os;
  if (phase_ == kTerminal) return "the game is over; no action can be applied";
  if (action < 0 || action >= kNumActions) {
    os << "action id " << action << " is out of range; ids are 0.." << kNumActions - 1;
    return os.str();
  }
  const int p = current_;
  os << "action " << action << " (" << action_to_string(action) << ") is illegal for seat " << p << ": ";
  const Decoded d = decode(action);
  switch (d.kind) {
    case kActPick:
      if (phase_ != kPick) break;
      os << "the hand has only " << int(hand_size_[p]) << " cards (slots 0.." << hand_size_[p] - 1 << ")";
      return os.str();
    case kActBuild: {
      if (phase_ != kResolve && phase_ != kMilePlace) break;
      const int card = phase_ == kResolve ? pending_card_[p] : kMileBase + era_ - 1;
      os << explain_build(p, card, d.arg >> 2, d.arg & 3, phase_ == kMilePlace);
      return os.str();
    }
    case kActRemove: {
      if (phase_ != kWar) break;
      const int cell = d.arg;
      int local = local_of(p, cell);
      uint64_t occ = occupied_[p];
      if (pending_count_[p] == 1) occ &= ~bit(local_of(p, pending_[p][0] - kRemoveBase));
      if (local < 0 || !((occ >> local) & 1u)) {
        os << "there is no card at (" << cell_name(cell) << ")"
           << (pending_count_[p] == 1 ? " (or it is already chosen)" : "");
      } else if (visible_effect_card(p, kArsenal) == top_[p][local]) {
        os << "the Arsenal cannot be chosen as a war casualty (WA-PUB-1)";
      } else {
        os << "removing (" << cell_name(cell) << ") would split the district into parts that do not touch (WA-WAR-3)";
      }
      return os.str();
    }
    case kActTrim:
      if (phase_ != kTrim) break;
      os << "that window does not keep a connected district, or another window keeps more positions (WA-AMB-13)";
      return os.str();
    case kActKeep:
      if (phase_ != kTrimKeep) break;
      os << "that cell is not the first cell of one of the largest parts inside the window (WA-AMB-13)";
      return os.str();
    case kActExchange:
      if (phase_ != kExchangePhase) break;
      os << "seat " << p << " cannot pay for that many exchanges";
      return os.str();
    case kActSell:  // always legal while resolving
    case kNumActionKinds:
      break;
  }
  os << "the seat is in the " << kPhaseNames[phase_] << " phase";  // an action of another phase
  return os.str();
}

}  // namespace tilecraft::warsaw
