"""Gaudí rule tests, actions 3 and 4 (play a card, advance a chimney), the generic action,
requirements and column resolutions (GA-PLAY-*, GA-REQ-*, GA-EX-1/2, GA-NAT-*, GA-CAT-*, GA-EX-9,
GA-CHIM-*, GA-GEN-1/3, GA-VP-*, GA-AMB-30/47/48, GA-ORDER-2).

Positions on the spec's placeholder edition (gaudi_helpers_score.py), edited per test. Seat 0 of
a 2-player game moves first and alone, so it leads. Spaces used: 1 card-any (1 hammer), 0 tile-any
(1 pencil), 2 tile c0 (1 pencil + 1 hammer), 4 generic (2 hammers), 48 the central area.
Placeholder colours c0..c3 stand for the spec's colours (GA-AMB-4)."""
from __future__ import annotations

import pytest

from gaudi_helpers_score import (CENTRAL, FRAME, ITEM, MOVE, PLACE, USES, apply_all, chimney_space, legal, make,
                                 position, rejected, set_card, set_chimney_day, set_space, shape_of,
                                 spaces_of_shape, tiles, vp)
from tilecraft.games import gaudi as G

WINDOWS = [[20, 21, 22], [60, 61, 62], [90, 91, 92]]
AREAS = [{t: 1 for t in range(16) if t % 5 == a} for a in range(5)]  # one tile of each type 4c + s, in area t % 5


def plays(state):
    return sorted(a - G.PLAY_BASE for a in legal(state) if G.PLAY_BASE <= a < G.DISCARD_BASE)


def advances(state):
    return sorted(a - G.ADVANCE_BASE for a in legal(state) if G.ADVANCE_BASE <= a < G.CENTRAL_A)


def game(edit=None, **parts):
    parts.setdefault("windows", WINDOWS)
    parts.setdefault("areas", AREAS)
    parts.setdefault("hands", {0: [], 1: []})
    parts.setdefault("boards", {})
    return position(make(2, edit), **parts)


def cards(**reqs):
    """Edit: card id -> (requirement colour, n) or (colour, n, banner)."""
    def edit(d):
        for key, v in reqs.items():
            i = int(key[1:])
            set_card(d, i, requirement=(v[0], v[1]))
            if len(v) > 2:
                set_card(d, i, banner=v[2])
    return edit


# ---------------------------------------------------------------- playing a card

def test_hammer_plays_one_card_from_hand():
    """GA-PLAY-1: on space 1 (1 hammer) the leader plays card 10 (c0 x 1, 1 c0 tile): the card
    leaves the hand for the Nature column, the hammer is spent and no second card can follow:
    the turn passes to seat 1 with card 11 still in hand."""
    s = game(hands={0: [10, 11], 1: []}, boards={0: tiles({0: 1, 1: 1})})
    s.apply(1)
    assert plays(s) == [10, 11]
    s.apply(G.play(10))
    assert s.columns(0)[0] == [10]
    assert s.hand(0) == [11]
    assert s.phase() == MOVE and s.current_player() == 1


def test_pencil_cannot_play_a_card():
    """GA-PLAY-1: playing takes a hammer: on space 0 (1 pencil, no hammer) no play is offered and
    a play is rejected."""
    s = game(hands={0: [10], 1: []}, boards={0: tiles({0: 3})})
    s.apply(0)
    assert plays(s) == []
    rejected(s, G.play(10))


EX1 = cards(c10=("c0", 2), c11=("c1", 1), c12=("c2", 2))


def test_ex1_total_requirement_unmet_with_four_tiles():
    """GA-EX-1, GA-REQ-1, GA-REQ-2, GA-PLAY-2, GA-PLAY-4, GA-AMB-41: the Nature column holds c0 x 2
    and c1 x 1; the new Nature card needs c2 x 2: total 2 + 1 + 2 = 5 c2 tiles. With 4 c2 tiles
    (and plenty of c0 and c1) the card is not offered and playing it is rejected."""
    s = game(EX1, hands={0: [12], 1: []}, columns={0: [[10, 11], [], []]}, boards={0: tiles({2: 4, 0: 6, 1: 6})})
    s.apply(1)
    assert plays(s) == []
    rejected(s, G.play(12))


