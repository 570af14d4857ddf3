"""Golden playthroughs: a seeded game played by seeded random choices, every step recorded as
the action's name and the rendered state (tests/playthroughs/<stem>.txt), and, in a sidecar
(<stem>.steps.json), every position's legal actions and a hash of each seat's observation.
`python tests/playthroughs.py [STEM...]` (re)writes both files; `--steps` writes only the sidecars
and refuses when the text picture would change. tests/test_playthroughs.py replays them and diffs.
They pin down that the same seed and the same actions give the same game on every platform and
after every optimisation; a deliberate rule change regenerates them (and the diff shows what changed).

The list needs no edit for a new game: every registered game without a named golden below gets one
from its first declared test configuration (GameSpec.test_configs), stem "<game>_default_seed0"."""
from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from typing import Any, Dict, List, Tuple

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "playthroughs")

Case = Tuple[str, str, int, int, Dict[str, Any]]  # (file stem, game, players, seed, options)

# Named goldens (hand-picked configurations); games without one get a default (default_cases()).
NAMED: List[Case] = [
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


def default_cases(named: List[Case]) -> List[Case]:
    """One golden per registered game that has no named one: its first test configuration, seed 0."""
    import tilecraft

    covered = {c[1] for c in named}
    out: List[Case] = []
    for game in tilecraft.list_games():
        if game not in covered:
            players, options = tilecraft.game_spec(game).test_configs[0]
            out.append((f"{game}_default_seed0", game, players, 0, dict(options)))
    return out


CASES: List[Case] = NAMED + default_cases(NAMED)


def observation_hash(obs: Any) -> str:
    """First 16 hex digits of the sha256 of the observation as little-endian float32 bytes."""
    return hashlib.sha256(np.ascontiguousarray(obs, dtype="<f4").tobytes()).hexdigest()[:16]


def _position(state: Any, step: int) -> Dict[str, Any]:
    return {"step": step, "legal": [int(a) for a in state.legal_actions()],
            "obs": [observation_hash(state.observation(p)) for p in range(state.num_players())]}


def record_all(game: str, players: int, seed: int, options: Dict[str, Any]) -> Tuple[str, List[Dict[str, Any]]]:
    """(the text picture of the game, per position from the first to the last: step, legal actions, obs hashes)."""
    import tilecraft

    state = tilecraft.make(game, players=players, seed=seed, **options)
    rng = random.Random(seed)
    out = [f"# {game} players={players} seed={seed} options={sorted(options.items())}",
           "# choices: random.Random(seed).randrange(len(legal)) at player nodes and chance nodes alike",
           tilecraft.render_text(state)]
    steps = [_position(state, 0)]
    step = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        action = int(legal[rng.randrange(len(legal))])
        who = "chance" if state.is_chance_node() else f"seat {state.current_player()}"
        name = state.action_to_string(action)
        state.apply(action)
        step += 1
        steps.append(_position(state, step))
        out.append(f"## step {step}: {who}: {name} ({action})")
        if not state.is_chance_node() or state.is_terminal():
            out.append(tilecraft.render_text(state))
    out.append(f"# scores {state.scores().tolist()} winners {list(state.winners())} returns {state.returns().tolist()}")
    out.append(f"# final state {state.to_json()}")
    return "\n".join(out) + "\n", steps


def record(game: str, players: int, seed: int, options: Dict[str, Any]) -> str:
    """The text picture of the game (the <stem>.txt golden)."""
    return record_all(game, players, seed, options)[0]


def steps_text(steps: List[Dict[str, Any]]) -> str:
    """The <stem>.steps.json sidecar: a JSON list, one position per line (diffs show the step)."""
    return "[\n" + ",\n".join(json.dumps(s, separators=(",", ":")) for s in steps) + "\n]\n"


def path(stem: str) -> str:
    return os.path.join(DIR, stem + ".txt")


def steps_path(stem: str) -> str:
    return os.path.join(DIR, stem + ".steps.json")


def main(argv: List[str]) -> int:
    """Writes every golden file, or only those whose stem starts with one of the arguments.
    --steps: only the sidecars, and only where the text picture is unchanged."""
    steps_only = "--steps" in argv
    prefixes = [a for a in argv if a != "--steps"]
    os.makedirs(DIR, exist_ok=True)
    for stem, game, players, seed, options in CASES:
        if prefixes and not any(stem.startswith(a) for a in prefixes):
            continue
        text, steps = record_all(game, players, seed, options)
        if steps_only:
            with open(path(stem), encoding="utf-8") as f:
                if f.read() != text:
                    print(f"{stem}: the text picture changed; not writing its sidecar (run without --steps)")
                    return 1
        else:
            with open(path(stem), "w", encoding="utf-8") as f:
                f.write(text)
            print("wrote", path(stem))
        with open(steps_path(stem), "w", encoding="utf-8") as f:
            f.write(steps_text(steps))
        print("wrote", steps_path(stem))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
