"""The central area, red-space exits, rounds, extra turns and the end (GA-CHAN-1..5, GA-FIN-1..4,
GA-ROUND-1/2, GA-END-1/2, GA-FLOW-1/4/5, GA-AMB-14/33/38/39/42, GA-ORDER-4). Placeholder edition
(central tile: A = resolve Catalan once, B = 2 Nature VP) and edits of it; expected values are
worked out from the spec in each docstring."""
import pytest

import tilecraft
from gaudi_helpers_flow import (CENTRAL, CENTRAL_A, CENTRAL_AREA, CENTRAL_B, DONE, FRAME, GONE, MODE, MOVE,
                                NOT_ENTERED, PENCILS, USES, at_move, edit, edition_dir, empty_area, extra_turn_edition,
                                give_hand, legal, make, move_and_pass, ready, set_board, set_window, snapshot)
from tilecraft.games import gaudi as G

EXTRA = G.resolve(36)  # RESOLVE extra_turn


def rejected(state, action):
    before = snapshot(state)
    with pytest.raises(tilecraft.IllegalActionError):
        state.apply(int(action))
    assert snapshot(state) == before


def distinct_tiles(ed):
    """Central tile t: option A resolves the Catalan column once, option B gives t + 1 Nature VP."""
    for t, tile in enumerate(ed["chandeliers"]["tiles"]):
        tile["b"] = [{"type": "vp", "domain": "nature", "n": t + 1}]


def distinct():
    return edition_dir("distinct-central-tiles", distinct_tiles)


# ---------------------------------------------------------------- the central area


@pytest.mark.parametrize("order", [(CENTRAL_B, CENTRAL_A), (CENTRAL_A, CENTRAL_B)])
def test_ga_chan_1_ga_chan_2_first_arrival_takes_both_options_in_any_order(order):
    """GA-CHAN-1, GA-CHAN-2: central tiles differ (B of tile t gives t + 1 Nature VP). Nobody has
    finished; seat 0 at 10 moves to the central area: no pencils or hammers (no take is legal),
    only the current tile's options A and B (not yet DONE). It takes both, in either order: Nature
    + (t + 1) from B and + 1 Catalan from A (the empty Catalan column's board reward)."""
    s = at_move(make(4, seed=1, data=distinct()), 0, {0: 10, 1: 5, 2: 6, 3: 7})
    t = s.central()[0]
    s.apply(CENTRAL_AREA)
    assert s.phase() == CENTRAL and legal(s) == {CENTRAL_A, CENTRAL_B}
    s.apply(order[0])
    assert legal(s) == {order[1], DONE}
    s.apply(order[1])
    assert s.domain_scores(0) == (t + 1, 1, 0)
    assert s.phase() == MOVE and s.current_player() == 1


def test_ga_chan_2_first_arrival_may_skip_the_second_option():
    """GA-CHAN-2 (may): the first arrival takes B and then declines A with DONE: only B's VP."""
    s = at_move(make(4, seed=1, data=distinct()), 0, {0: 10, 1: 5})
    t = s.central()[0]
    s.apply(CENTRAL_AREA)
    s.apply(CENTRAL_B)
    s.apply(DONE)
    assert s.domain_scores(0) == (t + 1, 0, 0) and s.current_player() == 1


@pytest.mark.parametrize("option", [CENTRAL_A, CENTRAL_B])
def test_ga_chan_3_ga_fin_4_later_arrival_takes_one_option(option):
    """GA-CHAN-3, GA-FIN-4, GA-FIN-1: seat 1 has already finished. Seat 0 reaches the central area:
    it chooses A or B (DONE is not offered), and after that one option its turn is over: the
    other option is rejected (seat 2 is to move) and only the chosen option scored."""
    s = at_move(make(4, seed=2, data=distinct()), 0, {0: 10, 1: GONE, 2: 5, 3: 6}, finished=True, holder=1)
    t = s.central()[0]
    s.apply(CENTRAL_AREA)
    assert legal(s) == {CENTRAL_A, CENTRAL_B}
    s.apply(option)
    assert s.phase() == MOVE and s.current_player() == 2
    rejected(s, CENTRAL_B if option == CENTRAL_A else CENTRAL_A)
    assert s.domain_scores(0) == ((0, 1, 0) if option == CENTRAL_A else (t + 1, 0, 0))


