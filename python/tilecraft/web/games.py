"""The games of the play server (tilecraft serve), without HTTP: one person plays one seat of a
game against bots, several games at once, each with its own id (``Lobby``). Bots think on a pool of
worker threads sized to the machine (never on the thread that answers requests), each move on a
copy of the state. A move names the action and the game's version (how many actions were applied
when the page drew it); an action that is not legal now, a stale version or a seat that is not the
person's is refused with a RequestError (HTTP 4xx) and a message, and the game is left as it was.
Only the listed bot strings are accepted, no file or data option comes from the network, and
finished and abandoned games are evicted. Needs only the standard library."""
from __future__ import annotations

import math
import os
import secrets
import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .._core import CHANCE
from .._stop import Stopped, stop_when
from ..agents.bots import make_bot
from ..games import GameSpec, UnknownGameError, game_spec, list_games
from ..match import MatchResult, bot_name, write_replay
from ..runner import Table
from ..render import move_text, svg


MAX_GAMES = 256  # games held, finished ones included
KEEP_FINISHED = 600.0  # seconds a finished game stays (to be looked at, its replay saved)
IDLE_LIMIT = 300.0  # seconds without a request after which an unfinished game may make room for a new one
# The bots a request may name, exactly these strings: each one's work per move is bounded (a fixed
# number of iterations: about 2 s a move at most on a slow machine). MCTS_ITERATIONS gives the
# MCTS levels per game: a stronger one where the game's moves are cheap (Azul, Gaudí).
MCTS_ITERATIONS: Dict[str, Tuple[int, ...]] = {"azul": (200, 1000, 4000, 10000), "gaudi": (200, 1000, 4000, 10000)}
ISMCTS_ITERATIONS = (500, 2000)


BASELINE_BOTS = ("baseline-policy", "baseline:simulations=200")  # one network call a move; 200 simulations


def default_bots(game: str) -> Tuple[str, ...]:
    """The bots the server offers for ``game``: random, greedy, then MCTS and ISMCTS levels, and the
    trained baseline (its policy alone, and PUCT with it) where one is shipped for the game."""
    from ..agents import baselines

    trained = BASELINE_BOTS if any(a["game"] == game for a in baselines.available()) else ()
    return (("random", "greedy") + tuple(f"mcts:iterations={n}" for n in MCTS_ITERATIONS.get(game, (200, 1000, 4000)))
            + tuple(f"ismcts:iterations={n}" for n in ISMCTS_ITERATIONS) + trained)


