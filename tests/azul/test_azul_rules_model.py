"""An independent model of the Azul rules, written from the spec (docs/rules/azul.md), checked
against the engine at every step of random games in all player counts.

At each player node the model computes the legal set (AZ-MOVE-1, AZ-MOVE-2, AZ-MOVE-6, AZ-AMB-12,
spec 11.2) and the exact next position after a random take (AZ-MOVE-3..10, AZ-FLOW-2/3/5,
AZ-WALL-1..3, AZ-SCORE-1..5, AZ-FLOOR-1..4, AZ-END-1/2, AZ-REFILL-2/4, AZ-AMB-4/6/8/9/13/16/17/18).
At each chance node it checks the outcomes against the bag (spec 11.3, AZ-SETUP-3, AZ-REFILL-1).
The model reads the full position from to_dict() and compares through the public views."""
import random

import pytest

import tilecraft
from azul_fixtures import wall_col

PENALTY = (1, 1, 2, 2, 2, 3, 3)  # AZ-AMB-4


def run(wall, r, c, dr, dc):
    n = 0
    r, c = r + dr, c + dc
    while 0 <= r < 5 and 0 <= c < 5 and wall[r][c]:
        n += 1
        r, c = r + dr, c + dc
    return n


def points(wall, r, c):
    """Section 5 formula; wall already holds the new tile."""
    h = 1 + run(wall, r, c, 0, -1) + run(wall, r, c, 0, 1)
    v = 1 + run(wall, r, c, -1, 0) + run(wall, r, c, 1, 0)
    if h == 1 and v == 1:
        return 1
    return (h if h > 1 else 0) + (v if v > 1 else 0)


def bonus(wall):
    """AZ-END-2."""
    b = 2 * sum(all(wall[r]) for r in range(5))
    b += 7 * sum(all(wall[r][c] for r in range(5)) for c in range(5))
    b += 10 * sum(all(wall[r][wall_col(r, colour)] for r in range(5)) for colour in range(5))
    return b


