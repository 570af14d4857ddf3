"""Azul round structure, refill, end of game and outcome (spec sections 3, 7, 8: AZ-FLOW-1/4/5,
AZ-REFILL-*, AZ-END-*, AZ-EX-7, AZ-FAQ-5, AZ-AMB-6/13/14/16/17). Expectations are worked out from
the spec by hand."""
import pytest

import tilecraft
from azul_fixtures import (B, CENTRE, FLOOR, K, R, W, Y, act, bag, centre, draw, factory, floor_of,
                           legal, lid, line, position, run_draws_until_offer, score, tile_totals,
                           wall_has)

EMPTY = "....."


def tile_round(boards, last="K", dest=line(5), mover=0, players=2, **kw):
    s = position(players=players, factories={1: last}, boards=boards, current=mover, **kw)
    s.apply(act(1, last, dest))
    return s


# ---------------------------------------------------------------- a crowded 4-player table
# Every tile is on a wall or a pattern line; bag and lid are empty; factory 1 holds one red.
# Walls have 4 tiles per row (no complete row). Seat 0 misses columns 5,4,3,2,2 of rows 1..5, so
# its column 1 is complete and yellow (never missing) is complete: +7 +10 = +17 at the end.
# Seats 1..3 miss each column once and each colour once: no bonus.
# Missing colours (row 1..5): seat 0 W R B K R; seat 1 Y R K W B; seat 2 R K W B Y; seat 3 K W B Y R.
# Wall tiles per colour: 20 minus the misses: B 16, Y 17, R 15, K 16, W 16 = 80.
# Lines (each the missing colour of its row, never full): B 4, Y 3, R 4 (+1 in factory 1), K 4, W 4.
def crowded_boards(yellow_on_seat1_floor=False):
    boards = {
        0: dict(wall=["xxxx.", "xxx.x", "xx.xx", "x.xxx", "x.xxx"], lines={2: "R", 4: "KK", 5: "RR"}, score=10),
        1: dict(wall=["x.xxx", "xxx.x", ".xxxx", "xx.xx", "xxxx."], lines={3: "KK", 4: "WWW", 5: "BB"}, score=20),
        2: dict(wall=["xx.xx", "xxxx.", "x.xxx", "xxx.x", ".xxxx"], lines={4: "BB", 5: "YY"}, score=30),
        3: dict(wall=["xxx.x", ".xxxx", "xx.xx", "xxxx.", "x.xxx"], lines={2: "W", 4: "Y", 5: "R"}, score=40),
    }
    if yellow_on_seat1_floor:
        boards[3]["lines"] = {2: "W", 5: "R"}
        boards[1]["floor"] = "Y"
        boards[1]["score"] = 1
    return boards


def crowded(**kw):
    return position(players=4, factories={1: "R"}, bag="", lid="", **kw)


def test_AZ_AMB_17_no_tiles_left_ends_the_game_with_bonuses():
    """AZ-AMB-17, AZ-REFILL-3, AZ-END-2: seat 0 puts the last red on line 5 (3 of 5, not full). No line
    is full, no floor tile, bag and lid empty, so the refill finds no tile at all: the game ends at
    once with the end bonuses: seat 0 10 + 7 (column 1) + 10 (yellow) = 27; the others keep
    20/30/40; seat 3 wins."""
    s = crowded(boards=crowded_boards())
    assert tile_totals(s) == [20] * 5
    s.apply(act(1, R, line(5)))
    assert s.is_terminal()
    assert list(s.scores()) == [27, 20, 30, 40]
    assert s.winners() == [3]
    assert not s.walls()[:, :, :].all(axis=2).any(), "no row was completed"


def test_AZ_REFILL_3_partial_fill_when_bag_and_lid_run_out():
    """AZ-REFILL-3, AZ-REFILL-2, AZ-FAQ-5: the same table, but seat 0 sends the red to the floor
    (-1: 10 -> 9). The red goes to the lid; the refill pours the lid into the bag (1 red), draws it
    onto a factory and stops: the new round starts with one factory holding 1 red and every other
    factory empty. Nobody took from the centre, so seat 0 starts again (AZ-AMB-6)."""
    s = crowded(boards=crowded_boards())
    s.apply(act(1, R, FLOOR))
    assert score(s, 0) == 9
    assert s.is_chance_node()
    assert s.chance_outcomes() == [(R, 1.0)]
    assert bag(s) == [0, 0, 1, 0, 0] and lid(s) == [0] * 5
    s.apply(R)
    assert not s.is_chance_node() and not s.is_terminal()
    filled = [f for f in range(1, 10) if sum(factory(s, f))]
    assert len(filled) == 1  # which factory gets the tile is not specified
    f = filled[0]
    assert factory(s, f) == [0, 0, 1, 0, 0]
    assert centre(s) == [0] * 5 and s.marker_in_centre()
    assert s.current_player() == 0
    assert legal(s) == {act(f, R, d) for d in (line(2), line(5), FLOOR)}


