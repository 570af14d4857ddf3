"""Small purpose-built castles for the Castle rule tests (no test here; imported by the others).

Fixtures are plain dicts passed to make("castle", board=..., tiles=...), so no rule test depends
on the reconstructed 60-tile manifest (CA-AMB-1). Chance is explicit: each turn's draw is chosen
by the test. Rotation r turns a tile clockwise: the tile's side s ends up on board side (s+r)%4."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import tilecraft
from tilecraft.games import castle as cdata

# phase ids by short name, from the engine's phase names (CastleState.phase_names())
_PHASE_WORDS = dict(first="choosing the first player", deal="dealing start wall tiles", bonus0="may use wall tile 1",
                    draw="drawing a tile", choose="choosing which drawn tile to keep", place="placing the tile",
                    follower="may place a follower", order="choosing the scoring order",
                    double="may double this score with a wall tile", reveal="revealing a wall tile",
                    terminal="game over")
PHASE = {k: tilecraft.CastleState.phase_names().index(v) for k, v in _PHASE_WORDS.items()}
ROAD, TOWER, HOUSE, COURT, INCOMPLETE, TILE9, KEEP = range(7)


def board(rows: Sequence[str], gates: Sequence[Tuple[int, int, str, str]], corners: Sequence[int] = (),
          wall: Optional[Dict[str, int]] = None) -> Dict[str, Any]:
    """gates: (row, col, side, edge); corners: lower spaces of the stocked corners (0/1 is added)."""
    return {
        "format": "tilecraft-castle-board", "version": 1, "rows": list(rows),
        "gates": [{"cell": [r, c], "side": side, "edge": edge} for r, c, side, edge in gates],
        "corners": [{"spaces": [0, 1], "start": True}] + [{"spaces": [a, (a + 1) % 100]} for a in corners],
        "wall_tiles": wall or {str(k): 2 for k in range(1, 10)},
    }


def manifest(*tiles: Dict[str, Any]) -> Dict[str, Any]:
    return {"format": "tilecraft-castle-tiles", "version": 1, "tiles": [dict(t) for t in tiles]}


def tile(tid: str, edges: str, count: int = 10, **kw: Any) -> Dict[str, Any]:
    return dict(id=tid, count=count, edges=edges, **kw)


# Frequently used tiles (edges N E S W, each clockwise).
STRAIGHT = tile("straight", "HRH HHH HRH HHH")          # path N-S, houses either side
CURVE = tile("curve", "HRH HRH HHH HHH")                # path N-E
SQUARE3 = tile("square3", "HHH HRH HRH HRH", square=True)  # square: paths E, S, W end there
HOUSE = tile("house", "HHH HHH HHH HHH")
TOWER = tile("tower", "TTT TTT TTT TTT")
COURT2 = tile("court2", "CCC CCC CCC CCC", markets={"N1": 2})


class Game:
    """A castle state on a fixture board with explicit chance, driven turn by turn."""

    def __init__(self, rows: Sequence[str], gates, tiles: Sequence[Dict[str, Any]], corners: Sequence[int] = (),
                 wall=None, **options: Any):
        self.board = board(rows, gates, corners, wall)
        self.manifest = manifest(*tiles)
        options.setdefault("chance", "explicit")
        options.setdefault("start_bonus_tiles", False)
        self.s = tilecraft.make("castle", board=self.board, tiles=self.manifest, **options)
        self.loaded = cdata.load_tiles(self.manifest)
        self.ids = [t["id"] for t in self.loaded["tiles"]]
        self.width = len(rows[0])
        self.interior = sorted((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X")
        # first action id of each kind, from the engine (CastleState.action_ranges(); the place kind has 4 per interior cell)
        self.first = {kind: first for kind, first, _ in self.s.action_ranges()}
        self.base = self.first["follower"]

    # ---- ids ----
    def type_of(self, tid: str) -> int:
        return self.ids.index(tid)

    def cell(self, r: int, c: int) -> int:
        return r * self.width + c

    def place_id(self, r: int, c: int, rot: int) -> int:
        return 4 * self.interior.index((r, c)) + rot

    def slot(self, tid: str, seg: str) -> int:
        """Area slot of the tile's area through segment seg (tile orientation, e.g. 'N1')."""
        return self.loaded["tiles"][self.type_of(tid)]["seg_area"][cdata.SEGMENT_NAMES.index(seg)]

    def follower_id(self, slot: int) -> int:
        return self.first["follower"] + slot

    @property
    def no_follower(self) -> int:
        return self.first["no_follower"]

    def pending_id(self, j: int) -> int:
        return self.first["pending"] + j

    @property
    def use1(self) -> int:
        return self.first["use_wall_tile"]

    @property
    def use2(self) -> int:
        return self.first["use_wall_tile"] + 1

    @property
    def use3(self) -> int:
        return self.first["use_wall_tile"] + 2

    @property
    def decline(self) -> int:
        return self.first["decline"]

    # ---- driving ----
    def draw(self, tid: str) -> None:
        assert self.s.phase() == PHASE["draw"], f"expected a draw, phase {self.s.phase()}"
        self.s.apply(self.type_of(tid))

    def place(self, r: int, c: int, rot: int = 0) -> None:
        self.s.apply(self.place_id(r, c, rot))

    def turn(self, tid: str, rc: Tuple[int, int], rot: int = 0, seg: Optional[str] = None) -> None:
        """Draw tid, place it on rc with rot, put a follower on the area through seg (or none)."""
        self.draw(tid)
        self.place(rc[0], rc[1], rot)
        if self.s.phase() == PHASE["follower"]:
            self.s.apply(self.no_follower if seg is None else self.follower_id(self.slot(tid, seg)))
        else:
            assert seg is None, "no follower placement was offered"

    def area(self, r: int, c: int, tid: str, seg: str) -> Dict[str, Any]:
        return self.s.area_at(self.cell(r, c), self.slot(tid, seg))

    def scores(self) -> List[int]:
        return [int(x) for x in self.s.scores()]


def edit(g: Game, **fields: Any) -> None:
    """Replace state fields (validated by from_dict) on g.s."""
    d = g.s.to_dict()
    for k, v in fields.items():
        d["state"][k] = v
    d["seed"] = None  # a hand-built position: its history no longer follows from the seed
    g.s = type(g.s).from_dict(d)


def give(g: Game, seat: int, kind: int, n: int = 1) -> None:
    """Seat holds n usable wall tiles of kind (1..9)."""
    d = g.s.to_dict()
    d["state"]["held"][seat][kind - 1] += n
    d["seed"] = None  # a hand-built position: its history no longer follows from the seed
    g.s = type(g.s).from_dict(d)


def set_score(g: Game, seat: int, points: int, category: int = ROAD) -> None:
    d = g.s.to_dict()
    d["state"]["score"][seat] += points
    d["state"]["by_category"][seat][category] += points
    d["seed"] = None  # a hand-built position: its history no longer follows from the seed
    g.s = type(g.s).from_dict(d)
