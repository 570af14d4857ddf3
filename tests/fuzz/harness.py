"""The fuzz harness every game shares: bytes -> option sets, action sequences (legal and illegal),
from_json text, from_dict data and component data files. The contract (issue 12, "Bad input"):
every input ends as a result or a Python exception with a message (ValueError, TypeError), never a
crash, a hang or a changed state after a rejected call.

`one_input(game, data)` is what atheris calls (tests/fuzz/fuzz_game.py GAME) and what pytest replays
for every file under tests/fuzz/corpus/<game>/ (tests/fuzz/test_fuzz_corpus.py). It needs nothing
but tilecraft: the bytes are read by the small reader below, not by atheris.
"""
import copy
import json
import os
import shutil
import struct
import tempfile

import numpy as np

import tilecraft
from tilecraft.games import game_spec

# tilecraft's errors are ValueErrors; a seat out of range is an IndexError; wrong argument types TypeErrors.
EXPECTED = (ValueError, TypeError, IndexError)
MAX_STEPS = 400  # actions per input (bounded: an input is a few ms)


class Bytes:
    """Reads values from fuzz bytes; past the end everything reads as 0."""

    def __init__(self, data: bytes):
        self.data, self.i = data, 0

    def left(self) -> int:
        return len(self.data) - self.i

    def u8(self) -> int:
        if self.i >= len(self.data):
            return 0
        self.i += 1
        return self.data[self.i - 1]

    def u32(self) -> int:
        return self.u8() | self.u8() << 8 | self.u8() << 16 | self.u8() << 24

    def i64(self) -> int:
        chunk = bytes(self.u8() for _ in range(8))
        return struct.unpack("<q", chunk)[0]

    def pick(self, seq):
        return seq[self.u8() % len(seq)]

    def text(self, n_max: int = 24) -> str:
        n = self.u8() % (n_max + 1)
        return bytes(self.u8() for _ in range(n)).decode("utf-8", "replace")

    def value(self, like=None):
        """A value of the same kind as `like` most of the time, anything else otherwise."""
        k = self.u8() % 12
        if like is not None and k < 6:
            if isinstance(like, bool):
                return bool(self.u8() & 1)
            if isinstance(like, int):
                return like + self.pick((-1, 1, -2, 2, 7, -128, 255, 256, 1 << 31, -(1 << 31), 1 << 63, 1 << 64))
            if isinstance(like, str):
                return self.pick((like + "x", like.upper(), "", like[:-1]))
            if isinstance(like, list):
                return self.pick((like[:-1], like + like[-1:], [], [like]))
        return self.pick((0, -1, 1, 2**31, -(2**63), 2**64, 3.5, float("nan"), None, True, "", "x" * 3, [], {}, [0] * 3,
                          self.i64(), self.text()))


def expect_error(fn, *args, **kwargs):
    """Calls fn; a ValueError/TypeError with a message is fine, returns (result, error)."""
    try:
        return fn(*args, **kwargs), None
    except EXPECTED as e:
        assert str(e), f"{type(e).__name__} without a message"
        return None, e


def _leaves(obj, prefix=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, prefix + (k,))
    elif isinstance(obj, list) and obj:
        for i, v in enumerate(obj):
            yield from _leaves(v, prefix + (i,))
    yield prefix


def _get(obj, path):
    for k in path:
        obj = obj[k]
    return obj


def _mutate(b: Bytes, obj, times: int):
    """Replaces `times` leaves or containers of a JSON-like object by fuzzed values, in place."""
    paths = [p for p in _leaves(obj) if p]
    for _ in range(times):
        if not paths:
            return obj
        path = paths[b.u32() % len(paths)]
        parent = _get(obj, path[:-1])
        op = b.u8() % 8
        if op == 0 and isinstance(parent, dict):
            del parent[path[-1]]
            paths = [p for p in _leaves(obj) if p]
        elif op == 1 and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
            paths = [p for p in _leaves(obj) if p]
        elif op == 2 and isinstance(parent, dict):
            parent[b.text(8)] = b.value()
        else:
            parent[path[-1]] = b.value(parent[path[-1]])
            paths = [p for p in _leaves(obj) if p]
    return obj


def _options(b: Bytes, game: str):
    spec = game_spec(game)
    players = b.pick(spec.players) if b.u8() % 8 else b.value(2)
    opts = {}
    for o in spec.options:
        if o.name in ("data", "board", "tiles"):
            continue  # component data: the data mode below
        r = b.u8() % 4
        if r == 0:
            continue
        if r < 3 and o.choices:
            opts[o.name] = b.pick(o.choices)
        elif o.name == "first_player":
            opts[o.name] = b.pick((-1, 0, 1, 2, 3, 4, -2))
        else:
            opts[o.name] = b.value(o.default)
    if b.u8() % 16 == 0:
        opts[b.text(8)] = b.value()
    return players, opts


