"""Issue 9, hardening the public surface: every bad input ends in a Python exception that says
what was wrong (or a documented result); nothing crashes, nothing is lost or coerced silently.
Crash reproductions run in a subprocess, so a regression fails the test instead of killing pytest."""
import json
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tilecraft

GAMES = list(tilecraft.list_games())
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))


def run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout, env=ENV)


def played(game: str, moves: int = 10, seed: int = 3):
    s = tilecraft.make(game, seed=seed)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply(int(s.legal_actions()[len(s.legal_actions()) // 2]))
    return s


# ---- 1. no crash from Python ----

# One subprocess per case (about 1 s each, most of it the interpreter start and `import tilecraft`).
# tests/test_pickle_engines.py pickles every class with every protocol in-process in the default
# run, so here protocols 0 and the highest alternate over the games by default (each game once,
# each of the two protocols twice) and every other (game, protocol) pair runs under -m slow.
PICKLE_DEFAULT = {(g, 0 if i % 2 == 0 else pickle.HIGHEST_PROTOCOL) for i, g in enumerate(GAMES)}


@pytest.mark.parametrize("game, protocol", [
    (g, p) if (g, p) in PICKLE_DEFAULT else pytest.param(g, p, marks=pytest.mark.slow)
    for p in range(pickle.HIGHEST_PROTOCOL + 1) for g in GAMES])
def test_pickle_every_protocol(game, protocol):
    code = f"""
        import pickle, tilecraft
        s = tilecraft.make({game!r}, seed=5)
        for _ in range(7):
            s.apply(int(s.legal_actions()[-1]))
        t = pickle.loads(pickle.dumps(s, {protocol}))
        assert t.to_json() == s.to_json() and t.history() == s.history()
        print("ok")
    """
    r = run_python(code)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]


@pytest.mark.parametrize("game", GAMES)
# One subprocess per case; every game's class comes from one binding template, so legal_actions runs
# on every game by default and the other methods under -m slow.
@pytest.mark.parametrize("method", ["legal_actions"] + [pytest.param(m, marks=pytest.mark.slow) for m in [
    "to_json", "current_player", "clone", "observation", "__repr__", "is_terminal", "scores", "history"]])
def test_uninitialised_state_raises(game, method):
    code = f"""
        import tilecraft
        S = type(tilecraft.make({game!r}))
        s = S.__new__(S)
        args = (0,) if {method!r} == "observation" else ()
        try:
            getattr(s, {method!r})(*args)
        except TypeError as e:
            print("TypeError:", e)
        else:
            print("no error")
    """
    r = run_python(code)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("TypeError:") and "not initialised" in r.stdout, r.stdout


def test_azul_line_colour_out_of_range_is_rejected_before_use():
    d = tilecraft.make("azul", seed=1).to_dict()
    d["state"]["line_colour"][0][0] = 40
    d["state"]["line_count"][0][0] = 1
    with pytest.raises(tilecraft.InvalidStateError, match=r"line_colour\[0\]\[0\] must be 0..5, got 40"):
        type(tilecraft.make("azul")).from_dict(d)


# ---- 2. no silent loss or coercion ----

@pytest.mark.parametrize("game", GAMES)
def test_observation_into_non_contiguous_buffer(game):
    s = played(game)
    want = s.observation(0)
    n = want.size
    batch = np.zeros((3, n), dtype=np.float32, order="F")
    row = batch[1]
    assert not row.flags.c_contiguous
    out = s.observation(0, out=row)
    assert np.array_equal(batch[1], want.reshape(-1)) and out is row
    strided = np.zeros(2 * n, dtype=np.float32)[::2]
    s.observation(0, out=strided)
    assert np.array_equal(strided, want.reshape(-1))
    shaped = np.zeros(want.shape, dtype=np.float32)
    s.observation(0, out=shaped)
    assert np.array_equal(shaped, want)
    for bad, match in [(np.zeros(n, np.float64), "float32"), (np.zeros(n + 1, np.float32), "elements"),
                       ([0.0] * n, "numpy array")]:
        with pytest.raises((TypeError, ValueError), match=match):
            s.observation(0, out=bad)
    ro = np.zeros(n, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        s.observation(0, out=ro)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad", [np.float32(36.9), 1.0, True, np.bool_(True), "3", None])
def test_apply_takes_only_integers(game, bad):
    s = played(game)
    before = s.to_json()
    with pytest.raises(TypeError, match="action must be an integer"):
        s.apply(bad)
    assert s.to_json() == before
    with pytest.raises(TypeError, match="action must be an integer"):
        s.is_legal(bad)


@pytest.mark.parametrize("game", GAMES)
def test_numpy_integers_are_accepted_everywhere(game):
    s = tilecraft.make(game, players=np.int64(2), seed=np.uint64(7))
    assert s.to_json() == tilecraft.make(game, seed=7).to_json()
    a = s.legal_actions()[0]  # a numpy int32
    s.apply(a)
    s.apply(np.int64(s.legal_actions()[0]))
    assert s.is_legal(np.int16(s.legal_actions()[0]))
    s.observation(np.int64(0))
    s.resample_hidden(np.int8(0), np.uint32(3))
    r = tilecraft.random_playouts(game, np.int64(2), seed=np.int32(1), threads=np.int64(1))
    assert r["scores"].shape[0] == 2
    r = tilecraft.self_play(game, ["random"], np.int64(2), seed=np.uint64(3), threads=np.int8(1))
    assert r["length"].shape == (2,)
    bot = tilecraft.MCTSBot(iterations=np.int64(20), seed=np.uint64(2**64 - 1), threads=np.int64(1))
    assert s.is_legal(bot.act(s))


SEED_CALLS = {
    "make": lambda seed: tilecraft.make("azul", seed=seed),
    "random_playouts": lambda seed: tilecraft.random_playouts("azul", 1, seed=seed),
    "self_play": lambda seed: tilecraft.self_play("azul", ["random"], 1, seed=seed),
    "MCTSBot": lambda seed: tilecraft.MCTSBot(iterations=5, seed=seed),
    "VectorGame": lambda seed: tilecraft.VectorGame("azul", 1, seed=seed),
    "resample_hidden": lambda seed: tilecraft.make("azul").resample_hidden(0, seed),
    "State": lambda seed: type(tilecraft.make("azul"))(tilecraft.make_config("azul"), seed),
}


@pytest.mark.parametrize("call", sorted(SEED_CALLS))
@pytest.mark.parametrize("seed, match", [
    (2**64, r"seed must be in 0\.\.18446744073709551615, got 18446744073709551616"),
    (2**70, r"seed must be in 0\.\.18446744073709551615, got 1180591620717411303424"),
    (-1, r"seed must be in 0\.\.18446744073709551615, got -1"),
    (1.5, r"seed must be an integer in 0\.\.18446744073709551615, got 1\.5"),
    (True, r"seed must be an integer in 0\.\.18446744073709551615, got True"),
])
def test_one_seed_rule_everywhere(call, seed, match):
    with pytest.raises(ValueError, match=match):
        SEED_CALLS[call](seed)
    SEED_CALLS[call](2**64 - 1)  # the largest seed is fine
    SEED_CALLS[call](np.uint64(2**64 - 1))


@pytest.mark.parametrize("game", GAMES)
def test_out_of_range_saved_integers_name_the_field(game):
    s = played(game)
    d = s.to_dict()
    key = next(k for k, v in d["state"].items() if isinstance(v, int) and not isinstance(v, bool))
    for bad in (2**64, -2**70, 2**200):
        d2 = json.loads(json.dumps(d))
        d2["state"][key] = bad
        with pytest.raises(tilecraft.InvalidStateError, match=f"field '{key}'"):
            type(s).from_dict(d2)
    ckey = next(k for k, v in d["config"].items() if isinstance(v, int) and not isinstance(v, bool))
    d2 = json.loads(json.dumps(d))
    d2["config"][ckey] = 2**80
    with pytest.raises(tilecraft.InvalidStateError, match=f"field '{ckey}'"):
        type(s).from_dict(d2)


@pytest.mark.parametrize("game", GAMES)
def test_deeply_nested_json_is_a_clean_error(game):
    deep = "[" * 100000 + "]" * 100000
    text = '{"game": "%s", "format": 1, "config": %s}' % (game, deep)
    with pytest.raises(tilecraft.InvalidStateError):
        tilecraft.from_json(text)
    with pytest.raises(tilecraft.InvalidStateError):
        type(tilecraft.make(game)).from_json(text)


@pytest.mark.parametrize("game", GAMES)
def test_saved_history_entries_are_action_ids(game):
    """Every history entry must be an action id or chance outcome of this configuration."""
    s = played(game, moves=6)
    d = s.to_dict()
    limit = max(s.num_distinct_actions(), s.max_chance_outcomes())
    for bad in (limit, 10**6, -1):
        d2 = dict(d, history=d["history"][:-1] + [bad])
        with pytest.raises(tilecraft.InvalidStateError, match=f"'history' entry 5 = {bad} is not an action id"):
            type(s).from_dict(d2)
    with pytest.raises(tilecraft.InvalidStateError, match="'history' must hold integers"):
        type(s).from_dict(dict(d, history=[True]))
    assert type(s).from_dict(d).to_json() == s.to_json()


@pytest.mark.parametrize("game", GAMES)
def test_saved_history_is_replayed_against_the_state(game):
    """A saved state carries the seed its game was made with; loading replays the history from it
    and must reach exactly the saved state."""
    s = played(game, moves=12, seed=7)
    d = s.to_dict()
    assert d["seed"] == 7 and len(d["history"]) == 12
    t = type(s).from_dict(d)
    assert t == s and t.history() == s.history() and t.to_dict()["seed"] == 7
    # a history that is legal nowhere near this game: its first entry replaced by another legal id
    # of a different game is caught where it becomes illegal, or where the states part
    first = tilecraft.make(game, seed=7)
    other = [int(a) for a in first.legal_actions() if int(a) != d["history"][0]]
    if other:
        d2 = json.loads(json.dumps(d))
        d2["history"][0] = other[0]
        with pytest.raises(tilecraft.InvalidStateError,
                           match=r"(is not legal at that point of the game made with seed 7"
                                 r"|replayed from 'seed' 7 does not reach the saved state)"):
            type(s).from_dict(d2)
    # the same history from another seed
    d2 = dict(d, seed=8)
    with pytest.raises(tilecraft.InvalidStateError, match="seed 8"):
        type(s).from_dict(d2)
    # one entry dropped: the replay stops one move short
    d2 = dict(d, history=d["history"][:-1])
    with pytest.raises(tilecraft.InvalidStateError,
                       match=r"the 'history' \(11 actions\) replayed from 'seed' 7 does not reach the saved state"
                             r" \(field '\w+' differs\); a hand-built position must have 'seed': null"):
        type(s).from_dict(d2)
    for bad in (-1, 2**64, "7", 7.0, True):
        with pytest.raises(tilecraft.InvalidStateError, match="'seed' must be an integer 0..2\\*\\*64-1 or null"):
            type(s).from_dict(dict(d, seed=bad))


@pytest.mark.parametrize("game", GAMES)
def test_hand_built_and_resampled_positions_have_no_seed(game):
    s = played(game, moves=12, seed=7)
    d = s.to_dict()
    key = "rng"  # every game saves its generator; another generator state is another position
    d["state"][key] = [w ^ 1 for w in d["state"][key]]
    with pytest.raises(tilecraft.InvalidStateError, match=f"field '{key}' differs"):
        type(s).from_dict(d)
    d["seed"] = None  # hand-built: the history is kept as given
    t = type(s).from_dict(d)
    assert t.history() == s.history() and t.to_dict()["seed"] is None
    assert type(t).from_json(t.to_json()) == t
    del d["seed"]  # files written before the seed was saved load the same way
    assert type(s).from_dict(d) == t
    # a position edited from a new game (empty history, nothing to replay) loads, without its seed
    fresh = tilecraft.make(game, seed=5).to_dict()
    assert fresh["seed"] == 5 and type(s).from_dict(fresh).to_dict()["seed"] == 5
    fresh["state"][key] = [w ^ 1 for w in fresh["state"][key]]
    assert type(s).from_dict(fresh).to_dict()["seed"] is None
    # resample_hidden: the hidden parts no longer follow from the seed
    c = s.clone()
    assert c.to_dict()["seed"] == 7
    c.resample_hidden(0, 99)
    saved = c.to_dict()
    assert saved["seed"] is None and type(c).from_dict(saved) == c
    c.apply(int(c.legal_actions()[0]))
    assert type(c).from_json(c.to_json()) == c


@pytest.mark.parametrize("game", GAMES)
def test_vector_game_states_replay_from_their_seed(game):
    v = tilecraft.VectorGame(game, 3, seed=4)
    v.reset()
    for _ in range(15):
        v.step(v.sample_legal())
    for i in range(3):
        s = v.state(i)
        d = s.to_dict()
        assert d["seed"] is not None
        assert type(s).from_dict(d) == s


# ---- 3. the CLI never prints a traceback for a user's mistake ----

def cli(*args: str, cwd=None, env=None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tilecraft", *args], capture_output=True, text=True,
                          timeout=timeout, env=env or ENV, cwd=cwd)


def cli_here(capsys, *args: str) -> subprocess.CompletedProcess:
    """The CLI in-process: the same main() that `python -m tilecraft` runs, without a new interpreter
    and `import tilecraft` (about 1 s a call); the subprocess tests keep the real entry point covered."""
    from tilecraft.cli import main

    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(list(args), code, out, err)


def assert_clean_error(r: subprocess.CompletedProcess, code: int, *words: str) -> None:
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == code, (r.returncode, r.stdout[-500:], r.stderr[-1500:])
    assert r.stderr.startswith("tilecraft: error:"), r.stderr
    for w in words:
        assert w in r.stderr, r.stderr


@pytest.mark.parametrize("args, words", [
    (["replay", "no-such-file.jsonl"], ["No such file", "no-such-file.jsonl"]),
    (["replay", "."], ["directory"]),
    (["play", "azul", "--replay", "no-such-dir/out.jsonl"], ["No such file", "no-such-dir/out.jsonl"]),
    (["match", "azul", "--games", "2", "--replay", "no-such-dir/out.jsonl"], ["no-such-dir/out.jsonl"]),
    (["tournament", "azul", "--bots", "random,greedy", "--out", "no-such-dir/t.jsonl", "-q", "--workers", "1"],
     ["no-such-dir/t.jsonl"]),
    (["match", "azul", "--bots", ""], ["--bots", "names no bot"]),
    (["play", "azul", "--bots", ","], ["names no bot"]),
    (["tournament", "azul", "--bots", ""], ["names no bot"]),
    (["match", "azul", "--games", "-3"], ["--games must be 1..10,000,000, got -3"]),
    (["match", "azul", "--games", "0"], ["--games must be 1..10,000,000, got 0"]),
    (["match", "azul", "--games", str(10**15)], ["--games must be"]),
    (["bench", "azul", "--games", str(10**15)], ["--games must be"]),
    (["bench", "azul", "--games", "-1"], ["--games must be"]),
    (["tournament", "azul", "--bots", "random,greedy", "--games-per-pairing", "-2"], ["--games-per-pairing"]),
    (["play", "azul", "--seed", "-5"], ["seed must be in 0..18446744073709551615, got -5"]),
])
def test_cli_user_mistakes_are_one_line_errors(tmp_path, monkeypatch, capsys, args, words):
    monkeypatch.chdir(tmp_path)
    assert_clean_error(cli_here(capsys, *args), 2, *words)


def test_cli_broken_pipe_is_quiet(tmp_path):
    cmd = f"{sys.executable} -m tilecraft play azul -v --bots random,random 2>{tmp_path / 'err'} | head -n 1"
    r = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, timeout=120, env=ENV)
    assert r.stdout.count("\n") == 1
    err = (tmp_path / "err").read_text()
    assert "Traceback" not in err and "Exception ignored" not in err, err


def test_cli_replay_with_bad_action_lines(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    assert cli("play", "azul", "--bots", "random,random", "--replay", str(path)).returncode == 0
    lines = path.read_text().splitlines()
    for bad, word in [("x", "'x' is not an integer action id"), (1.5, "1.5 is not an integer action id"),
                      (True, "True is not an integer action id"), (10**9, "not legal here")]:
        item = json.loads(lines[1])
        item["action"] = bad
        (tmp_path / "bad.jsonl").write_text("\n".join([lines[0], json.dumps(item)] + lines[2:]) + "\n")
        assert_clean_error(cli_here(capsys, "replay", str(tmp_path / "bad.jsonl")), 2, "step 1", word)
    item = json.loads(lines[1])
    del item["seat"]
    (tmp_path / "bad.jsonl").write_text("\n".join([lines[0], json.dumps(item)] + lines[2:]) + "\n")
    assert_clean_error(cli_here(capsys, "replay", str(tmp_path / "bad.jsonl")), 2, "no 'seat' field")


BOOM_BOTS = '''
class Boom:
    name = "boom-bot"
    def __init__(self, seed=0):
        pass
    def act(self, state):
        raise RuntimeError("kaboom")

class Floaty:
    def __init__(self, seed=0):
        pass
    def act(self, state):
        return float(state.legal_actions()[0])
'''


def test_cli_a_bot_that_raises_is_named(tmp_path):
    (tmp_path / "userbots").mkdir()
    (tmp_path / "userbots" / "__init__.py").write_text("")
    (tmp_path / "userbots" / "boom.py").write_text(BOOM_BOTS)
    env = dict(ENV, PYTHONPATH=os.pathsep.join([str(tmp_path), ENV["PYTHONPATH"]]))
    for cmd in ("play", "match"):
        r = cli(cmd, "azul", "--bots", "random,userbots.boom:Boom", env=env)
        assert_clean_error(r, 1, "bot 'boom-bot' (seat", "RuntimeError: kaboom")
    r = cli("play", "azul", "--bots", "userbots.boom:Floaty,random", env=env)
    assert_clean_error(r, 2, "bot 'Floaty' (seat 0) chose", "not a legal action")
    r = cli("tournament", "azul", "--bots", "random,userbots.boom:Boom", "--games-per-pairing", "2", "--workers", "1",
            "-q", "--out", str(tmp_path / "t.jsonl"), env=env)
    assert_clean_error(r, 1, "bot 'boom-bot'", "RuntimeError: kaboom")


def test_cli_match_table_names_bots_and_stays_aligned(tmp_path):
    long = "mcts:iterations=8,threads=1,rollout=random"
    r = cli("match", "azul", "--bots", f"random,{long}", "--games", "2", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("bot "))
    rows = lines[head:head + 3]
    assert rows[1].startswith("random ") and rows[2].startswith(long + " ")
    assert len({len(row) for row in rows}) == 1  # columns line up whatever the names' lengths
    assert "0:" not in r.stdout


def test_cli_match_exits_130_on_ctrl_c(tmp_path):
    import signal
    import time

    replay = tmp_path / "m.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "tilecraft", "match", "azul", "--bots",
                             "mcts:iterations=300,random", "--games", "10000", "--replay", str(replay)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    deadline = time.monotonic() + 120
    while (not replay.exists() or replay.stat().st_size == 0) and time.monotonic() < deadline:
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    assert "wins" in out and "mcts:iterations=300" in out


# ---- 4. Ctrl-C stops long C++ calls ----

LONG_CALLS = {
    "random_playouts": "tilecraft.random_playouts(GAME, 3_000_000, threads=2)",
    "self_play": "tilecraft.self_play(GAME, ['mcts:iterations=200', 'greedy'], 1_000_000, threads=2)",
    "search": "tilecraft.MCTSBot(iterations=10**12, threads=2, max_nodes=200_000).act(tilecraft.make(GAME))",
}


# Each case is a subprocess that runs 1 s before the interrupt. The interrupt check is the batch
# runners' and the search's own, the same for every game: by default each call runs on one game
# (a different one per call), every other (call, game) pair under -m slow.
CTRL_C_DEFAULT = {("random_playouts", "azul"), ("search", "castle"), ("self_play", "gaudi")}


@pytest.mark.parametrize("call, game", [
    (c, g) if (c, g) in CTRL_C_DEFAULT else pytest.param(c, g, marks=pytest.mark.slow)
    for c in sorted(LONG_CALLS) for g in GAMES])
def test_ctrl_c_stops_long_cxx_calls(call, game):
    import signal
    import time

    code = f"""
        import os, sys, time, tilecraft
        GAME = {game!r}
        threads_before = len(os.listdir("/proc/self/task"))
        print("started", flush=True)
        t0 = time.monotonic()
        try:
            {LONG_CALLS[call]}
        except KeyboardInterrupt:
            print("interrupted after", round(time.monotonic() - t0, 2), flush=True)
        else:
            print("finished without interruption", flush=True)
        print("threads", threads_before, len(os.listdir("/proc/self/task")), flush=True)
    """
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ENV)
    assert proc.stdout.readline().strip() == "started"
    time.sleep(1.0)  # let the C++ call begin (if it has not, the interrupt still ends it as KeyboardInterrupt)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - sent < 20, "the call did not stop soon after Ctrl-C"
    assert proc.returncode == 0, err[-2000:]
    assert "interrupted after" in out, out + err[-2000:]
    before, after = out.strip().splitlines()[-1].split()[1:]
    assert before == after, "a thread was left running"


def test_progress_bars(capfd):
    tilecraft.self_play("azul", ["random"], 20, progress=True)
    assert "20/20" in capfd.readouterr().err
    tilecraft.play_matches("azul", ["random", "random"], 3, progress=True)
    assert "3/3" in capfd.readouterr().err
    tilecraft.random_playouts("azul", 30, progress=True)
    assert "30/30" in capfd.readouterr().err


# ---- 6. states as values ----

@pytest.mark.parametrize("game", GAMES)
def test_states_compare_and_hash_by_content(game):
    s = played(game, moves=8)
    c = s.clone()
    assert c == s and hash(c) == hash(s) and c.hash_key() == s.hash_key()
    assert 0 <= s.hash_key() < 2**64
    assert type(s).from_json(s.to_json()) == s and pickle.loads(pickle.dumps(s)) == s
    assert tilecraft.make(game, seed=1) == tilecraft.make(game, seed=1)
    c.apply(int(c.legal_actions()[0]))
    assert c != s and c.hash_key() != s.hash_key()
    assert len({s, s.clone(), c}) == 2  # deduplication in a set
    assert s != "not a state" and (s == 3) is False
    other = [g for g in GAMES if g != game][0]
    assert s != tilecraft.make(other)
    seen = {}
    t = tilecraft.make(game, seed=4)
    for _ in range(6):  # a transposition table keyed by hash_key
        seen[t.hash_key()] = t.clone()
        t.apply(int(t.legal_actions()[0]))
    assert all(v.hash_key() == k for k, v in seen.items())



@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow) if g != "azul" else g
                                  for g in GAMES])  # Castle, Gaudí and Warsaw take 4-12 s: -m slow
