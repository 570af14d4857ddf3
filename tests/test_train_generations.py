"""`tilecraft train`'s generations (issue 50): the held-out value measurement replays the positions it
judges, the record is drawn from generations.json, generation 0 can be a given network, chunks made by
Ray tasks are the chunks a local run makes, and bad input (a folder of another game or format, a Ray
address that cannot be reached) is refused before anything is written. The runs are tiny (networks of
8 units, games of a few simulations)."""
from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Dict, List

import numpy as np
import pytest

import tilecraft
from tilecraft import baselines, train
from tilecraft.agents.train import data as run_data, record as run_record
from tilecraft.agents.train.evaluation import value_error

TINY = ["azul", "--out", "run", "--chunks", "2", "--games-per-chunk", "2", "--teacher", "mcts:iterations=5",
        "--threads", "1", "--epochs", "1", "--hidden", "8", "--value-hidden", "", "--groups", "none", "--batch", "64",
        "--generations", "2", "--selfplay-games", "4", "--selfplay-chunks", "2", "--selfplay-simulations", "4",
        "--gate-games", "2", "--eval-games", "1", "--eval-ms", "2", "--eval-simulations", "4", "--eval-workers", "1",
        "--hold-out", "2", "--value-positions", "10", "--quiet"]


def _train(where: pathlib.Path, *extra: str, argv: List[str] = TINY) -> Dict[str, Any]:
    where.mkdir(parents=True, exist_ok=True)
    here = os.getcwd()
    os.chdir(where)
    try:
        args = list(argv) + list(extra)
        return train.run(train.parser().parse_args(args), args)
    finally:
        os.chdir(here)


def _contents(folder: pathlib.Path) -> Dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


class _Recording:
    """A stand-in value head: records each observation it is shown and says 0.5 for every seat."""

    def __init__(self, players: int):
        self.players, self.seen = players, []

    def __call__(self, obs, mask, movers):
        self.seen.append(np.asarray(obs[0], np.float32).reshape(-1))
        return np.zeros((1, mask.shape[1]), np.float32), np.full((1, self.players), 0.5, np.float32)


def test_the_value_measurement_replays_every_held_out_position(tmp_path):
    c = run_data.Chunk(tmp_path / "teacher-0000.npz", "azul", 2, {}, "teacher", 0, 7, ["mcts:iterations=5", "greedy"],
                       3, 1, 10.0)
    rows, meta = run_data.chunk_rows(c)
    run_data.save_rows(c.path, rows, meta)
    net = _Recording(2)
    got = value_error("azul", 2, {}, net, [c.path], positions=10**6, seed=1)
    # every decision of the 3 games, in order: the observation rebuilt from the state seed and the actions
    # is the one recorded when the game was played
    den, off = tilecraft.make("azul", players=2).observation_codec()
    recorded = rows["codes"].astype(np.float32) / np.asarray(den).reshape(-1) + np.asarray(off).reshape(-1)
    assert got["positions"] == len(rows["codes"]) == len(net.seen)
    np.testing.assert_array_equal(np.stack(net.seen), recorded)
    # a head that says 0.5 errs by (0.5 - the mover's final share)^2: 0.25 at every position of a decided game
    assert got["network"] == pytest.approx(float(np.mean((0.5 - rows["value"][:, 0]) ** 2)))
    assert 0.0 <= got["rollout"] <= 1.0
    # fewer positions: spread over the games, each still the recorded one
    net = _Recording(2)
    assert value_error("azul", 2, {}, net, [c.path], positions=5, seed=1)["positions"] == 5 == len(net.seen)
    picks = np.linspace(0, len(rows["codes"]) - 1, 5).round().astype(int)
    np.testing.assert_array_equal(np.stack(net.seen), recorded[picks])


@pytest.mark.train
def test_the_table_and_the_plot_are_drawn_from_the_record(tmp_path):
    _train(tmp_path)
    out = tmp_path / "run"
    record = json.loads((out / "generations.json").read_text())
    assert [e["generation"] for e in record] == [0, 1] and record[0]["best"] == 0 and record[0]["promoted"]
    assert record[1]["best"] == (1 if record[1]["gate"]["share"] >= 0.55 else 0)
    assert record[1]["promoted"] == (record[1]["gate"]["share"] >= 0.55)
    assert (out / "generations.md").read_text() == run_record.table(record)
    assert (out / "generations.svg").read_text() == run_record.svg(record, "tilecraft train azul, 2 players: run")
    lines = run_record.table(record).splitlines()
    assert len(lines) == 4 and lines[3].startswith("| 1 | ")
    gate = record[1]["gate"]
    assert f"{gate['share']:.3f} [{gate['low']:.2f}, {gate['high']:.2f}] of 2" in lines[3]


