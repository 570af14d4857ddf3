"""Writes Gaudí's default edition (a reconstruction, see docs/gaudi.md) to
python/tilecraft/data/gaudi/{components,board,track,cards,chimneys,chandeliers}.json.

The JSON files are the data; this script only records how they were authored (the tables below
are the authoring decisions, written compactly). Run: python3 bench/make_gaudi_data.py
Then check: PYTHONPATH=python python3 -c "from tilecraft.games._gaudi_data import load_edition; load_edition()"
and print the count tables and listings of the docs: python3 bench/make_gaudi_data.py --stats (--tables)

Format: /work/briefs/gaudi_data_format.md (the schemas beside the files). No public component
list exists; every number here is authored for tilecraft (spec shared/rules/gaudi.md §10.8)."""
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "python", "tilecraft", "data", "gaudi")

COLOURS = ["blue", "green", "yellow", "red"]
# Gaudí-flavoured shape names: the four-armed cross of his towers, a leaf (Park Güell, the
# Sagrada Família's columns), a dragon scale (Casa Batlló's roof), the hexagonal "panot"
# pavement tile of Passeig de Gràcia.
SHAPES = ["cross", "leaf", "scale", "panot"]
CATEGORIES = ["facade", "metal_glass", "garden", "interior", "door", "tower", "sculpture",
              "ceiling_roof", "furniture"]
DOMAINS = ["nature", "catalan", "religion"]


# ---------------------------------------------------------------- effect shorthand
# v<n>        vp in the card's / tile's own domain (VN<n>, VC<n>, VR<n> name a domain)
# t           collect any tile;  t:<colour>, t:<shape>, t:<colour>/<shape>
# k           take a card of any domain;  k:<domain>
# p           play a card (requirement checked);  pi  play a card ignoring its requirement
# rn          resolve the Nature column;  rc<k>  resolve the Catalan column k times
# r1          resolve one Religion card early;  g  generic action;  x  extra turn

def effect(tok, domain=None):
    if tok[0] == "v" and tok[1:].isdigit():
        return {"type": "vp", "domain": domain, "n": int(tok[1:])}
    if tok[0] == "V":
        dom = {"N": "nature", "C": "catalan", "R": "religion"}[tok[1]]
        return {"type": "vp", "domain": dom, "n": int(tok[2:])}
    if tok == "t":
        return {"type": "collect_tile"}
    if tok.startswith("t:"):
        e = {"type": "collect_tile"}
        for part in tok[2:].split("/"):
            e["colour" if part in COLOURS else "shape"] = part
            assert part in COLOURS or part in SHAPES, tok
        return e
    if tok == "k":
        return {"type": "take_card"}
    if tok.startswith("k:"):
        assert tok[2:] in DOMAINS, tok
        return {"type": "take_card", "domain": tok[2:]}
    if tok == "p":
        return {"type": "play_card"}
    if tok == "pi":
        return {"type": "play_card", "ignore_requirement": True}
    if tok == "rn":
        return {"type": "resolve_nature"}
    if tok.startswith("rc"):
        return {"type": "resolve_catalan", "times": int(tok[2:])}
    return {"r1": {"type": "resolve_one_religion"}, "g": {"type": "generic"}, "x": {"type": "extra_turn"}}[tok]


def effects(text, domain=None):
    return [effect(t, domain) for t in text.split()] if text else []


# ---------------------------------------------------------------- board
# 6 x 6 grid of 2 x 2 "rosettes": every rosette holds the four shapes once, in a turned order,
# so each shape has 9 spaces spread over the whole board. Adjacency: grid edges (60 edges).

def board():
    spaces = [None] * 36
    for by in range(3):
        for bx in range(3):
            turn = (bx + 3 * by) % 4
            cells = [(0, 0), (1, 0), (1, 1), (0, 1)]  # TL TR BR BL: clockwise round the rosette
            for i, (dx, dy) in enumerate(cells):
                x, y = 2 * bx + dx, 2 * by + dy
                spaces[6 * y + x] = {"shape": SHAPES[(i + turn) % 4], "x": x, "y": y}
    edges = []
    for y in range(6):
        for x in range(6):
            if x < 5:
                edges.append([6 * y + x, 6 * y + x + 1])
            if y < 5:
                edges.append([6 * y + x, 6 * (y + 1) + x])
    return {"format": "tilecraft-gaudi-board", "version": 1, "spaces": spaces, "edges": edges,
            # The Nature column resolves at every Nature play, so its reward is small; the Catalan
            # column resolves a few times a game (central area x k, some chimneys), but its cards
            # carry more VP; both give 1 (see docs/gaudi.md, "Expected scores").
            "nature_reward": effects("v1", "nature"),
            "catalan_reward": effects("v1", "catalan")}


# ---------------------------------------------------------------- track
# One row per space: action, pencils, hammers. Actions: T (any tile), T:<colour>, T:<shape>,
# T:<colour>/<shape>; C (any card), C:<domain>; G generic; P play; X chimney.

