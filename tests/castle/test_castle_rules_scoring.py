"""Areas, completion and scoring during play: paths, towers, houses, keeps, majority (CA-ROAD-*,
CA-TOWER-*, CA-HOUSE-*, CA-PALACE-1, CA-AREA-*, CA-MERGE-*, CA-MAJ-1, CA-SCORE-*) and the
worked examples CA-EX-1..7, 12, 13. Every expected score is counted by hand from the layout."""
import tilecraft
from test_castle_helpers import (CURVE, HOUSE, KEEP, PHASE, ROAD, SQUARE3, STRAIGHT, TOWER, Game, tile)

STRAIGHTW = tile("straightw", "HRH HHH HRH HHH", well=True)
ENDT = tile("endt", "TRT TTT TTT TTT")   # path from N ends in a tower
ENDH = tile("endh", "HRH HHH HHH HHH")   # path from N ends in a house
FORK = tile("fork", "HRH HRH HHH HRH")   # paths N, E, W: one path with three branches


def test_ca_ex_1_path_between_two_squares():
    """CA-EX-1, CA-ROAD-1, CA-ROAD-4, CA-SCORE-2: a path bounded by two squares over 3 tiles scores 3."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [STRAIGHT, SQUARE3])
    g.turn("straight", (0, 1), 1, seg="N1")  # seat 0 on the path
    g.turn("square3", (0, 0), 0)             # seat 1: the path ends at a square on the west
    assert g.scores() == [0, 0] and g.s.followers_in_supply(0) == 5
    g.turn("square3", (0, 2), 0)             # seat 0 closes it with a square on the east
    assert g.scores() == [3, 0]
    assert g.s.followers_in_supply(0) == 6   # CA-SCORE-2: the follower came back


def test_ca_ex_4_path_ends_at_square_and_tower():
    """CA-EX-4, CA-ROAD-1: a path blocked by a square on the left and a tower on the right is complete."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [STRAIGHT, SQUARE3, ENDT])
    g.turn("straight", (0, 1), 1, seg="N1")
    g.turn("square3", (0, 0), 0)
    g.turn("endt", (0, 2), 3)  # the tower tile's path points west
    assert g.scores() == [3, 0]


def test_ca_ex_3_and_road_5_fountain_doubles():
    """CA-EX-3, CA-ROAD-5: a 4-tile path with a fountain scores 4 x 2 = 8; a second fountain adds nothing."""
    g = Game(["XXXX"], [(0, 1, "N", "HHH")], [STRAIGHTW, SQUARE3])
    g.turn("straightw", (0, 1), 1, seg="N1")
    g.turn("square3", (0, 0), 0)
    g.turn("straightw", (0, 2), 1)
    assert g.scores() == [0, 0]
    g.turn("square3", (0, 3), 0)
    assert g.scores() == [8, 0]


def test_ca_ex_13_and_road_6_gate_counts_as_a_tile():
    """CA-EX-13, CA-ROAD-6: a 2-tile path from a gate to a square scores (2 + 1) = 3; 6 with a fountain."""
    for straight, expect in ((STRAIGHT, 3), (STRAIGHTW, 6)):
        g = Game(["XX"], [(0, 0, "W", "HRH"), (0, 1, "N", "HHH")], [straight, SQUARE3])
        g.turn(straight["id"], (0, 0), 1, seg="N1")
        g.turn("square3", (0, 1), 0)
        assert g.scores() == [expect, 0]


def test_ca_road_2_loop():
    """CA-ROAD-2: a closed loop of 4 curves is complete and scores 4."""
    g = Game(["XX", "XX"], [(0, 0, "N", "HHH")], [CURVE])
    g.turn("curve", (0, 0), 1, seg="N1")  # paths E, S
    g.turn("curve", (0, 1), 2)            # paths S, W
    g.turn("curve", (1, 1), 3)            # paths W, N
    assert g.scores() == [0, 0]
    g.turn("curve", (1, 0), 0)            # paths N, E: the loop closes
    assert g.scores() == [4, 0]


def test_ca_ex_2_and_road_3_branching_path_scores_when_every_branch_ends():
    """CA-EX-2, CA-ROAD-3, CA-AMB-18: a forked path with branches ending at a house, a tower and a
    square spans 8 tiles and scores 8 only once the last branch is closed."""
    g = Game(["XXXXX", "XXXXX", "XXXXX"], [(0, 2, "N", "HHH")], [CURVE, FORK, STRAIGHT, ENDH, ENDT, SQUARE3])
    g.turn("curve", (0, 2), 1, seg="N1")  # seat 0's path: E and S
    g.turn("fork", (1, 2), 0)             # branches N (to the curve), E, W
    g.turn("straight", (0, 3), 1)
    g.turn("endh", (0, 4), 3)             # branch 1 ends in a house
    g.turn("straight", (1, 3), 1)
    g.turn("endt", (1, 4), 3)             # branch 2 ends in a tower
    g.turn("straight", (1, 1), 1)
    assert g.scores() == [0, 0]           # the west branch is still open
    assert g.area(0, 2, "curve", "N1")["tiles"] == 7
    g.turn("square3", (1, 0), 0)          # branch 3 ends at a square (placed by seat 1)
    assert g.scores() == [8, 0]


