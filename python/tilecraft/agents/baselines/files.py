"""The network file format (``.npz``): writing one, and reading one safely. A file is read only when
it is a regular file (not a FIFO or a device: those are refused without waiting) of at most
``MAX_FILE_BYTES``; its arrays are inflated only after the sizes that the archive and each array's
header declare are within ``MAX_ARRAY_BYTES`` and the metadata is there; every array's shape is
checked against the metadata (tilecraft.agents.model.shapes). Every failure is a BaselineError that
names the file and what is wrong."""
from __future__ import annotations

import io
import json
import os
import reprlib
import struct
import tokenize
import zipfile
import zlib
from typing import Any, Dict, Mapping, Tuple

import numpy as np

from ..._files import UnreadableFile, read_regular
from .. import model

try:
    from lzma import LZMAError as _LZMAError
except ImportError:  # a Python built without lzma: zipfile reads no LZMA entry, so nothing raises it
    _LZMAError = zipfile.BadZipFile

FORMAT = "tilecraft-baseline"
FORMAT_VERSION = 1

_shown = reprlib.Repr()  # a metadata value in a message: short, however long or deep the value
_shown.maxlevel, _shown.maxstring, _shown.maxother = 3, 60, 60


class BaselineError(ValueError):
    """A baseline that cannot be had: no such configuration, or a file that is not the right network."""


def save(path: str, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any], dtype: Any = np.float16) -> str:
    """Writes a network: its arrays (as ``dtype``, float16 by default; the input normalisation stays
    float32) and its metadata. Returns the path."""
    meta = dict(meta)
    meta.setdefault("format", FORMAT)
    meta.setdefault("format_version", FORMAT_VERSION)
    out = {k: np.asarray(v, dtype=np.float32 if k in ("shift", "scale") else dtype) for k, v in arrays.items()}
    out["meta"] = np.array(json.dumps(meta, sort_keys=True))
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        np.savez_compressed(f, **out)
    os.replace(tmp, path)
    return path


_REQUIRED_META = ("format", "format_version", "game", "players", "mode", "observation_layout", "observation_size",
                  "num_actions", "value_seats", "hidden", "depth")


# What a network file may hold, checked before anything is inflated: the file's size on disk, and the
# bytes its entries and arrays declare (a zip of 2 MB can claim gigabytes). A trained network of a
# few hundred thousand weights is a few MB; these caps leave a wide margin above that.
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_ARRAY_BYTES = 256 * 1024 * 1024  # all entries together, inflated
MAX_META_BYTES = 1024 * 1024         # the metadata entry, inflated (a JSON text)
_NPY_MAGIC = b"\x93NUMPY"
# what reading a damaged archive raises: zipfile's and each codec's own errors (bz2's is an OSError),
# and the .npy header parser's (a header is a Python literal)
_ZIP_ERRORS = (OSError, EOFError, ValueError, zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError,
               KeyError, struct.error, SyntaxError, tokenize.TokenError, _LZMAError)


def _file_bytes(where: str) -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES. Opened without blocking (a FIFO or a
    device would wait forever or never end) and checked on the open descriptor, so that a file
    swapped for one of those between a check and the open cannot hang the reader either."""
    try:
        return read_regular(where, MAX_FILE_BYTES)
    except UnreadableFile as e:
        if e.missing:
            raise BaselineError(f"{where}: no such file") from None
        if e.kind:
            raise BaselineError(f"{where}: not a regular file ({e.kind}); a network is read from a .npz file") from None
        if e.size is not None:
            raise BaselineError(f"{where}: {'more than ' if e.grew else ''}{min(e.size, MAX_FILE_BYTES) if e.grew else e.size:,}"
                                f" bytes; a network file may have at most {MAX_FILE_BYTES:,}") from None
        raise BaselineError(f"{where}: cannot read it: {e.why}") from None


def _npy_header(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> Tuple[Tuple[int, ...], np.dtype, int]:
    """An entry's declared shape, dtype and header length, from its .npy header alone (a few hundred bytes inflated)."""
    with zf.open(info) as f:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(f)
        elif version in ((2, 0), (3, 0)):
            shape, _, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"npy format version {version}")
        return shape, dtype, f.tell()


def _entries(zf: zipfile.ZipFile, where: str) -> Dict[str, zipfile.ZipInfo]:
    """The archive's entries by array name, each checked against the caps from its declared sizes
    (the zip directory's and the .npy header's) before any array is inflated."""
    infos: Dict[str, zipfile.ZipInfo] = {}
    total = 0
    for info in zf.infolist():
        name = info.filename
        if not name.endswith(".npy") or name[:-4] in infos:
            raise BaselineError(f"{where}: entry {name!r} is not one array of a .npz file (a foreign file?)")
        if info.flag_bits & 0x1:
            raise BaselineError(f"{where}: entry {name!r} is encrypted")
        total += info.file_size
        if total > MAX_ARRAY_BYTES:
            raise BaselineError(f"{where}: its entries inflate to more than {MAX_ARRAY_BYTES:,} bytes "
                                f"(entry {name!r} claims {info.file_size:,})")
        infos[name[:-4]] = info
    if "meta" not in infos:
        raise BaselineError(f"{where}: not a tilecraft baseline: it has no 'meta' entry")
    for key, info in infos.items():
        shape, dtype, header = _npy_header(zf, info)
        if dtype.hasobject:
            raise BaselineError(f"{where}: array {key!r} holds Python objects (pickled data); a network holds "
                                "numbers and its metadata text")
        if any(n < 0 or n > MAX_ARRAY_BYTES for n in shape):  # numpy counts in int64 (a zero beside one overflows)
            raise BaselineError(f"{where}: array {key!r} declares shape {_shown.repr(shape)}; a dimension is at "
                                f"least 0 and at most {MAX_ARRAY_BYTES:,}")
        size = dtype.itemsize
        for n in shape:
            size *= n
        cap = MAX_META_BYTES if key == "meta" else info.file_size - header
        if size > cap:
            raise BaselineError(f"{where}: array {key!r} declares shape {shape} of {dtype} ({size:,} bytes); "
                                + (f"the metadata may have at most {cap:,}" if key == "meta"
                                   else f"its entry holds {max(cap, 0):,}"))
    return infos


