"""VectorGame under Ctrl-C and odd action dtypes (issue 19, section 4, findings 7 and 8).

- A step whose opponents search (64 Castle games, ``mcts:iterations=3000``: about 30 s of work)
  used to ignore Ctrl-C for the whole step. Now the interrupt reaches the opponents' searches and
  the step raises KeyboardInterrupt within a fraction of a second; its games are then part-way
  through the step, so every call but reset() raises RuntimeError saying so, and reset() starts
  clean episodes (docs/vector.md).
- A uint64 action of 2**63 used to be reported as 9223372036854775807 (a clamped value)."""
import _thread
import threading
import time

import numpy as np
import pytest

import tilecraft


def _interrupt_after(seconds):
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_reaches_the_opponents_searches(threads):
    v = tilecraft.VectorGame("castle", 64, seed=1, threads=threads, opponents="mcts:iterations=3000")
    v.reset()
    # The learner's first step only places its tile (its turn goes on: no search); the second ends
    # its turn, and the opponents search: about 30 to 50 s of work for 64 games.
    v.step(v.sample_legal().copy())
    actions = v.sample_legal().copy()
    timer = _interrupt_after(0.5)
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            v.step(actions)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 5.0
    with pytest.raises(RuntimeError, match=r"last step\(\) was interrupted or failed.*call reset\(\)"):
        v.step(actions)
    with pytest.raises(RuntimeError, match="call reset"):
        v.sample_legal()
    # reset() starts clean episodes: the same as a fresh environment's
    fresh = tilecraft.VectorGame("castle", 64, seed=1, threads=threads, opponents="mcts:iterations=3000")
    assert np.array_equal(v.reset(seed=1).observation, fresh.reset().observation)


def test_an_uninterrupted_step_with_opponents_still_works():
    v = tilecraft.VectorGame("castle", 4, seed=2, threads=2, opponents="mcts:iterations=20")
    v.reset()
    for _ in range(3):
        r = v.step(v.sample_legal())
    assert r.observation.shape[0] == 4


@pytest.mark.parametrize("value", [2**63, 2**64 - 1])
def test_a_huge_uint64_action_is_reported_as_given(value):
    v = tilecraft.VectorGame("azul", 3, seed=0)
    v.reset()
    before = v.sample_legal().copy()
    actions = before.astype(np.uint64)  # legal everywhere but in env 1
    actions[1] = value
    with pytest.raises(tilecraft.IllegalActionError, match=rf"env 1: action {value} is out of range: action ids "
                                                            r"are 0\.\.\d+; nothing was applied"):
        v.step(actions)
    r = v.step(before.astype(np.uint64))  # nothing was applied: the same batch, as uint64, is legal
    assert not r.info["reset"].any()
