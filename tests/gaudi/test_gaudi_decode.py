"""Gaudí's action ids read in one place (issue 20, item 4): every id of the spec's §11.2 layout
(docs/rules/gaudi.md) has the name its range gives it, reads back from that name, and an
illegal action's message names the phase with the word the text picture shows."""
import pytest

import tilecraft
from gaudi_fixtures import make_state
from tilecraft.render import render_text


def _spec_name(a: int) -> str:
    """The name of id `a`, from the §11.2 table (ranges and formulas as the spec writes them)."""
    if a < 48:
        return f"move {a}"
    if a == 48:
        return "move central"
    if a in (49, 50):
        return ("pencils", "hammers")[a - 49]
    if a < 131:
        x = a - 51
        return f"take tile a{x // 16} c{x // 4 % 4} s{x % 4}"
    ranges = [(131, 195, "place"), (195, 294, "take card"), (294, 393, "play card"), (393, 492, "discard card")]
    for lo, hi, word in ranges:
        if lo <= a < hi:
            return f"{word} {a - lo}"
    if a < 495:
        return "advance " + "NCR"[a - 492]
    if a in (495, 496):
        return "central " + "AB"[a - 495]
    for lo, hi, word in [(497, 545, "resolve"), (545, 644, "target card"), (644, 653, "category")]:
        if lo <= a < hi:
            return f"{word} {a - lo}"
    assert a == 653
    return "done"


def test_every_id_has_its_spec_name_and_reads_back():
    s = make_state(4, 0)
    assert s.num_distinct_actions() == 654
    for a in range(654):
        name = s.action_to_string(a)
        assert name == _spec_name(a), a
        assert s.string_to_action(name) == a
        assert s.string_to_action(name.upper()) == a


@pytest.mark.parametrize("bad", [-1, 654, 10_000])
def test_ids_outside_the_layout_are_rejected(bad):
    s = make_state(4, 0)
    with pytest.raises(tilecraft.IllegalActionError, match=f"id {bad}( |$)"):
        s.action_to_string(bad)


def _phase_word(state) -> str:
    first = render_text(state).splitlines()[0]  # "..., seat 0: moving"
    return first.rsplit(": ", 1)[1]


def test_illegal_action_message_names_the_phase_as_the_picture_does():
    s = make_state(4, 0)
    word = _phase_word(s)
    assert word == "moving"
    before = s.to_json()
    with pytest.raises(tilecraft.IllegalActionError) as info:
        s.apply(49)  # PENCILS while the seat is to move
    message = str(info.value)
    assert f"phase: {word}" in message and "'pencils' is not legal now (seat 0" in message
    assert s.to_json() == before  # a rejected call changes nothing
    s.apply(7)  # the only marker on the track leads: it uses its space's actions (GA-MOVE-5)
    word = _phase_word(s)
    assert word == "using actions"
    with pytest.raises(tilecraft.IllegalActionError) as info:
        s.apply(131)  # PLACE with no tile taken
    assert f"'place 0' is not legal now (seat 0, phase: {word})" in str(info.value)