def test_ga_chan_4_the_marker_leaves_after_the_central_options():
    """GA-CHAN-4: seat 0 leaves its space 10 for the central area: its marker is off the board (48),
    space 10 is free for seat 1 (at 5), and seat 0 gets no more turns this round."""
    s = at_move(make(3, seed=3), 0, {0: 10, 1: 5, 2: 4})
    move_and_pass(s, CENTRAL_AREA)
    assert s.positions()[0] == GONE
    assert s.current_player() == 1 and 10 in legal(s)
    movers = []
    for _ in range(4):
        movers.append(s.current_player())
        move_and_pass(s, min(a for a in legal(s) if a < CENTRAL_AREA))
    assert 0 not in movers


def test_ga_chan_5_first_arrival_takes_the_start_player_marker():
    """GA-CHAN-5, GA-ROUND-2, GA-FLOW-2: 4 players, start player 0. Seat 1 reaches the central area
    first and takes the start-player marker; the round goes on in the same order (2, 3, 0). Seats
    2, 3 and 0 then arrive later and do not take the marker. Round 2 starts with seat 1, clockwise:
    1, 2, 3, 0."""
    s = at_move(make(4, seed=4), 1, {0: 3, 1: 5, 2: 2, 3: 4}, start=0, holder=0)
    move_and_pass(s, CENTRAL_AREA)
    assert s.marker_holder() == 1 and s.start_player() == 0
    order = []
    for _ in range(3):
        order.append(s.current_player())
        move_and_pass(s, CENTRAL_AREA, CENTRAL_A)
        if s.round() == 1:
            assert s.marker_holder() == 1
    assert order == [2, 3, 0]
    assert s.round() == 2 and s.start_player() == 1
    order = []
    for _ in range(4):
        order.append(s.current_player())
        move_and_pass(s, min(a for a in legal(s) if a < CENTRAL_AREA))
    assert order == [1, 2, 3, 0]


# ---------------------------------------------------------------- red spaces


def test_ga_fin_2_ga_amb_14_red_space_exit_after_a_finish():
    """GA-FIN-2, GA-AMB-14: seat 1 has finished. Seat 0 at 15 moves to 21 (red, card-any, 1 hammer):
    it may first take a card, then its marker leaves the board. It gets no central option and the
    start-player marker stays with seat 1."""
    s = at_move(make(3, seed=5), 0, {0: 15, 1: GONE, 2: 3}, finished=True, holder=1)
    s.apply(21)
    assert s.phase() == USES
    c = s.windows()[0][0]
    s.apply(G.take_card(c))
    assert c in s.hand(0)
    assert s.positions()[0] == GONE and s.phase() == MOVE and s.current_player() == 2
    assert s.marker_holder() == 1


def test_ga_amb_14_red_space_actions_are_optional_and_follow_the_leader_rule():
    """GA-AMB-14: seat 1 has finished; seat 0 at 15 moves to 22 (red, tile of colour 0, 1 pencil + 1
    hammer) while seat 2 is at 23: not leading, so it must choose pencils or hammers. It chooses
    pencils and then does nothing (DONE): it still leaves the board, with an unchanged board."""
    s = at_move(make(3, seed=5), 0, {0: 15, 1: GONE, 2: 23}, finished=True, holder=1)
    s.apply(22)
    assert s.phase() == MODE
    s.apply(PENCILS)
    s.apply(DONE)
    assert s.positions()[0] == GONE and s.board(0) == [0, 0, 0, 0] and s.current_player() == 2


def test_ga_fin_2_red_spaces_are_ordinary_before_anyone_finished():
    """GA-FIN-2: nobody has finished; seat 0 at 15 moves to red space 21 and ends its turn: the marker
    stays on 21."""
    s = at_move(make(3, seed=5), 0, {0: 15, 2: 3})
    move_and_pass(s, 21)
    assert s.positions()[0] == 21 and s.current_player() == 1


def test_ga_fin_3_a_marker_already_on_red_waits_for_its_own_turn():
    """GA-FIN-3: seat 2 stands on red space 20 when seat 1 reaches the central area first. Seat 2's
    marker is not removed; on its next turn it moves to 22 (red): it may act there (it leads: 1
    pencil + 1 hammer, no mode choice) and then leaves."""
    s = at_move(make(3, seed=6), 1, {0: 5, 1: 12, 2: 20}, start=0)
    move_and_pass(s, CENTRAL_AREA)
    assert s.anyone_finished() and s.positions()[2] == 20
    assert s.current_player() == 2
    s.apply(22)
    assert s.phase() == USES and s.units()[1:3] == (1, 1)
    s.apply(DONE)
    assert s.positions()[2] == GONE


