"""Matches: plays games between bots at a tilecraft.runner.Table (seats seeded, chance sampled
there) and records every action with its timing. Replay files are written, read and checked by
tilecraft.records; the names are importable from here too."""
from __future__ import annotations

import dataclasses
from typing import Any, Dict, IO, List, Optional, Sequence, Union

from . import _args
from ._args import is_integer
from ._progress import as_bar
from .games import game_spec
# the replay and results files are written, read and checked by tilecraft/records.py (also importable from here)
from .records import (check_replay, check_tournament_file, is_tournament_file, load_results,  # noqa: F401
                      open_replay, read_header, read_lines, read_replay, read_tournament_games, repair_replay,
                      write_replay)
from ._core import IllegalActionError
from ._core import CHANCE
from .runner import Table


class BotError(RuntimeError):
    """A bot raised an exception or chose an illegal action. ``bot`` names it, ``seat`` is its seat;
    the message says what it raised. (Picklable, so it crosses worker processes intact.)"""

    def __init__(self, message: str, bot: Optional[str] = None, seat: Optional[int] = None):
        super().__init__(message, bot, seat)
        self.bot, self.seat = bot, seat

    def __str__(self) -> str:
        return str(self.args[0])


@dataclasses.dataclass
class MatchResult:
    """One finished game."""

    game: str
    players: int
    seed: int
    options: Dict[str, Any]
    bots: List[str]  # names per seat
    scores: List[float]
    returns: List[float]
    winners: List[int]
    actions: List[int]  # every action and chance outcome, in order
    actors: List[int]  # seat per entry of actions (-2 for chance outcomes)
    move_seconds: List[float]  # thinking time per entry of actions (0 for chance outcomes)
    # per entry of actions: a search bot's most visited moves [{"action", "name", "share"}], else None
    top_moves: List[Optional[List[Dict[str, Any]]]] = dataclasses.field(default_factory=list)

    def seconds_per_seat(self) -> List[float]:
        total = [0.0] * self.players
        for seat, t in zip(self.actors, self.move_seconds):
            if seat >= 0:
                total[seat] += t
        return total

    def to_dict(self) -> Dict[str, Any]:
        return dataclasses.asdict(self)


def bot_name(bot: Any) -> str:
    return getattr(bot, "name", None) or type(bot).__name__


def _top_moves(bot: Any, state: Any, action: int, k: int = 5) -> Optional[List[Dict[str, Any]]]:
    """The k most visited root moves of the search that chose ``action`` (None for bots without one)."""
    search = getattr(bot, "last_search", None)
    if not isinstance(search, dict) or "visits" not in search or int(search.get("action", -1)) != action:
        return None
    visits = search["visits"]
    total = float(sum(int(v) for v in visits))
    if total <= 0:
        return None
    ranked = sorted(((int(v), a) for a, v in enumerate(visits) if int(v) > 0), reverse=True)[:k]
    return [{"action": a, "name": state.action_to_string(a), "share": round(v / total, 4)} for v, a in ranked]


def play_match(game: str, bots: Sequence[Any], seed: int = 0, players: Optional[int] = None,
               replay: Union[None, str, IO[str]] = None, **options: Any) -> MatchResult:
    """Plays one game. ``bots`` are bot objects or specs for ``make_bot`` (one per seat; the
    player count defaults to len(bots)). Chance nodes (``chance='explicit'``) are resolved by the
    runner with its own seeded sampler. ``replay`` is a path or an open text file to which the
    game is appended as JSON lines."""
    spec = game_spec(game)
    if players is None:
        players = len(bots)
    if is_integer(players):
        players = int(players)
    if len(bots) != players:
        raise ValueError(f"{spec.name}: {players} players need {players} bots, got {len(bots)}")
    values = spec.validate(players, options)
    state = spec.new_state(players, seed, values)
    seed = int(seed)  # checked by new_state: an integer in 0..2**64-1
    if isinstance(replay, str):
        repair_replay(replay)  # a replay file that cannot be appended to is refused before the game is played
    table = Table(state, bots, seed)  # seats seeded, chance sampled: tilecraft/runner.py
    seated = [table.bots[i] for i in range(players)]
    actions: List[int] = []
    actors: List[int] = []
    seconds: List[float] = []
    top: List[Optional[List[Dict[str, Any]]]] = []
    while not state.is_terminal():
        seat = state.current_player()
        top.append(None)
        if seat == CHANCE:
            action = table.sample_chance()
            spent = 0.0
        else:
            who = bot_name(seated[seat])
            try:
                action, spent = table.think(seat)
            except (KeyboardInterrupt, SystemExit):
                raise
            except Exception as e:
                raise BotError(f"bot {who!r} (seat {seat}) raised {type(e).__name__}: {e} "
                               f"(game seed {seed}, move {len(actions) + 1})", who, seat) from e
            if not is_integer(action) or not state.is_legal(action):
                shown = repr(action)
                if is_integer(action):
                    try:
                        shown = f"{int(action)} ({state.action_to_string(action)})"
                    except ValueError:
                        shown = str(int(action))
                why = ""
                if is_integer(action):
                    try:
                        state.clone().apply(action)
                    except IllegalActionError as e:
                        why = f": {e}"
                raise IllegalActionError(f"bot {who!r} (seat {seat}) chose {shown}, which is not a legal action "
                                         f"(game seed {seed}, move {len(actions) + 1}){why}")
            top[-1:] = [_top_moves(seated[seat], state, int(action))]
        state.apply(int(action))
        actions.append(int(action))
        actors.append(seat)
        seconds.append(spent)
    result = MatchResult(
        game=spec.name, players=players, seed=seed, options=dict(values),
        bots=[bot_name(b) for b in seated], scores=[float(x) for x in state.scores()],
        returns=[float(x) for x in state.returns()], winners=list(state.winners()),
        actions=actions, actors=actors, move_seconds=seconds,
        top_moves=top if any(t is not None for t in top) else [],
    )
    if replay is not None:
        write_replay(result, replay)
    return result


def play_matches(game: str, bots: Sequence[Any], games: int, seed: int = 0, rotate: bool = True,
                 replay: Union[None, str, IO[str]] = None, progress: bool = False,
                 **options: Any) -> List[MatchResult]:
    """Plays ``games`` games; with ``rotate`` the seating shifts by one every game so that every
    bot plays every seat equally often. Game g uses seed ``seed + g``. Results list bots by seat;
    ``MatchResult.bots`` names them."""
    specs = list(bots)
    n = len(specs)
    if n == 0:
        raise ValueError("play_matches: give at least one bot")
    games = _args.integer("play_matches", "games", games, 0, 2**40)
    seed = _args.seed("play_matches", seed)
    if seed + games - 1 > _args.SEED_MAX:
        raise ValueError(f"play_matches: the seeds {seed}..{seed + games - 1} of the games pass 2**64-1")
    results = []
    handle = open_replay(replay) if isinstance(replay, str) else replay  # a game a stopped writer cut off: removed
    bar = as_bar(progress, games, f"{game} games" if isinstance(game, str) else "games")
    try:
        for g in range(games):
            shift = g % n if rotate else 0
            order = specs[shift:] + specs[:shift]
            results.append(play_match(game, order, seed=seed + g, replay=handle, **options))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
        if isinstance(replay, str) and handle is not None:
            handle.close()
    return results
