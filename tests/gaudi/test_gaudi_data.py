"""Gaudí component data: the schemas and the loader's cross-field checks (GA-DATA-*, GA-AMB-1..7,
GA-AMB-43). Each bad file is the spec's placeholder edition with one thing broken; the error must
name the file, the JSON path and the problem. The default edition must keep every count the rules fix."""
from __future__ import annotations

import json
import os
import re

import pytest

import tilecraft
from gaudi_placeholder import placeholder_edition, write_edition, write_placeholder
from tilecraft.games import _gaudi_data as G
from tilecraft.games._schema import _validator


def load_broken(tmp_path, mutate):
    e = placeholder_edition()
    mutate(e)
    return G.load_edition(write_edition(str(tmp_path), e))


def expect(tmp_path, mutate, *fragments):
    with pytest.raises(tilecraft.InvalidConfigError) as info:
        load_broken(tmp_path, mutate)
    text = str(info.value)
    for f in fragments:
        assert f in text, f"{f!r} not in {text!r}"
    return text


def test_schemas_are_valid_json_schemas():
    for kind in G.KINDS:
        _validator(G.schema_path(kind))  # check_schema raises on an invalid schema


def test_placeholder_edition_normalizes_as_the_spec_says(tmp_path):
    """GA-AMB-1 / GA-AMB-3 placeholders: 24-space track, entries 0..3, red 20..23; a 6x6 board whose
    space (x, y) has shape (x + 2y) mod 4, edge (not corner) adjacency; effects as catalogue entries."""
    e = G.load_edition(write_placeholder(str(tmp_path)))
    day = e["track"]["day"]
    assert len(day["action"]) == 24 and day["entry"] == [0, 1, 2, 3]
    assert [i for i, r in enumerate(day["red"]) if r] == [20, 21, 22, 23]
    # tile-any 24, card-any 28, tile-colour 20 + c, card-domain 25 + d, generic 34
    assert day["action"][:5] == [24, 28, 20, 25, 34] and day["action"][5:10] == [24, 28, 21, 26, 34]
    assert list(zip(day["pencils"], day["hammers"]))[:5] == [(1, 0), (0, 1), (1, 1), (2, 0), (0, 2)]
    b = e["board"]
    assert b["shape"][6 * 2 + 3] == (3 + 4) % 4
    assert b["neighbours"][7] == [1, 6, 8, 13]  # (1,1): up, left, right, down; no diagonals
    assert b["nature_reward"] == [[37, 1]] and b["catalan_reward"] == [[38, 1]]
    assert e["cards"][4]["req_colour"] == 4 and e["cards"][9]["category"] == 9  # black; gaudi_life
    assert e["chandeliers"][0] == {"a": [[32, 1]], "b": [[37, 2]]}


def test_user_directory_may_hold_some_files_only(tmp_path):
    """A user's edition folder may replace single files; the rest come from the default edition."""
    d = tmp_path / "ed"
    d.mkdir()
    ph = placeholder_edition()
    write_edition(str(d), {"components": ph["components"], "board": ph["board"]})
    with pytest.raises(tilecraft.InvalidConfigError) as info:
        G.load_edition(str(d))  # the default files use the default names, unknown to these components
    # the first default file that names a colour or shape (track.json, loaded before cards.json)
    assert re.match(r"gaudi (track|cards|chimneys)\.json: \$\.\S+: unknown ", str(info.value)), str(info.value)
    assert G.source_of("board", str(d)) == str(d / "board.json")
    assert G.source_of("cards", str(d)) == os.path.join(G.DEFAULT_DIR, "cards.json")


def test_not_a_directory_and_bad_json(tmp_path):
    with pytest.raises(tilecraft.InvalidConfigError, match="not a directory"):
        G.load_edition(str(tmp_path / "missing"))
    write_placeholder(str(tmp_path))
    (tmp_path / "track.json").write_text("{ not json")
    with pytest.raises(tilecraft.InvalidConfigError, match=r"track\.json: not valid JSON"):
        G.load_edition(str(tmp_path))
    (tmp_path / "track.json").write_text("[" * 100000 + "]" * 100000)
    with pytest.raises(tilecraft.InvalidConfigError, match="track.json"):
        G.load_edition(str(tmp_path))


