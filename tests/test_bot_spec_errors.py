"""A bot spec with an option the bot does not take names the bot and lists its options, for every
bot kind alike (issue 45: `--bots mcts:iteration=5` leaked "MCTSBot.__init__() got an unexpected
keyword argument")."""
import pytest

import tilecraft
from tilecraft.bots import BOT_FACTORIES, bot_options, make_bot, register_bot


@pytest.mark.parametrize("name", sorted(BOT_FACTORIES))
def test_an_unknown_option_names_the_bot_and_lists_its_options(name):
    with pytest.raises(ValueError) as e:
        make_bot(f"{name}:no_such_option=5")
    message = str(e.value)
    assert f"bot {name!r}" in message and "'no_such_option'" in message, message
    assert "__init__" not in message and "unexpected keyword" not in message, message
    options = bot_options(BOT_FACTORIES[name])
    assert options and "seed" in options
    assert f"its options are {', '.join(options)}" in message, message


def test_a_near_miss_is_suggested_and_an_option_given_twice_is_refused():
    with pytest.raises(ValueError, match=r"bot 'mcts': it has no option 'iteration' \(did you mean 'iterations'\?\)"):
        make_bot("mcts:iteration=5")
    with pytest.raises(ValueError, match="'iterations' is given twice"):
        make_bot("mcts:iterations=5,iterations=6")


def test_bots_by_import_path_and_registered_bots_get_the_same_message():
    with pytest.raises(ValueError, match="bot 'tilecraft.bots:RandomBot': it has no option 'depth'; its options are seed"):
        make_bot("tilecraft.bots:RandomBot:depth=3")

    class Open:  # takes any option: its own constructor decides
        def __init__(self, **options):
            self.options = options

        def act(self, state):
            return int(state.legal_actions()[0])

    register_bot("test-open", Open)
    try:
        assert make_bot("test-open:depth=3").options == {"depth": 3}
    finally:
        del BOT_FACTORIES["test-open"]


def test_the_cli_says_it_too(capsys):
    from tilecraft.cli import main

    assert main(["match", "azul", "--bots", "mcts:iteration=5,random", "--games", "1"]) != 0
    err = capsys.readouterr().err
    assert "it has no option 'iteration'" in err and "iterations" in err, err
    assert tilecraft.make_bot("mcts:iterations=5")  # the right spelling works
