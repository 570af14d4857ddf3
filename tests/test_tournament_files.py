"""Tournament results files (issue 19, section 3 and finding 6): resuming after a damaged last
line, records that do not belong to the schedule, asking for fewer games per pairing than the file
holds, the plot's dependency checked before any game, and how standings print."""
from __future__ import annotations

import json
import os
import sys

import pytest

import tilecraft
from tilecraft.cli import main
from tilecraft.tournament import format_standings, load_results

BOTS = ["random", "greedy"]


def _run(out, games_per_pairing=2, **kw):
    return tilecraft.tournament("azul", BOTS, games_per_pairing=games_per_pairing, workers=1, out=str(out), **kw)


def _lines(path):
    with open(path, encoding="utf-8") as f:
        return [line for line in f.read().split("\n") if line.strip()]


def _write(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))


def _strip(games):
    return [{k: g[k] for k in ("id", "seed", "seats", "scores", "winners", "actions")} for g in games]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished Azul tournament of one pairing, 4 games (ids 0..3), and its result."""
    out = tmp_path_factory.mktemp("t") / "full.jsonl"
    result = _run(out, games_per_pairing=4)
    assert result.complete and len(result.games) == 4
    return out, result


def test_a_corrupt_last_line_with_its_newline_is_removed_on_resume(tmp_path, finished, capsys):
    """A damaged last line that ends with a newline: resuming must not append after it. The file is
    rewritten without it (the old file kept as .bak, stderr says so) and that game is played again;
    then replay and extending the tournament work."""
    src, full = finished
    out = tmp_path / "t.jsonl"
    lines = _lines(src)
    _write(out, lines[:3] + [lines[3][: len(lines[3]) // 2]])  # header, games 0-1, half of game 2's record
    resumed = _run(out, games_per_pairing=4)
    assert resumed.complete and _strip(resumed.games) == _strip(full.games)
    err = capsys.readouterr().err
    assert f"{out}:4" in err and "removed" in err and f"{out}.bak" in err
    with open(f"{out}.bak", encoding="utf-8") as f:
        assert f.read().split("\n")[3] == lines[3][: len(lines[3]) // 2]
    assert all(json.loads(line) for line in _lines(out))  # every line of the file is JSON again
    assert main(["replay", str(out)]) == 0
    assert "4 game(s) replayed" in capsys.readouterr().out
    bigger = _run(out, games_per_pairing=6)
    assert bigger.complete and len(bigger.games) == 6


def test_a_corrupt_line_in_the_middle_is_refused_with_its_line_number(tmp_path, finished):
    src, _ = finished
    out = tmp_path / "t.jsonl"
    lines = _lines(src)
    _write(out, lines[:2] + ["{not json"] + lines[2:])
    before = out.read_bytes()
    with pytest.raises(ValueError, match=f"{out}:3: not a JSON line"):
        _run(out, games_per_pairing=4)
    assert out.read_bytes() == before


def _edited(src, out, index, edit):
    lines = _lines(src)
    record = json.loads(lines[index])
    edit(record)
    lines[index] = json.dumps(record)
    _write(out, lines)


@pytest.mark.parametrize("edit,words", [
    (lambda r: r.update(id=4), ["line 2", "'id' is 4", "outside", "0..3"]),
    (lambda r: r.update(id=60), ["'id' is 60", "outside"]),
    (lambda r: r.pop("id"), ["line 2", "no 'id' field"]),
    (lambda r: r.update(id="0"), ["line 2", "'id' must be an integer", "'0'"]),
    (lambda r: r.update(id=True), ["'id' must be an integer"]),
    (lambda r: r.update(seats=["nonexistent", "greedy"]), ["line 2", "'seats'", "'nonexistent'",
                                                           "not a bot of this tournament"]),
    (lambda r: r.update(seed=r["seed"] + 1), ["line 2", "'seed'"]),
    (lambda r: r.update(winners=[5]), ["line 2", "'winners'"]),
])
def test_records_outside_the_schedule_are_refused(tmp_path, finished, edit, words, capsys):
    """A game record must be a game of the header's schedule: a clear error naming the file, the
    line and the field, for the library, for resuming (before any game is appended) and for replay."""
    src, _ = finished
    out = tmp_path / "t.jsonl"
    _edited(src, out, 1, edit)
    for w in words:
        w = w.replace("line 2", f"{out}:2")
        with pytest.raises(ValueError) as info:
            load_results(str(out))
        assert w in str(info.value), str(info.value)
    before = out.read_bytes()
    with pytest.raises(ValueError, match=f"{out}:2"):
        _run(out, games_per_pairing=4)
    assert out.read_bytes() == before  # nothing appended
    assert main(["replay", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tilecraft: error:") and f"{out}:2" in err


def test_a_record_beyond_the_schedule_is_not_counted_as_a_game(tmp_path, finished, capsys):
    """The issue's case: a copy of a record with an id past the end gave 'standings after 5/4 games'."""
    src, _ = finished
    out = tmp_path / "t.jsonl"
    lines = _lines(src)
    extra = json.loads(lines[1])
    extra["id"] = 4
    _write(out, lines + [json.dumps(extra)])
    assert main(["tournament", "azul", "--bots", ",".join(BOTS), "--games-per-pairing", "4", "--workers", "1",
                 "--out", str(out), "-q"]) == 2
    captured = capsys.readouterr()
    assert "5/4" not in captured.out and f"{out}:6" in captured.err and "outside" in captured.err


