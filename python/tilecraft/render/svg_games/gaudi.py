"""SVG picture of a Gaudí state: the action track around the central area (markers, red spaces,
pencils and hammers), the five supply areas and the three windows, then each seat's board
(every tile with its colour letter and shape letter), domain scores, chimneys, columns and hand
(every hand when ``seat`` is None; only that seat's when it is given, the others face down)."""
from __future__ import annotations

import functools
import json
import os
from typing import Any, Dict, List, Optional

from ._draw import INK, Svg, seat_marker, status_line, text_colour

COLOURS = ("blue", "green", "yellow", "red")
C_LETTERS = "BGYR"
# Mid-luminance fills; the letter tells the colour.
C_FILLS = ("#6f9bd6", "#7dbb7a", "#e3c45a", "#d97a6a")
SHAPES = ("cross", "leaf", "scale", "panot")
S_LETTERS = "xlsp"
DOMAINS = ("Nature", "Catalan", "Religion")
D_LETTERS = "NCR"
D_FILLS = ("#a8cf9c", "#e6b98a", "#b9a9d9")
SHAPE_NAMES = dict(zip(SHAPES, S_LETTERS))
# The track's abbreviations, each explained in the picture's legend.
LEGEND = ("T take a tile; TB TG TY TR: of that colour; a shape letter x l s p: of that shape",
          "K take a card; KN KC KR: a Nature, Catalan or Religion card",
          "pla play a card · chi advance a chimney · gen generic: any one action",
          "✎ pencil · ⚒ hammer (how many uses) · ! red space · v virtual marker")


@functools.lru_cache(maxsize=None)
def _edition_file(name: str) -> Optional[Dict[str, Any]]:
    try:
        from ...games import gaudi as g
        path = os.path.join(os.path.dirname(os.path.abspath(g.__file__)), "..", "data", "gaudi", name)
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except Exception:  # pragma: no cover - a renderer never fails on odd data
        return None


def _spaces(n: int, face: str = "day") -> List[Dict[str, Any]]:
    """The track spaces' actions of the default edition (empty ones if the edition differs)."""
    data = _edition_file("track.json")
    spaces = (data or {}).get(face, {}).get("spaces", [])
    if len(spaces) != n:
        return [{}] * n
    return [sp.get("action", {}) if isinstance(sp.get("action"), dict) else {} for sp in spaces]


def _track_label(a: Dict[str, Any]) -> str:
    kind = a.get("type", "")
    if kind == "tile":
        return ("T" + (C_LETTERS[COLOURS.index(a["colour"])] if a.get("colour") in COLOURS else "")
                + SHAPE_NAMES.get(a.get("shape", ""), ""))
    if kind == "card":
        dom = a.get("domain", "")
        return "K" + (dom[:1].upper() if dom else "")
    return str(kind)[:3]


def _track_say(a: Dict[str, Any]) -> str:
    """What a track space's action does, in words."""
    kind = a.get("type", "")
    if kind == "tile":
        what = " ".join(x for x in (a.get("colour", ""), a.get("shape", "")) if x)
        return f"take a {what} tile" if what else "take a tile"
    if kind == "card":
        return f"take a {a['domain'].capitalize()} card" if a.get("domain") else "take a card"
    return {"play": "play a card", "chimney": "advance a chimney", "generic": "any one action"}.get(
        str(kind), str(kind))


def _effect_say(e: Dict[str, Any]) -> str:
    kind = e.get("type", "")
    dom = str(e.get("domain", "")).capitalize()
    if kind == "vp":
        return f"{e.get('n', 1)} {dom} VP"
    if kind == "resolve_catalan":
        return "resolve the Catalan column" + (f" ×{e['times']}" if e.get("times", 1) != 1 else "")
    if kind == "resolve_nature":
        return "resolve the Nature column"
    if kind == "resolve_one_religion":
        return "resolve one Religion card"
    if kind == "take_card":
        return f"take a {dom} card" if dom else "take a card"
    if kind == "collect_tile":
        return "take a tile"
    if kind == "play_card":
        return "play a card" + (" ignoring its requirement" if e.get("ignore_requirement") else "")
    if kind == "generic":
        return "any one action"
    return str(kind).replace("_", " ")


def _central_say(tile: int) -> Dict[str, str]:
    """The central tile's two options in words, by move name ('central A', 'central B')."""
    tiles = (_edition_file("chandeliers.json") or {}).get("tiles", [])
    if not 0 <= tile < len(tiles) or not isinstance(tiles[tile], dict):
        return {}
    return {f"central {o.upper()}": f"central tile {tile}, option {o.upper()}: "
            + ", ".join(_effect_say(e) for e in tiles[tile].get(o, []) if isinstance(e, dict))
            for o in ("a", "b")}


