"""Courts and game end (CA-COURT-*, CA-END-*, CA-EX-8..11), corners and wall tiles (CA-CORNER-*,
CA-BONUS-*), scoring order (CA-AMB-14) on fixture castles. Scores are counted by hand."""
import pytest

import tilecraft
from test_castle_helpers import (COURT, COURT2, HOUSE, INCOMPLETE, KEEP, PHASE, SQUARE3, STRAIGHT, TILE9, TOWER,
                                 Game, edit, give, set_score, tile)

STRAIGHTW = tile("straightw", "HRH HHH HRH HHH", well=True)


def one(t, n=1):
    return dict(t, count=n)


# ---------------------------------------------------------------- courts

def test_ca_ex_8_court_split_by_a_path():
    """CA-EX-8, CA-FOLLOW-9, CA-COURT-4: lower part (2 markets) scores 6 for seat 0, upper (1) 3 for seat 1."""
    a = tile("splitA", "CRC CCC CRC CCC", count=1, markets={"E1": 2, "W1": 1})
    b = tile("splitB", "CRC CCC CRC CCC", count=1)
    g = Game(["XX"], [(0, 0, "W", "HRH")], [a, b])
    g.turn("splitA", (0, 0), 1, seg="E1")  # rotated: tile E -> board S (lower part)
    g.turn("splitB", (0, 1), 1, seg="W1")  # tile W -> board N (upper part), joined to (0,0)'s upper part
    assert g.s.is_terminal()
    assert g.scores() == [6, 3]


def test_ca_ex_9_court_tie_scores_nothing():
    """CA-EX-9, CA-COURT-5, CA-MAJ-1: one follower each in a court: nobody scores."""
    g = Game(["XXX"], [(0, 0, "N", "HHH"), (0, 2, "N", "HHH")], [one(COURT2, 3)])
    g.turn("court2", (0, 0), 0, seg="N1")
    g.turn("court2", (0, 2), 0, seg="N1")
    g.turn("court2", (0, 1))
    assert g.s.is_terminal() and g.scores() == [0, 0]


def test_ca_court_5_majority_scores_all_markets():
    """CA-COURT-5, CA-COURT-4: 2 followers against 1 in a court of 5 tiles x 2 markets: 30 for the majority."""
    g = Game(["XXXXX"], [(0, 0, "N", "HHH"), (0, 2, "N", "HHH"), (0, 4, "N", "HHH")], [one(COURT2, 5)])
    g.turn("court2", (0, 0), 0, seg="N1")
    g.turn("court2", (0, 2), 0, seg="N1")
    g.turn("court2", (0, 4), 0, seg="N1")
    g.turn("court2", (0, 1))
    g.turn("court2", (0, 3))
    assert g.s.is_terminal() and g.scores() == [30, 0]


def test_ca_court_1_2_6_follow_7_closed_court_waits_for_the_end():
    """CA-COURT-1, CA-COURT-2, CA-COURT-6, CA-FOLLOW-7: a court closed in play is not scored and its
    follower stays until the end, when it scores 3 per market."""
    g = Game(["XX"], [(0, 0, "N", "HHH")], [one(COURT2), one(HOUSE, 2)])
    g.turn("court2", (0, 0), 0, seg="N1")
    g.turn("house", (0, 1))  # closes the court
    assert g.area(0, 0, "court2", "N1")["complete"] and g.scores() == [0, 0]
    assert g.s.followers_in_supply(0) == 5
    g.draw("house")  # no room: set aside; the supply is empty, the game ends
    assert g.s.is_terminal() and g.scores() == [6, 0]
    assert g.s.scores_by_category()[0][COURT] == 6


def test_ca_court_3_open_court_counts_at_the_end():
    """CA-COURT-3, CA-END-2: at the end a court with open sides is scored as if enclosed."""
    g = Game(["XX"], [(0, 0, "N", "HHH")], [one(COURT2)])
    g.turn("court2", (0, 0), 0, seg="N1")
    assert g.s.is_terminal() and g.scores() == [6, 0]


