"""Warsaw: City of Ruins (spec: docs/rules/warsaw.md; docs/warsaw.md).

Component data (the era decks, the starting card, the milestones, the park table) is read from
versioned JSON files: ``cards.json`` and ``milestones.json`` in ``tilecraft/data/warsaw`` by
default, or in the directory given by the ``data`` option. The default set is a reconstruction
(no public per-card list exists); see docs/warsaw.md."""
from __future__ import annotations

import math
import os
from typing import Any, Dict, List, Tuple

from .. import _core
from .._core import InvalidConfigError
from . import GameSpec, Option, _schema, _vocab

TYPES = ("park", "residential", "commercial", "industrial", "cultural", "transport")
TYPE_IDS = {t: i for i, t in enumerate(TYPES)}
PUBLIC, MILESTONE = 6, 7
EFFECTS = ("none", "arsenal", "sigismund", "jablonowski", "prudential", "per_area", "adjacent", "flat",
           "per_public", "exchange")
EFFECT_IDS = {e: i for i, e in enumerate(EFFECTS)}
RESOURCES = {"vp": 0, "coins": 1}
CONDITIONS = ("most_areas", "fewest_areas", "most_areas_of", "most_public_buildings", "most_overbuilt_positions")
CONDITION_IDS = {c: i for i, c in enumerate(CONDITIONS)}
MAX_CARDS = _core.WarsawState.card_ids()["era"][1]  # the deck's capacity (cpp/warsaw/config.hpp)
ERAS = 6
DATA_VERSION = 1
DEFAULT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "warsaw")

# Action ids (docs/warsaw.md): each kind's range is declared once, in cpp/warsaw/state.hpp, and
# read here from WarsawState.action_ranges() (games/_vocab.py). The module's id constants are
# names of those first ids, computed on first use (module __getattr__). Build and remove ids are
# laid out over the cells of a square frame around the starting card (FRAME_W x FRAME_W cells,
# FRAME_R on each side of it): the remove kind has one id per cell.
_FIRST_ID_NAMES = {"SELL": "sell", "BUILD_BASE": "build", "REMOVE_BASE": "remove", "TRIM_BASE": "trim",
                   "KEEP_BASE": "keep", "EXCHANGE_BASE": "exchange"}


