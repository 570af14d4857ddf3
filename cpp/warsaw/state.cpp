#include "warsaw/state.hpp"

#include "core/outcome.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace tilecraft::warsaw {

namespace {
const char* const kWindowNames[4] = {"top", "bottom", "left", "right"};

inline int cell_x(int cell) { return cell % kFrameW - kFrameR; }
inline int cell_y(int cell) { return cell / kFrameW - kFrameR; }

// Column and row occupancy of an 8x8 board as 8-bit masks.
inline unsigned column_bits(uint64_t b) {
  b |= b >> 32;
  b |= b >> 16;
  b |= b >> 8;
  return static_cast<unsigned>(b & 0xFF);
}
inline unsigned row_bits(uint64_t b) {
  // one bit per non-empty byte: fold each byte onto its lowest bit, then gather those bits
  b |= b >> 4;
  b |= b >> 2;
  b |= b >> 1;
  b &= 0x0101010101010101ULL;
  return static_cast<unsigned>((b * 0x0102040810204080ULL) >> 56);
}
inline int span(unsigned m) { return m ? 32 - __builtin_clz(m) - __builtin_ctz(m) : 0; }

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

inline void set_seen(uint64_t* s, int c) { s[c >> 6] |= uint64_t{1} << (c & 63); }
inline bool test_seen(const uint64_t* s, int c) { return (s[c >> 6] >> (c & 63)) & 1u; }
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

// ---- setup and chance ----

State::State(const Config& config, uint64_t seed) {
  if (!config.validated) config.validate();  // the bindings validate every config when it is loaded
  std::memset(static_cast<void*>(this), 0, sizeof(State));
  cfg_ = &config;
  players_ = config.players;
  rng_.seed(seed);
  for (int i = 0; i < kMilestones; ++i) {  // WA-SETUP-3: a random side of each milestone
    mile_side_[i] = static_cast<uint8_t>(rng_.below(2));
    mile_owner_[i] = -1;
  }
  std::memset(hand_, kNone, sizeof(hand_));
  std::memset(pending_card_, kNone, sizeof(pending_card_));
  std::memset(top_, kNone, sizeof(top_));
  for (int p = 0; p < kMaxPlayers; ++p) {
    pending_[p][0] = pending_[p][1] = -1;
    if (p >= players_) continue;
    coins_[p] = 6;  // WA-SETUP-4
    anchor_x_[p] = anchor_y_[p] = -2;  // the starting card at frame (0, 0) = local (2, 2)
    const int local = 2 * 8 + 2;
    occupied_[p] = bit(local);
    top_[p][local] = static_cast<uint8_t>(kStartBase + p);
    height_[p][local] = 1;
    card_loc_[kStartBase + p] = static_cast<uint8_t>(kLocDistrict + p);
    card_cell_[kStartBase + p] = static_cast<uint16_t>(frame_cell(p, local));
  }
  for (int p = players_; p < kMaxPlayers; ++p) card_loc_[kStartBase + p] = kLocRemoved;  // unused starting cards
  for (int p = 0; p < kMaxPlayers; ++p) refresh_effects(p);
  era_ = 1;  // WA-SETUP-6
  start_era();
}

void State::start_era() {
  // WA-DRAFT-1/2: deal 4 cards to each seat from a shuffled era deck; the rest go to the box unseen.
  uint8_t deck[kMaxCards];
  int n = cfg_->era_size[era_];
  std::memcpy(deck, cfg_->era_deck[era_], n);
  for (int p = 0; p < players_; ++p) {
    seen_[p][0] = seen_[p][1] = 0;
    for (int k = 0; k < 4; ++k) {
      const int j = static_cast<int>(rng_.below(static_cast<uint32_t>(n)));
      const uint8_t c = deck[j];
      deck[j] = deck[--n];
      hand_[p][k] = c;
      card_loc_[c] = static_cast<uint8_t>(kLocHand + p);
      set_seen(seen_[p], c);
    }
    hand_size_[p] = 4;
    sort_hand(p);
  }
  for (int j = 0; j < n; ++j) card_loc_[deck[j]] = kLocBoxUnseen;
  phase_ = kPick;
  round_ = 0;
  chosen_ = 0;
  current_ = 0;
}

void State::sort_hand(int p) {
  uint8_t* h = hand_[p];
  const int n = hand_size_[p];
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && h[j - 1] > h[j]; --j) std::swap(h[j - 1], h[j]);
  for (int i = n; i < 4; ++i) h[i] = kNone;
}

// ---- geometry ----

int State::local_of(int p, int cell) const {
  if (cell < 0 || cell >= kCells) return -1;
  const int lx = cell_x(cell) - anchor_x_[p], ly = cell_y(cell) - anchor_y_[p];
  if (lx < 0 || lx > 7 || ly < 0 || ly > 7) return -1;
  return ly * 8 + lx;
}

bool State::fits(uint64_t occ, bool big) const {  // WA-BUILD-2 (4x4 with the Prudential, WA-PUB-4)
  const int w = span(column_bits(occ)), h = span(row_bits(occ));
  return w <= 4 && h <= 4 && (big || std::min(w, h) <= 3);
}

bool State::within_limit(int p) const { return fits(occupied_[p], big_limit(p)); }

