"""Hidden information (GA-AMB-25, GA-ORDER-5): what another seat's observation shows of a hand, and
resample_hidden for every observer. Placeholder edition: card id c has domain c // 33."""
import json

import numpy as np
import pytest

from gaudi_helpers_flow import LOC_DECK, LOC_HAND, at_move, edit, give_hand, make

PLAYERS = 4


def deck_cards(state, domain):
    return [c for c in range(33 * domain, 33 * domain + 33) if state.card_location(c)[0] == LOC_DECK]


def swap_hidden(state, seat, new):
    """A copy where seat's hidden starting card is replaced by deck card `new` (the old one goes
    back to its deck)."""
    old = state.start_card(seat)
    assert old >= 0 and state.card_location(new)[0] == LOC_DECK

    def fn(s):
        k = s["hand"][seat].index(old)
        s["hand"][seat][k] = new
        s["start_card"][seat] = new
        s["card_loc"][new], s["card_owner"][new] = LOC_HAND, seat
        s["card_loc"][old], s["card_owner"][old] = LOC_DECK, old // 33
    return edit(state, fn)


def base(players=PLAYERS):
    """A game at seat 0's first move; each seat holds its hidden starting card, and seat 2 (seat 1
    with 2 players) also holds a card it took face up from a window."""
    s = make(players, seed=21)
    window_card = s.windows()[1][0]
    q = min(2, players - 1)
    return give_hand(s, q, [s.hand(q)[0], window_card], keep_start=True), window_card


def core_state(state):
    d = json.loads(state.to_json())["state"]
    return d


