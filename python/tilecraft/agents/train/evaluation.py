"""How a training run measures its networks, and the searches it plays them with."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional

from .. import baselines

if TYPE_CHECKING:
    from .config import TrainConfig


def check_search(search: Dict[str, Any]) -> Dict[str, Any]:
    """--search's options: the baseline bot's (its own check: names, then values in C++)."""
    from ..bots import BaselineBot, bot_options

    known = [k for k in bot_options(BaselineBot) or [] if k not in ("seed", "path")]
    unknown = sorted(set(search) - set(known))
    if unknown:
        raise ValueError(f"--search {unknown[0]}: not an option of the baseline bot; those are {', '.join(known)}")
    try:
        BaselineBot(**search)
    except ValueError as e:
        raise ValueError(f"--search: {e}") from None
    return search


def preset(state: Any, simulations: int, search: Dict[str, Any]) -> Dict[str, Any]:
    """The preset the run's networks are evaluated with, as an entry of tilecraft/agents/presets.json."""
    from ..bots import BaselineBot

    game, mode = type(state).game_name, baselines.mode_of(state)
    return dict(game=game, players=state.num_players(), **({"mode": mode} if mode else {}),
                search=BaselineBot(simulations=simulations, **search).settings(state))


def round_bot(evaluator: Any, args: "TrainConfig") -> Any:
    """The Gumbel PUCT search of the later rounds' self-play."""
    from ..puct import PUCTBot

    return PUCTBot(evaluator, simulations=args.puct_simulations, gumbel=True, gumbel_actions=16,
                   rollout_mix=args.puct_rollout_mix, prior_heuristic=args.puct_prior_heuristic)


def evaluate(game: str, players: int, options: Dict[str, Any], path: str, games: int, simulations: int,
             opponent: str, workers: int, say: Any = print, search: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """The network's policy against greedy, and the baseline bot with it (simulations, and ``search``
    over the configuration's preset) against ``opponent``."""
    from ..bots import BaselineBot, BaselinePolicyBot
    from ..strength import format_row, head_to_head

    out: Dict[str, Any] = {}
    for key, bot, opp in (("policy_vs_greedy", BaselinePolicyBot(path=path), "greedy"),
                          ("puct_vs_teacher", BaselineBot(simulations=simulations, path=path, **(search or {})),
                           opponent)):
        r = head_to_head(game, bot, opp, games, players=players, workers=workers, options=options)
        say("  " + format_row(r))
        out[key] = {k: r[k] for k in ("share", "low", "high", "games", "seconds_per_move", "opponent")}
    return out
