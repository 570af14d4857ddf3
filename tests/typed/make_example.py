# mypy: disallow-untyped-defs
"""tilecraft.make typed per game (python/tilecraft/_make.pyi), checked by mypy (tests/test_typing.py):
each literal game name gives that game's state class, with no annotation or cast."""
from __future__ import annotations

import random

import tilecraft
from tilecraft._core import AzulState, CastleState, GaudiState, WarsawState


def azul() -> AzulState:
    return tilecraft.make("azul", players=3, seed=1)


def castle() -> CastleState:
    state = tilecraft.make("castle", seed=2)
    state.keep(0)  # a Castle-only method
    return state


def gaudi() -> GaudiState:
    state = tilecraft.make("gaudi", players=1, seed=3)
    state.automa_score()  # a Gaudí-only method
    return state


def warsaw() -> WarsawState:
    state = tilecraft.make("warsaw", seed=4)
    state.era()  # a Warsaw-only method
    return state


def any_game(name: str) -> int:
    state = tilecraft.make(name, seed=5)  # a name known at run time: any game's state
    while not state.is_terminal():  # methods every game has
        state.apply(int(random.choice(state.legal_actions())))
    return len(state.winners())
