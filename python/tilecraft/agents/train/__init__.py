"""The learning loop behind ``tilecraft train`` (docs/training.md): expert iteration on a CPU.

1. **Teacher data.** C++ self-play of a strong search (``mcts:iterations=1000`` by default) records
   one row per decision: the mover's observation as byte codes, the legal mask, the root visit
   distribution, and (at the end of the game) every seat's win share and score. It runs in chunks
   of games, each saved to ``DIR/data/teacher-NNNN.npz`` as soon as it is done, so a run resumes
   where it stopped (Ctrl-C discards only the chunk under way).
2. **Training.** A policy-value MLP (trunk of ReLU layers; heads: policy logits over the action
   ids, value as the win shares of the seats relative to the mover, and a score-margin auxiliary
   head) learns the visit distributions (cross-entropy over the legal actions), the win shares
   (cross-entropy) and the margins (squared error), with JAX (``pip install "tilecraft[train]"``).
   The result is a baseline file (``tilecraft.baselines``): ``DIR/net-RR.npz``.
3. **Improvement rounds** (``--rounds`` > 1): Gumbel PUCT self-play guided by the latest network
   (``--puct-simulations``), its improved policies added to the data, and training again from the
   last weights.
4. **Evaluation** after every round, as docs/tournaments.md measures (``tilecraft.strength``):
   the network's policy alone against GreedyBot, and PUCT(--eval-simulations) with it against the
   teacher's search, with 95% intervals and the wall time; appended to ``DIR/curve.json``.

Everything is seeded from ``--seed``; ``DIR/run.json`` records the command and the settings, and a
second run with the same ``DIR`` resumes (settings that change the data must match). Every file of a
run is written whole or not at all (a temporary file of a unique name, then a rename), each stage
resumes from what is on disk (a damaged chunk is made again, the same as before), and a resumed run
writes the files, bit for bit, that it would have written without the stop (apart from the times it
measures: ``CURVE_TIMES``). One run at a time holds a folder (``DIR/run.lock``).

The run is described by one :class:`TrainConfig` (its fields are the CLI's flags); the code is split
by concern: ``config`` (the flags), ``files`` (the run's files), ``data`` (self-play chunks and
targets), ``fitting`` (JAX), ``evaluation`` (the strength checks), and this module (the stages).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

from .. import baselines
from .. import model
from .config import LAYER_WIDTH, NUMBERS, TrainConfig, add_arguments, key_values, widths
from .data import (DATA_SETTINGS, chunk_path, load_rows, make_chunk, make_chunks_in_parallel, seed_of, sharpen,
                   value_targets)
from .evaluation import check_search, evaluate, preset, round_bot
from .files import (CURVE_TIMES, RunFileError, RunInUseError, Lock, check_curve, commit, load_checkpoint, publish,
                    read_json, remove_stale_temporaries, save_checkpoint, usable, write_json)
from .fitting import MISSING, TRAIN_EXTRA, export, fit, have_jax, held_out_losses

__all__ = ["TrainConfig", "run", "main", "parser", "add_arguments", "fit", "held_out_losses", "export", "evaluate",
           "sharpen", "value_targets", "have_jax", "RunFileError", "RunInUseError", "CURVE_TIMES", "NUMBERS",
           "TRAIN_EXTRA", "LAYER_WIDTH"]


def _check_folder(out: pathlib.Path, settings: Dict[str, Any]) -> bool:
    """Whether ``out`` holds a run to resume; a ValueError when it holds one of other settings (until a
    round is trained, only the settings the data depends on must match), or a RunFileError when its
    run.json cannot be read. Reads only."""
    run_file = out / "run.json"
    if not run_file.exists():
        return False
    before = read_json(run_file, "the run's settings, written by tilecraft train")
    if not isinstance(before, dict) or not isinstance(before.get("settings"), dict):
        got = before.get("settings") if isinstance(before, dict) else before
        raise RunFileError(f"{run_file}: .settings must be an object (the run's settings, written by tilecraft "
                           f"train), got {type(got).__name__}")
    # Until a round is trained, the folder holds only the teacher's data (say a --rounds 0 run on
    # another machine): only what that data depends on must match.
    trained = (out / "curve.json").exists() or (out / "weights.npz").exists()
    differ = [k for k in settings if (trained or k in DATA_SETTINGS) and before["settings"].get(k) != settings[k]]
    if differ:
        raise ValueError(f"{out}: this folder holds a run with other settings ({', '.join(differ)}); "
                         "use another --out")
    return True


def parser() -> argparse.ArgumentParser:
    """``tilecraft train``'s command line: TrainConfig's fields as flags."""
    p = argparse.ArgumentParser(prog="tilecraft train", description=(__doc__ or "").split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    return p


def run(config: Any, argv: Sequence[str] = ()) -> Dict[str, Any]:
    """Runs (or resumes) the training run ``config`` (a :class:`TrainConfig`, or the ``argparse``
    arguments of ``parser()``); returns the run's summary. ``argv``: the command line, recorded in the
    run's files. Everything is checked before anything is written; the run then holds its folder
    (``DIR/run.lock``) until it returns."""
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
    hidden, value_hidden = widths("--hidden", args.hidden), widths("--value-hidden", args.value_hidden)
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
    if args.rounds > 0 and not have_jax():  # the last check: before hours of self-play
        raise ModuleNotFoundError(f"tilecraft train --rounds {args.rounds}: {MISSING} (or --rounds 0: the teacher's "
                                  "data alone)", name="jax")
    out.mkdir(parents=True, exist_ok=True)
    lock = Lock(out, command)
    try:
        return _run_held(args, out, spec, state, mode, options, search, hidden, value_hidden, groups, settings,
                         command, say)
    finally:
        lock.release()


def _run_held(args: TrainConfig, out: pathlib.Path, spec: Any, state: Any, mode: Optional[str], options: Dict[str, Any],
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
    remove_stale_temporaries(out)
    write_json(out / "run.json", dict(settings=settings, command=command, commit=commit()))
    run_preset = preset(state, args.eval_simulations, search)
    write_json(out / "preset.json", run_preset)
    codec = state.observation_codec()
    layout = state.observation_layout()
    n_in, n_act = int(np.prod(state.observation_shape())), state.num_distinct_actions()
    margin_scale = 10.0  # the score margin's scale in the value target (points)
    start = time.perf_counter()
    curve_file = out / "curve.json"
    curve: List[Dict[str, Any]] = (
        check_curve(curve_file, read_json(curve_file, "the learning curve: one object per trained round"))
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
        path = chunk_path(out / "data", kind, k)
        if usable(path):
            return path
        t0 = time.perf_counter()
        rows = make_chunk(path, game, players, options, kind, seed_of(args.seed, kind, k), k, bots, n_games,
                           args.threads, not args.quiet, margin_scale, evaluator)
        say(f"{kind} chunk {k}: {n_games} games, {rows} rows in {time.perf_counter() - t0:.0f} s")
        return path

    # 1. the teacher's self-play (on --workers processes at once: the same chunks as one process makes)
    if args.workers > 1:
        make_chunks_in_parallel(out / "data", game, players, options, args, margin_scale, say)
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
                if not usable(previous):
                    if info is None or arrays is None or info["round"] != r - 1:
                        raise RunFileError(f"{previous}: missing or damaged, and {ckpt} no longer holds its weights; "
                                           "restore it, or train the rounds again in a new --out")
                    export(arrays, info["net"], previous)
                net = baselines.load(game, players, mode, path=str(previous))
                chunk("puct", r, [round_bot(net, args)], args.puct_games, evaluator=net)
            # the teacher's chunks (but those held out) and the PUCT rounds' chunks so far, in order
            puct_paths = [chunk_path(out / "data", "puct", k) for k in range(1, r + 1)]
            held = [p for k, p in enumerate(teacher_paths) if args.hold_out and k % args.hold_out == args.hold_out - 1]
            paths = [p for p in teacher_paths if p not in held] + puct_paths
            if r > 0 and args.window:
                paths = paths[-args.window:]
            data = load_rows(paths, n_act)
            data["target"] = value_targets(data, args.q_weight)
            data["policy"] = sharpen(data["policy"], args.target_temperature)
            val = load_rows(held, n_act) if held else None  # judged on the outcomes alone
            if val is not None:
                val["policy"] = sharpen(val["policy"], args.target_temperature)
            rows = len(data["codes"])
            say(f"round {r}: training on {rows} rows from {int(data['games'])} games"
                + (f", {len(val['codes'])} rows from {int(val['games'])} games held out" if val is not None else ""))
            if arrays is None:
                arrays = model.init(n_in, hidden, n_act, players, args.seed, value_hidden, groups)
            arrays, losses = fit(arrays, data, codec, args.epochs if r == 0 else args.round_epochs,
                                 batch=args.batch, lr=args.lr if r == 0 else args.lr * 0.3, seed=args.seed + r,
                                 threads=args.threads,
                                 log=None if args.quiet else say, val=val, value_weight=args.value_weight,
                                 groups=groups)
            meta = dict(game=game, players=[players], mode=mode, options=options, observation_layout=layout,
                        observation_size=n_in, num_actions=n_act, value_seats=players, hidden=hidden,
                        depth=len(hidden), value_hidden=value_hidden, groups=groups, command=command,
                        commit=commit(), seed=args.seed, teacher=args.teacher, round=r, games=int(data["games"]),
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
        write_json(curve_file, curve)
        summary = entry
    final = out / f"net-{max(len(curve) - 1, 0):02d}.npz"
    if args.export and final.exists():
        import shutil

        publish(pathlib.Path(args.export), lambda tmp: shutil.copyfile(final, tmp))
        write_json(pathlib.Path(args.export).with_suffix(".preset.json"), dict(run_preset, network=pathlib.Path(args.export).name))
        say(f"exported {final} -> {args.export} (and its preset, .preset.json)")
    return dict(out=str(out), rounds=len(curve), final=str(final), last=summary)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    try:
        run(args, argv)
    except KeyboardInterrupt:
        print("stopped; run the same command again to resume", file=sys.stderr)
        return 130
    return 0
