"""A run's generation record: generations.json (one object per generation), drawn as a table
(generations.md) and a plot (generations.svg) beside it, both made from the JSON alone."""
from __future__ import annotations

import html
from typing import Any, Dict, List, Optional, Sequence, Tuple

# (the record's key, its label): the win shares the plot draws, each with its 95% interval
SHARES: Tuple[Tuple[str, str], ...] = (("gate", "against the best network (simulations)"),
                                       ("equal_time", "search against the plain search, equal time"),
                                       ("policy_vs_greedy", "policy alone against greedy"))
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


def _share(entry: Dict[str, Any], key: str) -> Optional[Dict[str, Any]]:
    r = entry.get(key)
    return r if isinstance(r, dict) and isinstance(r.get("share"), (int, float)) else None


def table(record: Sequence[Dict[str, Any]]) -> str:
    """The record as a Markdown table: per generation its data, its losses, whether it was promoted,
    its win shares with their intervals and both sides' time per move, and the value errors."""
    head = ["gen", "rows", "promoted (best)", "gate", "equal time", "policy vs greedy",
            "value MSE: network / rollout"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for e in record:
        cells = [str(e["generation"]), str(e.get("rows", "")), f"{'yes' if e.get('promoted') else 'no'} ({e.get('best')})"]
        for key, _ in SHARES:
            r = _share(e, key)
            if r is None:
                cells.append("")
                continue
            timing = (f"; {1000 * r['seconds_per_move']:.1f} vs {1000 * r['opponent_seconds_per_move']:.1f} ms/move"
                      if "seconds_per_move" in r else "")
            cells.append(f"{r['share']:.3f} [{r['low']:.2f}, {r['high']:.2f}] of {r['games']}{timing}")
        v = e.get("value_error")
        cells.append(f"{v['network']:.4f} / {v['rollout']:.4f} ({v['positions']})" if v else "")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def svg(record: Sequence[Dict[str, Any]], title: str) -> str:
    """The record as an SVG plot: left, the win shares by generation (95% intervals as bars, the
    equal share dashed); right, the value head's and a rollout's held-out squared error."""
    w, h, pad = 360, 240, 40
    gens = [e["generation"] for e in record] or [0]
    g_max = max(max(gens), 1)
    out: List[str] = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w + 20}" height="{h + 100}" '
                      f'font-family="sans-serif" font-size="11">',
                      f'<text x="10" y="16" font-size="13">{html.escape(title)}</text>']

    def panel(x0: int, label: str, top: float, series: List[Tuple[str, str, List[Tuple[int, float, float, float]]]],
              dashed: Optional[float]) -> None:
        y0 = 40

        def X(g: float) -> float:
            return x0 + pad + (w - pad - 10) * g / g_max

        def Y(v: float) -> float:
            return y0 + (h - 30) * (1 - v / top)

        out.append(f'<rect x="{x0 + pad}" y="{y0}" width="{w - pad - 10}" height="{h - 30}" fill="none" stroke="#999"/>')
        for i in range(5):
            v = top * i / 4
            out.append(f'<text x="{x0 + pad - 4}" y="{Y(v) + 4:.1f}" text-anchor="end">{v:.2g}</text>')
        for g in range(0, g_max + 1, max(1, g_max // 8)):
            out.append(f'<text x="{X(g):.1f}" y="{y0 + h - 16}" text-anchor="middle">{g}</text>')
        out.append(f'<text x="{x0 + pad + (w - pad) / 2:.0f}" y="{y0 + h - 2}" text-anchor="middle">generation</text>')
        out.append(f'<text x="{x0 + pad}" y="{y0 - 4}">{html.escape(label)}</text>')
        if dashed is not None:
            out.append(f'<line x1="{X(0):.1f}" y1="{Y(dashed):.1f}" x2="{X(g_max):.1f}" y2="{Y(dashed):.1f}" '
                       'stroke="#666" stroke-dasharray="4 3"/>')
        for k, (name, colour, points) in enumerate(series):
            if points:
                out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="'
                           + " ".join(f"{X(g):.1f},{Y(v):.1f}" for g, v, _, _ in points) + '"/>')
            for g, v, lo, hi in points:
                out.append(f'<circle cx="{X(g):.1f}" cy="{Y(v):.1f}" r="2.5" fill="{colour}"/>')
                if hi > lo:
                    out.append(f'<line x1="{X(g):.1f}" y1="{Y(lo):.1f}" x2="{X(g):.1f}" y2="{Y(hi):.1f}" '
                               f'stroke="{colour}"/>')
            out.append(f'<text x="{x0 + pad}" y="{y0 + h + 16 + 13 * k}" fill="{colour}">{html.escape(name)}</text>')

    equal = None
    shares = []
    for (key, label), colour in zip(SHARES, COLOURS):
        pts = []
        for e in record:
            r = _share(e, key)
            if r is not None:
                pts.append((e["generation"], r["share"], r["low"], r["high"]))
                equal = 1.0 / e["players"] if "players" in e else equal
        shares.append((label, colour, pts))
    panel(0, "win share", 1.0, shares, equal)
    errors = []
    for which, colour in (("network", COLOURS[0]), ("rollout", COLOURS[1])):
        pts = [(e["generation"], e["value_error"][which], 0.0, 0.0) for e in record if e.get("value_error")]
        errors.append((f"{which}: squared error against the result", colour, pts))
    top = max([v for _, _, pts in errors for _, v, _, _ in pts] + [0.05]) * 1.15
    panel(w + 20, "held-out value error (lower is better)", top, errors, None)
    out.append("</svg>")
    return "\n".join(out) + "\n"
