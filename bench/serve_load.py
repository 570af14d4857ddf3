"""The play server under load, on 127.0.0.1 (issue 46): bursts, slow clients, abandoned games.

    python bench/serve_load.py                 # the three runs below (about 2 minutes)
    python bench/serve_load.py --only slow     # one of them: burst, slow, abandoned
    python bench/serve_load.py --out load.json # the figures as JSON too

Each run starts its own `tilecraft serve` process (tilecraft.web.server.serve) on a free port and
stops it at the end; every client has a time limit, so the script stops by itself.

- **burst**: 200 clients start at once; each creates a game (Azul, one round, against the random
  bot) and plays it to the end as the page does: its moves, and polls while the bot thinks. Every
  request is on a new connection. Counted: games finished, requests answered, connections reset
  or refused, answers by status, answer times.
- **slow**: 150 clients each send a request line and then one header line every 3 s, never ending
  their request, while 20 fast clients play games as above. Counted: the fast requests' answer
  times (each must be under 1 s), and when and how each slow client's connection was ended
  (the server's whole-request deadline: 408, then closed).
- **abandoned**: 1,000 games are created, one after another, and never looked at again, on a
  server whose idle limit is 3 s (``serve(idle_limit=3)``; the default is IDLE_LIMIT). Counted:
  games started, 429 answers (each must carry Retry-After, and a retry after that wait must
  succeed), and which games were dropped (oldest first: the games still held must be the last
  ones created).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = "127.0.0.1"
GAME = {"game": "azul", "players": 2, "seat": 0, "bots": [None, "random"], "options": {"max_rounds": 1}}
POLL = 0.05  # seconds between polls while the bot thinks (the page: 0.25)


def _tilecraft_path() -> str:
    """Where the tilecraft to serve is: the installed one, else this checkout's python/ folder."""
    try:
        import tilecraft
    except ImportError:
        return os.path.join(ROOT, "python")
    return os.path.dirname(os.path.dirname(os.path.abspath(tilecraft.__file__)))


class Server:
    """`tilecraft serve` in a process of its own, on a free port."""

    def __init__(self, idle_limit: Optional[float] = None) -> None:
        extra = "" if idle_limit is None else f", idle_limit={idle_limit!r}"
        code = f"from tilecraft.web.server import serve; serve({HOST!r}, 0{extra})"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([_tilecraft_path()] + sys.path))
        self.proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if "serving on" not in line:
            self.stop()
            raise RuntimeError(f"the server did not start: {line!r}")
        self.port = int(line.split(f"http://{HOST}:")[1].split("/")[0])
        self.host = f"{HOST}:{self.port}"

    def rss_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as f:
            kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        return kb / 1024

    def stop(self) -> float:
        """Ctrl-C, and the seconds the server took to exit."""
        start = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        return time.monotonic() - start


class Tally:
    """What the clients saw."""

    def __init__(self) -> None:
        self.times: List[float] = []
        self.status: Dict[int, int] = {}
        self.failures: Dict[str, int] = {}

    def add(self, status: int, seconds: float) -> None:
        self.times.append(seconds)
        self.status[status] = self.status.get(status, 0) + 1

    def fail(self, what: str) -> None:
        self.failures[what] = self.failures.get(what, 0) + 1

    def summary(self) -> Dict[str, Any]:
        t = sorted(self.times) or [0.0]
        return {"requests": len(self.times), "status": dict(sorted(self.status.items())),
                "failures": self.failures, "p50_ms": round(1000 * statistics.median(t), 1),
                "p99_ms": round(1000 * t[min(len(t) - 1, int(0.99 * len(t)))], 1), "max_ms": round(1000 * t[-1], 1)}


async def request(server: Server, tally: Tally, method: str, path: str,
                  body: Optional[Dict[str, Any]] = None) -> Tuple[int, Dict[str, str], Any]:
    """One request on a new connection, as the page sends it: (status, headers, JSON)."""
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: {server.host}\r\nConnection: close\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    start = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection(HOST, server.port)
        writer.write(head.encode() + b"\r\n" + data)
        raw = await asyncio.wait_for(reader.read(), 60)
        writer.close()
    except (ConnectionResetError, ConnectionRefusedError, BrokenPipeError, asyncio.TimeoutError) as e:
        tally.fail(type(e).__name__)
        return 0, {}, None
    if not raw:
        tally.fail("closed without an answer")
        return 0, {}, None
    top, _, payload = raw.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    tally.add(status, time.monotonic() - start)
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, json.loads(payload) if headers.get("content-type", "").startswith("application/json") else None


async def play(server: Server, tally: Tally, seed: int) -> bool:
    """Creates a game and plays it to the end as the page does; True when it ended."""
    rng = random.Random(seed)
    status, _, view = await request(server, tally, "POST", "/api/new", dict(GAME, seed=seed))
    if status != 201:
        return False
    while not view["terminal"]:
        if view["error"]:
            return False
        if view["legal"]:
            move = {"action": rng.choice(view["legal"])["action"], "version": view["version"]}
            status, _, after = await request(server, tally, "POST", f"/api/game/{view['id']}/move", move)
        else:
            await asyncio.sleep(POLL)
            status, _, after = await request(server, tally, "GET", f"/api/game/{view['id']}")
        if status == 0:
            return False
        if status == 200:
            view = after
        elif status != 409:  # 409: a stale move; the next poll draws the position again
            return False
    return True


