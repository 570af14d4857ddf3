"""Tile placement (CA-PLACE-*) and follower placement (CA-FOLLOW-*) on fixture castles."""
import pytest

import tilecraft
from test_castle_helpers import (CURVE, HOUSE, PHASE, SQUARE3, STRAIGHT, TOWER, COURT2, Game, edit, tile)

ENDT = tile("endt", "TRT TTT TTT TTT")  # a path from N ends in a tower
FORK = tile("fork", "HRH HRH HHH HRH")  # paths N, E, W joined (no square): one path with branches


def placements(g):
    return sorted(int(a) for a in g.s.legal_actions())


def test_ca_place_3_only_next_to_a_start_space_or_tile():
    """CA-PLACE-3, CA-PLACE-1: the drawn tile goes next to a gate or a placed tile."""
    g = Game(["XXX", "XXX", "XXX"], [(0, 1, "N", "HHH")], [HOUSE, STRAIGHT])
    # CA-PLACE-1: the draw is a chance event over the supply (10 + 10 tiles)
    assert g.s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    g.draw("house")
    assert g.s.current_tile() == g.type_of("house")
    # only (0,1), next to the gate; the 4-fold symmetric house offers one rotation
    assert placements(g) == [g.place_id(0, 1, 0)]
    with pytest.raises(tilecraft.IllegalActionError, match="CA-PLACE-3"):
        g.s.apply(g.place_id(2, 2, 0))
    g.place(0, 1)
    g.s.apply(g.no_follower)
    g.draw("house")
    assert placements(g) == sorted(g.place_id(r, c, 0) for r, c in [(0, 0), (0, 2), (1, 1)])


def test_ca_place_4_paths_must_meet_paths():
    """CA-PLACE-4: a path must meet a path where it touches a gate or tile, and a non-path edge must not meet one."""
    g = Game(["XXX", "XXX", "XXX"], [(1, 0, "W", "HRH"), (0, 2, "N", "HHH")], [STRAIGHT, HOUSE])
    g.draw("straight")
    # at (1,0) only the E-W rotation meets the gate's path (rotation 3 duplicates 1: symmetric tile);
    # at (0,2) only N-S is forbidden (it would run into the gate's house)
    assert placements(g) == sorted([g.place_id(1, 0, 1), g.place_id(0, 2, 1)])
    before = g.s.to_json()
    with pytest.raises(tilecraft.IllegalActionError, match="CA-PLACE-4"):
        g.place(1, 0, 0)
    assert g.s.to_json() == before
    g.place(1, 0, 1)
    g.s.apply(g.no_follower)
    g.draw("house")  # the house cannot touch the path's open end at (1,1)
    assert g.place_id(1, 1, 0) not in placements(g)
    assert g.place_id(0, 0, 0) in placements(g)


def test_ca_place_5_buildings_and_courts_need_not_match():
    """CA-PLACE-5, CA-AMB-19: towers, houses and courts may abut each other freely."""
    g = Game(["XX"], [(0, 0, "N", "HHH")], [TOWER, COURT2, HOUSE])
    g.turn("tower", (0, 0))  # a tower against the gate's house
    g.draw("court2")
    assert placements(g) == [g.place_id(0, 1, 0)]  # a court against the tower


