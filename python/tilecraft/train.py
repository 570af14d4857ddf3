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
second run with the same ``DIR`` resumes (settings that change the data must match). Every file of a
run is written whole or not at all (a temporary file of a unique name, then a rename), each stage
resumes from what is on disk (a damaged chunk is made again, the same as before), and a resumed run
writes the files, bit for bit, that it would have written without the stop (apart from the times it
measures: ``CURVE_TIMES``). One run at a time holds a folder (``DIR/run.lock``).
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import math
import os
import pathlib
import secrets
import socket
import subprocess
import sys
import time
import zipfile
import zlib
from typing import Any, Callable, Dict, IO, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from . import baselines

# ---- the run's files: written whole or not at all, read with errors that name them ----

class RunFileError(ValueError):
    """A file of a training run that cannot be used as it is (damaged, or not what the run wrote);
    the message names the file and, in a JSON file, where in it."""


class RunInUseError(ValueError):
    """Another ``tilecraft train`` run holds the folder (``DIR/run.lock``); the message names it."""


_TEMP = ".tmp-"  # a temporary file is NAME.tmp-PID-RANDOM beside the file NAME it becomes
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # every .npz entry's date: the same content gives the same bytes
LOCK_FILE = "run.lock"
# what a run's files measure rather than compute (curve.json): the only parts that differ between two runs
CURVE_TIMES = ("train_seconds", "wall", "seconds_per_move")


def _publish(path: pathlib.Path, write: Callable[[str], Any]) -> pathlib.Path:
    """Writes ``path`` whole or not at all: ``write(tmp)`` makes a temporary file of a unique name
    beside it (two processes never share one), the entries of a zip (.npz) get a fixed date, the
    bytes reach the disk, and one rename puts the file in place. On any failure (Ctrl-C included)
    the temporary file is removed and ``path`` is as it was."""
    tmp = path.with_name(f"{path.name}{_TEMP}{os.getpid()}-{secrets.token_hex(4)}")
    try:
        write(str(tmp))
        if path.suffix == ".npz":
            _fix_zip_dates(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
    return path


def _fix_zip_dates(path: pathlib.Path) -> None:
    """numpy dates each entry of an .npz file with the time it was written: rewrites them with one
    fixed date (the content, its order and its compression unchanged)."""
    with zipfile.ZipFile(path) as z:
        entries = [(info, z.read(info)) for info in z.infolist()]
    if all(info.date_time == _ZIP_DATE for info, _ in entries):
        return
    with zipfile.ZipFile(path, "w") as z:
        for info, data in entries:
            fixed = zipfile.ZipInfo(info.filename, date_time=_ZIP_DATE)
            fixed.compress_type, fixed.external_attr = info.compress_type, info.external_attr
            z.writestr(fixed, data)


def _write_json(path: pathlib.Path, value: Any) -> None:
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps(value, indent=1))

    _publish(path, write)


def _read_json(path: pathlib.Path, what: str) -> Any:
    """A JSON file of the run; RunFileError naming it, the line and column, and ``what`` it holds."""
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as e:
        raise RunFileError(f"{path}: not UTF-8 text (byte {e.start}); it holds {what}") from None
    except json.JSONDecodeError as e:
        raise RunFileError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg}); it holds "
                           f"{what}") from None
    except RecursionError:
        raise RunFileError(f"{path}: JSON nested too deeply; it holds {what}") from None


def _damage(path: pathlib.Path) -> Optional[str]:
    """Why the .npz file ``path`` cannot be read whole (truncated, a bad checksum), or None."""
    try:
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()  # reads every entry and checks its CRC
    except (OSError, zipfile.BadZipFile, EOFError, ValueError, zlib.error) as e:
        return f"{type(e).__name__}: {e}"
    return None if bad is None else f"entry {bad} fails its checksum"


def _usable(path: pathlib.Path) -> bool:
    """Whether a file that can be made again is there and whole; a damaged one is reported on stderr
    (and then replaced by the caller, with the content it should have had)."""
    if not path.exists():
        return False
    why = _damage(path)
    if why is not None:
        print(f"tilecraft: {path}: damaged ({why}); making it again", file=sys.stderr, flush=True)
        return False
    return True


