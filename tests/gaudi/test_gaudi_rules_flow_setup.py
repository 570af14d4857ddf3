"""Scope, components and setup (GA-SCOPE-1/2, GA-COMP-1/2/4/8..13, GA-SETUP-1..10, GA-AMB-26,
GA-AMB-40, GA-AMB-44) on the spec's placeholder edition and edits of it. Chance is walked with
explicit chance nodes where the rule is about what is drawn."""
import pytest

import tilecraft
from gaudi_helpers_flow import (CENTRAL_AREA, GONE, MOVE, NOT_ENTERED, at_move, edition_dir, give_hand, legal, make,
                                move_and_pass, set_board)
from tilecraft.games import gaudi as G


def walk_setup(state, pick=lambda outcomes: outcomes[0][0]):
    """Resolves the chance nodes up to the first decision; returns the number of outcomes of each
    node and the probabilities of the first one."""
    sizes, first = [], None
    while state.is_chance_node():
        out = state.chance_outcomes()
        if first is None:
            first = [p for _, p in out]
        sizes.append(len(out))
        state.apply(pick(out))
    return sizes, first


# ---------------------------------------------------------------- scope and modes


def test_ga_scope_1_one_to_four_players_accepted_others_rejected():
    """GA-SCOPE-1: 1 to 4 players make a game (1 is solo, which is expert mode: GA-SCOPE-3); 0 and
    5 are rejected with a message naming the allowed counts."""
    for n in (2, 3, 4):
        assert make(n).num_players() == n
    assert make(1, mode="expert").num_players() == 1
    for n in (0, 5):
        with pytest.raises(tilecraft.InvalidConfigError, match="players must be one of 1, 2, 3, 4"):
            make(n)


def night_differs(ed):
    """Night face: every space card-any with 1 hammer, no red space, entries reversed; night
    chimney faces need shape 3 and give 5 VP."""
    night = ed["track"]["night"]
    for sp in night["spaces"]:
        sp.update(action={"type": "card"}, pencils=0, hammers=1, red=False)
    night["entry"] = [3, 2, 1, 0]
    for tile in ed["chimneys"]["tiles"]:
        for sp in tile["night"]["spaces"]:
            sp["requirement"] = {"shape": "s3", "n": 1}
            sp["reward"] = [{"type": "vp", "domain": tile["domain"], "n": 5}]


def test_ga_scope_2_ga_setup_2_ga_setup_3_basic_mode_plays_the_day_face():
    """GA-SCOPE-2, GA-SETUP-2, GA-SETUP-3 (day side up), GA-COMP-1: an edition whose night face
    differs everywhere (card spaces with 1 hammer, no red space, entries 3, 2, 1, 0). Mode 'basic'
    keeps both faces in its config but plays the day face: seat 0 may enter at 0 (day entry; night would be 3), index 0 gives 1 pencil for a
    tile (day; night: 1 hammer), and after a finish red space 20 (day) removes the marker."""
    data = edition_dir("night-differs", night_differs)
    s = make(4, seed=1, data=data, mode="basic")
    assert s.config()["track_n"] == [24, 24]
    assert 0 in legal(s)
    s.apply(0)
    assert s.units()[:3] == (0, 1, 0)
    s = at_move(make(4, seed=1, data=data), 0, {0: 15, 1: GONE}, finished=True)
    move_and_pass(s, 20)
    assert s.positions()[0] == GONE


def test_ga_setup_6_chimney_tiles_day_side_up_and_markers_at_the_bottom():
    """GA-SETUP-6 (1, 2): same edition, night chimney faces need 1 tile of shape 3 and give 5 VP; day
    faces need 1 tile of shape 0 and give 1 VP. Every chimney marker starts at the bottom (0). A
    player holding one shape-0 tile (space 0) may advance, and gains the day reward, +1; a player
    holding only a shape-3 tile (space 3) may not."""
    base = make(4, seed=2, data=edition_dir("night-differs", night_differs))
    for p in range(4):
        assert base.chimneys(p) == (0, 0, 0)
    s = set_board(at_move(base, 0, {1: 1}), 0, {0: 2})
    s.apply(6)  # card-any, 1 hammer
    assert G.advance(1) in legal(s)
    s.apply(G.advance(1))
    assert s.chimneys(0) == (0, 1, 0) and s.domain_scores(0) == (0, 1, 0)
    s = set_board(at_move(base, 0, {1: 1}), 0, {3: 2})
    s.apply(6)
    assert {G.advance(0), G.advance(1), G.advance(2)}.isdisjoint(legal(s))


# ---------------------------------------------------------------- components


