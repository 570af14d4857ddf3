"""Rated tournaments between bots, in local worker processes or on a Ray cluster.

    >>> import tilecraft
    >>> t = tilecraft.tournament("azul", ["random", "greedy", "mcts:iterations=200"],
    ...                          games_per_pairing=20, workers=2, out="azul.jsonl")
    >>> print(t.table())

Schedule: for 2-player games every pair of bots plays ``games_per_pairing`` games (round robin);
for 3-4 players every combination of that many bots forms a table that plays
``games_per_pairing`` games. With ``seats="rotate"`` the seating of a table rotates by one seat
every game, so over a multiple of the player count every bot sits in every seat equally often,
and the games of one rotation cycle share a deal (the same game seed), which removes the luck of
the deal from the comparison. Game seeds come from ``seed``; each bot is seeded per game and
seat from the game seed, so a game's result depends on its seed and bots only: the local and the
Ray backend, and any number of workers, give the same results.

Results are appended to ``out`` (JSON lines) as games complete: a header line describing the
tournament, then one line per game with its id, seed, seats, scores, returns, winners, actions
and thinking time. Running the same tournament again with the same ``out`` skips the games
already there (a stopped tournament resumes where it stopped; nothing finished is replayed or
lost). Ctrl-C (or SIGTERM) stops cleanly: running games are abandoned, finished ones are kept.
"""
from __future__ import annotations

import csv
import dataclasses
import json
import math
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

from . import _args
from ._args import is_integer
from .agents.bots import make_bot
from .games import game_spec
from .records import HEADER_FIELDS, load_results, read_header, schedule  # noqa: F401  (importable from here too)
from .records import different_header, parse_lines, public_header, repair_tail
from .ratings import pairwise, standings

FORMAT = 1


def _label(bot: Any) -> str:
    if isinstance(bot, str):
        return bot
    return str(getattr(bot, "name", None) or type(bot).__name__)


def bot_labels(bots: Sequence[Any]) -> List[str]:
    """Unique display names: the spec string, or a bot object's name (numbered when repeated)."""
    labels: List[str] = []
    for b in bots:
        base = _label(b)
        label, k = base, 2
        while label in labels:
            label, k = f"{base}#{k}", k + 1
        labels.append(label)
    return labels


def run_game(job: Dict[str, Any]) -> Dict[str, Any]:
    """Plays one scheduled game (in whatever process or Ray worker runs it) and returns its record."""
    from .match import play_match

    r = play_match(job["game"], job["bots"], seed=job["seed"], players=job["players"], **job["options"])
    seconds = [0.0] * r.players
    moves = [0] * r.players
    for seat, t in zip(r.actors, r.move_seconds):
        if seat >= 0:
            seconds[seat] += t
            moves[seat] += 1
    return dict(type="game", id=job["id"], seed=job["seed"], seats=job["labels"], scores=r.scores,
                returns=r.returns, winners=r.winners, actions=r.actions, seconds=seconds, moves=moves)


@dataclasses.dataclass
class TournamentResult:
    game: str
    players: int
    bots: List[str]
    games: List[Dict[str, Any]]  # one record per finished game, by id
    scheduled: int
    interrupted: bool = False
    out: Optional[str] = None
    # what the caller should know about the results file (e.g. it holds more games per pairing)
    note: Optional[str] = None

    @property
    def complete(self) -> bool:
        return len(self.games) == self.scheduled

    def standings(self) -> List[Dict[str, Any]]:
        return standings(self.games, self.bots)

    def win_matrix(self):
        """(rate, count) numpy matrices: how often row finished ahead of column (see ratings.pairwise)."""
        return pairwise(self.games, self.bots)

    def table(self) -> str:
        return format_standings(self.standings(), len(self.games), self.scheduled)

    def to_csv(self, path: str) -> None:
        rows = self.standings()
        keys = list(dict.fromkeys(k for r in rows for k in r))
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=keys)
            w.writeheader()
            w.writerows(rows)

    def to_json(self, path: str) -> None:
        rate, count = self.win_matrix()
        data = dict(game=self.game, players=self.players, bots=self.bots, games=len(self.games),
                    scheduled=self.scheduled, standings=self.standings(),
                    win_matrix=[[None if math.isnan(x) else x for x in row] for row in rate.tolist()],
                    games_matrix=count.tolist())
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)

    def plot(self, path: str) -> None:
        """Win-rate matrix and rating intervals, as PNG or SVG (by the extension); needs matplotlib."""
        plot_tournament(self, path)


