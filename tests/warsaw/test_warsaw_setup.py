"""Setup, components, data files and era flow (WA-SCOPE, WA-COMP, WA-SETUP, WA-FLOW, WA-AMB-1..5)."""
import json
import os
import random
import shutil

import pytest

import tilecraft
from tilecraft.games import warsaw as W
from test_warsaw_helpers import Fixture, sell_out, to_era


def test_wa_scope_1_player_counts():
    """WA-SCOPE-1: 2, 3 or 4 players; other counts are rejected with the allowed values."""
    for n in (2, 3, 4):
        assert tilecraft.make("warsaw", players=n).num_players() == n
    for n in (1, 5):
        with pytest.raises(ValueError, match="players must be one of 2, 3, 4"):
            tilecraft.make("warsaw", players=n)


def test_default_data_wa_comp_3_wa_amb_1_sixteen_cards_per_era():
    """WA-COMP-3, WA-AMB-1, WA-SETUP-2: six era decks of 16 cards (96), each card with era and price;
    WA-AMB-2: four quadrants of known types or a whole-card public building."""
    data = W.load_data()
    cfg = data["config"]
    assert cfg["num_cards"] == 96
    for era in range(1, 7):
        assert cfg["card_era"].count(era) == 16
    for c in range(96):
        assert 1 <= cfg["card_era"][c] <= 6 and cfg["card_price"][c] >= 0
        types = cfg["card_type"][c]
        assert types == [W.PUBLIC] * 4 or all(0 <= t < 6 for t in types)


def test_default_data_wa_comp_4_wa_amb_3_wa_pub_0_public_buildings_in_era_decks():
    """WA-COMP-4, WA-AMB-3, WA-PUB-0: public buildings are era-deck cards with a price; the four named
    ones exist exactly once, and every public building has an effect."""
    data = W.load_data()
    cfg = data["config"]
    publics = [c for c in range(96) if cfg["card_type"][c][0] == W.PUBLIC]
    assert len(publics) >= 12
    effects = [cfg["card_effect"][c] for c in publics]
    for name in ("arsenal", "sigismund", "jablonowski", "prudential"):
        assert effects.count(W.EFFECT_IDS[name]) == 1
    assert all(e != 0 for e in effects)
    names = {data["names"][c] for c in publics}
    assert {"Arsenal", "Sigismund's Column", "Jabłonowski Palace", "Prudential"} <= names


def test_early_eras_single_type_later_eras_mixed():
    """WA-COMP-3 (Appendix R): early eras mostly one type per card, later eras more mixed."""
    cfg = W.load_data()["config"]

    def mixed_share(era):
        cards = [c for c in range(96) if cfg["card_era"][c] == era and cfg["card_type"][c][0] != W.PUBLIC]
        return sum(len(set(cfg["card_type"][c])) > 1 for c in cards) / len(cards)

    assert mixed_share(1) < 0.3 and mixed_share(2) < 0.3
    assert mixed_share(5) > 0.9 and mixed_share(6) > 0.9


def test_wa_comp_7_wa_amb_4_five_two_sided_milestones():
    """WA-COMP-7, WA-AMB-4: five milestones with two faces; WA-SETUP-3 picks a face at random."""
    data = W.load_data()
    assert len(data["milestones"]) == 5 and all(len(m) == 2 for m in data["milestones"])
    sides = {tuple(s for s, _ in tilecraft.make("warsaw", seed=seed).milestones()) for seed in range(30)}
    assert len(sides) > 5  # faces vary by seed
    for s in sides:
        assert all(x in (0, 1) for x in s)


def test_wa_comp_8_wa_amb_5_wa_setup_4_wa_setup_6_initial_state():
    """WA-COMP-8, WA-AMB-5, WA-SETUP-4, WA-SETUP-6, WA-AMB-17: each seat starts with the starting card
    (NW park, NE residential, SE residential, SW park) at (0, 0), 6 coins, 0 VP, in era I, no
    milestone awarded."""
    for n in (2, 3, 4):
        s = tilecraft.make("warsaw", players=n, seed=3)
        assert s.era() == 1 and s.phase_name() == "picking cards" and s.pick_round() == 0
        assert s.coins() == [6] * n and s.vp() == [0] * n
        assert all(owner == -1 for _, owner in s.milestones())
        for p in range(n):
            assert s.district(p) == [(0, 0, 112 + p, 0, 1)]
            assert s.shown_types(p, 0, 0) == [0, 1, 1, 0]


