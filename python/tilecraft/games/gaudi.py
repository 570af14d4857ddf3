"""Gaudí, basic (day) and expert (night) modes for 2-4 players (spec: docs/rules/gaudi.md; docs/gaudi.md).

Component data is the normalized edition returned by ``tilecraft.games._gaudi_data.load_edition``
(the JSON files of ``tilecraft/data/gaudi`` by default, or of the directory given by ``data``).
``edition_to_core`` turns that dict into the C++ config (field names = ``Config::visit``).
Tests and tools may also register an already-normalized edition under a name with
``register_edition(name, edition)`` and pass ``data=name``."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from .. import _core
from .._core import InvalidConfigError
from . import GameSpec, Option, _vocab

T_MAX, B_MAX, E_USED = 48, 64, 40

# Action ids (spec §11.2): each kind's range is declared once, in cpp/gaudi/state.hpp, and read
# here from GaudiState.action_ranges() (games/_vocab.py). The module's id constants are names
# of those first ids, computed on first use (module __getattr__); the phases are
# GaudiState.phase_names().
_FIRST_ID_NAMES = {
    "MOVE_BASE": "move", "CENTRAL_AREA": "move_central", "PENCILS": "pencils", "HAMMERS": "hammers",
    "TAKE_TILE_BASE": "take_tile", "PLACE_BASE": "place", "TAKE_CARD_BASE": "take_card", "PLAY_BASE": "play_card",
    "DISCARD_BASE": "discard_card", "ADVANCE_BASE": "advance", "CENTRAL_A": "central_a", "CENTRAL_B": "central_b",
    "RESOLVE_BASE": "resolve", "TARGET_BASE": "target_card", "CATEGORY_BASE": "category", "DONE": "done",
}


def __getattr__(name: str) -> Any:
    if name in _FIRST_ID_NAMES:
        return _vocab.first_id("gaudi", _FIRST_ID_NAMES[name])
    if name == "NUM_ACTIONS":
        return _vocab.num_actions("gaudi")
    if name == "PHASES":
        return _core.GaudiState.phase_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _id(kind: str, offset: int) -> int:
    return _vocab.first_id("gaudi", kind) + offset


def take_tile(area: int, colour: int, shape: int) -> int:
    return _id("take_tile", 16 * area + 4 * colour + shape)


def place(space: int) -> int:
    return _id("place", space)


def take_card(card: int) -> int:
    return _id("take_card", card)


def play(card: int) -> int:
    return _id("play_card", card)


def discard(card: int) -> int:
    return _id("discard_card", card)


def advance(domain: int) -> int:
    return _id("advance", domain)


def resolve(entry: int) -> int:
    return _id("resolve", entry)


def target(card: int) -> int:
    return _id("target_card", card)


_EDITIONS: Dict[str, Dict[str, Any]] = {}


def register_edition(name: str, edition: Dict[str, Any]) -> None:
    """Makes an already-normalized edition dict available as ``data=name`` (tests, tools)."""
    _EDITIONS[name] = edition


def _load(data: str) -> Dict[str, Any]:
    if data in _EDITIONS:
        return _EDITIONS[data]
    from ._gaudi_data import edition_for  # the loader (schema + cross-field checks), cached per directory

    return edition_for(None if data == "default" else data)


def _effects(lst: Optional[List[Any]], cap: int, where: str) -> List[List[int]]:
    lst = list(lst or [])
    if len(lst) > cap:
        raise InvalidConfigError(f"gaudi: {where}: at most {cap} effects, got {len(lst)}")
    out = [[int(e), int(a)] for e, a in lst]
    return out + [[-1, 0]] * (cap - len(out))


def edition_to_core(players: int, options: Dict[str, Any], ed: Dict[str, Any]) -> Dict[str, Any]:
    """The C++ config dict from validated options and a normalized edition."""
    b = ed["board"]
    n = len(b["shape"])
    if not 1 <= n <= B_MAX:
        raise InvalidConfigError(f"gaudi: the board must have 1..64 spaces, got {n}")
    nbr = []
    for i, ns in enumerate(b["neighbours"]):
        m = 0
        for j in ns:
            m |= 1 << int(j)
        nbr.append(m)
    core: Dict[str, Any] = {
        "players": players, "mode": 1 if options.get("mode") == "expert" or players == 1 else 0, "explicit_chance": 1 if options["chance"] == "explicit" else 0,
        "first_player": options["first_player"], "returns_mode": 1 if options["returns_mode"] == "win_loss" else 0,
        "generic_distinct": int(options["generic_distinct"]),
        "early_religion_rescored": int(options["early_religion_rescored"]),
        "finished_markers_block_leader": int(options["finished_markers_block_leader"]),
        "solo": 1 if players == 1 else 0,
        "difficulty": DIFFICULTIES.index(options.get("difficulty", "normal")) if players == 1 else 0,
        "board_n": n, "board_shape": [int(s) for s in b["shape"]] + [0] * (B_MAX - n),
        "board_nbr": nbr + [0] * (B_MAX - n),
        "nature_reward": _effects(b["nature_reward"], 3, "nature_reward"),
        "catalan_reward": _effects(b["catalan_reward"], 3, "catalan_reward"),
    }
    tn, act, pen, ham, red, entry, abon, wbon = [], [], [], [], [], [], [], []
    for face in ("day", "night"):
        f = ed["track"].get(face)
        if not f:
            f = {"action": [], "pencils": [], "hammers": [], "red": [], "entry": [0, 0, 0, 0],
                 "area_bonus": [None] * 5, "window_bonus": [None] * 3}
        k = len(f["action"])
        if k > T_MAX:
            raise InvalidConfigError(f"gaudi: track {face}: at most 48 spaces, got {k}")
        pad = [0] * (T_MAX - k)
        tn.append(k)
        act.append([int(x) for x in f["action"]] + pad)
        pen.append([int(x) for x in f["pencils"]] + pad)
        ham.append([int(x) for x in f["hammers"]] + pad)
        red.append([int(bool(x)) for x in f["red"]] + pad)
        entry.append([int(x) for x in f["entry"]])
        abon.append([list(map(int, e)) if e else [-1, 0] for e in f["area_bonus"]])
        wbon.append([list(map(int, e)) if e else [-1, 0] for e in f["window_bonus"]])
    core.update(track_n=tn, track_action=act, track_pencils=pen, track_hammers=ham, track_red=red, track_entry=entry,
                area_bonus=abon, window_bonus=wbon)
    cards = ed["cards"]
    if len(cards) != 99:
        raise InvalidConfigError(f"gaudi: 99 cards needed, got {len(cards)}")
    core["card_domain"] = [c["domain"] for c in cards]
    core["card_category"] = [c["category"] for c in cards]
    core["card_req_colour"] = [c["req_colour"] for c in cards]
    core["card_req_n"] = [c["req_n"] for c in cards]
    core["card_banner"] = [_effects(c["banner"], 4, f"card {i} banner") for i, c in enumerate(cards)]
    rel = [c.get("religion") for c in cards]
    core["card_rel_vp"] = [r["vp"] if r else 0 for r in rel]
    core["card_rel_threshold"] = [r["threshold"] if r else 0 for r in rel]
    core["card_rel_count"] = [list(r["count"]) if r else [-1, 0] for r in rel]
    core["card_automa_vp"] = [c.get("automa_vp", 0) for c in cards]
    chims = ed["chimneys"]
    if len(chims) != 12:
        raise InvalidConfigError(f"gaudi: 12 chimney tiles needed, got {len(chims)}")

    def face_arrays(spaces):
        k = len(spaces)
        if k > 6:
            raise InvalidConfigError("gaudi: a chimney face has at most 6 spaces")
        pad = 6 - k
        shape = [s["req_shape"] for s in spaces] + [0] * pad
        req = [s["req_n"] for s in spaces] + [0] * pad
        rew = [_effects(s["reward"], 3, "chimney reward") for s in spaces] + [[[-1, 0]] * 3] * pad
        end = [list(s["end"]) if s.get("end") else [-1, 0, 0, 0, 0] for s in spaces] + [[-1, 0, 0, 0, 0]] * pad
        trig, eff = [], []
        for s in spaces:
            a = s.get("ability")
            trig.append(list(a["trigger"]) if a else [-1, 0])
            eff.append(_effects(a["effects"] if a else [], 4, "ability"))
        trig += [[-1, 0]] * pad
        eff += [[[-1, 0]] * 4] * pad
        return k, shape, req, rew, end, trig, eff

    fields = {k: [] for k in ("chim_domain", "chim_n", "chim_req_shape", "chim_req_n", "chim_reward", "chim_end",
                                 "chim_ability_trigger", "chim_ability_effects")}
    for t in chims:
        fields["chim_domain"].append(t["domain"])
        per = [face_arrays(t.get(face) or []) for face in ("day", "night")]
        fields["chim_n"].append([p[0] for p in per])
        for i, name in enumerate(("chim_req_shape", "chim_req_n", "chim_reward", "chim_end", "chim_ability_trigger",
                                  "chim_ability_effects"), start=1):
            fields[name].append([p[i] for p in per])
    core.update(fields)
    ch = ed["chandeliers"]
    if len(ch) != 7:
        raise InvalidConfigError(f"gaudi: 7 central chandelier tiles needed, got {len(ch)}")
    core["chandelier"] = [[_effects(t["a"], 4, f"chandelier {i} a"), _effects(t["b"], 4, f"chandelier {i} b")]
                          for i, t in enumerate(ch)]
    return core


def _first_player_check(value: int, players: int):
    if players == 1:
        return None if value == 0 else "must be 0 in solo play (the solo player starts round 1, GA-SOLO-5)"
    return None if -1 <= value < players else f"must be -1 (random) or 0..{players - 1}"


DIFFICULTIES = ("easy", "normal", "hard", "crazy")


def _mode_check(value: str, players: int):
    if players == 1 and value == "basic":
        return "solo play (players=1) must use expert mode: give mode='expert' or leave it out (GA-SCOPE-3)"
    return None


def _difficulty_check(value: str, players: int):
    if players != 1 and value != "normal":
        return f"difficulty applies to solo play only (players=1); with {players} players leave it out"
    return None


def _data_check(value: str, players: int):
    if not value:
        return "must be 'default' or a directory path"
    return "holds a NUL character; give 'default' or a directory path" if "\0" in value else None


def data_key(values: Dict[str, Any]) -> Any:
    """GameSpec.data_key: the stamps of the edition's six files; None (nothing cached) for a
    registered edition (a dict that may change) or a file that cannot be stat'ed."""
    if values["data"] in _EDITIONS:
        return None
    from ._gaudi_data import edition_key

    return edition_key(None if values["data"] == "default" else values["data"])


