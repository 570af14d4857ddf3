"""Replays every kept fuzz input (tests/fuzz/corpus/<target>/*: seeds and every input that once
found a bug) through the same function the atheris fuzzers run (targets.py: each game, and the
network-files and bot-specs targets)."""
import os

import pytest

import tilecraft
from targets import find, names

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
CASES = sorted((t, f) for t in os.listdir(CORPUS) for f in os.listdir(os.path.join(CORPUS, t)))


def test_every_corpus_folder_is_a_target():
    assert sorted(os.listdir(CORPUS)) == sorted(n for n in names() if os.path.isdir(os.path.join(CORPUS, n)))
    assert {"network-files", "bot-specs"} <= set(os.listdir(CORPUS))


@pytest.mark.parametrize("target,name", CASES, ids=[f"{t}/{f}" for t, f in CASES])
def test_corpus_input(target, name):
    with open(os.path.join(CORPUS, target, name), "rb") as f:
        find(target)(f.read())


# What the fuzzers found, as plain tests too (each also has its input in the corpus).
@pytest.mark.parametrize("game", tilecraft.list_games())
def test_integers_beyond_64_bits_are_rejected_with_a_message(game):
    """Found by fuzzing (from_dict): an integer beyond 64 bits in 'history' or 'format' raised
    pybind11's RuntimeError("Unable to cast ...") instead of InvalidStateError; so did a search
    option (Searcher(iterations=2**64))."""
    import json

    d = json.loads(tilecraft.make(game).to_json())
    for key, value in (("history", [2**64]), ("format", 2**64), ("history", [-(2**70)])):
        bad = dict(d, **{key: value})
        with pytest.raises(tilecraft.InvalidStateError):
            tilecraft.game_spec(game).state_class.from_dict(bad)
    with pytest.raises(ValueError, match=r"mcts: iterations must be in 0\.\.9223372036854775807, got 18446744073709551616"):
        tilecraft.game_spec(game).state_class.Searcher(iterations=2**64)
