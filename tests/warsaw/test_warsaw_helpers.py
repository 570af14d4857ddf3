"""Helpers for the Warsaw rule tests: a purpose-built fixture deck and a way to set up districts,
hands and coins through the saved-state format (every edited state passes State.validate())."""
from __future__ import annotations

import json
import os
from typing import Dict, List, Optional, Sequence, Tuple

import tilecraft
from tilecraft.games import warsaw as W

# card locations (WarsawState.locations(); hand, pending and district are bases: + seat)
LOC_REMOVED, LOC_BOX_UNSEEN, LOC_SOLD, LOC_HAND, LOC_PENDING, LOC_DISTRICT = (
    tilecraft.WarsawState.locations()[k] for k in ("removed", "box_unseen", "sold", "hand", "pending", "district"))
LOC_MILESTONE_DISCARDED = tilecraft.WarsawState.locations()["milestone_discarded"]
# card ids (WarsawState.card_ids()): era cards, then one starting card per seat, then the milestones
START_BASE, MILE_BASE = (tilecraft.WarsawState.card_ids()[k][0] for k in ("start", "milestone"))


_quads = W.quadrants_from_letters


# Eras I..V: a catalogue of simple cards (16 each). Era VI: the public buildings and more (32).
CATALOGUE = [(1, "R R R R")] * 3 + [(1, "P P P P")] * 3 + [(2, "C C C C")] * 2 + [(2, "I1 I I I")] * 2 + \
            [(2, "U1 U U U")] * 2 + [(1, "T T T T")] * 2 + [(2, "R R P P"), (3, "R R C C")]
ERA6 = [(3, {"effect": "arsenal"}, "Arsenal"), (3, {"effect": "sigismund"}, "Sigismund"),
        (4, {"effect": "jablonowski"}, "Jablonowski"), (5, {"effect": "prudential"}, "Prudential"),
        (4, {"effect": "exchange", "amount": 2, "limit": 3}, "Exchange"),
        (4, {"effect": "per_area", "type": "cultural", "amount": 1, "resource": "vp"}, "PerCultural"),
        (3, {"effect": "adjacent", "type": "residential", "amount": 1, "resource": "vp"}, "AdjResidential"),
        (2, {"effect": "flat", "amount": 2, "resource": "coins"}, "FlatCoins"),
        (6, {"effect": "per_public", "amount": 1, "resource": "vp"}, "PerPublic")]
ERA6_NORMAL = [(1, "R R R R")] * 4 + [(1, "P P P P")] * 3 + [(2, "C C C C")] * 3 + [(3, "I2 I I I")] * 2 + \
              [(4, "U2 U U U")] * 2 + [(1, "T T T T")] * 2 + [(2, "R R P P")] * 2 + [(3, "R R C C"), (7, "R R R R")] + \
              [(3, "R P C I1")] * 2 + [(4, "R C R C")]


DEAL_FIRST = ["PPPP@1", "CCCC@2", "TTTT@1", "RRPP@2", "I2III@3", "U2UUU@4", "RRRR@1"]


def _fixture_names():
    names = []
    for era in range(1, 6):
        names += [f"{spec.replace(' ', '')}@{price}" for price, spec in CATALOGUE]
    names += [name for _, _, name in ERA6]
    names += [f"{spec.replace(' ', '')}@{price}" for price, spec in ERA6_NORMAL]
    return names


def write_fixture(directory: str, milestones: Optional[List[Dict]] = None, park_table=None, special_era: int = 6) -> str:
    """Writes the fixture data set; returns the directory. Card names are 'LAYOUT@price' or the
    public building's name; both sides of each milestone are equal, so setup's random side does
    not matter."""
    os.makedirs(directory, exist_ok=True)
    cards = []
    for era in range(1, 6):
        for k, (price, spec) in enumerate(CATALOGUE):
            cards.append({"id": f"{era}-{k}", "name": f"{spec.replace(' ', '')}@{price}", "era": era, "price": price,
                          "quadrants": _quads(spec)})
    for k, (price, eff, name) in enumerate(ERA6):
        cards.append({"id": f"6-{k}", "name": name, "era": special_era, "price": price, "whole_card": dict(kind="public", **eff)})
    for k, (price, spec) in enumerate(ERA6_NORMAL):
        cards.append({"id": f"6-n{k}", "name": f"{spec.replace(' ', '')}@{price}", "era": 6, "price": price,
                      "quadrants": _quads(spec)})
    data = {"format": "tilecraft.warsaw.cards", "version": 1, "start_card": {"quadrants": _quads("P R R P")},
            "park_table": park_table or [0, 1, 2, 3, 5, 7, 10, 13, 16], "park_extra_per_area": 3, "cards": cards}
    flat = {"effect": "flat", "amount": 1, "resource": "vp"}
    if milestones is None:
        conds = [dict(condition="most_areas_of", type="residential"), dict(condition="most_areas"),
                 dict(condition="most_public_buildings"), dict(condition="most_overbuilt_positions"),
                 dict(condition="fewest_areas")]
        milestones = [dict(c, effect=flat) for c in conds]
    miles = {"format": "tilecraft.warsaw.milestones", "version": 1,
             "milestones": [{"slot": i + 1, "sides": [m, m]} for i, m in enumerate(milestones)]}
    with open(os.path.join(directory, "cards.json"), "w") as f:
        json.dump(data, f)
    with open(os.path.join(directory, "milestones.json"), "w") as f:
        json.dump(miles, f)
    return directory