def test_ex1_total_requirement_met_with_five_scattered_tiles():
    """GA-EX-1, GA-REQ-2: with 5 c2 tiles, no two adjacent (basic mode), the card is playable; it
    joins the Nature column and no tile is spent."""
    board = tiles({2: 5})
    s = game(EX1, hands={0: [12], 1: []}, columns={0: [[10, 11], [], []]}, boards={0: board})
    s.apply(1)
    assert plays(s) == [12]
    before = s.board(0)
    s.apply(G.play(12))
    assert s.columns(0)[0] == [10, 11, 12]
    assert s.board(0) == before


def test_requirement_counts_only_the_new_cards_colour():
    """GA-REQ-2: the column card asks for c0, the new card for c2 x 1: total 2 tiles of c2. Four c0
    tiles and one c2 tile do not qualify; two c2 tiles do."""
    edit = cards(c10=("c0", 1), c12=("c2", 1))
    s = game(edit, hands={0: [12], 1: []}, columns={0: [[10], [], []]}, boards={0: tiles({0: 4, 2: 1})})
    s.apply(1)
    assert plays(s) == []
    s = game(edit, hands={0: [12], 1: []}, columns={0: [[10], [], []]}, boards={0: tiles({2: 2})})
    s.apply(1)
    assert plays(s) == [12]


EX2 = cards(c40=("c0", 2), c41=("black", 3))


@pytest.mark.parametrize("counts", [{3: 3, 1: 2}, {0: 4, 1: 4, 2: 4, 3: 4}])
def test_ex2_black_requirement_needs_one_colour(counts):
    """GA-EX-2, GA-REQ-3: the Catalan column sums to 2, the new card needs black x 3: 5 tiles of ONE
    colour. 3 c3 + 2 c1 (5 tiles of two colours), or 4 of every colour, do not qualify."""
    s = game(EX2, hands={0: [41], 1: []}, columns={0: [[], [40], []]}, boards={0: tiles(counts)})
    s.apply(1)
    assert plays(s) == []
    rejected(s, G.play(41))


def test_ex2_black_requirement_met_by_five_of_one_colour():
    """GA-EX-2, GA-REQ-3: 5 c3 tiles (plus 2 c1) meet black x 3 on a column summing to 2."""
    s = game(EX2, hands={0: [41], 1: []}, columns={0: [[], [40], []]}, boards={0: tiles({3: 5, 1: 2})})
    s.apply(1)
    assert plays(s) == [41]


def test_card_goes_to_its_domains_column_in_play_order():
    """GA-PLAY-3, GA-CARDDEF-1: a Catalan card (its domain decides the column) joins the end of the
    Catalan column; the other columns and the other seat are untouched."""
    s = game(hands={0: [34], 1: []}, columns={0: [[0], [33], [66]]}, boards={0: tiles({0: 3, 1: 3, 2: 3, 3: 3})})
    s.apply(1)
    s.apply(G.play(34))
    assert s.columns(0) == [[0], [33, 34], [66]]
    assert s.columns(1) == [[], [], []]


# ---------------------------------------------------------------- Nature column

def test_nature_play_resolves_the_whole_column():
    """GA-NAT-1, GA-NAT-2: the Nature column holds 10 and 11 (+1 Nature each); playing 12 (+1
    Nature) resolves all three banners plus the board's +1 Nature above the column: Nature 4.
    Nothing else scores."""
    s = game(hands={0: [12], 1: []}, columns={0: [[10, 11], [], []]}, boards={0: tiles({2: 3})})
    s.apply(1)
    s.apply(G.play(12))
    assert s.domain_scores(0) == (4, 0, 0)


def test_nature_rewards_are_carried_out_in_the_players_order():
    """GA-NAT-2, GA-AMB-30: the column's banners give collect_tile(any) and take_card(any); after the
    play both are pending at once and the player carries out the card first, then the tile.
    VP (12's +1 and the board's +1) applied at once: Nature 2."""
    edit = cards(c10=("c0", 1, [{"type": "collect_tile"}]), c11=("c0", 1, [{"type": "take_card"}]),
                 c12=("c0", 1, [vp("nature", 1)]))
    s = game(edit, hands={0: [12], 1: []}, columns={0: [[10, 11], [], []]}, boards={0: tiles({0: 3})})
    s.apply(1)
    s.apply(G.play(12))
    assert s.phase() == FRAME
    assert s.domain_scores(0) == (2, 0, 0)
    assert {G.resolve(24), G.resolve(28)} <= set(legal(s))
    apply_all(s, G.resolve(28), G.take_card(61))
    assert s.hand(0) == [61]
    assert G.resolve(24) in legal(s)
    s.apply(G.resolve(24))
    s.apply(G.take_tile(4, 1, 0))  # type 4 (c1 s0) is in area 4
    b = next(x for x in spaces_of_shape(0) if not any((m >> x) & 1 for m in s.board(0)))
    s.apply(G.place(b))
    assert (s.board(0)[1] >> b) & 1


