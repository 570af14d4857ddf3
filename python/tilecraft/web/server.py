"""The local play-in-the-browser server: the HTTP answers to the page (the games themselves: web/games.py).

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
import os
import re
import socket
import time
import traceback
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, List, Optional, Sequence, Tuple

from .games import IDLE_LIMIT, MAX_GAMES, Lobby, RequestError

if TYPE_CHECKING:
    from ._http import PlayServer

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_BODY = 64 * 1024  # bytes of a request body
MAX_DEPTH = 16  # nesting of a request body's JSON (the requests use 3 at most)
REQUEST_DEADLINE = 30.0  # seconds a client has to send a whole request (from its first byte, or the connection)


class ListenError(OSError):
    """The server cannot listen on the address asked for (in use, no such host, a bad port)."""


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
