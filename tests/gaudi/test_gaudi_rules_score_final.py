"""Gaudí rule tests, Religion cards and final scoring in basic mode (GA-REL-*, GA-SCORE-*, GA-END-3,
GA-EX-3, GA-CARDDEF-2, GA-AMB-32/34/35/36/37/43/50).

Endgame positions (gaudi_helpers_score.endgame): round 3, seat 1 has left the board, seat 0 moves
to the central area and takes option B (+2 Nature), and the game ends. Seat 1's scoring is
therefore exactly what its position holds; seat 0's Nature gets +2 on the way out.
Placeholder Religion card i (66..98) scores 1 VP per card of category i % 9 in the player's
columns; card j's category is j % 10 (9 = Gaudí's life, the wild category)."""
from __future__ import annotations

import pytest

from gaudi_helpers_score import (FRAME, MOVE, TARGET, apply_all, board_from_rows, chimney_space, endgame,
                                 finish_game, legal, make, position, rejected, set_card, set_chimney_day, tiles, vp)
from tilecraft.games import gaudi as G


def end(edit=None, players=2, **parts):
    s = endgame(players, edit, **parts)
    finish_game(s)
    return s


def final1(edit=None, **seat1):
    """Final score and end domain scores of seat 1 (which does not act) given its parts."""
    parts = {}
    for key, value in seat1.items():
        parts[key] = {1: value}
    s = end(edit, **parts)
    return int(s.scores()[1]), s.domain_scores(1)


# ---------------------------------------------------------------- GA-EX-3 and the winner

EX3_BOARD = board_from_rows(["000111",
                             "000.1.",
                             "......",
                             "2222..",
                             "....33",
                             "......"])


def test_ex3_basic_final_score():
    """GA-EX-3, GA-SCORE-3, GA-SCORE-4, GA-SCORE-5: Nature 12 (10 + 2 from the central option),
    Catalan 8, Religion 15; groups [6, 4, 4, 2]. Base 8 + 12 = 20, bonus 4 + 4 = 8: final 28."""
    s = end(scores={0: (10, 8, 15)}, boards={0: EX3_BOARD})
    assert s.domain_scores(0) == (12, 8, 15)
    assert s.scores()[0] == 28


@pytest.mark.parametrize("other,expected", [
    ((14, 14, 14), [1.0, 0.0]),   # 28, tie-break 14 < 15: seat 0 wins
    ((16, 14, 14), [0.0, 1.0]),   # 28, tie-break 16 > 15: seat 1 wins
    ((15, 14, 14), [0.5, 0.5]),   # 28, tie-break 15: shared victory
    ((30, 14, 15), [0.0, 1.0]),   # 29: the higher final score wins, whatever the tie-break
])
def test_ex3_winner_and_tie_break(other, expected):
    """GA-END-3, GA-EX-3: seat 0 scores 28 with tie-break value 15 (its highest domain, left out of
    the total). Against seat 1 (empty board, so final = its two lowest domains): a tie on 28 goes
    to the higher highest-domain; equal again, the victory is shared (win_loss returns 1/k)."""
    s2 = position(make(2, None, returns_mode="win_loss"), current=0, round=3, anyone_finished=True,
                  markers={0: -1, 1: 48, 4: 48}, scores={0: (10, 8, 15), 1: other}, boards={0: EX3_BOARD})
    finish_game(s2)
    assert s2.scores()[0] == 28
    assert list(s2.returns()) == expected


# ---------------------------------------------------------------- base total and tile bonus

@pytest.mark.parametrize("scores,base", [((7, 7, 7), 14), ((9, 9, 3), 12), ((3, 20, 5), 8), ((0, 0, 11), 0)])
def test_base_total_is_the_two_lowest_domains(scores, base):
    """GA-SCORE-3: the highest domain is left out; ties make no difference (empty board: no bonus)."""
    assert final1(scores=scores)[0] == base


