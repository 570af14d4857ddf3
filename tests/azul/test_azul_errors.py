"""Bad input to Azul: configurations, illegal actions, finished games, broken saved states.
Rule IDs concerned: AZ-SCOPE-3 (player counts), AZ-AMB-5/14/16 (option values), AZ-MOVE-1/2/6 and
AZ-AMB-12 (illegal takes, with the reason in the message)."""
import json

import pytest

import tilecraft
from azul_fixtures import AzulState, B, CENTRE, FLOOR, R, Y, act, line, position


# ---------------------------------------------------------------- configuration

@pytest.mark.parametrize("players", [1, 5, 0, -2, "2", 2.0, True, None])
def test_AZ_SCOPE_3_bad_player_counts_name_the_allowed_ones(players):
    """AZ-SCOPE-3: anything but the integers 2, 3, 4 is rejected; the message lists them."""
    with pytest.raises(tilecraft.InvalidConfigError) as info:
        tilecraft.make("azul", players=players)
    assert "2, 3, 4" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_unknown_option_lists_the_options():
    with pytest.raises(tilecraft.InvalidConfigError) as info:
        tilecraft.make("azul", first_playr=1)
    msg = str(info.value)
    assert "first_playr" in msg
    for name in ("chance", "first_player", "returns_mode", "max_rounds"):
        assert name in msg


@pytest.mark.parametrize("options,allowed", [
    (dict(chance="random"), ["'sampled'", "'explicit'"]),
    (dict(chance=1), ["'sampled'", "'explicit'"]),
    (dict(returns_mode="wins"), ["'score'", "'win_loss'"]),   # AZ-AMB-14
    (dict(first_player=2), ["-1", "0..1"]),                     # AZ-AMB-5, 2 players
    (dict(players=3, first_player=3), ["-1", "0..2"]),
    (dict(first_player=-2), ["-1", "0..1"]),
    (dict(first_player="0"), ["integer"]),
    (dict(first_player=True), ["integer"]),
    (dict(max_rounds=0), ["1..10000"]),                          # AZ-AMB-16
    (dict(max_rounds=10001), ["1..10000"]),
    (dict(max_rounds=1.5), ["integer"]),
])
def test_AZ_AMB_5_AZ_AMB_14_AZ_AMB_16_bad_option_values_name_what_is_allowed(options, allowed):
    """AZ-AMB-5 (first_player), AZ-AMB-14 (returns_mode), AZ-AMB-16 (max_rounds), chance mode: a bad
    value is rejected and the message names the option and the allowed values."""
    with pytest.raises(tilecraft.InvalidConfigError) as info:
        tilecraft.make("azul", **options)
    msg = str(info.value)
    name = [k for k in options if k != "players"][0]
    assert name in msg
    for text in allowed:
        assert text in msg, msg


def test_unknown_game_and_bad_seed():
    with pytest.raises(tilecraft.UnknownGameError, match="azul"):
        tilecraft.make("azool")
    with pytest.raises(tilecraft.InvalidConfigError, match="seed"):
        tilecraft.make("azul", seed="x")


def test_core_config_rejects_bad_values_too():
    """The C++ config check behind the Python one: players 5 is refused with the allowed counts."""
    cfg = tilecraft.make_config("azul", players=2)
    cfg["players"] = 5
    with pytest.raises(tilecraft.InvalidConfigError, match="2, 3 or 4"):
        AzulState(cfg, 0)


# ---------------------------------------------------------------- illegal actions

def reason_position():
    # seat 0: line 2 holds red, line 1 is full (blue), wall row 3 has yellow (col 4)
    return position(factories={1: "BBRY", 2: "YYKW"}, centre="R",
                    boards={0: dict(lines={1: "B", 2: "R"}, wall=[".....", ".....", "...Y.", ".....", "....."])})


@pytest.mark.parametrize("action,words", [
    (300, ["out of range", "0..299"]),
    (-1, ["out of range"]),
    (10 ** 12, ["out of range"]),
    (act(6, B, FLOOR), ["factory 6", "not in play"]),              # AZ-SETUP-1: 2 players, 5 factories
    (act(3, B, FLOOR), ["factory 3", "no blue"]),                  # AZ-MOVE-1: empty source
    (act(1, 3, FLOOR), ["factory 1", "no black"]),                 # AZ-MOVE-2: colour not there
    (act(CENTRE, B, FLOOR), ["centre", "no blue"]),
    (act(1, Y, line(2)), ["line 2", "red"]),                       # AZ-MOVE-6 (a)
    (act(1, B, line(1)), ["line 1", "full"]),                      # AZ-AMB-12
    (act(2, Y, line(3)), ["row 3", "yellow"]),                     # AZ-MOVE-6 (b)
])
def test_AZ_MOVE_6_illegal_action_reason_and_state_unchanged(action, words):
    """AZ-MOVE-1, AZ-MOVE-2, AZ-MOVE-6, AZ-AMB-12: an illegal action raises IllegalActionError (a
    ValueError) whose message names the action and why; the state is unchanged."""
    s = reason_position()
    before = s.to_json()
    with pytest.raises(tilecraft.IllegalActionError) as info:
        s.apply(action)
    assert isinstance(info.value, ValueError)
    msg = str(info.value)
    for w in words:
        assert w in msg, msg
    if 0 <= action < 300:
        assert str(action) in msg
    assert s.to_json() == before
    assert not s.is_legal(action)


