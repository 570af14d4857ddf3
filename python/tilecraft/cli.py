"""The ``tilecraft`` command: play, match, tournament, rules, replay, bench, render, serve."""
from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any, Dict, List, Optional, Sequence

from . import __version__
from ._args import key_values
from .agents.bots import BOT_FACTORIES
from .games import game_spec, list_games
from .pictures_cli import add_commands as add_picture_commands, add_replay_options
from .tournament import fixed_point


def _options(pairs: Optional[Sequence[str]]) -> Dict[str, Any]:
    try:
        return key_values(pairs or [], lambda pair: f"-o {pair!r}: a rule option must look like NAME=VALUE (see "
                                                    "'tilecraft rules GAME')")
    except ValueError as e:
        raise UsageError(str(e)) from None


def _bots(text: str) -> List[str]:
    # Split on commas that start a new bot: "mcts:iterations=100,threads=2,random" keeps options together.
    bots: List[str] = []
    for part in text.split(","):
        if bots and "=" in part and ":" not in part:
            bots[-1] += "," + part
        else:
            bots.append(part)
    bots = [b.strip() for b in bots if b.strip()]
    if not bots:
        raise UsageError(f"--bots {text!r} names no bot; give a comma-separated list such as greedy,random "
                         f"(built in: {', '.join(sorted(BOT_FACTORIES))})")
    return bots


class UsageError(Exception):
    """A mistake in the command line: printed as 'tilecraft: error: ...' with exit status 2."""


def _seat_count(game: str, bots: List[str], players: Optional[int]) -> int:
    """The player count of play and match: --players if given (one bot per seat), else the number
    of bots; a count the game does not allow, or a bot list that does not fill the seats, is a
    usage error that says how seats are filled."""
    allowed = list(game_spec(game).players)
    shown = " or ".join(filter(None, [", ".join(str(p) for p in allowed[:-1]), str(allowed[-1])]))
    n = len(bots)
    given = f"{n} bot{'s' if n != 1 else ''} ({','.join(bots)})"
    if players is not None:
        if players not in allowed:
            raise UsageError(f"--players {players}: {game} is played by {shown} players")
        if players != n:
            raise UsageError(f"--players {players} needs {players} bots, one per seat, but --bots gives {given}; "
                             "list a bot more than once to fill several seats, e.g. --bots "
                             + ",".join([bots[0]] * players))
        return players
    if n not in allowed:
        example = ",".join([bots[0]] * allowed[0]) if allowed[0] > 1 else bots[0]
        raise UsageError(f"--bots gives {given}, but {game} is played by {shown} players: give one bot per seat "
                         f"(the player count is the number of bots), listing a bot more than once to fill several "
                         f"seats, e.g. --bots {example}")
    return n


MAX_GAMES = 10_000_000  # per command: more would run for days or exhaust memory


def _count(value: int, what: str, low: int = 1, high: int = MAX_GAMES) -> int:
    if not low <= value <= high:
        raise UsageError(f"{what} must be {low}..{high:,}, got {value}")
    return value


def _bot_options_help() -> str:
    """The search bots' options for --bots, from their C++ declarations (tilecraft.search_options)."""
    from .agents import search_options as so

    mcts = [o["name"] for o in so.MCTS_OPTIONS if o["name"] not in so.MCTS_FIELDS_TAKEN_OTHERWISE]
    puct = [o["name"] for o in so.PUCT_OPTIONS if o["name"] not in so.PUCT_FIELDS_TAKEN_OTHERWISE]
    return (f"options as name:key=value, e.g. mcts:iterations=400,threads=2 (mcts and ismcts take {', '.join(mcts)}; "
            f"puct takes {', '.join(puct + list(so.PUCT_PYTHON_ONLY))}; their ranges: docs/search.md)")


