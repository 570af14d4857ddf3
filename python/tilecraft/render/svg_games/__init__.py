"""SVG pictures of game states. ``svg(state, seat=None)`` finds the game's module in this package
by the state's game name (``render/svg_games/<game>.py`` with a ``svg(state, seat)`` function); adding a
game means adding one module. ``seat`` draws the position as that seat sees it (hidden hands of
other seats stay face down); ``None`` shows everything public."""
from __future__ import annotations

import importlib
import importlib.util
from typing import Any, Optional


class NoPictureError(ValueError):
    """The game has no SVG module yet."""


def _module(state: Any) -> Any:
    """The picture module of the state's game, or None when the game has none."""
    name = type(state).game_name
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{name}":
            raise
        return None


def svg(state: Any, seat: Optional[int] = None) -> str:
    """The whole position as an SVG document (a string)."""
    module = _module(state)
    if module is None:
        name = type(state).game_name
        raise NoPictureError(f"no picture for the game {name!r} yet "
                             f"(add tilecraft/render/svg_games/{name}.py)")
    if seat is not None and not (0 <= seat < state.num_players()):
        raise ValueError(f"seat {seat} is not a seat of this {state.num_players()}-player game")
    return str(module.svg(state, seat))


def move_text(state: Any, action: int) -> str:
    """The move's name, with what it does where the game's module says more (an optional
    ``move_text(state, action)`` there, e.g. Gaudí's track spaces and central options); ``state`` is
    the position the move is made in."""
    say = getattr(_module(state), "move_text", None)
    return str(say(state, action)) if say is not None else str(state.action_to_string(action))


def has_picture(game: str) -> bool:
    return importlib.util.find_spec(f"{__name__}.{game}") is not None


def _repr_svg_(self: Any) -> str:
    return svg(self)


def install_repr_svg() -> None:
    """Gives every state class ``_repr_svg_`` so Jupyter shows the picture."""
    from ... import _core

    for name in dir(_core):
        cls = getattr(_core, name)
        if isinstance(cls, type) and name.endswith("State") and hasattr(cls, "game_name"):
            if has_picture(str(cls.game_name)):
                setattr(cls, "_repr_svg_", _repr_svg_)
