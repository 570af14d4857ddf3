"""Warsaw: City of Ruins (spec: shared/rules/warsaw.md; docs/warsaw.md).

Component data (the era decks, the starting card, the milestones, the park table) is read from
versioned JSON files: ``cards.json`` and ``milestones.json`` in ``tilecraft/data/warsaw`` by
default, or in the directory given by the ``data`` option. The default set is a reconstruction
(no public per-card list exists); see docs/warsaw.md."""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Tuple

from .. import _core
from .._core import InvalidConfigError
from . import GameSpec, Option

TYPES = ("park", "residential", "commercial", "industrial", "cultural", "transport")
TYPE_IDS = {t: i for i, t in enumerate(TYPES)}
PUBLIC, MILESTONE = 6, 7
EFFECTS = ("none", "arsenal", "sigismund", "jablonowski", "prudential", "per_area", "adjacent", "flat",
           "per_public", "exchange")
EFFECT_IDS = {e: i for i, e in enumerate(EFFECTS)}
RESOURCES = {"vp": 0, "coins": 1}
CONDITIONS = ("most_areas", "fewest_areas", "most_areas_of", "most_public_buildings", "most_overbuilt_positions")
CONDITION_IDS = {c: i for i, c in enumerate(CONDITIONS)}
MAX_CARDS = 112
ERAS = 6
DATA_VERSION = 1
DEFAULT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "warsaw")

# Action id layout (docs/warsaw.md): kept in step with cpp/warsaw/state.hpp.
FRAME_R = 9
FRAME_W = 2 * FRAME_R + 1
CELLS = FRAME_W * FRAME_W
SELL = 4
BUILD_BASE = 5
REMOVE_BASE = BUILD_BASE + 4 * CELLS
TRIM_BASE = REMOVE_BASE + CELLS
KEEP_BASE = TRIM_BASE + 4
EXCHANGE_BASE = KEEP_BASE + CELLS
NUM_ACTIONS = EXCHANGE_BASE + 4


LETTERS = {"P": "park", "R": "residential", "C": "commercial", "I": "industrial", "U": "cultural", "T": "transport"}


def quadrants_from_letters(text: str) -> List[Dict[str, Any]]:
    """'R C I2 U1' -> the four quadrant entries of cards.json (NW, NE, SE, SW): a letter per type
    (P park, R residential, C commercial, I industrial, U cultural, T transport), an optional value."""
    out: List[Dict[str, Any]] = []
    for q in text.split():
        if q[0] not in LETTERS or (len(q) > 1 and not q[1:].isdigit()):
            raise InvalidConfigError(f"warsaw: cannot read quadrant {q!r}; use a letter of PRCIUT and an optional value")
        d: Dict[str, Any] = {"type": LETTERS[q[0]]}
        if len(q) > 1:
            d["value"] = int(q[1:])
        out.append(d)
    return out


def cell(x: int, y: int) -> int:
    """Frame cell of position (x, y), the starting card at (0, 0)."""
    return (y + FRAME_R) * FRAME_W + (x + FRAME_R)


def build_action(x: int, y: int, rotation: int = 0) -> int:
    return BUILD_BASE + 4 * cell(x, y) + rotation


def remove_action(x: int, y: int) -> int:
    return REMOVE_BASE + cell(x, y)


class _Problems:
    def __init__(self, where: str):
        self.where = where

    def fail(self, what: str) -> None:
        raise InvalidConfigError(f"warsaw data {self.where}: {what}")


def _read_json(path: str, kind: str) -> Dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise InvalidConfigError(f"warsaw data: {path} not found (a data directory holds cards.json and "
                                 f"milestones.json)") from None
    except (OSError, json.JSONDecodeError) as e:
        raise InvalidConfigError(f"warsaw data: cannot read {path}: {e}") from None
    p = _Problems(os.path.basename(path))
    if not isinstance(data, dict):
        p.fail("the file must hold a JSON object")
    if data.get("format") != kind:
        p.fail(f"'format' must be {kind!r}, got {data.get('format')!r}")
    if data.get("version") != DATA_VERSION:
        p.fail(f"'version' must be {DATA_VERSION}, got {data.get('version')!r}")
    return data


def _check_keys(p: _Problems, what: str, obj: Any, required: Tuple[str, ...], optional: Tuple[str, ...] = ()) -> None:
    if not isinstance(obj, dict):
        p.fail(f"{what} must be a JSON object")
    for k in required:
        if k not in obj:
            p.fail(f"{what} has no {k!r}")
    for k in obj:
        if k not in required + optional:
            p.fail(f"{what} has an unknown field {k!r} (allowed: {', '.join(required + optional)})")


