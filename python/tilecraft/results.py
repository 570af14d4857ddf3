"""Tournament results files (JSON lines): reading them back, checked. The header record names
the tournament and so its schedule (the games, in order, with their seeds and seating); every game
record after it must be one of those games. Written by tilecraft.tournament, read by it (to resume)
and by tilecraft.match (to check and show a results file)."""
from __future__ import annotations

import itertools
import json
from typing import Any, Dict, List, Optional

from ._args import is_integer
from ._core import InvalidStateError


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


def _parse_lines(path: str) -> List[Any]:
    """(line number, parsed JSON or None when the line is not JSON) for each non-blank line."""
    out = []
    for number, line in enumerate(read_lines(path), 1):
        if not line.strip():
            continue
        try:
            out.append((number, json.loads(line)))
        except (json.JSONDecodeError, RecursionError):
            out.append((number, None))
    return out


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
    lines = _parse_lines(path)
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


def _public(header: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in header.items() if k != "plan"}


def _different(path: str, item: Dict[str, Any]) -> InvalidStateError:
    return InvalidStateError(f"{path} holds a different tournament ({item.get('game')}, bots {item.get('bots')}, "
                             f"{item.get('games_per_pairing')} games per pairing, seed {item.get('seed')}); use "
                             "another out= file to start a new one")


def load_results(path: str, header: Optional[Dict[str, Any]] = None) -> List[Dict[str, Any]]:
    """The finished games of a results file (first record of each id), each checked against the
    file's header and schedule (InvalidStateError, a ValueError, naming the file, line and field).
    With ``header``, checks the file belongs to that tournament. A last line that is not JSON (a
    killed writer) is ignored; one in the middle is an error."""
    lines = _parse_lines(path)
    if not lines:
        return []
    own = _checked_header(path, *lines[0])
    if header is not None and _public(own) != _public(header):
        raise _different(path, own)
    games: Dict[int, Dict[str, Any]] = {}
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
        games.setdefault(int(item["id"]), item)
    return [games[k] for k in sorted(games)]
