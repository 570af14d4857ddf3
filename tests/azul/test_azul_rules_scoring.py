"""Azul wall-tiling, placement scoring and floor penalties (spec sections 5 and 6: AZ-WALL-*,
AZ-SCORE-*, AZ-FLOOR-*, AZ-EX-4..8, AZ-FAQ-3/4, AZ-AMB-2/3/4/11/18).

Each test builds the end of a factory offer: factory 1 holds one last tile which the mover (seat 0
unless stated) puts on its empty line 5, so the mover scores nothing, the offer ends and
wall-tiling runs. Chance is explicit, so the state then stops at the first refill draw and the
round's result can be read before anything is drawn. Expected points are worked out by hand from
the formula of section 5 (h, v = lengths of the runs through the new tile)."""
import pytest

from azul_fixtures import (B, K, PENALTY, R, W, act, floor_of, lid, line, line_of, position,
                           score, wall_has)


def tile_round(boards, last="K", dest=line(5), mover=0, players=2, **kw):
    s = position(players=players, factories={1: last}, boards=boards, current=mover, **kw)
    s.apply(act(1, last, dest))
    assert s.round() == 1, "the offer should have ended"
    return s


EMPTY = "....."

# (id, wall of seat 1 before tiling, seat 1's lines, points the round must give seat 1)
SCORE_CASES = [
    ("AZ-SCORE-1-isolated", [EMPTY] * 5, {1: "B"}, 1),
    ("AZ-SCORE-2-horizontal-run-of-3", [".xx..", EMPTY, EMPTY, EMPTY, EMPTY], {1: "B"}, 3),
    ("AZ-SCORE-2-new-tile-in-the-middle", ["x.x..", EMPTY, EMPTY, EMPTY, EMPTY], {1: "Y"}, 3),
    ("AZ-SCORE-3-vertical-run-of-3", [EMPTY, "x....", "x....", EMPTY, EMPTY], {1: "B"}, 3),
    ("AZ-SCORE-3-vertical-from-below", [EMPTY, EMPTY, EMPTY, "x....", "x...."], {3: "KKK"}, 3),
    ("AZ-SCORE-4-AZ-EX-4-AZ-FAQ-4-h2-v2-scores-4", [".x...", "x....", EMPTY, EMPTY, EMPTY], {1: "B"}, 4),
    ("AZ-SCORE-4-h4-v3-scores-7", [EMPTY, "..x..", "xx.x.", "..x..", EMPTY], {3: "BBB"}, 7),
    ("AZ-EX-5-h3-v2-scores-5", [EMPTY, "xx...", "..x..", EMPTY, EMPTY], {2: "YY"}, 5),
    ("AZ-SCORE-5-AZ-FAQ-4-diagonal-only", [EMPTY, ".x...", EMPTY, EMPTY, EMPTY], {1: "B"}, 1),
    ("AZ-SCORE-5-AZ-FAQ-4-gap-in-row", ["..x.x", EMPTY, EMPTY, EMPTY, EMPTY], {1: "B"}, 1),
    ("AZ-SCORE-5-gap-in-column", [EMPTY, EMPTY, "x....", "x....", EMPTY], {1: "B"}, 1),
    ("AZ-SCORE-5-row-end-does-not-wrap-forward", ["....x", EMPTY, EMPTY, EMPTY, EMPTY], {2: "WW"}, 1),
    ("AZ-SCORE-5-row-end-does-not-wrap-back", [EMPTY, "x....", EMPTY, EMPTY, EMPTY], {1: "W"}, 1),
    ("AZ-SCORE-5-right-edge-to-next-row", [EMPTY, EMPTY, "x....", EMPTY, EMPTY], {2: "KK"}, 1),
    ("AZ-SCORE-2-gap-stops-the-run", ["x.xxx", EMPTY, EMPTY, EMPTY, EMPTY], {2: "WW"}, 2),
]


@pytest.mark.parametrize("wall,lines,points", [c[1:] for c in SCORE_CASES], ids=[c[0] for c in SCORE_CASES])
def test_AZ_SCORE_placement_points(wall, lines, points):
    """AZ-SCORE-1, AZ-SCORE-2, AZ-SCORE-3, AZ-SCORE-4, AZ-SCORE-5, AZ-EX-4, AZ-EX-5, AZ-FAQ-4:
    the placed tile scores 1 if isolated, else (h if h > 1) + (v if v > 1); diagonals and gaps do not connect, nor does the
    end of one wall row touch the start of the next."""
    s = tile_round({1: dict(wall=wall, lines=lines, score=10)})
    assert score(s, 1) == 10 + points
    assert score(s, 0) == 0


