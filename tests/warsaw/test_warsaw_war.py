"""Wars, the Arsenal and the Prudential (WA-WAR-*, WA-PUB-1, WA-PUB-4, WA-AMB-13, WA-AMB-14)."""
import pytest

import tilecraft
from tilecraft.games import warsaw as W
from test_warsaw_helpers import Fixture, sell_out, set_district, to_era


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    """Public buildings in era II, so they can stand in districts during the wars of eras III and IV."""
    return Fixture(str(tmp_path_factory.mktemp("wfx")), special_era=2)


def early(fx, n, era=1):
    """n plain cards of era `era` (any types: the war rules do not look at types)."""
    ids = [c for c in range(len(fx.names)) if fx.era[c] == era and "@" in fx.names[c]]
    return ids[:n]


def at_war(fx, era, stacks0, stacks1=None, players=2):
    s = to_era(fx.make(players), era)
    s = set_district(s, 0, stacks0)
    s = set_district(s, 1, stacks1 or {(0, 0): [(-1, 0)], (1, 0): [(early(fx, 16)[15], 0)]})
    sell_out(s)
    return s


def removals(s):
    return {((a - W.REMOVE_BASE) % W.FRAME_W - W.FRAME_R, (a - W.REMOVE_BASE) // W.FRAME_W - W.FRAME_R)
            for a in s.legal_actions()}


def line(fx, n, start=0):
    r = fx.ids("RRRR@1")
    return {(x, 0): [(r[start + x], 0)] for x in range(n)}


def test_wa_war_1_wa_war_3_one_removal_in_era_three(fx):
    """WA-WAR-1, WA-WAR-3: after era III each seat removes 1 position; only ends of a line can go
    (a middle card would split the district), and the reason is given."""
    s = at_war(fx, 3, line(fx, 3))
    assert s.phase_name() == "war removals" and s.current_player() == 0 and s.removals_needed(0) == 1
    assert removals(s) == {(0, 0), (2, 0)}
    before = s.to_json()
    with pytest.raises(tilecraft.IllegalActionError, match="would split the district.*WA-WAR-3"):
        s.apply(W.remove_action(1, 0))
    assert s.to_json() == before
    s.apply(W.remove_action(0, 0))
    s.apply(W.remove_action(0, 0))  # seat 1 removes its starting card
    assert [pos[:2] for pos in s.district(0)] == [(1, 0), (2, 0)]


def test_wa_war_1_stack_removed_whole(fx):
    """WA-WAR-1: removing a stacked position sends every card of the stack to the box."""
    r = fx.ids("RRRR@1")
    s = at_war(fx, 3, {(0, 0): [(r[0], 0), (r[1], 0), (r[2], 0)], (1, 0): [(r[3], 0)]})
    s.apply(W.remove_action(0, 0))
    s.apply(W.remove_action(0, 0))
    assert all(s.card_location(c) == tilecraft.WarsawState.locations()["removed"] for c in r[:3])
    assert s.district(0) == [(1, 0, r[3], 0, 1)]


def test_wa_war_2_two_removals_in_era_four_and_wa_amb_14_pairs(fx):
    """WA-WAR-2, WA-AMB-14: after era IV two different positions; the second choice is checked with
    the first removed; a district of 2 cards loses only 1 (never empty)."""
    s = at_war(fx, 4, line(fx, 4), stacks1={(0, 0): [(-1, 0)], (1, 0): [(early(fx, 16)[14], 0)]})
    assert s.removals_needed(0) == 2 and s.removals_needed(1) == 1
    s.apply(W.remove_action(0, 0))
    assert removals(s) == {(1, 0), (3, 0)}  # (0,0) is already chosen
    s.apply(W.remove_action(1, 0))
    assert s.current_player() == 1
    s.apply(W.remove_action(1, 0))
    assert [p[:2] for p in s.district(0)] == [(2, 0), (3, 0)]
    assert len(s.district(1)) == 1


def test_wa_war_4_war_comes_before_milestone_and_income(fx):
    """WA-WAR-4, WA-INC-1: the war is asked before the milestone is awarded and before income, and
    income is paid on the district the war left. Seat 0: starting card (P R R P) with an industry
    card east of its residential quadrants. Before the war the income would be park 1 - industry 1
    = 0 VP and 1 coin; seat 0 removes the industry, so the income paid is park 1 VP and no coin."""
    s = at_war(fx, 3, {(0, 0): [(-1, 0)], (1, 0): [(fx.ids("I1III@2")[0], 0)]})
    assert s.phase_name() == "war removals" and [o for _, o in s.milestones()][2] == -1
    before = s.income(0)
    assert (before["park_vp"], before["industrial_penalty"], before["industrial_coins"]) == (1, 1, 1)
    vp0, coins0 = s.vp()[0], s.coins()[0]
    s.apply(W.remove_action(1, 0))  # seat 0 removes the industry
    s.apply(W.remove_action(0, 0))  # seat 1 removes its starting card
    # both seats tie on 0 public buildings with equal coins and VP: milestone III is discarded, the
    # income follows and era IV starts
    assert s.milestones()[2][1] == -2 and s.era() == 4 and s.phase_name() == "picking cards"
    assert s.vp()[0] == vp0 + 1 and s.coins()[0] == coins0

def test_wa_pub_1_arsenal(fx):
    """WA-PUB-1, WA-AMB-14: the Arsenal's owner removes none in WWI and 1 in WWII, and cannot pick the
    Arsenal; a covered Arsenal protects nothing."""
    ars = fx.ids("Arsenal")[0]
    r = fx.ids("RRRR@1")
    d = {(0, 0): [(ars, 0)], (1, 0): [(r[0], 0)], (2, 0): [(r[1], 0)]}
    s = at_war(fx, 3, d)
    assert s.removals_needed(0) == 0 and s.current_player() == 1
    s = at_war(fx, 4, d)
    assert s.removals_needed(0) == 1
    assert removals(s) == {(2, 0)}  # (0,0) is the Arsenal, (1,0) a cut position
    with pytest.raises(tilecraft.IllegalActionError, match="Arsenal cannot be chosen"):
        s.apply(W.remove_action(0, 0))
    covered = {(0, 0): [(ars, 0), (r[2], 0)], (1, 0): [(r[0], 0)], (2, 0): [(r[1], 0)]}
    s = at_war(fx, 3, covered)
    assert s.removals_needed(0) == 1 and (0, 0) in removals(s)


def test_wa_pub_4_prudential_expands_to_four_by_four(fx):
    """WA-PUB-4: with the Prudential the district may grow to 4x4 (the Prudential itself may be built
    outside the 3x4 bound)."""
    pru = fx.ids("Prudential")[0]
    r = early(fx, 12)
    block = {(x, y): [(r[4 * y + x], 0)] for x in range(4) for y in range(3)}
    s = to_era(fx.make(2), 2, hands={0: [pru] + fx.ids("PPPP@1", era=2)[:3]})
    s = set_district(s, 0, block, coins=10)
    s.apply(s.hand(0).index(pru))
    s.apply(0)
    assert W.build_action(0, 3, 0) in set(int(a) for a in s.legal_actions())
    s.apply(W.build_action(0, 3, 0))
    s.apply(W.SELL)
    assert len(s.district(0)) == 13 and s.within_limit(0)


def _pru_district(fx, pru_at=(0, 3)):
    pru = fx.ids("Prudential")[0]
    r = early(fx, 12)
    d = {(x, y): [(r[4 * y + x], 0)] for x in range(4) for y in range(3)}
    d[pru_at] = [(pru, 0)]
    return d


def test_wa_pub_4_wa_amb_13_shrink_when_lost_in_war(fx):
    """WA-PUB-4, WA-AMB-13: the Prudential removed in a war: the limit is 3x4 again at once and the
    owner chooses a window that keeps a connected district; the rest is discarded."""
    d = _pru_district(fx)
    s = at_war(fx, 3, d)
    s.apply(W.remove_action(0, 3))  # the Prudential itself (a leaf)
    s.apply(W.remove_action(0, 0))
    # the box is now 4x3 again: fits, no trim needed
    assert s.phase_name() != "Prudential trim" and s.within_limit(0)
    d[(1, 3)] = [(early(fx, 13)[12], 0)]  # 4x4 box: (0,3) Prudential and (1,3)
    s = at_war(fx, 3, d)
    s.apply(W.remove_action(0, 3))
    s.apply(W.remove_action(0, 0))
    assert s.phase_name() == "Prudential trim" and s.current_player() == 0
    # rows 0..2 full and (1,3): every window keeps a connected district
    assert [int(a) - W.TRIM_BASE for a in s.legal_actions()] == [0, 1, 2, 3]
    s.apply(W.TRIM_BASE + 1)  # drop the bottom row
    assert s.within_limit(0) and len(s.district(0)) == 12


def test_wa_pub_4_shrink_when_covered(fx):
    """WA-PUB-4: covering the Prudential also shrinks the limit: the owner trims at once."""
    d = _pru_district(fx)
    d[(1, 3)] = [(early(fx, 13)[12], 0)]
    card = fx.ids("PPPP@1", era=2)[0]
    s = to_era(fx.make(2), 2, hands={0: [card] + fx.ids("TTTT@1", era=2) + fx.ids("CCCC@2", era=2)[:1]})
    s = set_district(s, 0, d)
    s.apply(s.hand(0).index(card))
    s.apply(0)
    s.apply(W.build_action(0, 3, 0))  # overbuild the Prudential
    s.apply(W.SELL)
    assert s.phase_name() == "Prudential trim"
    assert tilecraft.from_json(s.to_json()).to_json() == s.to_json()  # a mid-draft trim state reloads
    # the box is 4x4 with (0,3) and (1,3) in the bottom row: every window keeps a connected district
    assert [int(a) - W.TRIM_BASE for a in s.legal_actions()] == [0, 1, 2, 3]
    with pytest.raises(tilecraft.IllegalActionError, match="in the Prudential trim phase"):
        s.apply(W.SELL)
    s.apply(W.TRIM_BASE + 0)  # drop the top row
    assert len(s.district(0)) == 10
    assert s.within_limit(0) and s.district_connected(0)


def _connected16(b):
    full = 0xFFFF

    def grow(x):
        return x | ((x << 1) & 0xEEEE) | ((x >> 1) & 0x7777) | ((x << 4) & full) | (x >> 4)

    if not b:
        return False
    r = b & -b
    while True:
        n = grow(r) & b
        if n == r:
            return r == b
        r = n


WINDOWS = (0xFFF0, 0x0FFF, 0xEEEE, 0x7777)  # drop the top row, the bottom row, the left, the right column


def test_wa_amb_13_some_window_always_keeps_a_connected_district():
    """WA-AMB-13: the fallback (no window keeps a connected district: keep the largest part, the
    owner choosing among equal parts) can never be needed: every connected district whose box is
    4x4 has a 3x4 / 4x3 window keeping a connected district (exhaustive over all 2^16 shapes, with
    the same bitboard flood fill idea in Python)."""
    for m in range(1, 1 << 16):
        if (m & 0x000F) and (m & 0xF000) and (m & 0x1111) and (m & 0x8888) and _connected16(m):
            assert any(_connected16(m & w) for w in WINDOWS), hex(m)


def test_wa_amb_13_engine_offers_exactly_the_connected_windows(fx):
    """WA-AMB-13: on 4x4 districts (a sample of shapes, and ones where some windows split the
    district), covering the Prudential makes the owner trim; the engine offers exactly the windows
    that keep a connected district (the Python model above), and the chosen one leaves a connected
    district inside the 3x4 limit."""
    import random
    rng = random.Random(13)
    shapes = [0xF99F, 0x9FF9, 0x1F8F, 0xF11F]  # rings and combs: some windows disconnect
    while len(shapes) < 24:
        m = rng.getrandbits(16)
        if (m & 0x000F) and (m & 0xF000) and (m & 0x1111) and (m & 0x8888) and _connected16(m):
            shapes.append(m)
    pru = fx.ids("Prudential")[0]
    r = early(fx, 16)
    card = fx.ids("PPPP@1", era=2)[0]
    checked = 0
    for m in shapes:
        if not _connected16(m):
            continue
        cells = [(i % 4, i // 4) for i in range(16) if (m >> i) & 1]
        pru_at = cells[-1]
        d = {xy: [(r[k], 0)] for k, xy in enumerate(cells) if xy != pru_at}
        d[pru_at] = [(pru, 0)]
        s = to_era(fx.make(2), 2, hands={0: [card] + fx.ids("TTTT@1", era=2) + fx.ids("CCCC@2", era=2)[:1]})
        s = set_district(s, 0, d, coins=20)
        s.apply(s.hand(0).index(card))
        s.apply(0)
        s.apply(W.build_action(pru_at[0], pru_at[1], 0))  # cover the Prudential: back to 3x4
        s.apply(W.SELL)
        assert s.phase_name() == "Prudential trim" and s.current_player() == 0, hex(m)
        expect = [w for w in range(4) if _connected16(m & WINDOWS[w])]
        assert [int(a) - W.TRIM_BASE for a in s.legal_actions()] == expect, hex(m)
        s.apply(W.TRIM_BASE + expect[-1])
        assert s.within_limit(0) and s.district_connected(0), hex(m)
        assert len(s.district(0)) == bin(m & WINDOWS[expect[-1]]).count("1")
        checked += 1
    assert checked >= 20

def test_wa_amb_14_war_choices_are_hidden_until_all_have_chosen(fx):
    """WA-AMB-14 (simultaneity), WA-AMB-21: seat 1 observes the same whichever position seat 0 chose;
    the removals happen together once every seat has chosen."""
    s = at_war(fx, 3, line(fx, 3))
    a, b = s.clone(), s.clone()
    a.apply(W.remove_action(0, 0))
    b.apply(W.remove_action(2, 0))
    assert (a.observation(1) == b.observation(1)).all()
    assert len(a.district(0)) == 3  # not yet removed
    a.apply(W.remove_action(0, 0))
    assert len(a.district(0)) == 2
