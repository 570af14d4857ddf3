"""SVG pictures: every game, at the start, in the middle and at the end, is a well-formed SVG that
shows the parts of the physical game; hidden hands stay hidden for a seat; Jupyter's
_repr_svg_; the colour sets carry letters on similar-luminance colours; ``tilecraft render``."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

import tilecraft
from tilecraft.cli import main
from tilecraft.render import svg
from tilecraft.render.svg_games import NoPictureError, has_picture
from web_helpers import random_state

NS = "{http://www.w3.org/2000/svg}"
GAMES = tilecraft.list_games()


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", root.get("viewBox", ""))
    return root


def texts(root: ET.Element) -> str:
    return " ".join(t.text or "" for t in root.iter(f"{NS}text"))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("steps", [0, 25, None])
def test_every_game_draws_every_phase(game: str, steps) -> None:
    players = 2 if game == "castle" else 3
    state = random_state(game, players, seed=7, steps=steps)
    root = parse(svg(state))
    words = texts(root)
    for p in range(players):
        assert f"seat {p}" in words
    if state.is_terminal():
        assert "game over" in words and "winner" in words


def test_every_registered_game_has_a_picture() -> None:
    assert all(has_picture(g) for g in GAMES)


def test_azul_parts() -> None:
    s = random_state("azul", 2, seed=3, steps=6)
    words = texts(parse(svg(s)))
    for part in ("factory 1", "centre", "floor", "points", "bag"):
        assert part in words
    # a factory tile can be clicked: its data-pick names the source and colour of the move
    names = [s.action_to_string(int(a)) for a in s.legal_actions()]
    picks = set(re.findall(r'data-pick="([^"]+)"', svg(s)))
    assert any(any((n + " ").startswith(p) for n in names) for p in picks if p.startswith(("factory", "centre")))


def test_castle_parts() -> None:
    s = random_state("castle", 2, seed=3, steps=40)
    text = svg(s)
    words = texts(parse(text))
    assert "tile in hand" in words or s.phase_name() not in ("choosing which drawn tile to keep", "placing the tile", "may place a follower")
    assert "followers in supply" in words and "wall tiles" in words
    # one follower marker per follower: seat digits drawn at least that often
    assert len(s.followers()) <= words.count("0") + words.count("1")
    # every empty interior space is a place target
    empty = int((s.board()[:, :, 0] == -1).sum())
    assert text.count('data-pick="place (') == empty


def test_warsaw_hands_only_for_the_viewer() -> None:
    s = random_state("warsaw", 3, seed=5, steps=1)
    assert s.hand(1) and s.hand(2)
    everyone = svg(s)
    mine = svg(s, seat=0)
    assert "face down" not in texts(parse(everyone))
    words = texts(parse(mine))
    assert words.count("face down") == 2  # seats 1 and 2
    # only seat 0's hand cards are pickable in seat 0's view
    seats = set(re.findall(r'data-pick="pick \d+ " data-pick-seat="(\d+)"', mine))
    assert seats == {"0"}


def test_gaudi_hands_only_for_the_viewer() -> None:
    s = random_state("gaudi", 2, seed=5, steps=0)
    view = svg(s, seat=1)
    words = texts(parse(view))
    assert "face down" in words
    for card in s.hand(0):
        assert f"#{card} " not in words + " "  # seat 0's cards are not shown to seat 1 (unless in a window)


def _track_spaces(view: str) -> int:
    return len(re.findall(r'data-pick="move \d+ "', view))


@pytest.mark.parametrize("options, spaces", [({"players": 2}, 40), ({"players": 3, "mode": "expert"}, 38),
                                             ({"players": 1, "difficulty": "hard"}, 38)])
def test_gaudi_track_face_follows_the_mode(options, spaces) -> None:
    """Basic play uses the day face of the default edition's track (40 spaces), expert and solo the
    night face (38 spaces, GA-EXP-2, GA-SOLO-1): the picture draws the face being played."""
    s = tilecraft.make("gaudi", seed=2, **options)
    assert s.config()["track_n"] == [40, 38]
    assert _track_spaces(svg(s)) == spaces


def test_gaudi_solo_draws_the_automa() -> None:
    """Solo: the automa's marker on the track and its area (columns, tiles, its score if the game
    ended now) are drawn."""
    s = random_state("gaudi", 1, seed=2, steps=25)
    cols, tiles, _ = s.automa_area()
    assert any(cols) and sum(tiles) > 0
    words = texts(parse(svg(s)))
    assert f"Gaudí automa (normal): {s.automa_final_score()} points if the game ended now" in words
    for k, col in enumerate(cols):
        assert ("NCR"[k] + ": " + (" ".join(f"#{c}" for c in col) or "-")) in words


def test_repr_svg_is_the_picture() -> None:
    for game in GAMES:
        s = tilecraft.make(game, players=2)
        assert s._repr_svg_() == svg(s)


def test_bad_seat_and_unknown_game() -> None:
    s = tilecraft.make("azul", players=2)
    with pytest.raises(ValueError, match="seat 5"):
        svg(s, seat=5)

    class Fake:
        game_name = "nosuchgame"

    with pytest.raises(NoPictureError, match="nosuchgame"):
        svg(Fake())


def _luminance(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("module,attr,letters", [
    ("castle", "TYPE_FILLS", "TYPE_LETTERS"), ("warsaw", "FILLS", "LETTERS"), ("gaudi", "C_FILLS", "C_LETTERS"),
])
def test_colour_sets_are_lettered_and_of_similar_luminance(module: str, attr: str, letters: str) -> None:
    import importlib

    m = importlib.import_module(f"tilecraft.render.svg_games.{module}")
    fills, marks = getattr(m, attr), getattr(m, letters)
    assert len(set(marks[:len(fills)])) == len(fills)  # one distinct letter per colour
    lum = [_luminance(f) for f in fills]
    assert max(lum) - min(lum) < 0.35, lum


# --- tilecraft render ---------------------------------------------------------------------------

def _replay(tmp_path, game: str = "azul") -> str:
    path = str(tmp_path / f"{game}.jsonl")
    assert main(["play", game, "--bots", "random,random", "--seed", "2", "--replay", path]) == 0
    return path


def test_render_saved_state_and_replay_positions(tmp_path, capsys) -> None:
    s = random_state("castle", 2, seed=1, steps=30)
    saved = tmp_path / "state.json"
    saved.write_text(s.to_json())
    out = tmp_path / "state.svg"
    assert main(["render", str(saved), "-o", str(out)]) == 0
    assert out.read_text() == svg(s)
    replay = _replay(tmp_path)
    first, fifth = tmp_path / "m0.svg", tmp_path / "m5.svg"
    assert main(["render", replay, "--move", "0", "-o", str(first)]) == 0
    assert main(["render", replay, "--move", "5", "-o", str(fifth)]) == 0
    parse(first.read_text())
    assert first.read_text() != fifth.read_text()
    assert first.read_text() == svg(tilecraft.make("azul", players=2, seed=2))


def test_render_bad_input(tmp_path, capsys) -> None:
    replay = _replay(tmp_path)
    capsys.readouterr()
    assert main(["render", replay, "--move", "9999", "-o", str(tmp_path / "x.svg")]) == 2
    assert "move 9999 out of range" in capsys.readouterr().err
    assert main(["render", replay, "--game-index", "2", "-o", str(tmp_path / "x.svg")]) == 2
    assert "game 2 out of range" in capsys.readouterr().err
    # a replay whose header names another game: the first action that does not fit is named
    with open(replay) as f:
        lines = f.read().splitlines()
    header = json.loads(lines[0])
    header["game"], header["options"] = "castle", {}
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    assert main(["render", str(forged), "-o", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert "step 1" in err and "not legal" in err
    assert main(["render", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["render", replay, "-o", str(tmp_path / "x.gif")]) == 2
    assert "write .svg or .png" in capsys.readouterr().err


def test_render_png_needs_the_extra(tmp_path, capsys) -> None:
    replay = _replay(tmp_path)
    out = tmp_path / "x.png"
    try:
        import cairosvg  # noqa: F401
    except ImportError:
        assert main(["render", replay, "-o", str(out)]) == 2
        assert "pip install 'tilecraft[png]'" in capsys.readouterr().err
    else:
        assert main(["render", replay, "-o", str(out)]) == 0
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_docs_have_a_picture_of_every_game() -> None:
    import os

    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "pictures")
    if not os.path.isdir(folder):
        pytest.skip("docs/ is not next to the tests (installed-package test run)")
    for game in GAMES:
        with open(os.path.join(folder, f"{game}.svg"), encoding="utf-8") as f:
            parse(f.read())


def test_replay_viewer_bad_input(tmp_path, capsys) -> None:
    replay = _replay(tmp_path, "castle")
    capsys.readouterr()
    assert main(["replay", replay, "--html", str(tmp_path / "v.html"), "--game-index", "0"]) == 2
    assert "game 0 out of range" in capsys.readouterr().err
    with open(replay) as f:
        lines = f.read().splitlines()
    header = json.loads(lines[0])
    header["game"], header["options"] = "azul", {}
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    assert main(["replay", str(forged), "--html", str(tmp_path / "v.html")]) == 2
    err = capsys.readouterr().err
    assert "step 1" in err and ("not legal" in err or "seat" in err)
    assert not (tmp_path / "v.html").exists()
    header["game"] = "chess"
    forged.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    assert main(["replay", str(forged), "--html", str(tmp_path / "v.html")]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["replay", replay, "--html", str(tmp_path / "v.html")]) == 0
    assert (tmp_path / "v.html").read_text().startswith("<!DOCTYPE html>")
