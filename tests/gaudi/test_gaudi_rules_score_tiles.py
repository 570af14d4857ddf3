"""Gaudí rule tests, action 1 (collect a tile) and the same-colour groups it builds (GA-TILE-*,
GA-AMB-41, GA-ORDER-3). Positions on the spec's placeholder edition (gaudi_helpers_score.py);
seat 0 of a 2-player game moves first in round 1, alone on the track, so it leads (GA-AMB-9) and
may use every pencil and hammer of its space."""
from __future__ import annotations

import pytest

from gaudi_helpers_score import (MOVE, PLACE, USES, apply_all, board_from_rows, endgame, fill, finish_game,
                                 legal, make, position, rejected, set_space, shape_of, spaces_of_shape)
from tilecraft.games import gaudi as G


def t(colour, shape):
    return 4 * colour + shape


def tile_takes(state):
    return sorted(a for a in legal(state) if G.TAKE_TILE_BASE <= a < G.PLACE_BASE)


# one tile of every (colour, shape) type, spread over the five areas
ALL_TYPES = [{t(c, s): 1 for c in range(4) for s in range(4) if (4 * c + s) % 5 == a} for a in range(5)]


def every_type_take():
    return {t(c, s): G.take_tile((4 * c + s) % 5, c, s) for c in range(4) for s in range(4)}


def at_space(edit, space):
    s = position(make(2, edit), areas=ALL_TYPES)
    s.apply(space)
    assert s.phase() == USES and s.current_player() == 0
    return s


def test_tile_icon_shape_and_colour_allows_only_that_tile():
    """GA-TILE-1: a tile icon showing shape s2 and colour c1 allows only the c1/s2 tile; every
    other of the 16 types (same shape other colour, same colour other shape) is rejected."""
    s = at_space(lambda d: set_space(d, 0, action={"type": "tile", "colour": "c1", "shape": "s2"}), 0)
    takes = every_type_take()
    assert tile_takes(s) == [takes[t(1, 2)]]
    rejected(s, takes[t(2, 2)])
    rejected(s, takes[t(1, 3)])


def test_tile_icon_black_shape_allows_that_shape_in_any_colour():
    """GA-TILE-1: a black shape s3 allows the 4 tiles of shape s3, one per colour, and nothing else."""
    s = at_space(lambda d: set_space(d, 0, action={"type": "tile", "shape": "s3"}), 0)
    takes = every_type_take()
    assert tile_takes(s) == sorted(takes[t(c, 3)] for c in range(4))
    rejected(s, takes[t(0, 0)])


def test_tile_icon_coloured_circle_allows_that_colour_in_any_shape():
    """GA-TILE-1: placeholder space 7 is a c1 circle (colour (7 // 5) % 4 = 1): the 4 c1 tiles."""
    s = at_space(None, 7)
    takes = every_type_take()
    assert tile_takes(s) == sorted(takes[t(1, sh)] for sh in range(4))
    rejected(s, takes[t(0, 1)])


def test_tile_icon_any_allows_every_tile_and_takes_one():
    """GA-TILE-1: the "any" icon (space 0, 1 pencil) allows all 16 tiles; the use takes exactly 1."""
    s = at_space(None, 0)
    takes = every_type_take()
    assert tile_takes(s) == sorted(takes.values())
    before = sum(map(sum, s.areas()))
    s.apply(takes[t(3, 1)])
    assert s.phase() == PLACE and s.pending_tile() == t(3, 1)
    assert sum(map(sum, s.areas())) == before - 1


def test_tile_is_placed_on_an_empty_space_of_its_shape_only():
    """GA-TILE-2, GA-TILE-5: a taken s2 tile may go on every EMPTY s2 space; an occupied s2 space
    and the spaces of other shapes are rejected; it lands where chosen with its colour."""
    s2 = spaces_of_shape(2)
    occupied = s2[:3]
    s = position(make(2), areas=ALL_TYPES, boards={0: fill(occupied, 3)})
    s.apply(0)
    s.apply(every_type_take()[t(1, 2)])
    assert sorted(a - G.PLACE_BASE for a in legal(s)) == sorted(set(s2) - set(occupied))
    rejected(s, G.place(occupied[0]))
    rejected(s, G.DONE)  # the tile must be placed at once
    other = next(b for b in range(36) if shape_of(b) == 1)
    rejected(s, G.place(other))
    target = s2[5]
    s.apply(G.place(target))
    assert (s.board(0)[1] >> target) & 1 == 1
    assert s.board(0)[3] == sum(1 << b for b in occupied)