def test_hash_key_separates_exactly_the_distinct_positions(game):
    """Over every position of 12 random games, two states have the same hash_key() and compare
    equal exactly when their saved content (to_dict()["state"] and the configuration) is the same;
    a state rebuilt from its saved content, with a different history, has the same key."""
    rng = np.random.default_rng(11)
    by_content, keys = {}, set()
    for g in range(12):
        s = tilecraft.make(game, seed=g % 6)  # seeds repeat: identical positions recur
        while True:
            d = s.to_dict()
            content = json.dumps([d["config"], d["state"]], sort_keys=True)
            key = s.hash_key()
            if content in by_content:
                first = by_content[content]
                assert first.hash_key() == key and first == s
            else:
                assert key not in keys, "two different positions share a hash_key"
                by_content[content] = s.clone()
                keys.add(key)
            d["history"] = []
            rebuilt = type(s).from_dict(d)
            assert rebuilt.hash_key() == key and rebuilt == s
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    assert len(keys) == len(by_content) > 100

# ---- 7. compact observations ----

# Configurations whose observations hold every kind of feature: fractions (Castle, Gaudí),
# negative coordinates and victory points (Warsaw), the expert and solo blocks (Gaudí).
CODEC_CONFIGS = [("azul", {"players": 3}), ("castle", {}), ("warsaw", {"players": 4}),
                 ("warsaw", {"players": 2, "vp_floor_zero": True}), ("gaudi", {"players": 2}),
                 ("gaudi", {"players": 3, "mode": "expert"}), ("gaudi", {"players": 1})]