OPTIONS = (
    Option("data", "default", "component data: 'default' (the reconstruction shipped with tilecraft) or a directory "
           "holding the six JSON files [GA-DATA-*]", kind=str, check=_data_check,
           allowed_text="'default' or a directory path"),
    Option("mode", "auto", "rule mode: 'basic' (day side) or 'expert' (night side: 4 tiles per area, random night "
           "chimney tiles, the start-card draft, no discards, group requirements, expert scoring); 'auto' is basic for "
           "2-4 players and expert for solo (players=1), which allows only 'expert' or 'auto' [GA-SCOPE-2/3, GA-EXP-*]",
           choices=("auto", "basic", "expert"), check=_mode_check, allowed_text="'auto', 'basic' or 'expert' "
           "(solo, players=1: 'auto' or 'expert')"),
    Option("difficulty", "normal", "solo (players=1) only: the Gaudí automa's difficulty, 'easy', 'normal', 'hard' or "
           "'crazy' (3, 2, 1, 0 cards removed per column; x3, x3, x3, x4) [GA-SOLO-4, GA-SOLO-END-2/3]",
           choices=DIFFICULTIES, check=_difficulty_check,
           allowed_text="'easy', 'normal', 'hard' or 'crazy' (solo only; other player counts: 'normal')"),
    Option("chance", "sampled", "'sampled': chance drawn inside apply from the state's RNG; 'explicit': chance "
           "nodes (tile draws, card reveals, deals, central tiles, first player) [§11.3]",
           choices=("sampled", "explicit")),
    Option("first_player", 0, "start player seat, or -1 for a random one drawn at a chance node [GA-AMB-26]",
           kind=int, check=_first_player_check, allowed_text="-1 or 0..players-1"),
    Option("returns_mode", "score", "'score': returns are the final scores; 'win_loss': 1/k for each of k co-winners "
           "[GA-AMB-38]", choices=("score", "win_loss")),
    Option("generic_distinct", True, "uses of one generic space must be different action types [GA-AMB-13]",
           choices=(False, True), kind=bool),
    Option("early_religion_rescored", True, "a Religion card resolved early scores again at the end [GA-AMB-32]",
           choices=(False, True), kind=bool),
    Option("finished_markers_block_leader", False, "once someone has finished, nobody on the track leads [GA-AMB-9]",
           choices=(False, True), kind=bool),
)


