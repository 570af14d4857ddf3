"""Expert (night) mode passes the generic conformance harness for 2, 3 and 4 players in both chance
modes, and its states stay consistent (draft, chimney tiles, group data)."""
import pytest

from conformance import (check_malformed_states, check_playouts, check_replay_from_history,
                         check_seat_arguments, play_and_check)
from gaudi_fixtures import NAME, make_state

CONFIGS = [(players, dict(mode="expert", **opts)) for players in (2, 3, 4)
           for opts in (dict(), dict(chance="explicit"))] + [
    (4, dict(mode="expert", chance="explicit", first_player=-1)),
    (3, dict(mode="expert", first_player=2, returns_mode="win_loss", generic_distinct=False,
             early_religion_rescored=False, finished_markers_block_leader=True)),
]


# The first configuration runs by default; the others are repetition for `pytest -m slow`.
@pytest.mark.parametrize("players,options", [c if i == 0 else pytest.param(*c, marks=pytest.mark.slow) for i, c in enumerate(CONFIGS)],
                         ids=lambda o: str(o) if isinstance(o, int) else ",".join(f"{k}={v}" for k, v in o.items()))
def test_expert_random_games_conform(players, options):
    for seed in range(2):
        play_and_check(lambda s: make_state(players, s, **options), seed, check_illegal_every=7)


@pytest.mark.parametrize("options", [dict(mode="expert"), pytest.param(dict(mode="expert", chance="explicit"), marks=pytest.mark.slow)])
def test_expert_game_reproduced_from_seed_and_history(options):
    check_replay_from_history(lambda s: make_state(4, s, **options), 11)


def test_expert_malformed_states_are_rejected():
    state = make_state(3, 4, mode="expert")
    for _ in range(15):
        state.apply(int(state.legal_actions()[0]))
    check_malformed_states(state)
    check_seat_arguments(state)


@pytest.mark.parametrize("players,options", [(4, dict(mode="expert")), (2, dict(mode="expert", chance="explicit"))])
def test_expert_batch_playouts(players, options):
    check_playouts("gaudi", players=players, data=NAME, **options)


@pytest.mark.slow
def test_expert_default_edition_plays():
    import tilecraft
    for players in (2, 4):
        play_and_check(lambda s: tilecraft.make("gaudi", players=players, seed=s, mode="expert"), 1,
                       check_illegal_every=50)


@pytest.mark.slow
def test_expert_abilities_edition_conforms():
    # an edition where every night chimney's first space carries an ability (choose-one groups and
    # category choices come up often)
    import tilecraft
    from test_gaudi_expert_rules import _ability_edition

    _ability_edition()  # registers "ability-test"
    for players in (2, 4):
        for chance in ("sampled", "explicit"):
            play_and_check(lambda s: tilecraft.make("gaudi", players=players, seed=s, data="ability-test",
                                                    mode="expert", chance=chance), 5, check_illegal_every=5)
