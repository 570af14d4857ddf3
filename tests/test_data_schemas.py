"""The data files of the data-driven games (The Castle, Warsaw, Gaudí) and their JSON Schemas: every
shipped file validates against the schema beside it, the schemas are valid draft 2020-12 schemas
that help an editor (titles, descriptions), and malformed files are rejected with errors that name
the file and the JSON path of the problem."""
import copy
import glob
import json
import os
import shutil

import jsonschema
import pytest

import tilecraft
from tilecraft.games import _schema
from tilecraft.games import castle as C
from tilecraft.games import warsaw as W

DATA = os.path.join(os.path.dirname(tilecraft.__file__), "data")
SCHEMAS = sorted(glob.glob(os.path.join(DATA, "*", "*.schema.json")))
# every data file of every game; common.schema.json (Gaudí) holds shared definitions only
DATA_FILES = sorted(p for p in glob.glob(os.path.join(DATA, "*", "*.json")) if not p.endswith(".schema.json"))


def _rel(path):
    return os.path.relpath(path, DATA)


def _load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def test_every_game_with_data_ships_schemas():
    games = {os.path.basename(os.path.dirname(p)) for p in DATA_FILES}
    assert games >= {"castle", "warsaw", "gaudi"}
    for path in DATA_FILES:
        assert os.path.exists(path[:-len(".json")] + ".schema.json"), f"{_rel(path)} has no schema beside it"


@pytest.mark.parametrize("path", SCHEMAS, ids=_rel)
def test_schemas_are_valid_draft_2020_12(path):
    schema = _load(path)
    assert schema.get("$schema", "https://json-schema.org/draft/2020-12/schema") == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("path", DATA_FILES, ids=_rel)
def test_shipped_data_validates_against_its_schema(path):
    game = os.path.basename(os.path.dirname(path))
    _schema.validate(game, _load(path), path[:-len(".json")] + ".schema.json", os.path.basename(path))


def _undescribed(schema, where="$"):
    """Properties of a schema without a description (an editor shows it as help)."""
    out = []
    if isinstance(schema, dict):
        for name, sub in schema.get("properties", {}).items():
            if isinstance(sub, dict) and "description" not in sub and "$ref" not in sub:
                out.append(f"{where}.{name}")
        for key, sub in schema.items():
            if key in ("if", "then", "else", "not", "anyOf", "allOf", "oneOf"):
                continue  # conditions on properties defined (and described) elsewhere
            if isinstance(sub, (dict, list)):
                out += _undescribed(sub, f"{where}/{key}")
    elif isinstance(schema, list):
        for i, sub in enumerate(schema):
            out += _undescribed(sub, f"{where}[{i}]")
    return out


@pytest.mark.parametrize("path", [p for p in SCHEMAS if "/castle/" in p or "/warsaw/" in p], ids=_rel)
def test_castle_and_warsaw_schemas_help_an_editor(path):
    schema = _load(path)
    assert schema.get("title") and schema.get("description")
    assert _undescribed(schema) == []


# ---------------------------------------------------------------- The Castle

def _castle_board():
    return copy.deepcopy(_load(C.DEFAULT_BOARD))


def _castle_tiles():
    return copy.deepcopy(_load(C.DEFAULT_TILES))


CASTLE_BAD = [
    ("board", lambda d: d.update(version=2), r"castle board.json \(dict\): \$\.version: 1 was expected"),
    ("board", lambda d: d["gates"][2].update(side="Q"), r"\$\.gates\[2\]\.side: 'Q' is not one of"),
    ("board", lambda d: d["rows"].__setitem__(3, "XXXXOXXXXX"), r"\$\.rows\[3\]: must match: no unknown character"),
    ("board", lambda d: d["rows"].__setitem__(3, "XXXXXXXXX"), r"\$\.rows\[3\]: has 9 characters"),
    ("board", lambda d: d["corners"][4].update(spaces=[28, 30]), r"\$\.corners\[4\]\.spaces: must be two consecutive"),
    ("board", lambda d: d["wall_tiles"].update({"10": 1}), r"\$\.wall_tiles: '10' is not one of"),
    ("board", lambda d: d["gates"][1].update(edge="TTT", markets=2), r"\$\.gates\[1\]\.markets: 2 markets on a start space without a court"),
    ("board", lambda d: d["gates"][1].update(edge="TCT", markets=9), r"\$\.gates\[1\]\.markets: 9 is greater than the maximum of 8"),
    ("tiles", lambda d: d["tiles"][5].update(count="3"),
     r"castle tiles.json \(dict\): \$\.tiles\[5\]\.count: '3' is not of type 'integer'"),
    ("tiles", lambda d: d["tiles"][2].update(markets={"X9": 1}), r"\$\.tiles\[2\]\.markets: 'X9' is not one of"),
    ("tiles", lambda d: d["tiles"][7].update(id=d["tiles"][6]["id"]), r"\$\.tiles\[7\]\.id: tile '[a-z-]+': duplicate id"),
    ("tiles", lambda d: d.update(total=59), r"\$\.total: says 59, but the counts add up to 60"),
]