@pytest.mark.train
def test_generation_0_can_be_a_given_network(tmp_path):
    shipped = baselines.load("azul", 2)
    argv = ["azul", "--out", "run", "--start", shipped.path, "--generations", "1", "--eval-games", "0", "--quiet"]
    summary = _train(tmp_path, argv=argv)
    net = baselines.load("azul", 2, path=str(tmp_path / summary["best"]))
    assert sorted(net.arrays) == sorted(shipped.arrays)
    for k, v in shipped.arrays.items():
        np.testing.assert_array_equal(net.arrays[k], v)  # the same weights (both float16 files)
    assert not (tmp_path / "run" / "data" / "teacher-0000.npz").exists()  # no teacher's data
    settings = json.loads((tmp_path / "run" / "run.json").read_text())["settings"]
    assert settings["hidden"] == shipped.meta["hidden"] and settings["teacher"] is None
    castle = baselines.load("castle", 2).path
    with pytest.raises(ValueError, match="castle"):
        _train(tmp_path / "other", argv=["azul", "--out", "run", "--start", castle, "--quiet"])
    assert not (tmp_path / "other" / "run").exists()


def test_a_folder_of_another_game_or_format_is_refused_untouched(tmp_path):
    _train(tmp_path, "--teacher-only")
    out = tmp_path / "run"
    before = _contents(out)
    with pytest.raises(ValueError, match=r"holds a run of 'azul', 2 players, options \{\}, not of 'azul', 3 players"):
        _train(tmp_path, "--teacher-only", "--players", "3")
    with pytest.raises(ValueError, match="holds a run of 'azul'.*not of 'castle'"):
        _train(tmp_path, argv=["castle"] + TINY[1:] + ["--teacher-only"])
    assert _contents(out) == before
    run_file = json.loads((out / "run.json").read_text())
    run_file["format"] = 1
    (out / "run.json").write_text(json.dumps(run_file))
    before = _contents(out)
    with pytest.raises(train.RunFileError, match=r"\.format is 1 .*reads format 2 and cannot resume it"):
        _train(tmp_path, "--teacher-only")
    assert _contents(out) == before
    # a folder of the rounds that came before generations (curve.json, no format)
    old = tmp_path / "old" / "run"
    old.mkdir(parents=True)
    (old / "curve.json").write_text("[]")
    with pytest.raises(train.RunFileError, match="an older tilecraft train"):
        _train(tmp_path / "old", "--teacher-only")
    assert [p.name for p in old.iterdir()] == ["curve.json"]


def test_a_ray_address_that_cannot_be_reached_is_refused_before_anything_is_written(tmp_path):
    pytest.importorskip("ray", reason="the Ray backend needs the 'ray' extra")
    for address, error, words in (("127.0.0.1:1", ConnectionError, "Ray address '127.0.0.1:1': nothing answers there"),
                                  ("nowhere", ValueError, "expected HOST:PORT or ray://HOST:PORT"),
                                  ("ray://host:99999", ValueError, "a port 1..65535")):
        with pytest.raises(error, match=words):
            _train(tmp_path, "--backend", "ray", "--address", address)
        assert not (tmp_path / "run").exists()
    with pytest.raises(ValueError, match="--address is the Ray cluster of --backend ray"):
        _train(tmp_path, "--address", "127.0.0.1:1")
    assert not (tmp_path / "run").exists()


@pytest.mark.slow  # starting a local Ray instance takes seconds
@pytest.mark.train
# tilecraft train joins Ray before it imports JAX; here JAX is loaded already (the local run, other tests),
# and JAX warns when Ray forks its own processes (which exec at once)
@pytest.mark.filterwarnings("ignore:os.fork\\(\\) was called:RuntimeWarning")
def test_chunks_made_by_ray_tasks_are_the_chunks_a_local_run_makes(tmp_path):
    pytest.importorskip("ray", reason="the Ray backend needs the 'ray' extra")
    _train(tmp_path / "local", "--eval-games", "0", "--gate-games", "0", "--value-positions", "0")
    _train(tmp_path / "ray", "--eval-games", "0", "--gate-games", "0", "--value-positions", "0", "--backend", "ray",
           "--workers", "2")
    local, remote = _contents(tmp_path / "local" / "run" / "data"), _contents(tmp_path / "ray" / "run" / "data")
    assert sorted(local) == ["gen-0001-00.npz", "gen-0001-01.npz", "teacher-0000.npz", "teacher-0001.npz"]
    assert remote == local  # the same bytes: teacher chunks, and generation 1's self-play with the network
    nets = [baselines.load("azul", 2, path=str(tmp_path / where / "run" / "net-01.npz")) for where in ("local", "ray")]
    for k, v in nets[0].arrays.items():  # fitted on the same data: the same weights (the files name their commands)
        np.testing.assert_array_equal(nets[1].arrays[k], v)