def test_AZ_REFILL_3_sampled_mode_partial_fill():
    """AZ-REFILL-3 (sampled chance): the same partial refill happens inside apply()."""
    s = crowded(boards=crowded_boards(), chance="sampled")
    s.apply(act(1, R, FLOOR))
    assert sorted(tuple(factory(s, f)) for f in range(1, 10))[-1] == (0, 0, 1, 0, 0)
    assert sum(sum(factory(s, f)) for f in range(1, 10)) == 1
    assert s.current_player() == 0


def test_AZ_FAQ_5_clamp_floor_to_lid_marker_kept_refill_from_lid():
    """AZ-FAQ-5: seat 1 (score 1) holds the marker and 1 yellow on its floor: -1 -1 clamps to 0; the
    yellow goes to the lid; seat 0's red floor tile too. The bag is empty, so the lid (1 yellow,
    1 red) is poured into the bag and drawn onto the factories, and filling stops there. Seat 1, the
    marker holder, starts the new round and the marker is back in the centre."""
    s = crowded(boards=crowded_boards(yellow_on_seat1_floor=True), marker=1)
    s.apply(act(1, R, FLOOR))
    assert score(s, 1) == 0
    assert lid(s) == [0] * 5 and bag(s) == [0, 1, 1, 0, 0]
    assert sorted(o for o, _ in s.chance_outcomes()) == [Y, R]
    draw(s, "YR")
    assert [int(x) for x in s.factories()[1:].sum(axis=0)] == [0, 1, 1, 0, 0]
    assert max(sum(factory(s, f)) for f in range(1, 10)) <= 2
    assert s.current_player() == 1 and s.marker_in_centre()


def test_AZ_REFILL_2_lid_poured_into_bag_when_bag_empties():
    """AZ-REFILL-2: the bag holds only 1 blue and 2 yellow; everything unused is in the lid. The round
    ends (seat 1's full red line 2 sends 1 red to the lid). The first 3 draws can only be blue or
    yellow (probabilities 1/3, 2/3); then the whole lid goes into the bag and drawing continues
    until all 5 factories hold 4 tiles."""
    s = position(factories={1: "K"}, bag="BYY", spare="lid", boards={1: dict(lines={2: "RR"})})
    s.apply(act(1, K, line(5)))
    lid_after_tiling = lid(s)
    assert s.chance_outcomes() == [(B, pytest.approx(1 / 3)), (Y, pytest.approx(2 / 3))]
    draw(s, "YBY")
    assert lid(s) == [0] * 5
    assert bag(s) == lid_after_tiling
    total = sum(lid_after_tiling)
    assert s.chance_outcomes() == [(c, pytest.approx(n / total)) for c, n in enumerate(lid_after_tiling) if n]
    run_draws_until_offer(s)
    assert all(sum(factory(s, f)) == 4 for f in range(1, 6))
    assert tile_totals(s) == [20] * 5


@pytest.mark.parametrize("players,factories", [(2, 5), (3, 7), (4, 9)])
def test_AZ_REFILL_1_every_factory_gets_4_tiles(players, factories):
    """AZ-REFILL-1, AZ-FLOW-1, AZ-FLOW-4: after the offer ends (no row completed) wall-tiling runs with
    no player node, then 4 x F draws refill the factories, then the offer starts."""
    boards = {1: dict(lines={1: "B"})}
    s = tile_round(boards, players=players)
    assert s.is_chance_node() and s.current_player() == tilecraft.CHANCE
    assert wall_has(s, 1, 1, 1) and score(s, 1) == 1  # wall-tiling already happened
    assert run_draws_until_offer(s) == 4 * factories
    assert all(sum(factory(s, f)) == 4 for f in range(1, factories + 1))
    assert centre(s) == [0] * 5 and s.marker_in_centre()
    assert s.round() == 1


