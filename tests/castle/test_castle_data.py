"""Components, setup and turn order on the built-in data (CA-COMP-*, CA-SETUP-*, CA-TURN-*), and
the loading and rejection of user-supplied boards and manifests (CA-AMB-1, CA-AMB-2, CA-AMB-3)."""
import copy
import json

import pytest

import tilecraft
from test_castle_helpers import HOUSE, PHASE, STRAIGHT, Game, board, manifest, tile
from tilecraft.games import castle as cdata

BOARD, TILES = cdata.components()


def test_ca_scope_1_two_players_only():
    """CA-SCOPE-1: a 2-player game."""
    assert tilecraft.make("castle").num_players() == 2
    with pytest.raises(tilecraft.InvalidConfigError, match="players"):
        tilecraft.make("castle", players=3)


def test_default_board_corners_on_the_track():
    """The default board's corners lie on spaces 0..99; scores start at 0 (the track itself:
    test_castle_rules_turns.py)."""
    assert all(0 <= a <= 99 for a in BOARD["corner_space"])
    assert list(tilecraft.make("castle").scores()) == [0, 0]


def test_ca_comp_2_setup_2_sixty_tiles_shuffled():
    """CA-COMP-2, CA-SETUP-2, CA-AMB-1: 60 tiles; each draw is uniform over the remaining supply."""
    assert TILES["total"] == 60 and sum(t["count"] for t in TILES["tiles"]) == 60
    s = tilecraft.make("castle", chance="explicit", start_bonus_tiles=False)
    assert int(s.supply().sum()) == 60
    for t, p in s.chance_outcomes():
        assert p == pytest.approx(TILES["tiles"][t]["count"] / 60)


def test_ca_comp_3_amb_3_setup_3_wall_tiles_on_corners():
    """CA-COMP-3, CA-AMB-3, CA-SETUP-3, CA-COMP-7, CA-CORNER-2: 18 wall tiles (kinds 1-9 twice) on the
    13 corners other than 0/1 (14 corners of 2 spaces each); 5 are left over."""
    assert BOARD["bonus_copies"] == [2] * 9
    assert len(BOARD["corner_space"]) == 14 and BOARD["corner_space"][BOARD["start_corner"]] == 0
    s = tilecraft.make("castle")
    stocked = s.corners_stocked()
    assert len(stocked) == 14 and sum(stocked) == 13 and not stocked[BOARD["start_corner"]]
    assert 18 - sum(stocked) == 5


def test_ca_comp_4_5_setup_4_5_amb_4_followers_and_keeps():
    """CA-COMP-4, CA-COMP-5, CA-SETUP-4, CA-SETUP-5, CA-AMB-4: 7 followers each, one is the score
    marker: 6 to place; one keep each, not yet on the board."""
    s = tilecraft.make("castle")
    assert [s.followers_in_supply(p) for p in (0, 1)] == [6, 6]
    assert s.keep(0) == (0, -1) and s.keep(1) == (0, -1)


def test_ca_comp_6_amb_2_board():
    """CA-COMP-6, CA-AMB-2: 76 interior spaces inside a non-rectangular wall, 7 start spaces."""
    assert len(BOARD["interior"]) == 76 and len(BOARD["gates"]) == 7
    assert len(BOARD["interior"]) < BOARD["width"] * BOARD["height"]
    assert tilecraft.make("castle").num_distinct_actions() == 325


def test_ca_comp_8_every_feature_type():
    """CA-COMP-8: the manifest has paths, squares, towers, houses, courts, fountains and markets."""
    seg_types = {x for t in TILES["tiles"] for x in t["seg"]}
    assert seg_types == {0, 1, 2, 3}
    assert sum(t["count"] for t in TILES["tiles"] if t["square"]) >= 4
    assert sum(t["count"] for t in TILES["tiles"] if any(t["wells"])) >= 4
    assert sum(t["count"] * sum(t["markets"]) for t in TILES["tiles"]) >= 10
    # a fork (several path segments in one area) exists too
    assert any(sum(1 for a in t["seg_area"] if t["types"][a] == 0) >= 3 and not t["square"] for t in TILES["tiles"])