@pytest.mark.parametrize("game,options", CODEC_CONFIGS)
def test_uint8_observations_decode_exactly(game, options):
    """observation(p, dtype=uint8) / denominator + offset is the float32 observation, bit for bit,
    for every seat at every position of random games (terminal included)."""
    rng = np.random.default_rng(5)
    checked = 0
    for g in range(3):
        s = tilecraft.make(game, seed=g, **options)
        denominator, offset = s.observation_codec()
        assert denominator.dtype == offset.dtype == np.float32
        assert denominator.shape == offset.shape == tuple(s.observation_shape())
        while True:
            for p in range(s.num_players()):
                f = s.observation(p)
                b = s.observation(p, dtype=np.uint8)
                assert b.dtype == np.uint8 and b.shape == f.shape
                decoded = b / denominator + offset
                assert decoded.dtype == np.float32 and np.array_equal(decoded, f)
                checked += 1
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    assert checked > 50
    buf = np.zeros((2, f.size), np.uint8, order="F")  # any strides
    row = buf[1]
    assert s.observation(0, out=row) is row
    assert np.array_equal(buf[1] / denominator.reshape(-1) + offset.reshape(-1), s.observation(0).reshape(-1))
    with pytest.raises(ValueError, match="dtype must be numpy.float32 or numpy.uint8"):
        s.observation(0, dtype=np.int64)
    with pytest.raises(ValueError, match="out must be a writable float32 array"):
        s.observation(0, out=np.zeros(f.size, np.uint8), dtype=np.float32)


