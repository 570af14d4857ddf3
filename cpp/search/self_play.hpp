// Batch self-play in C++: whole games between built-in bots, on many threads, without returning to
// Python. Optionally records training data for AlphaZero-style learners: at every decision, the
// mover's observation, the legal-action mask, the policy (root visit counts of a search bot,
// normalised; the one-hot choice of a random or greedy bot) and, once the game ends, its returns.
// Game i is seeded from mix_seed(seed, i) only, so results do not depend on the thread count.
//
// A game's course (its start, chance, the built-in bots' moves, the recorded rows, its end) is
// written once, in detail::GameRun; self_play below runs one GameRun per game on threads, and the
// batched PUCT self-play (search/puct_self_play.hpp) moves many GameRuns on in slots and does only
// the PUCT seats' searches itself.
#pragma once
#include <cstdint>
#include <cmath>
#include <memory>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/action_list.hpp"
#include "core/codec.hpp"
#include "core/contract.hpp"
#include "core/errors.hpp"
#include "core/rng.hpp"
#include "search/mcts.hpp"
#include "search/puct_config.hpp"
#include "search/playout.hpp"

namespace tilecraft {

// A seat's bot in C++ self-play, in VectorGame's opponents and in PUCT's batched self-play (the one
// bot-spec type of them all): random, greedy, MCTS with its configuration, or PUCT with its
// configuration and the index of its evaluator (batched self-play only: search/puct_self_play.hpp).
struct BotSpec {
  enum Kind : int32_t { kRandom = 0, kGreedy = 1, kMcts = 2, kPuct = 3 };
  Kind kind = kRandom;
  MctsConfig mcts;  // used when kind == kMcts (its seed is replaced per game and seat)
  PuctConfig puct;  // used when kind == kPuct
  int32_t evaluator = 0;
};

struct SelfPlayResults {
  int players = 0;
  int64_t games = 0;
  std::vector<double> scores;     // games * players
  std::vector<double> returns;    // games * players
  std::vector<uint8_t> winners;   // games * players
  std::vector<int32_t> seat_bot;  // games * players: index into the bot list of each seat
  std::vector<int32_t> length;    // actions per game (chance outcomes included)
  std::vector<int64_t> state_seed;  // the seed each game's state was made with (63 bits)
  std::vector<std::vector<int32_t>> actions;  // per game
  // Training data, one row per decision (when recorded).
  int obs_size = 0;
  int num_actions = 0;
  std::vector<float> observation;   // rows * obs_size (float32 records)
  std::vector<uint8_t> observation_u8;  // rows * obs_size (compact records)
  std::string compact_error;        // why a compact record was impossible (a feature not in 0..255)
  std::vector<float> codec_denominator, codec_offset;  // obs_size each (compact records): code / d + o
  std::vector<uint8_t> legal_mask;  // rows * num_actions
  std::vector<float> policy;        // rows * num_actions
  // rows: a search bot's estimate of its own win share at the root (the visit-weighted mean value of
  // the root's children), NaN for the bots that do not search (greedy, random)
  std::vector<float> search_value;
  std::vector<int32_t> player;      // rows
  std::vector<int32_t> game;        // rows
  std::vector<double> final_returns;  // rows * players
};

namespace detail {
struct GameRecord {
  std::vector<float> observation;
  std::vector<uint8_t> observation_u8;
  std::vector<uint8_t> legal_mask;
  std::vector<float> policy;
  std::vector<float> search_value;
  std::vector<int32_t> player;
};

// A search's estimate of the mover's win share at its root: the visit-weighted mean of the root
// children's values (an MCTS SearchResult's and a PuctResult's alike); NaN when nothing was visited.
inline float root_value(const std::vector<int64_t>& visits, const std::vector<double>& values) {
  int64_t total = 0;
  double value = 0.0;
  for (size_t i = 0; i < visits.size(); ++i) {
    total += visits[i];
    value += static_cast<double>(visits[i]) * values[i];
  }
  return total ? static_cast<float>(value / static_cast<double>(total)) : std::numeric_limits<float>::quiet_NaN();
}

// What the games of one self-play call share, in either driver: the configuration, the bots, the
// seed stream, the results being filled and, when recording, each game's rows (gathered at the end).
// Game g of the results is game first_game + g of the stream `seed`.
template <class S>
struct SelfPlayGames {
  static_assert(check_contract<S>());  // cpp/core/contract.hpp: the State contract, checked
  const typename S::Config& config;
  const std::vector<BotSpec>& bots;
  uint64_t seed;
  int64_t first_game;
  bool rotate, record, compact;
  SelfPlayResults r;
  std::vector<GameRecord> records;
  std::mutex compact_mu;  // guards r.compact_error (written at most once per bad game)