def test_ca_place_6_and_7_path_into_wall_or_empty_space():
    """CA-PLACE-6, CA-PLACE-7, CA-AMB-20: a path may end at the wall, or face an empty space."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [STRAIGHT, CURVE])
    g.turn("straight", (0, 1), 1)  # E-W: both ends face empty spaces (CA-PLACE-7)
    g.draw("curve")
    # (0,0) needs a path E: rotations 0 (N,E: N runs into the wall) and 1 (E,S: S runs into the wall)
    assert placements(g) == sorted([g.place_id(0, 0, 0), g.place_id(0, 0, 1), g.place_id(0, 2, 2), g.place_id(0, 2, 3)])
    g.place(0, 0, 0)
    g.s.apply(g.no_follower)
    road = g.area(0, 1, "straight", "N1")
    assert road["tiles"] == 2 and road["open"] == 1  # the wall closed one end, (0,2) is still open


def test_ca_place_2_inside_the_wall_only():
    """CA-PLACE-2: a castle with a nook: the space north of (1, 1) and east of (0, 0) is outside the
    wall. After a house at (0, 0) the only free neighbour inside the wall is (1, 0); after a house
    there, (1, 1). The house next to the nook is closed by the wall on that side."""
    g = Game(["X.", "XX"], [(0, 0, "N", "HHH")], [HOUSE])
    g.turn("house", (0, 0), 0, seg="N1")
    g.draw("house")
    assert placements(g) == [g.place_id(1, 0, 0)]
    g.place(1, 0)
    g.draw("house")
    assert placements(g) == [g.place_id(1, 1, 0)]
    g.place(1, 1)
    house = g.area(0, 0, "house", "N1")
    assert house["tiles"] == 3 + 1 and house["complete"]  # 3 tiles + the start space; the nook is wall


def test_ca_place_8_amb_21_a_tile_fills_one_cell_and_meets_whole_edges():
    """CA-PLACE-8, CA-AMB-21: a placement is a whole cell and a rotation; the tile meets each
    neighbour along its whole edge, all three segments: two E-W straights side by side join their
    path AND both pairs of houses (north with north, south with south), never north with south."""
    g = Game(["XX"], [(0, 0, "W", "HRH")], [STRAIGHT])
    g.turn("straight", (0, 0), 1, seg="N1")  # E-W, seat 0 on the path
    g.draw("straight")
    assert placements(g) == [g.place_id(0, 1, 1)]  # one cell, one distinct rotation (symmetric tile)
    g.place(0, 1, 1)
    g.s.apply(g.no_follower)
    assert list(g.s.placed_cells()) == [g.cell(0, 0), g.cell(0, 1)]
    roots = {}
    for c in (0, 1):
        for seg in ("E0", "N1", "W0"):  # tile E0/W0: the two houses, N1: the path (rotation 1: N -> E)
            a = g.area(0, c, "straight", seg)
            roots[(c, seg)] = a["root"]
            assert a["tiles"] == 2 + 1, (c, seg)  # both tiles and the start space
    assert roots[(0, "E0")] == roots[(1, "E0")] and roots[(0, "W0")] == roots[(1, "W0")]
    assert roots[(0, "E0")] != roots[(0, "W0")] and roots[(0, "N1")] == roots[(1, "N1")]


def test_ca_place_9_unplaceable_tile_is_removed_and_redrawn():
    """CA-PLACE-9, CA-AMB-22: an unplaceable tile is set aside and the same player draws again."""
    g = Game(["XX"], [(0, 0, "W", "HRH"), (0, 1, "E", "HHH")], [STRAIGHT, tile("house", "HHH HHH HHH HHH", count=3)])
    g.turn("house", (0, 1))  # seat 0
    assert g.s.current_player() == tilecraft.CHANCE
    g.draw("house")  # seat 1: (0,0) needs a path W (the gate) and none E (the house): a house cannot go there
    assert g.s.phase() == PHASE["draw"] and list(g.s.removed()) == [0, 1]
    g.draw("straight")  # a straight cannot either (its path would run into the house)
    assert list(g.s.removed()) == [1, 1]
    g.draw("house")
    assert list(g.s.removed()) == [1, 2]
    # the straights left: all unplaceable, so the supply empties through re-draws and the game ends
    for _ in range(9):
        g.draw("straight")
    assert g.s.is_terminal() and list(g.s.removed()) == [10, 2]


def test_ca_follow_1_to_4_one_follower_on_an_area_of_the_new_tile():
    """CA-FOLLOW-1, CA-FOLLOW-2, CA-FOLLOW-3, CA-FOLLOW-4: after placing, at most one follower from
    the player's supply on an area of the new tile, chosen by the player."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [STRAIGHT, HOUSE])
    g.draw("straight")
    g.place(0, 1, 1)
    assert g.s.phase() == PHASE["follower"] and g.s.current_player() == 0
    # the straight has three areas: west house, path, east house (slots by first segment)
    assert placements(g) == [g.follower_id(0), g.follower_id(1), g.follower_id(2), g.no_follower]
    g.s.apply(g.follower_id(1))
    assert g.s.followers_in_supply(0) == 5  # CA-FOLLOW-3
    assert g.s.phase() == PHASE["draw"]  # CA-FOLLOW-2: one follower, then the turn goes on
    assert [f["cell"] for f in g.s.followers()] == [g.cell(0, 1)]  # CA-FOLLOW-1: on the new tile
    assert [f["slot"] for f in g.s.followers()] == [1]  # CA-FOLLOW-4: the chosen area


