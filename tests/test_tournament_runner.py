"""The tournament runner: schedule, resume after interruption, backends agree, outputs, ratings."""
import collections
import json
import math
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import tilecraft
from tilecraft import ratings
from tilecraft.tournament import load_results, schedule


def _strip(games):
    """Game records without the timing, which differs from run to run."""
    return [{k: v for k, v in g.items() if k != "seconds"} for g in games]


@pytest.mark.parametrize("n_bots, players", [(2, 2), (4, 2), (3, 3), (4, 3), (5, 4)])
def test_schedule_puts_every_bot_in_every_seat(n_bots, players):
    jobs = schedule(n_bots, players, games_per_pairing=2 * players, seed=7)
    tables = collections.Counter(tuple(sorted(j["seats"])) for j in jobs)
    assert len(tables) == math.comb(n_bots, players)  # every combination of bots meets
    assert set(tables.values()) == {2 * players}
    seats = collections.Counter((b, k) for j in jobs for k, b in enumerate(j["seats"]))
    per_seat = set(seats[(b, k)] for b in range(n_bots) for k in range(players))
    assert len(per_seat) == 1  # each bot sits in each seat equally often
    assert [j["id"] for j in jobs] == list(range(len(jobs)))


def test_schedule_rejects_bad_arguments():
    with pytest.raises(ValueError, match="at least 3 bots"):
        schedule(2, 3, 4)
    with pytest.raises(ValueError, match="games_per_pairing"):
        schedule(2, 2, 0)
    with pytest.raises(ValueError, match="seats"):
        schedule(2, 2, 2, seats="random")


class FlakyRandom:
    """Plays like a seeded random bot; raises KeyboardInterrupt (a Ctrl-C) at the n-th move while
    FlakyRandom.fuse > 0."""

    name = "flaky"
    fuse = 0

    def reset(self, seat, seed):
        self.rng = random.Random(seed)

    def act(self, state):
        if FlakyRandom.fuse > 0:
            FlakyRandom.fuse -= 1
            if FlakyRandom.fuse == 0:
                raise KeyboardInterrupt
        legal = state.legal_actions()
        return int(legal[self.rng.randrange(len(legal))])


