"""`tilecraft render` and `tilecraft replay --html` on a tournament results file (the file most
games are made in): the first game by default with a note of how many there are, `--game ID` the
game with that id, an absent id named with the ids that exist. And the viewer page stays small:
its pictures share their common elements, and unpacking them gives every position's picture."""
from __future__ import annotations

import json
import re

import pytest

import tilecraft
from tilecraft.cli import main
from tilecraft.render import svg
from tilecraft.replay_html import unpack_picture


def _tournament(tmp_path, game: str = "azul") -> str:
    path = str(tmp_path / "t.jsonl")
    assert main(["tournament", game, "--bots", "random,greedy", "--games-per-pairing", "3", "--workers", "1",
                 "--seed", "4", "--out", path, "-q"]) == 0
    return path


def _records(path: str):
    """The game records of a results file, read straight from its JSON lines."""
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    return lines[0], {r["id"]: r for r in lines[1:] if r.get("type") == "game"}


def _replayed(header, record, moves=None):
    """The position after ``moves`` of a record's actions, replayed with the public API."""
    state = tilecraft.make(header["game"], players=header["players"], seed=record["seed"], **header["options"])
    for a in record["actions"][:moves]:
        state.apply(a)
    return state


def test_render_a_tournament_file(tmp_path, capsys) -> None:
    path = _tournament(tmp_path)
    header, records = _records(path)
    assert sorted(records) == [0, 1, 2]
    capsys.readouterr()
    out = tmp_path / "first.svg"
    assert main(["render", path, "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "game id 0" in said and "3 games" in said and "--game" in said
    assert out.read_text() == svg(_replayed(header, records[0]))
    out2 = tmp_path / "two.svg"
    assert main(["render", path, "--game", "2", "--move", "7", "-o", str(out2)]) == 0
    assert out2.read_text() == svg(_replayed(header, records[2], 7))
    assert main(["render", path, "--game", "5", "-o", str(out2)]) == 2
    err = capsys.readouterr().err
    assert "no game with id 5" in err and "ids 0..2" in err and "unexpected line" not in err


def test_replay_html_of_a_tournament_file(tmp_path, capsys) -> None:
    path = _tournament(tmp_path)
    header, records = _records(path)
    page = tmp_path / "v.html"
    capsys.readouterr()
    assert main(["replay", path, "--html", str(page), "--game", "1"]) == 0
    assert "game id 1" in capsys.readouterr().out
    text = page.read_text()
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S).group(1))
    steps = data["steps"]
    assert len(steps) == len(records[1]["actions"]) + 1
    for k in (0, 5, len(steps) - 1):
        assert unpack_picture(data["pieces"], steps[k]["runs"]) == svg(_replayed(header, records[1], k))
    assert data["bots"] == records[1]["seats"]
    assert "game id 1, number 2 of the 3 games" in text
    assert main(["replay", path, "--html", str(page), "--game", "-1"]) == 2
    assert "no game with id -1; the file holds ids 0..2" in capsys.readouterr().err
    # a plain replay file: games are numbered 1, 2, ...
    replay = str(tmp_path / "r.jsonl")
    assert main(["match", "azul", "--bots", "random,random", "--games", "2", "--replay", replay]) == 0
    capsys.readouterr()
    assert main(["replay", replay, "--html", str(page), "--game", "2"]) == 0
    assert "game id 2, number 2 of the 2 games" in capsys.readouterr().out
    assert main(["replay", replay, "--html", str(page), "--game", "3"]) == 2
    assert "ids 1..2" in capsys.readouterr().err


def _page_size(tmp_path, game: str, players: int, seed: int) -> tuple:
    replay = str(tmp_path / f"{game}.jsonl")
    assert main(["play", game, "--bots", ",".join(["random"] * players), "--players", str(players),
                 "--seed", str(seed), "--replay", replay]) == 0
    page = tmp_path / f"{game}.html"
    assert main(["replay", replay, "--html", str(page)]) == 0
    with open(replay, encoding="utf-8") as f:
        moves = sum('"type": "action"' in line for line in f)
    return page.stat().st_size, moves


def test_azul_viewer_page_is_small(tmp_path) -> None:
    size, moves = _page_size(tmp_path, "azul", 2, 1)
    assert moves >= 40 and size < 1_000_000, (moves, size)


@pytest.mark.slow
@pytest.mark.parametrize("game, seed", [("gaudi", 3), ("warsaw", 5)])
def test_long_four_player_viewer_page_is_small(tmp_path, game: str, seed: int) -> None:
    # 182 and 211 moves: one picture per position would be 19.6 MB and 5 MB
    size, moves = _page_size(tmp_path, game, 4, seed)
    assert moves >= 150 and size < 1_000_000, (moves, size)
