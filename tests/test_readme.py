"""The README's API tour runs as written (with files written to a temporary folder and the big
batch made small)."""
import os
import re

import pytest

import tilecraft

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")


def test_readme_tour_runs(tmp_path, monkeypatch, capsys):
    if not os.path.exists(README):
        pytest.skip("README.md is not next to the tests (installed-package test run)")
    with open(README, encoding="utf-8") as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert blocks, "the README has a Python tour"
    monkeypatch.chdir(tmp_path)
    code = "\n".join(blocks)
    # The batch sizes and search budgets shrink (each call still runs as written): the big batch,
    # the self-play run and the tournament took most of the test's time.
    for big, small in [("100_000", "2_000"), ("n_games=64", "n_games=4"), ("iterations=1000", "iterations=100"),
                       ("games_per_pairing=20", "games_per_pairing=2"), ("mcts:iterations=400", "mcts:iterations=40"),
                       ("mcts:iterations=200", "mcts:iterations=20")]:
        code = code.replace(big, small)
    exec(compile(code, "README.md", "exec"), {})
    assert (tmp_path / "game.jsonl").exists() and (tmp_path / "results.jsonl").exists()
    # The tour's illegal-action example is made on a live state, so it prints the reason that action
    # is illegal there (AZ rules: 2 players use factories 1..5), not "the game is over".
    out = capsys.readouterr().out
    assert "action 299 (factory 9 white -> floor) is illegal: factory 9 is not in play" in out, out
    assert "game is over" not in out, out
    assert tilecraft.list_games()
