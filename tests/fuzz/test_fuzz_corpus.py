"""Replays every kept fuzz input (tests/fuzz/corpus/<game>/*: seeds and every input that once
found a bug) through the same harness the atheris fuzzers run."""
import os

import pytest

from harness import one_input

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
CASES = sorted((g, f) for g in os.listdir(CORPUS) for f in os.listdir(os.path.join(CORPUS, g)))


@pytest.mark.parametrize("game,name", CASES, ids=[f"{g}/{f}" for g, f in CASES])
def test_corpus_input(game, name):
    with open(os.path.join(CORPUS, game, name), "rb") as f:
        one_input(game, f.read())
