"""The learning loop behind ``tilecraft train`` (docs/learning.md): expert iteration on a CPU.

1. **Teacher data.** C++ self-play of a strong search (``mcts:iterations=1000`` by default) records
   one row per decision: the mover's observation as byte codes, the legal mask, the root visit
   distribution, and (at the end of the game) every seat's win share and score. It runs in chunks
   of games, each saved to ``DIR/data/teacher-NNNN.npz`` as soon as it is done, so a run resumes
   where it stopped (Ctrl-C discards only the chunk under way).
2. **Training.** A policy-value MLP (trunk of ReLU layers; heads: policy logits over the action
   ids, value as the win shares of the seats relative to the mover, and a score-margin auxiliary
   head) learns the visit distributions (cross-entropy over the legal actions), the win shares
   (cross-entropy) and the margins (squared error). PyTorch when it is installed, else numpy
   (Adam written out). The result is a baseline file (``tilecraft.baselines``): ``DIR/net-RR.npz``.
3. **Improvement rounds** (``--rounds`` > 1): Gumbel PUCT self-play guided by the latest network
   (``--puct-simulations``), its improved policies added to the data, and training again from the
   last weights.
4. **Evaluation** after every round, as docs/strength.md measures (``tilecraft.strength``):
   the network's policy alone against GreedyBot, and PUCT(--eval-simulations) with it against the
   teacher's search, with 95% intervals and the wall time; appended to ``DIR/curve.json``.

Everything is seeded from ``--seed``; ``DIR/run.json`` records the command and the settings, and a
second run with the same ``DIR`` resumes (settings that change the data must match).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import subprocess
import sys
import time
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from . import baselines

# ---- data ----

ROW_KEYS = ("codes", "mask", "policy", "value", "margin")


# the settings the teacher's chunks depend on (the others shape the network and its later rounds)
_DATA_SETTINGS = ("game", "players", "options", "seed", "teacher", "games_per_chunk")


def _seed_of(seed: int, kind: str, k: int) -> int:
    from .runner import mix_seed

    return mix_seed(mix_seed(seed, {"teacher": 1, "puct": 2}[kind]), k) >> 1


def _rows_from_self_play(data: Dict[str, Any], players: int, codec: Tuple[np.ndarray, np.ndarray],
                         margin_scale: float) -> Dict[str, np.ndarray]:
    """The training rows of one self-play result: codes (uint8), packed legal mask, policy (float16),
    value (win shares of the seats relative to the mover) and margin (score minus the mean, relative
    seats, divided by margin_scale)."""
    from .puct import win_shares

    t = data["training"]
    obs = np.asarray(t["observation"])
    if obs.dtype != np.uint8:  # PUCT self-play records float32: the codec gives the bytes back exactly
        den, off = codec
        obs = np.rint((obs.reshape(len(obs), -1) - off.reshape(-1)) * den.reshape(-1)).astype(np.uint8)
    obs = obs.reshape(len(obs), -1)
    game, player = np.asarray(t["game"], np.int64), np.asarray(t["player"], np.int64)
    shares = win_shares(np.asarray(data["winners"]))
    scores = np.asarray(data["scores"], np.float64)
    margins = (scores - scores.mean(axis=1, keepdims=True)) / margin_scale
    idx = (player[:, None] + np.arange(players)[None, :]) % players
    value = np.take_along_axis(shares[game], idx, axis=1).astype(np.float32)
    margin = np.take_along_axis(margins[game], idx, axis=1).astype(np.float32)
    q = np.asarray(t["search_value"], np.float32) if "search_value" in t else np.full(len(obs), np.nan, np.float32)
    return dict(codes=obs, mask=np.packbits(np.asarray(t["legal_mask"], bool), axis=1),
                policy=np.asarray(t["policy"], np.float16), value=value, margin=margin, q=q)


def _searches_with_network(bots: Sequence[Any]) -> bool:
    """Whether a bot is a PUCT search (``puct``, ``baseline``): self_play then plays it in the batched
    PUCT loop (one thread, many games at once, float32 records) instead of on ``--threads`` threads."""
    from .bots import BaselineBot, make_bot
    from .puct import PUCTBot

    def resolved(b: Any) -> Any:
        try:
            return make_bot(b)
        except TypeError:  # a bot object
            return b

    return any(isinstance(resolved(b), (PUCTBot, BaselineBot)) for b in bots)


def _make_chunk(path: pathlib.Path, game: str, players: int, options: Dict[str, Any], kind: str, seed: int, k: int,
                bots: List[Any], n_games: int, threads: int, progress: bool, margin_scale: float,
                evaluator: Any = None) -> int:
    """Plays one chunk of self-play and saves its rows to ``path``; returns the number of rows. The chunk
    depends only on its arguments (its seed comes from the run's seed and its number), never on the
    process or the number of threads that make it."""
    from .games import make
    from .selfplay import self_play

    codec = make(game, players=players, **options).observation_codec()
    if evaluator is None and not _searches_with_network(bots):
        data = self_play(game, bots, n_games, seed=seed, threads=threads, players=players, record=True,
                         obs_dtype=np.uint8, progress=progress, **options)
    else:
        data = self_play(game, bots, n_games, seed=seed, players=players, record=True, evaluator=evaluator,
                         concurrent_games=min(n_games, 256), **options)
    rows = _rows_from_self_play(data, players, codec, margin_scale)
    _save_rows(path, rows, dict(kind=kind, chunk=k, games=n_games, seed=seed,
                                bots=[b if isinstance(b, str) else repr(b) for b in bots]))
    return len(rows["codes"])


def _chunk_path(folder: pathlib.Path, kind: str, k: int) -> pathlib.Path:
    """Where chunk ``k`` of ``kind`` (teacher, or a round's self-play) lives in a run's data folder."""
    return folder / f"{kind}-{k:04d}.npz"


def _exit_with_parent(parent: int) -> None:
    """A worker's initializer: the worker ends when the process that started it does (killed, say),
    instead of playing on unseen."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _make_chunks_in_parallel(folder: pathlib.Path, game: str, players: int, options: Dict[str, Any],
                             args: argparse.Namespace, margin_scale: float, say: Any) -> None:
    """The teacher chunks not yet in ``folder``, made by ``args.workers`` processes at once (spawned, so
    that it works the same on every platform). Each is written when done, so an interrupted run keeps
    the chunks that were finished."""
    import concurrent.futures
    import multiprocessing

    todo = [k for k in range(args.chunks) if not _chunk_path(folder, "teacher", k).exists()]
    if not todo:
        return
    t0 = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(args.workers, len(todo)), mp_context=ctx,
                                                initializer=_exit_with_parent, initargs=(os.getpid(),)) as pool:
        jobs = {pool.submit(_make_chunk, _chunk_path(folder, "teacher", k), game, players, options, "teacher",
                            _seed_of(args.seed, "teacher", k), k, [args.teacher], args.games_per_chunk,
                            args.threads, False, margin_scale): k for k in todo}
        for done, job in enumerate(concurrent.futures.as_completed(jobs), 1):
            rows = job.result()  # a chunk that failed raises here, naming its error
            say(f"teacher chunk {jobs[job]}: {args.games_per_chunk} games, {rows} rows "
                f"({done}/{len(todo)} in {time.perf_counter() - t0:.0f} s on {args.workers} processes)")


