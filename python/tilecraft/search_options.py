"""The old spelling of :mod:`tilecraft.agents.search_options`: importing it gives that module."""
import sys

from .agents import search_options as _moved
from .agents.search_options import *  # noqa: F401,F403 (what a type checker sees)

sys.modules[__name__] = _moved