def _check_curve(path: pathlib.Path, curve: Any) -> List[Dict[str, Any]]:
    """curve.json as the run writes it: a list of one object per round, in order."""
    if not isinstance(curve, list):
        raise RunFileError(f"{path}: expected a JSON list with one object per trained round, got "
                           f"{type(curve).__name__}")
    for i, entry in enumerate(curve):
        if not isinstance(entry, dict):
            raise RunFileError(f"{path}: [{i}] must be an object (round {i}), got {type(entry).__name__}")
        if entry.get("round") != i:
            raise RunFileError(f"{path}: [{i}].round must be {i} (the rounds in order), got {entry.get('round')!r}")
        if not isinstance(entry.get("wall"), (int, float)) or isinstance(entry.get("wall"), bool):
            raise RunFileError(f"{path}: [{i}].wall must be a number of seconds, got {entry.get('wall')!r}")
    return curve


class _Lock:
    """The run's hold on its folder: ``DIR/run.lock``, locked (fcntl.flock; msvcrt on Windows) for as
    long as the run lasts and holding its pid, host, start time and command. The operating system
    frees the lock when the process ends, however it ends; the file itself stays."""

    def __init__(self, folder: pathlib.Path, command: str):
        self.path = folder / LOCK_FILE
        self.file: Optional[IO[str]] = open(self.path, "a+", encoding="utf-8")
        try:
            self._lock(True)
        except OSError:
            self.file.seek(0)
            text = self.file.read()
            self.file.close()
            self.file = None
            raise RunInUseError(f"{folder} is in use by another tilecraft train run ({_holder(text)}; "
                                f"{self.path}); wait for it to end or stop it, or use another --out") from None
        self.file.seek(0)
        self.file.truncate()
        self.file.write(json.dumps(dict(pid=os.getpid(), host=socket.gethostname(), command=command,
                                        started=datetime.datetime.now(datetime.timezone.utc)
                                        .isoformat(timespec="seconds"))) + "\n")
        self.file.flush()

    def _lock(self, take: bool) -> None:
        assert self.file is not None
        try:
            import fcntl
        except ImportError:  # Windows
            import msvcrt

            self.file.seek(0)
            msvcrt.locking(self.file.fileno(), msvcrt.LK_NBLCK if take else msvcrt.LK_UNLCK, 1)  # type: ignore
            return
        fcntl.flock(self.file.fileno(), (fcntl.LOCK_EX | fcntl.LOCK_NB) if take else fcntl.LOCK_UN)

    def release(self) -> None:
        if self.file is None:
            return
        try:
            self.file.seek(0)
            self.file.truncate()  # a folder no run holds has an empty run.lock
            self.file.flush()
            self._lock(False)
        finally:
            self.file.close()
            self.file = None


def _holder(text: str) -> str:
    """The lock holder's details as the run wrote them, in words."""
    try:
        h = json.loads(text)
        return f"pid {h['pid']} on {h['host']}, started {h['started']}: {h['command']}"
    except (ValueError, KeyError, TypeError):
        return "its details are not written yet" if not text.strip() else f"holder: {text.strip()[:200]}"


def _remove_stale_temporaries(folder: pathlib.Path) -> None:
    """Temporary files left by a run that was killed outright (with the lock held, no other run can
    be writing them); also those of older versions (NAME.tmp)."""
    for where in (folder, folder / "data"):
        for p in where.glob("*.tmp*"):
            if (_TEMP in p.name or p.name.endswith(".tmp")) and p.is_file():
                p.unlink()


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
    """The teacher chunks not yet in ``folder`` (or damaged), made by ``args.workers`` processes at once
    (spawned, so that it works the same on every platform). Each is written when done, so an interrupted
    run keeps the chunks that were finished."""
    import concurrent.futures
    import multiprocessing

    todo = [k for k in range(args.chunks) if not _usable(_chunk_path(folder, "teacher", k))]
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


