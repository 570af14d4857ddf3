"""Helpers for the Gaudí rule tests of the "score" share (actions, cards, columns, scoring).

Every fixture is the spec's placeholder edition (tests/gaudi/gaudi_placeholder.py: GA-AMB-1..7),
optionally edited, and loaded through the real loader (schema and cross-field checks); it is then
registered under a fresh name. Positions are built through the saved-state format
(``d = state.to_dict()``, edit ``d["state"]``, ``type(state).from_dict(d)``), which runs
``validate()`` on every edited state.

Placeholder facts used throughout (spec GA-AMB-1..3, GA-AMB-7):

- track: 24 spaces, colours enter at 0..3, spaces 20..23 red; actions by i % 5: tile-any,
  card-any, tile of colour (i // 5) % 4, card of domain (i // 5) % 3, generic; (pencils, hammers)
  by i % 5: (1,0), (0,1), (1,1), (2,0), (0,2);
- board: 6x6, space b = 6y + x has shape (x + 2y) % 4 and edge neighbours only;
  Nature and Catalan column rewards +1 VP in that domain;
- cards: id i has domain i // 33, category i % 10 (9 = Gaudí's life), requirement colour i % 5
  (4 = black) x 1; Nature / Catalan banners +1 VP in the domain; Religion: 1 VP per card of
  category i % 9;
- chimneys: 2 spaces each: (s0 x 1: +1 VP in the domain), (s1 x 2: +2 VP); the Catalan 2nd space
  has end_vp(catalan, 3);
- chandeliers: a = resolve the Catalan column once, b = 2 Nature VP.
"""
from __future__ import annotations

import itertools
import json
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

import pytest

import tilecraft
from gaudi_placeholder import placeholder_edition
from tilecraft.games import _gaudi_data as D
from tilecraft.games import gaudi as G

NOCARD = 255
N, C, R = 0, 1, 2
DOMAINS = ("nature", "catalan", "religion")
# phase ids, from the engine's phase names (GaudiState.phase_names())
MOVE, MODE, USES, PLACE, DISCARD, FRAME, ITEM, TARGET, CENTRAL, OVER = (
    tilecraft.GaudiState.phase_names().index(name) for name in (
        "moving", "choosing pencils or hammers", "using actions", "placing a tile", "discarding", "resolving rewards",
        "carrying out a reward", "choosing a Religion card", "central area", "game over"))
# reward catalogue entries (spec §11.2)
E_TILE_ANY, E_CARD_N, E_CARD_C, E_CARD_R, E_CARD_ANY = 24, 25, 26, 27, 28
E_PLAY, E_PLAY_FREE, E_NATURE, E_CATALAN, E_RELIGION, E_GENERIC, E_ADVANCE, E_EXTRA = 29, 30, 31, 32, 33, 34, 35, 36

_names = itertools.count()


def vp(domain: str, n: int) -> Dict[str, Any]:
    return {"type": "vp", "domain": domain, "n": n}


def shape_of(b: int) -> int:
    """The placeholder board's shape of space b (GA-AMB-3)."""
    x, y = b % 6, b // 6
    return (x + 2 * y) % 4


def spaces_of_shape(s: int) -> List[int]:
    return [b for b in range(36) if shape_of(b) == s]


def edition(edit: Optional[Callable[[Dict[str, Any]], None]] = None) -> str:
    """The placeholder edition's JSON documents, edited in place by ``edit(docs)``, loaded by the
    loader and registered; returns the name to pass as ``data``."""
    docs = placeholder_edition()
    if edit is not None:
        edit(docs)
    ed = D.load_edition(None, **docs)
    name = f"score-fixture-{next(_names)}"
    G.register_edition(name, ed)
    return name


def make(players: int = 2, edit: Optional[Callable[[Dict[str, Any]], None]] = None, seed: int = 0, **options: Any):
    """A new game on the (edited) placeholder edition, at seat 0's first MOVE of round 1."""
    return tilecraft.make("gaudi", players=players, seed=seed, data=edition(edit), **options)


# ---------------------------------------------------------------- edits of the placeholder JSON

def set_space(docs, i: int, action: Optional[Dict[str, Any]] = None, pencils: Optional[int] = None,
              hammers: Optional[int] = None, red: Optional[bool] = None):
    """Edits day track space i."""
    sp = docs["track"]["day"]["spaces"][i]
    if action is not None:
        sp["action"] = action
    if pencils is not None:
        sp["pencils"] = pencils
    if hammers is not None:
        sp["hammers"] = hammers
    if red is not None:
        sp["red"] = red


def set_card(docs, i: int, **fields):
    """Edits card i: requirement=(colour name or 'black', n), banner=[...], category=..., religion=..."""
    card = next(c for c in docs["cards"]["cards"] if c["id"] == i)
    if "requirement" in fields:
        colour, n = fields.pop("requirement")
        card["requirement"] = {"colour": colour, "n": n}
    card.update(fields)