def _exercise(state, b: Bytes, steps: int):
    """Plays legal and illegal actions and calls every read path; a rejected call changes nothing."""
    n = state.num_players()
    na = state.num_distinct_actions()
    for _ in range(steps):
        if state.is_terminal():
            break
        kind = b.u8() if b.left() else 0
        legal = state.legal_actions()
        if kind % 8 < 6 or not b.left():  # a legal action (most of the time, and once the bytes run out)
            state.apply(int(legal[b.u32() % len(legal)] if b.left() else legal[0]))
            continue
        before = state.to_json()
        op = kind % 8
        if op == 6:  # an arbitrary id or a non-int
            a = b.pick((b.i64(), -1, na, na + 1, 2**63, -(2**64), b.u32() % max(na, 1), 1.5, "0", None))
            _, err = expect_error(state.apply, a)
            if err is not None:
                assert state.to_json() == before, f"apply({a!r}) raised but changed the state"
        else:  # the other read paths with fuzzed arguments
            which = b.u8() % 6
            if which == 0:
                expect_error(state.string_to_action, b.text())
            elif which == 1:
                expect_error(state.observation, b.value(0))
            elif which == 2:
                expect_error(state.action_to_string, b.value(0))
            elif which == 3:
                expect_error(state.is_legal, b.value(0))
            elif which == 4:
                c = state.clone()
                _, err = expect_error(c.resample_hidden, b.value(0) if b.u8() & 1 else b.u8() % n, b.u32())
                if err is None:
                    tilecraft.from_json(c.to_json())  # a resampled state is a valid state
            else:
                expect_error(state.heuristic, b.value(0))
            assert state.to_json() == before, "a read path changed the state"
        if state.is_chance_node():
            assert len(state.chance_outcomes()) == len(state.legal_actions())
    # Every read path once more.
    for p in range(n):
        obs = state.observation(p)
        assert np.isfinite(obs).all()
    state.scores(), state.returns(), state.winners(), state.legal_action_mask(), state.history()


def _random_state(b: Bytes, game: str):
    spec = game_spec(game)
    players = b.pick(spec.players)
    opts = {}
    if any(o.name == "chance" for o in spec.options):
        opts["chance"] = b.pick(("sampled", "explicit"))
    state = tilecraft.make(game, players=players, seed=b.u32(), **opts)
    for _ in range(b.u8() * 2):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(int(legal[b.u32() % len(legal)]))
    return state


def _after_load(state, b: Bytes):
    """A state that loaded plays on without crashing (a rejected action is fine)."""
    if state is None:
        return
    try:
        _exercise(state, b, MAX_STEPS)
    except EXPECTED as e:  # a loaded-but-odd state may still refuse an action, with a message
        assert str(e)


def mode_options(b: Bytes, game: str):
    players, opts = _options(b, game)
    state, _ = expect_error(tilecraft.make, game, players=players, seed=b.value(0) if b.u8() % 4 == 0 else b.u32(),
                            **opts)
    if state is not None:
        _exercise(state, b, MAX_STEPS)


def mode_actions(b: Bytes, game: str):
    _exercise(_random_state(b, game), b, MAX_STEPS)


def edit_bytes(b: Bytes, data: bytes, edits: int, insert: int, delete: int) -> bytes:
    """``data`` after 1..edits byte edits drawn from ``b``: a byte replaced, 1..insert bytes inserted,
    or 1..delete bytes deleted."""
    out = bytearray(data)
    for _ in range(1 + b.u8() % edits):
        pos = b.u32() % (len(out) + 1)
        op = b.u8() % 3
        if op == 0 and pos < len(out):
            out[pos] = b.u8()
        elif op == 1:
            out[pos:pos] = bytes(b.u8() for _ in range(1 + b.u8() % insert))
        else:
            del out[pos:pos + 1 + b.u8() % delete]
    return bytes(out)


def mode_from_json(b: Bytes, game: str):
    chars = edit_bytes(b, _random_state(b, game).to_json().encode(), edits=4, insert=4, delete=8)
    state, _ = expect_error(tilecraft.from_json, chars.decode("utf-8", "replace"))
    _after_load(state, b)


def mode_from_dict(b: Bytes, game: str):
    state = _random_state(b, game)
    d = _mutate(b, json.loads(state.to_json()), 1 + b.u8() % 3)
    cls = game_spec(game).state_class
    loaded, _ = expect_error(cls.from_dict, d)
    _after_load(loaded, b)


# Component data: the files a user may supply, mutated, through the game's own loader.
def _data_files(game: str):
    base = os.path.join(os.path.dirname(tilecraft.__file__), "data", game)
    if not os.path.isdir(base):
        return base, []
    return base, sorted(f for f in os.listdir(base) if f.endswith(".json") and not f.endswith(".schema.json"))


def mode_data(b: Bytes, game: str):
    base, files = _data_files(game)
    if not files:
        return mode_options(b, game)
    name = b.pick(files)
    with open(os.path.join(base, name)) as f:
        data = _mutate(b, json.load(f), 1 + b.u8() % 3)
    spec = game_spec(game)
    players = b.pick(spec.players)
    if game == "castle":  # board/tiles options take a dict
        state, _ = expect_error(tilecraft.make, game, players=players, **{name[:-5]: data})
    else:  # a data directory: the defaults with one file replaced
        tmp = tempfile.mkdtemp(prefix="tilecraft-fuzz-")
        try:
            for f in os.listdir(base):
                shutil.copy(os.path.join(base, f), tmp)
            with open(os.path.join(tmp, name), "w") as f:
                json.dump(data, f)
            state, _ = expect_error(tilecraft.make, game, players=players, data=tmp)
        finally:
            shutil.rmtree(tmp)
            _forget_data(game, tmp)
    if state is not None:
        _exercise(state, b, MAX_STEPS // 4)


def _forget_data(game: str, path: str):
    """The loaders cache per directory; a fuzz run makes thousands, so drop them as we go."""
    import importlib

    for mod in ("tilecraft.games.warsaw", "tilecraft.games._gaudi_data"):
        cache = getattr(importlib.import_module(mod), "_CACHE", {})
        for k in [k for k in cache if path in str(k)]:
            del cache[k]


MODES = (mode_options, mode_actions, mode_from_json, mode_from_dict, mode_data)


def one_input(game: str, data: bytes) -> None:
    b = Bytes(data)
    MODES[b.u8() % len(MODES)](b, game)
