"""The tournament on a Ray cluster (``pip install 'tilecraft[ray]'``): the same games as the local
backend, each one a Ray task, collected as they complete."""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional


def run_ray(jobs: List[Dict[str, Any]], workers: int, on_result: Callable[[Dict[str, Any]], None],
            address: Optional[str] = None) -> None:
    """Runs tournament games as Ray tasks, at most ``workers`` at once, calling ``on_result`` in
    the driver as each completes. Joins ``address`` (or an already initialised Ray), else starts
    a local Ray with ``workers`` CPUs and shuts it down afterwards. Ctrl-C cancels what is left."""
    try:
        import ray
    except ImportError:
        raise ImportError("backend='ray' needs Ray: pip install 'tilecraft[ray]'") from None
    from .tournament import run_game

    started = False
    if not ray.is_initialized():
        if address is not None:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        started = True
    task = ray.remote(num_cpus=1, max_retries=2)(run_game)
    pending: List[Any] = []
    queue = list(jobs)
    try:
        while queue or pending:
            while queue and len(pending) < 2 * workers:  # keep the cluster busy, the driver light
                pending.append(task.remote(queue.pop(0)))
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                on_result(ray.get(ref))
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