def _savez(path: pathlib.Path, arrays: Dict[str, np.ndarray], compressed: bool = True) -> None:
    """An .npz file of the run, written whole or not at all (``_publish``)."""
    save: Any = np.savez_compressed if compressed else np.savez

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            save(f, **arrays)

    _publish(path, write)


def _save_rows(path: pathlib.Path, rows: Dict[str, np.ndarray], meta: Dict[str, Any]) -> None:
    _savez(path, dict(meta=np.array(json.dumps(meta)), **rows))


def _load_rows(paths: Sequence[pathlib.Path], num_actions: int) -> Dict[str, np.ndarray]:
    parts: Dict[str, List[np.ndarray]] = {k: [] for k in ROW_KEYS + ("q",)}
    games = 0
    for p in paths:
        try:
            with np.load(p, allow_pickle=False) as z:
                for k in ROW_KEYS:
                    parts[k].append(z[k])
                # the teacher's own estimate at the root (NaN where the chunk has none: older chunks, PUCT rounds)
                parts["q"].append(z["q"] if "q" in z.files else np.full(len(z["codes"]), np.nan, np.float32))
                games += int(json.loads(str(z["meta"]))["games"])
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile, zlib.error) as e:
            raise RunFileError(f"{p}: not a chunk of training rows this run can read ({type(e).__name__}: {e}); "
                               "delete it and run again to make it again") from None
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


TORCH_EXTRA = "torch"  # pyproject.toml's optional dependency that installs PyTorch


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
    if use_torch is None:
        use_torch = have_torch()
    elif use_torch and not have_torch():
        raise ModuleNotFoundError(f"fit(use_torch=True) trains with PyTorch, which is not installed: pip install "
                                  f"\"tilecraft[{TORCH_EXTRA}]\" (or use_torch=None: PyTorch where installed, else numpy)",
                                  name="torch")
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
    """The baseline file: the trunk, policy and value heads (the margin head only helps training);
    written whole or not at all, the same arrays and metadata giving the same bytes."""
    keep = {k: v for k, v in arrays.items() if k not in ("wm", "bm")}
    return _publish(path, lambda tmp: baselines.save(tmp, keep, meta))


def save_checkpoint(arrays: Dict[str, np.ndarray], path: pathlib.Path, info: Optional[Dict[str, Any]] = None) -> None:
    """The weights after a round's training (all of them: the margin head and the input normalisation
    too), with ``info`` (the round, its data and losses, and the network file's metadata) under
    ``meta``: a stopped run resumes from it."""
    out = dict(arrays)
    if info is not None:
        out["meta"] = np.array(json.dumps(info, sort_keys=True))
    _savez(path, out, compressed=False)


def load_checkpoint(path: pathlib.Path) -> Tuple[Dict[str, np.ndarray], Optional[Dict[str, Any]]]:
    """The arrays and info of ``save_checkpoint`` (info None: a checkpoint of an older version)."""
    why = _damage(path)
    try:
        if why is not None:
            raise ValueError(why)
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files if k != "meta"}
            info = json.loads(str(z["meta"])) if "meta" in z.files else None
        if info is not None and not (isinstance(info, dict) and isinstance(info.get("round"), int)):
            raise ValueError(f"meta must be an object with an integer 'round', got {info!r}")
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile, zlib.error) as e:
        raise RunFileError(f"{path}: the run's checkpoint cannot be read ({e}); it holds the weights the next "
                           "round trains from and cannot be made again without training the rounds again "
                           "(in a new --out)") from None
    return arrays, info


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


@dataclasses.dataclass(frozen=True)
class _Number:
    """A numeric option of ``tilecraft train``: its type, default, allowed values and help, declared
    once (NUMBERS): argparse takes the type, default and help from it, check_arguments the range."""

    kind: type  # int or float
    default: Any
    help: str = ""
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
            from .puct import PUCTBot

            try:
                PUCTBot(None, **{self.puct: value})
            except (ValueError, TypeError) as e:
                raise ValueError(f"{flag}: {e}") from None
            return
        from ._args import is_integer

        number = is_integer(value) if self.kind is int else (
            isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)))
        ok = number and (self.or_zero and value == 0 or (
            math.isfinite(value) and (value > self.low if self.low_open else value >= self.low) and value <= self.high))
        if not ok:
            raise ValueError(f"{flag} must be {self.allowed()}, got {value!r}")


