"""Azul scope, components and setup (spec sections 0-2, 9: AZ-SCOPE-*, AZ-COMP-*, AZ-SETUP-*,
AZ-VAR-1, AZ-AMB-1, AZ-AMB-5, AZ-AMB-15)."""
import random

import pytest

import tilecraft
from azul_fixtures import (B, FLOOR, act, bag, centre, draw, factory, floor_of, legal, lid, position,
                           run_draws_until_offer, tile_totals)

FACTORIES = {2: 5, 3: 7, 4: 9}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_AZ_SCOPE_3_player_counts_2_to_4_accepted(players):
    """AZ-SCOPE-3, AZ-SCOPE-1: 2, 3 and 4 players make a game with that many seats."""
    s = tilecraft.make("azul", players=players)
    assert s.num_players() == players
    assert s.scores().shape == (players,)


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_AZ_SCOPE_3_other_player_counts_rejected(players):
    """AZ-SCOPE-3: any other count is rejected, naming the allowed counts."""
    with pytest.raises(tilecraft.InvalidConfigError, match="2, 3, 4"):
        tilecraft.make("azul", players=players)


@pytest.mark.parametrize("option", ["variant", "grey_wall", "wall", "crystal", "gray"])
def test_AZ_SCOPE_2_AZ_VAR_1_no_variant_options(option):
    """AZ-SCOPE-2, AZ-VAR-1: no grey wall or other variant exists: such options are unknown, and the
    error lists the real options."""
    with pytest.raises(tilecraft.InvalidConfigError, match="unknown option") as info:
        tilecraft.make("azul", **{option: True})
    for name in ("chance", "first_player", "returns_mode", "max_rounds"):
        assert name in str(info.value)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_AZ_SETUP_2_AZ_COMP_1_AZ_AMB_1_all_tiles_in_the_bag(players):
    """AZ-SETUP-2, AZ-COMP-1, AZ-COMP-2, AZ-AMB-1: before any draw the one bag holds all 100 tiles, 20 of
    each colour; nothing else holds a tile."""
    s = tilecraft.make("azul", players=players, chance="explicit")
    assert s.is_chance_node()
    assert bag(s) == [20] * 5
    assert tile_totals(s) == [20] * 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_AZ_SETUP_1_AZ_SETUP_3_factories_and_4_tiles_each(players):
    """AZ-SETUP-1, AZ-SETUP-3, AZ-COMP-3: F = 5/7/9 factories, each gets 4 random tiles: 4F draws in
    explicit mode, then the factories hold 4 tiles each and the bag 100 - 4F; 100 tiles in all."""
    f = FACTORIES[players]
    s = tilecraft.make("azul", players=players, chance="explicit")
    assert s.factories().shape == (f + 1, 5)
    assert run_draws_until_offer(s) == 4 * f
    for i in range(1, f + 1):
        assert sum(factory(s, i)) == 4
    assert sum(bag(s)) == 100 - 4 * f
    assert tile_totals(s) == [20] * 5
    t = tilecraft.make("azul", players=players, seed=9)  # sampled mode
    assert [sum(factory(t, i)) for i in range(1, f + 1)] == [4] * f
    assert tile_totals(t) == [20] * 5


def test_AZ_SETUP_3_draw_probabilities_follow_the_bag():
    """AZ-SETUP-3 / spec 11.3: each drawn tile is a chance node with probability bag[c] / total:
    1/5 each at first; after a blue, blue is 19/99 and each other colour 20/99."""
    s = tilecraft.make("azul", players=2, chance="explicit")
    assert s.chance_outcomes() == [(c, pytest.approx(0.2)) for c in range(5)]
    draw(s, "B")
    assert s.chance_outcomes() == [(0, pytest.approx(19 / 99))] + [(c, pytest.approx(20 / 99)) for c in range(1, 5)]
    assert bag(s) == [19, 20, 20, 20, 20]


def test_AZ_SETUP_3_draws_are_random_in_sampled_mode():
    """AZ-SETUP-3: different seeds give different factory displays (they are drawn at random)."""
    displays = {tuple(map(tuple, tilecraft.make("azul", seed=seed).factories().tolist())) for seed in range(10)}
    assert len(displays) > 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_AZ_SETUP_4_AZ_SETUP_5_initial_boards(players):
    """AZ-SETUP-4, AZ-SETUP-5, AZ-COMP-4, AZ-COMP-5, AZ-COMP-6 (lid), AZ-COMP-7 (centre), AZ-COMP-8
    (score track): scores 0, empty walls, lines and floors; the marker in the
    centre, the lid empty, the centre without tiles."""
    s = tilecraft.make("azul", players=players, seed=2)
    assert list(s.scores()) == [0] * players                      # AZ-COMP-8
    assert s.walls().shape == (players, 5, 5) and not s.walls().any()  # AZ-COMP-4
    assert s.pattern_lines().shape == (players, 5, 2)
    assert all(tuple(x) == (-1, 0) for x in s.pattern_lines().reshape(-1, 2))
    assert all(floor_of(s, p) == (0, False, [0] * 5) for p in range(players))
    assert s.marker_in_centre()                                   # AZ-COMP-5
    assert lid(s) == [0] * 5                                      # AZ-COMP-6
    assert centre(s) == [0] * 5                                   # AZ-COMP-7