def test_ca_amb_27_gates_block_courts():
    """CA-AMB-27: a start space without a court segment (H H H) blocks a court: the court facing it
    is not joined and that side is closed, so the court closes when its last open side (east) is
    covered; it adds no market. (Start spaces that carry a court: test_castle_start_spaces.py.)"""
    g = Game(["XX"], [(0, 0, "N", "HHH")], [one(COURT2), one(HOUSE)])
    g.turn("court2", (0, 0), 0, seg="N1")
    a = g.area(0, 0, "court2", "N1")
    assert a["gates"] == [] and a["open"] == 3 and not a["complete"]  # only the east side is open
    g.turn("house", (0, 1))
    a = g.area(0, 0, "court2", "N1")
    assert a["gates"] == [] and a["open"] == 0 and a["complete"] and a["tiles"] == 1 and a["markets"] == 2
    assert g.s.is_terminal() and g.scores() == [6, 0]


def test_ca_amb_28_incomplete_areas_score_nothing_at_the_end():
    """CA-AMB-28, CA-END-2, CA-SCORE-3: followers on unfinished paths, towers, houses score nothing."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [one(STRAIGHT)])
    g.turn("straight", (0, 1), 1, seg="N1")
    assert g.s.is_terminal() and g.scores() == [0, 0]


# ---------------------------------------------------------------- keep and the end

def ex10_game(**options):
    # a 1x8 castle; a 1-tile house at (0,0) closed by a tower at (0,1) leaves 6 empty spaces in a row
    return Game(["XXXXXXXX"], [(0, 0, "N", "TTT")], [one(HOUSE), one(TOWER)], **options)


def test_ca_ex_10_end_3_largest_keep_scores_the_largest_empty_area():
    """CA-EX-10, CA-END-3: the only keep scores the largest connected group of empty spaces (6)."""
    g = ex10_game()
    g.turn("house", (0, 0), 0, seg="N1")
    assert g.s.largest_empty_area() == 7
    g.turn("tower", (0, 1))
    assert g.s.is_terminal()
    assert g.scores() == [1 + 6, 0] and g.s.scores_by_category()[0][KEEP] == 6


def test_ca_end_3_flood_fill_finds_the_largest_region():
    """CA-END-3: empty spaces split by tiles and by the wall's shape form separate groups."""
    g = Game(["XX.XXX", "XX.XXX"], [(0, 0, "N", "HHH"), (0, 4, "N", "HHH")], [HOUSE])
    assert g.s.largest_empty_area() == 6
    g.turn("house", (0, 4))
    assert g.s.largest_empty_area() == 5  # (0,3), (0,5), (1,3..5) stay joined around the tile
    g.turn("house", (1, 4))
    assert g.s.largest_empty_area() == 4  # the west part; (0,3)+(1,3) and (0,5)+(1,5) are split off


def test_ca_ex_11_bonus_8_keep_counts_two_larger():
    """CA-EX-11, CA-BONUS-8: a keep of 5 counts as 7 and beats a keep of 6."""
    for tile8, winner in ((True, 0), (False, 1)):
        g = ex10_game()
        g.turn("house", (0, 0), 0, seg="N1")
        edit(g, keep_size=[5, 6], keep_cell=[g.cell(0, 0)] * 2, keep_slot=[0, 0])
        if tile8:
            give(g, 0, 8)
        g.turn("tower", (0, 1))  # closes seat 0's 1-tile house: no move, 1 < 5
        assert g.s.keep(0)[0] == 5
        cats = g.s.scores_by_category()
        assert cats[winner][KEEP] == 6 and cats[1 - winner][KEEP] == 0


def test_ca_amb_11_and_amb_12_tile_8_without_keep_and_equal_keeps():
    """CA-AMB-11: tile 8 without a keep does nothing; CA-AMB-12: equal keeps score nothing."""
    g = ex10_game()
    g.turn("house", (0, 0))
    edit(g, keep_size=[0, 1], keep_cell=[255, g.cell(0, 0)], keep_slot=[0, 0])
    give(g, 0, 8)
    g.turn("tower", (0, 1))
    assert list(g.s.scores_by_category()[:, KEEP]) == [0, 6]
    g = ex10_game()
    g.turn("house", (0, 0))
    edit(g, keep_size=[3, 3], keep_cell=[g.cell(0, 0)] * 2, keep_slot=[0, 0])
    g.turn("tower", (0, 1))
    assert list(g.s.scores_by_category()[:, KEEP]) == [0, 0]