def _to_core(players: int, o: Dict[str, Any]) -> Dict[str, Any]:
    return edition_to_core(players, o, _load(o["data"]))


def observation_groups(state: Any) -> List[Dict[str, int]]:
    """The observation's feature groups (tilecraft.baselines): the 12 location values of each of the
    99 cards, and the 4 seat blocks of 266 values (the observation's last two parts). The global,
    track and supply values go straight into the trunk."""
    seats = int(state.observation_shape()[0]) - 4 * 266
    return [dict(offset=seats - 99 * 12, count=99, width=12, block_stride=12, feature_stride=1, embed=8),
            dict(offset=seats, count=4, width=266, block_stride=266, feature_stride=1, embed=64)]


SPEC = GameSpec(
    name="gaudi",
    title="Gaudí",
    state_class=_core.GaudiState,
    players=(1, 2, 3, 4),
    options=OPTIONS,
    to_core=_to_core,
    playouts=_core.gaudi_random_playouts,
    doc="Move around the chandelier track, collect trencadís tiles and inspiration cards, balance three domains "
        "(Dani Garcia, 2026). Basic (day) and expert (night) modes; solo (players=1) against the Gaudí automa.",
    perfect_information=False,  # the starting cards in hand (GA-ORDER-5)
    # A turn is several atomic decisions (move, mode, uses, placements, frames): rollouts of 8 player
    # actions (about two turns) beat the default 4 head to head (docs/gaudi.md, "Search defaults").
    returns_range={"win_loss": (-1.0, 1.0), "score": (-30000.0, 30000.0)},
    data_key=data_key,
    # the baselines are per rule mode: basic (day) or expert (night, solo included) (tilecraft.baselines)
    baseline_mode=lambda state: "expert" if state.expert() else "basic",
    observation_groups=observation_groups,
    # the conformance configurations (GameSpec.test_configs) on the default edition; the test edition's
    # full matrix is in tests/gaudi/test_gaudi_*conformance.py
    test_configs=((2, {}), (1, {"difficulty": "easy"}), (3, {"chance": "explicit"}), (4, {}),
                  (4, {"mode": "expert", "chance": "explicit", "first_player": -1}),
                  (1, {"difficulty": "crazy", "chance": "explicit"})),
)
