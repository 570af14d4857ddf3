"""Which HTTP server to build the play server on (issue 46): the standard library's
ThreadingHTTPServer (what it was built on), uvicorn (h11) and aiohttp, each serving one JSON answer
the size of a game view (50 KB), measured the same way on 127.0.0.1.

    pip install uvicorn aiohttp
    python bench/serve_compare.py          # about 4 minutes (http.server takes 3)

- **burst**: 200 clients at once, 10 requests each, every request on a new connection: requests
  answered per second, answer times, connections reset or refused.
- **slow**: 20 clients that send a request line and then one header line every 2 s: how long the
  server keeps each connection open (watched for 40 s), i.e. whether it has a deadline for a whole
  request of its own.
Each server runs in its own process, one at a time; the clients are those of bench/serve_load.py.
"""
from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from typing import Any, Dict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_load import HOST, Tally, request, slow_client  # noqa: E402

APP = {
    "http.server": """
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class H(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY))); self.end_headers(); self.wfile.write(BODY)
    def log_message(self, *a): pass
ThreadingHTTPServer((HOST, PORT), H).serve_forever()
""",
    "uvicorn": """
import uvicorn
async def app(scope, receive, send):
    if scope["type"] != "http": return
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())]})
    await send({"type": "http.response.body", "body": BODY})
uvicorn.run(app, host=HOST, port=PORT, http="h11", ws="none", lifespan="off", log_level="critical")
""",
    "aiohttp": """
from aiohttp import web
async def h(request):
    return web.Response(body=BODY, content_type="application/json")
app = web.Application(); app.router.add_get("/api/games", h)
web.run_app(app, host=HOST, port=PORT, print=lambda *a: None)
""",
}


class Candidate:
    def __init__(self, name: str) -> None:
        with socket.socket() as s:
            s.bind((HOST, 0))
            self.port = s.getsockname()[1]
        self.host = f"{HOST}:{self.port}"
        code = f"HOST, PORT = {HOST!r}, {self.port}\nBODY = b'{{\"svg\": \"' + b'x' * 50000 + b'\"}}'\n" + APP[name]
        # its console is dropped: http.server prints a traceback for every client that gave up
        self.proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


async def measure(name: str) -> Dict[str, Any]:
    server = Candidate(name)
    try:
        tally = Tally()

        async def client() -> None:
            for _ in range(10):
                await request(server, tally, "GET", "/api/games")  # type: ignore[arg-type]

        start = time.monotonic()
        await asyncio.gather(*(client() for _ in range(200)))
        seconds = time.monotonic() - start
        ended = await asyncio.gather(*(slow_client(server, 2.0, 40) for _ in range(20)))  # type: ignore[arg-type]
    finally:
        server.stop()
    held = sorted(s for s, _ in ended)
    return {"requests_per_s": round(len(tally.times) / seconds), **tally.summary(),
            "slow_held_s": [round(held[0], 1), round(held[-1], 1)], "slow_ended": sorted({h for _, h in ended})}


def main() -> int:
    for name in APP:
        print(name, json.dumps(asyncio.run(measure(name))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
