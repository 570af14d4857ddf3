"""The local play-in-the-browser server (standard library only).

One person plays one seat of a game against bots; several games can run at once, each with its
own id. Bots think in a background thread on a copy of the state; the page polls the game and
shows who is thinking and for how long. A move request names the action and the game's version
(how many actions were applied when the page drew it); an action that is not legal now, a stale
version or a seat that is not the person's is rejected with HTTP 4xx and a message, and the game
is left as it was. Listens on 127.0.0.1 unless told otherwise."""
from __future__ import annotations

import json
import os
import random
import secrets
import threading
import time
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import urlparse

from .._core import CHANCE
from ..bots import BOT_FACTORIES, make_bot
from ..games import UnknownGameError, game_spec, list_games
from ..match import MatchResult, _bot_name, _mix, write_replay
from ..render import svg

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_BODY = 64 * 1024
MAX_GAMES = 64
BOT_CHOICES = ("random", "greedy", "mcts:iterations=200", "mcts:iterations=1000", "ismcts:iterations=500")


class RequestError(Exception):
    """A client mistake: answered with ``status`` and the message, nothing changed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _check_bot(spec: Any) -> str:
    if not isinstance(spec, str) or not spec:
        raise RequestError(400, f"a bot is a name such as {', '.join(BOT_CHOICES)}; got {spec!r}")
    name = spec.partition(":")[0]
    if name not in BOT_FACTORIES:  # never an import path from the network
        raise RequestError(400, f"unknown bot {name!r}; the bots are {', '.join(sorted(BOT_FACTORIES))}")
    return spec


class Game:
    """One game on the server: the state, who plays each seat, the record of moves."""

    def __init__(self, gid: str, game: str, players: int, human: int, bots: List[str], seed: int,
                 options: Dict[str, Any]) -> None:
        spec = game_spec(game)
        self.id, self.spec, self.players, self.human, self.seed = gid, spec, players, human, seed
        self.options = spec.validate(players, options)
        self.state = spec.new_state(players, seed, self.options)
        self.bot_specs = bots
        self.bots: Dict[int, Any] = {}
        for seat in range(players):
            if seat != human:
                bot = make_bot(bots[seat], seed=_mix(seed, seat))
                reset = getattr(bot, "reset", None)
                if reset is not None:
                    reset(seat, _mix(seed, seat))
                self.bots[seat] = bot
        self.chance_rng = random.Random(_mix(seed, 1000))
        self.actions: List[int] = []
        self.actors: List[int] = []
        self.seconds: List[float] = []
        self.log: List[str] = []
        self.lock = threading.RLock()
        self.thinking: Optional[Tuple[int, float]] = None  # (seat, start time)
        self.error: Optional[str] = None
        self.created = time.time()
        self._wake = threading.Event()
        self.stopped = False
        self._worker = threading.Thread(target=self._run_bots, name=f"tilecraft-game-{gid}", daemon=True)
        self._worker.start()

    @property
    def version(self) -> int:
        return len(self.actions)

    def _apply(self, action: int, seat: int, spent: float) -> None:
        who = "chance" if seat == CHANCE else f"seat {seat}"
        self.log.append(f"{who}: {self.state.action_to_string(action)}")
        self.state.apply(action)
        self.actions.append(action)
        self.actors.append(seat)
        self.seconds.append(spent)

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
                    outcomes = state.chance_outcomes()
                    r = self.chance_rng.random()
                    action = outcomes[-1][0]
                    for outcome, p in outcomes:
                        r -= p
                        if r < 0:
                            action = outcome
                            break
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
                action = int(self.bots[seat].act(view))
            except Exception as e:  # a bot failing stops the game with a message, never the server
                with self.lock:
                    self.error = f"bot of seat {seat} failed: {type(e).__name__}: {e}"
                    self.thinking = None
                return
            spent = time.perf_counter() - start
            with self.lock:
                self.thinking = None
                if self.version != version:  # cannot happen (only this thread plays bot seats)
                    continue
                try:
                    self._apply(action, seat, spent)
                except ValueError as e:
                    self.error = f"bot of seat {seat} chose an illegal move: {e}"
                    return

    def stop(self, timeout: float = 60.0) -> None:
        """Ends the bot thread (after the search under way, which cannot be interrupted)."""
        self.stopped = True
        self._wake.set()
        self._worker.join(timeout)

    def move(self, action: Any, version: Any) -> None:
        """The person's move; raises RequestError and leaves the game unchanged when it cannot be played."""
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
        self._wake.set()

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
                w = list(s.winners())
                status = "game over: " + ("you win" if self.human in w and len(w) == 1 else
                                          "shared win" if self.human in w else f"seat(s) {', '.join(map(str, w))} win")
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
    """The games on this server."""

    def __init__(self) -> None:
        self.games: Dict[str, Game] = {}
        self.lock = threading.Lock()

    def catalogue(self) -> Dict[str, Any]:
        games = []
        for name in list_games():
            spec = game_spec(name)
            games.append({"name": name, "title": spec.title, "players": list(spec.players)})
        return {"games": games, "bots": list(BOT_CHOICES)}

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
        bots = [None if p == seat else _check_bot(b) for p, b in enumerate(bots)]
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RequestError(400, f"seed must be an integer, got {seed!r}")
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise RequestError(400, "'options' must be an object of rule options")
        with self.lock:
            live = [g for g in self.games.values() if not g.state.is_terminal()]
            if len(live) >= MAX_GAMES:
                raise RequestError(429, f"{MAX_GAMES} unfinished games are running; finish some first")
            gid = secrets.token_hex(6)
            try:
                game = Game(gid, spec.name, players, seat, bots, seed, options)  # type: ignore[arg-type]
            except (ValueError, TypeError) as e:
                raise RequestError(400, str(e)) from None
            self.games[gid] = game
        return game

    def close(self) -> None:
        with self.lock:
            games = list(self.games.values())
        for g in games:
            g.stop()

    def get(self, gid: str) -> Game:
        game = self.games.get(gid)
        if game is None:
            raise RequestError(404, f"no game {gid!r} on this server")
        return game


