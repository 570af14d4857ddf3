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


# What the fuzzers found, as plain tests too (each also has its input in the corpus).
@pytest.mark.parametrize("game", sorted(os.listdir(CORPUS)))
def test_integers_beyond_64_bits_are_rejected_with_a_message(game):
    """Found by fuzzing (from_dict): an integer beyond 64 bits in 'history' or 'format' raised
    pybind11's RuntimeError("Unable to cast ...") instead of InvalidStateError; so did a search
    option (Searcher(iterations=2**64))."""
    import json

    import tilecraft

    d = json.loads(tilecraft.make(game).to_json())
    for key, value in (("history", [2**64]), ("format", 2**64), ("history", [-(2**70)])):
        bad = dict(d, **{key: value})
        with pytest.raises(tilecraft.InvalidStateError):
            tilecraft.game_spec(game).state_class.from_dict(bad)
    with pytest.raises(ValueError, match="out of range"):
        tilecraft.game_spec(game).state_class.Searcher(iterations=2**64)
