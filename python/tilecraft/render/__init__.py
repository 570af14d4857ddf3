"""Pictures of a state. ``render_text(state)`` dispatches to the game's text renderer,
``svg(state, seat=None)`` to its SVG module (render/svg_games/<game>.py), ``move_text(state,
action)`` names a move with what it does (for logs)."""
from __future__ import annotations

import importlib
from typing import Any, Optional


def render_text(state: Any) -> str:
    """A readable text diagram of any game's state."""
    name = type(state).game_name
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ImportError:
        return repr(state)
    return module.render_text(state)


def svg(state: Any, seat: Optional[int] = None) -> str:
    """The whole position as an SVG document; see tilecraft.render.svg_games."""
    from .svg_games import svg as _svg

    return _svg(state, seat)


def move_text(state: Any, action: int) -> str:
    """A move's name, with what it does where the name alone is cryptic (Gaudí's ``move 7``,
    ``central A``); ``state`` is the position the move is made in. See tilecraft.render.svg_games."""
    from .svg_games import move_text as _move_text

    return _move_text(state, action)
