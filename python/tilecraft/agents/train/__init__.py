"""The learning loop behind ``tilecraft train`` (docs/training.md): generations of self-play, fit,
gate and promotion, on a CPU, on worker processes or on a Ray cluster.

0. **Generation 0.** C++ self-play of a strong search (``mcts:iterations=1000`` by default) records
   one row per decision: the mover's observation as byte codes, the legal mask, the root visit
   distribution, the search's own root estimate and (at the end of the game) every seat's win share
   and score, with what replays each position. It runs in chunks of games, each saved to
   ``DIR/data/teacher-NNNN.npz`` as soon as it is done. A policy-value MLP (trunk of ReLU layers;
   heads: policy logits over the action ids, value as the win shares of the seats relative to the
   mover, and a score-margin auxiliary head) learns them with JAX (``pip install
   "tilecraft[train]"``): ``DIR/net-00.npz``. (``--start FILE``: generation 0 is that network.)
1. **Each later generation** g: self-play with the best network's own search (Gumbel PUCT,
   ``--selfplay-simulations``; ``DIR/data/gen-GGGG-KK.npz``), the network fitted further on it
   (``DIR/net-GG.npz``), then the **gate**: its search against the best network's, both at
   ``--eval-simulations`` a move, seats rotated, ``--gate-games`` games; it is promoted, and plays
   the next generation's self-play, when its win share reaches ``--promote``.
2. **Beside the gate**, measured for the record and never deciding anything: the network's policy
   alone against greedy; its search against the plain search (MCTS for Azul, ISMCTS for the games
   with hidden hands) at ``--eval-ms`` a move each, seeds 40,000 + i; and the held-out error of the
   value head and of a rollout in predicting the final result (``--value-positions``).

Each generation's record is a line of ``DIR/generations.json``, drawn as a table
(``DIR/generations.md``) and a plot (``DIR/generations.svg``). Chunks are made by ``--workers``
processes or Ray tasks (``--backend ray --address HOST:PORT``): a chunk is the same whoever makes it.

Everything is seeded from ``--seed``; ``DIR/run.json`` records the command, the settings and the
folder's format, and a second run with the same ``DIR`` resumes (a folder of another game,
configuration, setting or format is refused before anything is written). Every file of a run is
written whole or not at all (a temporary file of a unique name, then a rename), each stage resumes
from what is on disk (a damaged chunk is made again, the same as before), and a resumed run writes the
files, bit for bit, that it would have written without the stop, apart from what it measures in time
(``CURVE_TIMES``): promotion is decided by simulation counts, never by a clock. One run at a time
holds a folder (``DIR/run.lock``).

The run is described by one :class:`TrainConfig` (its fields are the CLI's flags); the code is split
by concern: ``config`` (the flags), ``files`` (the run's files), ``data`` (self-play chunks and
targets), ``fitting`` (JAX), ``evaluation`` (the gate and the measurements), ``record`` (the table
and the plot), and this module (the stages).
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import pathlib
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .. import baselines
from .. import model
from .config import LAYER_WIDTH, NUMBERS, TrainConfig, add_arguments, key_values, widths
from .data import CHUNKS, DATA_SETTINGS, Chunk, chunk_path, load_rows, make_chunks, seed_of, sharpen, value_targets
from .evaluation import check_search, gate, measure, preset, selfplay_bot, value_error
from .files import (CURVE_TIMES, RunFileError, RunInUseError, Lock, check_record, commit, load_checkpoint, publish,
                    read_json, remove_stale_temporaries, save_checkpoint, usable, write_json)
from .fitting import MISSING, TRAIN_EXTRA, export, fit, have_jax, held_out_losses
from .record import svg, table

__all__ = ["TrainConfig", "run", "main", "parser", "add_arguments", "fit", "held_out_losses", "export", "gate",
           "measure", "value_error", "sharpen", "value_targets", "have_jax", "RunFileError", "RunInUseError",
           "CURVE_TIMES", "NUMBERS", "TRAIN_EXTRA", "LAYER_WIDTH", "FORMAT"]

FORMAT = 2  # the run folder's format (run.json's "format"): 2, generations; 1 (no "format"), rounds
CONFIGURATION = ("game", "players", "options")  # the settings that say which game a folder's run plays
MARGIN_SCALE = 10.0  # the score margin's scale in the value target (points)


def _check_folder(out: pathlib.Path, settings: Dict[str, Any]) -> bool:
    """Whether ``out`` holds a run to resume; a RunFileError when it holds a run of another format (an
    older tilecraft train) or a run.json that cannot be read, a ValueError when it holds a run of
    another game, configuration or settings (until generation 0 is trained, only the settings the
    teacher's data depends on must match). Reads only."""
    run_file = out / "run.json"
    if not run_file.exists():
        if (out / "curve.json").exists():
            raise RunFileError(f"{out}: holds a run of an older tilecraft train (rounds, curve.json; no run.json "
                               f"format {FORMAT}); this version runs generations and cannot resume it; use another "
                               "--out")
        return False
    before = read_json(run_file, "the run's settings, written by tilecraft train")
    if not isinstance(before, dict) or not isinstance(before.get("settings"), dict):
        got = before.get("settings") if isinstance(before, dict) else before
        raise RunFileError(f"{run_file}: .settings must be an object (the run's settings, written by tilecraft "
                           f"train), got {type(got).__name__}")
    if before.get("format", 1) != FORMAT:
        made = f"tilecraft {before['version']}" if "version" in before else "an older tilecraft"
        raise RunFileError(f"{run_file}: .format is {before.get('format', 1)!r} (a run made by {made}); this "
                           f"tilecraft train reads format {FORMAT} and cannot resume it; use another --out")
    had = before["settings"]
    if any(had.get(k) != settings[k] for k in CONFIGURATION):
        raise ValueError(f"{out}: this folder holds a run of {had.get('game')!r}, {had.get('players')} players, "
                         f"options {had.get('options')!r}, not of {settings['game']!r}, {settings['players']} "
                         f"players, options {settings['options']!r}; use another --out")
    # Until generation 0 is trained, the folder holds only the teacher's data (say a --teacher-only run
    # on another machine): only what that data depends on must match.
    trained = (out / "generations.json").exists() or (out / "weights.npz").exists()
    differ = [k for k in sorted(set(settings) | set(had))
              if (trained or k in DATA_SETTINGS) and had.get(k) != settings.get(k)]
    if differ:
        raise ValueError(f"{out}: this folder holds a run with other settings ("
                         + ", ".join(f"{k}: {had.get(k)!r} there, {settings.get(k)!r} here" for k in differ)
                         + "); use another --out")
    return True


def parser() -> argparse.ArgumentParser:
    """``tilecraft train``'s command line: TrainConfig's fields as flags."""
    p = argparse.ArgumentParser(prog="tilecraft train", description=(__doc__ or "").split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    return p


def _start_network(path: str, game: str, players: int, mode: Optional[str]) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
    """--start's network: its arrays (float32, with a fresh zero margin head) and its metadata; the
    file must be a network of this configuration."""
    net = baselines.load(game, players, mode, path=path)  # checks the file and its configuration
    arrays = {k: np.asarray(v, np.float32) for k, v in net.arrays.items()}
    m = net.meta
    shape = model.shapes(m["observation_size"], m["hidden"], m["num_actions"], players, m.get("value_hidden") or [],
                         m.get("groups") or [])
    for k in model.MARGIN_KEYS:  # (a network file leaves the margin head out: it starts at zero)
        arrays.setdefault(k, np.zeros(shape[k], np.float32))
    return arrays, dict(net.meta)


def run(config: Any, argv: Sequence[str] = ()) -> Dict[str, Any]:
    """Runs (or resumes) the training run ``config`` (a :class:`TrainConfig`, or the ``argparse``
    arguments of ``parser()``); returns the run's summary. ``argv``: the command line, recorded in the
    run's files. Everything is checked before anything is written; the run then holds its folder
    (``DIR/run.lock``) until it returns."""
    from ... import __version__
    from ...games import game_spec, make

    args = TrainConfig.from_args(config)

    def say(text: str) -> None:
        if not args.quiet:
            print(text, flush=True)

    spec = game_spec(args.game)
    game, players = spec.name, args.players
    args.check()
    options = key_values(args.option)
    state = make(game, players=players, **options)  # checks the game, the players and the options
    mode = baselines.mode_of(state)
    search = check_search(key_values(args.search, "--search"))
    start: Optional[Tuple[Dict[str, np.ndarray], Dict[str, Any]]] = None
    if args.start is not None:
        start = _start_network(args.start, game, players, mode)
        meta = start[1]
        hidden, value_hidden = list(meta["hidden"]), list(meta.get("value_hidden", []))
        groups = list(meta.get("groups", []))
    else:
        hidden, value_hidden = widths("--hidden", args.hidden), widths("--value-hidden", args.value_hidden)
        if not hidden:
            raise ValueError(f"--hidden must list at least one layer width ({LAYER_WIDTH.allowed()}), got "
                             f"{args.hidden!r}")
        groups = (list(spec.observation_groups(state)) if args.groups == "auto" and spec.observation_groups is not None
                  else [])
    if args.backend != "ray" and args.address is not None:
        raise ValueError("--address is the Ray cluster of --backend ray; give --backend ray, or leave --address out")
    out = pathlib.Path(args.out or f"runs/{game}-{players}p")
    settings: Dict[str, Any] = dict(
        game=game, players=players, options=options, seed=args.seed,
        teacher=None if start else args.teacher, games_per_chunk=None if start else args.games_per_chunk,
        start=None if args.start is None else hashlib.sha256(pathlib.Path(args.start).read_bytes()).hexdigest(),
        hidden=hidden, value_hidden=value_hidden, groups=groups, target_temperature=args.target_temperature,
        q_weight=args.q_weight, value_weight=args.value_weight, epochs=args.epochs,
        generation_epochs=args.generation_epochs, batch=args.batch, lr=args.lr, hold_out=args.hold_out,
        window=args.window, selfplay_games=args.selfplay_games, selfplay_chunks=args.selfplay_chunks,
        selfplay_simulations=args.selfplay_simulations, selfplay_rollout_mix=args.selfplay_rollout_mix,
        selfplay_prior_heuristic=args.selfplay_prior_heuristic, gate_games=args.gate_games, promote=args.promote,
        eval_simulations=args.eval_simulations, search=search, value_positions=args.value_positions)
    command = "tilecraft train " + " ".join(argv)
    _check_folder(out, settings)  # a folder of other settings is refused before anything is written
    if not args.teacher_only and not have_jax():  # before hours of self-play
        raise ModuleNotFoundError(f"tilecraft train: {MISSING} (or --teacher-only: the teacher's data alone)",
                                  name="jax")
    session: Any = contextlib.nullcontext()
    if args.backend == "ray":
        from ...distributed import check_address, ray_session

        check_address(args.address)  # Ray installed, and the cluster reachable: before anything is written
        # joined once for the whole run, before JAX starts its threads (Ray's own processes are forked)
        session = ray_session(args.workers, args.address)
    out.mkdir(parents=True, exist_ok=True)
    lock = Lock(out, command)
    try:
        with session:
            return _run_held(args, out, spec, state, mode, options, search, start, settings, command, __version__,
                             say)
    finally:
        lock.release()


def _run_held(args: TrainConfig, out: pathlib.Path, spec: Any, state: Any, mode: Optional[str], options: Dict[str, Any],
              search: Dict[str, Any], start: Optional[Tuple[Dict[str, np.ndarray], Dict[str, Any]]],
              settings: Dict[str, Any], command: str, version: str, say: Callable[[str], None]) -> Dict[str, Any]:
    """run's stages, with the folder held. Each stage's output is a file written whole or not at all,
    and a stage whose file is there (and whole) is not done again: teacher chunks; then per generation
    g its self-play chunks (g > 0), its fit (weights.npz: the weights and what the generation's network
    file needs), its network file (made again from weights.npz until the generation is in
    generations.json, the same bytes), its gate and measurements, and its line in generations.json.
    A generation is done when generations.json lists it."""
    game, players = spec.name, args.players
    hidden, value_hidden, groups = settings["hidden"], settings["value_hidden"], settings["groups"]
    if _check_folder(out, settings):  # again, now that no other run can write it
        say(f"resuming {out}")
    data_dir = out / "data"
    data_dir.mkdir(exist_ok=True)
    remove_stale_temporaries(out)
    write_json(out / "run.json", dict(format=FORMAT, version=version, settings=settings, command=command,
                                      commit=commit()))
    run_preset = preset(state, args.eval_simulations, search)
    write_json(out / "preset.json", run_preset)
    codec = state.observation_codec()
    layout = state.observation_layout()
    n_in, n_act = int(np.prod(state.observation_shape())), state.num_distinct_actions()
    t_start = time.perf_counter()
    record_file = out / "generations.json"
    record: List[Dict[str, Any]] = (
        check_record(record_file, read_json(record_file, "the generation record: one object per generation"))
        if record_file.exists() else [])
    wall_before = record[-1]["wall"] if record else 0.0
    done = len(record)
    best = record[-1]["best"] if record else 0
    ckpt = out / "weights.npz"
    arrays: Optional[Dict[str, np.ndarray]] = None
    info: Optional[Dict[str, Any]] = None  # the generation the checkpoint holds, its data, losses and network metadata
    trained = -1  # the last generation whose fit is done (its weights in the checkpoint)
    if ckpt.exists():
        arrays, info = load_checkpoint(ckpt)
        trained = info["generation"]
        if not done - 1 <= trained <= done:
            raise RunFileError(f"{ckpt}: holds the weights of generation {trained}, but {record_file} lists {done} "
                               f"generation(s) (the checkpoint must be of generation {done - 1} or {done})")
    elif done:
        raise RunFileError(f"{ckpt}: missing, but {record_file} lists {done} generation(s); the next generation "
                           "trains from its weights (run the generations again in a new --out)")

    def chunk(kind: str, k: int, bots: List[Any], n_games: int, evaluator: Any = None) -> Chunk:
        return Chunk(chunk_path(data_dir, kind, k), game, players, options, kind, k, seed_of(args.seed, kind, k),
                     bots, n_games, args.threads, MARGIN_SCALE, evaluator)

    def made(chunks: List[Chunk]) -> List[pathlib.Path]:
        make_chunks(chunks, args.backend, args.workers, args.address, say, progress=not args.quiet)
        return [c.path for c in chunks]

    # generation 0's data: the teacher's self-play (none from --start)
    teacher_paths = [] if start else made([chunk("teacher", k, [args.teacher], args.games_per_chunk)
                                            for k in range(args.chunks)])
    if args.teacher_only:
        say(f"{len(teacher_paths)} teacher chunks in {data_dir} (--teacher-only: no training)")
        return dict(out=str(out), generations=0, best=None, last={}, chunks=len(teacher_paths))
    held_teacher = [p for k, p in enumerate(teacher_paths) if args.hold_out and k % args.hold_out == args.hold_out - 1]

    per = -(-args.selfplay_games // args.selfplay_chunks)
    counts = [n for n in (min(per, args.selfplay_games - k * per) for k in range(args.selfplay_chunks)) if n > 0]

    def selfplay_split(g: int) -> Tuple[List[pathlib.Path], List[pathlib.Path]]:
        """Generation g's self-play chunks: those fitted on, and the one held out (the last, of 2 or more)."""
        paths = [chunk_path(data_dir, "selfplay", g * CHUNKS + k) for k in range(len(counts))]
        return (paths[:-1], paths[-1:]) if len(paths) > 1 else (paths, [])

    def net_file(g: int) -> pathlib.Path:
        return out / f"net-{g:02d}.npz"

    summary: Dict[str, Any] = {}
    for g in range(done, args.generations):
        seconds: Dict[str, float] = {}  # each stage's wall time (none for a stage an earlier run did)
        t0 = time.perf_counter()
        held = held_teacher if g == 0 else selfplay_split(g)[1]
        if trained < g:
            if g == 0 and start is not None:
                arrays = start[0]
                meta = dict(start[1], command=command, commit=commit(), generation=0)
                info = json.loads(json.dumps(dict(generation=0, rows=0, games=0, losses={}, net=meta)))
            else:
                if g > 0:  # self-play with the best network's own search
                    if not usable(net_file(best)):
                        if info is None or arrays is None or info["generation"] != best:
                            raise RunFileError(f"{net_file(best)}: missing or damaged (the best network, which plays "
                                               f"generation {g}'s self-play), and {out / 'weights.npz'} no longer holds "
                                               "its weights; restore it, or run the generations again in a new --out")
                        export(arrays, info["net"], net_file(best))
                    net = baselines.load(game, players, mode, path=str(net_file(best)))
                    made([chunk("selfplay", g * CHUNKS + k, [selfplay_bot(net, args)], n, evaluator=net)
                          for k, n in enumerate(counts)])
                    seconds["selfplay"] = time.perf_counter() - t0
                fitted = [p for p in teacher_paths if p not in held_teacher]
                for h in range(1, g + 1):
                    fitted += selfplay_split(h)[0]
                if g > 0 and args.window:
                    fitted = fitted[-args.window:]
                data = load_rows(fitted, n_act)
                data["target"] = value_targets(data, args.q_weight)
                data["policy"] = sharpen(data["policy"], args.target_temperature)
                val = load_rows(held, n_act) if held else None  # judged on the outcomes alone
                if val is not None:
                    val["policy"] = sharpen(val["policy"], args.target_temperature)
                rows = len(data["codes"])
                say(f"generation {g}: fitting on {rows} rows from {int(data['games'])} games"
                    + (f", {len(val['codes'])} rows from {int(val['games'])} games held out" if val is not None else ""))
                fresh = arrays is None
                if arrays is None:
                    arrays = model.init(n_in, hidden, n_act, players, args.seed, value_hidden, groups)
                arrays, losses = fit(arrays, data, codec, args.epochs if fresh else args.generation_epochs,
                                     batch=args.batch, lr=args.lr if fresh else args.lr * 0.3, seed=args.seed + g,
                                     threads=args.threads, log=None if args.quiet else say, val=val,
                                     value_weight=args.value_weight, groups=groups)
                meta = dict(game=game, players=[players], mode=mode, options=options, observation_layout=layout,
                            observation_size=n_in, num_actions=n_act, value_seats=players, hidden=hidden,
                            depth=len(hidden), value_hidden=value_hidden, groups=groups, command=command,
                            commit=commit(), seed=args.seed, teacher=settings["teacher"], generation=g,
                            games=int(data["games"]), rows=rows, **losses)
                # as a resumed run reads it back from the checkpoint (JSON), so that both write the same bytes
                info = json.loads(json.dumps(dict(generation=g, rows=rows, games=int(data["games"]), losses=losses,
                                                  net=meta)))
            save_checkpoint(arrays, ckpt, info)
            trained = g
            seconds["fit"] = time.perf_counter() - t0 - seconds.get("selfplay", 0.0)
        assert arrays is not None and info is not None and info["generation"] == g
        path = export(arrays, info["net"], net_file(g))
        entry: Dict[str, Any] = dict(generation=g, players=players, rows=info["rows"], games=info["games"],
                                     **info["losses"])
        if info["losses"]:
            say(f"generation {g}: policy loss {info['losses']['policy_loss']:.3f}, value loss "
                f"{info['losses']['value_loss']:.3f} -> {path}")
        if g == 0 or args.gate_games == 0:
            promoted = True
        else:
            t0 = time.perf_counter()
            entry["gate"] = gate(game, players, options, str(path), str(net_file(best)), args.gate_games,
                                 args.eval_simulations, seed_of(args.seed, "gate", g), args.eval_workers, search, say)
            seconds["gate"] = time.perf_counter() - t0
            promoted = entry["gate"]["share"] >= args.promote
        best = g if promoted else best
        entry.update(promoted=promoted, best=best)
        say(f"generation {g}: " + ("promoted" if promoted else f"not promoted (the best stays net-{best:02d})"))
        net = baselines.load(game, players, mode, path=str(path))
        t0 = time.perf_counter()
        if args.value_positions and held:
            entry["value_error"] = value_error(game, players, options, net, held, args.value_positions,
                                               seed_of(args.seed, "value", g))
            if entry["value_error"]:
                v = entry["value_error"]
                say(f"  value: squared error {v['network']:.4f} (network) against {v['rollout']:.4f} (one rollout) "
                    f"over {v['positions']} held-out positions")
        seconds["value"] = time.perf_counter() - t0
        if args.eval_games > 0:
            t0 = time.perf_counter()
            entry.update(measure(game, players, options, str(path), args.eval_games, args.eval_ms, args.eval_workers,
                                 search, say))
            seconds["measure"] = time.perf_counter() - t0
        entry["seconds"] = seconds
        entry["wall"] = wall_before + time.perf_counter() - t_start
        record.append(entry)
        write_json(record_file, record)
        title = f"tilecraft train {game}, {players} players: {out.name}"
        publish(out / "generations.md", lambda tmp: pathlib.Path(tmp).write_text(table(record), encoding="utf-8"))
        publish(out / "generations.svg", lambda tmp: pathlib.Path(tmp).write_text(svg(record, title), encoding="utf-8"))
        summary = entry
    best_path = net_file(best)
    if args.export and best_path.exists():
        import shutil

        publish(pathlib.Path(args.export), lambda tmp: shutil.copyfile(best_path, tmp))
        write_json(pathlib.Path(args.export).with_suffix(".preset.json"),
                   dict(run_preset, network=pathlib.Path(args.export).name))
        say(f"exported {best_path} -> {args.export} (and its preset, .preset.json)")
    if record and not args.quiet:
        print(table(record), end="", flush=True)
    return dict(out=str(out), generations=len(record), best=str(best_path), last=summary)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    try:
        run(args, argv)
    except KeyboardInterrupt:
        print("stopped; run the same command again to resume", file=sys.stderr)
        return 130
    return 0