def test_ca_amb_1_every_tile_fits_the_empty_castle():
    """CA-AMB-1: every tile of the manifest fits next to some start space of the empty board."""
    for t in TILES["tiles"]:
        assert cdata.placeable_on_empty_board(BOARD, t), t["id"]


def test_ca_setup_6_amb_24_first_player():
    """CA-SETUP-6, CA-AMB-24: first_player picks the starting seat; -1 makes it a chance node."""
    s = tilecraft.make("castle", first_player=1, start_bonus_tiles=False)
    assert s.current_player() == 1
    s = tilecraft.make("castle", first_player=-1, chance="explicit")
    assert s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    s.apply(1)
    assert s.phase() == PHASE["deal"]


def test_ca_setup_7_var_1_amb_5_start_wall_tiles():
    """CA-SETUP-7, CA-VAR-1, CA-AMB-5: each player is dealt one leftover wall tile, first player
    first, public and usable from the first turn; start_bonus_tiles=False skips it."""
    s = tilecraft.make("castle", chance="explicit", first_player=1)
    assert s.phase() == PHASE["deal"]
    assert all(p == pytest.approx(2 / 18) for _, p in s.chance_outcomes())
    s.apply(0)  # to seat 1 (the first player): tile 1
    assert s.wall_tiles()[1][0][0] == 1
    s.apply(0)  # to seat 0: the second tile 1 (1 of 17 unseen left... now 0 of 16)
    assert s.wall_tiles()[0][0][0] == 1
    assert s.phase() == PHASE["bonus0"] and s.current_player() == 1
    s = tilecraft.make("castle", chance="explicit", start_bonus_tiles=False)
    assert s.phase() == PHASE["draw"] and s.wall_tiles().sum() == 0


def test_three_turns_smoke():
    """Three turns on a small castle (the turn rules themselves: test_castle_rules_turns.py)."""
    g = Game(["XXX"], [(0, 1, "N", "HHH")], [STRAIGHT, tile("sq", "HHH HRH HRH HRH", square=True)])
    seats = []
    for cell, tid, rot, seg in (((0, 1), "straight", 1, "N1"), ((0, 0), "sq", 0, None), ((0, 2), "sq", 0, None)):
        g.draw(tid)
        seats.append(g.s.current_player())
        g.place(*cell, rot)
        if g.s.phase() == PHASE["follower"]:
            g.s.apply(g.no_follower if seg is None else g.follower_id(g.slot(tid, seg)))
    assert seats == [0, 1, 0]
    assert g.scores() == [3, 0] and g.s.followers_in_supply(0) == 6


def test_ca_amb_1_amb_2_user_files_by_path(tmp_path):
    """CA-AMB-1, CA-AMB-2: a user board and manifest are loaded by path."""
    b = board(["XX"], [(0, 0, "N", "HHH")])
    m = manifest(dict(HOUSE, count=2))
    (tmp_path / "b.json").write_text(json.dumps(b))
    (tmp_path / "t.json").write_text(json.dumps(m))
    s = tilecraft.make("castle", board=str(tmp_path / "b.json"), tiles=str(tmp_path / "t.json"))
    assert s.num_distinct_actions() == 4 * 2 + 21
    assert int(s.supply().sum()) == 1 and s.current_tile() == 0  # sampled: the first tile is in hand
    s = tilecraft.make("castle", tiles=str(tmp_path / "t.json"), board=str(tmp_path / "b.json"), chance="explicit",
                       start_bonus_tiles=False)
    assert s.chance_outcomes() == [(0, 1.0)]


