"""Gaudí component data: reads the six JSON files of an edition, checks them and returns the
normalized, index-based edition the engine's config is built from.

Each file is first checked against the JSON Schema shipped beside the default files
(``data/gaudi/<kind>.schema.json``); this module then holds only the checks a schema cannot
express (names defined in components.json, ids complete and distinct, counts per domain, edges
and entries in range, identical day faces, requirements the board can meet, one Catalan
resolution per effect list). Every error names the file and the JSON path.

An edition directory may hold any of the six files; the ones it lacks come from the default
edition (docs/gaudi.md). Spec: docs/rules/gaudi.md §10.8 (GA-DATA-*), §11.2 (reward catalogue)."""
from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .._core import InvalidConfigError
from . import _schema

DEFAULT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "gaudi")
KINDS = ("components", "board", "track", "cards", "chimneys", "chandeliers")
DOMAINS = ("nature", "catalan", "religion")
BLACK, WILD = "black", "gaudi_life"
N_CARDS, PER_DOMAIN, N_CHIMNEYS, N_CHANDELIERS = 99, 33, 12, 7

# Reward catalogue of spec §11.2: EFFECT = [entry, amount].
E_TILE_CS, E_TILE_S, E_TILE_C, E_TILE_ANY = 0, 16, 20, 24
E_CARD_D, E_CARD_ANY = 25, 28
E_PLAY, E_PLAY_FREE, E_NATURE, E_CATALAN, E_RELIGION_ONE = 29, 30, 31, 32, 33
E_GENERIC, E_CHIMNEY, E_EXTRA_TURN, E_VP = 34, 35, 36, 37
COUNT_KINDS = ("category", "distinct_categories", "chimney", "chimney_total", "shape", "colour", "largest_group")
END_KINDS = ("end_vp", "end_vp_per", "end_add", "end_swap")

_SINGULAR = {"colours": "colour", "shapes": "shape", "categories": "category"}
Source = Union[str, "os.PathLike[str]", Mapping[str, Any]]
Path = Sequence[Union[str, int]]


class _File:
    """One data file being checked: its label (for messages) and the names it may use."""

    def __init__(self, kind: str, label: str, names: Optional[Dict[str, List[str]]] = None):
        self.kind, self.label, self.names = kind, label, names or {}

    def fail(self, path: Path, message: str) -> InvalidConfigError:
        return _schema.problem("gaudi", self.label, path, message)

    def index(self, group: str, value: str, path: Path, extra: Tuple[str, ...] = ()) -> int:
        allowed = list(self.names[group]) + list(extra)
        if value not in allowed:
            raise self.fail(path, f"unknown {_SINGULAR[group]} {value!r}; components.json defines {', '.join(allowed)}")
        return allowed.index(value)

    # ---- effects ----
    def effect(self, e: Mapping[str, Any], path: Path) -> List[int]:
        t = e["type"]
        if t == "vp":
            return [E_VP + DOMAINS.index(e["domain"]), e["n"]]
        if t == "collect_tile":
            c = self.index("colours", e["colour"], list(path) + ["colour"]) if "colour" in e else None
            s = self.index("shapes", e["shape"], list(path) + ["shape"]) if "shape" in e else None
            if c is not None and s is not None:
                return [E_TILE_CS + 4 * c + s, 1]
            if s is not None:
                return [E_TILE_S + s, 1]
            return [E_TILE_C + c, 1] if c is not None else [E_TILE_ANY, 1]
        if t == "take_card":
            return [E_CARD_D + DOMAINS.index(e["domain"]) if "domain" in e else E_CARD_ANY, 1]
        if t == "play_card":
            return [E_PLAY_FREE if e.get("ignore_requirement") else E_PLAY, 1]
        if t == "resolve_catalan":
            return [E_CATALAN, e.get("times", 1)]
        simple = {"resolve_nature": E_NATURE, "resolve_one_religion": E_RELIGION_ONE, "generic": E_GENERIC,
                  "advance_chimney": E_CHIMNEY, "extra_turn": E_EXTRA_TURN}
        return [simple[t], 1]

    def effects(self, lst: Sequence[Mapping[str, Any]], path: Path) -> List[List[int]]:
        out = [self.effect(e, list(path) + [i]) for i, e in enumerate(lst)]
        if sum(1 for entry, _ in out if entry == E_CATALAN) > 1:
            raise self.fail(path, "holds more than one resolve_catalan; an effect list may hold at most one (GA-DATA-7)")
        return out

    def count(self, c: Mapping[str, Any], path: Path) -> List[int]:
        kind = c["kind"]
        arg = 0
        if kind == "category":
            arg = self.index("categories", c["category"], list(path) + ["category"])
        elif kind == "chimney":
            arg = DOMAINS.index(c["domain"])
        elif kind == "shape":
            arg = self.index("shapes", c["shape"], list(path) + ["shape"])
        elif kind == "colour":
            arg = self.index("colours", c["colour"], list(path) + ["colour"])
        return [COUNT_KINDS.index(kind), arg]


