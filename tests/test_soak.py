"""Soak (issue 12, item 4), marked slow: a million random moves per game through the Python API
(with clones, saves, loads, observations and masks along the way), then a long C++ self-play and a
tournament; resident memory after warm-up stays flat.

Runs only with TILECRAFT_SOAK=1 (the README's `pytest` stays quick). TILECRAFT_SOAK_MOVES sets the moves per game (default 1,000,000; CI may bound it). The figures
(moves, seconds, resident memory after warm-up and at the end) are printed and appended to
$TILECRAFT_SOAK_REPORT when set, for docs/testing.md."""
import gc
import os
import time

import numpy as np
import pytest

import tilecraft

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get("TILECRAFT_SOAK"), reason="soak: set TILECRAFT_SOAK=1 (minutes)")]

MOVES = int(os.environ.get("TILECRAFT_SOAK_MOVES", "1000000"))
GROWTH_LIMIT_MB = 8.0  # allowed resident growth after warm-up (allocator noise, numpy caches)


def _reload(text):
    return tilecraft.from_json(text)


def _trim() -> None:
    """Hands freed heap memory back to the system (glibc's malloc_trim) so that the resident size
    counts what is still in use, not what the allocator's per-thread arenas happen to keep."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the reading keeps the allocator's caches
        pass


def rss_mb() -> float:
    gc.collect()
    _trim()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _report(line: str) -> None:
    print(line)
    path = os.environ.get("TILECRAFT_SOAK_REPORT")
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")


def _check_flat(what, warm, end):
    _report(f"{what}: rss after warm-up {warm:.1f} MB, at end {end:.1f} MB, growth {end - warm:+.1f} MB")
    assert end - warm < GROWTH_LIMIT_MB, f"{what}: resident memory grew {end - warm:.1f} MB after warm-up"


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads /proc (Linux)")
@pytest.mark.parametrize("game", tilecraft.list_games())
def test_million_random_moves(game):
    rng = np.random.default_rng(1)
    spec = tilecraft.game_spec(game)
    moves, games, warm = 0, 0, None
    start = time.perf_counter()
    while moves < MOVES:
        s = tilecraft.make(game, players=spec.players[games % len(spec.players)], seed=games)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
            moves += 1
            if moves % 997 == 0:  # the other paths a long-running user takes
                c = s.clone()
                _reload(c.to_json())
                s.observation(0), s.legal_action_mask(), s.history()
                c.resample_hidden(0, moves)
                try:
                    s.apply(-1)
                except tilecraft.IllegalActionError:
                    pass
        games += 1
        if warm is None and moves >= MOVES // 10:
            gc.collect()
            warm = rss_mb()
    gc.collect()
    end = rss_mb()
    _report(f"soak {game}: {moves} moves in {games} games, {time.perf_counter() - start:.1f} s")
    _check_flat(f"soak {game}", warm, end)


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads /proc (Linux)")
def test_long_self_play_and_tournament(tmp_path):
    rounds = max(5, MOVES // 100000)  # warm-up: the first two rounds; a leak grows over the rest
    warm = None
    start = time.perf_counter()
    games = 0
    for r in range(rounds):
        for game in tilecraft.list_games():
            res = tilecraft.self_play(game, ["random", "greedy", "mcts:iterations=20"], 6, seed=r, threads=2,
                                      record=True)
            games += len(res["length"])
        if r == 1:
            warm = rss_mb()
    gc.collect()
    _report(f"self_play: {games} games in {time.perf_counter() - start:.1f} s")
    _check_flat("self_play", warm, rss_mb())
    start = time.perf_counter()
    result = tilecraft.tournament("azul", ["random", "greedy", "mcts:iterations=20"], games_per_pairing=2, workers=1,
                                  out=str(tmp_path / "t.jsonl"))
    warm = rss_mb()
    for i in range(rounds):
        tilecraft.tournament("azul", ["random", "greedy"], games_per_pairing=4, workers=1, seed=i + 1,
                             out=str(tmp_path / f"t{i}.jsonl"))
    gc.collect()
    _report(f"tournament: {rounds + 1} tournaments ({result!r:.60}) in {time.perf_counter() - start:.1f} s")
    _check_flat("tournament", warm, rss_mb())
