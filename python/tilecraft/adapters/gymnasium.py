"""Gymnasium environment: one seat is the agent, built-in or custom bots play the others
(extra: ``pip install tilecraft[adapters]``).

>>> from tilecraft.adapters.gymnasium import BotOpponentEnv
>>> e = BotOpponentEnv("azul", opponents=["greedy"], seat=0)
>>> obs, info = e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.step(int(obs["action_mask"].nonzero()[0][0]))

The reward is the agent seat's ``returns()`` at the end, 0 before; ``seat="rotate"`` changes the
agent's seat every episode.

An illegal action is refused by default (``illegal_action="raise"``: IllegalActionError, a
ValueError, and the state is unchanged), which is what a masked policy wants. Generic tools that
step ``action_space.sample()`` (Gymnasium's ``check_env``, random agents) need a result instead:
``illegal_action="penalty"`` ends the episode (``terminated=True``) with reward
``illegal_penalty`` (default -1.0) and ``info["illegal_action"] = True``; the game is left as it
was. Registered ids: ``gymnasium.make("tilecraft/Azul-v0")`` (one per game, title-cased:
``tilecraft/Castle-v0``, ``tilecraft/Warsaw-v0``, ``tilecraft/Gaudi-v0``) after importing this
module; keyword arguments go to ``BotOpponentEnv``. The registered ids default to
``illegal_action="penalty"``, so that any action of the action space can be stepped, as
Gymnasium's ``check_env`` and PettingZoo's classic games expect;
``gymnasium.make("tilecraft/Azul-v0", illegal_action="raise")`` refuses illegal actions instead."""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

from ._common import require

require("gymnasium", "adapters", "gymnasium")

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..render import render_text
from ._common import Table, new_state, observation_bounds, seed_or_random


class BotOpponentEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, game: str = "azul", opponents: Sequence[Any] = ("random",), seat: Union[int, str] = 0,
                 render_mode: Optional[str] = None, illegal_action: str = "raise", illegal_penalty: float = -1.0,
                 **options: Any):
        self.game, self.options = game, options
        if illegal_action not in ("raise", "penalty"):
            raise ValueError(f"illegal_action must be 'raise' or 'penalty', got {illegal_action!r}")
        if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)) or illegal_penalty != illegal_penalty:
            raise ValueError(f"illegal_penalty must be a number, got {illegal_penalty!r}")
        self.illegal_action, self.illegal_penalty = illegal_action, float(illegal_penalty)
        self.players = len(opponents) + 1
        if seat != "rotate" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players):
            raise ValueError(f"seat must be 'rotate' or 0..{self.players - 1}, got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.seat_mode = seat
        self.opponent_specs = list(opponents)
        probe = new_state(game, self.players, 0, options)
        n = probe.num_distinct_actions()
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(*observation_bounds(probe), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(n)
        self.state_ = probe
        self.seat = 0 if seat == "rotate" else seat
        self._episode = 0

    def _obs(self):
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        if not self.state_.is_terminal():
            mask[self.state_.legal_actions()] = 1
        return {"observation": self.state_.observation(self.seat), "action_mask": mask}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        seed = seed_or_random(seed if seed is not None else int(self.np_random.integers(2**63 - 1)))
        if self.seat_mode == "rotate":
            self.seat = self._episode % self.players
        self._episode += 1
        self.state_ = new_state(self.game, self.players, seed, self.options)
        others = iter(self.opponent_specs)
        specs = [None if s == self.seat else next(others) for s in range(self.players)]
        self._table = Table(self.state_, specs, seed, "adapters", open_seats=(int(self.seat),))
        self._table.advance()  # chance and the opponents, until the agent acts or the game ends
        return self._obs(), {"seat": self.seat}

    def step(self, action):
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action[()]
        if self.illegal_action == "penalty" and not self.state_.is_legal(action):
            return self._obs(), self.illegal_penalty, True, False, {"seat": self.seat, "illegal_action": True}
        self.state_.apply(action)  # IllegalActionError (a ValueError) for an illegal action
        self._table.advance()  # chance and the opponents, until the agent acts or the game ends
        terminated = self.state_.is_terminal()
        reward = float(self.state_.returns()[self.seat]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, False, {"seat": self.seat}

    def render(self):
        """'ansi': the text diagram as a string; 'human': prints it and returns None."""
        text = render_text(self.state_)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _register() -> None:
    from ..games import game_spec, list_games

    for name in list_games():
        env_id = f"tilecraft/{game_spec(name).name.capitalize()}-v0"
        if env_id not in gym.registry:
            # Registered ids step any action of the action space (Gymnasium's check_env, random agents):
            # an illegal one ends the episode with the penalty. illegal_action="raise" is one keyword away.
            gym.register(id=env_id, entry_point=BotOpponentEnv, kwargs={"game": name, "illegal_action": "penalty"})


_register()
