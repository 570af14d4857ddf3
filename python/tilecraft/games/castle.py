"""Carcassonne: The Castle (spec: docs/rules/castle.md; docs/castle.md).

Component data: ``data/castle/board.json`` (the castle: interior spaces, start spaces, corners,
wall tiles) and ``data/castle/tiles.json`` (the 60 castle tiles). Both are reconstructions (see
docs/castle.md); pass ``board=`` / ``tiles=`` (a path or an already-parsed dict) to ``make`` to
use your own. This module only loads and checks the data; every rule lives in C++."""
from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from .. import _core
from .._core import InvalidConfigError
from . import GameSpec, Option, _schema

DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "castle")
DEFAULT_BOARD = os.path.join(DATA_DIR, "board.json")
DEFAULT_TILES = os.path.join(DATA_DIR, "tiles.json")
BOARD_SCHEMA = os.path.join(DATA_DIR, "board.schema.json")  # what a board file may hold (JSON Schema)
TILES_SCHEMA = os.path.join(DATA_DIR, "tiles.schema.json")

SIDES = "NESW"
TYPE_CODES = {"R": 0, "T": 1, "H": 2, "C": 3}
TYPE_NAMES = ("road", "tower", "house", "court")
SEGMENT_NAMES = tuple(f"{s}{i}" for s in SIDES for i in range(3))  # N0 N1 N2 E0 ... W2
MAX_CELLS, MAX_INTERIOR, MAX_GATES, MAX_CORNERS, MAX_TYPES, SLOTS = 128, 100, 16, 16, 64, 8

Source = Union[str, "os.PathLike[str]", Mapping[str, Any]]


class _Err:
    """Errors of one data file, in the shared form of ``_schema.problem``: ``castle board.json:
    $.gates[2].edge: message``. ``where`` is the JSON path without ``$.``, e.g. ``gates[2].edge``."""

    def __init__(self, label: str):
        self.label = label

    def __call__(self, where: str, message: str) -> InvalidConfigError:
        parts = [int(p[1:-1]) if p.startswith("[") else p for p in re.findall(r"\[\d+\]|[^.\[\]]+", where)]
        return _schema.problem("castle", self.label, parts, message)


def _label(source: Source, name: str, kind: str) -> str:
    """How messages name a file: the default file by its name, a user file by its path."""
    if isinstance(source, Mapping):
        return f"{kind}.json (dict)"
    return f"{kind}.json" if os.path.abspath(name) == os.path.join(DATA_DIR, f"{kind}.json") else name


def _read(source: Source, kind: str) -> Tuple[Dict[str, Any], str]:
    """A parsed dict as given, or a file read the one safe way (_schema.read_json: a regular file
    of at most a few MB, UTF-8, no repeated keys); errors name the file."""
    if isinstance(source, Mapping):
        return dict(source), f"{kind} (dict)"
    path = os.fspath(source)
    return _schema.read_json(path, "castle", _label(source, path, kind)), path


def _edge(err: _Err, where: str, text: str, n: int) -> List[int]:
    """Segment letters (spaces ignored) -> type codes. The schema has checked the letters, their
    number and that a path runs only through a side's centre."""
    return [TYPE_CODES[ch] for ch in text.replace(" ", "")]


# ---------------------------------------------------------------- board

