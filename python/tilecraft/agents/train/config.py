"""The configuration of a training run: one object, :class:`TrainConfig`, whose fields give
``tilecraft train``'s flags, their defaults, their help and their allowed values."""
from __future__ import annotations

import argparse
import dataclasses
import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np


@dataclasses.dataclass(frozen=True)
class Number:
    """The values a numeric field allows (``TrainConfig.check`` applies it, ``--help`` states it)."""

    kind: type  # int or float
    low: float = 0
    high: float = 0
    low_open: bool = False  # low itself is not allowed
    or_zero: bool = False  # 0 is allowed as well (it means "none")
    puct: Optional[str] = None  # the PUCTBot option whose own check applies (its range is PUCTBot's)

    def allowed(self) -> str:
        if self.puct is not None:
            return f"what PUCTBot allows for {self.puct}"
        if self.kind is int:
            text = f"an integer in {int(self.low)}..{int(self.high)}"
        else:
            text = f"a number in {'(' if self.low_open else '['}{self.low:g}, {self.high:g}]"
        return f"0 or {text}" if self.or_zero else text

    def check(self, flag: str, value: Any) -> None:
        if self.puct is not None:
            from ..puct import PUCTBot

            try:
                PUCTBot(None, **{self.puct: value})
            except (ValueError, TypeError) as e:
                raise ValueError(f"{flag}: {e}") from None
            return
        from ..._args import is_integer

        number = is_integer(value) if self.kind is int else (
            isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)))
        ok = number and (self.or_zero and value == 0 or (
            math.isfinite(value) and (value > self.low if self.low_open else value >= self.low) and value <= self.high))
        if not ok:
            raise ValueError(f"{flag} must be {self.allowed()}, got {value!r}")


def _field(default: Any, help: str, number: Optional[Number] = None, **extra: Any) -> Any:
    """A TrainConfig field: its default, its help, its range (``number``) and how argparse takes it
    (``extra``: ``positional``, ``repeat`` (a list of KEY=VALUE items), ``choices``, ``metavar``)."""
    return dataclasses.field(default=default, metadata=dict(help=help, number=number, **extra))


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """Everything a training run is told, in ``tilecraft train --help``'s order. ``parser()`` makes
    the flags from these fields, ``check()`` checks their values; ``run(config)`` runs it."""

    game: str = _field("", "the game", positional=True)
    players: int = _field(2, "players (the game gives its allowed counts)")
    option: Tuple[str, ...] = _field((), "a rule option (repeatable)", repeat=True)
    out: Optional[str] = _field(None, "the run's folder (default: runs/GAME-Np); resumed when it exists (one run "
                                      "at a time: DIR/run.lock)")
    seed: int = _field(0, "the run's seed: every chunk's, the initial weights' and the batches'",
                       Number(int, 0, 2**64 - 1))
    teacher: str = _field("mcts:iterations=1000", "the search whose self-play is learned")
    chunks: int = _field(20, "teacher self-play chunks", Number(int, 1, 100_000))
    games_per_chunk: int = _field(100, "games per teacher chunk", Number(int, 1, 1_000_000))
    threads: int = _field(2, "self-play threads (and JAX's, where JAX is not imported yet)", Number(int, 1, 256))
    workers: int = _field(1, "teacher chunks made at once, each in a process of its own on --threads threads; a "
                             "chunk is the same whichever process makes it (a machine with many cores: --workers N "
                             "--threads 1)", Number(int, 1, 256))
    hidden: str = _field("512,256,256", "the trunk's layer widths (comma-separated)")
    value_hidden: str = _field("256,256", "the value trunk's layer widths ('': the value head sits on the policy's "
                                          "trunk)")
    groups: str = _field("auto", "auto: the game's feature groups (a shared encoder per board cell, seat or card; "
                                 "tilecraft.agents.model) where it declares them; none: every feature straight into "
                                 "the trunk", choices=("auto", "none"))
    epochs: float = _field(8.0, "passes over the data in the first round", Number(float, 0, 10_000, low_open=True))
    round_epochs: float = _field(2.0, "passes over the data in later rounds", Number(float, 0, 10_000, low_open=True))
    batch: int = _field(512, "rows per training step", Number(int, 1, 2**20))
    target_temperature: float = _field(1.0, "the policy is trained on the visit shares raised to 1/T (1: as "
                                            "searched; 0: the most visited action)", Number(float, 0, 100))
    value_weight: float = _field(0.5, "weight of the value loss against the policy's", Number(float, 0, 100))
    q_weight: float = _field(0.5, "value target: (1 - w) * the game's outcome + w * the searching bot's root estimate",
                             Number(float, 0, 1))
    hold_out: int = _field(10, "every Nth teacher chunk is held out to pick the best weights (0: none; fewer than N "
                               "chunks: none)", Number(int, 2, 100_000, or_zero=True))
    lr: float = _field(1e-3, "the learning rate of the first round (later rounds: 0.3 times it)",
                       Number(float, 0, 1, low_open=True))
    rounds: int = _field(1, "0: make the teacher's data and stop (train later, or elsewhere, from the same folder); "
                            "1: train on the teacher's data; more: Gumbel PUCT rounds", Number(int, 0, 10_000))
    puct_games: int = _field(200, "games of Gumbel PUCT self-play per later round", Number(int, 1, 1_000_000))
    puct_simulations: int = _field(64, "later rounds' PUCT: simulations per move", Number(int, puct="simulations"))
    puct_rollout_mix: float = _field(0.0, "later rounds' PUCT: leaf values mixed with rollouts (PUCTBot's "
                                          "rollout_mix; 0: the network's)", Number(float, puct="rollout_mix"))
    puct_prior_heuristic: float = _field(0.0, "later rounds' PUCT: the game's one-ply heuristic as a prior bias "
                                              "(PUCTBot's prior_heuristic)", Number(float, puct="prior_heuristic"))
    window: int = _field(0, "later rounds train on the last N chunks (0: all)", Number(int, 0, 100_000))
    eval_games: int = _field(40, "games per evaluation pairing (0: no evaluation)", Number(int, 0, 1_000_000))
    eval_simulations: int = _field(200, "the evaluation's PUCT: simulations per move", Number(int, puct="simulations"))
    eval_opponent: Optional[str] = _field(None, "the search PUCT is measured against (default: the teacher)")
    eval_workers: int = _field(2, "processes the evaluation plays on", Number(int, 1, 256))
    search: Tuple[str, ...] = _field((), "an option of the baseline bot that the evaluation searches with over the "
                                         "configuration's preset (tilecraft/agents/presets.json; repeatable): the settings "
                                         "it was evaluated with are written to DIR/preset.json (and beside --export)",
                                     repeat=True)
    export: Optional[str] = _field(None, "copy the final network to this file")
    quiet: bool = _field(False, "print nothing but errors")

    @classmethod
    def from_args(cls, args: Any) -> "TrainConfig":
        """The configuration of parsed arguments (an ``argparse.Namespace``; other attributes ignored)."""
        if isinstance(args, cls):
            return args
        given = vars(args)
        values = {f.name: given[f.name] for f in dataclasses.fields(cls) if f.name in given}
        for f in dataclasses.fields(cls):
            if f.metadata.get("repeat") and f.name in values:
                values[f.name] = tuple(values[f.name] or ())
        return cls(**values)

    def check(self) -> None:
        """Every numeric field in its range, before any work: a ValueError names the flag, what it
        allows and what it got."""
        for name, number in NUMBERS.items():
            number.check(flag(name), getattr(self, name))


