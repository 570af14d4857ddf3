"""Adapters to the field's environment APIs (optional extras):

- ``tilecraft.adapters.pettingzoo.env(game, ...)``: a PettingZoo AEC environment (all seats);
- ``tilecraft.adapters.gymnasium.BotOpponentEnv(game, ...)``: a Gymnasium environment in which
  one seat is the agent and built-in bots play the others.

Both expose the observation tensor and the legal-action mask in PettingZoo's "classic" style
(``{"observation": ..., "action_mask": ...}``) and resolve chance nodes themselves."""
