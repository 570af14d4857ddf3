"""Which library trains tilecraft's networks (issue 47): PyTorch or JAX, measured.

    python bench/train_backends.py                       # speed: training steps a second, 2 threads
    python bench/train_backends.py --install             # and what installing each costs
    python bench/train_backends.py --torch-python /tmp/vt/bin/python  # PyTorch from another environment

**Speed.** One training step (forward pass, the three losses, gradients, an AdamW update) on a
batch of 512 rows, for the shapes of shipped networks, through the one forward pass of
``tilecraft.agents.model``: on JAX with ``tilecraft.agents.train.fitting.Trainer`` (what
``tilecraft train`` runs: ``jax.jit`` of the losses and optax's AdamW), on PyTorch with the same
losses and ``torch.optim.AdamW`` (eager, as a PyTorch trainer runs). Each
backend runs in a process of its own, one after the other, after a warm-up (JAX's compilation
excluded), on ``--threads`` threads.

**Install.** A fresh virtual environment per library: the seconds ``pip install`` took, the
megabytes it added, and, for PyTorch, what an unpinned install from PyPI would bring on this
platform (``pip install --dry-run --report``: the packages, and the size of the wheels where pip
found them on disk). PyTorch's install is of its CPU build, which this machine's pip finds on disk;
from PyPI, an unpinned ``torch`` on Linux is the CUDA build.

Writes ``bench/results/train_backends.json`` (with the command, the commit and the load average);
docs/training.md renders it (bench/render_results.py).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional

ROOT = pathlib.Path(__file__).resolve().parent.parent
NETWORKS = ("azul-2p.npz", "gaudi-basic-2p.npz")  # one without feature groups, one with
INSTALLS = {"torch": ["torch==2.13.0", "numpy"], "jax": ["jax", "jaxlib", "optax", "numpy"]}


def _batch(meta: Dict[str, Any], rows: int, seed: int) -> List[Any]:
    import numpy as np

    rng = np.random.default_rng(seed)
    n, a, s = int(meta["observation_size"]), int(meta["num_actions"]), int(meta["value_seats"])
    x = rng.normal(size=(rows, n)).astype(np.float32)
    mask = rng.random((rows, a)) < 0.2
    mask[:, 0] = True
    pi = rng.random((rows, a)).astype(np.float32) * mask
    pi /= pi.sum(1, keepdims=True)
    z = rng.dirichlet(np.ones(s), size=rows).astype(np.float32)
    m = rng.normal(size=(rows, s)).astype(np.float32)
    return [x, mask, pi, z, m]


def _arrays(name: str) -> Any:
    """The shipped network's shapes, with fresh weights (tilecraft.agents.model.init), and its meta."""
    import numpy as np

    from tilecraft.agents import model

    with np.load(ROOT / "python" / "tilecraft" / "agents" / "baselines" / name) as z:
        meta = json.loads(str(z["meta"]))
    groups = meta.get("groups") or []
    arrays = model.init(int(meta["observation_size"]), meta["hidden"], int(meta["num_actions"]),
                        int(meta["value_seats"]), 0, meta.get("value_hidden") or [], groups)
    index = model.group_indices(groups, int(meta["observation_size"])) if groups else None
    return arrays, index, meta


def worker(backend: str, name: str, steps: int, threads: int, rows: int) -> Dict[str, Any]:
    """Steps a second of one backend on one network's shapes (run in a process of its own)."""
    from tilecraft.agents import model

    arrays, index, meta = _arrays(name)
    batch = _batch(meta, rows, 0)
    if backend == "jax":  # what tilecraft train runs
        import jax

        from tilecraft.agents.train.fitting import Trainer

        trainer = Trainer(arrays, 1e-3, threads, index)
        run = lambda: trainer.step(*batch, 0.25, 0.5)  # noqa: E731
        version = jax.__version__
    else:  # the same losses and AdamW on PyTorch, for the comparison
        import torch

        class Ops:
            relu = staticmethod(torch.relu)

            @staticmethod
            def cat(parts: Any) -> Any:
                return torch.cat(list(parts), dim=1)

            @staticmethod
            def log_softmax(x: Any) -> Any:
                return torch.log_softmax(x, dim=1)

            @staticmethod
            def where(cond: Any, x: Any, fill: float) -> Any:
                return x.masked_fill(~cond, fill)

        torch.set_num_threads(threads)
        params = {k: torch.nn.Parameter(torch.from_numpy(v)) for k, v in arrays.items()}
        opt = torch.optim.AdamW(params.values(), lr=1e-3, weight_decay=1e-4)
        tindex = None if index is None else ([torch.from_numpy(i) for i in index[0]], torch.from_numpy(index[1]))

        def run() -> None:
            pol, val, mar, _ = model.losses(params, *[torch.from_numpy(v) for v in batch], tindex, Ops)
            loss = pol + 0.5 * val + 0.25 * mar
            opt.zero_grad()
            loss.backward()
            opt.step()

        version = torch.__version__
    for _ in range(3):  # warm-up (JAX compiles here)
        run()
    t0 = time.perf_counter()
    for _ in range(steps):
        run()
    seconds = time.perf_counter() - t0
    return dict(backend=backend, version=version, network=name, rows=rows, threads=threads, steps=steps,
                steps_per_second=steps / seconds, rows_per_second=steps * rows / seconds)