  SelfPlayGames(const typename S::Config& config_, const std::vector<BotSpec>& bots_, int64_t n_games,
                uint64_t seed_, int64_t first_game_, bool rotate_, bool record_, bool compact_)
      : config(config_), bots(bots_), seed(seed_), first_game(first_game_), rotate(rotate_), record(record_),
        compact(record_ && compact_) {
    require<std::invalid_argument>(!bots.empty(), "self_play: give at least one bot");
    require<std::invalid_argument>(n_games >= 0 && first_game >= 0, "self_play: n_games must be >= 0, got ", n_games);
    for (const auto& b : bots)
      if (b.kind == BotSpec::kMcts) b.mcts.validate();
    const S probe(config, 0);
    const int p = probe.num_players();
    require<std::invalid_argument>(p <= kMaxSearchPlayers, "self_play: at most ", kMaxSearchPlayers, " players");
    r.players = p;
    r.games = n_games;
    r.obs_size = probe.observation_size();
    r.num_actions = probe.num_distinct_actions();
    r.scores.assign(n_games * p, 0.0);
    r.returns.assign(n_games * p, 0.0);
    r.winners.assign(n_games * p, 0);
    r.seat_bot.assign(n_games * p, 0);
    r.length.assign(n_games, 0);
    r.state_seed.assign(n_games, 0);
    r.actions.assign(n_games, {});
    records.resize(record ? n_games : 0);
    if (compact) {  // the codec depends on the configuration only: once for every record
      r.codec_denominator.resize(r.obs_size);
      r.codec_offset.resize(r.obs_size);
      observation_codec(probe, r.codec_denominator.data(), r.codec_offset.data());
    }
  }

  // The results, every game's rows gathered into them in game order (none when the batch was stopped,
  // which the caller discards, or a compact record failed: r.compact_error says why).
  SelfPlayResults gather() {
    const int p = r.players;
    if (record && !stop_requested() && r.compact_error.empty()) {
      for (int64_t g = 0; g < r.games; ++g) {
        GameRecord& rec = records[g];
        r.observation.insert(r.observation.end(), rec.observation.begin(), rec.observation.end());
        r.observation_u8.insert(r.observation_u8.end(), rec.observation_u8.begin(), rec.observation_u8.end());
        r.legal_mask.insert(r.legal_mask.end(), rec.legal_mask.begin(), rec.legal_mask.end());
        r.policy.insert(r.policy.end(), rec.policy.begin(), rec.policy.end());
        r.search_value.insert(r.search_value.end(), rec.search_value.begin(), rec.search_value.end());
        r.player.insert(r.player.end(), rec.player.begin(), rec.player.end());
        for (size_t i = 0; i < rec.player.size(); ++i) {
          r.game.push_back(static_cast<int32_t>(g));
          r.final_returns.insert(r.final_returns.end(), r.returns.begin() + g * p, r.returns.begin() + (g + 1) * p);
        }
        rec = GameRecord();  // free it as we go
      }
    }
    return std::move(r);
  }
};

// One game of self-play from its start to its end: its state, its generator (chance outcomes in
// explicit mode, the random and greedy bots), the seats' bots and MCTS searchers, and what it writes
// into the games' results (actions, rows, outcome). Both drivers play every game through it; a PUCT
// seat's search is the batched driver's own, which hands its move over with policy_row and move.
template <class S>
struct GameRun {
  SelfPlayGames<S>* games = nullptr;
  int64_t g = -1;
  uint64_t game_seed = 0;
  std::optional<S> s;
  Rng rng;
  std::vector<int> who;  // seat -> bot index
  std::vector<std::unique_ptr<MctsSearcher<S>>> mcts;
  std::vector<float> policy;   // the policy row of the move being made (when recording)
  std::vector<float> scratch;  // a compact row's float32 observation
  ActionList<S::kMaxActions> legal;

  // Starts game g of `gs` (a GameRun is reused for the next game by starting it again).
  void start(SelfPlayGames<S>& gs, int64_t game) {
    games = &gs;
    g = game;
    SelfPlayResults& r = gs.r;
    const int p = r.players;
    const int nb = static_cast<int>(gs.bots.size());
    const int64_t i = gs.first_game + g;  // the game's number in the stream
    game_seed = mix_seed(gs.seed, static_cast<uint64_t>(i));
    r.state_seed[g] = static_cast<int64_t>(mix_seed(game_seed, 0) >> 1);
    s.emplace(gs.config, static_cast<uint64_t>(r.state_seed[g]));
    rng = Rng(mix_seed(game_seed, 1));
    who.assign(p, 0);
    mcts.clear();
    mcts.resize(p);
    for (int k = 0; k < p; ++k) {
      who[k] = gs.rotate ? static_cast<int>((k + i) % nb) : k % nb;
      r.seat_bot[g * p + k] = who[k];
      const BotSpec& b = gs.bots[who[k]];
      if (b.kind == BotSpec::kMcts) {
        MctsConfig c = b.mcts;
        c.seed = mix_seed(game_seed, 2 + static_cast<uint64_t>(k));
        mcts[k] = std::make_unique<MctsSearcher<S>>(c);
      }
    }
  }

  std::vector<int32_t>& history() { return games->r.actions[g]; }
  bool over() const { return s->is_terminal(); }
  const BotSpec& bot(int seat) const { return games->bots[who[seat]]; }