def test_ga_comp_1_ga_comp_12_main_board_areas_windows_track_and_score_track():
    """GA-COMP-1, GA-COMP-12: the setup has 5 supply areas, 3 card windows (Nature, Catalan,
    Religion), a track with a start space per colour (entries), red spaces, action spaces, the
    central area (MOVE 48, always legal), a bonus slot above each area and window, both faces of
    the board, and one score track holding each
    player's N, C and R markers (domain_scores)."""
    s = make(4, seed=3)
    cfg = s.config()
    assert len(s.areas()) == 5 and len(s.windows()) == 3
    assert [len(w) for w in s.windows()] == [3, 3, 3]
    assert [{c // 33 for c in w} for w in s.windows()] == [{0}, {1}, {2}]
    assert cfg["track_n"] == [24, 24] and cfg["track_entry"][0] == [0, 1, 2, 3]
    assert [i for i in range(24) if cfg["track_red"][0][i]] == [20, 21, 22, 23]
    assert CENTRAL_AREA in legal(s)
    assert len(cfg["area_bonus"][0]) == 5 and len(cfg["window_bonus"][0]) == 3  # a bonus slot each (none here)
    assert [s.domain_scores(p) for p in range(4)] == [(0, 0, 0)] * 4


def test_ga_comp_2_ga_comp_13_player_boards_columns_and_chimney_slots():
    """GA-COMP-2, GA-COMP-13, GA-COMP-10: a 4-player game has a board per player (36 empty tile
    spaces of the 4 shapes), three card columns (N, C, R), rewards above the Nature and Catalan
    columns (+1 VP each, catalogue entries 37 and 38) and three chimneys, markers at 0. Seat 4 does
    not exist."""
    s = make(4, seed=3)
    cfg = s.config()
    assert cfg["board_n"] == 36 and sorted(set(cfg["board_shape"][:36])) == [0, 1, 2, 3]
    assert cfg["nature_reward"][0] == [37, 1] and cfg["catalan_reward"][0] == [38, 1]
    for p in range(4):
        assert s.board(p) == [0, 0, 0, 0]
        assert s.columns(p) == [[], [], []]
        assert s.chimneys(p) == (0, 0, 0)
    with pytest.raises((ValueError, IndexError)):
        s.board(4)


def test_ga_comp_4_ga_setup_1_ga_setup_3_bag_and_supply_areas():
    """GA-COMP-4, GA-SETUP-1, GA-SETUP-3: all 96 tiles (16 types x 6) start in the bag; the first
    draws are weighted by the bag (each type 6/96). 5 tiles go to each of the 5 areas, so 71 stay
    in the bag, and per type bag + areas = 6."""
    s = make(4, seed=4, chance="explicit")
    assert s.chance_outcomes() == [(t, 6 / 96) for t in range(16)]
    walk_setup(s)
    assert [sum(a) for a in s.areas()] == [5] * 5
    assert sum(s.bag()) == 71
    assert [s.bag()[t] + sum(a[t] for a in s.areas()) for t in range(16)] == [6] * 16


@pytest.mark.parametrize("players,pool_sizes,decks", [
    (2, [30, 30], (29, 29, 30)),
    (3, [30, 30, 30], (29, 29, 29)),
    (4, [30, 29, 30, 29], (28, 28, 30)),
])
def test_ga_setup_3_4_5_7_chance_nodes_of_the_setup(players, pool_sizes, decks):
    """GA-SETUP-3, GA-SETUP-4, GA-SETUP-5, GA-SETUP-7: with explicit chance and always the first
    outcome, the setup is exactly: 25 tile draws (type 0 six times, then types 1, 2, 3 six times,
    then type 4: 16, 15, 14, 13, 12 outcomes); 3 reveals per window in the order N, C, R, each from
    the remaining deck (33, 32, 31); the starting pool from the deck tops (2: N, C; 3: N, C, R; 4: N,
    N, C, C; a deck then holds 30 or 29 cards); the deal, one card per seat at random (players,
    players - 1, ..., 1 outcomes); the central tile, 1 of 7. Windows then hold cards 0-2, 33-35 and
    66-68, area 0 holds 5 tiles of type 0, and seat k holds the k-th pool card."""
    s = make(players, seed=5, chance="explicit")
    sizes, _ = walk_setup(s)
    tiles = [16] * 6 + [15] * 6 + [14] * 6 + [13] * 6 + [12]
    cards = [33, 32, 31] * 3
    assert sizes == tiles + cards + pool_sizes + list(range(players, 0, -1)) + [7]
    assert s.windows() == [[0, 1, 2], [33, 34, 35], [66, 67, 68]]
    assert s.areas()[0][0] == 5 and sum(s.areas()[0]) == 5
    assert s.deck_sizes() == decks
    pool = {2: [3, 36], 3: [3, 36, 69], 4: [3, 4, 36, 37]}[players]
    assert [s.hand(p) for p in range(players)] == [[c] for c in pool]
    assert s.phase() == MOVE


def test_ga_setup_7_the_deal_is_random():
    """GA-SETUP-7: at the deal node of a 4-player game every pool card is equally likely for seat 0
    (4 outcomes, 1/4 each); choosing the last outcome gives seat 0 the last pool card (37) instead."""
    s = make(4, seed=5, chance="explicit")
    while len(s.chance_outcomes()) != 4 or s.chance_outcomes()[0][1] != 0.25:
        s.apply(s.chance_outcomes()[0][0])
    assert s.chance_outcomes() == [(k, 0.25) for k in range(4)]
    s.apply(3)
    walk_setup(s)
    assert s.hand(0) == [37]


@pytest.mark.parametrize("players,domains", [(2, [0, 1]), (3, [0, 1, 2]), (4, [0, 0, 1, 1])])
def test_ga_setup_7_ga_amb_40_one_starting_card_each_for_free(players, domains):
    """GA-SETUP-7, GA-AMB-40, GA-SETUP-6 (3, 4): whatever the seed, each seat holds exactly one
    card, hidden (start_card), the pool domains are 2: N + C, 3: N + C + R, 4: 2 N + 2 C, and
    nothing was paid for it: scores at 0, boards empty, chandelier markers beside the board."""
    for seed in range(5):
        s = make(players, seed=seed)
        hands = [s.hand(p) for p in range(players)]
        assert all(len(h) == 1 for h in hands)
        assert sorted(h[0] // 33 for h in hands) == domains
        assert [s.start_card(p) for p in range(players)] == [h[0] for h in hands]
        for p in range(players):
            assert s.domain_scores(p) == (0, 0, 0) and s.board(p) == [0, 0, 0, 0]
        assert s.positions() == [NOT_ENTERED] * 5


def test_ga_setup_8_hand_limit_is_four():
    """GA-SETUP-8: seat 0 holds 4 cards and takes a fifth from a window (space 6, card-any, 1 hammer):
    it must discard one of the 4 it held (not the new one) and is back to 4 cards."""
    s = make(4, seed=6)
    s = give_hand(at_move(s, 0, {1: 1}), 0, [5, 6, 7, 8])
    s.apply(6)
    new = s.windows()[1][0]
    s.apply(G.take_card(new))
    assert legal(s) == {G.discard(c) for c in (5, 6, 7, 8)}
    s.apply(G.discard(6))
    assert sorted(s.hand(0)) == sorted([5, 7, 8, new])


def test_ga_setup_9_ga_amb_26_start_player_option():
    """GA-SETUP-9, GA-AMB-26: first_player defaults to 0 and may name any seat, who moves first and
    holds the start-player marker (GA-COMP-8: one holder). With -1 the start player is random: in
    explicit mode the very first chance node has one outcome per seat, each 1/4; outcome 2 makes
    seat 2 start. Out-of-range values are rejected."""
    s = make(4, seed=7)
    assert s.current_player() == 0 and s.start_player() == 0 and s.marker_holder() == 0
    s = make(4, seed=7, first_player=3)
    assert s.current_player() == 3 and s.marker_holder() == 3
    s = make(4, seed=7, first_player=-1, chance="explicit")
    assert s.chance_outcomes() == [(k, 0.25) for k in range(4)]
    s.apply(2)
    walk_setup(s)
    assert s.current_player() == 2 and s.start_player() == 2 and s.marker_holder() == 2
    for bad in (4, -2):
        with pytest.raises(tilecraft.InvalidConfigError, match="first_player"):
            make(4, first_player=bad)


def test_ga_amb_26_random_start_player_in_sampled_mode():
    """GA-AMB-26: with first_player=-1 and sampled chance, the start player is drawn from the seed:
    over 40 seeds every seat of a 3-player game starts at least once, and a seed always gives the
    same start player."""
    starts = {make(3, seed=k, first_player=-1).current_player() for k in range(40)}
    assert starts == {0, 1, 2}
    assert make(3, seed=11, first_player=-1).current_player() == make(3, seed=11, first_player=-1).current_player()


def test_ga_comp_8_ga_comp_9_ga_comp_11_markers_at_setup():
    """GA-COMP-8, GA-COMP-9, GA-COMP-11: one start-player marker (one holder seat), one chandelier
    marker per seat (positions 0..n-1, beside the board: -1), and N, C, R score markers at 0 plus a
    total (the provisional final score, 0 on an empty board)."""
    for players in (2, 3, 4):
        s = make(players, seed=8)
        assert s.marker_holder() in range(players)
        assert s.positions()[:players] == [NOT_ENTERED] * players
        for p in range(players):
            assert s.domain_scores(p) == (0, 0, 0)
        assert list(s.scores()) == [0] * players
