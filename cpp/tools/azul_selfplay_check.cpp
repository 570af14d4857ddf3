// Plays many random Azul games in every configuration and runs State::validate() (the loader's
// full consistency check: tile conservation, marker, phases) after every action. Meant to run
// under the sanitizers: cmake -S . -B build/asan -DTILECRAFT_TOOLS=ON -DTILECRAFT_SANITIZE=ON
// -DCMAKE_BUILD_TYPE=Debug && cmake --build build/asan && build/asan/azul_selfplay_check 2000
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "azul/state.hpp"
#include "search/playout.hpp"

using namespace tilecraft;

int main(int argc, char** argv) {
  const int games = argc > 1 ? std::atoi(argv[1]) : 1000;
  long long actions = 0;
  for (int players = 2; players <= 4; ++players) {
    for (int explicit_chance = 0; explicit_chance <= 1; ++explicit_chance) {
      for (int first = -1; first <= 0; ++first) {
        azul::Config cfg;
        cfg.players = players;
        cfg.explicit_chance = explicit_chance;
        cfg.first_player = first;
        for (int g = 0; g < games; ++g) {
          azul::State s(cfg, mix_seed(99, g));
          Rng rng(mix_seed(7, g));
          ActionList<azul::State::kMaxActions> scratch;
          try {
            s.validate();
            while (!s.is_terminal()) {
              const int32_t a = random_action(s, rng, scratch);
              if (!s.is_legal(a)) {
                std::printf("random_action gave an illegal action %d\n", a);
                return 1;
              }
              s.apply(a);
              s.validate();
              ++actions;
              // Exercise every read path on exactly sized heap buffers, so ASan sees any overrun.
              std::vector<float> obs(s.observation_size());
              for (int p = 0; p < s.num_players(); ++p) s.observation(p, obs.data());
              std::vector<double> out(s.num_players());
              s.scores(out.data());
              s.returns(out.data());
              s.legal_actions(scratch);
              for (int32_t x : scratch) (void)s.action_to_string(x);
              if (!s.is_terminal() && !s.is_chance_node()) (void)s.heuristic(s.current_player());
            }
          } catch (const std::exception& e) {
            std::printf("players=%d explicit=%d first=%d game %d: %s\n", players, explicit_chance, first, g, e.what());
            return 1;
          }
        }
      }
    }
  }
  std::printf("ok: %lld actions checked\n", actions);
  return 0;
}