def action(code):
    if code == "G":
        return {"type": "generic"}
    if code == "P":
        return {"type": "play"}
    if code == "X":
        return {"type": "chimney"}
    if code[0] == "T":
        a = {"type": "tile"}
        if ":" in code:
            for part in code[2:].split("/"):
                a["colour" if part in COLOURS else "shape"] = part
        return a
    if code[0] == "C":
        return {"type": "card", "domain": code[2:]} if ":" in code else {"type": "card"}
    raise ValueError(code)


DAY = [  # 40 spaces; the four colours enter at 0..3; 34..39 are red; 9 any-tile spaces
    ("T", 1, 0), ("C:nature", 1, 0), ("T:blue", 1, 1), ("C:catalan", 0, 1),
    ("T", 2, 0), ("G", 1, 0), ("T:green", 1, 1), ("C:religion", 1, 0),
    ("T:scale", 0, 2), ("P", 1, 0), ("T", 1, 1), ("C", 1, 0),
    ("T:yellow/cross", 1, 1), ("T:red", 1, 0), ("G", 0, 2), ("T:panot", 1, 1),
    ("C:nature", 1, 1), ("X", 1, 0), ("T", 2, 0), ("C:catalan", 1, 1),
    ("T", 0, 2), ("T", 1, 1), ("G", 1, 1), ("C:religion", 2, 0),
    ("T:yellow", 1, 1), ("P", 1, 1), ("T:scale", 1, 2), ("C", 0, 2),
    ("T", 1, 1), ("T:blue/panot", 1, 1), ("X", 1, 1), ("T:leaf", 2, 1),
    ("C:nature", 1, 1), ("G", 1, 1), ("T", 2, 1), ("C", 1, 2),
    ("T", 1, 1), ("G", 1, 1), ("T:panot", 2, 0), ("C", 1, 1),
]
NIGHT = [  # 38 spaces; fewer tiles per area at night (4), more chimney and play spaces; 32..37 red
    ("C:religion", 1, 0), ("T", 1, 0), ("C:nature", 0, 1), ("T:red", 1, 0),
    ("G", 1, 0), ("T", 1, 1), ("C:catalan", 1, 0), ("X", 0, 1),
    ("T:blue", 2, 0), ("P", 1, 0), ("T:leaf", 1, 1), ("C", 1, 0),
    ("T:green/scale", 1, 1), ("G", 0, 2), ("T:yellow", 1, 1), ("X", 1, 0),
    ("C:religion", 1, 1), ("T", 2, 0), ("P", 1, 1), ("T", 0, 2),
    ("C:nature", 1, 1), ("T", 1, 1), ("G", 1, 1), ("T:scale", 1, 2),
    ("C:catalan", 2, 0), ("X", 1, 1), ("T:blue/cross", 1, 1), ("C", 0, 2),
    ("T:green", 2, 1), ("G", 1, 1), ("T:yellow/panot", 1, 1), ("P", 1, 1),
    ("T", 2, 1), ("C", 1, 1), ("X", 1, 1), ("T", 1, 2),
    ("G", 1, 1), ("C", 2, 0),
]


# 2026-12-01 rebalance: every non-generic space prints one pencil more than its row (uses per
# turn were about 1.5; a generic space keeps pencils + hammers <= 2, GA-AMB-13).
EXTRA_PENCIL = 1


def face(rows, red_from, area_bonus, window_bonus):
    spaces = [{"action": action(a), "pencils": p + (EXTRA_PENCIL if a != "G" else 0), "hammers": h,
               "red": i >= red_from} for i, (a, p, h) in enumerate(rows)]
    return {"spaces": spaces, "entry": [0, 1, 2, 3],
            "area_bonus": [effects(b)[0] if b else None for b in area_bonus],
            "window_bonus": {d: (effects(b)[0] if b else None) for d, b in zip(DOMAINS, window_bonus)}}


def track():
    return {"format": "tilecraft-gaudi-track", "version": 1,
            "day": face(DAY, 34, ["VN2", "k", "t", "p", "VR2"], ["t", "VC2", "r1"]),
            "night": face(NIGHT, 32, ["t", "t", "k", "VC2", "g"], ["k:nature", "g", "VR2"])}


# ---------------------------------------------------------------- cards
# Per domain: 33 cards, requirement n = 1 (17: four per colour + one black), 2 (11: two per
# colour + three black), 3 (4: one per colour), 4 (1, black): 7 cards per colour, 5 black.
# Rows: (colour, n, banner). The Nature column resolves at every Nature play, so Nature banners
# are small; Catalan banners are larger (a few resolutions a game). No banner resolves a
# column: a Nature card that resolves Nature (or a Nature/Catalan pair resolving each other)
# would loop for ever, since column resolutions cannot be declined (GA-ORDER-2).