def _save_rows(path: pathlib.Path, rows: Dict[str, np.ndarray], meta: Dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, meta=np.array(json.dumps(meta)), **rows)
    os.replace(tmp, path)


def _load_rows(paths: Sequence[pathlib.Path], num_actions: int) -> Dict[str, np.ndarray]:
    parts: Dict[str, List[np.ndarray]] = {k: [] for k in ROW_KEYS + ("q",)}
    games = 0
    for p in paths:
        with np.load(p, allow_pickle=False) as z:
            for k in ROW_KEYS:
                parts[k].append(z[k])
            # the teacher's own estimate at the root (NaN where the chunk has none: older chunks, PUCT rounds)
            parts["q"].append(z["q"] if "q" in z.files else np.full(len(z["codes"]), np.nan, np.float32))
            games += int(json.loads(str(z["meta"]))["games"])
    out = {k: np.concatenate(v) for k, v in parts.items()}
    out["mask"] = np.unpackbits(out["mask"], axis=1, count=num_actions).astype(bool)
    out["games"] = np.array(games)
    return out


# ---- the network (training side; the shipped forward pass is tilecraft.baselines.Network) ----

def _init_arrays(n_in: int, hidden: Sequence[int], n_act: int, seats: int, seed: int,
                 value_hidden: Sequence[int] = (), groups: Sequence[Mapping[str, int]] = ()) -> Dict[str, np.ndarray]:
    """Fresh weights: the feature groups' encoders ``gw0, gb0, ...`` (tilecraft.baselines.group_indices),
    the trunk ``w0, b0, ...`` (He init), and, with ``value_hidden``, a value trunk of its own
    ``vw0, vb0, ...``; zero heads (policy ``wp``, value ``wv``, margin ``wm``)."""
    rng = np.random.default_rng(seed)
    a: Dict[str, np.ndarray] = {}
    for i, g in enumerate(groups):
        a[f"gw{i}"] = (rng.normal(size=(g["width"], g["embed"])) * math.sqrt(2.0 / g["width"])).astype(np.float32)
        a[f"gb{i}"] = np.zeros(g["embed"], np.float32)
    trunk_in = baselines.input_width(groups, n_in)
    for prefix, widths in (("", [trunk_in] + list(hidden)),
                           ("v", [trunk_in] + list(value_hidden) if value_hidden else [])):
        for i in range(len(widths) - 1):
            a[f"{prefix}w{i}"] = (rng.normal(size=(widths[i], widths[i + 1])) * math.sqrt(2.0 / widths[i])).astype(np.float32)
            a[f"{prefix}b{i}"] = np.zeros(widths[i + 1], np.float32)
    value_in = value_hidden[-1] if value_hidden else hidden[-1]
    for head, n, width in (("p", n_act, hidden[-1]), ("v", seats, value_in), ("m", seats, value_in)):
        a[f"w{head}"] = np.zeros((width, n), np.float32)
        a[f"b{head}"] = np.zeros(n, np.float32)
    return a


