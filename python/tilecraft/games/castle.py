"""Carcassonne: The Castle (spec: shared/rules/castle.md; docs/castle.md).

Component data: ``data/castle/board.json`` (the castle: interior spaces, start spaces, corners,
wall tiles) and ``data/castle/tiles.json`` (the 60 castle tiles). Both are reconstructions (see
docs/castle.md); pass ``board=`` / ``tiles=`` (a path or an already-parsed dict) to ``make`` to
use your own. This module only loads and checks the data; every rule lives in C++."""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from .. import _core
from .._core import InvalidConfigError
from . import GameSpec, Option

DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "castle")
DEFAULT_BOARD = os.path.join(DATA_DIR, "board.json")
DEFAULT_TILES = os.path.join(DATA_DIR, "tiles.json")

SIDES = "NESW"
TYPE_CODES = {"R": 0, "T": 1, "H": 2, "C": 3}
TYPE_NAMES = ("road", "tower", "house", "court")
SEGMENT_NAMES = tuple(f"{s}{i}" for s in SIDES for i in range(3))  # N0 N1 N2 E0 ... W2
MAX_CELLS, MAX_INTERIOR, MAX_GATES, MAX_CORNERS, MAX_TYPES, SLOTS = 128, 100, 16, 16, 64, 8

Source = Union[str, "os.PathLike[str]", Mapping[str, Any]]


class _Err:
    def __init__(self, what: str):
        self.what = what

    def __call__(self, where: str, message: str) -> InvalidConfigError:
        return InvalidConfigError(f"castle {self.what}: {where}: {message}" if where else f"castle {self.what}: {message}")


