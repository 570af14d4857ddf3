"""What the pictures say: Gaudí's track (markers clear of the space labels, every abbreviation in
the legend, each space's action in words for the play page, the phase the state is in, in the text
picture's words, through the expert draft), the central options in words, Warsaw's header naming the real step, and the
winners in plain English. Expected words come from the shipped data files and the rules, read
here on their own."""
from __future__ import annotations

import json
import os
import random
import re
import xml.etree.ElementTree as ET

import pytest

import tilecraft
from tilecraft.render import move_text, svg
from tilecraft.render.svg_games._draw import winners_sentence

NS = "{http://www.w3.org/2000/svg}"
DATA = os.path.join(os.path.dirname(os.path.abspath(tilecraft.__file__)), "data", "gaudi")


def _data(name: str):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return json.load(f)


def _play_until(state, stop, seed: int = 0, limit: int = 5000):
    rng = random.Random(seed)
    for _ in range(limit):
        if stop(state):
            return state
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    raise AssertionError("the wanted position never came")


def _track(root):
    """The track spaces by number: (x, y, w, h) of the click target and its data-say."""
    out = {}
    for el in root.iter(f"{NS}rect"):
        m = re.fullmatch(r"move (\d+) ", el.get("data-pick", ""))
        if m:
            out[int(m.group(1))] = (float(el.get("x")), float(el.get("y")), float(el.get("width")),
                                    float(el.get("height")), el.get("data-say", ""))
    return out


def _texts(root):
    return [(float(t.get("x")), float(t.get("y")), float(t.get("font-size")), t.get("text-anchor"), t.text or "")
            for t in root.iter(f"{NS}text")]


@pytest.mark.parametrize("players", [2, 4])
def test_gaudi_markers_leave_the_space_labels_readable(players: int) -> None:
    # every seat on the track: after the first moves of the round
    s = _play_until(tilecraft.make("gaudi", players=players, seed=3),
                    lambda s: sum(0 <= p < 40 for p in s.positions()[:players]) == players, seed=3)
    root = ET.fromstring(svg(s))
    track = _track(root)
    assert len(track) == 40
    texts = _texts(root)
    markers = [(float(c.get("cx")), float(c.get("cy")), float(c.get("r"))) for c in root.iter(f"{NS}circle")]
    checked = 0
    for i, (x, y, w, h, _) in track.items():
        inside = [m for m in markers if x <= m[0] <= x + w and y <= m[1] <= y + h]
        for cx, cy, r in inside:
            checked += 1
            # the space's texts (number, action, pencils and hammers, red mark), not the marker's own letter
            labels = [t for t in texts if x <= t[0] <= x + w and y <= t[1] <= y + h
                      and not (abs(t[0] - cx) < 0.01 and 0 < t[1] - cy <= 0.5 * r)]
            assert labels
            for tx, ty, size, anchor, text in labels:
                half = 0.35 * size * len(text)
                left = tx - half if anchor == "middle" else tx
                right = tx + half if anchor == "middle" else tx + 2 * half
                overlap_x = cx + r > left and cx - r < right
                overlap_y = cy + r > ty - 0.8 * size and cy - r < ty + 0.2 * size
                assert not (overlap_x and overlap_y), f"space {i}: a marker covers {text!r}"
    assert checked >= players


def test_gaudi_legend_explains_every_track_abbreviation() -> None:
    root = ET.fromstring(svg(tilecraft.make("gaudi", players=2, seed=1)))
    track = _track(root)
    words = " ".join(t[4] for t in _texts(root))
    labels = set()
    for i, (x, y, w, h, _) in track.items():
        labels |= {t[4] for t in _texts(root) if x <= t[0] <= x + w and y + 14 <= t[1] <= y + 28}
    assert {"gen", "chi", "pla"} <= labels  # the default edition has these spaces
    for label in labels:  # each label is a known code, and the legend explains its parts
        m = re.fullmatch(r"(T|K|gen|chi|pla)([BGYRNCR]?)([xlsp]?)", label)
        assert m, label
        assert re.search(rf"(^|[\s;]){m.group(1)} ", words), m.group(1)
        if m.group(2):
            assert m.group(1) + m.group(2) in words.split(), label
    for code in ("TB", "TG", "TY", "TR", "KN", "KC", "KR", "gen", "chi", "pla"):
        assert code in words.split(), code
    assert "shape letter x l s p" in words and "pencil" in words and "hammer" in words