def test_ga_comp_5_ga_data_5_cards(tmp_path):
    """99 cards, 33 per domain, distinct ids; requirement colour a colour or black; a Religion
    condition exactly on Religion cards; banners within the closed effect list."""
    expect(tmp_path, lambda e: e["cards"]["cards"].pop(), "cards.json", "$.cards:", "at least 99")
    expect(tmp_path, lambda e: e["cards"]["cards"][3].update(id=5), "$.cards[5].id", "used twice")
    expect(tmp_path, lambda e: e["cards"]["cards"][17]["requirement"].update(n=9), "$.cards[17].requirement.n")
    expect(tmp_path, lambda e: e["cards"]["cards"][17]["requirement"].update(colour="purple"),
           "$.cards[17].requirement.colour", "unknown colour 'purple'")
    expect(tmp_path, lambda e: e["cards"]["cards"][0].update(domain="catalan"), "has 32 nature cards", "33 per domain")
    expect(tmp_path, lambda e: e["cards"]["cards"][70].pop("religion"), "$.cards[70]", "'religion'")
    expect(tmp_path, lambda e: e["cards"]["cards"][3]["banner"].append({"type": "teleport"}), "$.cards[3].banner[1].type")
    expect(tmp_path, lambda e: e["cards"]["cards"][3]["banner"].append({"type": "vp", "domain": "nature", "n": 1, "colour": "c0"}),
           "$.cards[3].banner[1]", "'colour'")


def test_ga_amb_43_categories(tmp_path):
    """Exactly 9 ordinary categories; 'gaudi_life' is the wild one and is reserved; a card's
    category must be one of them."""
    expect(tmp_path, lambda e: e["components"]["categories"].pop(), "components.json", "$.categories")
    expect(tmp_path, lambda e: e["components"]["categories"].__setitem__(0, "gaudi_life"), "$.categories[0]", "reserved")
    expect(tmp_path, lambda e: e["cards"]["cards"][5].update(category="kitchen"), "$.cards[5].category", "unknown category")


def test_ga_data_4_colours_and_shapes(tmp_path):
    """4 colours and 4 shapes, distinct; 'black' is not a tile colour."""
    expect(tmp_path, lambda e: e["components"].update(colours=["a", "b", "c", "black"]), "$.colours[3]", "reserved")
    expect(tmp_path, lambda e: e["components"].update(shapes=["a", "b", "c"]), "$.shapes")
    expect(tmp_path, lambda e: e["components"].update(colours=["a", "a", "b", "c"]), "$.colours")


def test_ga_data_1_ga_amb_1_track(tmp_path):
    """At most 48 spaces; pencils + hammers >= 1; a generic space at most 2; entries distinct and on the track."""
    expect(tmp_path, lambda e: e["track"]["day"]["spaces"][4].update(pencils=2, hammers=1), "$.day.spaces[4]", "GA-AMB-13")
    expect(tmp_path, lambda e: e["track"]["night"]["spaces"][3].update(pencils=0, hammers=0), "$.night.spaces[3]", "no pencil")
    expect(tmp_path, lambda e: e["track"]["day"].update(entry=[0, 1, 1, 3]), "$.day.entry")
    expect(tmp_path, lambda e: e["track"]["day"].update(entry=[0, 1, 2, 30]), "$.day.entry[3]", "past the last space")
    expect(tmp_path, lambda e: e["track"]["day"]["spaces"].extend(e["track"]["day"]["spaces"] * 2), "$.day.spaces", "at most 48")
    expect(tmp_path, lambda e: e["track"]["day"]["spaces"][2]["action"].update(colour="mauve"), "$.day.spaces[2].action.colour")


