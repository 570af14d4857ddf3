"""The old spelling of :mod:`tilecraft.agents.bots`: importing it gives that module."""
import sys

from .agents import bots as _moved
from .agents.bots import *  # noqa: F401,F403 (what a type checker sees)

sys.modules[__name__] = _moved
