"""Shared drawing helpers for the SVG pictures: a tiny markup builder and the colour-blind-safe
palettes (every colour carries a letter or a pattern; fills of one set share a similar luminance
so that letters, not hues, tell them apart)."""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Tuple
from xml.sax.saxutils import escape, quoteattr

FONT = "font-family:DejaVu Sans,Verdana,Arial,sans-serif"
INK = "#222"
PAPER = "#fbf8f1"
SEAT_COLOURS = ("#3b6fb6", "#c0562f", "#3f8f5a", "#8a5aa8")  # seat markers, each with its seat digit


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return str(v)


class Svg:
    """Collects SVG elements; ``str(svg)`` is a complete standalone document."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width, self.height = width, height
        self.parts: List[str] = []
        self.defs: Dict[str, str] = {}
        self.title = title

    @staticmethod
    def _attrs(attrs: Dict[str, Any]) -> str:
        out = []
        for k, v in attrs.items():
            if v is None:
                continue
            name = k.rstrip("_").replace("_", "-")
            out.append(f"{name}={quoteattr(_fmt(v))}")
        return " ".join(out)

    def el(self, tag: str, text: Optional[str] = None, **attrs: Any) -> None:
        a = self._attrs(attrs)
        if text is None:
            self.parts.append(f"<{tag} {a}/>")
        else:
            self.parts.append(f"<{tag} {a}>{escape(text)}</{tag}>")

    def open(self, tag: str = "g", **attrs: Any) -> None:
        self.parts.append(f"<{tag} {self._attrs(attrs)}>")

    def close(self, tag: str = "g") -> None:
        self.parts.append(f"</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: Optional[str] = INK,
             **attrs: Any) -> None:
        self.el("rect", x=x, y=y, width=w, height=h, fill=fill, stroke=stroke, **attrs)

    def circle(self, cx: float, cy: float, r: float, fill: str = "none", stroke: Optional[str] = INK,
               **attrs: Any) -> None:
        self.el("circle", cx=cx, cy=cy, r=r, fill=fill, stroke=stroke, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK, **attrs: Any) -> None:
        self.el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, **attrs)

    def polygon(self, points: Iterable[Tuple[float, float]], fill: str = "none", stroke: Optional[str] = INK,
                **attrs: Any) -> None:
        pts = " ".join(f"{_fmt(float(x))},{_fmt(float(y))}" for x, y in points)
        self.el("polygon", points=pts, fill=fill, stroke=stroke, **attrs)

    def text(self, x: float, y: float, s: str, size: float = 12, anchor: str = "start", fill: str = INK,
             weight: Optional[str] = None, **attrs: Any) -> None:
        # The font, and that labels never take clicks (a click on a tile's letter reaches the tile,
        # its data-pick), are set once for every text in the document's style sheet.
        self.el("text", s, x=x, y=y, font_size=size, text_anchor=anchor, fill=fill, font_weight=weight, **attrs)

    def pattern(self, pid: str, markup: str) -> str:
        """Registers a <pattern> (once) and returns its fill reference."""
        self.defs.setdefault(pid, markup)
        return f"url(#{pid})"

    def __str__(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_fmt(self.width)} {_fmt(self.height)}" '
                f'width="{_fmt(self.width)}" height="{_fmt(self.height)}" role="img">')
        title = f"<title>{escape(self.title)}</title>" if self.title else ""
        title += f"<style>text {{ {FONT}; pointer-events: none }}</style>"
        defs = f"<defs>{''.join(self.defs.values())}</defs>" if self.defs else ""
        background = f'<rect x="0" y="0" width="{_fmt(self.width)}" height="{_fmt(self.height)}" fill="{PAPER}"/>'
        return head + title + defs + background + "".join(self.parts) + "</svg>"


def text_colour(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (#rrggbb)."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def letter_tile(svg: Svg, x: float, y: float, size: float, fill: str, letter: str, faded: bool = False,
                **attrs: Any) -> None:
    """A square tile with its letter: the letter, not the hue, identifies it."""
    if faded:
        svg.rect(x, y, size, size, fill=fill, stroke="#999", fill_opacity=0.28, rx=size * 0.12, **attrs)
        svg.text(x + size / 2, y + size * 0.68, letter.lower(), size=size * 0.5, anchor="middle", fill="#777")
    else:
        svg.rect(x, y, size, size, fill=fill, stroke=INK, rx=size * 0.12, **attrs)
        svg.text(x + size / 2, y + size * 0.7, letter, size=size * 0.58, anchor="middle", fill=text_colour(fill),
                 weight="bold")


def seat_marker(svg: Svg, cx: float, cy: float, r: float, seat: int, **attrs: Any) -> None:
    """A round piece in the seat's colour with its seat digit."""
    svg.circle(cx, cy, r, fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)], stroke=INK, **attrs)
    svg.text(cx, cy + r * 0.42, str(seat), size=r * 1.2, anchor="middle", fill="#fff", weight="bold")


def winners_sentence(winners: List[int]) -> str:
    """``[1]`` -> ``seat 1 wins``; ``[0, 2]`` -> ``seats 0 and 2 share the win`` (the play page says the
    same in JavaScript)."""
    w = [str(x) for x in winners]
    if len(w) == 1:
        return f"seat {w[0]} wins"
    if not w:
        return "nobody wins"
    return f"seats {', '.join(w[:-1])} and {w[-1]} share the win"


def status_line(state: Any) -> str:
    if state.is_terminal():
        w = list(state.winners())
        return "game over: " + winners_sentence(w)
    if state.is_chance_node():
        return "chance"
    return f"seat {state.current_player()} to move"