def _read(kind: str, source: Source) -> Tuple[Any, str]:
    """A parsed dict as given, or a file read the one safe way (_schema.read_json: a regular file
    of at most a few MB, UTF-8, no repeated keys); errors name the file."""
    if isinstance(source, Mapping):
        return dict(source), f"{kind}.json (dict)"
    path = os.fspath(source)
    label = f"{kind}.json" if os.path.dirname(os.path.abspath(path)) == DEFAULT_DIR else path
    return _schema.read_json(path, "gaudi", label), path


def schema_path(kind: str) -> str:
    return os.path.join(DEFAULT_DIR, f"{kind}.schema.json")


def _load(kind: str, source: Source, names: Optional[Dict[str, List[str]]]) -> Tuple[Any, _File]:
    data, label = _read(kind, source)
    if not isinstance(source, Mapping) and os.path.dirname(os.path.abspath(label)) == DEFAULT_DIR:
        label = f"{kind}.json"  # the default edition: a short name
    _schema.validate("gaudi", data, schema_path(kind), label)
    return data, _File(kind, label, names)


# ---------------------------------------------------------------- each file

def _components(data: Mapping[str, Any], f: _File) -> Dict[str, List[str]]:
    for group in ("colours", "shapes", "categories"):
        for i, n in enumerate(data[group]):
            if n in (BLACK, WILD):
                raise f.fail([group, i], f"{n!r} is reserved ('black' = any one colour, 'gaudi_life' = the wild category)")
    return {g: list(data[g]) for g in ("colours", "shapes", "categories")}


def _board(data: Mapping[str, Any], f: _File) -> Dict[str, Any]:
    n = len(data["spaces"])
    shape = [f.index("shapes", s["shape"], ["spaces", i, "shape"]) for i, s in enumerate(data["spaces"])]
    neighbours: List[set] = [set() for _ in range(n)]
    for k, (a, b) in enumerate(data["edges"]):
        for j, v in enumerate((a, b)):
            if v >= n:
                raise f.fail(["edges", k, j], f"space {v} does not exist; the board has spaces 0..{n - 1}")
        if a == b:
            raise f.fail(["edges", k], f"joins space {a} to itself")
        if b in neighbours[a]:
            raise f.fail(["edges", k], f"repeats the edge between spaces {a} and {b}")
        neighbours[a].add(b)
        neighbours[b].add(a)
    return {"shape": shape, "xy": [[s.get("x", 0), s.get("y", 0)] for s in data["spaces"]],
            "neighbours": [sorted(x) for x in neighbours],
            "nature_reward": f.effects(data["nature_reward"], ["nature_reward"]),
            "catalan_reward": f.effects(data["catalan_reward"], ["catalan_reward"])}


def _action(f: _File, a: Mapping[str, Any], path: Path) -> int:
    t = a["type"]
    if t == "tile":
        return f.effect(dict(a, type="collect_tile"), path)[0]
    if t == "card":
        return f.effect(dict(a, type="take_card"), path)[0]
    return {"generic": E_GENERIC, "play": E_PLAY, "chimney": E_CHIMNEY}[t]


def _track(data: Mapping[str, Any], f: _File) -> Dict[str, Any]:
    out = {}
    for face in ("day", "night"):
        d = data[face]
        spaces = d["spaces"]
        for i, sp in enumerate(spaces):
            where = [face, "spaces", i]
            if sp["pencils"] + sp["hammers"] < 1:
                raise f.fail(where, "has no pencil and no hammer; every space has at least one (GA-DATA-1)")
            if sp["action"]["type"] == "generic" and sp["pencils"] + sp["hammers"] > 2:
                raise f.fail(where, "is a generic space with more than 2 pencils and hammers (GA-AMB-13)")
        for k, e in enumerate(d["entry"]):
            if e >= len(spaces):
                raise f.fail([face, "entry", k], f"entry index {e} is past the last space ({len(spaces) - 1})")
        bonus = lambda b, path: None if b is None else f.effects([b], path)[0]
        out[face] = {"action": [_action(f, sp["action"], [face, "spaces", i, "action"]) for i, sp in enumerate(spaces)],
                     "pencils": [sp["pencils"] for sp in spaces], "hammers": [sp["hammers"] for sp in spaces],
                     "red": [int(sp["red"]) for sp in spaces], "entry": list(d["entry"]),
                     "area_bonus": [bonus(b, [face, "area_bonus", i]) for i, b in enumerate(d["area_bonus"])],
                     "window_bonus": [bonus(d["window_bonus"][dom], [face, "window_bonus", dom]) for dom in DOMAINS]}
    return out


