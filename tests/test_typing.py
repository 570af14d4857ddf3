"""Type information: the package ships py.typed and stubs for tilecraft._core generated from the
bindings with pybind11-stubgen; mypy checks the typed examples against them, and the stubs are
compared with a fresh generation so that they cannot drift from the bindings.

Regenerate the stubs after changing a binding:
    PYTHONPATH=python pybind11-stubgen tilecraft._core -o python"""
from __future__ import annotations

import ast
import functools
import os
import re
import subprocess
import sys
from typing import Dict, Set, Tuple

import pytest

import tilecraft

PACKAGE = os.path.dirname(os.path.abspath(tilecraft.__file__))
HERE = os.path.dirname(os.path.abspath(__file__))


def test_package_is_typed() -> None:
    assert os.path.exists(os.path.join(PACKAGE, "py.typed"))
    assert os.path.exists(os.path.join(PACKAGE, "_core.pyi"))


def _mypy(*paths: str) -> subprocess.CompletedProcess:
    pytest.importorskip("mypy", reason="mypy is in the 'test' extra")
    env = dict(os.environ)
    env.pop("MYPYPATH", None)
    # An installed package is found by mypy through the interpreter's site-packages (py.typed);
    # mypy refuses a site-packages directory on MYPYPATH, so only a source checkout is added.
    if os.path.basename(os.path.dirname(PACKAGE)) not in ("site-packages", "dist-packages"):
        env["MYPYPATH"] = os.path.dirname(PACKAGE)
    return subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--ignore-missing-imports",
                           "--no-incremental", "--cache-dir", os.devnull, *paths],
                          capture_output=True, text=True, env=env, cwd=HERE, timeout=600)


_TYPED = ("api_example.py", "api_misuse.py", "make_example.py", "make_misuse.py")


@functools.lru_cache(maxsize=None)
def _mypy_all() -> Tuple[str, Dict[str, Set[int]]]:
    """One mypy run over every file in tests/typed (mypy's start-up is most of its time): its output
    and, per file, the lines it flagged as errors."""
    r = _mypy(*(os.path.join(HERE, "typed", f) for f in _TYPED))
    errors: Dict[str, Set[int]] = {f: set() for f in _TYPED}
    for f, n in re.findall(r"(\w+\.py):(\d+): error:", r.stdout):
        errors.setdefault(f, set()).add(int(n))
    return r.stdout + r.stderr, errors


@pytest.mark.slow  # one mypy run (about 12 s) shared by the three mypy tests
def test_mypy_accepts_the_typed_examples() -> None:
    out, errors = _mypy_all()
    assert errors["api_example.py"] == set() and errors["make_example.py"] == set(), out


@pytest.mark.slow  # one mypy run (about 12 s) shared by the three mypy tests
def test_mypy_rejects_misuse() -> None:
    out, errors = _mypy_all()
    assert {9, 10} <= errors["api_misuse.py"], out


@pytest.mark.slow  # one mypy run (about 12 s) shared by the three mypy tests
def test_mypy_types_make_per_game() -> None:
    """Each wrong call in make_misuse.py is flagged on its own line, and nothing else there."""
    out, errors = _mypy_all()
    assert errors["make_misuse.py"] == {8, 9, 10, 11, 12}, out


def test_make_overloads_cover_every_game() -> None:
    """_make.pyi has one overload per registered game, returning that game's state class."""
    with open(os.path.join(PACKAGE, "_make.pyi"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    typed: Dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "make":
            ann = node.args.args[0].annotation
            if isinstance(ann, ast.Subscript):  # Literal["azul"]
                assert isinstance(ann.slice, ast.Constant) and isinstance(node.returns, ast.Name)
                typed[ann.slice.value] = node.returns.id
    assert typed == {g: tilecraft.game_spec(g).state_class.__name__ for g in tilecraft.list_games()}


def _surface(source: str) -> Dict[str, Set[str]]:
    """Classes and functions of a stub with their parameter names: what drifts when a binding changes."""
    tree = ast.parse(source)
    out: Dict[str, Set[str]] = {}

    def params(f: ast.AST) -> str:
        assert isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
        a = f.args
        return f"{f.name}({','.join(x.arg for x in a.posonlyargs + a.args + a.kwonlyargs)})"

    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {params(f) for f in node.body if isinstance(f, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            out.setdefault("<module>", set()).add(params(node))
    return out


def test_stubs_match_the_bindings(tmp_path) -> None:
    pytest.importorskip("pybind11_stubgen", reason="pybind11-stubgen is in the 'test' extra")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(PACKAGE) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "pybind11_stubgen", "tilecraft._core", "-o", str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    fresh = (tmp_path / "tilecraft" / "_core.pyi").read_text()
    with open(os.path.join(PACKAGE, "_core.pyi"), encoding="utf-8") as f:
        shipped = f.read()
    a, b = _surface(shipped), _surface(fresh)
    assert a == b, ("python/tilecraft/_core.pyi is out of date; regenerate it with "
                    "'PYTHONPATH=python pybind11-stubgen tilecraft._core -o python'")
