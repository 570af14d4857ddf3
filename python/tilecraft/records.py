"""The records module: both JSON-lines formats, written, read and checked in one place.

- **Replay files** (``tilecraft play/match --replay``): per game a header line, one line per action
  (seat, action id, its name, thinking time), a result line. :func:`write_replay`,
  :func:`read_replay`, :func:`check_replay`.
- **Tournament results files** (``tilecraft tournament --out``): a header record naming the
  tournament and so its schedule (the games, in order, with their seeds and seating), then one
  record per finished game, each of which must be one of those games. Written by
  tilecraft.tournament; :func:`read_header`, :func:`load_results` (also used to resume),
  :func:`read_tournament_games`, :func:`check_tournament_file`.

Both are read by one line reader (:func:`read_lines`: UTF-8, errors naming the file and line), and
both checkers re-run each game through one function (:func:`_rerun`), so a replay and a results file
fail the same way: ``FILE: game N, step K: ...`` / ``FILE: tournament game ID, step K: ...``. Both
writers repair a file whose end a stopped writer cut off before appending to it, in one way
(:func:`repair_tail`: the file as it was kept as ``FILE.bak``)."""
from __future__ import annotations

import itertools
import json
import os
import secrets
import sys
from typing import Any, Dict, IO, Iterator, List, Optional, Sequence, Tuple, Union

from ._args import is_integer
from ._core import InvalidStateError
from .games import game_spec