def test_wa_setup_2_wa_setup_7_wa_draft_1_deal_from_current_era():
    """WA-SETUP-2, WA-SETUP-7, WA-DRAFT-1: every seat gets 4 cards of era I whatever the player count."""
    cfg = W.load_data()["config"]
    for n in (2, 3, 4):
        s = tilecraft.make("warsaw", players=n, seed=5)
        for p in range(n):
            hand = s.hand(p)
            assert len(hand) == 4 and all(cfg["card_era"][c] == 1 for c in hand)


def test_wa_draft_2_undealt_cards_boxed_unseen():
    """WA-DRAFT-2, WA-AMB-1: 2 players box 8 of the 16, 3 players box 4, 4 players none; unseen."""
    cfg = W.load_data()["config"]
    for n, boxed in ((2, 8), (3, 4), (4, 0)):
        s = tilecraft.make("warsaw", players=n, seed=1)
        era1 = [c for c in range(96) if cfg["card_era"][c] == 1]
        assert sum(s.card_location(c) == tilecraft.WarsawState.locations()["box_unseen"] for c in era1) == boxed
        in_hands = {c for p in range(n) for c in s.hand(p)}
        assert len(in_hands) == 4 * n
        if boxed:
            # which cards were boxed is hidden: a redeal of the unseen cards changes the boxed set
            # but not what seat 0 observes
            r = s.clone()
            boxed_before = {c for c in era1 if s.card_location(c) == tilecraft.WarsawState.locations()["box_unseen"]}
            changed = False
            for seed in range(5):
                r = s.clone()
                r.resample_hidden(0, seed)
                assert (r.observation(0) == s.observation(0)).all()
                changed |= {c for c in era1 if r.card_location(c) == tilecraft.WarsawState.locations()["box_unseen"]} != boxed_before
            assert changed


def test_wa_flow_1_wa_flow_2_wa_flow_3_wa_flow_4_six_eras():
    """WA-FLOW-1..4: six eras of draft + income; wars only after eras III and IV; milestones in I..V;
    a new deal each era."""
    s = tilecraft.make("warsaw", players=3, seed=2)
    rng = random.Random(2)
    war_eras, mile_eras = set(), set()
    eras_seen = []
    while not s.is_terminal():
        if s.phase_name() == "picking cards" and s.pick_round() == 0 and (not eras_seen or eras_seen[-1] != s.era()):
            eras_seen.append(s.era())
            assert all(len(s.hand(p)) == 4 for p in range(3))
        if s.phase_name() == "war removals":
            war_eras.add(s.era())
        if s.phase_name() == "placing a milestone":
            mile_eras.add(s.era())
        legal = s.legal_actions()
        s.apply(int(legal[-1] if s.phase_name() == "selling or building" else legal[rng.randrange(len(legal))]))
    assert eras_seen == [1, 2, 3, 4, 5, 6]
    assert war_eras == {3, 4}
    assert mile_eras <= {1, 2, 3, 4, 5}
    decided = [owner for _, owner in s.milestones()]
    assert all(o != -1 for o in decided)  # every one of the five was awarded or discarded


def test_wa_comp_1_wa_comp_2_wa_comp_5_wa_comp_10_bank_and_boards(tmp_path):
    """WA-COMP-1/2/5/10, WA-SETUP-1: the board, player boards and markers are not modelled beyond their
    effect: the bank is unlimited (coins grow past 36 markers), the district is bounded by the rules."""
    fx = Fixture(str(tmp_path / "fx"))
    s = to_era(fx.make(2), 6)
    d = json.loads(s.to_json())
    d["state"]["coins"][0] = 40
    s = type(s).from_json(json.dumps(d))
    sell_out(s)
    assert s.is_terminal()
    # 40 + 4 sales of 3 = 52 coins -> 10 VP, 2 left (nothing else scores: the starting card's park touches 1 area)
    assert s.vp()[0] == 1 + 10 and s.coins()[0] == 2


def test_data_loadable_from_a_user_path(tmp_path):
    """WA-AMB-2: data is read from a user's directory (a copy of the default gives the same game)."""
    shutil.copytree(W.DEFAULT_DIR, tmp_path / "mine")
    a = tilecraft.make("warsaw", players=2, seed=9)
    b = tilecraft.make("warsaw", players=2, seed=9, data=str(tmp_path / "mine"))
    assert a.hand(0) == b.hand(0)


