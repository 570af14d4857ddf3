"""A small Gaudí edition for tests, built from the spec's placeholders (GA-AMB-1..3): a 24-space
track, a 6x6 board with shape (x + 2y) mod 4, both column rewards +1 VP, simple cards of our own.
It is the normalized dict of the loader (docs/gaudi.md); `make_state` registers it and builds a
state with `data="test-fixture"`."""
from __future__ import annotations

import copy
from typing import Any, Dict

import tilecraft
from tilecraft.games import gaudi

# catalogue entries
TILE_ANY, CARD_N, CARD_C, CARD_R, CARD_ANY, PLAY, PLAY_FREE = 24, 25, 26, 27, 28, 29, 30
NATURE, CATALAN, RELIGION, GENERIC, ADVANCE, EXTRA, VP_N, VP_C, VP_R = 31, 32, 33, 34, 35, 36, 37, 38, 39


def board() -> Dict[str, Any]:
    shape, xy, nbr = [], [], []
    for y in range(6):
        for x in range(6):
            shape.append((x + 2 * y) % 4)
            xy.append([x, y])
            ns = []
            for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
                if 0 <= x + dx < 6 and 0 <= y + dy < 6:
                    ns.append((y + dy) * 6 + x + dx)
            nbr.append(sorted(ns))
    return {"shape": shape, "xy": xy, "neighbours": nbr, "nature_reward": [[VP_N, 1]], "catalan_reward": [[VP_C, 1]]}


def track() -> Dict[str, Any]:
    pattern = [TILE_ANY, CARD_ANY, 20, CARD_N, GENERIC]  # tile-any, card-any, tile-colour, card-domain, generic
    units = [(1, 0), (0, 1), (1, 1), (2, 0), (0, 2)]
    action, pen, ham, red = [], [], [], []
    for i in range(24):
        a = pattern[i % 5]
        if a == 20:
            a = 20 + (i // 5) % 4
        if a == CARD_N:
            a = 25 + (i // 5) % 3
        action.append(a)
        p, h = units[i % 5]
        pen.append(p)
        ham.append(h)
        red.append(1 if i >= 20 else 0)
    face = {"action": action, "pencils": pen, "hammers": ham, "red": red, "entry": [0, 1, 2, 3],
            "area_bonus": [None] * 5, "window_bonus": [None] * 3}
    return {"day": face, "night": copy.deepcopy(face)}


def cards() -> list:
    out = []
    banners = [[[TILE_ANY, 1]], [[CARD_ANY, 1]], [[VP_N, 2]], [[PLAY, 1]], [[GENERIC, 1], [VP_C, 1]],
               [[EXTRA, 1]], [[RELIGION, 1]], [[ADVANCE, 1]], [[PLAY_FREE, 1]], [[CATALAN, 1]], [[NATURE, 1]]]
    for i in range(99):
        d = i // 33
        k = i % 33
        card = {"name": f"card {i}", "domain": d, "category": 9 if k % 11 == 10 else k % 9,
                "req_colour": 4 if k % 7 == 6 else k % 4, "req_n": 1 + k % 2, "automa_vp": 1,
                "banner": [] if d == 2 else banners[k % len(banners)], "religion": None}
        if d == 1 and card["banner"] and card["banner"][0][0] == NATURE:
            card["banner"] = [[VP_C, 2]]
        if d == 0 and card["banner"] and card["banner"][0][0] == CATALAN:
            card["banner"] = [[VP_N, 1]]
        if d == 2:
            kinds = [[0, k % 9], [1, 0], [2, k % 3], [3, 0], [4, k % 4], [5, k % 4], [6, 0]]
            card["religion"] = {"vp": 1 + k % 3, "threshold": 0 if k % 2 == 0 else 3, "count": kinds[k % 7]}
        out.append(card)
    return out


def chimneys() -> list:
    out = []
    for d in range(3):
        spaces = []
        for i in range(4):
            sp = {"req_shape": (d + i) % 4, "req_n": 1 + i, "reward": [[VP_N + d, 1 + i]], "end": None, "ability": None}
            if i == 1 and d == 1:
                sp["end"] = [2, 0, 3, 0, 0]  # end_add 3
            if i == 2:
                sp["reward"] = [[TILE_ANY, 1]]
                sp["end"] = [1, d, 1, 3, 0]  # 1 VP per chimney step
            if i == 3 and d == 0:
                sp["reward"] = [[EXTRA, 1]]
            spaces.append(sp)
        for _ in range(4):
            out.append({"domain": d, "day": copy.deepcopy(spaces), "night": copy.deepcopy(spaces)})
    return out


def chandeliers() -> list:
    return [{"a": [[CATALAN, 1 + t % 2]], "b": [[TILE_ANY, 1], [CARD_ANY, 1], [VP_R, 1]]} for t in range(7)]


def edition() -> Dict[str, Any]:
    return {"names": {"colours": ["C0", "C1", "C2", "C3"], "shapes": ["S0", "S1", "S2", "S3"],
                      "categories": [f"K{i}" for i in range(9)]},
            "board": board(), "track": track(), "cards": cards(), "chimneys": chimneys(), "chandeliers": chandeliers()}


NAME = "test-fixture"
gaudi.register_edition(NAME, edition())


def make_state(players: int = 4, seed: int = 0, **options: Any):
    return tilecraft.make("gaudi", players=players, seed=seed, data=NAME, **options)