def test_ga_fin_3_from_red_to_the_central_area_is_a_later_arrival():
    """GA-FIN-3, GA-FIN-4: same position; seat 2 on 20 moves to the central area instead: one option
    only, then it leaves."""
    s = at_move(make(3, seed=6), 1, {0: 5, 1: 12, 2: 20}, start=0)
    move_and_pass(s, CENTRAL_AREA)
    s.apply(CENTRAL_AREA)
    assert legal(s) == {CENTRAL_A, CENTRAL_B}
    s.apply(CENTRAL_B)
    assert s.positions()[2] == GONE and s.current_player() == 0


# ---------------------------------------------------------------- rounds and the end


def test_ga_flow_4_a_player_keeps_moving_until_it_leaves():
    """GA-FLOW-4: 3 players; seats 1 and 2 have finished. Seat 0 at 0 moves one space per turn and
    takes every turn: 1, 2, ..., 20; at 20 (red, after a finish) it leaves, and the round ends."""
    s = at_move(make(3, seed=7), 0, {0: 0, 1: GONE, 2: GONE}, finished=True, holder=1)
    stops = []
    while s.round() == 1:
        assert s.current_player() == 0
        target = min(a for a in legal(s) if a < CENTRAL_AREA)
        stops.append(target)
        move_and_pass(s, target)
    assert stops == list(range(1, 21))
    assert s.round() == 2 and s.current_player() == 1


def play_explicit(state, sizes):
    """Everyone goes to the central area at once (B, then DONE if offered); chance nodes take their
    first outcome, and the central-tile nodes' sizes go into `sizes`."""
    while not state.is_terminal():
        if state.is_chance_node():
            out = state.chance_outcomes()
            if all(abs(p - 1 / len(out)) < 1e-12 for _, p in out) and len(out) in (5, 6, 7):
                sizes.append((state.round(), len(out)))
            state.apply(out[0][0])
        else:
            assert state.phase() == MOVE
            move_and_pass(state, CENTRAL_AREA, CENTRAL_B)


def test_ga_flow_1_ga_end_1_ga_end_2_ga_round_1_ga_setup_5_three_rounds_three_tiles():
    """GA-FLOW-1, GA-END-1, GA-END-2, GA-ROUND-1, GA-SETUP-5: explicit chance, central tiles that
    differ (B of tile t: t + 1 Nature VP), everyone goes straight to the central area and takes B.
    Each round reveals a new tile among those not drawn yet: 7, then 6, then 5 outcomes; always
    the first outcome, so tiles 0, 1, 2. Each player scores 1 + 2 + 3 = 6 Nature VP, so each
    round used its own tile. After round 3 the game is over at once (no fourth tile is drawn), and
    exactly 3 of the 7 tiles were used."""
    s = make(3, seed=8, data=distinct(), chance="explicit")
    sizes = []
    play_explicit(s, sizes)
    assert sizes == [(1, 7), (2, 6), (3, 5)]
    assert s.is_terminal() and s.round() == 3
    assert [s.domain_scores(p) for p in range(3)] == [(6, 0, 0)] * 3
    assert s.central()[1] == 0b111


def put_column(state, seat, domain, cards):
    def fn(s):
        for c in cards:
            s["card_loc"][c] = tilecraft.GaudiState.locations()["column"]
            s["card_owner"][c] = seat
        s["column"][seat][domain] = list(cards) + [255] * (33 - len(cards))
        s["column_n"][seat][domain] = len(cards)
    return edit(state, fn)


