"""The old spelling of :mod:`tilecraft.agents.presets`: importing it gives that module."""
import sys

from .agents import presets as _moved
from .agents.presets import *  # noqa: F401,F403 (what a type checker sees)

sys.modules[__name__] = _moved