GroupIndex = Optional[Tuple[List[np.ndarray], np.ndarray]]  # (each group's (count, width) indices, the rest)


def _depths(arrays: Dict[str, np.ndarray]) -> Tuple[int, int]:
    """(the trunk's depth, the value trunk's: 0 when the value head sits on the trunk)."""
    return (sum(1 for k in arrays if k[0] == "w" and k[1:].isdigit()),
            sum(1 for k in arrays if k.startswith("vw") and k[2:].isdigit()))


def _is_value_key(k: str) -> bool:
    return k in ("wv", "bv", "wm", "bm") or (k[0] == "v" and k[1:2] in ("w", "b") and k[2:].isdigit())


class _TorchTrainer:
    def __init__(self, arrays: Dict[str, np.ndarray], depth: int, lr: float, threads: int, groups: GroupIndex = None):
        import torch

        depth, self.vdepth = _depths(arrays)

        torch.set_num_threads(max(1, threads))
        self.torch = torch
        self.depth = depth
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # a GPU where there is one
        self.p = {k: torch.nn.Parameter(torch.from_numpy(np.array(v, np.float32)).to(self.device))
                  for k, v in arrays.items() if k not in ("shift", "scale")}
        self.opt = torch.optim.AdamW(self.p.values(), lr=lr, weight_decay=1e-4)
        self.groups = None
        if groups is not None:
            self.groups = ([torch.from_numpy(i).to(self.device) for i in groups[0]], torch.from_numpy(groups[1]).to(self.device))

    def _input(self, x):
        if self.groups is None:
            return x
        torch, (indices, rest) = self.torch, self.groups
        parts = [x[:, rest]] + [torch.relu(x[:, idx] @ self.p[f"gw{i}"] + self.p[f"gb{i}"]).reshape(len(x), -1)
                                for i, idx in enumerate(indices)]
        return torch.cat(parts, dim=1)

    def set_lr(self, lr: float) -> None:
        for g in self.opt.param_groups:
            g["lr"] = lr

    def step(self, x, mask, pi, z, m, margin_weight: float, value_weight: float = 1.0) -> Tuple[float, float, float]:
        torch = self.torch
        x, mask, pi, z, m = (torch.from_numpy(a).to(self.device) for a in (x, mask, pi, z, m))
        x = self._input(x)
        h = x
        for i in range(self.depth):
            h = torch.relu(h @ self.p[f"w{i}"] + self.p[f"b{i}"])
        hv = h
        if self.vdepth:
            hv = x
            for i in range(self.vdepth):
                hv = torch.relu(hv @ self.p[f"vw{i}"] + self.p[f"vb{i}"])
        logits = (h @ self.p["wp"] + self.p["bp"]).masked_fill(~mask, -1e9)
        pol = -(pi * torch.log_softmax(logits, dim=1)).sum(1).mean()
        val = -(z * torch.log_softmax(hv @ self.p["wv"] + self.p["bv"], dim=1)).sum(1).mean()
        mar = ((hv @ self.p["wm"] + self.p["bm"] - m) ** 2).sum(1).mean()
        loss = pol + value_weight * val + margin_weight * mar
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return float(pol.detach()), float(val.detach()), float(mar.detach())

    def arrays(self) -> Dict[str, np.ndarray]:
        return {k: v.detach().cpu().numpy().copy() for k, v in self.p.items()}


