// PUCT's batched self-play (search/puct.hpp): many games at once, one evaluator call per evaluator
// and step; the seats' bots (BotSpec), each game's course (detail::GameRun: start, chance, the
// built-in bots, records, end) and the results are search/self_play.hpp's; the driver's counters
// (PuctSelfPlayStats) are here.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/action_list.hpp"
#include "core/errors.hpp"
#include "core/rng.hpp"
#include "search/mcts.hpp"
#include "search/playout.hpp"
#include "search/puct_worlds.hpp"
#include "search/self_play.hpp"

namespace tilecraft {

// ---- batched self-play: many games at once, one evaluator call per evaluator and step ----

struct PuctSelfPlayStats {
  int64_t calls = 0;          // evaluator calls
  int64_t rows = 0;           // observations handed to evaluators
  int64_t steps = 0;          // collect / evaluate / deliver rounds
  int64_t full_calls = 0;     // calls (and their rows) in steps where every slot had a game
  int64_t full_rows = 0;
  int64_t simulations = 0;
  int64_t searches = 0;
  double seconds_cpp = 0.0;   // collect and deliver (the evaluator calls excluded)
  double seconds_eval = 0.0;  // inside eval(): the callback, crossing included
};

// Plays games [first_game, first_game + n_games) of the stream `seed` (game i is seeded from
// mix_seed(seed, i) as in self_play.hpp, so a game does not depend on which others share its
// batches), `concurrent` at a time, each a detail::GameRun (search/self_play.hpp) moved on in a slot:
// this loop does only the PUCT seats' searches. eval(e, buf) fills buf's outputs with evaluator e.
// A PUCT row's search value is the visit-weighted mean of its root children's values, as an MCTS row's.
template <class S, class Eval>
SelfPlayResults puct_self_play(const typename S::Config& config, const std::vector<BotSpec>& bots,
                               int n_evaluators, int64_t n_games, int64_t first_game, uint64_t seed, int concurrent,
                               bool rotate, bool record, bool compact, Eval&& eval, PuctSelfPlayStats& stats) {
  using Clock = std::chrono::steady_clock;
  require<std::invalid_argument>(concurrent >= 1, "self_play: concurrent_games must be >= 1, got ", concurrent);
  for (const auto& b : bots) {
    if (b.kind != BotSpec::kPuct) continue;
    b.puct.validate("self_play puct bot");
    require<std::invalid_argument>(b.puct.seconds == 0,
                                   "self_play puct bot: a time budget (seconds) is not deterministic; "
                                   "self-play plays by simulations (give simulations, not seconds)");
    require<std::invalid_argument>(b.evaluator >= 0 && b.evaluator < n_evaluators, "self_play: evaluator index ",
                                   b.evaluator, " out of range");
  }
  detail::SelfPlayGames<S> games(config, bots, n_games, seed, first_game, rotate, record, compact);
  std::vector<EvalBuffer> bufs(n_evaluators);
  for (auto& b : bufs) b.init(games.r.obs_size, games.r.num_actions, games.r.players);

  struct Slot {
    detail::GameRun<S> run;
    bool live = false;
    bool searching = false;
    PuctWorlds<S> search;
    int search_eval = 0;
    int deficit = 0;  // leaves short of its share in the last step (made up in the next one)
  };
  std::vector<Slot> slots(static_cast<size_t>(std::min<int64_t>(concurrent, std::max<int64_t>(n_games, 1))));
  int64_t next = 0;

  // Moves one game on until it has its share of leaves waiting (or waits, or no game is left).
  // Its share is batch_size plus what it fell short of in the previous step (a search that waits
  // for its root's evaluation, ends, or stops where a simulation would reach a leaf already
  // waiting, leaves fewer), at most twice batch_size: per game, so
  // that a game's course does not depend on the other games.
  int requested = 0, quota = 0;
  auto advance = [&](Slot& sl) {
    requested = 0;
    quota = -1;
    for (;;) {
      detail::GameRun<S>& run = sl.run;
      if (!sl.live) {
        if (next >= n_games) return;
        run.start(games, next++);
        sl.live = true;
        sl.searching = false;
        sl.deficit = 0;  // a new game owes nothing to the game before it in this slot
        requested = 0;   // the new game's share starts here
        quota = -1;
      }
      if (run.over()) {
        run.finish();
        sl.live = false;
        continue;
      }
      if (run.chance_step()) continue;
      const int me = run.s->current_player();
      const BotSpec& b = run.bot(me);
      if (b.kind != BotSpec::kPuct) {
        run.builtin_turn();
        continue;
      }
      if (!sl.searching) {
        sl.search.start(*run.s, run.history().size(), b.puct, mix_seed(run.game_seed, 2 + static_cast<uint64_t>(me)));
        sl.searching = true;
        sl.search_eval = b.evaluator;
      }
      if (!sl.search.done()) {
        if (quota < 0) quota = b.puct.batch_size + std::min(sl.deficit, b.puct.batch_size);
        if (requested >= quota) return;
        requested += sl.search.collect(bufs[b.evaluator], quota - requested);
        if (!sl.search.done()) return;
      }
      const PuctResult res = sl.search.result();
      sl.searching = false;
      stats.simulations += res.simulations;
      ++stats.searches;
      float value = std::numeric_limits<float>::quiet_NaN();
      if (record) {
        float* pol = run.policy_row();
        for (size_t i = 0; i < res.actions.size(); ++i) pol[res.actions[i]] = static_cast<float>(res.policy[i]);
        value = detail::root_value(res.visits, res.values);
      }
      run.move(me, res.action, value);
    }
  };

  auto t0 = Clock::now();
  for (;;) {
    for (auto& b : bufs) b.clear();
    bool any = false, all = true;
    for (auto& sl : slots) {
      advance(sl);
      sl.deficit = quota > 0 ? quota - requested : 0;
      any |= sl.live;
      all &= sl.live;
    }
    if (!any && next >= n_games) break;
    ++stats.steps;
    auto t1 = Clock::now();
    stats.seconds_cpp += std::chrono::duration<double>(t1 - t0).count();
    for (int e = 0; e < n_evaluators; ++e) {
      if (!bufs[e].rows) continue;
      bufs[e].size_outputs();
      ++stats.calls;
      stats.rows += bufs[e].rows;
      if (all) {
        ++stats.full_calls;
        stats.full_rows += bufs[e].rows;
      }
      eval(e, bufs[e]);
    }
    t0 = Clock::now();
    stats.seconds_eval += std::chrono::duration<double>(t0 - t1).count();
    for (auto& sl : slots)
      if (sl.live && sl.searching) sl.search.deliver(bufs[sl.search_eval]);
  }
  stats.seconds_cpp += std::chrono::duration<double>(Clock::now() - t0).count();
  return games.gather();
}

}  // namespace tilecraft
