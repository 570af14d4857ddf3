"""bench/ladder.py with time budgets (issue 48): the baseline and the plain search at each budget join
the rows, the two play each other (the equal-time pairing), and every cell gives both sides' time per
move. A tiny run checks the table's structure only: two games a pairing measure no strength, and no
time is asserted."""
import json
import os
import re
import sys

import pytest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench")
if not os.path.exists(os.path.join(BENCH, "ladder.py")):
    pytest.skip("the bench scripts are not next to the tests (installed-package test run)", allow_module_level=True)
sys.path.insert(0, BENCH)

import ladder  # noqa: E402

CELL = re.compile(r"^\d\.\d\d \[\d\.\d\d, \d\.\d\d\] \(2\) ([\d.e-]+)/([\d.e-]+) ms( †)?$")


def test_budgets_add_the_baseline_the_plain_search_and_their_pairing(tmp_path, capsys):
    out = tmp_path / "ladder.json"
    assert ladder.main(["azul", "--games", "2", "--rows", "greedy", "--budgets", "0.002", "--workers", "1",
                        "--json", str(out)]) == 0
    text = capsys.readouterr().out
    lines = [line for line in text.splitlines() if line.startswith("|")]
    assert lines[0] == ("| bot | vs greedy (x1) | vs mcts:iterations=1000 (x1) "
                        "| vs the plain search at the same budget (x1) |")
    assert lines[1] == "|---|---|---|---|"
    rows = {line.split(" | ")[0][2:].strip("`"): [c.strip() for c in line.strip("|").split("|")[1:]]
            for line in lines[2:]}
    assert list(rows) == ["greedy", "baseline:seconds=0.002", "mcts:seconds=0.002"]
    for name, cells in rows.items():
        assert len(cells) == 3, (name, cells)
        for c in cells[:2]:
            assert CELL.match(c), f"{name}: {c!r} gives share [interval] (games) and both sides' ms per move"
    assert CELL.match(rows["baseline:seconds=0.002"][2])  # the equal-time pairing
    assert rows["greedy"][2] == rows["mcts:seconds=0.002"][2] == ""
    assert "† marks a pairing not at equal time" in text
    saved = json.loads(out.read_text())
    assert saved["budgets"] == [0.002] and saved["time_tolerance"] == ladder.EQUAL_TIME_TOLERANCE
    pairs = [(r["bot"], r["opponent"]) for r in saved["results"]]
    assert ("baseline:seconds=0.002", "mcts:seconds=0.002") in pairs and len(pairs) == 7
    for r in saved["results"]:
        assert "equal_time" in r and r["seconds_per_move"] >= 0 and r["opponent_seconds_per_move"] >= 0


def test_the_plain_search_follows_the_game():
    assert ladder.budget_pairs("castle", [0.05, 0.2]) == [("baseline:seconds=0.05", "ismcts:seconds=0.05"),
                                                         ("baseline:seconds=0.2", "ismcts:seconds=0.2")]
    assert ladder.anchor_search("azul") == "mcts:iterations=1000"
    assert ladder.anchor_search("warsaw") == "ismcts:iterations=1000"


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "inf", "fast", "0.05,", "7200"])
def test_a_bad_budget_is_a_usage_error(bad, capsys):
    with pytest.raises(SystemExit) as e:
        ladder.main(["azul", "--rows", "greedy", "--budgets", bad])
    assert e.value.code == 2
    assert "budget" in capsys.readouterr().err