def __getattr__(name: str) -> Any:
    if name in _FIRST_ID_NAMES:
        return _vocab.first_id("warsaw", _FIRST_ID_NAMES[name])
    if name == "NUM_ACTIONS":
        return _vocab.num_actions("warsaw")
    if name == "CELLS":
        return _vocab.size("warsaw", "remove")
    if name == "FRAME_W":
        return math.isqrt(_vocab.size("warsaw", "remove"))
    if name == "FRAME_R":
        return math.isqrt(_vocab.size("warsaw", "remove")) // 2
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    w = math.isqrt(_vocab.size("warsaw", "remove"))
    return (y + w // 2) * w + (x + w // 2)


def build_action(x: int, y: int, rotation: int = 0) -> int:
    return _vocab.first_id("warsaw", "build") + 4 * cell(x, y) + rotation


def remove_action(x: int, y: int) -> int:
    return _vocab.first_id("warsaw", "remove") + cell(x, y)


CARDS_SCHEMA = os.path.join(DEFAULT_DIR, "cards.schema.json")  # what each data file may hold (JSON Schema)
MILESTONES_SCHEMA = os.path.join(DEFAULT_DIR, "milestones.schema.json")


def _fail(label: str, path: List[Any], message: str) -> InvalidConfigError:
    """A cross-field problem, in the shared form: ``warsaw cards.json: $.cards[3].id: message``."""
    return _schema.problem("warsaw", label, path, message)


def _read_json(path: str, schema: str) -> Dict[str, Any]:
    """Reads a data file (the one safe way, _schema.read_json) and checks it against its schema;
    errors name the file and the JSON path."""
    if not os.path.lexists(path):
        raise InvalidConfigError(f"warsaw data: {path} not found (a data directory holds cards.json and "
                                 f"milestones.json)")
    label = os.path.basename(path)
    data = _schema.read_json(path, "warsaw", label)
    _schema.validate("warsaw", data, schema, label)
    return data


def _quadrants(quads: List[Dict[str, Any]]) -> List[Tuple[int, int]]:
    return [(TYPE_IDS[q["type"]], int(q.get("value", 0))) for q in quads]


def _effect(e: Dict[str, Any]) -> Tuple[int, int, int, int, int]:
    return (EFFECT_IDS[e["effect"]], TYPE_IDS[e.get("type", "park")], int(e.get("amount", 0)),
            RESOURCES[e.get("resource", "vp")], int(e.get("limit", 0)))


def load_data(path: str = "default") -> Dict[str, Any]:
    """Reads and checks a data directory; returns the parsed data (``config`` holds the C++ fields,
    ``names`` the card names by engine id). Each file is checked against its schema
    (``cards.schema.json``, ``milestones.schema.json`` beside the default files) first; the code
    below holds only the cross-field checks. Errors name the file, the JSON path and the fault."""
    directory = DEFAULT_DIR if path == "default" else path
    if not isinstance(directory, str) or not os.path.isdir(directory):
        raise InvalidConfigError(f"warsaw: data={path!r} is not a directory holding cards.json and milestones.json "
                                 f"(or use 'default')")
    data = _read_json(os.path.join(directory, "cards.json"), CARDS_SCHEMA)
    cfg: Dict[str, Any] = {}
    sq = _quadrants(data["start_card"]["quadrants"])
    cfg["start_type"] = [t for t, _ in sq]
    cfg["start_value"] = [v for _, v in sq]
    cfg["park_table"] = [int(v) for v in data["park_table"]]
    cfg["park_extra"] = int(data["park_extra_per_area"])
    cards = data["cards"]
    era, price = [0] * MAX_CARDS, [0] * MAX_CARDS
    ctype = [[0] * 4 for _ in range(MAX_CARDS)]
    cvalue = [[0] * 4 for _ in range(MAX_CARDS)]
    eff = {k: [0] * MAX_CARDS for k in ("effect", "type", "amount", "resource", "extra")}
    names: List[str] = []
    ids: Dict[str, int] = {}
    per_era = [0] * (ERAS + 1)
    landmark: Dict[str, int] = {}
    for i, c in enumerate(cards):
        if c["id"] in ids:
            raise _fail("cards.json", ["cards", i, "id"], f"duplicate id {c['id']!r} (also cards[{ids[c['id']]}])")
        ids[c["id"]] = i
        era[i] = int(c["era"])
        per_era[era[i]] += 1
        price[i] = int(c["price"])
        if "quadrants" in c:
            for k, (t, v) in enumerate(_quadrants(c["quadrants"])):
                ctype[i][k], cvalue[i][k] = t, v
        else:
            w = c["whole_card"]
            if w["effect"] in ("arsenal", "sigismund", "jablonowski", "prudential", "exchange"):
                if w["effect"] in landmark:
                    raise _fail("cards.json", ["cards", i, "whole_card", "effect"],
                                f"cards[{landmark[w['effect']]}] already has effect {w['effect']!r}; it is a unique landmark")
                landmark[w["effect"]] = i
            e, t, a, r, x = _effect(w)
            ctype[i] = [PUBLIC] * 4
            eff["effect"][i], eff["type"][i], eff["amount"][i], eff["resource"][i], eff["extra"][i] = e, t, a, r, x
        names.append(str(c.get("name", c["id"])))
    for e in range(1, ERAS + 1):
        if per_era[e] < 8:
            raise _fail("cards.json", ["cards"], f"era {e} has {per_era[e]} cards; an era deck needs at least 8 (2 players "
                        f"x 4 cards; the default has 16, enough for 4 players, WA-AMB-1)")
    cfg.update(num_cards=len(cards), card_era=era, card_price=price, card_type=ctype, card_value=cvalue,
               card_effect=eff["effect"], card_effect_type=eff["type"], card_effect_amount=eff["amount"],
               card_effect_resource=eff["resource"], card_effect_extra=eff["extra"])

    md = _read_json(os.path.join(directory, "milestones.json"), MILESTONES_SCHEMA)
    fields = {k: [[0, 0] for _ in range(5)] for k in ("condition", "condition_type", "effect", "effect_type",
                                                       "effect_amount", "effect_resource")}
    milestone_text = []
    seen_slots: Dict[int, int] = {}
    for i, m in enumerate(md["milestones"]):
        slot = int(m["slot"])
        if slot in seen_slots:
            raise _fail("milestones.json", ["milestones", i, "slot"],
                        f"slot {slot} appears twice (also milestones[{seen_slots[slot]}])")
        seen_slots[slot] = i
        texts = []
        for s, side in enumerate(m["sides"]):
            cond = side["condition"]
            e, t, a, r, _ = _effect(side["effect"])
            j = slot - 1
            fields["condition"][j][s] = CONDITION_IDS[cond]
            fields["condition_type"][j][s] = TYPE_IDS[side.get("type", "park")]
            fields["effect"][j][s], fields["effect_type"][j][s] = e, t
            fields["effect_amount"][j][s], fields["effect_resource"][j][s] = a, r
            texts.append(side.get("name", cond))
        milestone_text.append(texts)
    for k, v in fields.items():
        cfg["mile_" + k] = v
    return {"config": cfg, "names": names, "ids": [c["id"] for c in cards], "milestones": milestone_text}


_CACHE: Dict[Any, Dict[str, Any]] = {}


def _directory(path: str) -> str:
    return os.path.abspath(DEFAULT_DIR if path == "default" else path)


def data_key(values: Dict[str, Any]) -> Any:
    """GameSpec.data_key: the _schema.stamp of both files of the data directory (None if one is missing)."""
    directory = _directory(values["data"])
    key = (_schema.stamp(os.path.join(directory, "cards.json")), _schema.stamp(os.path.join(directory, "milestones.json")))
    return None if None in key else key


def data_for(path: str) -> Dict[str, Any]:
    """load_data, cached per process by the files' stamps (path, size, modification time): a file is
    read and checked once, and again when it changes."""
    return _schema.cached(_CACHE, data_key({"data": path}), lambda: load_data(path))


def _stack_check(value: int, players: int):
    return None if 0 <= value <= 30 else "must be 0 (unlimited) or 1..30"


def _data_check(value: str, players: int):
    if not value:
        return "must be 'default' or a directory path"
    if "\0" in value:
        return "holds a NUL character; give 'default' or a directory path"
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


def observation_groups(state: Any) -> List[Dict[str, int]]:
    """The observation's feature groups (tilecraft.baselines): the 14 card planes of each of the 112
    card ids (planes of 112 values, so a card's features lie 112 apart), and the 4 seat blocks of
    565 values. The 67 global values go straight into the trunk."""
    return [dict(offset=67, count=112, width=14, block_stride=1, feature_stride=112, embed=8),
            dict(offset=67 + 14 * 112, count=4, width=565, block_stride=565, feature_stride=1, embed=64)]


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
    # games with these against about 62% with the generic defaults (docs/journal/2026-11-29-search-bots.md).
    returns_range={"win_loss": (0.0, 1.0), "score": (-2000.0, 5000.0)},
    data_key=data_key,
    observation_groups=observation_groups,
    # the conformance configurations (GameSpec.test_configs): player counts and rule options
    test_configs=((2, {}), (3, {}), (4, {}), (3, {"returns_mode": "win_loss", "vp_floor_zero": True}),
                  (2, {"transport_threshold_on": "cards", "max_stack_height": 2, "milestone_requires_positive": True})),
)
