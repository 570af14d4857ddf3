"""Transport scoring (WA-SCORE-6, WA-AMB-6) with the shipped cards and crafted layouts.

Transport counts CARDS: a transport group is a maximal set of transport cards in which two cards are
linked when a transport quadrant of one shares an edge with a transport quadrant of the other. A
card is one member of its group however its own transport quadrants lie (the shipped "Tram
crossing" has two transport quadrants touching only at a corner: one card, one group). T groups
score 2T VP when the threshold is met: T >= 2 by default (`transport_threshold_on="groups"`), or
at least 2 transport cards with `transport_threshold_on="cards"`.

Every expected value below is worked out by hand, and the exhaustive pair test compares the engine
with a separately written model (`model_transport_vp`) of the rule text."""
from __future__ import annotations

import itertools
import json
import os

import pytest

import tilecraft
from tilecraft.games import warsaw as W
from test_warsaw_helpers import set_district, to_era

MODES = ("groups", "cards")
QUAD_XY = [(0, 0), (1, 0), (1, 1), (0, 1)]  # shown quadrant k = NW, NE, SE, SW


def _shipped():
    with open(os.path.join(W.DEFAULT_DIR, "cards.json")) as f:
        cards = json.load(f)["cards"]
    ids = W.load_data()["ids"]
    engine_id = {cid: i for i, cid in enumerate(ids)}
    out = {}
    for c in cards:
        if "quadrants" in c:
            out[c["name"]] = (engine_id[c["id"]], [q["type"] for q in c["quadrants"]])
    return out


SHIPPED = _shipped()
TRANSPORT_CARDS = {name: v for name, v in SHIPPED.items() if "transport" in v[1]}
# one shipped card per distinct printed transport layout (which quadrants are transport)
LAYOUTS = {}
for _name, (_cid, _types) in sorted(TRANSPORT_CARDS.items()):
    LAYOUTS.setdefault(tuple(t == "transport" for t in _types), _name)


def card(name):
    return SHIPPED[name][0]


def _era6_hands():
    data = W.load_data()
    era = data["config"]["card_era"]
    used = {c for c, _ in TRANSPORT_CARDS.values()}
    free = [c for c in range(len(era)) if era[c] == 6 and c not in used]
    return {0: free[:4], 1: free[4:8]}


_BASE = {}


def income(stacks, mode="groups"):
    """transport_vp of seat 0's district set to `stacks` (era VI, so any card may be in it)."""
    if mode not in _BASE:
        _BASE[mode] = to_era(tilecraft.make("warsaw", players=2, seed=0, transport_threshold_on=mode), 6,
                             hands=_era6_hands())
    return set_district(_BASE[mode], 0, stacks).income(0)["transport_vp"]


def model_transport_vp(placed, mode):
    """placed: [((x, y), printed types, rotation)]. The rule text, written without the engine."""
    quads = []  # per card, the set of its transport quadrants (global quadrant coordinates)
    for (x, y), types, r in placed:
        mine = set()
        for j, t in enumerate(types):
            if t == "transport":
                dx, dy = QUAD_XY[(j + r) % 4]
                mine.add((2 * x + dx, 2 * y + dy))
        if mine:
            quads.append(mine)
    n = len(quads)
    parent = list(range(n))

    def find(i):
        while parent[i] != i:
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(n), 2):
        if any(abs(ax - bx) + abs(ay - by) == 1 for ax, ay in quads[i] for bx, by in quads[j]):
            parent[find(i)] = find(j)
    groups = len({find(i) for i in range(n)})
    threshold = groups if mode == "groups" else n
    return 2 * groups if threshold >= 2 else 0


def test_shipped_data_has_every_layout_this_file_relies_on():
    assert "Tram crossing" in TRANSPORT_CARDS and "Vistula ferry" in TRANSPORT_CARDS
    assert SHIPPED["Tram crossing"][1] == ["transport", "residential", "transport", "commercial"]  # NW, SE: diagonal
    assert SHIPPED["Vistula ferry"][1] == ["transport"] * 4
    assert len(LAYOUTS) >= 5  # 4 quadrants, 2 on an edge, 2 diagonal, 1 quadrant (several corners)


@pytest.mark.parametrize("mode", MODES)
def test_wa_score_6_wa_amb_6_tram_crossing_alone_is_one_card(mode):
    """WA-SCORE-6, WA-AMB-6: Tram crossing alone is one card of one group, below the threshold: 0 VP
    (a count of transport AREAS would see 2 and pay 4)."""
    for r in range(4):
        assert income({(0, 0): [(card("Tram crossing"), r)]}, mode) == 0