@pytest.mark.parametrize("kind,edit,message", CASTLE_BAD, ids=[m for _, _, m in CASTLE_BAD])
def test_castle_malformed_files_name_file_and_path(kind, edit, message):
    board, tiles = _castle_board(), _castle_tiles()
    edit(board if kind == "board" else tiles)
    with pytest.raises(tilecraft.InvalidConfigError, match=message) as info:
        tilecraft.make("castle", board=board, tiles=tiles)
    assert str(info.value).startswith(f"castle {kind}.json (dict): $")


def test_castle_user_file_is_named_by_its_path(tmp_path):
    board = _castle_board()
    board["gates"][0]["cell"] = [0, 0]  # outside the wall
    path = tmp_path / "my_board.json"
    path.write_text(json.dumps(board))
    with pytest.raises(tilecraft.InvalidConfigError) as info:
        tilecraft.make("castle", board=str(path))
    assert str(info.value).startswith(f"castle {path}: $.gates[0]: cell [0, 0] is not an interior space")


# ---------------------------------------------------------------- Warsaw

def _warsaw_dir(tmp_path, file, edit):
    d = tmp_path / "w"
    shutil.copytree(W.DEFAULT_DIR, d)
    data = _load(d / file)
    edit(data)
    (d / file).write_text(json.dumps(data))
    W._CACHE.clear()
    return str(d)


WARSAW_BAD = [
    ("cards.json", lambda d: d["park_table"].pop(), r"\$\.park_table: has 8 items; it must have at least 9"),
    ("cards.json", lambda d: d["cards"][4].update(price=21), r"\$\.cards\[4\]\.price: 21 is greater than the maximum of 20"),
    ("cards.json", lambda d: d["cards"][4].update(whole_card={"kind": "public", "effect": "flat"}),
     r"\$\.cards\[4\]: must match: give either 'quadrants'"),
    ("cards.json", lambda d: [c for c in d["cards"] if "whole_card" in c][0]["whole_card"].update(
        effect="per_area", type=None), r"\$\.cards\[\d+\]\.whole_card\.type: None is not one of"),
    ("cards.json", lambda d: d["start_card"]["quadrants"].pop(), r"\$\.start_card\.quadrants: has 3 items"),
    ("milestones.json", lambda d: d["milestones"][2].update(slot=1), r"\$\.milestones\[2\]\.slot: slot 1 appears twice"),
    ("milestones.json", lambda d: d["milestones"][0]["sides"][0].pop("type"),
     r"\$\.milestones\[0\]\.sides\[0\]: must match: condition 'most_areas_of' needs a 'type'"),
    ("milestones.json", lambda d: d["milestones"][1]["sides"][1]["effect"].update(effect="arsenal"),
     r"\$\.milestones\[1\]\.sides\[1\]\.effect\.effect: 'arsenal' is not one of"),
]


@pytest.mark.parametrize("file,edit,message", WARSAW_BAD, ids=[m for _, _, m in WARSAW_BAD])
def test_warsaw_malformed_files_name_file_and_path(tmp_path, file, edit, message):
    path = _warsaw_dir(tmp_path, file, edit)
    with pytest.raises(tilecraft.InvalidConfigError, match=message) as info:
        tilecraft.make("warsaw", players=2, data=path)
    assert str(info.value).startswith(f"warsaw {file}: $")


# ---------------------------------------------------------------- Gaudí

def test_gaudi_default_edition_loads():
    from tilecraft.games._gaudi_data import load_edition
    e = load_edition()
    assert len(e["cards"]) == 99 and len(e["chimneys"]) == 12 and len(e["chandeliers"]) == 7


def _gaudi(kind):
    from tilecraft.games._gaudi_data import DEFAULT_DIR
    return copy.deepcopy(_load(os.path.join(DEFAULT_DIR, f"{kind}.json")))


GAUDI_BAD = [
    ("cards", lambda d: d["cards"][17]["requirement"].update(n=7),
     r"\$\.cards\[17\]\.requirement\.n: 7 is greater than the maximum"),
    ("cards", lambda d: d["cards"][40].update(domain="nature"), r"\$\.cards: has 34 nature cards"),
    ("board", lambda d: d["edges"].append([0, 99]), r"\$\.edges\[60\]\[1\]: 99 is greater than the maximum"),
    ("track", lambda d: d["day"]["spaces"][5].update(pencils=2, hammers=1), r"\$\.day\.spaces\[5\]: is a generic space"),
    ("chimneys", lambda d: d["tiles"][1]["day"]["spaces"][0]["requirement"].update(n=2),
     r"\$\.tiles\[1\]\.day: differs from the day face of tile 0"),
]


@pytest.mark.parametrize("kind,edit,message", GAUDI_BAD, ids=[m for _, _, m in GAUDI_BAD])
def test_gaudi_malformed_files_name_file_and_path(kind, edit, message):
    from tilecraft.games._gaudi_data import load_edition
    data = _gaudi(kind)
    edit(data)
    with pytest.raises(tilecraft.InvalidConfigError, match=message) as info:
        load_edition(**{kind: data})
    assert str(info.value).startswith(f"gaudi {kind}.json (dict): $")


def test_integers_are_written_as_integers():
    """A count written 2.0 is rejected, as the loaders always did (JSON Schema alone would accept it)."""
    tiles = _castle_tiles()
    tiles["tiles"][0]["count"] = 2.0
    with pytest.raises(tilecraft.InvalidConfigError, match=r"\$\.tiles\[0\]\.count: 2\.0 is not of type 'integer'"):
        tilecraft.make("castle", tiles=tiles)
