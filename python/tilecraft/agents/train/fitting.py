"""Training the network (tilecraft.agents.model) on a run's rows with JAX: gradients from
``jax.value_and_grad`` of the model module's losses, compiled once per run (``jax.jit``), and the
optimizer (AdamW) from optax. JAX and optax are the ``train`` extra (``pip install
"tilecraft[train]"``; JAX runs on a GPU where ``jax[cuda12]`` is installed); playing with a network
needs only numpy. Why JAX: docs/training.md."""
from __future__ import annotations

import math
import os
import pathlib
import sys
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np

from .. import baselines
from .. import model
from .data import batch_arrays
from .files import publish

TRAIN_EXTRA = "train"  # pyproject.toml's optional dependency that installs JAX and optax
MISSING = f'training needs JAX and optax, which are not installed: pip install "tilecraft[{TRAIN_EXTRA}]"'


def have_jax() -> bool:
    """Whether JAX and optax can be imported (``tilecraft[train]``)."""
    try:
        import jax  # noqa: F401
        import optax  # noqa: F401
    except ImportError:
        return False
    return True


def _jax(threads: int) -> Tuple[Any, Any, Any]:
    """(jax, jax.numpy, optax), or a ModuleNotFoundError that says how to install them. JAX takes its
    thread count when it is first imported: ``threads`` applies unless JAX is imported already or
    XLA_FLAGS is set."""
    if "jax" not in sys.modules and "XLA_FLAGS" not in os.environ:
        os.environ["XLA_FLAGS"] = (f"--xla_cpu_multi_thread_eigen={'true' if threads > 1 else 'false'} "
                                   f"intra_op_parallelism_threads={max(1, threads)}")
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise ModuleNotFoundError(MISSING, name="jax") from None
    return jax, jnp, optax


class _JaxOps:
    """tilecraft.agents.model's array operations on JAX arrays."""

    def __init__(self, jax: Any, jnp: Any):
        self.relu, self.jnp, self.jax = jax.nn.relu, jnp, jax

    def cat(self, parts: Sequence[Any]) -> Any:
        return self.jnp.concatenate(list(parts), axis=1)

    def log_softmax(self, x: Any) -> Any:
        return self.jax.nn.log_softmax(x, axis=1)

    def where(self, cond: Any, x: Any, fill: float) -> Any:
        return self.jnp.where(cond, x, fill)


# The compiled steps made so far, by the arrays' names and shapes and the feature groups: a later
# generation (or run) of the same network reuses its compilation.
_STEPS: Dict[Any, Tuple[Any, Any]] = {}


def _compiled_step(jax: Any, optax: Any, params: Mapping[str, Any], index: Optional[model.GroupIndex],
                   ops: Any) -> Tuple[Any, Any]:
    """(the AdamW optimizer, the jitted step) for a network of these shapes and feature groups."""
    key = (tuple(sorted((k, tuple(v.shape)) for k, v in params.items())),
           None if index is None else (tuple(i.tobytes() + bytes(str(i.shape), "ascii") for i in index[0]),
                                       index[1].tobytes()))
    if key not in _STEPS:
        opt = optax.inject_hyperparams(optax.adamw)(learning_rate=0.0, b1=0.9, b2=0.999, eps=1e-8, weight_decay=1e-4)

        def loss(p: Any, batch: Any, margin_weight: Any, value_weight: Any) -> Any:
            pol, val, mar, _ = model.losses(p, *batch, index, ops)
            return pol + value_weight * val + margin_weight * mar, (pol, val, mar)

        def step(p: Any, state: Any, batch: Any, lr: Any, margin_weight: Any, value_weight: Any) -> Any:
            (_, parts), grads = jax.value_and_grad(loss, has_aux=True)(p, batch, margin_weight, value_weight)
            state.hyperparams["learning_rate"] = lr
            updates, state = opt.update(grads, state, p)
            return optax.apply_updates(p, updates), state, parts

        while len(_STEPS) >= 16:  # a long-lived process that trains many shapes keeps the latest
            del _STEPS[next(iter(_STEPS))]
        _STEPS[key] = (opt, jax.jit(step))
    return _STEPS[key]