def test_codec_denominators_follow_the_documented_layouts():
    """Hand-read from docs/castle.md and the layout comments: Castle's tail holds the scores / 100
    and followers in supply / 6; a score of 37 is code 37. Warsaw's board coordinates are -9..9."""
    s = tilecraft.make("castle", seed=1)
    d = s.to_dict()
    d["state"]["score"] = [37, 5]
    d["state"]["by_category"] = [[37, 0, 0, 0, 0, 0, 0], [5, 0, 0, 0, 0, 0, 0]]
    s = type(s).from_dict(d)
    denominator, offset = s.observation_codec()
    n = int(np.prod(s.observation_shape()))
    tail = n - (48 + 2 + 2 + 36 + 16 + 11 + 1 + 1 + 2) + 48
    assert list(denominator[tail:tail + 4]) == [100, 100, 6, 6] and not offset.any()
    codes = s.observation(0, dtype=np.uint8)
    assert codes[tail] == 37 and codes[tail + 1] == 5 and codes[tail + 2] == 6  # 6 followers / 6
    assert s.observation(0)[tail] == np.float32(37) / np.float32(100)
    w = tilecraft.make("warsaw", players=2, seed=1)
    _, woffset = w.observation_codec()
    assert woffset.min() == -64 and set(np.unique(woffset)) == {-64.0, -9.0, 0.0}


