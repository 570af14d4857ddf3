"""Solo rules (GA-SCOPE-3, GA-SOLO-*, GA-AUTO-*, GA-SOLO-DUMMY-1, GA-AMB-18..24/45) on hand-built
positions (to_dict edits of fixture games), counts worked by hand in the comments."""
import copy

import pytest
import tilecraft
from tilecraft.games import gaudi

import gaudi_fixtures
from gaudi_fixtures import make_state
from test_gaudi_rules_engine import Pos

TAKE_CARD, DONE = gaudi.TAKE_CARD_BASE, gaudi.DONE


def picked(seed=0, keep_domain=0, data=gaudi_fixtures.NAME, **opts):
    """A solo game after the starting pick (the solo player keeps the card of keep_domain)."""
    s = tilecraft.make("gaudi", players=1, seed=seed, data=data, **opts)
    assert s.phase_name() == "drafting a starting card"
    pool = [int(a) - TAKE_CARD for a in s.legal_actions()]
    c = next(x for x in pool if x // 33 == keep_domain)
    s.apply(TAKE_CARD + c)
    return s, pool, c


def test_ga_scope_3_solo_is_expert_and_bad_options_raise():
    s = make_state(1, 0)
    assert s.to_dict()["config"]["mode"] == 1 and s.to_dict()["config"]["solo"] == 1
    assert [sum(a) for a in s.areas()] == [4] * 5  # expert supply (GA-EXP-3)
    assert make_state(1, 0, mode="expert").to_dict()["config"]["mode"] == 1
    for bad, words in ((dict(players=1, mode="basic"), "expert"), (dict(players=3, difficulty="hard"), "solo"),
                       (dict(players=1, difficulty="impossible"), "crazy"), (dict(players=0), "1, 2, 3, 4"),
                       (dict(players=1, first_player=-1), "0")):
        with pytest.raises(tilecraft.InvalidConfigError) as e:
            tilecraft.make("gaudi", data=gaudi_fixtures.NAME, **bad)
        assert words in str(e.value)


def test_ga_solo_3_ga_amb_23_27_starting_pick():
    s = make_state(1, 3)
    pool = sorted(int(a) - TAKE_CARD for a in s.legal_actions())
    assert len(pool) == 2 and sorted(c // 33 for c in pool) == [0, 1]  # 1 Nature + 1 Catalan
    assert s.current_player() == 0 and s.phase_name() == "drafting a starting card"
    keep, other = pool[1], pool[0]
    s.apply(TAKE_CARD + keep)
    assert s.hand(0) == [keep] and s.start_card(0) == -1  # both cards are public
    cols, _, _ = s.automa_area()
    assert cols[other // 33] == [other]  # the other card is the automa's earliest card
    assert s.card_location(other)[0] == tilecraft.GaudiState.locations()["automa"]


def test_ga_solo_5_ga_auto_move_1_ga_auto_card_2_ga_amb_21_ga_solo_dummy_1_ga_amb_18_first_turns():
    # The solo player keeps the Nature card, so the automa holds one Catalan card. The player stands on
    # track index 5 (tile-any, 1 pencil) and ends its turn. Round 1 order: player, automa, virtual.
    # Automa (entry 1): index 1 is card-any with 1 hammer; it is not leading (5 > 1), so it needs
    # max(0, 1) = 1 card in the windows: it passes, and it takes a card of the domain it holds fewest
    # of (N 0, C 1, R 0 -> Nature, the leftmost), the bottom-most = the last revealed N card.
    # Virtual marker (colour 2, entry 2): the first free index > max(1, 5, 1) = 6, card-any with
    # 1 hammer: 1 card of any domain by its own removed pile (all 0 -> Nature), the last N card left.
    s, pool, keep = picked(0, keep_domain=0)
    pos = Pos(s)
    pos.s["position"][0] = 5
    pos.s.update(phase=tilecraft.GaudiState.phase_names().index("using actions"), space=5, leader=1, mode=3, pencils=1, hammers=0)
    e = pos.load()
    n_window = e.windows()[0]
    assert len(n_window) == 3
    e.apply(DONE)
    assert e.phase_name() == "moving" and e.current_player() == 0
    p = e.positions()
    assert p[1] == 1 and p[4] == 6
    cols, _, _ = e.automa_area()
    assert cols[0] == [n_window[2]] and len(cols[1]) == 1 and cols[2] == []
    assert e.card_location(n_window[1]) == (7, 0)  # removed from the game by the virtual marker
    assert e.windows()[0] == [n_window[0]]


def _automa_position(edition_name, difficulty, n_cards, colour_counts):
    s, _, _ = picked(1, keep_domain=0, data=edition_name, difficulty=difficulty)
    pos = Pos(s)
    st = pos.s
    for d in range(3):  # empty the automa columns first (the pick put one card there)
        for c in st["automa_column"][d][: st["automa_column_n"][d]]:
            st["card_loc"][c], st["card_owner"][c] = tilecraft.GaudiState.locations()["deck"], d
        st["automa_column"][d] = [255] * 33
        st["automa_column_n"][d] = 0
    for d, cards in enumerate(n_cards):
        for c in cards:
            pos._unlist(c)
            n = st["automa_column_n"][d]
            st["automa_column"][d][n] = c
            st["automa_column_n"][d] = n + 1
            st["card_loc"][c], st["card_owner"][c] = tilecraft.GaudiState.locations()["automa"], d
    for colour, k in enumerate(colour_counts):
        t = 4 * colour
        for _ in range(k):
            while st["bag"][t] == 0:
                t += 1
            st["bag"][t] -= 1
            st["automa_tiles"][t] += 1
    return pos.load()


COLS = ([0, 1, 2, 3], [33, 34, 35], [66, 67, 68])


def test_ga_ex_5_ga_solo_end_3_4_ga_amb_24_crazy():
    # fixture: every card shows 1 automa VP. 10 cards, crazy removes none: 10 x 4 = 40.
    # colour counts [7, 5, 3, 1]: 5 + 2 x 3 = 11. Final 51; a solo player with 51 loses (tie).
    s = _automa_position(gaudi_fixtures.NAME, "crazy", COLS, [7, 5, 3, 1])
    assert s.automa_final_score() == 51
    # colour counts tie-ranked with zeros included (GA-AMB-24): [4, 4, 0, 0] -> 4 + 0 = 4
    s = _automa_position(gaudi_fixtures.NAME, "crazy", COLS, [4, 0, 4, 0])
    assert s.automa_final_score() == 40 + 4


def test_ga_solo_end_2_ga_amb_45_earliest_cards_removed_per_difficulty():
    ed = copy.deepcopy(gaudi_fixtures.edition())
    ed["cards"][0]["automa_vp"] = 5  # the earliest Nature card is worth 5
    gaudi.register_edition("automa-vp-test", ed)
    tiles = [7, 5, 3, 1]  # +11
    # columns N [0 (5 VP), 1, 2, 3], C [33, 34, 35], R [66, 67, 68]
    expected = {
        "easy": 3 * (1 + 0 + 0) + 11,       # 3 removed per column: N keeps card 3; C, R lose all (GA-AMB-45)
        "normal": 3 * (2 + 1 + 1) + 11,     # 2 removed: N keeps 2, 3
        "hard": 3 * (3 + 2 + 2) + 11,       # 1 removed: the earliest, card 0 (5 VP), goes
        "crazy": 4 * (8 + 3 + 3) + 11,      # none removed: 5 + 1 + 1 + 1 = 8 in N
    }
    for diff, score in expected.items():
        s = _automa_position("automa-vp-test", diff, COLS, tiles)
        assert s.automa_final_score() == score, diff


def test_ga_solo_end_5_tie_goes_to_the_automa():
    for rm, mine, theirs, ret, winners in (("score", 51, 51, 0.0, []), ("win_loss", 51, 51, -1.0, []),
                                          ("win_loss", 52, 51, 1.0, [0]), ("score", 40, 51, -11.0, [])):
        s, _, _ = picked(2, returns_mode=rm)
        pos = Pos(s)
        pos.s.update(phase=tilecraft.GaudiState.phase_names().index("game over"), automa_score=theirs)
        pos.s["final"][0] = mine
        e = pos.load()
        assert e.returns()[0] == ret and list(e.winners()) == winners


def _player_done_position(seed, player_at, automa_at, space_units):
    s, _, _ = picked(seed, keep_domain=0)
    pos = Pos(s)
    st = pos.s
    st["position"] = [player_at, automa_at, -1, -1, -1]
    pe, ha = space_units
    st.update(phase=tilecraft.GaudiState.phase_names().index("using actions"), space=player_at, leader=1, mode=3, pencils=pe, hammers=ha, turn_index=0)
    return pos


def test_ga_auto_move_2_last_marker_with_a_gap_goes_where_it_leads():
    # automa at 1, player at 9 (generic, 0 pencils 2 hammers; it ends its turn), virtual not entered.
    # The automa is the last marker and 7 empty spaces (2..8) lie before the player: it checks only
    # spaces where it would lead: index 10 (tile-any, 1 pencil; k = 1) -> 10.
    pos = _player_done_position(0, 9, 1, (0, 1))
    e = pos.load()
    e.apply(DONE)
    assert e.positions()[1] == 10
    # with the player at 4 only 2 empty spaces (2, 3) lie between: GA-AUTO-MOVE-1 alone, from index 2
    # (tile colour 0, 1 pencil + 1 hammer, not leading: k = max(1, 1) = 1)
    pos = _player_done_position(0, 4, 1, (0, 0))
    pos.s["hammers"] = 1
    e = pos.load()
    assert sum(a[t] for a in e.areas() for t in range(4)) >= 1  # a colour-0 tile is available
    e.apply(DONE)
    assert e.positions()[1] == 2


def test_ga_auto_tile_2_ga_amb_20_colour_tile_prefers_the_shape_held_fewest():
    # The automa (not entered, entry 1) holds colour-0 tiles of shapes 0, 1, 2 (one each). The player
    # stands on index 1 and ends its turn, so the automa's first passing space is index 2 (tile colour
    # 0, 1 pencil + 1 hammer) where it leads (2 > 1): k = 2 takes. Colour-0 tiles on offer: shape 0 in
    # area 0, shape 1 in area 1, shape 3 in area 3.
    # Take 1: shape 3 (held 0) from area 3, although areas 0 and 1 lie further left.
    # Take 2: every shape now held once: the leftmost area, area 0 (shape 0).
    pos = _player_done_position(4, 1, -1, (0, 0))
    st = pos.s
    st["hammers"] = 1
    for a in range(5):
        for t in range(4):  # colour-0 tiles back to the bag
            st["bag"][t] += st["area"][a][t]
            st["area"][a][t] = 0
    for a, t in ((0, 0), (1, 1), (3, 3)):
        if sum(st["area"][a]) == 4:  # make room: one other tile back to the bag
            x = next(x for x in range(4, 16) if st["area"][a][x])
            st["area"][a][x] -= 1
            st["bag"][x] += 1
        st["bag"][t] -= 1
        st["area"][a][t] += 1
    for t in (0, 1, 2):
        st["bag"][t] -= 1
        st["automa_tiles"][t] += 1
    e = pos.load()
    e.apply(DONE)
    assert e.positions()[1] == 2
    _, tiles, _ = e.automa_area()
    assert tiles[:4] == [2, 1, 1, 1]
    assert e.areas()[1][1] == 1 and e.areas()[0][0] == 0


def test_ga_auto_3_ga_chan_5_automa_at_the_central_area():
    # automa at 22, the player on 23 (the last index) ends its turn: no track space is free ahead of
    # the automa, so it moves to the central area (always passes, GA-AMB-19), takes exactly one card of
    # any domain (GA-AUTO-3: fewest held -> Nature, the player kept the Nature card so the automa holds
    # only a Catalan card; the bottom-most N card) and, arriving first, the start-player marker.
    pos = _player_done_position(0, 23, 22, (0, 1))
    e = pos.load()
    n_window = e.windows()[0]
    cols_before, _, _ = e.automa_area()
    e.apply(DONE)
    cols, _, _ = e.automa_area()
    assert e.positions()[1] == 48 and e.anyone_finished() and e.marker_holder() == 1
    assert cols[0] == cols_before[0] + [n_window[-1]] and cols[1] == cols_before[1] and cols[2] == []
