"""tilecraft.strength: head_to_head's game ranges, combine, and the issues' target rule."""
import pytest

from tilecraft import ratings
from tilecraft.match import play_match
from tilecraft.strength import combine, format_row, head_to_head, meets


def _pairing(**kw):
    return head_to_head("azul", "random", "random", seed=321, **kw)


def test_each_game_is_seed_plus_i_with_the_bot_in_seat_i_mod_players():
    for i in range(8):
        r = play_match("azul", ["random", "random"], seed=321 + i)
        seat = i % 2
        share = 1 / len(r.winners) if seat in r.winners else 0.0  # a shared win counts 1/k
        assert _pairing(games=1, first=i)["wins"] == share


def test_parts_played_apart_add_up_to_the_whole():
    whole = _pairing(games=8)
    assert 0 < whole["wins"] < 8  # both seats win some of these games, so the parts can differ
    a, b = _pairing(games=3), _pairing(games=5, first=3)
    assert (a["first"], b["first"]) == (0, 3)
    joined = combine([b, a])  # any order
    assert joined["games"] == 8 and joined["first"] == 0
    assert joined["wins"] == whole["wins"] == a["wins"] + b["wins"]
    assert (joined["share"], joined["low"], joined["high"]) == (whole["share"], whole["low"], whole["high"])
    assert joined["moves"] == whole["moves"] and joined["opponent_moves"] == whole["opponent_moves"]
    assert "3..7, " in format_row(b) and ".." not in format_row(whole)


def test_combine_refuses_parts_that_are_not_one_measurement():
    a = _pairing(games=1)
    b = _pairing(games=1, first=2)
    with pytest.raises(ValueError, match="follow each other: games 0..0 then a part starting at game 2"):
        combine([a, b])
    other = dict(a, first=1, bot="mcts")
    with pytest.raises(ValueError, match="differ in bot: bot 'random' and 'mcts'"):
        combine([a, other])
    with pytest.raises(ValueError, match="no results"):
        combine([])


@pytest.mark.parametrize("bad", [-1, 1.5, True, "0"])
def test_first_must_be_a_game_index(bad):
    with pytest.raises(ValueError, match="first must be an integer >= 0"):
        head_to_head("azul", "greedy", "random", games=1, first=bad)


def test_a_target_needs_the_share_and_an_interval_above_the_equal_share():
    # 116 of 200 (0.58): Wilson's lower end, by hand, (0.58 + 0.009604 - 1.96 * sqrt(0.001218 + 0.000024))
    # / 1.019208 = 0.5107, above 0.5; 110 of 200 (0.55): 0.4808, not above it
    lo, hi = ratings.wilson(116, 200)
    assert lo == pytest.approx(0.5107, abs=1e-4)
    assert meets(dict(share=0.58, low=lo, high=hi, equal=0.5), 0.55)
    lo, hi = ratings.wilson(110, 200)
    assert lo == pytest.approx(0.4808, abs=1e-4)
    assert not meets(dict(share=0.55, low=lo, high=hi, equal=0.5), 0.55)  # the share alone is not enough
    assert not meets(dict(share=0.58, low=0.5107, high=0.65, equal=0.5), 0.60)  # nor the interval alone


def test_time_per_move_is_part_of_every_result():
    """Each side's mean time per move comes with the win share; with a tolerance the result says
    whether the pairing was at equal time, and format_row says so where it was not."""
    r = head_to_head("azul", "greedy", "random", games=2, seed=5, time_tolerance=0.2)
    assert r["seconds_per_move"] > 0 and r["opponent_seconds_per_move"] > 0
    assert r["time_ratio"] == pytest.approx(r["seconds_per_move"] / r["opponent_seconds_per_move"])
    a, b = r["seconds_per_move"], r["opponent_seconds_per_move"]
    assert r["equal_time"] == (abs(a - b) <= 0.2 * max(a, b))
    fake = dict(r, seconds_per_move=0.05, opponent_seconds_per_move=0.01, equal_time=False)
    assert "NOT at equal time: the times differ by more than 20%" in format_row(fake)
    assert "NOT" not in format_row(dict(fake, equal_time=True))
    for bad in (-0.1, 1.0, float("nan"), True, "0.2"):
        with pytest.raises(ValueError, match="time_tolerance must be a fraction in \\[0, 1\\)"):
            head_to_head("azul", "greedy", "random", games=1, time_tolerance=bad)