def test_fewer_games_per_pairing_than_the_file_holds(tmp_path, finished, capsys):
    """Documented choice (docs/tournaments.md): the results cover the first N games of each pairing, exactly
    what a tournament of N gives; nothing new is played and the file is left as it was."""
    src, full = finished
    out = tmp_path / "t.jsonl"
    out.write_bytes(src.read_bytes())
    fewer = _run(out, games_per_pairing=2)
    fresh = _run(tmp_path / "fresh.jsonl", games_per_pairing=2)
    assert fewer.complete and _strip(fewer.games) == _strip(fresh.games)
    assert fewer.note and "4 games per pairing" in fewer.note
    assert out.read_bytes() == src.read_bytes()
    assert main(["tournament", "azul", "--bots", ",".join(BOTS), "--games-per-pairing", "3", "--workers", "1",
                 "--out", str(out), "-q"]) == 0
    captured = capsys.readouterr()
    assert "standings after 3/3 games" in captured.out and "note:" in captured.err
    assert out.read_bytes() == src.read_bytes()


def test_fewer_games_per_pairing_resumes_inside_the_larger_file(tmp_path, finished):
    """An interrupted larger tournament asked for fewer: only the missing games of the smaller
    schedule are played, and they go into the file under the file's own game numbers."""
    src, full = finished
    out = tmp_path / "t.jsonl"
    lines = _lines(src)
    _write(out, [lines[0], lines[4]])  # only game 3 of 4 is there
    fewer = _run(out, games_per_pairing=2)
    assert fewer.complete and _strip(fewer.games) == _strip(full.games[:2])
    ids = sorted(json.loads(line)["id"] for line in _lines(out)[1:])
    assert ids == [0, 1, 3]
    assert _strip(_run(out, games_per_pairing=4).games) == _strip(full.games)


def test_a_missing_matplotlib_is_reported_before_any_game(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "t.jsonl"
    with pytest.raises(ImportError, match=r"tilecraft\[plot\]"):
        _run(out, plot_path=str(tmp_path / "p.png"))
    assert not os.path.exists(out)  # no game was played
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        _run(out, plot_path=str(tmp_path / "p.jpeg"))
    assert not os.path.exists(out)


def test_standings_never_print_minus_zero():
    row = dict(bot="a", games=2, win_rate=0.5, win_rate_low=0.1, win_rate_high=0.9, mean_score=-0.001,
               ms_per_move=0.0, elo=-0.3, elo_ci=100.0)
    other = dict(row, bot="b", elo=0.3, mean_score=0.001)
    text = format_standings([other, row], 2, 2)
    assert "-0" not in text
    assert text.splitlines()[-1].split()[-3:] == ["0", "100", "0.00"]


def test_another_tournaments_file_is_refused_untouched_even_with_a_damaged_last_line(tmp_path, finished):
    src, _ = finished
    out = tmp_path / "t.jsonl"
    lines = _lines(src)
    _write(out, lines[:3] + ['{"type": "game", "id": 2, "se'])
    before = out.read_bytes()
    with pytest.raises(ValueError, match="different tournament"):
        _run(out, games_per_pairing=4, seed=7)
    assert out.read_bytes() == before and not os.path.exists(f"{out}.bak")


def test_a_process_that_loaded_jax_starts_its_workers_from_a_fresh_process(monkeypatch):
    """JAX's threads make a forked child deadlock (JAX warns on fork): once it is loaded (say, after
    training in the same process), local tournaments start their workers by forkserver."""
    import importlib
    import sys

    tournament = importlib.import_module("tilecraft.tournament")  # (tilecraft.tournament is also the function)
    monkeypatch.delitem(sys.modules, "jax", raising=False)
    assert tournament._start_method(["fork", "spawn", "forkserver"]) == "fork"
    monkeypatch.setitem(sys.modules, "jax", object())
    assert tournament._start_method(["fork", "spawn", "forkserver"]) == "forkserver"
    assert tournament._start_method(["spawn"]) is None  # the platform's own (Windows, macOS)
