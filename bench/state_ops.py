"""Cost of a state's value operations from Python, next to a trivial call measured in the same run.

Usage: python bench/state_ops.py [--repeat 5] [--calls 100000] [--make-calls 200]

For every game (default options, a position 10 moves in) it times, best of --repeat, the
nanoseconds per call of: is_terminal() (the baseline: the cost of any call into the extension),
hash_key(), a == b on two equal states (the whole content compared), clone(), and one
apply() (on a fresh clone each time, so the position does not drift; the clone is subtracted).
The last column gives hash_key() beyond the baseline: the work of hashing itself.

A second table times tilecraft.make(game) with default options: warm (best of --repeat x
--make-calls; the data files already read, checked and converted once in this process) and cold
(the per-process caches emptied first, so every data file is read, parsed, schema-checked and
converted again; the compiled JSON Schema validators are kept), each also as a multiple of the
baseline call measured in the same run."""
import argparse
import time
import timeit

import tilecraft
from tilecraft.games import _gaudi_data, castle, warsaw


def best(fn, calls, repeat):
    return min(timeit.repeat(fn, number=calls, repeat=repeat)) / calls * 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--calls", type=int, default=100000)
    ap.add_argument("--make-calls", type=int, default=200)
    args = ap.parse_args()
    print("| game | is_terminal() ns | hash_key() ns | a == b ns | clone() ns | apply() ns | hash_key() beyond the baseline |")
    print("|---|---|---|---|---|---|---|")
    for game in tilecraft.list_games():
        s = tilecraft.make(game, seed=1)
        for _ in range(10):
            s.apply(int(s.legal_actions()[0]))
        twin = s.clone()
        action = int(s.legal_actions()[0])
        base = best(s.is_terminal, args.calls, args.repeat)
        key = best(s.hash_key, args.calls, args.repeat)
        eq = best(lambda: s == twin, args.calls, args.repeat)
        clone = best(s.clone, args.calls, args.repeat)
        apply = best(lambda: s.clone().apply(action), args.calls // 4, args.repeat) - clone
        print(f"| {game} | {base:.0f} | {key:.0f} | {eq:.0f} | {clone:.0f} | {apply:.0f} | {key - base:.0f} |")
    make_table(args)


def _empty_caches() -> None:
    for cache in (castle._CACHE, warsaw._CACHE, _gaudi_data._CACHE):
        cache.clear()
    for game in tilecraft.list_games():
        getattr(tilecraft.game_spec(game), "_prototypes", {}).clear()  # (absent before the prototype cache)


def make_table(args) -> None:
    print()
    print("| game | is_terminal() ns (baseline) | warm make() µs | warm / baseline | cold make() ms | cold / baseline |")
    print("|---|---|---|---|---|---|")
    for game in tilecraft.list_games():
        s = tilecraft.make(game, seed=1)
        base = best(s.is_terminal, args.calls, args.repeat)
        warm = best(lambda: tilecraft.make(game, seed=7), args.make_calls, args.repeat)
        cold = float("inf")
        for _ in range(args.repeat):
            _empty_caches()
            t = time.perf_counter()
            tilecraft.make(game, seed=7)
            cold = min(cold, (time.perf_counter() - t) * 1e9)
        print(f"| {game} | {base:.0f} | {warm / 1e3:.1f} | {warm / base:,.0f} | {cold / 1e6:.2f} | {cold / base:,.0f} |")


if __name__ == "__main__":
    main()