def load_board(source: Source = DEFAULT_BOARD) -> Dict[str, Any]:
    """Reads and checks a board file; returns the checked board as a plain dict."""
    data, name = _read(source, "board")
    err = _Err(_label(source, name, "board"))
    _schema.validate("castle", data, BOARD_SCHEMA, err.label)  # first: everything a schema can say
    rows = data["rows"]
    width, height = len(rows[0]), len(rows)
    for r, row in enumerate(rows):
        if len(row) != width:
            raise err(f"rows[{r}]", f"has {len(row)} characters; all rows must have the length of rows[0] ({width})")
    if width * height > MAX_CELLS:
        raise err("rows", f"the grid is {width} x {height}; it must fit {MAX_CELLS} cells")
    interior = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"}
    if not 1 <= len(interior) <= MAX_INTERIOR:
        raise err("rows", f"must have 1..{MAX_INTERIOR} interior spaces, got {len(interior)}")
    declared = data.get("interior_count")
    if declared is not None and declared != len(interior):
        raise err("interior_count", f"says {declared!r}, but 'rows' has {len(interior)} interior spaces")
    gates = data["gates"]
    checked_gates = []
    for g, gate in enumerate(gates):
        where = f"gates[{g}]"
        cell = gate["cell"]
        r, c = int(cell[0]), int(cell[1])
        if (r, c) not in interior:
            raise err(where, f"cell {cell} is not an interior space")
        side = gate["side"]
        d = SIDES.index(side)
        nr, nc = r + (d == 2) - (d == 0), c + (d == 1) - (d == 3)
        if (nr, nc) in interior:
            raise err(where, f"side {side} of cell {cell} is interior space ({nr},{nc}); a start space lies in the wall")
        edge = _edge(err, where + ".edge", gate.get("edge"), 3)
        markets = gate.get("markets", 0)  # 0..8 (schema); only where the edge has a court (CA-AMB-27)
        if markets and 3 not in edge:
            raise err(where + ".markets", f"{markets} markets on a start space without a court segment; markets stand in courts")
        if any(x["cell"] == r * width + c and x["side"] == d for x in checked_gates):
            raise err(where, f"another gate is already on side {side} of cell {cell}")
        checked_gates.append(dict(cell=r * width + c, side=d, edge=edge, rc=(r, c), markets=markets))
    corners = data["corners"]
    spaces_used: Dict[int, int] = {}
    start = None
    firsts = []
    for k, corner in enumerate(corners):
        where = f"corners[{k}]"
        sp = [int(x) for x in corner["spaces"]]
        if sp[1] != (sp[0] + 1) % 100:
            raise err(where + ".spaces", f"must be two consecutive track spaces [a, a+1] in 0..99, got {sp!r}")
        for s in sp:
            if s in spaces_used:
                raise err(where, f"track space {s} is already part of corners[{spaces_used[s]}]")
            spaces_used[s] = k
        if corner.get("start"):
            if start is not None:
                raise err(where, "only one corner can be the 0/1 start corner")
            if sp != [0, 1]:
                raise err(where, "the start corner must span spaces 0 and 1")
            start = k
        firsts.append(sp[0])
    if start is None:
        raise err("corners", "one corner must be the 0/1 corner (\"start\": true), which holds no wall tile")
    wall = data["wall_tiles"]
    copies = [int(wall.get(str(k), 0)) for k in range(1, 10)]
    declared = data.get("wall_tile_total")
    if declared is not None and declared != sum(copies):
        raise err("wall_tile_total", f"says {declared!r}, but 'wall_tiles' holds {sum(copies)}")
    if sum(copies) < len(corners) - 1:
        raise err("wall_tiles", f"{sum(copies)} wall tiles cannot stock the {len(corners) - 1} corners")
    return dict(name=name, label=err.label, width=width, height=height, interior=interior, gates=checked_gates,
                corner_space=firsts, start_corner=start, bonus_copies=copies, rows=rows)


# ---------------------------------------------------------------- tiles