def test_vp_goes_to_the_domain_under_the_star():
    """GA-VP-1, GA-VP-2: Nature card 12's banner is +3 Religion VP. Playing it (alone) gives Religion
    3 and only the board's +1 Nature; Catalan stays 0."""
    edit = cards(c12=("c0", 1, [vp("religion", 3)]))
    s = game(edit, hands={0: [12], 1: []}, boards={0: tiles({0: 1})})
    s.apply(1)
    s.apply(G.play(12))
    assert s.domain_scores(0) == (1, 0, 3)


def test_nested_nature_resolution_is_finished_before_the_outer_one():
    """GA-AMB-30, GA-ORDER-2, GA-AMB-48: column [10: play_card]; hand 12 (+1 N) and 13 (take_card).
    Playing 12 resolves [10, 12]: +1 (12) +1 (board) = 2; its play_card plays 13, which starts a
    nested resolution of the snapshot [10, 12, 13]: +2 more (12, board), and its items
    {play_card, take_card} sit in a new frame on top of the outer one. Declining it ends both:
    Nature 4."""
    edit = cards(c10=("c0", 1, [{"type": "play_card"}]), c12=("c0", 1, [vp("nature", 1)]),
                 c13=("c0", 1, [{"type": "take_card"}]))
    s = game(edit, hands={0: [12, 13], 1: []}, columns={0: [[10], [], []]}, boards={0: tiles({0: 6})})
    s.apply(1)
    s.apply(G.play(12))
    assert s.domain_scores(0)[0] == 2
    outer = s.frames()[-1]
    assert outer["items"] == {29: 1} and outer["snapshot_length"] == 2
    depth = len(s.frames())
    apply_all(s, G.resolve(29), G.play(13))
    assert s.domain_scores(0)[0] == 4
    f = s.frames()
    assert len(f) > depth and f[-1]["items"] == {29: 1, 28: 1} and f[-1]["snapshot_length"] == 3
    assert f[depth - 1]["snapshot_length"] == 2 and f[depth - 1]["items"] == {}  # the outer one, below
    s.apply(G.DONE)
    assert s.frames() == [] and s.phase() == MOVE and s.current_player() == 1
    assert s.domain_scores(0) == (4, 0, 0)


# ---------------------------------------------------------------- Catalan column

def at_central(edit=None, **parts):
    s = game(edit, **parts)
    s.apply(G.CENTRAL_AREA)
    assert s.phase() == CENTRAL
    return s


def test_red_space_exit_gets_no_catalan_resolution():
    """GA-CAT-1, GA-AMB-48: once someone has finished, seat 0 moves onto red space 20 (tile-any, 1
    pencil), takes and places a tile and leaves the board: no central option, so its Catalan
    column [33, 34] is not resolved that round (Catalan 0)."""
    s = game(columns={0: [[], [33, 34], []]}, anyone_finished=True, markers={0: 15, 1: 48})
    s.apply(20)
    apply_all(s, G.take_tile(0, 0, 0), G.place(0))
    assert s.round() == 2  # seat 0 left without a central option: every participant is gone
    assert s.domain_scores(0) == (0, 0, 0)
    assert s.columns(0)[1] == [33, 34]


def test_catalan_play_gives_nothing():
    """GA-CAT-1, GA-AMB-48: playing a Catalan card (banner +1 Catalan) onto a column of two such
    cards scores nothing: no resolution at play."""
    s = game(hands={0: [35], 1: []}, columns={0: [[], [33, 34], []]}, boards={0: tiles({0: 3})})
    s.apply(1)
    s.apply(G.play(35))
    assert s.domain_scores(0) == (0, 0, 0)
    assert s.columns(0)[1] == [33, 34, 35]


