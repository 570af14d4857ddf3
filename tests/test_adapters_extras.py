"""Adapters as a user meets them (issue 19, section 3): an adapter imported without its extra
names the extra to install, and the registered Gymnasium ids pass Gymnasium's check_env as
called on ``gymnasium.make(id)``, with ``illegal_action="raise"`` one keyword away."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from tilecraft import IllegalActionError  # noqa: E402

PROBE = textwrap.dedent("""
    import importlib, sys
    adapter, missing = sys.argv[1], sys.argv[2]
    sys.modules[missing] = None  # as if the package were not installed
    try:
        importlib.import_module("tilecraft.adapters." + adapter)
    except ModuleNotFoundError as e:
        print(type(e).__name__, e.name, "|", e)
    else:
        print("imported")
""")


@pytest.mark.parametrize("adapter,missing,extra", [
    ("gymnasium", "gymnasium", "adapters"),
    ("pettingzoo", "pettingzoo", "adapters"),
    ("pettingzoo", "gymnasium", "adapters"),
    ("openspiel", "pyspiel", "openspiel"),
])
def test_an_adapter_without_its_extra_names_the_extra(adapter, missing, extra):
    r = subprocess.run([sys.executable, "-c", PROBE, adapter, missing], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    line = r.stdout.strip()
    assert line.startswith(f"ModuleNotFoundError {missing} |"), line  # still a ModuleNotFoundError for callers
    assert f'pip install "tilecraft[{extra}]"' in line and f"tilecraft.adapters.{adapter}" in line


@pytest.mark.parametrize("env_id", ["tilecraft/Azul-v0", "tilecraft/Castle-v0"])
def test_registered_ids_pass_check_env_as_a_user_calls_it(env_id):
    import tilecraft.adapters.gymnasium  # noqa: F401  (registers the ids)
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(env_id)
    check_env(env.unwrapped, skip_render_check=True)  # Gymnasium's advice; every other warning is an error
    with warnings.catch_warnings():  # on the wrapped env Gymnasium only adds its wrapper notice
        warnings.filterwarnings("ignore", message=".*different from the unwrapped version")
        check_env(env, skip_render_check=True)
    env.close()


def test_registered_id_penalises_an_illegal_action_and_raise_is_one_keyword_away():
    import tilecraft.adapters.gymnasium  # noqa: F401

    env = gymnasium.make("tilecraft/Azul-v0", disable_env_checker=True)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)

    strict = gymnasium.make("tilecraft/Azul-v0", illegal_action="raise", disable_env_checker=True)
    obs, _ = strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    # the direct class keeps refusing illegal actions by default (what a masked policy wants)
    from tilecraft.adapters.gymnasium import BotOpponentEnv

    assert BotOpponentEnv("azul", opponents=["greedy"]).illegal_action == "raise"
