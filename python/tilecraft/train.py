"""``tilecraft.train``, the old spelling of :mod:`tilecraft.agents.train` (the learning loop behind
``tilecraft train``): importing it gives that module itself, and ``python -m tilecraft.train`` runs
its command line."""
import sys

from .agents import train as _train

if __name__ == "__main__":  # pragma: no cover
    sys.exit(_train.main())
sys.modules[__name__] = _train