class Model:
    """The position in plain Python (walls as 5x5 booleans)."""

    def __init__(self, state):
        d = state.to_dict()
        st, cfg = d["state"], d["config"]
        self.n = cfg["players"]
        self.max_rounds = cfg["max_rounds"]
        self.F = {2: 5, 3: 7, 4: 9}[self.n]  # AZ-SETUP-1
        self.src = [list(x) for x in st["sources"][: self.F + 1]]
        self.marker_centre = bool(st["marker_in_centre"])
        self.lines = [[(st["line_colour"][p][k], st["line_count"][p][k]) for k in range(5)] for p in range(self.n)]
        self.wall = [[[bool(st["wall"][p] >> (r * 5 + c) & 1) for c in range(5)] for r in range(5)] for p in range(self.n)]
        self.floor_spaces = list(st["floor_count"][: self.n])
        self.floor_tiles = [list(x) for x in st["floor_tiles"][: self.n]]
        self.holder = next((p for p in range(self.n) if st["has_marker"][p]), None)
        self.score = list(st["score"][: self.n])
        self.bag, self.lid = list(st["bag"]), list(st["lid"])
        self.current = st["current"]
        self.round_first = st["round_first"]
        self.round = st["round"]
        self.terminal = False
        self.poured = False

    def next_first(self):
        """AZ-AMB-6: the marker's holder, or this round's first player if nobody took it."""
        return self.holder if self.holder is not None else self.round_first

    def legal(self):
        p = self.current
        out = set()
        for s in range(self.F + 1):
            for c in range(5):
                if not self.src[s][c]:
                    continue
                for k in range(5):
                    lc, cnt = self.lines[p][k]
                    ok_colour = cnt == 0 or lc == c                 # AZ-MOVE-6 (a)
                    ok_wall = not self.wall[p][k][wall_col(k, c)]   # AZ-MOVE-6 (b)
                    ok_room = cnt < k + 1                           # AZ-MOVE-6 (c), AZ-AMB-12
                    if ok_colour and ok_wall and ok_room:
                        out.add(s * 30 + c * 6 + k)
                out.add(s * 30 + c * 6 + 5)                         # AZ-MOVE-9, AZ-MOVE-12
        return out

    def take(self, a):
        p = self.current
        s, c, dest = a // 30, (a // 6) % 5, a % 6
        n = self.src[s][c]
        self.src[s][c] = 0                                          # AZ-MOVE-2
        if s > 0:                                                   # AZ-MOVE-3
            for k in range(5):
                self.src[0][k] += self.src[s][k]
                self.src[s][k] = 0
        elif self.marker_centre:                                    # AZ-MOVE-4, AZ-AMB-8, AZ-AMB-9
            self.marker_centre = False
            self.holder = p
            if self.floor_spaces[p] < 7:
                self.floor_spaces[p] += 1
        over = n
        if dest < 5:                                                # AZ-MOVE-5, AZ-MOVE-7, AZ-MOVE-8
            lc, cnt = self.lines[p][dest]
            put = min(n, dest + 1 - cnt)
            self.lines[p][dest] = (c, cnt + put)
            over = n - put
        on_floor = min(over, 7 - self.floor_spaces[p])              # AZ-MOVE-10
        self.floor_spaces[p] += on_floor
        self.floor_tiles[p][c] += on_floor
        self.lid[c] += over - on_floor
        self.current = (p + 1) % self.n                             # AZ-FLOW-2, AZ-AMB-7
        if not any(any(row) for row in self.src):                   # AZ-FLOW-3
            self.end_round()

    def end_round(self):
        for p in range(self.n):                                     # AZ-WALL-1, AZ-AMB-11
            for k in range(5):
                lc, cnt = self.lines[p][k]
                if cnt == k + 1:                                    # AZ-WALL-2
                    col = wall_col(k, lc)
                    self.wall[p][k][col] = True
                    self.score[p] += points(self.wall[p], k, col)
                    self.lid[lc] += k
                    self.lines[p][k] = (5, 0)                       # AZ-WALL-3: the others stay
            self.score[p] = max(0, self.score[p] - sum(PENALTY[: self.floor_spaces[p]]))  # AZ-FLOOR-1..3
            for c in range(5):                                      # AZ-FLOOR-4
                self.lid[c] += self.floor_tiles[p][c]
            self.floor_tiles[p] = [0] * 5
            self.floor_spaces[p] = 0
        self.round += 1
        first = self.next_first()
        if any(all(row) for w in self.wall for row in w) or self.round >= self.max_rounds:  # AZ-END-1, AZ-AMB-13/16
            self.finish()
            return
        self.round_first = first                                    # AZ-REFILL-4
        self.current = first
        self.holder = None
        self.marker_centre = True                                   # AZ-AMB-6
        if sum(self.bag) == 0:                                      # AZ-REFILL-2
            self.bag = [b + l for b, l in zip(self.bag, self.lid)]
            self.lid = [0] * 5
            self.poured = True
            if sum(self.bag) == 0:                                  # AZ-AMB-17
                self.finish()

    def finish(self):
        for p in range(self.n):
            self.score[p] += bonus(self.wall[p])                    # AZ-END-2, AZ-AMB-18
        self.terminal = True


def compare(model, state, where, refilled=False):
    """refilled: sampled chance, and the take ended the round, so the refill already happened inside
    apply(): the factories then hold, per colour, what the model's bag and lid lost."""
    assert state.is_terminal() == model.terminal, where
    assert [[[bool(x) for x in row] for row in w] for w in state.walls()] == model.wall, where
    pl = state.pattern_lines()
    assert [[int(pl[p, k, 1]) for k in range(5)] for p in range(model.n)] == \
        [[cnt for _, cnt in model.lines[p]] for p in range(model.n)], where
    for p in range(model.n):
        for k in range(5):
            if model.lines[p][k][1]:
                assert int(pl[p, k, 0]) == model.lines[p][k][0], where
    fl = state.floors()
    assert [int(x) for x in fl[:, 0]] == model.floor_spaces, where
    assert [[int(x) for x in fl[p, 2:]] for p in range(model.n)] == model.floor_tiles, where
    assert [int(x) for x in state.scores()] == model.score, where
    if refilled and not model.terminal:
        shown = [int(x) for x in state.factories().sum(axis=0)]
        pool = [b + l for b, l in zip(model.bag, model.lid)]
        assert [int(b) + int(l) + d for b, l, d in zip(state.bag(), state.lid(), shown)] == pool, where
        expected = min(4 * model.F, sum(pool))  # AZ-REFILL-1/3
        assert sum(shown) == expected, where
        per_factory = [sum(int(x) for x in row) for row in state.factories()[1:]]
        assert max(per_factory) <= 4 and state.factories()[0].sum() == 0, where
        assert state.current_player() == model.current and state.marker_in_centre(), where
        return
    assert [int(x) for x in state.lid()] == model.lid, where
    assert [int(x) for x in state.bag()] == model.bag, where
    if not model.terminal:
        assert [[int(x) for x in row] for row in state.factories()] == model.src, where
        assert state.round() == model.round, where
        if state.is_chance_node():
            assert model.marker_centre and not any(any(row) for row in model.src), where
        else:
            assert state.current_player() == model.current, where
            assert state.marker_in_centre() == model.marker_centre, where
            if not model.marker_centre:
                assert [bool(x) for x in fl[:, 1]] == [p == model.holder for p in range(model.n)], where
            assert state.next_first_player() == model.next_first(), where


