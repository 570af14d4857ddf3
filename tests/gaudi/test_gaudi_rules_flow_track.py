"""Moving on the track, the leader and the pencil/hammer uses (GA-FLOW-3, GA-MOVE-*, GA-ACTN-*,
GA-AMB-8/9/10/12/13, GA-EX-7, GA-GEN-2, GA-ORDER-1). Positions are built on the spec's
placeholder edition (see gaudi_helpers_flow.py for the track by index); expected values are worked
out from the spec in each docstring."""
import pytest

import tilecraft
from gaudi_helpers_flow import (CENTRAL_A, CENTRAL_AREA, CHANCE, DONE, GONE, HAMMERS, MODE, MOVE, NOT_ENTERED,
                                PENCILS, PLACE, USES, VIRTUAL, at_move, day, edition_dir, empty_area,
                                extra_turn_edition, give_hand, legal, make, move_and_pass, set_board, set_window,
                                snapshot)
from tilecraft.games import gaudi as G


def rejected(state, action):
    """The action raises IllegalActionError and leaves the state exactly as it was."""
    before = snapshot(state)
    with pytest.raises(tilecraft.IllegalActionError):
        state.apply(int(action))
    assert snapshot(state) == before


def tile_ids(state, pred=lambda t: True):
    """Every TAKE_TILE id of a tile in the supply areas whose type t (4 colour + shape) passes pred."""
    return {G.take_tile(a, t >> 2, t & 3) for a, area in enumerate(state.areas()) for t, n in enumerate(area)
            if n and pred(t)}


def window_ids(state, domains=(0, 1, 2)):
    return {G.take_card(c) for d in domains for c in state.windows()[d]}


@pytest.fixture
def s4():
    return make(4, seed=3)


# ---------------------------------------------------------------- moving


def test_ga_flow_3_ga_move_3_ga_amb_10_a_turn_starts_with_a_forward_move(s4):
    """GA-FLOW-3, GA-MOVE-3, GA-AMB-10: seat 0 stands at 5; seats 1, 2, 3 at 9, 3, 12. Its turn
    starts with the move and nothing else: the legal ids are every free index greater than 5 (6, 7,
    8, 10, 11, 13..23) plus the central area, by any number of spaces. Staying, moving back, or
    acting before moving (taking a tile or a card, pencils, done) is rejected."""
    s = at_move(s4, 0, {0: 5, 1: 9, 2: 3, 3: 12})
    assert s.phase() == MOVE and s.current_player() == 0
    assert legal(s) == {6, 7, 8, 10, 11} | set(range(13, 24)) | {CENTRAL_AREA}
    for a in (5, 4, 3, 0, PENCILS, HAMMERS, DONE, min(tile_ids(s)), min(window_ids(s))):
        rejected(s, a)
    s.apply(23)  # any distance
    assert s.positions()[0] == 23


def test_ga_move_2_ga_amb_10_ga_amb_44_first_move_enters_at_the_own_entry_space():
    """GA-MOVE-2, GA-AMB-10, GA-AMB-44: an edition whose day entries are [6, 1, 12, 3] (seat i plays
    colour i). Round start, seat 0 first: its first move may stop on any free index >= 6 (the entry
    counts as the first step, so 6 itself is legal) or the central area; 0..5 are not. Seat 1 then
    enters at >= 1 and may stop on index 3, colour 3's entry, an ordinary space for it; 6 is taken."""
    def entries(ed):
        day(ed)["entry"] = [6, 1, 12, 3]
    s = make(4, seed=1, data=edition_dir("entries-6-1-12-3", entries))
    assert s.positions() == [-1] * 5 and s.current_player() == 0
    assert legal(s) == set(range(6, 24)) | {CENTRAL_AREA}
    for a in range(6):
        rejected(s, a)
    move_and_pass(s, 6)
    assert s.current_player() == 1
    assert legal(s) == (set(range(1, 24)) - {6}) | {CENTRAL_AREA}
    s.apply(3)
    assert s.positions()[1] == 3


def test_ga_move_4_pass_occupied_spaces_but_never_stop_on_one(s4):
    """GA-MOVE-4: seat 0 at 2, seats 1 and 2 at 5 and 6. Seat 0 may jump over both to 7, but 5 and 6
    are not legal (rejected, state unchanged)."""
    s = at_move(s4, 0, {0: 2, 1: 5, 2: 6, 3: 3})
    assert {5, 6}.isdisjoint(legal(s)) and 7 in legal(s)
    rejected(s, 5)
    rejected(s, 6)
    s.apply(7)
    assert s.positions()[:4] == [7, 5, 6, 3]