def _tile_areas(err: _Err, where: str, tile: Dict[str, Any], seg: List[int]) -> Tuple[List[int], List[int], List[int], List[int]]:
    """(segment -> area, area types, wells, markets); areas ordered by their first segment.
    ``where`` is the tile's JSON path; messages start with the tile's id."""
    tid = f"tile {tile.get('id', where[6:-1])!r}: "
    square = tile.get("square", False)
    groups: List[List[int]]
    if tile.get("areas") is not None:
        spec = tile["areas"]
        groups, seen = [], set()
        for a in spec:
            group = []
            for s in a:
                if s in seen:
                    raise err(where + ".areas", tid + f"segment {s} is in two areas")
                seen.add(s)
                group.append(SEGMENT_NAMES.index(s))
            groups.append(group)
        if len(seen) != 12:
            missing = [s for s in SEGMENT_NAMES if s not in seen]
            raise err(where + ".areas", tid + f"every segment must be in an area; missing {' '.join(missing)}")
    else:
        groups = []
        roads = [i for i in range(12) if seg[i] == 0]
        if roads:
            groups += [[i] for i in roads] if square else [roads]
        # runs of one non-road type around the edge, paths splitting them
        start = next((i for i in range(12) if seg[i] != seg[i - 1] or seg[i] == 0), None)
        if start is None:  # one type all round
            groups.append(list(range(12)))
        else:
            run: List[int] = []
            for k in range(12):
                i = (start + k) % 12
                if seg[i] == 0:
                    if run:
                        groups.append(run)
                    run = []
                    continue
                if run and seg[run[-1]] != seg[i]:
                    groups.append(run)
                    run = []
                run.append(i)
            if run:
                groups.append(run)
    groups.sort(key=min)
    if len(groups) > SLOTS:
        raise err(where, tid + f"has {len(groups)} areas; at most {SLOTS}")
    seg_area = [0] * 12
    types = []
    for a, group in enumerate(groups):
        kinds = {seg[i] for i in group}
        if len(kinds) != 1:
            raise err(where + ".areas", tid + f"area {a} ({' '.join(SEGMENT_NAMES[i] for i in group)}) mixes segment types")
        types.append(kinds.pop())
        for i in group:
            seg_area[i] = a
    wells, markets = [0] * len(groups), [0] * len(groups)
    well = tile.get("well", False)
    if well is True:
        road_areas = [a for a, t in enumerate(types) if t == 0]
        if len(road_areas) != 1:
            raise err(where + ".well", tid + f"'well': true needs exactly one path area, the tile has {len(road_areas)}; "
                      "name a segment instead")
        wells[road_areas[0]] = 1
    elif isinstance(well, str):
        if types[seg_area[SEGMENT_NAMES.index(well)]] != 0:
            raise err(where + ".well", tid + f"'well': {well!r} must name a path segment")
        wells[seg_area[SEGMENT_NAMES.index(well)]] = 1
    for s, n in tile.get("markets", {}).items():
        a = seg_area[SEGMENT_NAMES.index(s)]
        if types[a] != 3:
            raise err(where + f".markets.{s}", tid + f"segment {s} is a {TYPE_NAMES[types[a]]}; markets stand in courts")
        markets[a] += int(n)
    return seg_area, types, wells, markets


def load_tiles(source: Source = DEFAULT_TILES) -> Dict[str, Any]:
    """Reads and checks a tile manifest; returns the checked tiles as a plain dict."""
    data, name = _read(source, "tiles")
    err = _Err(_label(source, name, "tiles"))
    _schema.validate("castle", data, TILES_SCHEMA, err.label)  # first: everything a schema can say
    tiles = data["tiles"]
    out = []
    ids = set()
    for k, tile in enumerate(tiles):
        tid = tile.get("id", str(k))
        where = f"tiles[{k}]"
        if tid in ids:
            raise err(where + ".id", f"tile {tid!r}: duplicate id")
        ids.add(tid)
        count = int(tile["count"])
        seg = _edge(err, where + ".edges", tile["edges"], 12)
        seg_area, types, wells, markets = _tile_areas(err, where, tile, seg)
        out.append(dict(id=tid, count=count, seg=seg, seg_area=seg_area, types=types, wells=wells, markets=markets,
                        square=bool(tile.get("square", False))))
    total = sum(t["count"] for t in out)
    if data.get("total") is not None and data["total"] != total:
        raise err("total", f"says {data['total']!r}, but the counts add up to {total}")
    if not 1 <= total <= 250:
        raise err("tiles", f"the manifest must hold 1..250 tiles, got {total}")
    return dict(name=name, label=err.label, tiles=out, total=total)


def _rotate(seg: List[int], r: int) -> List[int]:
    """Board-orientation segments of a tile rotated r quarter turns clockwise."""
    return [seg[(s - 3 * r) % 12] for s in range(12)]


def placeable_on_empty_board(board: Dict[str, Any], tile: Dict[str, Any]) -> bool:
    """Does the tile fit next to some start space of the empty board (CA-PLACE-3/4)?"""
    by_cell: Dict[int, Dict[int, List[int]]] = {}
    for g in board["gates"]:
        by_cell.setdefault(g["cell"], {})[g["side"]] = g["edge"]
    for sides in by_cell.values():
        for r in range(4):
            seg = _rotate(tile["seg"], r)
            if all((seg[3 * d + 1] == 0) == (edge[1] == 0) for d, edge in sides.items()):
                return True
    return False


