"""Invariants of Azul checked through the public views after every move of random games
(AZ-COMP-1, AZ-AMB-1: 100 tiles, 20 per colour, always; AZ-AMB-2: line k holds at most k tiles;
AZ-AMB-4: at most 7 floor spaces; AZ-SETUP-3: a factory holds at most 4 tiles; AZ-MOVE-6 (b): a
line never holds a colour its wall row already has), for every player count and both chance modes."""
import random

import pytest

import tilecraft
from azul_fixtures import tile_totals, wall_col
from conformance import random_step

CONFIGS = [(players, chance) for players in (2, 3, 4) for chance in ("sampled", "explicit")]


def check_views(s):
    assert tile_totals(s) == [20] * 5, "AZ-AMB-1: 20 tiles of each colour, 100 in all"
    f = s.factories()
    assert (f >= 0).all() and (f[1:].sum(axis=1) <= 4).all()
    assert (s.bag() >= 0).all() and (s.lid() >= 0).all()
    pl, walls, floors = s.pattern_lines(), s.walls(), s.floors()
    for p in range(s.num_players()):
        assert 0 <= floors[p, 0] <= 7 and floors[p, 0] >= floors[p, 2:].sum()
        for k in range(5):
            c, n = int(pl[p, k, 0]), int(pl[p, k, 1])
            assert 0 <= n <= k + 1
            if n:
                assert not walls[p, k, wall_col(k, c)]
    assert 0 <= s.scores().min()


@pytest.mark.parametrize("players,chance", CONFIGS, ids=[f"{p}p-{c}" for p, c in CONFIGS])
def test_AZ_COMP_1_100_tiles_20_per_colour_after_every_move(players, chance):
    """AZ-COMP-1, AZ-AMB-1, spec 11.1 invariant: bag + lid + factories + centre + lines + floors + walls
    hold 20 tiles of each colour after every action and every chance outcome."""
    for seed in range(6):
        s = tilecraft.make("azul", players=players, seed=seed, chance=chance)
        rng = random.Random(seed * 10 + players)
        check_views(s)
        steps = 0
        while not s.is_terminal():
            random_step(s, rng)
            check_views(s)
            steps += 1
        assert steps > 0
