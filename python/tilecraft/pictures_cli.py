"""The picture commands of ``tilecraft``: ``render`` (a saved state or a replay position to SVG or
PNG), ``replay FILE --html OUT`` (the viewer page) and ``serve`` (play in the browser)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Optional, Tuple

from ._core import InvalidStateError


def load_position(path: str, move: Optional[int] = None, game_id: Optional[int] = None,
                  index: Optional[int] = None) -> Tuple[Any, str]:
    """A state from a saved state (``state.to_json()``), or from a replay or tournament results
    file after ``move`` moves (default: the end) of the game replay_html.select_game picks (id
    ``game_id``, else the ``index``-th, else the first). Returns (state, description)."""
    from .games import from_json, game_spec
    from .replay_html import select_game

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InvalidStateError(f"cannot read {path}: {e.strerror}") from None
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict) and "type" not in whole:
        if move is not None:
            raise InvalidStateError(f"{path} is a saved state, not a replay: --move does not apply")
        return from_json(text), path
    record, note = select_game(path, game_id, index)
    game = record["id"]
    total = len(record["actions"])
    if move is None:
        move = total
    if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move <= total:
        raise InvalidStateError(f"{path}: move {move} out of range; game {game} has moves 0..{total}")
    spec = game_spec(str(record["game"]))
    state = spec.new_state(record["players"], record["seed"], spec.validate(record["players"], record["options"]))
    for step, item in enumerate(record["actions"][:move], 1):
        action = int(item["action"])
        if action not in set(int(a) for a in state.legal_actions()):
            raise InvalidStateError(f"{path}: game {game}, step {step}: action {action} is not legal here "
                                    f"(is this a replay of {spec.name} with these options?)")
        state.apply(action)
    return state, f"{path} {note}, after move {move}/{total}"


def svg_to_png(svg_text: str, out: str) -> None:
    try:
        import cairosvg  # type: ignore[import-not-found]
    except ImportError:
        raise ImportError("PNG output needs cairosvg: pip install 'tilecraft[png]' (or write .svg)") from None
    cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), write_to=out)


def cmd_render(args: argparse.Namespace) -> int:
    from .render import svg

    state, what = load_position(args.file, args.move, args.game, args.game_index)
    picture = svg(state, args.seat)
    out = args.out or os.path.splitext(os.path.basename(args.file))[0] + ".svg"
    if out == "-":
        sys.stdout.write(picture + "\n")
        return 0
    if not out.lower().endswith((".png", ".svg")):
        raise ValueError(f"--out {out!r}: write .svg or .png (or - for standard output)")
    try:
        if out.lower().endswith(".png"):
            svg_to_png(picture, out)
        else:
            with open(out, "w", encoding="utf-8") as f:
                f.write(picture)
    except OSError as e:
        raise ValueError(f"cannot write {out}: {e.strerror or e}") from None
    print(f"{what} -> {out}")
    return 0


def cmd_replay_html(args: argparse.Namespace) -> int:
    from .replay_html import write_viewer

    try:
        moves, note = write_viewer(args.file, args.html, args.game, args.seat, args.game_index)
    except OSError as e:
        raise ValueError(f"cannot read {args.file} or write {args.html}: {e.strerror or e}") from None
    print(f"{args.file} {note}: {moves} moves -> {args.html}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .web.server import ListenError, serve

    try:
        serve(host=args.host, port=args.port, open_browser=args.open)
    except ListenError as e:  # the port is in use, the host or port is not valid: one line, status 1
        print(f"tilecraft: error: {e}", file=sys.stderr)
        return 1
    return 0


def _add_game_choice(p: argparse.ArgumentParser, where: str) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--game", type=int, default=None, metavar="ID",
                       help=f"{where}: the game with this id (a tournament record's id; in a replay file the "
                            "games are numbered 1, 2, ...; default: the first game)")
    group.add_argument("--game-index", type=int, default=None, metavar="K",
                       help=f"{where}: the K-th game of the file (1-based)")


def add_commands(sub: Any) -> None:
    p = sub.add_parser("render", help="draw a saved state or a replay position as SVG (or PNG)",
                       description="Draw a position as SVG, or PNG with the 'png' extra (cairosvg). FILE is a "
                                   "saved state (state.to_json()), a replay file or a tournament results file; "
                                   "for those, --game picks the game (default: the first) and --move the "
                                   "position (default: the end).")
    p.add_argument("file", help="a saved state (.json), a replay file or a tournament results file (.jsonl)")
    p.add_argument("--move", type=int, default=None, help="replay files: the position after this many moves")
    _add_game_choice(p, "replay files")
    p.add_argument("--seat", type=int, default=None, help="draw what this seat sees (hidden hands face down)")
    p.add_argument("-o", "--out", default=None, metavar="OUT",
                   help="OUT.svg, OUT.png or - for standard output (default: FILE's name with .svg)")
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("serve", help="play against bots in the browser (a local web server)",
                       description="Start a local web server where you choose a game, player count and bots "
                                   "and play by clicking. Listens on the loopback interface only unless --host "
                                   "says otherwise. Needs the 'web' extra: pip install 'tilecraft[web]'.")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="interface (default 127.0.0.1: this machine only)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.set_defaults(func=cmd_serve)


def add_replay_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--html", metavar="OUT", default=None,
                   help="write a self-contained viewer page of one game instead of checking the file")
    _add_game_choice(p, "with --html")
    p.add_argument("--seat", type=int, default=None, help="with --html: draw what this seat sees")
