"""A training run's data: the teacher's and the later generations' self-play, in chunks of games saved
as rows (byte-coded observations, legal masks, visit distributions, win shares, score margins), and
the training targets and batches made from them."""
from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import time
import zipfile
import zlib
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .files import RunFileError, savez, usable

ROW_KEYS = ("codes", "mask", "policy", "value", "margin")


# the settings the teacher's chunks depend on (the others shape the network and its later generations)
DATA_SETTINGS = ("game", "players", "options", "seed", "teacher", "games_per_chunk", "start")


def seed_of(seed: int, kind: str, k: int) -> int:
    """The seed of chunk ``k`` of ``kind``: teacher, or selfplay (``k`` = generation * CHUNKS + chunk)."""
    from ...runner import mix_seed

    return mix_seed(mix_seed(seed, {"teacher": 1, "selfplay": 2, "gate": 3, "value": 4}[kind]), k) >> 1


CHUNKS = 10_000  # a generation's chunks are numbered below this (TrainConfig: --selfplay-chunks)


def _rows_from_self_play(data: Dict[str, Any], players: int, margin_scale: float) -> Dict[str, np.ndarray]:
    """The training rows of one self-play result recorded with ``obs_dtype=numpy.uint8``: codes (uint8),
    packed legal mask, policy (float16), value (win shares of the seats relative to the mover), margin
    (score minus the mean, relative seats, divided by margin_scale), q (the search's root estimate, NaN
    for a bot that does not search); and what replays each row's position: its game and player, the
    games' state seeds and actions (flat, with each game's offset)."""
    from ..puct import win_shares

    t = data["training"]
    obs = np.asarray(t["observation"])
    obs = obs.reshape(len(obs), -1)
    game, player = np.asarray(t["game"], np.int64), np.asarray(t["player"], np.int64)
    shares = win_shares(np.asarray(data["winners"]))
    scores = np.asarray(data["scores"], np.float64)
    margins = (scores - scores.mean(axis=1, keepdims=True)) / margin_scale
    idx = (player[:, None] + np.arange(players)[None, :]) % players
    value = np.take_along_axis(shares[game], idx, axis=1).astype(np.float32)
    margin = np.take_along_axis(margins[game], idx, axis=1).astype(np.float32)
    q = np.asarray(t["search_value"], np.float32)
    actions = [np.asarray(a, np.int32) for a in data["actions"]]
    return dict(codes=obs, mask=np.packbits(np.asarray(t["legal_mask"], bool), axis=1),
                policy=np.asarray(t["policy"], np.float16), value=value, margin=margin, q=q,
                game=game.astype(np.int32), player=player.astype(np.int8),
                state_seed=np.asarray(data["state_seed"], np.int64),
                actions=np.concatenate(actions) if actions else np.zeros(0, np.int32),
                action_offsets=np.cumsum([0] + [len(a) for a in actions]).astype(np.int64))


def _searches_with_network(bots: Sequence[Any]) -> bool:
    """Whether a bot is a PUCT search (``puct``, ``baseline``): self_play then plays it in the batched
    PUCT loop (one thread, many games at once) instead of on ``--threads`` threads."""
    from ..bots import BaselineBot, make_bot
    from ..puct import PUCTBot

    def resolved(b: Any) -> Any:
        try:
            return make_bot(b)
        except TypeError:  # a bot object
            return b

    return any(isinstance(resolved(b), (PUCTBot, BaselineBot)) for b in bots)


@dataclasses.dataclass
class Chunk:
    """One chunk of self-play to make: everything it depends on (it pickles, for a worker process or
    a Ray task); ``path`` is where the driver saves it."""

    path: pathlib.Path
    game: str
    players: int
    options: Dict[str, Any]
    kind: str
    k: int
    seed: int
    bots: List[Any]
    n_games: int
    threads: int
    margin_scale: float
    evaluator: Any = None  # the network of PUCT bots that have none of their own


def chunk_rows(c: Chunk, progress: bool = False) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
    """Plays chunk ``c``: its rows and its metadata. The chunk depends only on ``c`` (its seed comes
    from the run's seed and its number), never on the process, the machine or the number of threads
    that make it."""
    from ..selfplay import self_play

    if c.evaluator is None and not _searches_with_network(c.bots):
        data = self_play(c.game, c.bots, c.n_games, seed=c.seed, threads=c.threads, players=c.players, record=True,
                         obs_dtype=np.uint8, progress=progress, **c.options)
    else:
        data = self_play(c.game, c.bots, c.n_games, seed=c.seed, players=c.players, record=True,
                         evaluator=c.evaluator, concurrent_games=min(c.n_games, 256), obs_dtype=np.uint8,
                         **c.options)
    rows = _rows_from_self_play(data, c.players, c.margin_scale)
    meta = dict(kind=c.kind, chunk=c.k, games=c.n_games, seed=c.seed,
                bots=[b if isinstance(b, str) else repr(b) for b in c.bots])
    return rows, meta


