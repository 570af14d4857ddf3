"""The play server over HTTP (no browser): games start, only legal moves are played, bad requests
get a 4xx with a message and leave the game unchanged, bots play their seats in the background,
several games run at once, and a finished game downloads as a replay that checks out."""
from __future__ import annotations

import asyncio
import os
import random
import sys
import time
from typing import Iterator

import pytest

from tilecraft.match import check_replay
from web_helpers import Server, server  # noqa: F401  (fixture)


def wait_for_turn(server: Server, gid: str, timeout: float = 30.0) -> dict:
    """The game's view once it is the person's turn or the game is over (bots think in a thread)."""
    deadline = time.monotonic() + timeout
    while True:
        status, view = server.call("GET", f"/api/game/{gid}")
        assert status == 200, view
        if view["terminal"] or view["legal"] or view["error"]:
            return view
        assert time.monotonic() < deadline, f"the bots did not finish their turns: {view['status']}"
        time.sleep(0.01)


def new_game(server: Server, game: str = "azul", players: int = 2, seed: int = 1, **extra) -> dict:
    body = {"game": game, "players": players, "seat": 0, "bots": ["random"] * players, "seed": seed, **extra}
    status, view = server.call("POST", "/api/new", body)
    assert status == 201, view
    return view


def test_catalogue_and_page(server: Server) -> None:
    status, cat = server.call("GET", "/api/games")
    assert status == 200
    assert {g["name"] for g in cat["games"]} >= {"azul", "castle", "warsaw"}
    assert "random" in cat["bots"]
    status, page = server.call("GET", "/")
    assert status == 200 and "<title>tilecraft: play</title>" in page


@pytest.mark.parametrize("game", ["azul", "castle", "warsaw", "gaudi"])
def test_whole_game_through_the_api_and_replay(server: Server, game: str, tmp_path) -> None:
    view = new_game(server, game, seed=4)
    rng = random.Random(0)
    moves = 0
    while True:
        view = wait_for_turn(server, view["id"])
        assert view["error"] is None
        if view["terminal"]:
            break
        move = rng.choice(view["legal"])
        status, after = server.call("POST", f"/api/game/{view['id']}/move",
                                    {"action": move["action"], "version": view["version"]})
        assert status == 200, after
        assert after["version"] == view["version"] + 1
        moves += 1
    assert moves > 0 and "game over" in view["status"]
    status, text = server.call("GET", f"/api/game/{view['id']}/replay")
    assert status == 200
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    [summary] = check_replay(str(path))
    assert summary["game"] == game and summary["scores"] == view["scores"]


def test_bad_moves_change_nothing(server: Server) -> None:
    view = wait_for_turn(server, new_game(server)["id"])
    gid, version = view["id"], view["version"]
    legal = {m["action"] for m in view["legal"]}
    illegal = next(a for a in range(1000) if a not in legal)
    cases = [
        ({"action": illegal, "version": version}, 400, "not a legal move"),
        ({"action": min(legal), "version": version + 1}, 409, "stale move"),
        ({"action": min(legal), "version": version - 1}, 409, "stale move"),
        ({"action": "1", "version": version}, 400, "integer action"),
        ({"action": min(legal)}, 400, "version"),
        ({"action": True, "version": version}, 400, "integer action"),
    ]
    for body, code, message in cases:
        status, reply = server.call("POST", f"/api/game/{gid}/move", body)
        assert status == code and message in reply["error"], (body, reply)
    status, reply = server.call("POST", f"/api/game/{gid}/move", raw=b"{not json")
    assert status == 400 and "JSON" in reply["error"]
    status, reply = server.call("POST", f"/api/game/{gid}/move", raw=b"[1, 2]")
    assert status == 400 and "JSON object" in reply["error"]
    status, same = server.call("GET", f"/api/game/{gid}")
    assert same["version"] == version and same["svg"] == view["svg"] and same["legal"] == view["legal"]


SLOW_BOTS = ["random", "mcts:seconds=1"]  # offered only by the servers of the tests below


@pytest.fixture
def slow_server() -> Iterator[Server]:
    s = Server(bots=SLOW_BOTS)
    yield s
    s.close()


def test_move_out_of_turn_is_rejected(slow_server: Server) -> None:
    # a slow bot on seat 1: while it thinks, a request for seat 0 must be refused
    server = slow_server
    view = wait_for_turn(server, new_game(server, bots=SLOW_BOTS)["id"])
    gid = view["id"]
    status, after = server.call("POST", f"/api/game/{gid}/move",
                                {"action": view["legal"][0]["action"], "version": view["version"]})
    assert status == 200 and after["to_move"] == 1
    status, again = server.call("POST", f"/api/game/{gid}/move",
                                {"action": view["legal"][1]["action"], "version": after["version"]})
    # the bot is still thinking (409 not your turn) or has just moved (409 stale): never applied
    assert status == 409, again
    status, now = server.call("GET", f"/api/game/{gid}")
    assert now["version"] >= after["version"]
    assert now["log"][:after["version"]] == after["log"][:after["version"]]


