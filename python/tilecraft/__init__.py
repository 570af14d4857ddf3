"""tilecraft: fast C++ rules engines for tile-laying board games, with a Python API.

>>> import tilecraft
>>> state = tilecraft.make("azul", players=2, seed=1)
>>> while not state.is_terminal():
...     state.apply(state.legal_actions()[0])
>>> state.scores()
"""
from ._core import CHANCE, TERMINAL, IllegalActionError, InvalidConfigError, InvalidStateError
from typing import TYPE_CHECKING

from .games import GameSpec, UnknownGameError, from_json, game_spec, list_games, make_config

if TYPE_CHECKING:  # make() typed per game: make("azul") is an AzulState (see _make.pyi)
    from ._make import make
else:
    from .games import make
from .agents.bots import Bot, GreedyBot, ISMCTSBot, MCTSBot, RandomBot, make_bot
from .agents.puct import EvaluatorError, PUCTBot, register_evaluator
from .match import BotError, MatchResult, play_match, play_matches
from .playouts import random_playouts
from .render import render_text
from .agents.selfplay import self_play
from .tournament import TournamentResult, tournament
from .vector import VectorGame

__version__ = "0.3.0"  # the one place the version is written (pyproject.toml reads it)

# Every game's state class (AzulState, ...) is importable from the package itself.
from . import _core as _core_module  # noqa: E402

for _name in dir(_core_module):
    if _name.endswith("State") and _name[0].isupper() and _name not in ("InvalidState",):
        globals()[_name] = getattr(_core_module, _name)
del _name

from .render.svg_games import install_repr_svg as _install_repr_svg  # noqa: E402

_install_repr_svg()  # Jupyter shows every state as its picture (state._repr_svg_())

from ._lazy import lazy_submodules as _lazy_submodules  # noqa: E402

# The other public modules (tilecraft.baselines, tilecraft.strength, tilecraft.adapters, ...) are
# attributes too, imported on first use, so that `import tilecraft` stays fast.
__getattr__, __dir__ = _lazy_submodules(__name__, __path__)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "IllegalActionError",
    "InvalidConfigError",
    "InvalidStateError",
    "UnknownGameError",
    "GameSpec",
    "make",
    "make_config",
    "from_json",
    "list_games",
    "game_spec",
    "Bot",
    "RandomBot",
    "GreedyBot",
    "make_bot",
    "BotError",
    "MatchResult",
    "play_match",
    "play_matches",
    "random_playouts",
    "render_text",
    "MCTSBot",
    "ISMCTSBot",
    "PUCTBot",
    "EvaluatorError",
    "register_evaluator",
    "self_play",
    "tournament",
    "TournamentResult",
]
