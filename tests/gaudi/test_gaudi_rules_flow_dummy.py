"""The 2-player virtual third marker (GA-SCOPE-4, GA-SETUP-10, GA-DUMMY-1/2, GA-EX-8, GA-AMB-11,
GA-AMB-15/16/17, GA-AMB-44). Placeholder edition: colour k enters at k, spaces 20..23 red; the
virtual marker is marker 4 in positions() and plays colour 2, the lowest unused colour."""
import pytest

from gaudi_helpers_flow import (CENTRAL_A, CENTRAL_AREA, CENTRAL_B, DONE, GONE, MOVE, NOT_ENTERED, VIRTUAL, at_move,
                                day, edition_dir, legal, make, move_and_pass)


def lowest(state):
    return min(a for a in legal(state) if a < CENTRAL_AREA)


def test_ga_scope_4_ga_setup_10_ga_dummy_1_only_two_player_games_have_a_virtual_marker():
    """GA-SCOPE-4, GA-SETUP-10, GA-DUMMY-1: after one full cycle of a 2-player game (both players
    move one step) the virtual marker stands on the track at or beyond colour 2's entry (2); in 3-
    and 4-player games no fifth marker ever appears on the track."""
    s = make(2, seed=1)
    move_and_pass(s, 0)
    move_and_pass(s, 1)
    assert s.current_player() == 0 and 2 <= s.positions()[VIRTUAL] < 24
    for players in (3, 4):
        s = make(players, seed=1)
        for _ in range(2 * players):
            move_and_pass(s, lowest(s))
            assert s.positions()[VIRTUAL] == NOT_ENTERED
            assert len([x for x in s.positions() if 0 <= x < 24]) <= players


@pytest.mark.parametrize("start", [0, 1])
def test_ga_dummy_1_ga_dummy_2_ga_amb_8_virtual_marker_moves_once_after_both_players(start):
    """GA-DUMMY-1, GA-DUMMY-2, GA-AMB-8, GA-AMB-17: start player `start`. The start player moves to
    its entry, the other player to its own entry (0 and 1). Then the virtual marker moves once, to
    the first free index beyond max(its entry - 1 = 1, 0, 1): index 2; then the start player moves
    again. Next cycle: the start player goes to 3, the other to 4, the virtual marker to 5."""
    s = make(2, seed=2, first_player=start)
    other = 1 - start
    assert s.current_player() == start
    move_and_pass(s, start)
    assert s.current_player() == other
    move_and_pass(s, other)
    assert s.current_player() == start and s.positions()[VIRTUAL] == 2
    move_and_pass(s, 3)
    move_and_pass(s, 4)
    assert s.current_player() == start and s.positions()[VIRTUAL] == 5


def test_ga_ex_8_ga_amb_17_virtual_marker_that_already_leads_moves_forward():
    """GA-EX-8, GA-AMB-17: real markers at 4 (seat 0) and 6 (seat 1, to move), the virtual marker at
    10. Seat 1 moves to 7; the virtual marker's target is the first free index greater than
    max(10, 4, 7): 11, not 8. Then seat 0 moves."""
    s = at_move(make(2, seed=3), 1, {0: 4, 1: 6, VIRTUAL: 10}, start=0)
    move_and_pass(s, 7)
    assert s.current_player() == 0
    assert s.positions() == [4, 7, -1, -1, 11]


def test_ga_amb_11_after_one_player_finished_the_other_and_the_virtual_marker_alternate():
    """GA-AMB-11: 2 players, seat 0 has finished; seat 1 at 2, the virtual marker at 4. Seat 1 moves
    one free step at a time: 3, then the virtual marker to 5 (first free beyond 4), seat 1 to 4,
    the virtual marker to 6, seat 1 to 5, ... At each of seat 1's moves (seat 1, virtual) stand at
    (2, 4), (3, 5), (4, 6), (5, 7)."""
    s = at_move(make(2, seed=4), 1, {0: GONE, 1: 2, VIRTUAL: 4}, start=0, finished=True)
    seen = []
    for _ in range(4):
        assert s.current_player() == 1 and s.phase() == MOVE
        seen.append((s.positions()[1], s.positions()[VIRTUAL]))
        move_and_pass(s, lowest(s))
    assert seen == [(2, 4), (3, 5), (4, 6), (5, 7)]


