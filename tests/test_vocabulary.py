"""Each game's words, as the engine exports them (phase_names, phase_name, action_kinds,
action_ranges, action_kind, locations; declared once in the game's C++ header): the ranges tile
[0, num_distinct_actions()) in kind order, every phase a game reaches has its name, and each
legal action's kind agrees with its text (action_to_string)."""
from __future__ import annotations

import random
from typing import Any, Dict, List, Tuple

import pytest

import tilecraft

# A few configurations per game: player counts, Gaudí's expert and solo modes, Castle's option sets
# (a game not listed here is checked in its default configuration).
CONFIGS: Dict[str, List[Dict[str, Any]]] = {
    "azul": [dict(players=2), dict(players=4, chance="explicit", first_player=-1)],
    "castle": [dict(players=2), dict(players=2, bonus1_mode="draw_two_choose_one", scoring_order="chosen"),
               dict(players=2, chance="explicit", first_player=-1, start_bonus_tiles=False,
                    bonus7_scope="all_courtyards", scoring_order="canonical")],
    "gaudi": [dict(players=2), dict(players=4, mode="expert"), dict(players=1), dict(players=3, chance="explicit")],
    "warsaw": [dict(players=2), dict(players=4)],
}

# Where a game's action text does not start with its kind's name (the name with "_" read as a
# space, compared without case), the words it starts with instead:
# - Azul (cpp/azul/observe.cpp, action_to_string): a take reads "<source> <colour> -> <line>", the
#   source being "centre" or "factory k".
# - Castle (cpp/castle/observe.cpp, action_to_string): a pending id reads "keep drawn tile j" while
#   a drawn tile is chosen and "score pending j" while the scoring order is chosen.
PREFIXES: Dict[Tuple[str, str], Tuple[str, ...]] = {
    ("azul", "take"): ("centre", "factory"),
    ("castle", "pending"): ("keep drawn tile", "score pending"),
}


def _cases() -> List[Tuple[str, Dict[str, Any]]]:
    return [(game, cfg) for game in tilecraft.list_games() for cfg in CONFIGS.get(game, [dict()])]


def _id(case: Tuple[str, Dict[str, Any]]) -> str:
    game, cfg = case
    return game + "-" + "-".join(f"{k}={v}" for k, v in cfg.items())


CASES = _cases()


def _prefixes(game: str, kind: str) -> Tuple[str, ...]:
    return PREFIXES.get((game, kind), (kind.replace("_", " "),))


def _kind_from_text(game: str, kinds: Tuple[str, ...], text: str) -> str:
    """The kind whose words are the longest start of the text ("move central" is move_central, not move)."""
    best, length = "", -1
    for kind in kinds:
        for prefix in _prefixes(game, kind):
            if text.lower().startswith(prefix.lower()) and len(prefix) > length:
                best, length = kind, len(prefix)
    return best


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_ranges_tile_the_action_ids_in_kind_order(case) -> None:
    game, cfg = case
    s = tilecraft.make(game, seed=0, **cfg)
    ranges = s.action_ranges()
    kinds = type(s).action_kinds()
    assert tuple(k for k, _, _ in ranges) == kinds and len(set(kinds)) == len(kinds)
    assert ranges[0][1] == 0 and ranges[-1][2] == s.num_distinct_actions()
    for (_, _, end), (_, first, _) in zip(ranges, ranges[1:]):
        assert end == first
    for kind, first, end in ranges:
        assert first < end
        assert s.action_kind(first) == kind and s.action_kind(end - 1) == kind
    # the ranges are those of the state's configuration: unchanged as the game goes on
    rng = random.Random(1)
    for _ in range(30):
        if s.is_terminal():
            break
        legal = s.legal_actions() if not s.is_chance_node() else [o for o, _ in s.chance_outcomes()]
        s.apply(int(legal[rng.randrange(len(legal))]))
    assert s.action_ranges() == ranges


