"""Azul factory offer: legal moves and their effects (spec sections 3 and 4, AZ-MOVE-*, AZ-FLOW-2/3,
AZ-EX-1..3, AZ-FAQ-1/2, AZ-AMB-7..10, AZ-AMB-12). Every expectation is worked out from the spec."""
import random

import pytest

import tilecraft
from azul_fixtures import (B, CENTRE, FLOOR, K, R, W, Y, act, centre, factory, floor_of, legal, lid,
                           line, line_of, position, score)

ALL_DESTS = range(6)


def board_snapshot(state, seat):
    return [line_of(state, seat, k) for k in range(1, 6)], floor_of(state, seat)


# ---------------------------------------------------------------- legal-move sets

def legality_position(current=0):
    # Seat 0: line 2 holds 1 red, line 3 is full of blue, line 5 holds 2 yellow,
    # wall row 4 has its blue tile (row 4, col 4).
    return position(
        factories={1: "BBRY", 2: "KKKW"},
        boards={0: dict(wall=[".....", ".....", ".....", "...B.", "....."],
                        lines={2: "R", 3: "BBB", 5: "YY"})},
        current=current)


def test_AZ_MOVE_6_pattern_line_legality_full_set():
    """AZ-MOVE-6 (a)(b)(c), AZ-MOVE-1, AZ-AMB-12, spec 11.2: the exact legal set, worked out by hand.
    blue: line 1 only (line 2 red, line 3 full, row 4 has blue, line 5 yellow) + floor;
    red: lines 1, 2 (same colour, room), 4 + floor; yellow: lines 1, 4, 5 + floor;
    black and white (factory 2): lines 1 and 4 + floor."""
    s = legality_position()
    expected = {act(1, B, line(1)), act(1, B, FLOOR),
                act(1, R, line(1)), act(1, R, line(2)), act(1, R, line(4)), act(1, R, FLOOR),
                act(1, Y, line(1)), act(1, Y, line(4)), act(1, Y, line(5)), act(1, Y, FLOOR),
                act(2, K, line(1)), act(2, K, line(4)), act(2, K, FLOOR),
                act(2, W, line(1)), act(2, W, line(4)), act(2, W, FLOOR)}
    assert legal(s) == expected


def test_AZ_MOVE_6_legality_depends_on_the_player_to_move():
    """AZ-MOVE-6: seat 1 has an empty board, so every line and the floor are legal for each colour
    on display (2 sources x colours present x 6 destinations)."""
    s = legality_position(current=1)
    expected = {act(f, c, d) for f, cs in ((1, (B, R, Y)), (2, (K, W))) for c in cs for d in ALL_DESTS}
    assert legal(s) == expected


def test_AZ_MOVE_1_source_must_hold_the_colour_and_be_in_play():
    """AZ-MOVE-1 / AZ-MOVE-2: no action takes from an empty source or a colour the source lacks;
    2 players use factories 1..5 only (AZ-SETUP-1), so sources 6..9 are never legal."""
    s = legality_position(current=1)
    for a in range(300):
        src, c = a // 30, (a // 6) % 5
        has = {1: {B, R, Y}, 2: {K, W}}.get(src, set())
        assert (a in legal(s)) == (c in has), a
    for bad in (act(3, B, FLOOR), act(CENTRE, Y, FLOOR), act(1, K, FLOOR), act(6, B, FLOOR)):
        with pytest.raises(tilecraft.IllegalActionError):
            s.apply(bad)


def test_AZ_AMB_12_full_line_is_not_a_destination():
    """AZ-AMB-12: line 2 already holds 2 yellow (full): yellow may not go there, the floor is legal,
    and the error says the line is full."""
    s = position(factories={1: "YYBB"}, boards={0: dict(lines={2: "YY"})})
    assert act(1, Y, line(2)) not in legal(s)
    assert act(1, Y, FLOOR) in legal(s)
    assert act(1, B, line(2)) not in legal(s)  # AZ-MOVE-6 (a): holds another colour
    with pytest.raises(tilecraft.IllegalActionError, match="full"):
        s.apply(act(1, Y, line(2)))


