"""Golden searches: what every shipped search decides, pinned before the agents are redesigned
(issue 47, "Nothing a user sees changes by accident"). For each shipped baseline network's
configuration (game, players, mode), ten fixed positions, and on each the chosen action and the
root visit counts of three bots at their defaults: `baseline` (the network with its settings),
`mcts` and `ismcts`. tests/test_golden_searches.py searches them again and compares exactly.

`python tests/golden_searches.py` (re)writes tests/golden/searches.json. Rewrite it only for a
deliberate change of a search's behaviour, and say so in the commit: a refactor must leave it as it
is. The positions come from seeded play (greedy and random moves alternating by a seeded coin), so
they are mid-game positions of every phase, not openings only."""
from __future__ import annotations

import json
import os
import random
import sys
from typing import Any, Dict, Iterator, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.path.join(HERE, "golden", "searches.json")
POSITIONS = 10
BOTS = ("baseline", "mcts", "ismcts")


def configurations() -> List[Tuple[str, int, Optional[str]]]:
    """(game, players, mode) of every shipped baseline network, one per player count it serves."""
    from tilecraft import baselines

    out = []
    for a in baselines.available():
        for players in a["players"]:
            out.append((a["game"], players, a["mode"]))
    return sorted(set(out), key=lambda c: (c[0], c[1], c[2] or ""))


def positions(game: str, players: int, mode: Optional[str]) -> Iterator[Tuple[int, List[int]]]:
    """Ten (seed, actions) pairs: a game made with that seed and those actions is the position."""
    import tilecraft
    from tilecraft.bots import GreedyBot

    options = {"mode": mode} if mode else {}
    for k in range(POSITIONS):
        seed = 1000 + k
        state = tilecraft.make(game, players=players, seed=seed, **options)
        coin = random.Random(seed)
        greedy = GreedyBot(seed=seed)
        steps = coin.randrange(4, 60)
        actions: List[int] = []
        for _ in range(steps):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            a = greedy.act(state) if coin.random() < 0.5 else int(legal[coin.randrange(len(legal))])
            state.apply(a)
            actions.append(int(a))
        while state.is_terminal():  # a short game over already: step back until a move is left
            actions.pop()
            state = tilecraft.make(game, players=players, seed=seed, **options)
            for a in actions:
                state.apply(a)
        yield seed, actions


def search(bot_name: str, state: Any) -> Dict[str, Any]:
    """The bot's search at its defaults (seed 0): the action and the nonzero root visits."""
    from tilecraft.bots import make_bot

    bot = make_bot(bot_name)
    result = bot.search(state)
    visits = result["visits"]
    return {"action": int(result["action"]),
            "visits": {str(a): int(visits[a]) for a in range(len(visits)) if visits[a]}}


def record() -> Dict[str, Any]:
    import tilecraft

    out: Dict[str, Any] = {}
    for game, players, mode in configurations():
        key = f"{game}/{players}p" + (f"/{mode}" if mode else "")
        rows = []
        for seed, actions in positions(game, players, mode):
            state = tilecraft.make(game, players=players, seed=seed, **({"mode": mode} if mode else {}))
            for a in actions:
                state.apply(a)
            rows.append({"seed": seed, "actions": actions,
                         "searches": {b: search(b, state) for b in BOTS}})
        out[key] = rows
        print(key, file=sys.stderr)
    return out


if __name__ == "__main__":
    data = record()
    os.makedirs(os.path.dirname(PATH), exist_ok=True)
    with open(PATH, "w") as f:
        json.dump(data, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"wrote {PATH}")