@pytest.mark.parametrize("game", tilecraft.list_games())
def test_action_kind_out_of_range_names_the_allowed_ids(game) -> None:
    s = tilecraft.make(game, seed=0)
    n = s.num_distinct_actions()
    before = s.to_json()
    for bad in (-1, n, 2 ** 40):
        with pytest.raises(tilecraft.IllegalActionError, match=f"out of range; action ids are 0..{n - 1}"):
            s.action_kind(bad)
    with pytest.raises(TypeError):
        s.action_kind(1.0)
    assert s.to_json() == before


@pytest.mark.parametrize("game", tilecraft.list_games())
def test_names_are_static_and_well_formed(game) -> None:
    cls = type(tilecraft.make(game, seed=0))
    phases, kinds, locations = cls.phase_names(), cls.action_kinds(), cls.locations()
    assert isinstance(phases, tuple) and phases and all(isinstance(p, str) and p for p in phases)
    assert len(set(phases)) == len(phases)  # a phase is known by its name
    assert "game over" in phases
    assert all(k and k == k.lower() and " " not in k for k in kinds)
    assert isinstance(locations, dict) and all(isinstance(v, int) for v in locations.values())
    assert len(set(locations.values())) == len(locations)


def test_locations_of_the_card_games() -> None:
    """Gaudí's and Warsaw's card locations are named (docs/gaudi.md, docs/warsaw.md); Azul and Castle have none."""
    assert set(tilecraft.GaudiState.locations()) == {"deck", "window", "hand", "column", "discard", "pool", "automa",
                                                     "removed"}
    assert set(tilecraft.WarsawState.locations()) == {"supply", "box_unseen", "sold", "removed", "milestone_discarded",
                                                      "hand", "pending", "district"}
    assert tilecraft.AzulState.locations() == {} and tilecraft.CastleState.locations() == {}


def test_a_card_in_hand_is_at_the_hand_location() -> None:
    s = tilecraft.make("gaudi", players=2, seed=0)
    card = s.hand(0)[0]
    assert s.card_location(card)[0] == tilecraft.GaudiState.locations()["hand"]
    w = tilecraft.make("warsaw", players=2, seed=0)
    loc = tilecraft.WarsawState.locations()
    for seat in range(2):  # hand, pending and district are bases: + seat
        assert w.hand(seat) and all(w.card_location(c) == loc["hand"] + seat for c in w.hand(seat))


def _play(case, seed: int, steps: int):
    game, cfg = case
    s = tilecraft.make(game, seed=seed, **cfg)
    rng = random.Random(seed)
    for _ in range(steps):
        yield s
        if s.is_terminal():
            return
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = s.legal_actions()
            s.apply(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_phase_names_and_action_kinds_along_random_games(case) -> None:
    game, _ = case
    kinds = None
    reached = set()
    for s in _play(case, seed=3, steps=400):
        names = type(s).phase_names()
        kinds = type(s).action_kinds()
        assert 0 <= s.phase() < len(names)
        assert s.phase_name() == names[s.phase()]
        reached.add(s.phase_name())
        if s.is_terminal():
            assert s.phase_name() == "game over"
        if s.is_terminal() or s.is_chance_node():
            continue
        for a in s.legal_actions():
            text = s.action_to_string(int(a))
            kind = s.action_kind(int(a))
            assert kind in kinds
            assert _kind_from_text(game, kinds, text) == kind, (int(a), text, kind)
    assert reached


def test_castle_pending_ids_read_as_kept_tiles_while_choosing() -> None:
    s = tilecraft.make("castle", players=2, seed=0, bonus1_mode="draw_two_choose_one")
    rng = random.Random(0)
    seen = set()
    for _ in range(3000):
        if s.is_terminal():
            break
        if s.phase_name() == "choosing which drawn tile to keep":
            for a in s.legal_actions():
                if s.action_kind(int(a)) == "pending":
                    assert s.action_to_string(int(a)).startswith("keep drawn tile")
                    seen.add("keep")
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = s.legal_actions()
            s.apply(int(legal[rng.randrange(len(legal))]))
    assert seen == {"keep"}
