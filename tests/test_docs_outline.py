"""Every game's docs page (docs/<game>.md) follows one outline (issue 20): its level-2 headings are
exactly OUTLINE, in this order; its "Phases" section names every phase word of the engine's
vocabulary (kPhaseNames in cpp/<game>/state.hpp) and its "Actions" section every action kind
(kActionKindNames), so the page cannot drift from the words the engine and its pictures use."""
import os
import re

import pytest

import tilecraft

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUTLINE = ["Overview", "Options", "Phases", "Actions", "Observation", "Hidden information",
           "Decisions the spec left open", "Rules coverage", "Speed"]

if not os.path.isdir(os.path.join(ROOT, "docs")) or not os.path.isdir(os.path.join(ROOT, "cpp")):
    pytest.skip("the docs and sources are not next to the tests (installed-package test run)",
                allow_module_level=True)


def _sections(game):
    """{level-2 heading: its text} and the headings in page order (code blocks skipped)."""
    with open(os.path.join(ROOT, "docs", f"{game}.md"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    order, body, fence, current = [], {}, False, None
    for line in lines:
        if line.startswith("```"):
            fence = not fence
        if not fence and line.startswith("## "):
            current = line[3:].strip()
            order.append(current)
            body[current] = []
        elif current is not None:
            body[current].append(line)
    return order, {k: "\n".join(v) for k, v in body.items()}


def _vocabulary(game, array):
    """The strings of one vocabulary array declared in cpp/<game>/state.hpp."""
    with open(os.path.join(ROOT, "cpp", game, "state.hpp"), encoding="utf-8") as f:
        header = f.read()
    m = re.search(array + r"\[[^\]]*\]\s*=\s*\{(.*?)\};", header, re.S)
    assert m, f"cpp/{game}/state.hpp declares {array}"
    return re.findall(r'"([^"]*)"', m.group(1))


@pytest.mark.parametrize("game", tilecraft.list_games())
def test_game_page_has_the_outline_headings_in_order(game):
    assert os.path.exists(os.path.join(ROOT, "docs", f"{game}.md")), f"docs/{game}.md exists"
    order, _ = _sections(game)
    assert order == OUTLINE, f"docs/{game}.md: level-2 headings {order}, expected exactly {OUTLINE}"


@pytest.mark.parametrize("game", tilecraft.list_games())
def test_phases_and_actions_sections_use_the_engine_vocabulary(game):
    _, body = _sections(game)
    phases, kinds = _vocabulary(game, "kPhaseNames"), _vocabulary(game, "kActionKindNames")
    assert phases and kinds
    missing = [p for p in phases if p not in body.get("Phases", "")]
    assert not missing, f"docs/{game}.md, section Phases: phase words not named: {missing}"
    missing = [k for k in kinds if f"`{k}`" not in body.get("Actions", "")]
    assert not missing, f"docs/{game}.md, section Actions: action kinds not named: {missing}"
    for call in ("phase_names()", "action_ranges()"):
        assert call in body["Phases"] + body["Actions"], f"docs/{game}.md names State.{call}"