def read_lines(path: str) -> List[str]:
    """The lines of a UTF-8 text file (replay or tournament results), without their newlines. Text
    that is not UTF-8 raises InvalidStateError naming the file and line."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InvalidStateError(f"{path}:{line}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); "
                                "replay and results files are UTF-8 JSON lines") from None
    return text.split("\n")


def repair_tail(path: str, keep: int, why: str) -> None:
    """Before appending to a JSON-lines file (a replay or a tournament results file) whose end a
    stopped writer left damaged: keeps its first ``keep`` lines and drops the rest, so that new
    records do not follow a cut-off one. The file as it was is kept beside it (``PATH.bak``, else
    ``PATH.bak1``, ...: an earlier backup is never overwritten), the shortened file replaces it in one
    step, and stderr names the file, the first line dropped and ``why``. When only blank lines follow
    the kept ones, nothing is dropped: a last line without its newline gets one."""
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    rest = lines[keep:]
    if not b"".join(rest).strip():
        if data and not data.endswith(b"\n"):
            with open(path, "ab") as f:
                f.write(b"\n")
        return
    first = keep + 1 + next(i for i, line in enumerate(rest) if line.strip())
    backup, k = path + ".bak", 1
    while os.path.exists(backup):  # never overwrite an earlier backup
        backup, k = f"{path}.bak{k}", k + 1
    with open(backup, "wb") as f:
        f.write(data)
    tmp = f"{path}.tmp-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        with open(tmp, "wb") as f:
            f.write(b"".join(line + b"\n" for line in lines[:keep]))
        os.replace(tmp, path)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
    print(f"tilecraft: {path}:{first}: {why} (the file as it was: {backup})", file=sys.stderr)


def schedule(n_bots: int, players: int, games_per_pairing: int, seats: str = "rotate",
             seed: int = 0) -> List[Dict[str, Any]]:
    """The games of a tournament, in a fixed order: dicts with id, seed and seats (bot indices)."""
    if seats not in ("rotate", "fixed"):
        raise ValueError(f"tournament: seats must be 'rotate' or 'fixed', got {seats!r}")
    if n_bots < players:
        raise ValueError(f"tournament: a {players}-player game needs at least {players} bots, got {n_bots} "
                         "(list a bot twice to seat it more than once)")
    if not is_integer(games_per_pairing) or games_per_pairing < 1:
        raise ValueError(f"tournament: games_per_pairing must be an integer >= 1, got {games_per_pairing!r}")
    games_per_pairing = int(games_per_pairing)
    jobs: List[Dict[str, Any]] = []
    for table in itertools.combinations(range(n_bots), players):
        for g in range(games_per_pairing):
            shift = g % players if seats == "rotate" else 0
            order = list(table[shift:] + table[:shift])
            deal = g // players if seats == "rotate" else g
            jobs.append(dict(id=len(jobs), seed=(seed + deal) & (2**63 - 1), seats=order))
    return jobs


HEADER_FIELDS = ("game", "players", "options", "bots", "games_per_pairing", "seats", "seed")


def _json_lines(path: str) -> List[Tuple[int, Any, Optional[str]]]:
    """(line number, parsed JSON, None) for each non-blank line of a JSON-lines file, or (line
    number, None, why) for a line that is not JSON."""
    out: List[Tuple[int, Any, Optional[str]]] = []
    for number, line in enumerate(read_lines(path), 1):
        if not line.strip():
            continue
        try:
            out.append((number, json.loads(line), None))
        except (json.JSONDecodeError, RecursionError) as e:
            out.append((number, None, str(e)))
    return out


def parse_lines(path: str) -> List[Any]:
    """(line number, parsed JSON or None when the line is not JSON) for each non-blank line."""
    return [(number, item) for number, item, _ in _json_lines(path)]


def _checked_header(path: str, number: int, item: Any) -> Dict[str, Any]:
    where = f"{path}:{number}"
    if not isinstance(item, dict) or item.get("type") != "header":
        raise InvalidStateError(f"{where}: a tournament results file starts with its header record "
                                "({\"type\": \"header\", ...}, written by tilecraft tournament)")
    for key in HEADER_FIELDS:
        if key not in item:
            raise InvalidStateError(f"{where}: the tournament header has no {key!r} field")
    bots = item["bots"]
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots) or len(set(bots)) != len(bots):
        raise InvalidStateError(f"{where}: header field 'bots' must be a list of distinct bot names, got {bots!r}")
    for key in ("players", "games_per_pairing", "seed"):
        if not is_integer(item[key]):
            raise InvalidStateError(f"{where}: header field {key!r} must be an integer, got {item[key]!r}")
    if not isinstance(item["options"], dict):
        raise InvalidStateError(f"{where}: header field 'options' must be an object, got {item['options']!r}")
    try:
        plan = schedule(len(bots), int(item["players"]), item["games_per_pairing"], item["seats"], int(item["seed"]))
    except ValueError as e:
        raise InvalidStateError(f"{where}: the header does not describe a tournament: {e}") from None
    return dict(item, plan=plan)


def read_header(path: str) -> Dict[str, Any]:
    """The header record of a results file, checked (InvalidStateError, a ValueError, naming the file
    and line otherwise), with its schedule under ``"plan"``."""
    lines = parse_lines(path)
    if not lines:
        raise InvalidStateError(f"{path}: the file is empty (no tournament header)")
    return _checked_header(path, *lines[0])


def _check_record(where: str, item: Dict[str, Any], header: Dict[str, Any]) -> None:
    """A game record must be a game of the header's schedule: its id, seed and seating, scores and
    winners for every seat. Errors name the file, line and field."""
    plan, bots, players = header["plan"], header["bots"], int(header["players"])
    if "id" not in item:
        raise InvalidStateError(f"{where}: the game record has no 'id' field (its game number, 0..{len(plan) - 1})")
    gid = item["id"]
    if not is_integer(gid):
        raise InvalidStateError(f"{where}: field 'id' must be an integer game number 0..{len(plan) - 1}, got {gid!r}")
    if not 0 <= gid < len(plan):
        raise InvalidStateError(f"{where}: field 'id' is {gid}, outside this tournament's schedule (game numbers "
                                f"0..{len(plan) - 1}: {header['games_per_pairing']} per pairing)")
    job = plan[int(gid)]
    seats = item.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        raise InvalidStateError(f"{where}: field 'seats' must list the {players} bot name(s) at the table, got {seats!r}")
    for name in seats:
        if name not in bots:
            raise InvalidStateError(f"{where}: field 'seats' names {name!r}, which is not a bot of this tournament "
                                    f"(the header lists {', '.join(bots)})")
    expected = [bots[i] for i in job["seats"]]
    if seats != expected:
        raise InvalidStateError(f"{where}: field 'seats' is {seats}, but game {gid} of this tournament seats {expected}")
    if item.get("seed") != job["seed"]:
        raise InvalidStateError(f"{where}: field 'seed' is {item.get('seed')!r}, but game {gid} of this tournament "
                                f"has seed {job['seed']}")
    for key in ("scores",) + (("returns",) if "returns" in item else ()):
        value = item.get(key)
        if (not isinstance(value, list) or len(value) != players
                or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value)):
            raise InvalidStateError(f"{where}: field {key!r} must list {players} number(s), got {value!r}")
    winners = item.get("winners")
    if (not isinstance(winners, list) or not winners
            or not all(is_integer(w) and 0 <= w < players for w in winners)):
        raise InvalidStateError(f"{where}: field 'winners' must list seats 0..{players - 1}, got {winners!r}")
    for key in ("seconds", "moves"):
        if key in item and (not isinstance(item[key], list) or len(item[key]) != players):
            raise InvalidStateError(f"{where}: field {key!r} must hold one value per seat, got {item[key]!r}")
    if "actions" in item and not isinstance(item["actions"], list):
        raise InvalidStateError(f"{where}: field 'actions' must be a list of action ids")


def public_header(header: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in header.items() if k != "plan"}


def different_header(path: str, item: Dict[str, Any]) -> InvalidStateError:
    return InvalidStateError(f"{path} holds a different tournament ({item.get('game')}, bots {item.get('bots')}, "
                             f"{item.get('games_per_pairing')} games per pairing, seed {item.get('seed')}); use "
                             "another out= file to start a new one")


def load_results(path: str, header: Optional[Dict[str, Any]] = None) -> List[Dict[str, Any]]:
    """The finished games of a results file (first record of each id), each checked against the
    file's header and schedule (InvalidStateError, a ValueError, naming the file, line and field).
    With ``header``, checks the file belongs to that tournament. A last line that is not JSON (a
    killed writer) is ignored; one in the middle is an error."""
    return [item for _, item in _numbered_results(path, header)]


def _numbered_results(path: str, header: Optional[Dict[str, Any]] = None) -> List[Tuple[int, Dict[str, Any]]]:
    """load_results' games with the line number of each record."""
    lines = parse_lines(path)
    if not lines:
        return []
    own = _checked_header(path, *lines[0])
    if header is not None and public_header(own) != public_header(header):
        raise different_header(path, own)
    games: Dict[int, Tuple[int, Dict[str, Any]]] = {}
    for index, (number, item) in enumerate(lines[1:], 1):
        where = f"{path}:{number}"
        if item is None:
            if index == len(lines) - 1:
                continue  # the last line was cut off mid-write
            raise InvalidStateError(f"{where}: not a JSON line")
        kind = item.get("type") if isinstance(item, dict) else None
        if kind != "game":
            raise InvalidStateError(f"{where}: unexpected record (type {kind!r}); after the header every line is a "
                                    "game record ({\"type\": \"game\", ...})")
        _check_record(where, item, own)
        games.setdefault(int(item["id"]), (number, item))
    return [games[k] for k in sorted(games)]


