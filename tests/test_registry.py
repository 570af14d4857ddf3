"""The registry and tilecraft.make: every game is reachable, and bad arguments say what is allowed."""
import numpy as np
import pytest

import tilecraft


def test_list_games_includes_azul_and_is_sorted():
    games = tilecraft.list_games()
    assert "azul" in games and list(games) == sorted(games)


@pytest.mark.parametrize("game", tilecraft.list_games())
def test_every_game_makes_a_default_state(game):
    spec = tilecraft.game_spec(game)
    state = tilecraft.make(game, players=spec.players[0])
    assert state.num_players() == spec.players[0]
    assert type(state).game_name == game
    assert not state.is_terminal()


def test_unknown_game_lists_the_games():
    with pytest.raises(tilecraft.UnknownGameError) as info:
        tilecraft.make("chess")
    assert "azul" in str(info.value) and "chess" in str(info.value)
    assert isinstance(info.value, KeyError)


def test_bad_seed_type():
    with pytest.raises(ValueError):
        tilecraft.make("azul", seed="x")


def test_core_rejects_bad_config_dicts_too():
    good = tilecraft.make_config("azul", players=2)
    with pytest.raises(tilecraft.InvalidConfigError):
        tilecraft._core.AzulState(dict(good, players=7), 0)
    with pytest.raises(tilecraft.InvalidConfigError):
        tilecraft._core.AzulState({k: v for k, v in good.items() if k != "players"}, 0)
    with pytest.raises(tilecraft.InvalidConfigError):
        tilecraft._core.AzulState(dict(good, extra=1), 0)


def test_same_seed_same_game_different_seed_different_deal():
    a, b, c = (tilecraft.make("azul", seed=s) for s in (5, 5, 6))
    assert a.to_json() == b.to_json()
    assert a.to_json() != c.to_json()


def test_random_playouts_arguments():
    with pytest.raises(ValueError):
        tilecraft.random_playouts("azul", -1)
    with pytest.raises(ValueError):
        tilecraft.random_playouts("azul", 10, threads=0)
    with pytest.raises(tilecraft.InvalidConfigError):
        tilecraft.random_playouts("azul", 10, players=9)
    r = tilecraft.random_playouts("azul", 0)
    assert r["scores"].shape == (0, 2)
    cfg = dict(tilecraft.make_config("azul", players=3), game="azul")
    assert tilecraft.random_playouts(cfg, 5)["scores"].shape == (5, 3)


def test_seeds_are_0_to_2_64_minus_1():
    """One seed rule everywhere (issue 9): an integer in 0..2**64-1, Python or numpy; anything else
    is a ValueError naming the argument (it used to be taken modulo 2**64, silently)."""
    assert tilecraft.make("azul", seed=2**64 - 1).to_json() == tilecraft.make("azul", seed=np.uint64(2**64 - 1)).to_json()
    for bad in (2**64 + 5, -1, 2**70):
        with pytest.raises(ValueError, match="seed must be in 0..18446744073709551615"):
            tilecraft.make("azul", seed=bad)
        with pytest.raises(ValueError, match="seed must be in 0..18446744073709551615"):
            tilecraft.random_playouts("azul", 5, seed=bad)
        with pytest.raises(ValueError, match="seed must be in 0..18446744073709551615"):
            tilecraft.play_match("azul", ["random", "random"], seed=bad)
    result = tilecraft.play_match("azul", ["random", "random"], seed=2**64 - 1)
    assert result.scores