def test_ga_amb_10_the_central_area_is_always_a_legal_move(s4):
    """GA-AMB-10: seat 0 at 22 and seat 1 at 23, the last space: the only legal move is the central
    area (a move must advance; the central area is never occupied)."""
    s = at_move(s4, 0, {0: 22, 1: 23})
    assert legal(s) == {CENTRAL_AREA}


# ---------------------------------------------------------------- the leader


def test_ga_move_5_ga_ex_7_ga_amb_9_leader_is_strictly_furthest_ahead():
    """GA-EX-7, GA-MOVE-5, GA-AMB-9: markers at 5 (A = seat 0) and 9 (B = seat 1), seat 2 not yet
    on the track. A moves to 12, a tile-colour space with 1 pencil and 1 hammer: A leads and uses
    both (no pencils/hammers choice). Had A moved to 7 (also 1 pencil + 1 hammer), B would still be
    ahead: A does not lead and must choose pencils or hammers. Moving to 10 (just past B) leads."""
    base = make(3, seed=2)
    s = at_move(base, 0, {0: 5, 1: 9})
    s.apply(12)
    assert s.leader() and s.phase() == USES
    assert s.units()[:3] == (12, 1, 1)
    s = at_move(base, 0, {0: 5, 1: 9})
    s.apply(7)
    assert not s.leader() and s.phase() == MODE and legal(s) == {PENCILS, HAMMERS}
    s = at_move(base, 0, {0: 5, 1: 9})
    s.apply(10)
    assert s.leader()


def test_ga_amb_9_only_marker_on_the_track_leads_and_virtual_marker_counts(s4):
    """GA-AMB-9: alone on the track (round start), seat 0 moving to 2 leads. In a 2-player game the
    virtual marker is compared too: seat 0 at 5, seat 1 at 3, virtual marker at 11: moving to 7
    does not lead (11 is ahead), moving to 12 does."""
    s = at_move(s4, 0, {})
    s.apply(2)
    assert s.leader()
    two = make(2, seed=4)
    s = at_move(two, 0, {0: 5, 1: 3, 4: 11})
    s.apply(7)
    assert not s.leader() and s.phase() == MODE
    s = at_move(two, 0, {0: 5, 1: 3, 4: 11})
    s.apply(12)
    assert s.leader()


def test_ga_actn_6_ga_amb_9_finished_markers_and_option_finished_markers_block_leader():
    """GA-ACTN-6, GA-AMB-9 (finished_markers_block_leader): seat 1 has finished (left, 48); seat 0
    at 5 moves to 7 (1 pencil + 1 hammer) while seat 2 stands at 3. By default finished markers are
    not compared, so seat 0 is strictly furthest ahead on the track and leads (no mode choice).
    With the option on, once someone has finished nobody on the track leads: the same move must
    choose pencils or hammers. With the option on but nobody finished, the move leads."""
    s = at_move(make(3, seed=5), 0, {0: 5, 1: GONE, 2: 3}, finished=True)
    s.apply(7)
    assert s.leader() and s.phase() == USES and s.units()[1:3] == (1, 1)
    blocked = make(3, seed=5, finished_markers_block_leader=True)
    s = at_move(blocked, 0, {0: 5, 1: GONE, 2: 3}, finished=True)
    s.apply(7)
    assert not s.leader() and s.phase() == MODE
    s = at_move(blocked, 0, {0: 5, 1: 4, 2: 3}, finished=False)
    s.apply(7)
    assert s.leader()


# ---------------------------------------------------------------- pencils and hammers


@pytest.mark.parametrize("index", [5, 6, 7, 8, 9])
def test_ga_move_6_ga_actn_1_the_space_decides_the_units(s4, index):
    """GA-MOVE-6, GA-ACTN-1: alone on the track, seat 0 moves to a space of each kind; its units are
    the space's pencils and hammers (placeholder: 5 tile-any 1+0, 6 card-any 0+1, 7 tile of colour
    1 1+1, 8 Catalan card 2+0, 9 generic 0+2), and with pencils only the space's own action is
    offered: tile-any takes every tile in the areas, the Catalan space only the Catalan window."""
    s = at_move(s4, 0, {1: 1})
    s.apply(index)
    pencils, hammers = [(1, 0), (0, 1), (1, 1), (2, 0), (0, 2)][index - 5]
    assert s.units()[:3] == (index, pencils, hammers)
    if index == 5:
        assert legal(s) == tile_ids(s) | {DONE}
    if index == 8:
        assert legal(s) == window_ids(s, (1,)) | {DONE}