def test_AZ_COMP_3_nine_factories_in_play_at_four_players():
    """AZ-COMP-3, AZ-SETUP-1: with 4 players factory 9 is in play (its tiles can be taken);
    with 2 players factories 6..9 never appear in a legal action."""
    s = tilecraft.make("azul", players=4, seed=1)
    assert {a // 30 for a in legal(s)} == set(range(1, 10))
    for seed in range(3):
        t = tilecraft.make("azul", players=2, seed=seed)
        rng = random.Random(seed)
        while not t.is_terminal():
            acts = legal(t)
            assert max(a // 30 for a in acts) <= 5
            t.apply(rng.choice(sorted(acts)))


def test_AZ_COMP_9_board_parts():
    """AZ-COMP-9: 5 pattern lines (capacities 1..5, AZ-AMB-2), a 5 x 5 wall, a floor of 7 spaces (a full
    floor stays at 7; further tiles go to the lid, AZ-MOVE-10)."""
    s = position(factories={1: "BBBB", 2: "BBBB", 3: "YYYY", 4: "KKKK"})
    assert s.pattern_lines().shape[1] == 5 and s.walls().shape[1:] == (5, 5)
    s.apply(act(1, B, FLOOR))
    s.apply(act(3, 1, FLOOR))
    s.apply(act(2, B, FLOOR))
    assert floor_of(s, 0) == (7, False, [7, 0, 0, 0, 0])
    assert lid(s)[B] == 1


def test_AZ_COMP_5_exactly_one_marker_throughout_play():
    """AZ-COMP-5: at every player node of random games the marker is either in the centre or held by
    exactly one seat."""
    for players in (2, 4):
        s = tilecraft.make("azul", players=players, seed=players)
        rng = random.Random(players)
        while not s.is_terminal():
            holders = [p for p in range(players) if floor_of(s, p)[1]]
            assert len(holders) + int(s.marker_in_centre()) == 1
            s.apply(rng.choice(sorted(legal(s))))


def test_AZ_SETUP_6_AZ_AMB_5_default_first_player_is_seat_0():
    """AZ-SETUP-6, AZ-AMB-5: by default seat 0 takes the first turn of round 1."""
    for players in (2, 3, 4):
        assert tilecraft.make("azul", players=players, seed=4).current_player() == 0


@pytest.mark.parametrize("players,seat", [(2, 1), (3, 2), (4, 3)])
def test_AZ_AMB_5_first_player_option(players, seat):
    """AZ-AMB-5: first_player=s makes seat s start round 1."""
    assert tilecraft.make("azul", players=players, first_player=seat).current_player() == seat


@pytest.mark.parametrize("players", [2, 3, 4])
def test_AZ_AMB_5_random_first_player_chance_node(players):
    """AZ-AMB-5: first_player=-1 starts with a chance node of N equally likely seats; the chosen seat
    then starts round 1 after the factory fill."""
    s = tilecraft.make("azul", players=players, first_player=-1, chance="explicit")
    assert s.is_chance_node()
    assert s.chance_outcomes() == [(p, pytest.approx(1 / players)) for p in range(players)]
    s.apply(players - 1)
    run_draws_until_offer(s)
    assert s.current_player() == players - 1


def test_AZ_AMB_5_random_first_player_sampled():
    """AZ-AMB-5: in sampled mode the random first player varies with the seed and covers every seat."""
    seen = {tilecraft.make("azul", players=3, first_player=-1, seed=seed).current_player() for seed in range(60)}
    assert seen == {0, 1, 2}


def test_AZ_AMB_15_bag_and_lid_are_public_counts():
    """AZ-AMB-15: the lid's contents and the bag's counts are visible; the bag equals 20 per colour
    minus everything else visible; re-determinizing (resample_hidden) changes none of it."""
    s = tilecraft.make("azul", players=3, seed=8)
    rng = random.Random(8)
    for _ in range(40):
        if s.is_terminal():
            break
        s.apply(rng.choice(sorted(legal(s))))
    others = [t - b for t, b in zip(tile_totals(s), bag(s))]
    assert bag(s) == [20 - o for o in others]
    views = (bag(s), lid(s), s.factories().tolist(), s.walls().tolist(), s.pattern_lines().tolist())
    r = s.clone()
    r.resample_hidden(0, 99)
    assert (bag(r), lid(r), r.factories().tolist(), r.walls().tolist(), r.pattern_lines().tolist()) == views