def _pyplot(path: str) -> Any:
    """matplotlib.pyplot for a plot written to ``path`` (.png or .svg); a clear error otherwise."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in (".png", ".svg"):
        raise ValueError(f"tournament plot: the file must end in .png or .svg, got {path!r}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("the tournament plot needs matplotlib: pip install 'tilecraft[plot]'") from None
    return plt


def plot_tournament(result: TournamentResult, path: str) -> None:
    plt = _pyplot(path)
    rows = result.standings()
    rate, count = result.win_matrix()
    n = len(result.bots)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(6 + 1.2 * n, 1.5 + 0.7 * n))
    im = ax1.imshow(rate, vmin=0, vmax=1, cmap="RdYlGn")
    ax1.set_xticks(range(n), result.bots, rotation=45, ha="right")
    ax1.set_yticks(range(n), result.bots)
    for i in range(n):
        for j in range(n):
            if count[i, j]:
                ax1.text(j, i, f"{100 * rate[i, j]:.0f}%", ha="center", va="center", fontsize=8)
    ax1.set_title("row finishes ahead of column")
    fig.colorbar(im, ax=ax1, fraction=0.046)
    names = [r["bot"] for r in rows][::-1]
    if all("elo" in r for r in rows):
        centre = [r["elo"] for r in rows][::-1]
        err = [r["elo_ci"] for r in rows][::-1]
        ax2.set_xlabel("Elo (95% interval)")
    elif all("mu" in r for r in rows):
        centre = [r["mu"] for r in rows][::-1]
        err = [2 * r["sigma"] for r in rows][::-1]
        ax2.set_xlabel("OpenSkill mu ± 2 sigma")
    else:
        centre = [100 * r["win_rate"] for r in rows][::-1]
        err = [[100 * (r["win_rate"] - r["win_rate_low"]) for r in rows][::-1],
               [100 * (r["win_rate_high"] - r["win_rate"]) for r in rows][::-1]]
        ax2.set_xlabel("win % (95% interval)")
    ax2.errorbar(centre, range(n), xerr=err, fmt="o", capsize=4)
    ax2.set_yticks(range(n), names)
    ax2.set_title(f"{result.game}, {len(result.games)} games")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def fixed_point(x: float, width: int, digits: int) -> str:
    """``x`` right-aligned with ``digits`` decimals; a value that rounds to zero prints without a sign."""
    if isinstance(x, float) and math.isfinite(x) and round(x, digits) == 0:
        x = 0.0
    return f"{x:>{width}.{digits}f}"


def format_standings(rows: Sequence[Dict[str, Any]], done: int, scheduled: int) -> str:
    has_elo = any("elo" in r for r in rows)
    has_mu = any("mu" in r for r in rows)
    width = max([len(r["bot"]) for r in rows] + [3])
    head = f"{'#':>2} {'bot':<{width}} {'games':>6} {'win %':>6} {'95% interval':>14} {'mean score':>10}"
    has_ret = any("mean_return" in r for r in rows)
    if has_ret:
        head += f" {'mean return':>11}"
    if has_elo:
        head += f" {'Elo':>7} {'± 95%':>6}"
    if has_mu:
        head += f" {'mu':>6} {'± 2σ':>6}"
    head += f" {'ms/move':>8}"
    lines = [f"standings after {done}/{scheduled} games", head]
    for i, r in enumerate(rows, 1):
        interval = f"{100 * r['win_rate_low']:.1f}-{100 * r['win_rate_high']:.1f}%"
        line = (f"{i:>2} {r['bot']:<{width}} {r['games']:>6} {100 * r['win_rate']:>5.1f}% "
                f"{interval:>14} {fixed_point(r['mean_score'], 10, 2)}")
        if has_ret:
            line += " " + fixed_point(r["mean_return"], 11, 2)
        if has_elo:
            line += f" {fixed_point(r.get('elo', float('nan')), 7, 0)} {fixed_point(r.get('elo_ci', float('nan')), 6, 0)}"
        if has_mu:
            line += f" {fixed_point(r.get('mu', float('nan')), 6, 2)} {fixed_point(2 * r.get('sigma', float('nan')), 6, 2)}"
        line += " " + fixed_point(r["ms_per_move"], 8, 2)
        lines.append(line)
    return "\n".join(lines)


def _header(game: str, players: int, options: Dict[str, Any], labels: List[str], games_per_pairing: int,
            seats: str, seed: int) -> Dict[str, Any]:
    return dict(type="header", format=FORMAT, game=game, players=players, options=options, bots=labels,
                games_per_pairing=games_per_pairing, seats=seats, seed=seed)


def _same_but_count(old: Dict[str, Any], new: Dict[str, Any]) -> bool:
    key = "games_per_pairing"
    return {k: v for k, v in public_header(old).items() if k != key} == {k: v for k, v in public_header(new).items() if k != key}


def _extend_results(path: str, old: Dict[str, Any], header: Dict[str, Any]) -> None:
    """Rewrites a file that holds the same tournament with fewer games per pairing for the larger
    count: the new header, and every finished game under its id in the larger schedule (game g of
    table t keeps its seed and seating: ids are t * games_per_pairing + g). The rewrite goes
    through a temporary file, so a crash leaves either file."""
    key = "games_per_pairing"
    games = load_results(path, old)
    tmp = path + ".extending"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps(header) + "\n")
        for record in games:
            table, g = divmod(int(record["id"]), old[key])
            f.write(json.dumps(dict(record, id=table * header[key] + g)) + "\n")
    os.replace(tmp, path)


def _repair_last_line(path: str) -> None:
    """Before appending: a last line that is not a JSON record (a writer killed mid-line, or a
    damaged file) is removed (records.repair_tail: the file as it was kept as ``PATH.bak``, stderr
    says so), so that new records do not follow it; that game is played again. A complete last
    record without its newline gets one."""
    lines = parse_lines(path)
    if not lines:
        return
    number, item = lines[-1]
    repair_tail(path, number if item is not None else number - 1,
                "the last line is not a complete JSON record (a writer stopped mid-line?); removed it, that game "
                "is played again")


class _Progress:
    """A progress bar (tqdm when installed, else a plain line on stderr) with the current leaders."""

    def __init__(self, total: int, initial: int, labels: List[str], enabled: bool):
        self.enabled = enabled
        self.labels = labels
        self.wins = {b: 0.0 for b in labels}
        self.played = {b: 0 for b in labels}
        self.bar = None
        self.total, self.done, self.start, self.start_done = total, initial, time.perf_counter(), initial
        if enabled:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, initial=initial, unit="game", file=sys.stderr, dynamic_ncols=True)
            except ImportError:
                self.bar = None

    def add(self, record: Dict[str, Any], count: bool = True) -> None:
        for seat, b in enumerate(record["seats"]):
            self.played[b] += 1
            if seat in record["winners"]:
                self.wins[b] += 1.0 / len(record["winners"])
        if not count or not self.enabled:
            return
        self.done += 1
        best = sorted(self.labels, key=lambda b: -self.wins[b] / max(1, self.played[b]))[:3]
        leaders = " ".join(f"{b}={100 * self.wins[b] / max(1, self.played[b]):.0f}%" for b in best)
        if self.bar is not None:
            self.bar.set_postfix_str(leaders, refresh=False)
            self.bar.update(1)
        else:
            elapsed = time.perf_counter() - self.start
            rate = (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0
            eta = (self.total - self.done) / rate if rate > 0 else float("nan")
            print(f"\r{self.done}/{self.total} games, ETA {eta:.0f}s, win rates: {leaders}", end="",
                  file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.enabled:
            print(file=sys.stderr)


def _worker_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # Pool.terminate() must still stop a worker


def _raise_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _stop_on_sigterm() -> Optional[Any]:
    """In the main thread, makes SIGTERM stop the tournament like Ctrl-C; returns the old handler."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _raise_interrupt)


