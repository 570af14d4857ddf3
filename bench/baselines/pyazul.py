"""A plain pure-Python Azul random-game loop: the baseline that bench/ figures are ratios against.

It implements the same rules as the engine (factories, centre and marker, pattern lines, floor
with overflow to the lid, wall-tiling with adjacency scoring, penalties, refill from the lid,
end on a complete row, bonuses) in the straightforward way a hand-written Python engine would,
with lists and loops. It is for timing only; the tests check the real engine."""
import random

PENALTY = [0, 1, 2, 4, 6, 8, 11, 14]


def play_random_game(rng: random.Random, players: int = 2) -> list:
    nf = 2 * players + 1
    bag = [20] * 5
    lid = [0] * 5
    score = [0] * players
    walls = [[[False] * 5 for _ in range(5)] for _ in range(players)]
    lines = [[[None, 0] for _ in range(5)] for _ in range(players)]
    first = 0
    while True:
        factories = []
        for _ in range(nf):
            f = [0] * 5
            for _ in range(4):
                if sum(bag) == 0:
                    bag, lid = [b + l for b, l in zip(bag, lid)], [0] * 5
                    if sum(bag) == 0:
                        break
                r = rng.randrange(sum(bag))
                c = 0
                while r >= bag[c]:
                    r -= bag[c]
                    c += 1
                bag[c] -= 1
                f[c] += 1
            factories.append(f)
        centre = [0] * 5
        marker = True
        floors = [0] * players
        nxt = first
        p = first
        while any(any(f) for f in factories) or any(centre):
            moves = []
            for s, src in enumerate([centre] + factories):
                for c in range(5):
                    if src[c]:
                        for d in range(5):
                            lc, n = lines[p][d]
                            if (lc is None or (lc == c and n <= d)) and not walls[p][d][(d + c) % 5]:
                                moves.append((s, c, d))
                        moves.append((s, c, 5))
            s, c, d = moves[rng.randrange(len(moves))]
            src = centre if s == 0 else factories[s - 1]
            n = src[c]
            src[c] = 0
            if s > 0:
                for k in range(5):
                    centre[k] += src[k]
                    src[k] = 0
            elif marker:
                marker = False
                nxt = p
                floors[p] += 1
            over = n
            if d < 5:
                put = min(n, d + 1 - lines[p][d][1])
                lines[p][d] = [c, lines[p][d][1] + put]
                over = n - put
            room = max(0, 7 - floors[p])
            floors[p] += min(over, room)
            lid[c] += over
            p = (p + 1) % players
        done = False
        for q in range(players):
            for k in range(5):
                c, n = lines[q][k]
                if n == k + 1:
                    col = (k + c) % 5
                    walls[q][k][col] = True
                    h = 1
                    j = col - 1
                    while j >= 0 and walls[q][k][j]:
                        h, j = h + 1, j - 1
                    j = col + 1
                    while j < 5 and walls[q][k][j]:
                        h, j = h + 1, j + 1
                    v = 1
                    i = k - 1
                    while i >= 0 and walls[q][i][col]:
                        v, i = v + 1, i - 1
                    i = k + 1
                    while i < 5 and walls[q][i][col]:
                        v, i = v + 1, i + 1
                    score[q] += 1 if h == 1 and v == 1 else (h if h > 1 else 0) + (v if v > 1 else 0)
                    lid[c] += k
                    lines[q][k] = [None, 0]
            score[q] = max(0, score[q] - PENALTY[min(7, floors[q])])
            done |= any(all(row) for row in walls[q])
        first = nxt
        if done:
            for q in range(players):
                score[q] += 2 * sum(all(r) for r in walls[q]) + 7 * sum(all(walls[q][r][c] for r in range(5)) for c in range(5))
                score[q] += 10 * sum(all(walls[q][r][(r + c) % 5] for r in range(5)) for c in range(5))
            return score