def playable_setup(base, seat=0):
    """seat holds card 4 (Nature, black requirement 1) and has one tile (colour 0) on space 0
    (shape 0): the card is playable (1 tile of one colour) and every chimney's first space
    (shape 0 x 1) is met."""
    s = set_board(base, seat, {0: 0})
    s = give_hand(s, seat, [4])
    assert s.requirement(seat, 4) == (1, True)
    return s


def test_ga_actn_2_a_pencil_performs_the_space_action_once(s4):
    """GA-ACTN-2: alone, seat 0 moves to 3, the Nature-card space with 2 pencils. Each pencil takes
    one Nature card: two takes, then the turn is over (next seat moves). Playing a card or
    advancing a chimney is not a pencil use, even with a playable card and a met chimney."""
    s = playable_setup(at_move(s4, 0, {1: 1}))
    s.apply(3)
    assert legal(s) == window_ids(s, (0,)) | {DONE}
    rejected(s, G.play(4))
    rejected(s, G.advance(0))
    w = s.windows()[0]
    s.apply(G.take_card(w[0]))
    assert s.units()[1:3] == (1, 0) and s.phase() == USES
    s.apply(G.take_card(w[1]))
    assert s.phase() == MOVE and s.current_player() == 1
    assert sorted(s.hand(0)) == sorted([4, w[0], w[1]])


@pytest.mark.parametrize("use", ["action", "advance", "play"])
def test_ga_actn_3_a_hammer_chooses_action_chimney_or_play(s4, use):
    """GA-ACTN-3: alone, seat 0 moves to 1, the card-any space with 1 hammer. The hammer may (a) take
    a card, (b) advance a chimney or (c) play card 4; all are offered. Each spends the only hammer,
    so the turn then ends: (a) the card is in hand; (b) the Nature chimney is at 1 with its reward,
    +1 Nature VP; (c) card 4 is in the Nature column and its resolution gives its banner (+1) and
    the column reward (+1): 2 Nature VP."""
    s = playable_setup(at_move(s4, 0, {1: 2}))
    s.apply(1)
    assert legal(s) == window_ids(s) | {G.play(4), G.advance(0), G.advance(1), G.advance(2), DONE}
    if use == "action":
        c = s.windows()[2][1]
        s.apply(G.take_card(c))
        assert c in s.hand(0)
    elif use == "advance":
        s.apply(G.advance(0))
        assert s.chimneys(0) == (1, 0, 0) and s.domain_scores(0) == (1, 0, 0)
    else:
        s.apply(G.play(4))
        assert s.columns(0)[0] == [4] and s.domain_scores(0) == (2, 0, 0)
    assert s.phase() == MOVE and s.current_player() == 1


def test_ga_actn_4_ga_amb_12_leader_uses_the_pencil_and_the_hammer(s4):
    """GA-ACTN-4, GA-AMB-12 (pencil first): area 0 holds 2 tiles of colour 0 shape 0. Alone, seat 0
    moves to 2 (tile of colour 0, 1 pencil + 1 hammer) and leads. Taking a colour-0 tile spends the
    pencil (units 0 pencils, 1 hammer); the hammer is then free for any of its uses: a second
    colour-0 tile, a play (card 4) or a chimney advance. It advances the Nature chimney: both icons
    were used and the turn ends."""
    s = playable_setup(at_move(s4, 0, {1: 1}))
    s = empty_area(s, 0, {0: 2})
    s.apply(2)
    assert s.leader() and s.units()[1:3] == (1, 1)
    s.apply(G.take_tile(0, 0, 0))
    assert s.phase() == PLACE
    s.apply(G.place(4))  # (x 4, y 0): shape 0
    assert s.units()[1:3] == (0, 1)
    assert {G.take_tile(0, 0, 0), G.play(4), G.advance(0)} <= legal(s)
    s.apply(G.advance(0))
    assert s.chimneys(0) == (1, 0, 0)
    assert s.phase() == MOVE and s.current_player() == 1


