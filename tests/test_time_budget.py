"""Issue 48, item 1: a time budget per move for every search bot. PUCTBot and the baseline bot take
``seconds`` with MCTSBot's name and meaning: given alone it lifts every simulation cap (a network's
own included), given with a cap the search stops at whichever comes first. Nothing here measures a
time: the assertions hold on any machine (a budget of a microsecond is always past after a round of
leaves, one of an hour never is). The overshoot past the budget is measured in
bench/budget_overshoot.py."""
import numpy as np
import pytest

import tilecraft
from tilecraft import MCTSBot, PUCTBot, _core
from tilecraft.bots import BaselineBot, make_bot

TINY, HOUR = 1e-6, 3600.0


def test_a_budget_alone_lifts_the_simulation_cap():
    assert PUCTBot(None).options["simulations"] == 200
    assert PUCTBot(None, seconds=0.05).options["simulations"] == _core.PUCT_MAX_SIMULATIONS
    assert PUCTBot(None, seconds=0.05, simulations=30).options["simulations"] == 30
    state = tilecraft.make("azul", seed=1)
    baseline = BaselineBot(seconds=0.05)
    assert baseline.puct(state).options["simulations"] == _core.PUCT_MAX_SIMULATIONS  # the network's is lifted
    assert BaselineBot().puct(state).options["simulations"] != _core.PUCT_MAX_SIMULATIONS
    assert BaselineBot(seconds=0.05, simulations=30).puct(state).options["simulations"] == 30
    assert make_bot("baseline:seconds=0.05").options["seconds"] == 0.05


@pytest.mark.parametrize("game", ["azul", "castle", "warsaw", "gaudi"])
def test_the_cap_given_with_a_budget_ends_the_search_first(game):
    """A budget of an hour never runs out before 40 simulations: exactly 40 are made, the same
    search as without the budget (the budget adds no randomness while the cap decides)."""
    state = tilecraft.make(game, seed=2)
    capped = PUCTBot(None, simulations=40, seconds=HOUR, batch_size=1).search(state)
    plain = PUCTBot(None, simulations=40, batch_size=1).search(state)
    assert capped["simulations"] == 40
    np.testing.assert_array_equal(capped["visits"], plain["visits"])


@pytest.mark.parametrize("options", [dict(), dict(worlds=4), dict(determinize="iteration"),
                                     dict(determinize="hidden")])
def test_a_spent_budget_stops_after_the_round_that_gave_every_tree_a_simulation(options):
    """A microsecond is over after the first round: the search reports the simulations it made (at
    least one in each tree, at most one round of batch_size leaves per tree) and a legal move."""
    state = tilecraft.make("azul", seed=3)
    bot = PUCTBot(None, seconds=TINY, batch_size=8, **options)
    result = bot.search(state)
    worlds = options.get("worlds", 1)
    assert worlds <= result["simulations"] <= 8 * worlds
    assert int(result["action"]) in state.legal_actions().tolist()


def test_a_baseline_budget_counts_its_simulations():
    state = tilecraft.make("azul", seed=4)
    result = make_bot("baseline:seconds=0.000001").search(state)
    assert 1 <= result["simulations"] <= 8


@pytest.mark.parametrize("spec, bot", [("puct", "PUCTBot"), ("baseline", "BaselineBot"), ("mcts", "MCTSBot"),
                                       ("ismcts", "ISMCTSBot")])
@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf", "3601", "1e300"])
def test_a_bad_budget_is_refused_naming_the_bot_and_the_range(spec, bot, seconds):
    with pytest.raises(ValueError, match=rf"{bot}: seconds must be a time budget in \(0, 3600\] seconds per move"):
        make_bot(f"{spec}:seconds={seconds}")


def test_budgets_that_cannot_work_are_refused():
    with pytest.raises(ValueError, match="gumbel plans its simulations ahead"):
        PUCTBot(None, seconds=0.05, gumbel=True)
    with pytest.raises(ValueError, match="not deterministic.*simulations instead"):
        PUCTBot(None, seconds=0.05).spec("azul")
    with pytest.raises(ValueError, match="not deterministic"):
        tilecraft.self_play("azul", [PUCTBot("uniform", seconds=0.05), "random"], 1)
    assert MCTSBot(seconds=0.05).options["iterations"] is None  # MCTS's budget alone: no iteration cap either
