"""Checking search options: the ranges live in the C++ search configurations (``PuctConfig`` and
``MctsConfig``, checked through ``tilecraft._core.check_puct_options`` / ``check_mcts_options``);
this module adds only what C++ does not know (the determinize modes that search a chance tree, and
None for "unset") and says each error in the bot's name. PUCTBot, MCTSBot and the presets file
(tilecraft.presets) all check through here, so a setting is checked one way wherever it comes from.
Imports nothing of tilecraft but ``_core``."""
from __future__ import annotations

from typing import Any, Dict

import numpy as np

from . import _core

#: The determinize modes that search chance_tree(state), with the C++ search's mode for its hidden parts.
CHANCE_TREE_MODES: Dict[str, str] = {"hidden": "search", "hidden-iteration": "iteration"}


def check_budget(who: str, seconds: Any) -> None:
    """A time budget per move: None (none) or a number in (0, MAX_SEARCH_SECONDS]. C++ checks the upper
    end too; 0, which C++ reads as "none", is refused here, where None says that."""
    if seconds is None:
        return
    if isinstance(seconds, (bool, np.bool_)) or not isinstance(seconds, (int, float, np.integer, np.floating)) \
            or not 0 < seconds <= _core.MAX_SEARCH_SECONDS:
        raise ValueError(f"{who}: seconds must be a time budget in (0, {_core.MAX_SEARCH_SECONDS:g}] seconds per move "
                         f"(None: no budget), got {seconds!r}")


def check_puct(o: Dict[str, Any], who: str = "PUCTBot") -> None:
    """PUCT options (any subset of PUCTBot's, None meaning unset), checked by the C++ configuration's
    own check (every range is declared there once); ValueError in ``who``'s name."""
    determinize = o.get("determinize")
    if determinize is not None and determinize not in ("search", "iteration", *CHANCE_TREE_MODES):
        raise ValueError(f"{who}: determinize must be 'search' (one draw per search), 'iteration' (one per "
                         f"simulation), 'hidden' (the hidden parts once per search, chance in the tree) or "
                         f"'hidden-iteration' (the hidden parts once per simulation, chance in the tree), "
                         f"got {determinize!r}")
    check_budget(who, o.get("seconds"))
    ophs = o.get("opponent_prior_heuristic")  # None: prior_heuristic (C++ says it with a negative value)
    if ophs is not None and not (isinstance(ophs, (int, float, np.integer, np.floating)) and ophs >= 0):
        raise ValueError(f"{who}: opponent_prior_heuristic must be a number >= 0, or None for prior_heuristic's "
                         f"value, got {ophs!r}")
    checked = {k: v for k, v in o.items() if v is not None}
    if determinize is not None:
        checked["determinize"] = CHANCE_TREE_MODES.get(determinize, determinize)
    try:
        _core.check_puct_options(**checked)
    except ValueError as e:  # "puct: simulations must be ..." -> "PUCTBot: simulations must be ..."
        message = str(e)
        raise ValueError(f"{who}: " + (message[len("puct: "):] if message.startswith("puct: ") else message)) from None


def check_mcts(o: Dict[str, Any], who: str = "MCTSBot") -> None:
    """MCTS / ISMCTS options (None meaning unset), checked by the C++ configuration's own check."""
    check_budget(who, o.get("seconds"))
    _core.check_mcts_options(who, **{k: v for k, v in o.items() if v is not None})