def test_tile_that_fits_nowhere_is_not_offered_but_others_are():
    """GA-TILE-3, GA-AMB-41: every s1 space is full, so no s1 tile is offered (and taking one is
    rejected), while tiles of shapes with an empty space stay available."""
    s = position(make(2), areas=ALL_TYPES, boards={0: {b: i % 4 for i, b in enumerate(spaces_of_shape(1))}})
    s.apply(0)
    takes = every_type_take()
    assert tile_takes(s) == sorted(v for k, v in takes.items() if k % 4 != 1)
    rejected(s, takes[t(2, 1)])


def test_full_board_cannot_collect_a_tile():
    """GA-TILE-4: with all 36 spaces filled, a tile-any space (1 pencil, no hammer) offers no take:
    the use is skipped and the turn passes to seat 1 with the supply untouched."""
    full = {b: (b // 4 + b) % 4 for b in range(36)}
    s = position(make(2), areas=ALL_TYPES, boards={0: full})
    areas = s.areas()
    s.apply(0)
    assert s.phase() == MOVE and s.current_player() == 1
    assert s.areas() == areas


def test_full_board_rejects_tile_takes_where_other_uses_remain():
    """GA-TILE-4: a leader on space 2 (c0 circle, 1 pencil + 1 hammer) with a full board may still
    use the hammer otherwise, but no tile take is legal."""
    full = {b: (b // 4 + b) % 4 for b in range(36)}
    s = position(make(2), areas=ALL_TYPES, boards={0: full}, hands={0: [0]})
    s.apply(2)
    assert s.phase() == USES
    assert tile_takes(s) == []
    rejected(s, every_type_take()[t(0, 0)])


# ---------------------------------------------------------------- groups (final tile bonus)

def final_with_board(rows, scores=(10, 4, 6)):
    """Final score of seat 0 with this board; central option B adds 2 Nature VP on the way out."""
    s = endgame(2, scores={0: scores}, boards={0: board_from_rows(rows)})
    finish_game(s)
    return s.scores()[0]


def test_groups_join_by_edges_only_and_by_colour():
    """GA-TILE-6, GA-TILE-7, GA-SCORE-4: colour 0 holds {(0,0),(1,0),(1,1)} and {(2,2),(3,2)},
    which touch only at a corner; colour 2 {(2,0),(2,1)} shares edges with the first c0 group;
    colour 1 is a 2x2 block. Groups by edges and colour: [4, 3, 2, 2]: bonus 3 + 2 = 5.
    (Corner joins would give [5, 4, 2] -> 6; ignoring colour would merge c0 and c2.)
    Domains N 10 + 2 (central B), C 4, R 6: base 4 + 6 = 10; final 15."""
    rows = ["002.11",
            ".02.11",
            "..00..",
            "......",
            "......",
            "......"]
    assert final_with_board(rows) == 15


def test_same_colour_tiles_apart_are_separate_groups():
    """GA-TILE-7, GA-SCORE-4, GA-ORDER-3: six c3 tiles in three pairs separated by empty spaces are
    three groups [2, 2, 2], not one group of 6 (empty spaces connect nothing): bonus 2 + 2 = 4.
    Domains 12 / 4 / 6: final 10 + 4 = 14."""
    rows = ["33....",
            "......",
            "..33..",
            "......",
            "....33",
            "......"]
    assert final_with_board(rows) == 14


def test_groups_follow_the_board_data_edges():
    """GA-ORDER-3: adjacency is the board's edge list from data, not the grid. The data drops the
    edge 0-1 and adds an edge 0-35. Board: c0 on 0, 1, 2, 35 and c1 on 20.
    Data groups: c0 {0, 35} (2) and {1, 2} (2), c1 {20} (1): [2, 2, 1] -> bonus 2 + 1 = 3.
    (Grid adjacency would give [3, 1, 1] -> 2.) Domains 12 / 4 / 6: final 10 + 3 = 13."""
    def edit(d):
        edges = [e for e in d["board"]["edges"] if sorted(e) != [0, 1]]
        d["board"]["edges"] = edges + [[0, 35]]

    s = endgame(2, edit, scores={0: (10, 4, 6)}, boards={0: {0: 0, 1: 0, 2: 0, 35: 0, 20: 1}})
    finish_game(s)
    assert s.scores()[0] == 13
