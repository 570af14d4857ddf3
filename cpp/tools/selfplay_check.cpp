// One self-play checker for every game (the template is selfplay_check.hpp). Built with ASan+UBSan
// (TILECRAFT_SANITIZE=address) or TSan (TILECRAFT_SANITIZE=thread) by CMakeLists.txt; run by .ci/run.
//
//   PYTHONPATH=python python3 cpp/tools/configs.py > build/configs.txt
//   build/asan/selfplay_check build/configs.txt [--games N] [--search N] [--batch N] [--threaded-only]
//                                               [--game NAME] [--deep-every K]
// --games: random games per configuration; --search: positions searched per configuration;
// --batch: batch playouts per configuration (self-play runs a quarter of that); --threaded-only:
// skip single-threaded work (the TSan run). Exit status 1 on any failed check.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "azul/state.hpp"
#include "castle/state.hpp"
#include "gaudi/state.hpp"
#include "tools/selfplay_check.hpp"
#include "warsaw/state.hpp"

using namespace tilecraft;
using namespace tilecraft::check;

namespace {

struct Options {
  int games = 20, search = 2, batch = 8, deep_every = 1;
  bool threaded_only = false;
  std::string game;
};

std::vector<ConfigText> read_configs(const char* path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("cannot read ") + path);
  std::vector<ConfigText> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string name;
    if (!(ls >> name)) continue;
    if (name == "config") {
      out.emplace_back();
      ls >> out.back().game >> out.back().label;
    } else if (name != "end") {
      if (out.empty()) throw std::runtime_error("config file: a field before any 'config' line");
      size_t n;
      ls >> n;
      std::vector<std::string>& v = out.back().fields[name];
      v.resize(n);
      for (auto& x : v) ls >> x;
      if (!ls) throw std::runtime_error("config file: short field " + name);
    }
  }
  return out;
}

template <class S>
void run(const ConfigText& text, const Options& o, uint64_t seed, Stats& st) {
  // Config can be large (component data): keep it on the heap, alive while states use it.
  auto cfg = std::make_unique<typename S::Config>();
  FillConfig fill{text};
  cfg->visit(fill);
  cfg->validate();
  if (!o.threaded_only) {
    random_games<S>(*cfg, o.games, seed, st, o.deep_every);
    search_checks<S>(*cfg, o.search, mix_seed(seed, 1), false, st);
    batch_checks<S>(*cfg, o.batch, mix_seed(seed, 2), 1, st);
  } else {
    search_checks<S>(*cfg, o.search, mix_seed(seed, 1), true, st);
  }
  batch_checks<S>(*cfg, o.batch, mix_seed(seed, 3), 2, st);
  vector_checks<S>(*cfg, o.batch, mix_seed(seed, 4), 2, st);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s configs.txt [--games N] [--search N] [--batch N] [--threaded-only] [--game NAME]\n",
                 argv[0]);
    return 2;
  }
  Options o;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--games") o.games = std::atoi(next());
    else if (a == "--search") o.search = std::atoi(next());
    else if (a == "--batch") o.batch = std::atoi(next());
    else if (a == "--deep-every") o.deep_every = std::max(1, std::atoi(next()));
    else if (a == "--threaded-only") o.threaded_only = true;
    else if (a == "--game") o.game = next();
    else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  std::vector<ConfigText> configs;
  try {
    configs = read_configs(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  if (configs.empty()) {
    std::fprintf(stderr, "no configurations in %s\n", argv[1]);
    return 2;
  }
  int failures = 0, ran = 0;
  std::map<std::string, Stats> per_game;
  for (size_t i = 0; i < configs.size(); ++i) {
    const ConfigText& c = configs[i];
    if (!o.game.empty() && c.game != o.game) continue;
    Stats& st = per_game[c.game];
    const uint64_t seed = mix_seed(2026, i);
    try {
      if (c.game == "azul") run<azul::State>(c, o, seed, st);
      else if (c.game == "castle") run<castle::State>(c, o, seed, st);
      else if (c.game == "warsaw") run<warsaw::State>(c, o, seed, st);
      else if (c.game == "gaudi") run<gaudi::State>(c, o, seed, st);
      else throw std::runtime_error("unknown game " + c.game);
      ++ran;
    } catch (const std::exception& e) {
      std::printf("FAIL %s %s (seed %llu): %s\n", c.game.c_str(), c.label.c_str(),
                  static_cast<unsigned long long>(seed), e.what());
      ++failures;
    }
  }
  for (const auto& [g, st] : per_game)
    std::printf("%-7s games=%lld actions=%lld illegal_probes=%lld searches=%lld batch_playouts=%lld selfplay_games=%lld"
                " known_finding_hits=%lld\n",
                g.c_str(), static_cast<long long>(st.games), static_cast<long long>(st.actions),
                static_cast<long long>(st.illegal_probes), static_cast<long long>(st.searches),
                static_cast<long long>(st.playouts), static_cast<long long>(st.selfplay_games),
                static_cast<long long>(st.known));
  std::printf("%s: %d configurations checked, %d failed\n", failures ? "FAILED" : "ok", ran, failures);
  return failures ? 1 : 0;
}
