"""CA-AMB-6, settled: end-game wall tiles (4-9) count at final scoring even when taken on the
holder's last turn, and several copies of one end tile add up. Scores are counted by hand."""
import pytest

import tilecraft
from test_castle_helpers import KEEP, PHASE, TILE9, TOWER, HOUSE, Game, edit, give


def last_turn_corner_game():
    """Three towers, one each turn: seat 0 lays a tower with a follower, seat 1 extends it, seat 0
    closes it on the LAST tile: 3 tiles x 2 = 6 points, seat 0's marker lands on the stocked corner
    at spaces 6/7 and takes a wall tile there (a reveal chance node)."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [dict(TOWER, count=3)], corners=[6])
    g.turn("tower", (0, 1), 0, seg="N1")
    g.turn("tower", (0, 0))
    g.draw("tower")
    g.place(0, 2)
    assert g.scores() == [6, 0] and g.s.phase() == PHASE["reveal"] and sum(g.s.supply()) == 0
    return g


def test_ca_amb_6_tile_9_taken_on_the_last_turn_counts():
    """CA-AMB-6, CA-BONUS-9: tile 9 taken on the holder's last turn scores 5 at the end: 6 + 5."""
    g = last_turn_corner_game()
    g.s.apply(8)  # the revealed tile is a 9
    assert g.s.is_terminal()
    assert g.s.scores_by_category()[0][TILE9] == 5 and g.scores() == [11, 0]


def test_ca_amb_6_tile_in_play_taken_on_the_last_turn_scores_nothing():
    """CA-AMB-6: an in-play tile (1) taken on the last turn is simply kept: the total stays 6."""
    g = last_turn_corner_game()
    g.s.apply(0)
    assert g.s.is_terminal() and g.scores() == [6, 0]


def keep_game():
    # a 1x8 castle; seat 0's 1-tile house at (0,0), closed by a tower at (0,1); 6 empty spaces stay
    g = Game(["XXXXXXXX"], [(0, 0, "N", "TTT")], [dict(HOUSE, count=1), dict(TOWER, count=1)])
    g.turn("house", (0, 0), 0, seg="N1")
    return g


@pytest.mark.parametrize("copies, winner", [(0, 1), (1, 1), (2, 0)])
def test_ca_amb_6_bonus_8_copies_add_up(copies, winner):
    """CA-AMB-6, CA-BONUS-8: keeps of 5 (seat 0) and 8 (seat 1). Each tile 8 makes seat 0's keep 2
    larger: 5 < 8, 7 < 8, 9 > 8; the larger keep scores the 6 empty spaces."""
    g = keep_game()
    edit(g, keep_size=[5, 8], keep_cell=[g.cell(0, 0)] * 2, keep_slot=[0, 0])
    if copies:
        give(g, 0, 8, copies)
    g.turn("tower", (0, 1))
    assert g.s.is_terminal()
    cats = g.s.scores_by_category()
    assert cats[winner][KEEP] == 6 and cats[1 - winner][KEEP] == 0


@pytest.mark.parametrize("copies", [1, 2])
def test_ca_amb_6_bonus_9_copies_add_up(copies):
    """CA-AMB-6, CA-BONUS-9: n copies of tile 9 are worth 5n."""
    g = Game(["XX"], [(0, 0, "N", "HHH")], [dict(HOUSE, count=1)])
    give(g, 1, 9, copies)
    g.turn("house", (0, 0))
    assert g.s.is_terminal() and g.scores() == [0, 5 * copies]
