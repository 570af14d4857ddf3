"""More expert and solo rule tests (GA-EXP-1/2/11, GA-SOLO-1/2/4/6, GA-AUTO-1/2, GA-AUTO-TILE-1/3,
GA-AUTO-CARD-1, GA-SOLO-END-1/4, GA-AMB-22) on hand-built positions: saved-state edits of fixture
games (tests/gaudi/gaudi_fixtures.py, or the spec's placeholder edition), validated by from_dict.
Every expected value is counted by hand from the spec in the comments.

Fixture track (both faces unless edited), index i: i % 5 == 0 tile-any (1 pencil, 0 hammers),
1 card-any (0, 1), 2 tile of colour (i // 5) % 4 (1, 1), 3 card of domain (i // 5) % 3 (2, 0),
4 generic (0, 2); spaces 20..23 red; colour k enters at k. Tile type = 4 * colour + shape.
Solo round 1 order: the player (seat 0), the automa (marker 1), the virtual marker (marker 4)."""
import copy

import pytest

import tilecraft
from tilecraft.games import gaudi

import gaudi_fixtures
import gaudi_helpers_flow as F
import gaudi_helpers_score as S
from test_gaudi_rules_engine import Pos
from test_gaudi_solo_rules import _automa_position, picked

TAKE_CARD, DONE = gaudi.TAKE_CARD_BASE, gaudi.DONE
MOVE, MODE, USES, OVER, DRAFT = (tilecraft.GaudiState.phase_names().index(name) for name in (
    "moving", "choosing pencils or hammers", "using actions", "game over", "drafting a starting card"))
NO_CARD = 255


# ---------------------------------------------------------------- editions


def _register(name, edit):
    ed = copy.deepcopy(gaudi_fixtures.edition())
    edit(ed)
    gaudi.register_edition(name, ed)
    return name


def _night_entries(ed):
    ed["track"]["night"]["entry"] = [3, 2, 1, 0]  # the day face keeps [0, 1, 2, 3]


NIGHT = _register("solo-more-night", _night_entries)


def _shape_space(ed):
    ed["track"]["night"]["action"][5] = 16 + 1  # index 5: collect a tile of shape 1, any colour (1 pencil)


SHAPE_SPACE = _register("solo-more-shape", _shape_space)


def _play_space(ed):
    ed["track"]["night"]["action"][4] = 29  # index 4: play a card (0 pencils, 2 hammers)


PLAY_SPACE = _register("solo-more-play", _play_space)


def _bonuses(ed):
    ed["track"]["night"]["area_bonus"] = [[37, 3]] * 5       # every emptied area: +3 Nature VP
    ed["track"]["night"]["window_bonus"] = [[38, 3]] * 3     # every emptied window: +3 Catalan VP


BONUS = _register("solo-more-bonus", _bonuses)


# ---------------------------------------------------------------- solo positions


def _solo(data=gaudi_fixtures.NAME, seed=0, player_at=5, automa_at=-1, **opts):
    """Pos of a solo game after the starting pick (the player keeps its Nature card, so the automa's
    columns are N [], C [the other card], R []): the player stands on `player_at` in its uses phase
    with nothing left to do (DONE ends its turn), the automa on `automa_at`, the virtual marker not
    entered."""
    s, _, _ = picked(seed, keep_domain=0, data=data, **opts)
    pos = Pos(s)
    st = pos.s
    st["position"] = [player_at, automa_at, -1, -1, -1]
    st.update(phase=USES, space=player_at, leader=1, mode=3, pencils=0, hammers=1, turn_index=0)
    return pos


def _areas(pos, areas):
    """Supply areas hold exactly areas[a] {type: count}; every other tile goes back to the bag."""
    st = pos.s
    for a in range(5):
        for t in range(16):
            st["bag"][t] += st["area"][a][t]
            st["area"][a][t] = 0
    for a, content in enumerate(areas):
        for t, n in content.items():
            st["bag"][t] -= n
            assert st["bag"][t] >= 0
            st["area"][a][t] = n