def test_ca_end_4_amb_12_amb_29_results():
    """CA-END-4, CA-AMB-12, CA-AMB-29: most points wins; equal scores are a shared victory; returns
    are +1/-1/0 (win_loss, the default) or the scores."""
    g = Game(["XX"], [(0, 0, "N", "HHH")], [one(COURT2)])
    g.turn("court2", (0, 0), 0, seg="N1")
    assert g.s.winners() == [0] and list(g.s.returns()) == [1.0, -1.0]
    g = Game(["XX"], [(0, 0, "N", "HHH")], [one(COURT2)], returns_mode="score")
    g.turn("court2", (0, 0), 0, seg="N1")
    assert list(g.s.returns()) == [6.0, 0.0]
    g = Game(["XX"], [(0, 0, "N", "HHH")], [one(COURT2)])
    g.turn("court2", (0, 0))
    assert g.scores() == [0, 0] and g.s.winners() == [0, 1] and list(g.s.returns()) == [0.0, 0.0]


def test_ca_end_1_game_ends_after_the_last_tiles_turn():
    """CA-END-1: the last tile is placed and scored, then the game ends."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [one(STRAIGHT), one(SQUARE3, 2)])
    g.turn("straight", (0, 1), 1, seg="N1")
    g.turn("square3", (0, 0), 0)
    assert not g.s.is_terminal()
    g.turn("square3", (0, 2), 0)
    assert g.s.is_terminal() and g.scores() == [3, 0] and g.s.current_player() == tilecraft.TERMINAL


def test_ca_end_2_amb_13_final_scoring_categories():
    """CA-END-2, CA-AMB-13: at the end the wall tiles still on corners are removed (a final score
    that ends on a stocked corner takes nothing), then courts, incomplete areas with tiles 4-6,
    tile 9 and the keep score, each in its own category; a seat's total is their sum."""
    g = Game(["X.XXXXXX"], [(0, 0, "N", "HHH"), (0, 2, "N", "HHH")], [one(COURT2), one(STRAIGHT)], corners=[50])
    give(g, 0, 4)
    give(g, 1, 9)
    set_score(g, 0, 44)  # the court's 6 points end on space 50, a stocked corner
    g.turn("court2", (0, 0), 0, seg="N1")
    edit(g, keep_size=[1, 0], keep_cell=[g.cell(0, 0), 255], keep_slot=[0, 0])  # seat 0 has a keep
    assert g.s.corners_stocked() == [False, True] and not g.s.is_terminal()
    g.turn("straight", (0, 2), 1, seg="N1")  # seat 1: unfinished path, but seat 1 holds no tile 4
    assert g.s.is_terminal() and g.s.phase() == PHASE["terminal"]
    assert g.s.corners_stocked() == [False, False]
    assert g.s.wall_tiles()[0][0].sum() + g.s.wall_tiles()[0][1].sum() == 1  # no tile taken at space 50
    cats = g.s.scores_by_category()
    assert cats[0][COURT] == 6 and cats[0][INCOMPLETE] == 0 and cats[0][KEEP] == 5  # keep: 5 empty spaces
    assert cats[1][INCOMPLETE] == 0 and cats[1][TILE9] == 5
    assert g.scores() == [44 + 6 + 5, 5] and [int(x) for x in cats.sum(axis=1)] == [55, 5]


# ---------------------------------------------------------------- corners

def tower_game(corner, **options):
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [TOWER], corners=[corner], **options)
    g.turn("tower", (0, 1), 0, seg="N1")
    g.turn("tower", (0, 0))
    g.turn("tower", (0, 2))  # seat 0 scores 6
    return g


def test_ca_corner_1_land_exactly_to_take():
    """CA-CORNER-1, CA-AMB-23: ending the move on either space of a stocked corner takes its tile
    (automatically); passing over it does not."""
    g = tower_game(2)  # spaces 2, 3: passed
    assert g.scores() == [6, 0] and g.s.corners_stocked() == [False, True] and g.s.phase() == PHASE["draw"]
    for corner in (6, 5):  # 6 is the corner's first space, then its second
        g = tower_game(corner)
        assert g.s.phase() == PHASE["reveal"] and g.s.corners_stocked() == [False, False]