def test_ga_data_2_ga_amb_2_bonuses(tmp_path):
    """A bonus above each of the 5 areas and 3 windows: one effect or null."""
    expect(tmp_path, lambda e: e["track"]["day"]["area_bonus"].pop(), "$.day.area_bonus")
    e = placeholder_edition()
    e["track"]["day"]["area_bonus"][1] = {"type": "take_card", "domain": "religion"}
    e["track"]["day"]["window_bonus"]["catalan"] = {"type": "vp", "domain": "nature", "n": 2}
    ed = G.load_edition(write_edition(str(tmp_path / "ok"), e))
    assert ed["track"]["day"]["area_bonus"] == [None, [27, 1], None, None, None]
    assert ed["track"]["day"]["window_bonus"] == [None, [37, 2], None]


def test_ga_data_3_ga_amb_3_board(tmp_path):
    """At most 64 spaces, shapes by name, edges between existing distinct spaces, no repeats."""
    expect(tmp_path, lambda e: e["board"]["edges"].append([0, 60]), "board.json", "[1]", "space 60 does not exist")
    expect(tmp_path, lambda e: e["board"]["edges"].append([1, 0]), "repeats the edge between spaces 1 and 0")
    expect(tmp_path, lambda e: e["board"]["edges"].append([4, 4]), "joins space 4 to itself")
    expect(tmp_path, lambda e: e["board"]["spaces"].extend(e["board"]["spaces"]), "$.spaces", "at most 64")
    expect(tmp_path, lambda e: e["board"]["spaces"][0].update(shape="circle"), "$.spaces[0].shape")


def test_ga_comp_6_ga_data_6_ga_amb_7_chimneys(tmp_path):
    """12 tiles, 4 per domain, 2..6 spaces a face; day faces of a domain identical; a requirement
    never above the board's spaces of that shape; a Catalan end effect on a 2nd space; abilities
    only on night faces."""
    expect(tmp_path, lambda e: e["chimneys"]["tiles"][0]["day"]["spaces"][0]["requirement"].update(n=10),
           "$.tiles[0].day.spaces[0].requirement.n", "only 9")
    expect(tmp_path, lambda e: e["chimneys"]["tiles"][1]["day"]["spaces"][0]["requirement"].update(n=2),
           "$.tiles[1].day", "identical")
    expect(tmp_path, lambda e: e["chimneys"]["tiles"][4].update(domain="nature", day=e["chimneys"]["tiles"][0]["day"]),
           "5 nature chimney tiles")
    expect(tmp_path, lambda e: e["chimneys"]["tiles"][0]["night"]["spaces"].pop(), "$.tiles[0].night.spaces", "at least 2")

    def no_catalan_end(e):
        for t in e["chimneys"]["tiles"]:
            for face in ("day", "night"):
                for sp in t[face]["spaces"]:
                    sp.pop("end_effect", None)
    expect(tmp_path, no_catalan_end, "no Catalan chimney tile has an end effect on its 2nd space")
    ability = {"trigger": {"type": "on_play_domain", "domain": "nature"}, "effects": [{"type": "extra_turn"}]}
    expect(tmp_path, lambda e: e["chimneys"]["tiles"][0]["day"]["spaces"][0].update(ability=ability), "night faces only")
    e = placeholder_edition()
    e["chimneys"]["tiles"][0]["night"]["spaces"][1]["ability"] = ability
    e["chimneys"]["tiles"][8]["night"]["spaces"][1]["end_effect"] = {"type": "end_vp_per", "domain": "religion", "n": 2,
                                                                       "count": {"kind": "shape", "shape": "s2"}}
    ed = G.load_edition(write_edition(str(tmp_path / "ok"), e))
    assert ed["chimneys"][0]["night"][1]["ability"] == {"trigger": [1, 0], "effects": [[36, 1]]}
    assert ed["chimneys"][8]["night"][1]["end"] == [1, 2, 2, 4, 2]
    assert ed["chimneys"][4]["day"][1]["end"] == [0, 1, 3, 0, 0]