def _automa_tiles(pos, held):
    """The automa holds exactly held {type: count} (from the bag)."""
    st = pos.s
    for t in range(16):
        st["bag"][t] += st["automa_tiles"][t]
        st["automa_tiles"][t] = 0
    for t, n in held.items():
        st["bag"][t] -= n
        assert st["bag"][t] >= 0
        st["automa_tiles"][t] = n


def _automa_columns(pos, cols):
    """The automa's columns are exactly cols [N, C, R] (earliest first); old cards go to their decks."""
    st = pos.s
    for d in range(3):
        for c in st["automa_column"][d][: st["automa_column_n"][d]]:
            st["card_loc"][c], st["card_owner"][c] = tilecraft.GaudiState.locations()["deck"], d
        st["automa_column"][d] = [NO_CARD] * 33
        st["automa_column_n"][d] = 0
    for d, cards in enumerate(cols):
        for c in cards:
            pos._unlist(c)
            st["automa_column"][d][st["automa_column_n"][d]] = c
            st["automa_column_n"][d] += 1
            st["card_loc"][c], st["card_owner"][c] = tilecraft.GaudiState.locations()["automa"], d


def _window(pos, d, cards):
    """Window d holds exactly `cards` in reveal order (the last is the bottom-most, GA-AMB-21)."""
    st = pos.s
    for c in st["window"][d][: st["window_n"][d]]:
        st["card_loc"][c], st["card_owner"][c] = tilecraft.GaudiState.locations()["deck"], d
    for c in cards:
        pos._unlist(c)
        st["card_loc"][c], st["card_owner"][c] = tilecraft.GaudiState.locations()["window"], d
    st["window"][d] = list(cards) + [NO_CARD] * (3 - len(cards))
    st["window_n"][d] = len(cards)


def _deck_cards(s, d, n, skip=()):
    return [c for c in range(33 * d, 33 * d + 33) if s.card_location(c)[0] == tilecraft.GaudiState.locations()["deck"] and c not in skip][:n]


# ---------------------------------------------------------------- expert (night) mode


def test_ga_exp_1_expert_turns_follow_the_basic_sequence():
    """GA-EXP-1 (and GA-AMB-8): after the draft, expert turns run exactly as in basic mode: strict
    round-robin clockwise from the start player (1, 2, 0, 1 with first_player=1), whatever the track
    positions, and a mover who is not strictly ahead gets the pencils-or-hammers choice (GA-ACTN-5).
    Seat 1 moves to 10 (leads: uses), seat 2 to 7 (10 > 7: mode choice), seat 0 to 2 (mode choice;
    both spaces have 1 pencil and 1 hammer);
    then seat 1 again, although it is furthest ahead."""
    def run(mode):
        s = F.make(3, seed=0, first_player=1, mode=mode)
        while s.phase() == DRAFT:
            s.apply(int(s.legal_actions()[0]))
        seen = []
        for target, phase in ((10, USES), (7, MODE), (2, MODE)):
            assert s.phase() == MOVE
            seen.append(s.current_player())
            s.apply(target)
            assert s.phase() == phase
            F.finish_turn(s)
        seen.append(s.current_player())
        return seen

    assert run("expert") == [1, 2, 0, 1]
    assert run("basic") == [1, 2, 0, 1]


def test_ga_exp_2_expert_uses_the_night_face():
    """GA-EXP-2: the night face's entry spaces are [3, 2, 1, 0], the day face's [0, 1, 2, 3]. Seat 0's
    first move may stop on any free index >= its entry (GA-AMB-10): 3..23 or the central area at
    night, 0..23 by day."""
    ex = tilecraft.make("gaudi", players=2, seed=0, data=NIGHT, mode="expert")
    while ex.phase() == DRAFT:
        ex.apply(int(ex.legal_actions()[0]))
    assert ex.current_player() == 0 and ex.phase() == MOVE
    assert sorted(int(a) for a in ex.legal_actions()) == list(range(3, 24)) + [48]
    basic = tilecraft.make("gaudi", players=2, seed=0, data=NIGHT)
    assert basic.current_player() == 0 and basic.phase() == MOVE
    assert sorted(int(a) for a in basic.legal_actions()) == list(range(0, 24)) + [48]


