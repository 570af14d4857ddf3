"""SVG picture of a Carcassonne: The Castle state: the castle interior with every tile (each edge
segment drawn as a wedge coloured and patterned by its type), followers and keeps, the start
spaces in the wall, and the 100-space score track around the wall with corners and markers."""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

from ..castle import TILE_IN_HAND
from ._draw import INK, SEAT_COLOURS, Svg, seat_marker, status_line

TYPE_NAMES = ("path", "tower", "house", "court")
TYPE_LETTERS = "PTHC"
# Similar luminance; the pattern (plain, cross-hatch, stripes, dots) tells them apart without hue.
TYPE_FILLS = ("#d6c7a1", "#a9b4c4", "#d3a58c", "#b3cc9c")
S = 44  # a space
TRACK = 14  # score track band width


def _patterns(d: Svg) -> List[str]:
    fills = [TYPE_FILLS[0]]
    fills.append(d.pattern("c-tower", f'<pattern id="c-tower" width="6" height="6" patternUnits="userSpaceOnUse">'
                                      f'<rect width="6" height="6" fill="{TYPE_FILLS[1]}"/>'
                                      f'<path d="M0 0L6 6M6 0L0 6" stroke="#5d6878" stroke-width="0.8"/></pattern>'))
    fills.append(d.pattern("c-house", f'<pattern id="c-house" width="5" height="5" patternUnits="userSpaceOnUse">'
                                      f'<rect width="5" height="5" fill="{TYPE_FILLS[2]}"/>'
                                      f'<path d="M0 5L5 0" stroke="#8a5a44" stroke-width="0.9"/></pattern>'))
    fills.append(d.pattern("c-court", f'<pattern id="c-court" width="6" height="6" patternUnits="userSpaceOnUse">'
                                      f'<rect width="6" height="6" fill="{TYPE_FILLS[3]}"/>'
                                      f'<circle cx="3" cy="3" r="1.1" fill="#5f7d4b"/></pattern>'))
    return fills


def _seg_points(s: int, x: float, y: float) -> List[Tuple[float, float]]:
    """The wedge of edge segment s (N0 N1 N2 E0 ... W2, clockwise) of a space at (x, y)."""
    side, k = divmod(s, 3)
    a, b = k / 3, (k + 1) / 3
    if side == 0:
        p, q = (x + a * S, y), (x + b * S, y)
    elif side == 1:
        p, q = (x + S, y + a * S), (x + S, y + b * S)
    elif side == 2:
        p, q = (x + S - a * S, y + S), (x + S - b * S, y + S)
    else:
        p, q = (x, y + S - a * S), (x, y + S - b * S)
    return [(x + S / 2, y + S / 2), p, q]


def _track_point(i: int, x0: float, y0: float, w: float, h: float) -> Tuple[float, float]:
    """Centre of score-track space i (0..99), clockwise from the top-left corner of the wall."""
    perimeter = 2 * (w + h)
    t = (i % 100) / 100 * perimeter
    if t < w:
        return x0 + t, y0
    t -= w
    if t < h:
        return x0 + w, y0 + t
    t -= h
    if t < w:
        return x0 + w - t, y0 + h
    return x0, y0 + h - (t - w)


