"""Self-play statistics of a Gaudí edition (issue 8 item 1; docs/gaudi.md, "Self-play
statistics"). Games are played by the C++ batch runner (``tilecraft.self_play``, random or greedy
bots in every seat) and replayed action by action through the Python API, reading the state's
read-only views (positions, columns, chimneys, windows, areas, scores) before and after each
action. Nothing here changes the engine or the data.

    PYTHONPATH=python python3 bench/gaudi_stats.py --games 200            # markdown tables
    PYTHONPATH=python python3 bench/gaudi_stats.py --games 50 --players 4 --bots greedy --json out.json

What is counted:
- length: turns (MOVE decisions, extra turns included) and player actions per game;
- scores: each domain after end scoring, the tile bonus, the final score; seat win shares;
- decisions: how often each action type is chosen (and, for RESOLVE, each catalogue entry);
- effects: an effect *fires* when its source fires: a card's banner at each resolution of its
  column (Nature: every Nature play and every "resolve N"; Catalan: each "resolve C" x k, counted
  at the source with the column as it stands then), the column's board reward at each resolution,
  a chimney space's reward when the marker reaches it, a central option when chosen, an area's or
  window's bonus when emptying it triggers it (once per kind per turn); VP then apply at once and
  the other effects become items the player may carry out (RESOLVE) or decline;
- cards: taken from a window, played, discarded, in a column at the end, dealt as starting card;
  Religion conditions: how often a card in a column scores at the end, and how much;
- chimney spaces reached, end effects reached, central options chosen, bonuses triggered.
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import sys
import time
from typing import Any, Dict, List

import numpy as np

import tilecraft
from tilecraft.games import gaudi as G

DOMAINS = ("N", "C", "R")
ENTRY_NAMES: Dict[int, str] = {}


def _entry_names(ed: Dict[str, Any]) -> Dict[int, str]:
    colours, shapes = ed["names"]["colours"], ed["names"]["shapes"]
    out = {}
    for c in range(4):
        for s in range(4):
            out[4 * c + s] = f"tile({colours[c]}/{shapes[s]})"
    for s in range(4):
        out[16 + s] = f"tile({shapes[s]})"
    for c in range(4):
        out[20 + c] = f"tile({colours[c]})"
    out.update({24: "tile(any)", 25: "card(nature)", 26: "card(catalan)", 27: "card(religion)", 28: "card(any)",
                29: "play", 30: "play(free)", 31: "resolve N", 32: "resolve C", 33: "resolve 1 R", 34: "generic",
                35: "advance", 36: "extra turn", 37: "NVP", 38: "CVP", 39: "RVP"})
    return out


def effect_type(entry: int) -> str:
    """The effect type of a catalogue entry (tile filters grouped as in docs/gaudi.md)."""
    if entry < 16:
        return "collect_tile(colour+shape)"
    if entry < 20:
        return "collect_tile(shape)"
    if entry < 24:
        return "collect_tile(colour)"
    return {24: "collect_tile(any)", 25: "take_card(domain)", 26: "take_card(domain)", 27: "take_card(domain)",
            28: "take_card(any)", 29: "play_card", 30: "play_card(ignore)", 31: "resolve_nature",
            32: "resolve_catalan", 33: "resolve_one_religion", 34: "generic", 35: "advance_chimney",
            36: "extra_turn", 37: "vp", 38: "vp", 39: "vp"}[entry]


def action_type(a: int) -> str:
    if a < G.CENTRAL_AREA:
        return "move (track)"
    if a == G.CENTRAL_AREA:
        return "move (central)"
    if a == G.PENCILS:
        return "pencils"
    if a == G.HAMMERS:
        return "hammers"
    if a < G.PLACE_BASE:
        return "take tile"
    if a < G.TAKE_CARD_BASE:
        return "place"
    if a < G.PLAY_BASE:
        return "take card"
    if a < G.DISCARD_BASE:
        return "play card"
    if a < G.ADVANCE_BASE:
        return "discard"
    if a < G.CENTRAL_A:
        return f"advance {DOMAINS[a - G.ADVANCE_BASE]}"
    if a in (G.CENTRAL_A, G.CENTRAL_B):
        return "central " + "AB"[a - G.CENTRAL_A]
    if a < G.TARGET_BASE:
        return "resolve"
    if a < G.CATEGORY_BASE:
        return "target (early Religion)"
    if a == G.DONE:
        return "done"
    return "category"


DRAFT = 11  # phase of the expert draft and the solo starting pick


class Stats:
    def __init__(self, ed: Dict[str, Any], data: str = "default", mode: str = "basic"):
        self.ed = ed
        self.data = data
        self.mode = mode
        self.face = "night" if mode == "expert" else "day"
        self.c: Dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.lists: Dict[str, List[float]] = collections.defaultdict(list)
        self.games = 0
        self.seat_wins = None
        track = ed["track"][self.face]  # expert mode plays the night face (GA-EXP-2)
        self.area_bonus = track["area_bonus"]
        self.window_bonus = track["window_bonus"]
        # bonus kinds (GA-BONUS-2): one kind per distinct icon
        icons = [tuple(x) if x else None for x in list(self.area_bonus) + list(self.window_bonus)]
        self.kind = [icons.index(i) if i else -1 for i in icons]
        self.chim = [next(t for t in ed["chimneys"] if t["domain"] == d)["day"] for d in range(3)]
        self.seat_chim: List[List[Any]] = []  # per seat and domain: the face its chimney tile shows

    def _chimney_faces(self, s, players: int) -> None:
        if self.mode != "expert":
            self.seat_chim = [self.chim] * players
            return
        self.seat_chim = [[self.ed["chimneys"][t]["night"] for t in s.chimney_tiles(q)] for q in range(players)]

    def options(self) -> Dict[str, Any]:
        return {"mode": self.mode} if self.mode != "basic" else {}

    # -- effect accounting -------------------------------------------------------------------
    def fire(self, effects, source: str, times: int = 1):
        for e, amount in effects or []:
            e = int(e)
            if e < 0:
                continue
            self.c["effect"][effect_type(e)] += times
            self.c["effect_by_source"][(effect_type(e), source)] += times
            if e in (37, 38, 39):
                self.c["vp_by_source"][(DOMAINS[e - 37], source)] += int(amount) * times

    def resolve_column(self, state, seat: int, domain: int, times: int = 1, column=None):
        col = state.columns(seat)[domain] if column is None else column
        self.c["column_resolutions"][DOMAINS[domain]] += times
        self.c["column_resolution_cards"][DOMAINS[domain]] += times * len(col)
        for card in col:
            self.c["card_banner_fired"][card] += times
            self.fire(self.ed["cards"][card]["banner"], f"{'Nature' if domain == 0 else 'Catalan'} banner", times)
        self.fire(self.ed["board"]["nature_reward" if domain == 0 else "catalan_reward"], "column reward", times)

    def source(self, state, seat: int, effects, source: str):
        """Effects gained from a source; column resolutions among them resolve now."""
        self.fire(effects, source)
        for e, amount in effects or []:
            if int(e) == 31:
                self.resolve_column(state, seat, 0)
            elif int(e) == 32:
                self.resolve_column(state, seat, 1, times=int(amount))

    # -- one game ----------------------------------------------------------------------------
    def add_game(self, players: int, seed: int, actions) -> None:
        s = tilecraft.make("gaudi", players=players, seed=seed, data=self.data, **self.options())
        self.games += 1
        if s.phase() != DRAFT:
            for q in range(players):
                self.c["card_start"][s.start_card(q)] += 1
            self._chimney_faces(s, players)
        turns = [0] * players
        n_actions = 0
        for a in actions:
            a = int(a)
            p = s.current_player()
            if s.phase() == DRAFT:  # an expert draft pick or the solo starting pick: a starting card
                self.c["card_start"][a - G.TAKE_CARD_BASE] += 1
                self.c["action"]["draft pick"] += 1
                s.apply(a)
                if s.phase() != DRAFT:
                    self._chimney_faces(s, players)
                continue
            before_chim = s.chimneys(p)
            kind = action_type(a)
            self.c["action"][kind] += 1
            n_actions += 1
            area_before = s.areas()
            win_before = s.windows()
            fired_before = s.to_dict()["state"]["bonus_fired"] if (G.TAKE_TILE_BASE <= a < G.PLACE_BASE or
                                                                    G.TAKE_CARD_BASE <= a < G.PLAY_BASE) else 0
            central_tile = s.central()[0]
            if a <= G.CENTRAL_AREA:
                turns[p] += 1
                self.c["move_target"]["central" if a == G.CENTRAL_AREA else a] += 1
            elif G.RESOLVE_BASE <= a < G.TARGET_BASE:
                self.c["resolve_entry"][ENTRY_NAMES.get(a - G.RESOLVE_BASE, str(a - G.RESOLVE_BASE))] += 1
            elif G.TAKE_CARD_BASE <= a < G.PLAY_BASE:
                self.c["card_taken"][a - G.TAKE_CARD_BASE] += 1
            elif G.PLAY_BASE <= a < G.DISCARD_BASE:
                self.c["card_played"][a - G.PLAY_BASE] += 1
            elif G.DISCARD_BASE <= a < G.ADVANCE_BASE:
                self.c["card_discarded"][a - G.DISCARD_BASE] += 1
            elif G.TARGET_BASE <= a < G.CATEGORY_BASE:
                self.c["early_religion"][a - G.TARGET_BASE] += 1
            s.apply(a)
            # sources that fired with this action
            if G.PLAY_BASE <= a < G.DISCARD_BASE and self.ed["cards"][a - G.PLAY_BASE]["domain"] == 0:
                self.resolve_column(s, p, 0)  # GA-NAT-1: the whole column, the new card included
            if a in (G.CENTRAL_A, G.CENTRAL_B):
                opt = "ab"[a - G.CENTRAL_A]
                self.c["central"][(central_tile, opt.upper())] += 1
                self.source(s, p, self.ed["chandeliers"][central_tile][opt], "central option")
            after_chim = s.chimneys(p)
            for d in range(3):
                for k in range(before_chim[d], after_chim[d]):  # space k+1 reached (index k)
                    self.c["chimney_reached"][(DOMAINS[d], k + 1)] += 1
                    self.source(s, p, self.seat_chim[p][d][k]["reward"], "chimney")
            if G.TAKE_TILE_BASE <= a < G.PLACE_BASE:
                area = (a - G.TAKE_TILE_BASE) // 16
                if sum(area_before[area]) == 1:
                    self.c["emptied"][f"area {area}"] += 1
                    self._bonus(s, p, area, fired_before)
            elif G.TAKE_CARD_BASE <= a < G.PLAY_BASE:
                card = a - G.TAKE_CARD_BASE
                w = self.ed["cards"][card]["domain"]
                if len(win_before[w]) == 1:
                    self.c["emptied"][f"window {DOMAINS[w]}"] += 1
                    self._bonus(s, p, 5 + w, fired_before)
        assert s.is_terminal(), "replay did not end the game"
        self.lists["actions"].append(n_actions)
        self.lists["turns"].append(sum(turns))
        self.lists["turns_per_player"].append(sum(turns) / players)
        winners = list(s.winners())
        if self.seat_wins is None:
            self.seat_wins = np.zeros(players)
        for w in winners:
            self.seat_wins[w] += 1 / len(winners)
        for q in range(players):
            final, doms, tb = s.final_scoring(q)
            lo = sorted(doms)
            low2 = 2 * lo[0] + lo[1] if self.mode == "expert" else lo[0] + lo[1]  # GA-EXP-10 / GA-SCORE-3
            for d in range(3):
                self.lists[f"score {DOMAINS[d]}"].append(doms[d])
            self.lists["tile bonus"].append(final - low2)
            self.lists["final"].append(final)
            self.lists["highest minus lowest domain"].append(max(doms) - min(doms))
            chim = s.chimneys(q)
            for d in range(3):
                self.c["chimney_final"][(DOMAINS[d], chim[d])] += 1
                for k in range(chim[d]):
                    if self.seat_chim[q][d][k].get("end"):
                        self.c["end_effect"][(DOMAINS[d], k + 1)] += 1
            cols = s.columns(q)
            for d in range(3):
                self.lists[f"column {DOMAINS[d]}"].append(len(cols[d]))
                for card in cols[d]:
                    self.c["card_in_column"][card] += 1
            for card in cols[2]:
                v = s.religion_value(q, card)
                self.c["religion_scored"][card] += 1 if v > 0 else 0
                self.c["religion_points"][card] += v
            self.lists["tiles"].append(sum(bin(m).count("1") for m in s.board(q)))
            self.lists["hand at end"].append(len(s.hand(q)))

    def _bonus(self, s, p, slot: int, fired_before: int) -> None:
        icon = (self.area_bonus + self.window_bonus)[slot]
        if not icon:
            return
        k = self.kind[slot]
        if fired_before >> k & 1:
            self.c["bonus_blocked"][slot] += 1  # that kind already fired this turn (GA-BONUS-2)
            return
        self.c["bonus"][slot] += 1
        self.source(s, p, [icon], "bonus")


def mean_sd(xs):
    xs = np.asarray(xs, float)
    return f"{xs.mean():.1f} ± {xs.std():.1f}" if len(xs) else "-"


def run(players: int, bots: str, games: int, seed: int, ed, data: str = "default", mode: str = "basic") -> Stats:
    r = tilecraft.self_play("gaudi", [bots], games, seed=seed, players=players, threads=1, data=data, mode=mode)
    st = Stats(ed, data, mode)
    for g in range(games):
        st.add_game(players, int(r["state_seed"][g]), r["actions"][g])
    return st


def report(results: Dict[Any, Stats], ed) -> str:
    out = []
    keys = list(results)
    hdr = "| | " + " | ".join(f"{b} {p}p" for p, b in keys) + " |"
    sep = "|---" * (len(keys) + 1) + "|"

    def row(name, f):
        return f"| {name} | " + " | ".join(f(results[k]) for k in keys) + " |"

    out += ["### Game length and scores (mean ± SD per game / per player)", "", hdr, sep]
    out.append(row("games", lambda s: str(s.games)))
    for name in ("turns", "turns_per_player", "actions"):
        out.append(row(name.replace("_", " "), lambda s, n=name: mean_sd(s.lists[n])))
    for name in ("score N", "score C", "score R", "highest minus lowest domain", "tile bonus", "final", "tiles",
                 "column N", "column C", "column R", "hand at end"):
        out.append(row(name, lambda s, n=name: mean_sd(s.lists[n])))
    out.append(row("seat win shares", lambda s: " / ".join(f"{w / s.games:.2f}" for w in s.seat_wins)))
    out.append(row("seat win 95% (±)", lambda s: f"{1.96 * math.sqrt(0.25 / s.games):.2f}"))

    out += ["", "### Decisions (per game)", "", hdr, sep]
    kinds = sorted({k for s in results.values() for k in s.c["action"]}, key=lambda k: -results[keys[-1]].c["action"][k])
    for k in kinds:
        out.append(row(k, lambda s, k=k: f"{s.c['action'][k] / s.games:.2f}"))
    out += ["", "RESOLVE by catalogue entry (per game):", "", hdr, sep]
    ents = sorted({k for s in results.values() for k in s.c["resolve_entry"]})
    for k in ents:
        out.append(row(k, lambda s, k=k: f"{s.c['resolve_entry'][k] / s.games:.2f}"))

    out += ["", "### Effects fired (per game, all seats)", "", hdr, sep]
    types = sorted({k for s in results.values() for k in s.c["effect"]})
    for t in types:
        out.append(row(t, lambda s, t=t: f"{s.c['effect'][t] / s.games:.2f}"))
    out.append(row("Nature column resolutions", lambda s: f"{s.c['column_resolutions']['N'] / s.games:.2f}"))
    out.append(row("Catalan column resolutions (x k)", lambda s: f"{s.c['column_resolutions']['C'] / s.games:.2f}"))
    out.append(row("early Religion resolutions", lambda s: f"{sum(s.c['early_religion'].values()) / s.games:.2f}"))
    out += ["", "VP by domain and source (per player):", "", hdr, sep]
    srcs = sorted({k for s in results.values() for k in s.c["vp_by_source"]})
    for k in srcs:
        out.append(row(f"{k[0]} from {k[1]}", lambda s, k=k: f"{s.c['vp_by_source'][k] / (s.games * len(s.seat_wins)):.2f}"))

    out += ["", "### Chimney spaces reached (share of players reaching it)", "", hdr, sep]
    for d in DOMAINS:
        for k in range(1, 6):
            out.append(row(f"{d} space {k}", lambda s, d=d, k=k: f"{sum(v for (dd, kk), v in s.c['chimney_final'].items() if dd == d and kk >= k) / (s.games * len(s.seat_wins)):.2f}"))
    out += ["", "### Central options chosen (per game)", "", hdr, sep]
    for t in range(7):
        for o in "AB":
            out.append(row(f"tile {t} {o}", lambda s, t=t, o=o: f"{s.c['central'][(t, o)] / s.games:.2f}"))
    out += ["", "### Bonuses (per game: triggered / blocked by the once-per-kind rule)", "", hdr, sep]
    names = [f"area {i}" for i in range(5)] + [f"window {d}" for d in DOMAINS]
    for slot, n in enumerate(names):
        out.append(row(n, lambda s, slot=slot: f"{s.c['bonus'][slot] / s.games:.2f} / {s.c['bonus_blocked'][slot] / s.games:.2f}"))
    return "\n".join(out)


def card_report(results: Dict[Any, Stats], ed) -> str:
    out = ["### Cards (all configurations together: games, then per 100 games taken / played / in a column at the end; Religion: share of column copies scoring, mean points)", ""]
    allg = sum(s.games for s in results.values())
    out.append("| id | name | dom | req | taken | played | in column | banner fired | Religion scores | mean pts |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    colours = ed["names"]["colours"] + ["black"]
    dead = []
    for cid, card in enumerate(ed["cards"]):
        tot = collections.Counter()
        for s in results.values():
            for key in ("card_taken", "card_played", "card_in_column", "card_banner_fired", "religion_scored",
                        "religion_points"):
                tot[key] += s.c[key][cid]
        rel = ""
        pts = ""
        if card["domain"] == 2:
            n = tot["card_in_column"]
            rel = f"{tot['religion_scored'] / n:.2f}" if n else "-"
            pts = f"{tot['religion_points'] / n:.1f}" if n else "-"
        if tot["card_played"] == 0:
            dead.append(cid)
        out.append(f"| {cid} | {card['name']} | {DOMAINS[card['domain']]} | {colours[card['req_colour']]} {card['req_n']} | "
                   f"{100 * tot['card_taken'] / allg:.1f} | {100 * tot['card_played'] / allg:.1f} | "
                   f"{100 * tot['card_in_column'] / allg:.1f} | {100 * tot['card_banner_fired'] / allg:.1f} | {rel} | {pts} |")
    out.append("")
    out.append(f"Cards never played in {allg} games: {dead if dead else 'none'}")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per configuration (default 200)")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--bots", default="random,greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cards", action="store_true", help="also print the per-card table")
    ap.add_argument("--json", default=None, help="write the raw counters as JSON")
    ap.add_argument("--data", default="default", help="the edition: 'default' or a directory of JSON files")
    ap.add_argument("--mode", choices=("basic", "expert"), default="basic",
                    help="basic (day) or expert (night: draft, 4 tiles per area, group requirements)")
    args = ap.parse_args(argv)
    from tilecraft.games._gaudi_data import edition_for

    ed = edition_for(None if args.data == "default" else args.data)
    ENTRY_NAMES.update(_entry_names(ed))
    results = {}
    t0 = time.time()
    for bots in args.bots.split(","):
        for p in (int(x) for x in args.players.split(",")):
            results[(p, bots)] = run(p, bots, args.games, args.seed, ed, args.data, args.mode)
            print(f"# {bots} {p}p: {args.games} games, {time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    print(f"Command: `PYTHONPATH=python python3 bench/gaudi_stats.py {' '.join(argv if argv is not None else sys.argv[1:])}`\n")
    print(report(results, ed))
    if args.cards:
        print()
        print(card_report(results, ed))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({f"{b} {p}p": {k: {str(kk): vv for kk, vv in v.items()} for k, v in s.c.items()}
                       | {"lists": s.lists, "seat_wins": list(s.seat_wins), "games": s.games}
                       for (p, b), s in results.items()}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