def test_ga_round_2_players_keep_their_things_between_rounds():
    """GA-ROUND-2, GA-ROUND-1: the last participant on the track (seat 0, at 10) reaches the central
    area and takes B (+ t + 1 Nature). Round 2 starts with the start-player marker's holder (seat 2)
    and every player keeps board, hand, columns, chimneys and scores; the new central tile differs
    from the old one."""
    s = at_move(make(3, seed=9, data=distinct()), 0, {0: 10, 1: GONE, 2: GONE}, finished=True, holder=2)
    s = set_board(s, 0, {0: 1, 1: 1, 7: 2})
    s = give_hand(s, 0, [5, 40])
    s = put_column(s, 0, 0, [9])
    s = put_column(s, 1, 2, [70])
    s = edit(s, lambda d: (d.__setitem__("chimney", [[1, 0, 2], [0, 1, 0], [0, 0, 0], [0, 0, 0]]),
                           d.__setitem__("score", [[3, 4, 5], [1, 0, 0], [0, 2, 0], [0, 0, 0]])))
    t = s.central()[0]
    keep = [(s.board(p), s.hand(p), s.columns(p), s.chimneys(p)) for p in range(3)]
    move_and_pass(s, CENTRAL_AREA, CENTRAL_B)
    assert s.round() == 2 and s.current_player() == 2 and s.start_player() == 2
    assert [(s.board(p), s.hand(p), s.columns(p), s.chimneys(p)) for p in range(3)] == keep
    assert [s.domain_scores(p) for p in range(3)] == [(3 + t + 1, 4, 5), (1, 0, 0), (0, 2, 0)]
    assert s.central()[0] != t and s.positions() == [NOT_ENTERED] * 5


def last_turn_of_round_3(players, scores, boards=None, **options):
    """Round 3 (tiles 0, 1, 2 used, tile 2 showing); every seat but 0 has finished; seat 0 at 10 is
    to move. scores: per seat (N, C, R)."""
    s = ready(make(players, seed=10, **options))
    s = at_move(s, 0, {0: 10, **{p: GONE for p in range(1, players)}}, finished=True, holder=1)

    def fn(d):
        d["round"], d["central_tile"], d["central_used"] = 3, 2, 0b111
        d["score"] = [list(x) for x in scores] + [[0, 0, 0]] * (4 - len(scores))
    s = edit(s, fn)
    for p, tiles in (boards or {}).items():
        s = set_board(s, p, tiles)
    return s


def test_ga_end_2_ga_flow_5_ga_amb_38_the_last_exit_of_round_3_ends_the_game():
    """GA-END-2, GA-FLOW-5, GA-AMB-38 (returns_mode score): round 3, seat 0 (5, 5, 5)
    is the last on the track; seat 1 has (10, 4, 6) and groups [3, 2, 1] (colour 0 on 0, 1, 2;
    colour 1 on 6, 7; colour 2 on 12). Seat 0 reaches the central area and takes B (+2 Nature):
    the game is over at once (explicit chance: no further draw). Final: seat 0 = 5 + 5 (7 is left
    out) = 10; seat 1 = 4 + 6 (10 left out) + 2 + 1 = 13. Returns are the final scores; seat 1
    wins."""
    boards = {1: {0: 0, 1: 0, 2: 0, 6: 1, 7: 1, 12: 2}}
    s = last_turn_of_round_3(2, [(5, 5, 5), (10, 4, 6)], boards, chance="explicit")
    s.apply(CENTRAL_AREA)
    s.apply(CENTRAL_B)
    assert s.is_terminal() and not s.is_chance_node()
    assert list(s.scores()) == [10, 13] and list(s.returns()) == [10, 13]
    assert s.winners() == [1]


def test_ga_order_4_ga_amb_38_win_loss_returns_and_tie_breaks():
    """GA-ORDER-4, GA-AMB-38 (returns_mode win_loss: 1/k to each of k co-winners): seat 0 ends with
    (7, 5, 5): 10, tie-break 7. (a) Seat 1 (10, 4, 6): 10, tie-break 10: seat 1 wins alone, returns
    [0, 1]. (b) Seat 1 (5, 5, 7): 10, tie-break 7: shared victory, [0.5, 0.5]."""
    s = last_turn_of_round_3(2, [(5, 5, 5), (10, 4, 6)], returns_mode="win_loss")
    move_and_pass(s, CENTRAL_AREA, CENTRAL_B)
    assert s.is_terminal() and s.winners() == [1] and list(s.returns()) == [0, 1]
    s = last_turn_of_round_3(2, [(5, 5, 5), (5, 5, 7)], returns_mode="win_loss")
    move_and_pass(s, CENTRAL_AREA, CENTRAL_B)
    assert s.winners() == [0, 1] and list(s.returns()) == [0.5, 0.5]


# ---------------------------------------------------------------- nothing to take at the centre


def card_central(ed):
    for tile in ed["chandeliers"]["tiles"]:
        tile["a"] = [{"type": "take_card"}, {"type": "resolve_catalan", "times": 1}]
        tile["b"] = [{"type": "take_card", "domain": "nature"}]