def test_central_option_resolves_the_catalan_column():
    """GA-CAT-1, GA-CAT-2: the central option "resolve Catalan x 1" gives each card's banner (33,
    34: +1 Catalan each) plus the board's +1 Catalan: Catalan 3."""
    s = at_central(columns={0: [[], [33, 34], []]})
    s.apply(G.CENTRAL_A)
    assert s.domain_scores(0) == (0, 3, 0)


def test_central_catalan_times_two_resolves_twice():
    """GA-CAT-1, GA-CAT-2: a central tile with "resolve Catalan x 2": (1 + 1 + 1) x 2 = Catalan 6."""
    def edit(d):
        for t in d["chandeliers"]["tiles"]:
            t["a"] = [{"type": "resolve_catalan", "times": 2}]
    s = at_central(edit, columns={0: [[], [33, 34], []]})
    s.apply(G.CENTRAL_A)
    assert s.domain_scores(0) == (0, 6, 0)


def ex9_edit(d):
    set_card(d, 40, requirement=("c0", 1), banner=[{"type": "play_card", "ignore_requirement": True}])  # X
    set_card(d, 41, requirement=("c0", 1), banner=[vp("catalan", 1)])  # Y
    set_card(d, 42, requirement=("c3", 4), banner=[vp("catalan", 5)])  # Z
    set_card(d, 43, requirement=("c3", 4), banner=[vp("catalan", 7)])  # W
    for t in d["chandeliers"]["tiles"]:
        t["a"] = [{"type": "resolve_catalan", "times": 2}]


def test_ex9_catalan_times_two_uses_a_snapshot():
    """GA-EX-9, GA-AMB-48, GA-AMB-47, GA-CAT-2: column X (play a card ignoring its requirement), Y
    (+1 Catalan); board reward +1 Catalan; central "resolve Catalan x 2". Resolution 1: +2 at once,
    X plays Z (needs c3 x 4, no c3 tile: played anyway) into the column. Resolution 2 repeats the
    snapshot X, Y, board: +2 and one more free play (W). Z's +5 and W's +7 are not gained.
    Catalan 4; the column is X, Y, Z, W."""
    s = at_central(ex9_edit, hands={0: [42, 43], 1: []}, columns={0: [[], [40, 41], []]})
    s.apply(G.CENTRAL_A)
    assert s.domain_scores(0)[1] == 2
    apply_all(s, G.resolve(30))
    assert plays(s) == [42, 43]  # requirement ignored
    s.apply(G.play(42))
    assert s.domain_scores(0)[1] == 4  # resolution 2 of the snapshot: +2, not Z's +5
    assert s.frames()[-1]["items"] == {30: 1}
    apply_all(s, G.resolve(30), G.play(43))
    assert s.columns(0)[1] == [40, 41, 42, 43]
    assert s.domain_scores(0) == (0, 4, 0)


def test_free_play_still_adds_its_number_to_the_requirement():
    """GA-AMB-47, GA-REQ-1: X's free play puts Z (c3 x 4) into the Catalan column. Card 44 (c0 x 1)
    then needs 1 + 1 (X, Y) + 4 (Z) + 1 = 7 c0 tiles: with 3 c0 tiles it is no longer playable.
    Before, it needed 1 + 1 + 1 = 3 and was."""
    def edit(d):
        ex9_edit(d)
        for t in d["chandeliers"]["tiles"]:
            t["a"] = [{"type": "resolve_catalan", "times": 1}]
        set_card(d, 44, requirement=("c0", 1))
    board = tiles({0: 3})
    before = game(edit, hands={0: [44], 1: []}, columns={0: [[], [40, 41], []]}, boards={0: board})
    before.apply(1)
    assert plays(before) == [44]
    s = at_central(edit, hands={0: [42, 44], 1: []}, columns={0: [[], [40, 41], []]}, boards={0: board})
    apply_all(s, G.CENTRAL_A, G.resolve(30), G.play(42))
    assert s.columns(0)[1] == [40, 41, 42]
    assert s.requirement(0, 44) == (7, False)
    # seat 1 and the virtual marker move; round 1 ends for seat 0 (it has left), so check in round 2
    while not (s.round() == 2 and s.current_player() == 0 and s.phase() == MOVE):
        s.apply(int(s.legal_actions()[-1]) if s.phase() == MOVE else int(s.legal_actions()[0]))
    s.apply(1)  # card-any, 1 hammer: a play would be possible if the requirement were met
    assert 44 in s.hand(0) and plays(s) == []