def test_AZ_REFILL_1_sampled_mode():
    """AZ-REFILL-1 (sampled chance): the refill happens inside apply()."""
    s = tile_round({}, players=3, chance="sampled")
    assert not s.is_chance_node()
    assert all(sum(factory(s, f)) == 4 for f in range(1, 8))
    assert sum(bag(s)) == 100 - 1 - 28  # one black on seat 0's line 5, 28 tiles on display


def test_AZ_REFILL_4_marker_holder_starts_next_round():
    """AZ-REFILL-4, AZ-FLOW-5: 3 players, this round started with seat 0, seat 2 took the marker:
    seat 2 starts the next round and the marker is back in the centre (AZ-AMB-6)."""
    s = tile_round({2: dict(floor="")}, players=3, marker=2)
    run_draws_until_offer(s)
    assert s.current_player() == 2
    assert s.marker_in_centre()
    assert all(not floor_of(s, p)[1] for p in range(3))


def test_AZ_AMB_6_marker_never_taken_same_first_player():
    """AZ-AMB-6, AZ-SETUP-5: a fresh 2-player game with first_player=1; every factory is drawn
    single-coloured, so every take is a whole factory and nothing reaches the centre: the marker is
    never taken and seat 1 starts round 2 as well. The marker is in the centre at both starts."""
    s = tilecraft.make("azul", players=2, seed=3, chance="explicit", first_player=1)
    draw(s, "BBBB" "YYYY" "RRRR" "KKKK" "WWWW")
    assert s.marker_in_centre() and s.current_player() == 1
    for f, c in enumerate("BYRKW", start=1):
        s.apply(act(f, c, FLOOR))
        assert s.marker_in_centre()  # never taken, and back in the centre when round 2 starts
        assert s.round() == (0 if f < 5 else 1)
    run_draws_until_offer(s)
    assert s.current_player() == 1 and s.marker_in_centre()


def test_AZ_AMB_6_centre_taker_starts_next_round():
    """AZ-AMB-6, AZ-MOVE-4, AZ-FLOW-5: the same start, but seat 0 is the first to take from the
    centre: seat 0 starts round 2."""
    s = tilecraft.make("azul", players=2, seed=3, chance="explicit", first_player=1)
    draw(s, "BBBY" "YYYY" "RRRR" "KKKK" "WWWW")
    s.apply(act(1, B, FLOOR))  # seat 1: yellow to the centre
    s.apply(act(CENTRE, Y, FLOOR))  # seat 0 takes the marker
    for f, c in ((2, Y), (3, R), (4, K), (5, W)):
        s.apply(act(f, c, FLOOR))
    assert s.round() == 1
    run_draws_until_offer(s)
    assert s.current_player() == 0 and s.marker_in_centre()


# ---------------------------------------------------------------- end of the game

def test_AZ_END_1_completed_row_ends_after_tiling_and_penalties():
    """AZ-END-1, AZ-FLOW-5: seat 1 completes row 1 (line 1 white: h = 5 -> +5). The round still
    finishes for everyone: seat 0's full line 1 blue (+1) and its 2 floor tiles (-2) count too. Then
    the game ends: no refill (the bag is untouched, the factories stay empty). Bonuses: seat 1 +2."""
    s = position(factories={1: "K"},
                 boards={0: dict(lines={1: "B"}, floor="RR", score=5),
                         1: dict(wall=["xxxx.", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "W"}, score=10)})
    bag_before = bag(s)
    s.apply(act(1, K, line(5)))
    assert s.is_terminal() and s.current_player() == tilecraft.TERMINAL
    assert score(s, 0) == 5 + 1 - 2
    assert score(s, 1) == 10 + 5 + 2
    assert bag(s) == bag_before
    assert all(sum(factory(s, f)) == 0 for f in range(0, 6))
    assert legal(s) == set()


def test_AZ_EX_7_row_column_colour_bonus_19():
    """AZ-EX-7, AZ-END-2: seat 1 ends with 1 complete row (row 1, completed now by the white: +5),
    1 complete column (column 1) and 1 complete colour (blue, the diagonal): +2 +7 +10 = +19:
    10 + 5 + 19 = 34."""
    s = tile_round({1: dict(wall=["xxxx.", "xx...", "x.x..", "x..x.", "x...x"], lines={1: "W"}, score=10)})
    assert s.is_terminal()
    assert score(s, 1) == 34


