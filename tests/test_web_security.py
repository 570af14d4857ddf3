"""The play server is safe to leave running (issue 19, section 1), tested against real servers on
127.0.0.1 with raw requests (forged headers): only this server's Host and Origin, JSON for every
request that changes state, only the listed bot strings, no file or data option from the network,
a 4xx JSON answer to every malformed request, quiet disconnects, finished games evicted, one error
line when it cannot listen, and Ctrl-C that stops the bots' searches."""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from types import SimpleNamespace
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

from tilecraft.games import game_spec
from web_helpers import ROOT, Server, server  # noqa: F401  (fixture)

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))  # the tilecraft this test imported (installed or a checkout)
SAME = object()  # the header as a page of this server would send it


def raw(server: Any, method: str, path: str, body: Optional[bytes] = None, host: Any = SAME,
        origin: Optional[str] = None, ctype: Optional[str] = "application/json",
        headers: Optional[Dict[str, str]] = None) -> Tuple[int, str, Any]:
    """One request with exactly these headers: (status, Content-Type, parsed JSON or text)."""
    status, answer_headers, reply = exchange(server, method, path, body, host, origin, ctype, headers)
    return status, answer_headers.get("content-type", ""), reply


def exchange(server: Any, method: str, path: str, body: Optional[bytes] = None, host: Any = SAME,
             origin: Optional[str] = None, ctype: Optional[str] = "application/json",
             headers: Optional[Dict[str, str]] = None) -> Tuple[int, Dict[str, str], Any]:
    """As raw(), with every header of the answer (lower-case names); a body not JSON nor text: bytes."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host is SAME:
            host = f"127.0.0.1:{server.port}"
        if host is not None:
            conn.putheader("Host", host)
        if origin is not None:
            conn.putheader("Origin", origin)
        if ctype is not None and (body is not None or method == "POST"):
            conn.putheader("Content-Type", ctype)
        extra = dict(headers or {})
        if body is not None and "Content-Length" not in extra:
            extra["Content-Length"] = str(len(body))
        for k, v in extra.items():
            conn.putheader(k, v)
        conn.endheaders(body)
        r = conn.getresponse()
        data = r.read()
        answer = {k.lower(): v for k, v in r.getheaders()}
        kind = answer.get("content-type", "")
        reply: Any = data
        if kind.startswith("application/json"):
            reply = json.loads(data)
        elif kind.startswith("text/") or "charset=utf-8" in kind:
            reply = data.decode("utf-8")
        return r.status, answer, reply
    finally:
        conn.close()


def new_body(game: str = "azul", **extra: Any) -> bytes:
    body = {"game": game, "players": 2, "seat": 0, "bots": ["random", "random"], "seed": 1, **extra}
    return json.dumps(body).encode()


# ---- Host, Origin, Content-Type ----

def test_cross_site_requests_are_refused_and_change_nothing(server: Server) -> None:
    port = server.port
    cases = [
        dict(ctype="text/plain", origin="http://evil.example"),  # the "simple" cross-site request
        dict(ctype="text/plain"),
        dict(ctype="application/x-www-form-urlencoded"),
        dict(ctype="multipart/form-data; boundary=x"),
        dict(ctype=None),
        dict(ctype="application/json", origin="http://evil.example"),
        dict(ctype="application/json", origin="null"),
        dict(ctype="application/json", origin=f"https://127.0.0.1:{port}"),
        dict(ctype="application/json", origin=f"http://localhost:{port}"),  # not the Host sent
        dict(ctype="application/json", origin=f"http://127.0.0.1:{port + 1}"),
        dict(ctype="application/jsonx"),
    ]
    for case in cases:
        status, kind, reply = raw(server, "POST", "/api/new", new_body(), **case)  # type: ignore[arg-type]
        assert (status, kind.split(";")[0]) == (403, "application/json"), (case, status, reply)
        assert "error" in reply, case
    assert server.httpd.lobby.games == {}
    status, _, reply = raw(server, "POST", "/api/new", new_body(), origin="http://evil.example", ctype="text/plain")
    assert "cross-origin request refused" in reply["error"] and "http://evil.example" in reply["error"]
    status, _, reply = raw(server, "POST", "/api/new", new_body(), ctype="text/plain")
    assert "Content-Type application/json" in reply["error"]
    # what the page sends: JSON (parameters allowed) with its own origin, or no Origin at all
    for case in (dict(ctype="application/json; charset=utf-8", origin=f"http://127.0.0.1:{port}"),
                 dict(ctype="Application/JSON"), dict(ctype="application/json", host=f"localhost:{port}",
                                                      origin=f"http://localhost:{port}")):
        status, _, view = raw(server, "POST", "/api/new", new_body(), **case)  # type: ignore[arg-type]
        assert status == 201, (case, view)
    assert len(server.httpd.lobby.games) == 3


def test_a_move_from_another_site_is_refused(server: Server) -> None:
    status, _, view = raw(server, "POST", "/api/new", new_body())
    assert status == 201 and view["to_move"] == 0
    action = view["legal"][0]["action"]
    move = json.dumps({"action": action, "version": view["version"]}).encode()
    for case in (dict(ctype="text/plain"), dict(origin="http://evil.example"), dict(host="evil.example")):
        status, _, reply = raw(server, "POST", f"/api/game/{view['id']}/move", move, **case)  # type: ignore[arg-type]
        assert status == 403, (case, reply)
    status, _, same = raw(server, "GET", f"/api/game/{view['id']}")
    assert same["version"] == 0 and same["legal"] == view["legal"]


def test_host_must_name_this_server(server: Server) -> None:
    port = server.port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"LOCALHOST:{port}"):
        status, _, cat = raw(server, "GET", "/api/games", host=host)
        assert status == 200 and cat["games"], host
    for host in ("evil.example", f"evil.example:{port}", f"rebind.evil.example:{port}", "127.0.0.1",
                 f"127.0.0.1:{port + 1}", f"127.0.0.2:{port}", f"localhost.:{port}", ""):
        for path in ("/api/games", "/", "/api/game/abc", "/favicon.ico"):
            status, kind, reply = raw(server, "GET", path, host=host)
            assert (status, kind.split(";")[0]) == (403, "application/json"), (host, path, reply)
            assert "is not this server" in reply["error"]
    for path in ("/api/games", "/", "/api/game/abc"):  # HTTP/1.1 without a Host: malformed (RFC 9112)
        status, kind, reply = raw(server, "GET", path, host=None)
        assert (status, kind.split(";")[0]) == (400, "application/json"), (path, reply)
        assert "Host" in reply["error"]


def test_host_given_with_host_option_is_accepted() -> None:
    from tilecraft.web.server import make_server

    httpd = make_server("localhost", 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", httpd.server_address[1], timeout=10)
        conn.request("GET", "/api/games", headers={"Host": f"localhost:{httpd.server_address[1]}"})
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


# ---- bots ----

def test_only_the_listed_bot_strings_are_accepted(server: Server) -> None:
    status, _, cat = raw(server, "GET", "/api/games")
    assert status == 200
    common = cat["bots"]
    assert {"random", "greedy"} <= set(common) and any(b.startswith("mcts:") for b in common)
    assert any(b.startswith("ismcts:") for b in common)
    for g in cat["games"]:
        assert set(common) <= set(g["bots"])  # the page's one list works for every game
        for spec in g["bots"]:  # every level does bounded work: a fixed number of iterations
            assert spec in ("random", "greedy", "baseline-policy") or spec.split(":")[1] in (
                "simulations=200",) or spec.split(":")[1].startswith("iterations="), spec
    bad = ["mcts:seconds=1e9,threads=256", "mcts:iterations=100000000000", "mcts:iterations=200,threads=256",
           "mcts:iterations=200 ", "mcts", "random:seed=3", "RANDOM", " random", "tilecraft.bots:RandomBot",
           "os:system", "", 5, None, ["random"], {"name": "random"}]
    for spec in bad:
        status, kind, reply = raw(server, "POST", "/api/new", new_body(bots=["random", spec]))
        assert (status, kind.split(";")[0]) == (400, "application/json"), (spec, reply)
        assert "is not offered" in reply["error"] and all(b in reply["error"] for b in common), reply
    assert server.httpd.lobby.games == {}
    azul = next(g for g in cat["games"] if g["name"] == "azul")
    for spec in azul["bots"]:  # and each listed string is taken as it is
        status, _, view = raw(server, "POST", "/api/new", new_body(bots=["random", spec]))
        assert status == 201 and view["bots"] == [None, spec], view


# ---- rule options ----

FILE_OPTIONS = [("castle", "board"), ("castle", "tiles"), ("warsaw", "data"), ("gaudi", "data")]


@pytest.mark.parametrize("game,option", FILE_OPTIONS)
def test_file_and_data_options_are_refused_alike(server: Server, tmp_path: Any, game: str, option: str) -> None:
    existing_file = tmp_path / "board.json"
    existing_file.write_text("{}")
    answers = []
    for value in (str(existing_file), str(tmp_path), str(tmp_path / "missing.json"), "/etc/passwd",
                  "/nonexistent/dir", "default", {"spaces": []}, None):
        answers.append(raw(server, "POST", "/api/new", new_body(game, options={option: value})))
    status, kind, reply = answers[0]
    assert (status, kind.split(";")[0]) == (400, "application/json")
    assert f"option {option!r}" in reply["error"] and "not accepted over the network" in reply["error"]
    assert all(a == answers[0] for a in answers), answers  # the same answer: nothing tells what exists
    assert server.httpd.lobby.games == {}


def test_the_catalogue_lists_the_network_options(server: Server) -> None:
    status, _, cat = raw(server, "GET", "/api/games")
    listed = {g["name"]: set(g["options"]) for g in cat["games"]}
    for game, option in FILE_OPTIONS:
        assert option not in listed[game]
    assert listed["castle"] >= {"chance", "first_player", "returns_mode", "scoring_order"}
    assert {"max_rounds", "first_player"} <= listed["azul"]
    assert all(o.name in listed["castle"] or (("castle", o.name) in FILE_OPTIONS)
               for o in game_spec("castle").options)
    status, _, view = raw(server, "POST", "/api/new", new_body("castle", options={"scoring_order": "canonical"}))
    assert status == 201, view
    status, _, reply = raw(server, "POST", "/api/new", new_body("azul", options={"max_rounds": 0}))
    assert status == 400 and "max_rounds" in reply["error"]


# ---- malformed requests ----

def test_malformed_requests_get_a_json_4xx(server: Server) -> None:
    from tilecraft.web.server import MAX_BODY, MAX_DEPTH

    deep = b"[" * 5000 + b"]" * 5000  # within the size limit
    assert len(deep) < MAX_BODY
    deep_obj = b'{"game": ' + b'{"a": ' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1) + b"}"
    cases = [
        (dict(body=deep), 400, "nested deeper"),
        (dict(body=deep_obj), 400, "nested deeper"),
        (dict(body=b"", headers={"Content-Length": "-1"}), 400, "Content-Length"),
        (dict(body=b"", headers={"Content-Length": "abc"}), 400, "Content-Length"),
        (dict(body=b"", headers={"Content-Length": "+5"}), 400, "Content-Length"),
        (dict(body=b"x" * (MAX_BODY + 1)), 413, "too large"),
        (dict(body=b"\xff\xfe"), 400, "JSON object"),
        (dict(body=b"[1]"), 400, "JSON object"),
    ]
    for kwargs, code, text in cases:
        start = time.monotonic()
        status, kind, reply = raw(server, "POST", "/api/new", **kwargs)  # type: ignore[arg-type]
        assert (status, kind.split(";")[0]) == (code, "application/json"), (kwargs.get("headers"), reply)
        assert text in reply["error"], reply
        assert time.monotonic() - start < 5  # answered at once: no handler waits for a body
    # a nesting that stays within the limit is parsed (and then judged as a request)
    shallow = json.dumps({"game": "azul", "players": 2, "options": {"max_rounds": 1}}).encode()
    assert raw(server, "POST", "/api/new", shallow)[0] == 201
    for method in ("OPTIONS", "PUT", "DELETE", "PATCH", "TRACE", "CONNECT", "BREW"):
        status, kind, reply = raw(server, method, "/api/new", body=b"{}")
        assert (status, kind.split(";")[0]) == (405, "application/json"), (method, reply)
        assert "not allowed" in reply["error"]
    # a request line the standard library refuses is answered in JSON too
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET / HTTP/9.9\r\n\r\n")
        head = s.recv(65536).decode("latin-1")
    assert head.split()[1] in ("400", "505") and "application/json" in head


def test_a_client_that_disconnects_leaves_the_console_quiet(server: Server, capfd: Any) -> None:
    status, _, view = raw(server, "POST", "/api/new", new_body())
    assert status == 201
    request = (f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n").encode()  # the page
    for k in range(20):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        s.sendall(request)
        if k % 2:
            s.recv(100)  # read the start of the answer, then leave
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # reset, not a clean close
        s.close()
    deadline = time.monotonic() + 10
    while server.httpd.connections() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.httpd.connections() == 0  # every connection the clients left is closed
    assert raw(server, "GET", f"/api/game/{view['id']}")[0] == 200
    out, err = capfd.readouterr()
    assert err == "" and "Traceback" not in out, err


# ---- finished games ----

class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clocked() -> Iterator[Tuple[Server, Clock]]:
    clock = Clock()
    s = Server(clock=clock)
    yield s, clock
    s.close()


@pytest.fixture
def small() -> Iterator[Tuple[Server, Clock]]:
    """A server that holds 4 games, with its clock (the rules of a full server do not depend on its size)."""
    clock = Clock()
    s = Server(clock=clock, max_games=4)
    yield s, clock
    s.close()


def play_to_the_end(server: Server) -> str:
    """A one-round Azul game (max_rounds=1) against the random bot, played to the end: its id."""
    status, _, view = raw(server, "POST", "/api/new", new_body(options={"max_rounds": 1}))
    assert status == 201, view
    deadline = time.monotonic() + 60
    while not view["terminal"]:
        assert time.monotonic() < deadline and view["error"] is None
        if view["legal"]:
            body = json.dumps({"action": view["legal"][0]["action"], "version": view["version"]}).encode()
            status, _, view = raw(server, "POST", f"/api/game/{view['id']}/move", body)
            assert status == 200, view
        else:
            time.sleep(0.01)
            view = raw(server, "GET", f"/api/game/{view['id']}")[2]
    return str(view["id"])


def test_finished_games_are_evicted_after_ten_minutes(clocked: Tuple[Server, Clock]) -> None:
    server, clock = clocked
    done = play_to_the_end(server)
    status, _, live = raw(server, "POST", "/api/new", new_body())  # unfinished: never evicted
    clock.now += 599
    assert raw(server, "GET", f"/api/game/{done}")[0] == 200
    assert raw(server, "GET", f"/api/game/{done}/replay")[0] == 200
    clock.now += 1
    status, kind, reply = raw(server, "GET", f"/api/game/{done}")
    assert (status, kind.split(";")[0]) == (404, "application/json") and done in reply["error"]
    assert raw(server, "GET", f"/api/game/{done}/replay")[0] == 404
    clock.now += 10**6
    assert raw(server, "GET", f"/api/game/{live['id']}")[0] == 200


def test_oldest_finished_game_makes_room_when_the_server_is_full(small: Tuple[Server, Clock]) -> None:
    from tilecraft.web.server import IDLE_LIMIT

    server, clock = small
    MAX_GAMES = server.httpd.lobby.max_games  # noqa: N806
    first = play_to_the_end(server)
    clock.now += 1
    second = play_to_the_end(server)
    for _ in range(MAX_GAMES - 2):
        assert raw(server, "POST", "/api/new", new_body())[0] == 201
    assert len(server.httpd.lobby.games) == MAX_GAMES
    assert raw(server, "GET", f"/api/game/{first}")[0] == 200  # held, not yet in the way
    assert raw(server, "POST", "/api/new", new_body())[0] == 201
    assert raw(server, "GET", f"/api/game/{first}")[0] == 404  # the first finished went first
    assert raw(server, "GET", f"/api/game/{second}")[0] == 200
    assert raw(server, "POST", "/api/new", new_body())[0] == 201
    assert raw(server, "GET", f"/api/game/{second}")[0] == 404
    status, headers, reply = exchange(server, "POST", "/api/new", new_body())  # all unfinished, all new: refused
    assert status == 429 and "unfinished" in reply["error"], reply
    assert headers["retry-after"] == str(int(IDLE_LIMIT)) and f"in {int(IDLE_LIMIT)} s: retry then" in reply["error"]
    assert len(server.httpd.lobby.games) == MAX_GAMES


def test_abandoned_games_make_room_oldest_first_and_a_429_says_when(small: Tuple[Server, Clock]) -> None:
    """A full server of unfinished games: the game left longest makes room once it has had no
    request for IDLE_LIMIT seconds; before that a new game gets 429 saying why and when to retry."""
    from tilecraft.web.server import IDLE_LIMIT

    server, clock = small
    ids = []
    for _ in range(4):
        status, _, view = raw(server, "POST", "/api/new", new_body())
        assert status == 201, view
        ids.append(view["id"])
        clock.now += 1
    clock.now += 10
    assert raw(server, "GET", f"/api/game/{ids[0]}")[0] == 200  # the first is looked at again
    left = IDLE_LIMIT - (clock.now - 1001)  # ids[1], created at 1001, is now the one left longest
    status, headers, reply = exchange(server, "POST", "/api/new", new_body())
    assert status == 429 and headers["retry-after"] == f"{left:g}", (headers, reply)
    assert "unfinished" in reply["error"] and f"makes room in {left:g} s: retry then" in reply["error"]
    assert len(server.httpd.lobby.games) == 4
    clock.now += left - 1
    status, headers, reply = exchange(server, "POST", "/api/new", new_body())
    assert status == 429 and headers["retry-after"] == "1", reply
    clock.now += 1
    status, _, view = raw(server, "POST", "/api/new", new_body())
    assert status == 201, view
    assert raw(server, "GET", f"/api/game/{ids[1]}")[0] == 404  # the one left longest went
    assert [raw(server, "GET", f"/api/game/{g}")[0] for g in (ids[0], ids[2], ids[3], view["id"])] == [200] * 4


def test_a_long_search_blocks_no_request_and_an_abandoned_games_search_stops() -> None:
    """Bots think on the server's bot threads, never on the one that answers: while a 60 s search
    runs, other requests are answered. When its game is dropped to make room, the search stops and
    its move is never played."""
    from tilecraft.web.server import IDLE_LIMIT

    clock = Clock()
    server = Server(bots=["random", "mcts:seconds=60"], clock=clock, max_games=1)
    try:
        body = json.dumps({"game": "azul", "players": 2, "seat": 1, "bots": ["mcts:seconds=60", None],
                           "seed": 1}).encode()
        status, _, view = raw(server, "POST", "/api/new", body)
        assert status == 201, view
        game = server.httpd.lobby.games[view["id"]]
        deadline = time.monotonic() + 30
        while view["thinking"] is None:  # the search has started
            assert time.monotonic() < deadline, view
            time.sleep(0.01)
            view = raw(server, "GET", f"/api/game/{view['id']}")[2]
        for _ in range(5):  # answered while it runs
            assert raw(server, "GET", "/api/games")[0] == 200
            assert raw(server, "GET", f"/api/game/{view['id']}")[2]["thinking"] is not None
        clock.now += IDLE_LIMIT
        status, _, other = raw(server, "POST", "/api/new", new_body())
        assert status == 201, other
        assert raw(server, "GET", f"/api/game/{view['id']}")[0] == 404
        assert game.stopped
        deadline = time.monotonic() + 10
        while game.busy:  # the turn under way ends: the search was stopped
            assert time.monotonic() < deadline, "the dropped game's search did not stop"
            time.sleep(0.01)
        assert game.version == 0 and game.thinking is None  # its move was never played
    finally:
        server.close()


def test_bots_think_on_a_bounded_pool(server: Server) -> None:
    """However many games are played, the bots use the server's threads: one per core."""
    from tilecraft.web.games import bot_workers

    before = set(threading.enumerate())
    ids = []
    for k in range(12):  # the bot of seat 0 moves first in each
        body = json.dumps({"game": "azul", "players": 2, "seat": 1, "bots": ["random", None], "seed": k}).encode()
        status, _, view = raw(server, "POST", "/api/new", body)
        assert status == 201, view
        ids.append(view["id"])
    for gid in ids:
        deadline = time.monotonic() + 30
        while not raw(server, "GET", f"/api/game/{gid}")[2]["legal"]:  # the bot has moved
            assert time.monotonic() < deadline
            time.sleep(0.01)
    new = [t for t in threading.enumerate() if t not in before]
    assert new and all(t.name.startswith("tilecraft-bots") for t in new), [t.name for t in new]
    assert len(new) <= bot_workers()


