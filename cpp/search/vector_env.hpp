// The batched environment: N independent games of one configuration, stepped together.
//
// One template over the State contract (cpp/core/game.hpp), so every game gets it unchanged.
// What it does per call, for all N games at once, split over a small pool of threads:
//   - validates a whole batch of actions before applying any (a rejected call changes nothing);
//   - applies one action per game, resolves chance nodes with the game's own probabilities, and,
//     when a learner seat is set, plays every other seat with the built-in bots (random, greedy,
//     MCTS/ISMCTS, each on a re-determinized copy: a bot never reads what its seat cannot see)
//     until the learner must act, the game ends, or a seat played by an evaluator must act;
//   - evaluator opponents (Python networks, docs/vector.md): the games waiting for one are gathered
//     in env order, each evaluator is called once on all of them (the mover's own observation, the
//     legal mask, the seat), the argmax of its logits over the legal actions is applied (ties: the
//     lower id), and the games are advanced again, until every game is back at the learner;
//   - writes the observation, the legal-action mask, the seat to act, per-seat rewards and flags
//     into buffers it owns (Python sees them as numpy views, no copies);
//   - auto-resets: a game that ended in call t starts its next episode in call t+1, whose action
//     for it is ignored (Gymnasium's "next step" autoreset, EnvPool's behaviour).
//
// Seeds. Everything random about episode e of game i comes from
//   episode_seed = mix_seed(mix_seed(seed, i), e)
//   state seed   = mix_seed(episode_seed, 0) >> 1     (a non-negative 63-bit integer)
//   chance       = Rng(mix_seed(episode_seed, 1))     (chance nodes: explicit mode, random first player)
//   bot of seat k: bot_seed = mix_seed(episode_seed, 2 + k) >> 1; a greedy or random bot decides at
//                  ply t (actions so far) with Rng(mix_seed(bot_seed, t) >> 1), i.e. exactly
//                  state.greedy_action(mix_seed(bot_seed, t) >> 1); an MCTS bot is a searcher
//                  with seed bot_seed kept for the episode (tilecraft.MCTSBot(seed=bot_seed)).
// So game i's trajectory depends on (seed, i, episode) and the actions given, never on threads.
// sample_legal() draws from a per-game stream Rng(mix_seed(mix_seed(seed, i), 2^64 - 1)) that
// advances one draw per call and per game (again independent of threads).
#pragma once
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/action_list.hpp"
#include "core/contract.hpp"
#include "core/errors.hpp"
#include "core/game.hpp"
#include "core/rng.hpp"
#include "core/threads.hpp"
#include "search/mcts.hpp"
#include "search/playout.hpp"
#include "search/puct.hpp"
#include "search/self_play.hpp"
#include "search/worker_pool.hpp"

namespace tilecraft {

constexpr int kEverySeat = -1;   // learner: no learner, the caller plays every seat
constexpr int kRotateSeat = -2;  // learner: seat (i + episode) % players in episode `episode` of game i
constexpr uint64_t kSamplerStream = ~0ULL;

struct VectorSpec {
  int64_t num_envs = 1;
  uint64_t seed = 0;
  int threads = 1;
  bool all_observations = false;  // every seat's view (N, players, ...) instead of one (N, ...)
  int learner = kEverySeat;       // kEverySeat, kRotateSeat or a fixed seat
  std::vector<BotSpec> opponents;  // players - 1 bots for the non-learner seats, in seat order
  // Per opponent (empty: none): -1 where opponents[k] is a built-in bot, else the index
  // 0..evaluators-1 of the evaluator that plays that seat (its opponents[k] is then unused).
  std::vector<int> opponent_evaluator;
  int evaluators = 0;  // distinct evaluators; each is called once per round on all games waiting for it

