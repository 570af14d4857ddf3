"""AlphaZero-style learning on a CPU with tilecraft's parts: the loop that ``tilecraft train`` runs
(tilecraft/agents/train/; docs/training.md), written out as a script you can copy and change.

    python examples/alphazero.py azul --out runs/azul-2p --chunks 40 --games-per-chunk 50 \\
        --teacher mcts:iterations=2000 --generations 4
    python examples/alphazero.py azul --quick --out /tmp/az      # a smoke run of a minute or so

1. Expert iteration: C++ self-play of a strong search (the teacher) recorded as byte-coded
   observations, legal masks, visit distributions, win shares and score margins
   (``tilecraft.self_play(..., record=True, obs_dtype=numpy.uint8)``).
2. A policy-value MLP trained on it (JAX: pip install "tilecraft[train]"), exported as a
   ``tilecraft.baselines`` file: a numpy evaluator for ``PUCTBot`` and the ``baseline`` bots.
3. Generations (``--generations`` > 1): Gumbel PUCT self-play with the best network's own search, its
   improved policies added to the data, the network fitted further, and promoted when its search
   beats the best network's (the gate: simulation counts, seats rotated).
4. After every generation: the gate, the policy alone against greedy, the search against the plain
   search at equal time, and the value head's held-out error beside a rollout's, with 95% intervals
   (``tilecraft.strength.head_to_head``), written to DIR/generations.json and drawn in
   DIR/generations.md and DIR/generations.svg.

Every stage resumes: run the same command again after Ctrl-C.
"""
from __future__ import annotations

import sys
from typing import Any, Dict, Optional, Sequence

from tilecraft import train

QUICK = ["--chunks", "2", "--games-per-chunk", "4", "--teacher", "mcts:iterations=50", "--hidden", "64",
         "--epochs", "2", "--generations", "2", "--selfplay-games", "4", "--selfplay-chunks", "2",
         "--selfplay-simulations", "8", "--gate-games", "2", "--eval-games", "2", "--eval-simulations", "16",
         "--eval-ms", "5", "--eval-workers", "1", "--value-positions", "50"]


def main(argv: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--quick" in argv:
        argv = [a for a in argv if a != "--quick"]
        argv = argv[:1] + QUICK + argv[1:]  # the game first; later flags override the quick ones
    args = train.parser().parse_args(argv)
    return train.run(args, argv)


if __name__ == "__main__":
    main()
