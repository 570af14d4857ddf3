"""The match runner: plays games between bots, records every action with its timing, and writes
and checks replay files (JSON lines)."""
from __future__ import annotations

import dataclasses
import json
import random
import time
from typing import Any, Dict, IO, Iterator, List, Optional, Sequence, Union

from . import _args
from ._args import is_integer
from ._progress import as_bar
from .bots import make_bot
from .games import game_spec
from .results import load_results, read_header, read_lines  # noqa: F401  (read_lines: also importable from here)
from ._core import IllegalActionError, InvalidStateError
from ._core import CHANCE


def _mix(seed: int, stream: int) -> int:
    """A 63-bit seed for a sub-stream (a bot's seat, the chance sampler) of a game seed."""
    x = (seed * 0x9E3779B97F4A7C15 + (stream + 1) * 0xD1B54A32D192ED03) & (2**64 - 1)
    x ^= x >> 31
    x = (x * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    x ^= x >> 29
    return x & (2**63 - 1)


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


def _bot_name(bot: Any) -> str:
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
    seated = [make_bot(b, seed=_mix(seed, i)) for i, b in enumerate(bots)]
    for i, bot in enumerate(seated):
        reset = getattr(bot, "reset", None)
        if reset is not None:
            reset(i, _mix(seed, i))
    chance_rng = random.Random(_mix(seed, 1000))
    actions: List[int] = []
    actors: List[int] = []
    seconds: List[float] = []
    top: List[Optional[List[Dict[str, Any]]]] = []
    while not state.is_terminal():
        seat = state.current_player()
        top.append(None)
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            r = chance_rng.random()
            action = outcomes[-1][0]
            for outcome, p in outcomes:
                r -= p
                if r < 0:
                    action = outcome
                    break
            spent = 0.0
        else:
            view = state.clone()  # a bot gets a copy: it cannot change the real game
            start = time.perf_counter()
            who = _bot_name(seated[seat])
            try:
                action = seated[seat].act(view)
            except (KeyboardInterrupt, SystemExit):
                raise
            except Exception as e:
                raise BotError(f"bot {who!r} (seat {seat}) raised {type(e).__name__}: {e} "
                               f"(game seed {seed}, move {len(actions) + 1})", who, seat) from e
            spent = time.perf_counter() - start
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
        bots=[_bot_name(b) for b in seated], scores=[float(x) for x in state.scores()],
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
    handle = open(replay, "a", encoding="utf-8") if isinstance(replay, str) else replay
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


def write_replay(result: MatchResult, dest: Union[str, IO[str]]) -> None:
    """Appends one game as JSON lines: a header, one line per action, a result line."""
    spec = game_spec(result.game)
    lines = [{"type": "header", "game": result.game, "players": result.players, "seed": result.seed,
              "options": result.options, "bots": result.bots}]
    state = spec.new_state(result.players, result.seed, result.options)
    tops = result.top_moves or [None] * len(result.actions)
    for action, seat, t, top in zip(result.actions, result.actors, result.move_seconds, tops):
        line = {"type": "action", "seat": seat, "action": action,
                "name": state.action_to_string(action), "seconds": round(t, 6)}
        if top:
            line["top"] = top  # the search's most visited moves with their visit shares
        lines.append(line)
        state.apply(action)
    lines.append({"type": "result", "scores": result.scores, "winners": result.winners})
    text = "".join(json.dumps(line) + "\n" for line in lines)
    if isinstance(dest, str):
        with open(dest, "a", encoding="utf-8") as f:
            f.write(text)
    else:
        dest.write(text)


def read_replay(path: str) -> Iterator[Dict[str, Any]]:
    """Yields the games of a replay file as dicts: header fields, 'actions' and 'result'."""
    current: Optional[Dict[str, Any]] = None
    lines = read_lines(path)
    if not any(line.strip() for line in lines):
        raise InvalidStateError(f"{path}: the file is empty; a replay file holds JSON lines written by "
                                "'tilecraft play/match --replay' or 'tilecraft tournament --out'")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as e:
            _not_a_saved_state(path, lines)
            raise InvalidStateError(f"{path}:{number}: not JSON: {e}") from None
        kind = item.get("type") if isinstance(item, dict) else None
        if kind == "header":
            if current is not None:
                raise InvalidStateError(f"{path}:{number}: a new game starts before the last one's result line")
            current = dict(item, actions=[], line=number)
        elif kind == "action" and current is not None:
            current["actions"].append(item)
        elif kind == "result" and current is not None:
            current["result"] = item
            yield current
            current = None
        else:
            _not_a_saved_state(path, lines)
            raise InvalidStateError(f"{path}:{number}: unexpected line (type {kind!r})")
    if current is not None:
        raise InvalidStateError(f"{path}: the last game (from line {current['line']}) has no result line")


def _not_a_saved_state(path: str, lines: List[str]) -> None:
    """Raises the hint to use 'tilecraft render' when the whole file is one saved state (to_json)."""
    try:
        item = json.loads("\n".join(lines))
    except (json.JSONDecodeError, RecursionError):
        return
    if isinstance(item, dict) and "type" not in item:
        raise InvalidStateError(f"{path} holds one JSON object, such as a saved state (state.to_json()), not a "
                                "replay (JSON lines written by 'tilecraft play/match --replay' or 'tilecraft "
                                f"tournament --out'); to draw a saved state: tilecraft render {path}")


def check_replay(path: str) -> List[Dict[str, Any]]:
    """Re-runs every game of a replay file and checks each action is legal, each recorded name
    matches and the final scores and winners are those recorded. Returns one summary per game;
    raises InvalidStateError at the first disagreement."""
    summaries = []
    for index, g in enumerate(read_replay(path)):
        for key in ("game", "players", "seed", "options", "bots"):
            if key not in g:
                raise InvalidStateError(f"{path}:{g['line']}: the header of game {index + 1} has no {key!r} field")
        for key in ("scores", "winners"):
            if key not in g["result"]:
                raise InvalidStateError(f"{path}: game {index + 1}: the result line has no {key!r} field")
        spec = game_spec(g["game"])
        state = spec.new_state(g["players"], g["seed"], spec.validate(g["players"], g["options"]))
        for step, item in enumerate(g["actions"]):
            for key in ("seat", "action"):
                if key not in item:
                    raise InvalidStateError(f"{path}: game {index + 1}, step {step + 1}: the action line has no "
                                            f"{key!r} field")
            if not is_integer(item["action"]):
                raise InvalidStateError(f"{path}: game {index + 1}, step {step + 1}: action {item['action']!r} "
                                        "is not an integer action id")
            if not state.is_legal(item["action"]):
                raise InvalidStateError(f"{path}: game {index + 1}, step {step + 1}: action {item['action']} is "
                                        "not legal here")
            if state.current_player() != item["seat"]:
                raise InvalidStateError(f"{path}: game {index + 1}, step {step + 1}: seat {item['seat']} recorded, "
                                        f"but seat {state.current_player()} is to act")
            name = state.action_to_string(item["action"])
            if name != item.get("name", name):
                raise InvalidStateError(f"{path}: game {index + 1}, step {step + 1}: recorded {item['name']!r}, "
                                        f"replayed {name!r}")
            state.apply(item["action"])
        if not state.is_terminal():
            raise InvalidStateError(f"{path}: game {index + 1}: the recorded actions do not finish the game")
        scores = [float(x) for x in state.scores()]
        if scores != g["result"]["scores"] or list(state.winners()) != g["result"]["winners"]:
            raise InvalidStateError(f"{path}: game {index + 1}: replay gives scores {scores} winners "
                                    f"{list(state.winners())}, file says {g['result']['scores']} "
                                    f"{g['result']['winners']}")
        summaries.append({"game": g["game"], "seed": g["seed"], "bots": g["bots"], "scores": scores,
                          "winners": list(state.winners()), "actions": len(g["actions"])})
    return summaries


def is_tournament_file(path: str) -> bool:
    """True when the first record of a JSON-lines file is a tournament header (tilecraft.tournament)."""
    for line in read_lines(path):
        if line.strip():
            try:
                item = json.loads(line)
            except (json.JSONDecodeError, RecursionError):
                return False
            return isinstance(item, dict) and item.get("type") == "header" and "games_per_pairing" in item
    return False


def read_tournament_games(path: str) -> Iterator[Dict[str, Any]]:
    """Yields the finished games of a tournament results file in the shape read_replay gives
    (header fields, 'id', 'actions' as {'action': id} items, 'result'), by id; the records are
    read by results.load_results."""
    with open(path, encoding="utf-8") as f:
        header = json.loads(next(line for line in f if line.strip()))
    for g in load_results(path):
        yield {"game": header.get("game"), "players": header.get("players"), "options": header.get("options"),
               "seed": g.get("seed"), "bots": g.get("seats", []), "id": g.get("id"),
               "actions": [{"action": a} for a in g.get("actions", [])],
               "result": {"scores": g.get("scores"), "winners": g.get("winners")}}


def check_tournament_file(path: str) -> List[Dict[str, Any]]:
    """Re-runs every finished game of a tournament results file: each recorded action must be
    legal in turn and the game must end with the recorded scores and winners. Returns one summary
    per game; raises InvalidStateError at the first disagreement."""
    header = read_header(path)
    spec = game_spec(header["game"])
    values = spec.validate(header["players"], header["options"])
    summaries = []
    try:
        games = load_results(path)
    except InvalidStateError:
        raise
    except ValueError as e:
        raise InvalidStateError(str(e)) from None
    for g in games:
        where = f"{path}: tournament game {g.get('id')}"
        for key in ("seed", "actions", "scores", "winners", "seats"):
            if key not in g:
                raise InvalidStateError(f"{where}: the record has no {key!r} field")
        state = spec.new_state(header["players"], g["seed"], values)
        for step, action in enumerate(g["actions"]):
            if not is_integer(action):
                raise InvalidStateError(f"{where}, step {step + 1}: action {action!r} is not an integer action id")
            if state.is_terminal() or not state.is_legal(action):
                raise InvalidStateError(f"{where}, step {step + 1}: action {action} is not legal here")
            state.apply(action)
        if not state.is_terminal():
            raise InvalidStateError(f"{where}: the recorded actions do not finish the game")
        scores = [float(x) for x in state.scores()]
        if scores != g["scores"] or list(state.winners()) != g["winners"]:
            raise InvalidStateError(f"{where}: replay gives scores {scores} winners {list(state.winners())}, "
                                    f"file says {g['scores']} {g['winners']}")
        summaries.append({"game": spec.name, "seed": g["seed"], "bots": g["seats"], "scores": scores,
                          "winners": list(state.winners()), "actions": len(g["actions"])})
    return summaries