def move_text(state: Any, action: int) -> str:
    """The move's name with what it does where the name alone is cryptic: a track space's action,
    a central option's effects."""
    name = state.action_to_string(action)
    if state.is_chance_node():
        return name
    cfg = state.config()
    f = 1 if cfg.get("mode") == 1 else 0
    spaces = _spaces(cfg["track_n"][f], ("day", "night")[f])
    if name.startswith("move ") and name[5:].isdigit() and int(name[5:]) < len(spaces):
        i = int(name[5:])
        return f"{name}: {_space_words(spaces[i], cfg, f, i)}"
    if name == "move central":
        return "move central: to the central area (leaves the track)"
    say = _central_say(state.central()[0]).get(name)
    return f"{name}: {say[say.index(':') + 2:]}" if say else name


def _space_words(a: Dict[str, Any], cfg: Dict[str, Any], f: int, i: int) -> str:
    pen, ham = cfg["track_pencils"][f][i], cfg["track_hammers"][f][i]
    uses = ", ".join(x for x in (f"{pen} pencil" + "s" * (pen != 1) if pen else "",
                                 f"{ham} hammer" + "s" * (ham != 1) if ham else "") if x)
    red = ", red space" if cfg["track_red"][f][i] else ""
    label = _track_label(a)
    return f"{_track_say(a)}" + (f" ({label})" if label else "") + (f", {uses}" if uses else "") + red