def svg(state: Any, seat: Optional[int] = None) -> str:
    cfg = state.config()
    width, height = cfg["width"], cfg["height"]
    board = state.board()
    scores = [int(x) for x in state.scores()]
    margin = 40 + TRACK
    ox, oy = margin + S, margin + S + 30  # interior origin (a ring of start spaces around it)
    pw, ph = ox + (width + 1) * S + margin, oy + (height + 1) * S + margin
    side_w = 310
    d = Svg(pw + side_w, max(ph, 420), "Carcassonne: The Castle")
    fills = _patterns(d)
    to_move = state.current_player() if not state.is_terminal() and not state.is_chance_node() else -1
    d.text(20, 24, f"The Castle · turn {state.turn()} · {status_line(state)}", size=16, weight="bold")
    # the wall and its score track
    wx0, wy0 = ox - S - TRACK, oy - S - TRACK
    ww, wh = (width + 2) * S + 2 * TRACK, (height + 2) * S + 2 * TRACK
    d.rect(wx0 - TRACK / 2, wy0 - TRACK / 2, ww + TRACK, wh + TRACK, fill="#cfc4ad", stroke=INK, rx=6)
    d.rect(wx0 + TRACK / 2, wy0 + TRACK / 2, ww - TRACK, wh - TRACK, fill="#e9e1cf", stroke=INK)
    for i in range(100):
        x, y = _track_point(i, wx0, wy0, ww, wh)
        d.circle(x, y, 1.6, fill="#7a705e", stroke=None)
        if i % 10 == 0:
            d.text(x, y + 3.5, str(i), size=8, anchor="middle", fill="#333")
    stocked = state.corners_stocked()
    for k in range(cfg["num_corners"]):
        x, y = _track_point(cfg["corner_space"][k], wx0, wy0, ww, wh)
        x2, y2 = _track_point(cfg["corner_space"][k] + 1, wx0, wy0, ww, wh)
        mx, my = (x + x2) / 2, (y + y2) / 2
        if k == cfg["start_corner"]:
            d.rect(mx - 7, my - 7, 14, 14, fill="#fff", stroke=INK, rx=2)
            d.text(mx, my + 3.5, "S", size=9, anchor="middle", weight="bold")
        elif stocked[k]:
            d.rect(mx - 7, my - 7, 14, 14, fill="#6d5b3f", stroke=INK, rx=2)
            d.text(mx, my + 3.5, "?", size=9, anchor="middle", fill="#fff", weight="bold")
    for p in (0, 1):
        x, y = _track_point(scores[p], wx0, wy0, ww, wh)
        seat_marker(d, x + (p * 2 - 1) * 5, y + (p * 2 - 1) * 5, 7, p)
    # start spaces printed in the wall
    for g in range(cfg["num_gates"]):
        cell, gside = cfg["gate_cell"][g], cfg["gate_side"][g]
        r, c = divmod(cell, width)
        rr, cc = r + (gside == 2) - (gside == 0), c + (gside == 1) - (gside == 3)
        x, y = ox + cc * S, oy + rr * S
        d.rect(x + 2, y + 2, S - 4, S - 4, fill="#efe8d8", stroke="#8a7f6a", stroke_dasharray="3 2")
        facing = (gside + 2) % 4  # the gate's printed edge faces the interior space
        for k, t in enumerate(cfg["gate_seg"][g]):
            seg = facing * 3 + (2 - k)
            d.polygon(_seg_points(seg, x, y), fill=fills[t], stroke="#777", stroke_width=0.5)
    # interior
    for r in range(height):
        for c in range(width):
            t, rot = int(board[r, c, 0]), int(board[r, c, 1])
            x, y = ox + c * S, oy + r * S
            if t == -2:
                continue
            if t == -1:
                d.rect(x, y, S, S, fill="#f7f3ea", stroke="#c8bfae", data_pick=f"place ({r},{c}) ", class_="pick")
                continue
            seg = cfg["seg_type"][t]
            for s in range(12):
                d.polygon(_seg_points(s, x, y), fill=fills[seg[(s - 3 * rot) % 12]], stroke=None)
            d.rect(x, y, S, S, fill="none", stroke="#6f6657", stroke_width=0.8)
            if any(cfg["area_well"][t]):
                d.circle(x + S / 2, y + S / 2, 6, fill="#7fb2d9", stroke=INK)
                d.text(x + S / 2, y + S / 2 + 3, "o", size=8, anchor="middle")
            elif any(cfg["area_stalls"][t]):
                d.rect(x + S / 2 - 6, y + S / 2 - 6, 12, 12, fill="#fff", stroke=INK)
                d.text(x + S / 2, y + S / 2 + 4, "$", size=10, anchor="middle", weight="bold")
    last = state.last_cell()
    if last is not None and last >= 0:
        r, c = divmod(last, width)
        d.rect(ox + c * S + 1, oy + r * S + 1, S - 2, S - 2, fill="none", stroke="#000", stroke_width=2,
               stroke_dasharray="4 2")
    for p in (0, 1):
        size, cell = state.keep(p)
        if size:
            r, c = divmod(cell, width)
            x, y = ox + c * S, oy + r * S
            d.rect(x + 8, y + 8, S - 16, S - 16, fill=SEAT_COLOURS[p], stroke=INK, stroke_width=2)
            d.text(x + S / 2, y + S / 2 + 5, f"K{size}", size=12, anchor="middle", fill="#fff", weight="bold")
    for f in state.followers():
        r, c = divmod(f["cell"], width)
        x, y = ox + c * S, oy + r * S
        t, rot = int(board[r, c, 0]), int(board[r, c, 1])
        segs = [s for s in range(12) if cfg["seg_area"][t][(s - 3 * rot) % 12] == f["slot"]]
        if segs:
            pts = [pt for s in segs for pt in _seg_points(s, x, y)[1:]]
            fx = sum(p[0] for p in pts) / len(pts) * 0.6 + (x + S / 2) * 0.4
            fy = sum(p[1] for p in pts) / len(pts) * 0.6 + (y + S / 2) * 0.4
        else:
            fx, fy = x + S / 2, y + S / 2
        seat_marker(d, fx, fy, 8, f["seat"])
    # side panel: the tile in hand, seats, legend
    sx = pw + 10
    y = 60
    tile = state.current_tile()
    if tile >= 0 and state.phase_name() in TILE_IN_HAND:
        d.text(sx, y, "tile in hand", size=12, weight="bold")
        seg = cfg["seg_type"][tile]
        for s in range(12):
            d.polygon(_seg_points(s, sx, y + 8), fill=fills[seg[s]], stroke=None)
        d.rect(sx, y + 8, S, S, fill="none", stroke=INK)
        alt = state.alt_tile()
        if alt is not None and alt >= 0 and state.phase_name() == "choosing which drawn tile to keep":
            seg = cfg["seg_type"][alt]
            for s in range(12):
                d.polygon(_seg_points(s, sx + S + 12, y + 8), fill=fills[seg[s]], stroke=None)
            d.rect(sx + S + 12, y + 8, S, S, fill="none", stroke=INK)
        y += S + 30
        if state.phase_name() == "placing the tile" and to_move >= 0:
            # the four rotations, each a click target: with a space, it makes the move (the play
            # page frames the rotations still legal there)
            d.text(sx, y, "rotation", size=12, weight="bold")
            seg = cfg["seg_type"][tile]
            for k in range(4):
                rx = sx + k * (S + 14)
                # data-at: where the tile is drawn, so that the page can show it on a board space
                d.open("g", data_rotation=f" rot {90 * k} ", data_at=f"{rx},{y + 8}")
                for s in range(12):
                    d.polygon(_seg_points(s, rx, y + 8), fill=fills[seg[(s - 3 * k) % 12]], stroke=None)
                d.close()
                d.rect(rx, y + 8, S, S, fill="#fff", fill_opacity=0, stroke=INK, data_pick=f" rot {90 * k} ",
                       class_="pick")
                d.text(rx + S / 2, y + S + 21, f"{90 * k}°", size=10, anchor="middle")
            y += S + 40
    walls = state.wall_tiles()
    winners = set(state.winners()) if state.is_terminal() else set()
    for p in (0, 1):
        seat_marker(d, sx + 9, y - 4, 9, p)
        label = f"seat {p}: {scores[p]} points" + (" · winner" if p in winners else "") + \
            (" · to move" if p == to_move else "") + (" · you" if seat == p else "")
        d.text(sx + 24, y, label, size=13, weight="bold" if p == to_move else None)
        y += 17
        size, _ = state.keep(p)
        d.text(sx + 24, y, f"followers in supply {state.followers_in_supply(p)}, keep {size or '-'}", size=11)
        y += 15
        usable = [str(k + 1) for k in range(9) for _ in range(int(walls[p][0][k]))]
        fresh = [str(k + 1) for k in range(9) for _ in range(int(walls[p][1][k]))]
        d.text(sx + 24, y, f"wall tiles {' '.join(usable) or '-'}" + (f" (next turn {' '.join(fresh)})" if fresh
                                                                       else ""), size=11)
        y += 24
    d.text(sx, y, f"supply {int(state.supply().sum())} tiles", size=11)
    y += 26
    for k, name in enumerate(TYPE_NAMES):
        d.rect(sx, y - 11, 16, 16, fill=fills[k], stroke=INK)
        d.text(sx + 22, y + 2, f"{TYPE_LETTERS[k]} {name}", size=11)
        y += 20
    d.text(sx, y + 2, "o fountain · $ market · K keep", size=11)
    d.text(sx, y + 18, "S start corner · ? wall tile", size=11)
    return str(d)
