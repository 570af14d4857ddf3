"""Expert (night) mode rule tests on hand-built positions (to_dict edits of fixture games), each
named by the GA- rule it checks; counts worked by hand in the comments."""
import copy

import numpy as np
import tilecraft
from tilecraft.games import gaudi

import gaudi_fixtures
from gaudi_fixtures import make_state
from test_gaudi_rules_engine import Pos

TAKE_CARD, PLAY, ADVANCE, RESOLVE, CATEGORY, DONE = (gaudi.TAKE_CARD_BASE, gaudi.PLAY_BASE, gaudi.ADVANCE_BASE,
                                                     gaudi.RESOLVE_BASE, gaudi.CATEGORY_BASE, gaudi.DONE)


def drafted(players=4, seed=0, **opts):
    """An expert fixture game after the draft (the first move of round 1)."""
    s = make_state(players, seed, mode="expert", **opts)
    while s.phase_name() == "drafting a starting card":
        s.apply(int(s.legal_actions()[0]))
    assert s.phase_name() == "moving"
    return s


def uses_position(s, p=None, space=6):
    """Pos of s with the seat to act on track space `space` (fixture: space 6 has 0 pencils, 1 hammer)
    in the uses phase, leading, one hammer left."""
    pos = Pos(s)
    p = s.current_player() if p is None else p
    st = pos.s
    st["position"][p] = space
    st.update(phase=tilecraft.GaudiState.phase_names().index("using actions"), space=space, leader=1, mode=3, pencils=0, hammers=1)
    return pos, p


def test_ga_exp_3_four_tiles_per_supply_area():
    s = make_state(4, 0, mode="expert")
    assert [sum(a) for a in s.areas()] == [4] * 5
    b = make_state(4, 0)
    assert [sum(a) for a in b.areas()] == [5] * 5


def test_ga_exp_4_random_night_chimney_tiles():
    s = make_state(3, 0, mode="expert", chance="explicit")
    seen = 0
    while s.is_chance_node():
        if s.to_dict()["state"]["chance_kind"] == 6:
            seen += 1
            assert 1 <= len(s.legal_actions()) <= 4
        s.apply(int(s.legal_actions()[-1]))
    assert seen == 9  # 3 players x 3 domains
    tiles = [s.chimney_tiles(q) for q in range(3)]
    for d in range(3):
        ids = [t[d] for t in tiles]
        assert len(set(ids)) == 3 and all(4 * d <= i < 4 * d + 4 for i in ids)  # one per domain, distinct
    # different seeds deal different tiles
    deals = {tuple(drafted(4, seed).chimney_tiles(0)) for seed in range(12)}
    assert len(deals) > 1


