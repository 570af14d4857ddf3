"""Batch self-play in C++ between built-in bots, with optional AlphaZero-style training data."""
from __future__ import annotations

from typing import Any, Dict, Mapping, Sequence, Union

from .bots import GreedyBot, MCTSBot, RandomBot, make_bot
from .playouts import resolve_game


def _bot_dict(bot: Any, game: str) -> Dict[str, Any]:
    if isinstance(bot, MCTSBot):
        options = {k: v for k, v in bot._resolved(game).items() if k != "seed"}
        return dict(kind="mcts", **options)
    if isinstance(bot, GreedyBot):
        return {"kind": "greedy"}
    if isinstance(bot, RandomBot):
        return {"kind": "random"}
    raise ValueError(f"self_play runs entirely in C++ and takes only the built-in bots (random, greedy, mcts, "
                     f"ismcts); got {bot!r}. Use tilecraft.tournament or play_match for Python bots.")


def self_play(game: Union[str, Mapping[str, Any]], bots: Sequence[Any], n_games: int, seed: int = 0,
              threads: int = 1, players: int = 2, rotate: bool = True, record: bool = False,
              **options: Any) -> Dict[str, Any]:
    """Plays ``n_games`` games between built-in bots entirely in C++ (GIL released, ``threads``
    games at a time).

    ``game`` is a game name (configured by ``players`` and ``options``) or a config dict from
    ``make_config`` with a ``"game"`` entry. ``bots`` are bot specs (``"mcts:iterations=200"``) or
    built-in bot objects, one per bot index; with ``rotate`` seat k of game i is played by bot
    ``(k + i) % len(bots)``, otherwise by bot ``k % len(bots)``. Bots are seeded per game and
    seat from ``seed``: the results depend on ``seed`` only, not on ``threads``.

    Returns numpy arrays ``scores``, ``returns`` (games x players), ``winners`` (bool),
    ``seat_bot`` (bot index per seat), ``length``, ``state_seed`` (``make(game, seed=state_seed[i])``
    followed by ``actions[i]`` replays game i) and a list ``actions`` per game. With
    ``record=True``, ``training`` holds one row per decision: ``observation`` (the mover's view),
    ``legal_mask``, ``policy`` (normalised root visit counts of a search bot, one-hot for random
    and greedy bots), ``player``, ``game`` and ``returns`` (the game's final returns)."""
    spec, config = resolve_game("self_play", game, players, options)
    for name, value in (("n_games", n_games), ("seed", seed), ("threads", threads)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"self_play: {name} must be an integer, got {value!r}")
    if n_games < 0:
        raise ValueError(f"self_play: n_games must be >= 0, got {n_games}")
    if not 1 <= threads <= 256:
        raise ValueError(f"self_play: threads must be 1..256, got {threads}")
    if not bots:
        raise ValueError("self_play: give at least one bot")
    specs = []
    for b in bots:
        try:
            bot = make_bot(b)
        except TypeError:
            bot = b
        specs.append(_bot_dict(bot, spec.name))
    return spec.state_class.self_play(config, specs, n_games, seed & (2**63 - 1), threads, rotate, record)