@pytest.mark.parametrize("scores,expected", [
    # seat 0 ends with (9, 9, 9): 2 x 9 + 9 = 27, tie-break 9
    ({1: (9, 9, 9), 2: (9, 9, 8)}, [0.5, 0.5, 0.0]),    # 27 / 9 each, seat 2: 2 x 8 + 9 = 25: shared
    ({1: (9, 10, 9), 2: (9, 9, 9)}, [0.0, 1.0, 0.0]),   # seat 1: 27 with tie-break 10 > 9
    ({1: (6, 14, 20), 2: (9, 9, 8)}, [1.0, 0.0, 0.0]),  # seat 1: 2 x 6 + 14 = 26 (the basic sum 6 + 14 = 20 > 18 would win)
])
def test_ga_exp_11_expert_winner(scores, expected):
    """GA-EXP-11 with GA-EXP-10: 3 expert players on empty boards (tile bonus 0). Seat 0 has
    (7, 9, 9) and takes central option B (+2 Nature VP) on its last move: (9, 9, 9). The highest
    expert final wins, then the highest domain left out, else the victory is shared."""
    s = S.make(3, None, mode="expert", returns_mode="win_loss")
    while s.phase() == DRAFT:
        s.apply(int(s.legal_actions()[0]))
    s = S.position(s, current=0, round=3, anyone_finished=True, markers={0: -1, 1: 48, 2: 48},
                   scores={0: (7, 9, 9), **scores})
    S.finish_game(s)
    finals = [2 * sorted(v)[0] + sorted(v)[1] for v in ((9, 9, 9), scores[1], scores[2])]
    assert list(s.scores()) == finals
    assert list(s.returns()) == pytest.approx(expected)


# ---------------------------------------------------------------- solo setup