  static constexpr int64_t kMaxEnvs = int64_t{1} << 22;
};

// Buffers written by every call; rows are games. Allocated once.
struct VectorBuffers {
  std::vector<float> observation;      // N * views * obs_size, views = players or 1
  std::vector<uint8_t> legal_mask;     // N * A (0/1, numpy bool)
  std::vector<int32_t> current_player; // N: seat to act, -1 once the game has ended
  std::vector<float> rewards;          // N * P: returns() at the step a game ends, 0 otherwise
  std::vector<uint8_t> terminated;     // N
  std::vector<uint8_t> truncated;      // N (always 0: every game ends by its rules)
  std::vector<int64_t> episode;        // N: episode index of each game
  std::vector<uint8_t> reset;          // N: 1 where this call started a new episode
  std::vector<double> episode_returns; // N * P: final returns where terminated, 0 elsewhere
  std::vector<int32_t> episode_length; // N: actions of the finished episode (all seats and chance)
  std::vector<int32_t> learner_seat;   // N: the learner's seat this episode (-1 without a learner)
  std::vector<int32_t> sample;         // N: sample_legal() output
};

// Plays evaluator k on a batch: fills buf.logits (rows x A) from buf.obs, buf.mask and buf.player
// (buf.values too, unused here). Called on the thread that called reset() or step(), never on a
// pool thread, with no pool work in flight; it may throw (the call then fails as a whole).
using VectorEvaluatorFn = std::function<void(int, EvalBuffer&)>;

template <class S>
class VectorEnv {
 public:
  static_assert(check_contract<S>());  // cpp/core/contract.hpp: the State contract, checked
  using Config = typename S::Config;

  struct Env {
    S state;
    Rng chance;
    Rng sampler;
    uint64_t env_seed = 0;
    uint64_t episode_seed = 0;
    int64_t episode = -1;
    int learner = kEverySeat;
    int last_mover = 0;
    bool needs_reset = true;
    uint64_t bot_seed[kMaxSearchPlayers] = {};
    int8_t seat_bot[kMaxSearchPlayers] = {};  // index into opponents per seat, -1 for the learner
    std::vector<int32_t> history;
    std::vector<std::unique_ptr<MctsSearcher<S>>> searchers;  // per seat (MCTS opponents only)
    ActionList<S::kMaxActions> legal;  // legal actions of the position last written (or gathered)
    int32_t error_action = 0;          // scratch for batch validation
    int32_t eval_row = 0;              // its row in the evaluator's batch while waiting
    int8_t waiting = -1;               // the evaluator whose seat is to move, or -1

    Env(const Config& c) : state(c, 0) {}
  };

  VectorEnv(std::shared_ptr<const Config> config, const VectorSpec& spec)
      : cfg_(std::move(config)), spec_(spec), pool_(spec.threads) {
    require<std::invalid_argument>(spec.num_envs >= 1 && spec.num_envs <= VectorSpec::kMaxEnvs,
                                   "VectorGame: num_envs must be 1..", VectorSpec::kMaxEnvs, ", got ", spec.num_envs);
    require<std::invalid_argument>(spec.threads >= 1 && spec.threads <= 256, "VectorGame: threads must be 1..256, got ",
                                   spec.threads);
    const S probe(*cfg_, 0);
    players_ = probe.num_players();
    actions_ = probe.num_distinct_actions();
    obs_size_ = probe.observation_size();
    if (spec.learner != kEverySeat) {
      require<std::invalid_argument>(spec.learner == kRotateSeat || (spec.learner >= 0 && spec.learner < players_),
                                     "VectorGame: learner seat must be 0..", players_ - 1, " or 'rotate', got ",
                                     spec.learner);
      require<std::invalid_argument>(static_cast<int>(spec.opponents.size()) == players_ - 1, "VectorGame: a ",
                                     players_, "-player game needs ", players_ - 1, " opponents, got ",
                                     spec.opponents.size());
      require<std::invalid_argument>(players_ <= kMaxSearchPlayers, "VectorGame: opponents need at most ",
                                     kMaxSearchPlayers, " players");
      require<std::invalid_argument>(spec.opponent_evaluator.size() == spec.opponents.size() ||
                                         (spec.opponent_evaluator.empty() && spec.evaluators == 0),
                                     "VectorGame: one evaluator index per opponent (-1 for a bot)");
      require<std::invalid_argument>(spec.evaluators >= 0 && spec.evaluators < players_,
                                     "VectorGame: at most one evaluator per opponent seat");
      for (size_t k = 0; k < spec.opponents.size(); ++k) {
        const int ev = spec.opponent_evaluator.empty() ? -1 : spec.opponent_evaluator[k];
        require<std::invalid_argument>(ev >= -1 && ev < spec.evaluators, "VectorGame: opponent ", k,
                                       " names evaluator ", ev, " of ", spec.evaluators);
        if (ev < 0 && spec.opponents[k].kind == BotSpec::kMcts) spec.opponents[k].mcts.validate();
      }
    } else {
      require<std::invalid_argument>(spec.opponents.empty() && spec.evaluators == 0,
                                     "VectorGame: opponents need a learner seat");
    }
    const int64_t n = spec.num_envs;
    views_ = spec.all_observations ? players_ : 1;
    // Refuse a size this machine cannot hold (touching it all would end in the OOM killer, not
    // in an exception): states plus buffers, against 80% of physical memory.
    const double per_env = sizeof(Env) + sizeof(float) * (double(views_) * obs_size_ + players_) + actions_ +
                           sizeof(double) * players_ + 64 + 4 * S::kMaxActions +
                           spec.evaluators * (sizeof(float) * (double(obs_size_) + actions_ + players_) + actions_ + 16);
    const double need = per_env * static_cast<double>(n);
    const double have = physical_memory();
    require<std::invalid_argument>(have <= 0 || need <= 0.8 * have, "VectorGame: ", n, " envs of ", S::kName, " need ",
                                   static_cast<int64_t>(need / 1e6), " MB of states and buffers (",
                                   static_cast<int64_t>(per_env), " bytes each); this machine has ",
                                   static_cast<int64_t>(have / 1e6), " MB: use fewer envs");
    envs_.reserve(n);
    for (int64_t i = 0; i < n; ++i) envs_.emplace_back(*cfg_);
    b_.observation.assign(n * views_ * obs_size_, 0.0f);
    b_.legal_mask.assign(n * actions_, 0);
    b_.current_player.assign(n, kTerminalSeat);
    b_.rewards.assign(n * players_, 0.0f);
    b_.terminated.assign(n, 0);
    b_.truncated.assign(n, 0);
    b_.episode.assign(n, 0);
    b_.reset.assign(n, 0);
    b_.episode_returns.assign(n * players_, 0.0);
    b_.episode_length.assign(n, 0);
    b_.learner_seat.assign(n, -1);
    b_.sample.assign(n, -1);
    stream_ = kCanStream && obs_size_ * sizeof(float) >= 4096;
    eval_bufs_.resize(spec.evaluators);
    for (auto& buf : eval_bufs_) buf.init(obs_size_, actions_, players_);
    reseed(spec.seed);
  }

