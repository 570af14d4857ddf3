"""Writes the pictures of docs/pictures.md: one mid-game position of every game (random play from
a fixed seed), plus Warsaw as seat 0 sees it. Run from the repository root:

    python3 -m tilecraft.render.svg_games._gallery docs/pictures
"""
from __future__ import annotations

import os
import random
import sys
from typing import Any, List, Optional, Tuple

Shot = Tuple[str, int, int, int, Optional[int], str]  # (game, players, seed, random actions, seat or None, file name)

# Hand-tuned positions; every other registered game gets registry_shots()'s default.
HAND_TUNED: List[Shot] = [
    ("azul", 3, 4, 18, None, "azul.svg"),
    ("castle", 2, 4, 70, None, "castle.svg"),
    ("warsaw", 3, 4, 40, None, "warsaw.svg"),
    ("warsaw", 3, 4, 40, 0, "warsaw-seat0.svg"),
    ("gaudi", 3, 4, 90, None, "gaudi.svg"),
]


def registry_shots(hand_tuned: List[Shot]) -> List[Shot]:
    """One picture per registered game without a hand-tuned entry: the player count of its first test
    configuration (GameSpec.test_configs), seed 4, 40 random actions, file <game>.svg."""
    from ...games import game_spec, list_games

    covered = {shot[0] for shot in hand_tuned}
    return [(g, game_spec(g).test_configs[0][0], 4, 40, None, f"{g}.svg") for g in list_games() if g not in covered]


SHOTS: List[Shot] = HAND_TUNED + registry_shots(HAND_TUNED)


def position(game: str, players: int, seed: int, steps: int) -> Any:
    import tilecraft
    from ...runner import sample_chance

    state = tilecraft.make(game, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(sample_chance(state, rng, uniform=True))  # uniform: the pictures were drawn so
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    return state


def main(argv: Optional[List[str]] = None) -> int:
    import tilecraft
    from . import svg

    out = (argv or sys.argv[1:] or ["docs/pictures"])[0]
    os.makedirs(out, exist_ok=True)
    for game, players, seed, steps, seat, name in SHOTS:
        if game not in tilecraft.list_games():
            continue
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(svg(position(game, players, seed, steps), seat) + "\n")
        print(os.path.join(out, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