def write_replay(result: Any, dest: Union[str, IO[str]]) -> None:
    """Appends one game (a tilecraft.match.MatchResult) as JSON lines: a header, one line per
    action, a result line."""
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
        with open_replay(dest) as f:
            f.write(text)
    else:
        dest.write(text)


def open_replay(path: str) -> IO[str]:
    """A replay file opened for appending games, repaired first (:func:`repair_replay`)."""
    repair_replay(path)
    return open(path, "a", encoding="utf-8")


def repair_replay(path: str) -> None:
    """Before appending games to a replay file: a last game that a stopped writer cut off (no result
    line; its last line perhaps cut mid-line) is removed (:func:`repair_tail`, the file as it was
    kept as ``PATH.bak``), so that new games do not follow it. Any other damage is refused with the
    InvalidStateError that reading the file gives (naming the file and line), before anything is
    written. A missing or empty file, or one that is not a regular file, is left as it is."""
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return
    records = _json_lines(path)
    ends = [i + 1 for i, (_, item, _) in enumerate(records) if isinstance(item, dict) and item.get("type") == "result"]
    done = ends[-1] if ends else 0  # the records of the complete games
    if not _cut_off_game(records[done:]):
        list(_replay_games(path, records))  # raises, naming the line
    list(_replay_games(path, records[:done]))  # the complete games must read as a replay
    repair_tail(path, records[done - 1][0] if done else 0,
                "the last game has no result line (a writer stopped mid-game?); removed it")


def _cut_off_game(tail: List[Tuple[int, Any, Optional[str]]]) -> bool:
    """Whether the records after the last complete game are the start of one game: a header, then
    action lines, the last record perhaps cut mid-line (not JSON)."""
    for i, (_, item, bad) in enumerate(tail):
        kind = item.get("type") if isinstance(item, dict) else None
        if not (i == len(tail) - 1 if bad is not None else kind == ("header" if i == 0 else "action")):
            return False
    return True


def read_replay(path: str) -> Iterator[Dict[str, Any]]:
    """Yields the games of a replay file as dicts: header fields, 'actions' and 'result'."""
    records = _json_lines(path)
    if not records:
        raise InvalidStateError(f"{path}: the file is empty; a replay file holds JSON lines written by "
                                "'tilecraft play/match --replay' or 'tilecraft tournament --out'")
    yield from _replay_games(path, records)


