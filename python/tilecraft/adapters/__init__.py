"""Adapters to the field's environment APIs (optional extras):

- ``tilecraft.adapters.pettingzoo.env(game, ...)``: a PettingZoo AEC environment (all seats);
- ``tilecraft.adapters.gymnasium.BotOpponentEnv(game, ...)``: a Gymnasium environment in which
  one seat is the agent and built-in bots play the others.

Both expose the observation tensor and the legal-action mask in PettingZoo's "classic" style
(``{"observation": ..., "action_mask": ...}``) and resolve chance nodes themselves."""

from .._lazy import lazy_submodules as _lazy_submodules

# tilecraft.adapters.gymnasium (...) as attributes, imported on first use (each needs its extra).
__getattr__, __dir__ = _lazy_submodules(__name__, __path__)