class Trainer:
    """The network's weights as JAX arrays and their AdamW state; ``step`` takes one batch of numpy
    arrays and runs one compiled update (compiled on the first batch of each shape)."""

    def __init__(self, arrays: Mapping[str, np.ndarray], lr: float, threads: int,
                 index: Optional[model.GroupIndex] = None):
        jax, jnp, optax = _jax(threads)
        self.ops = _JaxOps(jax, jnp)
        self.index = index
        self.p = {k: jnp.asarray(np.array(v, np.float32)) for k, v in arrays.items() if k not in ("shift", "scale")}
        self._opt, self._step = _compiled_step(jax, optax, self.p, index, self.ops)
        self.state = self._opt.init(self.p)
        self.lr = lr

    def set_lr(self, lr: float) -> None:
        self.lr = lr

    def step(self, x: np.ndarray, mask: np.ndarray, pi: np.ndarray, z: np.ndarray, m: np.ndarray,
             margin_weight: float, value_weight: float = 1.0) -> Tuple[float, float, float]:
        """One AdamW step on the batch; returns its policy, value and margin losses."""
        self.p, self.state, parts = self._step(self.p, self.state, (x, mask, pi, z, m), np.float32(self.lr),
                                               np.float32(margin_weight), np.float32(value_weight))
        return float(parts[0]), float(parts[1]), float(parts[2])

    def arrays(self) -> Dict[str, np.ndarray]:
        return {k: np.array(v, np.float32) for k, v in self.p.items()}


def held_out_losses(arrays: Mapping[str, np.ndarray], data: Dict[str, np.ndarray], codec: Tuple[np.ndarray, np.ndarray],
                    index: Optional[model.GroupIndex] = None) -> Dict[str, float]:
    """Policy cross-entropy, value cross-entropy and margin error on data the network did not train on,
    and how often its top move is the teacher's (numpy: no gradients needed)."""
    flat = tuple(c.reshape(-1).astype(np.float32) for c in codec)
    sums = np.zeros(4)
    n = len(data["codes"])
    for start in range(0, n, 4096):
        x, mask, pi, z, m = batch_arrays(data, slice(start, start + 4096), flat, arrays["shift"], arrays["scale"])
        pol, val, mar, logits = model.losses(arrays, x, mask, pi, z, m, index)
        rows = len(x)
        sums += (pol * rows, val * rows, mar * rows, (logits.argmax(1) == pi.argmax(1)).sum())
    sums /= max(n, 1)
    return {"val_policy_loss": float(sums[0]), "val_value_loss": float(sums[1]), "val_margin_loss": float(sums[2]),
            "val_top1": float(sums[3])}