def test_ga_amb_12_a_hammer_only_use_spends_the_hammer_and_keeps_the_pencil(s4):
    """GA-AMB-12: same position, the leader first plays card 4: only a hammer can play, so the hammer
    is spent and the pencil stays (1, 0); then playing or advancing is no longer offered, the
    pencil takes a colour-0 tile (from any area)."""
    s = playable_setup(at_move(s4, 0, {1: 1}))
    s = empty_area(s, 0, {0: 2})
    s.apply(2)
    s.apply(G.play(4))
    assert s.units()[1:3] == (1, 0) and s.phase() == USES
    assert legal(s) == tile_ids(s, lambda t: t >> 2 == 0) | {DONE}
    assert G.take_tile(0, 0, 0) in legal(s)


def test_ga_actn_5_non_leader_chooses_pencils_or_hammers(s4):
    """GA-ACTN-5: seat 0 at 2 moves to 7 (tile of colour 1, 1 pencil + 1 hammer) while seat 1 is at
    9: not leading. It must first choose: only PENCILS and HAMMERS are legal, a use is rejected.
    PENCILS: 1 pencil, 0 hammers, only colour-1 tiles (no play, no advance). HAMMERS: 0 pencils,
    1 hammer: colour-1 tiles, the play of card 4 and the chimney advances."""
    base = playable_setup(at_move(s4, 0, {0: 2, 1: 9}))
    base = empty_area(base, 1, {4: 1, 5: 1})  # colour 1, shapes 0 and 1
    base.apply(7)
    assert base.phase() == MODE and legal(base) == {PENCILS, HAMMERS}
    rejected(base, G.take_tile(1, 1, 0))
    colour1 = tile_ids(base, lambda t: t >> 2 == 1)
    assert colour1
    s = base.clone()
    s.apply(PENCILS)
    assert s.units()[1:4] == (1, 0, 1)
    assert legal(s) == colour1 | {DONE}
    rejected(s, G.play(4))
    s = base.clone()
    s.apply(HAMMERS)
    assert s.units()[1:4] == (0, 1, 2)
    assert legal(s) == colour1 | {G.play(4), G.advance(0), G.advance(1), G.advance(2), DONE}


def test_ga_amb_12_a_kind_the_space_lacks_cannot_be_chosen(s4):
    """GA-AMB-12, GA-ACTN-5: a non-leader on 8 (Catalan card, 2 pencils, no hammer; seat 1 ahead at
    9) has nothing to choose: the uses start at once with the 2 pencils."""
    s = at_move(s4, 0, {0: 2, 1: 9})
    s.apply(8)
    assert not s.leader() and s.phase() == USES and s.units()[1:3] == (2, 0)


def test_ga_amb_12_uses_are_optional_and_impossible_uses_are_skipped(s4):
    """GA-AMB-12: (1) seat 0 alone on 5 (tile-any, 1 pencil) may end at once with DONE: nothing is
    taken and seat 1 moves next. (2) The Nature window is empty: moving to 3 (Nature card, 2
    pencils) offers nothing, so the turn ends by itself with the hand unchanged."""
    s = at_move(s4, 0, {1: 1})
    areas = s.areas()
    s.apply(5)
    s.apply(DONE)
    assert s.current_player() == 1 and s.phase() == MOVE and s.board(0) == [0, 0, 0, 0] and s.areas() == areas
    s = set_window(at_move(s4, 0, {1: 1}), 0, [])
    hand = s.hand(0)
    s.apply(3)
    assert s.phase() == MOVE and s.current_player() == 1 and s.hand(0) == hand


def test_ga_amb_13_generic_uses_must_be_different_types(s4):
    """GA-AMB-13 (generic_distinct, default true): alone, seat 0 moves to 4 (generic, 2 hammers).
    The first use takes a Religion card: a generic card take allows any domain (all 9 window cards
    offered) and a generic collect any tile. The second use may not take a card again; it may take
    any tile. With generic_distinct=False the second card take is allowed."""
    for distinct in (True, False):
        s = at_move(make(4, seed=3, generic_distinct=distinct), 0, {1: 1})
        s.apply(4)
        assert window_ids(s) | tile_ids(s) <= legal(s)
        s.apply(G.take_card(s.windows()[2][0]))
        assert s.units()[1:3] == (0, 1)
        assert tile_ids(s) <= legal(s)
        if distinct:
            assert window_ids(s).isdisjoint(legal(s))
            rejected(s, G.take_card(s.windows()[0][0]))
        else:
            assert window_ids(s) <= legal(s)