def _replay_games(path: str, records: List[Tuple[int, Any, Optional[str]]]) -> Iterator[Dict[str, Any]]:
    """read_replay's games from the records of ``path`` (_json_lines)."""
    current: Optional[Dict[str, Any]] = None
    for number, item, bad in records:
        if bad is not None:
            _not_a_saved_state(path, read_lines(path))
            raise InvalidStateError(f"{path}:{number}: not JSON: {bad}") from None
        kind = item.get("type") if isinstance(item, dict) else None
        if kind == "header":
            if current is not None:
                raise InvalidStateError(f"{path}:{number}: a new game starts before the last one's result line")
            current = dict(item, actions=[], line=number, action_lines=[])
        elif kind == "action" and current is not None:
            current["actions"].append(item)
            current["action_lines"].append(number)
        elif kind == "result" and current is not None:
            current["result"] = item
            current["result_line"] = number
            yield current
            current = None
        else:
            _not_a_saved_state(path, read_lines(path))
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


def _rerun(path: str, game: str, state: Any, steps: Sequence[Dict[str, Any]], step_lines: Sequence[int],
           end_line: int, scores: Any, winners: Any, summary: Dict[str, Any],
           required: Sequence[str] = ("action",)) -> Dict[str, Any]:
    """Re-plays one recorded game on ``state`` (its start): each step is ``{"action": id}`` with,
    in a replay file, the ``"seat"`` that chose it and its ``"name"``, each checked when present.
    The game must then be over with the recorded ``scores`` and ``winners``. Returns ``summary``
    with the scores, winners and number of actions; raises InvalidStateError at the first
    disagreement, naming the file and line (``step_lines``: each step's; ``end_line``: the line
    with the result), the ``game`` and the step. Shared by both checkers."""
    where = f"{path}:{end_line}: {game}"
    for step, item in enumerate(steps, 1):
        at = f"{path}:{step_lines[step - 1]}: {game}, step {step}"
        for key in required:
            if key not in item:
                raise InvalidStateError(f"{at}: the action line has no {key!r} field")
        action = item["action"]
        if not is_integer(action):
            raise InvalidStateError(f"{at}: action {action!r} is not an integer action id")
        if state.is_terminal() or not state.is_legal(action):
            raise InvalidStateError(f"{at}: action {action} is not legal here")
        if "seat" in item and state.current_player() != item["seat"]:
            raise InvalidStateError(f"{at}: seat {item['seat']} recorded, but seat {state.current_player()} is to act")
        if "name" in item:
            name = state.action_to_string(action)
            if name != item["name"]:
                raise InvalidStateError(f"{at}: recorded {item['name']!r}, replayed {name!r}")
        state.apply(action)
    if not state.is_terminal():
        raise InvalidStateError(f"{where}: the recorded actions do not finish the game")
    final = [float(x) for x in state.scores()]
    if final != scores or list(state.winners()) != winners:
        raise InvalidStateError(f"{where}: replay gives scores {final} winners {list(state.winners())}, "
                                f"file says {scores} {winners}")
    return dict(summary, scores=final, winners=list(state.winners()), actions=len(steps))


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
                raise InvalidStateError(f"{path}:{g['result_line']}: game {index + 1}: the result line has no {key!r} field")
        spec = game_spec(g["game"])
        state = spec.new_state(g["players"], g["seed"], spec.validate(g["players"], g["options"]))
        summaries.append(_rerun(path, f"game {index + 1}", state, g["actions"], g["action_lines"], g["result_line"],
                                g["result"]["scores"], g["result"]["winners"],
                                dict(game=g["game"], seed=g["seed"], bots=g["bots"]), required=("seat", "action")))
    return summaries


def is_tournament_file(path: str) -> bool:
    """True when the first record of a JSON-lines file is a tournament header (tilecraft.tournament)."""
    records = _json_lines(path)
    item = records[0][1] if records else None
    return isinstance(item, dict) and item.get("type") == "header" and "games_per_pairing" in item


def read_tournament_games(path: str) -> Iterator[Dict[str, Any]]:
    """Yields the finished games of a tournament results file in the shape read_replay gives
    (header fields, 'id', 'actions' as {'action': id} items, 'result'), by id; the records are
    read by load_results."""
    header = read_header(path)
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
        games = _numbered_results(path)
    except InvalidStateError:
        raise
    except ValueError as e:
        raise InvalidStateError(str(e)) from None
    for number, g in games:
        where = f"{path}:{number}: tournament game {g.get('id')}"
        for key in ("seed", "actions", "scores", "winners", "seats"):
            if key not in g:
                raise InvalidStateError(f"{where}: the record has no {key!r} field")
        state = spec.new_state(header["players"], g["seed"], values)
        summaries.append(_rerun(path, f"tournament game {g.get('id')}", state, [{"action": a} for a in g["actions"]],
                                [number] * len(g["actions"]), number, g["scores"], g["winners"],
                                dict(game=spec.name, seed=g["seed"], bots=g["seats"])))
    return summaries
