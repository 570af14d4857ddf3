"""The command line's messages (issue 19, section 3): every usage error is one 'tilecraft: error:'
line with exit status 2, says what was wrong and what is allowed; replay names the file it
refuses; tables print no '-0' and no empty seed range."""
from __future__ import annotations

import json

import pytest

import tilecraft
import tilecraft.match
from tilecraft.cli import main


def _error(capsys, argv, code=2):
    assert main(argv) == code
    err = capsys.readouterr().err
    assert err.startswith("tilecraft: error: ") and err.count("\n") == 1, err
    return err


def test_match_help_shows_a_single_percent_sign(capsys):
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    out = capsys.readouterr().out
    assert "95% intervals" in out and "%%" not in out


def test_an_option_without_a_value_is_a_usage_error(capsys):
    err = _error(capsys, ["match", "azul", "-o", "maxrounds", "--games", "1"])
    assert "'maxrounds'" in err and "NAME=VALUE" in err


def test_match_players_not_matching_the_bots_is_a_usage_error(capsys):
    err = _error(capsys, ["match", "azul", "--players", "3", "--games", "1"])
    assert "--players 3 needs 3 bots" in err and "2 bots (greedy,random)" in err and "more than once" in err
    err = _error(capsys, ["match", "azul", "--players", "5", "--bots", "a,b,c,d,e", "--games", "1"])
    assert "--players 5" in err and "azul is played by 2, 3 or 4 players" in err


@pytest.mark.parametrize("cmd", ["play", "match"])
def test_a_single_bot_for_a_game_of_two_or_more_says_how_seats_are_filled(cmd, capsys):
    err = _error(capsys, [cmd, "azul", "--bots", "greedy", "--games", "1"] if cmd == "match"
                 else [cmd, "azul", "--bots", "greedy"])
    assert "1 bot (greedy)" in err and "azul is played by 2, 3 or 4 players" in err and "one bot per seat" in err
    assert "--bots greedy,greedy" in err


def test_a_single_bot_plays_solo_gaudi(capsys):
    assert main(["play", "gaudi", "--bots", "greedy"]) == 0  # Gaudí has a solo mode: one bot is one seat
    assert "seat 0" in capsys.readouterr().out


def test_an_empty_interrupted_match_prints_no_seed_range(capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(tilecraft.match, "play_matches", interrupted)
    assert main(["match", "azul", "--games", "5"]) == 130
    captured = capsys.readouterr()
    assert "..-1" not in captured.out and "seeds" not in captured.out
    assert "before the first game finished" in captured.err


def test_replay_of_an_empty_file_fails_naming_it(tmp_path, capsys):
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    err = _error(capsys, ["replay", str(path)])
    assert str(path) in err and "empty" in err


def test_replay_of_a_saved_state_suggests_render(tmp_path, capsys):
    state = tilecraft.make("azul", seed=1)
    path = tmp_path / "state.json"
    path.write_text(state.to_json(), encoding="utf-8")
    err = _error(capsys, ["replay", str(path)])
    assert str(path) in err and f"tilecraft render {path}" in err
    pretty = tmp_path / "pretty.json"  # a saved state indented over many lines
    pretty.write_text(json.dumps(json.loads(state.to_json()), indent=2), encoding="utf-8")
    assert "tilecraft render" in _error(capsys, ["replay", str(pretty)])


@pytest.mark.parametrize("kind", ["replay", "tournament"])
def test_bad_utf8_names_the_file_and_line(tmp_path, capsys, kind):
    path = tmp_path / "bad.jsonl"
    if kind == "replay":
        tilecraft.play_match("azul", ["greedy", "random"], seed=1, replay=str(path))
    else:
        tilecraft.tournament("azul", ["greedy", "random"], games_per_pairing=1, workers=1, out=str(path))
    data = path.read_bytes().split(b"\n")
    data[1] = data[1].replace(b'"', b'"\xff', 1)
    path.write_bytes(b"\n".join(data))
    err = _error(capsys, ["replay", str(path)])
    assert f"{path}:2" in err and "UTF-8" in err
    if kind == "tournament":
        err = _error(capsys, ["tournament", "azul", "--bots", "greedy,random", "--games-per-pairing", "1",
                              "--workers", "1", "--out", str(path), "-q"])
        assert f"{path}:2" in err and "UTF-8" in err