@pytest.mark.parametrize("rows,bonus", [
    (["00000.", "......", "......", "......", "......", "......"], 0),   # one group [5]
    (["00000.", "......", "111...", "......", "......", "......"], 3),   # [5, 3]
    (["......"] * 6, 0),                                                 # no tiles
    (["0.1.2.", "......", "3.0.1.", "......", "......", "......"], 2),   # six lone tiles: [1]*6
])
def test_tile_bonus_with_few_groups(rows, bonus):
    """GA-SCORE-4, GA-AMB-36: bonus = 2nd + 3rd largest same-colour group, a missing group counts 0.
    Domains (5, 5, 5): base 10."""
    assert final1(scores=(5, 5, 5), boards=board_from_rows(rows))[0] == 10 + bonus


def test_scores_are_unbounded():
    """GA-AMB-37: large domain scores are not capped: (150, 200, 250) -> base 350."""
    assert final1(scores=(150, 200, 250))[0] == 350


# ---------------------------------------------------------------- Religion column at the end

def test_religion_cards_score_their_condition_at_the_end():
    """GA-SCORE-1, GA-REL-1, GA-AMB-50, GA-CARDDEF-1: Religion card 66 scores 1 per card of category
    3 in the player's three columns: 3 (N), 13 (N), 43 (C) -> 3. Card 23 (category 3) in hand and
    card 53 (category 3) discarded do not count. Domains (10, 10, 0) -> Religion 3: final 3 + 10."""
    s = end(columns={1: [[3, 13], [43], [66]]}, hands={0: [], 1: [23]}, discards=[53], scores={1: (10, 10, 0)})
    assert s.domain_scores(1) == (10, 10, 3)
    assert s.scores()[1] == 13


def wild_edit(d):
    set_card(d, 67, religion={"vp": 5, "if_at_least": 2, "count": {"kind": "category", "category": "k4"}})


def test_wild_card_counts_as_the_best_single_category():
    """GA-CARDDEF-2, GA-REL-3, GA-SCORE-1, GA-AMB-35: columns N [3, 13 (category 3), 14 (category 4),
    9 (Gaudí's life)], R [66 (1 per category 3), 67 (5 if at least 2 of category 4)]. As category 3
    the wild card gives 3 + 0 = 3; as category 4 it gives 2 + 5 = 7. The engine chooses 7 (counting it
    as both would give 8, ignoring it 2). Domains (20, 20, 0): final 7 + 20 = 27."""
    final, doms = final1(wild_edit, columns=[[3, 13, 14, 9], [], [66, 67]], scores=(20, 20, 0))
    assert doms == (20, 20, 7)
    assert final == 27


def test_wild_cards_count_as_distinct_categories():
    """GA-AMB-43, GA-CARDDEF-2: card 66 scores 1 per distinct category. Columns: 0 and 10 (category
    0), 9 and 19 (Gaudí's life), 66 (category 6): the two wild cards become two new categories:
    {0, 6} + 2 = 4."""
    def edit(d):
        set_card(d, 66, religion={"vp": 1, "per": {"kind": "distinct_categories"}})
    assert final1(edit, columns=[[0, 10, 9, 19], [], [66]], scores=(20, 20, 0))[1] == (20, 20, 4)


def test_categories_are_the_nine_ordinary_ones_only():
    """GA-AMB-43: the category list is closed: 9 ordinary categories. Columns hold categories 0..8
    (cards 0..8) and a Gaudí's-life card (9): distinct categories = 9, not 10."""
    def edit(d):
        set_card(d, 66, religion={"vp": 1, "per": {"kind": "distinct_categories"}})
    assert final1(edit, columns=[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [], [66]], scores=(20, 20, 0))[1] == (20, 20, 9)


