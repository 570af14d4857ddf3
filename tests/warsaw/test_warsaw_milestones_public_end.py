"""Milestones, public buildings and the end of the game (WA-MILE-*, WA-PUB-2/3/5, WA-AMB-15/19/22,
WA-END-*)."""
import json

import pytest

import tilecraft
from tilecraft.games import warsaw as W
from test_warsaw_helpers import Fixture, round_of, sell_out, set_district, to_era


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    return Fixture(str(tmp_path_factory.mktemp("wfx")))


@pytest.fixture(scope="module")
def fx2(tmp_path_factory):
    return Fixture(str(tmp_path_factory.mktemp("wfx2")), special_era=2)


def test_wa_mile_1_wa_mile_2_wa_amb_4_award_and_free_placement(fx):
    """WA-MILE-1, WA-MILE-2, WA-AMB-4: milestone I (fixture: most residential areas) is checked in
    era I's income; the winner places it for free on an empty position or over a card."""
    hands = {0: fx.ids("PPPP@1", era=1) + fx.ids("TTTT@1", era=1)[:1],
             1: fx.ids("I1III@2", era=1) + fx.ids("U1UUU@2", era=1)}
    s = to_era(fx.make(2), 1, hands=hands)
    r = fx.ids("RRRR@1", era=1)
    s = set_district(s, 1, {(0, 0): [(-1, 0)], (2, 0): [(r[0], 0)], (1, 0): [(fx.ids("CCCC@2", era=1)[0], 0)]})
    # seat 1: starting card's residential half and a separate RRRR: 2 areas; seat 0: 1
    sell_out(s)
    assert s.phase_name() == "placing a milestone" and s.current_player() == 1
    legal = {int(a) for a in s.legal_actions()}
    assert W.build_action(0, 0, 0) in legal and W.build_action(3, 0, 0) in legal
    assert W.build_action(0, 0, 1) not in legal  # a whole card has one rotation
    coins = s.coins()[1]
    s.apply(W.build_action(0, 0, 0))  # over the starting card: free
    # nothing was paid; era I's income then adds 1 coin (CCCC touches the RRRR area)
    assert s.coins()[1] == coins + 1
    assert s.milestones()[0][1] == 1
    assert s.district(1)[0][2] == 116 and s.district(1)[0][4] == 2


def _tie_state(fx, coins, vps):
    s = fx.make(2)
    d = json.loads(s.to_json())
    d["state"]["coins"][:2] = coins
    d["state"]["vp"][:2] = vps
    s = type(s).from_json(json.dumps(d))
    # both districts: just the starting card (1 residential area each)
    return s


def test_wa_mile_3_ties_fewer_coins_then_fewer_vp_else_discarded(fx):
    """WA-MILE-3, WA-AMB-19: tied on the condition: fewer coins wins; equal coins: fewer VP wins;
    both equal: nobody, the milestone is discarded. Tie-breaks use coins and VP at the award, after
    the sales of the era (each seat sold 4 cards: +12)."""
    s = sell_out(_tie_state(fx, [3, 5], [0, 0]))
    assert s.phase_name() == "placing a milestone" and s.current_player() == 0
    s = sell_out(_tie_state(fx, [5, 5], [4, 2]))
    assert s.phase_name() == "placing a milestone" and s.current_player() == 1
    s = sell_out(_tie_state(fx, [5, 5], [2, 2]))
    assert s.milestones()[0][1] == -2 and s.era() == 2
    assert s.card_location(116) == tilecraft.WarsawState.locations()["milestone_discarded"]


def test_wa_amb_19_zero_counts_and_requires_positive(fx):
    """WA-AMB-19: milestone III (fixture: most public buildings) is contested at 0 by default (fewer
    coins wins); with milestone_requires_positive it is discarded."""
    for opt, expected in ((False, 0), (True, -2)):
        s = to_era(fx.make(2, milestone_requires_positive=opt), 3)
        d = json.loads(s.to_json())
        d["state"]["coins"][:2] = [1, 5]
        s = type(s).from_json(json.dumps(d))
        sell_out(s)
        while s.phase_name() == "war removals":  # the war: remove anything legal
            s.apply(int(s.legal_actions()[0]))
        if expected == 0:
            assert s.phase_name() == "placing a milestone" and s.current_player() == 0
        else:
            assert s.milestones()[2][1] == -2