def test_uint8_refuses_a_feature_outside_its_codec():
    """Warsaw's victory points (floor off) are stored with offset -64: -70 has no byte, and the
    call raises ValueError naming the feature rather than wrapping or clamping."""
    s = tilecraft.make("warsaw", players=2, seed=3)
    d = s.to_dict()
    d["state"]["vp"][0] = -70
    s = type(s).from_dict(d)
    with pytest.raises(ValueError, match=r"feature \d+ = -70 .* is not code / 1 \+ -64"):
        s.observation(0, dtype=np.uint8)
    assert s.observation(0).min() == -70  # float32 still works


@pytest.mark.parametrize("game", GAMES)
def test_self_play_records_uint8(game):
    f = tilecraft.self_play(game, ["random", "greedy"], 3, seed=2, record=True)["training"]
    r = tilecraft.self_play(game, ["random", "greedy"], 3, seed=2, record=True, obs_dtype=np.uint8)["training"]
    b = r["observation"]
    denominator, offset = r["observation_codec"]
    assert b.dtype == np.uint8 and b.nbytes * 4 == f["observation"].nbytes
    assert np.array_equal(b / denominator + offset, f["observation"])
    assert "observation_codec" not in f
    with pytest.raises(ValueError, match="obs_dtype must be"):
        tilecraft.self_play(game, ["random"], 1, record=True, obs_dtype="float64")


