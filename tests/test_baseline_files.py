"""Network files under abuse (issue 45, sections 2 and 5): whatever a file holds, reading it ends
quickly as a BaselineError naming the file and, for bad metadata, the key (its JSON path); nothing is
inflated before the declared sizes are checked, and only regular files are read."""
import json
import os
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from tilecraft import baselines
from tilecraft.baselines import BaselineError
from tilecraft.agents.baselines import files as baseline_files
from test_baselines import _net_file


def _arrays(path):
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    return arrays, json.loads(str(arrays.pop("meta")))


def _write(path, arrays, meta_text):
    np.savez(path, meta=np.array(meta_text), **arrays)
    return str(path)


def _with_meta(tmp_path, name, **changes):
    """The small test network with its metadata changed (None: the key removed)."""
    arrays, meta = _arrays(_net_file(tmp_path))
    meta.update(changes)
    return _write(tmp_path / name, arrays, json.dumps(meta))


def _refused(path, *words):
    with pytest.raises(BaselineError) as e:
        baselines.load("azul", 2, path=path)
    message = str(e.value)
    assert path in message, message
    for w in words:
        assert w in message, message
    return message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    """load(path=FIFO) blocked forever (nobody writes to it); so did --bots baseline-policy:path=FIFO.
    Run in a child process, so that a hang fails the test instead of stopping the run."""
    fifo = tmp_path / "net.npz"
    os.mkfifo(fifo)
    code = ("import sys, tilecraft.baselines as b\n"
            "try:\n    b.load('azul', 2, path=sys.argv[1])\n"
            "except b.BaselineError as e:\n    print(e)\n")
    try:
        out = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("baselines.load waits on a FIFO")
    assert f"{fifo}: not a regular file (a FIFO)" in out.stdout, out.stdout + out.stderr
    from tilecraft.bots import make_bot
    import tilecraft

    bot = make_bot(f"baseline-policy:path={fifo}")
    with pytest.raises(BaselineError, match="not a regular file"):
        bot.act(tilecraft.make("azul", seed=1))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_and_a_directory_are_not_regular_files(tmp_path):
    assert "(a device)" in _refused("/dev/zero", "not a regular file")
    assert "(a directory)" in _refused(str(tmp_path), "not a regular file")


def test_a_file_over_the_size_cap_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = str(_net_file(tmp_path))
    monkeypatch.setattr(baseline_files, "MAX_FILE_BYTES", os.path.getsize(path) - 1)
    _refused(path, f"{os.path.getsize(path):,} bytes", "at most")