def test_gaudi_track_spaces_say_what_they_do() -> None:
    day = _data("track.json")["day"]["spaces"]
    s = tilecraft.make("gaudi", players=2, seed=1)
    track = _track(ET.fromstring(svg(s)))
    cfg = s.config()
    for i, space in enumerate(day):
        a, say = space["action"], track[i][4]
        kind = a["type"]
        expected = {"tile": "tile", "card": "card", "play": "play a card", "chimney": "advance a chimney",
                    "generic": "any one action"}[kind]
        assert expected in say, (i, say)
        for key in ("colour", "shape"):
            if key in a:
                assert a[key] in say, (i, say)
        if "domain" in a:
            assert a["domain"].capitalize() in say, (i, say)
        pencils, hammers = cfg["track_pencils"][0][i], cfg["track_hammers"][0][i]
        if pencils:
            assert f"{pencils} pencil" in say
        if hammers:
            assert f"{hammers} hammer" in say
        # the move's own text (the viewer's and the log's) says the same
        assert move_text(s, i) == f"move {i}: {say}"


def test_gaudi_central_options_in_words() -> None:
    s = _play_until(tilecraft.make("gaudi", players=2, seed=5),
                    lambda s: not s.is_chance_node() and any(s.action_to_string(a) == "central A"
                                                             for a in s.legal_actions()), seed=5)
    tile = s.central()[0]
    options = _data("chandeliers.json")["tiles"][tile]
    a = next(x for x in s.legal_actions() if s.action_to_string(x) == "central A")
    said = move_text(s, a)
    assert said.startswith("central A: ") and said != "central A"
    for effect in options["a"]:
        word = {"vp": "VP", "resolve_catalan": "Catalan column", "resolve_nature": "Nature column",
                "resolve_one_religion": "Religion card", "take_card": "card", "collect_tile": "tile",
                "play_card": "play a card", "generic": "any one action"}[effect["type"]]
        assert word in said, (effect, said)
    # the picture names both options of this tile for the play page's buttons
    root = ET.fromstring(svg(s))
    sayings = {t.get("data-say-move"): t.get("data-say") for t in root.iter(f"{NS}text") if t.get("data-say-move")}
    assert sayings["central A"] == said[len("central A: "):]
    assert set(sayings) == {"central A", "central B"}


def test_gaudi_header_names_the_expert_draft() -> None:
    s = tilecraft.make("gaudi", players=2, seed=2, mode="expert")
    s = _play_until(s, lambda s: not s.is_chance_node() and s.phase_name() == "drafting a starting card", seed=2)
    header = _texts(ET.fromstring(svg(s)))[0][4]
    assert header.endswith("(drafting a starting card)"), header  # the text picture's words
    assert "game over" not in header


def test_warsaw_header_names_the_build_step() -> None:
    s = _play_until(tilecraft.make("warsaw", players=2, seed=4), lambda s: s.phase_name() == "selling or building" and s.pick_round() == 1,
                    seed=4)
    header = _texts(ET.fromstring(svg(s)))[0][4]
    assert "card 2/4: build or sell" in header and "pick 2/4" not in header, header
    s = _play_until(tilecraft.make("warsaw", players=2, seed=4), lambda s: s.phase_name() == "picking cards" and s.pick_round() == 1
                    and not s.is_chance_node(), seed=4)
    assert "pick 2/4: choose a card" in _texts(ET.fromstring(svg(s)))[0][4]


def test_winners_in_plain_english() -> None:
    assert winners_sentence([1]) == "seat 1 wins"
    assert winners_sentence([0, 1]) == "seats 0 and 1 share the win"
    assert winners_sentence([0, 2, 3]) == "seats 0, 2 and 3 share the win"
    s = _play_until(tilecraft.make("azul", players=2, seed=1), lambda s: s.is_terminal())
    w = list(s.winners())
    header = _texts(ET.fromstring(svg(s)))[0][4]
    expected = f"seat {w[0]} wins" if len(w) == 1 else "share the win"
    assert expected in header and "seat(s)" not in header and "winners seats" not in header


def test_viewer_move_lines_say_what_gaudi_moves_do() -> None:
    from tilecraft.replay_html import positions

    s = tilecraft.make("gaudi", players=2, seed=5)
    actions = []
    rng = random.Random(5)
    while not any(s.action_to_string(a) == "central A" for a in s.legal_actions()) or s.is_chance_node():
        a = rng.choice(list(s.legal_actions()))
        actions.append(a)
        s.apply(a)
    central_a = next(a for a in s.legal_actions() if s.action_to_string(a) == "central A")
    said, seat = move_text(s, central_a), s.current_player()
    actions.append(central_a)
    steps = positions({"game": "gaudi", "players": 2, "seed": 5, "options": {},
                       "actions": [{"action": a} for a in actions]})
    assert steps[-1]["move"] == f"seat {seat}: {said}"
    assert said.startswith("central A: ") and len(said) > len("central A: ")
    first_move = next(st["move"] for st in steps if re.match(r"seat \d: move \d+", st["move"]))
    assert re.fullmatch(r"seat \d: move \d+: .*(tile|card|chimney|action).*", first_move), first_move