def test_ga_amb_25_ga_order_5_another_seat_sees_the_domain_not_the_identity():
    """GA-AMB-25, GA-ORDER-5: for every observer o and every other seat q, replacing q's hidden
    starting card by another card of the same domain leaves o's observation unchanged, while q's
    own observation changes (the holder knows its card). Replacing it by a card of another domain
    changes o's observation (the domain is public, card backs)."""
    s, _ = base()
    for q in range(PLAYERS):
        c = s.start_card(q)
        same = deck_cards(s, c // 33)[0]
        other = deck_cards(s, (c // 33 + 1) % 3)[0]
        t_same, t_other = swap_hidden(s, q, same), swap_hidden(s, q, other)
        for o in range(PLAYERS):
            if o == q:
                assert not np.array_equal(s.observation(o), t_same.observation(o))
            else:
                assert np.array_equal(s.observation(o), t_same.observation(o)), (o, q)
                assert not np.array_equal(s.observation(o), t_other.observation(o)), (o, q)


def test_ga_amb_25_ga_order_5_cards_taken_from_a_window_are_public():
    """GA-AMB-25, GA-ORDER-5: seat 2 took a Catalan card face up from the window. If it had taken a
    different Catalan card, every other seat's observation would differ: its identity is public."""
    s, taken = base()
    other = deck_cards(s, 1)[0]

    def fn(d):
        k = d["hand"][2].index(taken)
        d["hand"][2][k] = other
        d["card_loc"][other], d["card_owner"][other] = LOC_HAND, 2
        d["card_loc"][taken], d["card_owner"][taken] = LOC_DECK, 1
    t = edit(s, fn)
    for o in (0, 1, 3):
        assert not np.array_equal(s.observation(o), t.observation(o))


def test_ga_order_5_future_draws_are_not_observed():
    """GA-ORDER-5 (3, 4, 5): the order of the decks and the bag and the face-down central tiles are
    chance, not part of any observation: two states that differ only in the RNG that will draw them
    look the same to every seat."""
    s, _ = base()
    t = edit(s, lambda d: d.__setitem__("rng", [1, 2, 3, 4]))
    for o in range(PLAYERS):
        assert np.array_equal(s.observation(o), t.observation(o))


@pytest.mark.parametrize("observer", range(PLAYERS))
def test_ga_amb_25_resample_hidden_keeps_domains_and_public_parts(observer):
    """GA-AMB-25, GA-ORDER-5: for every observer and several seeds, resample_hidden keeps every
    hand's size and domains, the observer's own hand, the face-up window card in seat 2's hand,
    windows, columns, deck sizes, and the observer's observation."""
    s, taken = base()
    for seed in range(6):
        r = s.clone()
        r.resample_hidden(observer, seed)
        for p in range(PLAYERS):
            assert sorted(c // 33 for c in r.hand(p)) == sorted(c // 33 for c in s.hand(p))
        assert r.hand(observer) == s.hand(observer)
        assert taken in r.hand(2)
        assert r.windows() == s.windows() and r.deck_sizes() == s.deck_sizes()
        assert [r.columns(p) for p in range(PLAYERS)] == [s.columns(p) for p in range(PLAYERS)]
        assert np.array_equal(r.observation(observer), s.observation(observer))


def test_ga_amb_25_resample_hidden_actually_redeals_hidden_cards():
    """GA-AMB-25: for observer 0 (the mover), seat 1's hidden Nature-or-Catalan starting card is
    re-dealt: over 12 seeds it takes more than one identity, always of the same domain."""
    s, _ = base()
    seen = set()
    for seed in range(12):
        r = s.clone()
        r.resample_hidden(0, seed)
        seen.add(r.hand(1)[0])
    assert len(seen) > 1
    assert {c // 33 for c in seen} == {s.hand(1)[0] // 33}


@pytest.mark.parametrize("players,observer", [(n, o) for n in (2, 3, 4) for o in range(n)])
def test_ga_amb_25_resample_hidden_depends_only_on_the_observers_view(players, observer):
    """GA-AMB-25, GA-ORDER-5: for every observer, with 2, 3 and 4 players: two states that differ
    only in the hidden starting cards of the other seats (same domains), the seat to move (seat 0)
    included, look the same to the observer and become the same state after
    resample_hidden(observer, seed) (docs/gaudi.md: no exception for the seat to move)."""
    s, _ = base(players)
    t = s
    for q in range(players):
        if q == observer:
            continue
        c = t.start_card(q)
        t = swap_hidden(t, q, deck_cards(t, c // 33)[-1])
    assert core_state(t) != core_state(s)
    assert np.array_equal(s.observation(observer), t.observation(observer))
    for seed in (3, 99):
        a, b = s.clone(), t.clone()
        a.resample_hidden(observer, seed)
        b.resample_hidden(observer, seed)
        assert core_state(a) == core_state(b)


def test_ga_amb_25_resample_for_a_waiting_observer_redeals_the_movers_card():
    """GA-AMB-25: seat 0 is to move and seat 1 observes: seat 0's hidden starting card is re-dealt
    too (over 12 seeds it takes more than one identity, always of its domain); resampling for the
    seat to move keeps its own card and so its legal actions."""
    s, _ = base()
    seen = set()
    for seed in range(12):
        r = s.clone()
        r.resample_hidden(1, seed)
        seen.add(r.hand(0)[0])
        r = s.clone()
        r.resample_hidden(0, seed)
        assert r.hand(0) == s.hand(0) and list(r.legal_actions()) == list(s.legal_actions())
    assert len(seen) > 1 and {c // 33 for c in seen} == {s.hand(0)[0] // 33}


def test_ga_amb_25_resample_at_a_later_mover():
    """GA-AMB-25: the same canonical property when seat 2 is to move and seat 1 observes: seats 0, 2
    and 3 vary, and both states resample to the same state."""
    s, _ = base()
    s = at_move(s, 2, {0: 4, 1: 5})
    t = s
    for q in (0, 2, 3):
        c = t.start_card(q)
        t = swap_hidden(t, q, deck_cards(t, c // 33)[-1])
    a, b = s.clone(), t.clone()
    a.resample_hidden(1, 8)
    b.resample_hidden(1, 8)
    assert core_state(a) == core_state(b)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ga_amb_25_ga_order_5_hidden_identity_in_random_positions(players):
    """GA-AMB-25, GA-ORDER-5: in positions from random games (every 17th action), for every
    observer o and every other seat q still holding its hidden starting card, a same-domain swap of
    that card leaves o's observation unchanged, and after resample_hidden(o, seed) every hand
    keeps its size and domains."""
    import random

    rng = random.Random(players)
    checked = 0
    for seed in range(2):
        s = make(players, seed=seed)
        step = 0
        while not s.is_terminal():
            if step % 17 == 0:
                for q in range(players):
                    c = s.start_card(q)
                    if c < 0 or not deck_cards(s, c // 33):
                        continue
                    t = swap_hidden(s, q, deck_cards(s, c // 33)[0])
                    for o in range(players):
                        if o != q:
                            assert np.array_equal(s.observation(o), t.observation(o))
                            checked += 1
                for o in range(players):
                    r = s.clone()
                    r.resample_hidden(o, step)
                    for p in range(players):
                        assert sorted(x // 33 for x in r.hand(p)) == sorted(x // 33 for x in s.hand(p))
            la = s.legal_actions()
            s.apply(int(la[rng.randrange(len(la))]))
            step += 1
    assert checked > 0