def test_thinking_is_shown(slow_server: Server) -> None:
    server = slow_server
    view = wait_for_turn(server, new_game(server, bots=SLOW_BOTS)["id"])
    server.call("POST", f"/api/game/{view['id']}/move", {"action": view["legal"][0]["action"],
                                                          "version": view["version"]})
    deadline = time.monotonic() + 20
    while True:
        status, now = server.call("GET", f"/api/game/{view['id']}")
        if now["thinking"] is not None or now["legal"]:
            break
        assert time.monotonic() < deadline
        time.sleep(0.01)
    if now["thinking"] is not None:
        assert now["thinking"]["seat"] == 1 and now["thinking"]["seconds"] >= 0
        assert "thinking" in now["status"]


def test_bad_new_game_requests(server: Server) -> None:
    cases = [
        ({"game": "chess"}, 404, "unknown game 'chess'"),
        ({"game": "azul", "players": 7}, 400, "players must be one of"),
        ({"game": "castle", "players": 2, "seat": 2}, 400, "seat must be"),
        ({"game": "azul", "players": 2, "bots": ["random"]}, 400, "one bot per seat"),
        ({"game": "azul", "players": 2, "bots": ["random", "os:system"]}, 400, "bot 'os:system' is not offered"),
        ({"game": "azul", "players": 2, "bots": ["random", "tilecraft.bots:RandomBot"]}, 400, "is not offered"),
        ({"game": "azul", "players": 2, "seed": "x"}, 400, "seed must be an integer"),
        ({"game": "azul", "players": 2, "options": {"nosuch": 1}}, 400, "unknown option"),
    ]
    for body, code, message in cases:
        status, reply = server.call("POST", "/api/new", body)
        assert status == code and message in reply["error"], (body, reply)


def test_unknown_games_and_pages(server: Server) -> None:
    status, reply = server.call("GET", "/api/game/abc123")
    assert status == 404 and reply["error"].startswith("no game 'abc123' on this server")
    status, reply = server.call("POST", "/api/game/abc123/move", {"action": 1, "version": 0})
    assert status == 404
    status, reply = server.call("GET", "/etc/passwd")
    assert status == 404 and "error" in reply
    status, reply = server.call("GET", "/api/nothing")
    assert status == 404
    view = new_game(server)
    status, reply = server.call("GET", f"/api/game/{view['id']}/replay")
    assert status == 409 and "not finished" in reply["error"]


def test_several_games_at_once(server: Server) -> None:
    a = new_game(server, "azul", seed=1)
    b = new_game(server, "castle", seed=2)
    assert a["id"] != b["id"]
    va = wait_for_turn(server, a["id"])
    vb = wait_for_turn(server, b["id"])
    server.call("POST", f"/api/game/{a['id']}/move", {"action": va["legal"][0]["action"], "version": va["version"]})
    status, vb2 = server.call("GET", f"/api/game/{b['id']}")
    assert vb2["version"] == vb["version"] and vb2["game"] == "castle"
    # a move id of one game sent to the other is checked against that other game's rules
    status, reply = server.call("POST", f"/api/game/{b['id']}/move", {"action": 10**6, "version": vb["version"]})
    assert status == 400


def test_server_listens_on_loopback_by_default() -> None:
    import inspect

    from tilecraft.web.server import make_server, serve

    assert inspect.signature(make_server).parameters["host"].default == "127.0.0.1"
    assert inspect.signature(serve).parameters["host"].default == "127.0.0.1"
    s = Server()
    try:
        assert s.httpd.server_address[0] == "127.0.0.1"
    finally:
        s.close()


@pytest.mark.slow  # about a minute: bench/serve_load.py's three runs, smaller
def test_the_load_runs_of_the_bench_hold() -> None:
    """What must hold under load, whatever the machine's speed (the answer times are the bench's to
    report: docs/pictures.md): every request answered and none reset, every slow client ended by the
    whole-request deadline, abandoned games dropped oldest first, and a 429 that says when to retry
    followed by a retry that works."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
    try:
        import serve_load
    finally:
        sys.path.pop(0)
    from tilecraft.web.server import REQUEST_DEADLINE

    burst = asyncio.run(serve_load.burst(50))
    assert burst["games_finished"] == 50 and burst["failures"] == {}, burst
    assert set(burst["status"]) == {200, 201} and burst["requests"] == sum(burst["status"].values())
    slow = asyncio.run(serve_load.slow(30, 5, 3.0))
    assert slow["failures"] == {} and set(slow["status"]) <= {200, 201} and slow["fast_games_finished"] > 0, slow
    assert slow["slow_ended_how"] == {"HTTP/1.1 408 Request Timeout": 30}, slow
    # (the client starts its clock once connected, a little after the server starts the deadline's)
    assert REQUEST_DEADLINE - 1 <= slow["slow_ended_after_s"][0] <= slow["slow_ended_after_s"][1] < REQUEST_DEADLINE + 5
    gone = asyncio.run(serve_load.abandoned(400, 5.0))
    assert gone["started"] == 400 and gone["failures"] == {} and gone["oldest_first"], gone
    if gone["refused_429"]:  # when the first 256 were made within 5 s (tests/test_web_security.py checks the 429)
        assert gone["refused_again_after_waiting"] == 0 and min(gone["retry_after_s"]) >= 1
        assert "retry then" in gone["example_429"]
    for run in (burst, slow, gone):
        assert run["stop_seconds"] < 3  # Ctrl-C (a second is the aim; the machine may be busy)
