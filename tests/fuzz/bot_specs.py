"""Fuzz target "bot-specs": bytes -> a bot spec text -> ``make_bot(spec)``, then one move (one search)
on a small state. The contract (issue 45): a spec is a bot or a ValueError/TypeError (or, from the
search, an EvaluatorError) with a message; anything else, or a dead interpreter, is a crash.

The bytes choose (first byte) between raw text and a spec built from a bot name (usually a real
one) and its options (usually real ones, read from the bot's signature) with values drawn from
the edges: 0, negatives, 5e-324, 1e308, nan, inf, huge integers, words. Budgets beyond BUDGET
(iterations, simulations, seconds, ...) are made but not searched with, so an input stays a few ms.
"""
import inspect

import numpy as np

import tilecraft
from tilecraft.bots import BOT_FACTORIES, bot_options, make_bot
from tilecraft.puct import EvaluatorError
from harness import Bytes

EXPECTED = (ValueError, TypeError, EvaluatorError)
NAMES = sorted(BOT_FACTORIES)
# the most an input searches with: options that scale the time of one move
BUDGET = {"iterations": 64, "simulations": 32, "seconds": 0.02, "rollouts": 4, "worlds": 4, "threads": 2,
          "batch_size": 64, "gumbel_actions": 64, "rollout_depth": 256, "max_nodes": 10**6}
EDGES = ("0", "-1", "5e-324", "1e-300", "1e308", "3e38", "nan", "inf", "-inf", "2147483648",
         "18446744073709551616", "", "x")
# plausible values by the kind of an option's default (read from the bot's signature)
PLAUSIBLE = {int: ("1", "2", "3", "4", "8", "16"), float: ("0", "0.25", "0.5", "1", "1.5", "2", "10"),
             bool: ("true", "false"),
             str: ("search", "iteration", "hidden-iteration", "share", "margin", "random", "heuristic", "uniform")}
WORDS = ("/dev/null", "tilecraft.bots:RandomBot", "azul", "none", "0.0.0")
STATES = [tilecraft.make("azul", seed=1), tilecraft.make("warsaw", players=3, seed=2)]
_s = tilecraft.make("gaudi", seed=3)
for _ in range(20):
    _s.apply(int(_s.legal_actions()[0]))
STATES.append(_s)


def _defaults(name: str):
    """(option, default) pairs of a bot kind, from its signature."""
    params = inspect.signature(BOT_FACTORIES[name]).parameters.values()
    return [(p.name, p.default) for p in params if p.name in (bot_options(BOT_FACTORIES[name]) or [])]


def _value(b: Bytes, default) -> str:
    r = b.u8() % 8
    if r < 5:  # plausible for its kind (any kind's when the default is None)
        kinds = [k for k in (bool, int, float, str) if isinstance(default, k)][:1] or [int, float, str, bool]
        return b.pick(PLAUSIBLE[b.pick(kinds)])
    if r < 7:
        return b.pick(EDGES)
    return b.pick(WORDS) if b.u8() & 1 else b.text(8)


def _structured(b: Bytes) -> str:
    name = b.pick(NAMES) if b.u8() % 8 else b.text(10)
    known = _defaults(name) if name in BOT_FACTORIES else []
    items: dict = {}  # mostly distinct options (one given twice is refused: tried now and then)
    for _ in range(b.u8() % 8):
        key, default = b.pick(known) if known and b.u8() % 8 else (b.pick(("iteration", "depth", "")), None)
        if key in items and b.u8() % 8:
            continue
        items[key if key not in items else key + " "] = f"{key}={_value(b, default)}" if b.u8() % 16 else key
    return name + (":" + ",".join(items.values()) if items else "")


def _affordable(spec: str) -> bool:
    """Whether one move of this spec stays small (every budget option within BUDGET)."""
    for item in spec.partition(":")[2].split(","):
        key, _, value = item.partition("=")
        if key.strip() in BUDGET:
            try:
                v = float(value)
            except ValueError:
                continue
            if not v <= BUDGET[key.strip()]:
                return False
    name = spec.partition(":")[0]
    budgets = [k for k in ("iterations", "simulations", "seconds") if k in (bot_options(BOT_FACTORIES[name]) or [])] \
        if name in BOT_FACTORIES else []
    return not budgets or any(f"{k}=" in spec for k in budgets)  # a default budget is too big for a fuzz input


def one_input(data: bytes) -> None:
    b = Bytes(data)
    spec = b.text(200) if b.u8() % 4 == 0 else _structured(b)
    state = b.pick(STATES).clone()
    try:
        bot = make_bot(spec, seed=b.u32())
    except EXPECTED as e:
        assert str(e), f"{type(e).__name__} without a message for {spec!r}"
        return
    if not _affordable(spec):
        return
    before = state.to_json()
    try:
        if hasattr(bot, "reset"):
            bot.reset(state.current_player(), b.u32())
        action = bot.act(state)
    except EXPECTED as e:
        assert str(e), f"{type(e).__name__} without a message for {spec!r}"
        return
    assert state.to_json() == before, f"{spec!r}: the bot changed the state it was given"
    assert state.is_legal(int(action)), f"{spec!r}: illegal action {action}"
    assert isinstance(action, (int, np.integer))
