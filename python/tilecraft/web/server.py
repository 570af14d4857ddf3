"""The local play-in-the-browser server: games, their bots, and the HTTP answers to the page.

One person plays one seat of a game against bots; several games can run at once, each with its
own id. Bots think on a pool of worker threads sized to the machine (never on the thread that
answers requests), each move on a copy of the state; the page polls the game and shows who is
thinking and for how long. A move request names the action and the game's version (how many
actions were applied when the page drew it); an action that is not legal now, a stale version or a
seat that is not the person's is rejected with HTTP 4xx and a message, and the game is left as it
was. Listens on 127.0.0.1 unless told otherwise.

The HTTP server underneath is uvicorn (the optional extra ``tilecraft[web]``; web/_http.py, loaded
by make_server): one event loop answers every connection, and each request must arrive whole
within REQUEST_DEADLINE seconds. This module needs only the standard library, so games and the
lobby can be used (and tested) without it.

Safe to leave running (docs/pictures.md, "What the server accepts and refuses"): only this
server's Host and Origin, JSON for every POST, only the listed bot strings, no file or data
option from the network, a JSON 4xx for every malformed request, finished and abandoned games
evicted, and stop() / Ctrl-C ends the bots' searches under way (tilecraft/_stop.py)."""
from __future__ import annotations

import json
import math
import os
import re
import secrets
import socket
import threading
import time
import traceback
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, List, Optional, Sequence, Tuple

from .._core import CHANCE
from .._stop import Stopped, stop_when
from ..agents.bots import make_bot
from ..games import GameSpec, UnknownGameError, game_spec, list_games
from ..match import MatchResult, bot_name, write_replay
from ..runner import Table
from ..render import move_text, svg

if TYPE_CHECKING:
    from ._http import PlayServer

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_BODY = 64 * 1024  # bytes of a request body
MAX_DEPTH = 16  # nesting of a request body's JSON (the requests use 3 at most)
MAX_GAMES = 256  # games held, finished ones included
KEEP_FINISHED = 600.0  # seconds a finished game stays (to be looked at, its replay saved)
IDLE_LIMIT = 300.0  # seconds without a request after which an unfinished game may make room for a new one
REQUEST_DEADLINE = 30.0  # seconds a client has to send a whole request (from its first byte, or the connection)
# The bots a request may name, exactly these strings: each one's work per move is bounded (a fixed
# number of iterations: about 2 s a move at most on a slow machine). MCTS_ITERATIONS gives the
# MCTS levels per game: a stronger one where the game's moves are cheap (Azul, Gaudí).
MCTS_ITERATIONS: Dict[str, Tuple[int, ...]] = {"azul": (200, 1000, 4000, 10000), "gaudi": (200, 1000, 4000, 10000)}
ISMCTS_ITERATIONS = (500, 2000)


BASELINE_BOTS = ("baseline-policy", "baseline:simulations=200")  # one network call a move; 200 simulations


def default_bots(game: str) -> Tuple[str, ...]:
    """The bots the server offers for ``game``: random, greedy, then MCTS and ISMCTS levels, and the
    trained baseline (its policy alone, and PUCT with it) where one is shipped for the game."""
    from ..agents import baselines

    trained = BASELINE_BOTS if any(a["game"] == game for a in baselines.available()) else ()
    return (("random", "greedy") + tuple(f"mcts:iterations={n}" for n in MCTS_ITERATIONS.get(game, (200, 1000, 4000)))
            + tuple(f"ismcts:iterations={n}" for n in ISMCTS_ITERATIONS) + trained)