def test_ca_follow_5_role_names_are_cosmetic():
    """CA-FOLLOW-5: one kind of follower for every area type (the role is only a name): a follower
    on a path, a tower, a house or a court comes from the same supply of 6, is named by the area
    type, and wins its area like any follower. Each tile fills a 1-space pocket, so the path (tile
    + start space: 2), tower (2 x 1) and house (1) are completed and scored at once and the follower
    comes back; the court waits for the end (3 per market)."""
    cases = (("road", "HRH HHH HRH HHH", "HRH", 6, 2), ("tower", "TTT TTT TTT TTT", "HHH", 6, 2),
             ("house", "HHH HHH HHH HHH", "TTT", 6, 1), ("court", "CCC CCC CCC CCC", "HHH", 5, 3))
    for kind, edges, gate, supply, points in cases:
        t = tile(kind + "t", edges, count=1, **({"markets": {"N1": 1}} if kind == "court" else {}))
        g = Game(["X.X"], [(0, 0, "N", gate), (0, 2, "N", "HHH")], [t, dict(HOUSE, count=1)])
        g.draw(t["id"])
        g.place(0, 0, 0)
        slot = g.slot(t["id"], "N1")
        assert g.s.action_to_string(g.follower_id(slot)) == f"follower {slot} ({kind})"
        g.s.apply(g.follower_id(slot))
        assert g.s.followers_in_supply(0) == supply and g.s.followers_in_supply(1) == 6, kind
        g.turn("house", (0, 2))
        assert g.s.is_terminal() and g.scores()[0] == points, kind


def test_ca_follow_3_no_follower_without_supply():
    """CA-FOLLOW-3: a player with no follower in supply is not offered one."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [STRAIGHT, HOUSE])
    g.turn("straight", (0, 1), 1)
    g.turn("straight", (0, 0), 1)
    spots = [g.cell(0, 1)] * 3 + [g.cell(0, 0)] * 3
    edit(g, follower_cell=[spots, [255] * 6], follower_slot=[[0, 1, 2, 0, 1, 2], [0] * 6])
    assert g.s.followers_in_supply(0) == 0
    g.draw("straight")
    g.place(0, 2, 1)
    assert g.s.phase() != PHASE["follower"]  # nothing to decide: the turn went on


def test_ca_follow_8_no_follower_on_an_occupied_area():
    """CA-FOLLOW-8, CA-EX-12: an area connected to a follower anywhere (own included) is closed to followers."""
    g = Game(["XXXX", "XXXX"], [(0, 1, "N", "HHH")], [STRAIGHT, HOUSE])
    g.turn("straight", (0, 1), 1, seg="N1")  # seat 0 on the path (E-W)
    g.turn("house", (1, 1), 0, seg="N1")     # seat 1 in a house joined to the straight's south house
    g.draw("straight")
    g.place(0, 2, 1)
    # slot 0 = north house (joined to the gate's house: free), 1 = path (seat 0's own follower),
    # 2 = south house (joined through (0,1) to seat 1's follower at (1,1))
    assert placements(g) == [g.follower_id(0), g.no_follower]
    with pytest.raises(tilecraft.IllegalActionError, match="CA-FOLLOW-8"):
        g.s.apply(g.follower_id(1))
    with pytest.raises(tilecraft.IllegalActionError, match="CA-FOLLOW-8"):
        g.s.apply(g.follower_id(2))
    g.s.apply(g.follower_id(0))
    assert g.area(0, 1, "straight", "W1")["followers"] == (1, 0)  # the gate's house now has seat 0's follower


def test_ca_follow_6_square_splits_paths():
    """CA-FOLLOW-6, CA-AMB-18, CA-ROAD-3: at a square each path is a separate area; a fork is one path."""
    g = Game(["XXX", "XXX", "XXX"], [(0, 1, "N", "HHH")], [SQUARE3, FORK])
    g.draw("square3")
    g.place(0, 1, 0)  # paths E, S, W end at the square
    roads = [g.follower_id(g.slot("square3", s)) for s in ("E1", "S1", "W1")]
    assert len(set(roads)) == 3 and all(a in placements(g) for a in roads)
    g.s.apply(roads[1])  # seat 0 on the south path
    g.draw("fork")
    g.place(1, 1, 0)  # paths N, E, W; N meets the square's south path
    # the fork's single path area is joined to the occupied south path: no follower there
    assert g.follower_id(g.slot("fork", "N1")) not in placements(g)
    g.s.apply(g.no_follower)
    road = g.area(1, 1, "fork", "N1")
    assert road["tiles"] == 2 and road["open"] == 2  # the fork's two other branches are open


def test_ca_follow_9_court_split_by_a_path():
    """CA-FOLLOW-9, CA-AREA-2: a path through a court splits it into two areas."""
    split = tile("split", "CRC CCC CRC CCC", markets={"E1": 2, "W1": 1})
    g = Game(["X"], [(0, 0, "W", "HRH")], [split])
    g.draw("split")
    g.place(0, 0, 1)
    east, west = g.area(0, 0, "split", "E1"), g.area(0, 0, "split", "W1")
    assert east["root"] != west["root"] and east["markets"] == 2 and west["markets"] == 1
