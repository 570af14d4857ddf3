"""Invariants over random Gaudí games, checked after every action: all 96 tiles and 99 cards are
accounted for, hands hold at most 4 cards (5 only while the discard is pending), no two markers
share a track space, the incrementally kept groups equal a full recompute, and domain scores only
change in a scoring step (never on a move, a pencils/hammers choice or a chance draw, except the
final scoring) and never fall."""
import random

import pytest

from tilecraft.games import gaudi as G

from gaudi_fixtures import make_state

MOVE_MAX, PENCILS, HAMMERS = G.CENTRAL_AREA, G.PENCILS, G.HAMMERS


def check(state):
    n = state.num_players()
    tiles = [0] * 16
    for t, c in enumerate(state.bag()):
        tiles[t] += c
    for area in state.areas():
        assert sum(area) <= 5
        for t, c in enumerate(area):
            tiles[t] += c
    shape_of = [(x + 2 * y) % 4 for y in range(6) for x in range(6)]
    for p in range(n):
        masks = state.board(p)
        for c, m in enumerate(masks):
            for b in range(36):
                if m >> b & 1:
                    tiles[4 * c + shape_of[b]] += 1
        for i in range(4):
            for j in range(i):
                assert masks[i] & masks[j] == 0
        inc = (tuple(state.largest_groups(p)), tuple(state.shape_components(p)))
        assert inc == state.recomputed_groups(p)
    if state.pending_tile() >= 0:
        tiles[state.pending_tile()] += 1
    assert tiles == [6] * 16, tiles
    where = [state.card_location(c)[0] for c in range(99)]
    assert where.count(0) == sum(state.deck_sizes())
    assert sum(len(w) for w in state.windows()) == where.count(1)
    assert sum(len(state.hand(p)) for p in range(n)) == where.count(2)
    assert sum(len(col) for p in range(n) for col in state.columns(p)) == where.count(3)
    assert len(state.discards()) == where.count(4)
    listed = [c for w in state.windows() for c in w] + [c for p in range(n) for c in state.hand(p)] + \
        [c for p in range(n) for col in state.columns(p) for c in col] + state.discards()
    assert len(listed) == len(set(listed))
    for p in range(n):
        assert len(state.hand(p)) <= (5 if state.phase_name() == "discarding" and state.current_player() == p else 4)
    on_track = [x for x in state.positions() if 0 <= x < 48]
    assert len(on_track) == len(set(on_track))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_after_every_action(players):
    for seed in range(3):
        state = make_state(players, seed)
        rng = random.Random(seed)
        check(state)
        while not state.is_terminal():
            before = [state.domain_scores(p) for p in range(players)]
            legal = state.legal_actions()
            a = int(legal[rng.randrange(len(legal))])
            chance = state.is_chance_node()
            state.apply(a)
            check(state)
            after = [state.domain_scores(p) for p in range(players)]
            for b, x in zip(before, after):
                assert all(v >= u for u, v in zip(b, x)), "domain scores never fall"
            if (chance or a <= HAMMERS) and not state.is_terminal():
                assert before == after, f"scores changed outside a scoring step ({state.action_to_string(a) if not chance else 'chance'})"


def test_games_use_every_mechanism():
    """Over a batch of random 4-player games, the main mechanisms all occur."""
    seen = set()
    for seed in range(30):
        state = make_state(4, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            a = int(legal[rng.randrange(len(legal))])
            if not state.is_chance_node():
                words = state.action_to_string(a).split()
                seen.add(" ".join(words[:2]) if words[0] in ("take", "play", "discard") else words[0])
                seen.add(("phase", state.phase()))
            state.apply(a)
    for name in ("move", "pencils", "hammers", "take card", "play card", "discard card", "advance", "central",
                 "resolve", "place", "done", "take tile"):
        assert name in seen, name