def bot_workers() -> int:
    """The bot threads of a server: one per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def network_option(o: Any) -> bool:
    """Whether a rule option may come from the network: only those whose values are a fixed set of
    choices or an integer. The others (Castle's board and tiles, Warsaw's and Gaudí's data) take a
    path or a document, which would make the server read its disk for the caller."""
    return o.choices is not None or o.kind is int


class RequestError(Exception):
    """A client mistake: answered with ``status``, the message and ``headers``, nothing changed."""

    def __init__(self, status: int, message: str, headers: Optional[Dict[str, str]] = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers or {}


class Game:
    """One game on the server: the state, who plays each seat, the record of moves.

    Chance and bot seats are played on ``pool`` (the server's bot threads; without one, a thread of
    the game's own), one turn at a time: a turn plays the chance outcomes due, then one bot move,
    then queues the next turn if a bot is to act again. stop() sets the game's stop event: a search
    under way ends within about 50 ms (tilecraft/_stop.py) and its move is dropped, a turn still
    queued is cancelled, and nothing more is queued."""

    def __init__(self, gid: str, game: str, players: int, human: int, bots: List[Optional[str]], seed: int,
                 options: Dict[str, Any], clock: Callable[[], float] = time.monotonic,
                 pool: Optional[Executor] = None) -> None:
        spec = game_spec(game)
        self.id, self.spec, self.players, self.human, self.seed = gid, spec, players, human, seed
        self.options = spec.validate(players, options)
        self.state = spec.new_state(players, seed, self.options)
        self.bot_specs = bots
        # seats seeded and chance sampled as play_match does (tilecraft/runner.py), so a saved game replays
        self.table = Table(self.state, bots, seed, open_seats=(human,))  # listed specs: see Lobby.new
        self.bots: Dict[int, Any] = self.table.bots
        self.actions: List[int] = []
        self.actors: List[int] = []
        self.seconds: List[float] = []
        self.log: List[str] = []
        self.lock = threading.RLock()
        self.thinking: Optional[Tuple[int, float]] = None  # (seat, start time)
        self.error: Optional[str] = None
        self.created = time.time()
        self.clock = clock
        self.finished_at: Optional[float] = None  # clock() when the game ended (or a bot failed)
        self.touched = clock()  # clock() at the page's last request for this game (Lobby.get)
        self._stop = threading.Event()  # set by request_stop(): ends the search under way, queues nothing more
        self._own_pool = pool is None
        self._pool: Executor = pool or ThreadPoolExecutor(1, thread_name_prefix=f"tilecraft-game-{gid}")
        self._turn: Optional[Future] = None  # the bot turn queued or under way
        self._svg: Tuple[int, str] = (-1, "")  # the picture of version k, drawn once
        with self.lock:
            self._queue_turn()

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    @property
    def busy(self) -> bool:
        """Whether a bot turn is queued or under way."""
        with self.lock:
            return self._turn is not None

    def _fail(self, message: str) -> None:  # under the lock: the game cannot go on
        self.error = message
        self.thinking = None
        self.finished_at = self.clock()

    def _apply(self, action: int, seat: int, spent: float) -> None:
        who = "chance" if seat == CHANCE else f"seat {seat}"
        self.log.append(f"{who}: {move_text(self.state, action)}")
        self.state.apply(action)
        self.actions.append(action)
        self.actors.append(seat)
        self.seconds.append(spent)
        if self.state.is_terminal():
            self.finished_at = self.clock()

    def _queue_turn(self) -> None:
        """Under the lock: queues a turn of the bots when one is due and none is queued."""
        if (self._turn is not None or self.stopped or self.error is not None or self.state.is_terminal()
                or self.state.current_player() == self.human):
            return
        try:
            self._turn = self._pool.submit(self._play_turn)
        except RuntimeError:  # the pool is shut down: the server is closing
            self._stop.set()

    def _play_turn(self) -> None:
        """On a bot thread: the chance outcomes due, then one bot move; queues the next turn."""
        with self.lock:
            while not self.stopped and self.state.current_player() == CHANCE:
                self._apply(int(self.table.sample_chance()), CHANCE, 0.0)
            seat = self.state.current_player()
            if self.stopped or self.state.is_terminal() or seat == self.human:
                self._turn = None
                return
            view = self.state.clone()
            self.thinking = (seat, time.time())
        start = time.perf_counter()
        try:
            with stop_when(self._stop):  # request_stop() ends the search under way within ~50 ms
                action = int(self.bots[seat].act(view))
        except Exception as e:  # Stopped, or a bot failing: it stops the game with a message, never the server
            with self.lock:
                self.thinking, self._turn = None, None
                if not self.stopped and not isinstance(e, Stopped):
                    self._fail(f"bot of seat {seat} failed: {type(e).__name__}: {e}")
            return
        spent = time.perf_counter() - start
        with self.lock:
            self.thinking, self._turn = None, None
            if self.stopped:  # stopped as the search ended: the move is dropped
                return
            try:
                self._apply(action, seat, spent)
            except ValueError as e:
                self._fail(f"bot of seat {seat} chose an illegal move: {e}")
                return
            self._queue_turn()

    def request_stop(self) -> None:
        """Stops the search under way (see tilecraft/_stop.py), cancels a queued turn, queues no more."""
        self._stop.set()
        with self.lock:
            turn = self._turn
        if turn is not None and turn.cancel():
            with self.lock:
                self._turn = None

    def stop(self, timeout: float = 5.0) -> None:
        """request_stop(), then waits for the turn under way (a search stops within about 50 ms)."""
        self.request_stop()
        with self.lock:
            turn = self._turn
        if turn is not None:
            wait_futures([turn], timeout)
        if self._own_pool:
            self._pool.shutdown(wait=False)

    def move(self, action: Any, version: Any) -> Dict[str, Any]:
        """The person's move; returns the view right after it (before any bot replies). Raises
        RequestError and leaves the game unchanged when it cannot be played."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise RequestError(400, f"'action' must be an integer action id, got {action!r}")
        if isinstance(version, bool) or not isinstance(version, int):
            raise RequestError(400, "'version' must be the game's version the move was chosen at")
        with self.lock:
            if self.state.is_terminal():
                raise RequestError(409, "the game is over")
            if version != self.version:
                raise RequestError(409, f"stale move: the game is at version {self.version}, the request was "
                                        f"made at {version}; reload the position")
            if self.state.current_player() != self.human:
                raise RequestError(409, f"not your turn: seat {self.state.current_player()} is to act")
            legal = set(int(a) for a in self.state.legal_actions())
            if action not in legal:
                raise RequestError(400, f"action {action} is not a legal move now")
            self._apply(action, self.human, 0.0)
            view = self.view()
            self._queue_turn()
        return view

    def _picture(self) -> str:  # under the lock
        if self._svg[0] != self.version:
            self._svg = (self.version, svg(self.state, self.human))
        return self._svg[1]

    def view(self) -> Dict[str, Any]:
        with self.lock:
            s = self.state
            terminal = s.is_terminal()
            to_move = s.current_player()
            legal: List[Dict[str, Any]] = []
            if not terminal and to_move == self.human:
                legal = [{"action": int(a), "name": s.action_to_string(int(a))} for a in s.legal_actions()]
            thinking = None
            if self.thinking is not None:
                thinking = {"seat": self.thinking[0], "seconds": round(time.time() - self.thinking[1], 1),
                            "bot": self.bot_specs[self.thinking[0]]}
            if terminal:
                w = [int(x) for x in s.winners()]
                names = ["you" if p == self.human else f"seat {p}" for p in w]
                status = "game over: " + (f"{names[0]} win{'' if w == [self.human] else 's'}" if len(w) == 1 else
                                          f"{', '.join(names[:-1])} and {names[-1]} share the win")
            elif to_move == self.human:
                status = "your move"
            elif to_move == CHANCE:
                status = "chance"
            else:
                status = f"seat {to_move} ({self.bot_specs[to_move]}) is thinking"
            return {
                "id": self.id, "game": self.spec.name, "title": self.spec.title, "players": self.players,
                "seat": self.human,
                "bots": [None if p == self.human else self.bot_specs[p] for p in range(self.players)],
                "version": self.version, "to_move": int(to_move), "terminal": terminal, "status": status,
                "winners": [int(x) for x in s.winners()] if terminal else None,
                "scores": [float(x) for x in s.scores()], "legal": legal, "thinking": thinking,
                "svg": self._picture(), "log": self.log[-30:], "error": self.error,
                "bot_seconds": [round(sum(t for a, t in zip(self.actors, self.seconds) if a == p), 2)
                                for p in range(self.players)],
            }

    def replay_text(self) -> str:
        with self.lock:
            s = self.state
            if not s.is_terminal():
                raise RequestError(409, "the game is not finished yet; a replay is saved at the end")
            names = [("human" if p == self.human else bot_name(self.bots[p])) for p in range(self.players)]
            result = MatchResult(
                game=self.spec.name, players=self.players, seed=self.seed, options=dict(self.options), bots=names,
                scores=[float(x) for x in s.scores()], returns=[float(x) for x in s.returns()],
                winners=list(s.winners()), actions=list(self.actions), actors=list(self.actors),
                move_seconds=list(self.seconds))

        class _Buf:
            text = ""

            def write(self, t: str) -> None:
                self.text += t

        buf = _Buf()
        write_replay(result, buf)  # type: ignore[arg-type]
        return buf.text


class Lobby:
    """The games on this server and the bot threads they share. ``bots``: the bot specs a request
    may name, the same for every game (default: each game's ladder, default_bots); ``clock``: the
    time source of eviction; ``max_games``: games held at once; ``idle_limit``: seconds without a
    request after which an unfinished game may be closed to make room (IDLE_LIMIT)."""

    def __init__(self, bots: Optional[Sequence[str]] = None, clock: Callable[[], float] = time.monotonic,
                 max_games: int = MAX_GAMES, idle_limit: float = IDLE_LIMIT) -> None:
        self.games: Dict[str, Game] = {}
        self.lock = threading.Lock()
        self.clock = clock
        self.max_games = max_games
        self.idle_limit = idle_limit
        self._bots = None if bots is None else tuple(bots)
        for spec in self._bots or ():
            make_bot(spec)  # a bad list fails here, at start, not at a player's request
        self.pool = ThreadPoolExecutor(bot_workers(), thread_name_prefix="tilecraft-bots")

    def bots(self, game: str) -> Tuple[str, ...]:
        """The exact bot specs a new game of ``game`` accepts."""
        return default_bots(game) if self._bots is None else self._bots

    def catalogue(self) -> Dict[str, Any]:
        games = []
        names = list_games()
        for name in names:
            spec = game_spec(name)
            games.append({"name": name, "title": spec.title, "players": list(spec.players),
                          "bots": list(self.bots(name)),
                          "options": [o.name for o in spec.options if network_option(o)]})
        # "bots": the specs every game accepts (the page's one list); each game lists its own
        first = self.bots(names[0]) if names else ()
        return {"games": games, "bots": [b for b in first if all(b in self.bots(n) for n in names)]}

    def _check_bot(self, game: str, spec: Any) -> str:
        allowed = self.bots(game)
        if not isinstance(spec, str) or spec not in allowed:  # never an import path or options from the network
            raise RequestError(400, f"{game}: bot {spec!r} is not offered; the bots are exactly: {', '.join(allowed)}")
        return spec

    @staticmethod
    def _check_options(spec: GameSpec, options: Any) -> Dict[str, Any]:
        if not isinstance(options, dict):
            raise RequestError(400, "'options' must be an object of rule options")
        allowed = [o.name for o in spec.options if network_option(o)]
        for name in options:
            if name not in allowed and name in {o.name for o in spec.options}:
                # the same answer whatever the value: nothing is read, so nothing is revealed
                raise RequestError(400, f"{spec.name}: option {name!r} takes a file or data and is not accepted "
                                        f"over the network; the options here are: {', '.join(allowed) or '(none)'}")
        return options  # unknown names and bad values: GameSpec.validate, in Game

    def new(self, body: Dict[str, Any]) -> Game:
        name = body.get("game")
        try:
            spec = game_spec(name)  # type: ignore[arg-type]
        except UnknownGameError as e:
            raise RequestError(404, str(e)) from None
        players = body.get("players", spec.players[0])
        if isinstance(players, bool) or not isinstance(players, int) or players not in spec.players:
            raise RequestError(400, f"{spec.name}: players must be one of {', '.join(map(str, spec.players))}, "
                                    f"got {players!r}")
        seat = body.get("seat", 0)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise RequestError(400, f"seat must be 0..{players - 1}, got {seat!r}")
        bots = body.get("bots", ["random"] * players)
        if not isinstance(bots, list) or len(bots) != players:
            raise RequestError(400, f"'bots' must list one bot per seat ({players}); the person's seat is ignored")
        checked = [None if p == seat else self._check_bot(spec.name, b) for p, b in enumerate(bots)]
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RequestError(400, f"seed must be an integer, got {seed!r}")
        options = self._check_options(spec, body.get("options", {}))
        with self.lock:
            evicted, wait = self._evict(room_for_one=True)
            try:
                if wait > 0:
                    retry = max(1, math.ceil(wait))
                    raise RequestError(429, f"{len(self.games)} unfinished games are held, the most this server keeps, "
                                            f"and each had a request in the last {self.idle_limit:g} s; the one "
                                            f"left longest makes room in {retry} s: retry then",
                                       {"Retry-After": str(retry)})
                gid = secrets.token_hex(6)
                try:
                    game = Game(gid, spec.name, players, seat, checked, seed, options, self.clock, self.pool)
                except (ValueError, TypeError) as e:
                    raise RequestError(400, str(e)) from None
                self.games[gid] = game
            finally:
                for g in evicted:
                    g.request_stop()
        return game

    def _evict(self, room_for_one: bool = False) -> Tuple[List[Game], float]:
        """Under the lock: drops the games that finished KEEP_FINISHED seconds ago or more and, to
        make room for one more game when max_games are held, the one that finished first or else
        the unfinished one left longest, once it has had no request for idle_limit seconds. Returns
        the dropped games (to be stopped) and, when no room could be made, the seconds until there
        is (else 0)."""
        now = self.clock()
        finished = sorted((g for g in self.games.values() if g.finished_at is not None),
                          key=lambda g: g.finished_at or 0.0)
        gone = [g for g in finished if now - (g.finished_at or 0.0) >= KEEP_FINISHED]
        for g in gone:
            del self.games[g.id]
        if room_for_one and self.games and len(self.games) >= self.max_games:
            if len(finished) > len(gone):
                oldest = finished[len(gone)]
            else:  # all unfinished: the one left longest, if it has been left long enough
                oldest = min(self.games.values(), key=lambda g: g.touched)
                if now - oldest.touched < self.idle_limit:
                    return gone, self.idle_limit - (now - oldest.touched)
            del self.games[oldest.id]
            gone.append(oldest)
        return gone, 0.0

    def get(self, gid: str) -> Game:
        """The game ``gid`` (a request for it: it is not idle now)."""
        with self.lock:
            evicted, _ = self._evict()
            game = self.games.get(gid)
            if game is not None:
                game.touched = self.clock()
            for g in evicted:
                g.request_stop()
        if game is None:
            raise RequestError(404, f"no game {gid!r} on this server (a finished game is kept "
                                    f"{KEEP_FINISHED / 60:g} minutes; an unfinished one without a request "
                                    f"for {self.idle_limit / 60:g} minutes may make room for a new game)")
        return game

    def close(self) -> None:
        """Stops every game's bots (and the search under way), waits for them, ends the bot threads."""
        with self.lock:
            games = list(self.games.values())
        for g in games:  # ask all first: the searches stop in parallel
            g.request_stop()
        for g in games:
            g.stop()
        self.pool.shutdown(wait=False, cancel_futures=True)
