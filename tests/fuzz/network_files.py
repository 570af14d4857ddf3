"""Fuzz target "network-files": bytes -> a network file -> ``tilecraft.baselines.load("azul", 2,
path=FILE)``. The contract (issue 45, sections 2 and 5): whatever the file holds, loading ends quickly
as a network or as a ``BaselineError`` whose message names the file; anything else (another
exception, a hang, a dead interpreter) is a crash. A network that loads also evaluates.

The bytes choose how the file is made (first byte): the bytes themselves; a valid small network with
a few bytes changed; a valid network's metadata and arrays mutated (keys removed, values replaced,
arrays reshaped, retyped, added or dropped); or a zip archive of fuzzed .npy entries (fuzzed names,
headers and data, any compression, declared sizes that lie).
"""
import atexit
import io
import json
import os
import shutil
import tempfile
import warnings
import zipfile

import numpy as np

import tilecraft
from tilecraft import baselines
from harness import Bytes, _mutate, edit_bytes

GAME, PLAYERS = "azul", 2
_folder = []  # the temporary folder the file is written in, made on first use, removed at exit


def _path() -> str:
    if not _folder:
        _folder.append(tempfile.mkdtemp(prefix="tilecraft-fuzz-net-"))
        atexit.register(shutil.rmtree, _folder[0], True)
    return os.path.join(_folder[0], "net.npz")


def _valid():
    """A small valid network for azul, 2 players: (arrays, metadata)."""
    state = tilecraft.make(GAME, players=PLAYERS)
    n_in, n_act = int(np.prod(state.observation_shape())), state.num_distinct_actions()
    rng = np.random.default_rng(0)
    hidden = [8]
    arrays = {"shift": np.zeros(n_in, np.float32), "scale": np.ones(n_in, np.float32),
              "w0": rng.normal(size=(n_in, 8)).astype(np.float16), "b0": np.zeros(8, np.float16),
              "wp": rng.normal(size=(8, n_act)).astype(np.float16), "bp": np.zeros(n_act, np.float16),
              "wv": rng.normal(size=(8, PLAYERS)).astype(np.float16), "bv": np.zeros(PLAYERS, np.float16)}
    meta = dict(format=baselines.FORMAT, format_version=baselines.FORMAT_VERSION, game=GAME, players=[PLAYERS],
                mode=None, observation_layout=state.observation_layout(), observation_size=n_in, num_actions=n_act,
                value_seats=PLAYERS, hidden=hidden, depth=1, value_hidden=[],
                search={"simulations": 8, "prior_temperature": 1.0})  # settings to mutate too
    return arrays, meta


ARRAYS, META = _valid()


def _npz(arrays, meta_text) -> bytes:
    out = io.BytesIO()
    np.savez(out, meta=np.array(meta_text), **arrays)
    return out.getvalue()


VALID = _npz(ARRAYS, json.dumps(META))


def _bytes_changed(b: Bytes) -> bytes:
    return edit_bytes(b, VALID, edits=8, insert=8, delete=64)