def _cards(data: Mapping[str, Any], f: _File) -> List[Dict[str, Any]]:
    cards: List[Optional[Dict[str, Any]]] = [None] * N_CARDS
    per_domain = [0, 0, 0]
    for i, c in enumerate(data["cards"]):
        where = ["cards", i]
        if cards[c["id"]] is not None:
            raise f.fail(where + ["id"], f"card id {c['id']} is used twice")
        d = DOMAINS.index(c["domain"])
        per_domain[d] += 1
        cat = f.index("categories", c["category"], where + ["category"], (WILD,))
        colour = f.index("colours", c["requirement"]["colour"], where + ["requirement", "colour"], (BLACK,))
        religion = None
        if "religion" in c:
            r = c["religion"]
            if "per" in r:
                religion = {"vp": r["vp"], "threshold": 0, "count": f.count(r["per"], where + ["religion", "per"])}
            else:
                religion = {"vp": r["vp"], "threshold": r["if_at_least"], "count": f.count(r["count"], where + ["religion", "count"])}
        cards[c["id"]] = {"name": c["name"], "domain": d, "category": cat, "req_colour": colour,
                          "req_n": c["requirement"]["n"], "banner": f.effects(c["banner"], where + ["banner"]),
                          "automa_vp": c["automa_vp"], "religion": religion}
    for d, n in enumerate(per_domain):
        if n != PER_DOMAIN:
            raise f.fail(["cards"], f"has {n} {DOMAINS[d]} cards; there are exactly {PER_DOMAIN} per domain (GA-COMP-5)")
    return cards  # type: ignore[return-value]


def _chimneys(data: Mapping[str, Any], f: _File, board: Dict[str, Any]) -> List[Dict[str, Any]]:
    tiles: List[Optional[Dict[str, Any]]] = [None] * N_CHIMNEYS
    per_domain = [0, 0, 0]
    day_faces: Dict[int, Tuple[int, Any]] = {}
    catalan_second_end = False
    shape_count = [board["shape"].count(s) for s in range(4)]
    for i, t in enumerate(data["tiles"]):
        where = ["tiles", i]
        if tiles[t["id"]] is not None:
            raise f.fail(where + ["id"], f"chimney tile id {t['id']} is used twice")
        d = DOMAINS.index(t["domain"])
        per_domain[d] += 1
        faces = {}
        for face in ("day", "night"):
            spaces = []
            for k, sp in enumerate(t[face]["spaces"]):
                at = where + [face, "spaces", k]
                s = f.index("shapes", sp["requirement"]["shape"], at + ["requirement", "shape"])
                n = sp["requirement"]["n"]
                if n > shape_count[s]:
                    raise f.fail(at + ["requirement", "n"], f"needs {n} {f.names['shapes'][s]} tiles but the board has "
                                 f"only {shape_count[s]} such spaces (GA-DATA-6)")
                if face == "day" and "ability" in sp:
                    raise f.fail(at + ["ability"], "persistent abilities belong on night faces only (GA-EXP-9)")
                end = None
                if "end_effect" in sp:
                    e = sp["end_effect"]
                    count = f.count(e["count"], at + ["end_effect", "count"]) if "count" in e else [0, 0]
                    end = [END_KINDS.index(e["type"]), DOMAINS.index(e["domain"]) if "domain" in e else 0,
                           e.get("n", 0)] + count
                    if d == 1 and k == 1:
                        catalan_second_end = True
                ability = None
                if "ability" in sp:
                    trig = sp["ability"]["trigger"]
                    arg = (f.index("categories", trig["category"], at + ["ability", "trigger", "category"])
                           if trig["type"] == "on_play_category" else DOMAINS.index(trig["domain"]))
                    ability = {"trigger": [0 if trig["type"] == "on_play_category" else 1, arg],
                               "effects": f.effects(sp["ability"]["effects"], at + ["ability", "effects"])}
                spaces.append({"req_shape": s, "req_n": n, "reward": f.effects(sp["reward"], at + ["reward"]),
                               "end": end, "ability": ability})
            faces[face] = spaces
        if d in day_faces and day_faces[d][1] != faces["day"]:
            raise f.fail(where + ["day"], f"differs from the day face of tile {day_faces[d][0]}; the day faces of one "
                         "domain are identical (GA-AMB-7)")
        day_faces.setdefault(d, (t["id"], faces["day"]))
        tiles[t["id"]] = {"domain": d, **faces}
    for d, n in enumerate(per_domain):
        if n != 4:
            raise f.fail(["tiles"], f"has {n} {DOMAINS[d]} chimney tiles; there are exactly 4 per domain (GA-COMP-6)")
    if not catalan_second_end:
        raise f.fail(["tiles"], "no Catalan chimney tile has an end effect on its 2nd space (GA-DATA-6, src L344)")
    return tiles  # type: ignore[return-value]


