"""The Gaudí pictures name the phase the state is in with the words of the engine's phase names
(GaudiState.phase_names(), cpp/gaudi/state.hpp) in every phase, the expert draft and the category
choice included: the SVG header ends with "(<phase name>)" while a seat is to act, and the text
picture's first line says "seat k: <phase name>"."""
import random
import xml.etree.ElementTree as ET

import pytest

import tilecraft
from tilecraft.render import render_text, svg

from test_gaudi_expert_rules import CATEGORY, PLAY, _ability_edition, uses_position

NS = "{http://www.w3.org/2000/svg}"


def _header(state) -> str:
    return next(t.text or "" for t in ET.fromstring(svg(state)).iter(f"{NS}text"))


def _check(state) -> None:
    name = state.phase_name()
    assert name == tilecraft.GaudiState.phase_names()[state.phase()]
    if state.is_terminal() or state.is_chance_node():
        assert not _header(state).endswith(")")
        return
    assert _header(state).endswith(f"({name})"), (_header(state), name)
    assert render_text(state).split("\n")[0].endswith(f"seat {state.current_player()}: {name}")


@pytest.mark.parametrize("players,opts", [(2, {}), (3, dict(mode="expert")), (1, {})])
def test_every_phase_of_a_random_game_is_named_in_both_pictures(players, opts) -> None:
    s = tilecraft.make("gaudi", players=players, seed=5, **opts)
    rng = random.Random(5)
    seen = set()
    steps = 0
    while not s.is_terminal() and steps < 120:
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if s.phase_name() not in seen:  # one picture per phase reached (pictures are slow to draw)
            seen.add(s.phase_name())
            _check(s)
        legal = s.legal_actions()
        s.apply(int(legal[rng.randrange(len(legal))]))
        steps += 1
    assert "moving" in seen
    if opts.get("mode") == "expert" or players == 1:
        assert "drafting a starting card" in seen


def test_the_category_choice_is_named() -> None:
    # test_gaudi_expert_rules.test_ga_amb_49: a Gaudí's-life card played with a category ability reached
    s = _ability_edition()
    pos, p = uses_position(s)
    pos.s["chimney"][p] = [0, 0, 1]
    pos.hand(p, [10])
    pos.tile(p, 0, 2)
    e = pos.load()
    e.apply(PLAY + 10)
    assert e.phase_name() == "choosing a category"
    assert CATEGORY + 0 in set(int(a) for a in e.legal_actions())
    _check(e)
    assert _header(e).endswith("(choosing a category)")
