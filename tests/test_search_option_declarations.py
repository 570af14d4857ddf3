"""Each search option is declared once, in C++ (issue 47, item 1): PuctConfig's and MctsConfig's
visit() list their fields with kind, default, range and description, and tilecraft._core exports
them. These tests compare the declarations with what Python accepts, so that a field added in C++
and not to the bot (or a bot parameter that C++ does not know) fails here. Where a bot's parameters
differ from its configuration's fields, tilecraft.search_options says so and why
(PUCT_FIELDS_TAKEN_OTHERWISE, PUCT_PYTHON_ONLY, MCTS_FIELDS_TAKEN_OTHERWISE):

- PUCTBot takes PuctConfig's noise_alpha and noise_fraction as root_noise=(alpha, fraction);
- PUCTBot's evaluator and values (the evaluator's scale) are Python's own: C++ gets the evaluator's
  output, already converted;
- MCTSBot and ISMCTSBot take MctsConfig's determinize from their class ('search', 'iteration').
"""
import inspect

import pytest

import tilecraft
from tilecraft import _core, search_options
from tilecraft.bots import ISMCTSBot, MCTSBot, make_bot

KEYS = ["name", "kind", "default", "low", "high", "choices", "range", "doc"]


def _parameters(cls):
    return {p.name: p.default for p in inspect.signature(cls).parameters.values()}


def _declared(options):
    return {o["name"]: o for o in options}


@pytest.mark.parametrize("options", [_core.puct_options(), _core.mcts_options()], ids=["puct", "mcts"])
def test_the_declarations_are_complete(options):
    names = [o["name"] for o in options]
    assert len(names) == len(set(names)), names
    for o in options:
        assert list(o) == KEYS, o
        assert o["kind"] in ("integer", "number", "flag", "seed", "choice"), o
        assert o["doc"] and "\n" not in o["doc"], o
        if o["kind"] == "choice":
            assert o["default"] in o["choices"], o
        if o["kind"] in ("integer", "number", "seed"):
            assert o["low"] is None or o["default"] >= o["low"] or o["range"].startswith("in ("), o
            assert o["high"] is None or o["default"] <= o["high"], o


def test_puct_bot_takes_every_puct_option():
    fields = _declared(_core.puct_options())
    params = _parameters(tilecraft.PUCTBot)
    expected = (set(fields) - set(search_options.PUCT_FIELDS_TAKEN_OTHERWISE)) | set(search_options.PUCT_PYTHON_ONLY)
    assert set(params) == expected, (f"PUCTBot lacks {sorted(expected - set(params))}, "
                                     f"takes unknown {sorted(set(params) - expected)}")
    for name, default in params.items():  # None: the preset's or the search's own choice
        if name in fields and default is not None:
            assert default == fields[name]["default"], (name, default, fields[name]["default"])


@pytest.mark.parametrize("cls", [MCTSBot, ISMCTSBot])
def test_mcts_bots_take_every_mcts_option(cls):
    fields = _declared(_core.mcts_options())
    params = _parameters(cls)
    expected = set(fields) - set(search_options.MCTS_FIELDS_TAKEN_OTHERWISE)
    assert set(params) == expected, (f"{cls.__name__} lacks {sorted(expected - set(params))}, "
                                     f"takes unknown {sorted(set(params) - expected)}")
    for name, default in params.items():
        if default is not None:
            assert default == fields[name]["default"], (name, default, fields[name]["default"])
    assert cls.determinize in fields["determinize"]["choices"]


def test_the_exceptions_name_real_fields_and_parameters():
    puct, mcts = _declared(_core.puct_options()), _declared(_core.mcts_options())
    assert set(search_options.PUCT_FIELDS_TAKEN_OTHERWISE) <= set(puct)
    assert not set(search_options.PUCT_PYTHON_ONLY) & set(puct)
    assert set(search_options.PUCT_PYTHON_ONLY) <= set(_parameters(tilecraft.PUCTBot))
    assert set(search_options.MCTS_FIELDS_TAKEN_OTHERWISE) <= set(mcts)


def test_the_searchers_take_exactly_the_declared_options():
    state = tilecraft.make("nim") if "nim" in tilecraft.list_games() else tilecraft.make("azul")
    names = ", ".join(o["name"] for o in _core.mcts_options())
    with pytest.raises(ValueError, match=rf"^mcts: unknown option 'iteration'; the options are: {names}$"):
        type(state).Searcher(iteration=3)
    names = ", ".join(o["name"] for o in _core.puct_options())
    with pytest.raises(ValueError, match=rf"^puct: unknown option 'simulation'; the options are: {names}$"):
        type(state).PUCTSearcher(simulation=3)


@pytest.mark.parametrize("kind", ["puct", "mcts"])
def test_every_declared_range_is_what_the_check_enforces(kind):
    """For each bounded option, the bound itself passes and one step past it fails with the
    declared range in the message (beside options that keep the rules between fields: worlds <=
    simulations, and iterations 0 only with a time budget)."""
    options = _core.puct_options() if kind == "puct" else _core.mcts_options()
    check = _core.check_puct_options if kind == "puct" else (lambda **o: _core.check_mcts_options("mcts", **o))
    for o in options:
        if o["kind"] not in ("integer", "number"):
            continue
        base = {"simulations": 1000} if kind == "puct" else {"seconds": 1.0, "iterations": 1000}
        base.pop(o["name"], None)
        for bound, past in ((o["low"], -1), (o["high"], 1)):
            if bound is None:
                continue
            if not (o["name"] == "noise_alpha" and past < 0):  # declared open there: (0, 1e6]
                check(**base, **{o["name"]: bound})
            step = 1 if o["kind"] == "integer" else max(abs(bound) * 1e-9, 1e-12)
            with pytest.raises(ValueError, match=rf"^{kind}: {o['name']} must be {_re(o['range'])}, got "):
                check(**base, **{o["name"]: bound + past * step})


def _re(text):
    import re

    return re.escape(text)


def test_a_spec_with_a_misspelled_option_lists_the_bot_options():
    with pytest.raises(ValueError, match=r"it has no option 'iteration' \(did you mean 'iterations'\?\)"):
        make_bot("mcts:iteration=3")


def test_the_cli_help_lists_the_declared_options(capsys):
    from tilecraft.cli import main

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    mcts = [o["name"] for o in _core.mcts_options() if o["name"] not in search_options.MCTS_FIELDS_TAKEN_OTHERWISE]
    assert f"mcts and ismcts take {', '.join(mcts)};" in text


def test_the_docs_show_puct_bots_signature():
    """docs/search.md writes PUCTBot's signature out (its options' table is drawn from C++)."""
    import pathlib

    page = pathlib.Path(__file__).resolve().parent.parent / "docs" / "search.md"
    if not page.exists():
        pytest.skip("the docs are not next to the tests")
    shown = ", ".join(f"{name}={default!r}" for name, default in _parameters(tilecraft.PUCTBot).items())
    assert f"`PUCTBot({shown})`" in " ".join(page.read_text(encoding="utf-8").split())
