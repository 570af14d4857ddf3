"""`tilecraft train` and `tilecraft match --replay` under abuse (issue 45, section 3, and the missing
training library of section 5): a run stopped at any stage resumes into the files, bit for bit, of a
run never stopped; two runs never share a folder; damaged files are named, and remade where they can
be; every numeric option has its range; a replay file cut off mid-game is repaired before appending.

The training runs are tiny (2 teacher chunks of 2 games, a network of 8 units, 2 generations, gates
of 2 games, one measuring game): about 0.5 s each. Each run starts in a folder of its own, with a relative --out, so
that the command recorded in the files is the same for every run."""
from __future__ import annotations

import json
import os
import pathlib
import struct
import sys
import zipfile
from typing import Any, Dict, List

import numpy as np
import pytest

from tilecraft import train
from tilecraft.agents import model
from tilecraft.agents.train import files as run_files, fitting
from tilecraft.cli import main

TINY = ["azul", "--out", "run", "--chunks", "2", "--games-per-chunk", "2", "--teacher", "mcts:iterations=5",
        "--threads", "1", "--epochs", "1", "--hidden", "8", "--value-hidden", "", "--groups", "none", "--batch", "64",
        "--generations", "2", "--selfplay-games", "2", "--selfplay-chunks", "2", "--selfplay-simulations", "4",
        "--gate-games", "2", "--eval-games", "1", "--eval-ms", "2", "--eval-simulations", "4", "--eval-workers", "1",
        "--hold-out", "2", "--value-positions", "10", "--quiet"]


def _train(where: pathlib.Path, *extra: str) -> Dict[str, Any]:
    """A tiny run in ``where/run`` (the working directory is ``where`` meanwhile)."""
    where.mkdir(parents=True, exist_ok=True)
    argv = TINY + list(extra)
    here = os.getcwd()
    os.chdir(where)
    try:
        return train.run(train.parser().parse_args(argv), argv)
    finally:
        os.chdir(here)


def _without_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_times(v) for k, v in value.items() if k not in train.CURVE_TIMES}
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    return value


DRAWN = ("generations.md", "generations.svg")  # drawn from generations.json, its measured times included


def _files(folder: pathlib.Path) -> Dict[str, Any]:
    """Every file of a run folder: its bytes, but generations.json's content without what it measures
    in time (and the table and plot drawn from it, whose own test is below)."""
    out: Dict[str, Any] = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and p.name not in DRAWN:
            rel = p.relative_to(folder).as_posix()
            out[rel] = _without_times(json.loads(p.read_text())) if p.name == "generations.json" else p.read_bytes()
    return out


def _differences(a: Dict[str, Any], b: Dict[str, Any]) -> List[str]:
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


