"""Placement, bounds, overbuilding and costs (WA-BUILD-*, WA-ACT-3, WA-AMB-11/12/16/17) and bad input."""
import pytest

import tilecraft
from tilecraft.games import warsaw as W
from test_warsaw_helpers import Fixture, set_district, to_era


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    return Fixture(str(tmp_path_factory.mktemp("wfx")))


def reveal(fx, card, district=None, coins=None, players=2, **options):
    """Era VI; seat 0 holds and picks `card`; seat 1 picks anything. Returns the state in RESOLVE."""
    pool = [c for c in fx.ids("PPPP@1", era=6) + fx.ids("CCCC@2", era=6) + fx.ids("TTTT@1", era=6) if c != card]
    s = to_era(fx.make(players, **options), 6, hands={0: [card] + pool[:3], 1: pool[3:7]})
    if district is not None or coins is not None:
        s = set_district(s, 0, district or {(0, 0): [(-1, 0)]}, coins=coins)
    s.apply(s.hand(0).index(card))
    s.apply(0)
    assert s.phase_name() == "selling or building" and s.current_player() == 0
    return s


def builds(s):
    return {int(a) for a in s.legal_actions() if a >= W.BUILD_BASE}


def cells(s):
    return {((a - W.BUILD_BASE) // 4 % W.FRAME_W - W.FRAME_R, (a - W.BUILD_BASE) // 4 // W.FRAME_W - W.FRAME_R)
            for a in builds(s)}


def test_wa_build_1_edge_adjacency_and_wa_amb_17_frame(fx):
    """WA-BUILD-1, WA-AMB-17: from the starting card at (0, 0) the empty positions are its four edge
    neighbours; a diagonal position is rejected with the reason, and nothing changes."""
    s = reveal(fx, fx.ids("RRRR@1", era=6)[0])
    assert cells(s) == {(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)}
    before = s.to_json()
    with pytest.raises(tilecraft.IllegalActionError, match="shares no edge.*WA-BUILD-1"):
        s.apply(W.build_action(1, 1, 0))
    with pytest.raises(tilecraft.IllegalActionError, match="shares no edge with the district"):
        s.apply(W.build_action(5, 5, 0))
    assert s.to_json() == before


def test_wa_build_2_three_by_four_bound(fx):
    """WA-BUILD-2: a row 4 wide cannot grow a 4th row; 4x3 is full; the bound is a bounding box."""
    r = fx.ids("RRRR@1")
    row = {(x, 0): [(r[x], 0)] for x in range(4)}
    s = reveal(fx, fx.ids("RRRR@1", era=6)[0], district=row)
    assert (0, 1) in cells(s) and (4, 0) not in cells(s) and (-1, 0) not in cells(s)
    block = {(x, y): [(r[4 * y + x], 0)] for x in range(4) for y in range(3)}
    s = reveal(fx, fx.ids("RRRR@1", era=6)[0], district=block)
    assert cells(s) == {(x, y) for x in range(4) for y in range(3)}  # only overbuilds remain
    before = s.to_json()
    with pytest.raises(tilecraft.IllegalActionError, match="outside the 3x4 / 4x3 bound.*WA-BUILD-2"):
        s.apply(W.build_action(0, 3, 0))
    assert s.to_json() == before
    tall = {(0, y): [(r[y], 0)] for y in range(3)}
    s = reveal(fx, fx.ids("RRRR@1", era=6)[0], district=tall)
    assert (0, 3) in cells(s) and (0, -1) in cells(s) and (1, 1) in cells(s)


def test_wa_build_3_overbuild_pays_the_difference(fx):
    """WA-BUILD-3: overbuilding pays new price - covered price; equal or cheaper is free, no change."""
    cheap, dear = fx.ids("RRRR@1")[0], fx.ids("RRRR@7", era=6)[0]
    s = reveal(fx, dear, district={(0, 0): [(-1, 0)], (1, 0): [(cheap, 0)]}, coins=6)
    assert W.build_action(1, 0, 0) in builds(s)  # 7 - 1 = 6 <= 6
    assert W.build_action(2, 0, 0) not in builds(s)  # 7 on an empty position > 6
    s.apply(W.build_action(1, 0, 0))
    s.apply(W.SELL)
    assert s.coins()[0] == 0
    assert s.district(0)[1] == (1, 0, dear, 0, 2)
    s = reveal(fx, fx.ids("CCCC@2", era=6)[0], district={(0, 0): [(-1, 0)], (1, 0): [(dear, 0)]}, coins=0)
    assert W.build_action(1, 0, 0) in builds(s)
    s.apply(W.build_action(1, 0, 0))
    s.apply(W.SELL)
    assert s.coins()[0] == 0  # cheaper: free, and no change is given


def test_wa_amb_11_covered_price_is_the_top_card(fx):
    """WA-AMB-11: a stack's covered price is its top card's; the starting card and milestones cost 0."""
    dear = fx.ids("RRRR@7", era=6)[0]
    cheap = fx.ids("RRRR@1")
    c3 = fx.ids("RRCC@3")[0]
    # stack: 1 under 3 -> overbuilding with 7 costs 4
    s = reveal(fx, dear, district={(0, 0): [(-1, 0)], (1, 0): [(cheap[0], 0), (c3, 0)]}, coins=4)
    assert W.build_action(1, 0, 0) in builds(s)
    s = reveal(fx, dear, district={(0, 0): [(-1, 0)], (1, 0): [(cheap[0], 0), (c3, 0)]}, coins=3)
    assert W.build_action(1, 0, 0) not in builds(s)
    # the starting card costs 0 to cover: full price
    s = reveal(fx, dear, district={(0, 0): [(-1, 0)]}, coins=6)
    assert W.build_action(0, 0, 0) not in builds(s)
    s = reveal(fx, dear, district={(0, 0): [(-1, 0)], (1, 0): [(116, 0)]}, coins=6)  # milestone I
    assert W.build_action(1, 0, 0) not in builds(s)


def test_wa_build_4_covered_cards_are_inert(fx):
    """WA-BUILD-4, WA-AREA-4: only the top card's quadrants count; the position still counts once."""
    r, c = fx.ids("RRRR@1"), fx.ids("CCCC@2")
    base = {(0, 0): [(-1, 0)], (1, 0): [(r[0], 0)], (2, 0): [(c[0], 0)]}
    s = set_district(to_era(fx.make(2), 6), 0, base)
    assert s.income(0)["commercial_coins"] == 1
    covered = dict(base)
    covered[(1, 0)] = [(r[0], 0), (fx.ids("PPPP@1")[0], 0)]
    s = set_district(to_era(fx.make(2), 6), 0, covered)
    assert s.income(0)["commercial_coins"] == 0  # the residential card under the park is gone
    assert len(s.district(0)) == 3


def test_wa_act_3_wa_amb_16_unaffordable_build_rejected(fx):
    """WA-ACT-3, WA-AMB-16: building needs coins >= cost; selling is always legal."""
    s = reveal(fx, fx.ids("RRRR@7", era=6)[0], coins=6)
    assert builds(s) == set() and list(s.legal_actions()) == [W.SELL]
    before = s.to_json()
    with pytest.raises(tilecraft.IllegalActionError, match="costs 7 coins but seat 0 has 6.*WA-ACT-3"):
        s.apply(W.build_action(1, 0, 0))
    assert s.to_json() == before


def test_wa_amb_12_max_stack_height(fx):
    """WA-AMB-12: unlimited stacks by default; max_stack_height=2 forbids a third card."""
    r = fx.ids("RRRR@1")
    d = {(0, 0): [(-1, 0)], (1, 0): [(r[0], 0), (r[1], 0)]}
    s = reveal(fx, fx.ids("CCCC@2", era=6)[0], district=d)
    assert W.build_action(1, 0, 0) in builds(s)
    s = reveal(fx, fx.ids("CCCC@2", era=6)[0], district=d, max_stack_height=2)
    assert W.build_action(1, 0, 0) not in builds(s)
    with pytest.raises(tilecraft.IllegalActionError, match="WA-AMB-12"):
        s.apply(W.build_action(1, 0, 0))


def test_wa_build_5_district_connected_after_builds(fx):
    """WA-BUILD-5: a build never disconnects the district (random builds from a fixed start)."""
    import random
    rng = random.Random(1)
    for seed in range(20):
        s = tilecraft.make("warsaw", players=2, seed=seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply(int(legal[rng.randrange(len(legal))]))
            for p in range(2):
                assert s.district_connected(p) and s.within_limit(p)


def test_bad_action_ids_and_names(fx):
    s = reveal(fx, fx.ids("RRRR@1", era=6)[0])
    for bad in (-1, W.NUM_ACTIONS, 2 ** 40):
        with pytest.raises(tilecraft.IllegalActionError, match="out of range"):
            s.apply(bad)
    with pytest.raises(tilecraft.IllegalActionError, match="cannot read action"):
        s.string_to_action("build here")
    assert s.string_to_action("build 1,0 r0") == W.build_action(1, 0, 0)
    assert s.action_to_string(W.remove_action(-2, 3)) == "remove -2,3"
