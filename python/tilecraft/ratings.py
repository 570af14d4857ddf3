"""Ratings and summary statistics of a set of finished games (the tournament's standings).

- Elo (2-player games): the maximum-likelihood Bradley-Terry fit over all games at once (so the
  order in which games finished does not matter), a tie counting half a win, with a weak Gaussian
  prior (standard deviation 1000 Elo) that keeps ratings finite when one bot wins every game.
  Intervals are 95% Wald intervals from the inverse Hessian; ratings are centred on mean 0.
- OpenSkill (any player count): the Plackett-Luce model of the ``openskill`` package, fed the
  games in the order of their ids; the interval is mu +- 2 sigma. Ranks come from
  ``winners`` (rank 0) and then the scores of the others, higher first.
- Win rates: a shared victory counts 1/k to each of k co-winners; 95% Wilson intervals.
- Solo tables (one seat against a scripted opponent, e.g. Gaudí's automa): no ratings; the win
  rate against the opponent with its Wilson interval, and the mean return (in Gaudí's default
  ``returns_mode=score``, the margin over the automa).
- Pairwise matrix: for two bots that met at a table, how often the row bot finished ahead of
  the column bot (ahead in the ranking above, half for a tie)."""
from __future__ import annotations

import math
from typing import Any, Dict, List, Mapping, Sequence, Tuple

import numpy as np

ELO_PER_NAT = 400.0 / math.log(10.0)
PRIOR_SD_ELO = 1000.0


def ranks_of(game: Mapping[str, Any]) -> List[int]:
    """Rank per seat (0 best): the winners share rank 0, the others follow by score."""
    scores = list(game["scores"])
    winners = set(game["winners"])
    order = sorted(set(s for i, s in enumerate(scores) if i not in winners), reverse=True)
    return [0 if i in winners else 1 + order.index(s) for i, s in enumerate(scores)]


def wilson(successes: float, n: int, z: float = 1.96) -> Tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(games: Sequence[Mapping[str, Any]], bots: Sequence[str]) -> Dict[str, Tuple[float, float]]:
    """{bot: (rating, half-width of the 95% interval)} from 2-player games."""
    index = {b: i for i, b in enumerate(bots)}
    n = len(bots)
    pairs = []
    for g in games:
        if len(g["seats"]) != 2:
            raise ValueError("elo: only 2-player games; use openskill for more players")
        a, b = index[g["seats"][0]], index[g["seats"][1]]
        if a == b:
            continue
        w = set(g["winners"])
        s = 0.5 if len(w) == 2 else (1.0 if 0 in w else 0.0)
        pairs.append((a, b, s))
    if not pairs:
        return {b: (0.0, float("inf")) for b in bots}
    ia = np.array([p[0] for p in pairs])
    ib = np.array([p[1] for p in pairs])
    s = np.array([p[2] for p in pairs])
    prior = 1.0 / (PRIOR_SD_ELO / ELO_PER_NAT) ** 2
    r = np.zeros(n)
    hess = np.eye(n)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(r[ia] - r[ib])))
        grad = -prior * r
        np.add.at(grad, ia, s - p)
        np.add.at(grad, ib, p - s)
        w = p * (1 - p)
        hess = prior * np.eye(n)
        np.add.at(hess, (ia, ia), w)
        np.add.at(hess, (ib, ib), w)
        np.add.at(hess, (ia, ib), -w)
        np.add.at(hess, (ib, ia), -w)
        step = np.linalg.solve(hess, grad)
        r += step
        if np.max(np.abs(step)) < 1e-10:
            break
    cov = np.linalg.inv(hess)
    centre = np.eye(n) - 1.0 / n  # ratings relative to their mean
    cov = centre @ cov @ centre.T
    r = r - r.mean()
    return {b: (float(r[i] * ELO_PER_NAT), float(1.96 * math.sqrt(max(cov[i, i], 0.0)) * ELO_PER_NAT))
            for i, b in enumerate(bots)}