def _patch_publish(patch, publish) -> None:
    """Every module of the run that publishes a file, publishing through ``publish``."""
    for module in (run_files, fitting, train):
        patch.setattr(module, "publish", publish)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The files of a run never stopped, and the files it published, in order."""
    where = tmp_path_factory.mktemp("reference")
    published: List[str] = []
    real = run_files.publish

    def counting(path, write):
        published.append(pathlib.Path(path).name)
        return real(path, write)

    with pytest.MonkeyPatch.context() as patch:
        _patch_publish(patch, counting)
        _train(where)
    return _files(where / "run"), published


def _stopped_at(monkeypatch, k: int, when: str) -> None:
    """The k-th file the run publishes: Ctrl-C just before it is written (its stage's work done, not
    saved: the same as a stop anywhere in that stage) or just after (between two stages)."""
    real = run_files.publish
    count = [0]

    def publish(path, write):
        count[0] += 1
        if count[0] == k and when == "before":
            raise KeyboardInterrupt
        result = real(path, write)
        if count[0] == k and when == "after":
            raise KeyboardInterrupt
        return result

    _patch_publish(monkeypatch, publish)


def _stop_and_resume(tmp_path, monkeypatch, reference, k: int, when: str) -> None:
    files, published = reference
    where = tmp_path / f"{when}-{k}"
    _stopped_at(monkeypatch, k, when)
    with pytest.raises(KeyboardInterrupt):
        _train(where)
    monkeypatch.undo()
    assert not [p for p in (where / "run").rglob("*") if run_files.TEMP in p.name]  # no temporary file left
    _train(where)  # resumed (the lock was given back)
    resumed = _files(where / "run")
    assert not _differences(files, resumed), (f"stopped {when} writing {published[k - 1]} (file {k})",
                                              _differences(files, resumed))


@pytest.mark.train
def test_the_reference_run_publishes_every_stage(reference):
    _, published = reference
    assert published == ["run.json", "preset.json", "teacher-0000.npz", "teacher-0001.npz", "weights.npz", "net-00.npz",
                         *RECORD, "gen-0001-00.npz", "gen-0001-01.npz", "weights.npz", "net-01.npz", *RECORD]


RECORD = ("generations.json",) + DRAWN


@pytest.mark.train
@pytest.mark.parametrize("when", ["before", "after"])
@pytest.mark.parametrize("k", range(1, 17))
def test_a_run_stopped_at_any_stage_resumes_into_the_same_files(tmp_path, monkeypatch, reference, k, when):
    _stop_and_resume(tmp_path, monkeypatch, reference, k, when)


@pytest.mark.train
def test_stopped_during_generation_1s_fit_its_chunks_are_counted_once(tmp_path, monkeypatch, reference):
    # issue 45: a round's chunk was listed twice on resume, and the round trained on more rows than it should
    calls = [0]
    real = train.fit

    def fit(*args, **kwargs):
        calls[0] += 1
        if calls[0] == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(train, "fit", fit)
    with pytest.raises(KeyboardInterrupt):
        _train(tmp_path)
    monkeypatch.undo()
    _train(tmp_path)
    files, _ = reference
    resumed = _files(tmp_path / "run")
    assert resumed["generations.json"][1]["rows"] == files["generations.json"][1]["rows"]
    assert not _differences(files, resumed)


@pytest.mark.train
def test_stopped_during_a_generations_measurements_it_is_not_fitted_again(tmp_path, monkeypatch, reference):
    # issue 45: round r was trained again from its own weights (net-01 differed from an uninterrupted run's)
    real_measure, real_fit = train.measure, train.fit

    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(train, "measure", stop)
    with pytest.raises(KeyboardInterrupt):
        _train(tmp_path)
    assert (tmp_path / "run" / "net-00.npz").exists() and not (tmp_path / "run" / "generations.json").exists()
    monkeypatch.setattr(train, "measure", real_measure)
    seeds: List[int] = []

    def fit(*args, **kwargs):
        seeds.append(kwargs["seed"])
        return real_fit(*args, **kwargs)

    monkeypatch.setattr(train, "fit", fit)
    _train(tmp_path)
    assert seeds == [1]  # generation 1 only (its seed: --seed + 1): generation 0's fit was done
    files, _ = reference
    assert not _differences(files, _files(tmp_path / "run"))


# ---- one run per folder ----

def test_a_second_run_on_a_held_folder_is_refused_naming_the_first(tmp_path):
    _train(tmp_path, "--teacher-only")
    out = tmp_path / "run"
    before = _files(out)
    holder = run_files.Lock(out, "tilecraft train azul (the first run)")
    try:
        with pytest.raises(train.RunInUseError) as info:
            _train(tmp_path, "--teacher-only")
        text = str(info.value)
        assert f"pid {os.getpid()}" in text and "started 20" in text and "(the first run)" in text
        assert "run/run.lock" in text  # (--out run, relative)
        assert _files(out) == {**before, "run.lock": (out / "run.lock").read_bytes()}  # nothing else touched
        assert main(["train"] + TINY[:1] + ["--out", str(out), "--teacher-only", "--quiet"]) == 2  # the CLI: a usage error
    finally:
        holder.release()
    _train(tmp_path, "--teacher-only")  # given back: the folder is free again
    assert (out / "run.lock").read_bytes() == b""


def test_a_run_in_another_process_holds_the_folder_until_it_ends(tmp_path):
    import subprocess

    out = tmp_path / "run"
    out.mkdir()
    child = subprocess.Popen(
        [sys.executable, "-c", "import pathlib, sys; from tilecraft.agents.train import files as run_files; "
         f"lock = run_files.Lock(pathlib.Path({str(out)!r}), 'tilecraft train azul (elsewhere)'); "
         "print('held', flush=True); sys.stdin.read(); lock.release()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        assert child.stdout.readline().strip() == "held"
        with pytest.raises(train.RunInUseError, match=f"pid {child.pid} on .*, started .*: tilecraft train azul "
                                                      r"\(elsewhere\)"):
            _train(tmp_path, "--teacher-only")
        assert [p.name for p in out.iterdir()] == ["run.lock"]  # nothing of the run written
    finally:
        child.communicate("", timeout=60)
    _train(tmp_path, "--teacher-only")  # the first run ended: the folder is free


def test_temporary_names_are_unique_and_a_killed_runs_are_removed(tmp_path):
    names = []
    for _ in range(2):
        run_files.publish(tmp_path / "x.json", lambda tmp: (names.append(tmp), pathlib.Path(tmp).write_text("1")))
    assert names[0] != names[1] and str(os.getpid()) in names[0]
    (tmp_path / "run" / "data").mkdir(parents=True)
    stale = [tmp_path / "run" / "data" / "teacher-0000.npz.tmp-99999-0badf00d", tmp_path / "run" / "weights.npz.tmp"]
    for p in stale:
        p.write_bytes(b"half a file")
    _train(tmp_path, "--teacher-only")
    assert not any(p.exists() for p in stale)


# ---- damaged files: named, and made again where they can be ----

@pytest.mark.train
def test_a_truncated_teacher_chunk_is_made_again_the_same(tmp_path, capsys):
    _train(tmp_path, "--teacher-only")
    chunk = tmp_path / "run" / "data" / "teacher-0001.npz"
    whole = chunk.read_bytes()
    chunk.write_bytes(whole[: len(whole) // 2])
    _train(tmp_path, "--generations", "1", "--eval-games", "0")  # trains (a BadZipFile traceback before)
    assert chunk.read_bytes() == whole
    err = capsys.readouterr().err
    assert "run/data/teacher-0001.npz: damaged" in err and "making it again" in err


def test_a_chunk_with_a_bad_checksum_is_made_again_the_same(tmp_path, capsys):
    _train(tmp_path, "--teacher-only")
    chunk = tmp_path / "run" / "data" / "teacher-0000.npz"
    whole = bytearray(chunk.read_bytes())
    with zipfile.ZipFile(chunk) as z:
        info = z.getinfo("codes.npy")
    name_length, extra_length = struct.unpack("<HH", whole[info.header_offset + 26:info.header_offset + 30])
    at = info.header_offset + 30 + name_length + extra_length + 5  # inside the compressed codes (local header's own)
    whole[at] ^= 0xFF
    chunk.write_bytes(bytes(whole))
    _train(tmp_path, "--teacher-only")
    whole[at] ^= 0xFF
    assert chunk.read_bytes() == bytes(whole)
    assert "run/data/teacher-0000.npz: damaged" in capsys.readouterr().err


@pytest.mark.train
@pytest.mark.parametrize("name, text, words", [
    ("run.json", '{"settings": {"game": "azul",', ["run.json: not valid JSON (line 1, column 30"]),
    ("run.json", '{"settings": [1]}', ["run.json: .settings must be an object"]),
    ("run.json", '{"settings": {}}', ["run.json: .format is 1 (a run made by an older tilecraft)",
                                      "cannot resume it; use another --out"]),
    ("generations.json", '[{"generation": 0, "best": 0, "wall": 1.0}, {"gen', ["generations.json: not valid JSON (line 1"]),
    ("generations.json", '[{"generation": 1, "best": 0, "wall": 1.0}]', ["generations.json: [0].generation must be 0"]),
    ("generations.json", '[{"generation": 0, "best": 1, "wall": 1.0}]', ["generations.json: [0].best must be"]),
    ("generations.json", '{"generation": 0}', ["generations.json: expected a JSON list"]),
])
def test_a_damaged_run_or_record_file_is_named(tmp_path, capsys, name, text, words):
    _train(tmp_path, "--generations", "1", "--eval-games", "0")
    out = tmp_path / "run"
    (out / name).write_text(text)
    before = _files(out) if name != "generations.json" else None
    with pytest.raises(train.RunFileError) as info:
        _train(tmp_path, "--generations", "1", "--eval-games", "0")
    for w in words:
        assert w in str(info.value) and f"run/{name}:" in str(info.value)
    if before is not None:
        assert _files(out) == before  # refused before anything is written
    assert main(["train"] + TINY[:1] + ["--out", str(out), "--generations", "1", "--quiet"]) == 2
    assert "tilecraft: error: " in capsys.readouterr().err


@pytest.mark.train
def test_a_damaged_checkpoint_is_named(tmp_path):
    _train(tmp_path, "--generations", "1", "--eval-games", "0")
    ckpt = tmp_path / "run" / "weights.npz"
    ckpt.write_bytes(ckpt.read_bytes()[:100])
    with pytest.raises(train.RunFileError, match="run/weights.npz: the run.s checkpoint cannot be read"):
        _train(tmp_path, "--generations", "2", "--eval-games", "0")


@pytest.mark.train
def test_a_damaged_network_file_is_made_again_from_the_checkpoint(tmp_path, capsys):
    _train(tmp_path, "--generations", "1", "--eval-games", "0")
    net = tmp_path / "run" / "net-00.npz"
    whole = net.read_bytes()
    net.write_bytes(whole[:50])
    _train(tmp_path, "--generations", "2", "--eval-games", "0")  # generation 1's self-play reads net-00
    assert "run/net-00.npz: damaged" in capsys.readouterr().err
    assert net.read_bytes() == whole


# ---- every numeric option has its range ----

@pytest.mark.parametrize("flag, value, words", [
    ("--lr", "nan", "--lr must be a number in (0, 1], got nan"),
    ("--lr", "-1", "--lr must be a number in (0, 1], got -1.0"),
    ("--lr", "0", "--lr must be a number in (0, 1]"),
    ("--value-weight", "nan", "--value-weight must be a number in [0, 100], got nan"),
    ("--q-weight", "5", "--q-weight must be a number in [0, 1], got 5.0"),
    ("--epochs", "inf", "--epochs must be a number in (0, 10000], got inf"),
    ("--generation-epochs", "0", "--generation-epochs must be a number in (0, 10000]"),
    ("--target-temperature", "-0.5", "--target-temperature must be a number in [0, 100]"),
    ("--generations", "0", "--generations must be an integer in 1..10000, got 0"),
    ("--eval-ms", "0", "--eval-ms must be a number in [1, 60000], got 0.0"),
    ("--eval-ms", "inf", "--eval-ms must be a number in [1, 60000], got inf"),
    ("--promote", "1.5", "--promote must be a number in [0, 1], got 1.5"),
    ("--gate-games", "-1", "--gate-games must be an integer in 0..100000, got -1"),
    ("--selfplay-chunks", "0", "--selfplay-chunks must be an integer in 1..10000, got 0"),
    ("--value-positions", "-1", "--value-positions must be an integer in 0..1000000, got -1"),
    ("--chunks", "0", "--chunks must be an integer in 1..100000, got 0"),
    ("--games-per-chunk", "0", "--games-per-chunk must be an integer in 1..1000000"),
    ("--workers", "0", "--workers must be an integer in 1..256"),
    ("--threads", "1000", "--threads must be an integer in 1..256"),
    ("--batch", "0", "--batch must be an integer in 1..1048576"),
    ("--hold-out", "1", "--hold-out must be 0 or an integer in 2..100000, got 1"),
    ("--window", "-1", "--window must be an integer in 0..100000"),
    ("--seed", "-1", "--seed must be an integer in 0..18446744073709551615"),
    ("--selfplay-games", "0", "--selfplay-games must be an integer in 1..1000000"),
    ("--selfplay-simulations", "0", "--selfplay-simulations: PUCTBot: simulations"),
    ("--selfplay-rollout-mix", "nan", "--selfplay-rollout-mix: PUCTBot: rollout_mix"),
    ("--selfplay-prior-heuristic", "-1", "--selfplay-prior-heuristic: PUCTBot: prior_heuristic"),
    ("--eval-games", "-1", "--eval-games must be an integer in 0..1000000"),
    ("--eval-simulations", "0", "--eval-simulations: PUCTBot: simulations"),
    ("--eval-workers", "0", "--eval-workers must be an integer in 1..256"),
    ("--hidden", "8,0", "--hidden: each layer width must be an integer in 1..65536, got 0"),
    ("--hidden", "", "--hidden must list at least one layer width"),
    ("--value-hidden", "8,100000000", "--value-hidden: each layer width must be an integer in 1..65536"),
    ("--value-hidden", "8,x", "--value-hidden lists layer widths (an integer in 1..65536, comma-separated), got 'x'"),
])
def test_an_option_out_of_range_is_refused_before_any_work(tmp_path, capsys, flag, value, words):
    out = tmp_path / "r"
    assert main(["train"] + TINY + ["--out", str(out), flag, value]) == 2  # (tiny: were it accepted, it ends soon)
    err = capsys.readouterr().err
    assert err.startswith("tilecraft: error: ") and words in err, err
    assert not out.exists()  # nothing made, nothing written


def test_every_numeric_option_is_in_the_table_and_its_default_in_range():
    numeric = {a.dest for a in train.parser()._actions if a.type in (int, float)}
    assert numeric - set(train.NUMBERS) == {"players"}  # the game's own check gives its player counts
    assert set(train.NUMBERS) <= numeric
    args = train.parser().parse_args(["azul"])
    config = train.TrainConfig.from_args(args)
    config.check()  # the defaults are in range
    assert config == train.TrainConfig(game="azul")  # the flags' defaults are the configuration's
    helps = {a.dest: a.help for a in train.parser()._actions}
    for dest, number in train.NUMBERS.items():
        assert number.allowed() in helps[dest], dest  # --help gives the range


# ---- a training library that is not installed ----

def test_training_without_jax_names_the_extra_before_any_work(monkeypatch, tmp_path):
    """Without JAX, fit and a run that trains say to install the train extra, before any
    self-play; a --teacher-only run (the teacher's data alone) needs no JAX."""
    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    pyproject = pathlib.Path(__file__).resolve().parents[1] / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    assert {d.split(">")[0] for d in extras[train.TRAIN_EXTRA]} == {"jax", "optax"}
    monkeypatch.setitem(sys.modules, "jax", None)  # as if absent, wherever it is installed
    arrays = model.init(6, [4], 3, 2, seed=1)
    data = dict(codes=np.zeros((8, 6), np.uint8), mask=np.ones((8, 3), bool), policy=np.full((8, 3), 1 / 3, np.float32),
                value=np.full((8, 2), 0.5, np.float32), margin=np.zeros((8, 2), np.float32))
    codec = (np.ones(6, np.float32), np.zeros(6, np.float32))
    missing = r'training needs JAX and optax, which are not installed: pip install "tilecraft\[train\]"'
    with pytest.raises(ModuleNotFoundError, match=missing):
        train.fit(arrays, data, codec, epochs=1, batch=4)
    out = tmp_path / "run"
    argv = ["azul", "--out", str(out), "--chunks", "1", "--games-per-chunk", "1", "--teacher", "mcts:iterations=8",
            "--quiet"]
    with pytest.raises(ModuleNotFoundError, match=missing):
        train.run(train.parser().parse_args(argv), argv)
    assert not out.exists()  # refused before anything was written
    argv += ["--teacher-only"]
    assert train.run(train.parser().parse_args(argv), argv)["chunks"] == 1


# ---- a replay file cut off mid-game ----

def _replay_lines(path: pathlib.Path) -> List[str]:
    return path.read_text().split("\n")


def _without_seconds(text: str) -> List[Any]:
    """A replay's records without the thinking times (measured, so never the same twice)."""
    return [{k: v for k, v in json.loads(line).items() if k != "seconds"} for line in text.split("\n") if line]


@pytest.mark.parametrize("cut", ["mid-line", "mid-game"])
def test_match_repairs_a_replay_file_cut_off_mid_game(tmp_path, capsys, cut):
    whole = tmp_path / "whole.jsonl"
    assert main(["match", "azul", "--games", "2", "--bots", "random,random", "--replay", str(whole)]) == 0
    lines = _replay_lines(whole)
    second = [i for i, line in enumerate(lines) if '"type": "header"' in line][1]  # game 2's first line
    out = tmp_path / "r.jsonl"
    kept = "\n".join(lines[:second]) + "\n"
    damaged = kept + "\n".join(lines[second:second + 3]) + "\n" + (lines[second + 3][:17] if cut == "mid-line" else "")
    out.write_text(damaged)
    capsys.readouterr()
    assert main(["match", "azul", "--games", "1", "--bots", "random,random", "--seed", "1", "--replay", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"{out}:{second + 1}" in err and "removed" in err and f"{out}.bak" in err
    assert (tmp_path / "r.jsonl.bak").read_text() == damaged
    assert out.read_text().startswith(kept)  # game 1 as it was, then the new game (seed 1: game 2's)
    assert _without_seconds(out.read_text()) == _without_seconds("\n".join(lines))
    assert main(["replay", str(out)]) == 0
    assert "2 game(s) replayed" in capsys.readouterr().out


def test_a_replay_file_damaged_in_the_middle_is_refused_untouched(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(["match", "azul", "--games", "2", "--bots", "random,random", "--replay", str(out)]) == 0
    lines = _replay_lines(out)
    out.write_text("\n".join(lines[:3] + ["{not json"] + lines[3:]))
    before = out.read_bytes()
    assert main(["match", "azul", "--games", "1", "--bots", "random,random", "--replay", str(out)]) == 2
    assert f"{out}:4: not JSON" in capsys.readouterr().err
    assert out.read_bytes() == before and not (tmp_path / "r.jsonl.bak").exists()


def test_play_match_appending_to_a_cut_off_replay_repairs_it_too(tmp_path):
    import tilecraft

    out = tmp_path / "r.jsonl"
    tilecraft.play_match("azul", ["random", "random"], seed=3, replay=str(out))
    one = out.read_text()
    out.write_text(one + '{"type": "header", "game": "az')
    tilecraft.play_match("azul", ["random", "random"], seed=3, replay=str(out))
    assert out.read_text().startswith(one) and _without_seconds(out.read_text()) == _without_seconds(one) * 2


def test_play_match_refuses_a_damaged_replay_file_before_playing(tmp_path, monkeypatch):
    import tilecraft
    from tilecraft import match

    out = tmp_path / "r.jsonl"
    out.write_text('{"type": "action", "seat": 0, "action": 1}\n')
    monkeypatch.setattr(match, "Table", None)  # a game played would fail on this
    with pytest.raises(ValueError, match=f"{out}:1: unexpected line"):
        tilecraft.play_match("azul", ["random", "random"], seed=3, replay=str(out))
