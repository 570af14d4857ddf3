"""The policy-value network, written once: its arrays' names and shapes, fresh weights, the forward
pass and the losses (on numpy, PyTorch or JAX arrays alike), and its conversion to the C++
evaluator ``tilecraft._core.MlpNet``.

The arrays of a network (``shapes`` lists them with their shapes):

- ``shift``, ``scale``: the input normalisation, one per feature: ``(x - shift) * scale``;
- ``gw0, gb0, ...``: feature groups' encoders (below), ReLU after each;
- ``w0, b0, ...``: the trunk, ReLU after each layer;
- ``vw0, vb0, ...``: where ``value_hidden`` lists widths, a value trunk of its own on the same input;
- ``wp, bp``: policy logits over the action ids, on the trunk;
- ``wv, bv``: value logits for the seats relative to the observer (a softmax gives their win
  shares), on the value trunk (or the trunk where there is none);
- ``wm, bm``: the score margins of the seats relative to the observer, a training aid beside the
  value head (network files leave it out).

**Feature groups.** A game may declare groups (``GameSpec.observation_groups``): ``count`` blocks of
``width`` features each, block k's feature j at ``offset + k * block_stride + j * feature_stride`` (a
board cell's planes, a seat's block, a card's locations). One small layer (``gwI``: width x embed,
``gbI``, ReLU) encodes every block of group I with the same weights; the trunk's first layer takes
the features in no group followed by each group's encodings, block by block. A wide observation
then costs a few thousand weights per group instead of one weight per feature and hidden unit.

The forward pass takes an ``ops`` object for the few operations that differ between array
libraries (``NUMPY``, ``tilecraft.agents.train.fit``'s PyTorch ops); everything else is ``@``, ``+``
and indexing, which all of them share.
"""
from __future__ import annotations

import math
import reprlib
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

GROUP_KEYS = ("offset", "count", "width", "block_stride", "feature_stride", "embed")
MARGIN_KEYS = ("wm", "bm")  # the training aid that network files leave out

_shown = reprlib.Repr()
_shown.maxstring = _shown.maxother = 80

# (each group's (count, width) feature indices, the features in no group): see group_indices
GroupIndex = Tuple[List[Any], Any]


def group_indices(groups: Sequence[Mapping[str, Any]], n_in: int,
                  where: str = "groups") -> Tuple[List[np.ndarray], np.ndarray]:
    """Per group the (count, width) indices of its features in the observation, and the ascending
    indices of the features in no group. Raises ValueError (naming ``where[i]``) for a group that
    is malformed, leaves the observation, or overlaps another."""
    used = np.zeros(n_in, bool)
    out: List[np.ndarray] = []
    if not isinstance(groups, (list, tuple)):
        raise ValueError(f"{where} must be a list of groups, got {type(groups).__name__}")
    for i, g in enumerate(groups):
        at = f"{where}[{i}]"
        if not isinstance(g, Mapping):
            raise ValueError(f"{at} must be an object with {', '.join(GROUP_KEYS)}")
        missing = [k for k in GROUP_KEYS if k not in g]
        if missing:
            raise ValueError(f"{at} lacks {', '.join(missing)}")
        vals = {k: g[k] for k in GROUP_KEYS}
        if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in vals.values()):
            raise ValueError(f"{at}: {', '.join(GROUP_KEYS)} must be integers, got {_shown.repr(vals)}")
        if vals["offset"] < 0 or min(vals[k] for k in GROUP_KEYS[1:]) < 1:
            raise ValueError(f"{at}: offset must be at least 0 and the rest at least 1, got {vals}")
        # its last feature, in Python integers (no overflow) before any array is sized by the values
        last = (int(vals["offset"]) + (int(vals["count"]) - 1) * int(vals["block_stride"])
                + (int(vals["width"]) - 1) * int(vals["feature_stride"]))
        if last >= n_in:
            raise ValueError(f"{at} reaches feature {last}; the observation has {n_in}")
        idx = (vals["offset"] + np.arange(vals["count"])[:, None] * vals["block_stride"]
               + np.arange(vals["width"])[None, :] * vals["feature_stride"])
        flat = idx.reshape(-1)
        if len(np.unique(flat)) != len(flat) or used[flat].any():
            raise ValueError(f"{at} names a feature twice (its blocks overlap each other or another group)")
        used[flat] = True
        out.append(idx)
    return out, np.flatnonzero(~used)


def input_width(groups: Sequence[Mapping[str, Any]], n_in: int) -> int:
    """The width of the trunks' input: the features in no group plus every block's encoding."""
    return n_in + sum(int(g["count"]) * (int(g["embed"]) - int(g["width"])) for g in groups)


