"""The local play-in-the-browser server (standard library only).

One person plays one seat of a game against bots; several games can run at once, each with its
own id. Bots think in a background thread on a copy of the state; the page polls the game and
shows who is thinking and for how long. A move request names the action and the game's version
(how many actions were applied when the page drew it); an action that is not legal now, a stale
version or a seat that is not the person's is rejected with HTTP 4xx and a message, and the game
is left as it was. Listens on 127.0.0.1 unless told otherwise.

Safe to leave running (docs/pictures.md, "What the server accepts and refuses"): only this
server's Host and Origin, JSON for every POST, only the listed bot strings, no file or data
option from the network, a JSON 4xx for every malformed request, finished games evicted, and
stop() / Ctrl-C ends the bots' searches under way (tilecraft/_stop.py)."""
from __future__ import annotations

import json
import os
import re
import secrets
import socket
import threading
import time
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple
from urllib.parse import urlparse

from .._core import CHANCE
from .._stop import Stopped, stop_when
from ..bots import make_bot
from ..games import GameSpec, UnknownGameError, game_spec, list_games
from ..match import MatchResult, _bot_name, write_replay
from ..runner import Table
from ..render import move_text, svg

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_BODY = 64 * 1024  # bytes of a request body
MAX_DEPTH = 16  # nesting of a request body's JSON (the requests use 3 at most)
MAX_GAMES = 64  # games held, finished ones included
KEEP_FINISHED = 600.0  # seconds a finished game stays (to be looked at, its replay saved)
IO_TIMEOUT = 30.0  # seconds a client may take to send its request
# The bots a request may name, exactly these strings: each one's work per move is bounded (a fixed
# number of iterations: about 2 s a move at most on a slow machine). MCTS_ITERATIONS gives the
# MCTS levels per game: a stronger one where the game's moves are cheap (Azul, Gaudí).
MCTS_ITERATIONS: Dict[str, Tuple[int, ...]] = {"azul": (200, 1000, 4000, 10000), "gaudi": (200, 1000, 4000, 10000)}
ISMCTS_ITERATIONS = (500, 2000)


BASELINE_BOTS = ("baseline-policy", "baseline:simulations=200")  # one network call a move; 200 simulations


def default_bots(game: str) -> Tuple[str, ...]:
    """The bots the server offers for ``game``: random, greedy, then MCTS and ISMCTS levels, and the
    trained baseline (its policy alone, and PUCT with it) where one is shipped for the game."""
    from .. import baselines

    trained = BASELINE_BOTS if any(a["game"] == game for a in baselines.available()) else ()
    return (("random", "greedy") + tuple(f"mcts:iterations={n}" for n in MCTS_ITERATIONS.get(game, (200, 1000, 4000)))
            + tuple(f"ismcts:iterations={n}" for n in ISMCTS_ITERATIONS) + trained)


def network_option(o: Any) -> bool:
    """Whether a rule option may come from the network: only those whose values are a fixed set of
    choices or an integer. The others (Castle's board and tiles, Warsaw's and Gaudí's data) take a
    path or a document, which would make the server read its disk for the caller."""
    return o.choices is not None or o.kind is int


class ListenError(OSError):
    """The server cannot listen on the address asked for (in use, no such host, a bad port)."""