def test_ca_road_7_merge_2_tie_scores_nothing():
    """CA-ROAD-7, CA-MERGE-1, CA-MERGE-2, CA-MAJ-1, CA-SCORE-2: a merged path with one follower each is a
    tie: nobody scores, both followers return."""
    g = Game(["XXXXX"], [(0, 1, "N", "HHH"), (0, 3, "N", "HHH")], [STRAIGHT, SQUARE3])
    g.turn("straight", (0, 1), 1, seg="N1")
    g.turn("straight", (0, 3), 1, seg="N1")
    g.turn("square3", (0, 0), 0)
    g.turn("square3", (0, 4), 0)
    g.turn("straight", (0, 2), 1)  # merges both paths and completes them
    assert g.scores() == [0, 0]
    assert g.s.followers_in_supply(0) == 6 and g.s.followers_in_supply(1) == 6


def test_ca_merge_2_majority_takes_all():
    """CA-MERGE-1, CA-MERGE-2, CA-MAJ-1: 2 followers against 1 on a merged 7-tile path: the majority scores 7."""
    g = Game(["XXXXXXX"], [(0, 1, "N", "HHH"), (0, 3, "N", "HHH"), (0, 5, "N", "HHH")], [STRAIGHT, SQUARE3])
    g.turn("straight", (0, 1), 1, seg="N1")  # seat 0
    g.turn("straight", (0, 3), 1, seg="N1")  # seat 1
    g.turn("straight", (0, 5), 1, seg="N1")  # seat 0
    g.turn("square3", (0, 0), 0)
    g.turn("square3", (0, 6), 0)
    g.turn("straight", (0, 2), 1)
    assert g.area(0, 2, "straight", "N1")["followers"] == (1, 1)
    g.turn("straight", (0, 4), 1)
    assert g.scores() == [7, 0]
    assert g.s.followers_in_supply(0) == 6 and g.s.followers_in_supply(1) == 6


def test_ca_ex_5_and_tower_1_2_enclosed_tower():
    """CA-EX-5, CA-TOWER-1, CA-TOWER-2: a 3-tile tower enclosed by the wall and a gate's house scores 6."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [TOWER])
    g.turn("tower", (0, 1), 0, seg="N1")
    g.turn("tower", (0, 0))
    assert g.scores() == [0, 0]
    g.turn("tower", (0, 2))
    assert g.scores() == [6, 0]


def test_ca_tower_3_gate_counts():
    """CA-TOWER-3: a tower joined to a gate's tower counts the gate as a tile: 4 x 2 = 8."""
    g = Game(["XXX"], [(0, 1, "N", "TTT")], [TOWER])
    g.turn("tower", (0, 1), 0, seg="N1")
    g.turn("tower", (0, 0))
    g.turn("tower", (0, 2))
    assert g.scores() == [8, 0]


def test_ca_tower_4_house_4_tie_scores_nothing():
    """CA-TOWER-4, CA-HOUSE-4, CA-MAJ-1: tied towers and houses score nothing."""
    for t in (TOWER, HOUSE):
        g = Game(["XXX"], [(0, 0, "N", "TTT" if t is HOUSE else "HHH"), (0, 2, "N", "TTT" if t is HOUSE else "HHH")], [t])
        g.turn(t["id"], (0, 0), 0, seg="N1")
        g.turn(t["id"], (0, 2), 0, seg="N1")
        g.turn(t["id"], (0, 1))
        assert g.scores() == [0, 0]
        assert g.s.followers_in_supply(0) == 6 and g.s.followers_in_supply(1) == 6


def test_ca_ex_6_and_house_1_2_3_gate_house_not_joined():
    """CA-EX-6, CA-HOUSE-1, CA-HOUSE-2, CA-HOUSE-3, CA-AREA-2: a 2-tile house closed by a tower scores 2;
    a gate's house that is not joined to it does not count; a joined one does."""
    g = Game(["XXX"], [(0, 0, "N", "TTT"), (0, 2, "N", "HRH")], [HOUSE, ENDT])
    g.turn("house", (0, 0), 0, seg="N1")
    g.turn("endt", (0, 2), 0)  # its path meets the gate; its towers block the gate's houses
    g.turn("house", (0, 1))
    assert g.scores() == [2, 0]
    g = Game(["XX"], [(0, 0, "N", "HHH"), (0, 1, "E", "TTT")], [HOUSE, TOWER])
    g.turn("house", (0, 0), 0, seg="N1")
    g.turn("tower", (0, 1))  # closes the house: 1 tile + the gate
    assert g.scores() == [2, 0]