class Handler(BaseHTTPRequestHandler):
    lobby: Lobby
    server_version = "tilecraft"
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

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data).encode("utf-8"), "application/json; charset=utf-8")

    def _body(self) -> Dict[str, Any]:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise RequestError(400, "bad Content-Length") from None
        if length > MAX_BODY:
            raise RequestError(413, "request body too large")
        raw = self.rfile.read(length) if length else b""
        try:
            data = json.loads(raw.decode("utf-8") or "{}")
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise RequestError(400, "the request body must be a JSON object") from None
        if not isinstance(data, dict):
            raise RequestError(400, "the request body must be a JSON object")
        return data

    def _route(self, method: str) -> None:
        url = urlparse(self.path)
        parts = [p for p in url.path.split("/") if p]
        lobby = self.lobby
        if method == "GET" and parts in ([], ["index.html"]):
            with open(os.path.join(STATIC, "index.html"), "rb") as f:
                self._send(200, f.read(), "text/html; charset=utf-8")
            return
        if parts[:1] != ["api"]:
            raise RequestError(404, f"no page {url.path}")
        rest = parts[1:]
        if method == "GET" and rest == ["games"]:
            self._json(200, lobby.catalogue())
        elif method == "POST" and rest == ["new"]:
            game = lobby.new(self._body())
            self._json(201, game.view())
        elif method == "GET" and len(rest) == 2 and rest[0] == "game":
            self._json(200, lobby.get(rest[1]).view())
        elif method == "POST" and len(rest) == 3 and rest[0] == "game" and rest[2] == "move":
            game = lobby.get(rest[1])
            body = self._body()
            game.move(body.get("action"), body.get("version"))
            self._json(200, game.view())
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
            self._route(method)
        except RequestError as e:
            self._json(e.status, {"error": str(e)})
        except Exception as e:  # never a traceback page: a short message, the details on the console
            traceback.print_exc()
            self._json(500, {"error": f"internal error: {type(e).__name__}: {e}"})

    def do_GET(self) -> None:  # noqa: N802
        self._handle("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._handle("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._handle("POST")

    def do_PUT(self) -> None:  # noqa: N802
        self._json(405, {"error": "method not allowed"})

    do_DELETE = do_PUT


class PlayServer(ThreadingHTTPServer):
    """The HTTP server with its lobby; closing it stops the games' bot threads."""

    daemon_threads = True
    lobby: Lobby

    def server_close(self) -> None:
        super().server_close()
        self.lobby.close()


def make_server(host: str = "127.0.0.1", port: int = 8765) -> PlayServer:
    """A server (not yet serving) with its own lobby; port 0 picks a free port."""
    lobby = Lobby()
    handler = type("BoundHandler", (Handler,), {"lobby": lobby})
    server = PlayServer((host, port), handler)
    server.lobby = lobby
    return server


def serve(host: str = "127.0.0.1", port: int = 8765, open_browser: bool = False) -> None:
    server = make_server(host, port)
    url = f"http://{host}:{server.server_address[1]}/"
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
