"""How a training run measures its networks: the gate that promotes a generation (by simulation
counts: the same on every run), and beside it the network's policy against greedy, its search against
the plain search at equal time, and its value head against a rollout on held-out positions."""
from __future__ import annotations

import pathlib
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence

import numpy as np

from .. import baselines

if TYPE_CHECKING:
    from .config import TrainConfig

# the seeds of the equal-time measurement: the screening seeds (docs/strength.md: targets are
# measured on 30,000 + i and checked on 50,000 + i, never tuned on)
SCREEN_SEED = 40_000


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


def selfplay_bot(evaluator: Any, args: "TrainConfig") -> Any:
    """The Gumbel PUCT search of the later generations' self-play."""
    from ..puct import PUCTBot

    return PUCTBot(evaluator, simulations=args.selfplay_simulations, gumbel=True, gumbel_actions=16,
                   rollout_mix=args.selfplay_rollout_mix, prior_heuristic=args.selfplay_prior_heuristic)


def _kept(r: Dict[str, Any]) -> Dict[str, Any]:
    return {k: r[k] for k in ("share", "low", "high", "games", "seed", "seconds_per_move", "opponent_seconds_per_move",
                              "bot", "opponent") if k in r}


def gate(game: str, players: int, options: Dict[str, Any], candidate: str, best: str, games: int, simulations: int,
         seed: int, workers: int, search: Dict[str, Any], say: Any = print) -> Dict[str, Any]:
    """The candidate network's search against the best network's (each ``simulations`` a move, over
    the configuration's preset and ``search``), seats rotated: a figure that depends on the seeds only."""
    from ..bots import BaselineBot
    from ..strength import format_row, head_to_head

    bot = BaselineBot(simulations=simulations, path=candidate, **search)
    opp = BaselineBot(simulations=simulations, path=best, **search)
    r = head_to_head(game, bot, opp, games, players=players, seed=seed, workers=workers, options=options)
    r["bot"], r["opponent"] = pathlib.Path(candidate).stem, pathlib.Path(best).stem
    say("  gate: " + format_row(r))
    return _kept(r)


def measure(game: str, players: int, options: Dict[str, Any], path: str, games: int, ms: float, workers: int,
            search: Dict[str, Any], say: Any = print) -> Dict[str, Any]:
    """The network's policy against greedy, and its search against the plain search (MCTS where
    nothing is hidden, else ISMCTS) with ``ms`` milliseconds a move each, seeds SCREEN_SEED + i."""
    from ..bots import BaselineBot, BaselinePolicyBot
    from ..strength import EQUAL_TIME_TOLERANCE, format_row, head_to_head, plain_search

    seconds = ms / 1000.0
    out: Dict[str, Any] = {}
    for key, bot, opp in (("policy_vs_greedy", BaselinePolicyBot(path=path), "greedy"),
                          ("equal_time", BaselineBot(path=path, **dict(search, seconds=seconds)),
                           f"{plain_search(game)}:seconds={seconds:g}")):
        r = head_to_head(game, bot, opp, games, players=players, seed=SCREEN_SEED, workers=workers, options=options,
                         time_tolerance=EQUAL_TIME_TOLERANCE)
        say("  " + format_row(r))
        out[key] = _kept(r)
    return out


def value_error(game: str, players: int, options: Dict[str, Any], net: Any, chunks: Sequence[pathlib.Path],
                positions: int, seed: int) -> Optional[Dict[str, Any]]:
    """How well the value head predicts a game's result from a position of held-out games (chunks the
    network was not fitted on), beside one rollout from it (what PUCTBot backs up with rollout_mix=1:
    the game's tuned rollout policy, on a copy re-drawn for the mover): the mean squared error of
    each against the mover's final win share (1/k for k co-winners), over up to ``positions`` rows
    spread evenly over the chunks. None without such rows."""
    from ...games import make
    from ...runner import seat_bots
    from ..bots import one_blas_thread
    from ..puct import PUCTBot, UniformEvaluator

    rows: List[Dict[str, Any]] = []
    for path in chunks:
        with np.load(path, allow_pickle=False) as z:
            if "actions" not in z.files:
                continue
            rows.append({k: z[k] for k in ("game", "player", "value", "state_seed", "actions", "action_offsets")})
    total = sum(len(r["game"]) for r in rows)
    if not total or positions <= 0:
        return None
    chosen = set(np.linspace(0, total - 1, min(positions, total)).round().astype(int).tolist())
    roller = PUCTBot(UniformEvaluator(players), simulations=1, batch_size=1, rollout_mix=1.0)
    net_err, roll_err, n, base = 0.0, 0.0, 0, 0
    with one_blas_thread():
        for r in rows:
            by_game: Dict[int, List[int]] = {}
            for i in range(len(r["game"])):
                if base + i in chosen:
                    by_game.setdefault(int(r["game"][i]), []).append(i)
            first_row = np.searchsorted(r["game"], np.arange(len(r["state_seed"])))
            for g, wanted in by_game.items():
                s = make(game, players=players, seed=int(r["state_seed"][g]), **options)
                acts = r["actions"][r["action_offsets"][g]:r["action_offsets"][g + 1]]
                decision = int(first_row[g])  # the row of the next decision of this game
                want = set(wanted)
                for a in acts:
                    if s.is_terminal() or not want:
                        break
                    if not s.is_chance_node():
                        if decision in want:
                            p = s.current_player()
                            target = float(r["value"][decision, 0])
                            obs = np.asarray(s.observation(p), np.float32)[None]
                            _, v = net(obs, s.legal_action_mask()[None], np.array([p], np.int32))
                            # seated for this position: its seat's seed of a position seed (tilecraft.runner)
                            seat_bots([roller] * players, seed + base + decision,
                                      open_seats=[q for q in range(players) if q != p])
                            rollout = float(roller.search(s)["root_value"])
                            net_err += (float(v[0, p]) - target) ** 2
                            roll_err += (rollout - target) ** 2
                            n += 1
                            want.discard(decision)
                        decision += 1
                    s.apply(int(a))
            base += len(r["game"])
    if not n:
        return None
    return dict(positions=n, network=net_err / n, rollout=roll_err / n)