class _NumpyTrainer:
    """The same network and losses with Adam in numpy (no PyTorch needed; slower)."""

    def __init__(self, arrays: Dict[str, np.ndarray], depth: int, lr: float, threads: int, groups: GroupIndex = None):
        self.depth, self.vdepth = _depths(arrays)
        self.groups = groups
        self.p = {k: np.array(v, np.float32) for k, v in arrays.items() if k not in ("shift", "scale")}
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0
        self.lr = lr

    def set_lr(self, lr: float) -> None:
        self.lr = lr

    def step(self, x, mask, pi, z, m, margin_weight: float, value_weight: float = 1.0) -> Tuple[float, float, float]:
        p, b = self.p, len(x)
        raw = x
        if self.groups is not None:  # the encoders' outputs after the ReLU, kept per group for the gradient
            indices, rest = self.groups
            blocks = [raw[:, idx] for idx in indices]
            enc = [np.maximum(xb @ p[f"gw{i}"] + p[f"gb{i}"], 0.0) for i, xb in enumerate(blocks)]
            x = np.concatenate([raw[:, rest]] + [e.reshape(b, -1) for e in enc], axis=1)

        def trunk(prefix: str, depth: int) -> List[np.ndarray]:
            hs = [x]
            for i in range(depth):
                hs.append(np.maximum(hs[-1] @ p[f"{prefix}w{i}"] + p[f"{prefix}b{i}"], 0.0))
            return hs

        hs = trunk("", self.depth)
        vs = trunk("v", self.vdepth) if self.vdepth else hs
        h, hv = hs[-1], vs[-1]
        logits = np.where(mask, h @ p["wp"] + p["bp"], -1e9)
        q = np.exp(logits - logits.max(1, keepdims=True))
        q /= q.sum(1, keepdims=True)
        vl = hv @ p["wv"] + p["bv"]
        qv = np.exp(vl - vl.max(1, keepdims=True))
        qv /= qv.sum(1, keepdims=True)
        mo = hv @ p["wm"] + p["bm"]
        pol = float(-(pi * np.log(q + 1e-12)).sum() / b)
        val = float(-(z * np.log(qv + 1e-12)).sum() / b)
        mar = float(((mo - m) ** 2).sum() / b)
        g_p, g_v, g_m = (q - pi) / b, value_weight * (qv - z) / b, 2.0 * margin_weight * (mo - m) / b
        g = {"wp": h.T @ g_p, "bp": g_p.sum(0), "wv": hv.T @ g_v, "bv": g_v.sum(0), "wm": hv.T @ g_m, "bm": g_m.sum(0)}
        g_value = g_v @ p["wv"].T + g_m @ p["wm"].T

        def back(prefix: str, depth: int, acts: List[np.ndarray], gh: np.ndarray) -> np.ndarray:
            """The gradients of one trunk's layers; returns the gradient of its input (with groups)."""
            gh = gh * (acts[-1] > 0)
            for i in reversed(range(depth)):
                g[f"{prefix}w{i}"], g[f"{prefix}b{i}"] = acts[i].T @ gh, gh.sum(0)
                if i:
                    gh = (gh @ p[f"{prefix}w{i}"].T) * (acts[i] > 0)
                elif self.groups is not None:
                    gh = gh @ p[f"{prefix}w0"].T
            return gh

        if self.vdepth:
            g_in = back("", self.depth, hs, g_p @ p["wp"].T)
            g_in_value = back("v", self.vdepth, vs, g_value)
            if self.groups is not None:
                g_in = g_in + g_in_value
        else:
            g_in = back("", self.depth, hs, g_p @ p["wp"].T + g_value)
        if self.groups is not None:  # through the encoders, summed over each group's blocks
            at = len(self.groups[1])
            for i, (xb, e) in enumerate(zip(blocks, enc)):
                ge = g_in[:, at:at + e.shape[1] * e.shape[2]].reshape(e.shape) * (e > 0)
                at += e.shape[1] * e.shape[2]
                g[f"gw{i}"] = np.einsum("bcw,bce->we", xb, ge)
                g[f"gb{i}"] = ge.sum(axis=(0, 1))
        self.t += 1
        for k in p:
            grad = g[k] + 1e-4 * p[k]
            self.m[k] = 0.9 * self.m[k] + 0.1 * grad
            self.v[k] = 0.999 * self.v[k] + 0.001 * grad * grad
            mh, vh = self.m[k] / (1 - 0.9 ** self.t), self.v[k] / (1 - 0.999 ** self.t)
            p[k] -= (self.lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        return pol, val, mar

    def arrays(self) -> Dict[str, np.ndarray]:
        return {k: v.copy() for k, v in self.p.items()}


def have_torch() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def sharpen(policy: np.ndarray, temperature: float) -> np.ndarray:
    """The policy targets at ``temperature``: each row's visit shares raised to 1 / T and normalised
    (1: unchanged, the same array, so that a large float16 table is not copied; 0: the most visited
    actions, one-hot, ties shared equally)."""
    if temperature == 1.0:
        return policy
    pi = np.asarray(policy, np.float32)
    if temperature == 0.0:
        top = pi >= pi.max(axis=1, keepdims=True)
        out = top.astype(np.float32)
    else:
        with np.errstate(divide="ignore"):
            logp = np.where(pi > 0, np.log(np.maximum(pi, 1e-30)) / temperature, -np.inf)
        out = np.exp(logp - logp.max(axis=1, keepdims=True)).astype(np.float32)
    return out / out.sum(axis=1, keepdims=True)


def value_targets(data: Dict[str, np.ndarray], q_weight: float) -> np.ndarray:
    """Each row's value target: the game's win shares (seats relative to the mover), mixed with weight
    ``q_weight`` with the teacher's own root estimate where the row has one (the mover's share q, the
    other seats (1 - q) / (players - 1)). One outcome per game is a noisy target that a network
    memorises; the search's estimate differs from position to position."""
    z = data["value"].astype(np.float32)
    q = data.get("q")
    if q is None or q_weight <= 0.0:
        return z
    n = z.shape[1]
    qv = np.empty_like(z)
    qv[:, 0] = q
    qv[:, 1:] = ((1.0 - q) / max(n - 1, 1))[:, None]
    have = np.isfinite(q)[:, None]
    return np.where(have, (1.0 - q_weight) * z + q_weight * np.nan_to_num(qv), z).astype(np.float32)


def _inputs(data: Dict[str, np.ndarray], idx: Any, codec_flat: Tuple[np.ndarray, np.ndarray],
            shift: np.ndarray, scale: np.ndarray) -> Tuple[np.ndarray, ...]:
    den, off = codec_flat
    x = ((data["codes"][idx].astype(np.float32) / den + off) - shift) * scale
    pi = data["policy"][idx].astype(np.float32)
    pi /= np.maximum(pi.sum(1, keepdims=True), 1e-9)
    target = data["target"][idx] if "target" in data else data["value"][idx]
    return x, data["mask"][idx], pi, target, data["margin"][idx]


def held_out_losses(arrays: Dict[str, np.ndarray], depth: int, data: Dict[str, np.ndarray],
                    codec: Tuple[np.ndarray, np.ndarray], groups: GroupIndex = None) -> Dict[str, float]:
    """Policy cross-entropy, value cross-entropy and margin error on data the network did not train on,
    and how often its top move is the teacher's."""
    params = [(arrays[f"gw{i}"], arrays[f"gb{i}"]) for i in range(len(groups[0]))] if groups is not None else []
    flat = tuple(c.reshape(-1).astype(np.float32) for c in codec)
    sums = np.zeros(4)
    n = len(data["codes"])
    for start in range(0, n, 4096):
        x, mask, pi, z, m = _inputs(data, slice(start, start + 4096), flat, arrays["shift"], arrays["scale"])
        depth, vdepth = _depths(arrays)
        if groups is not None:
            x = baselines.encode_groups(x, groups[0], groups[1], params)
        h = x
        for i in range(depth):
            h = np.maximum(h @ arrays[f"w{i}"] + arrays[f"b{i}"], 0.0)
        hv = h
        if vdepth:
            hv = x
            for i in range(vdepth):
                hv = np.maximum(hv @ arrays[f"vw{i}"] + arrays[f"vb{i}"], 0.0)
        logits = np.where(mask, h @ arrays["wp"] + arrays["bp"], -1e9)
        lp = logits - logits.max(1, keepdims=True)
        lp -= np.log(np.exp(lp).sum(1, keepdims=True))
        vl = hv @ arrays["wv"] + arrays["bv"]
        lv = vl - vl.max(1, keepdims=True)
        lv -= np.log(np.exp(lv).sum(1, keepdims=True))
        sums += (-(pi * np.where(mask, lp, 0.0)).sum(), -(z * lv).sum(),
                 ((hv @ arrays["wm"] + arrays["bm"] - m) ** 2).sum(), (logits.argmax(1) == pi.argmax(1)).sum())
    sums /= max(n, 1)
    return {"val_policy_loss": float(sums[0]), "val_value_loss": float(sums[1]), "val_margin_loss": float(sums[2]),
            "val_top1": float(sums[3])}


def fit(arrays: Dict[str, np.ndarray], data: Dict[str, np.ndarray], codec: Tuple[np.ndarray, np.ndarray],
        depth: int, epochs: float, batch: int = 512, lr: float = 1e-3, margin_weight: float = 0.25,
        seed: int = 0, use_torch: Optional[bool] = None, threads: int = 2, log: Any = None,
        val: Optional[Dict[str, np.ndarray]] = None, value_weight: float = 1.0,
        checks: int = 10, groups: Sequence[Mapping[str, int]] = ()) -> Tuple[Dict[str, np.ndarray], Dict[str, float]]:
    """Trains ``arrays`` (from _init_arrays or a previous fit) on ``data`` for ``epochs`` passes, with
    a cosine learning-rate decay. With ``val`` (held-out games), the weights are checked on it
    ``checks`` times and the best are kept (early stopping): for a value trunk of its own, the best
    policy and the best value apart; where policy and value share weights (one trunk, or a value
    trunk reading the same feature-group encoders), the best held-out policy cross-entropy plus
    ``value_weight`` times the value's. The value head sees one outcome per game and memorises the
    games it trains on long before the policy has learned, so a small ``value_weight`` lets the
    policy train on. ``groups``: the feature groups the arrays were made with (``_init_arrays``).
    Returns the arrays and their losses."""
    flat = tuple(c.reshape(-1).astype(np.float32) for c in codec)
    n = len(data["codes"])
    index: GroupIndex = baselines.group_indices(groups, len(flat[0])) if groups else None
    if "shift" not in arrays:  # the input normalisation, from the first data seen (then kept)
        sample = data["codes"][np.random.default_rng(seed).permutation(n)[:20000]].astype(np.float32) / flat[0] + flat[1]
        mean, std = sample.mean(0), sample.std(0)
        for idx in (index[0] if index is not None else []):  # a group's blocks share their feature's statistics
            mean[idx] = sample[:, idx].mean(axis=(0, 1))[None, :]
            std[idx] = sample[:, idx].std(axis=(0, 1))[None, :]
        arrays = dict(arrays, shift=mean.astype(np.float32), scale=(1.0 / (std + 0.1)).astype(np.float32))
    shift, scale = arrays["shift"], arrays["scale"]
    use_torch = have_torch() if use_torch is None else use_torch
    trainer = (_TorchTrainer if use_torch else _NumpyTrainer)(arrays, depth, lr, threads, index)
    rng = np.random.default_rng(seed)
    steps = max(1, int(math.ceil(epochs * n / batch)))
    sums = np.zeros(3)
    count = 0
    order = rng.permutation(n)
    pos = 0
    every = max(1, steps // max(1, checks))
    best: Optional[Tuple[float, Dict[str, np.ndarray], Dict[str, float]]] = None
    # a value trunk of its own is picked apart from the policy's weights, unless both read shared encoders
    separate = _depths(arrays)[1] > 0 and index is None
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
        x, mask, pi, z, m = _inputs(data, idx, flat, shift, scale)
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
                stats.update(held_out_losses(a, depth, val, codec, index))
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
        chosen = {k: (best_value[1][k] if _is_value_key(k) else v) for k, v in chosen.items()}
        for k in ("val_value_loss", "value_loss", "val_margin_loss", "margin_loss"):
            stats[k] = best_value[2][k]
        stats["value_step"] = best_value[2]["step"]
    if log is not None:
        log(f"  kept the weights of step {best[2]['step']}" + (f" (the value trunk's of step {stats['value_step']})"
                                                                if "value_step" in stats else "")
            + " (the best on the held-out games)")
    return chosen, stats


def export(arrays: Dict[str, np.ndarray], meta: Dict[str, Any], path: pathlib.Path) -> pathlib.Path:
    """The baseline file: the trunk, policy and value heads (the margin head only helps training)."""
    keep = {k: v for k, v in arrays.items() if k not in ("wm", "bm")}
    baselines.save(str(path), keep, meta)
    return path


def save_checkpoint(arrays: Dict[str, np.ndarray], path: pathlib.Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **arrays)
    os.replace(tmp, path)


# ---- the run ----

def _commit() -> str:
    here = pathlib.Path(__file__).resolve().parent
    try:
        r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10)
        return r.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tilecraft train", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    return p


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option (repeatable)")
    p.add_argument("--out", default=None, help="the run's folder (default: runs/GAME-Np); resumed when it exists")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--teacher", default="mcts:iterations=1000", help="the search whose self-play is learned")
    p.add_argument("--chunks", type=int, default=20, help="teacher self-play chunks")
    p.add_argument("--games-per-chunk", type=int, default=100)
    p.add_argument("--threads", type=int, default=2, help="self-play threads (and PyTorch's)")
    p.add_argument("--workers", type=int, default=1,
                   help="teacher chunks made at once, each in a process of its own on --threads threads; a chunk "
                        "is the same whichever process makes it (a machine with many cores: --workers N "
                        "--threads 1)")
    p.add_argument("--hidden", default="512,256,256", help="the trunk's layer widths")
    p.add_argument("--value-hidden", default="256,256",
                   help="the value trunk's layer widths ('': the value head sits on the policy's trunk)")
    p.add_argument("--groups", choices=("auto", "none"), default="auto",
                   help="auto: the game's feature groups (a shared encoder per board cell, seat or card; "
                        "tilecraft.baselines.group_indices) where it declares them; none: every feature "
                        "straight into the trunk")
    p.add_argument("--epochs", type=float, default=8.0, help="passes over the data in the first round")
    p.add_argument("--round-epochs", type=float, default=2.0, help="passes over the data in later rounds")
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--target-temperature", type=float, default=1.0,
                   help="the policy is trained on the visit shares raised to 1/T (1: as searched; 0: the most "
                        "visited action)")
    p.add_argument("--value-weight", type=float, default=0.5, help="weight of the value loss against the policy's")
    p.add_argument("--q-weight", type=float, default=0.5,
                   help="value target: (1 - w) * the game's outcome + w * the teacher's root estimate")
    p.add_argument("--hold-out", type=int, default=10,
                   help="every Nth teacher chunk is held out to pick the best weights (0: none; fewer than N "
                        "chunks: none)")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--rounds", type=int, default=1,
                   help="0: make the teacher's data and stop (train later, or elsewhere, from the same folder); "
                        "1: train on the teacher's data; more: Gumbel PUCT rounds")
    p.add_argument("--puct-games", type=int, default=200, help="games of Gumbel PUCT self-play per later round")
    p.add_argument("--puct-simulations", type=int, default=64)
    p.add_argument("--puct-rollout-mix", type=float, default=0.0,
                   help="later rounds' PUCT: leaf values mixed with rollouts (PUCTBot's rollout_mix; 0: the network's)")
    p.add_argument("--puct-prior-heuristic", type=float, default=0.0,
                   help="later rounds' PUCT: the game's one-ply heuristic as a prior bias (PUCTBot's prior_heuristic)")
    p.add_argument("--window", type=int, default=0, help="later rounds train on the last N chunks (0: all)")
    p.add_argument("--eval-games", type=int, default=40, help="games per evaluation pairing (0: no evaluation)")
    p.add_argument("--eval-simulations", type=int, default=200)
    p.add_argument("--eval-opponent", default=None, help="the search PUCT is measured against (default: the teacher)")
    p.add_argument("--eval-workers", type=int, default=2)
    p.add_argument("--search", action="append", default=[], metavar="KEY=VALUE",
                   help="a PUCTBot option that `baseline` searches this network with unless told otherwise "
                        f"({', '.join(baselines.SEARCH_KEYS)}; repeatable): recorded in the network's metadata")
    p.add_argument("--export", default=None, help="copy the final network to this file")
    p.add_argument("--numpy", action="store_true", help="train with numpy even where PyTorch is installed")
    p.add_argument("--quiet", action="store_true")