@pytest.mark.parametrize("wall,bonus", [
    (["..x..", "..x..", "..x..", "..x..", "..x.."], 7),   # column 3
    (["..R..", "...R.", "....R", "R....", ".R..."], 10),  # all five reds
    (["x...x", "x...x", "x...x", "x...x", "x...x"], 14),  # columns 1 and 5
    ([EMPTY] * 5, 0),
], ids=["AZ-END-2-column-7", "AZ-END-2-colour-10", "AZ-END-2-two-columns-14", "AZ-END-2-none"])
def test_AZ_END_2_bonuses_for_every_player(wall, bonus):
    """AZ-END-2: seat 0 ends the game (completes row 1: +5 +2); seat 1, with no complete row, still
    gets its column/colour bonuses."""
    s = tile_round({0: dict(wall=["xxxx.", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "W"}),
                    1: dict(wall=wall, score=3)}, dest=line(4))
    assert s.is_terminal()
    assert score(s, 0) == 7
    assert score(s, 1) == 3 + bonus


def test_AZ_END_2_two_rows_completed_in_one_round():
    """AZ-END-2, AZ-WALL-1: seat 1 completes rows 1 and 2 (line 1 white, line 2 black, both landing in
    column 5): white h=5 -> 5, then black h=5, v=2 -> 7; bonuses 2 rows +4: 16."""
    s = tile_round({1: dict(wall=["xxxx.", "xxxx.", EMPTY, EMPTY, EMPTY], lines={1: "W", 2: "KK"})})
    assert s.is_terminal()
    assert score(s, 1) == 16
    assert s.complete_rows(1) == 2


def test_AZ_END_3_highest_score_wins():
    """AZ-END-3: seat 1 finishes with 10 + 5 + 2 = 17 against 16: seat 1 wins."""
    s = tile_round({0: dict(score=16), 1: dict(wall=["xxxx.", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "W"}, score=10)})
    assert list(s.scores()) == [16, 17]
    assert s.winners() == [1]


@pytest.mark.parametrize("high", [0, 1])
def test_AZ_END_3_higher_score_wins_with_fewer_rows(high):
    """AZ-END-3 before AZ-END-4: the seat with more complete rows but fewer points loses. Seat
    `high` completes no row and ends on 30; the other completes one row (+5 +2 from 10: 17)."""
    low = 1 - high
    boards = {low: dict(wall=["xxxx.", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "W"}, score=10),
              high: dict(score=30)}
    s = tile_round(boards, mover=low)
    scores = list(s.scores())
    assert scores[high] == 30 and scores[low] == 17
    assert s.winners() == [high]


@pytest.mark.parametrize("row_seat", [0, 1])
def test_AZ_END_4_tie_broken_by_complete_rows(row_seat):
    """AZ-END-4: both end on 17; the seat that completed a row (+5 +2 from 10) beats the seat with
    17 and no row, whichever seat it is."""
    other = 1 - row_seat
    boards = {row_seat: dict(wall=["xxxx.", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "W"}, score=10),
              other: dict(score=17)}
    s = tile_round(boards, mover=other)
    assert list(s.scores()) == [17, 17]
    assert s.winners() == [row_seat]


def test_AZ_END_4_shared_victory():
    """AZ-END-4, AZ-AMB-14: both complete one row and end on 17: they share the victory; in win_loss
    mode each gets 1/2."""
    board = dict(wall=["xxxx.", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "W"}, score=10)
    for mode, expected in (("score", [17, 17]), ("win_loss", [0.5, 0.5])):
        s = tile_round({0: board, 1: dict(board)}, returns_mode=mode)
        assert s.winners() == [0, 1]
        assert list(s.returns()) == pytest.approx(expected)


def test_AZ_AMB_14_win_loss_three_players():
    """AZ-AMB-14, AZ-END-4: 3 players; seats 0 and 2 tie on 17 with one row each, seat 1 has 17
    without a row: seats 0 and 2 share the win (1/2 each), seat 1 gets 0."""
    board = dict(wall=["xxxx.", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "W"}, score=10)
    s = tile_round({0: board, 1: dict(score=17), 2: dict(board)}, players=3, mover=1, returns_mode="win_loss")
    assert list(s.scores()) == [17, 17, 17]
    assert s.winners() == [0, 2]
    assert list(s.returns()) == pytest.approx([0.5, 0.0, 0.5])


def test_AZ_AMB_14_returns_modes_sole_winner():
    """AZ-AMB-14: score mode (the default) returns the final scores; win_loss gives 1 to the sole
    winner and 0 to the others; before the end returns are all 0."""
    boards = {0: dict(score=16), 1: dict(wall=["xxxx.", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "W"}, score=10)}
    s = tile_round(boards)
    assert list(s.returns()) == [16, 17]
    s = tile_round(boards, returns_mode="win_loss")
    assert list(s.returns()) == [0.0, 1.0]
    assert list(tilecraft.make("azul", returns_mode="win_loss").returns()) == [0.0, 0.0]


