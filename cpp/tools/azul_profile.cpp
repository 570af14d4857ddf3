// Times Azul's C++ hot paths without Python: random playouts, clone, legal-move generation.
// Build: cmake -S . -B build/tools -DTILECRAFT_TOOLS=ON && cmake --build build/tools && build/tools/azul_profile [games]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "azul/state.hpp"
#include "search/playout.hpp"

using namespace tilecraft;

int main(int argc, char** argv) {
  const int games = argc > 1 ? std::atoi(argv[1]) : 200000;
  azul::Config cfg;
  auto t0 = std::chrono::steady_clock::now();
  long long moves = 0, total = 0;
  for (int i = 0; i < games; ++i) {
    azul::State s(cfg, mix_seed(1, 2 * i));
    Rng rng(mix_seed(1, 2 * i + 1));
    moves += random_playout(s, rng);
    double sc[4];
    s.scores(sc);
    total += static_cast<long long>(sc[0] + sc[1]);
  }
  auto t1 = std::chrono::steady_clock::now();
  const double dt = std::chrono::duration<double>(t1 - t0).count();
  std::printf("playouts: %d games in %.3fs = %.0f games/s, %.1f ns/move, %.1f moves/game (checksum %lld)\n", games, dt,
              games / dt, 1e9 * dt / moves, double(moves) / games, total);
  if (argc > 2) return 0;  // playouts only (for callgrind instruction counts)

  azul::State s(cfg, 7);
  volatile int sink = 0;
  const int reps = 10000000;
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) {
    azul::State c = s;
    asm volatile("" : : "r"(&c) : "memory");
    sink += c.current_player();
  }
  t1 = std::chrono::steady_clock::now();
  std::printf("clone: %.1f ns (state is %zu bytes)\n", 1e9 * std::chrono::duration<double>(t1 - t0).count() / reps,
              sizeof(azul::State));
  ActionList<azul::State::kMaxActions> list;
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) {
    s.legal_actions(list);
    asm volatile("" : : "r"(&list) : "memory");
    sink += list.size;
  }
  t1 = std::chrono::steady_clock::now();
  std::printf("legal_actions at the opening (%d moves): %.1f ns\n", list.size,
              1e9 * std::chrono::duration<double>(t1 - t0).count() / reps);
  return sink == 42 ? 1 : 0;
}