def _add_game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=list_games(), help="which game")
    p.add_argument("--bots", default="greedy,random",
                   help="comma-separated bots, one per seat (default: greedy,random); built in: "
                        + ", ".join(sorted(BOT_FACTORIES)) + "; " + _bot_options_help())
    p.add_argument("--players", type=int, default=None, help="player count (default: the number of bots)")
    p.add_argument("--seed", type=int, default=0, help="seed of the (first) game (default: 0)")
    p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE",
                   help="a rule option, repeatable (see 'tilecraft rules GAME')")
    p.add_argument("--replay", metavar="FILE", help="append the games to this JSON-lines replay file")


def cmd_play(args: argparse.Namespace) -> int:
    from .match import play_match
    from .render import render_text

    bots = _bots(args.bots)
    players = _seat_count(args.game, bots, args.players)
    result = play_match(args.game, bots, seed=args.seed, players=players, replay=args.replay,
                        **_options(args.option))
    spec = game_spec(args.game)
    state = spec.new_state(result.players, result.seed, result.options)
    for a in result.actions:
        if args.verbose:
            who = "chance" if state.is_chance_node() else f"seat {state.current_player()}"
            print(f"{who}: {state.action_to_string(a)}")
        state.apply(a)
    print(render_text(state))
    print()
    for seat, (bot, score) in enumerate(zip(result.bots, result.scores)):
        mark = "  winner" if seat in result.winners else ""
        print(f"seat {seat} {bot:>12}: {score:g}{mark}")
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    from .match import open_replay, play_matches

    bots = _bots(args.bots)
    n = _seat_count(args.game, bots, args.players)
    _count(args.games, "--games")
    wins = [0.0] * n
    score_sum = [0.0] * n
    score_sq = [0.0] * n
    seconds = [0.0] * n
    moves = [0] * n
    start = time.perf_counter()
    options = _options(args.option)
    handle = open_replay(args.replay) if args.replay else None  # a game a stopped writer cut off: removed
    from ._progress import as_bar
    from .tournament import bot_labels

    bar = as_bar(sys.stderr.isatty(), args.games, f"{args.game} match")
    interrupted = False
    g = 0
    try:
        for g in range(args.games):
            shift = g % n
            order = bots[shift:] + bots[:shift]
            result = play_matches(args.game, order, 1, seed=args.seed + g, rotate=False, replay=handle, **options)[0]
            for seat in range(n):
                b = (seat + shift) % n
                s = result.scores[seat]
                score_sum[b] += s
                score_sq[b] += s * s
                if seat in result.winners:
                    wins[b] += 1.0 / len(result.winners)
            for seat, t in zip(result.actors, result.move_seconds):
                if seat >= 0:
                    b = (seat + shift) % n
                    seconds[b] += t
                    moves[b] += 1
            if bar is not None:
                bar.update(1)
    except KeyboardInterrupt:
        interrupted = True
        args.games = g
    finally:
        if bar is not None:
            bar.close()
        if handle:
            handle.close()
    if interrupted:
        if args.games == 0:
            print("interrupted before the first game finished: no results", file=sys.stderr)
            return 130
        print("interrupted; results of the finished games:", file=sys.stderr)
    games = max(1, args.games)
    labels = bot_labels(bots)
    width = max(len("bot"), *(len(label) for label in labels))
    print(f"{args.games} games of {args.game}, seats rotated, seeds {args.seed}..{args.seed + args.games - 1}")
    print(f"{'bot':<{width}} {'wins':>7} {'win %':>7} {'mean score':>11} {'± 95%':>7} {'ms/move':>8}")
    for b, label in enumerate(labels):
        mean = score_sum[b] / games
        var = max(0.0, score_sq[b] / games - mean * mean)
        ci = 1.96 * math.sqrt(var / games)
        ms = 1000 * seconds[b] / moves[b] if moves[b] else 0.0
        print(f"{label:<{width}} {wins[b]:>7g} {100 * wins[b] / games:>6.1f}% {fixed_point(mean, 11, 2)} {ci:>7.2f} {ms:>8.3f}")
    print(f"({time.perf_counter() - start:.1f}s; shared victories count 1/k to each winner)")
    return 130 if interrupted else 0


