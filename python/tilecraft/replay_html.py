"""The replay viewer: one self-contained HTML page per game of a replay file or a tournament
results file (no network, no build step). Every position's picture (the pictures share their
common elements, so a page stays small), the move that led to it, buttons, arrow keys and a
slider to step, the scores over time as a small chart, and the search's top moves where recorded."""
from __future__ import annotations

import html
import json
import re
from typing import Any, Dict, List, Optional, Tuple

from ._core import CHANCE, InvalidStateError
from .games import UnknownGameError, game_spec
from .records import is_tournament_file, read_replay, read_tournament_games
from .render import move_text, svg

SEAT_COLOURS = ("#3b6fb6", "#c0562f", "#3f8f5a", "#8a5aa8")


def _id_ranges(ids: List[int]) -> str:
    """``[0, 1, 2, 5, 7, 8]`` -> ``"0..2, 5, 7..8"``."""
    spans: List[List[int]] = []
    for k in sorted(ids):
        if spans and spans[-1][1] == k - 1:
            spans[-1][1] = k
        else:
            spans.append([k, k])
    return ", ".join(str(a) if a == b else f"{a}..{b}" for a, b in spans)


def select_game(path: str, game_id: Optional[int] = None, index: Optional[int] = None) -> Tuple[Dict[str, Any], str]:
    """One game of a replay file (play/match --replay) or of a tournament results file (tournament
    --out): the one with id ``game_id`` (a tournament record's id; in a replay file, games are
    numbered 1, 2, ...), else the ``index``-th (1-based), else the first. Returns the record (in
    read_replay's shape, with its 'id') and a note saying which game of how many it is."""
    if is_tournament_file(path):
        games = list(read_tournament_games(path))
    else:
        games = [dict(g, id=k) for k, g in enumerate(read_replay(path), 1)]
    if not games:
        raise InvalidStateError(f"{path}: holds no game")
    ids = [int(g["id"]) for g in games]
    if game_id is not None:
        if isinstance(game_id, bool) or not isinstance(game_id, int) or game_id not in ids:
            raise InvalidStateError(f"{path}: no game with id {game_id}; the file holds ids {_id_ranges(ids)}")
        k = ids.index(game_id)
    elif index is not None:
        if isinstance(index, bool) or not isinstance(index, int) or not 1 <= index <= len(games):
            raise InvalidStateError(f"{path}: game {index} out of range; the file holds games 1..{len(games)}")
        k = index - 1
    else:
        k = 0
    if len(games) == 1:
        note = f"game id {ids[k]}, the only game in the file"
    else:
        note = (f"game id {ids[k]}, number {k + 1} of the {len(games)} games in the file "
                f"(ids {_id_ranges(ids)}; --game ID picks another)")
    return games[k], note


def positions(record: Dict[str, Any], source: str = "replay", seat: Optional[int] = None) -> List[Dict[str, Any]]:
    """Re-plays a replay record; one entry per position (the start, then after each action):
    the picture, the move that led there, the scores, the recorded top moves. Raises
    InvalidStateError naming the step where the file and the rules disagree."""
    try:
        spec = game_spec(str(record.get("game")))
    except UnknownGameError as e:
        raise InvalidStateError(f"{source}: {e}") from None
    try:
        state = spec.new_state(record["players"], record["seed"], spec.validate(record["players"], record["options"]))
    except (KeyError, TypeError) as e:
        raise InvalidStateError(f"{source}: the header lacks a field or has a bad one ({e})") from None
    out = [{"svg": svg(state, seat), "move": "start", "seat": None, "scores": [float(x) for x in state.scores()],
            "top": None}]
    for step, item in enumerate(record["actions"], 1):
        try:
            action = int(item["action"])
        except (KeyError, TypeError, ValueError):
            raise InvalidStateError(f"{source}: step {step}: no action number") from None
        if "seat" in item and item["seat"] != state.current_player():
            raise InvalidStateError(f"{source}: step {step}: seat {item.get('seat')} recorded, but seat "
                                    f"{state.current_player()} is to act (is this a replay of this game?)")
        if action not in set(int(a) for a in state.legal_actions()):
            raise InvalidStateError(f"{source}: step {step}: action {action} is not legal here "
                                    f"(is this a replay of {spec.name} with these options?)")
        name = state.action_to_string(action)
        if "name" in item and item["name"] != name:
            raise InvalidStateError(f"{source}: step {step}: recorded {item['name']!r}, the rules say {name!r} "
                                    f"(a replay of another game or edition?)")
        who = "chance" if state.current_player() == CHANCE else f"seat {state.current_player()}"
        said = move_text(state, action)
        state.apply(action)
        top = item.get("top") if isinstance(item.get("top"), list) else None
        out.append({"svg": svg(state, seat), "move": f"{who}: {said}", "seat": item.get("seat"),
                    "scores": [float(x) for x in state.scores()], "top": top})
    return out