def _options(items: Sequence[str], flag: str = "--option") -> Dict[str, Any]:
    from .bots import _parse_value

    out: Dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"{flag} {item!r} must look like KEY=VALUE")
        out[key] = _parse_value(value)
    return out


def run(args: argparse.Namespace, argv: Sequence[str] = ()) -> Dict[str, Any]:
    """Runs (or resumes) a training run; returns the run's summary."""
    from .games import game_spec, make

    def say(text: str) -> None:
        if not args.quiet:
            print(text, flush=True)

    spec = game_spec(args.game)
    game, players = spec.name, args.players
    options = _options(args.option)
    state = make(game, players=players, **options)  # checks the game, the players and the options
    mode = baselines.mode_of(state)
    search = baselines.check_search(_options(args.search, "--search"), "--search")
    hidden = [int(h) for h in str(args.hidden).split(",") if h.strip()]
    value_hidden = [int(h) for h in str(args.value_hidden).split(",") if h.strip()]
    for name in ("chunks", "games_per_chunk", "threads", "workers", "batch", "eval_simulations", "eval_workers"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.rounds < 0:
        raise ValueError(f"--rounds must be at least 0 (0: the teacher's data only, no training), got {args.rounds}")
    if not (0.0 <= args.target_temperature <= 100.0):
        raise ValueError(f"--target-temperature must be between 0 and 100, got {args.target_temperature}")
    if not hidden or min(hidden) < 1 or (value_hidden and min(value_hidden) < 1):
        raise ValueError(f"--hidden and --value-hidden must list positive layer widths, got {args.hidden!r} and "
                         f"{args.value_hidden!r}")
    out = pathlib.Path(args.out or f"runs/{game}-{players}p")
    (out / "data").mkdir(parents=True, exist_ok=True)
    groups = (list(spec.observation_groups(state)) if args.groups == "auto" and spec.observation_groups is not None
              else [])
    settings = dict(game=game, players=players, options=options, seed=args.seed, teacher=args.teacher,
                    games_per_chunk=args.games_per_chunk, hidden=hidden, value_hidden=value_hidden,
                    puct_simulations=args.puct_simulations,
                    puct_games=args.puct_games)
    if groups:  # (absent without groups: a run made before they existed resumes)
        settings["groups"] = groups
    for key in ("puct_rollout_mix", "puct_prior_heuristic"):  # (absent when 0, for the same reason)
        if getattr(args, key):
            settings[key] = getattr(args, key)
    if args.target_temperature != 1.0:  # (absent at 1, for the same reason)
        settings["target_temperature"] = args.target_temperature
    run_file = out / "run.json"
    if run_file.exists():
        before = json.loads(run_file.read_text())
        # Until a round is trained, the folder holds only the teacher's data (say a --rounds 0 run on
        # another machine): only what that data depends on must match.
        trained = (out / "curve.json").exists()
        differ = [k for k in settings if (trained or k in _DATA_SETTINGS)
                  and before.get("settings", {}).get(k) != settings[k]]
        if differ:
            raise ValueError(f"{out}: this folder holds a run with other settings ({', '.join(differ)}); "
                             "use another --out")
        say(f"resuming {out}")
    run_file.write_text(json.dumps(dict(settings=settings, command="tilecraft train " + " ".join(argv),
                                        commit=_commit()), indent=1))
    codec = state.observation_codec()
    layout = state.observation_layout()
    n_in, n_act = int(np.prod(state.observation_shape())), state.num_distinct_actions()
    margin_scale = float(spec.search_defaults.get("score_scale", 10.0)) if hasattr(spec, "search_defaults") else 10.0
    start = time.perf_counter()
    curve_file = out / "curve.json"
    curve: List[Dict[str, Any]] = json.loads(curve_file.read_text()) if curve_file.exists() else []
    wall_before = curve[-1]["wall"] if curve else 0.0

    def chunk(kind: str, k: int, bots: List[Any], n_games: int, evaluator: Any = None) -> pathlib.Path:
        path = _chunk_path(out / "data", kind, k)
        if path.exists():
            return path
        t0 = time.perf_counter()
        rows = _make_chunk(path, game, players, options, kind, _seed_of(args.seed, kind, k), k, bots, n_games,
                           args.threads, not args.quiet, margin_scale, evaluator)
        say(f"{kind} chunk {k}: {n_games} games, {rows} rows in {time.perf_counter() - t0:.0f} s")
        return path

    # 1. the teacher's self-play (on --workers processes at once: the same chunks as one process makes)
    if args.workers > 1:
        _make_chunks_in_parallel(out / "data", game, players, options, args, margin_scale, say)
    teacher_paths = [chunk("teacher", k, [args.teacher], args.games_per_chunk) for k in range(args.chunks)]
    if args.rounds == 0:
        say(f"{len(teacher_paths)} teacher chunks in {out / 'data'} (--rounds 0: no training)")
        return dict(out=str(out), rounds=0, final=None, last={}, chunks=len(teacher_paths))
    rounds_done = len(curve)
    arrays: Optional[Dict[str, np.ndarray]] = None
    ckpt = out / "weights.npz"
    if ckpt.exists() and rounds_done:
        with np.load(ckpt) as z:
            arrays = {k: z[k] for k in z.files}
    puct_paths: List[pathlib.Path] = sorted((out / "data").glob("puct-*.npz"))
    summary: Dict[str, Any] = {}
    for r in range(rounds_done, args.rounds):
        t0 = time.perf_counter()
        if r > 0:  # 2. Gumbel PUCT self-play with the latest network
            from .puct import PUCTBot

            net = baselines.load(game, players, mode, path=str(out / f"net-{r - 1:02d}.npz"))
            bot = PUCTBot(net, simulations=args.puct_simulations, gumbel=True, gumbel_actions=16,
                          rollout_mix=args.puct_rollout_mix, prior_heuristic=args.puct_prior_heuristic)
            puct_paths.append(chunk("puct", r, [bot], args.puct_games, evaluator=net))
        held = [p for k, p in enumerate(teacher_paths) if args.hold_out and k % args.hold_out == args.hold_out - 1]
        paths = [p for p in teacher_paths if p not in held] + puct_paths
        if r > 0 and args.window:
            paths = paths[-args.window:]
        data = _load_rows(paths, n_act)
        data["target"] = value_targets(data, args.q_weight)
        data["policy"] = sharpen(data["policy"], args.target_temperature)
        val = _load_rows(held, n_act) if held else None  # judged on the outcomes alone
        if val is not None:
            val["policy"] = sharpen(val["policy"], args.target_temperature)
        rows = len(data["codes"])
        say(f"round {r}: training on {rows} rows from {int(data['games'])} games"
            + (f", {len(val['codes'])} rows from {int(val['games'])} games held out" if val is not None else ""))
        if arrays is None:
            arrays = _init_arrays(n_in, hidden, n_act, players, args.seed, value_hidden, groups)
        arrays, losses = fit(arrays, data, codec, len(hidden), args.epochs if r == 0 else args.round_epochs,
                             batch=args.batch, lr=args.lr if r == 0 else args.lr * 0.3, seed=args.seed + r,
                             use_torch=False if args.numpy else None, threads=args.threads,
                             log=None if args.quiet else say, val=val, value_weight=args.value_weight,
                             groups=groups)
        save_checkpoint(arrays, ckpt)
        meta = dict(game=game, players=[players], mode=mode, options=options, observation_layout=layout,
                    observation_size=n_in, num_actions=n_act, value_seats=players, hidden=hidden, depth=len(hidden),
                    value_hidden=value_hidden, groups=groups,
                    command="tilecraft train " + " ".join(argv), commit=_commit(), seed=args.seed,
                    teacher=args.teacher, round=r, games=int(data["games"]), rows=rows, **losses)
        if search:
            meta["search"] = search
        net_path = export(arrays, meta, out / f"net-{r:02d}.npz")
        entry: Dict[str, Any] = dict(round=r, rows=rows, games=int(data["games"]), train_seconds=time.perf_counter() - t0,
                                     **losses)
        say(f"round {r}: policy loss {losses['policy_loss']:.3f}, value loss {losses['value_loss']:.3f} -> {net_path}")
        if args.eval_games > 0:
            entry.update(evaluate(game, players, options, str(net_path), args.eval_games, args.eval_simulations,
                                  args.eval_opponent or args.teacher, args.eval_workers, say))
        entry["wall"] = wall_before + time.perf_counter() - start
        curve.append(entry)
        curve_file.write_text(json.dumps(curve, indent=1))
        summary = entry
    final = out / f"net-{max(len(curve) - 1, 0):02d}.npz"
    if args.export and final.exists():
        import shutil

        shutil.copyfile(final, args.export)
        say(f"exported {final} -> {args.export}")
    return dict(out=str(out), rounds=len(curve), final=str(final), last=summary)


def evaluate(game: str, players: int, options: Dict[str, Any], path: str, games: int, simulations: int,
             opponent: str, workers: int, say: Any = print) -> Dict[str, Any]:
    """The network's policy against greedy, and PUCT(simulations) with it against ``opponent``."""
    from .bots import BaselineBot, BaselinePolicyBot
    from .strength import format_row, head_to_head

    out: Dict[str, Any] = {}
    for key, bot, opp in (("policy_vs_greedy", BaselinePolicyBot(path=path), "greedy"),
                          ("puct_vs_teacher", BaselineBot(simulations=simulations, path=path), opponent)):
        r = head_to_head(game, bot, opp, games, players=players, workers=workers, options=options)
        say("  " + format_row(r))
        out[key] = {k: r[k] for k in ("share", "low", "high", "games", "seconds_per_move", "opponent")}
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    try:
        run(args, argv)
    except KeyboardInterrupt:
        print("stopped; run the same command again to resume", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