def test_ca_corner_2_start_corner_holds_nothing():
    """CA-CORNER-2: the 0/1 corner holds no tile; landing on 100 (space 0) takes nothing."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [TOWER], corners=[20])
    assert g.s.corners_stocked() == [False, True]
    set_score(g, 0, 94)
    g.turn("tower", (0, 1), 0, seg="N1")
    g.turn("tower", (0, 0))
    g.turn("tower", (0, 2))
    assert g.scores() == [100, 0] and g.s.phase() == PHASE["draw"]


def test_ca_corner_3_amb_6_tile_usable_from_the_next_own_turn():
    """CA-CORNER-3, CA-AMB-6, CA-AMB-25: the taken tile is revealed (weighted by unseen copies),
    public, not usable in the opponent's turn, and used in the holder's next turn (then gone)."""
    g = Game(["XXX.XXX"], [(0, 1, "N", "HHH"), (0, 5, "N", "HHH")], [TOWER, HOUSE], corners=[6])
    g.turn("tower", (0, 1), 0, seg="N1")
    g.turn("tower", (0, 0))
    g.turn("tower", (0, 2))  # seat 0 scores 6 and lands on the corner at 6
    give(g, 1, 9)  # one kind-9 tile is seen: 1 of 17 unseen
    outcomes = dict(g.s.chance_outcomes())
    assert outcomes[8] == pytest.approx(1 / 17) and outcomes[0] == pytest.approx(2 / 17)
    g.s.apply(0)  # tile 1
    w = g.s.wall_tiles()
    assert w[0][0][0] == 0 and w[0][1][0] == 1  # taken, not yet usable
    assert g.s.current_player() == tilecraft.CHANCE  # seat 1's turn begins with its draw: no Step 0
    g.turn("house", (0, 5))
    assert g.s.phase() == PHASE["bonus0"] and g.s.current_player() == 0
    g.s.apply(g.use1)  # used: two tile turns for seat 0
    assert g.s.wall_tiles()[0][0][0] == 0 and g.s.wall_tiles()[0][2][0] == 1
    g.turn("house", (0, 4))
    assert g.s.current_player() == tilecraft.CHANCE and g.s.phase() == PHASE["draw"]
    g.draw("house")
    assert g.s.current_player() == 0  # seat 0 again: the second tile turn


def test_ca_amb_6_tile_taken_becomes_usable_at_next_turn():
    """CA-AMB-6, CA-BONUS-1: a tile 1 taken on a corner is offered in Step 0 of the next own turn."""
    g = Game(["XXX.XX"], [(0, 1, "N", "HHH"), (0, 4, "N", "HHH")], [TOWER, HOUSE], corners=[6])
    g.turn("tower", (0, 1), 0, seg="N1")
    g.turn("tower", (0, 0))
    g.turn("tower", (0, 2))
    g.s.apply(0)  # seat 0 takes tile 1
    assert g.s.current_player() == tilecraft.CHANCE  # seat 1's draw, no Step 0 for seat 1
    g.turn("house", (0, 4))
    assert g.s.phase() == PHASE["bonus0"] and g.s.current_player() == 0
    assert sorted(g.s.legal_actions()) == [g.use1, g.decline]
    assert g.s.wall_tiles()[0][0][0] == 1 and g.s.wall_tiles()[0][1][0] == 0


def test_ca_amb_15_opponent_lands_during_the_active_turn():
    """CA-AMB-15: the opponent scoring in the active player's turn takes the corner tile it lands on."""
    g = Game(["XXX.XX"], [(0, 1, "N", "HHH"), (0, 4, "N", "HHH")], [TOWER, HOUSE], corners=[6])
    g.turn("house", (0, 4))                 # seat 0
    g.turn("tower", (0, 1), 0, seg="N1")    # seat 1's tower, open W and E
    g.turn("tower", (0, 0))                 # seat 0
    g.turn("house", (0, 5))                 # seat 1
    g.turn("tower", (0, 2))                 # seat 0 closes seat 1's tower: 3 x 2 = 6 for seat 1
    assert g.scores() == [0, 6] and g.s.phase() == PHASE["reveal"]
    g.s.apply(4)  # tile 5 for seat 1; seat 1's turn starts at once, so it is usable now
    assert g.s.current_player() == tilecraft.CHANCE and g.s.wall_tiles()[1][0][4] == 1
    assert g.s.wall_tiles()[0].sum() == 0


