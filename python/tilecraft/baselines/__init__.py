"""Trained baseline networks, shipped with tilecraft (see docs/learning.md and docs/strength.md).

>>> import tilecraft
>>> net = tilecraft.baselines.load("azul", players=2)       # an evaluator (docs/learning.md)
>>> state = tilecraft.make("azul", seed=1)
>>> logits, values = net(state.observation(0)[None], state.legal_action_mask()[None], [0])

A baseline is a small policy-value network stored as one ``.npz`` file (float16 weights, at most
2 MB) beside this module, with its metadata: the game, player counts and mode it serves, the
observation layout it was trained on (``state.observation_layout()``), its shape, and how it was
made (the command line, the commit, the seeds, the games and rows it was trained on). The forward
pass is numpy: no PyTorch, no download. A network pickles (as its file's arrays) and ``load`` caches
each file once per process.

The evaluator it returns follows the protocol of :class:`tilecraft.PUCTBot`: ``net(observations,
legal_mask, players) -> (logits (B, A), values (B, players))``, values being each seat's expected
share of the win, by absolute seat.

Everything that goes wrong is a :class:`BaselineError` (a ``ValueError``) that names the file and
what differs: a truncated or foreign file, another game, player count, mode or observation layout
(the engine's observation changed since the network was trained: it refuses rather than playing
badly), or a configuration that has no baseline (the error lists those that exist). A file is read
only when it is a regular file (not a FIFO or a device: those are refused without waiting) of at
most ``MAX_FILE_BYTES``, and its arrays are inflated only after the sizes that the archive and
each array's header declare are within ``MAX_ARRAY_BYTES`` and the metadata is there.

This module imports neither the bots nor the match or tournament runners (the bots import it).
"""
from __future__ import annotations

import io
import json
import os
import pathlib
import reprlib
import struct
import threading
import tokenize
import zipfile
import zlib
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .. import _core
from .._files import UnreadableFile, read_regular
from ..agents import model


try:
    from lzma import LZMAError as _LZMAError
except ImportError:  # a Python built without lzma: zipfile reads no LZMA entry, so nothing raises it
    _LZMAError = zipfile.BadZipFile

FORMAT = "tilecraft-baseline"
FORMAT_VERSION = 1
MAX_BYTES = 2 * 1024 * 1024  # a shipped file's cap (tests/test_baselines.py checks every shipped file)
HERE = pathlib.Path(__file__).resolve().parent

__all__ = ["BaselineError", "Network", "load", "available", "save", "layout_of", "mode_of", "FORMAT"]


_shown = reprlib.Repr()  # a metadata value in a message: short, however long or deep the value
_shown.maxlevel, _shown.maxstring, _shown.maxother = 3, 60, 60


class BaselineError(ValueError):
    """A baseline that cannot be had: no such configuration, or a file that is not the right network."""


# ---- which configuration a state or a request is ----

def _spec(game: str) -> Any:
    from ..games import UnknownGameError, game_spec

    try:
        return game_spec(game)
    except UnknownGameError as e:
        raise BaselineError(str(e)) from None


def mode_of(state: Any) -> Optional[str]:
    """The rule mode a baseline is chosen by: the game's ``baseline_mode(state)`` (Gaudí: 'basic' or
    'expert'), None for a game without modes."""
    spec = _spec(type(state).game_name)
    return spec.baseline_mode(state) if spec.baseline_mode is not None else None


def _state_for(game: str, players: int, mode: Optional[str]) -> Any:
    """A fresh state of the configuration (its layout and mode are what a network is checked against)."""
    from ..games import make

    spec = _spec(game)
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or int(players) not in spec.players:
        raise BaselineError(f"{game}: players must be one of {', '.join(map(str, spec.players))}, got {players!r}")
    options: Dict[str, Any] = {}
    if mode is not None:
        if spec.baseline_mode is None:
            raise BaselineError(f"{game} has no modes; give mode=None, got mode={mode!r}")
        options["mode"] = mode
    try:
        return make(game, players=int(players), **options)
    except ValueError as e:
        raise BaselineError(f"{game}, {players} players, mode {mode!r}: {e}") from None


