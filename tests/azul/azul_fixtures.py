"""Readable Azul positions for the rule tests (spec: docs/rules/azul.md).

Everything here is written from the spec, not from the engine:
- colours (AZ-AMB-3): 0 blue "B", 1 yellow "Y", 2 red "R", 3 black "K", 4 white "W";
- the wall layout (AZ-AMB-3): colour at (row r, col c), 0-based, is ORDER[(c - r) mod 5];
- action ids (spec 11.2): source * 30 + colour * 6 + destination, destination 0..4 = line 1..5,
  5 = floor; source 0 = centre, 1..9 = factory.

`position(...)` builds a state from a description and loads it with AzulState.from_dict, which
validates it. Tiles that the description does not place go to the bag (or to the lid with
spare="lid") so that every colour totals 20 (AZ-AMB-1).
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Union

import tilecraft

AzulState = tilecraft.game_spec("azul").state_class  # tilecraft._core.AzulState

LETTERS = "BYRKW"
B, Y, R, K, W = range(5)
NAMES = ("blue", "yellow", "red", "black", "white")
FLOOR = 5
CENTRE = 0
PENALTY = (1, 1, 2, 2, 2, 3, 3)  # AZ-AMB-4, left to right


def colour(ch: Union[str, int]) -> int:
    if isinstance(ch, int):
        return ch
    return LETTERS.index(ch.upper())


def wall_colour(row: int, col: int) -> int:
    """AZ-AMB-3, 0-based row and column."""
    return (col - row) % 5


def wall_col(row: int, c: int) -> int:
    """Column (0-based) of colour c in wall row `row` (0-based), inverse of wall_colour."""
    for col in range(5):
        if wall_colour(row, col) == c:
            return col
    raise AssertionError


def act(source: int, c: Union[str, int], dest: int) -> int:
    """Action id of spec 11.2. dest: 0..4 = pattern line 1..5, FLOOR = 5. Use line(k) for line k."""
    return source * 30 + colour(c) * 6 + dest


def line(k: int) -> int:
    """Destination index of pattern line k (1-based)."""
    return k - 1


def counts(tiles: Union[str, Sequence[int], Dict, None]) -> List[int]:
    """'BBRY' -> [2, 1, 1, 0, 0]; a list of 5 counts is returned as is; a dict {colour: n} too."""
    if tiles is None:
        return [0] * 5
    if isinstance(tiles, str):
        out = [0] * 5
        for ch in tiles:
            if ch in " .-":
                continue
            out[colour(ch)] += 1
        return out
    if isinstance(tiles, dict):
        out = [0] * 5
        for k, v in tiles.items():
            out[colour(k)] += v
        return out
    assert len(tiles) == 5
    return list(tiles)


def wall_mask(rows: Optional[Sequence[str]]) -> int:
    """Five strings of five characters, 'x' (or a colour letter matching the layout) = tile."""
    if not rows:
        return 0
    assert len(rows) == 5
    m = 0
    for r, text in enumerate(rows):
        text = text.replace(" ", "")
        assert len(text) == 5, text
        for c, ch in enumerate(text):
            if ch == ".":
                continue
            if ch.upper() in LETTERS:
                assert colour(ch) == wall_colour(r, c), f"{ch} is not the colour of ({r},{c})"
            m |= 1 << (r * 5 + c)
    return m


def wall_tile_counts(mask: int) -> List[int]:
    out = [0] * 5
    for i in range(25):
        if mask >> i & 1:
            out[wall_colour(i // 5, i % 5)] += 1
    return out


def position(players: int = 2, *, chance: str = "explicit", factories: Optional[Dict[int, str]] = None,
             centre: str = "", marker: Union[str, int] = "centre", boards: Optional[Dict[int, dict]] = None,
             current: int = 0, round_first: Optional[int] = None, next_first: Optional[int] = None,
             round: int = 0, bag=None, lid=None, spare: str = "bag", seed: int = 1, **options):
    """An offer-phase (phase 2) position.

    boards: {seat: dict(wall=[5 strings], lines={k: "RRR"}, floor="BB", marker_on_floor=True,
    score=int)}. marker: "centre" or the seat that already took it this round (by default it is
    then on that seat's floor, in addition to the listed floor tiles).
    """
    base = tilecraft.make("azul", players=players, seed=seed, chance=chance, **options)
    d = base.to_dict()
    s = d["state"]
    used = [0] * 5

    def use(cs):
        for c in range(5):
            used[c] += cs[c]

    sources = [[0] * 5 for _ in range(10)]
    sources[0] = counts(centre)
    for f, tiles in (factories or {}).items():
        assert 1 <= f <= 9
        sources[f] = counts(tiles)
    for row in sources:
        use(row)
    s["sources"] = sources

    s["marker_in_centre"] = 1 if marker == "centre" else 0
    s["has_marker"] = [0, 0, 0, 0]
    s["marker_on_floor"] = [0, 0, 0, 0]
    s["line_colour"] = [[5] * 5 for _ in range(4)]
    s["line_count"] = [[0] * 5 for _ in range(4)]
    s["wall"] = [0, 0, 0, 0]
    s["floor_count"] = [0, 0, 0, 0]
    s["floor_tiles"] = [[0] * 5 for _ in range(4)]
    s["score"] = [0, 0, 0, 0]
    boards = boards or {}
    for p in range(players):
        b = boards.get(p, {})
        mask = wall_mask(b.get("wall"))
        s["wall"][p] = mask
        use(wall_tile_counts(mask))
        for k, tiles in b.get("lines", {}).items():
            cs = counts(tiles)
            n = sum(cs)
            assert 1 <= k <= 5 and n <= k
            if n:
                assert max(cs) == n, "a pattern line holds one colour"
                s["line_colour"][p][k - 1] = cs.index(n)
                s["line_count"][p][k - 1] = n
            use(cs)
        fl = counts(b.get("floor"))
        use(fl)
        s["floor_tiles"][p] = fl
        holds = marker == p
        on_floor = holds and b.get("marker_on_floor", True)
        s["has_marker"][p] = 1 if holds else 0
        s["marker_on_floor"][p] = 1 if on_floor else 0
        s["floor_count"][p] = sum(fl) + (1 if on_floor else 0)
        assert s["floor_count"][p] <= 7
        s["score"][p] = b.get("score", 0)

    explicit_bag = bag is not None
    explicit_lid = lid is not None
    bag_c = counts(bag)
    lid_c = counts(lid)
    use(bag_c)
    use(lid_c)
    rest = [20 - u for u in used]
    assert all(r >= 0 for r in rest), f"too many tiles in the description: {used}"
    if spare == "bag" and not explicit_bag:
        bag_c = rest
    elif spare == "lid" and not explicit_lid:
        lid_c = rest
    else:
        assert rest == [0] * 5, f"tiles left over with bag and lid both given: {rest}"
    s["bag"] = bag_c
    s["lid"] = lid_c

    s["current"] = current
    s["round_first"] = current if round_first is None else round_first
    if next_first is None:
        next_first = marker if marker != "centre" else s["round_first"]
    s["next_first"] = next_first
    s["phase"] = tilecraft.AzulState.phase_names().index("taking tiles")
    s["fill_factory"] = 0
    s["fill_slot"] = 0
    s["round"] = round
    d["history"] = []
    return AzulState.from_dict(d)


# ---- reading a state through the public views ----

def line_of(state, seat: int, k: int):
    """(colour or -1, count) of pattern line k (1-based)."""
    pl = state.pattern_lines()
    return int(pl[seat, k - 1, 0]), int(pl[seat, k - 1, 1])


def floor_of(state, seat: int):
    """(occupied spaces, holds marker, [tiles per colour])."""
    f = state.floors()
    return int(f[seat, 0]), bool(f[seat, 1]), [int(x) for x in f[seat, 2:]]


def wall_has(state, seat: int, row: int, col: int) -> bool:
    """1-based row and column."""
    return bool(state.walls()[seat, row - 1, col - 1])


def lid(state) -> List[int]:
    return [int(x) for x in state.lid()]


def bag(state) -> List[int]:
    return [int(x) for x in state.bag()]


def centre(state) -> List[int]:
    return [int(x) for x in state.factories()[0]]


def factory(state, f: int) -> List[int]:
    return [int(x) for x in state.factories()[f]]


def score(state, seat: int) -> int:
    return int(state.scores()[seat])


def legal(state) -> set:
    return set(int(a) for a in state.legal_actions())


def tile_totals(state) -> List[int]:
    """Tiles per colour counted over every public view (bag, lid, sources, lines, floors, walls)."""
    total = [int(x) for x in state.bag()]
    for c, x in enumerate(state.lid()):
        total[c] += int(x)
    for row in state.factories():
        for c, x in enumerate(row):
            total[c] += int(x)
    pl = state.pattern_lines()
    fl = state.floors()
    walls = state.walls()
    for p in range(state.num_players()):
        for k in range(5):
            if pl[p, k, 1]:
                total[int(pl[p, k, 0])] += int(pl[p, k, 1])
        for c in range(5):
            total[c] += int(fl[p, 2 + c])
        for r in range(5):
            for col in range(5):
                if walls[p, r, col]:
                    total[wall_colour(r, col)] += 1
    return total


def draw(state, tiles: Iterable[Union[str, int]]) -> None:
    """Resolves explicit chance nodes with the given colours, in order."""
    for t in tiles:
        assert state.is_chance_node(), "expected a chance node"
        state.apply(colour(t))


def run_draws_until_offer(state, pick=None) -> int:
    """Resolves chance nodes (the first listed outcome, or pick(outcomes)) until a player node
    or the end; returns how many draws were made."""
    n = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply(outcomes[0][0] if pick is None else pick(outcomes))
        n += 1
    return n