def test_compact_castle_batch_is_a_quarter():
    """The issue's case: a recorded Castle batch in uint8 takes a quarter of the float32 bytes."""
    f = tilecraft.self_play("castle", ["random"], 2, seed=9, record=True)["training"]["observation"]
    b = tilecraft.self_play("castle", ["random"], 2, seed=9, record=True, obs_dtype=np.uint8)["training"]["observation"]
    assert b.nbytes * 4 == f.nbytes and b.shape == f.shape


# ---- 5. the adapters pass their ecosystems' full checkers ----

# The classic-games convention (a Dict of observation and action mask) is deliberate; see test_adapters.py.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_seed_and_render_tests(game):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, render_test, seed_test

    from tilecraft.adapters.pettingzoo import env

    api_test(env(game), num_cycles=300)
    seed_test(lambda **kw: env(game, **kw), num_cycles=100)
    render_test(lambda render_mode=None: env(game, render_mode=render_mode))
    e = env(game, render_mode="human")
    e.reset(seed=1)
    assert e.render() is None


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env_and_registered_ids(game):
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    import tilecraft.adapters.gymnasium as tga

    env_id = f"tilecraft/{game.capitalize()}-v0"
    e = gym.make(env_id, illegal_action="penalty", opponents=["random"])
    check_env(e.unwrapped, skip_render_check=True)
    strict = tga.BotOpponentEnv(game, opponents=["random"])
    obs, _ = strict.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = strict.state_.to_json()
    with pytest.raises(tilecraft.IllegalActionError):
        strict.step(illegal)
    assert strict.state_.to_json() == before
    penalty = tga.BotOpponentEnv(game, opponents=["random"], illegal_action="penalty")
    obs, _ = penalty.reset(seed=3)
    _, reward, terminated, truncated, info = penalty.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(ValueError, match="illegal_action must be 'raise' or 'penalty'"):
        tga.BotOpponentEnv(game, illegal_action="ignore")
    human = tga.BotOpponentEnv(game, render_mode="human")
    human.reset(seed=1)
    assert human.render() is None


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow) if g != "azul" else g
                                  for g in GAMES])  # Castle, Gaudí and Warsaw take 3-7 s: -m slow