def test_interrupted_tournament_resumes_without_loss_or_repeats(tmp_path):
    bots = [FlakyRandom(), "greedy", "random"]
    full = tilecraft.tournament("azul", bots, games_per_pairing=4, workers=1, seed=3)
    assert full.complete and len(full.games) == 12

    out = str(tmp_path / "t.jsonl")
    FlakyRandom.fuse = 130  # Ctrl-C in the middle of a game, a few games in
    part = tilecraft.tournament("azul", bots, games_per_pairing=4, workers=1, seed=3, out=out)
    assert part.interrupted and 0 < len(part.games) < 12
    kept = load_results(out)
    assert _strip(kept) == _strip(part.games)
    # A writer killed mid-line leaves a partial record: it is dropped and that game replayed.
    with open(out, "a", encoding="utf-8") as f:
        f.write('{"type": "game", "id": 11, "seed"')
    FlakyRandom.fuse = 0
    resumed = tilecraft.tournament("azul", bots, games_per_pairing=4, workers=1, seed=3, out=out)
    assert resumed.complete and not resumed.interrupted
    assert _strip(resumed.games) == _strip(full.games)
    with open(out, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    ids = [line["id"] for line in lines if line["type"] == "game"]
    assert sorted(ids) == list(range(12))  # every game exactly once: nothing lost, nothing repeated
    assert sum(line["type"] == "header" for line in lines) == 1
    # The finished games of the first run were not replayed: their records are the first lines.
    assert ids[: len(part.games)] == [g["id"] for g in part.games]


def test_results_file_of_another_tournament_is_refused(tmp_path):
    out = str(tmp_path / "t.jsonl")
    tilecraft.tournament("azul", ["random", "greedy"], games_per_pairing=2, workers=1, out=out)
    with pytest.raises(ValueError, match="different tournament"):
        tilecraft.tournament("azul", ["random", "greedy"], games_per_pairing=2, seed=1, workers=1, out=out)
    with pytest.raises(ValueError, match="different tournament"):  # other bots
        tilecraft.tournament("azul", ["random", "greedy", "random:seed=1"], games_per_pairing=2, workers=1, out=out)


def test_worker_processes_give_the_same_results_as_one_process():
    bots = ["random", "greedy", "mcts:iterations=30"]
    one = tilecraft.tournament("azul", bots, games_per_pairing=2, workers=1, seed=5)
    two = tilecraft.tournament("azul", bots, games_per_pairing=2, workers=2, seed=5)
    assert _strip(one.games) == _strip(two.games)
    # Every record replays: the actions reproduce the scores from the seed.
    for g in one.games:
        state = tilecraft.make("azul", seed=g["seed"])
        for a in g["actions"]:
            state.apply(a)
        assert list(state.scores()) == g["scores"] and list(state.winners()) == g["winners"]


def test_multiplayer_tables_and_openskill(tmp_path):
    r = tilecraft.tournament("azul", ["random", "greedy", "random", "greedy"], players=3, games_per_pairing=3,
                             workers=1, seed=1)
    assert r.bots == ["random", "greedy", "random#2", "greedy#2"]
    assert len(r.games) == 4 * 3
    rows = {row["bot"]: row for row in r.standings()}
    assert all("mu" in row and "elo" not in row for row in rows.values())
    assert min(rows["greedy"]["mu"], rows["greedy#2"]["mu"]) > max(rows["random"]["mu"], rows["random#2"]["mu"])


def test_outputs_table_csv_json(tmp_path):
    r = tilecraft.tournament("azul", ["random", "greedy"], games_per_pairing=4, workers=1,
                             csv_path=str(tmp_path / "s.csv"), json_path=str(tmp_path / "s.json"))
    text = r.table()
    assert "greedy" in text and "Elo" in text
    lines = (tmp_path / "s.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("bot,") and len(lines) == 3
    data = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert data["games"] == 4 and len(data["win_matrix"]) == 2
    assert data["win_matrix"][0][0] is None  # a bot never meets itself


@pytest.mark.parametrize("ext, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_plot(tmp_path, ext, magic):
    pytest.importorskip("matplotlib", reason="the plot needs the 'plot' extra (matplotlib)")
    path = str(tmp_path / f"p{ext}")
    tilecraft.tournament("azul", ["random", "greedy"], games_per_pairing=2, workers=1, plot_path=path)
    with open(path, "rb") as f:
        assert f.read(len(magic)) == magic
    with pytest.raises(ValueError, match="png or .svg"):
        tilecraft.tournament("azul", ["random", "greedy"], games_per_pairing=2, workers=1, plot_path="x.pdf")


def test_bad_bot_fails_before_any_game():
    with pytest.raises(ValueError, match="iterations"):
        tilecraft.tournament("azul", ["random", "mcts:iterations=0"], games_per_pairing=2, workers=1)
    with pytest.raises(ValueError, match="unknown bot"):
        tilecraft.tournament("azul", ["random", "nosuchbot"], games_per_pairing=2, workers=1)
    with pytest.raises(ValueError, match="backend"):
        tilecraft.tournament("azul", ["random", "greedy"], backend="spark")


def test_import_path_bots():
    r = tilecraft.tournament("azul", ["tilecraft.bots:GreedyBot", "tilecraft.bots:RandomBot:seed=1"],
                             games_per_pairing=2, workers=1)
    rows = {row["bot"]: row for row in r.standings()}
    assert rows["tilecraft.bots:GreedyBot"]["wins"] == 2


def test_elo_matches_the_win_rate():
    # A beats B in 3 games of 4, many times over: the Elo gap approaches 400 log10(3).
    games = [dict(id=i, seats=["A", "B"] if i % 2 else ["B", "A"], scores=[0, 0],
                  winners=[0 if (i % 4 != 0) == (i % 2 == 1) else 1]) for i in range(4000)]
    wins_a = sum(1 for g in games if g["seats"][g["winners"][0]] == "A")
    assert wins_a == 3000
    r = ratings.elo(games, ["A", "B"])
    gap = r["A"][0] - r["B"][0]
    assert abs(gap - 400 * math.log10(3)) < 5
    assert abs(r["A"][0] + r["B"][0]) < 1e-6  # centred
    few = ratings.elo(games[:40], ["A", "B"])
    assert few["A"][1] > r["A"][1] > 0  # fewer games, wider interval
    # A bot that wins everything still gets a finite rating.
    sweep = ratings.elo([dict(id=0, seats=["A", "B"], scores=[1, 0], winners=[0])] * 20, ["A", "B"])
    assert math.isfinite(sweep["A"][0]) and sweep["A"][0] > 0


def test_wilson_interval_properties():
    for wins, n in ((0, 10), (5, 10), (10, 10), (50, 100)):
        lo, hi = ratings.wilson(wins, n)
        assert 0 <= lo <= wins / n <= hi <= 1
    assert ratings.wilson(50, 100)[1] - ratings.wilson(50, 100)[0] < ratings.wilson(5, 10)[1] - ratings.wilson(5, 10)[0]


def test_ranks_and_pairwise():
    g = dict(id=0, seats=["A", "B", "C"], scores=[10, 30, 30], winners=[1])
    assert ratings.ranks_of(g) == [2, 0, 1]
    rate, count = ratings.pairwise([g], ["A", "B", "C"])
    assert rate[1, 0] == rate[1, 2] == rate[2, 0] == 1.0 and rate[0, 1] == 0.0
    assert count[0, 1] == 1 and np.isnan(rate[0, 0])


def test_cli_tournament(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in [os.path.dirname(tilecraft.__path__[0]),
                                                                    os.environ.get("PYTHONPATH", "")] if p))
    out = tmp_path / "r.jsonl"
    cmd = [sys.executable, "-m", "tilecraft", "tournament", "azul", "--bots", "random,greedy,mcts:iterations=20,threads=1",
           "--games-per-pairing", "2", "--workers", "1", "--out", str(out), "--csv", str(tmp_path / "s.csv"), "-q"]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "mcts:iterations=20,threads=1" in done.stdout and "standings after 6/6 games" in done.stdout
    assert len(load_results(str(out))) == 6
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert again.returncode == 0 and len(load_results(str(out))) == 6  # resumed: nothing left to play
    bad = subprocess.run(cmd[:6] + ["random,mcts:iterations=0"], capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and "iterations" in bad.stderr


def test_cli_stops_cleanly_on_sigterm(tmp_path):
    """A signal mid-tournament (SIGTERM here; Ctrl-C takes the same path) keeps every finished game."""
    import signal
    import time

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in [os.path.dirname(tilecraft.__path__[0]),
                                                                    os.environ.get("PYTHONPATH", "")] if p))
    out = tmp_path / "r.jsonl"
    cmd = [sys.executable, "-m", "tilecraft", "tournament", "azul", "--bots", "greedy,mcts:iterations=3000",
           "--games-per-pairing", "200", "--workers", "2", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.time() + 60
        while time.time() < deadline and (not out.exists() or out.read_text().count("\n") < 3):
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "stopped:" in stderr and "resume" in stdout
    kept = load_results(str(out))
    assert 2 <= len(kept) < 200
    assert [g["id"] for g in kept] == sorted(set(g["id"] for g in kept))