def test_illegal_outcome_at_a_chance_node():
    """At an explicit chance node only colours still in the bag are outcomes; a player action id is
    refused, the message says it is a chance node, and nothing changes."""
    s = tilecraft.make("azul", players=4, chance="explicit")  # 36 draws: still drawing after 20
    for _ in range(20):
        s.apply(R)  # all 20 reds
    assert s.is_chance_node() and [o for o, _ in s.chance_outcomes()] == [0, 1, 3, 4]
    before = s.to_json()
    for bad in (R, 5, act(1, B, FLOOR), -1):
        with pytest.raises(tilecraft.IllegalActionError, match="chance"):
            s.apply(bad)
    assert s.to_json() == before


def test_actions_on_a_finished_game():
    """AZ-END-1: once the game is over nothing can be applied; legal_actions is empty."""
    s = position(factories={1: "K"}, boards={1: dict(wall=["xxxx.", ".....", ".....", ".....", "....."], lines={1: "W"})})
    s.apply(act(1, 3, line(5)))
    assert s.is_terminal()
    before = s.to_json()
    for a in (0, act(1, 3, FLOOR), 299, -1):
        with pytest.raises(tilecraft.IllegalActionError, match="over"):
            s.apply(a)
    assert s.to_json() == before
    assert len(s.legal_actions()) == 0 and s.current_player() == tilecraft.TERMINAL


# ---------------------------------------------------------------- saved states

def saved():
    s = tilecraft.make("azul", players=3, seed=6)
    s.apply(int(s.legal_actions()[0]))
    return s.to_json()


@pytest.mark.parametrize("cut", [0, 1, 10, 100, -1, -20])
def test_truncated_json_is_rejected(cut):
    text = saved()[:cut]
    with pytest.raises(tilecraft.InvalidStateError):
        tilecraft.from_json(text)
    with pytest.raises(tilecraft.InvalidStateError):
        AzulState.from_json(text)


@pytest.mark.parametrize("text", ["", "not json", "{", "[]", "null", "42", '"azul"', "{}", '{"game": "azul"}'])
def test_malformed_json_is_rejected(text):
    with pytest.raises(tilecraft.InvalidStateError) as info:
        tilecraft.from_json(text)
    assert str(info.value)


def test_json_of_another_game_is_rejected():
    data = json.loads(saved())
    data["game"] = "castle"
    text = json.dumps(data)
    with pytest.raises(ValueError, match="castle"):
        tilecraft.from_json(text)
    with pytest.raises(tilecraft.InvalidStateError, match="not a 'azul' state"):
        AzulState.from_json(text)
    with pytest.raises(tilecraft.InvalidStateError):
        AzulState.from_dict(data)


def test_AZ_AMB_1_loaded_state_with_wrong_tile_total_is_rejected():
    """AZ-AMB-1: a saved state with 21 blue tiles (one extra in the bag) or 19 is refused, naming the
    colour and the rule of 20."""
    for delta in (1, -1):
        data = json.loads(saved())
        data["state"]["bag"][B] += delta
        with pytest.raises(tilecraft.InvalidStateError, match="20 blue"):
            tilecraft.from_json(json.dumps(data))


def test_AZ_MOVE_6_loaded_line_against_its_wall_row_is_rejected():
    """AZ-MOVE-6 (b): a state whose line 1 holds blue while wall row 1 has blue cannot be loaded."""
    good = position(factories={1: "YYYY"}, boards={0: dict(wall=["B....", ".....", ".....", ".....", "....."])}).to_dict()
    good["state"]["line_colour"][0][0] = B
    good["state"]["line_count"][0][0] = 1
    good["state"]["bag"][B] -= 1
    with pytest.raises(tilecraft.InvalidStateError, match="already has"):
        AzulState.from_dict(good)


def test_AZ_AMB_2_loaded_overfull_line_is_rejected():
    """AZ-AMB-2: line 2 with 3 tiles cannot be loaded."""
    d = position(factories={1: "YYYY"}, boards={0: dict(lines={2: "RR"})}).to_dict()
    d["state"]["line_count"][0][1] = 3
    d["state"]["bag"][R] -= 1
    with pytest.raises(tilecraft.InvalidStateError, match="line_count"):
        AzulState.from_dict(d)