def test_ga_amb_12_ga_amb_13_a_generic_pencil_may_play_or_advance():
    """GA-AMB-12, GA-AMB-13: an edition whose generic space 9 has 2 pencils and no hammer. A
    non-leader there (pencils only) may still play card 4 or advance a chimney: on a generic space
    a pencil performs any generic type."""
    def generic_pencils(ed):
        day(ed)["spaces"][9].update(pencils=2, hammers=0)
    s = make(4, seed=3, data=edition_dir("generic-2-pencils", generic_pencils))
    s = playable_setup(at_move(s, 0, {0: 2, 1: 12}))
    s.apply(9)
    assert not s.leader() and s.units()[1:3] == (2, 0)
    assert {G.play(4), G.advance(0)} <= legal(s)
    s.apply(G.advance(0))
    assert s.chimneys(0) == (1, 0, 0) and s.units()[1:3] == (1, 0)


def test_ga_gen_2_a_generic_use_cannot_take_a_central_option(s4):
    """GA-GEN-2: on the generic space 4 neither central option is among the uses; both are rejected."""
    s = at_move(s4, 0, {1: 1})
    s.apply(4)
    assert {CENTRAL_A, G.CENTRAL_B}.isdisjoint(legal(s))
    rejected(s, CENTRAL_A)
    rejected(s, G.CENTRAL_B)


# ---------------------------------------------------------------- turn order


def test_ga_flow_2_ga_amb_8_round_robin_clockwise_whatever_the_positions():
    """GA-FLOW-2, GA-AMB-8, GA-SETUP-9: 4 players, start player 2. Seat 2 jumps far ahead (19) and the
    others move one step at a time; the order stays 2, 3, 0, 1, 2, 3, 0, 1 (a marker's position
    never changes the order)."""
    s = make(4, seed=6, first_player=2)
    order = []
    for _ in range(8):
        p = s.current_player()
        order.append(p)
        target = 19 if (p == 2 and s.positions()[2] < 0) else min(a for a in legal(s) if a < CENTRAL_AREA)
        move_and_pass(s, target)
    assert order == [2, 3, 0, 1, 2, 3, 0, 1]


def test_ga_amb_8_ga_flow_4_left_markers_are_skipped():
    """GA-AMB-8, GA-FLOW-4: 3 players, start 0. Seat 1 goes straight to the central area on its first
    turn and so has left; the others keep taking turns: 2, 0, 2, 0, ... while seat 1 is skipped."""
    s = make(3, seed=7)
    move_and_pass(s, 0)
    move_and_pass(s, CENTRAL_AREA)
    order = []
    for _ in range(6):
        order.append(s.current_player())
        move_and_pass(s, min(a for a in legal(s) if a < CENTRAL_AREA))
    assert order == [2, 0, 2, 0, 2, 0]
    assert s.positions()[1] == GONE


# ---------------------------------------------------------------- turn sequence


def test_ga_order_1_uses_then_refill_before_the_next_move(s4):
    """GA-ORDER-1: area 0 holds one tile (colour 0, shape 0). Alone, seat 0 moves to 2 (1 pencil + 1
    hammer) and takes it: the area stays empty for the rest of the turn (no refill during the
    uses). After DONE the area is refilled with 5 tiles from the bag (71 + 4 returned - 5) before
    seat 1 moves."""
    s = empty_area(at_move(s4, 0, {1: 1}), 0, {0: 1})
    bag = sum(s.bag())
    s.apply(2)
    s.apply(G.take_tile(0, 0, 0))
    s.apply(G.place(0))
    assert s.phase() == USES and sum(s.areas()[0]) == 0
    s.apply(DONE)
    assert s.phase() == MOVE and s.current_player() == 1
    assert sum(s.areas()[0]) == 5 and sum(s.bag()) == bag - 5