NATURE = [
    ("blue", 1, "v1"), ("green", 1, "v1"), ("yellow", 1, "v1"), ("red", 1, "v1"),
    ("blue", 1, "t:green"), ("green", 1, "t:yellow"), ("yellow", 1, "t:red"), ("red", 1, "t:blue"),
    ("blue", 1, "k:nature"), ("green", 1, "k:catalan"), ("yellow", 1, "k:religion"), ("red", 1, "k"),
    ("blue", 1, "t:leaf"), ("green", 1, "t:scale"), ("yellow", 1, "t:cross"), ("red", 1, "t:panot"),
    ("black", 1, "v1"),
    ("blue", 2, "v2"), ("green", 2, "v1 t"), ("yellow", 2, "v1 k"), ("red", 2, "v2"),
    ("blue", 2, "v1 g"), ("green", 2, "v1 r1"), ("yellow", 2, "t:yellow/leaf v1"), ("red", 2, "v1 p"),
    ("black", 2, "v1 t:cross"), ("black", 2, "v1 k:religion"), ("black", 2, "g"),
    ("blue", 3, "v2 t"), ("green", 3, "v2 k"), ("yellow", 3, "v1 x"), ("red", 3, "v2 g"),
    ("black", 4, "v3 t k"),
]
CATALAN = [
    ("blue", 1, "v2"), ("green", 1, "v2"), ("yellow", 1, "v2"), ("red", 1, "v2"),
    ("blue", 1, "v1 t:red"), ("green", 1, "v1 t:blue"), ("yellow", 1, "v1 t:green"), ("red", 1, "v1 t:yellow"),
    ("blue", 1, "v1 k"), ("green", 1, "v1 k:nature"), ("yellow", 1, "v1 k:religion"), ("red", 1, "v1 k:catalan"),
    ("blue", 1, "v1 t:scale"), ("green", 1, "v1 t:panot"), ("yellow", 1, "v1 t:leaf"), ("red", 1, "v1 t:cross"),
    ("black", 1, "v1 r1"),
    ("blue", 2, "v2 t"), ("green", 2, "v2 k"), ("yellow", 2, "v2 t"), ("red", 2, "v2 k"),
    ("blue", 2, "v3"), ("green", 2, "v1 p"), ("yellow", 2, "v2 r1"), ("red", 2, "v1 t:red/panot t:blue/leaf"),
    ("black", 2, "v1 g"), ("black", 2, "v2 r1"), ("black", 2, "v1 p"),
    ("blue", 3, "v3 t"), ("green", 3, "v2 t k"), ("yellow", 3, "v3 p"), ("red", 3, "v2 g r1"),
    ("black", 4, "v4 t k"),
]
# Religion: empty banners, a condition. ("per", vp, COUNT) = vp x count; ("if", vp, m, COUNT) =
# vp if count >= m. COUNT: ("category", c) ("distinct",) ("chimney", d) ("chimney_total",)
# ("shape", s) ("colour", c) ("largest_group",). Thresholds set from self-play (2026-12-01): a
# player ends with 6-8 tiles and 1-3 cards played, so "if" conditions ask for 2 of a category,
# 3 tiles of a colour or shape, a chimney total of 4, 4 distinct categories, a group of 3.
RELIGION = [
    ("blue", 1, ("per", 1, ("colour", "blue"))), ("green", 1, ("per", 1, ("colour", "green"))),
    ("yellow", 1, ("per", 1, ("colour", "yellow"))), ("red", 1, ("per", 1, ("colour", "red"))),
    ("blue", 1, ("per", 1, ("shape", "cross"))), ("green", 1, ("per", 1, ("shape", "leaf"))),
    ("yellow", 1, ("per", 1, ("shape", "scale"))), ("red", 1, ("per", 1, ("shape", "panot"))),
    ("blue", 1, ("per", 2, ("category", "facade"))), ("green", 1, ("per", 2, ("category", "metal_glass"))),
    ("yellow", 1, ("per", 2, ("category", "garden"))), ("red", 1, ("per", 2, ("category", "interior"))),
    ("blue", 1, ("per", 2, ("category", "door"))), ("green", 1, ("per", 2, ("category", "tower"))),
    ("yellow", 1, ("per", 2, ("category", "sculpture"))), ("red", 1, ("per", 2, ("category", "ceiling_roof"))),
    ("black", 1, ("per", 2, ("category", "furniture"))),
    ("blue", 2, ("if", 4, 2, ("category", "garden"))), ("green", 2, ("if", 4, 2, ("category", "tower"))),
    ("yellow", 2, ("if", 4, 2, ("category", "facade"))), ("red", 2, ("per", 1, ("distinct",))),
    ("blue", 2, ("per", 2, ("chimney", "nature"))), ("green", 2, ("per", 2, ("chimney", "catalan"))),
    ("yellow", 2, ("per", 2, ("chimney", "religion"))), ("red", 2, ("per", 1, ("largest_group",))),
    ("black", 2, ("if", 5, 4, ("chimney_total",))), ("black", 2, ("if", 4, 3, ("shape", "leaf"))),
    ("black", 2, ("if", 4, 3, ("shape", "panot"))),
    ("blue", 3, ("if", 4, 3, ("colour", "blue"))), ("green", 3, ("per", 1, ("chimney_total",))),
    ("yellow", 3, ("if", 4, 3, ("colour", "yellow"))), ("red", 3, ("if", 5, 4, ("distinct",))),
    ("black", 4, ("if", 5, 3, ("largest_group",))),
]
# Requirements as printed (2026-12-01 rebalance, docs/journal/2026-12-01-gaudi-edition-self-play.md):
# players hold 6-8 tiles, so the rows' authoring level n maps to a lower printed requirement:
# coloured n = 1, 2 -> 1 and n = 3 -> 2; black n = 1 -> 1, n = 2, 3, 4 -> 2. Per domain 25 cards
# need 1 tile and 8 need 2 (the column's requirement is cumulative, so it still grows).
REQUIREMENT = {False: {1: 1, 2: 1, 3: 2, 4: 2}, True: {1: 1, 2: 2, 3: 2, 4: 2}}
# Which cards of each domain are Gaudí's life (wild): one at n = 1, one at n = 2, one at n = 3
# (indices into the domain's rows above).
LIFE = {"nature": (6, 19, 30), "catalan": (9, 22, 29), "religion": (16, 27, 30)}
# Categories: 10 cards of each ordinary category (90) + 9 Gaudí's life. Each domain has 30
# ordinary cards: 4 of its three "home" categories and 3 of the other six.
HOME = {"nature": ("garden", "sculpture", "ceiling_roof"),
        "catalan": ("facade", "door", "metal_glass"),
        "religion": ("tower", "interior", "furniture")}

