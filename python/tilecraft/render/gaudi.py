"""Text diagram of a Gaudí state: the track, the central tile, the supply areas and windows,
then each seat's domains, chimneys, hand, columns and board (one character per space: '.' empty,
else the tile's colour index)."""
from __future__ import annotations

from typing import Any, List

DOMAINS = "NCR"


def _pos(x: int) -> str:
    return "off" if x == -1 else ("left" if x == 48 else str(x))


def board_line(state: Any, seat: int) -> str:
    masks = state.board(seat)
    n = max((m.bit_length() for m in masks), default=0)
    cells: List[str] = []
    for b in range(max(n, 1)):
        c = next((k for k in range(4) if masks[k] >> b & 1), -1)
        cells.append("." if c < 0 else str(c))
    return " ".join("".join(cells[i:i + 8]) for i in range(0, len(cells), 8))


def render_text(state: Any) -> str:
    n = state.num_players()
    status = "game over" if state.is_terminal() else (
        "chance" if state.is_chance_node() else f"seat {state.current_player()}: {state.phase_name()}")
    tile, used, options = state.central()
    out = [f"Gaudí, {n} players, round {state.round()}/3, central tile {tile}: {status}"]
    pos = state.positions()
    marks = [f"seat {p} at {_pos(pos[p])}" for p in range(n)]
    if n == 1:
        marks.append(f"automa at {_pos(pos[1])}")
    if n <= 2:
        marks.append(f"virtual at {_pos(pos[4])}")
    holder = "automa" if n == 1 and state.marker_holder() == 1 else f"seat {state.marker_holder()}"
    out.append("track: " + ", ".join(marks) + f"; start-player marker: {holder}")
    if n == 1:
        cols, tiles, vtiles = state.automa_area()
        out.append("automa: columns " + " ".join(f"{DOMAINS[d]}{c}" for d, c in enumerate(cols))
                   + f"; tiles per colour {[sum(tiles[4 * c:4 * c + 4]) for c in range(4)]}; score now "
                   f"{state.automa_final_score()}; virtual marker removed {sum(vtiles)} tile(s)")
    if state.phase_name() == "using actions":
        space, pencils, hammers, mode, _ = state.units()
        out.append(f"space {space}: {pencils} pencil(s), {hammers} hammer(s) left"
                   f"{' (leader)' if state.leader() else ''}")
    areas = state.areas()
    out.append("areas: " + " | ".join(",".join(f"{t >> 2}/{t & 3}" for t in range(16) for _ in range(a[t])) or "-"
                                      for a in areas))
    out.append("windows: " + " | ".join(f"{DOMAINS[d]}: {w}" for d, w in enumerate(state.windows()))
               + f"; decks {state.deck_sizes()}")
    if state.frames():
        out.append("pending rewards (top last): " + "; ".join(str(f["items"]) for f in state.frames()))
    winners = state.winners()
    scores = state.scores()
    for p in range(n):
        dom = state.domain_scores(p)
        mark = " (winner)" if p in winners else ""
        out.append(f"seat {p}: N {dom[0]} C {dom[1]} R {dom[2]}, score {scores[p]:.0f}{mark}; "
                   f"chimneys {state.chimneys(p)}")
        start = state.start_card(p)
        hand = [f"{c}*" if c == start else str(c) for c in state.hand(p)]
        out.append(f"  hand [{', '.join(hand)}] (* hidden starting card); columns "
                   + " ".join(f"{DOMAINS[d]}{col}" for d, col in enumerate(state.columns(p))))
        out.append("  board " + board_line(state, p))
    return "\n".join(out)
