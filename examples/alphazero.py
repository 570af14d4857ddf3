"""AlphaZero on a CPU with tilecraft: self-play with PUCT, train a policy-value network on the
recorded data, evaluate with the tournament runner, repeat (see docs/learning.md).

    python examples/alphazero.py --iterations 10 --games 200 --out azul_az.json
    python examples/alphazero.py --quick          # a smoke run of a minute or so

Runs with numpy alone (a small MLP trained with Adam, written out below); uses PyTorch for the
network when it is installed (``pip install 'tilecraft[torch]'``) unless ``--numpy``.

After each iteration it reports the trained PUCT's win rate against the same search guided by a
uniform-prior, zero-value evaluator (a draw for everyone: ``UniformEvaluator``) and against
GreedyBot, with 95% Wilson intervals, and the wall time so far.
"""
from __future__ import annotations

import argparse
import json
import math
import pickle
import time
from typing import Any, Dict, List, Tuple

import numpy as np

import tilecraft
from tilecraft.puct import UniformEvaluator, win_shares


# ---- the network: observation -> (policy logits, each seat's win share) ----

class NumpyNet:
    """A two-layer MLP (ReLU) with a policy head and a value head, trained with Adam in numpy.

    Observations are egocentric in every tilecraft game (the observer's seat first), so the value
    head predicts shares for seats (observer + i) mod N and the evaluator rolls them back to
    absolute seats."""

    def __init__(self, obs_size: int, actions: int, players: int, hidden: int = 128, seed: int = 0):
        rng = np.random.default_rng(seed)
        he = lambda n, m: (rng.normal(size=(n, m)) * math.sqrt(2.0 / n)).astype(np.float32)
        self.players = players
        self.p = dict(w1=he(obs_size, hidden), b1=np.zeros(hidden, np.float32),
                      w2=he(hidden, hidden), b2=np.zeros(hidden, np.float32),
                      wp=np.zeros((hidden, actions), np.float32), bp=np.zeros(actions, np.float32),
                      wv=np.zeros((hidden, players), np.float32), bv=np.zeros(players, np.float32))
        self.mu = np.zeros(obs_size, np.float32)
        self.sigma = np.ones(obs_size, np.float32)
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def normalise(self, obs: np.ndarray) -> None:
        self.mu = obs.mean(axis=0).astype(np.float32)
        self.sigma = (obs.std(axis=0) + 1.0).astype(np.float32)

    def forward(self, x: np.ndarray):
        p = self.p
        x = (x - self.mu) / self.sigma
        z1 = x @ p["w1"] + p["b1"]
        h1 = np.maximum(z1, 0)
        z2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(z2, 0)
        return x, h1, h2, h2 @ p["wp"] + p["bp"], h2 @ p["wv"] + p["bv"]

    def __call__(self, obs: np.ndarray, mask: np.ndarray, players: np.ndarray):
        """The evaluator protocol: (logits (B, A), values (B, players)) as win shares."""
        x = obs.reshape(len(obs), -1)
        _, _, _, logits, vlog = self.forward(x)
        rel = _softmax(vlog)
        n = self.players
        seats = (players[:, None] + np.arange(n)[None, :]) % n
        values = np.empty_like(rel)
        np.put_along_axis(values, seats, rel, axis=1)
        return logits, values

    def train_step(self, x, mask, pi, z, lr: float) -> Tuple[float, float]:
        p = self.p
        xn, h1, h2, logits, vlog = self.forward(x)
        b = len(x)
        logits = np.where(mask, logits, -1e9)
        q = _softmax(logits)
        pol_loss = -np.sum(pi * np.log(q + 1e-9)) / b
        qv = _softmax(vlog)
        val_loss = -np.sum(z * np.log(qv + 1e-9)) / b
        g_logits = (q - pi) / b
        g_v = (qv - z) / b
        g = {"wp": h2.T @ g_logits, "bp": g_logits.sum(0), "wv": h2.T @ g_v, "bv": g_v.sum(0)}
        g_h2 = (g_logits @ p["wp"].T + g_v @ p["wv"].T) * (h2 > 0)
        g["w2"], g["b2"] = h1.T @ g_h2, g_h2.sum(0)
        g_h1 = (g_h2 @ p["w2"].T) * (h1 > 0)
        g["w1"], g["b1"] = xn.T @ g_h1, g_h1.sum(0)
        self.t += 1
        for k in p:  # Adam, with a little weight decay
            grad = g[k] + 1e-4 * p[k]
            self.m[k] = 0.9 * self.m[k] + 0.1 * grad
            self.v[k] = 0.999 * self.v[k] + 0.001 * grad * grad
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        return float(pol_loss), float(val_loss)


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def make_torch_net(obs_size: int, actions: int, players: int, hidden: int = 128, seed: int = 0):
    """The same network in PyTorch (used when torch is installed)."""
    import torch

    torch.manual_seed(seed)

    class TorchNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.players = players
            self.register_buffer("mu", torch.zeros(obs_size))
            self.register_buffer("sigma", torch.ones(obs_size))
            self.body = torch.nn.Sequential(torch.nn.Linear(obs_size, hidden), torch.nn.ReLU(),
                                            torch.nn.Linear(hidden, hidden), torch.nn.ReLU())
            self.policy = torch.nn.Linear(hidden, actions)
            self.value = torch.nn.Linear(hidden, players)
            for head in (self.policy, self.value):
                torch.nn.init.zeros_(head.weight)
                torch.nn.init.zeros_(head.bias)
            self.opt = None

        def normalise(self, obs):
            self.mu = torch.as_tensor(obs.mean(axis=0), dtype=torch.float32)
            self.sigma = torch.as_tensor(obs.std(axis=0) + 1.0, dtype=torch.float32)

        def forward(self, x):
            h = self.body((x - self.mu) / self.sigma)
            return self.policy(h), self.value(h)

        @torch.no_grad()
        def __call__(self, obs, mask, seats):  # the evaluator protocol
            logits, vlog = self.forward(torch.from_numpy(obs.reshape(len(obs), -1)))
            rel = torch.softmax(vlog, dim=1).numpy()
            idx = (seats[:, None] + np.arange(players)[None, :]) % players
            values = np.empty_like(rel)
            np.put_along_axis(values, idx, rel, axis=1)
            return logits.numpy(), values

        def train_step(self, x, mask, pi, z, lr):
            if self.opt is None:
                self.opt = torch.optim.Adam(self.parameters(), lr=lr, weight_decay=1e-4)
            x, mask, pi, z = (torch.from_numpy(a) for a in (x, mask, pi, z))
            with torch.enable_grad():
                logits, vlog = self.forward(x)
                logits = logits.masked_fill(~mask, -1e9)
                pol = -(pi * torch.log_softmax(logits, dim=1)).sum(1).mean()
                val = -(z * torch.log_softmax(vlog, dim=1)).sum(1).mean()
                self.opt.zero_grad()
                (pol + val).backward()
                self.opt.step()
            return float(pol), float(val)

    return TorchNet()


