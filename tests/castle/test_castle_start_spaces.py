"""Start spaces that carry a court (CA-AMB-27): such a start space joins the court it faces, counts as
one of its tiles and adds the markets printed on it; every other gate side blocks courts (see
test_ca_amb_27_gates_block_courts). The board loader accepts it, the engine scores it, and the
default board has one. Scores are counted by hand: a court scores 3 per market (CA-COURT-4)."""
import copy
import json

import pytest

import tilecraft
from tilecraft.games import castle as cdata
from test_castle_helpers import COURT, COURT2, HOUSE, Game, board, tile


def gate_game(edge, markets=None, rows=("X",), tiles=(dict(COURT2, count=1),), **options):
    """A Game whose single start space, north of (0, 0), has `edge` and `markets` printed on it."""
    b = board(list(rows), [(0, 0, "N", edge)])
    if markets is not None:
        b["gates"][0]["markets"] = markets
    g = Game(list(rows), [(0, 0, "N", edge)], list(tiles), **options)
    g.board = b
    opts = dict(chance="explicit", start_bonus_tiles=False)
    opts.update(options)
    g.s = tilecraft.make("castle", board=b, tiles=g.manifest, **opts)
    return g


def test_ca_amb_27_loader_accepts_a_court_start_space():
    b = cdata.load_board(board(["X"], [(0, 0, "N", "CCC")]))
    assert b["gates"][0]["edge"] == [3, 3, 3]
    b = cdata.load_board(dict(board(["X"], [(0, 0, "N", "HCH")]), gates=[{"cell": [0, 0], "side": "N", "edge": "HCH",
                                                                            "markets": 2}]))
    assert b["gates"][0]["edge"] == [2, 3, 2]


@pytest.mark.parametrize("edge, markets", [("HHH", 1), ("TRT", 1), ("CCC", 9), ("CCC", -1)])
def test_ca_amb_27_loader_rejects_markets_without_a_court_or_out_of_range(edge, markets):
    bad = board(["X"], [(0, 0, "N", edge)])
    bad["gates"][0]["markets"] = markets
    with pytest.raises(tilecraft.InvalidConfigError, match="markets"):
        cdata.load_board(bad)


def test_ca_amb_27_engine_config_checks_gate_markets():
    cfg = tilecraft.make_config("castle")
    g = next(i for i in range(cfg["num_gates"]) if 3 not in cfg["gate_seg"][i])
    bad = copy.deepcopy(cfg)
    bad["gate_stalls"][g] = 1
    with pytest.raises(ValueError, match="markets but no court"):
        tilecraft.from_json(_with_config(bad))
    bad = copy.deepcopy(cfg)
    bad["gate_stalls"][g] = 9
    with pytest.raises(ValueError, match="markets must be 0..8"):
        tilecraft.from_json(_with_config(bad))


def _with_config(cfg):
    d = json.loads(tilecraft.make("castle", seed=1).to_json())
    d["config"] = cfg
    return json.dumps(d)


def test_ca_amb_27_court_start_space_joins_counts_a_tile_and_adds_markets():
    """A 1-space castle, start space CCC with 1 market; a court tile with 2 markets and seat 0's
    follower: one court of 2 tiles (tile + start space), 3 markets, closed: 3 x 3 = 9 at the end."""
    g = gate_game("CCC", markets=1)
    g.turn("court2", (0, 0), 0, seg="N1")
    a = g.area(0, 0, "court2", "N1")
    assert a["gates"] == [0] and a["tiles"] == 2 and a["markets"] == 3 and a["complete"]
    assert g.s.is_terminal() and g.scores() == [9, 0]
    assert g.s.scores_by_category()[0][COURT] == 9


def test_ca_amb_27_court_in_the_middle_of_a_start_space():
    """Start space H C H with 2 markets: the court tile joins through the centre segment only:
    2 + 2 markets, 12 points."""
    g = gate_game("HCH", markets=2)
    g.turn("court2", (0, 0), 0, seg="N1")
    a = g.area(0, 0, "court2", "N1")
    assert a["gates"] == [0] and a["markets"] == 4 and a["tiles"] == 2
    assert g.s.is_terminal() and g.scores() == [12, 0]


def test_ca_amb_27_court_start_space_without_markets():
    """A court start space with no markets printed still joins (2 tiles) but adds none: 2 x 3 = 6."""
    g = gate_game("CCC")
    g.turn("court2", (0, 0), 0, seg="N1")
    a = g.area(0, 0, "court2", "N1")
    assert a["gates"] == [0] and a["tiles"] == 2 and a["markets"] == 2
    assert g.scores() == [6, 0]


def test_ca_amb_27_a_house_tile_does_not_join_a_court_start_space():
    """A house tile facing a CCC start space: the court stays a gate-only area with its market,
    which no follower can reach; the house is closed by the start space and the wall."""
    g = gate_game("CCC", markets=1, tiles=(dict(HOUSE, count=1),))
    g.turn("house", (0, 0), 0, seg="N1")
    a = g.area(0, 0, "house", "N1")
    assert a["gates"] == [] and a["complete"]
    courts = [x for x in g.s.areas() if x["type"] == "court"]
    assert courts == [dict(courts[0], gates=[0], tiles=1, markets=1, cells=[])]


def test_ca_amb_27_default_board_has_a_court_start_space():
    b = cdata.load_board()
    court_gates = [x for x in b["gates"] if 3 in x["edge"]]
    assert court_gates and all(x["markets"] >= 1 for x in court_gates)
    s = tilecraft.make("castle", seed=0)
    gate_courts = [a for a in s.areas() if a["type"] == "court" and a["gates"] and not a["cells"]]
    assert gate_courts and sum(a["markets"] for a in gate_courts) == sum(x["markets"] for x in court_gates)


def test_ca_amb_27_default_board_court_start_space_scores_in_play():
    """On the default board, a court tile laid against the court start space joins it: the
    court's markets include the start space's."""
    s = tilecraft.make("castle", seed=0, chance="explicit", start_bonus_tiles=False)
    cfg = tilecraft.make_config("castle")
    g = next(i for i in range(cfg["num_gates"]) if 3 in cfg["gate_seg"][i])
    cell = cfg["gate_cell"][g]
    tiles = cdata.load_tiles()["tiles"]
    full = next(k for k, t in enumerate(tiles) if all(x == 3 for x in t["seg"]) and t["count"])
    s.apply(full)  # draw it
    interior = sorted(r * cfg["width"] + c for r, c in cdata.load_board()["interior"])
    s.apply(4 * interior.index(cell) + 0)
    root = next(a for a in s.areas() if a["type"] == "court" and cell in a["cells"])
    assert root["gates"] == [g] and root["tiles"] == 2
    assert root["markets"] == cfg["gate_stalls"][g] + sum(tiles[full]["markets"]) > sum(tiles[full]["markets"])
