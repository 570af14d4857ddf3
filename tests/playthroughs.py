"""Golden playthroughs: a seeded game played by seeded random choices, every step recorded as
the action's name and the rendered state. `python tests/playthroughs.py` (re)writes the files in
tests/playthroughs/; tests/test_playthroughs.py replays them and diffs. They pin down that the same
seed and the same actions give the same game on every platform and after every optimisation; a
deliberate rule change regenerates them (and the diff shows what changed)."""
from __future__ import annotations

import os
import random
import sys
from typing import Any, Dict, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "playthroughs")

# (file stem, game, players, seed, options); other games add their rows here.
CASES: List[Tuple[str, str, int, int, Dict[str, Any]]] = [
    ("azul_2p_seed1", "azul", 2, 1, {}),
    ("azul_4p_seed2_explicit", "azul", 4, 2, {"chance": "explicit", "first_player": -1}),
    ("castle_seed3", "castle", 2, 3, {}),
    ("castle_seed4_explicit", "castle", 2, 4, {"chance": "explicit", "first_player": -1}),
    ("warsaw_4p_seed5", "warsaw", 4, 5, {}),
    ("gaudi_4p_seed6", "gaudi", 4, 6, {}),
    ("gaudi_2p_seed7", "gaudi", 2, 7, {}),  # the 2-player virtual third marker (GA-DUMMY-*)
    ("gaudi_3p_seed8_explicit", "gaudi", 3, 8, {"chance": "explicit", "first_player": -1}),
    ("gaudi_4p_expert_seed9", "gaudi", 4, 9, {"mode": "expert"}),  # the night face and the draft (GA-EXP-*)
    ("gaudi_solo_easy_seed10", "gaudi", 1, 10, {"difficulty": "easy"}),  # solo against the automa (GA-SOLO-*)
    ("gaudi_solo_normal_seed11", "gaudi", 1, 11, {"difficulty": "normal"}),
    ("gaudi_solo_hard_seed12", "gaudi", 1, 12, {"difficulty": "hard"}),
    ("gaudi_solo_crazy_seed13", "gaudi", 1, 13, {"difficulty": "crazy"}),
]


def record(game: str, players: int, seed: int, options: Dict[str, Any]) -> str:
    import tilecraft

    state = tilecraft.make(game, players=players, seed=seed, **options)
    rng = random.Random(seed)
    out = [f"# {game} players={players} seed={seed} options={sorted(options.items())}",
           "# choices: random.Random(seed).randrange(len(legal)) at player nodes and chance nodes alike",
           tilecraft.render_text(state)]
    step = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        action = int(legal[rng.randrange(len(legal))])
        who = "chance" if state.is_chance_node() else f"seat {state.current_player()}"
        name = state.action_to_string(action)
        state.apply(action)
        step += 1
        out.append(f"## step {step}: {who}: {name} ({action})")
        if not state.is_chance_node() or state.is_terminal():
            out.append(tilecraft.render_text(state))
    out.append(f"# scores {state.scores().tolist()} winners {list(state.winners())} returns {state.returns().tolist()}")
    out.append(f"# final state {state.to_json()}")
    return "\n".join(out) + "\n"


def path(stem: str) -> str:
    return os.path.join(DIR, stem + ".txt")


def main(argv: List[str]) -> int:
    """Writes every golden file, or only those whose stem starts with one of the arguments."""
    os.makedirs(DIR, exist_ok=True)
    for stem, game, players, seed, options in CASES:
        if argv and not any(stem.startswith(a) for a in argv):
            continue
        with open(path(stem), "w", encoding="utf-8") as f:
            f.write(record(game, players, seed, options))
        print("wrote", path(stem))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