def test_the_icon_is_served(server: Server) -> None:
    status, headers, icon = exchange(server, "GET", "/favicon.ico")
    assert (status, headers["content-type"]) == (200, "image/x-icon")
    assert isinstance(icon, bytes) and icon[:4] == b"\x00\x00\x01\x00" and len(icon) == int(headers["content-length"])
    status, headers, _ = exchange(server, "HEAD", "/favicon.ico")
    assert status == 200 and headers["content-type"] == "image/x-icon"


def _send_slowly(port: int, lines: List[bytes], pause: float) -> Tuple[int, bytes]:
    """Sends ``lines`` one by one, ``pause`` seconds apart, until the server answers or closes:
    (how many lines were sent, what came back)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.settimeout(pause)
        for k, line in enumerate(lines):
            try:
                s.sendall(line)
                got = s.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return k, b""
            s.settimeout(10)
            while True:
                more = s.recv(65536)
                if not more:
                    return k + 1, got
                got += more
    return len(lines), b""


def test_a_request_must_arrive_whole_within_the_deadline(monkeypatch: Any) -> None:
    """The deadline is for the whole request, not for each read: a client that sends a header
    line now and then, or a body that never ends, or nothing at all, gets 408 and is closed."""
    from tilecraft.web import server as module

    monkeypatch.setattr(module, "REQUEST_DEADLINE", 0.5)
    server = Server()
    try:
        silent = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        start = time.monotonic()
        head = f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode()
        sent, answer = _send_slowly(server.port, [head] + [b"X-Slow: 1\r\n"] * 100, 0.1)
        assert sent < 100 and answer.startswith(b"HTTP/1.1 408 "), (sent, answer[:200])
        assert b"application/json" in answer and b"the request was not sent within 0.5 s" in answer
        body_head = (f"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json"
                     f"\r\nContent-Length: 100\r\n\r\n").encode()
        sent, answer = _send_slowly(server.port, [body_head] + [b" "] * 100, 0.1)
        assert sent < 100 and answer.startswith(b"HTTP/1.1 408 "), (sent, answer[:200])
        assert raw(server, "GET", "/api/games")[0] == 200  # the others are answered meanwhile
        answer = silent.recv(65536)
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        assert time.monotonic() - start < 10
        silent.close()
        assert server.httpd.lobby.games == {}
    finally:
        server.close()


def test_serve_without_the_web_extra_says_which_to_install(monkeypatch: Any, capsys: Any) -> None:
    from tilecraft.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "tilecraft.web._http", raising=False)
    assert main(["serve", "--port", "0"]) == 2
    out, err = capsys.readouterr()
    assert err.splitlines() == ["tilecraft: error: the play server needs uvicorn: pip install 'tilecraft[web]'"]
    assert out == ""


# ---- cannot listen ----

@pytest.fixture
def busy_port() -> Iterator[int]:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    yield s.getsockname()[1]
    s.close()


def test_bind_failures_are_one_error_line(busy_port: int, capsys: Any) -> None:
    from tilecraft.cli import main

    cases = [
        (["--port", str(busy_port)], f"cannot listen on 127.0.0.1:{busy_port}: [Errno 98] Address already in use"),
        (["--port", "70000"], "cannot listen on 127.0.0.1:70000: bind(): port must be 0-65535."),
        (["--port", "-1"], "cannot listen on 127.0.0.1:-1: bind(): port must be 0-65535."),
        (["--host", "tilecraft.invalid", "--port", str(busy_port)],
         f"cannot listen on tilecraft.invalid:{busy_port}: "),  # no such host (.invalid never resolves)
    ]
    for args, message in cases:
        assert main(["serve", *args]) == 1, args
        out, err = capsys.readouterr()
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("tilecraft: error: " + message), (args, err)
        assert "Traceback" not in out + err


def test_bind_failure_from_the_command_line(busy_port: int) -> None:
    r = subprocess.run([sys.executable, "-m", "tilecraft", "serve", "--port", str(busy_port)], env=ENV, cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, r
    assert r.stderr.splitlines() == [f"tilecraft: error: cannot listen on 127.0.0.1:{busy_port}: "
                                     "[Errno 98] Address already in use"], r.stderr


# ---- Ctrl-C ----

SERVE_WITH_A_SLOW_BOT = """
from tilecraft.web.server import serve
serve("127.0.0.1", 0, bots=["random", "mcts:seconds=60"])
"""


def test_ctrl_c_stops_a_thinking_bot_at_once() -> None:
    proc = subprocess.Popen([sys.executable, "-c", SERVE_WITH_A_SLOW_BOT], env=ENV, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith("tilecraft: serving on http://127.0.0.1:"), line
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        server = SimpleNamespace(port=port)  # what raw() needs of a server
        # the person takes seat 1: the bot on seat 0 starts a 60 s search at once
        body = json.dumps({"game": "azul", "players": 2, "seat": 1, "bots": ["mcts:seconds=60", None],
                           "seed": 1}).encode()
        status, _, view = raw(server, "POST", "/api/new", body)
        assert status == 201, view
        deadline = time.monotonic() + 30
        while view["thinking"] is None:
            assert time.monotonic() < deadline, view
            time.sleep(0.02)
            view = raw(server, "GET", f"/api/game/{view['id']}")[2]
        time.sleep(0.2)  # inside the C++ search
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pytest.fail("tilecraft serve did not stop within 15 s of Ctrl-C")
        assert time.monotonic() - start < 3.0
        err = proc.stderr.read() if proc.stderr else ""
        assert "Traceback" not in err and err == "", err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for f in (proc.stdout, proc.stderr):
            if f:
                f.close()
