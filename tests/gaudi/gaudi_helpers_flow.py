"""Helpers for the Gaudí flow rule tests (track, turns, setup, information): editions written as
JSON files from the spec's placeholder edition (tests/gaudi/gaudi_placeholder.py, GA-AMB-1..7) or
from edits of it, and positions set up through the saved-state format (every edited state is
loaded with from_dict, which runs the engine's validate() and raises InvalidStateError otherwise).

The placeholder day track, by index i (24 spaces, spec GA-AMB-1):
  i % 5 == 0 tile-any (1 pencil, 0 hammers)     i % 5 == 1 card-any (0, 1)
  i % 5 == 2 tile of colour (i // 5) % 4 (1, 1) i % 5 == 3 card of domain (i // 5) % 3 (2, 0)
  i % 5 == 4 generic (0, 2)
  spaces 20..23 red; colour k enters at index k; the central area is MOVE id 48.
Central tiles: option A resolves the Catalan column once, option B gives 2 Nature VP. Board: 6x6,
space 6y + x has shape (x + 2y) % 4; both column rewards +1 VP. Cards: id i has domain i // 33,
requirement colour i % 5 (4 = black) with n = 1. Chimneys: (s0 x 1: +1 VP), (s1 x 2: +2 VP)."""
from __future__ import annotations

import json
import tempfile
from typing import Any, Callable, Dict, Iterable, Optional

import tilecraft
from tilecraft.games import gaudi as G
from gaudi_placeholder import placeholder_edition, write_edition

# phase ids, from the engine's phase names (GaudiState.phase_names(); docs/gaudi.md)
CHANCE, MOVE, MODE, USES, PLACE, DISCARD, FRAME, ITEM, TARGET, CENTRAL, OVER = (
    tilecraft.GaudiState.phase_names().index(name) for name in (
        "chance", "moving", "choosing pencils or hammers", "using actions", "placing a tile", "discarding",
        "resolving rewards", "carrying out a reward", "choosing a Religion card", "central area", "game over"))
NOT_ENTERED, GONE, CENTRAL_AREA = -1, 48, 48
VIRTUAL = 4  # marker index of the 2-player virtual marker
PENCILS, HAMMERS, DONE, CENTRAL_A, CENTRAL_B = G.PENCILS, G.HAMMERS, G.DONE, G.CENTRAL_A, G.CENTRAL_B
LOC_DECK, LOC_WINDOW, LOC_HAND, LOC_COLUMN, LOC_DISCARD, LOC_POOL = (
    tilecraft.GaudiState.locations()[k] for k in ("deck", "window", "hand", "column", "discard", "pool"))
NO_CARD = 255
SHAPE = [(x + 2 * y) % 4 for y in range(6) for x in range(6)]  # placeholder board: shape of space b
RED = set(range(20, 24))


def space_kind(i: int) -> str:
    return ["tile", "card", "tile-colour", "card-domain", "generic"][i % 5]


def units_of(i: int):
    """(pencils, hammers) printed on placeholder track index i."""
    return [(1, 0), (0, 1), (1, 1), (2, 0), (0, 2)][i % 5]


_DIRS: Dict[str, str] = {}


def edition_dir(name: str = "placeholder", edit: Optional[Callable[[Dict[str, Any]], None]] = None) -> str:
    """A directory holding the placeholder edition's JSON files, after edit(edition) if given
    (edition: kind -> JSON document, see gaudi_placeholder.py). Cached per name."""
    if name not in _DIRS:
        ed = placeholder_edition()
        if edit is not None:
            edit(ed)
        _DIRS[name] = write_edition(tempfile.mkdtemp(prefix=f"gaudi-flow-{name}-"), ed)
    return _DIRS[name]


def make(players: int = 4, seed: int = 0, data: Optional[str] = None, **options: Any):
    return tilecraft.make("gaudi", players=players, seed=seed, data=data or edition_dir(), **options)


def ready(state):
    """Resolves pending chance nodes (explicit chance mode), the i-th with outcome i (mod the count),
    so the setup's tile draws spread over the types."""
    i = 0
    while state.is_chance_node():
        out = state.chance_outcomes()
        state.apply(int(out[i % len(out)][0]))
        i += 1
    return state


def day(ed: Dict[str, Any]) -> Dict[str, Any]:
    return ed["track"]["day"]