BUILDINGS = ["Sagrada Família", "Park Güell", "Casa Batlló", "Casa Milà", "Palau Güell", "Casa Vicens",
             "Colònia Güell", "El Capricho", "Bellesguard", "Casa Calvet", "Finca Güell", "Casa Botines"]
NOUNS = {"facade": ["façade", "frontage"], "metal_glass": ["ironwork", "stained glass"],
         "garden": ["garden", "terrace"], "interior": ["hall", "salon"], "door": ["gate", "door"],
         "tower": ["tower", "spire"], "sculpture": ["sculpture", "carving"],
         "ceiling_roof": ["roof", "vault"], "furniture": ["bench", "chairs"]}
LIFE_NAMES = ["Childhood in Reus", "Coppersmith's workshop", "Diploma in architecture", "Meeting Eusebi Güell",
              "Showcase in Paris", "Commission of the Sagrada Família", "Walks on Montserrat",
              "Models of hanging chains", "Workshop beside the crypt"]


def count_obj(c):
    kind = c[0]
    if kind == "category":
        return {"kind": "category", "category": c[1]}
    if kind == "distinct":
        return {"kind": "distinct_categories"}
    if kind == "chimney":
        return {"kind": "chimney", "domain": c[1]}
    if kind == "chimney_total":
        return {"kind": "chimney_total"}
    if kind == "shape":
        return {"kind": "shape", "shape": c[1]}
    if kind == "colour":
        return {"kind": "colour", "colour": c[1]}
    if kind == "largest_group":
        return {"kind": "largest_group"}
    raise ValueError(c)


def category_order(domain):
    """The 30 ordinary categories of a domain, interleaved so each category spreads over n."""
    counts = {c: (4 if c in HOME[domain] else 3) for c in CATEGORIES}
    out = []
    while len(out) < 30:
        for c in CATEGORIES:
            if counts[c]:
                out.append(c)
                counts[c] -= 1
    # rotate by domain so the home categories do not all start each domain
    r = 3 * DOMAINS.index(domain)
    return out[r:] + out[:r]


def cards():
    out = []
    used_names = collections.Counter()
    life_names = iter(LIFE_NAMES)
    for d, rows in zip(DOMAINS, (NATURE, CATALAN, RELIGION)):
        assert len(rows) == 33, (d, len(rows))
        cats = iter(category_order(d))
        for i, (colour, n, text) in enumerate(rows):
            cid = len(out)
            if i in LIFE[d]:
                category, name = "gaudi_life", next(life_names)
            else:
                category = next(cats)
                k = used_names[category]
                used_names[category] += 1
                noun = NOUNS[category][k % 2]
                name = f"{BUILDINGS[(k + 3 * CATEGORIES.index(category)) % len(BUILDINGS)]} {noun}"
            card = {"id": cid, "name": name, "domain": d, "category": category,
                    "requirement": {"colour": colour, "n": REQUIREMENT[colour == "black"][n]}}
            if d == "religion":
                card["banner"] = []
                if text[0] == "per":
                    card["religion"] = {"vp": text[1], "per": count_obj(text[2])}
                else:
                    card["religion"] = {"vp": text[1], "if_at_least": text[2], "count": count_obj(text[3])}
                card["automa_vp"] = text[1]  # the printed VP, multiplier counted as 1 (GA-SOLO-END-3)
            else:
                card["banner"] = effects(text, d)
                card["automa_vp"] = sum(e["n"] for e in card["banner"] if e["type"] == "vp")
            out.append(card)
    names = [c["name"] for c in out]
    assert len(set(names)) == 99, [n for n, k in collections.Counter(names).items() if k > 1]
    return {"format": "tilecraft-gaudi-cards", "version": 1, "cards": out}


