# mypy: disallow-untyped-defs
"""A typed use of the package, checked by mypy against the shipped stubs (tests/test_typing.py)."""
from __future__ import annotations

from typing import List

import numpy

import tilecraft
from tilecraft._core import AzulState, CastleState, IllegalActionError, WarsawState
from tilecraft.render import render_text, svg


def first_moves(state: AzulState, n: int) -> List[str]:
    names: List[str] = []
    for _ in range(n):
        if state.is_terminal():
            break
        legal: numpy.ndarray = state.legal_actions()
        action = int(legal[0])
        names.append(state.action_to_string(action))
        state.apply(action)
    return names


def castle_view(state: CastleState) -> int:
    size, cell = state.keep(0)
    board: numpy.ndarray = state.board()
    return int(size) + int(cell) + int(board.shape[0]) + state.turn()


def warsaw_view(state: WarsawState) -> int:
    return sum(int(c) for c in state.coins()) + state.era()


def main() -> str:
    config = tilecraft.make_config("azul", players=2)
    state = AzulState(config, 3)
    moves = first_moves(state, 3)
    copy: AzulState = state.clone()
    try:
        copy.apply(10**6)
    except IllegalActionError as e:
        moves.append(str(e))
    picture: str = svg(state, seat=None)
    return render_text(state) + picture + " ".join(moves)
