"""Wrong calls of tilecraft.make that mypy must reject (tests/test_typing.py checks the line numbers)."""
from __future__ import annotations

import tilecraft


def wrong(name: str) -> None:
    tilecraft.make("azul").automa_score()  # automa_score is Gaudí's, not Azul's
    tilecraft.make("castle", seed="1")  # a seed is an int
    tilecraft.make("warsaw", players="2")  # a player count is an int
    tilecraft.make(name).era()  # era is Warsaw's only: not every game has it
    tilecraft.make(4)  # a game name is a str