# ---------------------------------------------------------------- chimneys
# A face: rows (shape, n, reward text, end effect or None, ability or None), bottom to top.
# Rewards use the domain of the tile for "v<n>". Ends: ("vp", d, n), ("per", d, n, COUNT),
# ("add", n), ("swap",). Abilities: ("cat", category, effects) or ("dom", domain, effects).

def end_obj(e):
    if e is None:
        return None
    if e[0] == "vp":
        return {"type": "end_vp", "domain": e[1], "n": e[2]}
    if e[0] == "per":
        return {"type": "end_vp_per", "domain": e[1], "n": e[2], "count": count_obj(e[3])}
    if e[0] == "add":
        return {"type": "end_add", "n": e[1]}
    if e[0] == "swap":
        return {"type": "end_swap"}
    raise ValueError(e)


NIGHT_COUNT = {1: 1, 2: 1, 3: 2, 4: 3}


def chimney_face(domain, rows, counts=None):
    spaces = []
    for shape, n, reward, end, ability in rows:
        sp = {"requirement": {"shape": shape, "n": counts[n] if counts else n}, "reward": effects(reward, domain)}
        if end is not None:
            sp["end_effect"] = end_obj(end)
        if ability is not None:
            kind, what, eff = ability
            trig = ({"type": "on_play_category", "category": what} if kind == "cat"
                    else {"type": "on_play_domain", "domain": what})
            sp["ability"] = {"trigger": trig, "effects": effects(eff, domain)}
        spaces.append(sp)
    return {"spaces": spaces}


CHIMNEY_DAY = {  # counts 1, 1, 2, 2, 3: self-play players end with 6-8 tiles, 1-2 of a shape
    "nature": [("cross", 1, "t", None, None), ("leaf", 1, "v2", None, None), ("scale", 2, "rn", None, None),
               ("panot", 2, "pi", None, None), ("leaf", 3, "v3 x", ("vp", "nature", 3), None)],
    "catalan": [("panot", 1, "k:catalan", None, None), ("cross", 1, "v1", ("add", 3), None),
                ("scale", 2, "rc1", None, None), ("leaf", 2, "t v1", None, None),
                ("panot", 3, "rc1", ("vp", "catalan", 3), None)],
    "religion": [("leaf", 1, "v1", None, None), ("scale", 1, "r1", None, None), ("cross", 2, "k:religion", None, None),
                 ("panot", 2, "r1 v2", None, None),
                 ("scale", 3, "v2", ("per", "religion", 1, ("distinct",)), None)],
}
# Night faces (expert: the tiles of a requirement must be one connected group, GA-EXP-8). Four
# different tiles per domain, with persistent abilities. Authored with counts 1..4; printed as
# NIGHT_COUNT maps them (1, 1, 2, 3), like the day faces' lowered counts.
CHIMNEY_NIGHT = {
    "nature": [
        [("leaf", 1, "t:leaf", None, ("cat", "garden", "v1")), ("scale", 2, "v2", None, None),
         ("cross", 3, "rn", None, None), ("panot", 4, "x", ("vp", "nature", 3), None)],
        [("cross", 1, "k:nature", None, None), ("leaf", 2, "v1", None, ("dom", "nature", "t")),
         ("scale", 3, "pi", None, None), ("leaf", 4, "v3", ("per", "nature", 1, ("largest_group",)), None)],
        [("scale", 1, "v1", None, ("cat", "sculpture", "k")), ("panot", 2, "t", None, None),
         ("leaf", 3, "rn", None, None), ("cross", 4, "v2 x", None, None)],
        [("panot", 1, "t:green", None, None), ("cross", 2, "v2", None, ("cat", "ceiling_roof", "v2")),
         ("scale", 3, "k", None, None), ("leaf", 4, "rn", ("add", 3), None)],
    ],
    "catalan": [
        [("panot", 1, "v1", None, None), ("cross", 2, "k:catalan", ("swap",), None),
         ("leaf", 3, "rc1", None, None), ("scale", 4, "v3", None, ("dom", "catalan", "v1"))],
        [("cross", 1, "t", None, None), ("scale", 2, "v1", ("vp", "catalan", 4), None),
         ("panot", 3, "v1", None, ("cat", "facade", "t")), ("leaf", 4, "rc1", None, None)],
        [("leaf", 1, "k", None, ("cat", "door", "v1")), ("panot", 2, "v2", ("add", 2), None),
         ("cross", 3, "pi", None, None), ("scale", 4, "rc1 v1", None, None)],
        [("scale", 1, "v1", None, None), ("leaf", 2, "t:panot", ("per", "catalan", 1, ("distinct",)), None),
         ("panot", 3, "v1", None, ("cat", "metal_glass", "k:catalan")), ("cross", 4, "rc1", ("vp", "catalan", 3), None)],
    ],
    "religion": [
        [("leaf", 1, "v1", None, None), ("scale", 2, "r1", None, ("dom", "religion", "v1")),
         ("panot", 3, "k:religion", None, None), ("cross", 4, "v2", ("per", "religion", 1, ("chimney_total",)), None)],
        [("cross", 1, "k:religion", None, None), ("panot", 2, "v2", None, ("cat", "tower", "r1")),
         ("leaf", 3, "pi", None, None), ("scale", 4, "v2", ("swap",), None)],
        [("scale", 1, "t", None, None), ("cross", 2, "v1", None, ("cat", "interior", "v2")),
         ("leaf", 3, "r1", None, None), ("panot", 4, "x", ("vp", "religion", 5), None)],
        [("panot", 1, "v1", None, ("cat", "furniture", "t")), ("leaf", 2, "k", None, None),
         ("scale", 3, "r1 v1", None, None), ("cross", 4, "v2", ("add", 3), None)],
    ],
}


