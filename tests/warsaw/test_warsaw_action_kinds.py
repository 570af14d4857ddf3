"""Warsaw's actions by kind (docs/warsaw.md, "Actions"): each id's name starts with its kind's verb,
the kinds fill the id space in order, and an action of another phase is refused with the phase in
the words of the text picture (one list of phase names, in the game's header)."""
from __future__ import annotations

import itertools
import random
import re

import pytest

import tilecraft
from tilecraft.render import render_text

FRAME_CELLS = 19 * 19  # frame coordinates -9..9 on both axes (docs/warsaw.md)
# docs/warsaw.md, "Actions": the verbs in id order and how many ids each has
KINDS = [("pick", 4), ("sell", 1), ("build", 4 * FRAME_CELLS), ("remove", FRAME_CELLS), ("trim", 4),
         ("keep", FRAME_CELLS), ("exchange", 4)]


def test_every_id_is_named_by_its_kind_and_reads_back():
    s = tilecraft.make("warsaw")
    assert s.num_distinct_actions() == sum(n for _, n in KINDS)
    verbs = []
    for a in range(s.num_distinct_actions()):
        name = s.action_to_string(a)
        assert s.string_to_action(name) == a, name
        verbs.append(name.split()[0])
    runs = [(v, len(list(g))) for v, g in itertools.groupby(verbs)]
    assert runs == KINDS


def _phase_word(state) -> str:
    first = render_text(state).splitlines()[0]
    m = re.search(r"seat \d+: (.+)$", first)
    assert m, first
    return m.group(1)


def test_an_action_of_another_phase_names_the_phase_as_the_picture_does():
    seen = set()
    for seed in range(4):
        for players in (2, 3, 4):
            s = tilecraft.make("warsaw", players=players, seed=seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                word = _phase_word(s)
                if word not in seen:
                    seen.add(word)
                    legal = list(s.legal_actions())
                    exchanging = any(s.action_to_string(a).startswith("exchange") for a in legal)
                    other = s.string_to_action("pick 0" if exchanging else "exchange 3")
                    assert other not in legal
                    before = s.to_json()
                    try:
                        s.apply(other)
                    except tilecraft.IllegalActionError as e:
                        assert str(e).endswith(f"is illegal for seat {s.current_player()}: "
                                               f"the seat is in the {word} phase"), str(e)
                    else:
                        raise AssertionError(f"{s.action_to_string(other)} was applied in phase {word!r}")
                    assert s.to_json() == before  # a refused action changes nothing
                s.apply(rng.choice(list(s.legal_actions())))
    # the random games reach both draft phases, the war, a milestone placement and an exchange
    assert len(seen) >= 5, seen


def test_card_id_ranges_are_contiguous_and_bound_card_location():
    # Era cards, then one starting card per seat (4), then one card per milestone slot (5): the ids
    # card_location() accepts are exactly these ranges, in this order, from 0.
    ids = tilecraft.WarsawState.card_ids()
    assert list(ids) == ["era", "start", "milestone"]
    (e0, e1), (s0, s1), (m0, m1) = ids["era"], ids["start"], ids["milestone"]
    assert e0 == 0 and e1 == s0 and s1 == m0
    assert s1 - s0 == 4 and m1 - m0 == 5
    state = tilecraft.make("warsaw", players=2, seed=1)
    state.card_location(m1 - 1)
    with pytest.raises(IndexError):
        state.card_location(m1)
