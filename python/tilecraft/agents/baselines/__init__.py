"""Trained baseline networks, shipped with tilecraft (see docs/search.md and docs/tournaments.md).

>>> import tilecraft
>>> net = tilecraft.baselines.load("azul", players=2)       # an evaluator (docs/search.md)
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

import os
import pathlib
import threading
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ... import _core
from .. import model
from .files import FORMAT, FORMAT_VERSION, BaselineError, read, save

MAX_BYTES = 2 * 1024 * 1024  # a shipped file's cap (tests/test_baselines.py checks every shipped file)
HERE = pathlib.Path(__file__).resolve().parent

__all__ = ["BaselineError", "Network", "load", "available", "save", "layout_of", "mode_of", "FORMAT", "FORMAT_VERSION"]


# ---- which configuration a state or a request is ----

def _spec(game: str) -> Any:
    from ...games import UnknownGameError, game_spec

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
    from ...games import make

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
    tilecraft/agents/presets.json)."""
    from .. import presets

    preset = {pathlib.Path(e["network"]).name: e["search"] for e in presets.networks()}
    out = []
    for p in _shipped():
        st = p.stat()
        key = (str(p), st.st_mtime_ns, st.st_size)
        with _cache_lock:
            m = _meta_cache.get(key)
        if m is None:  # read once per file version: the play server asks on every request
            m = read(str(p))[1]
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
        net = Network(*read(path), path=str(path))
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
