"""Each rule of the runner is written once (issue 20), checked by reading the source under
python/ with ast (not by grepping), so a comment or a docstring never counts and a renamed
variable still does:

- chance sampling (a call of ``chance_outcomes()`` followed by a draw) is in one Python function,
  ``tilecraft.runner.sample_chance``;
- ``ray.init`` is called once, in ``tilecraft.distributed``;
- seeding (a bot seeded for its seat, a chance sampler seeded from the game seed) is in one
  module, ``tilecraft.runner``;
- no ``*_BASE =`` or ``PHASES =`` literal is left under python/ (the words are the C++ headers').
"""
import ast
import functools
import pathlib
import re
from typing import Dict, List, Set, Tuple

import pytest

PYTHON = pathlib.Path(__file__).resolve().parent.parent / "python"

# A call of one of these methods on anything is a draw from a random stream (random.Random,
# numpy's Generator, secrets.SystemRandom).
DRAWS = {"random", "randrange", "randint", "randbelow", "getrandbits", "choice", "choices", "uniform", "integers",
         "sample", "shuffle", "permutation"}
# Every function that may call chance_outcomes() at all, and why.
CHANCE_OUTCOMES_CALLERS = {
    ("tilecraft.runner", "sample_chance"): "the one sampler",
    # OpenSpiel's State.chance_outcomes() method: it converts the engine's list to OpenSpiel's
    # types and hands it to OpenSpiel, which does its own sampling; it draws nothing.
    ("tilecraft.adapters.openspiel", "chance_outcomes"): "a conversion, not sampling",
    # The conformance harness checks the list (probabilities sum to 1, outcomes = legal actions);
    # its random_step then samples with tilecraft.runner.sample_chance.
    ("tilecraft.testing._conformance", "_check_chance_outcomes"): "a check, not sampling",
}
# The numbers the seedings are made of (tilecraft/runner.py): the "match" mixer's constants, the
# "adapters" seat stride and chance key.
SEEDING_CONSTANTS = {0x9E3779B97F4A7C15, 0xD1B54A32D192ED03, 0xBF58476D1CE4E5B9, 7919, 0x5EED}


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PYTHON).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@functools.lru_cache(maxsize=None)
def _sources(root: pathlib.Path = PYTHON) -> Tuple[Tuple[str, ast.Module], ...]:
    """(module name, syntax tree) of every .py file under ``root`` (python/: the tilecraft package,
    and anything added beside it), parsed once per run."""
    return tuple((_module_name(path), ast.parse(path.read_text(encoding="utf-8"), str(path)))
                 for path in sorted(root.rglob("*.py")))


def _calls_by_function(tree: ast.Module) -> Dict[str, List[ast.Call]]:
    """The calls of each function (innermost: a nested def's calls are its own), by name;
    calls outside every function are under ''."""
    out: Dict[str, List[ast.Call]] = {}

    def visit(node: ast.AST, owner: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, getattr(child, "name", owner))
                continue
            if isinstance(child, ast.Call):
                out.setdefault(owner, []).append(child)
            visit(child, owner)

    visit(tree, "")
    return out


def _method(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _chance_functions() -> Tuple[Set[Tuple[str, str]], Set[Tuple[str, str]]]:
    """(functions calling chance_outcomes(), those of them that also draw)."""
    callers, samplers = set(), set()
    for module, tree in _sources():
        for func, calls in _calls_by_function(tree).items():
            names = {_method(c) for c in calls}
            if "chance_outcomes" in names:
                callers.add((module, func))
                if names & DRAWS:
                    samplers.add((module, func))
    return callers, samplers


def test_the_checker_sees_a_sampler_and_a_nested_one():
    """The rule itself: a function that lists the outcomes and draws is a sampler; a conversion
    that draws nothing is not; a nested function's draw is its own."""
    tree = ast.parse("def a(s, rng):\n    o = s.chance_outcomes()\n    return o[rng.randrange(len(o))][0]\n"
                     "def b(s):\n    return [(int(x), float(p)) for x, p in s.chance_outcomes()]\n"
                     "def c(s, rng):\n    o = s.chance_outcomes()\n    def d():\n        return rng.random()\n")
    calls = _calls_by_function(tree)
    flagged = {f for f, cs in calls.items() if "chance_outcomes" in {_method(c) for c in cs}
               and {_method(c) for c in cs} & DRAWS}
    assert flagged == {"a"}


def test_chance_is_sampled_in_one_function():
    callers, samplers = _chance_functions()
    assert samplers == {("tilecraft.runner", "sample_chance")}, (
        f"chance outcomes are drawn in {sorted(samplers)}; draw them with tilecraft.runner.sample_chance")
    assert callers <= set(CHANCE_OUTCOMES_CALLERS), (
        f"{sorted(callers - set(CHANCE_OUTCOMES_CALLERS))} read chance_outcomes(): sample with "
        "tilecraft.runner.sample_chance, or list the function here with the reason it does not sample")


def test_ray_is_started_once():
    found = [(module, func) for module, tree in _sources()
             for func, calls in _calls_by_function(tree).items() for c in calls
             if isinstance(c.func, ast.Attribute) and c.func.attr == "init"
             and isinstance(c.func.value, ast.Name) and c.func.value.id == "ray"]
    assert len(found) == 1 and found[0][0] == "tilecraft.distributed", found


def _seeding_sites() -> Dict[str, List[str]]:
    """Per module, what seeds a bot or a sampler there: make_bot(..., seed=<not a constant>),
    a bot's reset(seat, seed), a number of the seedings."""
    sites: Dict[str, List[str]] = {}
    for module, tree in _sources():
        for node in ast.walk(tree):
            what = None
            if isinstance(node, ast.Call) and _method(node) == "make_bot":
                seed = next((k.value for k in node.keywords if k.arg == "seed"), None)
                if seed is not None and not isinstance(seed, ast.Constant):
                    what = "make_bot(..., seed=...)"
            elif isinstance(node, ast.Call) and _method(node) == "reset" and len(node.args) == 2 and not node.keywords:
                what = "reset(seat, seed)"
            elif (isinstance(node, ast.Constant) and type(node.value) is int
                  and node.value in SEEDING_CONSTANTS):
                what = f"the seeding constant {node.value}"
            if what is not None:
                sites.setdefault(module, []).append(f"{what} (line {node.lineno})")
    return sites


def test_seeding_is_in_one_module():
    sites = _seeding_sites()
    assert set(sites) == {"tilecraft.runner"}, (
        "seats and chance samplers are seeded outside tilecraft.runner: "
        + "; ".join(f"{m}: {', '.join(s)}" for m, s in sorted(sites.items()) if m != "tilecraft.runner"))


HAND_WRITTEN = re.compile(r"^\s*[A-Z_]*_BASE\s*=|^\s*PHASES\s*=", re.M)


def test_no_hand_written_id_base_or_phase_list():
    found = [f"{path.relative_to(PYTHON)}:{text[:m.start()].count(chr(10)) + 1}"
             for path in sorted(PYTHON.rglob("*.py"))
             for text in [path.read_text(encoding="utf-8")] for m in HAND_WRITTEN.finditer(text)]
    assert not found, f"id bases or phase lists written by hand (read them from the binding): {found}"
