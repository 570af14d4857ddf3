"""SVG picture of an Azul state: factories and centre, then each seat's board (pattern lines,
wall, floor, score). Every tile carries its letter (B Y R K W) so colour is never the only cue."""
from __future__ import annotations

from typing import Any, Optional

from ._draw import INK, Svg, letter_tile, seat_marker, status_line

LETTERS = "BYRKW"
NAMES = ("blue", "yellow", "red", "black", "white")
FILLS = ("#5b8fd1", "#e8c547", "#d9604c", "#4a4a4a", "#e9e4da")
FLOOR_PENALTY = (-1, -1, -2, -2, -2, -3, -3)
T = 22  # tile size


def svg(state: Any, seat: Optional[int] = None) -> str:
    n = state.num_players()
    sources = state.factories()
    walls, lines, floors = state.walls(), state.pattern_lines(), state.floors()
    scores = [int(x) for x in state.scores()]
    nf = len(sources) - 1
    board_w, board_h = 2 * (5 * (T + 2)) + 40, 5 * (T + 2) + 110
    cols = 2
    width = max(cols * (board_w + 20) + 20, 40 + nf * 92 + 220)
    top = 150
    height = top + ((n + cols - 1) // cols) * (board_h + 20) + 10
    d = Svg(width, height, f"Azul, {n} players")
    to_move = state.current_player() if not state.is_terminal() and not state.is_chance_node() else -1
    d.text(20, 24, f"Azul · round {state.round() + 1} · {status_line(state)}", size=16, weight="bold")
    # factories
    for f in range(1, nf + 1):
        cx, cy = 20 + 45 + (f - 1) * 92, 85
        d.circle(cx, cy, 42, fill="#efe6d2")
        d.text(cx, cy - 46 + 2, f"factory {f}", size=10, anchor="middle")
        tiles = [c for c in range(5) for _ in range(int(sources[f][c]))]
        for k, c in enumerate(tiles[:4]):
            x = cx - T - 1 + (k % 2) * (T + 2)
            y = cy - T - 1 + (k // 2) * (T + 2)
            letter_tile(d, x, y, T, FILLS[c], LETTERS[c], data_pick=f"factory {f} {NAMES[c]} ",
                        class_="pick")
    # centre
    cx0 = 20 + nf * 92
    d.rect(cx0, 38, 200, 95, fill="#efe6d2", rx=14)
    d.text(cx0 + 192, 128, "centre", size=10, anchor="end")
    k = 0
    if state.marker_in_centre():
        d.rect(cx0 + 8, 46, T, T, fill="#fff", rx=3)
        d.text(cx0 + 8 + T / 2, 46 + T * 0.72, "1", size=T * 0.6, anchor="middle", weight="bold")
        k = 1
    for c in range(5):
        for _ in range(int(sources[0][c])):
            x, y = cx0 + 8 + (k % 8) * (T + 1), 46 + (k // 8) * (T + 2)
            if y < 38 + 95 - T:
                letter_tile(d, x, y, T, FILLS[c], LETTERS[c], data_pick=f"centre {NAMES[c]} ", class_="pick")
            k += 1
    bag = " ".join(f"{LETTERS[c]}{int(x)}" for c, x in enumerate(state.bag()))
    lid = " ".join(f"{LETTERS[c]}{int(x)}" for c, x in enumerate(state.lid()))
    d.text(width - 20, 24, f"bag {bag} · lid {lid}", size=11, anchor="end")
    # boards
    winners = set(state.winners()) if state.is_terminal() else set()
    for p in range(n):
        bx = 20 + (p % cols) * (board_w + 20)
        by = top + (p // cols) * (board_h + 20)
        stroke_w = 3 if p == to_move else 1
        d.rect(bx, by, board_w, board_h, fill="#f3ecdc", rx=8, stroke=INK, stroke_width=stroke_w,
               data_seat=p)
        seat_marker(d, bx + 16, by + 18, 10, p)
        label = f"seat {p}: {scores[p]} points" + (" · winner" if p in winners else "") + \
            (" · to move" if p == to_move else "") + (" · you" if seat == p else "")
        d.text(bx + 32, by + 23, label, size=13, weight="bold")
        if state.next_first_player() == p and not state.is_terminal():
            d.text(bx + board_w - 8, by + board_h - 8, "starts next round", size=10, anchor="end")
        ly = by + 36
        for k in range(5):
            y = ly + k * (T + 2)
            colour, count = int(lines[p][k][0]), int(lines[p][k][1])
            pick = f"-> line {k + 1}"
            d.rect(bx + 8, y - 1, 5 * (T + 2) + 4, T + 2, fill="none", stroke="none", data_pick=pick,
                   data_pick_seat=p, class_="pick")
            for j in range(k + 1):
                x = bx + 10 + (4 - j) * (T + 2)
                if j < count and colour >= 0:
                    letter_tile(d, x, y, T, FILLS[colour], LETTERS[colour], data_pick=pick, data_pick_seat=p,
                                class_="pick")
                else:
                    d.rect(x, y, T, T, fill="#fff", stroke="#aaa", rx=3, data_pick=pick, data_pick_seat=p,
                           class_="pick")
            wx = bx + 24 + 5 * (T + 2)
            for c in range(5):
                colour_at = (c - k) % 5
                letter_tile(d, wx + c * (T + 2), y, T, FILLS[colour_at], LETTERS[colour_at],
                            faded=not bool(walls[p][k][c]))
        fy = ly + 5 * (T + 2) + 10
        floor = floors[p]
        held = [c for c in range(5) for _ in range(int(floor[2 + c]))]
        items = (["1"] if floor[1] else []) + held
        d.text(bx + 10, fy + 8, "floor", size=10)
        for j in range(7):
            x = bx + 40 + j * (T + 4)
            d.rect(x, fy, T, T, fill="#fff", stroke="#aaa", rx=3, data_pick="-> floor", data_pick_seat=p,
                   class_="pick")
            d.text(x + T / 2, fy + T + 11, str(FLOOR_PENALTY[j]), size=9, anchor="middle", fill="#666")
            if j < len(items):
                it = items[j]
                if it == "1":
                    d.text(x + T / 2, fy + T * 0.72, "1", size=T * 0.6, anchor="middle", weight="bold")
                else:
                    letter_tile(d, x, fy, T, FILLS[int(it)], LETTERS[int(it)], data_pick="-> floor",
                                data_pick_seat=p, class_="pick")
        extra = int(floor[0]) - 7
        if extra > 0:
            d.text(bx + 40 + 7 * (T + 4), fy + 15, f"+{extra}", size=10)
    return str(d)