def _check_int(value: Any, key: str, where: str, low: int = 1) -> int:
    """A metadata integer (``key`` is its JSON path), refused with the file and the path otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise BaselineError(f"{where}: its metadata's {key} must be an integer of at least {low}, "
                            f"got {_shown.repr(value)}")
    return value


def read(path: str) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
    """A network file's arrays and metadata, checked for what the file alone can say (not yet its
    configuration)."""
    where = str(path)
    data = _file_bytes(where)
    if data.startswith(_NPY_MAGIC):
        raise BaselineError(f"{where}: a single numpy array (.npy); a network is a .npz file of arrays and metadata")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = _entries(zf, where)
            arrays = {}
            for key, info in infos.items():
                with zf.open(info) as f:
                    arrays[key] = np.lib.format.read_array(f, allow_pickle=False)
    except BaselineError:
        raise
    except _ZIP_ERRORS as e:
        kind = "pickled data" if data[:1] == b"\x80" else "not a zip archive" if not zipfile.is_zipfile(
            io.BytesIO(data)) else f"{type(e).__name__}: {e}"
        raise BaselineError(f"{where}: not a readable tilecraft baseline (.npz) file: {kind}") from None
    meta_array = arrays.pop("meta")
    if meta_array.shape != () or meta_array.dtype.kind != "U":
        raise BaselineError(f"{where}: its 'meta' entry must be one JSON text, got shape {meta_array.shape} "
                            f"of {meta_array.dtype}")
    try:
        meta = json.loads(str(meta_array))
    except ValueError as e:
        raise BaselineError(f"{where}: its metadata is not JSON: {e}") from None
    except RecursionError:
        raise BaselineError(f"{where}: its metadata nests too deeply to be read") from None
    if not isinstance(meta, dict):
        raise BaselineError(f"{where}: its metadata must be a JSON object, got {type(meta).__name__}")
    missing = [k for k in _REQUIRED_META if k not in meta]
    if missing:
        raise BaselineError(f"{where}: its metadata lacks {', '.join(missing)}")
    if meta["format"] != FORMAT or meta["format_version"] != FORMAT_VERSION:
        raise BaselineError(f"{where}: format {meta['format']!r} version {meta['format_version']!r}; this tilecraft "
                            f"reads {FORMAT!r} version {FORMAT_VERSION}")
    depth, n_in, n_act, seats = (_check_int(meta[k], k, where) for k in ("depth", "observation_size", "num_actions",
                                                                      "value_seats"))
    value_hidden = meta.get("value_hidden") or []
    for key, widths in (("hidden", meta["hidden"]), ("value_hidden", value_hidden)):
        if not isinstance(widths, list):
            raise BaselineError(f"{where}: its metadata's {key} must be a list of layer widths, "
                                f"got {_shown.repr(widths)}")
        for i, h in enumerate(widths):
            _check_int(h, f"{key}[{i}]", where)
    hidden = meta["hidden"]
    if len(hidden) != depth:
        raise BaselineError(f"{where}: hidden lists {len(hidden)} layer widths for depth {depth}")
    for k in ("shift", "scale"):  # the observation's width, before anything is sized by it
        if k not in arrays:
            raise BaselineError(f"{where}: array {k!r} is missing (a truncated or foreign file?)")
        if arrays[k].shape != (n_in,):
            raise BaselineError(f"{where}: array {k!r} has shape {arrays[k].shape}; the metadata says ({n_in},) "
                                "(observation_size)")
    groups = meta.get("groups") or []
    try:
        model.group_indices(groups, n_in, where="groups")
    except ValueError as e:
        raise BaselineError(f"{where}: its metadata's {e}") from None
    want = model.shapes(n_in, hidden, n_act, seats, value_hidden, groups, margin=False)
    for k, shape in want.items():
        if k not in arrays:
            raise BaselineError(f"{where}: array {k!r} is missing (a truncated or foreign file?)")
        if arrays[k].shape != shape:
            raise BaselineError(f"{where}: array {k!r} has shape {arrays[k].shape}; the metadata says {shape}")
        if arrays[k].dtype.kind != "f" or not np.isfinite(arrays[k]).all():
            raise BaselineError(f"{where}: array {k!r} must hold finite floats")
    extra = sorted(set(arrays) - set(want))
    if extra:
        raise BaselineError(f"{where}: unexpected arrays {', '.join(extra)}")
    return arrays, meta
