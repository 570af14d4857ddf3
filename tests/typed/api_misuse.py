"""Wrong uses that mypy must reject with the stubs (tests/test_typing.py): proof that the stubs
are read, not replaced by Any."""
from __future__ import annotations

from tilecraft._core import AzulState


def wrong(state: AzulState) -> str:
    state.apply("factory 1 blue -> line 1")  # an action is an integer
    return state.scores()  # scores are an array, not a str