@pytest.fixture(scope="module")
def fx_pub(tmp_path_factory):
    """Milestone I: most residential areas; II..V: most public buildings (nobody has one, and with
    milestone_requires_positive nobody wins them). Every effect +1 VP."""
    flat = {"effect": "flat", "amount": 1, "resource": "vp"}
    miles = [dict(condition="most_areas_of", type="residential", effect=flat)] + \
            [dict(condition="most_public_buildings", effect=flat)] * 4
    return Fixture(str(tmp_path_factory.mktemp("wfxpub")), milestones=miles)


def test_wa_mile_4_persistent_effect_every_income(fx_pub):
    """WA-MILE-4: a built milestone pays its effect (+1 VP) in EACH later income phase: seat 0 holds
    milestone I from era V on. Eras V and VI: both seats sell 4 cards (12 coins) each era; the
    starting card's park pays 1 VP per income. Seat 0: (1 + 1) x 2 = 4, seat 1: 1 x 2 = 2; then 24
    coins -> 4 VP + 4 left each."""
    s = to_era(fx_pub.make(2, milestone_requires_positive=True), 5)
    s = set_district(s, 0, {(0, 0): [(-1, 0)], (1, 0): [(116, 0)]}, coins=0, vp=0)
    s = set_district(s, 1, {(0, 0): [(-1, 0)]}, coins=0, vp=0)
    assert s.income(0)["effect_vp"] == 1 and s.income(1)["effect_vp"] == 0
    sell_out(s)
    assert s.era() == 6 and s.vp() == [2, 1] and s.milestones()[4][1] == -2
    sell_out(s)
    assert s.is_terminal() and s.vp() == [4 + 4, 2 + 4] and s.coins() == [4, 4]


def test_wa_mile_5_wa_end_1_no_milestone_in_era_six_and_game_ends(fx):
    """WA-MILE-5, WA-END-1: era VI awards no milestone (slot V's card, discarded earlier, is not
    offered again), the era-VI income is paid in full (the starting card's park: +1 VP), and the
    game ends right after it: 0 VP + 1 + 12 coins -> 2 VP = 3, 2 coins left."""
    s = to_era(fx.make(2), 6)
    s = set_district(s, 0, {(0, 0): [(-1, 0)]}, coins=0, vp=0)
    # seat 1 has more areas (a commercial card): seat 0 would win a "fewest areas" milestone V again
    s = set_district(s, 1, {(0, 0): [(-1, 0)], (1, 0): [(fx.ids("CCCC@2")[0], 0)]}, coins=0, vp=0)
    owners = [o for _, o in s.milestones()]
    while not s.is_terminal():
        assert s.phase_name() in ("picking cards", "selling or building"), "no milestone placement (or anything else) in era VI"
        s.apply(0 if s.phase_name() == "picking cards" else W.SELL)
    assert s.current_player() == -1 and s.era() == 6
    assert [o for _, o in s.milestones()] == owners
    assert s.vp()[0] == 1 + 2 and s.coins()[0] == 2


def test_wa_end_2_wa_end_3_final_scoring_and_ties(fx):
    """WA-END-2: 5 coins = 1 VP, the rest kept; WA-END-3: ties go to more leftover coins, then shared;
    WA-AMB-22: win_loss returns split the win."""
    def final(coins, vps, **options):
        s = to_era(fx.make(2, **options), 6)
        s = set_district(s, 0, {(0, 0): [(fx.ids("CCCC@2")[0], 0)]}, coins=coins[0], vp=vps[0])
        s = set_district(s, 1, {(0, 0): [(fx.ids("CCCC@2")[1], 0)]}, coins=coins[1], vp=vps[1])
        return sell_out(s)  # +12 coins each, no income
    s = final([1, 3], [5, 5])  # 13 -> 2 VP + 3 left; 15 -> 3 VP + 0 left
    assert s.vp() == [7, 8] and s.coins() == [3, 0] and s.winners() == [1]
    s = final([3, 8], [6, 5])  # 15 -> 3 (9 VP, 0 left); 20 -> 4 (9 VP, 0 left): shared
    assert s.vp() == [9, 9] and s.winners() == [0, 1]
    s = final([4, 8], [6, 5])  # 16 -> 3 + 1 left: 9 VP; 20 -> 4 + 0: 9 VP; more leftover wins
    assert s.winners() == [0]
    s = final([3, 8], [6, 5], returns_mode="win_loss")
    assert list(s.returns()) == [0.5, 0.5]
    assert list(final([1, 3], [5, 5]).returns()) == [7.0, 8.0]