def play(players, seed, floor_bias, max_rounds=100, chance="explicit"):
    s = tilecraft.make("azul", players=players, seed=seed, chance=chance, max_rounds=max_rounds)
    rng = random.Random(seed)
    steps = 0
    s.poured = 0  # how many refills began by pouring the lid into the bag
    while not s.is_terminal():
        if s.is_chance_node():
            bag = [int(x) for x in s.bag()]
            total = sum(bag)
            assert s.chance_outcomes() == [(c, pytest.approx(b / total)) for c, b in enumerate(bag) if b]
            shown = [int(x) for x in s.factories().sum(axis=0)]
            lid_before = [int(x) for x in s.lid()]
            outcomes = s.chance_outcomes()
            c = rng.choices([o for o, _ in outcomes], [q for _, q in outcomes])[0]
            s.apply(c)
            after = [int(x) for x in s.factories().sum(axis=0)]
            if not s.is_terminal():
                assert after[c] == shown[c] + 1 and sum(after) == sum(shown) + 1
            if total == 1 and s.is_chance_node():  # AZ-REFILL-2: the bag ran out mid-fill
                assert [int(x) for x in s.bag()] == lid_before and sum(s.lid()) == 0
                s.poured += 1
            continue
        m = Model(s)
        m0_round = m.round
        where = f"players={players} seed={seed} step={steps}"
        assert set(int(a) for a in s.legal_actions()) == m.legal(), where
        moves = sorted(m.legal())
        floor_moves = [a for a in moves if a % 6 == 5]
        a = rng.choice(floor_moves) if rng.random() < floor_bias else rng.choice(moves)
        m.take(a)
        s.apply(a)
        compare(m, s, where + f" action={a}", refilled=chance == "sampled" and s.round() != m0_round)
        s.poured += m.poured
        steps += 1
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_AZ_model_agrees_in_random_games(players):
    """AZ-MOVE-1..12, AZ-WALL-1..3, AZ-SCORE-1..5, AZ-FLOOR-1..4, AZ-END-1/2, AZ-REFILL-1/2/4,
    AZ-AMB-6/8/9/12/13/17/18: the model and the engine agree after every take of random games."""
    for seed in range(12):
        play(players, seed, floor_bias=0.0)


@pytest.mark.parametrize("players", [2, 4])
def test_AZ_model_agrees_in_long_games_with_lid_refills(players):
    """AZ-REFILL-2, AZ-REFILL-3, AZ-AMB-8, AZ-AMB-9, AZ-AMB-16: players who often send tiles to the floor
    make long games, full floors and empty bags (refills from the lid); the cap ends some games."""
    saw_cap, poured = False, 0
    for seed in range(6):
        s = play(players, 100 + seed, floor_bias=0.8, max_rounds=15)
        saw_cap |= s.round() == 15
        poured += s.poured
    assert saw_cap and poured > 0


@pytest.mark.parametrize("players", [2, 3])
def test_AZ_model_agrees_in_sampled_mode(players):
    """AZ-REFILL-1/2/3 in sampled mode: after each round the factories hold what left the bag and lid,
    at most 4 per factory, 4 x F while tiles last; everything else as in the model."""
    for seed in range(4):
        play(players, 200 + seed, floor_bias=0.8, max_rounds=12, chance="sampled")
