"""The old spelling of :mod:`tilecraft.agents.strength`: importing it gives that module."""
import sys

from .agents import strength as _moved
from .agents.strength import *  # noqa: F401,F403 (what a type checker sees)

sys.modules[__name__] = _moved
