"""Solo (players=1, expert) against the Gaudí automa passes the conformance harness for the four
difficulties in both chance modes. In solo play nobody wins when the automa does (GA-SOLO-END-5): the
harness accepts winners() == [] or [0] for a one-player game."""
import random

import numpy as np
import pytest

from conformance import check_malformed_states, check_replay_from_history, check_seat_arguments, play_and_check
from gaudi_fixtures import NAME, make_state

play_and_check_solo = play_and_check
check_replay_from_history_solo = check_replay_from_history

CONFIGS = [dict(difficulty=d, chance=c) for d in ("easy", "normal", "hard", "crazy") for c in ("sampled", "explicit")] + [
    dict(difficulty="normal", returns_mode="win_loss", mode="expert")]


# The first configuration runs by default; the others are repetition for `pytest -m slow`.
@pytest.mark.parametrize("options", [c if i == 0 else pytest.param(c, marks=pytest.mark.slow) for i, c in enumerate(CONFIGS)], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_solo_random_games_conform(options):
    for seed in range(3):
        play_and_check_solo(lambda s: make_state(1, s, **options), seed, check_illegal_every=5)


def test_solo_default_edition_conforms():
    import tilecraft
    for d in ("easy", "crazy"):
        play_and_check_solo(lambda s: tilecraft.make("gaudi", players=1, seed=s, difficulty=d), 2, check_illegal_every=20)


@pytest.mark.parametrize("options", [dict(), dict(chance="explicit")])
def test_solo_game_reproduced_from_seed_and_history(options):
    check_replay_from_history_solo(lambda s: make_state(1, s, **options), 11)


def test_solo_malformed_states_are_rejected():
    state = make_state(1, 4)
    for _ in range(15):
        state.apply(int(state.legal_actions()[0]))
    check_malformed_states(state)
    check_seat_arguments(state)


def test_solo_batch_playouts():
    # the harness's check_playouts asserts a winner per game; here: the shapes, determinism, and
    # winners 0 or 1 per game (the solo player, or nobody when the automa wins)
    import tilecraft
    a = tilecraft.random_playouts("gaudi", 200, seed=5, threads=1, players=1, data=NAME, difficulty="hard")
    b = tilecraft.random_playouts("gaudi", 200, seed=5, threads=1, players=1, data=NAME, difficulty="hard")
    for key in ("scores", "returns", "winners", "length"):
        assert np.array_equal(a[key], b[key])
    assert a["scores"].shape == (200, 1) and np.all(a["winners"].sum(axis=1) <= 1)
    assert np.all((a["returns"][:, 0] > 0) == (a["winners"][:, 0] == 1))


def test_solo_returns_are_the_margin_or_plus_minus_one():
    for seed in range(6):
        for rm in ("score", "win_loss"):
            s = make_state(1, seed, returns_mode=rm)
            rng = random.Random(seed)
            while not s.is_terminal():
                la = s.legal_actions()
                s.apply(int(la[rng.randrange(len(la))]))
            final, automa = s.scores()[0], s.automa_score()
            if rm == "score":
                assert s.returns()[0] == final - automa
            else:
                assert s.returns()[0] == (1.0 if final > automa else -1.0)
            assert list(s.winners()) == ([0] if final > automa else [])
