"""No peeking in expert mode (the start-card draft: hidden picks, cards passed on; GA-EXP-5,
GA-AMB-27, GA-ORDER-5) and in solo (the automa's decks and every other future draw; GA-SOLO-*):
two states that differ only in what seat p cannot see give p identical observations, identical
resample_hidden(p, seed) results and identical search decisions (fixed search seed); what p does
know (the cards it passed on) shows in its observation. Draft and main phases, every observer."""
import random

import numpy as np
import pytest

from tilecraft import GaudiState, ISMCTSBot, MCTSBot

from gaudi_fixtures import make_state
from test_gaudi_rules_engine import Pos

DRAFT = GaudiState.phase_names().index("drafting a starting card")
LOC_DECK, LOC_HAND, LOC_POOL = (GaudiState.locations()[k] for k in ("deck", "hand", "pool"))


def _points_expert(players, seed):
    """Clones of an expert game: before every draft pick, at the first move, and at 6 later player
    decisions (seeded random play)."""
    s = make_state(players, seed, mode="expert")
    out = []
    while s.phase() == DRAFT:
        out.append(s.clone())
        s.apply(int(s.legal_actions()[-1]))
    out.append(s.clone())
    rng = random.Random(seed)
    for _ in range(6):
        for _ in range(rng.randrange(3, 12)):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply(int(legal[rng.randrange(len(legal))]))
        if not s.is_terminal():
            out.append(s.clone())
    return out


def _hidden_from(s, o):
    """(card, holder) of the hidden starting cards still in other seats' hands, and the pool cards,
    split by whether o knows them as cards it passed on (GA-ORDER-5 item 2)."""
    unknown, known = [], []
    for w in range(s.num_players()):
        c = s.start_card(w)
        if w == o or c < 0 or s.card_location(c)[0] != LOC_HAND:
            continue
        (known if s.knows_passed(o, c) else unknown).append((c, w))
    for c in range(99):
        if s.card_location(c)[0] == LOC_POOL and not (s.phase() == DRAFT and s.current_player() == o):
            (known if s.knows_passed(o, c) else unknown).append((c, -1))
    return unknown, known


def _replace(s, c, new):
    """A twin of s where card c (a hidden starting card in a hand, or a pool card) is replaced by
    deck card `new` of the same domain (c goes back to the deck)."""
    p = Pos(s)
    st = p.s
    loc, owner = st["card_loc"][c], st["card_owner"][c]
    if loc == LOC_HAND:
        st["hand"][owner][st["hand"][owner].index(c)] = new
        st["start_card"][owner] = new
    else:
        st["pool"][st["pool"].index(c)] = new
    st["card_loc"][new], st["card_owner"][new] = loc, owner
    st["card_loc"][c], st["card_owner"][c] = LOC_DECK, c // 33
    return p.load()


def _swap_holders(s, a, b):
    """A twin of s where the hidden starting cards a and b (same domain) change hands."""
    p = Pos(s)
    st = p.s
    wa, wb = st["card_owner"][a], st["card_owner"][b]
    st["hand"][wa][st["hand"][wa].index(a)] = b
    st["hand"][wb][st["hand"][wb].index(b)] = a
    st["start_card"][wa], st["start_card"][wb] = b, a
    st["card_owner"][a], st["card_owner"][b] = wb, wa
    return p.load()


def _deck_card(s, d):
    return next(c for c in range(33 * d, 33 * d + 33) if s.card_location(c)[0] == LOC_DECK)


def _same_for(o, s, t, search=False):
    assert np.array_equal(s.observation(o), t.observation(o))
    a, b = s.clone(), t.clone()
    a.resample_hidden(o, 23)
    b.resample_hidden(o, 23)
    assert a.to_dict()["state"] == b.to_dict()["state"]
    if search:
        for bot in (MCTSBot, ISMCTSBot):
            ra, rb = bot(iterations=40, seed=9).search(s), bot(iterations=40, seed=9).search(t)
            assert ra["action"] == rb["action"] and np.array_equal(ra["visits"], rb["visits"])


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), pytest.param(4, 3, marks=pytest.mark.slow)])
def test_expert_no_peek_for_every_observer_in_draft_and_main_phases(players, seed):
    counts = {"unknown": 0, "known": 0, "holders": 0, "draft": 0, "main": 0}
    for s in _points_expert(players, seed):
        counts["draft" if s.phase() == DRAFT else "main"] += 1
        mover = s.current_player()
        for o in range(players):
            unknown, known = _hidden_from(s, o)
            for c, _ in unknown[:2]:  # a hidden pick (or unseen pool card) replaced by a deck card
                t = _replace(s, c, _deck_card(s, c // 33))
                _same_for(o, s, t, search=(o == mover and counts["unknown"] < 6))
                counts["unknown"] += 1
            for c, _ in known[:1]:  # a card o passed on: o knows it, and its observation says so
                t = _replace(s, c, _deck_card(s, c // 33))
                assert not np.array_equal(s.observation(o), t.observation(o))
                counts["known"] += 1
            held = [(c, w) for c, w in unknown + known if w >= 0]
            for i, (a, wa) in enumerate(held):  # two hidden cards of one domain change hands
                for b, wb in held[i + 1:]:
                    if a // 33 == b // 33 and s.knows_passed(o, a) == s.knows_passed(o, b):
                        _same_for(o, s, _swap_holders(s, a, b), search=(o == mover))
                        counts["holders"] += 1
    assert counts["draft"] >= players and counts["main"] >= 1
    assert counts["unknown"] >= players and counts["known"] >= 1
    if players == 4:  # the 4-player pool holds two cards per domain (GA-SETUP-7)
        assert counts["holders"] >= 1


def _points_solo(seed, difficulty):
    s = make_state(1, seed, difficulty=difficulty)
    out = [s.clone()]  # the starting pick
    rng = random.Random(seed)
    for _ in range(6):
        for _ in range(rng.randrange(2, 15)):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply(int(legal[rng.randrange(len(legal))]))
        if not s.is_terminal():
            out.append(s.clone())
    return out


def _other_future(s, k):
    """A twin of s with another generator state: the same public and private facts (solo has no
    private card), a different order of every future draw (decks, bag, central tiles)."""
    d = s.to_dict()
    rng = random.Random(k)
    d["state"]["rng"] = [rng.getrandbits(64) for _ in d["state"]["rng"]]
    d["seed"] = None  # another future: the history no longer follows from the seed
    return type(s).from_dict(d)


def _diverges(s, t, steps=400):
    """Whether the same choices (always the first legal action) lead the two states apart."""
    a, b = s.clone(), t.clone()
    for _ in range(steps):
        if a.is_terminal() or b.is_terminal():
            break
        if a.to_dict()["state"] != {**b.to_dict()["state"], "rng": a.to_dict()["state"]["rng"]}:
            return True
        la, lb = [int(x) for x in a.legal_actions()], [int(x) for x in b.legal_actions()]
        if la != lb:
            return True
        a.apply(la[0])
        b.apply(la[0])
    return a.to_dict()["state"]["window"] != b.to_dict()["state"]["window"]


@pytest.mark.parametrize("difficulty,seed", [("easy", 4), ("hard", 5)])
def test_solo_no_peek_at_the_decks_in_pick_and_main_phases(difficulty, seed):
    diverged = 0
    for i, s in enumerate(_points_solo(seed, difficulty)):
        t = _other_future(s, 100 + i)
        assert s.to_dict()["state"] != t.to_dict()["state"]
        _same_for(0, s, t, search=True)
        diverged += _diverges(s, t)
    assert diverged >= 2  # the twins really have different futures
