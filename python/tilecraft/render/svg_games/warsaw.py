"""SVG picture of a Warsaw state: the milestones, then each seat's district as a grid of cards
(four quadrants, each with its type letter and colour, the stack height as a badge), VP, coins
and the hand (every hand when ``seat`` is None; only that seat's when it is given)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from ._draw import INK, Svg, seat_marker, status_line, text_colour

LETTERS = "PRCIUTBM"  # park, residential, commercial, industrial, cultural (U), transport, public, milestone
NAMES = ("park", "residential", "commercial", "industrial", "cultural", "transport", "public building",
         "milestone")
# Similar mid luminance for all types; the letter identifies the type.
FILLS = ("#8fc08a", "#e0a37f", "#e6c86e", "#a3a3b8", "#c59ad0", "#86b7cf", "#d8d2c4", "#c9b26b")
ROMAN = ("I", "II", "III", "IV", "V")
Q = 22  # a quadrant; a card is 2 x 2 quadrants

# The step of the era the state is in, by state.phase_name() (the phase names of cpp/warsaw/state.hpp).
STEPS = {"picking cards": "pick {k}/4: choose a card", "selling or building": "card {k}/4: build or sell it",
         "war removals": "war", "Prudential trim": "the Prudential trim", "Prudential trim (keep)": "the Prudential trim",
         "placing a milestone": "placing the milestone", "exchange": "exchange"}

def _card_names(cfg: Dict[str, Any]) -> Optional[List[str]]:
    try:
        from ...games import warsaw as wdata
        data = wdata.data_for("default")
        if data["config"].get("card_type") == cfg.get("card_type")[:len(data["config"]["card_type"])]:
            return list(data["names"])
    except Exception:  # pragma: no cover - a renderer never fails on odd data
        return None
    return None


def _quadrants(d: Svg, x: float, y: float, types: List[int], values: Optional[List[int]] = None,
               **attrs: Any) -> None:
    """A card at (x, y): quadrants NW, NE, SE, SW."""
    offsets = ((0, 0), (Q, 0), (Q, Q), (0, Q))
    if types and all(t == types[0] for t in types) and types[0] in (6, 7):
        t = types[0]
        d.rect(x, y, 2 * Q, 2 * Q, fill=FILLS[t], stroke=INK, **attrs)
        d.text(x + Q, y + Q + 5, LETTERS[t], size=15, anchor="middle", weight="bold", fill=text_colour(FILLS[t]))
        return
    for k, t in enumerate(types):
        ox, oy = offsets[k]
        fill = FILLS[t] if 0 <= t < len(FILLS) else "#fff"
        d.rect(x + ox, y + oy, Q, Q, fill=fill, stroke="#555", stroke_width=0.6, **attrs)
        label = LETTERS[t] if 0 <= t < len(LETTERS) else "?"
        if values and values[k]:
            label += str(values[k])
        d.text(x + ox + Q / 2, y + oy + Q * 0.68, label, size=11, anchor="middle", weight="bold",
               fill=text_colour(fill))
    d.rect(x, y, 2 * Q, 2 * Q, fill="none", stroke=INK, stroke_width=1.2, **attrs)


def svg(state: Any, seat: Optional[int] = None) -> str:
    n = state.num_players()
    cfg = state.config()
    names = _card_names(cfg)
    coins, vp = state.coins(), state.vp()
    to_move = state.current_player() if not state.is_terminal() and not state.is_chance_node() else -1
    winners = set(state.winners()) if state.is_terminal() else set()
    districts = [state.district(p) for p in range(n)]
    spans = []
    for cards in districts:
        xs = [c[0] for c in cards] or [0]
        ys = [c[1] for c in cards] or [0]
        spans.append((min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1))
    C = 2 * Q + 4  # grid pitch
    panel_h = [max(190, (s[3] - s[2] + 1) * C + 50) for s in spans]
    panel_w = max(360, max((s[1] - s[0] + 1) * C for s in spans) + 40)
    width = max(panel_w + 40, 5 * 150 + 40)
    height = 120 + sum(panel_h) + 20 * n
    d = Svg(width, height, f"Warsaw, {n} players")
    step = "" if state.is_terminal() else " · " + STEPS.get(state.phase_name(), "").format(k=state.pick_round() + 1)
    d.text(20, 24, f"Warsaw · era {state.era()}{step} · {status_line(state)}", size=16, weight="bold")
    # milestones
    mnames = None
    try:
        from ...games import warsaw as wdata
        mnames = wdata.data_for("default")["milestones"]
    except Exception:  # pragma: no cover
        mnames = None
    for i, (side, owner) in enumerate(state.milestones()):
        x = 20 + i * 150
        d.rect(x, 38, 140, 60, fill=FILLS[7], stroke=INK, rx=6)
        d.text(x + 8, 54, f"milestone {ROMAN[i]}", size=11, weight="bold")
        label = mnames[i][side] if mnames and i < len(mnames) and side < len(mnames[i]) else f"side {side}"
        d.text(x + 8, 70, label[:24], size=10)
        if owner >= 0:
            seat_marker(d, x + 124, 84, 9, owner)
            d.text(x + 8, 90, "awarded", size=10)
        elif owner == -2:
            d.text(x + 8, 90, "discarded", size=10)
        else:
            d.text(x + 8, 90, "open", size=10)
    y = 118
    frame = cfg
    for p in range(n):
        # Each panel, its district grid and its hand are groups moved into place, so that a card
        # keeps its markup while its district grows (the replay viewer shares unchanged elements).
        h = panel_h[p]
        top, y = y, 0
        d.open("g", transform=f"translate(0,{top})")
        d.rect(20, y, width - 40, h, fill="#f3ecdc", rx=8, stroke=INK, stroke_width=3 if p == to_move else 1)
        seat_marker(d, 36, y + 18, 10, p)
        label = f"seat {p}: {vp[p]} VP, {coins[p]} coins" + (" · winner" if p in winners else "") + \
            (" · to move" if p == to_move else "") + (" · you" if seat == p else "")
        d.text(52, y + 23, label, size=13, weight="bold")
        x0, x1, y0, y1 = spans[p]
        occupied = {(c[0], c[1]): c for c in districts[p]}
        gx, gy = 40, y + 40
        d.open("g", transform=f"translate({gx - x0 * C},{gy - y0 * C})")
        for yy in range(y0, y1 + 1):
            for xx in range(x0, x1 + 1):
                cx, cy = xx * C, yy * C
                pick = f" {xx},{yy} "
                if (xx, yy) in occupied:
                    _quadrants(d, cx, cy, list(state.shown_types(p, xx, yy)), data_pick=pick, data_pick_seat=p,
                               class_="pick")
                    height_ = occupied[(xx, yy)][4]
                    if height_ > 1:
                        d.circle(cx + 2 * Q - 2, cy + 2, 8, fill="#fff", stroke=INK)
                        d.text(cx + 2 * Q - 2, cy + 6, str(height_), size=10, anchor="middle", weight="bold")
                else:
                    d.rect(cx + 2, cy + 2, 2 * Q - 4, 2 * Q - 4, fill="none", stroke="#c8bfae",
                           stroke_dasharray="3 3", data_pick=pick, data_pick_seat=p, class_="pick")
        d.close()
        # hand
        hx = 40 + (x1 - x0 + 1) * C + 30
        d.open("g", transform=f"translate({hx},0)")
        hx = 0
        hidden = seat is not None and seat != p
        hand = list(state.hand(p))
        picked = state.picked_card(p)
        d.text(hx, y + 50, f"hand ({len(hand)})" + (" face down" if hidden and hand else ""), size=11, weight="bold")
        for k, card in enumerate(hand):
            cx, cy = hx + k * (2 * Q + 30), y + 58
            if hidden:
                d.rect(cx, cy, 2 * Q, 2 * Q, fill="#7a6a55", stroke=INK, rx=3)
                continue
            types = list(frame["card_type"][card]) if card < len(frame["card_type"]) else [6, 6, 6, 6]
            values = list(frame["card_value"][card]) if card < len(frame["card_value"]) else None
            _quadrants(d, cx, cy, types, values, data_pick=f"pick {k} ", data_pick_seat=p, class_="pick")
            price = frame["card_price"][card] if card < len(frame["card_price"]) else 0
            d.text(cx, cy + 2 * Q + 12, f"{price} coin" + ("s" if price != 1 else ""), size=9)
            name = names[card] if names and card < len(names) else f"card {card}"
            d.text(cx, cy + 2 * Q + 23, name[:12], size=9)
        if picked >= 0 and not (hidden and state.phase_name() == "picking cards"):
            px = hx
            py = y + 58 + 2 * Q + 36
            d.text(px, py + 10, "picked:", size=11, weight="bold")
            types = list(frame["card_type"][picked]) if picked < len(frame["card_type"]) else [6, 6, 6, 6]
            _quadrants(d, px + 52, py - 4, types)
            name = names[picked] if names and picked < len(names) else f"card {picked}"
            d.text(px + 52 + 2 * Q + 8, py + 20, name, size=10)
        d.close()
        d.close()
        y = top + h + 20
    d.text(20, height - 8, "  ".join(f"{LETTERS[t]} {NAMES[t]}" for t in range(8)), size=10)
    return str(d)