async def burst(clients: int = 200) -> Dict[str, Any]:
    server = Server()
    tally = Tally()
    try:
        start = time.monotonic()
        done = await asyncio.wait_for(asyncio.gather(*(play(server, tally, k) for k in range(clients))), 600)
        seconds = time.monotonic() - start
        rss = server.rss_mb()
    finally:
        stop = server.stop()
    return {"clients": clients, "games_finished": sum(done), "seconds": round(seconds, 1),
            "server_rss_mb": round(rss), "stop_seconds": round(stop, 2), **tally.summary()}


async def slow_client(server: Server, every: float, limit: float) -> Tuple[float, str]:
    """A request line, then one header line every ``every`` s, never ending the request: (seconds
    until the server ended the connection, how)."""
    reader, writer = await asyncio.open_connection(HOST, server.port)
    start = time.monotonic()
    writer.write(f"GET /api/games HTTP/1.1\r\nHost: {server.host}\r\n".encode())
    k = 0
    try:
        while time.monotonic() - start < limit:
            try:
                got = await asyncio.wait_for(reader.read(65536), every)
            except asyncio.TimeoutError:
                k += 1
                writer.write(f"X-Slow-{k}: still sending\r\n".encode())
                continue
            how = "closed"
            if got:
                how = got.split(b"\r\n", 1)[0].decode("latin-1")
                while await reader.read(65536):
                    pass
            return time.monotonic() - start, how
        return time.monotonic() - start, "still open"
    except ConnectionResetError:
        return time.monotonic() - start, "reset"
    finally:
        writer.close()


async def slow(slow_clients: int = 150, fast_clients: int = 20, every: float = 3.0) -> Dict[str, Any]:
    server = Server()
    tally = Tally()
    games = 0
    try:
        start = time.monotonic()
        slow_tasks = [asyncio.ensure_future(slow_client(server, every, 60)) for _ in range(slow_clients)]
        await asyncio.sleep(every)  # the slow ones are connected and sending

        async def fast(k: int) -> None:
            nonlocal games
            seed = 1000 * k
            while not all(t.done() for t in slow_tasks) and time.monotonic() - start < 90:
                finished = await play(server, tally, seed)  # (not `games += await ...`: that reads games first)
                games += finished
                seed += 1

        await asyncio.wait_for(asyncio.gather(*(fast(k) for k in range(fast_clients))), 120)
        ended = [t.result() for t in slow_tasks]
    finally:
        stop = server.stop()
    hows: Dict[str, int] = {}
    for _, how in ended:
        hows[how] = hows.get(how, 0) + 1
    closed = [s for s, how in ended]
    return {"slow_clients": slow_clients, "header_line_every_s": every, "fast_clients": fast_clients,
            "fast_games_finished": games, "fast_over_1s": sum(t > 1.0 for t in tally.times),
            "slow_ended_after_s": [round(min(closed), 1), round(max(closed), 1)], "slow_ended_how": hows,
            "stop_seconds": round(stop, 2), **tally.summary()}


async def abandoned(games: int = 1000, idle_limit: float = 3.0) -> Dict[str, Any]:
    server = Server(idle_limit=idle_limit)
    tally = Tally()
    ids: List[str] = []
    refusals: List[Tuple[int, str]] = []
    retries_refused_again = 0
    try:
        start = time.monotonic()
        waited_before = False
        while len(ids) < games and time.monotonic() - start < 300:
            status, headers, view = await request(server, tally, "POST", "/api/new", dict(GAME, seed=len(ids)))
            if status == 201:
                ids.append(view["id"])
                waited_before = False
            elif status == 429:
                retries_refused_again += waited_before
                wait = int(headers.get("retry-after", "-1"))
                refusals.append((wait, view["error"]))
                if wait < 0:
                    break
                await asyncio.sleep(wait)
                waited_before = True
            else:
                break
        seconds = time.monotonic() - start
        held = []
        for gid in ids:  # which are still held (after the last one was created)
            status, _, _ = await request(server, tally, "GET", f"/api/game/{gid}")
            held.append(status == 200)
        rss = server.rss_mb()
    finally:
        stop = server.stop()
    kept = sum(held)
    return {"games": games, "idle_limit_s": idle_limit, "started": len(ids), "seconds": round(seconds, 1),
            "refused_429": len(refusals), "retry_after_s": sorted({w for w, _ in refusals}),
            "refused_again_after_waiting": retries_refused_again,
            "example_429": refusals[0][1] if refusals else None,
            "held_at_the_end": kept, "oldest_first": held == [False] * (len(held) - kept) + [True] * kept,
            "server_rss_mb": round(rss), "stop_seconds": round(stop, 2), **tally.summary()}


RUNS = {"burst": burst, "slow": slow, "abandoned": abandoned}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=sorted(RUNS), action="append", help="run only this one (repeatable)")
    parser.add_argument("--out", help="write the figures to this JSON file")
    args = parser.parse_args()
    results = {}
    for name in args.only or list(RUNS):
        results[name] = asyncio.run(RUNS[name]())
        print(name, json.dumps(results[name]), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
