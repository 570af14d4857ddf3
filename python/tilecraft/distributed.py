"""Ray for tilecraft (``pip install 'tilecraft[ray]'``): the one place Ray is started
(:func:`ray_session`, used by the tournament and by self-play), and the tournament on a Ray
cluster (:func:`run_ray`): the same games as the local backend, each one a Ray task, collected as
they complete."""
from __future__ import annotations

import contextlib
from typing import Any, Callable, Dict, Iterator, List, Optional


def check_address(address: Optional[str], timeout: float = 5.0) -> None:
    """That Ray can be used at ``address`` before any work starts: Ray is installed, and ``address``
    (HOST:PORT or ray://HOST:PORT; None or "auto": a Ray in this process or a local one) answers
    within ``timeout`` seconds. An ImportError names the extra; a ValueError a malformed address; a
    ConnectionError one that cannot be reached (``ray.init`` itself would wait far longer)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise ImportError("backend='ray' needs Ray: pip install 'tilecraft[ray]'") from None
    if address is None or address == "auto":
        return
    where = address[len("ray://"):] if address.startswith("ray://") else address
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"Ray address {address!r}: expected HOST:PORT or ray://HOST:PORT (a port 1..65535), or "
                         "'auto'")
    import socket

    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise ConnectionError(f"Ray address {address!r}: nothing answers there ({e.strerror or e}; waited up to "
                              f"{timeout:g} s); start the cluster's head (ray start --head) or give its address, "
                              "or leave the address out for a local Ray") from None


@contextlib.contextmanager
def ray_session(workers: int, address: Optional[str] = None) -> Iterator[Any]:
    """Yields the ``ray`` module, initialised: joins ``address`` (or an already initialised Ray),
    else starts a local Ray with ``workers`` CPUs. Shuts down on leaving only a Ray it started."""
    try:
        import ray
    except ImportError:
        raise ImportError("backend='ray' needs Ray: pip install 'tilecraft[ray]'") from None
    started = False
    if not ray.is_initialized():
        check_address(address)
        where: Dict[str, Any] = dict(address=address) if address is not None else dict(num_cpus=workers)
        ray.init(**where, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def run_ray(jobs: List[Dict[str, Any]], workers: int, on_result: Callable[[Dict[str, Any]], None],
            address: Optional[str] = None, *, task: Callable[[Dict[str, Any]], Dict[str, Any]]) -> None:
    """Runs ``task(job)`` (tournament.run_game) for each job as a Ray task, at most ``workers`` at
    once, calling ``on_result`` in the driver as each completes. Ray as :func:`ray_session` starts
    it. Ctrl-C cancels what is left."""
    with ray_session(workers, address) as ray:
        remote = ray.remote(num_cpus=1, max_retries=2)(task)
        pending: List[Any] = []
        queue = list(jobs)
        try:
            while queue or pending:
                while queue and len(pending) < 2 * workers:  # keep the cluster busy, the driver light
                    pending.append(remote.remote(queue.pop(0)))
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    on_result(ray.get(ref))
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