def test_AZ_AMB_13_complete_column_does_not_end_the_game():
    """AZ-AMB-13: seat 1 completes column 1 (line 1 blue, v = 5 -> +5) but no row: the game goes on
    (refill, round 2), and the column bonus is not paid yet."""
    s = tile_round({1: dict(wall=[EMPTY, "x....", "x....", "x....", "x...."], lines={1: "B"})})
    assert not s.is_terminal()
    assert score(s, 1) == 5
    assert s.is_chance_node() and s.round() == 1


def test_AZ_AMB_13_complete_colour_does_not_end_the_game():
    """AZ-AMB-13: seat 1 places its fifth blue (line 5 -> row 5, col 5; isolated: +1); no row: the game
    goes on."""
    s = tile_round({1: dict(wall=["B....", ".B...", "..B..", "...B.", EMPTY], lines={5: "BBBBB"})}, dest=line(4))
    assert not s.is_terminal()
    assert score(s, 1) == 1


def test_AZ_AMB_16_max_rounds_cap_ends_the_game():
    """AZ-AMB-16: with max_rounds=2, the end of round 2 (index 1) ends the game although no row is
    complete, and the end bonuses are applied (seat 1's column 1: +7). With max_rounds=3 the same
    position goes on to a refill."""
    boards = {1: dict(wall=["x....", "x....", "x....", "x....", "x...."], score=4)}
    s = tile_round(boards, round=1, max_rounds=2)
    assert s.is_terminal()
    assert score(s, 1) == 11
    s = tile_round(boards, round=1, max_rounds=3)
    assert not s.is_terminal() and score(s, 1) == 4


def test_AZ_AMB_16_max_rounds_one_in_real_play():
    """AZ-AMB-16: a random game with max_rounds=1 ends right after its first round."""
    import random
    s = tilecraft.make("azul", players=3, seed=5, max_rounds=1)
    rng = random.Random(5)
    while not s.is_terminal():
        assert s.round() == 0
        s.apply(int(rng.choice(list(s.legal_actions()))))
    assert s.round() == 1


def test_AZ_FLOW_1_phases_in_order():
    """AZ-FLOW-1: offer (player nodes) -> wall-tiling and penalties (automatic) -> preparation
    (the refill's chance nodes) -> the next offer, with the round counter advanced."""
    s = tile_round({1: dict(lines={2: "YY"}, floor="B", score=3)})
    assert wall_has(s, 1, 2, 3) and score(s, 1) == 3 + 1 - 1  # tiled and penalised already
    assert s.is_chance_node()
    n = run_draws_until_offer(s)
    assert n == 20 and s.current_player() == 0 and s.round() == 1


def test_AZ_REFILL_1_draw_probabilities_follow_the_bag_in_sampled_mode():
    """AZ-REFILL-1 / spec 11.3 (sampled chance): a tile is drawn with probability bag[c] / total. The
    bag holds 20 blue and 5 yellow; the refill draws 20 of these 25: the number of blues is
    hypergeometric with mean 20 * 20/25 = 16 and standard deviation about 0.82; over 300 seeds the
    mean must be within 0.3 of 16 (more than 6 standard errors)."""
    blues = []
    for seed in range(300):
        s = position(factories={1: "K"}, bag={"B": 20, "Y": 5}, spare="lid", chance="sampled", seed=seed)
        s.apply(act(1, K, line(5)))
        shown = [sum(factory(s, f)[c] for f in range(1, 6)) for c in range(5)]
        assert sum(shown) == 20 and shown[B] + shown[Y] == 20
        blues.append(shown[B])
    assert abs(sum(blues) / len(blues) - 16) < 0.3
    assert len(set(blues)) > 1


def test_AZ_AMB_16_capped_final_state_round_trips_through_json():
    """AZ-AMB-16: the final state of a game ended by the cap is a normal final state: it reloads from
    its own JSON with the same scores and winners."""
    boards = {1: dict(wall=["x....", "x....", "x....", "x....", "x...."], score=4)}
    s = tile_round(boards, round=1, max_rounds=2)
    assert s.is_terminal()
    t = tilecraft.from_json(s.to_json())
    assert t.is_terminal() and list(t.scores()) == list(s.scores()) and t.winners() == s.winners()