# every numeric field with its range (all but --players: the game's own check gives its player counts)
NUMBERS: Dict[str, Number] = {f.name: f.metadata["number"] for f in dataclasses.fields(TrainConfig)
                              if f.metadata.get("number") is not None}

# each layer width of --hidden and --value-hidden (comma-separated lists)
LAYER_WIDTH = Number(int, 1, 65_536)


def widths(flag: str, text: str) -> List[int]:
    """The layer widths of a comma-separated list, each checked (LAYER_WIDTH)."""
    out = []
    for item in (t.strip() for t in str(text).split(",")):
        if not item:
            continue
        try:
            width = int(item)
        except ValueError:
            raise ValueError(f"{flag} lists layer widths ({LAYER_WIDTH.allowed()}, comma-separated), got "
                             f"{item!r} in {text!r}") from None
        LAYER_WIDTH.check(f"{flag}: each layer width", width)
        out.append(width)
    return out


def flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def add_arguments(p: argparse.ArgumentParser) -> None:
    """TrainConfig's fields as flags of ``p``."""
    for f in dataclasses.fields(TrainConfig):
        meta, default = f.metadata, f.default
        if meta.get("positional"):
            p.add_argument(f.name, help=meta["help"])
            continue
        kw: Dict[str, Any] = dict(default=default, help=meta["help"])
        if isinstance(default, bool):
            kw["action"] = "store_true"
        elif meta.get("repeat"):
            kw.update(action="append", default=None, metavar="KEY=VALUE")
        elif meta.get("number") is not None:
            kw.update(type=meta["number"].kind, help=f"{meta['help']} ({meta['number'].allowed()}; default {default})")
        elif isinstance(default, int):
            kw["type"] = int
        if meta.get("choices"):
            kw["choices"] = meta["choices"]
        p.add_argument(flag(f.name), **kw)


def key_values(items: Sequence[str], flag: str = "--option") -> Dict[str, Any]:
    """``KEY=VALUE`` items of a repeatable flag as a dict (parsed as bot specs parse them)."""
    from ..._args import key_values as parse

    return parse(items, lambda item: f"{flag} {item!r} must look like KEY=VALUE")