def _int(p: _Problems, what: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        p.fail(f"{what} must be an integer {lo}..{hi}, got {value!r}")
    return value


def _quadrants(p: _Problems, what: str, quads: Any) -> List[Tuple[int, int]]:
    if not isinstance(quads, list) or len(quads) != 4:
        p.fail(f"{what}: 'quadrants' must list 4 quadrants (NW, NE, SE, SW)")
    out = []
    for k, q in enumerate(quads):
        qw = f"{what} quadrant {k}"
        _check_keys(p, qw, q, ("type",), ("value",))
        t = q["type"]
        if t not in TYPE_IDS:
            p.fail(f"{qw}: unknown type {t!r}; the types are {', '.join(TYPES)}")
        v = _int(p, f"{qw} value", q.get("value", 0), 0, 9)
        if v and t not in ("cultural", "industrial"):
            p.fail(f"{qw}: only cultural and industrial quadrants carry a printed value")
        out.append((TYPE_IDS[t], v))
    return out


def _effect(p: _Problems, what: str, e: Any, milestone: bool) -> Tuple[int, int, int, int, int]:
    _check_keys(p, what, e, ("effect",), ("type", "amount", "resource", "limit", "name"))
    name = e["effect"]
    allowed = ("none", "per_area", "adjacent", "flat", "per_public") if milestone else EFFECTS[1:]
    if name not in allowed:
        p.fail(f"{what}: unknown effect {name!r}; allowed: {', '.join(allowed)}")
    t = e.get("type", "park")
    if t not in TYPE_IDS:
        p.fail(f"{what}: unknown area type {t!r}; the types are {', '.join(TYPES)}")
    if name in ("per_area", "adjacent") and "type" not in e:
        p.fail(f"{what}: effect {name!r} needs a 'type'")
    amount = _int(p, f"{what} amount", e.get("amount", 0), 0, 20)
    res = e.get("resource", "vp")
    if res not in RESOURCES:
        p.fail(f"{what}: resource must be 'vp' or 'coins', got {res!r}")
    limit = _int(p, f"{what} limit", e.get("limit", 0), 0, 3)
    if name == "exchange" and (amount < 1 or limit < 1):
        p.fail(f"{what}: an exchange needs 'amount' (coins per VP) >= 1 and 'limit' 1..3")
    return EFFECT_IDS[name], TYPE_IDS[t], amount, RESOURCES[res], limit


def load_data(path: str = "default") -> Dict[str, Any]:
    """Reads and checks a data directory; returns the parsed data (``config`` holds the C++ fields,
    ``names`` the card names by engine id). Errors say which file, which card and what is wrong."""
    directory = DEFAULT_DIR if path == "default" else path
    if not isinstance(directory, str) or not os.path.isdir(directory):
        raise InvalidConfigError(f"warsaw: data={path!r} is not a directory holding cards.json and milestones.json "
                                 f"(or use 'default')")
    cards_path = os.path.join(directory, "cards.json")
    data = _read_json(cards_path, "tilecraft.warsaw.cards")
    p = _Problems("cards.json")
    _check_keys(p, "cards.json", data, ("format", "version", "start_card", "park_table", "park_extra_per_area", "cards"),
                ("reconstruction", "notes"))
    cfg: Dict[str, Any] = {}
    start = data["start_card"]
    _check_keys(p, "start_card", start, ("quadrants",), ("name",))
    sq = _quadrants(p, "start_card", start["quadrants"])
    cfg["start_type"] = [t for t, _ in sq]
    cfg["start_value"] = [v for _, v in sq]
    table = data["park_table"]
    if not isinstance(table, list) or len(table) != 9:
        p.fail("'park_table' must list the VP for 0..8 adjacent residential areas (9 numbers)")
    cfg["park_table"] = [_int(p, f"park_table[{i}]", v, 0, 200) for i, v in enumerate(table)]
    cfg["park_extra"] = _int(p, "park_extra_per_area", data["park_extra_per_area"], 0, 50)
    cards = data["cards"]
    if not isinstance(cards, list) or not cards:
        p.fail("'cards' must be a non-empty list")
    if len(cards) > MAX_CARDS:
        p.fail(f"at most {MAX_CARDS} cards are supported, got {len(cards)}")
    era, price = [0] * MAX_CARDS, [0] * MAX_CARDS
    ctype = [[0] * 4 for _ in range(MAX_CARDS)]
    cvalue = [[0] * 4 for _ in range(MAX_CARDS)]
    eff = {k: [0] * MAX_CARDS for k in ("effect", "type", "amount", "resource", "extra")}
    names: List[str] = []
    ids = set()
    per_era = [0] * (ERAS + 1)
    for i, c in enumerate(cards):
        what = f"card #{i}"
        if isinstance(c, dict) and "id" in c:
            what = f"card {c['id']!r} (#{i})"
        _check_keys(p, what, c, ("id", "era", "price"), ("name", "quadrants", "whole_card"))
        if not isinstance(c["id"], str) or not c["id"]:
            p.fail(f"{what}: 'id' must be a non-empty string")
        if c["id"] in ids:
            p.fail(f"{what}: duplicate id {c['id']!r}")
        ids.add(c["id"])
        era[i] = _int(p, f"{what} era", c["era"], 1, ERAS)
        per_era[era[i]] += 1
        price[i] = _int(p, f"{what} price", c["price"], 0, 20)
        if ("quadrants" in c) == ("whole_card" in c):
            p.fail(f"{what}: give either 'quadrants' (a normal card) or 'whole_card' (a public building)")
        if "quadrants" in c:
            for k, (t, v) in enumerate(_quadrants(p, what, c["quadrants"])):
                ctype[i][k], cvalue[i][k] = t, v
        else:
            w = c["whole_card"]
            if isinstance(w, dict) and w.get("kind") != "public":
                p.fail(f"{what}: whole_card 'kind' must be 'public' (milestones live in milestones.json)")
            wd = dict(w) if isinstance(w, dict) else w
            if isinstance(wd, dict):
                wd.pop("kind", None)
            e, t, a, r, x = _effect(p, f"{what} whole_card", wd, milestone=False)
            ctype[i] = [PUBLIC] * 4
            eff["effect"][i], eff["type"][i], eff["amount"][i], eff["resource"][i], eff["extra"][i] = e, t, a, r, x
        names.append(str(c.get("name", c["id"])))
    for e in range(1, ERAS + 1):
        if per_era[e] < 8:
            p.fail(f"era {e} has {per_era[e]} cards; an era deck needs at least 8 (2 players x 4 cards; the default "
                   f"has 16, enough for 4 players, WA-AMB-1)")
    for special in ("arsenal", "sigismund", "jablonowski", "prudential", "exchange"):
        if eff["effect"].count(EFFECT_IDS[special]) > 1:
            p.fail(f"more than one card has effect {special!r}; it is a unique landmark")
    cfg.update(num_cards=len(cards), card_era=era, card_price=price, card_type=ctype, card_value=cvalue,
               card_effect=eff["effect"], card_effect_type=eff["type"], card_effect_amount=eff["amount"],
               card_effect_resource=eff["resource"], card_effect_extra=eff["extra"])

    miles_path = os.path.join(directory, "milestones.json")
    md = _read_json(miles_path, "tilecraft.warsaw.milestones")
    p = _Problems("milestones.json")
    _check_keys(p, "milestones.json", md, ("format", "version", "milestones"), ("reconstruction", "notes"))
    ms = md["milestones"]
    if not isinstance(ms, list) or len(ms) != 5:
        p.fail("'milestones' must list 5 two-sided milestone cards (WA-COMP-7)")
    fields = {k: [[0, 0] for _ in range(5)] for k in ("condition", "condition_type", "effect", "effect_type",
                                                       "effect_amount", "effect_resource")}
    milestone_text = []
    seen_slots = set()
    for i, m in enumerate(ms):
        what = f"milestone #{i}"
        _check_keys(p, what, m, ("slot", "sides"), ("name",))
        slot = _int(p, f"{what} slot", m["slot"], 1, 5)
        if slot in seen_slots:
            p.fail(f"{what}: slot {slot} appears twice")
        seen_slots.add(slot)
        sides = m["sides"]
        if not isinstance(sides, list) or len(sides) != 2:
            p.fail(f"{what}: 'sides' must list the 2 faces")
        texts = []
        for s, side in enumerate(sides):
            sw = f"milestone slot {slot} side {s}"
            _check_keys(p, sw, side, ("condition", "effect"), ("type", "name"))
            cond = side["condition"]
            if cond not in CONDITION_IDS:
                p.fail(f"{sw}: unknown condition {cond!r}; allowed: {', '.join(CONDITIONS)}")
            ct = side.get("type", "park")
            if ct not in TYPE_IDS:
                p.fail(f"{sw}: unknown area type {ct!r}")
            if cond == "most_areas_of" and "type" not in side:
                p.fail(f"{sw}: condition 'most_areas_of' needs a 'type'")
            e, t, a, r, _ = _effect(p, f"{sw} effect", side["effect"], milestone=True)
            j = slot - 1
            fields["condition"][j][s] = CONDITION_IDS[cond]
            fields["condition_type"][j][s] = TYPE_IDS[ct]
            fields["effect"][j][s], fields["effect_type"][j][s] = e, t
            fields["effect_amount"][j][s], fields["effect_resource"][j][s] = a, r
            texts.append(side.get("name", cond))
        milestone_text.append(texts)
    for k, v in fields.items():
        cfg["mile_" + k] = v
    return {"config": cfg, "names": names, "ids": [c["id"] for c in cards], "milestones": milestone_text}


_CACHE: Dict[str, Dict[str, Any]] = {}


def data_for(path: str) -> Dict[str, Any]:
    """load_data with a cache keyed by path (files are read once per process)."""
    key = os.path.abspath(DEFAULT_DIR if path == "default" else path)
    if key not in _CACHE:
        _CACHE[key] = load_data(path)
    return _CACHE[key]


def _stack_check(value: int, players: int):
    return None if 0 <= value <= 30 else "must be 0 (unlimited) or 1..30"


def _data_check(value: str, players: int):
    if not value:
        return "must be 'default' or a directory path"
    return None


OPTIONS = (
    Option("data", "default", "component data: 'default' (the reconstruction shipped with tilecraft) or a directory "
           "holding cards.json and milestones.json [WA-AMB-1..5]", kind=str, check=_data_check,
           allowed_text="'default' or a directory path"),
    Option("returns_mode", "score", "'score': returns are the final VP; 'win_loss': 1/k for each of k co-winners "
           "[WA-AMB-22]", choices=("score", "win_loss")),
    Option("vp_floor_zero", False, "VP never drop below 0 [WA-AMB-10]", choices=(False, True), kind=bool),
    Option("transport_threshold_on", "groups", "what the 2-transport threshold counts: 'groups' (connected "
           "transport areas) or 'cards' [WA-AMB-6]", choices=("groups", "cards")),
    Option("max_stack_height", 0, "0: stacks unlimited; k: at most k cards per position [WA-AMB-12]", kind=int,
           check=_stack_check, allowed_text="0..30"),
    Option("milestone_requires_positive", False, "a 'most ...' milestone needs a count above 0 [WA-AMB-19]",
           choices=(False, True), kind=bool),
)


def _to_core(players: int, o: Dict[str, Any]) -> Dict[str, Any]:
    data = data_for(o["data"])
    per_era = [0] * (ERAS + 1)
    for e in data["config"]["card_era"]:
        per_era[e] += 1
    for e in range(1, ERAS + 1):
        if per_era[e] < 4 * players:
            raise InvalidConfigError(f"warsaw: era {e} has {per_era[e]} cards; {players} players need {4 * players}")
    core = {
        "players": players,
        "returns_mode": 1 if o["returns_mode"] == "win_loss" else 0,
        "vp_floor_zero": int(o["vp_floor_zero"]),
        "transport_mode": 1 if o["transport_threshold_on"] == "cards" else 0,
        "max_stack_height": o["max_stack_height"],
        "milestone_requires_positive": int(o["milestone_requires_positive"]),
    }
    core.update(data["config"])
    return core


SPEC = GameSpec(
    name="warsaw",
    title="Warsaw: City of Ruins",
    state_class=_core.WarsawState,
    players=(2, 3, 4),
    options=OPTIONS,
    to_core=_to_core,
    playouts=_core.warsaw_random_playouts,
    doc="Draft city cards over six eras, build your district and survive two wars (Filip Miłuński, 2016).",
    perfect_information=False,  # the other seats' hands and hidden picks
    # Deeper greedy rollouts and a wider heuristic softmax: MCTS 1,000 beat GreedyBot in 74 of 100
    # games with these against about 62% with the generic defaults (docs/bots.md).
    search_defaults={"rollout_depth": 8, "eval_scale": 20.0},
)