def test_openspiel_random_sim_test_with_serialize(game):
    pyspiel = pytest.importorskip("pyspiel")
    from tilecraft.adapters import openspiel as tos

    g = tos.load_game(game)
    pyspiel.random_sim_test(g, num_sims=2, serialize=True, verbose=False)
    low, high = tilecraft.game_spec(game).returns_range["win_loss"]
    assert (g.min_utility(), g.max_utility()) == (low, high)
    s = g.new_initial_state()
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0] if not s.is_chance_node() else s.chance_outcomes()[0][0])
    assert all(low <= r <= high for r in s.returns())


@pytest.mark.parametrize("game", [g for g in GAMES if not tilecraft.game_spec(g).perfect_information])
def test_openspiel_ismcts_runs_through_resample_hidden(game):
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import ismcts, mcts

    from tilecraft.adapters import openspiel as tos

    g = tos.load_game(game)
    s = g.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(g, evaluator, 1.0, 10, random_state=np.random.RandomState(2),
                           use_observation_string=True)
    assert bot.step(s) in s.legal_actions()
    me = s.current_player()
    other = 1 - me if g.num_players() > 1 else me
    r = s.resample_from_infostate(me, lambda: 0.25)
    assert r.observation_string(me) == s.observation_string(me)
    assert s.observation_string(me) != s.observation_string(other) or other == me