# every numeric option but --players (the game's own check gives its player counts), in --help's order
NUMBERS: Dict[str, _Number] = dict(
    seed=_Number(int, 0, "the run's seed: every chunk's, the initial weights' and the batches'", 0, 2**64 - 1),
    chunks=_Number(int, 20, "teacher self-play chunks", 1, 100_000),
    games_per_chunk=_Number(int, 100, "games per teacher chunk", 1, 1_000_000),
    threads=_Number(int, 2, "self-play threads (and PyTorch's)", 1, 256),
    workers=_Number(int, 1, "teacher chunks made at once, each in a process of its own on --threads threads; a "
                    "chunk is the same whichever process makes it (a machine with many cores: --workers N "
                    "--threads 1)", 1, 256),
    epochs=_Number(float, 8.0, "passes over the data in the first round", 0, 10_000, low_open=True),
    round_epochs=_Number(float, 2.0, "passes over the data in later rounds", 0, 10_000, low_open=True),
    batch=_Number(int, 512, "rows per training step", 1, 2**20),
    target_temperature=_Number(float, 1.0, "the policy is trained on the visit shares raised to 1/T (1: as "
                               "searched; 0: the most visited action)", 0, 100),
    value_weight=_Number(float, 0.5, "weight of the value loss against the policy's", 0, 100),
    q_weight=_Number(float, 0.5, "value target: (1 - w) * the game's outcome + w * the teacher's root estimate",
                     0, 1),
    hold_out=_Number(int, 10, "every Nth teacher chunk is held out to pick the best weights (0: none; fewer "
                     "than N chunks: none)", 2, 100_000, or_zero=True),
    lr=_Number(float, 1e-3, "the learning rate of the first round (later rounds: 0.3 times it)", 0, 1,
               low_open=True),
    rounds=_Number(int, 1, "0: make the teacher's data and stop (train later, or elsewhere, from the same "
                   "folder); 1: train on the teacher's data; more: Gumbel PUCT rounds", 0, 10_000),
    puct_games=_Number(int, 200, "games of Gumbel PUCT self-play per later round", 1, 1_000_000),
    puct_simulations=_Number(int, 64, "later rounds' PUCT: simulations per move", puct="simulations"),
    puct_rollout_mix=_Number(float, 0.0, "later rounds' PUCT: leaf values mixed with rollouts (PUCTBot's "
                             "rollout_mix; 0: the network's)", puct="rollout_mix"),
    puct_prior_heuristic=_Number(float, 0.0, "later rounds' PUCT: the game's one-ply heuristic as a prior bias "
                                 "(PUCTBot's prior_heuristic)", puct="prior_heuristic"),
    window=_Number(int, 0, "later rounds train on the last N chunks (0: all)", 0, 100_000),
    eval_games=_Number(int, 40, "games per evaluation pairing (0: no evaluation)", 0, 1_000_000),
    eval_simulations=_Number(int, 200, "the evaluation's PUCT: simulations per move", puct="simulations"),
    eval_workers=_Number(int, 2, "processes the evaluation plays on", 1, 256),
)


# each layer width of --hidden and --value-hidden (comma-separated lists)
LAYER_WIDTH = _Number(int, None, "a layer's width", 1, 65_536)


def _widths(flag: str, text: str) -> List[int]:
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


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def check_arguments(args: argparse.Namespace) -> None:
    """Every numeric option in its range (NUMBERS), before any work: a ValueError names the flag, what
    it allows and what it got."""
    for dest, number in NUMBERS.items():
        number.check(_flag(dest), getattr(args, dest))


