"""Writes the pictures of docs/pictures.md: one mid-game position of every game (random play from
a fixed seed), plus Warsaw as seat 0 sees it. Run from the repository root:

    python3 -m tilecraft.render.svg_games._gallery docs/pictures
"""
from __future__ import annotations

import os
import random
import sys
from typing import Any, List, Optional, Tuple

# (game, players, seed, random actions, seat or None, file name)
SHOTS: List[Tuple[str, int, int, int, Optional[int], str]] = [
    ("azul", 3, 4, 18, None, "azul.svg"),
    ("castle", 2, 4, 70, None, "castle.svg"),
    ("warsaw", 3, 4, 40, None, "warsaw.svg"),
    ("warsaw", 3, 4, 40, 0, "warsaw-seat0.svg"),
    ("gaudi", 3, 4, 90, None, "gaudi.svg"),
]


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