def _bomb(path, meta=True, size=64 * 1024 * 1024):
    """A small zip whose one big array inflates to `size` bytes of zeros (and, with meta=False, no metadata)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        if meta:
            with zf.open("meta.npy", "w") as f:
                np.lib.format.write_array(f, np.array("{}"))
        header = {"descr": "<f4", "fortran_order": False, "shape": (size // 4,)}
        with zf.open("w0.npy", "w", force_zip64=True) as f:
            np.lib.format.write_array_header_1_0(f, header)
            block = bytes(1 << 20)
            for _ in range(size >> 20):
                f.write(block)
    return str(path)


def test_a_zip_bomb_without_meta_is_refused_before_anything_is_inflated(tmp_path, monkeypatch):
    """A 2 MB zip inflated 2 GB (44 s) before the missing meta was noticed: 'meta' and every entry's
    declared size are checked first. Here a 64 MB entry (64 KB on disk) under a cap of 16 MB."""
    nometa, bomb = _bomb(tmp_path / "bomb.npz", meta=False), _bomb(tmp_path / "bomb2.npz")
    assert os.path.getsize(nometa) < 200_000

    def inflated(*args, **kwargs):
        raise AssertionError("an array was inflated")

    monkeypatch.setattr(np.lib.format, "read_array", inflated)
    _refused(nometa, "no 'meta' entry")
    monkeypatch.setattr(baseline_files, "MAX_ARRAY_BYTES", 16 * 1024 * 1024)
    _refused(bomb, "'w0.npy'", "inflate to more than")


def test_an_array_declaring_more_than_its_entry_holds_is_refused(tmp_path):
    """A shape of 2**40 in a .npy header raised MemoryError (numpy allocates before reading)."""
    arrays, meta = _arrays(_net_file(tmp_path))
    path = _write(tmp_path / "big.npz", arrays, json.dumps(meta))
    with zipfile.ZipFile(path) as zf:
        entries = {i.filename: zf.read(i) for i in zf.infolist()}
    entries["w1.npy"] = entries["w1.npy"].replace(b"'shape': (16, 8)", b"'shape': (1099511627776, 8)")
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    _refused(path, "array 'w1' declares shape (1099511627776, 8)")
    # found by fuzzing: an empty array with one huge dimension (numpy counts its elements in int64)
    for shape, bad in ((b"(0, 18446744073709551616)", b"'shape': (0, 18446744073709551616)"),
                       (b"(-3, 8)", b"'shape': (-3, 8)")):
        entries["w1.npy"] = entries["w1.npy"].replace(b"'shape': (1099511627776, 8)", bad)
        with zipfile.ZipFile(path, "w") as zf:
            for name, data in entries.items():
                zf.writestr(name, data)
        _refused(path, f"array 'w1' declares shape {shape.decode()}; a dimension is at least 0")
        entries["w1.npy"] = entries["w1.npy"].replace(bad, b"'shape': (1099511627776, 8)")


def test_a_plain_npy_file_is_refused_as_such(tmp_path):
    """A .npy file (one array) raised TypeError."""
    path = str(tmp_path / "net.npz")
    with open(path, "wb") as f:
        np.save(f, np.zeros(3, np.float32))
    _refused(path, "a single numpy array (.npy)")


def test_pickled_data_is_refused_as_such(tmp_path):
    path = tmp_path / "net.npz"
    path.write_bytes(b"\x80\x04K\x01.")
    _refused(str(path), "pickled data")


def test_deeply_nested_metadata_is_refused(tmp_path):
    """Raised RecursionError."""
    arrays, meta = _arrays(_net_file(tmp_path))
    text = json.dumps(meta)[:-1] + ', "notes": ' + "[" * 100_000 + "]" * 100_000 + "}"
    _refused(_write(tmp_path / "deep.npz", arrays, text), "nests too deeply")


@pytest.mark.parametrize("key, value, where", [
    ("depth", float("inf"), "depth"),            # raised OverflowError (int(inf))
    ("depth", 2.5, "depth"),                     # was truncated to 2
    ("observation_size", "300", "observation_size"),
    ("num_actions", True, "num_actions"),
    ("hidden", [16, float("nan")], "hidden[1]"),
    ("hidden", 16, "hidden"),
    ("value_hidden", [2**70], "array 'vw0'"),    # a width beyond any array: the value trunk it declares is missing
    ("depth", json.loads("[" * 900 + "]" * 900), "depth must be an integer"),  # shown short, not repr'd whole
    ("groups", [dict(offset=0, count=2, width=1, block_stride=2**70, feature_stride=1, embed=2)], "groups[0]"),
    ("groups", [dict(offset=0, count=10**12, width=1, block_stride=1, feature_stride=1, embed=2)], "groups[0]"),
])
def test_bad_metadata_values_name_the_file_and_the_key(tmp_path, key, value, where):
    """A huge stride raised OverflowError, Infinity OverflowError, a huge count MemoryError."""
    _refused(_with_meta(tmp_path, "bad.npz", **{key: value}), where)


def test_meta_must_be_one_text(tmp_path):
    arrays, meta = _arrays(_net_file(tmp_path))
    np.savez(tmp_path / "m.npz", meta=np.array([json.dumps(meta)] * 2), **arrays)
    _refused(str(tmp_path / "m.npz"), "'meta' entry must be one JSON text")


def test_a_good_file_still_loads_and_a_refused_one_is_not_cached(tmp_path):
    path = str(_net_file(tmp_path))
    assert baselines.load("azul", 2, path=path).meta["depth"] == 2
    before = dict(baselines._cache)
    _refused(_with_meta(tmp_path, "bad.npz", depth=float("inf")), "depth")
    assert baselines._cache == before


def test_a_huge_observation_size_without_its_arrays_is_refused_before_anything_is_sized_by_it(tmp_path):
    """observation_size=10**12 sized a numpy array (MemoryError) when 'shift' was missing."""
    arrays, meta = _arrays(_net_file(tmp_path))
    del arrays["shift"]
    meta.update(observation_size=10**12, groups=[dict(offset=0, count=1, width=1, block_stride=1,
                                                      feature_stride=1, embed=1)])
    _refused(_write(tmp_path / "huge.npz", arrays, json.dumps(meta)), "array 'shift' is missing")