@pytest.mark.parametrize("mode", MODES)
def test_wa_score_6_wa_amb_6_tram_crossing_and_a_separate_card(mode):
    """WA-SCORE-6, WA-AMB-6: Tram crossing plus a transport card it does not touch: 2 groups, 4 VP
    (an area count sees 3 and pays 6). A residential card keeps them apart."""
    stacks = {(0, 0): [(card("Tram crossing"), 0)], (1, 0): [(card("Tenement row"), 0)],
              (2, 0): [(card("Vistula ferry"), 0)]}
    assert income(stacks, mode) == 4


def test_wa_amb_6_cards_link_by_an_edge_not_a_corner():
    """WA-AMB-6: Tram crossing (T at NW and SE) at (0, 0) and Metro shops (C R T R: T at SE) to its
    right. Metro turned so its T shows NW, at quadrant (2, 0): only a corner with the tram's SE
    quadrant (1, 1): 2 groups, 4 VP in both modes. Turned so its T shows SW, at (2, 1): an edge with
    (1, 1): one group; 0 VP when the threshold counts groups, 2 VP when it counts cards (2 cards).
    Turned so its T shows NE, at (3, 0): touches nothing: 4 VP."""
    tram, metro = card("Tram crossing"), card("Metro shops")
    for r, by_groups, by_cards in ((2, 4, 4), (1, 0, 2), (3, 4, 4)):
        stacks = {(0, 0): [(tram, 0)], (1, 0): [(metro, r)]}
        assert (income(stacks, "groups"), income(stacks, "cards")) == (by_groups, by_cards), r


@pytest.mark.parametrize("mode", MODES)
def test_wa_amb_6_a_diagonal_card_bridges_two_groups(mode):
    """WA-AMB-6: ferry | Tram crossing | ferry in a row. The tram's NW quadrant touches the left
    ferry, its SE quadrant the right ferry; the tram is ONE card, so all three are one group:
    0 VP by groups (T = 1), 2 VP by cards (3 cards >= 2, T = 1). Counting areas would give 2 areas."""
    ferry_like = [c for name, (c, types) in TRANSPORT_CARDS.items() if types == ["transport"] * 4]
    assert len(ferry_like) >= 2
    stacks = {(0, 0): [(ferry_like[0], 0)], (1, 0): [(card("Tram crossing"), 0)], (2, 0): [(ferry_like[1], 0)]}
    assert income(stacks, mode) == (0 if mode == "groups" else 2)


@pytest.mark.parametrize("mode", MODES)
def test_wa_amb_6_every_shipped_layout_alone_and_with_a_partner(mode):
    """WA-SCORE-6, WA-AMB-6: every shipped transport card in every rotation: alone 0 VP; with a
    transport card two columns away (never touching) 4 VP."""
    ferry = card("Vistula ferry")
    for name, (c, _) in TRANSPORT_CARDS.items():
        if c == ferry:
            continue
        for r in range(4):
            assert income({(0, 0): [(c, r)]}, mode) == 0, (name, r)
            apart = {(0, 0): [(c, r)], (1, 0): [(card("Tenement row"), 0)], (2, 0): [(ferry, 0)]}
            assert income(apart, mode) == 4, (name, r)


@pytest.mark.slow  # exhaustive: every layout and rotation pair (about 10 s per mode)
@pytest.mark.parametrize("mode", MODES)
def test_wa_amb_6_all_layout_pairs_match_the_model(mode):
    """WA-AMB-6: two shipped transport cards side by side (and one above the other), every distinct
    layout pair and every rotation pair, agree with the separately written model."""
    names = list(LAYOUTS.values())
    checked = 0
    for n1, n2 in itertools.product(names, repeat=2):
        c1, t1 = SHIPPED[n1]
        c2, t2 = SHIPPED[n2]
        if c1 == c2:
            others = [c for nm, (c, t) in TRANSPORT_CARDS.items() if t == t1 and c != c1]
            if not others:
                continue
            c2 = others[0]
        for r1, r2 in itertools.product(range(4), repeat=2):
            for pos in ((1, 0), (0, 1)):
                placed = [((0, 0), t1, r1), (pos, t2, r2)]
                got = income({(0, 0): [(c1, r1)], pos: [(c2, r2)]}, mode)
                assert got == model_transport_vp(placed, mode), (n1, r1, n2, r2, pos)
                checked += 1
    assert checked > 200
