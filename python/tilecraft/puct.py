"""The old spelling of :mod:`tilecraft.agents.puct`: importing it gives that module."""
import sys

from .agents import puct as _moved
from .agents.puct import *  # noqa: F401,F403 (what a type checker sees)

sys.modules[__name__] = _moved