def shapes(n_in: int, hidden: Sequence[int], n_act: int, seats: int, value_hidden: Sequence[int] = (),
           groups: Sequence[Mapping[str, Any]] = (), margin: bool = True) -> Dict[str, Tuple[int, ...]]:
    """Every array of the network and its shape, in a fixed order (``margin``: with ``wm, bm``)."""
    hidden, value_hidden = list(hidden), list(value_hidden)
    out: Dict[str, Tuple[int, ...]] = {"shift": (n_in,), "scale": (n_in,)}
    for i, g in enumerate(groups):
        out[f"gw{i}"], out[f"gb{i}"] = (int(g["width"]), int(g["embed"])), (int(g["embed"]),)
    trunk_in = input_width(groups, n_in)
    for prefix, widths in (("", [trunk_in] + hidden), ("v", [trunk_in] + value_hidden if value_hidden else [])):
        for i in range(len(widths) - 1):
            out[f"{prefix}w{i}"], out[f"{prefix}b{i}"] = (widths[i], widths[i + 1]), (widths[i + 1],)
    value_in = value_hidden[-1] if value_hidden else hidden[-1]
    for head, n, width in (("p", n_act, hidden[-1]), ("v", seats, value_in)) + ((("m", seats, value_in),)
                                                                                if margin else ()):
        out[f"w{head}"], out[f"b{head}"] = (width, n), (n,)
    return out


def init(n_in: int, hidden: Sequence[int], n_act: int, seats: int, seed: int, value_hidden: Sequence[int] = (),
         groups: Sequence[Mapping[str, Any]] = ()) -> Dict[str, np.ndarray]:
    """Fresh weights (without ``shift`` and ``scale``, which training takes from its data): He
    initialisation for the encoders' and trunks' weights, zero biases and zero heads."""
    rng = np.random.default_rng(seed)
    out: Dict[str, np.ndarray] = {}
    for k, shape in shapes(n_in, hidden, n_act, seats, value_hidden, groups).items():
        if k in ("shift", "scale"):
            continue
        if _is_hidden(k):
            out[k] = (rng.normal(size=shape) * math.sqrt(2.0 / shape[0])).astype(np.float32)
        else:
            out[k] = np.zeros(shape, np.float32)
    return out


def _is_hidden(k: str) -> bool:
    """Whether ``k`` is an encoder's or a trunk's weight matrix (``gwI``, ``wI``, ``vwI``)."""
    return any(k.startswith(p) and k[len(p):].isdigit() for p in ("gw", "w", "vw"))


def depths(arrays: Mapping[str, Any]) -> Tuple[int, int]:
    """(the trunk's depth, the value trunk's: 0 when the value head sits on the trunk)."""
    return (sum(1 for k in arrays if k[0] == "w" and k[1:].isdigit()),
            sum(1 for k in arrays if k.startswith("vw") and k[2:].isdigit()))


def is_value_key(k: str) -> bool:
    """Whether array ``k`` serves only the value (and margin) heads: the value trunk and those heads."""
    return k in ("wv", "bv", "wm", "bm") or (k[0] == "v" and k[1:2] in ("w", "b") and k[2:].isdigit())


class _NumpyOps:
    """The operations that differ between array libraries, for numpy (float32 in, float32 out)."""

    @staticmethod
    def relu(x: np.ndarray) -> np.ndarray:
        return np.maximum(x, 0.0, out=x)  # x is always a fresh result here

    @staticmethod
    def cat(parts: Sequence[np.ndarray]) -> np.ndarray:
        return np.concatenate(parts, axis=1)

    @staticmethod
    def log_softmax(x: np.ndarray) -> np.ndarray:
        z = x - x.max(axis=1, keepdims=True)
        return z - np.log(np.exp(z).sum(axis=1, keepdims=True))

    @staticmethod
    def where(cond: np.ndarray, x: np.ndarray, fill: float) -> np.ndarray:
        return np.where(cond, x, np.float32(fill))


NUMPY = _NumpyOps()


def trunks(p: Mapping[str, Any], x: Any, index: Optional[GroupIndex], ops: Any = NUMPY) -> Tuple[Any, Any]:
    """The last hidden layers of the policy trunk and of the value trunk (the same one where the
    network has no value trunk), for inputs ``x`` (B, n): normalised where the network has feature
    groups (``index``: their ``group_indices``), else as the first layers take them."""
    if index is not None:
        indices, rest = index
        n = x.shape[0]
        x = ops.cat([x[:, rest]] + [ops.relu(x[:, idx] @ p[f"gw{i}"] + p[f"gb{i}"]).reshape(n, -1)
                                    for i, idx in enumerate(indices)])
    depth, vdepth = depths(p)
    h = x
    for i in range(depth):
        h = ops.relu(h @ p[f"w{i}"] + p[f"b{i}"])
    hv = h
    if vdepth:
        hv = x
        for i in range(vdepth):
            hv = ops.relu(hv @ p[f"vw{i}"] + p[f"vb{i}"])
    return h, hv


