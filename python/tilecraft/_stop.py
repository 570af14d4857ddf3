"""Stopping long C++ calls from another thread. Ctrl-C reaches a long call (a search, a batch of
playouts) only on the main thread; a worker thread that must be stoppable (the play server's bot
threads) runs its calls inside ``stop_when(event)``: every long C++ call made on that thread then
polls the event every 50 ms or so (the binding's run_interruptible calls ``thread_hook()`` for its
tick) and, once the event is set, stops its work and raises ``Stopped``."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterator, Optional

__all__ = ["Stopped", "stop_when", "thread_hook"]


class Stopped(Exception):
    """A long call was stopped because its thread's stop event was set."""


_local = threading.local()


def thread_hook() -> Optional[Callable[[int], None]]:
    """The calling thread's stop hook (a callable(done) that raises Stopped), or None."""
    return getattr(_local, "hook", None)


@contextmanager
def stop_when(event: threading.Event) -> Iterator[None]:
    """Within the block, long C++ calls on this thread stop (raising Stopped) once ``event`` is set."""

    def hook(done: int) -> None:
        if event.is_set():
            raise Stopped("stopped: the thread's stop event is set")

    previous = thread_hook()
    _local.hook = hook
    try:
        yield
    finally:
        _local.hook = previous