def _read(source: Source, kind: str) -> Tuple[Dict[str, Any], str]:
    if isinstance(source, Mapping):
        return dict(source), f"{kind} (dict)"
    path = os.fspath(source)
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f), path
    except OSError as e:
        raise InvalidConfigError(f"castle {kind}: cannot read {path!r}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise InvalidConfigError(f"castle {kind}: {path!r} is not valid JSON: {e}") from None


def _int(err: _Err, where: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise err(where, f"must be an integer in {lo}..{hi}, got {value!r}")
    return value


def _edge(err: _Err, where: str, text: Any, n: int) -> List[int]:
    """Segment letters (spaces ignored) -> type codes; a road only in a side's centre."""
    if not isinstance(text, str):
        raise err(where, f"must be a string of {n} letters R/T/H/C, got {text!r}")
    letters = text.replace(" ", "")
    if len(letters) != n:
        raise err(where, f"must have {n} segment letters (R path, T tower, H house, C court), got {len(letters)} in {text!r}")
    codes = []
    for i, ch in enumerate(letters):
        if ch not in TYPE_CODES:
            raise err(where, f"segment {SEGMENT_NAMES[i] if n == 12 else i} has unknown letter {ch!r}; use R, T, H or C")
        if ch == "R" and i % 3 != 1:
            name = SEGMENT_NAMES[i] if n == 12 else f"segment {i}"
            raise err(where, f"impossible edge {text!r}: a path may only run through a side's centre, not {name} (CA-AMB-19)")
        codes.append(TYPE_CODES[ch])
    return codes


# ---------------------------------------------------------------- board

def load_board(source: Source = DEFAULT_BOARD) -> Dict[str, Any]:
    """Reads and checks a board file; returns the checked board as a plain dict."""
    data, name = _read(source, "board")
    err = _Err(f"board {name}")
    if not isinstance(data, dict):
        raise err("", "must be a JSON object")
    if data.get("format") != "tilecraft-castle-board" or data.get("version") != 1:
        raise err("", "'format' must be 'tilecraft-castle-board' and 'version' 1")
    rows = data.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise err("rows", "must be a non-empty list of strings of X (interior) and . (outside)")
    width, height = len(rows[0]), len(rows)
    if any(len(r) != width for r in rows):
        raise err("rows", "all rows must have the same length")
    if width > 63 or width * height > MAX_CELLS:
        raise err("rows", f"the grid is {width} x {height}; it must fit {MAX_CELLS} cells (width <= 63)")
    interior = set()
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in "X.":
                raise err(f"rows[{r}][{c}]", f"unknown character {ch!r}; use X (interior) or . (outside)")
            if ch == "X":
                interior.add((r, c))
    if not 1 <= len(interior) <= MAX_INTERIOR:
        raise err("rows", f"must have 1..{MAX_INTERIOR} interior spaces, got {len(interior)}")
    declared = data.get("interior_count")
    if declared is not None and declared != len(interior):
        raise err("interior_count", f"says {declared!r}, but 'rows' has {len(interior)} interior spaces")
    gates = data.get("gates")
    if not isinstance(gates, list) or not gates:
        raise err("gates", "the board has no start space; it needs at least one gate (CA-COMP-6)")
    if len(gates) > MAX_GATES:
        raise err("gates", f"at most {MAX_GATES} start spaces, got {len(gates)}")
    checked_gates = []
    for g, gate in enumerate(gates):
        where = f"gates[{g}]"
        if not isinstance(gate, dict):
            raise err(where, "must be an object with cell, side and edge")
        cell = gate.get("cell")
        if not (isinstance(cell, list) and len(cell) == 2 and all(isinstance(x, int) for x in cell)):
            raise err(where, f"'cell' must be [row, col], got {cell!r}")
        r, c = cell
        if (r, c) not in interior:
            raise err(where, f"cell {cell} is not an interior space")
        side = gate.get("side")
        if side not in ("N", "E", "S", "W"):
            raise err(where, f"'side' must be N, E, S or W, got {side!r}")
        d = SIDES.index(side)
        nr, nc = r + (d == 2) - (d == 0), c + (d == 1) - (d == 3)
        if (nr, nc) in interior:
            raise err(where, f"side {side} of cell {cell} is interior space ({nr},{nc}); a start space lies in the wall")
        edge = _edge(err, where + ".edge", gate.get("edge"), 3)
        markets = _int(err, where + ".markets", gate.get("markets", 0), 0, 8 if 3 in edge else 0)  # CA-AMB-27
        if any(x["cell"] == r * width + c and x["side"] == d for x in checked_gates):
            raise err(where, f"another gate is already on side {side} of cell {cell}")
        checked_gates.append(dict(cell=r * width + c, side=d, edge=edge, rc=(r, c), markets=markets))
    corners = data.get("corners")
    if not isinstance(corners, list) or not 1 <= len(corners) <= MAX_CORNERS:
        raise err("corners", f"must list 1..{MAX_CORNERS} corners, got {corners!r:.60}")
    spaces_used: Dict[int, int] = {}
    start = None
    firsts = []
    for k, corner in enumerate(corners):
        where = f"corners[{k}]"
        sp = corner.get("spaces") if isinstance(corner, dict) else None
        if not (isinstance(sp, list) and len(sp) == 2 and all(isinstance(x, int) and 0 <= x <= 99 for x in sp)
                and sp[1] == (sp[0] + 1) % 100):
            raise err(where, f"'spaces' must be two consecutive track spaces [a, a+1] in 0..99, got {sp!r}")
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
    wall = data.get("wall_tiles")
    if not isinstance(wall, dict) or set(wall) - {str(k) for k in range(1, 10)}:
        raise err("wall_tiles", "must map kinds \"1\"..\"9\" to copies")
    copies = [_int(err, f"wall_tiles[{k}]", wall.get(str(k), 0), 0, 8) for k in range(1, 10)]
    declared = data.get("wall_tile_total")
    if declared is not None and declared != sum(copies):
        raise err("wall_tile_total", f"says {declared!r}, but 'wall_tiles' holds {sum(copies)}")
    if sum(copies) < len(corners) - 1:
        raise err("wall_tiles", f"{sum(copies)} wall tiles cannot stock the {len(corners) - 1} corners")
    return dict(name=name, width=width, height=height, interior=interior, gates=checked_gates,
                corner_space=firsts, start_corner=start, bonus_copies=copies, rows=rows)


# ---------------------------------------------------------------- tiles

def _tile_areas(err: _Err, where: str, tile: Dict[str, Any], seg: List[int]) -> Tuple[List[int], List[int], List[int], List[int]]:
    """(segment -> area, area types, wells, markets); areas ordered by their first segment."""
    square = tile.get("square", False)
    if not isinstance(square, bool):
        raise err(where, f"'square' must be true or false, got {square!r}")
    groups: List[List[int]]
    if tile.get("areas") is not None:
        spec = tile["areas"]
        if not isinstance(spec, list) or not all(isinstance(a, list) and a for a in spec):
            raise err(where + ".areas", "must be a list of non-empty lists of segment names (N0..W2)")
        groups, seen = [], set()
        for a in spec:
            group = []
            for s in a:
                if s not in SEGMENT_NAMES:
                    raise err(where + ".areas", f"unknown segment {s!r}; segments are N0 N1 N2 E0 ... W2")
                if s in seen:
                    raise err(where + ".areas", f"segment {s} is in two areas")
                seen.add(s)
                group.append(SEGMENT_NAMES.index(s))
            groups.append(group)
        if len(seen) != 12:
            missing = [s for s in SEGMENT_NAMES if s not in seen]
            raise err(where + ".areas", f"every segment must be in an area; missing {' '.join(missing)}")
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
        raise err(where, f"has {len(groups)} areas; at most {SLOTS}")
    seg_area = [0] * 12
    types = []
    for a, group in enumerate(groups):
        kinds = {seg[i] for i in group}
        if len(kinds) != 1:
            raise err(where, f"area {a} ({' '.join(SEGMENT_NAMES[i] for i in group)}) mixes segment types")
        types.append(kinds.pop())
        for i in group:
            seg_area[i] = a
    wells, markets = [0] * len(groups), [0] * len(groups)
    well = tile.get("well", False)
    if well is True:
        road_areas = [a for a, t in enumerate(types) if t == 0]
        if len(road_areas) != 1:
            raise err(where, f"'well': true needs exactly one path area, the tile has {len(road_areas)}; name a segment instead")
        wells[road_areas[0]] = 1
    elif isinstance(well, str):
        if well not in SEGMENT_NAMES or types[seg_area[SEGMENT_NAMES.index(well)]] != 0:
            raise err(where, f"'well': {well!r} must name a path segment")
        wells[seg_area[SEGMENT_NAMES.index(well)]] = 1
    elif well is not False:
        raise err(where, f"'well' must be true, false or a path segment name, got {well!r}")
    m = tile.get("markets", {})
    if not isinstance(m, dict):
        raise err(where, "'markets' must map a court segment name to a number of markets")
    for s, n in m.items():
        if s not in SEGMENT_NAMES:
            raise err(where + ".markets", f"unknown segment {s!r}")
        a = seg_area[SEGMENT_NAMES.index(s)]
        if types[a] != 3:
            raise err(where + ".markets", f"segment {s} is a {TYPE_NAMES[types[a]]}; markets stand in courts")
        markets[a] += _int(err, where + f".markets[{s}]", n, 0, 8)
    return seg_area, types, wells, markets


def load_tiles(source: Source = DEFAULT_TILES) -> Dict[str, Any]:
    """Reads and checks a tile manifest; returns the checked tiles as a plain dict."""
    data, name = _read(source, "tiles")
    err = _Err(f"tiles {name}")
    if not isinstance(data, dict):
        raise err("", "must be a JSON object")
    if data.get("format") != "tilecraft-castle-tiles" or data.get("version") != 1:
        raise err("", "'format' must be 'tilecraft-castle-tiles' and 'version' 1")
    tiles = data.get("tiles")
    if not isinstance(tiles, list) or not tiles:
        raise err("tiles", "must be a non-empty list")
    if len(tiles) > MAX_TYPES:
        raise err("tiles", f"at most {MAX_TYPES} tile types, got {len(tiles)}")
    out = []
    ids = set()
    for k, tile in enumerate(tiles):
        if not isinstance(tile, dict):
            raise err(f"tiles[{k}]", "must be an object")
        tid = tile.get("id", str(k))
        where = f"tile {tid!r} (tiles[{k}])"
        if tid in ids:
            raise err(where, "duplicate id")
        ids.add(tid)
        count = _int(err, where + ".count", tile.get("count"), 0, 250)
        seg = _edge(err, where + ".edges", tile.get("edges"), 12)
        seg_area, types, wells, markets = _tile_areas(err, where, tile, seg)
        out.append(dict(id=tid, count=count, seg=seg, seg_area=seg_area, types=types, wells=wells, markets=markets,
                        square=bool(tile.get("square", False))))
    total = sum(t["count"] for t in out)
    if data.get("total") is not None and data["total"] != total:
        raise err("total", f"says {data['total']!r}, but the counts add up to {total}")
    if not 1 <= total <= 250:
        raise err("tiles", f"the manifest must hold 1..250 tiles, got {total}")
    return dict(name=name, tiles=out, total=total)


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
    for t in tiles["tiles"]:
        if t["count"] and not placeable_on_empty_board(board, t):
            raise InvalidConfigError(f"castle tiles {tiles['name']}: tile {t['id']!r} fits next to no start space of "
                                     f"board {board['name']}; every tile must be placeable on the empty board")
    max_areas = max(len(t["types"]) for t in tiles["tiles"])
    gate_nodes = sum(len({(i, e[i]) for i in range(3)}) for e in (g["edge"] for g in board["gates"]))
    if gate_nodes + min(tiles["total"], len(board["interior"])) * max_areas > 640:
        raise InvalidConfigError("castle: the board and manifest need more area nodes than the engine's 640")


_CACHE: Dict[Any, Dict[str, Any]] = {}


def _key(source: Source) -> Any:
    if isinstance(source, Mapping):
        return None
    path = os.path.abspath(os.fspath(source))
    try:
        return (path, os.stat(path).st_mtime_ns)
    except OSError:
        return None


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
)