# Libraries whose threads make a forked child deadlock (JAX says so when a process that loaded it forks):
# with one of them loaded, the workers come from a fresh server process instead of this one.
FORK_UNSAFE = ("jax",)


def _start_method(methods: Sequence[str]) -> Optional[str]:
    """fork where the platform has it (the workers start at once, with this process's bots), but
    forkserver once a library that forbids forking is loaded in this process (jobs then pickle)."""
    if "fork" in methods and not any(m in sys.modules for m in FORK_UNSAFE):
        return "fork"
    return "forkserver" if "forkserver" in methods else None


def _run_local(jobs: List[Dict[str, Any]], workers: int, on_result: Callable[[Dict[str, Any]], None]) -> None:
    if workers == 1 or len(jobs) <= 1:
        for job in jobs:
            on_result(run_game(job))
        return
    import multiprocessing

    ctx = multiprocessing.get_context(_start_method(multiprocessing.get_all_start_methods()))
    pool = ctx.Pool(min(workers, len(jobs)), initializer=_worker_signals)
    try:
        for record in pool.imap_unordered(run_game, jobs):
            on_result(record)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def tournament(game: str, bots: Sequence[Any], games_per_pairing: int = 10, seats: str = "rotate",
               workers: Optional[int] = None, backend: str = "local", players: int = 2, seed: int = 0,
               out: Optional[str] = None, progress: bool = False, csv_path: Optional[str] = None,
               json_path: Optional[str] = None, plot_path: Optional[str] = None,
               ray_address: Optional[str] = None, options: Optional[Dict[str, Any]] = None) -> TournamentResult:
    """Runs (or resumes) a tournament and returns its result.

    ``bots``: specs for ``make_bot`` (``"mcts:iterations=400"``, ``"pkg.module:MyBot"``) or bot
    objects (picklable when run in workers). ``players``: the table size. ``workers``: processes
    (local) or concurrent tasks (Ray); default the CPU count. ``backend``: ``"local"`` or
    ``"ray"`` (``pip install tilecraft[ray]``; joins ``ray_address`` or an already initialised Ray,
    else starts a local one). ``out``: the JSON-lines results file (resumed when it exists).
    ``options``: the game's rule options. ``csv_path`` / ``json_path`` / ``plot_path`` write the
    final standings and the plot (PNG or SVG by extension; needs matplotlib)."""
    spec = game_spec(game)
    options = dict(options or {})
    values = spec.validate(players, options)
    players = int(players)
    if backend not in ("local", "ray"):
        raise ValueError(f"tournament: backend must be 'local' or 'ray', got {backend!r}")
    if workers is None:
        workers = os.cpu_count() or 1
    if not is_integer(workers) or workers < 1:
        raise ValueError(f"tournament: workers must be an integer >= 1, got {workers!r}")
    workers = int(workers)
    seed = _args.seed("tournament", seed)
    bots = list(bots)
    for b in bots:  # fail early on a bad spec or option, before any game runs
        make_bot(b, seed=0)
    if plot_path:
        _pyplot(plot_path)  # a missing matplotlib or a wrong extension, before any game is played
    labels = bot_labels(bots)
    plan = schedule(len(bots), players, games_per_pairing, seats, seed)
    games_per_pairing = int(games_per_pairing)
    header = _header(spec.name, players, values, labels, games_per_pairing, seats, seed)

    finished: Dict[int, Dict[str, Any]] = {}
    note = None
    per_file = games_per_pairing  # games per pairing of the results file (ids in the file use it)
    if out is not None and os.path.exists(out) and os.path.getsize(out) > 0:
        lines = parse_lines(out)
        if len(lines) != 1 or lines[0][1] is not None:  # (a lone damaged header: the repair empties the file)
            old = read_header(out)
            if public_header(old) != header and not _same_but_count(old, header):
                raise different_header(out, old)  # before the file is touched
        _repair_last_line(out)
    if out is not None and os.path.exists(out) and os.path.getsize(out) > 0:
        old = read_header(out)
        if public_header(old) != header and _same_but_count(old, header):
            if old["games_per_pairing"] < games_per_pairing:
                _extend_results(out, old, header)  # more games per pairing than the file's: keep its games
            else:  # fewer: this tournament is the first games_per_pairing games of each of the file's pairings
                per_file = old["games_per_pairing"]
                header = public_header(old)
                note = (f"{out} holds a tournament of {per_file} games per pairing; these results cover the first "
                        f"{games_per_pairing} of each pairing, as a tournament of {games_per_pairing} would "
                        f"(the file keeps all its games; ask for {per_file} to see them all)")
        for g in load_results(out, header):
            table, k = divmod(int(g["id"]), per_file)
            if k < games_per_pairing:
                gid = table * games_per_pairing + k
                finished[gid] = dict(g, id=gid)
    handle = None
    if out is not None:
        new_file = not os.path.exists(out) or os.path.getsize(out) == 0
        handle = open(out, "a", encoding="utf-8")
        if new_file:
            handle.write(json.dumps(header) + "\n")
            handle.flush()
    jobs = [dict(j, game=spec.name, players=players, options=values, labels=[labels[i] for i in j["seats"]],
                 bots=[bots[i] for i in j["seats"]]) for j in plan if j["id"] not in finished]
    bar = _Progress(len(plan), len(finished), labels, progress)
    for g in finished.values():
        bar.add(g, count=False)

    def on_result(record: Dict[str, Any]) -> None:
        if record["id"] in finished:
            return
        finished[record["id"]] = record
        if handle is not None:
            table, k = divmod(int(record["id"]), games_per_pairing)
            handle.write(json.dumps(dict(record, id=table * per_file + k)) + "\n")
            handle.flush()
        bar.add(record)

    interrupted = False
    old_term = _stop_on_sigterm()
    try:
        if jobs:
            if backend == "ray":
                from .distributed import run_ray

                run_ray(jobs, workers, on_result, address=ray_address, task=run_game)
            else:
                _run_local(jobs, workers, on_result)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
        bar.close()
        if handle is not None:
            handle.close()
    result = TournamentResult(game=spec.name, players=players, bots=labels,
                              games=[finished[k] for k in sorted(finished)], scheduled=len(plan),
                              interrupted=interrupted, out=out, note=note)
    if interrupted and progress:
        where = f" in {out}; run the same tournament again to resume" if out else ""
        print(f"stopped: {len(result.games)}/{len(plan)} games finished and kept{where}", file=sys.stderr)
    if csv_path:
        result.to_csv(csv_path)
    if json_path:
        result.to_json(json_path)
    if plot_path:
        result.plot(plot_path)
    return result
