"""The default edition's event cards (WA-AMB-3, WA-AMB-4): 24 = the 5 milestone cards plus 19 public
buildings, every era deck still 16 cards, each public building a different effect; and the effect
of every income-paying public building of the shipped data on a district built for it. Expected
values are counted by hand in each case."""
from __future__ import annotations

import json
import os

import pytest

import tilecraft
from tilecraft.games import warsaw as W
from test_warsaw_helpers import set_district, to_era


def _cards():
    with open(os.path.join(W.DEFAULT_DIR, "cards.json"), encoding="utf-8") as f:
        return json.load(f)["cards"]


CARDS = _cards()
DATA = W.load_data()
ENGINE_ID = {cid: i for i, cid in enumerate(DATA["ids"])}
BY_NAME = {c["name"]: ENGINE_ID[c["id"]] for c in CARDS}
PUBLIC = [c for c in CARDS if "whole_card" in c]


def test_wa_amb_3_nineteen_public_buildings_and_five_milestones():
    assert len(PUBLIC) == 19
    with open(os.path.join(W.DEFAULT_DIR, "milestones.json"), encoding="utf-8") as f:
        assert len(json.load(f)["milestones"]) == 5  # 19 + 5 = the source's 24 event cards
    per_era = {e: sum(c["era"] == e for c in CARDS) for e in range(1, 7)}
    assert per_era == {e: 16 for e in range(1, 7)}
    assert all(2 <= sum(c["era"] == e for c in PUBLIC) <= 4 for e in range(1, 7))
    effects = [json.dumps(c["whole_card"], sort_keys=True) for c in PUBLIC]
    assert len(set(effects)) == 19  # each a different effect
    assert len({c["name"] for c in PUBLIC}) == 19


def test_wa_amb_3_public_buildings_are_dealt_like_any_card():
    """WA-AMB-3: public buildings are ordinary era cards: over many seeds each one is dealt to a hand
    in its era (here: era I's three and era II's four appear in some opening hand or deck)."""
    seen = set()
    for seed in range(40):
        s = tilecraft.make("warsaw", players=4, seed=seed)
        for p in range(4):
            seen.update(s.hand(p))
    era1 = {ENGINE_ID[c["id"]] for c in PUBLIC if c["era"] == 1}
    assert era1 <= seen


def _hands():
    era = DATA["config"]["card_era"]
    free = [c for c in range(len(era)) if era[c] == 6 and "whole_card" not in CARDS[c]]
    return {0: free[:4], 1: free[4:8]}


_BASE = []


def income(stacks):
    if not _BASE:
        _BASE.append(to_era(tilecraft.make("warsaw", players=2, seed=0), 6, hands=_hands()))
    return set_district(_BASE[0], 0, stacks).income(0)


def n(name):
    return BY_NAME[name]


# Every income-paying public building next to the same neighbourhood: a row
#   (0,0) Tenement row (R R R R) | (1,0) BUILDING | (2,0) <neighbour>
# and below the building (1,1) a second neighbour. Expected effect_vp / effect_coins by hand.
CASES = [
    # name, neighbour east, neighbour south, (effect_vp, effect_coins)
    ("Barbican", "Saxon Garden", "Old Town Market", (0, 1)),                      # flat 1 coin
    ("Grand Theatre", "Saxon Garden", "Old Town Market", (2, 0)),                 # flat 2 VP
    ("Warsaw Uprising Monument", "Saxon Garden", "Old Town Market", (3, 0)),      # flat 3 VP
    # per area: 2 residential areas (west tenement, east Townhouses apart from it) -> 2 coins
    ("Wilanów Palace", "Townhouses", "Old Town Market", (0, 2)),
    # per area of park: Saxon Garden east, Ujazdów Park south: 2 park areas (not touching) -> 2 VP
    ("Łazienki Palace", "Saxon Garden", "Ujazdów Park", (2, 0)),
    # per commercial area: Old Town Market east + Trade hall south: 2 areas -> 2 coins
    ("Hala Mirowska", "Old Town Market", "Trade hall", (0, 2)),
    # per cultural area: St. John's Chapel east, Library south: 2 areas -> 2 VP
    ("Royal Castle", "St. John's Chapel", "Library", (2, 0)),
    ("Zachęta Gallery", "St. John's Chapel", "Library", (0, 4)),  # 2 coins per cultural area
    # per transport area: Vistula ferry east, Stage coach yard south: 2 -> 4 VP
    ("Central Station", "Vistula ferry", "Stage coach yard", (4, 0)),
    # adjacent residential: the tenement west + Townhouses east touch it; 2 x 1 VP
    ("University of Warsaw", "Townhouses", "Old Town Market", (2, 0)),
    # adjacent cultural, 2 VP each: chapel east and library south -> 4 VP
    ("National Museum", "St. John's Chapel", "Library", (4, 0)),
    # adjacent park, 2 VP each: Saxon Garden east, Ujazdów Park south -> 4 VP
    ("Copernicus Science Centre", "Saxon Garden", "Ujazdów Park", (4, 0)),
    # adjacent industrial, 1 coin each: Brewery east, Foundry south -> 2 coins
    ("Warsaw Polytechnic", "Brewery", "Foundry", (0, 2)),
    # per public building (itself included): 1 -> 2 VP
    ("Palace of Culture and Science", "Saxon Garden", "Old Town Market", (2, 0)),
]