def test_religion_conditions_count_chimneys_shapes_and_groups():
    """GA-REL-1, GA-AMB-50: 66 scores 2 per Catalan chimney step (index 2 -> 4); 67 scores 1 per s1
    tile (spaces 1, 5, 33 -> 3); 68 scores 1 per tile of the largest same-colour group (c0 on 0, 1,
    2 -> 3). Religion 10. The Catalan chimney's 2nd space also adds 3 Catalan at the end (GA-SCORE-2).
    Domains (20, 20, 0) -> (20, 23, 10); groups [3, 1, 1]: final 20 + 10 + 2 = 32."""
    def edit(d):
        set_card(d, 66, religion={"vp": 2, "per": {"kind": "chimney", "domain": "catalan"}})
        set_card(d, 67, religion={"vp": 1, "per": {"kind": "shape", "shape": "s1"}})
        set_card(d, 68, religion={"vp": 1, "per": {"kind": "largest_group"}})
    final, doms = final1(edit, columns=[[], [], [66, 67, 68]], scores=(20, 20, 0), chimneys=(0, 2, 0),
                         boards={0: 0, 1: 0, 2: 0, 5: 1, 33: 2})
    assert doms == (20, 23, 10)
    assert final == 32


# ---------------------------------------------------------------- end-of-game chimney effects

def test_catalan_second_space_end_effect_applies_once_when_reached():
    """GA-SCORE-2, GA-SCORE-1 (3), GA-AMB-34: the Catalan chimney's 2nd space has end_vp(Catalan, 3).
    At chimney index 2 it adds 3 once; at index 1 (not reached) nothing."""
    assert final1(scores=(10, 10, 10), chimneys=(0, 2, 0))[1] == (10, 13, 10)
    assert final1(scores=(10, 10, 10), chimneys=(0, 1, 0))[1] == (10, 10, 10)


def test_end_effect_applies_when_the_marker_has_passed_it():
    """GA-SCORE-1 (3), GA-AMB-34: "reached" includes passed: a 3-space Catalan chimney with the end
    effect on its 2nd space; the marker at index 3 still gets +3, once."""
    def edit(d):
        set_chimney_day(d, "catalan", [chimney_space("s0", 1, [vp("catalan", 1)]),
                                       chimney_space("s1", 2, [], {"type": "end_vp", "domain": "catalan", "n": 3}),
                                       chimney_space("s2", 1, [])])
    assert final1(edit, scores=(10, 10, 10), chimneys=(0, 3, 0))[1] == (10, 13, 10)


def test_other_end_effects_apply_too():
    """GA-SCORE-2, GA-AMB-34: a Religion-changing end effect (Religion 1st space: end_vp(Religion, 2))
    and a Nature one (Nature 1st space: end_vp(Nature, 4)), both reached, apply with the Catalan
    one: (10, 10, 10) -> (14, 13, 12)."""
    def edit(d):
        set_chimney_day(d, "religion", [chimney_space("s0", 1, [], {"type": "end_vp", "domain": "religion", "n": 2}),
                                        chimney_space("s1", 2, [])])
        set_chimney_day(d, "nature", [chimney_space("s0", 1, [], {"type": "end_vp", "domain": "nature", "n": 4}),
                                      chimney_space("s1", 2, [])])
    assert final1(edit, scores=(10, 10, 10), chimneys=(1, 2, 1))[1] == (14, 13, 12)


def test_end_add_goes_where_it_helps_the_final_score():
    """GA-AMB-35: an end_add(3) effect (Nature chimney 1st space) is given to a domain
    automatically, maximising the final score: (10, 4, 4) -> adding to Catalan or Religion gives
    base 4 + 7 = 11 (adding to Nature would give 8)."""
    def edit(d):
        set_chimney_day(d, "nature", [chimney_space("s0", 1, [], {"type": "end_add", "n": 3}),
                                      chimney_space("s1", 2, [])])
    final, doms = final1(edit, scores=(10, 4, 4), chimneys=(1, 0, 0))
    assert final == 11
    assert sorted(doms) == [4, 7, 10]


# ---------------------------------------------------------------- Religion cards in play

def test_religion_card_play_gives_no_reward():
    """GA-REL-1: playing Religion card 66 (no banner) with a hammer scores nothing at once."""
    s = position(make(2), hands={0: [66], 1: []}, columns={0: [[3, 13], [], []]}, boards={0: tiles({1: 3})})
    s.apply(1)
    s.apply(G.play(66))
    assert s.columns(0)[2] == [66]
    assert s.domain_scores(0) == (0, 0, 0)


def early_edit(times=1):
    def edit(d):
        set_card(d, 12, requirement=("c2", 1), banner=[{"type": "resolve_one_religion"}] * times)
    return edit