def check_components(board: Dict[str, Any], tiles: Dict[str, Any]) -> None:
    for k, t in enumerate(tiles["tiles"]):
        if t["count"] and not placeable_on_empty_board(board, t):
            raise _schema.problem("castle", tiles["label"], ["tiles", k], f"tile {t['id']!r} fits next to no start space "
                                  f"of board {board['label']}; every tile must be placeable on the empty board")
    max_areas = max(len(t["types"]) for t in tiles["tiles"])
    gate_nodes = sum(len({(i, e[i]) for i in range(3)}) for e in (g["edge"] for g in board["gates"]))
    if gate_nodes + min(tiles["total"], len(board["interior"])) * max_areas > 640:
        raise InvalidConfigError("castle: the board and manifest need more area nodes than the engine's 640")


_CACHE: Dict[Any, Dict[str, Any]] = {}


def _key(source: Source) -> Any:
    """A file's _schema.stamp (path, size, mtime...): the cache key; None for a dict or an unreadable path."""
    return None if isinstance(source, Mapping) else _schema.stamp(source)


def data_key(values: Dict[str, Any]) -> Any:
    """GameSpec.data_key: the stamps of the board and tile files these option values read; None
    (nothing cached) when one is a dict or cannot be stat'ed."""
    key = (_key(values["board"] if values["board"] is not None else DEFAULT_BOARD),
           _key(values["tiles"] if values["tiles"] is not None else DEFAULT_TILES))
    return None if None in key else key


def component_config(board: Source = DEFAULT_BOARD, tiles: Source = DEFAULT_TILES) -> Dict[str, Any]:
    """The C++ config fields of the components (board and tiles), checked."""
    key = (_key(board), _key(tiles))
    if None not in key and key in _CACHE:
        return _CACHE[key]
    b, t = load_board(board), load_tiles(tiles)
    check_components(b, t)
    interior = [0] * MAX_CELLS
    for r, c in b["interior"]:
        interior[r * b["width"] + c] = 1
    pad = lambda xs, n, fill=0: list(xs) + [fill] * (n - len(xs))  # noqa: E731
    gates = b["gates"]
    cfg = dict(
        width=b["width"], height=b["height"], interior=interior,
        num_gates=len(gates),
        gate_cell=pad([g["cell"] for g in gates], MAX_GATES),
        gate_side=pad([g["side"] for g in gates], MAX_GATES),
        gate_seg=pad([g["edge"] for g in gates], MAX_GATES, [0, 0, 0]),
        gate_stalls=pad([g["markets"] for g in gates], MAX_GATES),
        num_corners=len(b["corner_space"]),
        corner_space=pad(b["corner_space"], MAX_CORNERS),
        start_corner=b["start_corner"],
        bonus_copies=b["bonus_copies"],
        num_types=len(t["tiles"]),
        type_count=pad([x["count"] for x in t["tiles"]], MAX_TYPES),
        seg_type=pad([x["seg"] for x in t["tiles"]], MAX_TYPES, [0] * 12),
        seg_area=pad([x["seg_area"] for x in t["tiles"]], MAX_TYPES, [0] * 12),
        area_count=pad([len(x["types"]) for x in t["tiles"]], MAX_TYPES),
        area_well=pad([pad(x["wells"], SLOTS) for x in t["tiles"]], MAX_TYPES, [0] * SLOTS),
        area_stalls=pad([pad(x["markets"], SLOTS) for x in t["tiles"]], MAX_TYPES, [0] * SLOTS),
    )
    if None not in key:
        _CACHE[key] = cfg
    return cfg