def test_ca_area_1_connection_is_transitive():
    """CA-AREA-1: same-type segments joined across tiles form one area, however far."""
    g = Game(["XXXX"], [(0, 0, "N", "HHH")], [HOUSE])
    for c in range(4):
        g.turn("house", (0, c), 0, seg="N1" if c == 0 else None)
    assert g.scores() == [5, 0]  # 4 tiles + the gate, all walled in


def test_ca_palace_1_ex_7_keep_moves_to_a_larger_house():
    """CA-PALACE-1, CA-EX-7, CA-AMB-17: the keep goes on the scorer's first completed house and moves
    only to a strictly larger one."""
    rows = ["XXX.", "....", "XXXX"]
    gates = [(0, 0, "N", "TTT"), (0, 2, "N", "HRH"), (2, 0, "N", "TTT"), (2, 3, "N", "HRH")]
    g = Game(rows, gates, [HOUSE, ENDT])
    g.turn("house", (0, 0), 0, seg="N1")  # seat 0
    g.turn("endt", (0, 2), 0)             # seat 1
    g.turn("house", (0, 1))               # seat 0 closes a 2-tile house
    assert g.scores() == [2, 0] and g.s.keep(0) == (2, g.cell(0, 0)) and g.s.keep(1) == (0, -1)
    g.turn("endt", (2, 3), 0)             # seat 1
    g.turn("house", (2, 0), 0, seg="N1")  # seat 0
    g.turn("house", (2, 1))               # seat 1
    g.turn("house", (2, 2))               # seat 0 closes a 3-tile house: the keep moves
    assert g.scores() == [5, 0] and g.s.keep(0) == (3, g.cell(2, 0))


def test_ca_amb_17_keep_goes_to_the_scorer_not_the_placer():
    """CA-AMB-17: the player who scores the house gets the keep, even if the opponent closed it."""
    g = Game(["XX"], [(0, 0, "N", "TTT")], [HOUSE, TOWER])
    g.turn("house", (0, 0), 0, seg="N1")  # seat 0's follower
    g.turn("tower", (0, 1))               # seat 1 closes it
    assert g.scores() == [1, 0] and g.s.keep(0)[0] == 1 and g.s.keep(1)[0] == 0


def test_ca_score_3_incomplete_areas_do_not_score_in_play():
    """CA-SCORE-3: an unfinished path scores nothing during play."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [STRAIGHT])
    g.turn("straight", (0, 1), 1, seg="N1")
    g.turn("straight", (0, 0), 1)
    assert g.scores() == [0, 0] and g.area(0, 1, "straight", "N1")["open"] == 1


def test_ca_follow_10_fast_points_on_a_completed_area():
    """CA-FOLLOW-10: a follower placed on an area the new tile completes scores it at once and returns."""
    g = Game(["XX"], [(0, 0, "W", "HRH"), (0, 1, "N", "HHH")], [STRAIGHT, SQUARE3])
    g.turn("straight", (0, 0), 1)            # seat 0, no follower
    g.draw("square3")
    g.place(0, 1, 0)                         # seat 1 completes the path: gate + 2 tiles
    assert g.follower_id(g.slot("square3", "W1")) in g.s.legal_actions()
    g.s.apply(g.follower_id(g.slot("square3", "W1")))
    assert g.scores() == [0, 3] and g.s.followers_in_supply(1) == 6


def test_ca_score_1_wrap_and_ca_amb_16_corner_on_a_later_lap():
    """CA-SCORE-1, CA-AMB-16: scores go past 99 as integers; the marker sits at score mod 100 and can
    take a wall tile there."""
    from test_castle_helpers import set_score
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [TOWER], corners=[2])
    set_score(g, 0, 97)
    g.turn("tower", (0, 1), 0, seg="N1")
    g.turn("tower", (0, 0))
    g.turn("tower", (0, 2))  # +6 -> 103: the marker stops on space 3, the corner (2, 3)
    assert g.scores() == [103, 0]
    assert g.s.phase() == PHASE["reveal"] and g.s.current_player() == tilecraft.CHANCE
    g.s.apply(8)  # the revealed tile is kind 9
    assert g.s.wall_tiles()[0][1][8] == 1 and g.s.corners_stocked() == [False, False]
    assert list(g.s.scores_by_category()[0])[ROAD] == 97 and g.s.scores_by_category()[0][KEEP] == 0
