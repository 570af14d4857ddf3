"""The agents half of tilecraft: what plays and learns the games the engine runs.

- ``tilecraft.agents.model``: the policy-value network, written once (shapes, weights, forward
  pass, losses, the C++ evaluator's arrays);
- ``tilecraft.agents.train``: the learning loop behind ``tilecraft train``, by concern: its
  configuration, its files, the data, the fit and the evaluation.
"""
from .._lazy import lazy_submodules

__getattr__, __dir__ = lazy_submodules(__name__, __path__)