def pack_pictures(pictures: List[str]) -> Tuple[List[str], List[List[int]]]:
    """Shares the static parts of a game's pictures: each SVG is cut into elements (before every
    ``<`` that opens one), every distinct piece is kept once (in order of first use), and each
    picture becomes runs ``[first, count, first, count, ...]`` of consecutive piece numbers. Consecutive positions
    differ in a few elements, so a picture costs a few runs instead of its whole text."""
    pieces: List[str] = []
    number: Dict[str, int] = {}
    runs: List[List[int]] = []
    for picture in pictures:
        out: List[int] = []
        for piece in re.split(r"(?=<(?!/))", picture):
            if not piece:
                continue
            k = number.get(piece)
            if k is None:
                k = number[piece] = len(pieces)
                pieces.append(piece)
            if out and out[-2] + out[-1] == k:
                out[-1] += 1
            else:
                out += [k, 1]
        runs.append(out)
    return pieces, runs


def unpack_picture(pieces: List[str], runs: List[int]) -> str:
    """The inverse of pack_pictures for one picture (the page does the same in JavaScript)."""
    return "".join("".join(pieces[a:a + n]) for a, n in zip(runs[0::2], runs[1::2]))


def viewer_html(record: Dict[str, Any], source: str = "replay", seat: Optional[int] = None, note: str = "") -> str:
    """The complete viewer page for one replay record."""
    steps = positions(record, source, seat)
    spec = game_spec(str(record["game"]))
    title = f"{spec.title}: {', '.join(str(b) for b in record.get('bots', []))} (seed {record.get('seed')})"
    pieces, runs = pack_pictures([s.pop("svg") for s in steps])
    for s, r in zip(steps, runs):
        s["runs"] = r
    data = json.dumps({"steps": steps, "pieces": pieces, "colours": SEAT_COLOURS, "players": record["players"],
                       "bots": record.get("bots", [])}, separators=(",", ":")).replace("</", "<\\/")
    return (_PAGE.replace("@TITLE@", html.escape(title)).replace("@NOTE@", html.escape(note))
            .replace("@DATA@", data))


def write_viewer(path: str, out: str, game_id: Optional[int] = None, seat: Optional[int] = None,
                 index: Optional[int] = None) -> Tuple[int, str]:
    """Writes the viewer of one game of replay or tournament file ``path`` (select_game picks it) to
    ``out``; returns the number of moves and select_game's note."""
    record, note = select_game(path, game_id, index)
    page = viewer_html(record, f"{path}: game {record['id']}", seat, note)
    with open(out, "w", encoding="utf-8") as f:
        f.write(page)
    return len(record["actions"]), note


_PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>
body { font-family: DejaVu Sans, Verdana, sans-serif; margin: 12px; background: #fbf8f1; color: #222; }
h1 { font-size: 18px; margin: 0 0 4px 0; }
#note { font-size: 13px; color: #555; margin: 0 0 8px 0; }
#bar { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin-bottom: 8px; }
#bar button { font-size: 15px; min-width: 40px; }
#slider { width: 320px; }
#counter { font-weight: bold; min-width: 110px; }
#move { font-family: monospace; font-size: 14px; }
#main { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
#picture svg { max-width: 100%; height: auto; border: 1px solid #ccc; }
#side { min-width: 260px; }
table { border-collapse: collapse; font-size: 13px; }
td, th { padding: 2px 6px; border-bottom: 1px solid #ddd; text-align: left; }
.share { display: inline-block; height: 10px; background: #3b6fb6; }
</style></head>
<body>
<h1>@TITLE@</h1>
<p id="note">@NOTE@</p>
<div id="bar">
 <button id="first" title="first position (Home)">|&#x25C0;</button>
 <button id="prev" title="previous (left arrow)">&#x25C0;</button>
 <button id="next" title="next (right arrow)">&#x25B6;</button>
 <button id="last" title="last position (End)">&#x25B6;|</button>
 <input id="slider" type="range" min="0" value="0" aria-label="position">
 <span id="counter"></span>
 <span id="move"></span>
</div>
<div id="main">
 <div id="picture"></div>
 <div id="side">
  <h2 style="font-size:15px">Scores</h2>
  <svg id="chart" width="280" height="150" viewBox="0 0 280 150" role="img" aria-label="scores over time"></svg>
  <div id="legend"></div>
  <h2 style="font-size:15px">Search's top moves</h2>
  <div id="top">not recorded for this move</div>
 </div>
</div>
<script id="data" type="application/json">@DATA@</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const steps = D.steps, N = steps.length - 1;
function picture(runs) {  // the pieces shared by all positions (replay_html.pack_pictures)
  let out = "";
  for (let k = 0; k < runs.length; k += 2) out += D.pieces.slice(runs[k], runs[k] + runs[k + 1]).join("");
  return out;
}
let i = 0;
const $ = (id) => document.getElementById(id);
$("slider").max = String(N);
function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c])); }
function chart() {
  const W = 280, H = 150, P = 24;
  let lo = 0, hi = 1;
  for (const s of steps) for (const v of s.scores) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const x = (k) => P + (W - 2 * P) * (N ? k / N : 0), y = (v) => H - P - (H - 2 * P) * (v - lo) / (hi - lo);
  let out = `<line x1="${P}" y1="${y(0)}" x2="${W - P}" y2="${y(0)}" stroke="#999"/>`;
  out += `<text x="2" y="${y(hi) + 4}" font-size="10">${hi}</text><text x="2" y="${y(lo) + 4}" font-size="10">${lo}</text>`;
  const dashes = ["", "6 3", "2 2", "8 2 2 2"];
  for (let p = 0; p < D.players; p++) {
    const pts = steps.map((s, k) => `${x(k).toFixed(1)},${y(s.scores[p]).toFixed(1)}`).join(" ");
    out += `<polyline points="${pts}" fill="none" stroke="${D.colours[p % 4]}" stroke-width="2" stroke-dasharray="${dashes[p % 4]}"/>`;
  }
  out += `<line id="cursor" x1="0" y1="${P / 2}" x2="0" y2="${H - P / 2}" stroke="#000"/>`;
  $("chart").innerHTML = out;
  $("legend").innerHTML = Array.from({length: D.players}, (_, p) =>
    `<span style="color:${D.colours[p % 4]}">&#x25A0; seat ${p}${D.bots[p] ? " (" + esc(D.bots[p]) + ")" : ""}</span>`).join(" &nbsp; ");
  chart.x = x;
}
function show(k) {
  i = Math.max(0, Math.min(N, k));
  const s = steps[i];
  $("picture").innerHTML = picture(s.runs);
  $("counter").textContent = `move ${i} / ${N}`;
  $("move").textContent = s.move;
  $("slider").value = String(i);
  const cx = chart.x(i).toFixed(1);
  $("cursor").setAttribute("x1", cx); $("cursor").setAttribute("x2", cx);
  $("chart").setAttribute("aria-label", "scores: " + s.scores.join(", "));
  if (s.top && s.top.length) {
    $("top").innerHTML = "<table><tr><th>move</th><th>visits</th></tr>" + s.top.map((t) =>
      `<tr><td>${esc(t.name)}</td><td><span class="share" style="width:${Math.round(80 * t.share)}px"></span> ${(100 * t.share).toFixed(1)}%</td></tr>`).join("") + "</table>";
  } else {
    $("top").textContent = "not recorded for this move";
  }
  document.body.dataset.position = String(i);
}
$("first").onclick = () => show(0);
$("prev").onclick = () => show(i - 1);
$("next").onclick = () => show(i + 1);
$("last").onclick = () => show(N);
$("slider").oninput = (e) => show(Number(e.target.value));
document.addEventListener("keydown", (e) => {
  if (e.target === $("slider")) return;
  if (e.key === "ArrowRight") { show(i + 1); e.preventDefault(); }
  else if (e.key === "ArrowLeft") { show(i - 1); e.preventDefault(); }
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(N);
});
chart();
show(0);
</script>
</body></html>
"""