def _chandeliers(data: Mapping[str, Any], f: _File) -> List[Dict[str, Any]]:
    tiles: List[Optional[Dict[str, Any]]] = [None] * N_CHANDELIERS
    for i, t in enumerate(data["tiles"]):
        where = ["tiles", i]
        if tiles[t["id"]] is not None:
            raise f.fail(where + ["id"], f"chandelier tile id {t['id']} is used twice")
        a, b = f.effects(t["a"], where + ["a"]), f.effects(t["b"], where + ["b"])
        if not any(e[0] == E_CATALAN for e in a + b):
            raise f.fail(where, "has no resolve_catalan option; one option of every tile resolves the Catalan column (GA-DATA-7)")
        tiles[t["id"]] = {"a": a, "b": b}
    return tiles  # type: ignore[return-value]


# ---------------------------------------------------------------- the edition

def source_of(kind: str, data: Optional[str] = None, overrides: Optional[Mapping[str, Source]] = None) -> Source:
    """Where a kind's file comes from: an override, the edition directory, else the default."""
    if overrides and kind in overrides:
        return overrides[kind]
    if data not in (None, "default"):
        path = os.path.join(os.fspath(data), f"{kind}.json")  # type: ignore[arg-type]
        if os.path.lexists(path):  # a broken symlink or a loop is this edition's file: reading it fails
            return path
    return os.path.join(DEFAULT_DIR, f"{kind}.json")


def load_edition(data: Optional[str] = None, **overrides: Source) -> Dict[str, Any]:
    """The checked, normalized edition (see module doc). ``data``: None or "default" for the
    default edition, else a directory holding any of the six files; ``overrides``: per kind, a
    path or an already-parsed dict."""
    unknown = set(overrides) - set(KINDS)
    if unknown:
        raise InvalidConfigError(f"gaudi: unknown data file kind(s) {sorted(unknown)}; the kinds are {', '.join(KINDS)}")
    if data not in (None, "default") and not os.path.isdir(os.fspath(data)):
        raise InvalidConfigError(f"gaudi: data={data!r} is not a directory (give 'default' or a folder holding any of "
                                 f"{', '.join(k + '.json' for k in KINDS)})")
    src = {k: source_of(k, data, overrides) for k in KINDS}
    raw, f = _load("components", src["components"], None)
    names = _components(raw, f)
    loaded = {}
    for kind in KINDS[1:]:
        loaded[kind] = _load(kind, src[kind], names)
    board = _board(*loaded["board"])
    return {"names": names, "board": board, "track": _track(*loaded["track"]), "cards": _cards(*loaded["cards"]),
            "chimneys": _chimneys(*loaded["chimneys"], board), "chandeliers": _chandeliers(*loaded["chandeliers"])}


_CACHE: Dict[Any, Dict[str, Any]] = {}


def edition_key(data: Optional[str] = None) -> Any:
    """The _schema.stamp of each of the six files that edition ``data`` reads (None if one cannot be
    stat'ed: nothing is cached, and loading raises the error)."""
    key = tuple(_schema.stamp(source_of(k, data)) for k in KINDS)
    return None if None in key else key


def edition_for(data: Optional[str] = None) -> Dict[str, Any]:
    """load_edition(data), cached per process by the files' stamps (path, size, modification time):
    each file is read and checked once, and again when it changes."""
    if data not in (None, "default") and not os.path.isdir(os.fspath(data)):
        return load_edition(data)  # raises: not a directory
    return _schema.cached(_CACHE, edition_key(data), lambda: load_edition(data))