BAD_TILES = [  # (change, message, JSON path of the problem)
    ({"edges": "RHH HHH HHH HHH"}, "path may only run through a side's centre", "$.tiles[0].edges"),
    ({"edges": "HXH HHH HHH HHH"}, "unknown letter", "$.tiles[0].edges"),
    ({"edges": "HHH HHH HHH"}, "12 segment letters", "$.tiles[0].edges"),
    ({"count": -1}, "-1 is less than the minimum of 0", "$.tiles[0].count"),
    ({"markets": {"N1": 1}}, "markets stand in courts", "$.tiles[0].markets.N1"),
    ({"well": True}, "exactly one path area", "$.tiles[0].well"),
    ({"areas": [["N0", "N1"]]}, "every segment must be in an area", "$.tiles[0].areas"),
]


@pytest.mark.parametrize("change,message,path", BAD_TILES, ids=[m for _, m, _ in BAD_TILES])
def test_bad_tile_data_is_rejected(change, message, path):
    """CA-AMB-1: malformed tiles are rejected with the file, the tile's JSON path and the problem named
    (schema checks first, then the loader's cross-field checks, which also name the tile's id)."""
    t = dict(HOUSE, **change)
    with pytest.raises(tilecraft.InvalidConfigError, match=message) as info:
        tilecraft.make("castle", tiles=manifest(t), board=board(["X"], [(0, 0, "N", "HHH")]))
    assert str(info.value).startswith(f"castle tiles.json (dict): {path}: ")


def test_bad_counts_and_boards_are_rejected(tmp_path):
    """CA-AMB-2, CA-AMB-3: wrong counts and boards without start spaces are rejected, naming the field."""
    good_board = board(["X"], [(0, 0, "N", "HHH")])
    m = dict(manifest(HOUSE), total=61)
    with pytest.raises(tilecraft.InvalidConfigError, match="total"):
        tilecraft.make("castle", tiles=m, board=good_board)
    with pytest.raises(tilecraft.InvalidConfigError, match=r"\$\.gates: has 0 items; it must have at least 1"):
        tilecraft.make("castle", board=board(["X"], []), tiles=manifest(HOUSE))
    with pytest.raises(tilecraft.InvalidConfigError, match="interior_count"):
        tilecraft.make("castle", board=dict(good_board, interior_count=5), tiles=manifest(HOUSE))
    with pytest.raises(tilecraft.InvalidConfigError, match="wall_tile_total"):
        tilecraft.make("castle", board=dict(good_board, wall_tile_total=17), tiles=manifest(HOUSE))
    with pytest.raises(tilecraft.InvalidConfigError, match="in the wall"):
        tilecraft.make("castle", board=board(["XX"], [(0, 0, "E", "HHH")]), tiles=manifest(HOUSE))
    with pytest.raises(tilecraft.InvalidConfigError, match="fits next to no start space"):
        tilecraft.make("castle", board=board(["X"], [(0, 0, "N", "HRH")]), tiles=manifest(HOUSE))
    with pytest.raises(tilecraft.InvalidConfigError, match="cannot read"):
        tilecraft.make("castle", tiles=str(tmp_path / "missing.json"))
    (tmp_path / "bad.json").write_text("{nope")
    with pytest.raises(tilecraft.InvalidConfigError, match="not valid JSON"):
        tilecraft.make("castle", board=str(tmp_path / "bad.json"))
    with pytest.raises(tilecraft.InvalidConfigError, match="bonus1_mode"):
        tilecraft.make("castle", bonus1_mode="three")


def test_engine_rejects_bad_config_dicts():
    """The C++ config check (a saved state carries its config) names the field."""
    cfg = tilecraft.make_config("castle")
    for field, value, message in (("gate_seg", None, "gate 0 segment"), ("num_gates", 0, "start spaces"),
                                  ("seg_type", None, "has a road on segment"), ("type_count", None, "1..250")):
        bad = copy.deepcopy(cfg)
        if field == "gate_seg":
            bad["gate_seg"][0] = [4, 4, 4]  # not a segment type (a court, 3, is allowed: CA-AMB-27)
        elif field == "seg_type":
            bad["seg_type"][0][0] = 0
        elif field == "type_count":
            bad["type_count"] = [0] * 64
        else:
            bad[field] = value
        with pytest.raises(tilecraft.InvalidConfigError, match=message):
            tilecraft._core.CastleState(bad, 0)
