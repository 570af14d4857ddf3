"""The old spelling of :mod:`tilecraft.agents.train`: importing it gives that module, and
``python -m tilecraft.train`` runs its command line."""
import sys

from .agents import train as _moved
from .agents.train import *  # noqa: F401,F403 (what a type checker sees)

if __name__ == "__main__":  # pragma: no cover
    sys.exit(_moved.main())
sys.modules[__name__] = _moved
