"""The spec's placeholder edition (docs/rules/gaudi.md GA-AMB-1..7) as JSON data files: a test
fixture, not the default edition. Rule tests build on it (or on edits of it), never on the default
edition's particular values.

- track (both faces): 24 spaces; colours enter at 0..3; spaces 20..23 red; actions repeat
  [tile-any, card-any, tile-colour, card-domain, generic] (colours and domains in turn);
  (pencils, hammers) repeat (1,0), (0,1), (1,1), (2,0), (0,2); no bonuses.
- board: 6x6 grid, space 6y + x has shape (x + 2y) mod 4; both column rewards +1 VP in the domain.
- cards: id i has domain i // 33, category i % 10 (9 = gaudi_life), requirement colour i % 5
  (4 = black) with n = 1; Nature and Catalan banners +1 VP in the domain; Religion cards score
  1 VP per card of their category (k0..k8 by i % 9); automa VP 1.
- chimneys: every face has 2 spaces, (s0 x 1: +1 VP in the domain), (s1 x 2: +2 VP in the domain);
  Catalan tiles carry end_vp(catalan, 3) on their 2nd space.
- chandeliers: option a resolves the Catalan column once, option b gives 2 Nature VP."""
from __future__ import annotations

import copy
import json
import os
from typing import Any, Dict

COLOURS = ["c0", "c1", "c2", "c3"]
SHAPES = ["s0", "s1", "s2", "s3"]
CATEGORIES = [f"k{i}" for i in range(9)]
DOMAINS = ["nature", "catalan", "religion"]


def _track_face() -> Dict[str, Any]:
    pattern = [(1, 0), (0, 1), (1, 1), (2, 0), (0, 2)]
    spaces = []
    for i in range(24):
        kind = i % 5
        action = [{"type": "tile"}, {"type": "card"}, {"type": "tile", "colour": COLOURS[(i // 5) % 4]},
                  {"type": "card", "domain": DOMAINS[(i // 5) % 3]}, {"type": "generic"}][kind]
        p, h = pattern[i % 5]
        spaces.append({"action": action, "pencils": p, "hammers": h, "red": i >= 20})
    return {"spaces": spaces, "entry": [0, 1, 2, 3], "area_bonus": [None] * 5,
            "window_bonus": {"nature": None, "catalan": None, "religion": None}}


def placeholder_edition() -> Dict[str, Dict[str, Any]]:
    """kind -> the JSON document of that file."""
    board_spaces = [{"shape": SHAPES[(x + 2 * y) % 4], "x": x, "y": y} for y in range(6) for x in range(6)]
    edges = [[6 * y + x, 6 * y + x + 1] for y in range(6) for x in range(5)] + \
            [[6 * y + x, 6 * (y + 1) + x] for y in range(5) for x in range(6)]
    cards = []
    for i in range(99):
        d = i // 33
        cat = i % 10
        card = {"id": i, "name": f"card {i}", "domain": DOMAINS[d], "category": "gaudi_life" if cat == 9 else CATEGORIES[cat],
                "requirement": {"colour": "black" if i % 5 == 4 else COLOURS[i % 5], "n": 1},
                "banner": [] if d == 2 else [{"type": "vp", "domain": DOMAINS[d], "n": 1}], "automa_vp": 1}
        if d == 2:
            card["religion"] = {"vp": 1, "per": {"kind": "category", "category": CATEGORIES[i % 9]}}
        cards.append(card)
    chimneys = []
    for t in range(12):
        d = DOMAINS[t // 4]
        second = {"requirement": {"shape": "s1", "n": 2}, "reward": [{"type": "vp", "domain": d, "n": 2}]}
        if d == "catalan":
            second["end_effect"] = {"type": "end_vp", "domain": "catalan", "n": 3}
        face = {"spaces": [{"requirement": {"shape": "s0", "n": 1}, "reward": [{"type": "vp", "domain": d, "n": 1}]}, second]}
        chimneys.append({"id": t, "domain": d, "day": face, "night": copy.deepcopy(face)})
    return copy.deepcopy({
        "components": {"format": "tilecraft-gaudi-components", "version": 1, "colours": COLOURS, "shapes": SHAPES,
                       "categories": CATEGORIES},
        "board": {"format": "tilecraft-gaudi-board", "version": 1, "spaces": board_spaces, "edges": edges,
                  "nature_reward": [{"type": "vp", "domain": "nature", "n": 1}],
                  "catalan_reward": [{"type": "vp", "domain": "catalan", "n": 1}]},
        "track": {"format": "tilecraft-gaudi-track", "version": 1, "day": _track_face(), "night": _track_face()},
        "cards": {"format": "tilecraft-gaudi-cards", "version": 1, "cards": cards},
        "chimneys": {"format": "tilecraft-gaudi-chimneys", "version": 1, "tiles": chimneys},
        "chandeliers": {"format": "tilecraft-gaudi-chandeliers", "version": 1,
                        "tiles": [{"id": i, "a": [{"type": "resolve_catalan", "times": 1}],
                                   "b": [{"type": "vp", "domain": "nature", "n": 2}]} for i in range(7)]},
    })


def write_edition(directory: str, edition: Dict[str, Dict[str, Any]]) -> str:
    """Writes each kind's document as <kind>.json into directory; returns the directory."""
    os.makedirs(directory, exist_ok=True)
    for kind, doc in edition.items():
        with open(os.path.join(directory, f"{kind}.json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
    return directory


def write_placeholder(directory: str) -> str:
    return write_edition(directory, placeholder_edition())