# ---------------------------------------------------------------- scoring order

def order_game(**options):
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [STRAIGHTW, SQUARE3], corners=[3], **options)
    g.turn("straightw", (0, 1), 1, seg="N1")  # seat 0 on a fountain path
    g.turn("square3", (0, 0), 0)
    g.draw("square3")
    g.place(0, 2, 0)  # completes the path (3 x 2 = 6) and the south house (3 tiles, no follower yet)
    g.s.apply(g.follower_id(g.slot("square3", "W0")))  # fast points on the south house
    return g


def test_ca_amb_14_active_player_orders_simultaneous_scores():
    """CA-AMB-14, CA-CORNER-1: two completed areas of seat 0: it chooses the order, and with it
    whether its marker stops on the corner at 3."""
    g = order_game()
    assert g.s.phase() == PHASE["order"] and g.s.current_player() == 0
    assert list(g.s.legal_actions()) == [g.pending_id(0), g.pending_id(1)]
    kinds = [a["type"] for a in g.s.pending_areas()]
    g.s.apply(g.pending_id(kinds.index("house")))  # house first: 3 points, lands on 3
    assert g.scores() == [3, 0] and g.s.phase() == PHASE["reveal"]
    g.s.apply(2)
    assert g.scores() == [9, 0]
    g = order_game()
    kinds = [a["type"] for a in g.s.pending_areas()]
    g.s.apply(g.pending_id(kinds.index("road")))  # path first: 6, then 9: the corner is passed
    assert g.scores() == [9, 0] and g.s.corners_stocked() == [False, True]


def test_ca_amb_14_canonical_order():
    """CA-AMB-14: with scoring_order=canonical there is no decision: ascending area id (the path here)."""
    g = order_game(scoring_order="canonical")
    assert g.scores() == [9, 0] and g.s.corners_stocked() == [False, True]


# ---------------------------------------------------------------- wall tiles

