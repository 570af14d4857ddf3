"""PettingZoo AEC environment for any tilecraft game (extra: ``pip install tilecraft[adapters]``).

>>> from tilecraft.adapters.pettingzoo import env
>>> e = env("azul", players=2)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, termination, truncation, info = e.last()
...     action = None if termination or truncation else int(obs["action_mask"].nonzero()[0][0])
...     e.step(action)

Rewards are the state's ``returns()`` at the end of the game (choose ``returns_mode`` where the
game has it), 0 before. Observations are each seat's own view (``observation(seat)``)."""
from __future__ import annotations

from typing import Any, Dict, Optional

from ._common import require

require("pettingzoo", "adapters", "gymnasium", "pettingzoo")

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..render import render_text
from ._common import chance_rng, new_state, observation_bounds, resolve_chance, seed_or_random


class TilecraftAECEnv(AECEnv):
    metadata = {"name": "tilecraft_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: str = "azul", players: int = 2, render_mode: Optional[str] = None, **options: Any):
        super().__init__()
        self.game, self.players, self.options = game, players, options
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        probe = new_state(game, players, 0, options)  # validates the configuration now
        self.metadata = dict(self.metadata, name=f"tilecraft_{game}_v0")
        self.possible_agents = [f"player_{i}" for i in range(players)]
        n = probe.num_distinct_actions()
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(*observation_bounds(probe), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
        })
        self._act_space = spaces.Discrete(n)
        self.state_ = probe

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent):
        seat = self._seat(agent)
        mask = np.zeros(self.state_.num_distinct_actions(), dtype=np.int8)
        if not self.state_.is_terminal() and self.state_.current_player() == seat:
            mask[self.state_.legal_actions()] = 1
        return {"observation": self.state_.observation(seat), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        seed = seed_or_random(seed)
        self._chance_rng = chance_rng(seed, "adapters")
        self.state_ = new_state(self.game, self.players, seed, self.options)
        resolve_chance(self.state_, self._chance_rng)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state_.current_player()]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state_.apply(int(action))  # IllegalActionError (a ValueError) names an illegal action
        resolve_chance(self.state_, self._chance_rng)
        if self.state_.is_terminal():
            returns = self.state_.returns()
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(returns[i])
                self.terminations[a] = True
            self._accumulate_rewards()
            # finished agents leave through _was_dead_step, starting with the one that moved
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[self.state_.current_player()]
        if self.render_mode == "human":
            self.render()

    def render(self):
        """'ansi': the text diagram as a string; 'human': prints it and returns None (PettingZoo's rule)."""
        text = render_text(self.state_)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def env(game: str = "azul", players: int = 2, render_mode: Optional[str] = None, **options: Any) -> TilecraftAECEnv:
    """A PettingZoo AEC environment of ``game`` (options as for tilecraft.make)."""
    return TilecraftAECEnv(game, players, render_mode=render_mode, **options)
