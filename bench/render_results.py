"""Figures rendered from result files (issue 49): the tables between markers in the docs come from
``bench/results/*.json``, written by the bench scripts, never typed by hand; so do the tables of the
search options, drawn from their C++ declarations (``tilecraft._core.puct_options()``,
``mcts_options()``; issue 47), which need tilecraft importable.

    python bench/render_results.py            # rewrite every page's blocks from the result files
    python bench/render_results.py --check    # exit 1, naming the page and block, where one differs

A block is the text between ``<!-- results: NAME -->`` and ``<!-- /results -->`` in README.md,
docs/**/*.md or bench/**/*.md; NAME is a key of RESULTS below, which says which result file the
block shows, the command that writes that file and how it is drawn. A block whose result file does
not exist yet says so, with the command to run. tests/test_rendered_results.py runs the check.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import re
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

ROOT = pathlib.Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- results: ([\w-]+) -->\n)(.*?)(<!-- /results -->)", re.S)


def _ms(x: Optional[float]) -> str:
    return "—" if x is None else f"{x:.1f}" if abs(x) >= 1 or x == 0 else f"{x:.2g}"


def _share(r: Dict[str, Any]) -> str:
    return f"{r['share']:.3f} [{r['low']:.2f}, {r['high']:.2f}] ({r['games']})"


def _times(r: Dict[str, Any]) -> str:
    return f"{_ms(1000 * r['seconds_per_move'])} / {_ms(1000 * r['opponent_seconds_per_move'])}"


def _equal(r: Dict[str, Any]) -> str:
    if r.get("equal_time") is None:
        return "not checked"
    return "yes" if r["equal_time"] else f"no (x{r['time_ratio']:.2f})"


def _load(x: Optional[float]) -> str:
    return "unknown" if x is None else f"{x:.1f}"


def render_equal_time(data: Dict[str, Dict[str, Dict[str, Any]]]) -> str:
    """bench/equal_time.py's results: one row per configuration and budget."""
    lines = ["| configuration | budget | baseline vs plain search: share [95%] (games) | ms per move "
             "(baseline / search) | equal time | baseline-policy vs greedy: share [95%] (games) | ms per move "
             "(policy / greedy) |",
             "|---|---|---|---|---|---|---|"]
    measured: List[Dict[str, Any]] = []
    for config in sorted(c for c in data if "@seed" not in c):  # (the checks on other seeds: render_targets)
        entry = data[config]
        searches = sorted((float(name.split("@", 1)[1]), name) for name in entry if name.startswith("search@"))
        policy = entry.get("policy")
        for i, (budget, name) in enumerate(searches or [(None, None)]):
            s = entry[name] if name else None
            p = policy if i == 0 else None
            lines.append(" | ".join([
                f"| `{config}`", "—" if budget is None else f"{1000 * budget:g} ms",
                _share(s) if s else "—", _times(s) if s else "—", _equal(s) if s else "—",
                _share(p) if p else "—", _times(p) + " |" if p else "— |"]))
        measured += [entry[n] for _, n in searches] + ([policy] if policy else [])
    lines += _measured_by(measured)
    lines.append("")
    lines.append("Each side's time per move is its mean over the same games; \"equal time\": the two within "
                 f"{100 * _tolerance(data):.0f}% of the larger.")
    return "\n".join(lines)


def _measured_by(results: List[Dict[str, Any]]) -> List[str]:
    """One paragraph for each run of bench/equal_time.py among ``results``: its commit, date, seeds,
    CPUs, the machine's load and its commands."""
    runs: Dict[Tuple[Any, ...], Dict[str, List[Any]]] = {}
    for r in results:
        run = runs.setdefault((r["commit"], r["date"], r["seed"], r["cpus"]), {"commands": [], "loads": []})
        if r["command"] not in run["commands"]:
            run["commands"].append(r["command"])
        run["loads"].append(r["load_before"])
    lines: List[str] = []
    for (commit, date, seed, cpus), run in runs.items():
        load = f"load average {_loads(run['loads'])} as each pairing began"
        lines.append("")  # one paragraph a run
        lines.append(f"Measured at commit {commit} on {date} (seeds {seed:,} + i, {cpus} CPUs, {load}) by "
                     + ", ".join(f"`{c}`" for c in run["commands"]) + ".")
    return lines