def cmd_rules(args: argparse.Namespace) -> int:
    names = [args.game] if args.game else list_games()
    for name in names:
        spec = game_spec(name)
        print(f"{spec.name}: {spec.title}. {spec.doc}")
        print(f"  players: {', '.join(str(p) for p in spec.players)}")
        for o in spec.options:
            print(f"  -o {o.name}=VALUE   default {o.default!r}; allowed: {o.describe_allowed()}")
            print(f"        {o.doc}")
        print()
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .match import check_replay, check_tournament_file, is_tournament_file

    if getattr(args, "html", None):
        from .pictures_cli import cmd_replay_html

        return cmd_replay_html(args)
    summaries = check_tournament_file(args.file) if is_tournament_file(args.file) else check_replay(args.file)
    for i, s in enumerate(summaries, 1):
        print(f"game {i}: {s['game']} seed {s['seed']} {s['actions']} actions, scores {s['scores']}, "
              f"winners {s['winners']}: OK")
    print(f"{len(summaries)} game(s) replayed; every action legal, every result as recorded")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .playouts import random_playouts

    _count(args.games, "--games")
    _count(args.threads, "--threads", 1, 256)
    start = time.perf_counter()
    r = random_playouts(args.game, args.games, seed=args.seed, threads=args.threads, players=args.players or 2,
                        **_options(args.option))
    elapsed = time.perf_counter() - start
    moves = int(r["length"].sum())
    print(f"{args.games} random {args.game} games on {args.threads} thread(s): {elapsed:.3f}s, "
          f"{args.games / elapsed:,.0f} games/s, {moves / elapsed:,.0f} actions/s "
          f"({moves / max(1, args.games):.1f} actions per game, chance outcomes included)")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from .tournament import tournament

    bots = _bots(args.bots)
    _count(args.games_per_pairing, "--games-per-pairing")
    out = args.out or f"tournament-{args.game}.jsonl"
    result = tournament(args.game, bots, games_per_pairing=args.games_per_pairing, seats=args.seats,
                        workers=args.workers, backend=args.backend, players=args.players, seed=args.seed,
                        out=out, progress=not args.quiet, csv_path=args.csv, json_path=args.json,
                        plot_path=args.plot, ray_address=args.ray_address, options=_options(args.option))
    if result.note:
        print(f"note: {result.note}", file=sys.stderr)
    print(result.table())
    print(f"results: {out}" + ("" if result.complete else " (incomplete: run the same command again to resume)"))
    for what, path in (("standings CSV", args.csv), ("standings JSON", args.json), ("plot", args.plot)):
        if path:
            print(f"{what}: {path}")
    return 130 if result.interrupted else 0


def cmd_train(args: argparse.Namespace) -> int:
    from .agents import train

    argv = sys.argv[2:] if len(sys.argv) > 2 and sys.argv[1] == "train" else []
    train.run(args, argv)
    return 0