def extra_turn_edition(ed: Dict[str, Any]) -> None:
    """Edit: the first space of every day chimney face (shape 0 x 1) gives an extra turn; central
    option B is an extra turn; supply areas 0 and 1 carry the same bonus, +1 Religion VP."""
    for tile in ed["chimneys"]["tiles"]:
        tile["day"]["spaces"][0]["reward"] = [{"type": "extra_turn"}]
    for tile in ed["chandeliers"]["tiles"]:
        tile["b"] = [{"type": "extra_turn"}]
    day(ed)["area_bonus"] = [{"type": "vp", "domain": "religion", "n": 1},
                             {"type": "vp", "domain": "religion", "n": 1}, None, None, None]


# ---------------------------------------------------------------- saved-state edits


def edit(state, fn: Callable[[Dict[str, Any]], None]):
    """A copy of `state` after fn(d["state"]) on its saved form; the copy passed validate()."""
    d = json.loads(state.to_json())
    fn(d["state"])
    d["seed"] = None  # a hand-built position: its history no longer follows from the seed
    return type(state).from_dict(d)  # from_dict runs State::validate() (InvalidStateError otherwise)


def snapshot(state) -> Dict[str, Any]:
    """The full saved state (to compare before and after a rejected call)."""
    return json.loads(state.to_json())


def turn_index_for(players: int, start: int, seat: int) -> int:
    return (seat - start) % players


def at_move(state, seat: int, positions: Dict[int, int], start: Optional[int] = None, finished: bool = False,
            holder: Optional[int] = None, round_: Optional[int] = None):
    """A copy of `state` (at a MOVE node, no frames) where `seat` is about to move and markers stand
    at `positions` {marker: index} (others not entered unless given; 48 = left). `start` is the
    round's start player (default: the state's); `finished` sets "someone has finished";
    `holder` the start-player marker's holder; `round_` the round.
    """
    def fn(s):
        if start is not None:
            s["start_player"] = start
        st = s["start_player"]
        players = _players(state)
        s["position"] = [NOT_ENTERED] * 5
        for m, x in positions.items():
            s["position"][m] = x
        s["current"] = seat
        s["turn_index"] = turn_index_for(players, st, seat)
        s["anyone_finished"] = 1 if finished else 0
        if holder is not None:
            s["marker_holder"] = holder
        if round_ is not None:
            s["round"] = round_
        s["phase"] = MOVE
    return edit(state, fn)


def _players(state) -> int:
    return state.num_players()


def set_fields(state, **fields):
    """A copy with top-level saved-state fields replaced."""
    def fn(s):
        for k, v in fields.items():
            s[k] = v
    return edit(state, fn)


def set_board(state, seat: int, tiles: Dict[int, int]):
    """A copy where seat's board holds exactly tiles {space: colour}; tiles come from / go to the bag."""
    def fn(s):
        old = s["colour"][seat]
        for c in range(4):
            for b in range(36):
                if old[c] >> b & 1:
                    s["bag"][4 * c + SHAPE[b]] += 1
        masks = [0, 0, 0, 0]
        for b, c in tiles.items():
            masks[c] |= 1 << b
            s["bag"][4 * c + SHAPE[b]] -= 1
            assert s["bag"][4 * c + SHAPE[b]] >= 0, "the bag has no such tile left"
        s["colour"][seat] = masks
    return edit(state, fn)


def give_hand(state, seat: int, cards: Iterable[int], keep_start: bool = False):
    """A copy where seat's hand is exactly `cards` (taken from wherever they are: deck or window;
    a window loses the card and keeps its order). The seat's old hand goes back to its decks.
    The hidden starting card is cleared unless keep_start and it stays in hand."""
    cards = list(cards)

    def fn(s):
        old = [c for c in s["hand"][seat][: s["hand_n"][seat]]]
        for c in old:
            s["card_loc"][c] = LOC_DECK
            s["card_owner"][c] = c // 33
        for c in cards:
            loc = s["card_loc"][c]
            if loc == LOC_WINDOW:
                d = c // 33
                w = [x for x in s["window"][d][: s["window_n"][d]] if x != c]
                s["window"][d] = w + [NO_CARD] * (3 - len(w))
                s["window_n"][d] = len(w)
            elif loc == LOC_HAND:
                q = s["card_owner"][c]
                if q != seat:
                    h = [x for x in s["hand"][q][: s["hand_n"][q]] if x != c]
                    s["hand"][q] = h + [NO_CARD] * (5 - len(h))
                    s["hand_n"][q] = len(h)
                    if s["start_card"][q] == c:
                        s["start_card"][q] = NO_CARD
            else:
                assert loc == LOC_DECK, f"card {c} is not in a deck, window or hand"
            s["card_loc"][c] = LOC_HAND
            s["card_owner"][c] = seat
        s["hand"][seat] = cards + [NO_CARD] * (5 - len(cards))
        s["hand_n"][seat] = len(cards)
        if not (keep_start and s["start_card"][seat] in cards):
            s["start_card"][seat] = NO_CARD
    return edit(state, fn)