# issue 50's targets, both sides at 50 ms a move: (configuration, the baseline's share against the
# plain search, the policy's against greedy); at 4 players against three copies and three greedy
TARGETS = (("azul/2p", 0.90, 0.85), ("castle/2p", 0.60, 0.60), ("warsaw/2p", 0.60, 0.60),
           ("gaudi/2p/basic", 0.60, 0.90), ("azul/4p", 0.35, 0.40), ("warsaw/4p", 0.35, 0.40),
           ("gaudi/4p/basic", 0.35, 0.40))
CHECK_SEED = 50_000


def render_targets(data: Dict[str, Dict[str, Dict[str, Any]]]) -> str:
    """The learning loop's targets beside bench/equal_time.py's results (seeds 30,000 + i), with the
    check on seeds 50,000 + i ("—" where it was not run). A target holds when the share reaches it and the
    interval's lower end is above the equal share."""
    def holds(r: Optional[Dict[str, Any]], target: float) -> str:
        if r is None:
            return "not measured"
        return "**yes**" if r["share"] >= target and r["low"] > r["equal"] else "no"

    lines = ["| configuration | baseline vs plain search, 50 ms each: share [95%] (games) | ms per move (baseline / "
             "search) | target | holds | baseline-policy vs greedy: share [95%] (games) | target | holds | check on "
             f"seeds {CHECK_SEED:,} + i: search / policy |",
             "|---|---|---|---|---|---|---|---|---|"]
    def checked(r: Optional[Dict[str, Any]]) -> str:
        return f"{_share(r)} at {_times(r)} ms" if r else "—"

    checks: List[Dict[str, Any]] = []
    for config, t_search, t_policy in TARGETS:
        entry, check = data.get(config, {}), data.get(f"{config}@seed{CHECK_SEED}", {})
        s, p = entry.get("search@0.05"), entry.get("policy")
        cs, cp = check.get("search@0.05"), check.get("policy")
        checks += [r for r in (cs, cp) if r]
        lines.append(" | ".join([
            f"| `{config}`", _share(s) if s else "—", _times(s) if s else "—", f"≥ {t_search:.2f}",
            holds(s, t_search), _share(p) if p else "—", f"≥ {t_policy:.2f}", holds(p, t_policy),
            checked(cs) + " / " + checked(cp) + " |"]))
    lines += ["", "From bench/results/equal_time.json (`python bench/equal_time.py --only CONFIGURATION`, and "
                  f"`--seed {CHECK_SEED}` for the check), the targets' figures drawn with the commits, dates and "
                  "loads in the table above; the check's times per move are the baseline's and its opponent's "
                  "(the plain search, or greedy). A target holds when the share reaches it and the lower end of "
                  "its 95% interval is above the equal share (0.5 at 2 players, 0.25 at 4)."]
    lines += _measured_by(checks)
    return "\n".join(lines)


def _tolerance(data: Dict[str, Dict[str, Dict[str, Any]]]) -> float:
    tolerances = {r.get("time_tolerance") for entry in data.values() for r in entry.values()} - {None}
    if len(tolerances) != 1:
        raise ValueError(f"equal_time results with time tolerances {sorted(tolerances)}: expected one")
    return tolerances.pop()


def _loads(loads: List[Optional[float]]) -> str:
    known = [x for x in loads if x is not None]
    return f"{min(known):.1f}-{max(known):.1f}" if known else "unknown"