def test_AZ_MOVE_6b_wall_row_already_has_the_colour():
    """AZ-MOVE-6 (b), AZ-EX-3: row 3's blue space (row 3, col 3) is filled, so line 3 is illegal for
    blue, even though it is empty; the other lines are legal."""
    s = position(factories={1: "BBBR"}, boards={0: dict(wall=[".....", ".....", "..B..", ".....", "....."])})
    blue_dests = {a % 6 for a in legal(s) if a // 30 == 1 and (a // 6) % 5 == B}
    assert blue_dests == {line(1), line(2), line(4), line(5), FLOOR}


def test_AZ_MOVE_12_floor_is_always_legal():
    """AZ-MOVE-12: seat 0 has blue on every wall row (the blue diagonal), the only tiles on display
    are blue (two factories): the only legal moves send blue to the floor, so the player can still move."""
    s = position(factories={1: "BBBB", 2: "BBBB"},
                 boards={0: dict(wall=["B....", ".B...", "..B..", "...B.", "....B"])})
    assert legal(s) == {act(1, B, FLOOR), act(2, B, FLOOR)}
    s.apply(act(1, B, FLOOR))
    assert floor_of(s, 0)[0] == 4


def test_AZ_MOVE_12_every_displayed_colour_can_go_to_the_floor_in_random_play():
    """AZ-MOVE-12, AZ-MOVE-9: in random games, at every player node, (source, colour, floor) is legal
    for every colour present in every source; no pass action exists."""
    for players in (2, 3, 4):
        s = tilecraft.make("azul", players=players, seed=players)
        rng = random.Random(players)
        while not s.is_terminal():
            f = s.factories()
            moves = legal(s)
            for src in range(f.shape[0]):
                for c in range(5):
                    assert (act(src, c, FLOOR) in moves) == bool(f[src, c])
            assert all(a // 30 < f.shape[0] and f[a // 30, (a // 6) % 5] for a in moves)
            s.apply(rng.choice(sorted(moves)))


# ---------------------------------------------------------------- the effects of a take

def test_AZ_EX_1_take_all_of_a_colour_from_a_factory():
    """AZ-EX-1, AZ-FAQ-1, AZ-MOVE-2, AZ-MOVE-3: factory 2 blue, 1 red, 1 yellow; choosing blue takes
    both blues; the red and the yellow go to the centre; the factory is empty."""
    s = position(factories={1: "BBRY", 2: "KKWW"})
    s.apply(act(1, B, line(3)))
    assert line_of(s, 0, 3) == (B, 2)
    assert factory(s, 1) == [0, 0, 0, 0, 0]
    assert centre(s) == [0, 1, 1, 0, 0]
    assert factory(s, 2) == [0, 0, 0, 2, 2]
    assert floor_of(s, 0) == (0, False, [0] * 5)


def test_AZ_MOVE_2_no_action_takes_fewer_than_all():
    """AZ-MOVE-2 / AZ-FAQ-1: every legal blue action from that factory removes both blues."""
    base = position(factories={1: "BBRY"})
    for a in legal(base):
        if a // 30 == 1 and (a // 6) % 5 == B:
            s = base.clone()
            s.apply(a)
            (lines, (n_floor, _, floor_tiles)) = board_snapshot(s, 0)
            placed = sum(cnt for col, cnt in lines if col == B) + floor_tiles[B]
            assert placed == 2, s.action_to_string(a)
            assert factory(s, 1) == [0] * 5


def test_AZ_EX_2_take_all_of_a_colour_from_the_centre():
    """AZ-EX-2, AZ-FAQ-1: choosing blue from the centre takes every blue in the centre (3); nothing is
    taken from the factory in the same turn; the other centre tiles stay; the turn passes."""
    s = position(factories={1: "BYRK"}, centre="BBBRY")
    s.apply(act(CENTRE, B, line(4)))
    assert line_of(s, 0, 4) == (B, 3)
    assert centre(s) == [0, 1, 1, 0, 0]
    assert factory(s, 1) == [1, 1, 1, 1, 0]
    assert s.current_player() == 1


def test_AZ_MOVE_3_factory_remainder_joins_the_centre():
    """AZ-MOVE-3: the rest of the factory is added to what the centre already holds."""
    s = position(factories={1: "BBRY", 2: "KKKK"}, centre="RW")
    s.apply(act(1, B, FLOOR))
    assert centre(s) == [0, 1, 2, 0, 1]
    assert factory(s, 1) == [0] * 5
    s.apply(act(2, K, line(4)))  # a single-colour factory sends nothing to the centre
    assert centre(s) == [0, 1, 2, 0, 1]


def test_AZ_MOVE_4_first_take_from_centre_takes_the_marker():
    """AZ-MOVE-4, AZ-COMP-5: the first player to take from the centre gets the marker on the leftmost
    empty floor space (here the 3rd: 2 tiles were there) and will start the next round; a later
    centre take by another player does not take it again."""
    s = position(factories={1: "KKKK"}, centre="BBRR", current=1,
                 boards={1: dict(floor="YY")})
    assert s.marker_in_centre()
    s.apply(act(CENTRE, B, line(2)))
    assert not s.marker_in_centre()
    assert floor_of(s, 1) == (3, True, [0, 2, 0, 0, 0])
    assert line_of(s, 1, 2) == (B, 2)
    assert s.next_first_player() == 1
    s.apply(act(CENTRE, R, line(2)))  # seat 0
    assert floor_of(s, 0) == (0, False, [0] * 5)
    assert s.next_first_player() == 1
    assert floor_of(s, 1)[1]


def test_AZ_MOVE_4_marker_penalty_counts_at_round_end():
    """AZ-MOVE-4 + AZ-FLOOR-2: seat 1 took the marker onto its 3rd floor space (2 tiles were there):
    spaces 1-3 cost 1+1+2 = 4; the placed blue on line 1 scores 1: 10 + 1 - 4 = 7. Seat 1 starts
    round 2 (AZ-REFILL-4)."""
    s = position(centre="B", current=1, boards={1: dict(floor="YY", score=10)})
    s.apply(act(CENTRE, B, line(1)))
    assert s.round() == 1
    assert score(s, 1) == 7
    assert s.is_chance_node()
    while s.is_chance_node():
        s.apply(int(s.legal_actions()[0]))
    assert s.current_player() == 1


def test_AZ_MOVE_5_batch_goes_to_exactly_one_line():
    """AZ-MOVE-5, AZ-EX-3, AZ-FAQ-2: 3 blues into empty line 4: only line 4 changes, nothing to the floor;
    no action splits the batch between two lines."""
    s = position(factories={1: "BBBR"})
    before = [line_of(s, 0, k) for k in range(1, 6)]
    s.apply(act(1, B, line(4)))
    after = [line_of(s, 0, k) for k in range(1, 6)]
    changed = [k for k in range(5) if before[k] != after[k]]
    assert changed == [3]
    assert after[3] == (B, 3)
    assert floor_of(s, 0)[0] == 0


def test_AZ_MOVE_7_tiles_add_to_a_partly_filled_line():
    """AZ-MOVE-7: line 4 holds 2 red (its two rightmost spaces); 1 more red fills the next space: 3."""
    s = position(factories={1: "RKKK"}, boards={0: dict(lines={4: "RR"})})
    s.apply(act(1, R, line(4)))
    assert line_of(s, 0, 4) == (R, 3)
    assert floor_of(s, 0)[0] == 0


def test_AZ_MOVE_8_overflow_goes_to_the_floor():
    """AZ-MOVE-8, AZ-EX-3: line 2 holds 1 blue; 3 blues arrive: 1 fills the line, 2 go to the floor."""
    s = position(factories={1: "BBBR"}, boards={0: dict(lines={2: "B"})})
    s.apply(act(1, B, line(2)))
    assert line_of(s, 0, 2) == (B, 2)
    assert floor_of(s, 0) == (2, False, [2, 0, 0, 0, 0])


def test_AZ_MOVE_9_whole_batch_may_go_to_the_floor_voluntarily():
    """AZ-MOVE-9, AZ-EX-3, AZ-FAQ-2: every line is legal for blue, yet the player may send both
    blues to the floor; no pattern line changes."""
    s = position(factories={1: "BBYY"})
    assert {act(1, B, d) for d in ALL_DESTS} <= legal(s)
    s.apply(act(1, B, FLOOR))
    assert floor_of(s, 0) == (2, False, [2, 0, 0, 0, 0])
    assert all(line_of(s, 0, k) == (-1, 0) for k in range(1, 6))


def test_AZ_AMB_10_only_overflow_goes_to_the_floor():
    """AZ-AMB-10: the results of all blue actions for 3 blues from an empty board: line k keeps
    min(3, k) and the rest (only) goes to the floor; the floor action takes all 3. No action puts
    fewer tiles on a line than fit."""
    base = position(factories={1: "BBBR"})
    outcomes = {}
    for d in ALL_DESTS:
        s = base.clone()
        s.apply(act(1, B, d))
        on_line = sum(line_of(s, 0, k)[1] for k in range(1, 6))
        outcomes[d] = (on_line, floor_of(s, 0)[2][B])
    assert outcomes == {0: (1, 2), 1: (2, 1), 2: (3, 0), 3: (3, 0), 4: (3, 0), 5: (0, 3)}


def test_AZ_MOVE_10_floor_fills_left_to_right_then_the_lid():
    """AZ-MOVE-10: the floor holds 5 tiles; 3 more blues: 2 fill spaces 6 and 7, the 3rd goes to the
    lid. A further take to a full floor sends everything to the lid."""
    s = position(factories={1: "BBBY", 2: "RRKK"}, boards={0: dict(floor="KKKKK")}, spare="bag")
    lid0 = lid(s)
    s.apply(act(1, B, FLOOR))
    assert floor_of(s, 0) == (7, False, [2, 0, 0, 5, 0])
    assert lid(s) == [lid0[0] + 1] + lid0[1:]
    s.apply(act(2, R, line(3)))  # seat 1
    s.apply(act(CENTRE, Y, FLOOR))  # seat 0, first from the centre: marker + tile, floor full
    assert floor_of(s, 0)[0] == 7
    assert lid(s)[Y] == lid0[Y] + 1


def test_AZ_MOVE_11_full_line_waits_for_wall_tiling():
    """AZ-MOVE-11, AZ-FAQ-3: line 1 becomes full mid-offer: it stays on the line, the wall and the
    score do not change until the offer ends."""
    s = position(factories={1: "BYYY", 2: "KKKK"}, boards={0: dict(score=5)})
    s.apply(act(1, B, line(1)))
    assert line_of(s, 0, 1) == (B, 1)
    assert not s.walls().any()
    assert score(s, 0) == 5
    assert s.current_player() == 1


# ---------------------------------------------------------------- turn order and the end of the offer

def test_AZ_FLOW_2_one_take_per_turn_in_seat_order():
    """AZ-FLOW-2, AZ-AMB-7: 3 players, round 1 starts with seat 0 (default): after each take the next
    seat (s+1) mod 3 moves."""
    s = position(players=3, factories={1: "BBBB", 2: "YYYY", 3: "RRRR", 4: "KKKK"})
    seen = []
    for f, c in ((1, B), (2, Y), (3, R), (4, K)):
        seen.append(s.current_player())
        s.apply(act(f, c, FLOOR))
    assert seen == [0, 1, 2, 0]


def test_AZ_AMB_7_turns_go_in_increasing_seat_order():
    """AZ-AMB-7: 4 players, first player seat 2: the order is 2, 3, 0, 1, 2."""
    s = position(players=4, current=2, factories={1: "BBBB", 2: "YYYY", 3: "YYYY", 4: "YYYY", 5: "YYYY"})
    seen = []
    for f in range(1, 6):
        seen.append(s.current_player())
        c = B if f == 1 else Y
        s.apply(act(f, c, FLOOR))
    assert seen == [2, 3, 0, 1, 2]


def test_AZ_FLOW_3_marker_alone_does_not_keep_the_offer_going():
    """AZ-FLOW-3: the last tiles leave the last factory; the centre holds only the marker: the offer
    ends and wall-tiling happens (line 4 does not fill, so nothing scores; round index advances)."""
    s = position(factories={1: "BBBB"})
    assert s.marker_in_centre()
    s.apply(act(1, B, line(5)))
    assert s.round() == 1
    assert s.is_chance_node()  # refill (explicit chance), no player node in between


def test_AZ_FLOW_3_offer_continues_while_the_centre_holds_tiles():
    """AZ-FLOW-3: the factories are empty but the centre still has tiles: the offer goes on."""
    s = position(factories={1: "BBRR"})
    s.apply(act(1, B, line(5)))
    assert s.round() == 0
    assert s.current_player() == 1
    assert legal(s) == {act(CENTRE, R, d) for d in ALL_DESTS}


# ---------------------------------------------------------------- the marker and a full floor

def test_AZ_AMB_8_marker_taken_with_a_full_floor():
    """AZ-AMB-8: seat 1's floor is full (7 tiles); it takes the only centre tile (blue -> line 1):
    it still gets the marker and starts the next round, the floor stays at 7 spaces, and the penalty
    is the maximum 14, no more: 20 + 1 (isolated blue) - 14 = 7."""
    s = position(centre="B", current=1, boards={1: dict(floor="RRRRRRR", score=20)})
    s.apply(act(CENTRE, B, line(1)))
    assert score(s, 1) == 7
    assert s.next_first_player() == 1
    while s.is_chance_node():
        s.apply(int(s.legal_actions()[0]))
    assert s.current_player() == 1


def test_AZ_AMB_8_marker_beside_a_full_floor_during_the_offer():
    """AZ-AMB-8: right after the take (round not over) the floor still counts 7 spaces, the seat
    holds the marker and the tiles taken to the floor went to the lid."""
    s = position(centre="BB", factories={1: "KKKK"}, boards={0: dict(floor="RRRRRRR")})
    lid0 = lid(s)
    s.apply(act(CENTRE, B, FLOOR))
    assert floor_of(s, 0) == (7, True, [0, 0, 7, 0, 0])
    assert lid(s)[B] == lid0[B] + 2
    assert s.next_first_player() == 0


def test_AZ_AMB_9_marker_goes_down_before_the_overflow():
    """AZ-AMB-9, AZ-MOVE-4: 5 floor spaces used; 3 blues from the centre to the floor: the marker takes
    space 6, one blue space 7, the other 2 blues go to the lid."""
    s = position(centre="BBB", factories={1: "KKKK"}, boards={0: dict(floor="YYYYY")})
    lid0 = lid(s)
    s.apply(act(CENTRE, B, FLOOR))
    assert floor_of(s, 0) == (7, True, [1, 5, 0, 0, 0])
    assert lid(s)[B] == lid0[B] + 2