def layout_of(game: str, players: int = 2, mode: Optional[str] = None) -> str:
    """``observation_layout()`` of the configuration: what a network trained for it records."""
    return _state_for(game, players, mode).observation_layout()


# ---- the network (its arrays, forward pass and C++ form: tilecraft.agents.model) ----

class Network:
    """A policy-value MLP with a numpy forward pass, callable as an evaluator.

    ``arrays``: ``shift``, ``scale`` (the input normalisation, one per feature), ``w0, b0, ...``
    (the trunk, ReLU after each), ``wp, bp`` (policy logits over the action ids), ``wv, bv`` (value
    logits for the seats relative to the observer: a softmax gives their win shares, rolled back to
    absolute seats), and, where the metadata lists ``value_hidden``, a value trunk of its own
    ``vw0, vb0, ...`` (on the same input) under the value head. Where the metadata lists ``groups``
    (feature groups, see :func:`tilecraft.agents.model.group_indices`), their encoders ``gw0, gb0, ...`` turn the normalised
    observation into the trunks' input. ``meta``: the metadata dict (see the module's docs)."""

    def __init__(self, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any], path: Optional[str] = None):
        self.meta: Dict[str, Any] = dict(meta)
        self.path = path
        self.arrays = {k: np.asarray(v) for k, v in arrays.items()}
        self._prepare()

    def _prepare(self) -> None:
        self.players = int(self.meta["value_seats"])
        self.num_actions = int(self.meta["num_actions"])
        self.observation_size = int(self.meta["observation_size"])
        groups = self.meta.get("groups") or []
        self._index = model.group_indices(groups, self.observation_size) if groups else None
        self._params = model.fold_normalisation(self.arrays, groups)

    # pickles as its file's arrays and metadata (a PUCTBot with it goes to worker processes)
    def __getstate__(self) -> Dict[str, Any]:
        return {"arrays": self.arrays, "meta": self.meta, "path": self.path}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.meta, self.path, self.arrays = state["meta"], state["path"], state["arrays"]
        self._prepare()

    def native(self) -> Any:
        """The same network evaluated in C++ (``tilecraft._core.MlpNet``, built once and kept): an
        evaluator with this one's protocol and outputs (to float32 rounding), which a PUCT search or
        C++ self-play calls without Python, so a leaf costs a few microseconds instead of a numpy
        call's overhead. :class:`tilecraft.PUCTBot` uses it by itself for a Network."""
        mlp = self.__dict__.get("_native")
        if mlp is None:
            mlp = self.__dict__["_native"] = _core.MlpNet(**self._native_arrays())
        return mlp

    def _native_arrays(self) -> Dict[str, Any]:
        return model.native_arrays(self.arrays, self.observation_size, self.num_actions, self.players,
                                   self.meta.get("groups") or [])

    def _input(self, x: np.ndarray) -> np.ndarray:
        """What the trunks take: raw observations (the normalisation folded into their first layers),
        or with feature groups, normalised ones (before the encoders)."""
        return x if self._index is None else (x - self._params["shift"]) * self._params["scale"]

    def trunk(self, x: np.ndarray) -> np.ndarray:
        """The policy trunk's last hidden layer for raw observations ``x`` (B, n)."""
        return model.trunks(self._params, self._input(x), self._index)[0]

    def forward(self, observations: Any) -> Tuple[np.ndarray, np.ndarray]:
        """(policy logits (B, A), win shares of the seats relative to the observer (B, players))."""
        x = np.asarray(observations, dtype=np.float32).reshape(len(observations), -1)
        if x.shape[1] != self.observation_size:
            raise BaselineError(f"{self.name}: observations have {x.shape[1]} features; this network takes "
                                f"{self.observation_size} ({self.meta['observation_layout']})")
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow gives inf / nan: the search names it
            return self._forward(x)

    def _forward(self, x: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        logits, v = model.forward(self._params, self._input(x), self._index)
        v = np.exp(v - v.max(axis=1, keepdims=True))
        v /= v.sum(axis=1, keepdims=True)
        return logits, v

    def __call__(self, observations: Any, legal_mask: Any, players: Any) -> Tuple[np.ndarray, np.ndarray]:
        """The evaluator protocol: logits (B, A) and each absolute seat's win share (B, players)."""
        logits, rel = self.forward(observations)
        seats = np.asarray(players, dtype=np.int64).reshape(-1)
        n = self.players
        idx = (seats[:, None] + np.arange(n)[None, :]) % n
        values = np.empty_like(rel)
        np.put_along_axis(values, idx, rel, axis=1)
        return logits, values

    def policy_action(self, state: Any, temperature: float = 0.0, rng: Optional[np.random.Generator] = None) -> int:
        """The move of the policy alone: the argmax of the legal logits (ties: the lower id), or with
        ``temperature > 0`` a sample from their softmax at that temperature."""
        seat = state.current_player()
        logits, _ = self.forward(state.observation(seat)[None])
        legal = state.legal_actions()
        z = logits[0, legal].astype(np.float64)
        if temperature > 0.0:
            with np.errstate(over="ignore"):  # a tiny temperature sends the others to -inf: probability 0
                p = np.exp((z - z.max()) / temperature)
            p /= p.sum()
            return int(legal[(rng or np.random.default_rng()).choice(len(legal), p=p)])
        return int(legal[int(np.argmax(z))])  # argmax takes the first maximum: legal ids ascend

    @property
    def name(self) -> str:
        return self.path or f"{self.meta.get('game')} network"

    def __repr__(self) -> str:
        m = self.meta
        return (f"Network({m.get('game')!r}, players={m.get('players')}, mode={m.get('mode')!r}, "
                f"hidden={m.get('hidden')}, path={self.path!r})")


# ---- files ----

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


def _read(path: str) -> Network:
    """A network file, checked for what the file alone can say (not yet its configuration)."""
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
    return Network(arrays, meta, where)


def _check_for(net: Network, game: str, players: int, mode: Optional[str]) -> None:
    m, where = net.meta, net.path
    served = m["players"] if isinstance(m["players"], list) else [m["players"]]
    if m["game"] != game:
        raise BaselineError(f"{where}: a network for {m['game']!r}, not {game!r}")
    if players not in served:
        raise BaselineError(f"{where}: a network for {'/'.join(map(str, served))} players, not {players}")
    if (m["mode"] or None) != (mode or None):
        raise BaselineError(f"{where}: a network for mode {m['mode']!r}, not {mode!r}")
    want = layout_of(game, players, mode)
    if m["observation_layout"] != want:
        raise BaselineError(f"{where}: trained on observation layout {m['observation_layout']}, but this tilecraft's "
                            f"{game} ({players} players) has {want}: the observation or the action ids changed "
                            "since it was trained, so it would play badly; retrain it (tilecraft train)")
    if net.players != players:
        raise BaselineError(f"{where}: its value head has {net.players} seats, not {players}")


_cache: Dict[Tuple[str, int, int, str, int, Optional[str]], Network] = {}
_cache_lock = threading.Lock()
_meta_cache: Dict[Tuple[str, int, int], Dict[str, Any]] = {}


def _shipped() -> List[pathlib.Path]:
    return sorted(HERE.glob("*.npz"))


def available() -> List[Dict[str, Any]]:
    """The shipped baselines: one dict per file with game, players (a list), mode, path, size (bytes),
    the metadata's training summary (games, rows) and the file's preset settings (search: what
    ``baseline`` uses with it over the presets' defaults unless its spec says otherwise;
    tilecraft/presets.json)."""
    from .. import presets

    preset = {pathlib.Path(e["network"]).name: e["search"] for e in presets.networks()}
    out = []
    for p in _shipped():
        st = p.stat()
        key = (str(p), st.st_mtime_ns, st.st_size)
        with _cache_lock:
            m = _meta_cache.get(key)
        if m is None:  # read once per file version: the play server asks on every request
            m = _read(str(p)).meta
            with _cache_lock:
                _meta_cache[key] = m
        out.append(dict(game=m["game"], players=m["players"] if isinstance(m["players"], list) else [m["players"]],
                        mode=m["mode"], path=str(p), size=st.st_size, games=m.get("games"), rows=m.get("rows"),
                        search=dict(preset.get(p.name, {}))))
    return out


def _default_mode(game: str, players: int) -> Optional[str]:
    spec = _spec(game)
    if spec.baseline_mode is None:
        return None
    return spec.baseline_mode(_state_for(game, players, None))


def load(game: str, players: int = 2, mode: Optional[str] = None, path: Optional[str] = None) -> Network:
    """The baseline network for ``game`` with ``players`` seats in ``mode`` (None: the game's default
    mode for that count; only games with modes, Gaudí's 'basic' and 'expert', take one), or the
    network in the file ``path``, checked against that configuration. Cached per process."""
    if not isinstance(game, str):
        raise BaselineError(f"game must be a game name, got {game!r}")
    _state_for(game, players, mode)  # checks the game, the player count and the mode
    players = int(players)
    if mode is None:
        mode = _default_mode(game, players)
    if path is None:
        candidates = [a["path"] for a in available()
                      if a["game"] == game and players in a["players"] and (a["mode"] or None) == (mode or None)]
        if not candidates:
            have = [f"{a['game']} {'/'.join(map(str, a['players']))}p" + (f" {a['mode']}" if a["mode"] else "")
                    for a in available()]
            raise BaselineError(f"no baseline for {game}, {players} players" + (f", mode {mode!r}" if mode else "")
                                + f"; the shipped baselines are: {', '.join(have) or 'none'} "
                                "(tilecraft train makes one; load(..., path=FILE) loads it)")
        path = str(candidates[0])
    path = os.fspath(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise BaselineError(f"{path}: no such file") from None
    except OSError as e:
        raise BaselineError(f"{path}: cannot read it: {e.strerror or e}") from None
    key = (os.path.realpath(path), st.st_mtime_ns, st.st_size, game, players, mode)
    with _cache_lock:
        net = _cache.get(key)
    if net is None:
        net = _read(path)
        _check_for(net, game, players, mode)
        with _cache_lock:
            _cache[key] = net
    return net


def for_state(state: Any, path: Optional[str] = None) -> Network:
    """The baseline for a state's game, player count and mode (what the baseline bots load on their
    first move)."""
    return load(type(state).game_name, state.num_players(), mode_of(state), path)


def describe(nets: Optional[Sequence[Dict[str, Any]]] = None) -> str:
    """The table ``tilecraft baselines`` prints: the presets' defaults for ``baseline``, then every
    shipped network with its own preset settings."""
    from .. import presets

    rows = nets if nets is not None else available()

    def settings(search: Dict[str, Any]) -> str:
        return ",".join(f"{k}={v}" if isinstance(v, str) else f"{k}={v:g}" for k, v in sorted(search.items())) or "-"

    shown = [settings(a.get("search") or {}) for a in rows]
    width = max([len("search")] + [len(x) for x in shown])
    lines = [f"baseline searches with {settings(presets.load()['baseline']['defaults'])}, then each network's own "
             f"(search; {presets.PATH.name}), then its spec's options", "",
             f"{'game':8} {'players':8} {'mode':7} {'size':>9} {'games':>7} {'rows':>9}  {'search':{width}}  path"]
    for a, search in zip(rows, shown):
        lines.append(f"{a['game']:8} {'/'.join(map(str, a['players'])):8} {str(a['mode'] or '-'):7} "
                     f"{a['size']:>9,} {a.get('games') or '-':>7} {a.get('rows') or '-':>9}  {search:{width}}  {a['path']}")
    return "\n".join(lines)