def test_ga_amb_17_ga_amb_44_virtual_marker_plays_colour_2_and_enters_at_its_entry():
    """GA-AMB-17, GA-AMB-44, GA-SETUP-10, GA-AMB-15: an edition with day entries [0, 1, 20, 3]: colour
    2 (the lowest unused colour, the virtual marker's) enters at red space 20, colour 3 at 3. Seat 0
    has finished; seat 1 moves from 1 to 2. The virtual marker, not yet entered, counts as standing
    at 20 - 1 = 19, so its target is 20: red, and someone has finished, so it leaves the board
    (GA-AMB-15). Had it used colour 3 it would have stopped on 3."""
    def entries(ed):
        day(ed)["entry"] = [0, 1, 20, 3]
    s = make(2, seed=5, data=edition_dir("entries-0-1-20-3", entries))
    s = at_move(s, 1, {0: GONE, 1: 1}, start=0, finished=True)
    move_and_pass(s, 2)
    assert s.positions()[VIRTUAL] == GONE
    assert s.current_player() == 1 and s.positions()[1] == 2


def test_ga_amb_17_virtual_marker_never_moves_back_and_leaves_at_the_end():
    """GA-AMB-17, GA-AMB-15, GA-DUMMY-2: the virtual marker already leads at 23, the last space; real
    markers at 4 (seat 0) and 6 (seat 1, to move). Seat 1 moves to 7. No free index is greater than
    23, so the virtual marker goes to the central area and leaves; it never goes back to 8. Its
    arrival is not a finish: nobody has finished, the start-player marker stays with seat 0, and
    seat 0 reaching the central area next is the first arrival (both options, takes the marker)."""
    s = at_move(make(2, seed=6), 1, {0: 4, 1: 6, VIRTUAL: 23}, start=0, holder=0)
    move_and_pass(s, 7)
    assert s.positions()[VIRTUAL] == GONE
    assert not s.anyone_finished() and s.marker_holder() == 0
    s = at_move(s, 1, {0: 4, 1: 7, VIRTUAL: GONE}, start=0)
    s.apply(CENTRAL_AREA)
    assert legal(s) == {CENTRAL_A, CENTRAL_B}
    s.apply(CENTRAL_B)
    assert legal(s) == {CENTRAL_A, DONE}
    assert s.marker_holder() == 1


def test_ga_dummy_2_virtual_marker_takes_no_action():
    """GA-DUMMY-2: seat 1 moves to 7 and does nothing; the virtual marker moves in the same cycle.
    Supply areas, windows, bag, hands, boards and scores are exactly as before: the virtual marker
    performed no action."""
    s = at_move(make(2, seed=7), 1, {0: 4, 1: 6, VIRTUAL: 10}, start=0)
    before = (s.areas(), s.windows(), s.bag(), s.hand(0), s.hand(1), s.board(0), s.board(1),
              s.domain_scores(0), s.domain_scores(1), s.deck_sizes())
    move_and_pass(s, 7)
    assert s.positions()[VIRTUAL] > 10
    assert before == (s.areas(), s.windows(), s.bag(), s.hand(0), s.hand(1), s.board(0), s.board(1),
                      s.domain_scores(0), s.domain_scores(1), s.deck_sizes())


def test_ga_amb_15_virtual_marker_blocks_spaces_and_leaves_on_red_after_a_finish():
    """GA-AMB-15: (1) the virtual marker at 8 blocks that space: seat 0 at 5 cannot stop on 8 but may
    pass it to 9. (2) Seat 0 has finished; seat 1 at 18 moves to 19 and the virtual marker at 17
    then targets 20, a red space: it leaves the board."""
    s = at_move(make(2, seed=8), 0, {0: 5, 1: 3, VIRTUAL: 8}, start=0)
    assert 8 not in legal(s) and 9 in legal(s)
    s = at_move(make(2, seed=8), 1, {0: GONE, 1: 18, VIRTUAL: 17}, start=0, finished=True)
    move_and_pass(s, 19)
    assert s.positions()[VIRTUAL] == GONE


def test_ga_amb_16_round_ends_when_the_participants_left_and_the_virtual_marker_is_removed():
    """GA-AMB-16, GA-ROUND-1, GA-MOVE-1: seat 0 has left; seat 1 at 12 goes to the central area while
    the virtual marker still stands on 15. The round ends there: round 2 starts with every marker,
    the virtual one included, off the track (-1)."""
    s = at_move(make(2, seed=9), 1, {0: GONE, 1: 12, VIRTUAL: 15}, start=0, finished=True, holder=0)
    move_and_pass(s, CENTRAL_AREA, CENTRAL_A)
    assert s.round() == 2
    assert s.positions() == [NOT_ENTERED] * 5
    assert s.phase() == MOVE