def _structured(b: Bytes) -> bytes:
    meta = json.loads(json.dumps(META))
    arrays = dict(ARRAYS)
    if b.u8() % 4 == 0:  # a feature group to mutate: features 0..5 as two blocks of three, each encoded to two
        meta["groups"] = [dict(offset=0, count=2, width=3, block_stride=3, feature_stride=1, embed=2)]
        arrays.update(gw0=np.ones((3, 2), np.float16), gb0=np.zeros(2, np.float16),
                      w0=arrays["w0"][2:])  # the trunk takes n - 6 + 2 * 2 features
    meta = _mutate(b, meta, b.u8() % 4)
    for _ in range(b.u8() % 3):
        key = b.pick(sorted(arrays) + ["gw0", "gb0", "vw0", "x"])
        op = b.u8() % 6
        if op == 0:
            arrays.pop(key, None)
        elif op == 1:
            arrays[key] = np.zeros(tuple(b.u8() % 5 for _ in range(b.u8() % 3)), np.float16)
        elif op == 2 and key in ARRAYS:  # from the valid (float) array: every such conversion works
            arrays[key] = ARRAYS[key].astype(b.pick((np.float64, np.int8, np.bool_, np.complex64, "U3")))
        elif op == 3 and key in ARRAYS:
            a = ARRAYS[key].astype(np.float32)
            a.reshape(-1)[b.u32() % max(a.size, 1):][:1] = b.pick((np.nan, np.inf, -np.inf, 3e38, 6e4, 0.0))
            arrays[key] = a
        elif op == 4:
            arrays[key] = np.full(b.u8() % 4 + 1, b.u8(), np.float32)
    text = json.dumps(meta)
    if b.u8() % 8 == 0:  # deep or odd JSON text
        text = b.pick(("[" * 5000 + "]" * 5000, '{"a": ' * 3000 + "1" + "}" * 3000, text[:-1], "NaN",
                       text.replace('"depth": 1', '"depth": Infinity'), text.replace('"depth": 1', '"depth": 1e999'),
                       text.replace('"depth": 1', '"depth": ' + "9" * 5000)))
    return _npz(arrays, text)


def _header(b: Bytes) -> bytes:
    """A .npy header, usually well formed, with a fuzzed shape and dtype."""
    descr = b.pick(("<f2", "<f4", "<f8", "|u1", "<U5", "|O", "|V8", ">f4", "<c8", b.text(6)))
    shape = tuple(b.pick((0, 1, 3, 8, 300, 2**31, 2**40, 2**62, 2**64, -1)) for _ in range(b.u8() % 3))
    text = repr({"descr": descr, "fortran_order": bool(b.u8() & 1), "shape": shape})
    if b.u8() % 8 == 0:
        text = b.text(40)
    header = text.encode("latin1", "replace")
    header += b" " * (-(len(header) + 11) % 64) + b"\n"
    version = b.pick(((1, 0), (2, 0), (3, 0), (9, 9)))
    size = len(header).to_bytes(2 if version == (1, 0) else 4, "little")
    return b"\x93NUMPY" + bytes(version) + size + header


def _zip(b: Bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for _ in range(b.u8() % 5):
            name = b.pick(("meta.npy", "w0.npy", "shift.npy", "wp.npy", "meta", "../x.npy", b.text(6)))
            method = b.pick((zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA))
            data = _header(b) + bytes(b.u8() for _ in range(b.u8() % 64))
            if b.u8() % 4 == 0:  # a long run of zeros: a small entry inflating much more
                data += bytes(1 << (10 + b.u8() % 14))
            zf.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    data = bytearray(out.getvalue())
    if b.u8() % 4 == 0 and len(data) > 30:  # a lying size in the local or central header
        pos = b.u32() % (len(data) - 4)
        data[pos:pos + 4] = b.u32().to_bytes(4, "little")
    return bytes(data)


MODES = (lambda b: b.data[b.i:], _bytes_changed, _structured, _zip)


def one_input(data: bytes) -> None:
    b = Bytes(data)
    with warnings.catch_warnings():  # making odd files warns (duplicate zip names, complex to real)
        warnings.simplefilter("ignore")
        content = MODES[b.u8() % len(MODES)](b)
    path = _path()
    with open(path, "wb") as f:
        f.write(content)
    baselines._cache.clear()  # one path, many contents (a cache hit would skip the reading)
    try:
        net = baselines.load(GAME, PLAYERS, path=path)
    except baselines.BaselineError as e:
        assert path in str(e), f"a BaselineError that names no file: {e}"
        return
    state = tilecraft.make(GAME, players=PLAYERS, seed=1)
    with np.errstate(all="ignore"):  # finite weights may still overflow float32 (issue 45, section 1: C++ side)
        logits, values = net(state.observation(0)[None], state.legal_action_mask()[None], [0])
    assert logits.shape == (1, state.num_distinct_actions()) and values.shape == (1, PLAYERS)