def fit(arrays: Dict[str, np.ndarray], data: Dict[str, np.ndarray], codec: Tuple[np.ndarray, np.ndarray],
        epochs: float, batch: int = 512, lr: float = 1e-3, margin_weight: float = 0.25,
        seed: int = 0, threads: int = 2, log: Any = None,
        val: Optional[Dict[str, np.ndarray]] = None, value_weight: float = 1.0,
        checks: int = 10, groups: Sequence[Mapping[str, int]] = ()) -> Tuple[Dict[str, np.ndarray], Dict[str, float]]:
    """Trains ``arrays`` (from model.init or a previous fit) on ``data`` for ``epochs`` passes, with
    a cosine learning-rate decay. With ``val`` (held-out games), the weights are checked on it
    ``checks`` times and the best are kept (early stopping): for a value trunk of its own, the best
    policy and the best value apart; where policy and value share weights (one trunk, or a value
    trunk reading the same feature-group encoders), the best held-out policy cross-entropy plus
    ``value_weight`` times the value's. The value head sees one outcome per game and memorises the
    games it trains on long before the policy has learned, so a small ``value_weight`` lets the
    policy train on. ``groups``: the feature groups the arrays were made with (``model.init``).
    Returns the arrays and their losses. Needs JAX (``tilecraft[train]``)."""
    _jax(threads)  # before any work
    flat = tuple(c.reshape(-1).astype(np.float32) for c in codec)
    n = len(data["codes"])
    index = model.group_indices(groups, len(flat[0])) if groups else None
    if "shift" not in arrays:  # the input normalisation, from the first data seen (then kept)
        sample = data["codes"][np.random.default_rng(seed).permutation(n)[:20000]].astype(np.float32) / flat[0] + flat[1]
        mean, std = sample.mean(0), sample.std(0)
        for idx in (index[0] if index is not None else []):  # a group's blocks share their feature's statistics
            mean[idx] = sample[:, idx].mean(axis=(0, 1))[None, :]
            std[idx] = sample[:, idx].std(axis=(0, 1))[None, :]
        arrays = dict(arrays, shift=mean.astype(np.float32), scale=(1.0 / (std + 0.1)).astype(np.float32))
    shift, scale = arrays["shift"], arrays["scale"]
    trainer = Trainer(arrays, lr, threads, index)
    rng = np.random.default_rng(seed)
    steps = max(1, int(math.ceil(epochs * n / batch)))
    sums = np.zeros(3)
    count = 0
    order = rng.permutation(n)
    pos = 0
    every = max(1, steps // max(1, checks))
    best: Optional[Tuple[float, Dict[str, np.ndarray], Dict[str, float]]] = None
    # a value trunk of its own is picked apart from the policy's weights, unless both read shared encoders
    separate = model.depths(arrays)[1] > 0 and index is None
    best_value: Optional[Tuple[float, Dict[str, np.ndarray], Dict[str, float]]] = None

    def snapshot() -> Dict[str, np.ndarray]:
        out = trainer.arrays()
        out["shift"], out["scale"] = shift, scale
        return out

    for s in range(steps):
        trainer.set_lr(lr * 0.5 * (1 + math.cos(math.pi * s / steps)))
        if pos + batch > n:
            order, pos = rng.permutation(n), 0
        idx = np.sort(order[pos:pos + batch])
        pos += batch
        x, mask, pi, z, m = batch_arrays(data, idx, flat, shift, scale)
        losses = trainer.step(x, mask, pi, z, m, margin_weight, value_weight)
        sums += losses
        count += 1
        if (s + 1) % every == 0 or s + 1 == steps:
            mean = sums / max(count, 1)
            stats = {"policy_loss": float(mean[0]), "value_loss": float(mean[1]), "margin_loss": float(mean[2]),
                     "step": s + 1, "steps": steps}
            sums, count = np.zeros(3), 0
            text = f"  step {s + 1}/{steps}: policy {mean[0]:.3f} value {mean[1]:.3f} margin {mean[2]:.3f}"
            if val is not None and len(val["codes"]):
                a = snapshot()
                stats.update(held_out_losses(a, val, codec, index))
                # a value trunk of its own is picked on its own: the value memorises long before the policy
                # has learned; a shared trunk is picked on the loss it is trained on (the value's weighted)
                score = stats["val_policy_loss"] + (0.0 if separate else value_weight * stats["val_value_loss"])
                text += (f" | held out: policy {stats['val_policy_loss']:.3f} value {stats['val_value_loss']:.3f} "
                         f"top-1 {stats['val_top1']:.3f}")
                if best is None or score < best[0]:
                    best = (score, a, stats)
                if separate and (best_value is None or stats["val_value_loss"] < best_value[0]):
                    best_value = (stats["val_value_loss"], a, stats)
            else:
                best = (0.0, None, stats)  # type: ignore[assignment]
            if log is not None:
                log(text)
    if best is None or best[1] is None:
        return snapshot(), (best[2] if best else {})
    chosen, stats = best[1], dict(best[2])
    if separate and best_value is not None:
        chosen = {k: (best_value[1][k] if model.is_value_key(k) else v) for k, v in chosen.items()}
        for k in ("val_value_loss", "value_loss", "val_margin_loss", "margin_loss"):
            stats[k] = best_value[2][k]
        stats["value_step"] = best_value[2]["step"]
    if log is not None:
        log(f"  kept the weights of step {best[2]['step']}" + (f" (the value trunk's of step {stats['value_step']})"
                                                                if "value_step" in stats else "")
            + " (the best on the held-out games)")
    return chosen, stats


def export(arrays: Dict[str, np.ndarray], meta: Dict[str, Any], path: pathlib.Path) -> pathlib.Path:
    """The baseline file: the trunk, policy and value heads (the margin head only helps training);
    written whole or not at all, the same arrays and metadata giving the same bytes."""
    keep = {k: v for k, v in arrays.items() if k not in model.MARGIN_KEYS}
    return publish(path, lambda tmp: baselines.save(tmp, keep, meta))
