"""`tilecraft tournament gaudi` in expert mode and in solo (a bot's result against the automa),
through the CLI's main function with tiny game counts; every reported number is recomputed from
the games recorded in the results file, replayed on a fresh state."""
import json

import pytest

import tilecraft
from tilecraft.cli import main


def _records(path):
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(x) for x in f if x.strip()]
    return lines[0], [x for x in lines[1:] if x.get("type") == "game"]


def _replay(header, rec, players):
    s = tilecraft.make("gaudi", players=players, seed=rec["seed"], **header["options"])
    first_phase = s.phase()
    for a in rec["actions"]:
        s.apply(int(a))
    assert s.is_terminal()
    return s, first_phase


def test_tournament_expert_mode(tmp_path, capsys):
    out, js = tmp_path / "t.jsonl", tmp_path / "t.json"
    assert main(["tournament", "gaudi", "--bots", "random,greedy", "-o", "mode=expert", "--games-per-pairing", "2",
                 "--workers", "1", "-q", "--seed", "3", "--out", str(out), "--json", str(js)]) == 0
    assert "standings after 2/2 games" in capsys.readouterr().out
    header, games = _records(out)
    assert header["options"]["mode"] == "expert" and len(games) == 2
    for rec in games:
        s, first = _replay(header, rec, 2)
        assert first == 11  # the start-card draft opens every expert game (GA-EXP-5)
        assert [sum(a) for a in tilecraft.make("gaudi", players=2, seed=rec["seed"], mode="expert").areas()] == [4] * 5
        assert list(s.scores()) == rec["scores"] and list(s.winners()) == rec["winners"]


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_tournament_solo_reports_the_result_against_the_automa(tmp_path, capsys, difficulty):
    out, js = tmp_path / "t.jsonl", tmp_path / "t.json"
    assert main(["tournament", "gaudi", "--bots", "random,greedy", "--players", "1", "-o", f"difficulty={difficulty}",
                 "--games-per-pairing", "2", "--workers", "1", "-q", "--out", str(out), "--json", str(js)]) == 0
    text = capsys.readouterr().out
    assert "mean return" in text
    header, games = _records(out)
    assert header["players"] == 1 and header["options"]["difficulty"] == difficulty
    per_bot = {}
    for rec in games:
        s, first = _replay(header, rec, 1)
        assert first == 11  # the solo starting pick
        margin = s.scores()[0] - s.automa_score()  # returns_mode=score: the margin over the automa
        assert rec["returns"] == [margin]
        assert rec["winners"] == ([0] if margin > 0 else [])  # a tie goes to the automa (GA-SOLO-END-5)
        per_bot.setdefault(rec["seats"][0], []).append((margin, margin > 0))
    with open(js, encoding="utf-8") as f:
        standings = {r["bot"]: r for r in json.load(f)["standings"]}
    assert set(standings) == {"random", "greedy"} == set(per_bot)
    for bot, results in per_bot.items():
        row = standings[bot]
        assert row["games"] == len(results) == 2
        assert row["mean_return"] == pytest.approx(sum(m for m, _ in results) / len(results))
        assert row["win_rate"] == pytest.approx(sum(w for _, w in results) / len(results))
        assert "mu" not in row and "elo" not in row  # no ratings from games without an opponent seat