@pytest.mark.parametrize("name, east, south, expect", CASES, ids=[c[0] for c in CASES])
def test_wa_pub_5_shipped_public_building_effects(name, east, south, expect):
    """WA-PUB-5, WA-SCORE-7: each income-paying public building of the shipped data pays its printed
    effect, and only when it is in the district."""
    stacks = {(0, 0): [(n("Tenement row"), 0)], (1, 0): [(n(name), 0)], (2, 0): [(n(east), 0)],
              (1, 1): [(n(south), 0)]}
    inc = income(stacks)
    assert (inc["effect_vp"], inc["effect_coins"]) == expect
    without = dict(stacks)
    without[(1, 0)] = [(n("Burgher houses"), 0)]
    inc = income(without)
    assert (inc["effect_vp"], inc["effect_coins"]) == (0, 0)


def test_every_income_paying_public_building_has_a_case():
    special = {"sigismund", "arsenal", "jablonowski", "prudential", "exchange"}
    paying = {c["name"] for c in PUBLIC if c["whole_card"]["effect"] not in special}
    assert paying == {c[0] for c in CASES}


def test_new_public_buildings_in_a_played_income_phase():
    """Wilanów Palace and Warsaw Polytechnic pay during a real income phase (era VI, everyone sells
    4 cards for 3 coins): Wilanów next to 2 residential areas, +2 coins; Polytechnic next to the
    Brewery, +1 coin and the Brewery's own 1 coin; no other income in these districts."""
    s = to_era(tilecraft.make("warsaw", players=2, seed=0), 6, hands=_hands())
    s = set_district(s, 0, {(0, 0): [(n("Tenement row"), 0)], (1, 0): [(n("Wilanów Palace"), 0)],
                            (2, 0): [(n("Townhouses"), 0)]}, coins=0, vp=0)
    s = set_district(s, 1, {(0, 0): [(n("Warsaw Polytechnic"), 0)], (1, 0): [(n("Brewery"), 0)]}, coins=0, vp=0)
    while not s.is_terminal():
        s.apply(0 if s.phase_name() == "picking cards" else W.SELL)
    # seat 0: 12 + 2 = 14 coins -> 2 VP, 4 left; seat 1: 12 + 1 (Polytechnic) + 1 (Brewery) = 14
    assert s.vp() == [2, 2] and s.coins() == [4, 4]


ADJACENT = [("University of Warsaw", "Townhouses", "Burgher houses", (1, 0)),
            ("National Museum", "St. John's Chapel", "Library", (2, 0)),
            ("Copernicus Science Centre", "Saxon Garden", "Krasiński Garden", (2, 0)),
            ("Warsaw Polytechnic", "Brewery", "Tannery", (0, 1))]


@pytest.mark.parametrize("name, east, far, expect", ADJACENT, ids=[c[0] for c in ADJACENT])
def test_wa_pub_5_adjacency_effects_count_only_touching_areas(name, east, far, expect):
    """WA-PUB-5, WA-AMB-9: an adjacency building pays for the areas of its type that touch it, not
    for the others: east of it an area of the type (touches), and at (0, 1), diagonal to it and
    walled off by commercial cards at (0, 0) and (1, 1), another one (does not): one area pays."""
    stacks = {(0, 0): [(n("Old Town Market"), 0)], (1, 0): [(n(name), 0)], (2, 0): [(n(east), 0)],
              (1, 1): [(n("Merchant stalls"), 0)], (0, 1): [(n(far), 0)]}
    inc = income(stacks)
    assert (inc["effect_vp"], inc["effect_coins"]) == expect
