"""tilecraft/_stop.py: a thread that Ctrl-C cannot reach (the play server's bot threads) stops
its long C++ calls by setting an event; the search stops within the poll interval (~50 ms) and
raises Stopped, and the bot stays usable."""
from __future__ import annotations

import threading
import time
from typing import Any, Dict

import tilecraft
from tilecraft._stop import Stopped, stop_when, thread_hook
from tilecraft.bots import make_bot


def test_a_search_on_another_thread_stops_when_its_event_is_set() -> None:
    state = tilecraft.make("azul", players=2, seed=1)
    bot = make_bot("mcts:seconds=60", seed=1)
    event = threading.Event()
    outcome: Dict[str, Any] = {}

    def run() -> None:
        start = time.monotonic()
        try:
            with stop_when(event):
                outcome["action"] = bot.act(state)
        except Stopped as e:
            outcome["stopped"] = e
        outcome["seconds"] = time.monotonic() - start

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.3)  # the search is under way
    assert worker.is_alive()
    event.set()
    worker.join(10)
    assert not worker.is_alive(), "the search did not stop"
    assert "action" not in outcome and isinstance(outcome["stopped"], Stopped)
    assert outcome["seconds"] < 5  # stopped, not the 60 s budget
    quick = make_bot("mcts:iterations=50", seed=1)  # and the searches work afterwards
    assert quick.act(state) in set(state.legal_actions())
    with stop_when(threading.Event()):  # an event never set changes nothing
        assert quick.act(state) in set(state.legal_actions())


def test_the_hook_belongs_to_its_thread_and_block() -> None:
    assert thread_hook() is None
    outer, inner = threading.Event(), threading.Event()
    seen: Dict[str, Any] = {}
    with stop_when(outer):
        first = thread_hook()
        assert first is not None
        with stop_when(inner):
            assert thread_hook() is not first
        assert thread_hook() is first
        other = threading.Thread(target=lambda: seen.setdefault("hook", thread_hook()))
        other.start()
        other.join()
        assert seen["hook"] is None  # another thread is not affected
    assert thread_hook() is None