def render_value_heads(data: Dict[str, Dict[str, Any]]) -> str:
    """The value head against one rollout, per game: bench/loop_speed.py's generation (from the
    shipped network) measured on the held-out chunk of its self-play."""
    lines = ["| configuration | held-out positions | squared error: value head | squared error: one rollout | "
             "the better |", "|---|---|---|---|---|"]
    for config in sorted(data):
        v = data[config].get("value_error")
        if not v:
            continue
        better = "the value head" if v["network"] < v["rollout"] else "the rollout"
        lines.append(f"| `{config}` | {v['positions']} | {v['network']:.3f} | {v['rollout']:.3f} | {better} |")
    lines += ["", "Each: the squared error against the mover's final win share (0.25 is a constant guess of 0.5 in a "
                  "decided game), on positions of the held-out chunk of one generation of `python bench/loop_speed.py` "
                  "(16 games of Gumbel PUCT(64) self-play with the shipped network, its next generation's value head)."]
    return "\n".join(lines)


def render_loop_speed(data: Dict[str, Dict[str, Any]]) -> str:
    """bench/loop_speed.py's results: one later generation per game, as tilecraft train runs it."""
    lines = ["| configuration | self-play rows/s per core | fit rows/s (CPU) | s per game: self-play / gate / "
             "measuring | generation of N games (s) | a default generation, est. (min) | baseline at 50 ms: "
             "simulations/s (per move: mean, median) |", "|---|---|---|---|---|---|---|"]
    runs: Dict[Tuple[Any, ...], List[Any]] = {}
    sims: Dict[str, List[Any]] = {}
    for config in sorted(data):
        r = data[config]
        b = r["baseline_at_50ms"]
        if "generation_seconds" in r:  # a generation was run (each game's 2-player network)
            loop = (f"{r['selfplay_rows_per_second_per_core']:.0f} | {r['fit_rows_per_second']:.0f} | "
                    f"{r['seconds_per_selfplay_game']:.2f} / {r['seconds_per_gate_game']:.2f} / "
                    f"{r['seconds_per_measure_game']:.2f} | {r['generation_seconds']:.0f} (N = {r['games']}) | "
                    f"{r['default_generation_seconds'] / 60:.0f}")
            runs.setdefault((r["commit"], r["date"], r["cores"], r["command"]), []).append(r["load_before"])
        else:
            loop = " | ".join(["—"] * 5)
        lines.append(f"| `{config}` | {loop} | {b['simulations_per_second']:,.0f} "
                     f"({b['simulations_per_move']:,.0f}, {b.get('median_simulations_per_move', float('nan')):,.0f}) |")
        sims.setdefault(b.get("command", r.get("command")), []).append(b.get("load_before", r.get("load_before")))
    for (commit, date, cores, command), loads in runs.items():
        lines += ["", f"Measured by `{command}` at commit {commit} on {date} ({cores} cores, load average "
                      f"{_loads(loads)} as each began)."]
    for command, loads in sims.items():
        lines += ["", f"The simulations at 50 ms: `{command}` (load average {_loads(loads)} as each began)."]
    return "\n".join(lines)


def render_policy_targets(data: Dict[str, Dict[str, Any]]) -> str:
    """bench/policy_targets.py's results: what generation 1's self-play targets could teach its network."""
    lines = ["| run | self-play search | held-out rows (legal actions) | targets' entropy | network's cross-entropy "
             "(gap) | fitted: lr x passes -> cross-entropy, top-1 |", "|---|---|---|---|---|---|"]
    commands: List[str] = []
    for name in sorted(data):
        r = data[name]
        fits = "; ".join(f"{f['lr']:g} x {f['passes']:g} -> {f['cross_entropy']:.4f}, {f['top1']:.3f}" for f in r["fits"])
        lines.append(f"| {name} | Gumbel PUCT({r['selfplay_simulations']}), rollout_mix {r['selfplay_rollout_mix']:g}"
                     f"{', ' + r['note'] if r.get('note') else ''} | "
                     f"{r['held_out_rows']:,} ({r['legal_actions']:.1f}) | {r['target_entropy']:.4f} | "
                     f"{r['cross_entropy']:.4f} ({r['cross_entropy'] - r['target_entropy']:.4f}), top-1 {r['top1']:.3f} | "
                     f"{fits} |")
        commands.append(f"`{r['command']}` (the run: `{r['run_command']}`)")
    lines += ["", "Cross-entropies in nats, on generation 1's held-out self-play chunk; the gap is the network's "
                  "mean KL divergence from the targets, all a fit could gain there. Measured by " + "; ".join(commands)
              + "."]
    return "\n".join(lines)


