"""Text diagram of a Carcassonne: The Castle state: a map of the castle plus the score track.

Each space is 5 characters wide and 3 high. A placed tile shows its edge segments (north row:
N0 N1 N2 left to right; south row: S2 S1 S0; the middle row W1 and E1) and one centre mark.
Start spaces show their printed edge as [XXX] in the wall next to the space they face."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

SEG_CHAR = {0: "=", 1: "T", 2: "h", 3: "."}
TYPE_NAMES = ("path", "tower", "house", "court")
# The phases in which a drawn tile is in hand (the phase names of cpp/castle/state.hpp).
TILE_IN_HAND = ("choosing which drawn tile to keep", "placing the tile", "may place a follower")


def _tile_names(config: Dict[str, Any]) -> Optional[List[str]]:
    """Tile ids when the state uses the built-in manifest (matched by content), else None."""
    try:
        from ..games import castle as cdata
        default = cdata.component_config()
        if default["seg_type"] == config["seg_type"] and default["type_count"] == config["type_count"]:
            return [t["id"] for t in cdata.load_tiles()["tiles"]]
    except Exception:  # pragma: no cover - a renderer never fails on odd data
        return None
    return None


def _rotated(config: Dict[str, Any], t: int, r: int) -> List[int]:
    seg = config["seg_type"][t]
    return [seg[(s - 3 * r) % 12] for s in range(12)]


def render_text(state: Any) -> str:
    cfg = state.config()
    width, height = cfg["width"], cfg["height"]
    names = _tile_names(cfg)
    board = state.board()
    scores = [int(x) for x in state.scores()]

    def tile_name(t: int) -> str:
        return names[t] if names else f"type {t}"

    # centre marks: follower seat digit > keep K > fountain o > market $ > square #
    centre: Dict[int, str] = {}
    for cell in range(width * height):
        t = int(board[cell // width, cell % width, 0])
        if t < 0:
            continue
        wells = sum(cfg["area_well"][t])
        markets = sum(cfg["area_stalls"][t])
        path_areas = {cfg["seg_area"][t][s] for s in range(12) if cfg["seg_type"][t][s] == 0}
        mark = "o" if wells else ("$" if markets else ("#" if len(path_areas) > 1 else " "))
        centre[cell] = mark
    for p in (0, 1):
        size, cell = state.keep(p)
        if size:
            centre[cell] = "K"
    for f in state.followers():
        centre[f["cell"]] = str(f["seat"])

    gates_at: Dict[tuple, str] = {}
    letters = {0: "R", 1: "T", 2: "H", 3: "C"}
    for g in range(cfg["num_gates"]):
        cell, side = cfg["gate_cell"][g], cfg["gate_side"][g]
        r, c = divmod(cell, width)
        rr, cc = r + (side == 2) - (side == 0), c + (side == 1) - (side == 3)
        gates_at[(rr, cc)] = "[" + "".join(letters[x] for x in cfg["gate_seg"][g]) + "]"

    lines: List[str] = []
    status = state.phase_name()
    who = "" if state.is_terminal() or state.is_chance_node() else f"seat {state.current_player()} "
    lines.append(f"Carcassonne: The Castle, turn {state.turn()}: {who}{status}")
    if state.current_tile() >= 0 and state.phase_name() in TILE_IN_HAND:
        lines.append(f"  tile in hand: {tile_name(state.current_tile())}")
    lines.append("  map: = path, T tower, h house, . court; centre: 0/1 follower, K keep, o fountain, "
                 "$ market, # square; + empty space; [XYZ] start space (R path, T tower, H house, C court)")
    header = " " * 10 + "".join(f"{c:^5}" for c in range(width))
    lines.append(header)
    for r in range(-1, height + 1):
        rows = ["", "", ""]
        for c in range(-1, width + 1):
            inside = 0 <= r < height and 0 <= c < width
            t = int(board[r, c, 0]) if inside else -2
            if (r, c) in gates_at:
                block = ["     ", gates_at[(r, c)].center(5), "     "]
            elif t == -2:
                block = ["     "] * 3
            elif t == -1:
                block = ["     ", "  +  ", "     "]
            else:
                seg = _rotated(cfg, t, int(board[r, c, 1]))
                ch = [SEG_CHAR[x] for x in seg]
                mid = centre.get(r * width + c, " ")
                block = [f" {ch[0]}{ch[1]}{ch[2]} ", f"{ch[10]} {mid} {ch[4]}", f" {ch[8]}{ch[7]}{ch[6]} "]
            for k in range(3):
                rows[k] += block[k]
        label = f"{r:>3}  " if 0 <= r < height else "     "
        for k in range(3):
            text = (label if k == 1 else "     ") + rows[k]
            if text.strip():
                lines.append(text.rstrip())
    # score track
    stocked = state.corners_stocked()
    corners = []
    for k in range(cfg["num_corners"]):
        a = cfg["corner_space"][k]
        mark = "start" if k == cfg["start_corner"] else ("wall tile" if stocked[k] else "-")
        corners.append(f"{a}/{(a + 1) % 100} {mark}")
    lines.append("  wall corners: " + ", ".join(corners))
    walls = state.wall_tiles()
    winners = state.winners()
    for p in (0, 1):
        held = [f"{k + 1}" * int(walls[p][0][k]) for k in range(9)]
        fresh = [f"{k + 1}" * int(walls[p][1][k]) for k in range(9)]
        size, _ = state.keep(p)
        win = " (winner)" if p in winners else ""
        lines.append(f"seat {p}: score {scores[p]}{win} (marker on {scores[p] % 100}), followers in supply "
                     f"{state.followers_in_supply(p)}, keep {size or '-'}, wall tiles usable "
                     f"[{''.join(held) or '-'}] next turn [{''.join(fresh) or '-'}]")
    for f in state.followers():
        r, c = divmod(f["cell"], width)
        state_text = "complete" if f["complete"] else f"{f['open']} open edge(s)"
        lines.append(f"  seat {f['seat']} follower at ({r},{c}): {TYPE_NAMES[('road', 'tower', 'house', 'court').index(f['type'])]}"
                     f" of {f['tiles']} tile(s), {state_text}")
    left = int(state.supply().sum())
    lines.append(f"  supply: {left} tile(s) left, {int(state.removed().sum())} set aside as unplaceable")
    if state.is_terminal():
        cats = state.scores_by_category()
        parts = ("paths", "towers", "houses", "courts", "wall tiles 4-6", "wall tile 9", "keep")
        for p in (0, 1):
            lines.append(f"  seat {p} points: " + ", ".join(f"{n} {int(v)}" for n, v in zip(parts, cats[p]) if v))
        lines.append(f"  largest empty area: {state.largest_empty_area()} space(s)")
    return "\n".join(lines)