EARLY_COLUMNS = {0: [[3, 13, 14], [], [66, 67]]}  # categories 3, 3, 4; 66: 1 per k3, 67: 1 per k4


def test_early_religion_resolution_scores_only_the_chosen_card():
    """GA-REL-2: Nature card 12's banner resolves one Religion card early. Playing 12 (total
    requirement 4 c2) resolves the Nature column (+3 banners + 1 board = Nature 4) and offers the
    target: 66 (2 cards of category 3) or 67 (1 of category 4). Choosing 66 adds 2 Religion, not
    the whole column's 3."""
    s = position(make(2, early_edit()), hands={0: [12], 1: []}, columns=EARLY_COLUMNS, boards={0: tiles({2: 4})})
    s.apply(1)
    s.apply(G.play(12))
    assert s.domain_scores(0) == (4, 0, 0)
    s.apply(G.resolve(33))
    assert s.phase() == TARGET
    assert set(legal(s)) == {G.target(66), G.target(67), G.DONE}
    s.apply(G.target(66))
    assert s.domain_scores(0) == (4, 0, 2)


@pytest.mark.parametrize("rescored,religion", [(True, 2 + 2 + 1), (False, 2 + 1)])
def test_early_resolved_card_scores_again_at_the_end(rescored, religion):
    """GA-AMB-32 (option early_religion_rescored): in round 3, 66 is resolved early (+2). At the end
    the column scores 66 (2) and 67 (1): with the default the early card scores again (5 in all);
    with the option off it is not scored again (3)."""
    s = position(make(2, early_edit(), early_religion_rescored=rescored), current=0, round=3, anyone_finished=True,
                 markers={0: -1, 1: 48, 4: 48}, hands={0: [12], 1: []}, columns=EARLY_COLUMNS,
                 boards={0: tiles({2: 4})})
    apply_all(s, 1, G.play(12), G.resolve(33), G.target(66))
    assert s.domain_scores(0)[2] == 2
    assert s.phase() == MOVE and s.current_player() == 0
    finish_game(s)
    assert s.domain_scores(0)[2] == religion


@pytest.mark.parametrize("rescored,second", [(True, {66, 67}), (False, {67})])
def test_early_resolved_card_targeted_twice_only_when_rescored(rescored, second):
    """GA-AMB-32: a banner with two early resolutions. With the default the same card may be
    chosen again; with early_religion_rescored off, only a card not yet resolved early."""
    s = position(make(2, early_edit(2), early_religion_rescored=rescored), hands={0: [12], 1: []},
                 columns=EARLY_COLUMNS, boards={0: tiles({2: 4})})
    apply_all(s, 1, G.play(12), G.resolve(33), G.target(66), G.resolve(33))
    assert {a - G.TARGET_BASE for a in legal(s) if a != G.DONE} == second
    if not rescored:
        rejected(s, G.target(66))


@pytest.mark.parametrize("scores,expected", [
    ({1: (9, 9, 9), 2: (9, 9, 9)}, [1 / 3, 1 / 3, 1 / 3]),   # all 18, tie-break 9: shared by three
    ({1: (9, 9, 9), 2: (9, 9, 8)}, [0.5, 0.5, 0.0]),          # seat 2: 17
    ({1: (9, 9, 10), 2: (9, 9, 9)}, [0.0, 1.0, 0.0]),         # seat 1: 18 with tie-break 10
])
def test_three_player_winner(scores, expected):
    """GA-END-3: 3 players, empty boards. Seat 0 ends with (9, 9, 9) (7 + 2 from the central
    option): 18, tie-break 9. The highest final wins, then the highest domain, else shared."""
    s = position(make(3, None, returns_mode="win_loss"), current=0, round=3, anyone_finished=True,
                 markers={0: -1, 1: 48, 2: 48}, scores={0: (7, 9, 9), **scores})
    finish_game(s)
    assert list(s.scores()) == [18, sum(scores[1]) - max(scores[1]), sum(scores[2]) - max(scores[2])]
    assert list(s.returns()) == pytest.approx(expected)