def test_cli_replay_checks_tournament_files(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    r = cli("tournament", "azul", "--bots", "random,greedy", "--games-per-pairing", "2", "--workers", "1", "-q",
            "--out", str(out))
    assert r.returncode == 0, r.stderr
    r = cli_here(capsys, "replay", str(out))
    assert r.returncode == 0 and "2 game(s) replayed" in r.stdout, r.stderr
    lines = out.read_text().splitlines()
    game = json.loads(lines[1])
    game["scores"] = [s + 1 for s in game["scores"]]
    (tmp_path / "bad.jsonl").write_text("\n".join([lines[0], json.dumps(game)] + lines[2:]) + "\n")
    assert_clean_error(cli_here(capsys, "replay", str(tmp_path / "bad.jsonl")), 2, "tournament game", "replay gives scores")
    game = json.loads(lines[1])
    game["actions"][3] = "x"
    (tmp_path / "bad.jsonl").write_text("\n".join([lines[0], json.dumps(game)] + lines[2:]) + "\n")
    assert_clean_error(cli_here(capsys, "replay", str(tmp_path / "bad.jsonl")), 2, "step 4", "'x' is not an integer")


def test_more_of_the_same_class():
    """Other entry points follow the same integer, seed and type rules."""
    s = tilecraft.make("azul")
    with pytest.raises(TypeError, match="string_to_action: text must be a str, got int 5"):
        s.string_to_action(5)
    with pytest.raises(TypeError, match="from_json: text must be a str"):
        type(s).from_json(5)
    with pytest.raises(TypeError, match="config must be a dict"):
        type(s)(5)
    v = tilecraft.VectorGame("azul", 2, seed=1)
    v.reset()
    for bad in (1.5, True, np.float32(1)):
        with pytest.raises(TypeError, match="env must be an integer"):
            v.state(bad)
        with pytest.raises(TypeError, match="env must be an integer"):
            v.seeds(bad)
    assert v.state(np.int64(1)) == v.state(1)
    r = tilecraft.play_match("azul", ["random", "random"], players=np.int64(2), seed=np.uint64(3))
    assert type(r.players) is int and type(r.seed) is int and r.seed == 3
    for bot in (tilecraft.RandomBot, tilecraft.GreedyBot):
        assert s.is_legal(bot(seed=np.int64(3)).act(s))
        with pytest.raises(ValueError, match="seed must be in 0..18446744073709551615, got -1"):
            bot(seed=-1)
    t = tilecraft.tournament("azul", ["random", "greedy"], games_per_pairing=np.int64(1), seed=np.uint64(2), workers=1,
                             players=np.int64(2))
    assert t.complete
    with pytest.raises(ValueError, match="tournament: seed must be in 0..18446744073709551615"):
        tilecraft.tournament("azul", ["random", "greedy"], games_per_pairing=1, seed=2**64, workers=1)


def test_a_finished_tournament_can_be_extended(tmp_path, capsys):
    out = str(tmp_path / "t.jsonl")
    bots = ["random", "greedy", "random:seed=5"]
    small = tilecraft.tournament("azul", bots, games_per_pairing=2, workers=1, out=out)
    assert small.complete and len(small.games) == 6
    big = tilecraft.tournament("azul", bots, games_per_pairing=4, workers=1, out=out)
    assert big.complete and len(big.games) == 12
    fresh = tilecraft.tournament("azul", bots, games_per_pairing=4, workers=1, out=str(tmp_path / "fresh.jsonl"))
    strip = lambda games: [{k: g[k] for k in ("id", "seed", "seats", "scores", "actions")} for g in games]
    assert strip(big.games) == strip(fresh.games)  # the same games as a tournament run at 4 from the start
    fewer = tilecraft.tournament("azul", bots, games_per_pairing=3, workers=1, out=out)  # accepted (issue 19)
    assert fewer.complete and len(fewer.games) == 9 and fewer.note
    assert cli_here(capsys, "replay", out).returncode == 0
