"""The old spelling of :mod:`tilecraft.agents.selfplay`: importing it gives that module."""
import sys

from .agents import selfplay as _moved
from .agents.selfplay import *  # noqa: F401,F403 (what a type checker sees)

sys.modules[__name__] = _moved