def add_arguments(p: argparse.ArgumentParser) -> None:
    def number(dest: str) -> None:
        n = NUMBERS[dest]
        p.add_argument(_flag(dest), type=n.kind, default=n.default, help=f"{n.help} ({n.allowed()}; default {n.default})")

    p.add_argument("game")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option (repeatable)")
    p.add_argument("--out", default=None, help="the run's folder (default: runs/GAME-Np); resumed when it exists "
                                              "(one run at a time: DIR/run.lock)")
    number("seed")
    p.add_argument("--teacher", default="mcts:iterations=1000", help="the search whose self-play is learned")
    for dest in ("chunks", "games_per_chunk", "threads", "workers"):
        number(dest)
    p.add_argument("--hidden", default="512,256,256", help="the trunk's layer widths")
    p.add_argument("--value-hidden", default="256,256",
                   help="the value trunk's layer widths ('': the value head sits on the policy's trunk)")
    p.add_argument("--groups", choices=("auto", "none"), default="auto",
                   help="auto: the game's feature groups (a shared encoder per board cell, seat or card; "
                        "tilecraft.baselines.group_indices) where it declares them; none: every feature "
                        "straight into the trunk")
    for dest in ("epochs", "round_epochs", "batch", "target_temperature", "value_weight", "q_weight", "hold_out",
                 "lr", "rounds", "puct_games", "puct_simulations", "puct_rollout_mix", "puct_prior_heuristic",
                 "window", "eval_games", "eval_simulations"):
        number(dest)
    p.add_argument("--eval-opponent", default=None, help="the search PUCT is measured against (default: the teacher)")
    number("eval_workers")
    p.add_argument("--search", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of the baseline bot that the evaluation searches with over the configuration's "
                        "preset (tilecraft/presets.json; repeatable): the settings it was evaluated with are "
                        "written to DIR/preset.json (and beside --export)")
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


def _check_search(search: Dict[str, Any]) -> Dict[str, Any]:
    """--search's options: the baseline bot's (its own check: names, then values in C++)."""
    from .bots import BaselineBot, bot_options

    known = [k for k in bot_options(BaselineBot) or [] if k not in ("seed", "path")]
    unknown = sorted(set(search) - set(known))
    if unknown:
        raise ValueError(f"--search {unknown[0]}: not an option of the baseline bot; those are {', '.join(known)}")
    try:
        BaselineBot(**search)
    except ValueError as e:
        raise ValueError(f"--search: {e}") from None
    return search


def _preset(state: Any, simulations: int, search: Dict[str, Any]) -> Dict[str, Any]:
    """The preset the run's networks are evaluated with, as an entry of tilecraft/presets.json."""
    from .bots import BaselineBot

    game, mode = type(state).game_name, baselines.mode_of(state)
    return dict(game=game, players=state.num_players(), **({"mode": mode} if mode else {}),
                search=BaselineBot(simulations=simulations, **search).settings(state))


def _round_bot(evaluator: Any, args: argparse.Namespace) -> Any:
    """The Gumbel PUCT search of the later rounds' self-play."""
    from .puct import PUCTBot

    return PUCTBot(evaluator, simulations=args.puct_simulations, gumbel=True, gumbel_actions=16,
                   rollout_mix=args.puct_rollout_mix, prior_heuristic=args.puct_prior_heuristic)


def _check_folder(out: pathlib.Path, settings: Dict[str, Any]) -> bool:
    """Whether ``out`` holds a run to resume; a ValueError when it holds one of other settings (until a
    round is trained, only the settings the data depends on must match), or a RunFileError when its
    run.json cannot be read. Reads only."""
    run_file = out / "run.json"
    if not run_file.exists():
        return False
    before = _read_json(run_file, "the run's settings, written by tilecraft train")
    if not isinstance(before, dict) or not isinstance(before.get("settings"), dict):
        got = before.get("settings") if isinstance(before, dict) else before
        raise RunFileError(f"{run_file}: .settings must be an object (the run's settings, written by tilecraft "
                           f"train), got {type(got).__name__}")
    # Until a round is trained, the folder holds only the teacher's data (say a --rounds 0 run on
    # another machine): only what that data depends on must match.
    trained = (out / "curve.json").exists() or (out / "weights.npz").exists()
    differ = [k for k in settings if (trained or k in _DATA_SETTINGS) and before["settings"].get(k) != settings[k]]
    if differ:
        raise ValueError(f"{out}: this folder holds a run with other settings ({', '.join(differ)}); "
                         "use another --out")
    return True


