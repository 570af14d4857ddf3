"""Batch random playouts run in C++ with the GIL released."""
from __future__ import annotations

from typing import Any, Dict, Mapping, Tuple, Union

from . import _args
from ._progress import progress_bar
from .games import GameSpec, game_spec


def resolve_game(who: str, game: Union[str, Mapping[str, Any]], players: int,
                 options: Mapping[str, Any]) -> Tuple[GameSpec, Dict[str, Any]]:
    """(spec, C++ config) from a game name plus options, or from a config dict with a 'game' entry."""
    if isinstance(game, str):
        spec = game_spec(game)
        return spec, spec.core_config(players, **options)
    config = dict(game)
    name = config.pop("game", None)
    if name is None:
        raise ValueError(f"{who}: a config dict needs a 'game' entry, e.g. "
                         "dict(tilecraft.make_config('azul'), game='azul'), or pass the game's name")
    if options:
        raise ValueError(f"{who}: pass options either in the config dict or as keywords, not both")
    return game_spec(name), config


def random_playouts(game: Union[str, Mapping[str, Any]], n: int, seed: int = 0, threads: int = 1,
                    players: int = 2, progress: bool = False, **options: Any) -> Dict[str, Any]:
    """Plays ``n`` complete games with uniformly random actions, entirely in C++.

    ``game`` is a game name (then ``players`` and ``options`` configure it) or a config dict from
    ``tilecraft.make_config`` (which must then carry a ``"game"`` entry, see below) . Returns numpy
    arrays: ``scores`` and ``returns`` (n x players, float64), ``winners`` (n x players, bool) and
    ``length`` (actions per game). Game i is seeded from (seed, i), so the result does not depend
    on ``threads``. ``progress=True`` shows a progress bar; Ctrl-C stops the games and raises
    KeyboardInterrupt."""
    spec, config = resolve_game("random_playouts", game, players, options)
    n = _args.integer("random_playouts", "n", n, 0, 2**40)
    threads = _args.integer("random_playouts", "threads", threads, 1, 256)
    seed = _args.seed("random_playouts", seed)
    with progress_bar(progress, n, f"random_playouts {spec.name}") as tick:
        return spec.playouts(config, n, seed, threads, tick)