def _install(backend: str) -> Dict[str, Any]:
    """A fresh venv, ``pip install`` of the backend: the seconds and the megabytes it added."""
    with tempfile.TemporaryDirectory() as where:
        venv = pathlib.Path(where) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        empty = _megabytes(venv)
        t0 = time.perf_counter()
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *INSTALLS[backend]], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - t0
        freeze = subprocess.run([str(venv / "bin" / "pip"), "freeze"], capture_output=True, text=True).stdout.split()
        return dict(backend=backend, command="pip install " + " ".join(INSTALLS[backend]), seconds=seconds,
                    megabytes=_megabytes(venv) - empty, packages=freeze)


def _unpinned_torch() -> Dict[str, Any]:
    """What ``pip install torch`` resolves to on this platform: packages, and the wheels' megabytes
    where pip found them on local disk (those it would download from PyPI are counted apart)."""
    with tempfile.TemporaryDirectory() as where:
        venv = pathlib.Path(where) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        report = pathlib.Path(where) / "report.json"
        env = dict(os.environ, PIP_CONSTRAINT="")  # no cap: what a user's plain pip resolves
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--dry-run", "--ignore-installed", "--report",
                        str(report), "torch"], check=True, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        items = json.loads(report.read_text())["install"]
    sized, unsized = 0, []
    for item in items:
        url = item.get("download_info", {}).get("url", "")
        name = f"{item['metadata']['name']}=={item['metadata']['version']}"
        if url.startswith("file://") and os.path.exists(url[7:]):
            sized += os.path.getsize(url[7:])
        else:
            unsized.append(name)
    torch_version = next(i["metadata"]["version"] for i in items if i["metadata"]["name"] == "torch")
    return dict(resolves_to=torch_version, packages=len(items),
                gpu_packages=sorted(i["metadata"]["name"] for i in items
                                    if i["metadata"]["name"].startswith(("nvidia", "cuda", "triton"))),
                wheel_megabytes=sized / 1e6, not_sized=unsized)


def _megabytes(path: pathlib.Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6


def _commit() -> str:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--rows", type=int, default=512)
    p.add_argument("--threads", default="1,2", help="the thread counts to measure (comma-separated)")
    p.add_argument("--repeats", type=int, default=3, help="runs per backend, network and thread count "
                   "(interleaved; the median is reported)")
    p.add_argument("--install", action="store_true", help="also measure each library's install")
    p.add_argument("--jax-python", default=sys.executable, help="a Python with JAX and optax installed")
    p.add_argument("--torch-python", default=sys.executable, help="a Python with PyTorch installed")
    p.add_argument("--json", default=str(ROOT / "bench" / "results" / "train_backends.json"))
    p.add_argument("--worker", nargs=2, metavar=("BACKEND", "NETWORK"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker[0], args.worker[1], args.steps, int(args.threads), args.rows)))
        return 0
    load = [os.getloadavg()[0]]
    runs: Dict[Any, List[Dict[str, Any]]] = {}
    for _ in range(args.repeats):
        for threads in (int(t) for t in args.threads.split(",")):
            env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), OMP_NUM_THREADS=str(threads),
                       XLA_FLAGS=f"--xla_cpu_multi_thread_eigen={'true' if threads > 1 else 'false'} "
                                 f"intra_op_parallelism_threads={threads}")
            for name in NETWORKS:
                for backend, python in (("torch", args.torch_python), ("jax", args.jax_python)):
                    out = subprocess.run([python, __file__, "--worker", backend, name, "--steps", str(args.steps),
                                          "--rows", str(args.rows), "--threads", str(threads)], env=env,
                                         capture_output=True, text=True)
                    if out.returncode:
                        print(out.stderr[-2000:], file=sys.stderr)
                        return 1
                    r = json.loads(out.stdout.strip().splitlines()[-1])
                    runs.setdefault((name, backend, threads), []).append(r)
                    load.append(os.getloadavg()[0])
                    print(f"{name} {backend} {r['version']} on {threads} threads: {r['steps_per_second']:.1f} steps/s",
                          flush=True)
    speed = []
    for rs in runs.values():
        rates = sorted(r["steps_per_second"] for r in rs)
        speed.append(dict(rs[0], steps_per_second=rates[len(rates) // 2], all_steps_per_second=rates,
                          rows_per_second=rates[len(rates) // 2] * args.rows))
    result: Dict[str, Any] = dict(command="python bench/train_backends.py " + " ".join(argv or sys.argv[1:]),
                                  commit=_commit(), load=[min(load), max(load)], cores=os.cpu_count(), speed=speed)
    if args.install:
        result["install"] = [_install(b) for b in INSTALLS]
        result["unpinned_torch"] = _unpinned_torch()
        for i in result["install"]:
            print(f"install {i['backend']}: {i['seconds']:.0f} s, {i['megabytes']:.0f} MB", flush=True)
    pathlib.Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
