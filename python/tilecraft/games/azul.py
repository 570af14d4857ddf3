"""Azul (spec: docs/rules/azul.md; docs/azul.md)."""
from __future__ import annotations

from typing import Any, Dict

from .. import _core
from . import GameSpec, Option


def _first_player_check(value: int, players: int):
    if not -1 <= value < players:
        return f"must be -1 (random) or a seat 0..{players - 1}"
    return None


def _max_rounds_check(value: int, players: int):
    if not 1 <= value <= 10000:
        return "must be in 1..10000"
    return None


OPTIONS = (
    Option("chance", "sampled", "'sampled': bag draws happen inside apply() from the state's RNG; "
           "'explicit': the state stops at chance nodes (one per drawn tile) for expectimax users",
           choices=("sampled", "explicit")),
    Option("first_player", 0, "seat of round 1's first player, or -1 for a random one (a chance node) [AZ-AMB-5]",
           kind=int, check=_first_player_check, allowed_text="-1 or a seat 0..players-1"),
    Option("returns_mode", "score", "'score': returns are the final scores; 'win_loss': 1/k for each of k "
           "co-winners, 0 otherwise [AZ-AMB-14]", choices=("score", "win_loss")),
    Option("max_rounds", 100, "engine safety cap on rounds; the game ends as if a row were complete "
           "[AZ-AMB-16]", kind=int, check=_max_rounds_check, allowed_text="1..10000"),
)


def _to_core(players: int, o: Dict[str, Any]) -> Dict[str, Any]:
    return {
        "players": players,
        "first_player": o["first_player"],
        "explicit_chance": 1 if o["chance"] == "explicit" else 0,
        "returns_mode": 1 if o["returns_mode"] == "win_loss" else 0,
        "max_rounds": o["max_rounds"],
    }


SPEC = GameSpec(
    name="azul",
    title="Azul",
    state_class=_core.AzulState,
    players=(2, 3, 4),
    options=OPTIONS,
    to_core=_to_core,
    playouts=_core.azul_random_playouts,
    doc="Draft tiles from factories into pattern lines and tile your wall (Michael Kiesling, 2017).",
    returns_range={"win_loss": (0.0, 1.0), "score": (0.0, 1000.0)},
    # the conformance configurations (GameSpec.test_configs): player counts, chance modes
    test_configs=((2, {}), (3, {}), (4, {}), (2, {"chance": "explicit"}),
                  (4, {"chance": "explicit", "first_player": -1}),
                  (3, {"first_player": -1, "returns_mode": "win_loss"})),
)

COLOURS = ("blue", "yellow", "red", "black", "white")