def chimneys():
    tiles = []
    for d in DOMAINS:
        for k in range(4):
            tiles.append({"id": len(tiles), "domain": d, "day": chimney_face(d, CHIMNEY_DAY[d]),
                          "night": chimney_face(d, CHIMNEY_NIGHT[d][k], NIGHT_COUNT)})
    return {"format": "tilecraft-gaudi-chimneys", "version": 1, "tiles": tiles}


# ---------------------------------------------------------------- chandeliers
# (a, b): one option resolves the Catalan column k times (k = 1..3; the fewer times, the more it
# adds); the other is a bundle of about the same worth. No extra turn here: the marker leaves
# the board at the central area, so an extra turn would always be lost (GA-AMB-33).
CHANDELIERS = [
    ("rc1 VC2", "k k"),
    ("t t VN1", "rc2"),
    ("rc3", "rn"),
    ("rc1 k:catalan", "p VR2"),
    ("r1 VR1", "rc2"),
    ("rc1 t", "g g"),
    ("rc2", "pi VN1"),
]


def chandeliers():
    return {"format": "tilecraft-gaudi-chandeliers", "version": 1,
            "tiles": [{"id": i, "a": effects(a), "b": effects(b)} for i, (a, b) in enumerate(CHANDELIERS)]}


def components():
    return {"format": "tilecraft-gaudi-components", "version": 1, "colours": COLOURS, "shapes": SHAPES,
            "categories": CATEGORIES}


# ---------------------------------------------------------------- output

def dump(obj, path, list_keys=()):
    """Readable JSON: one line per item of the big lists (spaces, cards, ...)."""
    def enc(o, indent, key=None):
        pad = " " * indent
        if isinstance(o, dict):
            inner = [f'{pad} {json.dumps(k, ensure_ascii=False)}: {enc(v, indent + 1, k)}' for k, v in o.items()]
            return "{\n" + ",\n".join(inner) + "\n" + pad + "}"
        if isinstance(o, list) and key in list_keys and o:
            inner = [pad + "  " + json.dumps(x, ensure_ascii=False) for x in o]
            return "[\n" + ",\n".join(inner) + "\n" + pad + " ]"
        return json.dumps(o, ensure_ascii=False)
    with open(path, "w", encoding="utf-8") as f:
        f.write(enc(obj, 0) + "\n")


NOTES = ("tilecraft's default Gaudí edition: a reconstruction, not a transcription (no public component list "
         "exists). Replace it with your own files (docs/gaudi.md). Authored by bench/make_gaudi_data.py.")


def all_files():
    files = {"components": components(), "board": board(), "track": track(), "cards": cards(),
             "chimneys": chimneys(), "chandeliers": chandeliers()}
    for kind, obj in files.items():  # "notes" right after "format" and "version"
        files[kind] = dict(list(obj.items())[:2] + [("notes", NOTES)] + list(obj.items())[2:])
    return files


def effect_lists(files):
    """(where, list) for every effect list of the edition."""
    b = files["board"]
    yield "board", b["nature_reward"]
    yield "board", b["catalan_reward"]
    for f in ("day", "night"):
        fc = files["track"][f]
        for e in fc["area_bonus"] + list(fc["window_bonus"].values()):
            if e:
                yield f"track {f} bonus", [e]
    for c in files["cards"]["cards"]:
        yield f"{c['domain']} card", c["banner"]
    for t in files["chimneys"]["tiles"]:
        for f in ("day", "night"):
            if f == "day" and t["id"] % 4:
                continue  # identical day faces: count each domain's once
            for sp in t[f]["spaces"]:
                yield f"chimney {f}", sp["reward"]
                if "ability" in sp:
                    yield f"ability {f}", sp["ability"]["effects"]
    for t in files["chandeliers"]["tiles"]:
        yield "chandelier", t["a"]
        yield "chandelier", t["b"]