def test_wa_pub_2_sigismund_sells_for_five(fx):
    """WA-PUB-2: with Sigismund's Column in the district, selling pays 5."""
    s = to_era(fx.make(2), 6)
    s = set_district(s, 0, {(0, 0): [(-1, 0)], (1, 0): [(fx.ids("Sigismund")[0], 0)]})
    round_of(s)
    assert s.coins() == [11, 9]


def test_wa_pub_3_wa_amb_15_jablonowski(fx):
    """WA-PUB-3, WA-AMB-15: +2 VP for each of the owner's overbuilds; building over the Palace itself
    gives the 2 VP and ends its effect."""
    jab = fx.ids("Jablonowski")[0]
    r = fx.ids("RRRR@1")
    hand = fx.ids("PPPP@1", era=6)
    s = to_era(fx.make(2), 6, hands={0: hand[:3] + fx.ids("CCCC@2", era=6)[:1]})
    s = set_district(s, 0, {(0, 0): [(-1, 0)], (1, 0): [(jab, 0)], (2, 0): [(r[0], 0)]})
    round_of(s, actions={0: W.build_action(2, 0, 0)})  # overbuild RRRR: +2
    assert s.vp()[0] == 2
    round_of(s, actions={0: W.build_action(-1, 0, 0)})  # empty position: nothing
    assert s.vp()[0] == 2
    round_of(s, actions={0: W.build_action(1, 0, 0)})  # over the Palace: +2, then inactive
    assert s.vp()[0] == 4
    assert s.district(0)[1][2] != jab and s.card_location(jab) == tilecraft.WarsawState.locations()["district"]  # covered, still in the district


def test_wa_pub_5_income_effects(fx):
    """WA-PUB-5: per-area, adjacency, flat and per-public effects pay in the income phase."""
    per_cult, per_pub, flat = fx.ids("PerCultural")[0], fx.ids("PerPublic")[0], fx.ids("FlatCoins")[0]
    u = fx.ids("U1UUU@2")
    s = to_era(fx.make(2), 6)
    s = set_district(s, 0, {(0, 0): [(u[0], 0)], (1, 0): [(per_cult, 0)], (2, 0): [(u[1], 0)],
                            (0, 1): [(per_pub, 0)], (1, 1): [(flat, 0)]})
    inc = s.income(0)
    # 2 cultural areas x 1 VP + 3 public buildings x 1 VP; 2 coins
    assert inc["effect_vp"] == 5 and inc["effect_coins"] == 2 and inc["cultural_vp"] == 2


def test_exchange_building_asks_its_owner(fx):
    """WA-PUB-5 (exchange rates): the owner chooses 0..3 exchanges of 2 coins for 1 VP at income."""
    ex = fx.ids("Exchange")[0]
    s = to_era(fx.make(2), 6)
    s = set_district(s, 0, {(0, 0): [(-1, 0)], (1, 0): [(ex, 0)]}, coins=0)
    sell_out(s)  # 12 coins
    assert s.phase_name() == "exchange" and s.current_player() == 0
    assert [int(a) - W.EXCHANGE_BASE for a in s.legal_actions()] == [0, 1, 2, 3]
    s.apply(W.EXCHANGE_BASE + 3)  # 12 - 6 = 6 coins, +3 VP; then 6 -> 1 VP + 1 left
    assert s.is_terminal() and s.coins()[0] == 1 and s.vp()[0] == 1 + 3 + 1


def test_wa_mile_2_no_room_for_the_milestone(fx):
    """WA-MILE-2 with WA-AMB-12: a winner whose district is full (3x4) and whose stacks are all at
    max_stack_height cannot place the milestone: it is discarded (docs/warsaw.md)."""
    s = to_era(fx.make(2, max_stack_height=1), 2)
    era1 = [c for c in range(len(fx.names)) if fx.era[c] == 1]
    s = set_district(s, 1, {(x, y): [(era1[4 * y + x], 0)] for x in range(4) for y in range(3)})
    sell_out(s)  # milestone II (fixture: most areas): seat 1 has far more areas
    assert s.milestones()[1][1] == -2 and s.era() == 3
