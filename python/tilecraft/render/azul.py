"""Text diagram of an Azul state."""
from __future__ import annotations

from typing import Any, List

LETTERS = "BYRKW"  # blue, yellow, red, black (K), white
NAMES = ("blue", "yellow", "red", "black", "white")


def _tiles(counts) -> str:
    return "".join(LETTERS[c] * int(n) for c, n in enumerate(counts)) or "-"


def render_text(state: Any) -> str:
    n = state.num_players()
    walls, lines, floors, scores = state.walls(), state.pattern_lines(), state.floors(), state.scores()
    sources = state.factories()
    out: List[str] = []
    status = ("game over" if state.is_terminal() else
              "chance: drawing tiles" if state.is_chance_node() else f"seat {state.current_player()} to move")
    out.append(f"Azul, {n} players, round {state.round() + 1}: {status}")
    out.append("Letters: B blue, Y yellow, R red, K black, W white; lower case = empty wall space of that colour")
    marker = " + start marker" if state.marker_in_centre() else ""
    out.append(f"  centre: {_tiles(sources[0])}{marker}")
    out.append("  factories: " + "  ".join(f"{i}:{_tiles(sources[i])}" for i in range(1, len(sources))))
    out.append(f"  bag: {' '.join(f'{LETTERS[c]}{int(x)}' for c, x in enumerate(state.bag()))}   "
               f"lid: {' '.join(f'{LETTERS[c]}{int(x)}' for c, x in enumerate(state.lid()))}")
    for p in range(n):
        winner = " (winner)" if p in state.winners() else ""
        first = " [first next round]" if state.next_first_player() == p and not state.is_terminal() else ""
        out.append(f"seat {p}: score {int(scores[p])}{winner}{first}")
        for k in range(5):
            colour, count = int(lines[p][k][0]), int(lines[p][k][1])
            pattern = "." * (k + 1 - count) + (LETTERS[colour] * count if colour >= 0 else "")
            wall = " ".join(LETTERS[(c - k) % 5] if walls[p][k][c] else LETTERS[(c - k) % 5].lower()
                            for c in range(5))
            out.append(f"  {pattern:>5} | {wall}")
        floor = floors[p]
        tiles = "".join(LETTERS[c] * int(floor[2 + c]) for c in range(5))
        marker = "1" if floor[1] and int(floor[0]) > sum(int(x) for x in floor[2:]) else ""
        out.append(f"  floor: {(marker + tiles) or '-'} ({int(floor[0])}/7)")
    return "\n".join(out)
