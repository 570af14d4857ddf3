"""The fuzz targets, by name: every game (harness.py: options, actions, saved states and data files)
and the targets below. `fuzz_game.py NAME` fuzzes one; `test_fuzz_corpus.py` replays
tests/fuzz/corpus/NAME/* through the same function; .ci/run fuzzes every name in `names()`."""
import functools
from typing import Callable, Dict, List

import tilecraft

import bot_specs
import harness
import network_files

TARGETS: Dict[str, Callable[[bytes], None]] = {
    "network-files": network_files.one_input,  # bytes -> a file -> baselines.load
    "bot-specs": bot_specs.one_input,          # text -> make_bot -> one move
}


def names() -> List[str]:
    return list(tilecraft.list_games()) + sorted(TARGETS)


def find(name: str) -> Callable[[bytes], None]:
    """The function that takes one input of the target ``name`` (a game or a name in TARGETS)."""
    if name in TARGETS:
        return TARGETS[name]
    if name in tilecraft.list_games():
        return functools.partial(harness.one_input, name)
    raise KeyError(f"unknown fuzz target {name!r}; the targets are: {', '.join(names())}")


if __name__ == "__main__":  # .ci/run: the names to fuzz
    print(" ".join(names()))