  // Plays a chance outcome where the game is at a chance node (true); elsewhere does nothing (false).
  bool chance_step() {
    if (!s->is_chance_node()) return false;
    play(sample_chance(*s, rng));
    return true;
  }

  // The move of the seat to move, a random, greedy or MCTS bot: chosen, recorded and played.
  void builtin_turn() {
    const int me = s->current_player();
    const BotSpec& b = bot(me);
    const bool record = games->record;
    float value = std::numeric_limits<float>::quiet_NaN();  // the bots that do not search have none
    int32_t a;
    if (b.kind == BotSpec::kMcts) {
      const SearchResult res = mcts[me]->search(*s, history());
      a = res.action;
      if (record) {
        float* pol = policy_row();
        int64_t total = 0;
        for (int64_t v : res.visits) total += v;
        for (size_t i = 0; i < res.actions.size(); ++i)
          pol[res.actions[i]] = total ? static_cast<float>(res.visits[i]) / total : 0.0f;
        if (!total) pol[a] = 1.0f;
        value = root_value(res.visits, res.values);
      }
    } else if (b.kind == BotSpec::kGreedy) {
      a = greedy_action(*s, rng);
      if (record) policy_row()[a] = 1.0f;
    } else {
      s->legal_actions(legal);
      a = legal.items[rng.below(static_cast<uint32_t>(legal.size))];
      if (record) policy_row()[a] = 1.0f;
    }
    move(me, a, value);
  }

  // The policy row of the move being made, zeroed (when recording): the caller writes the mover's policy.
  float* policy_row() {
    policy.assign(games->r.num_actions, 0.0f);
    return policy.data();
  }

  // Records the row of seat `me`'s decision (when recording: its observation, legal mask, the policy
  // row and the search's root value) and plays its action.
  void move(int me, int32_t a, float value) {
    if (games->record) record_row(me, value);
    play(a);
  }

  // The results of the game that has ended: its length, scores, returns and winners.
  void finish() {
    SelfPlayResults& r = games->r;
    const int p = r.players;
    r.length[g] = static_cast<int32_t>(history().size());
    s->scores(&r.scores[g * p]);
    s->returns(&r.returns[g * p]);
    const uint32_t w = s->winners();
    for (int k = 0; k < p; ++k) r.winners[g * p + k] = (w >> k) & 1u;
    s.reset();
  }

 private:
  void play(int32_t a) {
    s->apply(a);
    history().push_back(a);
  }

  void record_row(int me, float value) {
    SelfPlayResults& r = games->r;
    GameRecord& rec = games->records[g];
    if (games->compact) {  // uint8 codes (cpp/core/codec.hpp): a quarter of the memory, lossless
      scratch.resize(r.obs_size);
      s->observation(me, scratch.data());
      const size_t o = rec.observation_u8.size();
      rec.observation_u8.resize(o + r.obs_size);
      const int bad = encode_observation(scratch.data(), r.codec_denominator.data(), r.codec_offset.data(),
                                         rec.observation_u8.data() + o, r.obs_size);
      if (bad >= 0) {
        std::lock_guard<std::mutex> lock(games->compact_mu);
        if (r.compact_error.empty())
          r.compact_error = "compact records need every observation feature to be code / denominator + "
                            "offset for a code 0..255 (observation_codec()), but feature " +
                            std::to_string(bad) + " is " + std::to_string(scratch[bad]) +
                            "; record float32 observations instead";
      }
    } else {
      const size_t o = rec.observation.size();
      rec.observation.resize(o + r.obs_size);
      s->observation(me, rec.observation.data() + o);
    }
    s->legal_actions(legal);
    const size_t m = rec.legal_mask.size();
    rec.legal_mask.resize(m + r.num_actions, 0);
    for (int32_t x : legal) rec.legal_mask[m + x] = 1;
    rec.policy.insert(rec.policy.end(), policy.begin(), policy.end());
    rec.search_value.push_back(value);
    rec.player.push_back(me);
  }
};
}  // namespace detail

// bots: one per bot index; seat k of game i is played by bots[(k + i) % bots.size()] when rotate,
// by bots[k % bots.size()] otherwise.
template <class S>
SelfPlayResults self_play(const typename S::Config& config, const std::vector<BotSpec>& bots, int64_t n_games,
                          uint64_t seed, int threads, bool rotate, bool record, bool compact = false) {
  require<std::invalid_argument>(threads >= 1 && threads <= 256, "self_play: threads must be 1..256, got ", threads);
  for (const auto& b : bots)
    require<std::invalid_argument>(b.kind != BotSpec::kPuct, "self_play: a PUCT bot plays in the batched self-play "
                                   "(puct_self_play), which calls its evaluator");
  detail::SelfPlayGames<S> games(config, bots, n_games, seed, 0, rotate, record, compact);
  parallel_for(n_games, threads, [&](int64_t g) {
    detail::GameRun<S> run;
    run.start(games, g);
    while (!run.over() && !stop_requested()) {  // a stopped batch is discarded by the caller
      if (!run.chance_step()) run.builtin_turn();
    }
    run.finish();
  });
  return games.gather();
}

}  // namespace tilecraft
