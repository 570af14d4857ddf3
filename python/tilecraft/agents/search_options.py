"""Search options: their declarations and their checks. Every option of the C++ searches is declared
once, in its configuration's ``visit()`` (``PuctConfig``, ``MctsConfig``): name, kind, default, range
and a one-line description, which ``tilecraft._core.puct_options()`` / ``mcts_options()`` export and
:data:`PUCT_OPTIONS` / :data:`MCTS_OPTIONS` hold; the docs' tables of options, the CLI's help and the
test that compares them with the bots' signatures (tests/test_search_option_declarations.py) read
them from there; the tables below say where a bot's parameters differ from its configuration's
fields.

Checking search options: the ranges live in the C++ search configurations (``PuctConfig`` and
``MctsConfig``, checked through ``tilecraft._core.check_puct_options`` / ``check_mcts_options``);
this module adds only what C++ does not know (the determinize modes that search a chance tree, and
None for "unset") and says each error in the bot's name. PUCTBot, MCTSBot and the presets file
(tilecraft.presets) all check through here, so a setting is checked one way wherever it comes from.
Imports nothing of tilecraft but ``_core``."""
from __future__ import annotations

from typing import Any, Dict, List

import numpy as np

from .. import _core

#: The PUCT options as PuctConfig declares them, in order: dicts with name, kind ('integer', 'number', 'flag',
#: 'seed' or 'choice'), default, low, high (None: no bound), choices, range (what is allowed) and doc.
PUCT_OPTIONS: List[Dict[str, Any]] = _core.puct_options()
#: The MCTS / ISMCTS options as MctsConfig declares them (the same keys).
MCTS_OPTIONS: List[Dict[str, Any]] = _core.mcts_options()

#: PuctConfig's fields that PUCTBot takes in another form, and which.
PUCT_FIELDS_TAKEN_OTHERWISE: Dict[str, str] = {
    "noise_alpha": "PUCTBot's root_noise=(alpha, fraction)",
    "noise_fraction": "PUCTBot's root_noise=(alpha, fraction)",
}
#: PUCTBot's parameters that are no PuctConfig field (Python's own), and what they are.
PUCT_PYTHON_ONLY: Dict[str, str] = {
    "evaluator": "the network or callable that gives the priors and values",
    "values": "'share' or 'returns': the scale of the evaluator's values",
    "root_noise": "(alpha, fraction) of the root's Dirichlet noise: noise_alpha and noise_fraction; None: none",
}
#: MctsConfig's fields that MCTSBot and ISMCTSBot take in another form, and which.
MCTS_FIELDS_TAKEN_OTHERWISE: Dict[str, str] = {
    "determinize": "the bot's class: MCTSBot 'search', ISMCTSBot 'iteration'",
}

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
