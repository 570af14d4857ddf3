"""Hidden information (GA-ORDER-5, GA-AMB-25): starting cards in other hands are hidden (their
domains are public); resample_hidden re-deals them canonically from what the observer sees."""
import numpy as np

import tilecraft

from gaudi_fixtures import make_state
from test_gaudi_rules_engine import Pos



def card_features(state, observer):
    obs = state.observation(observer)
    n = obs.size
    # the card block sits before the four seat blocks (10 + 256 floats each) and is 99 x 12
    seat = 3 + 1 + 3 + 3 + 64 * 4
    start = n - 4 * seat - 99 * 12
    return obs[start:start + 99 * 12].reshape(99, 12)


def test_starting_cards_are_hidden_from_the_others():
    s = make_state(4, 3)
    for p in range(4):
        c = s.start_card(p)
        assert c >= 0 and s.hand(p) == [c]
        own = card_features(s, p)
        assert own[c, 4] == 1  # the holder sees it in its own hand (relative seat 0)
        for q in range(4):
            if q != p:
                assert card_features(s, q)[c, 0] == 1  # unknown to the others
                assert card_features(s, q)[c, 4:8].sum() == 0


def test_resample_keeps_domains_and_the_observer_view():
    s = make_state(4, 3)
    changed = False
    for seed in range(20):
        r = s.clone()
        r.resample_hidden(0, seed)
        assert np.array_equal(r.observation(0), s.observation(0))
        assert r.start_card(0) == s.start_card(0)
        for q in range(1, 4):
            assert r.start_card(q) // 33 == s.start_card(q) // 33  # same domain (fixture: id // 33)
        changed |= any(r.start_card(q) != s.start_card(q) for q in range(1, 4))
    assert changed


def test_resample_is_canonical_for_a_waiting_observer():
    # seat 0 moves; observer 2 cannot tell seat 1's starting card from a deck card of its domain
    s = make_state(4, 5)
    hidden = s.start_card(1)
    d = hidden // 33
    other = next(c for c in range(33 * d, 33 * d + 33) if s.card_location(c)[0] == tilecraft.GaudiState.locations()["deck"])
    p = Pos(s)
    st = p.s
    st["hand"][1][0] = other
    st["start_card"][1] = other
    st["card_loc"][other], st["card_owner"][other] = tilecraft.GaudiState.locations()["hand"], 1
    st["card_loc"][hidden], st["card_owner"][hidden] = tilecraft.GaudiState.locations()["deck"], d
    t = p.load()
    assert np.array_equal(t.observation(2), s.observation(2))
    a, b = s.clone(), t.clone()
    a.resample_hidden(2, 9)
    b.resample_hidden(2, 9)
    assert a.to_dict()["state"] == b.to_dict()["state"]


def _swap_hidden(s, seat):
    """A twin of s where seat's hidden starting card is another card of the same domain from the deck."""
    hidden = s.start_card(seat)
    d = hidden // 33
    other = next(c for c in range(33 * d, 33 * d + 33) if s.card_location(c)[0] == tilecraft.GaudiState.locations()["deck"])
    p = Pos(s)
    st = p.s
    k = st["hand"][seat].index(hidden)
    st["hand"][seat][k] = other
    st["start_card"][seat] = other
    st["card_loc"][other], st["card_owner"][other] = tilecraft.GaudiState.locations()["hand"], seat
    st["card_loc"][hidden], st["card_owner"][hidden] = tilecraft.GaudiState.locations()["deck"], d
    return p.load()


def test_resample_is_canonical_for_every_observer():
    # two states that differ only in one seat's hidden starting card (same domain) resample to the
    # same state for every observer who cannot see that card, the seat to move included
    for players, seed in ((2, 1), (3, 2), (4, 5)):
        s = make_state(players, seed)
        for seat in range(players):
            t = _swap_hidden(s, seat)
            for observer in range(players):
                if observer == seat:
                    continue
                assert np.array_equal(t.observation(observer), s.observation(observer))
                a, b = s.clone(), t.clone()
                a.resample_hidden(observer, 17)
                b.resample_hidden(observer, 17)
                assert a.to_dict()["state"] == b.to_dict()["state"], (players, seat, observer)
