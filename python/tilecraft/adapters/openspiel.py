"""OpenSpiel adapter: every tilecraft game as a registered pyspiel game, so OpenSpiel's
algorithms and tools run on it (extra: ``pip install tilecraft[openspiel]``).

>>> from tilecraft.adapters import openspiel as tos
>>> game = tos.load_game("azul", players=3)          # registers "tilecraft_azul" on first use
>>> state = game.new_initial_state()

Chance is explicit wherever the game offers ``chance="explicit"`` (OpenSpiel's chance nodes).
Otherwise (Warsaw) the game draws from its own seeded RNG, held inside the state: it registers as
EXPLICIT_STOCHASTIC with no chance nodes, because OpenSpiel serialises a SAMPLED_STOCHASTIC game
through ``GetRNGState``, which a Python game cannot provide (so ``random_sim_test(serialize=True)``
would abort). Returns default to ``returns_mode="win_loss"`` where the game has it (the
recommended returns for OpenSpiel's search: MCTS and ISMCTS need bounded, comparable utilities),
and ``min_utility`` / ``max_utility`` are the bounds of the chosen mode (``GameSpec.returns_range``).
``resample_from_infostate(player, sampler)`` is ``resample_hidden``, so OpenSpiel's Python ISMCTS
(``open_spiel.python.algorithms.ismcts`` with ``use_observation_string=True``) runs. The observation
tensor is tilecraft's ``observation(player)``. The observation string is the text diagram for
perfect-information games; for imperfect-information ones (Warsaw, Gaudí) it is built from the
observation tensor, so it shows only what that player may see (the diagram shows every hand).
This wraps the C++ engine from Python, so pyspiel's
C++ algorithms pay a Python call per step; tilecraft's own C++ batch runners do not."""
from __future__ import annotations

from typing import Any, Dict

from ._common import require

require("openspiel", "openspiel", "pyspiel")

import numpy as np
import pyspiel

from ..games import game_spec
from ..render import render_text

_REGISTERED: Dict[str, Any] = {}
MAX_GAME_LENGTH = 100000  # a bound for GameInfo; tilecraft games end far sooner


def _make_classes(game: str):
    spec = game_spec(game)
    names = {o.name for o in spec.options}
    explicit = "chance" in names
    params = {"players": spec.players[0]}
    for o in spec.options:
        if o.name != "chance":  # OpenSpiel parameters cannot be None: "" stands for the default None
            params[o.name] = "" if o.default is None else o.default
    if "returns_mode" in params:
        params["returns_mode"] = "win_loss"
    game_type = pyspiel.GameType(
        short_name=f"tilecraft_{spec.name}",
        long_name=f"tilecraft {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if spec.perfect_information
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.players),
        min_num_players=min(spec.players),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )

    class TilecraftGame(pyspiel.Game):
        def __init__(self, params=None):
            values = dict(game_type.parameter_specification)
            values.update(params or {})
            players = int(values.pop("players"))
            options = {k: (None if v == "" and spec.option(k).default is None else v) for k, v in values.items()}
            if explicit:
                options["chance"] = "explicit"
            self.core_config = spec.core_config(players, **options)
            first = spec.state_class(self.core_config, 0)
            mode = options.get("returns_mode", "win_loss")
            low, high = spec.returns_range.get(mode, (-1e6, 1e6))
            info = pyspiel.GameInfo(
                num_distinct_actions=first.num_distinct_actions(),
                max_chance_outcomes=first.max_chance_outcomes(),
                num_players=players,
                min_utility=low,
                max_utility=high,
                utility_sum=None,
                max_game_length=MAX_GAME_LENGTH,
            )
            super().__init__(game_type, info, params or {})
            self._shape = list(first.observation_shape())
            self._seed = 0

        def new_initial_state(self):
            self._seed += 1
            return TilecraftSpielState(self, spec.state_class(self.core_config, self._seed))

        def observation_tensor_shape(self):
            return self._shape

        def make_py_observer(self, iig_obs_type=None, params=None):
            return TilecraftObserver(self._shape)

    class TilecraftSpielState(pyspiel.State):
        def __init__(self, game_obj, inner):
            super().__init__(game_obj)
            self.inner = inner

        def current_player(self):
            p = self.inner.current_player()
            if p == -2:
                return pyspiel.PlayerId.CHANCE
            if p == -1:
                return pyspiel.PlayerId.TERMINAL
            return p

        def _legal_actions(self, player):
            return [int(a) for a in self.inner.legal_actions()]

        def chance_outcomes(self):
            return [(int(o), float(p)) for o, p in self.inner.chance_outcomes()]

        def _apply_action(self, action):
            self.inner.apply(int(action))

        def _action_to_string(self, player, action):
            return self.inner.action_to_string(int(action))

        def is_terminal(self):
            return self.inner.is_terminal()

        def returns(self):
            return [float(x) for x in self.inner.returns()]

        def resample_from_infostate(self, player_id, probability_sampler):
            """A copy in which everything ``player_id`` cannot see is re-drawn (resample_hidden),
            seeded from the sampler (a callable giving a uniform number in [0, 1))."""
            seed = int(float(probability_sampler()) * 2**53) & (2**64 - 1)
            copy = self.clone()
            copy.inner.resample_hidden(int(player_id), seed)
            return copy

        def __str__(self):
            return render_text(self.inner)

    class TilecraftObserver:
        def __init__(self, shape):
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

        def set_from(self, state, player):
            state.inner.observation(player, out=self.tensor)

        def string_from(self, state, player):
            if spec.perfect_information:
                return render_text(state.inner)
            return observation_string(state.inner, player)

    return game_type, TilecraftGame


def observation_string(inner: Any, player: int) -> str:
    """What ``player`` sees, as text: the non-zero entries of its observation tensor (index:value)."""
    obs = inner.observation(player)
    nz = np.flatnonzero(obs)
    return f"player {player} observes " + " ".join(f"{i}:{obs[i]:g}" for i in nz)


def register(game: str) -> str:
    """Registers ``tilecraft_<game>`` with pyspiel (once) and returns that name."""
    name = f"tilecraft_{game_spec(game).name}"
    if name not in _REGISTERED:
        game_type, cls = _make_classes(game)
        pyspiel.register_game(game_type, cls)
        _REGISTERED[name] = cls
    return name


def load_game(game: str, **params: Any):
    """``pyspiel.load_game`` of a tilecraft game; params: players and the game's options."""
    return pyspiel.load_game(register(game), params)