def test_chimney_reward_resolves_the_catalan_column():
    """GA-CAT-3, GA-CHIM-5: a Catalan chimney whose first space rewards resolve_catalan: advancing
    it (needs 1 s0 tile) resolves the column [33]: +1 (33) + 1 (board) = Catalan 2."""
    def edit(d):
        set_chimney_day(d, "catalan", [chimney_space("s0", 1, [{"type": "resolve_catalan"}]),
                                       chimney_space("s1", 2, [vp("catalan", 2)], {"type": "end_vp", "domain": "catalan", "n": 3})])
    s = game(edit, columns={0: [[], [33], []]}, boards={0: {0: 1}})
    s.apply(1)
    s.apply(G.advance(1))
    assert s.chimneys(0) == (0, 1, 0)
    assert s.domain_scores(0) == (0, 2, 0)


def test_column_resolution_in_a_frame_cannot_be_declined():
    """GA-ORDER-2: a central option holding {resolve Catalan, collect_tile(any)}: while the column
    resolution is pending, DONE is not legal; the tile may be declined after it."""
    def edit(d):
        for t in d["chandeliers"]["tiles"]:
            t["a"] = [{"type": "resolve_catalan"}, {"type": "collect_tile"}]
    s = at_central(edit, columns={0: [[], [33], []]}, boards={0: tiles({0: 1})})
    s.apply(G.CENTRAL_A)
    assert s.phase() == FRAME
    assert set(legal(s)) == {G.resolve(32), G.resolve(24)}
    rejected(s, G.DONE)
    s.apply(G.resolve(32))
    assert s.domain_scores(0)[1] == 2


# ---------------------------------------------------------------- chimneys

def test_hammer_advances_one_chosen_chimney_one_space():
    """GA-CHIM-1: on space 1 (1 hammer) with an s0 tile every chimney may advance; the player picks
    Catalan: chimneys (0, 1, 0), the hammer is spent, the turn passes."""
    s = game(boards={0: {0: 2}})
    s.apply(1)
    assert advances(s) == [0, 1, 2]
    s.apply(G.advance(1))
    assert s.chimneys(0) == (0, 1, 0)
    assert s.phase() == MOVE and s.current_player() == 1


def test_pencil_cannot_advance_a_chimney():
    """GA-CHIM-1: on space 0 (1 pencil, no hammer) an advance is rejected."""
    s = game(boards={0: {0: 2}})
    s.apply(0)
    assert advances(s) == []
    rejected(s, G.advance(0))


def test_chimney_requirement_of_the_next_space_must_be_met():
    """GA-CHIM-2: chimneys at (1, 1, 1); the 2nd space needs s1 x 2. One s1 tile (with 6 tiles of
    other shapes) is not enough: no advance, and an advance is rejected."""
    board = {0: 0, 2: 1, 3: 2, 4: 3, 6: 0, 8: 1, 1: 2}  # shapes 0, 2, 3, 0, 2, 0 and one s1 (space 1)
    assert sum(1 for b in board if shape_of(b) == 1) == 1
    s = game(boards={0: board}, chimneys={0: (1, 1, 1)})
    s.apply(1)
    assert advances(s) == []
    rejected(s, G.advance(2))


def test_chimney_requirement_any_colours_not_adjacent_not_spent():
    """GA-CHIM-2, GA-CHIM-3: two s1 tiles of different colours far apart meet s1 x 2; the Religion
    marker reaches space 2 and its +2 Religion applies at once; the tiles stay."""
    board = {1: 0, 33: 3}
    assert shape_of(1) == 1 and shape_of(33) == 1
    s = game(boards={0: board}, chimneys={0: (1, 1, 1)})
    s.apply(1)
    assert advances(s) == [0, 1, 2]
    s.apply(G.advance(2))
    assert s.chimneys(0) == (1, 1, 2)
    assert s.domain_scores(0) == (0, 0, 2)
    assert s.board(0) == [1 << 1, 0, 0, 1 << 33]


def test_chimney_reward_applies_immediately():
    """GA-CHIM-3: on space 2 (1 pencil + 1 hammer) the hammer advances Nature to space 1: +1 Nature
    at once, while the pencil is still to be used."""
    s = game(boards={0: {0: 2}})
    s.apply(2)
    s.apply(G.advance(0))
    assert s.phase() == USES
    assert s.domain_scores(0) == (1, 0, 0)