def render_loop_runs(game: str = "", pictures: str = "pictures/") -> str:
    """The generation record of every learning-loop run kept in bench/results/loop-NAME.json (a run's
    generations.json with the command that made it), as tilecraft train draws it, and its plot; with
    ``game``, the runs of that game (NAME starting with it) only."""
    from tilecraft.agents.train.record import table

    parts = []
    for path in sorted((ROOT / "bench" / "results").glob(f"loop-{game}*.json")):
        run = json.loads(path.read_text(encoding="utf-8"))
        name = path.stem[len("loop-"):]
        parts.append(f"**{name}** (`{run['command']}`, commit {run['commit']}, {run['cores']} cores; "
                     f"{run['wall'] / 3600:.1f} h in all; plot: [{name}.svg]({pictures}loop-{name}.svg)):\n\n"
                     + table(run["generations"]).rstrip("\n"))
    return "\n\n".join(parts) if parts else "No run kept yet (bench/results/loop-NAME.json)."


def render_budget_overshoot(data: Dict[str, Any]) -> str:
    """bench/budget_overshoot.py's results: per game and bot, how far past the budget a move ran."""
    budget = f"{1000 * data['budget']:g} ms"
    lines = [f"| game | bot | moves | median past {budget} (ms) | p99 (ms) | worst (ms) | first move (ms) |",
             "|---|---|---|---|---|---|---|"]
    for game in sorted(data["games"]):
        g = data["games"][game]
        for name in ("baseline", "plain"):
            m = g[name]
            first = _ms(g.get("first_move_ms")) if name == "baseline" else "—"
            lines.append(f"| {game} | `{m['bot']}` | {m['moves']:,} | {_ms(m['median_ms'])} | {_ms(m['p99_ms'])} | "
                         f"{_ms(m['worst_ms'])} | {first} |")
    lines += ["", f"Measured by `{data['command']}` at commit {data['commit']} on {data['date']} ({data['cpus']} "
                  f"CPUs, load {_load(data['load_before'])} before). A move's time is one `act()` call as "
                  "`play_match` records it; the first move of a process (it loads the network) is apart."]
    return "\n".join(lines)


def render_train_backends(data: Dict[str, Any]) -> str:
    """bench/train_backends.py's results: training steps a second per library, and its install."""
    nets = sorted({r["network"] for r in data["speed"]})
    threads = sorted({r["threads"] for r in data["speed"]})
    by = {(r["network"], r["backend"], r["threads"]): r for r in data["speed"]}
    versions = {r["backend"]: r["version"] for r in data["speed"]}
    head = " | ".join(f"{n} shapes, {t} thread{'s' if t > 1 else ''}" for n in nets for t in threads)
    lines = [f"| library | {head} |", "|---|" + "---|" * (len(nets) * len(threads))]
    for backend in ("torch", "jax"):
        cells = []
        for n in nets:
            for t in threads:
                r = by.get((n, backend, t))
                cells.append("—" if r is None else f"{r['steps_per_second']:.1f} steps/s")
        lines.append(f"| {backend} {versions.get(backend, '')} | " + " | ".join(cells) + " |")
    lines += ["", f"Training steps a second (batch {data['speed'][0]['rows']}; the median of "
                  f"{len(data['speed'][0].get('all_steps_per_second', [0]))} runs), measured by `{data['command']}` "
                  f"at commit {data['commit']} ({data['cores']} cores, load {data['load'][0]:.1f}-{data['load'][1]:.1f})."]
    if "install" in data:
        lines += ["", "| install | seconds | MB added to a fresh venv |", "|---|---|---|"]
        for i in data["install"]:
            lines.append(f"| `{i['command']}` | {i['seconds']:.0f} | {i['megabytes']:.0f} |")
        u = data.get("unpinned_torch")
        if u:
            lines += ["", f"A plain `pip install torch` on this platform resolves to torch {u['resolves_to']} with "
                          f"{u['packages']} packages, {len(u['gpu_packages'])} of them GPU libraries "
                          f"({', '.join(u['gpu_packages'][:4])}, ...): {u['wheel_megabytes']:,.0f} MB of wheels "
                          f"before unpacking (not counting {len(u['not_sized'])} small ones fetched from PyPI). "
                          "The CPU build measured above is the one PyTorch publishes on its own index (`--index-url "
                          "https://download.pytorch.org/whl/cpu`), which this machine's pip finds on disk."]
    return "\n".join(lines)