def set_chimney_day(docs, domain: str, spaces: List[Dict[str, Any]]):
    """Replaces the day face of every chimney tile of a domain (the 4 day faces stay identical)."""
    for t in docs["chimneys"]["tiles"]:
        if t["domain"] == domain:
            t["day"] = {"spaces": json.loads(json.dumps(spaces))}


def chimney_space(shape: str, n: int, reward: Sequence[Dict[str, Any]] = (), end: Optional[Dict[str, Any]] = None):
    sp: Dict[str, Any] = {"requirement": {"shape": shape, "n": n}, "reward": list(reward)}
    if end is not None:
        sp["end_effect"] = end
    return sp


# ---------------------------------------------------------------- positions

def position(state, *, current: Optional[int] = None, boards: Optional[Dict[int, Dict[int, int]]] = None,
             hands: Optional[Dict[int, Sequence[int]]] = None, columns: Optional[Dict[int, Sequence[Sequence[int]]]] = None,
             windows: Optional[Sequence[Sequence[int]]] = None, areas: Optional[Sequence[Dict[int, int]]] = None,
             scores: Optional[Dict[int, Sequence[int]]] = None, chimneys: Optional[Dict[int, Sequence[int]]] = None,
             markers: Optional[Dict[int, int]] = None, discards: Sequence[int] = (), round: Optional[int] = None,
             anyone_finished: Optional[bool] = None, deck_only: Optional[Dict[int, Sequence[int]]] = None):
    """A copy of ``state`` (at a MOVE decision) with the given parts replaced.

    boards: seat -> {space: colour} (the whole board); hands: seat -> card ids; columns: seat ->
    [N, C, R] card ids bottom first; windows: [N, C, R] card ids in reveal order; areas: 5 dicts
    {tile type 4c + s: count}; scores / chimneys: seat -> (N, C, R); markers: marker (seat, 4 =
    virtual) -> track index (-1 not entered, 48 left); discards: card ids face up out of the game;
    deck_only: domain -> the only card ids left in its deck (the domain's other unplaced cards are
    discarded: a nearly or fully exhausted deck, GA-HAND-2).
    A card put in a hand or a column leaves its window (when windows are not given). Cards not
    placed anywhere stay in (or return to) their deck; the bag holds the tiles not on
    a board or in an area. Starting cards become ordinary (public) hand cards."""
    d = state.to_dict()
    s = d["state"]
    cfg = d["config"]
    players = cfg["players"]
    dom = cfg["card_domain"]
    assert s["phase"] == MOVE, "position() starts from a MOVE decision"
    if current is not None:
        s["current"] = current
        s["turn_index"] = (current - s["start_player"]) % players
    if round is not None:
        s["round"] = round
        s["central_used"] = (1 << round) - 1
        s["central_tile"] = round - 1
    if anyone_finished is not None:
        s["anyone_finished"] = int(anyone_finished)
    if markers:
        for m, x in markers.items():
            s["position"][m] = x
    # cards: everything listed is placed, everything else returns to its deck
    placed = set()
    if hands is not None:
        for p in range(4):
            s["hand"][p] = [NOCARD] * 5
            s["hand_n"][p] = 0
            s["start_card"][p] = NOCARD
        for p, h in hands.items():
            s["hand"][p] = list(h) + [NOCARD] * (5 - len(h))
            s["hand_n"][p] = len(h)
    if columns is not None:
        for p in range(4):
            s["column"][p] = [[NOCARD] * 33 for _ in range(3)]
            s["column_n"][p] = [0, 0, 0]
        for p, cols in columns.items():
            for k in range(3):
                col = list(cols[k]) if k < len(cols) else []
                assert all(dom[c] == k for c in col), f"column {k} holds a card of another domain"
                s["column"][p][k] = col + [NOCARD] * (33 - len(col))
                s["column_n"][p][k] = len(col)
    if windows is not None:
        for k in range(3):
            w = list(windows[k])
            assert all(dom[c] == k for c in w)
            s["window"][k] = w + [NOCARD] * (3 - len(w))
            s["window_n"][k] = len(w)
    held = {c for p in range(4) for c in s["hand"][p][:s["hand_n"][p]]}
    held |= {c for p in range(4) for k in range(3) for c in s["column"][p][k][:s["column_n"][p][k]]}
    for k in range(3):  # a card put in a hand or a column leaves the window it was in
        w = [c for c in s["window"][k][:s["window_n"][k]] if c not in held]
        s["window"][k] = w + [NOCARD] * (3 - len(w))
        s["window_n"][k] = len(w)
    for p in range(4):
        for c in s["hand"][p][:s["hand_n"][p]]:
            placed.add(c)
            s["card_loc"][c], s["card_owner"][c] = tilecraft.GaudiState.locations()["hand"], p
        for k in range(3):
            for c in s["column"][p][k][:s["column_n"][p][k]]:
                placed.add(c)
                s["card_loc"][c], s["card_owner"][c] = tilecraft.GaudiState.locations()["column"], p
    for k in range(3):
        for c in s["window"][k][:s["window_n"][k]]:
            placed.add(c)
            s["card_loc"][c], s["card_owner"][c] = tilecraft.GaudiState.locations()["window"], k
    for c in s["pool"][:s["pool_n"]]:
        placed.add(c)
    out = set(discards)
    for k, keep in (deck_only or {}).items():
        out |= {c for c in range(99) if dom[c] == k and c not in keep}
    for c in range(99):
        if c in placed:
            continue
        if c in out:
            s["card_loc"][c], s["card_owner"][c] = tilecraft.GaudiState.locations()["discard"], 0
        else:
            s["card_loc"][c], s["card_owner"][c] = tilecraft.GaudiState.locations()["deck"], dom[c]
    # tiles
    if boards is not None:
        for p in range(4):
            s["colour"][p] = [0, 0, 0, 0]
        for p, b in boards.items():
            for space, colour in b.items():
                s["colour"][p][colour] |= 1 << space
    if areas is not None:
        s["area"] = [[a.get(t, 0) for t in range(16)] for a in areas]
    used = [0] * 16
    for p in range(4):
        for c in range(4):
            for b in range(36):
                if (s["colour"][p][c] >> b) & 1:
                    used[4 * c + shape_of(b)] += 1
    for a in s["area"]:
        for t in range(16):
            used[t] += a[t]
    s["bag"] = [6 - u for u in used]
    assert min(s["bag"]) >= 0, f"more than 6 tiles of a type: {used}"
    if scores:
        for p, v in scores.items():
            s["score"][p] = list(v)
    if chimneys:
        for p, v in chimneys.items():
            s["chimney"][p] = list(v)
    d["seed"] = None  # a hand-built position: its history no longer follows from the seed
    return type(state).from_dict(d)