def test_ga_comp_7_ga_data_7_ga_amb_6_chandeliers(tmp_path):
    """7 tiles; one option of each resolves the Catalan column; no list holds two resolve_catalan."""
    expect(tmp_path, lambda e: e["chandeliers"]["tiles"].pop(), "chandeliers.json", "at least 7")
    expect(tmp_path, lambda e: e["chandeliers"]["tiles"][2].update(a=[{"type": "vp", "domain": "nature", "n": 1}]),
           "$.tiles[2]", "no resolve_catalan")
    expect(tmp_path, lambda e: e["chandeliers"]["tiles"][2].update(a=[{"type": "resolve_catalan"}, {"type": "resolve_catalan", "times": 2}]),
           "$.tiles[2].a", "more than one resolve_catalan")
    expect(tmp_path, lambda e: e["chandeliers"]["tiles"][2].update(a=[{"type": "resolve_catalan", "times": 4}]), "$.tiles[2].a[0].times")


def test_ga_data_8_ga_amb_5_closed_lists_normalize(tmp_path):
    """Every effect of GA-AMB-5 and every count of GA-DATA-8 maps to its catalogue entry / code."""
    e = placeholder_edition()
    banner = [{"type": "collect_tile", "colour": "c2", "shape": "s3"}, {"type": "collect_tile", "shape": "s1"},
              {"type": "play_card", "ignore_requirement": True}, {"type": "resolve_one_religion"}]
    e["cards"]["cards"][0]["banner"] = banner
    e["cards"]["cards"][1]["banner"] = [{"type": "take_card", "domain": "catalan"}, {"type": "generic"},
                                        {"type": "extra_turn"}, {"type": "resolve_nature"}]
    e["cards"]["cards"][66]["religion"] = {"vp": 4, "if_at_least": 3, "count": {"kind": "chimney", "domain": "catalan"}}
    e["cards"]["cards"][67]["religion"] = {"vp": 1, "per": {"kind": "largest_group"}}
    e["cards"]["cards"][68]["religion"] = {"vp": 2, "per": {"kind": "colour", "colour": "c1"}}
    ed = G.load_edition(write_edition(str(tmp_path), e))
    assert ed["cards"][0]["banner"] == [[4 * 2 + 3, 1], [16 + 1, 1], [30, 1], [33, 1]]
    assert ed["cards"][1]["banner"] == [[26, 1], [34, 1], [36, 1], [31, 1]]
    assert ed["cards"][66]["religion"] == {"vp": 4, "threshold": 3, "count": [2, 1]}
    assert ed["cards"][67]["religion"] == {"vp": 1, "threshold": 0, "count": [6, 0]}
    assert ed["cards"][68]["religion"] == {"vp": 2, "threshold": 0, "count": [5, 1]}


def test_default_edition_keeps_every_count_the_rules_fix():
    """GA-COMP-3/5/6/7, GA-DATA-1..7: the shipped reconstruction loads and keeps the fixed counts."""
    e = G.load_edition()
    assert len(e["cards"]) == 99 and [sum(c["domain"] == d for c in e["cards"]) for d in range(3)] == [33, 33, 33]
    assert len(e["chimneys"]) == 12 and [sum(t["domain"] == d for t in e["chimneys"]) for d in range(3)] == [4, 4, 4]
    assert len(e["chandeliers"]) == 7
    assert 30 <= len(e["board"]["shape"]) <= 40  # GA-DATA-3's suggestion
    for face in ("day", "night"):
        assert len(e["track"][face]["action"]) <= 48 and any(e["track"][face]["red"])
    for kind in G.KINDS:
        with open(os.path.join(G.DEFAULT_DIR, f"{kind}.json"), encoding="utf-8") as f:
            assert json.load(f)["version"] == 1