def test_AZ_SCORE_2_gap_case_layout_check():
    """AZ-SCORE-2 (layout of the 'gap stops the run' case): white of line 2 lands at (row 2, col 1),
    under (row 1, col 1), so v = 2 and the row-1 tiles beyond the gap do not count: 2 points."""
    s = tile_round({1: dict(wall=["x.xxx", EMPTY, EMPTY, EMPTY, EMPTY], lines={2: "WW"})})
    assert wall_has(s, 1, 2, 1)


def test_AZ_WALL_1_lines_scored_top_to_bottom_one_at_a_time():
    """AZ-WALL-1, AZ-WALL-2 step 2, AZ-FAQ-3: wall (row 1, col 2) is filled; line 1 (blue -> row 1,
    col 1) and line 2 (white -> row 2, col 1) are full. Top to bottom, each scored at once:
    blue h=2 -> 2, then white v=2 -> 2: total 4. (Bottom-up would give 1 + 4 = 5; placing both
    before scoring would give 4 + 2 = 6.)"""
    s = tile_round({1: dict(wall=[".x...", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "B", 2: "WW"})})
    assert score(s, 1) == 4
    assert wall_has(s, 1, 1, 1) and wall_has(s, 1, 2, 1)


def test_AZ_AMB_11_every_player_is_tiled_and_independently():
    """AZ-AMB-11, AZ-FLOW-4, AZ-WALL-1: both seats have the same board as above; both score 4 in the
    same wall-tiling, whatever the processing order. Seat 0 also puts the last tile on its line 5."""
    board = dict(wall=[".x...", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "B", 2: "WW"})
    s = tile_round({0: board, 1: dict(board)})
    assert list(s.scores()) == [4, 4]
    assert line_of(s, 0, 5) == (K, 1)


def test_AZ_EX_8_rightmost_tile_to_wall_rest_to_lid():
    """AZ-EX-8, AZ-WALL-2: line 3 holds 3 red: one red goes to row 3's red space (col 5) and scores
    1; the other 2 reds go to the lid. The line is emptied."""
    s = tile_round({1: dict(lines={3: "RRR"})})
    assert wall_has(s, 1, 3, 5)
    assert int(s.walls()[1].sum()) == 1
    assert score(s, 1) == 1
    assert lid(s) == [0, 0, 2, 0, 0]
    assert line_of(s, 1, 3) == (-1, 0)


def test_AZ_WALL_2_each_full_line_sends_k_minus_1_to_the_lid():
    """AZ-WALL-2 step 3: full lines 1..5 (blue, white, black, red, yellow) send 0+1+2+3+4 tiles to the
    lid: white 1, black 2, red 3, yellow 4. Seat 1's new tiles are all in column 1 (the layout puts
    each of these colours there): scored top to bottom 1 + 2 + 3 + 4 + 5 = 15."""
    s = tile_round({1: dict(lines={1: "B", 2: "WW", 3: "KKK", 4: "RRRR", 5: "YYYYY"})})
    assert lid(s) == [0, 4, 3, 2, 1]
    assert [wall_has(s, 1, r, 1) for r in range(1, 6)] == [True] * 5
    assert score(s, 1) == 15


def test_AZ_WALL_3_lines_that_are_not_full_stay():
    """AZ-WALL-3, AZ-FAQ-3: line 4 holds 2 red and line 5 holds 4 white: both stay as they are into
    the next round; nothing of them reaches the wall or the lid."""
    s = tile_round({1: dict(lines={4: "RR", 5: "WWWW"})})
    assert line_of(s, 1, 4) == (R, 2)
    assert line_of(s, 1, 5) == (W, 4)
    assert not s.walls()[1].any()
    assert lid(s) == [0] * 5


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_AZ_AMB_2_line_k_is_full_with_k_tiles(k):
    """AZ-AMB-2: line k holds k tiles and is tiled then; with k-1 tiles (k > 1) it is not. Taking
    k+1 tiles to an empty line k puts k on the line and 1 on the floor."""
    full = tile_round({1: dict(lines={k: "B" * k})})
    assert full.walls()[1].sum() == 1 and line_of(full, 1, k) == (-1, 0)
    if k > 1:
        short = tile_round({1: dict(lines={k: "B" * (k - 1)})})
        assert not short.walls()[1].any() and line_of(short, 1, k) == (B, k - 1)
    s = position(centre="R" * (k + 1), factories={2: "YYYY"})
    s.apply(act(0, R, line(k)))
    assert line_of(s, 0, k) == (R, k)
    assert floor_of(s, 0)[2][R] == 1


# AZ-AMB-3 table, copied letter by letter from the spec (B blue, Y yellow, R red, K black, W white)
SPEC_WALL = ["BYRKW",
             "WBYRK",
             "KWBYR",
             "RKWBY",
             "YRKWB"]