def check(files):
    """The authoring rules of the brief that the loader does not check."""
    cs = files["cards"]["cards"]
    for c in cs:
        for e in c["banner"]:
            assert e["type"] not in ("resolve_nature", "resolve_catalan", "advance_chimney"), c
        assert len(c["banner"]) <= 3
    types = collections.Counter(e["type"] for _, lst in effect_lists(files) for e in lst)
    for t in ("vp", "collect_tile", "take_card", "play_card", "resolve_nature", "resolve_catalan",
              "resolve_one_religion", "generic", "extra_turn"):
        assert types[t], t
    assert not types["advance_chimney"]
    kinds = {c["religion"].get("per", c["religion"].get("count"))["kind"] for c in cs if c["domain"] == "religion"}
    assert len(kinds) == 7, kinds
    ends = {sp["end_effect"]["type"] for t in files["chimneys"]["tiles"] for f in ("day", "night")
            for sp in t[f]["spaces"] if "end_effect" in sp}
    assert ends == {"end_vp", "end_vp_per", "end_add", "end_swap"}, ends
    for f in ("day", "night"):
        acts = {json.dumps(sp["action"], sort_keys=True) for sp in files["track"][f]["spaces"]}
        kinds = {(a["type"], tuple(sorted(k for k in a if k != "type"))) for a in map(json.loads, acts)}
        for need in [("tile", ()), ("tile", ("colour",)), ("tile", ("shape",)), ("tile", ("colour", "shape")),
                     ("card", ()), ("generic", ()), ("play", ()), ("chimney", ())]:
            assert need in kinds, (f, need)
        assert {a.get("domain") for a in map(json.loads, acts) if a["type"] == "card"} >= set(DOMAINS)
        for sp in files["track"][f]["spaces"]:
            assert sp["pencils"] + sp["hammers"] >= 1
    for t in files["chandeliers"]["tiles"]:
        assert sum(1 for e in t["a"] + t["b"] if e["type"] == "resolve_catalan") == 1


