"""The draft: picks, reveals, resolves, passing, selling and hidden information
(WA-DRAFT-*, WA-ACT-1/2, WA-AMB-20, WA-AMB-21)."""
import numpy as np
import pytest

import tilecraft
from tilecraft.games import warsaw as W
from test_warsaw_helpers import Fixture, round_of, set_district, to_era


def test_wa_draft_3_pick_is_hidden_until_all_have_picked():
    """WA-DRAFT-3: seat 1 sees the same thing whichever card seat 0 picked; after the last pick all
    picks are revealed together."""
    a = tilecraft.make("warsaw", players=3, seed=4)
    b = a.clone()
    a.apply(0)
    b.apply(1)
    assert a.picked_card(0) != b.picked_card(0)
    for p in (1, 2):
        assert np.array_equal(a.observation(p), b.observation(p))
    assert not np.array_equal(a.observation(0), b.observation(0))
    a.apply(0)
    a.apply(0)
    assert a.phase_name() == "selling or building"  # revealed: seat 1 now sees seat 0's card
    before = a.observation(1)
    a2 = b.clone()
    a2.apply(0)
    a2.apply(0)
    assert not np.array_equal(a2.observation(1), before)


def test_wa_draft_4_resolve_choices_hidden_and_simultaneous():
    """WA-DRAFT-4: a seat's sell/build choice is applied only once every seat has chosen, and other
    seats cannot see it before."""
    s = tilecraft.make("warsaw", players=2, seed=8, )
    s.apply(0)
    s.apply(0)
    assert s.phase_name() == "selling or building"
    builds = [int(a) for a in s.legal_actions() if a >= W.BUILD_BASE]
    assert builds, "the revealed card can be built somewhere"
    a, b = s.clone(), s.clone()
    a.apply(W.SELL)
    b.apply(builds[0])
    assert a.coins() == b.coins() == [6, 6] and a.district(0) == b.district(0)
    assert np.array_equal(a.observation(1), b.observation(1))
    a.apply(W.SELL)
    b.apply(W.SELL)
    assert a.coins()[0] == 9 and len(a.district(0)) == 1  # sold: +3
    assert len(b.district(0)) == 2  # built


def test_wa_draft_5_wa_amb_20_pass_left_in_odd_eras_right_in_even():
    """WA-DRAFT-5, WA-AMB-20: era I passes to seat + 1, era II to seat - 1."""
    s = tilecraft.make("warsaw", players=3, seed=6)
    round_of(s)
    after = {p: s.hand(p) for p in range(3)}
    s2 = tilecraft.make("warsaw", players=3, seed=6)
    kept = {}
    for p in range(3):
        kept[p] = s2.hand(p)[1:]  # round_of picks each seat's first card
    for p in range(3):
        assert after[(p + 1) % 3] == kept[p]
    # era II
    t = to_era(tilecraft.make("warsaw", players=3, seed=6), 2)
    kept = {p: t.hand(p)[1:] for p in range(3)}
    round_of(t)
    for p in range(3):
        assert t.hand((p - 1) % 3) == kept[p]


def test_wa_draft_6_four_rounds_and_forced_last_pick():
    """WA-DRAFT-6: each seat handles 4 cards per era; the fourth pick has a single legal action."""
    s = tilecraft.make("warsaw", players=4, seed=2)
    for r in range(3):
        assert s.pick_round() == r
        round_of(s)
    assert s.pick_round() == 3
    assert list(s.legal_actions()) == [0]
    coins0, vp0 = s.coins(), s.vp()
    round_of(s)
    # the era's income follows at once. Everyone sold every card, so the districts are the equal
    # starting cards: milestone I ties on count, coins and VP and is discarded (WA-MILE-3); each seat
    # sold its last card (+3 coins) and the starting card's park (next to 1 residential area) paid 1 VP.
    assert (s.era(), s.phase_name(), s.pick_round(), s.current_player()) == (2, "picking cards", 0, 0)
    assert s.milestones()[0][1] == -2
    assert s.coins() == [c + 3 for c in coins0] and s.vp() == [v + 1 for v in vp0]


def test_wa_act_1_sell_for_three_coins(tmp_path):
    """WA-ACT-1: selling discards the card to the box (public) and pays 3 coins."""
    fx = Fixture(str(tmp_path / "fx"))
    s = to_era(fx.make(2), 6)
    card = s.hand(0)[0]
    round_of(s)
    assert s.coins() == [9, 9]
    assert s.card_location(card) == tilecraft.WarsawState.locations()["sold"]  # sold
    obs = s.observation(1)
    sold_plane = obs[67 + 10 * 112: 67 + 11 * 112]
    assert sold_plane[card] == 1, "sold cards are public (WA-AMB-21)"


def test_wa_act_2_build_pays_price_and_rotates(tmp_path):
    """WA-ACT-2: building pays the printed price; the card may be rotated to any of 4 orientations
    (rotation r turns the NW, NE, SE, SW quadrants clockwise r times); symmetric cards list only
    their distinct rotations."""
    fx = Fixture(str(tmp_path / "fx"))
    mixed = fx.ids("RPCI1@3", era=6)[0]
    uniform = fx.ids("RRRR@1", era=6)[0]
    s = to_era(fx.make(2), 6, hands={0: [mixed] + fx.ids("RRRR@1", era=6)[1:4], 1: [uniform] + fx.ids("PPPP@1", era=6)[:3]})
    s.apply(s.hand(0).index(mixed))
    s.apply(s.hand(1).index(uniform))
    legal = set(int(a) for a in s.legal_actions())
    assert {W.build_action(1, 0, r) for r in range(4)} <= legal
    s.apply(W.build_action(1, 0, 1))
    assert set(int(a) for a in s.legal_actions()) >= {W.build_action(1, 0, 0)}
    assert W.build_action(1, 0, 1) not in set(int(a) for a in s.legal_actions()), "RRRR has one distinct rotation"
    s.apply(W.build_action(1, 0, 0))
    assert s.coins() == [3, 5]
    # printed R P C I (NW NE SE SW) turned once clockwise shows I R P C
    assert s.shown_types(0, 1, 0) == [3, 1, 0, 2]


def test_wa_amb_21_resample_hidden_keeps_what_the_observer_knows():
    """WA-AMB-21: resample_hidden redeals only cards the observer never held; its own hand, the
    public districts and its observation stay; other hands change for some seed."""
    s = tilecraft.make("warsaw", players=4, seed=3)
    round_of(s)  # seat 1 now holds seat 0's old hand: seat 0 knows those 3 cards
    s.apply(0)
    changed = False
    for seed in range(10):
        r = s.clone()
        r.resample_hidden(0, seed)
        assert np.array_equal(r.observation(0), s.observation(0))
        assert r.hand(0) == s.hand(0)
        assert r.hand(1) == s.hand(1)  # known: seat 0 passed these cards on
        changed |= r.hand(2) != s.hand(2) or r.hand(3) != s.hand(3)
        json_ok = type(r).from_json(r.to_json())  # still a valid state
        assert json_ok.to_json() == r.to_json()
    assert changed
