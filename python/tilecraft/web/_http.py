"""The play server's HTTP layer: uvicorn (extra ``tilecraft[web]``) serving web/server.py's App on
one event loop, with what uvicorn leaves out.

- **A whole-request deadline.** uvicorn times out only idle keep-alive connections; a client that
  sends its request a byte at a time would hold its connection for ever. Here a request must be
  sent whole within ``deadline`` seconds of its first byte (or of the connection, for the first):
  then the client gets 408 and the connection is ended (see _Connection._refuse).
- **Refusals in JSON.** A request the HTTP parser (h11) refuses is answered with the app's own
  JSON refusal naming what was wrong (not uvicorn's text/plain "Invalid HTTP request received.").
- **The standard library's server interface** (``server_address``, ``serve_forever``,
  ``shutdown``, ``server_close``), which the tests and ``serve()`` use.

uvicorn's own logging is off: a client's malformed request or a disconnect leaves the console
quiet; the app prints the traceback of an error of its own."""
from __future__ import annotations

import asyncio
import socket
import sys
import threading
from http import HTTPStatus
from typing import Any, Callable, List, Optional, Tuple

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

BACKLOG = 2048  # connections the kernel queues before they are accepted (uvicorn's default; at most somaxconn)
KEEP_ALIVE = 5  # seconds an idle keep-alive connection stays open (uvicorn's default)
GRACE = 0.5  # seconds shutdown() gives the requests under way before it cancels them
LINGER = 2.0  # seconds a refused client's input is still read (and dropped) before the connection closes

Answer = Callable[[int, str], Tuple[List[Tuple[bytes, bytes]], bytes]]


class _Connection(H11Protocol):
    """One client connection: uvicorn's h11 protocol, with the request deadline and JSON refusals.
    ``deadline`` and ``answer`` are set on the subclass that PlayServer makes."""

    deadline: float
    answer: Answer
    _timer: Optional[asyncio.TimerHandle] = None
    _refused = False  # answered with a refusal: what the client still sends is dropped

    def _arm(self) -> None:
        if self._timer is None and not self._refused:
            self._timer = self.loop.call_later(self.deadline, self._expired)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        self._arm()  # a request starts (or goes on): its deadline runs until its answer is sent
        super().data_received(data)

    def on_response_complete(self) -> None:
        self._disarm()
        super().on_response_complete()

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _refuse(self, status: int, message: str) -> None:
        """Answers ``status`` with the app's JSON refusal, if no answer has started, and ends the
        connection: the answer, then the end of our side; what the client still sends is read and
        dropped for LINGER seconds, then the connection is closed. (Closing at once, with the
        client's bytes unread, would reset the connection, and the client could lose the answer.)"""
        if self.transport.is_closing() or self._refused:
            return
        self._refused = True
        self._disarm()
        self._unset_keepalive_if_required()
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):  # no answer started
            headers, body = self.answer(status, message)
            head = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".encode("latin-1")]
            head += [k + b": " + v for k, v in headers] + [b"connection: close", b"", b""]
            self.transport.write(b"\r\n".join(head) + body)
        if not self.transport.can_write_eof():
            self.transport.close()
            return
        self.transport.write_eof()
        self.transport.resume_reading()
        self.loop.call_later(LINGER, self.transport.close)

    def shutdown(self) -> None:
        if self._refused:  # the answer is sent: nothing is left to wait for
            self.transport.close()
        else:
            super().shutdown()

    def _expired(self) -> None:
        self._timer = None
        self._refuse(408, f"the request was not sent within {self.deadline:g} s")

    def send_400_response(self, msg: str) -> None:
        error = sys.exc_info()[1]  # called while h11's RemoteProtocolError is handled: it says what was wrong
        self._refuse(400, f"malformed request: {error}" if error is not None else msg)


class PlayServer:
    """uvicorn serving ``app`` on ``sock`` (already bound): the interface of the standard library's
    servers. ``lobby``: the app's games (closed by server_close); ``answer(status, message)``: the
    headers and body of a refusal; ``deadline``: seconds a client has to send a whole request."""

    def __init__(self, sock: socket.socket, app: Any, lobby: Any, answer: Answer, deadline: float) -> None:
        sock.listen(BACKLOG)  # connections queue from now on, before serve_forever starts
        self.socket = sock
        self.lobby = lobby
        self.server_address: Tuple[Any, ...] = sock.getsockname()
        protocol = type("Connection", (_Connection,), {"deadline": deadline, "answer": staticmethod(answer)})
        config = uvicorn.Config(app, http=protocol, ws="none", lifespan="off", interface="asgi3",
                                proxy_headers=False, server_header=False, headers=[("server", "tilecraft")],
                                log_config=None, log_level="critical", access_log=False, backlog=BACKLOG,
                                timeout_keep_alive=KEEP_ALIVE,
                                timeout_graceful_shutdown=GRACE)  # type: ignore[arg-type]  # a float works (asyncio.timeout)
        self._server = uvicorn.Server(config)
        self._serving = threading.Lock()  # held while serve_forever runs
        self._closed = False

    def connections(self) -> int:
        """Client connections open now."""
        return len(self._server.server_state.connections)

    def serve_forever(self) -> None:
        """Serves until shutdown() (or, on the main thread, Ctrl-C: KeyboardInterrupt once stopped)."""
        with self._serving:
            loop = asyncio.new_event_loop()
            try:
                loop.run_until_complete(self._server.serve(sockets=[self.socket]))
            finally:
                for connection in list(self._server.server_state.connections):  # left after the grace time
                    connection.transport.abort()
                loop.run_until_complete(asyncio.sleep(0))  # their connection_lost
                loop.close()

    def shutdown(self) -> None:
        """Stops serve_forever (called from another thread) and waits until it has returned."""
        self._server.should_exit = True
        with self._serving:
            pass

    def server_close(self) -> None:
        """Closes the listening socket and stops every game's bots."""
        if not self._closed:
            self._closed = True
            self.socket.close()
            self.lobby.close()
