// PUCT's batched self-play (search/puct.hpp): many games at once, one evaluator call per evaluator
// and step; the seats' bots (BotSpec, search/self_play.hpp) and the driver's counters (PuctSelfPlayStats).
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
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
// batches), `concurrent` at a time. eval(e, buf) fills buf's outputs with evaluator e.
template <class S, class Eval>
SelfPlayResults puct_self_play(const typename S::Config& config, const std::vector<BotSpec>& bots,
                               int n_evaluators, int64_t n_games, int64_t first_game, uint64_t seed, int concurrent,
                               bool rotate, bool record, Eval&& eval, PuctSelfPlayStats& stats) {
  using Clock = std::chrono::steady_clock;
  require<std::invalid_argument>(!bots.empty(), "self_play: give at least one bot");
  require<std::invalid_argument>(n_games >= 0 && first_game >= 0, "self_play: n_games must be >= 0, got ", n_games);
  require<std::invalid_argument>(concurrent >= 1, "self_play: concurrent_games must be >= 1, got ", concurrent);
  for (const auto& b : bots) {
    if (b.kind == BotSpec::kMcts) b.mcts.validate();
    if (b.kind == BotSpec::kPuct) {
      b.puct.validate("self_play puct bot");
      require<std::invalid_argument>(b.puct.seconds == 0,
                                     "self_play puct bot: a time budget (seconds) is not deterministic; "
                                     "self-play plays by simulations (give simulations, not seconds)");
      require<std::invalid_argument>(b.evaluator >= 0 && b.evaluator < n_evaluators, "self_play: evaluator index ",
                                     b.evaluator, " out of range");
    }
  }
  const S probe(config, 0);
  SelfPlayResults r = detail::sized_results(probe, n_games);
  const int p = r.players;
  const int nb = static_cast<int>(bots.size());
  std::vector<detail::GameRecord> records(record ? n_games : 0);
  std::vector<EvalBuffer> bufs(n_evaluators);
  for (auto& b : bufs) b.init(r.obs_size, r.num_actions, p);

  struct Slot {
    bool live = false;
    bool searching = false;
    int64_t g = -1;
    uint64_t game_seed = 0;
    std::unique_ptr<S> s;
    Rng rng;
    std::vector<int> who;
    std::vector<std::unique_ptr<MctsSearcher<S>>> mcts;
    PuctWorlds<S> search;
    int search_eval = 0;
    int deficit = 0;  // leaves short of its share in the last step (made up in the next one)
  };
  std::vector<Slot> slots(static_cast<size_t>(std::min<int64_t>(concurrent, std::max<int64_t>(n_games, 1))));
  int64_t next = 0;
  std::vector<float> pol;
  ActionList<S::kMaxActions> legal;

  auto start_game = [&](Slot& sl, int64_t g) {
    sl.live = true;
    sl.searching = false;
    sl.deficit = 0;  // a new game owes nothing to the game before it in this slot
    sl.g = g;
    sl.game_seed = mix_seed(seed, static_cast<uint64_t>(first_game + g));
    r.state_seed[g] = static_cast<int64_t>(mix_seed(sl.game_seed, 0) >> 1);
    sl.s.reset(new S(config, static_cast<uint64_t>(r.state_seed[g])));
    sl.rng = Rng(mix_seed(sl.game_seed, 1));
    sl.who.assign(p, 0);
    sl.mcts.clear();
    sl.mcts.resize(p);
    for (int k = 0; k < p; ++k) {
      sl.who[k] = rotate ? static_cast<int>((k + first_game + g) % nb) : k % nb;
      r.seat_bot[g * p + k] = sl.who[k];
      const BotSpec& b = bots[sl.who[k]];
      if (b.kind == BotSpec::kMcts) {
        MctsConfig c = b.mcts;
        c.seed = mix_seed(sl.game_seed, 2 + static_cast<uint64_t>(k));
        sl.mcts[k] = std::make_unique<MctsSearcher<S>>(c);
      }
    }
  };
  auto record_row = [&](Slot& sl, int me) {
    detail::GameRecord& rec = records[sl.g];
    const S& s = *sl.s;
    const size_t o = rec.observation.size();
    rec.observation.resize(o + r.obs_size);
    s.observation(me, rec.observation.data() + o);
    s.legal_actions(legal);
    const size_t m = rec.legal_mask.size();
    rec.legal_mask.resize(m + r.num_actions, 0);
    for (int32_t x : legal) rec.legal_mask[m + x] = 1;
    rec.policy.insert(rec.policy.end(), pol.begin(), pol.end());
    rec.player.push_back(me);
  };
  auto finish_game = [&](Slot& sl) {
    const S& s = *sl.s;
    const int64_t g = sl.g;
    r.length[g] = static_cast<int32_t>(r.actions[g].size());
    s.scores(&r.scores[g * p]);
    s.returns(&r.returns[g * p]);
    const uint32_t w = s.winners();
    for (int k = 0; k < p; ++k) r.winners[g * p + k] = (w >> k) & 1u;
    sl.live = false;
    sl.s.reset();
  };
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
      if (!sl.live) {
        if (next >= n_games) return;
        start_game(sl, next++);
        requested = 0;  // the new game's share starts here
        quota = -1;
      }
      S& s = *sl.s;
      std::vector<int32_t>& hist = r.actions[sl.g];
      if (s.is_terminal()) {
        finish_game(sl);
        continue;
      }
      int32_t a;
      if (s.is_chance_node()) {
        a = sample_chance(s, sl.rng);
        s.apply(a);
        hist.push_back(a);
        continue;
      }
      const int me = s.current_player();
      const BotSpec& b = bots[sl.who[me]];
      if (b.kind == BotSpec::kPuct) {
        if (!sl.searching) {
          sl.search.start(s, hist.size(), b.puct, mix_seed(sl.game_seed, 2 + static_cast<uint64_t>(me)));
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
        a = res.action;
        if (record) {
          pol.assign(r.num_actions, 0.0f);
          for (size_t i = 0; i < res.actions.size(); ++i) pol[res.actions[i]] = static_cast<float>(res.policy[i]);
        }
      } else {
        if (record) pol.assign(r.num_actions, 0.0f);
        if (b.kind == BotSpec::kMcts) {
          const SearchResult res = sl.mcts[me]->search(s, hist);
          a = res.action;
          if (record) {
            int64_t total = 0;
            for (int64_t v : res.visits) total += v;
            for (size_t i = 0; i < res.actions.size(); ++i)
              pol[res.actions[i]] = total ? static_cast<float>(res.visits[i]) / total : 0.0f;
            if (!total) pol[a] = 1.0f;
          }
        } else if (b.kind == BotSpec::kGreedy) {
          a = greedy_action(s, sl.rng);
          if (record) pol[a] = 1.0f;
        } else {
          s.legal_actions(legal);
          a = legal.items[sl.rng.below(static_cast<uint32_t>(legal.size))];
          if (record) pol[a] = 1.0f;
        }
      }
      if (record) record_row(sl, me);
      s.apply(a);
      hist.push_back(a);
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

  if (record) {
    for (int64_t g = 0; g < n_games; ++g) {
      detail::GameRecord& rec = records[g];
      r.observation.insert(r.observation.end(), rec.observation.begin(), rec.observation.end());
      r.legal_mask.insert(r.legal_mask.end(), rec.legal_mask.begin(), rec.legal_mask.end());
      r.policy.insert(r.policy.end(), rec.policy.begin(), rec.policy.end());
      r.player.insert(r.player.end(), rec.player.begin(), rec.player.end());
      for (size_t i = 0; i < rec.player.size(); ++i) {
        r.game.push_back(static_cast<int32_t>(g));
        r.final_returns.insert(r.final_returns.end(), r.returns.begin() + g * p, r.returns.begin() + (g + 1) * p);
      }
      rec = detail::GameRecord();
    }
  }
  return r;
}

}  // namespace tilecraft