def bot_workers() -> int:
    """The bot threads of a server: one per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def network_option(o: Any) -> bool:
    """Whether a rule option may come from the network: only those whose values are a fixed set of
    choices or an integer. The others (Castle's board and tiles, Warsaw's and Gaudí's data) take a
    path or a document, which would make the server read its disk for the caller."""
    return o.choices is not None or o.kind is int


class ListenError(OSError):
    """The server cannot listen on the address asked for (in use, no such host, a bad port)."""


class RequestError(Exception):
    """A client mistake: answered with ``status``, the message and ``headers``, nothing changed."""

    def __init__(self, status: int, message: str, headers: Optional[Dict[str, str]] = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers or {}


class Game:
    """One game on the server: the state, who plays each seat, the record of moves.

    Chance and bot seats are played on ``pool`` (the server's bot threads; without one, a thread of
    the game's own), one turn at a time: a turn plays the chance outcomes due, then one bot move,
    then queues the next turn if a bot is to act again. stop() sets the game's stop event: a search
    under way ends within about 50 ms (tilecraft/_stop.py) and its move is dropped, a turn still
    queued is cancelled, and nothing more is queued."""

    def __init__(self, gid: str, game: str, players: int, human: int, bots: List[Optional[str]], seed: int,
                 options: Dict[str, Any], clock: Callable[[], float] = time.monotonic,
                 pool: Optional[Executor] = None) -> None:
        spec = game_spec(game)
        self.id, self.spec, self.players, self.human, self.seed = gid, spec, players, human, seed
        self.options = spec.validate(players, options)
        self.state = spec.new_state(players, seed, self.options)
        self.bot_specs = bots
        # seats seeded and chance sampled as play_match does (tilecraft/runner.py), so a saved game replays
        self.table = Table(self.state, bots, seed, open_seats=(human,))  # listed specs: see Lobby.new
        self.bots: Dict[int, Any] = self.table.bots
        self.actions: List[int] = []
        self.actors: List[int] = []
        self.seconds: List[float] = []
        self.log: List[str] = []
        self.lock = threading.RLock()
        self.thinking: Optional[Tuple[int, float]] = None  # (seat, start time)
        self.error: Optional[str] = None
        self.created = time.time()
        self.clock = clock
        self.finished_at: Optional[float] = None  # clock() when the game ended (or a bot failed)
        self.touched = clock()  # clock() at the page's last request for this game (Lobby.get)
        self._stop = threading.Event()  # set by request_stop(): ends the search under way, queues nothing more
        self._own_pool = pool is None
        self._pool: Executor = pool or ThreadPoolExecutor(1, thread_name_prefix=f"tilecraft-game-{gid}")
        self._turn: Optional[Future] = None  # the bot turn queued or under way
        self._svg: Tuple[int, str] = (-1, "")  # the picture of version k, drawn once
        with self.lock:
            self._queue_turn()

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    @property
    def busy(self) -> bool:
        """Whether a bot turn is queued or under way."""
        with self.lock:
            return self._turn is not None

    def _fail(self, message: str) -> None:  # under the lock: the game cannot go on
        self.error = message
        self.thinking = None
        self.finished_at = self.clock()

    def _apply(self, action: int, seat: int, spent: float) -> None:
        who = "chance" if seat == CHANCE else f"seat {seat}"
        self.log.append(f"{who}: {move_text(self.state, action)}")
        self.state.apply(action)
        self.actions.append(action)
        self.actors.append(seat)
        self.seconds.append(spent)
        if self.state.is_terminal():
            self.finished_at = self.clock()

    def _queue_turn(self) -> None:
        """Under the lock: queues a turn of the bots when one is due and none is queued."""
        if (self._turn is not None or self.stopped or self.error is not None or self.state.is_terminal()
                or self.state.current_player() == self.human):
            return
        try:
            self._turn = self._pool.submit(self._play_turn)
        except RuntimeError:  # the pool is shut down: the server is closing
            self._stop.set()

    def _play_turn(self) -> None:
        """On a bot thread: the chance outcomes due, then one bot move; queues the next turn."""
        with self.lock:
            while not self.stopped and self.state.current_player() == CHANCE:
                self._apply(int(self.table.sample_chance()), CHANCE, 0.0)
            seat = self.state.current_player()
            if self.stopped or self.state.is_terminal() or seat == self.human:
                self._turn = None
                return
            view = self.state.clone()
            self.thinking = (seat, time.time())
        start = time.perf_counter()
        try:
            with stop_when(self._stop):  # request_stop() ends the search under way within ~50 ms
                action = int(self.bots[seat].act(view))
        except Exception as e:  # Stopped, or a bot failing: it stops the game with a message, never the server
            with self.lock:
                self.thinking, self._turn = None, None
                if not self.stopped and not isinstance(e, Stopped):
                    self._fail(f"bot of seat {seat} failed: {type(e).__name__}: {e}")
            return
        spent = time.perf_counter() - start
        with self.lock:
            self.thinking, self._turn = None, None
            if self.stopped:  # stopped as the search ended: the move is dropped
                return
            try:
                self._apply(action, seat, spent)
            except ValueError as e:
                self._fail(f"bot of seat {seat} chose an illegal move: {e}")
                return
            self._queue_turn()

    def request_stop(self) -> None:
        """Stops the search under way (see tilecraft/_stop.py), cancels a queued turn, queues no more."""
        self._stop.set()
        with self.lock:
            turn = self._turn
        if turn is not None and turn.cancel():
            with self.lock:
                self._turn = None

    def stop(self, timeout: float = 5.0) -> None:
        """request_stop(), then waits for the turn under way (a search stops within about 50 ms)."""
        self.request_stop()
        with self.lock:
            turn = self._turn
        if turn is not None:
            wait_futures([turn], timeout)
        if self._own_pool:
            self._pool.shutdown(wait=False)

    def move(self, action: Any, version: Any) -> Dict[str, Any]:
        """The person's move; returns the view right after it (before any bot replies). Raises
        RequestError and leaves the game unchanged when it cannot be played."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise RequestError(400, f"'action' must be an integer action id, got {action!r}")
        if isinstance(version, bool) or not isinstance(version, int):
            raise RequestError(400, "'version' must be the game's version the move was chosen at")
        with self.lock:
            if self.state.is_terminal():
                raise RequestError(409, "the game is over")
            if version != self.version:
                raise RequestError(409, f"stale move: the game is at version {self.version}, the request was "
                                        f"made at {version}; reload the position")
            if self.state.current_player() != self.human:
                raise RequestError(409, f"not your turn: seat {self.state.current_player()} is to act")
            legal = set(int(a) for a in self.state.legal_actions())
            if action not in legal:
                raise RequestError(400, f"action {action} is not a legal move now")
            self._apply(action, self.human, 0.0)
            view = self.view()
            self._queue_turn()
        return view

    def _picture(self) -> str:  # under the lock
        if self._svg[0] != self.version:
            self._svg = (self.version, svg(self.state, self.human))
        return self._svg[1]

    def view(self) -> Dict[str, Any]:
        with self.lock:
            s = self.state
            terminal = s.is_terminal()
            to_move = s.current_player()
            legal: List[Dict[str, Any]] = []
            if not terminal and to_move == self.human:
                legal = [{"action": int(a), "name": s.action_to_string(int(a))} for a in s.legal_actions()]
            thinking = None
            if self.thinking is not None:
                thinking = {"seat": self.thinking[0], "seconds": round(time.time() - self.thinking[1], 1),
                            "bot": self.bot_specs[self.thinking[0]]}
            if terminal:
                w = [int(x) for x in s.winners()]
                names = ["you" if p == self.human else f"seat {p}" for p in w]
                status = "game over: " + (f"{names[0]} win{'' if w == [self.human] else 's'}" if len(w) == 1 else
                                          f"{', '.join(names[:-1])} and {names[-1]} share the win")
            elif to_move == self.human:
                status = "your move"
            elif to_move == CHANCE:
                status = "chance"
            else:
                status = f"seat {to_move} ({self.bot_specs[to_move]}) is thinking"
            return {
                "id": self.id, "game": self.spec.name, "title": self.spec.title, "players": self.players,
                "seat": self.human,
                "bots": [None if p == self.human else self.bot_specs[p] for p in range(self.players)],
                "version": self.version, "to_move": int(to_move), "terminal": terminal, "status": status,
                "winners": [int(x) for x in s.winners()] if terminal else None,
                "scores": [float(x) for x in s.scores()], "legal": legal, "thinking": thinking,
                "svg": self._picture(), "log": self.log[-30:], "error": self.error,
                "bot_seconds": [round(sum(t for a, t in zip(self.actors, self.seconds) if a == p), 2)
                                for p in range(self.players)],
            }

    def replay_text(self) -> str:
        with self.lock:
            s = self.state
            if not s.is_terminal():
                raise RequestError(409, "the game is not finished yet; a replay is saved at the end")
            names = [("human" if p == self.human else bot_name(self.bots[p])) for p in range(self.players)]
            result = MatchResult(
                game=self.spec.name, players=self.players, seed=self.seed, options=dict(self.options), bots=names,
                scores=[float(x) for x in s.scores()], returns=[float(x) for x in s.returns()],
                winners=list(s.winners()), actions=list(self.actions), actors=list(self.actors),
                move_seconds=list(self.seconds))

        class _Buf:
            text = ""

            def write(self, t: str) -> None:
                self.text += t

        buf = _Buf()
        write_replay(result, buf)  # type: ignore[arg-type]
        return buf.text


class Lobby:
    """The games on this server and the bot threads they share. ``bots``: the bot specs a request
    may name, the same for every game (default: each game's ladder, default_bots); ``clock``: the
    time source of eviction; ``max_games``: games held at once; ``idle_limit``: seconds without a
    request after which an unfinished game may be closed to make room (IDLE_LIMIT)."""

    def __init__(self, bots: Optional[Sequence[str]] = None, clock: Callable[[], float] = time.monotonic,
                 max_games: int = MAX_GAMES, idle_limit: float = IDLE_LIMIT) -> None:
        self.games: Dict[str, Game] = {}
        self.lock = threading.Lock()
        self.clock = clock
        self.max_games = max_games
        self.idle_limit = idle_limit
        self._bots = None if bots is None else tuple(bots)
        for spec in self._bots or ():
            make_bot(spec)  # a bad list fails here, at start, not at a player's request
        self.pool = ThreadPoolExecutor(bot_workers(), thread_name_prefix="tilecraft-bots")

    def bots(self, game: str) -> Tuple[str, ...]:
        """The exact bot specs a new game of ``game`` accepts."""
        return default_bots(game) if self._bots is None else self._bots

    def catalogue(self) -> Dict[str, Any]:
        games = []
        names = list_games()
        for name in names:
            spec = game_spec(name)
            games.append({"name": name, "title": spec.title, "players": list(spec.players),
                          "bots": list(self.bots(name)),
                          "options": [o.name for o in spec.options if network_option(o)]})
        # "bots": the specs every game accepts (the page's one list); each game lists its own
        first = self.bots(names[0]) if names else ()
        return {"games": games, "bots": [b for b in first if all(b in self.bots(n) for n in names)]}

    def _check_bot(self, game: str, spec: Any) -> str:
        allowed = self.bots(game)
        if not isinstance(spec, str) or spec not in allowed:  # never an import path or options from the network
            raise RequestError(400, f"{game}: bot {spec!r} is not offered; the bots are exactly: {', '.join(allowed)}")
        return spec

    @staticmethod
    def _check_options(spec: GameSpec, options: Any) -> Dict[str, Any]:
        if not isinstance(options, dict):
            raise RequestError(400, "'options' must be an object of rule options")
        allowed = [o.name for o in spec.options if network_option(o)]
        for name in options:
            if name not in allowed and name in {o.name for o in spec.options}:
                # the same answer whatever the value: nothing is read, so nothing is revealed
                raise RequestError(400, f"{spec.name}: option {name!r} takes a file or data and is not accepted "
                                        f"over the network; the options here are: {', '.join(allowed) or '(none)'}")
        return options  # unknown names and bad values: GameSpec.validate, in Game

    def new(self, body: Dict[str, Any]) -> Game:
        name = body.get("game")
        try:
            spec = game_spec(name)  # type: ignore[arg-type]
        except UnknownGameError as e:
            raise RequestError(404, str(e)) from None
        players = body.get("players", spec.players[0])
        if isinstance(players, bool) or not isinstance(players, int) or players not in spec.players:
            raise RequestError(400, f"{spec.name}: players must be one of {', '.join(map(str, spec.players))}, "
                                    f"got {players!r}")
        seat = body.get("seat", 0)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise RequestError(400, f"seat must be 0..{players - 1}, got {seat!r}")
        bots = body.get("bots", ["random"] * players)
        if not isinstance(bots, list) or len(bots) != players:
            raise RequestError(400, f"'bots' must list one bot per seat ({players}); the person's seat is ignored")
        checked = [None if p == seat else self._check_bot(spec.name, b) for p, b in enumerate(bots)]
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RequestError(400, f"seed must be an integer, got {seed!r}")
        options = self._check_options(spec, body.get("options", {}))
        with self.lock:
            evicted, wait = self._evict(room_for_one=True)
            try:
                if wait > 0:
                    retry = max(1, math.ceil(wait))
                    raise RequestError(429, f"{len(self.games)} unfinished games are held, the most this server keeps, "
                                            f"and each had a request in the last {self.idle_limit:g} s; the one "
                                            f"left longest makes room in {retry} s: retry then",
                                       {"Retry-After": str(retry)})
                gid = secrets.token_hex(6)
                try:
                    game = Game(gid, spec.name, players, seat, checked, seed, options, self.clock, self.pool)
                except (ValueError, TypeError) as e:
                    raise RequestError(400, str(e)) from None
                self.games[gid] = game
            finally:
                for g in evicted:
                    g.request_stop()
        return game

    def _evict(self, room_for_one: bool = False) -> Tuple[List[Game], float]:
        """Under the lock: drops the games that finished KEEP_FINISHED seconds ago or more and, to
        make room for one more game when max_games are held, the one that finished first or else
        the unfinished one left longest, once it has had no request for idle_limit seconds. Returns
        the dropped games (to be stopped) and, when no room could be made, the seconds until there
        is (else 0)."""
        now = self.clock()
        finished = sorted((g for g in self.games.values() if g.finished_at is not None),
                          key=lambda g: g.finished_at or 0.0)
        gone = [g for g in finished if now - (g.finished_at or 0.0) >= KEEP_FINISHED]
        for g in gone:
            del self.games[g.id]
        if room_for_one and self.games and len(self.games) >= self.max_games:
            if len(finished) > len(gone):
                oldest = finished[len(gone)]
            else:  # all unfinished: the one left longest, if it has been left long enough
                oldest = min(self.games.values(), key=lambda g: g.touched)
                if now - oldest.touched < self.idle_limit:
                    return gone, self.idle_limit - (now - oldest.touched)
            del self.games[oldest.id]
            gone.append(oldest)
        return gone, 0.0

    def get(self, gid: str) -> Game:
        """The game ``gid`` (a request for it: it is not idle now)."""
        with self.lock:
            evicted, _ = self._evict()
            game = self.games.get(gid)
            if game is not None:
                game.touched = self.clock()
            for g in evicted:
                g.request_stop()
        if game is None:
            raise RequestError(404, f"no game {gid!r} on this server (a finished game is kept "
                                    f"{KEEP_FINISHED / 60:g} minutes; an unfinished one without a request "
                                    f"for {self.idle_limit / 60:g} minutes may make room for a new game)")
        return game

    def close(self) -> None:
        """Stops every game's bots (and the search under way), waits for them, ends the bot threads."""
        with self.lock:
            games = list(self.games.values())
        for g in games:  # ask all first: the searches stop in parallel
            g.request_stop()
        for g in games:
            g.stop()
        self.pool.shutdown(wait=False, cancel_futures=True)


_CONTENT_LENGTH = re.compile(r"[0-9]{1,12}")
# What GET answers with a file: path -> (file in static/, Content-Type, Cache-Control)
STATIC_FILES = {
    "": ("index.html", "text/html; charset=utf-8", "no-store"),
    "index.html": ("index.html", "text/html; charset=utf-8", "no-store"),
    "favicon.ico": ("favicon.ico", "image/x-icon", "max-age=86400"),
}

Headers = List[Tuple[bytes, bytes]]


def _json_depth(raw: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def answer_headers(ctype: str, body: bytes, extra: Optional[Dict[str, str]] = None,
                   cache: str = "no-store") -> Headers:
    """The headers of every answer: its type and length, never cached (but the icon), never sniffed."""
    pairs = {"Content-Type": ctype, "Content-Length": str(len(body)), "Cache-Control": cache,
             "X-Content-Type-Options": "nosniff", **(extra or {})}
    return [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in pairs.items()]


def error_answer(status: int, message: str, extra: Optional[Dict[str, str]] = None) -> Tuple[Headers, bytes]:
    """A refusal: ``{"error": message}`` as JSON, with its headers. The HTTP layer answers with it too
    (a malformed request, a request not sent in time), so that every refusal reads the same."""
    body = json.dumps({"error": message}).encode("utf-8")
    return answer_headers("application/json; charset=utf-8", body, extra), body


class _Gone(Exception):
    """The client closed the connection: nothing to answer."""


Receive = Callable[[], Awaitable[Dict[str, Any]]]
Send = Callable[[Dict[str, Any]], Awaitable[None]]


class App:
    """The server's answers, as an ASGI application. Before anything else: the Host header must
    name this server (DNS rebinding), an Origin must be this server's, and a POST must carry JSON
    (no "simple" cross-site form or text/plain request gets through). Every answer, errors
    included, is JSON (or the page, the icon or a replay download)."""

    def __init__(self, lobby: Lobby, hosts: Sequence[str] = ()) -> None:
        self.lobby = lobby
        self.hosts = set(hosts)  # the Host header values accepted (lower case); make_server adds the port's
        self._files: Dict[str, bytes] = {}

    async def __call__(self, scope: Dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan and websockets are off
            return
        request = _Request(scope, receive)
        try:
            try:
                status, headers, body = await self._route(request)
            except RequestError as e:
                status, (headers, body) = e.status, error_answer(
                    e.status, str(e), {"Allow": "GET, HEAD, POST", **e.headers} if e.status == 405 else e.headers)
                if not await request.drain():  # a body too long to read: the connection ends with the answer
                    headers.append((b"connection", b"close"))
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
        except _Gone:  # the client left: nothing to answer, nothing to report
            pass
        except Exception as e:  # never a traceback page: a short message, the details on the console
            traceback.print_exc()
            headers, body = error_answer(500, f"internal error: {type(e).__name__}: {e}")
            await send({"type": "http.response.start", "status": 500, "headers": headers})
            await send({"type": "http.response.body", "body": body})

    def _check_origin(self, request: _Request) -> None:
        host = request.header("host").strip().lower()
        if host not in self.hosts:
            raise RequestError(403, f"Host {host or '(none)'!r} is not this server; use one of "
                                    f"{', '.join(sorted(self.hosts))}")
        origin = request.header("origin", None)
        if origin is not None and origin.strip().lower() != "http://" + host:
            raise RequestError(403, f"cross-origin request refused: Origin {origin!r} is not http://{host}")

    def _file(self, name: str) -> bytes:
        if name not in self._files:
            with open(os.path.join(STATIC, name), "rb") as f:
                self._files[name] = f.read()
        return self._files[name]

    async def _route(self, request: _Request) -> Tuple[int, Headers, bytes]:
        if request.version not in ("1.0", "1.1"):
            raise RequestError(505, f"HTTP/{request.version} is not served; send HTTP/1.1")
        self._check_origin(request)
        method = request.method
        if method not in ("GET", "POST"):
            raise RequestError(405, f"method {method} is not allowed; the server answers GET and POST")
        path = request.path
        parts = [p for p in path.split("/") if p]
        lobby = self.lobby
        if method == "GET" and "/".join(parts) in STATIC_FILES:
            name, ctype, cache = STATIC_FILES["/".join(parts)]
            page = self._file(name)
            return 200, answer_headers(ctype, page, cache=cache), page
        if parts[:1] != ["api"]:
            raise RequestError(404 if method == "GET" else 405, f"no page {path}")
        rest = parts[1:]
        if method == "GET" and rest == ["games"]:
            return _json(200, lobby.catalogue())
        if method == "POST" and rest == ["new"]:
            return _json(201, lobby.new(await request.json()).view())
        if method == "GET" and len(rest) == 2 and rest[0] == "game":
            return _json(200, lobby.get(rest[1]).view())
        if method == "POST" and len(rest) == 3 and rest[0] == "game" and rest[2] == "move":
            body = await request.json()
            game = lobby.get(rest[1])
            return _json(200, game.move(body.get("action"), body.get("version")))
        if method == "GET" and len(rest) == 3 and rest[0] == "game" and rest[2] == "replay":
            game = lobby.get(rest[1])
            text = game.replay_text().encode("utf-8")
            name = f"tilecraft-{game.spec.name}-{game.id}.jsonl"
            return 200, answer_headers("application/x-ndjson; charset=utf-8", text,
                                       {"Content-Disposition": f'attachment; filename="{name}"'}), text
        raise RequestError(404 if method == "GET" else 405, f"no such request: {method} {path}")


def _json(status: int, data: Any) -> Tuple[int, Headers, bytes]:
    body = json.dumps(data).encode("utf-8")
    return status, answer_headers("application/json; charset=utf-8", body), body


class _Request:
    """One request as the app reads it: method (HEAD read as GET), path, headers, and the body."""

    def __init__(self, scope: Dict[str, Any], receive: Receive) -> None:
        self.method = "GET" if scope["method"] == "HEAD" else scope["method"]
        self.version = scope["http_version"]
        self.path = scope["raw_path"].decode("latin-1")  # as sent (not percent-decoded)
        self._headers: Dict[str, str] = {}
        for k, v in scope["headers"]:
            self._headers.setdefault(k.decode("latin-1").lower(), v.decode("latin-1"))
        self._receive = receive
        self._body_done = False

    def header(self, name: str, default: Any = "") -> Any:
        return self._headers.get(name, default)

    async def _read(self, limit: int) -> Optional[bytes]:
        """The body, or None when it is longer than ``limit`` bytes (then read no further)."""
        chunks: List[bytes] = []
        size = 0
        while not self._body_done:
            message = await self._receive()
            if message["type"] == "http.disconnect":
                raise _Gone()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return None
            chunks.append(chunk)
            self._body_done = not message.get("more_body", False)
        return b"".join(chunks)

    async def drain(self) -> bool:
        """Reads and drops a body left unread before an error answer (at most 16 times the limit):
        a socket closed with unread data is reset, and the client could lose the answer. False when
        the body was longer: the connection is then closed after the answer."""
        return await self._read(16 * MAX_BODY) is not None

    async def json(self) -> Dict[str, Any]:
        ctype = self.header("content-type").split(";", 1)[0].strip().lower()
        if ctype != "application/json":
            raise RequestError(403, f"a request that changes state must be sent as Content-Type application/json, "
                                    f"got {self.header('content-type') or '(none)'!r}")
        if self.header("transfer-encoding"):
            raise RequestError(400, "chunked request bodies are not accepted; send Content-Length")
        text = self.header("content-length", "0").strip()
        if not _CONTENT_LENGTH.fullmatch(text):  # the HTTP layer refuses most of these first
            raise RequestError(400, f"bad Content-Length {text!r}: it must be a byte count 0..{MAX_BODY}")
        length = int(text)
        if length > MAX_BODY:
            raise RequestError(413, f"request body too large: {length} bytes, at most {MAX_BODY}")
        raw = await self._read(MAX_BODY) or b""
        try:
            source = raw.decode("utf-8") or "{}"
        except UnicodeDecodeError:
            raise RequestError(400, "the request body must be a JSON object (UTF-8)") from None
        if _json_depth(source) > MAX_DEPTH:
            raise RequestError(400, f"the request body is nested deeper than {MAX_DEPTH} levels")
        try:
            data = json.loads(source)
        except (json.JSONDecodeError, RecursionError, ValueError):
            raise RequestError(400, "the request body must be a JSON object") from None
        if not isinstance(data, dict):
            raise RequestError(400, "the request body must be a JSON object")
        return data


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port); OSError (or OverflowError for a port outside 0..65535) when it
    cannot be. Bound here, before any serving, so that an address in use is one clear error."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
    except BaseException:
        sock.close()
        raise
    return sock


def make_server(host: str = "127.0.0.1", port: int = 8765, *, bots: Optional[Sequence[str]] = None,
                clock: Callable[[], float] = time.monotonic, max_games: int = MAX_GAMES,
                idle_limit: float = IDLE_LIMIT) -> "PlayServer":
    """A server (not yet serving) with its own lobby; port 0 picks a free port. It has
    ``server_address``, ``serve_forever()``, ``shutdown()`` (from another thread: stops serving) and
    ``server_close()`` (stops the games' bots), like the standard library's servers. ``bots``: the
    exact bot specs requests may name, for every game (default: each game's ladder, default_bots);
    ``clock``: the time source for evicting games (seconds); ``max_games`` and ``idle_limit``: see
    Lobby. Raises ImportError naming the extra when uvicorn is missing, OSError (or OverflowError for
    a port outside 0..65535) when it cannot listen there."""
    try:
        from ._http import PlayServer
    except ImportError as e:
        raise ImportError(f"the play server needs {e.name or 'uvicorn'}: pip install 'tilecraft[web]'") from None
    sock = _listen(host, port)
    bound = sock.getsockname()[1]
    app = App(Lobby(bots, clock, max_games, idle_limit),
              [_host_port(n, bound) for n in ("127.0.0.1", "localhost", "::1", host.lower().strip("[]"))])
    return PlayServer(sock, app, app.lobby, error_answer, REQUEST_DEADLINE)


def serve(host: str = "127.0.0.1", port: int = 8765, open_browser: bool = False, *,
          bots: Optional[Sequence[str]] = None, idle_limit: float = IDLE_LIMIT) -> None:
    """Serves until Ctrl-C, which stops the bots' searches and returns within a second. Raises
    ListenError (an OSError) naming the address when it cannot listen there, ImportError naming the
    extra to install when uvicorn is missing."""
    try:
        server = make_server(host, port, bots=bots, idle_limit=idle_limit)
    except (OSError, OverflowError) as e:  # OverflowError: a port outside 0..65535
        raise ListenError(f"cannot listen on {_host_port(host, port)}: {e}") from None
    url = f"http://{_host_port(host, server.server_address[1])}/"
    print(f"tilecraft: serving on {url} (Ctrl-C stops)", flush=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print("tilecraft: warning: listening beyond this machine; anyone who can reach it can play", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print()
    finally:
        server.server_close()
