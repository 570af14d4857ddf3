"""Figures come from result files (issue 49): the blocks between ``<!-- results: NAME -->`` and
``<!-- /results -->`` in the docs are what bench/render_results.py draws from bench/results/*.json.
The first test fails when a page and its result file disagree (run ``python bench/render_results.py``
to redraw); the others draw fake result files in a temporary folder."""
import json
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
if not (ROOT / "bench" / "render_results.py").exists():
    pytest.skip("the bench scripts are not next to the tests (installed-package test run)", allow_module_level=True)
sys.path.insert(0, str(ROOT / "bench"))

import render_results  # noqa: E402


def test_the_pages_agree_with_their_result_files(capsys):
    code = render_results.main(["--check"])
    assert code == 0, capsys.readouterr().err + "(run: python bench/render_results.py)"


def test_the_docs_have_the_blocks():
    text = {p: (ROOT / p).read_text(encoding="utf-8")
            for p in ("docs/tournaments.md", "bench/README.md", "docs/search.md", "docs/training.md")}
    assert "<!-- results: equal_time -->" in text["docs/tournaments.md"]
    assert "<!-- results: targets -->" in text["docs/tournaments.md"]
    assert "<!-- results: loop_speed -->" in text["bench/README.md"]
    assert "<!-- results: budget_overshoot -->" in text["bench/README.md"]
    assert "<!-- results: ab_redesign -->" in text["bench/README.md"]
    assert "<!-- results: mcts_options -->" in text["docs/search.md"]
    assert "<!-- results: puct_options -->" in text["docs/search.md"]
    assert "<!-- results: presets -->" in text["docs/search.md"]
    assert "<!-- results: train_backends -->" in text["docs/training.md"]
    assert "<!-- results: loop_runs -->" in text["docs/training.md"]
    assert "<!-- results: value_heads -->" in text["docs/training.md"]


def test_each_kept_loop_runs_plot_is_drawn_from_its_record():
    from tilecraft.agents.train.record import svg

    for path in sorted((ROOT / "bench" / "results").glob("loop-*.json")):
        name = path.stem[len("loop-"):]
        record = json.loads(path.read_text(encoding="utf-8"))["generations"]
        picture = ROOT / "docs" / "pictures" / f"loop-{name}.svg"
        assert picture.read_text(encoding="utf-8") == svg(record, f"tilecraft train: {name}"), (
            f"{picture} differs from {path}'s record: python bench/keep_loop_run.py")


def _result(bot, opponent, share, low, high, games, ms, opp_ms, equal_time, ratio, seed=30_000):
    return dict(bot=bot, opponent=opponent, games=games, seed=seed, share=share, low=low, high=high, equal=0.5,
                seconds_per_move=ms / 1000, opponent_seconds_per_move=opp_ms / 1000, time_ratio=ratio,
                time_tolerance=0.2, equal_time=equal_time, command="python bench/equal_time.py", commit="abc1234",
                load_before=1.93, cpus=2, date="2026-12-05")


EQUAL_TIME = {
    "azul/2p": {
        "search@0.05": _result("baseline:seconds=0.05", "mcts:seconds=0.05", 0.62, 0.551, 0.685, 200, 50.3, 50.1,
                               True, 1.004),
        "policy": _result("baseline-policy", "greedy", 0.1, 0.064, 0.152, 200, 1.24, 0.0213, False, 58.2),
    },
    "gaudi/4p/basic": {
        "search@0.2": _result("baseline:seconds=0.2", "ismcts:seconds=0.2", 0.31, 0.228, 0.406, 100, 260.0, 201.0,
                              False, 1.294),
        "search@0.05": _result("baseline:seconds=0.05", "ismcts:seconds=0.05", 0.265, 0.19, 0.36, 100, 51.0, 50.5,
                               True, 1.01),
        "policy": _result("baseline-policy", "greedy", 0.2, 0.133, 0.289, 100, 2.0, 0.05, False, 40.0),
    },
}
EQUAL_TIME["gaudi/4p/basic"]["search@0.2"].update(command="python bench/equal_time.py --budget 0.2",
                                                  commit="def5678")