class RequestError(Exception):
    """A client mistake: answered with ``status`` and the message, nothing changed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Game:
    """One game on the server: the state, who plays each seat, the record of moves."""

    def __init__(self, gid: str, game: str, players: int, human: int, bots: List[Optional[str]], seed: int,
                 options: Dict[str, Any], clock: Callable[[], float] = time.monotonic) -> None:
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
        self._wake = threading.Event()
        self._stop = threading.Event()  # set by stop(): ends the bot thread and the search under way
        self._worker = threading.Thread(target=self._run_bots, name=f"tilecraft-game-{gid}", daemon=True)
        self._worker.start()

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

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

    def _run_bots(self) -> None:
        """Plays chance and bot seats as long as it is their turn; sleeps while the person thinks."""
        while not self.stopped:
            with self.lock:
                state = self.state
                if state.is_terminal():
                    return
                seat = state.current_player()
                version = self.version
                if seat == self.human:
                    self._wake.clear()
                    view = None
                elif seat == CHANCE:
                    action = self.table.sample_chance()
                    self._apply(int(action), seat, 0.0)
                    continue
                else:
                    view = state.clone()
                    self.thinking = (seat, time.time())
            if view is None:
                self._wake.wait(timeout=5.0)
                continue
            start = time.perf_counter()
            try:
                with stop_when(self._stop):  # stop() ends the search under way within ~50 ms
                    action = int(self.bots[seat].act(view))
            except Stopped:
                return
            except Exception as e:  # a bot failing stops the game with a message, never the server
                with self.lock:
                    if not self.stopped:
                        self._fail(f"bot of seat {seat} failed: {type(e).__name__}: {e}")
                return
            spent = time.perf_counter() - start
            with self.lock:
                self.thinking = None
                if self.version != version:  # cannot happen (only this thread plays bot seats)
                    continue
                try:
                    self._apply(action, seat, spent)
                except ValueError as e:
                    self._fail(f"bot of seat {seat} chose an illegal move: {e}")
                    return

    def request_stop(self) -> None:
        """Asks the bot thread to end, stopping the search under way (see tilecraft/_stop.py)."""
        self._stop.set()
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        """Ends the bot thread and waits for it (a search stops within about 50 ms)."""
        self.request_stop()
        self._worker.join(timeout)

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
        self._wake.set()
        return view

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
                "svg": svg(s, self.human), "log": self.log[-30:], "error": self.error,
                "bot_seconds": [round(sum(t for a, t in zip(self.actors, self.seconds) if a == p), 2)
                                for p in range(self.players)],
            }

    def replay_text(self) -> str:
        with self.lock:
            s = self.state
            if not s.is_terminal():
                raise RequestError(409, "the game is not finished yet; a replay is saved at the end")
            names = [("human" if p == self.human else _bot_name(self.bots[p])) for p in range(self.players)]
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
    """The games on this server. ``bots``: the bot specs a request may name, the same for every
    game (default: each game's ladder, default_bots); ``clock``: the time source of eviction."""

    def __init__(self, bots: Optional[Sequence[str]] = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.games: Dict[str, Game] = {}
        self.lock = threading.Lock()
        self.clock = clock
        self._bots = None if bots is None else tuple(bots)
        for spec in self._bots or ():
            make_bot(spec)  # a bad list fails here, at start, not at a player's request

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
            evicted = self._evict(room_for_one=True)
            if len(self.games) >= MAX_GAMES:
                raise RequestError(429, f"{MAX_GAMES} unfinished games are running; finish some first")
            gid = secrets.token_hex(6)
            try:
                game = Game(gid, spec.name, players, seat, checked, seed, options, self.clock)
            except (ValueError, TypeError) as e:
                raise RequestError(400, str(e)) from None
            self.games[gid] = game
        for g in evicted:
            g.stop()
        return game

    def _evict(self, room_for_one: bool = False) -> List[Game]:
        """Under the lock: drops the games that finished KEEP_FINISHED seconds ago or more and, to
        make room for one more game when MAX_GAMES are held, the one that finished first. Returns
        the dropped games (to be stopped outside the lock)."""
        now = self.clock()
        finished = sorted((g for g in self.games.values() if g.finished_at is not None),
                          key=lambda g: g.finished_at or 0.0)
        gone = [g for g in finished if now - (g.finished_at or 0.0) >= KEEP_FINISHED]
        if room_for_one and len(self.games) - len(gone) >= MAX_GAMES and len(finished) > len(gone):
            gone.append(finished[len(gone)])
        for g in gone:
            del self.games[g.id]
        return gone

    def get(self, gid: str) -> Game:
        with self.lock:
            evicted = self._evict()
            game = self.games.get(gid)
        for g in evicted:
            g.stop()
        if game is None:
            raise RequestError(404, f"no game {gid!r} on this server (finished games are kept "
                                    f"{KEEP_FINISHED / 60:g} minutes)")
        return game

    def close(self) -> None:
        """Stops every game's bot thread (and the search under way) and waits for them."""
        with self.lock:
            games = list(self.games.values())
        for g in games:  # ask all first: the searches stop in parallel
            g.request_stop()
        for g in games:
            g.stop()


_CONTENT_LENGTH = re.compile(r"[0-9]{1,12}")
_DISCONNECTED = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


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


class Handler(BaseHTTPRequestHandler):
    """One request. Before anything else: the Host header must name this server (DNS rebinding),
    an Origin must be this server's, and a POST must carry JSON (no "simple" cross-site form or
    text/plain request gets through). Every answer, errors included, is JSON (or the page)."""

    lobby: Lobby
    hosts: Set[str]  # the Host header values accepted (lower case), set by make_server
    server_version = "tilecraft"
    timeout = IO_TIMEOUT  # a client that stops sending is dropped, not waited for
    quiet = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, ctype: str, extra: Optional[Dict[str, str]] = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: Any, extra: Optional[Dict[str, str]] = None) -> None:
        self._send(status, json.dumps(data).encode("utf-8"), "application/json; charset=utf-8", extra)

    def send_error(self, code: int, message: Optional[str] = None, explain: Optional[str] = None) -> None:
        """The standard library's own refusals (a malformed request line, headers too long): JSON too."""
        try:
            self.close_connection = True
            text = message or HTTPStatus(code).phrase
            if self.request_version == "HTTP/0.9":  # the request line was refused: answer with a status line
                self.request_version = "HTTP/1.0"
            self._json(code, {"error": text}, {"Connection": "close"})
        except _DISCONNECTED:
            pass
        except ValueError:  # not an HTTP status
            pass

    _body_read = False

    def _drain(self) -> None:
        """Reads and drops a body left unread before an error answer (at most 16 times the limit, 1 s
        per read): a socket closed with unread data is reset, and the client could lose the answer."""
        text = (self.headers.get("Content-Length") or "0").strip()
        if self._body_read or not _CONTENT_LENGTH.fullmatch(text):
            return
        self._body_read = True
        left = min(int(text), 16 * MAX_BODY)
        try:
            self.connection.settimeout(1.0)
            while left > 0:
                chunk = self.rfile.read(min(left, 65536))
                if not chunk:
                    break
                left -= len(chunk)
        except OSError:
            pass

    def _check_origin(self) -> None:
        host = (self.headers.get("Host") or "").strip().lower()
        if host not in self.hosts:
            raise RequestError(403, f"Host {host or '(none)'!r} is not this server; use one of "
                                    f"{', '.join(sorted(self.hosts))}")
        origin = self.headers.get("Origin")
        if origin is not None and origin.strip().lower() != "http://" + host:
            raise RequestError(403, f"cross-origin request refused: Origin {origin!r} is not http://{host}")

    def _body(self) -> Dict[str, Any]:
        ctype = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if ctype != "application/json":
            raise RequestError(403, f"a request that changes state must be sent as Content-Type application/json, "
                                    f"got {self.headers.get('Content-Type') or '(none)'!r}")
        if self.headers.get("Transfer-Encoding"):
            raise RequestError(400, "chunked request bodies are not accepted; send Content-Length")
        text = (self.headers.get("Content-Length") or "0").strip()
        if not _CONTENT_LENGTH.fullmatch(text):
            raise RequestError(400, f"bad Content-Length {text!r}: it must be a byte count 0..{MAX_BODY}")
        length = int(text)
        if length > MAX_BODY:
            raise RequestError(413, f"request body too large: {length} bytes, at most {MAX_BODY}")
        raw = self.rfile.read(length) if length else b""
        self._body_read = True
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

    def _route(self, method: str) -> None:
        self._check_origin()
        if method not in ("GET", "POST"):
            raise RequestError(405, f"method {method} is not allowed; the server answers GET and POST")
        url = urlparse(self.path)
        parts = [p for p in url.path.split("/") if p]
        lobby = self.lobby
        if method == "GET" and parts in ([], ["index.html"]):
            with open(os.path.join(STATIC, "index.html"), "rb") as f:
                self._send(200, f.read(), "text/html; charset=utf-8")
            return
        if parts[:1] != ["api"]:
            raise RequestError(404 if method == "GET" else 405, f"no page {url.path}")
        rest = parts[1:]
        if method == "GET" and rest == ["games"]:
            self._json(200, lobby.catalogue())
        elif method == "POST" and rest == ["new"]:
            game = lobby.new(self._body())
            self._json(201, game.view())
        elif method == "GET" and len(rest) == 2 and rest[0] == "game":
            self._json(200, lobby.get(rest[1]).view())
        elif method == "POST" and len(rest) == 3 and rest[0] == "game" and rest[2] == "move":
            body = self._body()
            game = lobby.get(rest[1])
            self._json(200, game.move(body.get("action"), body.get("version")))
        elif method == "GET" and len(rest) == 3 and rest[0] == "game" and rest[2] == "replay":
            game = lobby.get(rest[1])
            text = game.replay_text()
            name = f"tilecraft-{game.spec.name}-{game.id}.jsonl"
            self._send(200, text.encode("utf-8"), "application/x-ndjson; charset=utf-8",
                       {"Content-Disposition": f'attachment; filename="{name}"'})
        else:
            raise RequestError(404 if method == "GET" else 405, f"no such request: {method} {url.path}")

    def _handle(self, method: str) -> None:
        try:
            try:
                self._route(method)
            except RequestError as e:
                self.close_connection = True  # an unread body must not be taken for the next request
                self._drain()
                self._json(e.status, {"error": str(e)}, {"Allow": "GET, HEAD, POST"} if e.status == 405 else None)
            except (TimeoutError, socket.timeout):
                self.close_connection = True
                self._json(408, {"error": f"the request was not sent within {IO_TIMEOUT:g} s"})
        except _DISCONNECTED:  # the client left: nothing to answer, nothing to report
            self.close_connection = True
        except Exception as e:  # never a traceback page: a short message, the details on the console
            traceback.print_exc()
            try:
                self._json(500, {"error": f"internal error: {type(e).__name__}: {e}"})
            except OSError:
                pass

    def do_GET(self) -> None:  # noqa: N802
        self._handle("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._handle("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._handle("POST")

    def __getattr__(self, name: str) -> Any:
        # any other method (OPTIONS, PUT, DELETE, PATCH, TRACE, made-up ones) is answered 405 in JSON,
        # after the same Host and Origin checks
        if name.startswith("do_"):
            return lambda: self._handle(name[3:])
        raise AttributeError(name)


class PlayServer(ThreadingHTTPServer):
    """The HTTP server with its lobby; closing it stops the games' bot threads."""

    daemon_threads = True

    def __init__(self, address: Tuple[str, int], handler: Any, lobby: Lobby) -> None:
        self.lobby = lobby  # before binding: server_close runs when the bind fails
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], _DISCONNECTED + (TimeoutError, socket.timeout)):
            return  # a client that went away mid-request or mid-answer
        super().handle_error(request, client_address)

    def server_close(self) -> None:
        super().server_close()
        self.lobby.close()


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def make_server(host: str = "127.0.0.1", port: int = 8765, *, bots: Optional[Sequence[str]] = None,
                clock: Callable[[], float] = time.monotonic) -> PlayServer:
    """A server (not yet serving) with its own lobby; port 0 picks a free port. ``bots``: the exact
    bot specs requests may name, for every game (default: each game's ladder, default_bots);
    ``clock``: the time source for evicting finished games (seconds). Raises OSError (or
    OverflowError for a port outside 0..65535) when it cannot listen there."""
    lobby = Lobby(bots, clock)
    hosts: set = set()  # filled once the port is known (port 0: the one picked)
    handler = type("BoundHandler", (Handler,), {"lobby": lobby, "hosts": hosts})
    server = PlayServer((host, port), handler, lobby)
    bound = server.server_address[1]
    hosts.update(_host_port(n, bound) for n in ("127.0.0.1", "localhost", "::1", host.lower().strip("[]")))
    return server


def serve(host: str = "127.0.0.1", port: int = 8765, open_browser: bool = False, *,
          bots: Optional[Sequence[str]] = None) -> None:
    """Serves until Ctrl-C, which stops the bots' searches and returns within a second. Raises
    ListenError (an OSError) naming the address when it cannot listen there."""
    try:
        server = make_server(host, port, bots=bots)
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
