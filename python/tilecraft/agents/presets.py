"""The search presets: how each search bot searches unless its spec says otherwise, in one
schema-checked text file, ``tilecraft/agents/presets.json`` (``presets.schema.json`` beside it).

- ``mcts``: the settings MCTSBot and ISMCTSBot leave unset (``defaults``), and each game's own where
  they differ (``games``): Warsaw's and Gaudí's longer rollouts.
- ``baseline``: the PUCT settings of the ``baseline`` bot (``defaults``), and for every shipped
  network (a game, a player count and, for Gaudí, a mode) its file in ``tilecraft/agents/baselines/`` and
  its own settings (``search``). A network file holds weights and how they were made, never how to
  search with it: retuning a baseline is a one-line change here. A network of the user's own
  (``baseline:path=FILE``) plays with its configuration's preset unless the spec overrides it.

The option names and values are checked by the search configurations themselves (C++, through
PUCTBot and MCTSBot), so an error names the file, the JSON path and the option's range.
``tilecraft baselines`` prints the baseline table.
"""
from __future__ import annotations

import pathlib
import threading
from typing import Any, Dict, List, Optional

from ..games import _schema

HERE = pathlib.Path(__file__).resolve().parent
PATH = HERE / "presets.json"
SCHEMA = HERE / "presets.schema.json"

__all__ = ["PresetError", "load", "mcts_defaults", "baseline", "networks", "PATH"]


class PresetError(ValueError):
    """A presets file that is not what the schema or the search configurations allow."""


_lock = threading.Lock()
_loaded: Dict[str, Dict[str, Any]] = {}


def load(path: Optional[str] = None) -> Dict[str, Any]:
    """The presets file (the shipped one by default), checked: its schema, then every setting by the
    bot that takes it. Cached per path."""
    where = str(path or PATH)
    with _lock:
        if where in _loaded:
            return _loaded[where]
    label = pathlib.Path(where).name
    try:
        data = _schema.read_json(where, "tilecraft", label)
        _schema.validate("tilecraft", data, str(SCHEMA), label)
    except ValueError as e:
        raise PresetError(str(e)) from None
    _check(data, label)
    with _lock:
        _loaded[where] = data
    return data


def _check(data: Dict[str, Any], label: str) -> None:
    """Every section's settings as its bot takes them (the C++ configurations check the values)."""
    from .search_options import check_mcts, check_puct

    def check(checker: Any, settings: Dict[str, Any], at: str, who: str) -> None:
        for key in settings:
            try:
                checker({key: settings[key]}, who)
            except (TypeError, ValueError) as e:
                raise PresetError(f"tilecraft {label}: {at}.{key}: {e}") from None

    check(check_mcts, data["mcts"]["defaults"], "$.mcts.defaults", "MCTSBot")
    for game, settings in data["mcts"]["games"].items():
        check(check_mcts, settings, f"$.mcts.games.{game}", "MCTSBot")
    check(check_puct, data["baseline"]["defaults"], "$.baseline.defaults", "PUCTBot")
    seen = set()
    for i, entry in enumerate(data["baseline"]["networks"]):
        at = f"$.baseline.networks[{i}]"
        key = (entry["game"], entry["players"], entry.get("mode"))
        if key in seen:
            raise PresetError(f"tilecraft {label}: {at}: a second preset for {_name(*key)}")
        seen.add(key)
        check(check_puct, entry["search"], f"{at}.search", "PUCTBot")
        try:  # the settings together (worlds at most simulations, ...)
            check_puct(dict(data["baseline"]["defaults"], **entry["search"]))
        except ValueError as e:
            raise PresetError(f"tilecraft {label}: {at}.search: {e}") from None


def _name(game: str, players: int, mode: Optional[str]) -> str:
    return f"{game}, {players} players" + (f", mode {mode!r}" if mode else "")


def mcts_defaults(game: Optional[str]) -> Dict[str, Any]:
    """The MCTS / ISMCTS settings for ``game`` (None or a game without its own: the defaults)."""
    m = load()["mcts"]
    return dict(m["defaults"], **(m["games"].get(game, {}) if game else {}))


def networks() -> List[Dict[str, Any]]:
    """Every shipped network's preset: game, players, mode (None without modes), network (the file's
    path) and search (its settings over the baseline defaults)."""
    return [dict(game=e["game"], players=e["players"], mode=e.get("mode"), network=str(HERE / "baselines" / e["network"]),
                 search=dict(e["search"])) for e in load()["baseline"]["networks"]]


def baseline(game: str, players: int, mode: Optional[str]) -> Dict[str, Any]:
    """The baseline bot's PUCT settings for a configuration: the defaults, then its network's own
    (a configuration without a shipped network: the defaults alone)."""
    out = dict(load()["baseline"]["defaults"])
    for e in networks():
        if (e["game"], e["players"], e["mode"] or None) == (game, players, mode or None):
            out.update(e["search"])
    return out