def set_window(state, domain: int, cards: Iterable[int]):
    """A copy where window `domain` holds exactly `cards` (from the deck); its old cards go back to the deck."""
    cards = list(cards)

    def fn(s):
        for c in s["window"][domain][: s["window_n"][domain]]:
            s["card_loc"][c] = LOC_DECK
            s["card_owner"][c] = domain
        for c in cards:
            assert s["card_loc"][c] in (LOC_DECK, LOC_WINDOW), f"card {c} is not in its deck"
            s["card_loc"][c] = LOC_WINDOW
            s["card_owner"][c] = domain
        s["window"][domain] = cards + [NO_CARD] * (3 - len(cards))
        s["window_n"][domain] = len(cards)
    return edit(state, fn)


def empty_area(state, area: int, keep: Optional[Dict[int, int]] = None):
    """A copy where supply area `area` holds exactly keep {type: count} (the rest goes to the bag)."""
    keep = keep or {}

    def fn(s):
        for t in range(16):
            s["bag"][t] += s["area"][area][t]
            s["area"][area][t] = 0
        for t, n in keep.items():
            s["bag"][t] -= n
            assert s["bag"][t] >= 0
            s["area"][area][t] = n
    return edit(state, fn)


# ---------------------------------------------------------------- playing


def apply(state, *actions: int):
    for a in actions:
        state.apply(int(a))
    return state


def legal(state) -> set:
    return {int(a) for a in state.legal_actions()}


def finish_turn(state, central_option: int = CENTRAL_B):
    """Ends the current turn doing as little as possible: PENCILS at a mode choice, DONE in the uses
    or a frame, at the central area `central_option` (then DONE if offered). Returns at the next
    MOVE node (or the end, or a chance node in explicit mode)."""
    guard = 0
    while state.phase() not in (MOVE, OVER, CHANCE):
        guard += 1
        assert guard < 100
        la = legal(state)
        ph = state.phase()
        if ph == MODE:
            state.apply(PENCILS)
        elif ph == CENTRAL:
            state.apply(central_option if central_option in la else (DONE if DONE in la else min(la)))
        elif DONE in la:
            state.apply(DONE)
        else:
            state.apply(min(la))
    return state


def move_and_pass(state, target: int, central_option: int = CENTRAL_B):
    """The mover moves to `target` (48 = central area) and does nothing else."""
    state.apply(int(target))
    return finish_turn(state, central_option)


def movers_until(state, n: int, policy: Callable[[Any], int]):
    """Plays n turns with policy(state) -> MOVE id (then nothing else); returns [(seat, positions
    before the move)]."""
    out = []
    for _ in range(n):
        if state.phase() != MOVE:
            break
        out.append((state.current_player(), state.positions()))
        move_and_pass(state, policy(state))
    return out


def lowest_move(state) -> int:
    return min(a for a in legal(state) if a <= CENTRAL_AREA)


def play_to_end(state, policy: Callable[[Any], int] = lowest_move, limit: int = 2000):
    """Plays until the game is over; returns the list of (round, seat) at each MOVE node."""
    seen = []
    for _ in range(limit):
        if state.is_terminal():
            return seen
        if state.is_chance_node():
            state.apply(int(state.legal_actions()[0]))
            continue
        assert state.phase() == MOVE
        seen.append((state.round(), state.current_player()))
        move_and_pass(state, policy(state))
    raise AssertionError("the game did not end")


def hand_domains(state, seat: int):
    return sorted(c // 33 for c in state.hand(seat))
