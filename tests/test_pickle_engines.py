"""Pickling every class the C++ module exports (issue 19, section 4, finding 1).

Protocols 0 and 1 used to abort the interpreter (SIGABRT, "instance allocation failed") on a
searcher, a PUCT searcher or a vector environment, while protocols 2-5 raised TypeError. Now each
class either pickles (the states: they round-trip by content) or raises the same TypeError for every
protocol. The probes run in a subprocess, so an abort fails the test instead of killing pytest."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import tilecraft
from tilecraft import _core


PROBE = textwrap.dedent(r'''
    import json, pickle, sys
    import tilecraft
    from tilecraft import _core

    def instances():
        """One instance (or more) of every class _core exports, by class name."""
        out = {}
        for game in tilecraft.list_games():
            s = tilecraft.make(game, seed=1)
            cls = type(s)
            name = cls.__name__
            out[name] = [s]
            used = tilecraft.MCTSBot(iterations=8, seed=1)
            used.act(s)  # a used bot: its internal searcher holds a tree
            out[name + "Searcher"] = [cls.Searcher(iterations=8), *used._searchers.values()]
            out[name + "PUCTSearcher"] = [cls.PUCTSearcher()]
            vec = tilecraft.VectorGame(game, 2, seed=1)
            vec.reset()
            out[name + "Vector"] = [vec._core]
        from tilecraft.testing import nim  # the test-only game: not registered, built from its class
        s = nim(heap=9)
        used = tilecraft.MCTSBot(iterations=8, seed=1)
        used.act(s)
        out["NimState"] = [s]
        out["NimStateSearcher"] = [type(s).Searcher(iterations=8), *used._searchers.values()]
        out["NimStatePUCTSearcher"] = [type(s).PUCTSearcher()]
        vec = type(s).Vector({"heap": 9, "max_take": 3, "first_player": 0}, 2, 1)
        vec.reset(1)
        out["NimStateVector"] = [vec]
        from tilecraft import baselines  # a network's C++ forward pass (Network.native)
        out["MlpNet"] = [baselines.load("azul", 2).native()]
        return out

    made = instances()
    exported = sorted(n for n in dir(_core) if isinstance(getattr(_core, n), type)
                      and not issubclass(getattr(_core, n), BaseException))
    missing = [n for n in exported if n not in made]
    print(json.dumps({"missing": missing}), flush=True)
    for name in exported:
        for i, obj in enumerate(made[name]):
            for proto in range(6):
                print(json.dumps({"probe": [name, i, proto]}), flush=True)  # the last line before an abort
                try:
                    data = pickle.dumps(obj, proto)
                except TypeError as e:
                    res = {"error": "TypeError", "message": str(e)}
                else:
                    back = pickle.loads(data)
                    res = {"pickled": True, "equal": bool(back == obj)}
                print(json.dumps({"result": [name, i, proto, res]}), flush=True)
    print(json.dumps({"done": True}), flush=True)
''')


def test_every_exported_class_pickles_or_raises_type_error_for_every_protocol():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))  # the tilecraft this test imported
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, env=env)
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]
    assert proc.returncode == 0 and lines and lines[-1] == {"done": True}, (
        f"the probe died (status {proc.returncode}) at {lines[-1] if lines else None}: {proc.stderr[-2000:]}")
    assert lines[0] == {"missing": []}, "every exported class needs an instance in the probe"
    results = [x["result"] for x in lines if "result" in x]
    by_class = {}
    for name, i, proto, res in results:
        by_class.setdefault(name, []).append((proto, res))
    games = tilecraft.list_games()
    assert len(by_class) == 4 * (len(games) + 1) + 1  # the registered games and Nim (tilecraft.testing); MlpNet
    for name, got in by_class.items():
        if name.endswith(("Searcher", "Vector")) or name == "MlpNet":  # C++ engines: no saved form, any protocol
            for proto, res in got:
                assert res.get("error") == "TypeError", (name, proto, res)
                assert "cannot pickle" in res["message"] and name in res["message"], (name, proto, res)
        else:  # states round-trip by content, with every protocol
            assert sorted(p for p, _ in got) == list(range(6))
            assert all(res == {"pickled": True, "equal": True} for _, res in got), (name, got)


def test_python_wrappers_of_engines_refuse_protocol_0_too():
    """VectorGame (which holds a C++ vector) and a used PUCTBot's searcher: TypeError, not an abort."""
    code = textwrap.dedent('''
        import pickle, tilecraft
        v = tilecraft.VectorGame("castle", 2)
        s = tilecraft.make("azul").PUCTSearcher()
        for obj in (v, s):
            for proto in (0, 1):
                try:
                    pickle.dumps(obj, proto)
                except TypeError as e:
                    print("TypeError", "cannot pickle" in str(e))
    ''')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[:4] == ["TypeError True"] * 4


def test_engines_still_refuse_copy():
    s = tilecraft.make("azul")
    import copy
    with pytest.raises(TypeError, match="cannot pickle"):
        copy.deepcopy(s.Searcher(iterations=4))
    assert copy.deepcopy(s) == s
    assert isinstance(_core.AzulStateSearcher, type)