def test_ga_exp_5_ga_amb_44_draft_order_and_hidden_picks():
    s = make_state(4, 2, mode="expert", first_player=1)
    assert s.phase_name() == "drafting a starting card"
    pool = [int(a) - TAKE_CARD for a in s.legal_actions()]
    assert len(pool) == 4 and sorted(c // 33 for c in pool) == [0, 0, 1, 1]  # GA-SETUP-7 pool for 4
    order = []
    picks = {}
    while s.phase_name() == "drafting a starting card":
        p = s.current_player()
        order.append(p)
        legal = [int(a) - TAKE_CARD for a in s.legal_actions()]
        assert len(legal) == 4 - len(picks)
        c = legal[-1]
        s.apply(TAKE_CARD + c)
        picks[p] = c
    assert order == [0, 3, 2, 1]  # start 1: right of the start player first, counter-clockwise, start last
    for p, c in picks.items():
        assert s.hand(p) == [c] and s.start_card(p) == c
    # draft knowledge (GA-ORDER-5 item 2): seat 0 drafted first and passed the other three on
    for q in (3, 2, 1):
        assert s.knows_passed(0, picks[q])
    assert not s.knows_passed(1, picks[0]) and not s.knows_passed(2, picks[3])
    assert s.knows_passed(2, picks[1]) and not s.knows_passed(2, picks[0])


def test_ga_amb_27_resample_keeps_passed_cards_among_the_later_drafters():
    s = make_state(4, 2, mode="expert", first_player=1)
    picks = {}
    while s.phase_name() == "drafting a starting card":
        p = s.current_player()
        c = int(s.legal_actions()[0]) - TAKE_CARD
        s.apply(TAKE_CARD + c)
        picks[p] = c
    later = {picks[q] for q in (3, 2, 1)}
    changed = False
    for seed in range(25):
        r = s.clone()
        r.resample_hidden(0, seed)
        assert np.array_equal(r.observation(0), s.observation(0))
        assert {r.start_card(q) for q in (3, 2, 1)} == later  # the passed cards stay with the later drafters
        for q in (3, 2, 1):
            assert r.start_card(q) // 33 == s.start_card(q) // 33  # domains kept
        changed |= any(r.start_card(q) != s.start_card(q) for q in (3, 2, 1))
    assert changed
    # the last drafter knows nothing of the others' picks: they are re-dealt from the decks too
    outside = False
    for seed in range(25):
        r = s.clone()
        r.resample_hidden(1, seed)
        outside |= any(r.start_card(q) not in picks.values() for q in (0, 3, 2))
    assert outside


def test_ga_draft_rejects_an_impossible_pick():
    s = make_state(4, 2, mode="expert")
    before = s.to_json()
    bad = next(c for c in range(99) if TAKE_CARD + c not in set(int(a) for a in s.legal_actions()))
    try:
        s.apply(TAKE_CARD + bad)
        raise AssertionError("an impossible draft pick was accepted")
    except tilecraft.IllegalActionError as e:
        assert "not legal" in str(e) or "draft" in str(e)
    assert s.to_json() == before


def test_ga_exp_7_ga_ex_1_card_requirement_needs_one_connected_group():
    # card 1 (fixture): Nature, colour 1, n 2. Two colour-1 tiles at spaces 0 and 2 (not adjacent)
    s = drafted()
    pos, p = uses_position(s)
    pos.hand(p, [1])
    pos.tile(p, 0, 1).tile(p, 2, 1)
    e = pos.load()
    assert e.requirement(p, 1) == (2, False)  # two groups of 1: not one group of 2
    assert PLAY + 1 not in set(int(a) for a in e.legal_actions())
    before = e.to_json()
    try:
        e.apply(PLAY + 1)
        raise AssertionError("an unmet group requirement was accepted")
    except tilecraft.IllegalActionError:
        pass
    assert e.to_json() == before
    # the same tiles in basic mode meet it (GA-REQ-2: anywhere on the board)
    b = Pos(e)
    b.d["config"]["mode"] = 0
    b.s["chimney_tile"] = [[255] * 3 for _ in range(4)]
    b.s["phase"] = tilecraft.GaudiState.phase_names().index("using actions")
    bs = b.load()
    assert bs.requirement(p, 1) == (2, True)
    # joining them with a colour-1 tile at space 1 makes one group of 3
    pos.tile(p, 1, 1)
    e = pos.load()
    assert e.requirement(p, 1) == (2, True) and PLAY + 1 in set(int(a) for a in e.legal_actions())


def test_ga_exp_8_ga_ex_6_chimney_requirement_needs_one_connected_group():
    # fixture chimneys: the Nature chimney's 2nd space needs 2 tiles of shape 1 (spaces 1, 13 are shape 1;
    # space 7, between them, is shape 3)
    s = drafted()
    pos, p = uses_position(s)
    pos.s["chimney"][p] = [1, 0, 0]
    pos.tile(p, 1, 0).tile(p, 13, 2)
    e = pos.load()
    assert e.shape_components(p)[1] == 1
    assert ADVANCE + 0 not in set(int(a) for a in e.legal_actions())
    pos.tile(p, 7, 3)  # any colour, any shape joins them: one component with 2 tiles of shape 1
    e = pos.load()
    assert e.shape_components(p)[1] == 2
    assert ADVANCE + 0 in set(int(a) for a in e.legal_actions())


def test_ga_exp_6_ga_amb_29_full_hand_cannot_take():
    # space 6 is a card-any space with one hammer; a full hand (4) gets no TAKE_CARD and no discard
    s = drafted()
    pos, p = uses_position(s)
    hand = [c for c in range(99) if s.card_location(c)[0] == tilecraft.GaudiState.locations()["deck"]][:4]
    pos.hand(p, hand)
    e = pos.load()
    assert not any(TAKE_CARD <= int(a) < TAKE_CARD + 99 for a in e.legal_actions())
    pos.hand(p, hand[:3])
    e = pos.load()
    assert any(TAKE_CARD <= int(a) < TAKE_CARD + 99 for a in e.legal_actions())


def test_ga_exp_10_ga_ex_4_expert_final_score():
    # groups [6, 4, 4, 2]; N 12, C 8, R 15: 2 x 8 + 12 = 28; 4 + 2 x 4 = 12; final 40, tie-break 15
    s = drafted()
    pos = Pos(s)
    for b in range(6):
        pos.tile(0, b, 0)
    for b in (6, 7, 8, 9):
        pos.tile(0, b, 1)
    for b in (12, 13, 14, 15):
        pos.tile(0, b, 2)
    for b in (18, 19):
        pos.tile(0, b, 3)
    pos.s["score"][0] = [12, 8, 15]
    e = pos.load()
    assert e.group_sizes(0) == [6, 4, 4, 2]
    assert e.final_scoring(0) == (40, (12, 8, 15), 15)


def _ability_edition():
    ed = copy.deepcopy(gaudi_fixtures.edition())
    for t in ed["chimneys"]:
        sp = t["night"][0]
        if t["domain"] == 0:
            sp["ability"] = {"trigger": [1, 0], "effects": [[37, 2]]}  # on a Nature play: 2 Nature VP
        elif t["domain"] == 1:
            sp["ability"] = {"trigger": [1, 0], "effects": [[38, 1]]}  # on a Nature play: 1 Catalan VP
        else:
            sp["ability"] = {"trigger": [0, 3], "effects": [[24, 1]]}  # on a category-3 play: collect a tile
    gaudi.register_edition("ability-test", ed)
    s = tilecraft.make("gaudi", players=2, seed=0, data="ability-test", mode="expert")
    while s.phase_name() == "drafting a starting card":
        s.apply(int(s.legal_actions()[0]))
    return s


def test_ga_exp_9_ga_amb_49_same_kind_ability_rewards_choose_one():
    # card 0: Nature, category 0, colour 0, n 1. Nature and Catalan chimneys at 1: both abilities fire,
    # both are vp (one kind): a choose-one group {37: 2, 38: 1}, decided before the Nature resolution.
    s = _ability_edition()
    pos, p = uses_position(s)
    pos.s["chimney"][p] = [1, 1, 0]
    pos.hand(p, [0])
    pos.tile(p, 0, 0)
    e = pos.load()
    n0, c0, r0 = e.domain_scores(p)
    e.apply(PLAY + 0)
    assert e.phase_name() == "resolving rewards"
    assert sorted(int(a) for a in e.legal_actions()) == [RESOLVE + 37, RESOLVE + 38, DONE]
    e.apply(RESOLVE + 38)
    # the group is gone; the Nature resolution follows (the column reward +1 Nature VP at once)
    n1, c1, r1 = e.domain_scores(p)
    assert (n1 - n0, c1 - c0, r1 - r0) == (1, 1, 0)


def test_ga_amb_49_gaudi_life_card_picks_a_category():
    # card 10: Nature, Gaudí's life, colour 2, n 1. Only the Religion chimney (category-3 ability) is
    # reached: categories trigger two distinct sets, {collect a tile} for 3 and {} (offered as 0).
    s = _ability_edition()
    pos, p = uses_position(s)
    pos.s["chimney"][p] = [0, 0, 1]
    pos.hand(p, [10])
    pos.tile(p, 0, 2)
    e = pos.load()
    e.apply(PLAY + 10)
    assert e.phase_name() == "choosing a category"
    assert [int(a) for a in e.legal_actions()] == [CATEGORY + 0, CATEGORY + 3]
    f = e.clone()
    f.apply(CATEGORY + 3)
    assert f.phase_name() == "resolving rewards" and sorted(int(a) for a in f.legal_actions()) == [RESOLVE + 24, RESOLVE + 31]
    e.apply(CATEGORY + 0)  # nothing triggers: the Nature resolution alone is applied at once
    assert RESOLVE + 24 not in set(int(a) for a in e.legal_actions())
