"""C++ batch random-playout throughput of every game, one thread, in one run, as ratios to Azul's
figure from the same run (the machines are shared and noisy). Usage: python bench/playouts.py
[--quick]. Reports wall-clock and process-CPU rates (on a loaded machine the CPU figure is what
one thread does with a core to itself), actions per game, and clone() cost from Python."""
import argparse
import time

import tilecraft

CONFIGS = [
    ("azul", 2, {}),
    ("azul", 4, {}),
    ("castle", 2, {}),
    ("warsaw", 2, {}),
    ("warsaw", 4, {}),
    ("gaudi", 4, {}),  # basic (day) mode; --gaudi-data DIR picks the edition
    ("gaudi", 4, {"mode": "expert"}),  # expert (night) mode: issue 13 asks >= 0.7x the basic rate
    ("gaudi", 1, {"difficulty": "normal"}),  # solo against the automa: issue 13 asks >= the basic 4p rate
]


def rate(game, players, options, games, repeat):
    best_wall = best_cpu = 0.0
    length = 0.0
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        r = tilecraft.random_playouts(game, games, seed=1, threads=1, players=players, **options)
        w, c = time.perf_counter() - w, time.process_time() - c
        best_wall, best_cpu = max(best_wall, games / w), max(best_cpu, games / c)
        length = float(r["length"].mean())
    return best_wall, best_cpu, length


def clone_ns(game, players, options, n=20000):
    s = tilecraft.make(game, players=players, seed=3, **options)
    t = time.perf_counter()
    for _ in range(n):
        s.clone()
    return 1e9 * (time.perf_counter() - t) / n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--gaudi-data", default="default", help="Gaudí edition directory (default: the shipped edition)")
    args = ap.parse_args()
    games = {"azul": 100000, "castle": 20000, "warsaw": 20000, "gaudi": 20000}
    if args.quick:
        games = {k: v // 20 for k, v in games.items()}
    rows = []
    for game, players, options in CONFIGS:
        if game not in tilecraft.list_games():
            continue
        if game == "gaudi":
            options = dict(options, data=args.gaudi_data)
            try:
                tilecraft.make_config(game, players, **options)
            except ValueError as e:
                print(f"skipping gaudi: {e}")
                continue
        wall, cpu, length = rate(game, players, options, games[game], 1 if args.quick else 3)
        label = f"{game} {players}p" + ("".join(f" {v}" for k, v in options.items() if k in ("mode", "difficulty")))
        rows.append((label, wall, cpu, length, clone_ns(game, players, options)))
    base_wall, base_cpu = rows[0][1], rows[0][2]
    print(f"{'game':<12} {'games/s wall':>13} {'games/s CPU':>12} {'vs azul 2p':>10} {'actions/game':>13} {'clone ns':>9}")
    for name, wall, cpu, length, cl in rows:
        print(f"{name:<12} {wall:>13,.0f} {cpu:>12,.0f} {cpu / base_cpu:>10.3f} {length:>13.1f} {cl:>9.0f}")


if __name__ == "__main__":
    main()
