"""Type information: the package ships py.typed and stubs for tilecraft._core generated from the
bindings with pybind11-stubgen; mypy checks the typed examples against them, and the stubs are
compared with a fresh generation so that they cannot drift from the bindings.

Regenerate the stubs after changing a binding:
    PYTHONPATH=python pybind11-stubgen tilecraft._core -o python"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from typing import Dict, Set

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


def test_mypy_accepts_the_typed_examples() -> None:
    r = _mypy(os.path.join(HERE, "typed", "api_example.py"))
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_rejects_misuse() -> None:
    r = _mypy(os.path.join(HERE, "typed", "api_misuse.py"))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "api_misuse.py:9" in r.stdout and "api_misuse.py:10" in r.stdout, r.stdout


def test_mypy_types_make_per_game() -> None:
    """One mypy run over both files (mypy's start-up is most of its time): the typed uses pass, and
    each wrong call in make_misuse.py is flagged on its own line."""
    r = _mypy(os.path.join(HERE, "typed", "make_example.py"), os.path.join(HERE, "typed", "make_misuse.py"))
    errors = re.findall(r"(make_\w+)\.py:(\d+): error:", r.stdout)
    assert {(f, int(n)) for f, n in errors} == {("make_misuse", n) for n in (8, 9, 10, 11, 12)}, r.stdout


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
