"""An exception on a C++ worker thread (issue 19, section 4, finding 3).

It used to terminate the process ("terminate called without an active exception"). Every runner
that starts threads goes through one helper (cpp/core/threads.hpp): the first exception on any
worker stops the others and is raised on the caller as its own type (std::bad_alloc as MemoryError,
tilecraft's errors as theirs). _core._test_fail_worker(k, kind) makes the k-th unit of work that
runs on a worker thread (not the caller's) throw; each probe runs in a subprocess, so a
std::terminate fails the test instead of killing pytest."""
import os
import subprocess
import sys
import textwrap

import pytest


PRELUDE = textwrap.dedent('''
    import numpy as np, tilecraft
    from tilecraft import _core

    def expect(kind, fn, exc, retries=1):
        """Injects a failure into a worker, runs fn, and prints what it raised."""
        try:
            for _ in range(retries):  # the pool may finish a call before a worker joins it
                _core._test_fail_worker(1, kind)
                try:
                    fn()
                except exc as e:
                    print("RAISED", type(e).__name__, "injected failure" in str(e) or kind == "memory")
                    return
            print("NOT RAISED")
        finally:
            _core._test_fail_worker(0)
''')

RUNNERS = {
    "random_playouts": 'lambda: tilecraft.random_playouts("azul", 4000, seed=1, threads=2)',
    "self_play": 'lambda: tilecraft.self_play("castle", ["random", "random"], 400, seed=1, threads=2)',
    "root_parallel_mcts": 'lambda: tilecraft.MCTSBot(iterations=200, threads=2, seed=1).act(tilecraft.make("castle"))',
}

EXPECTED = {"memory": "MemoryError", "config": "InvalidConfigError", "runtime": "RuntimeError"}


def _run(code):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))  # the tilecraft this test imported
    proc = subprocess.run([sys.executable, "-c", PRELUDE + code], capture_output=True, text=True, timeout=120,
                          env=env)
    assert proc.returncode == 0, f"status {proc.returncode}: {proc.stderr[-2000:]}"
    return proc.stdout


# One subprocess per case (about 1 s each). Every runner goes through the same helper, and each
# kind is the same translation for every runner, so by default each runner is probed with one kind
# (every kind once: config, memory, runtime over the runners in order); the other six (kind, runner)
# pairs run under -m slow.
WORKER_DEFAULT = set(zip(sorted(EXPECTED), sorted(RUNNERS)))


@pytest.mark.parametrize("kind, runner", [
    (k, r) if (k, r) in WORKER_DEFAULT else pytest.param(k, r, marks=pytest.mark.slow)
    for k in sorted(EXPECTED) for r in sorted(RUNNERS)])
def test_a_failing_worker_raises_on_the_caller(kind, runner):
    exc = {"memory": "MemoryError", "config": "tilecraft.InvalidConfigError", "runtime": "RuntimeError"}[kind]
    # retries: on a loaded machine the caller's thread may do every unit of a call before a worker
    # thread starts (seen once under CI's sanitizer builds), and then nothing was injected yet
    out = _run(f'expect({kind!r}, {RUNNERS[runner]}, {exc}, retries=20)\n'
               # afterwards the same call works and gives the single-threaded answer
               f'print("AGAIN", type(({RUNNERS[runner]})()).__name__)\n')
    assert out.splitlines()[0] == f"RAISED {EXPECTED[kind]} True", out
    assert out.splitlines()[1].startswith("AGAIN"), out


def test_a_failed_search_leaves_the_bot_usable_and_deterministic():
    out = _run(textwrap.dedent('''
        s = tilecraft.make("castle", seed=2)
        ref = tilecraft.MCTSBot(iterations=60, threads=2, seed=5).search(s)["visits"]
        bot = tilecraft.MCTSBot(iterations=60, threads=2, seed=5)
        expect("memory", lambda: bot.search(s), MemoryError)
        print("SAME", bool((bot.search(s)["visits"] == ref).all()))
    '''))
    assert out.splitlines() == ["RAISED MemoryError True", "SAME True"], out


def test_vector_pool_worker_failure_raises_and_then_needs_reset():
    out = _run(textwrap.dedent('''
        v = tilecraft.VectorGame("azul", 256, threads=2, seed=3)
        v.reset()
        expect("memory", lambda: v.step(v.sample_legal()), MemoryError, retries=2000)
        # The failure hit either the batch check (nothing applied: the env goes on) or the step
        # itself (its games are part-way: every call but reset() refuses).
        try:
            v.step(v.sample_legal())
            print("AFTER usable")
        except RuntimeError as e:
            print("AFTER", "call reset()" in str(e) and "interrupted or failed" in str(e))
        r = v.reset(seed=3)
        ref = tilecraft.VectorGame("azul", 256, threads=1, seed=3).reset()
        print("RESET", bool((r.observation == ref.observation).all()))
    '''))
    lines = out.splitlines()
    assert lines[0] == "RAISED MemoryError True" and lines[1] in ("AFTER usable", "AFTER True"), out
    assert lines[2] == "RESET True", out


def test_failure_hook_is_off_by_default_and_validates_its_kind():
    from tilecraft import _core
    import tilecraft
    assert tilecraft.random_playouts("azul", 50, seed=1, threads=2)["length"].shape == (50,)
    with pytest.raises(ValueError, match="kind must be"):
        _core._test_fail_worker(1, "nope")
