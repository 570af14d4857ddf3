"""The tilecraft command line, run in-process through cli.main and as a subprocess."""
import os
import subprocess
import sys

import pytest

import tilecraft
from tilecraft.cli import main


def test_help_lists_the_subcommands(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for cmd in ("play", "match", "rules", "replay", "bench"):
        assert cmd in out


@pytest.mark.parametrize("cmd", ["play", "match", "rules", "replay", "bench"])
def test_every_subcommand_has_help(cmd, capsys):
    with pytest.raises(SystemExit):
        main([cmd, "--help"])
    assert "usage: tilecraft " + cmd in capsys.readouterr().out


def test_play_prints_the_final_position(capsys):
    assert main(["play", "azul", "--bots", "greedy,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "game over" in out and "winner" in out and "seat 1" in out


def test_match_prints_a_table_and_writes_a_replay(tmp_path, capsys):
    replay = tmp_path / "m.jsonl"
    assert main(["match", "azul", "--bots", "greedy,random", "--games", "4", "--replay", str(replay)]) == 0
    out = capsys.readouterr().out
    assert "4 games of azul" in out and "\ngreedy " in out and "\nrandom " in out  # bots by name
    assert main(["replay", str(replay)]) == 0
    assert "4 game(s) replayed" in capsys.readouterr().out


def test_rules_lists_options(capsys):
    assert main(["rules", "azul"]) == 0
    out = capsys.readouterr().out
    assert "chance" in out and "returns_mode" in out and "players: 2, 3, 4" in out


def test_bad_option_is_an_error_not_a_traceback(capsys):
    assert main(["play", "azul", "-o", "chance=magic"]) == 2
    assert "sampled" in capsys.readouterr().err
    assert main(["play", "azul", "--bots", "random,nobot"]) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_bench_runs(capsys):
    assert main(["bench", "azul", "--games", "200"]) == 0
    assert "games/s" in capsys.readouterr().out


def test_console_script_and_module_entry_point():
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-m", "tilecraft", "rules"], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and "azul" in r.stdout
