"""Turn order (CA-TURN-1, CA-TURN-3, CA-AMB-26) and the score track (CA-COMP-1, CA-SETUP-1) on
fixture castles. Scores are counted by hand."""
import pytest

import tilecraft
from test_castle_helpers import HOUSE, PHASE, TOWER, Game, edit, set_score


ROWS = ["XXXX", "XX.X"]
GATES = [(0, 1, "N", "HHH"), (0, 3, "N", "HHH")]
# towers (0,1), (0,0); houses (1,0), (1,1), (0,3); the tower at (0,2) then closes a 3-tile tower
# (west and south walls, the houses below and east); a house at (1,3) is a 7th turn
SEQUENCE = [("tower", (0, 1)), ("tower", (0, 0)), ("house", (1, 0)), ("house", (1, 1)), ("house", (0, 3)),
            ("tower", (0, 2)), ("house", (1, 3))]


@pytest.mark.parametrize("first", [0, 1])
def test_ca_turn_1_players_alternate(first):
    """CA-TURN-1: turns alternate from the first player, also after a turn that scores (the 6th
    turn completes the first player's tower; the 7th is the first player's)."""
    g = Game(ROWS, GATES, [TOWER, HOUSE], first_player=first)
    seats = []
    for k, (tid, cell) in enumerate(SEQUENCE):
        g.draw(tid)
        seats.append(g.s.current_player())
        g.place(*cell)
        if g.s.phase() == PHASE["follower"]:
            g.s.apply(g.follower_id(g.slot(tid, "N1")) if k == 0 else g.no_follower)
        if k == 5:
            assert g.s.scores()[first] == 6  # the tower (3 tiles x 2)
    assert seats == [first, 1 - first] * 3 + [first]


def test_ca_turn_3_amb_26_score_after_the_follower_step_then_return():
    """CA-TURN-3, CA-AMB-26, CA-FOLLOW-10: Step 2 (follower) comes before Step 3 (scoring) and the
    follower returns after scoring: seat 1 completes a tower nobody occupies, claims it with a
    follower on the new tile, scores 3 x 2 = 6 and has all 6 followers back at once."""
    g = Game(ROWS, GATES, [TOWER, HOUSE])
    for tid, cell in SEQUENCE[:5]:
        g.turn(tid, cell)
    g.draw("tower")
    g.place(0, 2)
    assert g.s.phase() == PHASE["follower"] and g.s.current_player() == 1
    slot = g.slot("tower", "N1")
    assert g.area(0, 2, "tower", "N1")["complete"] and g.scores() == [0, 0]
    assert g.follower_id(slot) in list(g.s.legal_actions())  # a completed, empty area may be claimed
    g.s.apply(g.follower_id(slot))
    assert g.scores() == [0, 6] and g.s.followers_in_supply(1) == 6 and list(g.s.followers()) == []
    assert g.s.current_player() == tilecraft.CHANCE  # seat 0's draw


def test_ca_comp_1_setup_1_score_track_of_100_spaces():
    """CA-COMP-1, CA-SETUP-1: scores start at 0 on a 0..99 track with its corners stocked; passing 99
    continues from 0 (the score keeps counting): at 97, a 6-point tower ends on space 3, a stocked
    corner (spaces 2/3), and takes its wall tile."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [TOWER], corners=[2])
    assert list(g.s.scores()) == [0, 0] and g.s.corners_stocked() == [False, True]
    set_score(g, 0, 97)
    g.turn("tower", (0, 1), 0, seg="N1")
    g.turn("tower", (0, 0))
    g.turn("tower", (0, 2))
    assert g.scores() == [103, 0]
    assert g.s.phase() == PHASE["reveal"] and g.s.corners_stocked() == [False, False]
    g2 = Game(["XXX"], [(0, 1, "N", "HHH")], [TOWER], corners=[2])
    set_score(g2, 0, 90)  # 96: no corner
    g2.turn("tower", (0, 1), 0, seg="N1")
    g2.turn("tower", (0, 0))
    g2.turn("tower", (0, 2))
    assert g2.scores() == [96, 0] and g2.s.corners_stocked() == [False, True]