def components(board: Source = DEFAULT_BOARD, tiles: Source = DEFAULT_TILES) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The checked board and tiles (names, rows, ids) for renderers and tools."""
    return load_board(board), load_tiles(tiles)


# ---------------------------------------------------------------- options

def _source_check(value: Any, players: int) -> Optional[str]:
    if isinstance(value, (str, os.PathLike)) and "\0" in str(os.fspath(value)):
        return "the path holds a NUL character; give a path to a JSON file, a parsed dict, or None"
    if value is None or isinstance(value, (str, os.PathLike, Mapping)):
        return None
    return "must be a path to a JSON file, a parsed dict, or None for the built-in data"


def _first_player_check(value: int, players: int) -> Optional[str]:
    return None if value in (-1, 0, 1) else "must be -1 (random), 0 or 1"


OPTIONS = (
    Option("chance", "sampled", "'sampled': tile draws and wall-tile reveals happen inside apply() from the state's "
           "RNG; 'explicit': the state stops at chance nodes", choices=("sampled", "explicit")),
    Option("first_player", 0, "seat that starts, or -1 for a random one (a chance node) [CA-SETUP-6, CA-AMB-24]",
           kind=int, check=_first_player_check, allowed_text="-1, 0 or 1"),
    Option("returns_mode", "win_loss", "'win_loss': +1/-1, 0 on a draw; 'score': the final scores [CA-AMB-29]",
           choices=("win_loss", "score")),
    Option("start_bonus_tiles", True, "deal each player one leftover wall tile at setup [CA-VAR-1, CA-AMB-5]",
           choices=(True, False), kind=bool),
    Option("bonus1_mode", "two_turns", "wall tile 1: two tile turns in a row, or draw two and keep one [CA-AMB-7]",
           choices=("two_turns", "draw_two_choose_one")),
    Option("bonus7_scope", "one_courtyard", "wall tile 7 raises markets to 4 in one court or in all the holder "
           "wins [CA-AMB-10]", choices=("one_courtyard", "all_courtyards")),
    Option("scoring_order", "chosen", "several areas completed at once: the active player orders them, or "
           "ascending area id [CA-AMB-14]", choices=("chosen", "canonical")),
    Option("board", None, "board file (JSON path or dict); None = the built-in reconstruction",
           kind=object, check=_source_check, allowed_text="a path, a dict or None"),
    Option("tiles", None, "tile manifest (JSON path or dict); None = the built-in reconstruction",
           kind=object, check=_source_check, allowed_text="a path, a dict or None"),
)


def _to_core(players: int, o: Dict[str, Any]) -> Dict[str, Any]:
    cfg = dict(component_config(o["board"] if o["board"] is not None else DEFAULT_BOARD,
                                o["tiles"] if o["tiles"] is not None else DEFAULT_TILES))
    cfg.update(
        first_player=o["first_player"],
        explicit_chance=1 if o["chance"] == "explicit" else 0,
        returns_mode=1 if o["returns_mode"] == "win_loss" else 0,
        start_bonus_tiles=1 if o["start_bonus_tiles"] else 0,
        bonus1_mode=1 if o["bonus1_mode"] == "draw_two_choose_one" else 0,
        bonus7_scope=1 if o["bonus7_scope"] == "all_courtyards" else 0,
        scoring_order=1 if o["scoring_order"] == "canonical" else 0,
    )
    return cfg


def observation_groups(state: Any) -> List[Dict[str, int]]:
    """The observation's feature groups (tilecraft.baselines): the 56 planes of each grid cell (one
    encoder for every cell; the planes are [56, H, W], so a cell's features lie H * W apart). The
    119-value tail goes straight into the trunk."""
    cells = (int(state.observation_shape()[0]) - 119) // 56
    return [dict(offset=0, count=cells, width=56, block_stride=1, feature_stride=cells, embed=16)]


SPEC = GameSpec(
    name="castle",
    title="Carcassonne: The Castle",
    state_class=_core.CastleState,
    players=(2,),
    options=OPTIONS,
    to_core=_to_core,
    playouts=_core.castle_random_playouts,
    doc="Two players build paths, towers, houses and courts inside a castle wall that is also the score "
        "track (Reiner Knizia, 2003). Board and tiles are a documented reconstruction (docs/castle.md).",
    returns_range={"win_loss": (-1.0, 1.0), "score": (0.0, 32767.0)},
    data_key=data_key,
    observation_groups=observation_groups,
    # the conformance configurations (GameSpec.test_configs): chance modes and rule options
    test_configs=((2, {}), (2, {"chance": "explicit"}), (2, {"chance": "explicit", "first_player": -1}),
                  (2, {"first_player": 1, "returns_mode": "score", "start_bonus_tiles": False}),
                  (2, {"scoring_order": "canonical", "bonus7_scope": "all_courtyards"}),
                  (2, {"bonus1_mode": "draw_two_choose_one"}),
                  (2, {"bonus1_mode": "draw_two_choose_one", "chance": "explicit", "first_player": -1})),
)
