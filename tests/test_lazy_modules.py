"""The documented spelling `import tilecraft; tilecraft.baselines.load("azul")` works (issue 45: it
raised AttributeError), for every public submodule, without `import tilecraft` importing them."""
import json
import subprocess
import sys

import importlib

import pytest


def _fresh(code):
    """Runs code in a fresh interpreter (nothing imported yet) and returns what it prints as JSON."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_documented_spelling_works_and_import_tilecraft_stays_lazy():
    got = _fresh(
        "import json, sys, tilecraft\n"
        "before = sorted(m for m in ('tilecraft.baselines', 'tilecraft.strength', 'tilecraft.testing',"
        " 'tilecraft.adapters', 'tilecraft.train') if m in sys.modules)\n"
        "net = tilecraft.baselines.load('azul')\n"
        "print(json.dumps(dict(before=before, net=net.meta['game'], wilson=tilecraft.strength.wilson(5, 10)[0] > 0,"
        " nim=callable(tilecraft.testing.nim), listed='baselines' in dir(tilecraft))))\n")
    assert got == dict(before=[], net="azul", wilson=True, nim=True, listed=True)


def test_every_public_submodule_is_an_attribute_and_other_names_are_not():
    import pkgutil

    import tilecraft

    names = [m.name for m in pkgutil.iter_modules(tilecraft.__path__) if not m.name.startswith("_")]
    assert {"baselines", "strength", "testing", "adapters", "train"} <= set(names)
    got = _fresh("import json, tilecraft\n"
                 f"print(json.dumps([n for n in {names!r} if n not in tilecraft.__all__ "  # tilecraft.tournament: the function
                 "and getattr(tilecraft, n).__name__ not in ('tilecraft.' + n, 'tilecraft.agents.' + n)]))\n")
    assert got == []
    moved = ["baselines", "bots", "presets", "puct", "search_options", "selfplay", "strength", "train"]
    for name in moved:  # the old spellings of the agents' modules give those modules themselves
        assert getattr(tilecraft, name) is importlib.import_module(f"tilecraft.agents.{name}"), name
        assert importlib.import_module(f"tilecraft.{name}") is getattr(tilecraft, name), name
    with pytest.raises(AttributeError, match="has no attribute 'no_such_module'"):
        tilecraft.no_such_module
    with pytest.raises(AttributeError):
        tilecraft._core_private_name


def test_the_adapters_are_attributes_of_tilecraft_adapters():
    pytest.importorskip("gymnasium")
    got = _fresh("import json, tilecraft\n"
                 "print(json.dumps(tilecraft.adapters.gymnasium.BotOpponentEnv.__name__))\n")
    assert got == "BotOpponentEnv"