def test_ga_amb_42_central_area_with_empty_windows():
    """GA-AMB-42: central options A = take a card (any domain) + resolve the Catalan column, B = take
    a Nature card; every window is empty. Seat 0 may still move to the central area. A's card
    cannot be taken and is skipped (the Catalan resolution still gives the board's +1 C); B cannot
    be carried out at all and is skipped: the hand stays the same and the turn ends."""
    s = at_move(make(4, seed=11, data=edition_dir("card-central", card_central)), 0, {0: 10, 1: 5})
    for d in range(3):
        s = set_window(s, d, [])
    hand = s.hand(0)
    assert CENTRAL_AREA in legal(s)
    s.apply(CENTRAL_AREA)
    s.apply(CENTRAL_A)
    assert legal(s) == {CENTRAL_B, DONE} and s.domain_scores(0) == (0, 1, 0)
    s.apply(CENTRAL_B)
    assert s.hand(0) == hand and s.domain_scores(0) == (0, 1, 0) and s.phase() == MOVE and s.current_player() == 1


# ---------------------------------------------------------------- extra turns


def extra():
    return edition_dir("extra-turns", extra_turn_edition)


def test_ga_amb_33_an_extra_turn_follows_the_turn():
    """GA-AMB-33: seat 0 (one shape-0 tile on space 0) at 5 moves to 6 (card-any, 1 hammer) and
    advances its Nature chimney: the reward is an extra turn (RESOLVE extra_turn). After the turn
    seat 0 moves again, a full turn (a forward move from 6), and only then seat 1."""
    s = set_board(at_move(make(3, seed=12, data=extra()), 0, {0: 5, 1: 3, 2: 4}), 0, {0: 0})
    s.apply(6)
    s.apply(G.advance(0))
    assert s.phase() == FRAME and EXTRA in legal(s)
    s.apply(EXTRA)
    assert s.phase() == MOVE and s.current_player() == 0
    assert min(legal(s)) == 7
    move_and_pass(s, 8)
    assert s.current_player() == 1


def test_ga_amb_33_one_extra_turn_per_grant():
    """GA-AMB-33: generic_distinct off; seat 0 (a shape-0 tile) on generic space 9 (2 hammers)
    advances the Nature and then the Catalan chimney: two grants, two extra turns, then seat 1."""
    s = make(3, seed=12, data=extra(), generic_distinct=False)
    s = set_board(at_move(s, 0, {0: 5, 1: 3, 2: 4}), 0, {0: 0})
    s.apply(9)
    s.apply(G.advance(0))
    s.apply(EXTRA)
    s.apply(G.advance(1))
    s.apply(EXTRA)
    movers = []
    for _ in range(3):
        movers.append(s.current_player())
        move_and_pass(s, min(a for a in legal(s) if a < CENTRAL_AREA))
    assert movers == [0, 0, 1]


def test_ga_amb_33_an_extra_turn_is_lost_when_the_marker_left():
    """GA-AMB-33: central option B is an extra turn. Seat 0 reaches the central area first, takes B
    (RESOLVE extra_turn) and declines A: its marker has left, so the extra turn is lost and seat 1
    moves next."""
    s = at_move(make(3, seed=13, data=extra()), 0, {0: 10, 1: 3, 2: 4})
    s.apply(CENTRAL_AREA)
    s.apply(CENTRAL_B)
    s.apply(EXTRA)
    s.apply(DONE)
    assert s.phase() == MOVE and s.current_player() == 1


def test_ga_amb_39_an_extra_turn_is_a_turn_refill_and_bonus_limit_reset():
    """GA-AMB-39, GA-AMB-33: areas 0 and 1 carry the same bonus kind (+1 Religion), once per turn.
    Area 0 holds one tile of colour 0 shape 0. Seat 0 (alone ahead) moves to 2 (tile of colour 0,
    1 pencil + 1 hammer), takes that tile (area 0 empty: +1 R) and places it on space 0, then
    advances the Nature chimney with the hammer: an extra turn. Before the extra turn area 0 is
    refilled (5 tiles). In the extra turn seat 0 empties area 1 (one tile, colour 1 shape 1) from
    space 5 (tile-any): the bonus kind was used in the previous turn, but the limit is per turn, so
    it gives +1 R again: 2 Religion VP in all."""
    s = at_move(make(3, seed=14, data=extra()), 0, {1: 1})
    s = empty_area(empty_area(s, 0, {0: 1}), 1, {5: 1})
    s.apply(2)
    s.apply(G.take_tile(0, 0, 0))
    s.apply(G.place(0))
    assert s.domain_scores(0) == (0, 0, 1) and sum(s.areas()[0]) == 0
    s.apply(G.advance(0))
    s.apply(EXTRA)
    assert s.phase() == MOVE and s.current_player() == 0
    assert sum(s.areas()[0]) == 5
    s.apply(5)
    s.apply(G.take_tile(1, 1, 1))
    s.apply(G.place(1))  # space 1: shape 1
    assert s.domain_scores(0) == (0, 0, 2)