def test_ga_solo_1_solo_is_a_two_player_expert_setup_with_the_virtual_marker():
    """GA-SOLO-1: solo uses the expert setup of a 2-player game (4 tiles per area, 3 cards per
    window, the night face) and the virtual marker. Night entries [3, 2, 1, 0]: the player's first
    moves are 3..23 or the central area. The player moves to 10; area 0 then holds a colour-0 tile,
    so the automa (colour 1, night entry 2) stops on index 2 (tile of colour 0, 1 pencil + 1 hammer,
    not leading: k = 1; by day it would enter at 1). The virtual marker (colour 2) moves to the
    first free index above every marker: 11."""
    s = tilecraft.make("gaudi", players=1, seed=0, data=NIGHT)
    two = tilecraft.make("gaudi", players=2, seed=0, data=NIGHT, mode="expert")
    assert [sum(a) for a in s.areas()] == [sum(a) for a in two.areas()] == [4] * 5
    assert [len(w) for w in s.windows()] == [len(w) for w in two.windows()] == [3, 3, 3]
    s.apply(TAKE_CARD + next(int(a) - TAKE_CARD for a in s.legal_actions() if (int(a) - TAKE_CARD) // 33 == 0))
    assert s.phase() == MOVE and sorted(int(a) for a in s.legal_actions()) == list(range(3, 24)) + [48]
    pos = _solo(NIGHT, player_at=10)
    _areas(pos, [{0: 1, 5: 1}, {5: 1}, {6: 1}, {7: 1}, {9: 1}])
    e = pos.load()
    e.apply(DONE)
    p = e.positions()
    assert p[0] == 10 and p[1] == 2 and p[4] == 11


def test_ga_solo_2_the_automa_has_no_board_chimneys_or_second_marker():
    """GA-SOLO-2: one decision maker; the automa's tiles go to its area, never onto a board; it has no
    chimney tiles or markers and one chandelier marker (marker 1; markers 2 and 3 stay unused).
    The automa (automa at 3, player at 4) leads on index 5 (tile-any, 1 pencil): k = 1 tile."""
    pos = _solo(player_at=4, automa_at=3)
    _areas(pos, [{0: 1}, {}, {6: 2}, {}, {}])
    _automa_tiles(pos, {})
    e = pos.load()
    assert e.num_players() == 1 and len(e.returns()) == 1
    e.apply(DONE)
    _, tiles, _ = e.automa_area()
    assert sum(tiles) == 1
    st = e.to_dict()["state"]
    assert all(m == 0 for m in st["colour"][1]) and st["chimney"][1] == [0, 0, 0]
    assert all(t == 255 for t in st["chimney_tile"][1])
    p = e.positions()
    assert p[1] == 5 and p[2] == -1 and p[3] == -1
    assert e.current_player() == 0


def test_ga_solo_4_four_difficulties():
    """GA-SOLO-4: difficulty easy, normal, hard or crazy (stored as 0..3); anything else is rejected
    with a message naming the four."""
    for i, name in enumerate(("easy", "normal", "hard", "crazy")):
        s = tilecraft.make("gaudi", players=1, seed=0, data=gaudi_fixtures.NAME, difficulty=name)
        assert s.to_dict()["config"]["difficulty"] == i
    with pytest.raises(tilecraft.InvalidConfigError) as e:
        tilecraft.make("gaudi", players=1, seed=0, data=gaudi_fixtures.NAME, difficulty="expert")
    for name in ("easy", "normal", "hard", "crazy"):
        assert name in str(e.value)


# ---------------------------------------------------------------- automa choices


def test_ga_solo_6_no_bonuses_for_the_automa_or_the_virtual_marker():
    """GA-SOLO-6: every emptied area gives +3 Nature VP and every emptied window +3 Catalan VP (night
    face of this edition). The automa (at 3, player at 4) leads on index 5 (tile-any, k = 1) and takes
    the only tile of area 0 (type 6, which it holds fewest of): area 0 is emptied. The virtual marker
    moves to 6 (card-any, 1 hammer) and takes the only Nature card (its own pile is empty: Nature is
    the leftmost): the Nature window is emptied. Nobody gains anything and no decision is pending."""
    pos = _solo(BONUS, player_at=4, automa_at=3)
    _areas(pos, [{6: 1}, {0: 2}, {0: 1}, {1: 1}, {1: 1}])
    _automa_tiles(pos, {t: 1 for t in range(16) if t != 6})
    st = pos.s
    n_card = st["window"][0][0]
    _window(pos, 0, [n_card])
    e = pos.load()
    before = e.domain_scores(0)
    e.apply(DONE)
    _, tiles, _ = e.automa_area()
    assert tiles[6] == 1
    assert e.card_location(n_card)[0] == tilecraft.GaudiState.locations()["removed"]  # removed by the virtual marker
    assert e.domain_scores(0) == before
    assert e.phase() == MOVE and e.current_player() == 0


def test_ga_auto_1_ga_auto_card_1_domain_take_is_the_bottom_most_card():
    """GA-AUTO-CARD-1 (GA-AMB-21) and GA-AUTO-1: the automa at 2, the player at 4 (one space
    between: GA-AUTO-MOVE-1). Index 3 is a Nature card space with 2 pencils; the automa is not ahead
    of the player, k = max(2, 0) = 2. The Nature window is [a, b, c] in reveal order: it takes c,
    then b; both go into its Nature column after its earlier card, in that order. Its Catalan column
    keeps the starting card the player did not choose."""
    pos = _solo(player_at=4, automa_at=2)
    st = pos.s
    cat_start = st["automa_column"][1][0]
    _automa_columns(pos, [[0], [cat_start], []])
    abc = [c for c in range(1, 33) if st["card_loc"][c] in (0, 1)][:3]
    _window(pos, 0, abc)
    e = pos.load()
    e.apply(DONE)
    cols, _, _ = e.automa_area()
    assert e.positions()[1] == 3
    assert cols == [[0, abc[2], abc[1]], [cat_start], []]
    assert e.windows()[0] == [abc[0]]
    assert e.card_location(abc[2]) == (6, 0)


@pytest.mark.parametrize("data", [gaudi_fixtures.NAME, PLAY_SPACE])
def test_ga_auto_2_generic_and_play_spaces_take_a_card_of_any_domain(data):
    """GA-AUTO-2 (with GA-AUTO-CARD-2): index 4 is a generic space (fixture) or a play space (edited),
    0 pencils and 2 hammers. The automa at 3, the player at 5: not leading, k = max(0, 2) = 2, two
    cards of any domain. The automa holds N 0, C 1, R 0: it takes the bottom-most Nature card (fewest,
    leftmost), then N 1, C 1, R 0: the bottom-most Religion card."""
    pos = _solo(data, player_at=5, automa_at=3)
    st = pos.s
    n_bottom = st["window"][0][st["window_n"][0] - 1]
    r_bottom = st["window"][2][st["window_n"][2] - 1]
    before = [list(st["automa_column"][d][: st["automa_column_n"][d]]) for d in range(3)]
    assert [len(c) for c in before] == [0, 1, 0]
    e = pos.load()
    e.apply(DONE)
    cols, _, _ = e.automa_area()
    assert e.positions()[1] == 4
    assert cols == [[n_bottom], before[1], [r_bottom]]


def test_ga_amb_22_an_empty_window_is_skipped():
    """GA-AMB-22: the automa holds N 0, C 1, R 1; the Nature window holds one card. On the generic
    space 4 (automa at 3, player at 5: k = 2) it first takes that Nature card (fewest), which empties
    the window; then N, C and R are all held once, and Nature, the leftmost, is empty: it takes the
    bottom-most Catalan card."""
    pos = _solo(player_at=5, automa_at=3)
    st = pos.s
    cat_start = st["automa_column"][1][0]
    r_card = _deck_cards(pos.load(), 2, 1)[0]
    _automa_columns(pos, [[], [cat_start], [r_card]])
    n_card = st["window"][0][0]
    _window(pos, 0, [n_card])
    c_bottom = st["window"][1][st["window_n"][1] - 1]
    e = pos.load()
    e.apply(DONE)
    cols, _, _ = e.automa_area()
    assert e.positions()[1] == 4
    assert cols == [[n_card], [cat_start, c_bottom], [r_card]]


def test_ga_auto_tile_1_shape_take_prefers_the_colour_held_fewest_in_that_shape():
    """GA-AUTO-TILE-1: index 5 collects a tile of shape 1 (edited). The automa (at 3, player at 4)
    leads there: k = 1. Shape-1 tiles on offer: colour 0 in area 0, colour 1 in area 1, colour 3 in
    area 2, colour 2 in area 4. In shape 1 the automa holds colour 0 x 2, colour 1 x 1, colour 3 x 1,
    colour 2 x 0 (but 6 colour-2 tiles of other shapes, so colour 2 is its most held colour overall).
    It takes the colour-2 shape-1 tile (type 9) from area 4, the rightmost area."""
    pos = _solo(SHAPE_SPACE, player_at=4, automa_at=3)
    _areas(pos, [{1: 1, 0: 1}, {5: 1}, {13: 1}, {0: 1}, {9: 1, 4: 1}])
    _automa_tiles(pos, {1: 2, 5: 1, 13: 1, 8: 3, 10: 3})
    e = pos.load()
    e.apply(DONE)
    _, tiles, _ = e.automa_area()
    assert e.positions()[1] == 5
    assert tiles == [0, 2, 0, 0, 0, 1, 0, 0, 3, 1, 3, 0, 0, 1, 0, 0]
    assert e.areas()[4][9] == 0 and e.areas()[0][1] == 1 and e.areas()[1][5] == 1


def test_ga_auto_tile_3_ties_go_to_the_leftmost_area():
    """GA-AUTO-TILE-3 (GA-AMB-20): tile-any at index 5 (automa at 3, player at 4: leads, k = 1). The
    automa holds one tile of every type except 6 and 11. Type 6 lies in areas 3 and 4, type 11 in
    area 2 (with a type-0 tile it holds): both qualify as held fewest (0), so it takes from area 2,
    the leftmost qualifying area: the type-11 tile."""
    pos = _solo(player_at=4, automa_at=3)
    _areas(pos, [{0: 1, 1: 1, 2: 1, 3: 1}, {4: 1}, {0: 1, 11: 1}, {6: 1}, {6: 1}])
    _automa_tiles(pos, {t: 1 for t in range(16) if t not in (6, 11)})
    e = pos.load()
    e.apply(DONE)
    _, tiles, _ = e.automa_area()
    assert tiles[11] == 1 and tiles[6] == 0
    a = e.areas()
    assert a[2][11] == 0 and a[2][0] == 1 and a[3][6] == 1 and a[4][6] == 1


# ---------------------------------------------------------------- solo end


def test_ga_solo_end_1_player_scored_by_the_expert_rules_then_the_automa():
    """GA-SOLO-END-1 (with GA-EXP-10, GA-SOLO-END-2..4): round 3, the automa has left; the player
    moves to the central area and takes option B (+1 Religion VP at once; its tile and card items
    declined). Player: domains (12, 8, 15 + 1): 2 x 8 + 12 = 28; groups [6, 4, 4, 2]: 4 + 2 x 4 = 12;
    final 40 (the basic rules would give 8 + 12 + 4 + 4 = 28). Automa on normal (2 cards removed per
    column): N [0, 1, 2] keeps card 2, C [33, 34] and R [66] keep none: 1 VP x 3 = 3; tile colours
    (2, 5, 0, 3): 3 + 2 x 2 = 7; automa 10. Returns (score mode): 40 - 10 = 30."""
    s, _, keep = picked(3, keep_domain=0)
    pos = Pos(s)
    st = pos.s
    pos.hand(0, [])
    _automa_columns(pos, [[0, 1, 2], [33, 34], [66]])
    _automa_tiles(pos, {0: 2, 4: 5, 12: 3})
    for b in range(6):
        pos.tile(0, b, 0)
    for b in (6, 7, 8, 9):
        pos.tile(0, b, 1)
    for b in (12, 13, 14, 15):
        pos.tile(0, b, 2)
    for b in (18, 19):
        pos.tile(0, b, 3)
    st["score"][0] = [12, 8, 15]
    st["position"] = [-1, 48, -1, -1, 48]
    st.update(phase=MOVE, round=3, central_used=7, central_tile=2, anyone_finished=1, current=0, turn_index=0)
    e = pos.load()
    e.apply(48)
    assert e.phase_name() == "central area"
    e.apply(gaudi.CENTRAL_B)
    while not e.is_terminal():
        e.apply(DONE)
    assert e.domain_scores(0) == (12, 8, 16)
    assert e.scores()[0] == 40
    assert e.automa_score() == 10
    assert e.returns()[0] == 30.0 and list(e.winners()) == [0]


@pytest.mark.parametrize("colours,expected", [
    ([1, 3, 7, 5], 5 + 2 * 3),   # sorted 7, 5, 3, 1
    ([0, 2, 0, 9], 2 + 2 * 0),   # sorted 9, 2, 0, 0
    ([4, 4, 4, 1], 4 + 2 * 4),   # ties: 4, 4, 4, 1
])
def test_ga_solo_end_4_automa_tile_score(colours, expected):
    """GA-SOLO-END-4 (GA-AMB-24): no automa cards (base 0); the automa's colour counts give the
    second-most common colour's count plus 2 x the third-most's."""
    s = _automa_position(gaudi_fixtures.NAME, "crazy", ([], [], []), colours)
    assert s.automa_area()[0] == [[], [], []]
    assert s.automa_final_score() == expected