  int64_t num_envs() const { return spec_.num_envs; }
  int players() const { return players_; }
  int num_actions() const { return actions_; }
  int obs_size() const { return obs_size_; }
  int views() const { return views_; }
  int evaluators() const { return spec_.evaluators; }
  // observe="all": a seat axis in the observation even when a game has one seat (solo).
  bool all_observations() const { return spec_.all_observations; }
  bool started() const { return started_; }
  const VectorSpec& spec() const { return spec_; }
  VectorBuffers& buffers() { return b_; }
  const Env& env(int64_t i) const { return envs_[i]; }
  const std::shared_ptr<const Config>& config() const { return cfg_; }

  // Starts a new episode in every game. With a new seed the stream restarts at episode 0;
  // otherwise every game goes on to its next episode. With evaluator opponents, `eval` plays them.
  void reset(bool new_seed, uint64_t seed, const VectorEvaluatorFn& eval = {}) {
    require_evaluator(eval);
    if (new_seed) reseed(seed);
    pool_.run(spec_.num_envs, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        begin_episode(i);
        if (envs_[i].waiting < 0) write(i);
      }
    });
    play_evaluators(eval);
    started_ = true;
  }

  // Checks a whole batch; returns "" when every action can be applied, else the reason naming
  // the first bad game (and how many others are bad). Games awaiting their reset ignore theirs.
  std::string check(const int64_t* actions) {
    require<std::logic_error>(started_, "VectorGame: call reset() before step()");
    std::atomic<int64_t> bad{0};
    std::vector<uint8_t>& flags = scratch_flags_;
    flags.assign(spec_.num_envs, 0);
    pool_.run(spec_.num_envs, [&](int64_t begin, int64_t end) {
      int64_t local = 0;
      for (int64_t i = begin; i < end; ++i) {
        const Env& e = envs_[i];
        if (e.needs_reset) continue;
        const int64_t a = actions[i];
        if (a < 0 || a >= actions_ || !e.state.is_legal(static_cast<int32_t>(a))) {
          flags[i] = 1;
          ++local;
        }
      }
      if (local) bad.fetch_add(local);
    });
    if (bad.load() == 0) return "";
    int64_t first = 0;
    while (!flags[first]) ++first;
    const Env& e = envs_[first];
    const int64_t a = actions[first];
    std::string why;
    if (a < 0 || a >= actions_) {
      why = "action " + std::to_string(a) + " is out of range: action ids are 0.." + std::to_string(actions_ - 1);
    } else {
      why = e.state.illegal_reason(static_cast<int32_t>(a));  // names the action and why
    }
    std::string msg = std::string(S::kName) + " VectorGame.step: env " + std::to_string(first) + ": " + why;
    if (bad.load() > 1) msg += " (and " + std::to_string(bad.load() - 1) + " more envs with illegal actions)";
    msg += "; nothing was applied to any env";
    return msg;
  }

  // Applies a batch already accepted by check(). With evaluator opponents, `eval` plays them.
  void step(const int64_t* actions, const VectorEvaluatorFn& eval = {}) {
    require_evaluator(eval);
    pool_.run(spec_.num_envs, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        Env& e = envs_[i];
        if (e.needs_reset) {
          begin_episode(i);
        } else {
          b_.reset[i] = 0;
          const int32_t a = static_cast<int32_t>(actions[i]);
          e.last_mover = e.state.current_player();
          e.state.apply(a);
          e.history.push_back(a);
          advance(e);
        }
        if (e.waiting < 0) write(i);
      }
    });
    play_evaluators(eval);
  }

  // One uniformly random legal action per game into buffers().sample (-1 for a game awaiting its
  // reset, whose action the next step ignores).
  void sample_legal() {
    require<std::logic_error>(started_, "VectorGame: call reset() before sample_legal()");
    // A few ns per game: small batches stay on the calling thread, where the pool would cost more.
    auto draw = [this](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        Env& e = envs_[i];
        b_.sample[i] = e.needs_reset || e.legal.size == 0
                           ? -1
                           : e.legal.items[e.sampler.below(static_cast<uint32_t>(e.legal.size))];
      }
    };
    if (spec_.num_envs >= 512 && pool_.threads() > 1) pool_.run(spec_.num_envs, draw);
    else draw(0, spec_.num_envs);
  }

  // The legal actions of every game as one flat array plus offsets (CSR): game i's are
  // flat[offsets[i] : offsets[i + 1]], ascending.
  void legal_actions(std::vector<int32_t>& flat, std::vector<int64_t>& offsets) const {
    require<std::logic_error>(started_, "VectorGame: call reset() first");
    const int64_t n = spec_.num_envs;
    offsets.assign(n + 1, 0);
    for (int64_t i = 0; i < n; ++i) offsets[i + 1] = offsets[i] + (envs_[i].needs_reset ? 0 : envs_[i].legal.size);
    flat.resize(offsets[n]);
    for (int64_t i = 0; i < n; ++i)
      if (!envs_[i].needs_reset && envs_[i].legal.size)
        std::memcpy(flat.data() + offsets[i], envs_[i].legal.items, sizeof(int32_t) * envs_[i].legal.size);
  }

  uint64_t state_seed(const Env& e) const { return mix_seed(e.episode_seed, 0) >> 1; }

 private:
  void reseed(uint64_t seed) {
    spec_.seed = seed;
    for (int64_t i = 0; i < spec_.num_envs; ++i) {
      Env& e = envs_[i];
      e.env_seed = mix_seed(seed, static_cast<uint64_t>(i));
      e.sampler = Rng(mix_seed(e.env_seed, kSamplerStream));
      e.episode = -1;
    }
  }

  void begin_episode(int64_t i) {
    Env& e = envs_[i];
    ++e.episode;
    e.waiting = -1;
    e.episode_seed = mix_seed(e.env_seed, static_cast<uint64_t>(e.episode));
    e.state = S(*cfg_, state_seed(e));
    e.chance = Rng(mix_seed(e.episode_seed, 1));
    e.history.clear();
    e.needs_reset = false;
    e.last_mover = 0;
    b_.reset[i] = 1;
    b_.episode[i] = e.episode;
    if (spec_.learner == kEverySeat) {
      e.learner = kEverySeat;
    } else {
      e.learner = spec_.learner == kRotateSeat ? static_cast<int>((i + e.episode) % players_) : spec_.learner;
      if (static_cast<int>(e.searchers.size()) != players_) e.searchers.resize(players_);
      int next = 0;
      for (int k = 0; k < players_; ++k) {
        e.bot_seed[k] = mix_seed(e.episode_seed, 2 + static_cast<uint64_t>(k)) >> 1;
        e.seat_bot[k] = k == e.learner ? -1 : static_cast<int8_t>(next++);
        const BotSpec* b = k == e.learner ? nullptr : &spec_.opponents[e.seat_bot[k]];
        if (b && b->kind == BotSpec::kMcts) {
          MctsConfig c = b->mcts;
          c.seed = e.bot_seed[k];
          e.searchers[k] = std::make_unique<MctsSearcher<S>>(c);
        } else {
          e.searchers[k].reset();
        }
      }
    }
    b_.learner_seat[i] = e.learner;
    advance(e);
  }

  // Chance, then the built-in bots (when there is a learner), until a decision of the caller's, of
  // an evaluator (e.waiting is then set), or the end.
  void advance(Env& e) {
    for (;;) {
      while (e.state.is_chance_node()) {
        const int32_t o = sample_chance(e.state, e.chance);
        e.state.apply(o);
        e.history.push_back(o);
      }
      if (e.state.is_terminal() || e.learner == kEverySeat) return;
      const int seat = e.state.current_player();
      if (seat == e.learner) return;
      if (spec_.evaluators > 0) {
        const int ev = spec_.opponent_evaluator[e.seat_bot[seat]];
        if (ev >= 0) {
          e.waiting = static_cast<int8_t>(ev);
          return;
        }
      }
      const int32_t a = bot_action(e, seat);  // decided before it is applied: the bot sees this position
      e.state.apply(a);
      e.history.push_back(a);
      e.last_mover = seat;
    }
  }

  void require_evaluator(const VectorEvaluatorFn& eval) const {
    require<std::logic_error>(spec_.evaluators == 0 || static_cast<bool>(eval),
                              "VectorGame: this environment has evaluator opponents; reset() and step() need them");
  }

  // The evaluators' turns: while some games wait for an evaluator, gathers them in env order (so
  // the batches, hence the results, do not depend on threads), calls each evaluator once on the
  // games waiting for it, applies the argmax of its logits over each game's legal actions (ties:
  // the lower id) and advances those games again (chance, built-in bots) to the learner, the end,
  // or the next evaluator's turn. A stop (Ctrl-C) leaves between two phases; the caller then
  // treats the call as interrupted.
  void play_evaluators(const VectorEvaluatorFn& eval) {
    if (spec_.evaluators == 0) return;
    const int64_t n = spec_.num_envs;
    for (;;) {
      if (stop_requested()) return;
      pending_.clear();
      for (auto& buf : eval_bufs_) buf.clear();
      for (int64_t i = 0; i < n; ++i) {
        Env& e = envs_[i];
        if (e.waiting < 0) continue;
        e.eval_row = eval_bufs_[e.waiting].rows++;
        pending_.push_back(i);
      }
      if (pending_.empty()) return;
      for (auto& buf : eval_bufs_) {
        const size_t rows = static_cast<size_t>(buf.rows);
        if (buf.obs.size() < rows * obs_size_) buf.obs.resize(rows * obs_size_);
        if (buf.mask.size() < rows * actions_) buf.mask.resize(rows * actions_);
        if (buf.player.size() < rows) buf.player.resize(rows);
      }
      const int64_t m = static_cast<int64_t>(pending_.size());
      pool_.run(m, [&](int64_t begin, int64_t end) {  // the mover's own view, its legal actions, its seat
        for (int64_t p = begin; p < end; ++p) {
          Env& e = envs_[pending_[p]];
          EvalBuffer& buf = eval_bufs_[e.waiting];
          const int seat = e.state.current_player();
          const size_t r = static_cast<size_t>(e.eval_row);
          e.state.legal_actions(e.legal);
          require<std::logic_error>(e.legal.size > 0, S::kName, " VectorGame: no legal action at a decision");
          e.state.observation(seat, buf.obs.data() + r * obs_size_);
          uint8_t* mask = buf.mask.data() + r * actions_;
          std::memset(mask, 0, actions_);
          for (int32_t a : e.legal) mask[a] = 1;
          buf.player[r] = seat;
        }
      });
      for (auto& buf : eval_bufs_) {
        if (buf.rows == 0) continue;
        if (stop_requested()) return;
        buf.size_outputs();
        eval(static_cast<int>(&buf - eval_bufs_.data()), buf);
      }
      pool_.run(m, [&](int64_t begin, int64_t end) {
        for (int64_t p = begin; p < end; ++p) {
          const int64_t i = pending_[p];
          Env& e = envs_[i];
          const float* logits = eval_bufs_[e.waiting].logits.data() + static_cast<size_t>(e.eval_row) * actions_;
          int32_t best = e.legal.items[0];  // the largest logit; of equal ones, the lowest id
          for (int32_t a : e.legal)
            if (logits[a] > logits[best] || (logits[a] == logits[best] && a < best)) best = a;
          e.last_mover = e.state.current_player();
          e.state.apply(best);
          e.history.push_back(best);
          e.waiting = -1;
          advance(e);
          if (e.waiting < 0) write(i);
        }
      });
    }
  }

  int32_t bot_action(Env& e, int seat) {
    const BotSpec& b = spec_.opponents[e.seat_bot[seat]];
    int32_t a;
    if (b.kind == BotSpec::kMcts) {
      a = e.searchers[seat]->search(e.state, e.history).action;
    } else {
      Rng rng(mix_seed(e.bot_seed[seat], e.history.size()) >> 1);
      if (b.kind == BotSpec::kGreedy) {
        a = greedy_action(e.state, rng);
      } else {
        e.state.legal_actions(e.legal);
        a = e.legal.items[rng.below(static_cast<uint32_t>(e.legal.size))];
      }
    }
    return a;
  }

  // Large observations (Castle's 20 KB, Warsaw's 15 KB) over 1,024 games do not stay in cache:
  // written in place, every row is first read from memory (read-for-ownership), then written.
  // Writing into a small per-thread scratch (in L1/L2) and streaming it out with non-temporal
  // stores halves that memory traffic. Small observations are written in place.
  void write_observation(const S& s, int seat, float* out) {
    if (!stream_) {
      s.observation(seat, out);
      return;
    }
    thread_local std::vector<float> scratch;
    if (static_cast<int>(scratch.size()) < obs_size_) scratch.resize(obs_size_);
    s.observation(seat, scratch.data());
    stream_copy(out, scratch.data(), obs_size_);
  }

  // Writes game i's row of every buffer.
  void write(int64_t i) {
    Env& e = envs_[i];
    const bool over = e.state.is_terminal();
    uint8_t* mask = &b_.legal_mask[i * actions_];
    std::memset(mask, 0, actions_);
    if (over) {
      e.legal.clear();
    } else {
      e.state.legal_actions(e.legal);
      for (int32_t a : e.legal) mask[a] = 1;
    }
    const int mover = over ? kTerminalSeat : e.state.current_player();
    b_.current_player[i] = mover;
    float* obs = &b_.observation[i * views_ * obs_size_];
    for (int k = 0; k < views_; ++k) {
      const int seat = views_ > 1 ? k : (e.learner >= 0 ? e.learner : (over ? e.last_mover : mover));
      write_observation(e.state, seat, obs + k * obs_size_);
    }
    float* rewards = &b_.rewards[i * players_];
    double* final_returns = &b_.episode_returns[i * players_];
    if (over) {
      e.state.returns(final_returns);
      for (int k = 0; k < players_; ++k) rewards[k] = static_cast<float>(final_returns[k]);
      b_.episode_length[i] = static_cast<int32_t>(e.history.size());
      e.needs_reset = true;
    } else {
      for (int k = 0; k < players_; ++k) {
        rewards[k] = 0.0f;
        final_returns[k] = 0.0;
      }
      b_.episode_length[i] = 0;
    }
    b_.terminated[i] = over;
  }

  std::shared_ptr<const Config> cfg_;
  VectorSpec spec_;
  WorkerPool pool_;
  int players_ = 0, actions_ = 0, obs_size_ = 0, views_ = 1;
  bool started_ = false;
  bool stream_ = false;
  std::vector<Env> envs_;
  VectorBuffers b_;
  std::vector<uint8_t> scratch_flags_;
  std::vector<EvalBuffer> eval_bufs_;  // one per evaluator: the batch of its current call
  std::vector<int64_t> pending_;       // the games waiting for an evaluator, in env order
};

}  // namespace tilecraft
