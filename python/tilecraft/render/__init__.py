"""Pictures of a state. ``render_text(state)`` dispatches to the game's text renderer."""
from __future__ import annotations

import importlib
from typing import Any


def render_text(state: Any) -> str:
    """A readable text diagram of any game's state."""
    name = type(state).game_name
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ImportError:
        return repr(state)
    return module.render_text(state)