def cmd_baselines(args: argparse.Namespace) -> int:
    from .agents import baselines

    print(baselines.describe())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tilecraft",
        description="Fast engines for tile-laying board games: play bots against each other, run "
                    "matches, check replays, list rules and options.",
        epilog="Examples: tilecraft play azul --bots greedy,random | tilecraft match azul --bots greedy,random "
               "--games 200 | tilecraft rules azul",
    )
    parser.add_argument("--version", action="version", version=f"tilecraft {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("play", help="play one game between bots and print the final position",
                       description="Play one game between bots and print the final position as a text diagram.")
    _add_game_args(p)
    p.add_argument("-v", "--verbose", action="store_true", help="print every action")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("match", help="play N games with seat rotation and print a results table",
                       description="Play N games between bots, rotating seats every game, and print wins, "
                                   "win rates, mean scores with 95% intervals and thinking time.")
    _add_game_args(p)
    p.add_argument("--games", type=int, default=100, help="number of games (default: 100)")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser("tournament", help="a rated round-robin tournament between bots (resumable)",
                       description="Round robin between bots (tables of --players bots, seats rotated), run in "
                                   "worker processes or on Ray. Results are appended to --out as games finish; "
                                   "running the same command again resumes. Prints standings with win rates, "
                                   "Elo (2 players) and OpenSkill ratings with intervals.")
    p.add_argument("game", choices=list_games(), help="which game")
    p.add_argument("--bots", required=True,
                   help="comma-separated bots, e.g. random,greedy,mcts:iterations=400; built in: "
                        + ", ".join(sorted(BOT_FACTORIES)) + "; or package.module:Class; " + _bot_options_help())
    p.add_argument("--games-per-pairing", type=int, default=10, metavar="N",
                   help="games per pairing or table (default: 10; a multiple of --players balances seats)")
    p.add_argument("--players", type=int, default=2, help="players per table (default: 2)")
    p.add_argument("--seats", choices=("rotate", "fixed"), default="rotate",
                   help="rotate the seating every game (default) or keep the listed order")
    p.add_argument("--workers", type=int, default=None, help="worker processes or Ray tasks (default: CPU count)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local worker processes (default) or a Ray cluster (pip install 'tilecraft[ray]')")
    p.add_argument("--ray-address", default=None, help="Ray cluster address (default: start a local Ray)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first deal (default: 0)")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="JSON-lines results file, resumed if it exists (default: tournament-GAME.jsonl)")
    p.add_argument("--csv", default=None, metavar="FILE", help="write the standings as CSV")
    p.add_argument("--json", default=None, metavar="FILE", help="write the standings and win matrix as JSON")
    p.add_argument("--plot", default=None, metavar="FILE", help="win-rate matrix and ratings as .png or .svg")
    p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a rule option, repeatable")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("rules", help="list the games and their rule options",
                       description="List the games, their player counts and rule options.")
    p.add_argument("game", nargs="?", choices=list_games(), help="only this game")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("replay", help="re-run a replay file and check every action and result",
                       description="Re-run every game of a JSON-lines replay file (written by play/match "
                                   "--replay) or tournament results file (tournament --out) and check that "
                                   "every action is legal and the results match.")
    p.add_argument("file", help="the replay file")
    add_replay_options(p)
    p.set_defaults(func=cmd_replay)
    add_picture_commands(sub)  # render, serve (pictures_cli.py)

    p = sub.add_parser("bench", help="time C++ batch random playouts",
                       description="Time complete random games played in C++ (the GIL released).")
    p.add_argument("game", choices=list_games())
    p.add_argument("--games", type=int, default=100000, help="number of games (default: 100000)")
    p.add_argument("--threads", type=int, default=1, help="threads (default: 1)")
    p.add_argument("--players", type=int, default=None, help="player count (default: 2)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a rule option, repeatable")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("train", help="train a policy-value network in generations of self-play (resumable)",
                       description="Generations of self-play (docs/training.md): generation 0 learns from a teacher "
                                   "search's C++ self-play (or starts from --start FILE); each later one plays the best "
                                   "network's own Gumbel PUCT search, fits on it (with JAX: pip install "
                                   "\"tilecraft[train]\"), meets the best network in a gate counted in simulations, "
                                   "and is measured beside it. Running the same command again resumes.")
    from .agents.train import add_arguments as add_train_arguments

    add_train_arguments(p)
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("baselines", help="list the shipped baseline networks",
                       description="List the trained networks shipped with tilecraft (tilecraft.baselines).")
    p.set_defaults(func=cmd_baselines)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command. A user's mistake (bad option, missing file, a bot that raises) prints one
    'tilecraft: error: ...' line and returns 2 (1 for a failing bot); Ctrl-C returns 130; a closed
    output pipe (``| head``) ends quietly with 141 (128 + SIGPIPE), as a shell tool would."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    from .match import BotError

    try:
        code = args.func(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        _silence_stdout()
        return 141
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BotError as e:
        print(f"tilecraft: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        where = f": {e.filename}" if getattr(e, "filename", None) else ""
        print(f"tilecraft: error: {e.strerror or e}{where}", file=sys.stderr)
        return 2
    except (UsageError, ValueError, KeyError, TypeError, ImportError, OverflowError, RecursionError) as e:
        print(f"tilecraft: error: {e}", file=sys.stderr)
        return 2


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so that the interpreter's final flush is quiet."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