OVERSHOOT = {
    "command": "python bench/budget_overshoot.py", "commit": "abc1234", "budget": 0.05, "cpus": 2,
    "date": "2026-12-05", "load_before": 2.5,
    "games": {
        "castle": {"baseline": dict(bot="baseline:seconds=0.05", moves=1000, median_ms=0.41, p99_ms=1.9, worst_ms=7.25),
                   "plain": dict(bot="ismcts:seconds=0.05", moves=1000, median_ms=0.052, p99_ms=0.8, worst_ms=3.0),
                   "first_move_ms": 180.4, "games": 31},
        "azul": {"baseline": dict(bot="baseline:seconds=0.05", moves=1000, median_ms=0.2, p99_ms=1.1, worst_ms=4.0),
                 "plain": dict(bot="mcts:seconds=0.05", moves=1000, median_ms=0.1, p99_ms=0.5, worst_ms=2.0),
                 "first_move_ms": None, "games": 40},
    },
}

PAGE = """# A page

Text before stays.

<!-- results: equal_time -->
typed by hand
<!-- /results -->

Text between stays.

<!-- results: budget_overshoot -->
<!-- /results -->

Text after stays.
"""


def _repo(tmp_path, equal_time=EQUAL_TIME, overshoot=OVERSHOOT):
    (tmp_path / "docs").mkdir()
    (tmp_path / "bench" / "results").mkdir(parents=True)
    (tmp_path / "docs" / "page.md").write_text(PAGE, encoding="utf-8")
    for name, data in (("equal_time", equal_time), ("budget_overshoot", overshoot)):
        if data is not None:
            (tmp_path / "bench" / "results" / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
    return tmp_path / "docs" / "page.md"


def test_fake_results_are_drawn_into_the_page(tmp_path, capsys):
    page = _repo(tmp_path)
    assert render_results.main(["--check", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "docs/page.md: block 'equal_time' differs from bench/results/equal_time.json" in err
    assert "docs/page.md: block 'budget_overshoot' differs from bench/results/budget_overshoot.json" in err
    assert page.read_text(encoding="utf-8") == PAGE  # --check changes nothing

    assert render_results.main(["--root", str(tmp_path)]) == 0
    text = page.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert "typed by hand" not in text
    for kept in ("# A page", "Text before stays.", "Text between stays.", "Text after stays."):
        assert kept in lines
    assert ("| `azul/2p` | 50 ms | 0.620 [0.55, 0.69] (200) | 50.3 / 50.1 | yes "
            "| 0.100 [0.06, 0.15] (200) | 1.2 / 0.021 |") in lines
    # one row per budget, the smaller first; the policy pairing on the configuration's first row
    assert ("| `gaudi/4p/basic` | 50 ms | 0.265 [0.19, 0.36] (100) | 51.0 / 50.5 | yes "
            "| 0.200 [0.13, 0.29] (100) | 2.0 / 0.05 |") in lines
    assert "| `gaudi/4p/basic` | 200 ms | 0.310 [0.23, 0.41] (100) | 260.0 / 201.0 | no (x1.29) | — | — |" in lines
    # one line per commit: its commands, and the load average as each pairing began
    assert ("Measured at commit abc1234 on 2026-12-05 (seeds 30,000 + i, 2 CPUs, load average 1.9-1.9 as each "
            "pairing began) by `python bench/equal_time.py`.") in lines
    assert ("Measured at commit def5678 on 2026-12-05 (seeds 30,000 + i, 2 CPUs, load average 1.9-1.9 as each "
            "pairing began) by `python bench/equal_time.py --budget 0.2`.") in lines
    assert "within 20% of the larger" in text

    assert "| game | bot | moves | median past 50 ms (ms) | p99 (ms) | worst (ms) | first move (ms) |" in lines
    rows = [line for line in lines if line.startswith("| azul |") or line.startswith("| castle |")]
    assert rows == ["| azul | `baseline:seconds=0.05` | 1,000 | 0.2 | 1.1 | 4.0 | — |",
                    "| azul | `mcts:seconds=0.05` | 1,000 | 0.1 | 0.5 | 2.0 | — |",
                    "| castle | `baseline:seconds=0.05` | 1,000 | 0.41 | 1.9 | 7.2 | 180.4 |",
                    "| castle | `ismcts:seconds=0.05` | 1,000 | 0.052 | 0.8 | 3.0 | — |"]
    assert any(line.startswith("Measured by `python bench/budget_overshoot.py` at commit abc1234 on 2026-12-05 "
                               "(2 CPUs, load 2.5 before).") for line in lines)

    capsys.readouterr()
    assert render_results.main(["--check", "--root", str(tmp_path)]) == 0  # drawn: the page agrees
    assert render_results.main(["--root", str(tmp_path)]) == 0
    assert page.read_text(encoding="utf-8") == text  # drawing again changes nothing
    assert capsys.readouterr().out == ""


def test_a_changed_result_file_fails_the_check(tmp_path, capsys):
    _repo(tmp_path)
    assert render_results.main(["--root", str(tmp_path)]) == 0
    changed = json.loads(json.dumps(EQUAL_TIME))
    changed["azul/2p"]["search@0.05"]["share"] = 0.63
    (tmp_path / "bench" / "results" / "equal_time.json").write_text(json.dumps(changed), encoding="utf-8")
    capsys.readouterr()
    assert render_results.main(["--check", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "docs/page.md: block 'equal_time' differs" in err and "budget_overshoot" not in err


def test_a_missing_result_file_says_what_to_run(tmp_path):
    page = _repo(tmp_path, equal_time=None)
    assert render_results.main(["--root", str(tmp_path)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "Not measured yet: run `python bench/equal_time.py` (it writes bench/results/equal_time.json)." in text
    assert "| castle | `baseline:seconds=0.05` |" in text
    assert render_results.main(["--check", "--root", str(tmp_path)]) == 0



def test_the_ab_table_gives_each_run_and_the_largest_change():
    data = {"command": "python bench/instructions.py OLD NEW --json x.json", "commits": {"before": "54ae7af",
            "after": "c8701a3"}, "date": "2026-12-06",
            "runs": [dict(run="azul 2p playouts 15000", before=478_012_345, after=478_912_345, change_percent=0.19),
                     dict(run="gaudi 2p puct 2000", before=1_234_500_000, after=1_200_000_000,
                          change_percent=-2.79)]}
    lines = render_results.render_ab_redesign(data).splitlines()
    assert lines[:4] == ["| run | before (M instructions) | after (M instructions) | change |", "|---|---|---|---|",
                         "| azul 2p playouts 15000 | 478.0 | 478.9 | +0.2% |",
                         "| gaudi 2p puct 2000 | 1,234.5 | 1,200.0 | -2.8% |"]
    assert lines[-1].startswith("Measured by `python bench/instructions.py OLD NEW --json x.json` on 2026-12-06: "
                                "before is commit 54ae7af, after commit c8701a3")
    assert lines[-1].endswith("the largest change is -2.8% (gaudi 2p puct 2000).")


def test_the_loop_speed_table_gives_a_network_without_a_generation_its_simulations_only():
    sims = dict(simulations_per_second=12_345.0, simulations_per_move=600.0, median_simulations_per_move=550.0,
                command="python bench/loop_speed.py --simulations-only", load_before=1.0)
    loop = dict(selfplay_rows_per_second_per_core=231.4, fit_rows_per_second=399.0, seconds_per_selfplay_game=0.234,
                seconds_per_gate_game=0.63, seconds_per_measure_game=1.32, generation_seconds=58.2, games=16,
                default_generation_seconds=125.0, commit="abc1234", date="2026-12-05", cores=2, load_before=0.8,
                command="python bench/loop_speed.py", baseline_at_50ms=dict(sims, simulations_per_second=171_107.0))
    lines = render_results.render_loop_speed({"azul/2p": loop, "azul/4p": {"baseline_at_50ms": sims}}).splitlines()
    assert lines[2] == "| `azul/2p` | 231 | 399 | 0.23 / 0.63 / 1.32 | 58 (N = 16) | 2 | 171,107 (600, 550) |"
    assert lines[3] == "| `azul/4p` | — | — | — | — | — | 12,345 (600, 550) |"
    assert "Measured by `python bench/loop_speed.py` at commit abc1234 on 2026-12-05" in lines[5]
    assert lines[-1] == ("The simulations at 50 ms: `python bench/loop_speed.py --simulations-only` "
                         "(load average 1.0-1.0 as each began).")


def test_the_policy_targets_table_gives_the_gap_a_fit_could_close():
    r = dict(command="python bench/policy_targets.py runs/x x", run_command="tilecraft train azul", selfplay_simulations=64,
             selfplay_rollout_mix=0.0, note="", held_out_rows=2200, legal_actions=24.4, target_entropy=2.0,
             cross_entropy=2.25, top1=0.7, fits=[dict(lr=0.0003, passes=2.0, cross_entropy=2.2, top1=0.71)])
    lines = render_results.render_policy_targets({"x": r}).splitlines()
    assert lines[2] == ("| x | Gumbel PUCT(64), rollout_mix 0 | 2,200 (24.4) | 2.0000 | 2.2500 (0.2500), top-1 0.700 | "
                        "0.0003 x 2 -> 2.2000, 0.710 |")
    assert "`python bench/policy_targets.py runs/x x` (the run: `tilecraft train azul`)" in lines[-1]


@pytest.mark.parametrize("bad, says", [
    ("<!-- results: nonsense -->\n<!-- /results -->\n", "'nonsense' is not one of equal_time, budget_overshoot"),
    ("<!-- results: equal_time -->\nno end\n", "each block opens on a line of its own and closes once"),
])
def test_a_bad_block_is_an_error_naming_the_page(tmp_path, capsys, bad, says):
    page = _repo(tmp_path)
    page.write_text(PAGE + bad, encoding="utf-8")
    assert render_results.main(["--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("docs/page.md: ") and says in err
    assert page.read_text(encoding="utf-8") == PAGE + bad


def test_every_block_name_is_one_entry_of_one_table():
    assert set(render_results.RESULTS) == {"equal_time", "budget_overshoot", "train_backends", "ab_redesign",
                                           "screen_castle", "screen_gaudi", "presets", "puct_options",
                                           "mcts_options", "targets", "loop_speed", "loop_runs", "loop_azul", "value_heads",
                                           "policy_targets"}
    for name, (file, command, draw) in render_results.RESULTS.items():
        if name == "targets":  # issue 50's targets beside bench/equal_time.py's results
            assert file == "equal_time.json" and command == "python bench/equal_time.py" and callable(draw)
            continue
        if name == "value_heads":  # the value errors bench/loop_speed.py keeps
            assert file == "loop_speed.json" and command == "python bench/loop_speed.py" and callable(draw)
            continue
        if name == "loop_runs":  # every bench/results/loop-NAME.json (bench/keep_loop_run.py)
            assert file is None and "bench/results/loop-NAME.json" in command and callable(draw)
            continue
        if name == "loop_azul":  # the Azul runs among them, on the game's page
            assert file is None and "bench/results/loop-azul*.json" in command and callable(draw)
            continue
        if name == "presets":  # drawn from the preset table and the shipped networks' metadata
            assert file is None and "tilecraft/agents/presets.json" in command and callable(draw)
            continue
        if name.endswith("_options"):  # drawn from the C++ declarations of the search options (issue 47)
            assert file is None and f"tilecraft._core.{name}()" in command and callable(draw)
            continue
        if name.startswith("screen_"):  # every bench/results/screen-GAME-*.json (bench/baseline_targets.py)
            game = name.split("_", 1)[1]
            assert file is None and f"bench/results/screen-{game}-" in command and callable(draw)
            continue
        assert file == f"{name}.json" and command.startswith("python bench/") and callable(draw)
    assert os.path.exists(ROOT / "bench" / "equal_time.py")