int State::visible_effect_card(int p, int effect) const {
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

void State::refresh_effects(int p) {
  uint16_t m = 0;
  if (p < players_) {
    uint64_t b = occupied_[p];
    while (b) {
      const int i = lowest_bit(b);
      b &= b - 1;
      const int c = top_[p][i];
      if (c < kMaxCards && cfg_->card_type[c][0] == kPublic) m |= static_cast<uint16_t>(1u << cfg_->card_effect[c]);
    }
  }
  effects_[p] = m;
}

void State::normalize(int p) {
  const uint64_t occ = occupied_[p];
  const unsigned cols = column_bits(occ), rows = row_bits(occ);
  const int x0 = __builtin_ctz(cols), x1 = 31 - __builtin_clz(cols);
  const int y0 = __builtin_ctz(rows), y1 = 31 - __builtin_clz(rows);
  if (x0 >= 1 && x1 <= 6 && y0 >= 1 && y1 <= 6) return;
  const int dx = x0 - 2, dy = y0 - 2;  // move the box's corner to local (2, 2)
  uint8_t top[64], rot[64], height[64];
  std::memset(top, kNone, sizeof(top));
  std::memset(rot, 0, sizeof(rot));
  std::memset(height, 0, sizeof(height));
  uint64_t nocc = 0;
  for_each_bit(occ, [&](int i) {
    const int j = ((i >> 3) - dy) * 8 + ((i & 7) - dx);
    top[j] = top_[p][i];
    rot[j] = rot_[p][i];
    height[j] = height_[p][i];
    nocc |= bit(j);
  });
  std::memcpy(top_[p], top, 64);
  std::memcpy(rot_[p], rot, 64);
  std::memcpy(height_[p], height, 64);
  occupied_[p] = nocc;
  anchor_x_[p] = static_cast<int8_t>(anchor_x_[p] + dx);
  anchor_y_[p] = static_cast<int8_t>(anchor_y_[p] + dy);
}

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

int State::build_cost(int p, int card, int local) const {
  const int price = price_of(card);
  if (!((occupied_[p] >> local) & 1u)) return price;
  const int covered = price_of(top_[p][local]);  // WA-BUILD-3, WA-AMB-11
  return price > covered ? price - covered : 0;
}

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

// ---- applying actions ----

void State::add_vp(int p, int d) {
  int v = vp_[p] + d;
  if (cfg_->vp_floor_zero && v < 0) v = 0;  // WA-AMB-10
  vp_[p] = static_cast<int16_t>(v);
}

void State::place(int p, int card, int local, int rot, int cost) {
  coins_[p] = static_cast<int16_t>(coins_[p] - cost);
  if ((occupied_[p] >> local) & 1u) {
    if (visible_effect_card(p, kJablonowski) >= 0) add_vp(p, 2);  // WA-PUB-3, WA-AMB-15
    ++height_[p][local];
  } else {
    occupied_[p] |= bit(local);
    height_[p][local] = 1;
  }
  top_[p][local] = static_cast<uint8_t>(card);
  rot_[p][local] = static_cast<uint8_t>(rot);
  card_loc_[card] = static_cast<uint8_t>(kLocDistrict + p);
  card_cell_[card] = static_cast<uint16_t>(frame_cell(p, local));
  built_at_[card] = ++build_seq_;
  refresh_effects(p);
  normalize(p);
}

void State::remove_position(int p, int local) {
  const int cell = frame_cell(p, local);
  if (height_[p][local] == 1) {
    const int c = top_[p][local];
    card_loc_[c] = kLocRemoved;
    card_cell_[c] = 0;
  } else {
    for (int c = 0; c < kCardIds; ++c)  // the whole stack goes to the box (WA-WAR-1/2)
      if (card_loc_[c] == kLocDistrict + p && card_cell_[c] == cell) {
        card_loc_[c] = kLocRemoved;
        card_cell_[c] = 0;
      }
  }
  occupied_[p] &= ~bit(local);
  top_[p][local] = kNone;
  rot_[p][local] = 0;
  height_[p][local] = 0;
  refresh_effects(p);
}

void State::pick_card(int p, int slot) {
  const int c = hand_[p][slot];
  for (int j = slot; j < 3; ++j) hand_[p][j] = hand_[p][j + 1];
  hand_[p][3] = kNone;
  --hand_size_[p];
  pending_card_[p] = static_cast<uint8_t>(c);
  card_loc_[c] = static_cast<uint8_t>(kLocPending + p);
}

void State::apply(int32_t action) {  // action is legal (the callers check)
  const int p = current_;
  const Decoded d = decode(action);
  switch (d.kind) {
    case kActPick:  // WA-DRAFT-3: a hidden choice
      pick_card(p, d.arg);
      chosen_ |= static_cast<uint8_t>(1u << p);
      next_seat_or_finish();
      break;
    case kActSell:
    case kActBuild:
      if (phase_ == kMilePlace) {  // WA-MILE-2: free, on an empty position or over a card
        const int cell = d.arg >> 2, r = d.arg & 3;
        const bool had_prudential = big_limit(p);
        place(p, kMileBase + era_ - 1, local_of(p, cell), r, 0);
        mile_owner_[era_ - 1] = static_cast<int8_t>(p);
        check_trims(had_prudential && !big_limit(p) && !within_limit(p) ? static_cast<uint8_t>(1u << p) : 0,
                    kAfterMilestone);
        break;
      }
      // kResolve, WA-DRAFT-4: hidden until all have chosen
      pending_[p][0] = static_cast<int16_t>(action);
      pending_count_[p] = 1;
      chosen_ |= static_cast<uint8_t>(1u << p);
      next_seat_or_finish();
      break;
    case kActRemove:
      pending_[p][pending_count_[p]++] = static_cast<int16_t>(action);
      if (pending_count_[p] == war_need_[p]) {
        chosen_ |= static_cast<uint8_t>(1u << p);
        next_seat_or_finish();
      }
      break;
    case kActTrim: {
      const int w = d.arg;
      trim_window_[p] = static_cast<uint8_t>(w);
      const uint64_t kept = occupied_[p] & trim_window_mask(p, w);
      uint64_t comps[16];
      int n;
      tied_components(p, kept, comps, n);
      if (n > 1) {
        phase_ = kTrimKeep;  // WA-AMB-13: the owner chooses among tied largest parts
        return;
      }
      keep_component(p, comps[0]);
      break;
    }
    case kActKeep: {
      const int local = local_of(p, d.arg);
      const uint64_t kept = occupied_[p] & trim_window_mask(p, trim_window_[p]);
      keep_component(p, CardGrid::flood(bit(local), kept));
      break;
    }
    case kActExchange: {
      const int k = d.arg;
      int type, amount, resource, extra;
      effect_of(visible_effect_card(p, kExchange), type, amount, resource, extra);
      coins_[p] = static_cast<int16_t>(coins_[p] - k * amount);
      add_vp(p, k);
      exchange_mask_ &= static_cast<uint8_t>(~(1u << p));
      if (exchange_mask_) current_ = static_cast<int8_t>(lowest_bit(exchange_mask_));
      else end_of_era();
      break;
    }
    case kNumActionKinds:
      break;
  }
}

void State::next_seat_or_finish() {
  for (int q = 0; q < players_; ++q) {
    if ((chosen_ >> q) & 1u) continue;
    if (phase_ == kWar && war_need_[q] == 0) continue;
    current_ = static_cast<int8_t>(q);
    return;
  }
  if (phase_ == kPick) finish_picks();
  else if (phase_ == kResolve) finish_resolves();
  else if (phase_ == kWar) finish_war();
}

void State::finish_picks() {  // WA-DRAFT-3: reveal together
  phase_ = kResolve;
  chosen_ = 0;
  current_ = 0;
}

void State::finish_resolves() {  // WA-DRAFT-4: everyone resolves at the same time
  uint8_t trims = 0;
  for (int p = 0; p < players_; ++p) {
    const Decoded a = decode(pending_[p][0]);
    const int c = pending_card_[p];
    if (a.kind == kActSell) {  // WA-ACT-1, WA-PUB-2
      coins_[p] = static_cast<int16_t>(coins_[p] + (visible_effect_card(p, kSigismund) >= 0 ? 5 : 3));
      card_loc_[c] = kLocSold;
    } else {  // WA-ACT-2
      const int cell = a.arg >> 2, r = a.arg & 3;
      const int local = local_of(p, cell);
      const bool had_prudential = big_limit(p);
      place(p, c, local, r, build_cost(p, c, local));
      if (had_prudential && !big_limit(p) && !within_limit(p)) trims |= static_cast<uint8_t>(1u << p);  // WA-PUB-4
    }
    pending_card_[p] = kNone;
    pending_[p][0] = -1;
    pending_count_[p] = 0;
  }
  chosen_ = 0;
  check_trims(trims, kAfterResolve);
}

void State::check_trims(uint8_t seats, Resume resume) {
  resume_ = resume;
  trim_mask_ = seats;
  if (!seats) {
    continue_after(resume);
    return;
  }
  phase_ = kTrim;
  current_ = static_cast<int8_t>(lowest_bit(seats));
}

void State::continue_after(Resume r) {
  if (r == kAfterResolve) pass_hands();
  else if (r == kAfterWar) award_milestone();
  else pay_income();
}

void State::pass_hands() {
  if (round_ == 3) {  // WA-DRAFT-6: four cards handled
    start_income();
    return;
  }
  // WA-DRAFT-5: left (seat + 1) in eras I, III, V; right (seat - 1) in II, IV, VI (WA-AMB-20)
  const int n = players_;
  const int step = (era_ & 1) ? 1 : n - 1;
  uint8_t hands[kMaxPlayers][4];
  uint8_t sizes[kMaxPlayers];
  std::memcpy(hands, hand_, sizeof(hands));
  std::memcpy(sizes, hand_size_, sizeof(sizes));
  for (int p = 0; p < n; ++p) {
    const int q = (p + step) % n;
    std::memcpy(hand_[q], hands[p], 4);
    hand_size_[q] = sizes[p];
    for (int k = 0; k < hand_size_[q]; ++k) {
      card_loc_[hand_[q][k]] = static_cast<uint8_t>(kLocHand + q);
      set_seen(seen_[q], hand_[q][k]);
    }
  }
  ++round_;
  phase_ = kPick;
  chosen_ = 0;
  current_ = 0;
}

void State::start_income() {
  // WA-INC-1 step 1: war in eras III and IV (WA-FLOW-2, WA-WAR-1/2)
  if (era_ == 3 || era_ == 4) {
    const int base = era_ == 3 ? 1 : 2;
    bool any = false;
    for (int p = 0; p < players_; ++p) {
      int need = base - (visible_effect_card(p, kArsenal) >= 0 ? 1 : 0);  // WA-PUB-1
      need = std::min(need, popcount(occupied_[p]) - 1);                        // WA-AMB-14
      war_need_[p] = static_cast<uint8_t>(std::max(need, 0));
      pending_count_[p] = 0;
      any |= war_need_[p] > 0;
    }
    if (any) {
      phase_ = kWar;
      chosen_ = 0;
      next_seat_or_finish();
      return;
    }
  }
  award_milestone();
}

void State::finish_war() {
  uint8_t trims = 0;
  for (int p = 0; p < players_; ++p) {
    const bool had_prudential = big_limit(p);
    int locals[2];
    for (int k = 0; k < pending_count_[p]; ++k) locals[k] = local_of(p, pending_[p][k] - kRemoveBase);
    for (int k = 0; k < pending_count_[p]; ++k) remove_position(p, locals[k]);
    pending_count_[p] = 0;
    pending_[p][0] = pending_[p][1] = -1;
    war_need_[p] = 0;
    normalize(p);
    if (had_prudential && !big_limit(p) && !within_limit(p)) trims |= static_cast<uint8_t>(1u << p);
  }
  chosen_ = 0;
  check_trims(trims, kAfterWar);
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

void State::keep_component(int p, uint64_t keep) {
  uint64_t drop = occupied_[p] & ~keep;
  while (drop) {
    const int i = lowest_bit(drop);
    drop &= drop - 1;
    remove_position(p, i);
  }
  normalize(p);
  trim_mask_ &= static_cast<uint8_t>(~(1u << p));
  if (trim_mask_) {
    phase_ = kTrim;
    current_ = static_cast<int8_t>(lowest_bit(trim_mask_));
    return;
  }
  continue_after(static_cast<Resume>(resume_));
}

// ---- milestones (WA-MILE-*) ----

int State::milestone_value(int p, int cond, int type) const {
  if (cond == kMostPublic) {
    int n = 0;
    for_each_bit(occupied_[p], [&](int i) {
      const int c = top_[p][i];
      n += c < kMaxCards && cfg_->card_type[c][0] == kPublic;
    });
    return n;
  }
  if (cond == kMostOverbuilt) {
    int n = 0;
    for_each_bit(occupied_[p], [&](int i) { n += height_[p][i] >= 2; });
    return n;
  }
  const Regions r = regions(p);
  if (cond == kMostAreasOf) return r.count(type);
  return r.total_areas();
}

void State::award_milestone() {
  // WA-INC-1 step 2; none in era VI (WA-MILE-5)
  if (era_ > kMilestones) {
    pay_income();
    return;
  }
  const int i = era_ - 1, s = mile_side_[i];
  const int cond = cfg_->mile_condition[i][s], type = cfg_->mile_condition_type[i][s];
  const bool fewest = cond == kFewestAreas;
  int value[kMaxPlayers];
  int best = 0;
  for (int p = 0; p < players_; ++p) {
    value[p] = milestone_value(p, cond, type);
    if (p == 0 || (fewest ? value[p] < best : value[p] > best)) best = value[p];
  }
  int winner = -1;
  if (!(cfg_->milestone_requires_positive && !fewest && best == 0)) {  // WA-AMB-19
    // WA-MILE-3: fewer coins, then fewer VP, else nobody
    int w = -1, tie = 0;
    for (int p = 0; p < players_; ++p) {
      if (value[p] != best) continue;
      if (w < 0 || coins_[p] < coins_[w] || (coins_[p] == coins_[w] && vp_[p] < vp_[w])) {
        w = p;
        tie = 0;
      } else if (coins_[p] == coins_[w] && vp_[p] == vp_[w]) {
        tie = 1;
      }
    }
    if (!tie) winner = w;
  }
  if (winner >= 0) {  // a full district whose stacks all reached max_stack_height cannot take it
    ActionList<kMaxActions> spots;
    build_options(winner, kMileBase + i, true, spots);
    if (spots.empty()) winner = -1;
  }
  if (winner < 0) {
    mile_owner_[i] = -2;
    card_loc_[kMileBase + i] = kLocMileDiscarded;
    pay_income();
    return;
  }
  phase_ = kMilePlace;
  current_ = static_cast<int8_t>(winner);
}

// ---- areas and income (WA-AREA-*, WA-SCORE-*) ----

Regions State::regions(int p) const {
  // Quadrant q of the card at bounding-box cell (cx, cy) is bit 16 cy + 2 cx + {0, 1, 9, 8}[k].
  // kScatter[m] places a 4-bit quadrant mask (NW, NE, SE, SW) at q = 0; rotation r turns the
  // printed mask left by r (printed quadrant j shows at k = j + r).
  static constexpr uint64_t kScatter[16] = {0, 1, 2, 3, 512, 513, 514, 515, 256, 257, 258, 259, 768, 769, 770, 771};
  Regions r;
  for (int t = 0; t < kAreaTypes; ++t) r.type[t] = 0;
  r.n_whole = r.cultural_value = r.industrial_value = r.transport_cards = r.transport_groups = 0;
  uint64_t transport_of[16];  // transport quadrants of each transport card (WA-AMB-6)
  const uint64_t occ = occupied_[p];
  const int x0 = __builtin_ctz(column_bits(occ)), y0 = __builtin_ctz(row_bits(occ));
  uint64_t b = occ;
  while (b) {
    const int i = lowest_bit(b);
    b &= b - 1;
    const int c = top_[p][i], rot = rot_[p][i];
    const int q = 16 * ((i >> 3) - y0) + 2 * ((i & 7) - x0);
    if (c >= kMileBase || (c < kMaxCards && cfg_->card_type[c][0] == kPublic)) {  // WA-AREA-3
      r.whole_bits[r.n_whole] = uint64_t{0x303} << q;
      r.whole_card[r.n_whole++] = static_cast<uint8_t>(c);
      continue;
    }
    const int d = c < kMaxCards ? c : kMaxCards;
    const uint8_t* masks = cfg_->quad_mask[d];
    for (int t = 0; t < kAreaTypes; ++t) {
      const unsigned m = masks[t];
      if (!m) continue;
      const unsigned turned = ((m << rot) | (m >> (4 - rot))) & 15u;
      r.type[t] |= kScatter[turned] << q;
    }
    r.cultural_value += cfg_->cultural_total[d];
    r.industrial_value += cfg_->industrial_total[d];
    if (const unsigned m = masks[kTransport]) {
      const unsigned turned = ((m << rot) | (m >> (4 - rot))) & 15u;
      transport_of[r.transport_cards++] = kScatter[turned] << q;
    }
  }
  // WA-AMB-6: a transport group is a set of CARDS; two cards are linked when a transport quadrant of
  // one shares an edge with a transport quadrant of the other. A card whose own transport quadrants
  // touch only diagonally is still one member. Grow each group by every card its quadrants touch.
  uint32_t left = (1u << r.transport_cards) - 1u;
  while (left) {
    const int first = __builtin_ctz(left);
    left &= left - 1u;
    uint64_t group = transport_of[first];
    for (bool grew = true; grew;) {
      grew = false;
      const uint64_t reach = QuadGrid::dilate(group);
      for (uint32_t b = left; b; b &= b - 1u) {
        const int j = __builtin_ctz(b);
        if (transport_of[j] & reach) {
          group |= transport_of[j];
          left &= ~(1u << j);
          grew = true;
        }
      }
    }
    ++r.transport_groups;
  }
  return r;
}

int State::park_score(int n) const {  // WA-SCORE-1, WA-AMB-8 (n = 0 scores the table's 0)
  return n <= 8 ? cfg_->park_table[n] : cfg_->park_table[8] + cfg_->park_extra * (n - 8);
}

Income State::income(int p) const {
  Income in;
  std::memset(&in, 0, sizeof(in));
  const Regions r = regions(p);
  // Residential areas, each grown by one quadrant: area X touches residential area R iff X meets dilate(R).
  uint64_t res_grown[32];
  int n_res = 0;
  QuadGrid::for_each_component(r.type[kResidential], [&](uint64_t comp) { res_grown[n_res++] = QuadGrid::dilate(comp); });
  auto touching_res = [&](uint64_t area) {
    int n = 0;
    for (int j = 0; j < n_res; ++j) n += (res_grown[j] & area) != 0;
    return n;
  };
  // WA-SCORE-1/2, WA-AMB-8: the best single park
  QuadGrid::for_each_component(r.type[kPark], [&](uint64_t park) {
    in.park_vp = std::max(in.park_vp, park_score(touching_res(park)));
  });
  // WA-SCORE-3
  QuadGrid::for_each_component(r.type[kCommercial], [&](uint64_t com) { in.commercial_coins += touching_res(com); });
  // WA-SCORE-4, WA-AMB-7
  in.cultural_vp = r.cultural_value;
  // WA-SCORE-5: each residential area next to any industry costs 1 VP once
  in.industrial_coins = r.industrial_value;
  in.industrial_penalty = r.type[kIndustrial] ? touching_res(r.type[kIndustrial]) : 0;
  // WA-SCORE-6, WA-AMB-6
  const int groups = r.transport_groups;
  const int threshold = cfg_->transport_mode ? r.transport_cards : groups;
  in.transport_vp = threshold >= 2 ? 2 * groups : 0;
  // WA-SCORE-7, WA-AMB-18: milestones first, then public buildings, each in build order
  int order[16], n = 0;
  for (int k = 0; k < r.n_whole; ++k) order[n++] = k;
  std::sort(order, order + n, [&](int a, int b) {
    const int ca = r.whole_card[a], cb = r.whole_card[b];
    const bool ma = ca >= kMileBase, mb = cb >= kMileBase;
    if (ma != mb) return ma;
    return built_at_[ca] < built_at_[cb];
  });
  int n_public = 0;
  for (int k = 0; k < r.n_whole; ++k) n_public += r.whole_card[k] < kMaxCards;
  for (int j = 0; j < n; ++j) {
    const int k = order[j];
    int type, amount, resource, extra;
    const int e = effect_of(r.whole_card[k], type, amount, resource, extra);
    int gain = 0;
    if (e == kPerArea) {
      gain = amount * r.count(type);
    } else if (e == kAdjacent) {
      const uint64_t ring = QuadGrid::neighbours(r.whole_bits[k]);
      QuadGrid::for_each_component(r.type[type], [&](uint64_t comp) { gain += amount * ((comp & ring) != 0); });
    } else if (e == kFlat) {
      gain = amount;
    } else if (e == kPerPublic) {
      gain = amount * n_public;
    }
    (resource == kCoins ? in.effect_coins : in.effect_vp) += gain;
  }
  return in;
}

void State::pay_income() {
  // WA-INC-1 step 3, in the reference-card order
  for (int p = 0; p < players_; ++p) {
    const Income in = income(p);
    add_vp(p, in.park_vp);
    coins_[p] = static_cast<int16_t>(coins_[p] + in.commercial_coins);
    add_vp(p, in.cultural_vp);
    coins_[p] = static_cast<int16_t>(coins_[p] + in.industrial_coins);
    add_vp(p, -in.industrial_penalty);
    add_vp(p, in.transport_vp);
    coins_[p] = static_cast<int16_t>(coins_[p] + in.effect_coins);
    add_vp(p, in.effect_vp);
  }
  // Exchange buildings ask their owners last (docs/warsaw.md: no other effect depends on coins).
  exchange_mask_ = 0;
  for (int p = 0; p < players_; ++p) {
    const int c = visible_effect_card(p, kExchange);
    if (c >= 0 && coins_[p] >= cfg_->card_effect_amount[c]) exchange_mask_ |= static_cast<uint8_t>(1u << p);
  }
  if (exchange_mask_) {
    phase_ = kExchangePhase;
    current_ = static_cast<int8_t>(lowest_bit(exchange_mask_));
    return;
  }
  end_of_era();
}

void State::end_of_era() {
  if (era_ == kEras) {  // WA-END-1, WA-END-2: 5 coins = 1 VP
    for (int p = 0; p < players_; ++p) {
      add_vp(p, coins_[p] / 5);
      coins_[p] = static_cast<int16_t>(coins_[p] % 5);
    }
    phase_ = kTerminal;
    current_ = kTerminalSeat;
    return;
  }
  ++era_;  // WA-FLOW-4
  start_era();
}

// ---- outcome ----

void State::scores(double* out) const {
  for (int p = 0; p < players_; ++p) out[p] = vp_[p];
}

uint32_t State::winners() const {  // WA-END-3
  if (phase_ != kTerminal) return 0;
  uint32_t mask = 0;
  int best_vp = 0, best_coins = 0;
  for (int p = 0; p < players_; ++p) {
    if (!mask || vp_[p] > best_vp || (vp_[p] == best_vp && coins_[p] > best_coins)) {
      best_vp = vp_[p];
      best_coins = coins_[p];
      mask = 1u << p;
    } else if (vp_[p] == best_vp && coins_[p] == best_coins) {
      mask |= 1u << p;
    }
  }
  return mask;
}

void State::returns(double* out) const {
  for (int p = 0; p < players_; ++p) out[p] = 0.0;
  if (phase_ != kTerminal) return;
  if (cfg_->returns_mode == 0) {
    scores(out);
    return;
  }
  shared_win_returns(winners(), players_, out);
}

// ---- greedy heuristic ----

double State::heuristic(int player) const {
  // VP + 0.4 per coin + the district's income now, counted once per remaining income phase; a
  // seat's own hidden choice is evaluated as if it were already resolved (docs/warsaw.md).
  if (phase_ == kTerminal) return vp_[player] + (coins_[player] % 5) * 0.01;
  auto value = [&](const State& s) {
    const Income in = s.income(player);
    const int left = kEras - s.era_ + 1;
    const double per = in.park_vp + in.cultural_vp - in.industrial_penalty + in.transport_vp + in.effect_vp +
                       0.4 * (in.commercial_coins + in.industrial_coins + in.effect_coins);
    return s.vp_[player] + 0.4 * s.coins_[player] + left * per;
  };
  auto resolved = [&](const State& s, int action) {
    State t = s;
    const int c = t.pending_card_[player];
    const Decoded d = decode(action);
    if (d.kind == kActSell) {
      t.coins_[player] = static_cast<int16_t>(t.coins_[player] + (t.visible_effect_card(player, kSigismund) >= 0 ? 5 : 3));
    } else {
      const int cell = d.arg >> 2, r = d.arg & 3;
      const int local = t.local_of(player, cell);
      t.place(player, c, local, r, t.build_cost(player, c, local));
    }
    return value(t);
  };
  const bool chosen = (chosen_ >> player) & 1u;
  if (phase_ == kWar && pending_count_[player] > 0) {  // the seat's hidden removals, as if done
    State t = *this;
    int locals[2];
    for (int k = 0; k < pending_count_[player]; ++k) locals[k] = t.local_of(player, pending_[player][k] - kRemoveBase);
    for (int k = 0; k < pending_count_[player]; ++k) t.remove_position(player, locals[k]);
    t.normalize(player);
    return value(t);
  }
  if (phase_ == kResolve && chosen) return resolved(*this, pending_[player][0]);
  if ((phase_ == kPick && chosen) || phase_ == kResolve) {  // a picked or revealed card: its best use
    State t = *this;
    t.phase_ = kResolve;
    ActionList<kMaxActions> opts;
    t.legal_for(player, opts);
    double best = -1e300;
    for (int32_t a : opts) best = std::max(best, resolved(t, a));
    return best;
  }
  return value(*this);
}

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

// ---- validation of loaded states ----

void State::validate() const {
  const Config& cfg = *cfg_;
  cfg.validate();
  const int n = players_;
  require(rng_.valid(), "warsaw state: rng state must not be all zeros");
  require(phase_ <= kTerminal, "warsaw state: phase must be 0..7, got ", int(phase_));
  require(resume_ <= kAfterMilestone, "warsaw state: resume must be 0..2");
  require(era_ >= 1 && era_ <= kEras, "warsaw state: era must be 1..6, got ", int(era_));
  require(round_ <= 3, "warsaw state: round must be 0..3, got ", int(round_));
  if (phase_ == kTerminal) require(current_ == kTerminalSeat, "warsaw state: current must be -1 when the game is over");
  else require(current_ >= 0 && current_ < n, "warsaw state: current must be a seat 0..", n - 1);
  require(chosen_ < (1u << n) && trim_mask_ < (1u << n) && exchange_mask_ < (1u << n),
          "warsaw state: seat masks must only name seats 0..", n - 1);
  for (int i = 0; i < kMilestones; ++i) {
    require(mile_side_[i] <= 1, "warsaw state: mile_side must be 0 or 1");
    require(mile_owner_[i] >= -2 && mile_owner_[i] < n, "warsaw state: mile_owner must be -2, -1 or a seat");
    const bool past = i + 1 < era_ || (i + 1 == era_ && (phase_ == kExchangePhase || phase_ == kTerminal ||
                                                         (phase_ == kTrim && resume_ == kAfterMilestone) ||
                                                         (phase_ == kTrimKeep && resume_ == kAfterMilestone)));
    if (!past) require(mile_owner_[i] == -1, "warsaw state: milestone ", i + 1, " cannot be decided yet");
    const int loc = card_loc_[kMileBase + i];
    if (mile_owner_[i] == -1) require(loc == kLocSupply, "warsaw state: an unawarded milestone must be on the board");
    if (mile_owner_[i] == -2) require(loc == kLocMileDiscarded, "warsaw state: a discarded milestone must be discarded");
    if (mile_owner_[i] >= 0)
      require(loc == kLocDistrict + mile_owner_[i] || loc == kLocRemoved,
              "warsaw state: an awarded milestone must be in its owner's district or removed");
  }
  for (int p = 0; p < kMaxPlayers; ++p) {
    const bool seated = p < n;
    require(coins_[p] >= 0 && coins_[p] <= 2000, "warsaw state: coins[", p, "] must be 0..2000, got ", coins_[p]);
    require(vp_[p] >= -2000 && vp_[p] <= 5000, "warsaw state: vp[", p, "] out of range");
    require(cfg.vp_floor_zero == 0 || vp_[p] >= 0, "warsaw state: vp[", p, "] is negative with vp_floor_zero");
    require(hand_size_[p] <= 4, "warsaw state: hand_size[", p, "] must be 0..4");
    require(pending_count_[p] <= 2 && war_need_[p] <= 2, "warsaw state: pending counts must be 0..2");
    require(trim_window_[p] <= 3, "warsaw state: trim_window must be 0..3");
    require(anchor_x_[p] >= -kFrameR - 2 && anchor_x_[p] <= kFrameR && anchor_y_[p] >= -kFrameR - 2 &&
                anchor_y_[p] <= kFrameR,
            "warsaw state: district anchor out of range");
    for (int k = 0; k < 2; ++k)
      require(seen_[p][k] == 0 || seated, "warsaw state: seat ", p, " is not in play");
    if (!seated) {
      require(occupied_[p] == 0 && hand_size_[p] == 0 && coins_[p] == 0 && vp_[p] == 0 && pending_card_[p] == kNone,
              "warsaw state: seat ", p, " is not in play but has pieces");
      continue;
    }
    const uint64_t occ = occupied_[p];
    require(occ != 0 && CardGrid::connected(occ), "warsaw state: seat ", p,
            "'s district must be non-empty and connected (WA-BUILD-5)");
    const unsigned cols = column_bits(occ), rows = row_bits(occ);
    require(__builtin_ctz(cols) >= 1 && 31 - __builtin_clz(cols) <= 6 && __builtin_ctz(rows) >= 1 &&
                31 - __builtin_clz(rows) <= 6,
            "warsaw state: seat ", p, "'s district must lie in local rows and columns 1..6 of its window");
    for (int i = 0; i < 64; ++i) {
      const bool on = (occ >> i) & 1u;
      if (!on) {
        require(top_[p][i] == kNone && height_[p][i] == 0 && rot_[p][i] == 0, "warsaw state: seat ", p,
                " has data on an empty position");
        continue;
      }
      const int cell = frame_cell(p, i);
      const int x = cell_x(cell), y = cell_y(cell);
      const int fx = anchor_x_[p] + (i & 7), fy = anchor_y_[p] + (i >> 3);
      require(fx == x && fy == y && x >= -kFrameR && x <= kFrameR && y >= -kFrameR && y <= kFrameR,
              "warsaw state: seat ", p, " has a position outside the frame");
      const int c = top_[p][i];
      require(c < kCardIds && card_loc_[c] == kLocDistrict + p && card_cell_[c] == cell, "warsaw state: seat ", p,
              "'s top card at (", x, ",", y, ") is not recorded there");
      require(rot_[p][i] <= 3, "warsaw state: rotation must be 0..3");
      int h = 0;
      uint16_t latest = 0;
      for (int d = 0; d < kCardIds; ++d)
        if (card_loc_[d] == kLocDistrict + p && card_cell_[d] == cell) {
          ++h;
          latest = std::max(latest, built_at_[d]);
        }
      require(h == height_[p][i] && h >= 1, "warsaw state: seat ", p, " stack height at (", x, ",", y,
              ") does not match its cards");
      require(c >= kStartBase && c < kMileBase ? h == 1 && c == kStartBase + p : built_at_[c] == latest,
              "warsaw state: the top card at (", x, ",", y, ") must be the last one built there");
      require(cfg.max_stack_height == 0 || h <= cfg.max_stack_height, "warsaw state: stack above max_stack_height");
    }
    const bool trimming = (phase_ == kTrim || phase_ == kTrimKeep) && ((trim_mask_ >> p) & 1u);
    require(trimming ? fits(occ, true) : within_limit(p), "warsaw state: seat ", p,
            "'s district exceeds its size limit (WA-BUILD-2)");
  }
  // every card in exactly one place
  int in_hand[kMaxPlayers] = {}, pending_count[kMaxPlayers] = {};
  for (int c = 0; c < kCardIds; ++c) {
    const int loc = card_loc_[c];
    const bool valid = loc <= kLocMileDiscarded || (loc >= kLocHand && loc < kLocHand + n) ||
                       (loc >= kLocPending && loc < kLocPending + n) || (loc >= kLocDistrict && loc < kLocDistrict + n);
    require(valid, "warsaw state: card ", c, " has an unknown location ", loc);
    if (c >= cfg.num_cards && c < kMaxCards) require(loc == kLocSupply, "warsaw state: card ", c, " does not exist");
    if (c < kMaxCards && c < cfg.num_cards) {
      const int e = cfg.card_era[c];
      if (e > era_) require(loc == kLocSupply, "warsaw state: card ", c, " of a later era is out of its deck");
      if (e <= era_) require(loc != kLocSupply, "warsaw state: card ", c, " of a dealt era is still in its deck");
      if (loc >= kLocHand && loc < kLocDistrict)
        require(e == era_, "warsaw state: card ", c, " in a hand is not of the current era");
    }
    if (c >= kStartBase && c < kMileBase && c - kStartBase < n)
      require(loc == kLocDistrict + (c - kStartBase) || loc == kLocRemoved, "warsaw state: starting card ", c,
              " must be in its seat's district or removed");
    if (c >= kStartBase && c < kMileBase && c - kStartBase >= n)
      require(loc == kLocRemoved, "warsaw state: unused starting card ", c, " must be in the box");
    if (c >= kMileBase) require(loc < kLocHand || loc >= kLocDistrict, "warsaw state: milestone ", c, " in a hand");
    if (c >= kStartBase) require(loc < kLocHand || loc >= kLocDistrict, "warsaw state: card ", c, " in a hand");
    if (loc >= kLocHand && loc < kLocPending) ++in_hand[loc - kLocHand];
    if (loc >= kLocPending && loc < kLocDistrict) ++pending_count[loc - kLocPending];
    if (loc >= kLocDistrict) {
      require(card_cell_[c] < kCells, "warsaw state: card ", c, " has a cell outside the frame");
      const int p = loc - kLocDistrict, l = local_of(p, card_cell_[c]);
      require(l >= 0 && ((occupied_[p] >> l) & 1u), "warsaw state: card ", c, " lies on an empty position");
      require(built_at_[c] <= build_seq_, "warsaw state: card ", c, " was built in the future");
    }
  }
  for (int p = 0; p < n; ++p) {
    require(in_hand[p] == hand_size_[p], "warsaw state: seat ", p, " hand size does not match its cards");
    for (int k = 0; k < 4; ++k) {
      const int c = hand_[p][k];
      if (k < hand_size_[p])
        require(c < kMaxCards && card_loc_[c] == kLocHand + p && (k == 0 || hand_[p][k - 1] < c),
                "warsaw state: seat ", p, "'s hand must list its cards in ascending order");
      else
        require(c == kNone, "warsaw state: unused hand slots must be 255");
    }
    for (int k = 0; k < 2; ++k)
      require((seen_[p][k] & ~(k == 0 ? (cfg.num_cards >= 64 ? ~uint64_t{0} : (uint64_t{1} << cfg.num_cards) - 1)
                                      : (cfg.num_cards >= 128 ? ~uint64_t{0}
                                         : cfg.num_cards <= 64 ? 0 : (uint64_t{1} << (cfg.num_cards - 64)) - 1))) == 0,
              "warsaw state: seen cards must exist");
    for (int k = 0; k < hand_size_[p]; ++k)
      require(test_seen(seen_[p], hand_[p][k]), "warsaw state: a seat has always seen its own hand");
    const bool has_pending = pending_card_[p] != kNone;
    require(pending_count[p] == (has_pending ? 1 : 0) &&
                (!has_pending || (pending_card_[p] < kMaxCards && card_loc_[pending_card_[p]] == kLocPending + p)),
            "warsaw state: seat ", p, "'s picked card is inconsistent");
    const bool picked = (chosen_ >> p) & 1u;
    if (phase_ == kPick) {
      require(has_pending == picked, "warsaw state: seat ", p, " has a picked card exactly when it has chosen");
      require(hand_size_[p] + (picked ? 1 : 0) == 4 - round_, "warsaw state: hand sizes must match the pick round");
    } else if (phase_ == kResolve) {
      require(has_pending && hand_size_[p] == 3 - round_, "warsaw state: while resolving every seat has a revealed card");
    } else if ((phase_ == kTrim || phase_ == kTrimKeep) && resume_ == kAfterResolve) {
      require(!has_pending && hand_size_[p] == 3 - round_,
              "warsaw state: a trim between two picks leaves each seat 3 - round cards");
    } else {
      require(!has_pending && hand_size_[p] == 0, "warsaw state: outside the draft no seat holds cards");
    }
    if (phase_ == kPick) require(p >= current_ || picked, "warsaw state: seats choose in order");
    if (phase_ == kPick || phase_ == kResolve)
      require(((chosen_ >> p) & 1u) == (p < current_ ? 1u : 0u), "warsaw state: seats before the current one have chosen");
  }
  // pending hidden choices must be legal
  for (int p = 0; p < n; ++p) {
    if (phase_ == kResolve && ((chosen_ >> p) & 1u)) {
      ActionList<kMaxActions> a;
      legal_for(p, a);
      bool ok = pending_count_[p] == 1;
      if (ok) {
        ok = false;
        for (int32_t x : a) ok |= x == pending_[p][0];
      }
      require(ok, "warsaw state: seat ", p, "'s hidden resolve choice is not legal");
    } else if (phase_ == kWar) {
      require(pending_count_[p] <= war_need_[p], "warsaw state: too many war removals");
      require(war_need_[p] <= 2 && war_need_[p] < popcount(occupied_[p]), "warsaw state: seat ", p,
              " cannot remove ", int(war_need_[p]), " of its ", popcount(occupied_[p]), " positions (WA-AMB-14)");
      require(((chosen_ >> p) & 1u) == (war_need_[p] > 0 && pending_count_[p] == war_need_[p] ? 1u : 0u),
              "warsaw state: war choice flags inconsistent");
      State t = *this;
      t.current_ = static_cast<int8_t>(p);
      t.pending_count_[p] = 0;
      for (int k = 0; k < pending_count_[p]; ++k) {
        ActionList<kMaxActions> a;
        t.legal_for(p, a);
        bool ok = false;
        for (int32_t x : a) ok |= x == pending_[p][k];
        require(ok, "warsaw state: seat ", p, "'s hidden war removal is not legal");
        t.pending_[p][k] = pending_[p][k];
        t.pending_count_[p] = static_cast<uint8_t>(k + 1);
      }
    } else {
      require(phase_ == kResolve || pending_count_[p] == 0, "warsaw state: no hidden choice is pending");
    }
  }
  if (phase_ == kWar)
    require(war_need_[current_] > pending_count_[current_], "warsaw state: the war seat has nothing to do");
  if (phase_ == kTrim || phase_ == kTrimKeep) {
    require((trim_mask_ >> current_) & 1u, "warsaw state: the trimming seat must need a trim");
    require(!big_limit(current_) && !within_limit(current_), "warsaw state: the trimming seat does not need a trim");
  }
  if (phase_ == kTrimKeep) {
    uint64_t comps[16];
    int k;
    tied_components(current_, occupied_[current_] & trim_window_mask(current_, trim_window_[current_]), comps, k);
    require(k > 1, "warsaw state: no tie to break in the trim");
  }
  if (phase_ == kExchangePhase) {
    require((exchange_mask_ >> current_) & 1u, "warsaw state: the exchanging seat must be in the exchange mask");
    for (int p = 0; p < n; ++p)
      if ((exchange_mask_ >> p) & 1u)
        require(visible_effect_card(p, kExchange) >= 0, "warsaw state: an exchanging seat needs an exchange building");
  }
  if (phase_ == kMilePlace) require(era_ <= kMilestones && mile_owner_[era_ - 1] == -1,
                                    "warsaw state: this era's milestone is not waiting for placement");
  if (phase_ == kPick || phase_ == kResolve) require(chosen_ != (1u << n) - 1, "warsaw state: everyone has chosen");
}

}  // namespace tilecraft::warsaw