def _broken(tmp_path, edit, file="cards.json"):
    d = tmp_path / "bad"
    if d.exists():
        shutil.rmtree(d)
    shutil.copytree(W.DEFAULT_DIR, d)
    path = d / file
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    W._CACHE.clear()
    return str(d)


@pytest.mark.parametrize("edit,message", [
    (lambda d: d["cards"][0].update(era=7), r"\$\.cards\[0\]\.era: 7 is greater than the maximum of 6"),
    (lambda d: d["cards"][3].update(era=2), "era 1 has 15 cards") if False else
    (lambda d: [d["cards"].remove(c) for c in [x for x in d["cards"] if x["era"] == 2][:9]], r"\$\.cards: era 2 has 7 cards"),
    (lambda d: d["cards"][0]["quadrants"][0].update(type="castle"), r"\$\.cards\[0\]\.quadrants\[0\]\.type: 'castle' is not one of"),
    (lambda d: d["cards"][0]["quadrants"][0].update(value=2), r"\$\.cards\[0\]\.quadrants\[0\]: must match: only cultural and industrial"),
    (lambda d: d["cards"][1].update(id=d["cards"][0]["id"]), r"\$\.cards\[1\]\.id: duplicate id"),
    (lambda d: d["cards"][0].update(colour="red"), r"\$\.cards\[0\]: Additional properties are not allowed \('colour' was unexpected\)"),
    (lambda d: d.update(version=2), r"\$\.version: 1 was expected"),
    (lambda d: [c for c in d["cards"] if "whole_card" in c][0]["whole_card"].update(effect="teleport"),
     r"\$\.cards\[\d+\]\.whole_card\.effect: 'teleport' is not one of"),
    (lambda d: d["cards"].append(dict(d["cards"][-1], id="dup-arsenal",
                                      whole_card={"kind": "public", "effect": "arsenal"})), r"\$\.cards\[\d+\]\.whole_card\.effect: cards\[\d+\] already has effect .arsenal.; it is a unique landmark"),
])
def test_bad_card_data_is_rejected_with_a_reason(tmp_path, edit, message):
    """Wrong-era or unknown cards and malformed data files: InvalidConfigError naming the file, the JSON path
    of the card (or field) and the fault (schema checks first, then the loader's cross-field checks)."""
    path = _broken(tmp_path, edit)
    with pytest.raises(tilecraft.InvalidConfigError, match=message) as info:
        tilecraft.make("warsaw", players=2, data=path)
    assert str(info.value).startswith("warsaw cards.json: $.")


def test_bad_milestone_data_and_missing_files(tmp_path):
    path = _broken(tmp_path, lambda d: d["milestones"][0]["sides"][0].update(condition="most_castles"),
                   file="milestones.json")
    with pytest.raises(tilecraft.InvalidConfigError, match=r"milestones\.json: \$\.milestones\[0\]\.sides\[0\]\.condition: 'most_castles' is not one of"):
        tilecraft.make("warsaw", data=path)
    with pytest.raises(tilecraft.InvalidConfigError, match="not a directory"):
        tilecraft.make("warsaw", data=str(tmp_path / "nowhere"))
    os.remove(os.path.join(path, "milestones.json"))
    W._CACHE.clear()
    with pytest.raises(tilecraft.InvalidConfigError, match="not found"):
        tilecraft.make("warsaw", data=path)


def test_too_few_cards_for_the_player_count(tmp_path):
    """WA-DRAFT-1: a 12-card era deals 2 or 3 players but not 4."""
    def shrink(d):
        era3 = [c for c in d["cards"] if c["era"] == 3]
        for c in era3[:4]:
            d["cards"].remove(c)
    path = _broken(tmp_path, shrink)
    tilecraft.make("warsaw", players=3, data=path)
    with pytest.raises(tilecraft.InvalidConfigError, match="era 3 has 12 cards; 4 players need 16"):
        tilecraft.make("warsaw", players=4, data=path)


def test_options_are_validated():
    with pytest.raises(tilecraft.InvalidConfigError, match="max_stack_height"):
        tilecraft.make("warsaw", max_stack_height=-1)
    with pytest.raises(tilecraft.InvalidConfigError, match="transport_threshold_on"):
        tilecraft.make("warsaw", transport_threshold_on="trains")
