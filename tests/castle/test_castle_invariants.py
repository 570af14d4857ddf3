"""Random complete games on the built-in data, checked for invariants at every step: followers
(never more than 7 per player counting the marker), every tile placed once or set aside, scores
equal to the sum of their scoring events, the keep only growing."""
import random

import numpy as np
import pytest

import tilecraft
from tilecraft.games import castle as cdata
from conformance import random_step

COUNTS = [t["count"] for t in cdata.load_tiles()["tiles"]]

OPTIONS = [dict(), dict(chance="explicit", first_player=-1), dict(bonus1_mode="draw_two_choose_one"),
           dict(scoring_order="canonical", bonus7_scope="all_courtyards", start_bonus_tiles=False)]


def check(s, prev_scores, prev_cats, prev_keep):
    board = s.board()
    placed = [int((board[:, :, 0] == t).sum()) for t in range(len(COUNTS))]
    supply, removed = list(s.supply()), list(s.removed())
    in_hand = [0] * len(COUNTS)
    if s.phase_name() in ("choosing which drawn tile to keep", "placing the tile") and s.current_tile() >= 0:
        in_hand[s.current_tile()] += 1
    if s.alt_tile() >= 0:
        in_hand[s.alt_tile()] += 1
    for t, n in enumerate(COUNTS):
        assert placed[t] + supply[t] + removed[t] + in_hand[t] == n
    assert len(s.placed_cells()) == sum(placed) == len(set(s.placed_cells()))
    on_board = [0, 0]
    for f in s.followers():
        on_board[f["seat"]] += 1
    for p in (0, 1):
        assert on_board[p] + s.followers_in_supply(p) == 6  # + the score marker = 7
    cats = s.scores_by_category()
    scores = s.scores()
    assert np.array_equal(cats.sum(axis=1), scores)  # scores = sum of the scoring events
    assert np.all(scores >= prev_scores) and np.all(cats >= prev_cats)
    keep = [s.keep(p)[0] for p in (0, 1)]
    assert all(k >= pk for k, pk in zip(keep, prev_keep))
    return scores, cats, keep


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_random_games_keep_invariants(options):
    for seed in range(12):
        rng = random.Random(seed)
        s = tilecraft.make("castle", seed=seed, **options)
        prev = (np.zeros(2), np.zeros((2, 7)), [0, 0])
        while not s.is_terminal():
            prev = check(s, *prev)
            random_step(s, rng)
        check(s, *prev)
        # every tile was placed or set aside; followers on unfinished areas stay on the board
        assert int(s.supply().sum()) == 0 and s.current_tile() == -1
        assert len(s.placed_cells()) + int(s.removed().sum()) == 60


def test_playout_scores_are_plausible():
    """Batch playouts: scores from areas only (no negative points), a winner in every game."""
    r = tilecraft.random_playouts("castle", 300, seed=3)
    assert np.all(r["scores"] >= 0) and np.all(r["winners"].sum(axis=1) >= 1)
    assert r["scores"].mean() > 5


def test_mutated_saved_states_are_rejected_or_playable():
    """Bad input: a saved state with random fields changed either fails to load with a ValueError or
    plays to the end without error (validate() guards every method)."""
    import json
    rng = random.Random(11)
    outcomes = {"rejected": 0, "loaded": 0}
    for it in range(80):
        s = tilecraft.make("castle", seed=it, **rng.choice(OPTIONS))
        for _ in range(rng.randrange(0, 120)):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply(int(legal[rng.randrange(len(legal))]))
        d = json.loads(s.to_json())
        key = rng.choice(list(d["state"]))

        def mutate(x):
            if isinstance(x, list):
                if x:
                    i = rng.randrange(len(x))
                    x[i] = mutate(x[i])
                return x
            return rng.choice([0, 1, 2, 3, 7, 8, 9, 11, 63, 64, 99, 100, 127, 128, 254, 255, x + 1])
        d["state"][key] = mutate(d["state"][key])
        try:
            t = tilecraft.from_json(json.dumps(d))
        except ValueError as e:
            assert str(e)
            outcomes["rejected"] += 1
            continue
        outcomes["loaded"] += 1
        for _ in range(3000):
            if t.is_terminal():
                break
            legal = t.legal_actions()
            assert len(legal) > 0
            t.apply(int(legal[rng.randrange(len(legal))]))
        assert t.is_terminal()
    assert outcomes["rejected"] > 0 and outcomes["loaded"] > 0