def render_screens(game: str, root: pathlib.Path = ROOT) -> str:
    """The screens of a game's baseline settings (bench/results/screen-GAME-*.json, each written by
    bench/baseline_targets.py --json): one row per candidate, with both sides' time per move."""
    lines = ["| candidate | opponent | share [95%] (games) | ms per move (candidate / opponent) | seeds |",
             "|---|---|---|---|---|"]
    commands = []
    for path in sorted((root / "bench" / "results").glob(f"screen-{game}-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for r in data["results"]:
            lines.append(f"| `{r['bot']}` | `{r['opponent']}` | {_share(r)} | {_times(r)} | "
                         f"{r['seed']:,} + i |")
        commands.append(data["command"])
    if not commands:
        return f"Not measured yet: no bench/results/screen-{game}-*.json."
    lines += ["", "Measured by " + "; ".join(f"`{c}`" for c in commands) + "."]
    checks = sorted((root / "bench" / "results").glob(f"check-{game}-*.json"))
    if checks:  # a candidate measured on the equal-time seeds (bench/equal_time.py's format)
        lines += ["", "| candidate preset, measured as the equal-time table | opponent | share [95%] (games) | "
                      "ms per move (baseline / opponent) | seeds |", "|---|---|---|---|---|"]
        for path in checks:
            for config, entry in json.loads(path.read_text(encoding="utf-8")).items():
                for r in entry.values():
                    lines.append(f"| {config}: `{_settings(r['candidate'])}` | `{r['opponent']}` | {_share(r)} | "
                                 f"{_times(r)} | {r['seed']:,} + i |")
                    lines += ["", f"Measured by `{r['command']}` with that preset in presets.json (load "
                                  f"{_load(r.get('load_before'))} before)."]
    return "\n".join(lines)


def render_presets() -> str:
    """Every shipped network with its preset (tilecraft/agents/presets.json) and what it was trained
    on (its file's metadata): the table ``tilecraft baselines`` prints, for the docs."""
    from tilecraft import baselines, presets

    lines = [f"Every network searches with the `baseline` defaults "
             f"(`{_settings(presets.load()['baseline']['defaults'])}`), then its own preset:", "",
             "| configuration | network | its preset | trained on |", "|---|---|---|---|"]
    for a in baselines.available():
        net = baselines.load(a["game"], a["players"][0], a["mode"], path=a["path"])
        m = net.meta
        shape = "trunk " + "-".join(map(str, m["hidden"])) + (
            ", value trunk " + "-".join(map(str, m["value_hidden"])) if m.get("value_hidden") else "")
        players = " and ".join(map(str, a["players"]))
        where = f"{a['game']}{' (' + a['mode'] + ')' if a['mode'] else ''}, {players} players"
        lines.append(f"| {where} | `{pathlib.Path(a['path']).name}`: {shape} | "
                     f"{'`' + _settings(a['search']) + '`' if a['search'] else 'none'} | "
                     f"{m['games']:,} games ({m['rows']:,} rows) of " + (
                         f"`{_cell(str(m['teacher']))}`" if m.get("teacher") else
                         f"its own search (generation {m.get('generation')} of a `tilecraft train --start` run)")
                     + " |")
    return "\n".join(lines)


def _settings(options: Dict[str, Any]) -> str:
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in sorted(options.items()))


def render_ab_redesign(data: Dict[str, Any]) -> str:
    """bench/instructions.py's results: each run's instructions under the two builds, and the change."""
    lines = ["| run | before (M instructions) | after (M instructions) | change |", "|---|---|---|---|"]
    for r in data["runs"]:
        lines.append(f"| {r['run']} | {r['before'] / 1e6:,.1f} | {r['after'] / 1e6:,.1f} | "
                     f"{r['change_percent']:+.1f}% |")
    worst = max(data["runs"], key=lambda r: abs(r["change_percent"]))
    commits = data["commits"]
    lines += ["", f"Measured by `{data['command']}` on {data['date']}: before is commit {commits['before']}, after "
                  f"commit {commits['after']}, both built the same way (Release). Each figure is the instructions of "
                  "the run minus those of the same run with n = 1; the largest change is "
                  f"{worst['change_percent']:+.1f}% ({worst['run']})."]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _shown(o: Dict[str, Any]) -> str:
    """An option's default as a spec would write it."""
    v = o["default"]
    if o["kind"] == "flag":
        return str(v)
    if o["kind"] == "choice":
        return f"`{v}`"
    return f"{v:,}" if isinstance(v, int) and abs(v) >= 10_000 else f"{v:g}" if isinstance(v, float) else str(v)


def render_search_options(kind: str) -> str:
    """The options of a search as its C++ configuration declares them (tilecraft._core.puct_options() or
    mcts_options()), with where the bot's parameters differ (tilecraft.search_options) and the settings the
    presets give a bot that leaves them unset (tilecraft/agents/presets.json)."""
    try:
        import tilecraft  # noqa: F401
    except ImportError:  # run from a checkout without an installed tilecraft: the built one in python/
        sys.path.insert(0, str(ROOT / "python"))
    from tilecraft import presets, search_options as so

    if kind == "puct":
        options, otherwise, extra = so.PUCT_OPTIONS, so.PUCT_FIELDS_TAKEN_OTHERWISE, so.PUCT_PYTHON_ONLY
        preset, bot = set(), "PUCTBot"
        more = {"determinize": "; PUCTBot also takes " + " and ".join(f"`{m}`" for m in so.CHANCE_TREE_MODES)
                               + " (chance in the tree)"}
    else:
        options, otherwise, extra = so.MCTS_OPTIONS, so.MCTS_FIELDS_TAKEN_OTHERWISE, {}
        preset, bot = set(presets.mcts_defaults(None)), "MCTSBot"
        more = {}
    lines = ["| option | default | allowed | meaning |", "| --- | --- | --- | --- |"]
    for o in options:
        default = _shown(o) + (" (preset)" if o["name"] in preset else "")
        note = f" (as {otherwise[o['name']]})" if o["name"] in otherwise else ""
        lines.append(f"| `{o['name']}` | {default} | {_cell(o['range'])} | {_cell(o['doc'] + more.get(o['name'], ''))}"
                     f"{_cell(note)} |")
    for name, doc in extra.items():
        lines.append(f"| `{name}` | — | — | {_cell(doc)} ({bot} only) |")
    lines.append("")
    lines.append(f"Drawn from the C++ declarations (`tilecraft._core.{kind}_options()`) by "
                 "`python bench/render_results.py`."
                 + (" \"(preset)\": a bot that leaves it unset takes the game's setting from tilecraft/agents/presets.json "
                    "(`tilecraft baselines` prints them)." if preset else ""))
    return "\n".join(lines)


# Marker name -> (result file under bench/results/, the command that writes it, how it is drawn); a block
# without a result file (None) is drawn from the code itself, by a function of no argument.
RESULTS: Dict[str, Tuple[Optional[str], str, Callable[..., str]]] = {
    "equal_time": ("equal_time.json", "python bench/equal_time.py", render_equal_time),
    "budget_overshoot": ("budget_overshoot.json", "python bench/budget_overshoot.py", render_budget_overshoot),
    "train_backends": ("train_backends.json", "python bench/train_backends.py --install", render_train_backends),
    "screen_castle": (None, "python bench/baseline_targets.py castle ... --json bench/results/screen-castle-NAME.json",
                      lambda: render_screens("castle")),
    "screen_gaudi": (None, "python bench/baseline_targets.py gaudi ... --json bench/results/screen-gaudi-NAME.json",
                     lambda: render_screens("gaudi")),
    "presets": (None, "tilecraft/agents/presets.json and the networks' metadata (tilecraft.baselines)",
                lambda: render_presets()),
    "ab_redesign": ("ab_redesign.json",
                    "python bench/instructions.py BEFORE_DIR AFTER_DIR --json bench/results/ab_redesign.json",
                    render_ab_redesign),
    "puct_options": (None, "the C++ declarations (tilecraft._core.puct_options())",
                     lambda: render_search_options("puct")),
    "mcts_options": (None, "the C++ declarations (tilecraft._core.mcts_options())",
                     lambda: render_search_options("mcts")),
    "targets": ("equal_time.json", "python bench/equal_time.py", render_targets),
    "loop_speed": ("loop_speed.json", "python bench/loop_speed.py", render_loop_speed),
    "value_heads": ("loop_speed.json", "python bench/loop_speed.py", render_value_heads),
    "policy_targets": ("policy_targets.json", "python bench/policy_targets.py", render_policy_targets),
    "loop_runs": (None, "bench/results/loop-NAME.json: a tilecraft train run's generations.json and command",
                  render_loop_runs),
    "loop_azul": (None, "bench/results/loop-azul*.json: the Azul runs of tilecraft train",
                  lambda: render_loop_runs("azul")),
}


def source(name: str) -> str:
    """What block ``name`` is drawn from, as the messages say it."""
    file, command, _ = RESULTS[name]
    return command if file is None else f"bench/results/{file}"


def render(name: str, root: pathlib.Path = ROOT) -> str:
    """The body of block ``name`` from its result file (or the line saying it is not measured yet)."""
    file, command, draw = RESULTS[name]
    if file is None:
        return draw()
    path = root / "bench" / "results" / file
    if not path.exists():
        return f"Not measured yet: run `{command}` (it writes bench/results/{file})."
    return draw(json.loads(path.read_text(encoding="utf-8")))


def pages(root: pathlib.Path = ROOT) -> List[pathlib.Path]:
    found = [root / "README.md"] + sorted((root / "docs").rglob("*.md")) + sorted((root / "bench").rglob("*.md"))
    return [p for p in found if p.exists()]


def render_page(text: str, where: str, root: pathlib.Path = ROOT) -> Tuple[str, List[str]]:
    """The page with every block rendered, and the names of the blocks that changed."""
    unknown = [m.group(2) for m in BLOCK.finditer(text) if m.group(2) not in RESULTS]
    if unknown:
        raise ValueError(f"{where}: results block {unknown[0]!r} is not one of {', '.join(RESULTS)}")
    opened, closed = len(re.findall(r"<!-- results: ", text)), text.count("<!-- /results -->")
    if opened != len(BLOCK.findall(text)) or closed != opened:
        raise ValueError(f"{where}: {opened} '<!-- results: NAME -->' markers and {closed} '<!-- /results -->': "
                         "each block opens on a line of its own and closes once")
    changed: List[str] = []

    def one(m: "re.Match[str]") -> str:
        body = "\n" + render(m.group(2), root) + "\n\n"
        if m.group(3) != body:
            changed.append(m.group(2))
        return m.group(1) + body + m.group(4)

    return BLOCK.sub(one, text), changed


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a page differs from its results")
    p.add_argument("--root", default=str(ROOT), help="the repository (default: this script's)")
    args = p.parse_args(argv)
    root = pathlib.Path(args.root)
    differ = []
    for page in pages(root):
        where = page.relative_to(root).as_posix()
        text = page.read_text(encoding="utf-8")
        try:
            new, changed = render_page(text, where, root)
        except ValueError as e:
            print(e, file=sys.stderr)
            return 2
        for name in changed:
            if args.check:
                differ.append(f"{where}: block '{name}' differs from {source(name)}")
            else:
                print(f"{where}: rendered block '{name}' from {source(name)}")
        if changed and not args.check:
            page.write_text(new, encoding="utf-8")
    if differ:
        print("\n".join(differ) + "\nrun: python bench/render_results.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