def stats(files):
    """The count tables of docs/gaudi.md (markdown)."""
    cs = files["cards"]["cards"]
    lines = ["Cards per domain x category:", "",
             "| category | " + " | ".join(DOMAINS) + " | total |", "|---|---|---|---|---|"]
    for cat in CATEGORIES + ["gaudi_life"]:
        row = [sum(1 for c in cs if c["domain"] == d and c["category"] == cat) for d in DOMAINS]
        lines.append(f"| {cat} | " + " | ".join(map(str, row)) + f" | {sum(row)} |")
    lines += ["", "Requirements (per domain; the three domains are the same):", "",
              "| colour | n=1 | n=2 | n=3 | n=4 | total |", "|---|---|---|---|---|---|"]
    for col in COLOURS + ["black"]:
        row = [sum(1 for c in cs if c["domain"] == "nature" and c["requirement"] == {"colour": col, "n": n})
               for n in (1, 2, 3, 4)]
        lines.append(f"| {col} | " + " | ".join(map(str, row)) + f" | {sum(row)} |")
    lines += ["", "Effect types (every effect list of the edition; each domain's identical day chimney counted once):", "",
              "| effect | " + " | ".join(["board", "bonuses", "Nature cards", "Catalan cards", "chimneys day",
                                          "chimneys night", "abilities", "chandeliers"]) + " |",
              "|---" * 9 + "|"]
    groups = ["board", "bonus", "nature card", "catalan card", "chimney day", "chimney night", "ability", "chandelier"]
    table = collections.defaultdict(collections.Counter)
    for where, lst in effect_lists(files):
        if not lst:
            continue  # Religion banners
        g = next(g for g in groups if g in where)
        for e in lst:
            t = e["type"] + ("(ignore)" if e.get("ignore_requirement") else "")
            table[t][g] += 1
    for t in sorted(table):
        lines.append(f"| {t} | " + " | ".join(str(table[t][g]) for g in groups) + " |")
    lines += ["", "Religion conditions:", ""]
    rel = collections.Counter()
    for c in cs:
        if c["domain"] == "religion":
            r = c["religion"]
            rel[(r.get("per", r.get("count"))["kind"], "per" if "per" in r else "if_at_least")] += 1
    lines += ["| count kind | n x count | n if count >= m |", "|---|---|---|"]
    for kind in ("category", "distinct_categories", "chimney", "chimney_total", "shape", "colour", "largest_group"):
        lines.append(f"| {kind} | {rel[(kind, 'per')]} | {rel[(kind, 'if_at_least')]} |")
    for f in ("day", "night"):
        sp = files["track"][f]["spaces"]
        acts = collections.Counter()
        for s in sp:
            a = s["action"]
            key = a["type"] + ("(" + "+".join(k for k in ("colour", "shape", "domain") if k in a) + ")" if len(a) > 1 else "")
            acts[key] += 1
        lines += ["", f"Track, {f} face: {len(sp)} spaces, {sum(s['red'] for s in sp)} red, "
                  f"{sum(s['pencils'] for s in sp)} pencils, {sum(s['hammers'] for s in sp)} hammers; actions: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(acts.items()))]
    return "\n".join(lines)


def short(e):
    """An effect in the docs' shorthand."""
    t = e["type"]
    if t == "vp":
        return f"{e['n']} {e['domain'][0].upper()}VP"
    if t == "collect_tile":
        what = "/".join(e[k] for k in ("colour", "shape") if k in e) or "any"
        return f"tile({what})"
    if t == "take_card":
        return f"card({e.get('domain', 'any')})"
    if t == "play_card":
        return "play(free)" if e.get("ignore_requirement") else "play"
    if t == "resolve_catalan":
        return f"resolve C x{e.get('times', 1)}"
    return {"resolve_nature": "resolve N", "resolve_one_religion": "resolve 1 R", "generic": "generic",
            "extra_turn": "extra turn", "advance_chimney": "chimney"}[t]


def short_count(c):
    k = c["kind"]
    return {"category": lambda: c["category"], "distinct_categories": lambda: "distinct categories",
            "chimney": lambda: f"{c['domain']} chimney", "chimney_total": lambda: "chimney total",
            "shape": lambda: f"{c['shape']} tiles", "colour": lambda: f"{c['colour']} tiles",
            "largest_group": lambda: "largest group"}[k]()


def short_end(e):
    t = e["type"]
    if t == "end_vp":
        return f"end: {e['n']} {e['domain'][0].upper()}VP"
    if t == "end_vp_per":
        return f"end: {e['n']} {e['domain'][0].upper()}VP per {short_count(e['count'])}"
    if t == "end_add":
        return f"end: +{e['n']} to a domain"
    return "end: swap two domains"


def tables(files):
    """Listings of the edition for docs/gaudi.md (markdown)."""
    out = []
    b = files["board"]["spaces"]
    out += ["Board (row y = 0 at the top):", "", "```"]
    for y in range(6):
        out.append(" ".join(f"{b[6 * y + x]['shape']:6}" for x in range(6)).rstrip())
    out += ["```", ""]
    for f in ("day", "night"):
        fc = files["track"][f]
        out += [f"Track, {f} face (entry of colours 0-3: {fc['entry']}):", "",
                "| # | action | pencils | hammers | red |", "|---|---|---|---|---|"]
        for i, sp in enumerate(fc["spaces"]):
            a = sp["action"]
            desc = a["type"] + ("(" + "/".join(a[k] for k in ("colour", "shape", "domain") if k in a) + ")" if len(a) > 1 else "")
            out.append(f"| {i} | {desc} | {sp['pencils']} | {sp['hammers']} | {'red' if sp['red'] else ''} |")
        ab = ", ".join(short(e) if e else "-" for e in fc["area_bonus"])
        wb = ", ".join(f"{d}: {short(e) if e else '-'}" for d, e in fc["window_bonus"].items())
        out += ["", f"Bonuses, {f}: supply areas 0-4: {ab}; windows: {wb}.", ""]
    out += ["Cards:", "", "| id | name | domain | category | requirement | banner / Religion condition | automa VP |",
            "|---|---|---|---|---|---|---|"]
    for c in files["cards"]["cards"]:
        if c["domain"] == "religion":
            r = c["religion"]
            what = (f"{r['vp']} RVP per {short_count(r['per'])}" if "per" in r
                    else f"{r['vp']} RVP if {short_count(r['count'])} >= {r['if_at_least']}")
        else:
            what = ", ".join(short(e) for e in c["banner"])
        req = c["requirement"]
        out.append(f"| {c['id']} | {c['name']} | {c['domain']} | {c['category']} | {req['colour']} {req['n']} | {what} | "
                   f"{c['automa_vp']} |")
    out += ["", "Chimney tiles (spaces bottom to top: requirement -> reward; end effects and abilities):", ""]
    def face_text(d, fc):
        parts = []
        for sp in fc["spaces"]:
            r = sp["requirement"]
            txt = f"{r['n']} {r['shape']} -> " + ", ".join(short(e) for e in sp["reward"])
            if "end_effect" in sp:
                txt += f" [{short_end(sp['end_effect'])}]"
            if "ability" in sp:
                tr = sp["ability"]["trigger"]
                on = tr.get("category", tr.get("domain"))
                txt += f" [ability: on playing {on}: " + ", ".join(short(e) for e in sp["ability"]["effects"]) + "]"
            parts.append(txt)
        return "; ".join(parts)
    for t in files["chimneys"]["tiles"]:
        if t["id"] % 4 == 0:
            out.append(f"- {t['domain']} day (tiles {t['id']}-{t['id'] + 3}): {face_text(t['domain'], t['day'])}")
    for t in files["chimneys"]["tiles"]:
        out.append(f"- tile {t['id']} ({t['domain']}) night: {face_text(t['domain'], t['night'])}")
    out += ["", "Central chandelier tiles:", "", "| id | option a | option b |", "|---|---|---|"]
    for t in files["chandeliers"]["tiles"]:
        out.append(f"| {t['id']} | " + ", ".join(short(e) for e in t["a"]) + " | " + ", ".join(short(e) for e in t["b"]) + " |")
    return "\n".join(out)


def main():
    files = all_files()
    check(files)
    if "--stats" in sys.argv:
        print(stats(files))
        return
    if "--tables" in sys.argv:
        print(tables(files))
        return
    os.makedirs(OUT, exist_ok=True)
    keys = {"board": ("spaces", "edges"), "cards": ("cards",), "track": ("spaces",),
            "chimneys": ("spaces",), "chandeliers": ("tiles",)}
    for kind, obj in files.items():
        dump(obj, os.path.join(OUT, f"{kind}.json"), keys.get(kind, ()))


if __name__ == "__main__":
    main()
