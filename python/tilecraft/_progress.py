"""Progress bars (tqdm) for long calls, C++ batch runners included: those call ``tick(done)``
every 50 ms from the thread that waits for them (bindings/bind_game.hpp, run_interruptible)."""
from __future__ import annotations

import contextlib
import sys
from typing import Any, Callable, Iterator, Optional


@contextlib.contextmanager
def progress_bar(enabled: bool, total: int, desc: str, unit: str = "game") -> Iterator[Optional[Callable[[int], None]]]:
    """Yields None when disabled, else tick(done): moves a tqdm bar (on stderr) to ``done`` of ``total``."""
    if not enabled:
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True)

    def tick(done: int) -> None:
        if done > bar.n:
            bar.update(done - bar.n)

    try:
        yield tick
    finally:
        bar.close()


def as_bar(enabled: bool, total: int, desc: str, unit: str = "game") -> Any:
    """A tqdm bar to update by hand (None when disabled)."""
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True)