def _board_xy(n: int) -> List[tuple]:
    data = _edition_file("board.json")
    spaces = (data or {}).get("spaces", [])
    if len(spaces) == n and all("x" in s and "y" in s for s in spaces):
        return [(int(s["x"]), int(s["y"])) for s in spaces]
    return [(b % 6, b // 6) for b in range(n)]


def _tile(d: Svg, x: float, y: float, size: float, colour: int, shape: int, **attrs: Any) -> None:
    fill = C_FILLS[colour]
    d.rect(x, y, size, size, fill=fill, stroke=INK, rx=3, **attrs)
    d.text(x + size / 2, y + size * 0.55, C_LETTERS[colour], size=size * 0.42, anchor="middle", weight="bold",
           fill=text_colour(fill))
    d.text(x + size / 2, y + size * 0.9, S_LETTERS[shape], size=size * 0.3, anchor="middle", fill=text_colour(fill))


def _card(d: Svg, x: float, y: float, card: int, cfg: Dict[str, Any], hidden: bool = False, **attrs: Any) -> None:
    if hidden:
        d.rect(x, y, 34, 46, fill="#7a6a55", stroke=INK, rx=3)
        return
    dom = cfg["card_domain"][card] if card < len(cfg["card_domain"]) else 0
    d.rect(x, y, 34, 46, fill=D_FILLS[dom % 3], stroke=INK, rx=3, **attrs)
    d.text(x + 17, y + 13, D_LETTERS[dom % 3], size=11, anchor="middle", weight="bold")
    d.text(x + 17, y + 26, f"#{card}", size=9, anchor="middle")
    colour, n = cfg["card_req_colour"][card], cfg["card_req_n"][card]
    if 0 <= colour < 4 and n:
        d.text(x + 17, y + 40, f"{n}×{C_LETTERS[colour]}", size=10, anchor="middle", weight="bold")


def svg(state: Any, seat: Optional[int] = None) -> str:
    n = state.num_players()
    cfg = state.config()
    f = 1 if cfg.get("mode") == 1 else 0  # expert and solo play the night face (GA-EXP-2, GA-SOLO-1)
    track_n = cfg["track_n"][f]
    spaces = _spaces(track_n, ("day", "night")[f])
    xy = _board_xy(cfg["board_n"])
    bw = max(x for x, _ in xy) + 1
    bh = max(y for _, y in xy) + 1
    B = 28
    to_move = state.current_player() if not state.is_terminal() and not state.is_chance_node() else -1
    winners = set(state.winners()) if state.is_terminal() else set()
    seat_w = max(bw * (B + 2) + 250, 480)
    width = max(2 * seat_w + 60, 1000)
    top_h = 410
    seat_h = max(bh * (B + 2) + 60, 230)
    height = top_h + ((n + 1) // 2) * (seat_h + 16) + 20
    d = Svg(width, height, f"Gaudí, {n} players")
    what = state.phase_name() if to_move >= 0 else ""
    d.text(20, 24, f"Gaudí · round {state.round()}/3 · {status_line(state)}" + (f" ({what})" if what else ""),
           size=16, weight="bold")
    # the track: a loop of spaces around the central area
    tw, th = 560, 345
    tx0, ty0 = 20, 40
    per_row = max(1, (track_n - 2 * 4) // 2)
    rows_side = (track_n - 2 * per_row) // 2
    sw = tw / per_row
    shh = th / (rows_side + 2)
    positions: List[tuple] = []
    for i in range(track_n):
        if i < per_row:
            positions.append((tx0 + i * sw, ty0))
        elif i < per_row + rows_side:
            positions.append((tx0 + tw - sw, ty0 + (i - per_row + 1) * shh))
        elif i < 2 * per_row + rows_side:
            positions.append((tx0 + tw - sw - (i - per_row - rows_side) * sw, ty0 + th - shh))
        else:
            positions.append((tx0, ty0 + th - shh - (i - 2 * per_row - rows_side + 1) * shh))
    for i, (x, y) in enumerate(positions):
        red = bool(cfg["track_red"][f][i])
        # the space's number, action and pencils/hammers on top; a marker's place below them
        d.rect(x + 1, y + 1, sw - 2, shh - 2, fill="#f2c6bd" if red else "#efe6d2",
               stroke="#a33" if red else "#8a7f6a", stroke_width=2 if red else 1, data_pick=f"move {i} ",
               data_say=_space_words(spaces[i], cfg, f, i), class_="pick")
        d.text(x + 4, y + 11, str(i), size=8, fill="#555")
        d.text(x + sw / 2, y + 24, _track_label(spaces[i]), size=10, anchor="middle", weight="bold")
        pen, ham = cfg["track_pencils"][f][i], cfg["track_hammers"][f][i]
        d.text(x + sw / 2, y + 35, "✎" * pen + "⚒" * ham, size=8, anchor="middle")
        if red:
            d.text(x + sw - 4, y + 11, "!", size=9, anchor="end", fill="#a33", weight="bold")
    pos = state.positions()
    for p in range(n):
        if 0 <= pos[p] < track_n:
            x, y = positions[pos[p]]
            seat_marker(d, x + sw - 10, y + shh - 10, 7, p)
    if n == 1 and 0 <= pos[1] < track_n:  # the Gaudí automa's marker (GA-SOLO-2)
        x, y = positions[pos[1]]
        d.circle(x + sw - 10, y + shh - 10, 7, fill="#444", stroke=INK)
        d.text(x + sw - 10, y + shh - 7, "G", size=8, anchor="middle", fill="#fff", weight="bold")
    if n <= 2 and 0 <= pos[4] < track_n:
        x, y = positions[pos[4]]
        d.circle(x + 9, y + shh - 10, 6, fill="#fff", stroke=INK, stroke_dasharray="2 1")
        d.text(x + 9, y + shh - 7, "v", size=8, anchor="middle")
    # central area
    tile, _, options = state.central()
    cx, cy = tx0 + sw + 10, ty0 + shh + 10
    d.rect(cx, cy, tw - 2 * sw - 20, th - 2 * shh - 20, fill="#e5dcc7", stroke=INK, rx=8, data_pick="move central",
           data_say="to the central area (leaves the track)", class_="pick")
    d.text(cx + 10, cy + 20, f"central area · tile {tile if tile >= 0 else '-'}", size=12, weight="bold")
    for k, (name, say) in enumerate(sorted(_central_say(tile).items())):
        # the tile's options; each also names what its move does (data-say) for the play page
        d.text(cx + 10, cy + 92 + 14 * k, say, size=10, data_say_move=name, data_say=say[say.index(":") + 2:])
    holder = "Gaudí (automa)" if n == 1 and state.marker_holder() == 1 else f"seat {state.marker_holder()}"
    d.text(cx + 10, cy + 38, f"start-player marker: {holder}", size=11)
    off = [p for p in range(n) if pos[p] in (-1, 48)]
    if off:
        d.text(cx + 10, cy + 56, "off the track: " + ", ".join(f"seat {p}" for p in off), size=11)
    if state.phase_name() == "using actions" and to_move >= 0:
        space, pencils, hammers, _, _ = state.units()
        d.text(cx + 10, cy + 74, f"space {space}: {pencils} pencil(s), {hammers} hammer(s) left"
               + (" (leader)" if state.leader() else ""), size=11)
    for k, line in enumerate(LEGEND):
        d.text(cx + 10, cy + th - 2 * shh - 78 + 13 * k, line, size=9)
    # supply areas and windows
    ax = tx0 + tw + 30
    d.text(ax, 52, "supply areas", size=12, weight="bold")
    for a, counts in enumerate(state.areas()):
        y = 60 + a * 40
        d.text(ax, y + 22, f"{a}", size=11, weight="bold")
        k = 0
        for t in range(16):
            for _ in range(int(counts[t])):
                _tile(d, ax + 14 + k * 32, y, 28, t >> 2, t & 3, data_pick=f"tile a{a} c{t >> 2} s{t & 3} ",
                      class_="pick")
                k += 1
    wy = 270
    d.text(ax, wy - 8, "windows", size=12, weight="bold")
    decks = state.deck_sizes()
    for dom, cards in enumerate(state.windows()):
        x = ax + dom * 130
        d.text(x, wy + 8, f"{DOMAINS[dom]} (deck {decks[dom]})", size=10)
        for k, card in enumerate(cards[:3]):
            _card(d, x + k * 38, wy + 14, int(card), cfg, data_pick=f"card {card} ", class_="pick")
    # seats
    scores = [float(x) for x in state.scores()]
    for p in range(n):
        px = 20 + (p % 2) * (seat_w + 20)
        py = top_h + (p // 2) * (seat_h + 16)
        d.rect(px, py, seat_w, seat_h, fill="#f3ecdc", rx=8, stroke=INK, stroke_width=3 if p == to_move else 1)
        seat_marker(d, px + 16, py + 18, 10, p)
        dom = state.domain_scores(p)
        label = f"seat {p}: {scores[p]:g} points (N {dom[0]} · C {dom[1]} · R {dom[2]})" + \
            (" · winner" if p in winners else "") + (" · to move" if p == to_move else "") + \
            (" · you" if seat == p else "")
        d.text(px + 32, py + 23, label, size=13, weight="bold")
        masks = state.board(p)
        for b, (x, y) in enumerate(xy):
            bx, by = px + 12 + x * (B + 2), py + 36 + y * (B + 2)
            colour = next((c for c in range(4) if masks[c] >> b & 1), -1)
            shape = cfg["board_shape"][b]
            if colour >= 0:
                _tile(d, bx, by, B, colour, shape)
            else:
                d.rect(bx, by, B, B, fill="#fff", stroke="#bbb", rx=3, data_pick=f"place {b} ", data_pick_seat=p,
                       class_="pick")
                d.text(bx + B / 2, by + B * 0.65, S_LETTERS[shape], size=B * 0.4, anchor="middle", fill="#aaa")
        ix = px + 12 + bw * (B + 2) + 14
        chim = state.chimneys(p)
        d.text(ix, py + 48, "chimneys " + " ".join(f"{D_LETTERS[k]}{chim[k]}" for k in range(3)), size=11)
        cols = state.columns(p)
        d.text(ix, py + 66, "columns", size=11, weight="bold")
        for k in range(3):
            d.text(ix, py + 82 + k * 15, f"{D_LETTERS[k]}: " + (" ".join(f"#{c}" for c in cols[k]) or "-"), size=10)
        hidden = seat is not None and seat != p
        hand = [int(c) for c in state.hand(p)]
        start = state.start_card(p)
        d.text(ix, py + 140, f"hand ({len(hand)})" + (" face down" if hidden and hand else ""), size=11,
               weight="bold")
        for k, card in enumerate(hand):
            x = ix + (k % 6) * 38
            y = py + 148 + (k // 6) * 50
            _card(d, x, y, card, cfg, hidden=hidden, data_pick=None if hidden else f"card {card} ",
                  data_pick_seat=p, class_=None if hidden else "pick")
            if card == start and not hidden:
                d.text(x + 30, y + 10, "*", size=11, anchor="end", weight="bold")
    if n == 1:  # the automa's area (GA-AUTO-1): its columns, tiles by colour, its score if the game ended now
        from ...games.gaudi import DIFFICULTIES
        cols, tiles, vtiles = state.automa_area()
        px, py = 20 + seat_w + 20, top_h
        d.rect(px, py, seat_w, seat_h, fill="#ebe7e0", rx=8, stroke=INK)
        d.circle(px + 16, py + 18, 10, fill="#444", stroke=INK)
        d.text(px + 16, py + 22, "G", size=10, anchor="middle", fill="#fff", weight="bold")
        final = state.automa_score() if state.is_terminal() else state.automa_final_score()
        d.text(px + 32, py + 23, f"Gaudí automa ({DIFFICULTIES[cfg.get('difficulty', 1) & 3]}): "
               f"{final} points" + (" at the end" if state.is_terminal() else " if the game ended now"),
               size=13, weight="bold")
        for k in range(3):
            d.text(px + 12, py + 48 + k * 18, f"{D_LETTERS[k]}: " + (" ".join(f"#{c}" for c in cols[k]) or "-"),
                   size=10)
        d.text(px + 12, py + 112, "tiles", size=11, weight="bold")
        for c in range(4):
            k = sum(int(tiles[4 * c + sh]) for sh in range(4))
            _tile(d, px + 12 + c * 44, py + 120, 28, c, 0)
            d.text(px + 44 + c * 44, py + 140, f"{k}", size=11)
        d.text(px + 12, py + 172, f"virtual marker removed {sum(int(x) for x in vtiles)} tile(s)", size=10)
    d.text(20, height - 8, "tiles: B blue, G green, Y yellow, R red; shapes x cross, l leaf, s scale, p panot; "
                           "cards N Nature, C Catalan, R Religion (* the hidden starting card)", size=10)
    return str(d)