def test_ga_order_1_red_exit_comes_after_the_uses(s4):
    """GA-ORDER-1 (step 6), GA-FIN-2: someone has finished; seat 0 at 15 moves to red space 20
    (tile-any, 1 pencil). During its uses the marker still stands on 20; it takes and places a
    tile, and only then leaves the board (48)."""
    s = at_move(s4, 0, {0: 15, 1: GONE, 2: 3}, finished=True)
    s.apply(20)
    assert s.phase() == USES and s.positions()[0] == 20
    t = min(tile_ids(s))
    s.apply(t)
    assert s.positions()[0] == 20
    s.apply(min(legal(s)))
    assert s.positions()[0] == GONE and s.current_player() == 2


# ---------------------------------------------------------------- random games against a model of the flow


def odd_track(ed):
    """Edit: entries [5, 0, 23, 10] (colour 2, the virtual marker's, enters at the last space) and red
    spaces 10, 11, 22, 23 instead of 20..23."""
    t = day(ed)
    t["entry"] = [5, 0, 23, 10]
    for i, sp in enumerate(t["spaces"]):
        sp["red"] = i in (10, 11, 22, 23)


def short_track(ed):
    """Edit: a 12-space track (the placeholder's first 12 spaces), entries 0..3, red spaces 9..11."""
    t = day(ed)
    t["spaces"] = t["spaces"][:12]
    for i, sp in enumerate(t["spaces"]):
        sp["red"] = i >= 9


def check_virtual_move(s, prev_seat, v_before):
    """2 players, at a MOVE node that follows seat prev_seat's turn (no extra turn): the virtual
    marker (GA-DUMMY-1, GA-AMB-8) moved once iff prev_seat was the last remaining seat of the order
    [start, start + 1]; its target (GA-AMB-17, GA-AMB-15) is the first free index greater than
    max(its index or entry - 1, the real markers on the track), or it leaves when there is none or
    when that index is red after a finish."""
    pos, start = s.positions(), s.start_player()
    other = (start + 1) % 2
    v_turn = v_before != GONE and (prev_seat == other or pos[other] == GONE)
    if not v_turn:
        assert pos[VIRTUAL] == v_before
        return 0
    cfg = s.config()
    n, red, entry = cfg["track_n"][0], cfg["track_red"][0], cfg["track_entry"][0]
    reals = [x for x in pos[:2] if 0 <= x < n]
    mx = max([v_before if v_before >= 0 else entry[2] - 1] + reals)
    free = [t for t in range(mx + 1, n) if t not in reals]
    if not free or (s.anyone_finished() and red[free[0]]):
        assert pos[VIRTUAL] == GONE
    else:
        assert pos[VIRTUAL] == free[0]
    return 1


@pytest.mark.parametrize("players,options", [(3, {}), (4, {}), (4, {"finished_markers_block_leader": True}),
                                             (3, {"first_player": 2}), (4, {"extra": True}), (2, {}),
                                             (2, {"first_player": 1, "extra": True}), (2, {"track": "odd"}),
                                             (3, {"track": "odd"}), (2, {"track": "short"}),
                                             (4, {"track": "short", "first_player": 3})])