def _chunk_task(c: Chunk) -> Tuple[pathlib.Path, Dict[str, np.ndarray], Dict[str, Any]]:
    """A worker's (or a Ray task's) part: the chunk's rows, sent back to the driver, which saves them
    (a Ray cluster's machines need not share the run's folder)."""
    rows, meta = chunk_rows(c)
    return c.path, rows, meta


def make_chunks(chunks: Sequence[Chunk], backend: str, workers: int, address: Optional[str], say: Any,
                progress: bool = False) -> None:
    """The chunks whose files are missing (or damaged), made in this process (one worker, local), by
    ``workers`` processes at once (spawned, so that it works the same on every platform), or as Ray
    tasks (``backend="ray"``, through tilecraft.distributed's Ray session: the cluster at
    ``address``). Each is saved as soon as it is back, so an interrupted run keeps the chunks that
    were finished; every chunk is the same whichever way it was made."""
    todo = [c for c in chunks if not usable(c.path)]
    if not todo:
        return
    t0 = time.perf_counter()
    done = [0]

    def save(path: pathlib.Path, rows: Dict[str, np.ndarray], meta: Dict[str, Any]) -> None:
        save_rows(path, rows, meta)
        done[0] += 1
        say(f"{path.stem}: {meta['games']} games, {len(rows['codes'])} rows ({done[0]}/{len(todo)} in "
            f"{time.perf_counter() - t0:.0f} s" + (f" on {workers} {'Ray tasks' if backend == 'ray' else 'processes'})"
                                                    if backend == "ray" or workers > 1 else ")"))

    if backend == "ray":
        from ...distributed import run_ray

        run_ray(list(todo), workers, lambda r: save(*r), address, task=_chunk_task)
    elif workers == 1 or len(todo) == 1:
        for c in todo:
            save(c.path, *chunk_rows(c, progress))
    else:
        import concurrent.futures
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(max_workers=min(workers, len(todo)), mp_context=ctx,
                                                    initializer=_exit_with_parent, initargs=(os.getpid(),)) as pool:
            jobs = [pool.submit(_chunk_task, c) for c in todo]
            for job in concurrent.futures.as_completed(jobs):
                save(*job.result())  # a chunk that failed raises here, naming its error


def chunk_path(folder: pathlib.Path, kind: str, k: int) -> pathlib.Path:
    """Where chunk ``k`` of ``kind`` lives in a run's data folder: teacher-KKKK.npz, or gen-GGGG-KK.npz
    for chunk k % CHUNKS of generation k // CHUNKS's self-play."""
    if kind == "selfplay":
        return folder / f"gen-{k // CHUNKS:04d}-{k % CHUNKS:02d}.npz"
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


def save_rows(path: pathlib.Path, rows: Dict[str, np.ndarray], meta: Dict[str, Any]) -> None:
    savez(path, dict(meta=np.array(json.dumps(meta)), **rows))


def load_rows(paths: Sequence[pathlib.Path], num_actions: int) -> Dict[str, np.ndarray]:
    parts: Dict[str, List[np.ndarray]] = {k: [] for k in ROW_KEYS + ("q",)}
    games = 0
    for p in paths:
        try:
            with np.load(p, allow_pickle=False) as z:
                for k in ROW_KEYS:
                    parts[k].append(z[k])
                # the search's own estimate at the root (NaN where the chunk has none: chunks made before
                # self-play recorded it, PUCT chunks before the batched loop recorded it)
                parts["q"].append(z["q"] if "q" in z.files else np.full(len(z["codes"]), np.nan, np.float32))
                games += int(json.loads(str(z["meta"]))["games"])
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile, zlib.error) as e:
            raise RunFileError(f"{p}: not a chunk of training rows this run can read ({type(e).__name__}: {e}); "
                               "delete it and run again to make it again") from None
    out = {k: np.concatenate(v) for k, v in parts.items()}
    out["mask"] = np.unpackbits(out["mask"], axis=1, count=num_actions).astype(bool)
    out["games"] = np.array(games)
    return out


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


def batch_arrays(data: Dict[str, np.ndarray], idx: Any, codec_flat: Tuple[np.ndarray, np.ndarray],
            shift: np.ndarray, scale: np.ndarray) -> Tuple[np.ndarray, ...]:
    den, off = codec_flat
    x = ((data["codes"][idx].astype(np.float32) / den + off) - shift) * scale
    pi = data["policy"][idx].astype(np.float32)
    pi /= np.maximum(pi.sum(1, keepdims=True), 1e-9)
    target = data["target"][idx] if "target" in data else data["value"][idx]
    return x, data["mask"][idx], pi, target, data["margin"][idx]