def test_ca_bonus_1_amb_7_two_tile_turns():
    """CA-BONUS-1, CA-AMB-7, CA-TURN-2: tile 1 is used in Step 0, before anything is drawn; it gives
    two complete tile turns in a row, each with its draw, placement, follower step and scoring."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [TOWER], start_bonus_tiles=True)
    assert g.s.phase() == PHASE["deal"]
    g.s.apply(0)  # seat 0 (first player) is dealt tile 1
    g.s.apply(8)  # seat 1 tile 9
    # Step 0 comes first: no tile drawn yet, the supply untouched
    assert g.s.phase() == PHASE["bonus0"] and sorted(g.s.legal_actions()) == [g.use1, g.decline]
    assert g.s.current_tile() == -1 and list(g.s.supply()) == [10]
    g.s.apply(g.use1)
    assert g.s.phase() == PHASE["draw"] and g.s.current_player() == tilecraft.CHANCE
    g.draw("tower")  # Step 1
    g.place(0, 1)
    assert g.s.phase() == PHASE["follower"] and g.s.current_player() == 0  # Step 2 on the new tile
    g.s.apply(g.follower_id(0))
    g.draw("tower")  # the second tile turn: seat 0 again
    assert g.s.current_player() == 0
    g.place(0, 0)  # joins seat 0's own tower: no free area, so no follower step
    g.draw("tower")  # now seat 1
    assert g.s.current_player() == 1
    g.place(0, 2)  # seat 1 closes seat 0's tower: Step 3 scores it for seat 0 (3 tiles x 2)
    assert g.scores() == [6, 0] and g.s.followers_in_supply(0) == 6
    assert g.s.wall_tiles()[0][2][0] == 1  # used and gone


def test_ca_amb_7_draw_two_choose_one():
    """CA-AMB-7: bonus1_mode=draw_two_choose_one draws two tiles; the unchosen one goes back."""
    g = Game(["XXX", "XXX"], [(0, 1, "N", "HHH")], [HOUSE, TOWER], bonus1_mode="draw_two_choose_one")
    give(g, 0, 1)
    edit(g, phase=PHASE["bonus0"])
    g.s.apply(g.use1)
    g.draw("house")
    g.draw("tower")
    assert g.s.phase() == PHASE["choose"]
    assert list(g.s.legal_actions()) == [g.pending_id(0), g.pending_id(1)]
    g.s.apply(g.pending_id(1))  # keep the tower; the house goes back
    assert g.s.current_tile() == g.type_of("tower") and list(g.s.supply()) == [10, 9]


def bonus_tower_game(kind, copies=1):
    """Seat 0 (holding `copies` of tile `kind`) completes its own 3-tile tower (kind 2) or house (kind 3)."""
    t = TOWER if kind == 2 else HOUSE
    g = Game(["XXX"], [(0, 1, "N", "HHH" if kind == 2 else "TTT")], [t])
    give(g, 0, kind, copies)
    g.turn(t["id"], (0, 1), 0, seg="N1")
    g.turn(t["id"], (0, 0))
    g.draw(t["id"])
    g.place(0, 2)
    return g


def test_ca_bonus_2_amb_8_double_a_tower():
    """CA-BONUS-2, CA-AMB-8, CA-BONUS-10: the holder winning a tower it completes may double it once."""
    g = bonus_tower_game(2)
    assert g.s.phase() == PHASE["double"] and sorted(g.s.legal_actions()) == [g.use2, g.decline]
    g.s.apply(g.use2)
    assert g.scores() == [12, 0] and g.s.wall_tiles()[0][0][1] == 0 and g.s.wall_tiles()[0][2][1] == 1
    g = bonus_tower_game(2)
    g.s.apply(g.decline)
    assert g.scores() == [6, 0] and g.s.wall_tiles()[0][0][1] == 1
    g = bonus_tower_game(2, copies=2)  # two copies: still one doubling per area
    g.s.apply(g.use2)
    assert g.scores() == [12, 0] and g.s.wall_tiles()[0][0][1] == 1 and g.s.phase() == PHASE["draw"]


def test_ca_bonus_3_double_a_house():
    """CA-BONUS-3, CA-AMB-8: tile 3 doubles one completed house of the holder (3 tiles: 6)."""
    g = bonus_tower_game(3)
    assert sorted(g.s.legal_actions()) == [g.use3, g.decline]
    g.s.apply(g.use3)
    assert g.scores() == [6, 0] and g.s.keep(0)[0] == 3  # the keep counts tiles, not points


def test_ca_bonus_10_amb_6_only_for_the_majority_on_own_turn():
    """CA-BONUS-10, CA-AMB-6: no doubling for a holder who is not the area's majority, nor in the
    opponent's turn."""
    for holder in (1, 0):
        g = Game(["XXX.XX"], [(0, 1, "N", "HHH"), (0, 4, "N", "HHH")], [TOWER, HOUSE])
        give(g, holder, 2)
        g.turn("tower", (0, 1), 0, seg="N1")  # seat 0's tower
        g.turn("tower", (0, 0))
        g.turn("house", (0, 4))
        g.turn("tower", (0, 2))               # seat 1 closes seat 0's tower
        assert g.scores() == [6, 0] and g.s.phase() == PHASE["draw"]
        assert g.s.wall_tiles()[holder][0][1] == 1


def test_ca_bonus_4_5_6_amb_9_incomplete_areas_score_with_the_tile():
    """CA-BONUS-4, CA-BONUS-5, CA-BONUS-6, CA-AMB-9: at the end the holder scores its best incomplete
    path / tower / house at the normal rate; such a house gives no keep. Single tiles: 1 / 2 / 1."""
    for t, kind, seg, expect in ((STRAIGHT, 4, "N1", 1), (TOWER, 5, "N1", 2), (HOUSE, 6, "N1", 1)):
        for holds in (False, True):
            g = Game(["XXX"], [(0, 1, "N", "HHH" if t is not HOUSE else "TTT")], [one(t)])
            if holds:
                give(g, 0, kind)
            g.turn(t["id"], (0, 1), 1 if t is STRAIGHT else 0, seg=seg)
            assert g.s.is_terminal()
            assert g.s.scores_by_category()[0][INCOMPLETE] == (expect if holds else 0)
            assert g.s.keep(0)[0] == 0