def run(args: argparse.Namespace, argv: Sequence[str] = ()) -> Dict[str, Any]:
    """Runs (or resumes) a training run; returns the run's summary. Everything is checked before
    anything is written; the run then holds its folder (``DIR/run.lock``) until it returns."""
    from .games import game_spec, make

    def say(text: str) -> None:
        if not args.quiet:
            print(text, flush=True)

    spec = game_spec(args.game)
    game, players = spec.name, args.players
    check_arguments(args)
    options = _options(args.option)
    state = make(game, players=players, **options)  # checks the game, the players and the options
    mode = baselines.mode_of(state)
    search = _check_search(_options(args.search, "--search"))
    hidden, value_hidden = _widths("--hidden", args.hidden), _widths("--value-hidden", args.value_hidden)
    if not hidden:
        raise ValueError(f"--hidden must list at least one layer width ({LAYER_WIDTH.allowed()}), got {args.hidden!r}")
    out = pathlib.Path(args.out or f"runs/{game}-{players}p")
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
    command = "tilecraft train " + " ".join(argv)
    _check_folder(out, settings)  # a folder of other settings is refused before anything is written
    out.mkdir(parents=True, exist_ok=True)
    lock = _Lock(out, command)
    try:
        return _run_held(args, out, spec, state, mode, options, search, hidden, value_hidden, groups, settings,
                         command, say)
    finally:
        lock.release()


