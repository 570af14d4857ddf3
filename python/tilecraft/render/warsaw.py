"""Text diagram of a Warsaw state: each district as a grid of cards, each card as its four
quadrants (letters by type) and the height of its stack."""
from __future__ import annotations

from typing import Any, List

LETTERS = "PRCIUT"  # park, residential, commercial, industrial, cultural (U), transport
WHOLE = {6: "B", 7: "M"}  # public building, milestone


def _letter(t: int) -> str:
    return WHOLE.get(t, LETTERS[t] if 0 <= t < len(LETTERS) else "?")


def district_lines(state: Any, seat: int) -> List[str]:
    cards = state.district(seat)
    xs = [c[0] for c in cards]
    ys = [c[1] for c in cards]
    by_pos = {(c[0], c[1]): c for c in cards}
    sep = "   +" + "----+" * (max(xs) - min(xs) + 1)
    out = ["    " + "".join(f"{x:^5}" for x in range(min(xs), max(xs) + 1)), sep]
    for y in range(min(ys), max(ys) + 1):
        top, bottom = [f"{y:>3}|"], ["   |"]
        for x in range(min(xs), max(xs) + 1):
            if (x, y) not in by_pos:
                top.append("    |")
                bottom.append("    |")
                continue
            nw, ne, se, sw = (_letter(t) for t in state.shown_types(seat, x, y))
            height = by_pos[(x, y)][4]
            top.append(f"{nw}{ne} {height if height > 1 else ' '}|")
            bottom.append(f"{sw}{se}  |")
        out += ["".join(top), "".join(bottom), sep]
    return out


def render_text(state: Any) -> str:
    n = state.num_players()
    status = "game over" if state.is_terminal() else f"seat {state.current_player()}: {state.phase_name()}"
    out = [f"Warsaw, {n} players, era {state.era()}, pick {state.pick_round() + 1}/4: {status}",
           "Quadrants: P park, R residential, C commercial, I industrial, U cultural, T transport, "
           "B public building, M milestone; a digit is the stack height"]
    owners = ", ".join("-" if o == -1 else ("discarded" if o == -2 else f"seat {o}")
                       for _, o in state.milestones())
    out.append(f"milestones I-V: {owners}")
    coins, vp = state.coins(), state.vp()
    winners = state.winners()
    for p in range(n):
        mark = " (winner)" if p in winners else ""
        out.append(f"seat {p}: {vp[p]} VP, {coins[p]} coins{mark}")
        out += ["  " + line for line in district_lines(state, p)]
    return "\n".join(out)