def test_ga_move_1_ga_move_2_ga_chan_2_a_new_round_starts_a_new_lap():
    """GA-MOVE-1, GA-MOVE-2, GA-CHAN-2, GA-FIN-2: the last participant leaves round 1 (seat 0 via the
    central area). In round 2 every marker is beside its board again; the start player (seat 2,
    the holder) enters at its own entry again (legal: 2..23 and the centre); nobody has finished
    yet, so red space 20 is an ordinary space (the marker stays); and the first to reach the
    central area in round 2 takes both options (A, B offered, then the other or DONE)."""
    s = at_move(make(3, seed=15), 0, {0: 10, 1: GONE, 2: GONE}, finished=True, holder=2)
    move_and_pass(s, CENTRAL_AREA, CENTRAL_A)
    assert s.round() == 2 and s.positions() == [NOT_ENTERED] * 5 and not s.anyone_finished()
    assert s.current_player() == 2 and legal(s) == set(range(2, 24)) | {CENTRAL_AREA}
    move_and_pass(s, 20)
    assert s.positions()[2] == 20 and s.current_player() == 0
    s.apply(CENTRAL_AREA)
    assert legal(s) == {CENTRAL_A, CENTRAL_B}
    s.apply(CENTRAL_A)
    assert legal(s) == {CENTRAL_B, DONE} and s.marker_holder() == 0


def test_ga_amb_33_ga_dummy_1_extra_turn_in_a_two_player_game():
    """GA-AMB-33, GA-DUMMY-1: 2 players; seat 1 (a shape-0 tile) at 5 moves to 6 (card-any, 1
    hammer), advances a chimney and takes the extra turn. Seat 1 moves again at once (the virtual
    marker, at 8, does not move in between); then the virtual marker moves once, beyond everyone,
    and seat 0 moves."""
    s = at_move(make(2, seed=16, data=extra()), 1, {0: 3, 1: 5, 4: 8}, start=0)
    s = set_board(s, 1, {0: 0})
    s.apply(6)
    s.apply(G.advance(0))
    s.apply(EXTRA)
    assert s.current_player() == 1 and s.phase() == MOVE and s.positions()[4] == 8
    move_and_pass(s, 7)
    assert s.current_player() == 0 and s.positions() == [3, 7, -1, -1, 9]


def test_ga_end_2_a_red_exit_can_end_the_game():
    """GA-END-2, GA-FIN-2: round 3, every other seat has finished; seat 0 at 15 moves to red space 20
    and declines its action: it leaves, the round (the last one) is over, so the game is over:
    final scores = the two lowest domains, (5, 5, 5) -> 10 and (10, 4, 6) -> 10."""
    s = last_turn_of_round_3(3, [(5, 5, 5), (10, 4, 6), (1, 1, 1)])
    s = at_move(s, 0, {0: 15, 1: GONE, 2: GONE}, finished=True, holder=1)
    s.apply(20)
    s.apply(DONE)
    assert s.is_terminal()
    assert list(s.scores()) == [10, 10, 2]


def test_ga_amb_33_an_extra_turn_is_lost_on_a_red_exit():
    """GA-AMB-33, GA-FIN-2: seat 1 has finished; seat 0 (a shape-0 tile) at 15 moves to red space 21
    (card-any, 1 hammer), advances its Nature chimney and takes the extra turn it gives. It then
    leaves the board (red exit), so the extra turn is lost: seat 2 moves next."""
    s = at_move(make(3, seed=17, data=extra()), 0, {0: 15, 1: GONE, 2: 3}, finished=True, holder=1)
    s = set_board(s, 0, {0: 0})
    s.apply(21)
    s.apply(G.advance(0))
    s.apply(EXTRA)
    assert s.positions()[0] == GONE and s.phase() == MOVE and s.current_player() == 2
