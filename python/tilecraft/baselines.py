"""The old spelling of :mod:`tilecraft.agents.baselines`: importing it gives that module."""
import sys

from .agents import baselines as _moved
from .agents.baselines import *  # noqa: F401,F403 (what a type checker sees)

sys.modules[__name__] = _moved