def test_chimney_at_the_top_cannot_advance():
    """GA-CHIM-4: every chimney at its top (2 spaces): no advance although the tiles would suffice."""
    s = game(boards={0: tiles({0: 8, 1: 8})}, chimneys={0: (2, 2, 2)})
    s.apply(1)
    assert advances(s) == []
    rejected(s, G.advance(0))


def test_chimney_extra_turn_reward():
    """GA-CHIM-5: a Nature chimney space rewarding an extra turn: after this turn seat 0 moves
    again (from space 1), before seat 1."""
    def edit(d):
        set_chimney_day(d, "nature", [chimney_space("s0", 1, [{"type": "extra_turn"}]), chimney_space("s1", 2, [])])
    s = game(edit, boards={0: {0: 2}})
    s.apply(1)
    s.apply(G.advance(0))
    assert s.phase() == FRAME
    s.apply(G.resolve(36))
    assert s.phase() == MOVE and s.current_player() == 0
    assert s.positions()[0] == 1


def test_chimney_collect_tile_reward():
    """GA-CHIM-5: a chimney space rewarding collect_tile(shape s2): only s2 tiles are offered."""
    def edit(d):
        set_chimney_day(d, "nature", [chimney_space("s0", 1, [{"type": "collect_tile", "shape": "s2"}]),
                                      chimney_space("s1", 2, [])])
    s = game(edit, boards={0: {0: 2}})
    s.apply(1)
    apply_all(s, G.advance(0), G.resolve(16 + 2))
    assert s.phase() == ITEM
    takes = sorted(a for a in legal(s) if G.TAKE_TILE_BASE <= a < G.PLACE_BASE)
    assert takes == sorted(G.take_tile(t % 5, t // 4, 2) for t in (2, 6, 10, 14))
    apply_all(s, G.take_tile(2, 0, 2), G.place(2))
    assert (s.board(0)[0] >> 2) & 1


def test_chimney_free_play_and_nature_resolution():
    """GA-CHIM-5, GA-AMB-47: a chimney space rewarding "play a card ignoring its requirement" plays
    Nature card 12 (needs c3 x 4, no c3 tile); as a Nature card it resolves the Nature column
    [12]: +1 (12) + 1 (board) = Nature 2 (the chimney's own reward is that play only)."""
    def edit(d):
        set_chimney_day(d, "catalan", [chimney_space("s0", 1, [{"type": "play_card", "ignore_requirement": True}]),
                                       chimney_space("s1", 2, [], {"type": "end_vp", "domain": "catalan", "n": 3})])
        set_card(d, 12, requirement=("c3", 4))
    s = game(edit, hands={0: [12], 1: []}, boards={0: {0: 2}})
    s.apply(1)
    assert plays(s) == []
    apply_all(s, G.advance(1), G.resolve(30))
    assert plays(s) == [12]
    s.apply(G.play(12))
    assert s.columns(0)[0] == [12]
    assert s.domain_scores(0) == (2, 0, 0)


# ---------------------------------------------------------------- generic action

def test_generic_space_offers_every_ordinary_action():
    """GA-GEN-1: on a generic space (4: 2 hammers) the leader may collect any tile, take a card from
    any window, play a card or advance a chimney."""
    s = game(hands={0: [10], 1: []}, boards={0: {0: 0}})
    s.apply(4)
    acts = legal(s)
    assert any(G.TAKE_TILE_BASE <= a < G.PLACE_BASE for a in acts)
    assert {G.take_card(c) for w in WINDOWS for c in w} <= set(acts)
    assert G.play(10) in acts
    assert G.advance(0) in acts


def test_generic_uses_must_be_different_actions():
    """GA-GEN-3, GA-AMB-13: a generic space with 1 pencil and 1 hammer: after collecting a tile, the
    second use may take a card but not collect another tile; two different actions are done."""
    s = game(lambda d: set_space(d, 4, pencils=1, hammers=1), boards={0: {}})
    s.apply(4)
    apply_all(s, G.take_tile(0, 0, 0), G.place(0))
    assert s.phase() == USES
    assert not any(G.TAKE_TILE_BASE <= a < G.PLACE_BASE for a in legal(s))
    rejected(s, G.take_tile(0, 0, 0))
    s.apply(G.take_card(61))
    assert s.hand(0) == [61]
    assert s.phase() == MOVE and s.current_player() == 1


def test_chimney_reward_resolves_the_nature_column():
    """GA-CHIM-5, GA-NAT-2: a Nature chimney space rewarding resolve_nature: advancing it resolves
    the column [10, 11] without a play: +1 + 1 (banners) + 1 (board) = Nature 3."""
    def edit(d):
        set_chimney_day(d, "nature", [chimney_space("s0", 1, [{"type": "resolve_nature"}]), chimney_space("s1", 2, [])])
    s = game(edit, columns={0: [[10, 11], [], []]}, boards={0: {0: 1}})
    s.apply(1)
    s.apply(G.advance(0))
    assert s.domain_scores(0) == (3, 0, 0)


def test_nature_resolution_nested_in_a_catalan_repetition():
    """GA-AMB-30, GA-AMB-48, GA-EX-9: Catalan column X (free play), Y (+1 Catalan), central
    "Catalan x 2". Repetition 1: +2 Catalan; X plays Nature card 12 (+3 Nature) for free, whose own
    resolution of [10 (+1), 12 (+3)] + board (+1) gives Nature 5 and finishes first; repetition 2:
    +2 Catalan and X plays Catalan card 43 (nothing). Nature 5, Catalan 4."""
    def edit(d):
        ex9_edit(d)
        set_card(d, 12, requirement=("c3", 4), banner=[vp("nature", 3)])
    s = at_central(edit, hands={0: [12, 43], 1: []}, columns={0: [[10], [40, 41], []]})
    apply_all(s, G.CENTRAL_A, G.resolve(30), G.play(12))
    assert s.domain_scores(0) == (5, 4, 0)  # the nested Nature frame was done, repetition 2 began
    apply_all(s, G.resolve(30), G.play(43))
    assert s.domain_scores(0) == (5, 4, 0)
    assert s.columns(0) == [[10, 12], [40, 41, 43], []]


def test_bonus_during_a_column_resolution_sits_on_top_of_it():
    """GA-ORDER-2, GA-AMB-31: during a Nature resolution, its collect_tile reward takes the last tile
    of area 0 (bonus take_card(any)): the bonus frame is resolved (here declined) before the
    resolution's remaining take_card(any) item, which is then carried out."""
    def edit(d):
        set_card(d, 10, requirement=("c0", 1), banner=[{"type": "collect_tile"}, {"type": "take_card"}])
        d["track"]["day"]["area_bonus"] = [{"type": "take_card"}, None, None, None, None]
    s = game(edit, hands={0: [12], 1: []}, columns={0: [[10], [], []]}, boards={0: tiles({2: 2})},
             areas=[{1: 1}, {4: 5}, {5: 5}, {6: 5}, {7: 5}])
    s.apply(1)
    apply_all(s, G.play(12), G.resolve(24), G.take_tile(0, 0, 1), G.place(1))
    f = s.frames()
    assert f[-1]["bonus_kind"] >= 0 and f[-1]["items"] == {28: 1}
    assert f[-2]["items"] == {28: 1} and f[-2]["snapshot_domain"] == 0
    s.apply(G.DONE)  # the bonus is declined
    assert s.frames()[-1]["snapshot_domain"] == 0
    apply_all(s, G.resolve(28), G.take_card(61))
    assert s.hand(0) == [61]
    assert s.domain_scores(0) == (2, 0, 0)  # 12's +1 and the board's +1


def test_reward_card_into_a_full_hand_discards_one_old_card():
    """GA-HAND-1 (basic), GA-AMB-28: a chimney reward take_card(any) with 4 cards in hand: the new
    card is taken and one of the 4 old cards is discarded (not the new one)."""
    def edit(d):
        set_chimney_day(d, "nature", [chimney_space("s0", 1, [{"type": "take_card"}]), chimney_space("s1", 2, [])])
    s = game(edit, hands={0: [3, 4, 36, 70], 1: []}, boards={0: {0: 1}})
    s.apply(1)
    apply_all(s, G.advance(0), G.resolve(28), G.take_card(91))
    assert sorted(a - G.DISCARD_BASE for a in legal(s)) == [3, 4, 36, 70]
    s.apply(G.discard(36))
    assert sorted(s.hand(0)) == [3, 4, 70, 91]
    assert s.discards() == [36]
