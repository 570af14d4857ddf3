"""Every rule ID of the shipped specs (docs/rules/<game>.md, e.g. AZ-SCORE-3) is named by at least
one file under tests/: in a docstring or a comment beside the assertion, or as a test name such as
test_az_score_3. The rule tests stay in the default (fast) test run, so each rule keeps a test there."""
import functools
import glob
import os
import re

import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))
RULES = os.path.join(TESTS, "..", "docs", "rules")
RULE_ID = re.compile(r"\b[A-Z]{2}-[A-Z0-9]+(?:-[A-Z0-9]+)*-\d+[a-z]?\b")
TEST_NAME = re.compile(r"(?<![a-z0-9])([a-z]{2})_([a-z]+(?:_[a-z]+)*)_(\d+[a-z]?)(?![0-9])")
TEXT = (".py", ".json", ".txt", ".md", ".cpp", ".hpp")
SPECS = {"azul": "AZ", "castle": "CA", "warsaw": "WA", "gaudi": "GA"}

if not os.path.isdir(RULES):
    pytest.skip("docs/rules is not next to the tests (installed-package test run)", allow_module_level=True)


@functools.lru_cache(maxsize=None)
def _named_in_tests():
    names = set()
    for path in glob.glob(os.path.join(TESTS, "**", "*"), recursive=True):
        if not path.endswith(TEXT) or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        names.update(RULE_ID.findall(text))
        names.update(f"{a.upper()}-{b.upper().replace('_', '-')}-{n}" for a, b, n in TEST_NAME.findall(text))
    return frozenset(names)


@pytest.mark.parametrize("game", sorted(SPECS))
def test_every_rule_of_the_spec_is_named_by_a_test(game):
    with open(os.path.join(RULES, f"{game}.md"), encoding="utf-8") as f:
        ids = {i for i in RULE_ID.findall(f.read()) if i.startswith(SPECS[game] + "-")}
    assert len(ids) > 50, f"docs/rules/{game}.md lists its rule IDs"
    missing = sorted(ids - _named_in_tests())
    assert not missing, f"rule IDs of docs/rules/{game}.md that no test names: {missing}"