# ---- the loop ----

def relative_targets(training: Dict[str, np.ndarray], winners: np.ndarray, players: int) -> np.ndarray:
    """Each row's value target: the game's win shares, for seats (mover + i) mod N."""
    shares = win_shares(winners)[training["game"]]
    idx = (training["player"][:, None] + np.arange(players)[None, :]) % players
    return np.take_along_axis(shares, idx, axis=1).astype(np.float32)


def train(net, data: List[Dict[str, np.ndarray]], epochs: int, batch: int, lr: float, rng) -> Tuple[float, float]:
    x = np.concatenate([d["x"] for d in data])
    mask = np.concatenate([d["mask"] for d in data])
    pi = np.concatenate([d["pi"] for d in data])
    z = np.concatenate([d["z"] for d in data])
    net.normalise(x)
    losses = []
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for s in range(0, len(x), batch):
            i = order[s:s + batch]
            losses.append(net.train_step(x[i], mask[i], pi[i], z[i], lr))
    return tuple(np.mean(losses[-max(1, len(losses) // epochs):], axis=0))


def wilson(wins: float, n: int, z: float = 1.96) -> Tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def win_rate(result, label: str) -> Tuple[float, int]:
    """Share of the wins of bot `label` over a tournament's games (a shared win counts 1/k)."""
    wins = 0.0
    for g in result.games:
        seats = [k for k, name in enumerate(g["seats"]) if name == label]
        if g["winners"]:
            wins += sum(1.0 for k in seats if k in g["winners"]) / len(g["winners"])
    return wins, len(result.games)


def evaluate(game: str, net, sims: int, games: int, seed: int) -> Dict[str, Any]:
    trained = tilecraft.PUCTBot(net, simulations=sims, batch_size=8)
    out = {}
    for name, other in (("uniform", tilecraft.PUCTBot(UniformEvaluator(2), simulations=sims, batch_size=8)),
                        ("greedy", tilecraft.GreedyBot())):
        t = tilecraft.tournament(game, [trained, other], games_per_pairing=games, workers=1, seed=seed)
        wins, n = win_rate(t, t.bots[0])
        lo, hi = wilson(wins, n)
        out[name] = dict(win_rate=wins / n, low=lo, high=hi, games=n)
    return out


def main(argv=None) -> Dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="azul")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--games", type=int, default=200, help="self-play games per iteration")
    ap.add_argument("--sims", type=int, default=64, help="PUCT simulations per move in self-play")
    ap.add_argument("--eval-sims", type=int, default=200, help="PUCT simulations per move in evaluation")
    ap.add_argument("--eval-games", type=int, default=40, help="evaluation games against each baseline")
    ap.add_argument("--concurrent", type=int, default=128)
    ap.add_argument("--window", type=int, default=4, help="iterations of data kept for training")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--numpy", action="store_true", help="use the numpy network even when torch is installed")
    ap.add_argument("--quick", action="store_true", help="a tiny run (smoke test)")
    ap.add_argument("--out", default=None, help="write the learning curve (JSON) here")
    ap.add_argument("--save", default=None, help="pickle the final network here")
    a = ap.parse_args(argv)
    if a.quick:
        a.iterations, a.games, a.sims, a.eval_sims, a.eval_games, a.concurrent = 2, 16, 16, 32, 4, 16

    probe = tilecraft.make(a.game)
    obs_size, actions, players = int(np.prod(probe.observation_shape())), probe.num_distinct_actions(), 2
    use_torch = False
    if not a.numpy:
        try:
            import torch  # noqa: F401

            use_torch = True
        except ImportError:
            pass
    net = (make_torch_net if use_torch else NumpyNet)(obs_size, actions, players, hidden=a.hidden, seed=a.seed)
    print(f"{a.game}: network {'torch' if use_torch else 'numpy'} MLP {obs_size}-{a.hidden}-{a.hidden}-"
          f"({actions}, {players}); self-play PUCT({a.sims}) x {a.games} games, evaluation PUCT({a.eval_sims}) "
          f"x {a.eval_games} games per baseline", flush=True)
    rng = np.random.default_rng(a.seed)
    start = time.perf_counter()
    window: List[Dict[str, np.ndarray]] = []
    curve = []
    for it in range(1, a.iterations + 1):
        t0 = time.perf_counter()
        bot = tilecraft.PUCTBot(simulations=a.sims, batch_size=8, root_noise=(0.3, 0.25), temperature=1.0,
                                temperature_moves=30)
        r = tilecraft.self_play(a.game, [bot], n_games=a.games, evaluator=net, seed=a.seed * 100003 + it,
                                concurrent_games=a.concurrent, record=True)
        t = r["training"]
        window.append(dict(x=t["observation"], mask=t["legal_mask"], pi=t["policy"],
                           z=relative_targets(t, r["winners"], players)))
        window = window[-a.window:]
        t1 = time.perf_counter()
        pol, val = train(net, window, a.epochs, 256, a.lr, rng)
        t2 = time.perf_counter()
        ev = evaluate(a.game, net, a.eval_sims, a.eval_games, seed=10_000 + it)
        t3 = time.perf_counter()
        row = dict(iteration=it, rows=int(len(t["player"])), policy_loss=pol, value_loss=val,
                   vs_uniform=ev["uniform"], vs_greedy=ev["greedy"], selfplay_seconds=t1 - t0,
                   train_seconds=t2 - t1, eval_seconds=t3 - t2, wall_seconds=t3 - start,
                   mean_batch=r["stats"]["mean_batch"])
        curve.append(row)
        u, g = ev["uniform"], ev["greedy"]
        print(f"iter {it:2d}: {row['rows']:6d} rows, loss policy {pol:.3f} value {val:.3f} | "
              f"vs uniform-PUCT {u['win_rate']:.2f} [{u['low']:.2f}, {u['high']:.2f}] | "
              f"vs greedy {g['win_rate']:.2f} [{g['low']:.2f}, {g['high']:.2f}] | "
              f"self-play {t1 - t0:.0f}s train {t2 - t1:.0f}s eval {t3 - t2:.0f}s, wall {t3 - start:.0f}s", flush=True)
        if a.out:
            with open(a.out, "w", encoding="utf-8") as f:
                json.dump(dict(args=vars(a), torch=use_torch, curve=curve), f, indent=1)
    if a.save:
        with open(a.save, "wb") as f:
            pickle.dump(net, f)
    return dict(curve=curve, torch=use_torch)


if __name__ == "__main__":
    main()