class Fixture:
    """A fixture data directory plus name -> card ids lookups."""

    def __init__(self, directory: str, **kw):
        self.dir = write_fixture(directory, **kw)
        data = W.load_data(self.dir)
        self.names = data["names"]
        self.era = data["config"]["card_era"]

    def ids(self, name: str, era: Optional[int] = None) -> List[int]:
        return [i for i, n in enumerate(self.names) if n == name and (era is None or self.era[i] == era)]

    def make(self, players: int = 2, seed: int = 0, **options):
        return tilecraft.make("warsaw", players=players, seed=seed, data=self.dir, **options)


def to_era(state, era: int, hands: Optional[Dict[int, Sequence[int]]] = None):
    """The same game moved to the start of `era`'s draft: earlier eras' cards are in the box, this
    era's deck dealt (hands[seat] if given, else the first cards), earlier milestones discarded."""
    d = json.loads(state.to_json())
    s = d["state"]
    n = d["config"]["players"]
    eras = d["config"]["card_era"]
    num = d["config"]["num_cards"]
    s["era"], s["round"], s["phase"], s["current"], s["chosen"] = era, 0, 0, 0, 0
    deck = [c for c in range(num) if eras[c] == era]
    hands = {p: list(h) for p, h in (hands or {}).items()}
    used = {c for h in hands.values() for c in h}
    free = [c for c in deck if c not in used]
    if era == 6 and num == 112:  # the fixture: deal plain cards first, keep the specials for districts
        order = {n: k for k, n in enumerate(DEAL_FIRST)}
        free.sort(key=lambda c: (order.get(_fixture_names()[c], 99), c))
    for p in range(n):
        if p not in hands:
            hands[p] = [free.pop(0) for _ in range(4)]
    for c in range(num):
        s["card_loc"][c] = LOC_REMOVED if eras[c] < era else 0
    for c in deck:
        s["card_loc"][c] = LOC_BOX_UNSEEN
    for p in range(4):
        s["hand"][p] = [255] * 4
        s["hand_size"][p] = 0
        s["seen"][p] = [0, 0]
        s["pending_card"][p] = 255
    for p in range(n):
        h = sorted(hands[p])
        s["hand"][p] = h + [255] * (4 - len(h))
        s["hand_size"][p] = len(h)
        for c in h:
            s["card_loc"][c] = LOC_HAND + p
            s["seen"][p][c >> 6] |= 1 << (c & 63)
    for i in range(5):
        if i + 1 < era:
            s["mile_owner"][i] = -2
            s["card_loc"][MILE_BASE + i] = LOC_MILESTONE_DISCARDED
    return type(state).from_json(json.dumps(d))


def set_district(state, seat: int, stacks: Dict[Tuple[int, int], Sequence[Tuple[int, int]]],
                 coins: Optional[int] = None, vp: Optional[int] = None):
    """A copy of `state` where seat's district is exactly `stacks`: {(x, y): [(card, rotation), ...]}
    bottom to top (card -1 = the seat's starting card). Cards leaving the district go to the box."""
    d = json.loads(state.to_json())
    s = d["state"]
    for c, loc in enumerate(s["card_loc"]):
        if loc == LOC_DISTRICT + seat:
            s["card_loc"][c] = LOC_REMOVED
            s["card_cell"][c] = 0
    xs = [x for x, _ in stacks]
    ys = [y for _, y in stacks]
    ax, ay = min(xs) - 2, min(ys) - 2
    s["anchor_x"][seat], s["anchor_y"][seat] = ax, ay
    occ = 0
    top, rot, height = [255] * 64, [0] * 64, [0] * 64
    seq = s["build_seq"]
    for (x, y), cards in stacks.items():
        local = (y - ay) * 8 + (x - ax)
        occ |= 1 << local
        for card, r in cards:
            if card == -1:
                card = START_BASE + seat
            if card >= MILE_BASE:
                s["mile_owner"][card - MILE_BASE] = seat
            seq += 1
            s["card_loc"][card] = LOC_DISTRICT + seat
            s["card_cell"][card] = W.cell(x, y)
            s["built_at"][card] = seq
            top[local], rot[local] = card, r
        height[local] = len(cards)
    s["build_seq"] = seq
    s["occupied"][seat], s["top"][seat], s["rot"][seat], s["height"][seat] = occ, top, rot, height
    if coins is not None:
        s["coins"][seat] = coins
    if vp is not None:
        s["vp"][seat] = vp
    return type(state).from_json(json.dumps(d))


def play(state, *actions):
    for a in actions:
        state.apply(int(a))
    return state


def round_of(state, picks: Optional[Dict[int, int]] = None, actions: Optional[Dict[int, int]] = None):
    """One pick-and-resolve round: seat p picks card picks[p] (else its first card) and resolves
    with actions[p] (else sells)."""
    picks, actions = picks or {}, actions or {}
    assert state.phase_name() == "picking cards"
    while state.phase_name() == "picking cards":
        p = state.current_player()
        hand = state.hand(p)
        state.apply(hand.index(picks[p]) if p in picks else 0)
    while state.phase_name() == "selling or building":
        p = state.current_player()
        state.apply(int(actions.get(p, W.SELL)))
    return state


def sell_out(state):
    """Everyone picks its first card and sells until the draft of this era is over."""
    era = state.era()
    while state.phase_name() in ("picking cards", "selling or building") and state.era() == era:
        state.apply(0 if state.phase_name() == "picking cards" else W.SELL)
    return state
