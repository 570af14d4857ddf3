import os
import signal
import sys

import pytest

# Make the shared harness (tests/conformance.py) importable from every game's test folder.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# A shell that starts pytest in the background without job control (`cmd &` in a script) starts it
# with SIGINT ignored, and Python then installs no KeyboardInterrupt handler: the Ctrl-C tests
# (and the servers and CLIs they start, which inherit the ignored signal) would wait for nothing.
# Python's own handler is put back, so those tests see the same Ctrl-C as a terminal gives.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config, items):
    """Tests marked ``train`` need JAX and optax (the ``train`` extra, which the test extra includes)."""
    from tilecraft.agents.train.fitting import MISSING, have_jax

    marked = [item for item in items if item.get_closest_marker("train") is not None]
    if marked and not have_jax() and os.environ.get("TILECRAFT_REQUIRE_TRAIN"):
        raise pytest.UsageError(f"TILECRAFT_REQUIRE_TRAIN is set (CI), but {MISSING}")
    if marked and not have_jax():
        skip = pytest.mark.skip(reason=MISSING)
        for item in marked:
            item.add_marker(skip)