@pytest.mark.parametrize("c", range(5), ids=["blue", "yellow", "red", "black", "white"])
def test_AZ_AMB_3_wall_layout(c):
    """AZ-AMB-3, AZ-SCOPE-1 (coloured wall), AZ-COMP-9 (b): all five lines full of one colour: each
    row's tile lands on that colour's space of the spec's table. The five tiles form a diagonal
    with no orthogonal contact, so each scores 1."""
    letter = "BYRKW"[c]
    s = tile_round({1: dict(lines={k: letter * k for k in range(1, 6)})})
    walls = s.walls()[1]
    for r in range(5):
        assert [bool(x) for x in walls[r]] == [SPEC_WALL[r][col] == letter for col in range(5)], r
    assert score(s, 1) == 5


# ---------------------------------------------------------------- floor penalties

CUMULATIVE = [sum(PENALTY[:n]) for n in range(8)]  # AZ-AMB-4: 0 1 2 4 6 8 11 14


@pytest.mark.parametrize("n", range(8))
def test_AZ_FLOOR_1_AZ_AMB_4_penalty_per_occupied_space(n):
    """AZ-FLOOR-1, AZ-AMB-4: n occupied floor spaces cost the sum of the first n of 1 1 2 2 2 3 3."""
    expected = [0, 1, 2, 4, 6, 8, 11, 14][n]
    assert CUMULATIVE[n] == expected
    s = tile_round({1: dict(floor="Y" * n, score=20)})
    assert score(s, 1) == 20 - expected


@pytest.mark.parametrize("n", range(7))
def test_AZ_FLOOR_2_marker_space_is_penalised_like_a_tile(n):
    """AZ-FLOOR-2: the marker plus n tiles occupy n+1 spaces and cost like n+1 tiles."""
    s = tile_round({1: dict(floor="R" * n, score=20)}, marker=1)
    assert score(s, 1) == 20 - [1, 2, 4, 6, 8, 11, 14][n]


def test_AZ_EX_6_marker_and_two_tiles_from_3_to_0():
    """AZ-EX-6, AZ-FLOOR-3: marker + 2 tiles = -1 -1 -2 = -4; a score of 3 becomes 0, not -1."""
    s = tile_round({1: dict(floor="BB", score=3)}, marker=1)
    assert score(s, 1) == 0


def test_AZ_FLOOR_3_score_never_below_zero():
    """AZ-FLOOR-3: score 2, full floor (-14): 0."""
    s = tile_round({1: dict(floor="KKKKKKK", score=2)})
    assert score(s, 1) == 0


def test_AZ_FLOOR_3_clamp_comes_after_the_round_total():
    """AZ-FLOOR-3, AZ-FLOOR-1: score 0; the placed blue scores 3 (h = 3), then 2 floor tiles cost 2:
    0 + 3 - 2 = 1 (clamping the penalty before adding the points would give 3)."""
    s = tile_round({1: dict(wall=[".xx..", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "B"}, floor="RR")})
    assert score(s, 1) == 1


def test_AZ_FLOOR_4_floor_to_lid_marker_stays_with_holder():
    """AZ-FLOOR-4, AZ-FAQ-5: seat 1's floor (marker + 2 yellow + 1 red) is cleared: the tiles go to
    the lid, the seat keeps the marker's effect and starts the next round (AZ-REFILL-4); when that
    round starts the marker is back in the centre (AZ-AMB-6)."""
    s = tile_round({1: dict(floor="YYR", score=10)}, marker=1)
    assert lid(s) == [0, 2, 1, 0, 0]
    assert floor_of(s, 0) == (0, False, [0] * 5)
    assert floor_of(s, 1) == (0, True, [0] * 5)  # emptied floor; seat 1 still holds the marker
    assert s.next_first_player() == 1
    assert score(s, 1) == 10 - 6
    while s.is_chance_node():
        s.apply(int(s.legal_actions()[0]))
    assert s.current_player() == 1
    assert s.marker_in_centre()


def test_AZ_AMB_18_clamp_then_end_bonus():
    """AZ-AMB-18, AZ-FLOOR-3, AZ-END-2: score 0; line 1's white completes row 1 (h = 5: +5); a full
    floor costs 14: 0 + 5 - 14 clamps to 0, then the row bonus +2 gives 2 (not 0)."""
    s = tile_round({1: dict(wall=["xxxx.", EMPTY, EMPTY, EMPTY, EMPTY], lines={1: "W"}, floor="RRRRRRR")})
    assert s.is_terminal()
    assert score(s, 1) == 2


def test_AZ_FLOOR_4_holder_keeps_the_marker_until_the_next_round_starts():
    """AZ-FLOOR-4, AZ-AMB-6, AZ-FLOW-1: the floor is cleared, but the marker stays with seat 1 through
    the preparation phase (the refill belongs to the ending round); it returns to the centre when the
    next round starts."""
    s = tile_round({1: dict(floor="YY")}, marker=1)
    assert s.is_chance_node()  # preparation: the refill's first draw
    assert floor_of(s, 1)[:2] == (0, True)
    assert not s.marker_in_centre()