def openskill_ratings(games: Sequence[Mapping[str, Any]], bots: Sequence[str]) -> Dict[str, Tuple[float, float]]:
    """{bot: (mu, sigma)} with openskill's Plackett-Luce model; raises ImportError without it."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in bots}
    for g in sorted(games, key=lambda g: g["id"]):
        seats = list(g["seats"])
        if len(seats) < 2 or len(set(seats)) != len(seats):
            continue  # a bot alone (solo against a scripted opponent) or against itself: no rating information
        teams = model.rate([[ratings[b]] for b in seats], ranks=ranks_of(g))
        for b, team in zip(seats, teams):
            ratings[b] = team[0]
    return {b: (float(r.mu), float(r.sigma)) for b, r in ratings.items()}


def standings(games: Sequence[Mapping[str, Any]], bots: Sequence[str]) -> List[Dict[str, Any]]:
    """One row per bot, best first: games, wins, win rate and interval, mean score, ratings."""
    rows = {b: dict(bot=b, games=0, wins=0.0, score_sum=0.0, return_sum=0.0, seconds=0.0, moves=0) for b in bots}
    solo = bool(games) and all(len(g["seats"]) == 1 for g in games)
    two_player = bool(games) and all(len(g["seats"]) == 2 for g in games)
    for g in games:
        w = g["winners"]
        for seat, b in enumerate(g["seats"]):
            row = rows[b]
            row["games"] += 1
            row["score_sum"] += g["scores"][seat]
            if "returns" in g:
                row["return_sum"] += g["returns"][seat]
            if seat in w:
                row["wins"] += 1.0 / len(w)
            row["seconds"] += g.get("seconds", [0.0] * len(g["seats"]))[seat]
            row["moves"] += g.get("moves", [0] * len(g["seats"]))[seat]
    elo_r = elo(games, bots) if two_player else {}
    try:
        skill = {} if solo else openskill_ratings(games, bots)
    except ImportError:
        skill = {}
    out = []
    for b in bots:
        row = rows[b]
        n = row["games"]
        lo, hi = wilson(row["wins"], n)
        entry: Dict[str, Any] = dict(
            bot=b, games=n, wins=row["wins"], win_rate=row["wins"] / n if n else 0.0, win_rate_low=lo,
            win_rate_high=hi, mean_score=row["score_sum"] / n if n else 0.0,
            ms_per_move=1000.0 * row["seconds"] / row["moves"] if row["moves"] else 0.0)
        if solo:  # one seat against a scripted opponent (Gaudí solo): the mean return is the mean result against it
            entry["mean_return"] = row["return_sum"] / n if n else 0.0
        if b in elo_r:
            entry["elo"], entry["elo_ci"] = elo_r[b]
        if b in skill:
            entry["mu"], entry["sigma"] = skill[b]
            entry["mu_low"], entry["mu_high"] = skill[b][0] - 2 * skill[b][1], skill[b][0] + 2 * skill[b][1]
        out.append(entry)
    key = (lambda e: e["elo"]) if two_player else (lambda e: e.get("mu", e["win_rate"]))
    if solo:
        out.sort(key=lambda e: (-e["win_rate"], -e["mean_return"], e["bot"]))
    else:
        out.sort(key=lambda e: (-key(e), e["bot"]))
    return out


def pairwise(games: Sequence[Mapping[str, Any]], bots: Sequence[str]) -> Tuple[np.ndarray, np.ndarray]:
    """(rate, count): rate[i, j] = how often bot i finished ahead of bot j when both played
    (half for a tie); count[i, j] = how many games they shared. NaN where they never met."""
    index = {b: i for i, b in enumerate(bots)}
    n = len(bots)
    ahead = np.zeros((n, n))
    count = np.zeros((n, n), dtype=np.int64)
    for g in games:
        ranks = ranks_of(g)
        seats = g["seats"]
        for x in range(len(seats)):
            for y in range(len(seats)):
                i, j = index[seats[x]], index[seats[y]]
                if x == y or i == j:
                    continue
                count[i, j] += 1
                ahead[i, j] += 1.0 if ranks[x] < ranks[y] else (0.5 if ranks[x] == ranks[y] else 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(count > 0, ahead / np.maximum(count, 1), np.nan)
    return rate, count