def test_ga_flow_2_ga_move_5_ga_chan_5_random_games_follow_the_flow_rules(players, options):
    """GA-FLOW-2, GA-FLOW-4, GA-MOVE-4, GA-MOVE-5, GA-ACTN-5, GA-CHAN-5, GA-AMB-8, GA-AMB-9, GA-AMB-33,
    GA-DUMMY-1, GA-DUMMY-2, GA-AMB-15, GA-AMB-17 (2 players, check_virtual_move):
    random legal play (2, 3 and 4 players; edits of the placeholder: extra turns from chimneys and
    the central tile, other entries and red spaces, a 12-space track) checked against an independent model of the flow. At every MOVE node the mover is: at a
    round start the start-player marker's holder (round 1: the start player; later: the first
    central arrival of the round before); after a turn that left an extra turn pending, with the
    marker still on the board, the same seat; otherwise the next seat clockwise whose marker has
    not left. After each move to a track space: no two markers share a space, and the mover leads
    iff strictly ahead of every other marker on the track, the virtual one included (and, with
    finished_markers_block_leader, nobody has finished); a non-leader on a space with both icons
    faces the pencils/hammers choice."""
    import random

    options = dict(options)
    extra = options.pop("extra", False)
    if extra:
        options["data"] = edition_dir("extra-turns", extra_turn_edition)
    track = options.pop("track", None)
    if track:
        options["data"] = edition_dir(f"track-{track}", odd_track if track == "odd" else short_track)
    extras = virtual_moves = 0
    for seed in range(8 if extra else 3):
        s = make(players, seed=seed, **options)
        rng = random.Random(seed)
        block = options.get("finished_markers_block_leader", False)
        prev = None  # (round, seat) of the previous MOVE node
        first_arrival = {}
        pending, prev_gone, v_before = 0, False, NOT_ENTERED
        while not s.is_terminal():
            if s.phase() == MOVE:
                p, r = s.current_player(), s.round()
                if prev is None or prev[0] != r:
                    expected = options.get("first_player", 0) if r == 1 else first_arrival[r - 1]
                    assert p == expected == s.marker_holder() == s.start_player()
                elif pending and not prev_gone:
                    assert p == prev[1]
                    extras += 1
                    if players == 2:
                        assert s.positions()[VIRTUAL] == v_before, "no virtual move before an extra turn"
                else:
                    q = (prev[1] + 1) % players
                    while s.positions()[q] == GONE:
                        q = (q + 1) % players
                    assert p == q
                    if players == 2:
                        virtual_moves += check_virtual_move(s, prev[1], v_before)
                prev = (r, p)
                v_before = s.positions()[VIRTUAL]
                pending = s.extra_turns()  # extra turns still owed at this turn's start
            mover, phase, before, finished = s.current_player(), s.phase(), s.positions(), s.anyone_finished()
            la = sorted(legal(s))
            a = la[rng.randrange(len(la))]
            if phase != MOVE and a == G.resolve(36):  # RESOLVE extra_turn: one more turn owed
                pending += 1
            s.apply(a)
            if s.phase() == MOVE or s.is_terminal():
                prev_gone = s.positions()[mover] == GONE
            if phase != MOVE:
                continue
            if a == CENTRAL_AREA:
                first_arrival.setdefault(s.round(), mover)
                assert s.marker_holder() == first_arrival[s.round()]
            else:
                markers = list(range(players)) + ([VIRTUAL] if players == 2 else [])
                on = [before[m] for m in markers if m != mover and 0 <= before[m] < CENTRAL_AREA]
                assert a not in on
                lead = all(a > x for x in on) and not (block and finished)
                if s.current_player() == mover and s.phase() not in (MOVE, CHANCE):
                    assert s.leader() == lead
                    cfg = s.config()
                    pe, ha = cfg["track_pencils"][0][a], cfg["track_hammers"][0][a]
                    assert (s.phase() == MODE) == (not lead and pe > 0 and ha > 0)
        assert s.round() == 3
    if extra:
        assert extras > 0, "the extra-turn edition gave no extra turn in these games"
    assert (virtual_moves > 0) == (players == 2)


def play_and_chimney_spaces(ed):
    """Edit: space 5 is a play space and space 10 a chimney space (1 pencil, 1 hammer each)."""
    spaces = day(ed)["spaces"]
    spaces[5].update(action={"type": "play"}, pencils=1, hammers=1)
    spaces[10].update(action={"type": "chimney"}, pencils=1, hammers=1)


def test_ga_amb_12_ga_move_6_a_pencil_on_a_play_or_chimney_space():
    """GA-AMB-12, GA-MOVE-6, GA-ACTN-2: on a play space a pencil plays a card, on a chimney space it
    advances a chimney (GA-DATA-1 actions three and four). Seat 0 (card 4 playable, a shape-0
    tile) is alone: on 5 it plays card 4 and that spends the pencil (pencil first), the hammer
    stays; on 10 it advances its Catalan chimney with the pencil. A non-leader choosing PENCILS on
    the play space may play but not advance nor take."""
    data = edition_dir("play-and-chimney-spaces", play_and_chimney_spaces)
    base = playable_setup(at_move(make(4, seed=3, data=data), 0, {1: 1}))
    s = base.clone()
    s.apply(5)
    assert legal(s) == {G.play(4), G.advance(0), G.advance(1), G.advance(2), DONE}
    s.apply(G.play(4))
    assert s.units()[1:3] == (0, 1) and s.columns(0)[0] == [4]
    s = base.clone()
    s.apply(10)
    s.apply(G.advance(1))
    assert s.units()[1:3] == (0, 1) and s.chimneys(0) == (0, 1, 0)
    s = playable_setup(at_move(make(4, seed=3, data=data), 0, {0: 2, 1: 7}))
    s.apply(5)
    s.apply(PENCILS)
    assert legal(s) == {G.play(4), DONE}