@pytest.mark.parametrize("t, kind, per_tile", [(TOWER, 5, 2), (HOUSE, 6, 1)])
def test_ca_bonus_5_6_amb_9_best_of_several_larger_areas(t, kind, per_tile):
    """CA-BONUS-5, CA-BONUS-6, CA-AMB-9: seat 0 leads an incomplete 3-tile and a 1-tile area of the
    type; one tile scores the larger one at the normal rate (3 x per_tile), not the smaller, not both."""
    gate = "TTT" if t is HOUSE else "HHH"
    wall = "CCC CCC CCC CCC"
    sep = tile("sep", wall, count=2)
    g = Game(["XXXX.X", "XXXX.X"], [(0, 0, "N", gate), (0, 5, "N", gate)], [one(t, 4), sep])
    give(g, 0, kind)
    g.turn(t["id"], (0, 0), 0, seg="N1")  # seat 0: open south and east
    g.turn(t["id"], (0, 1))               # seat 1 joins it (2 tiles)
    g.turn(t["id"], (0, 5), 0, seg="N1")  # seat 0: its own 1-tile area, open south
    g.turn(t["id"], (0, 2))               # seat 1: the big area has 3 tiles, still open (E, S)
    g.turn("sep", (1, 0))                 # courts below; the big area stays open at (0,3)
    g.turn("sep", (1, 1))
    assert g.s.is_terminal()
    inc = g.s.scores_by_category()[:, INCOMPLETE]
    assert inc[0] == 3 * per_tile and inc[1] == 0


def test_ca_amb_9_two_copies_two_areas():
    """CA-AMB-9: one tile 4 scores the best incomplete path (2 tiles); two score both (2 + 1)."""
    for copies, expect in ((1, 2), (2, 3)):
        g = Game(["XXXXXX"], [(0, 0, "N", "HHH"), (0, 4, "N", "HHH")], [one(STRAIGHT, 3)])
        give(g, 0, 4, copies)
        g.turn("straight", (0, 0), 1, seg="N1")  # 1 tile, open east
        g.turn("straight", (0, 4), 1)
        g.turn("straight", (0, 3), 1, seg="N1")  # joins (0,4): 2 tiles, open both ends
        assert g.s.scores_by_category()[0][INCOMPLETE] == expect


def test_ca_bonus_7_amb_10_four_per_market():
    """CA-BONUS-7, CA-AMB-10: tile 7 makes one won court's markets worth 4 (all courts with bonus7_scope=all_courtyards)."""
    court1 = tile("court1", "CCC CCC CCC CCC", count=1, markets={"N1": 1})
    cases = ((0, "one_courtyard", 6 + 3), (1, "one_courtyard", 8 + 3), (2, "one_courtyard", 8 + 4),
             (1, "all_courtyards", 8 + 4))
    for copies, scope, expect in cases:
        g = Game(["X.X.X"], [(0, 0, "N", "HHH"), (0, 2, "N", "HHH"), (0, 4, "N", "HHH")],
                 [one(COURT2), court1, one(HOUSE)], bonus7_scope=scope)
        if copies:
            give(g, 0, 7, copies)
        g.turn("court2", (0, 0), 0, seg="N1")
        g.turn("house", (0, 4))
        g.turn("court1", (0, 2), 0, seg="N1")
        assert g.s.is_terminal() and g.scores()[0] == expect, (copies, scope)


def test_ca_bonus_9_five_points():
    """CA-BONUS-9: tile 9 is worth 5 at the end."""
    g = Game(["XX"], [(0, 0, "N", "HHH")], [one(HOUSE)])
    give(g, 1, 9, 2)
    g.turn("house", (0, 0))
    assert g.scores() == [0, 10]