def board_from_rows(rows: Sequence[str]) -> Dict[int, int]:
    """A board from 6 strings of 6 characters: '.' empty, '0'..'3' a tile of that colour."""
    out = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch != ".":
                out[6 * y + x] = int(ch)
    return out


def fill(spaces: Iterable[int], colour: int) -> Dict[int, int]:
    return {b: colour for b in spaces}


def apply_all(state, *actions):
    for a in actions:
        state.apply(int(a))
    return state


def legal(state) -> List[int]:
    return [int(a) for a in state.legal_actions()]


def rejected(state, action: int):
    """Asserts that ``action`` raises IllegalActionError and leaves the state unchanged."""
    before = state.to_json()
    with pytest.raises(tilecraft.IllegalActionError):
        state.apply(int(action))
    assert state.to_json() == before
    assert int(action) not in legal(state)


def finish_game(state, option: int = G.CENTRAL_B):
    """From a round-3 MOVE of the last seat on the track: move to the central area, take one
    central option, and let the game end (GA-END-2). Returns the terminal state."""
    state.apply(G.CENTRAL_AREA)
    if state.phase() == CENTRAL:
        state.apply(option)
    while state.phase() == CENTRAL:  # a first arrival may decline the other option
        state.apply(G.DONE)
    assert state.is_terminal(), state.phase()
    return state


def endgame(players: int = 2, edit=None, *, seat: int = 0, **parts):
    """A round-3 position where every other seat has left the board and ``seat`` is to move; the
    parts are those of ``position``. Someone has already finished, so ``finish_game`` takes one
    central option (GA-CHAN-3)."""
    s = make(players, edit)
    markers = {m: 48 for m in range(players)}
    markers[seat] = -1
    if players == 2:
        markers[4] = 48
    return position(s, current=seat, round=3, anyone_finished=True, markers=markers, **parts)


CHECKER = [b for b in range(36) if (b % 6 + b // 6) % 2 == 0]  # no two share an edge
OFF_CHECKER = [b for b in range(36) if (b % 6 + b // 6) % 2 == 1]


def tiles(counts: Dict[int, int], avoid: Iterable[int] = ()) -> Dict[int, int]:
    """A board with counts[colour] tiles of each colour, placed on the checkerboard spaces first
    (pairwise not edge-adjacent), then on the others, at most 6 tiles of a (colour, shape) type."""
    taken = set(avoid)
    per_type = [0] * 16
    out: Dict[int, int] = {}
    for colour, n in counts.items():
        for b in CHECKER + OFF_CHECKER:
            if n == 0:
                break
            t = 4 * colour + shape_of(b)
            if b in taken or per_type[t] >= 6:
                continue
            out[b] = colour
            taken.add(b)
            per_type[t] += 1
            n -= 1
        assert n == 0, "no room for the tiles"
    return out
