"""Packaging metadata and the test split (issue 19, section 2): a LICENSE in the repository, the
sdist and the wheel; authors, URLs and classifiers; the version written once; plain `pytest` skips
the slow tests and CI runs them."""
import os
import re
import sys

import pytest

import tilecraft

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
if not os.path.exists(os.path.join(ROOT, "pyproject.toml")):
    pytest.skip("not a source checkout (installed-package test run)", allow_module_level=True)
tomllib = pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else pytest.importorskip("tomli")

with open(os.path.join(ROOT, "pyproject.toml"), "rb") as _f:
    PYPROJECT = tomllib.load(_f)
PROJECT = PYPROJECT["project"]


def test_license_file_is_mit_for_the_tilecraft_developers():
    with open(os.path.join(ROOT, "LICENSE"), encoding="utf-8") as f:
        text = f.read()
    assert text.startswith("MIT License") and "Copyright (c) 2026 tilecraft developers" in text
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]


def test_version_is_written_once():
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    provider = PYPROJECT["tool"]["scikit-build"]["metadata"]["version"]
    assert provider["input"] == "python/tilecraft/__init__.py"
    with open(os.path.join(ROOT, provider["input"]), encoding="utf-8") as f:
        assert re.findall(r'^__version__ = "([^"]+)"', f.read(), re.M) == [tilecraft.__version__]


def test_metadata_names_authors_urls_and_classifiers():
    assert PROJECT["authors"] == [{"name": "tilecraft developers"}]
    assert {"Homepage", "Documentation", "Source", "Issues"} <= set(PROJECT["urls"])
    classifiers = set(PROJECT["classifiers"])
    versions = {c.rsplit(" ", 1)[1] for c in classifiers if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}
    assert versions == {"3.9", "3.10", "3.11", "3.12", "3.13"}
    assert PROJECT["requires-python"] == ">=3.9"
    assert any(c.startswith("Development Status :: ") for c in classifiers)
    assert any(c.startswith("Operating System :: ") for c in classifiers)


def test_installed_distribution_matches_the_sources():
    from importlib import metadata

    try:
        dist = metadata.distribution("tilecraft")
    except metadata.PackageNotFoundError:
        pytest.skip("tilecraft is not installed (source checkout on PYTHONPATH)")
    assert dist.version == tilecraft.__version__
    assert any(str(p).endswith("LICENSE") for p in dist.files or []), "the wheel ships LICENSE"


def test_plain_pytest_skips_slow_tests_and_ci_runs_them():
    opts = PYPROJECT["tool"]["pytest"]["ini_options"]["addopts"]
    assert opts[opts.index("-m") + 1] == "not slow"
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as f:
        ci = f.read()
    assert re.search(r'^pip install "\.\[test\]" && (stage "[^"]*" && )?pytest( --durations=\d+)?$', ci, re.M), \
        "CI runs the README's test command"
    assert re.search(r"^pytest -m slow( --durations=\d+)?$", ci, re.M), "CI runs the slow tests too"