def _run_held(args: argparse.Namespace, out: pathlib.Path, spec: Any, state: Any, mode: Optional[str], options: Dict[str, Any],
              search: Dict[str, Any], hidden: List[int], value_hidden: List[int], groups: List[Any],
              settings: Dict[str, Any], command: str, say: Callable[[str], None]) -> Dict[str, Any]:
    """run's stages, with the folder held. Each stage's output is a file written whole or not at all,
    and a stage whose file is there (and whole) is not done again: teacher chunks; then per round r
    its PUCT chunk (r > 0), its training (weights.npz: the weights and what the round's network file
    needs), its network file (made again from weights.npz until the round is in curve.json, the same
    bytes), its evaluation and its line in curve.json. A round is done when curve.json lists it."""
    game, players = spec.name, args.players
    if _check_folder(out, settings):  # again, now that no other run can write it
        say(f"resuming {out}")
    (out / "data").mkdir(exist_ok=True)
    _remove_stale_temporaries(out)
    _write_json(out / "run.json", dict(settings=settings, command=command, commit=_commit()))
    preset = _preset(state, args.eval_simulations, search)
    _write_json(out / "preset.json", preset)
    codec = state.observation_codec()
    layout = state.observation_layout()
    n_in, n_act = int(np.prod(state.observation_shape())), state.num_distinct_actions()
    margin_scale = 10.0  # the score margin's scale in the value target (points)
    start = time.perf_counter()
    curve_file = out / "curve.json"
    curve: List[Dict[str, Any]] = (
        _check_curve(curve_file, _read_json(curve_file, "the learning curve: one object per trained round"))
        if curve_file.exists() else [])
    wall_before = curve[-1]["wall"] if curve else 0.0
    rounds_done = len(curve)
    ckpt = out / "weights.npz"
    arrays: Optional[Dict[str, np.ndarray]] = None
    info: Optional[Dict[str, Any]] = None  # the round the checkpoint holds, its data, losses and network metadata
    trained = -1  # the last round whose training is done (its weights in the checkpoint)
    if ckpt.exists():
        arrays, info = load_checkpoint(ckpt)
        trained = info["round"] if info is not None else rounds_done - 1  # (a checkpoint of an older version)
        if not rounds_done - 1 <= trained <= rounds_done:
            raise RunFileError(f"{ckpt}: holds the weights of round {trained}, but {curve_file} lists {rounds_done} "
                               f"trained round(s) (the checkpoint must be of round {rounds_done - 1} or {rounds_done})")
        if trained < 0:
            arrays, info = None, None
    elif rounds_done:
        raise RunFileError(f"{ckpt}: missing, but {curve_file} lists {rounds_done} trained round(s); the next round "
                           "trains from its weights (train the rounds again in a new --out)")

    def chunk(kind: str, k: int, bots: List[Any], n_games: int, evaluator: Any = None) -> pathlib.Path:
        path = _chunk_path(out / "data", kind, k)
        if _usable(path):
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
    summary: Dict[str, Any] = {}
    for r in range(rounds_done, args.rounds):
        t0 = time.perf_counter()
        train_seconds: Optional[float] = None  # (None: trained by an earlier run that stopped before its evaluation)
        if trained < r:
            if r > 0:  # 2. Gumbel PUCT self-play with the latest network
                previous = out / f"net-{r - 1:02d}.npz"
                if not _usable(previous):
                    if info is None or arrays is None or info["round"] != r - 1:
                        raise RunFileError(f"{previous}: missing or damaged, and {ckpt} no longer holds its weights; "
                                           "restore it, or train the rounds again in a new --out")
                    export(arrays, info["net"], previous)
                net = baselines.load(game, players, mode, path=str(previous))
                chunk("puct", r, [_round_bot(net, args)], args.puct_games, evaluator=net)
            # the teacher's chunks (but those held out) and the PUCT rounds' chunks so far, in order
            puct_paths = [_chunk_path(out / "data", "puct", k) for k in range(1, r + 1)]
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
            meta = dict(game=game, players=[players], mode=mode, options=options, observation_layout=layout,
                        observation_size=n_in, num_actions=n_act, value_seats=players, hidden=hidden,
                        depth=len(hidden), value_hidden=value_hidden, groups=groups, command=command,
                        commit=_commit(), seed=args.seed, teacher=args.teacher, round=r, games=int(data["games"]),
                        rows=rows, **losses)
            # as a resumed run reads it back from the checkpoint (JSON), so that both write the same bytes
            info = json.loads(json.dumps(dict(round=r, rows=rows, games=int(data["games"]), losses=losses, net=meta)))
            save_checkpoint(arrays, ckpt, info)
            trained = r
            train_seconds = time.perf_counter() - t0
        assert arrays is not None and info is not None and info["round"] == r
        net_path = export(arrays, info["net"], out / f"net-{r:02d}.npz")
        entry: Dict[str, Any] = dict(round=r, rows=info["rows"], games=info["games"], train_seconds=train_seconds,
                                     **info["losses"])
        losses = info["losses"]
        say(f"round {r}: policy loss {losses['policy_loss']:.3f}, value loss {losses['value_loss']:.3f} -> {net_path}")
        if args.eval_games > 0:
            entry.update(evaluate(game, players, options, str(net_path), args.eval_games, args.eval_simulations,
                                  args.eval_opponent or args.teacher, args.eval_workers, say, search))
        entry["wall"] = wall_before + time.perf_counter() - start
        curve.append(entry)
        _write_json(curve_file, curve)
        summary = entry
    final = out / f"net-{max(len(curve) - 1, 0):02d}.npz"
    if args.export and final.exists():
        import shutil

        _publish(pathlib.Path(args.export), lambda tmp: shutil.copyfile(final, tmp))
        _write_json(pathlib.Path(args.export).with_suffix(".preset.json"), dict(preset, network=pathlib.Path(args.export).name))
        say(f"exported {final} -> {args.export} (and its preset, .preset.json)")
    return dict(out=str(out), rounds=len(curve), final=str(final), last=summary)


def evaluate(game: str, players: int, options: Dict[str, Any], path: str, games: int, simulations: int,
             opponent: str, workers: int, say: Any = print, search: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """The network's policy against greedy, and the baseline bot with it (simulations, and ``search``
    over the configuration's preset) against ``opponent``."""
    from .bots import BaselineBot, BaselinePolicyBot
    from .strength import format_row, head_to_head

    out: Dict[str, Any] = {}
    for key, bot, opp in (("policy_vs_greedy", BaselinePolicyBot(path=path), "greedy"),
                          ("puct_vs_teacher", BaselineBot(simulations=simulations, path=path, **(search or {})),
                           opponent)):
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