def forward(p: Mapping[str, Any], x: Any, index: Optional[GroupIndex], ops: Any = NUMPY) -> Tuple[Any, Any]:
    """(policy logits (B, A), value logits of the seats relative to the observer (B, seats))."""
    h, hv = trunks(p, x, index, ops)
    return h @ p["wp"] + p["bp"], hv @ p["wv"] + p["bv"]


def losses(p: Mapping[str, Any], x: Any, mask: Any, pi: Any, z: Any, m: Any, index: Optional[GroupIndex],
           ops: Any = NUMPY) -> Tuple[Any, Any, Any, Any]:
    """The training losses on a batch, each a mean over its rows: the policy's cross-entropy against
    the targets ``pi`` over the legal actions (``mask``), the value's cross-entropy against the win
    shares ``z``, and the margin head's squared error against ``m``; and the masked policy logits."""
    h, hv = trunks(p, x, index, ops)
    logits = ops.where(mask, h @ p["wp"] + p["bp"], -1e9)
    n = x.shape[0]
    pol = -(pi * ops.log_softmax(logits)).sum() / n
    val = -(z * ops.log_softmax(hv @ p["wv"] + p["bv"])).sum() / n
    mar = ((hv @ p["wm"] + p["bm"] - m) ** 2).sum() / n
    return pol, val, mar, logits


def fold_normalisation(arrays: Mapping[str, np.ndarray], groups: Sequence[Mapping[str, Any]]) -> Dict[str, np.ndarray]:
    """The arrays (float32) with the input normalisation folded into the trunks' first layers where
    the network has no feature groups: those then take raw observations. (With groups, the
    normalisation applies before the encoders, whose weights blocks share.)"""
    a = {k: np.asarray(v).astype(np.float32) for k, v in arrays.items()}
    if groups:
        return a
    for prefix in ("", "v"):
        if f"{prefix}w0" in a:
            w0 = a[f"{prefix}w0"] * a["scale"][:, None]
            a[f"{prefix}b0"] = a[f"{prefix}b0"] - a["shift"] @ w0
            a[f"{prefix}w0"] = np.ascontiguousarray(w0)
    return a


def native_arrays(arrays: Mapping[str, np.ndarray], n_in: int, n_act: int, seats: int,
                  groups: Sequence[Mapping[str, Any]]) -> Dict[str, Any]:
    """``tilecraft._core.MlpNet``'s arguments: the normalisation folded into the group encoders (per
    block) and into the rows of the trunks' first layers that take the features in no group (raw
    features there)."""
    a = {k: np.asarray(v).astype(np.float32) for k, v in arrays.items()}
    indices, rest = group_indices(groups, n_in) if groups else ([], np.arange(n_in))
    shift, scale = a["shift"].astype(np.float64), a["scale"].astype(np.float64)
    native_groups = []
    for i, idx in enumerate(indices):
        w = scale[idx][:, :, None] * a[f"gw{i}"].astype(np.float64)[None]  # (count, width, embed)
        b = a[f"gb{i}"].astype(np.float64)[None] - np.einsum("kj,kje->ke", shift[idx], w)
        native_groups.append((idx.astype(np.int32), w.astype(np.float32), b.astype(np.float32)))

    def trunk(prefix: str, depth: int) -> List[Tuple[np.ndarray, np.ndarray]]:
        w0, b0 = a[f"{prefix}w0"].astype(np.float64), a[f"{prefix}b0"].astype(np.float64)
        r = len(rest)
        w0[:r] *= scale[rest][:, None]
        b0 = b0 - shift[rest] @ w0[:r]
        return [(w0.astype(np.float32), b0.astype(np.float32))] + [
            (a[f"{prefix}w{i}"], a[f"{prefix}b{i}"]) for i in range(1, depth)]

    depth, vdepth = depths(a)
    return dict(obs_size=n_in, num_actions=n_act, players=seats, rest=np.asarray(rest, np.int32),
                groups=native_groups, trunk=trunk("", depth), value_trunk=trunk("v", vdepth) if vdepth else [],
                policy=(np.ascontiguousarray(a["wp"].T), a["bp"]), value=(a["wv"], a["bv"]))
