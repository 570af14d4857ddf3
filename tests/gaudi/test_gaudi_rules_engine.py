"""Rule tests for the trickiest parts of the engine, on hand-built positions (to_dict edits of a
fixture game, validated by from_dict). The full GA- rule suite lives in its own files."""
import pytest

import tilecraft
from tilecraft.games import gaudi as G

from gaudi_fixtures import make_state

SHAPE = [(x + 2 * y) % 4 for y in range(6) for x in range(6)]  # fixture board


class Pos:
    """Edits of a saved state: cards and tiles moved consistently, then loaded (validate runs)."""

    def __init__(self, state):
        self.d = state.to_dict()
        self.s = self.d["state"]

    def _unlist(self, c):
        s = self.s
        for key, nkey, groups in (("window", "window_n", range(3)), ("hand", "hand_n", range(4))):
            for g in groups:
                lst = s[key][g][: s[nkey][g]]
                if c in lst:
                    lst.remove(c)
                    s[nkey][g] = len(lst)
                    s[key][g] = lst + [255] * (len(s[key][g]) - len(lst))
        for p in range(4):
            for d in range(3):
                lst = s["column"][p][d][: s["column_n"][p][d]]
                if c in lst:
                    lst.remove(c)
                    s["column_n"][p][d] = len(lst)
                    s["column"][p][d] = lst + [255] * (33 - len(lst))
        if c in s["start_card"]:
            s["start_card"][s["start_card"].index(c)] = 255

    def hand(self, p, cards):
        for q in range(4):  # empty the hand first (cards go to the discard pile)
            pass
        for c in list(self.s["hand"][p][: self.s["hand_n"][p]]):
            self._unlist(c)
            self.s["card_loc"][c], self.s["card_owner"][c] = 4, 0
        for c in cards:
            self._unlist(c)
            n = self.s["hand_n"][p]
            self.s["hand"][p][n] = c
            self.s["hand_n"][p] = n + 1
            self.s["card_loc"][c], self.s["card_owner"][c] = 2, p
        return self

    def column(self, p, d, cards):
        for c in cards:
            self._unlist(c)
            n = self.s["column_n"][p][d]
            self.s["column"][p][d][n] = c
            self.s["column_n"][p][d] = n + 1
            self.s["card_loc"][c], self.s["card_owner"][c] = 3, p
        return self

    def tile(self, p, space, colour):
        t = 4 * colour + SHAPE[space]
        if self.s["bag"][t] > 0:
            self.s["bag"][t] -= 1
        else:
            a = next(a for a in range(5) if self.s["area"][a][t] > 0)
            self.s["area"][a][t] -= 1
        self.s["colour"][p][colour] |= 1 << space
        return self

    def set(self, **kw):
        self.s.update(kw)
        return self

    def load(self):
        self.d["seed"] = None  # a hand-built position: its history no longer follows from the seed
        return tilecraft.from_json(__import__("json").dumps(self.d))


def test_ga_ex_7_leader_and_moves():
    s = make_state(4, 0)
    assert s.phase_name() == "moving" and s.current_player() == 0
    s = Pos(s).set(position=[5, 9, -1, -1, -1]).load()
    legal = list(s.legal_actions())
    assert 9 not in legal and 5 not in legal and all(a > 5 for a in legal) and G.CENTRAL_AREA in legal  # GA-MOVE-3/4
    t = s.clone()
    t.apply(12)
    assert t.leader()  # GA-EX-7: 12 is ahead of 9
    s.apply(7)
    assert not s.leader()
    assert s.phase_name() == "choosing pencils or hammers"  # space 7 has a pencil and a hammer: a non-leader chooses (GA-ACTN-5)
    with pytest.raises(tilecraft.IllegalActionError) as info:
        t.clone().apply(3) if t.phase_name() == "moving" else s.apply(600)
    assert "not legal" in str(info.value) or "out of range" in str(info.value)


def test_ga_move_4_occupied_space_is_rejected_with_reason():
    s = Pos(make_state(4, 0)).set(position=[5, 9, -1, -1, -1]).load()
    with pytest.raises(tilecraft.IllegalActionError) as info:
        s.apply(9)
    assert "occupied" in str(info.value)
    with pytest.raises(tilecraft.IllegalActionError) as info:
        s.apply(4)
    assert "forward" in str(info.value)


def test_ga_ex_8_virtual_marker_target():
    s = make_state(2, 0)
    # seat 0 moved to 4; seat 1 is to move; the virtual marker stands at 10
    s = Pos(s).set(position=[4, -1, -1, -1, 10], current=1, turn_index=1).load()
    s.apply(7)
    while s.current_player() == 1:
        legal = list(s.legal_actions())
        s.apply(G.PENCILS if G.PENCILS in legal else G.DONE)
    assert s.positions()[4] == 11  # first free index beyond max(10, 4, 7) (GA-AMB-17)


def test_ga_ex_2_black_requirement_needs_one_colour():
    # card 6: Nature, black, n 1; column: card 0 (colour 0, n 1) and card 1 (colour 1, n 2): total 4
    base = Pos(make_state(4, 0)).hand(0, [6]).column(0, 0, [0, 1])
    four_of_one = Pos(base.load())
    for b in (0, 4, 8, 12):
        four_of_one.tile(0, b, 2)
    s = four_of_one.load()
    assert s.requirement(0, 6) == (4, True)
    mixed = Pos(base.load())
    for b in (0, 4, 8):
        mixed.tile(0, b, 2)
    for b in (1, 5):
        mixed.tile(0, b, 3)
    s = mixed.load()
    assert s.requirement(0, 6) == (4, False)  # 3 + 2 of two colours do not qualify


def test_ga_ex_3_tile_bonus_and_base_total():
    p = Pos(make_state(4, 0))
    # groups on the 6x6 board: colour 0 size 3 (0,1,2), colour 1 size 2 (6,7), colour 2 size 2 (12,13), colour 3 size 1
    for b in (0, 1, 2):
        p.tile(0, b, 0)
    for b in (6, 7):
        p.tile(0, b, 1)
    for b in (12, 13):
        p.tile(0, b, 2)
    p.tile(0, 18, 3)
    p.s["score"][0] = [12, 8, 15]
    s = p.load()
    assert s.group_sizes(0) == [3, 2, 2, 1]
    final, domains, tie = s.final_scoring(0)
    assert domains == (12, 8, 15) and final == 8 + 12 + 2 + 2 and tie == 15  # GA-SCORE-3/4


def test_ga_amb_28_discard_after_take_into_full_hand():
    s = make_state(4, 0)
    # seat 0 on a card-any space (index 1: card any, 1 hammer) with a full hand
    win = s.windows()
    hand = [c for c in range(99) if s.card_location(c)[0] == tilecraft.GaudiState.locations()["deck"]][:4]
    s = Pos(s).hand(0, hand).set(position=[1, -1, -1, -1, -1], phase=tilecraft.GaudiState.phase_names().index("using actions"), space=1, hammers=1, mode=3, leader=1).load()
    taken = win[0][0]
    s.apply(G.TAKE_CARD_BASE + taken)
    assert s.phase_name() == "discarding"  # DISCARD follows the take (GA-AMB-28)
    assert sorted(int(a) - G.DISCARD_BASE for a in s.legal_actions()) == sorted(hand)  # never the card just taken
    with pytest.raises(tilecraft.IllegalActionError):
        s.apply(G.DISCARD_BASE + taken)
    s.apply(G.DISCARD_BASE + hand[0])
    assert len(s.hand(0)) == 4 and hand[0] in s.discards()


def test_groups_are_kept_incrementally():
    s = make_state(3, 5)
    import random
    rng = random.Random(5)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply(int(legal[rng.randrange(len(legal))]))
        for p in range(3):
            assert (tuple(s.largest_groups(p)), tuple(s.shape_components(p))) == s.recomputed_groups(p)


def test_ga_ex_9_catalan_twice_repeats_the_snapshot():
    # central tile 1: option A resolves the Catalan column x 2. Column C: 41 (play ignoring the
    # requirement), 43 (+2 Catalan VP); board reward +1 Catalan VP. Hand: 34 (Catalan, banner take_card).
    p = Pos(make_state(4, 0)).hand(0, [34, 35]).column(0, 1, [41, 43])
    p.set(central_tile=1, central_used=2)
    s = p.load()
    s.apply(G.CENTRAL_AREA)  # first arrival (GA-CHAN-2)
    assert s.phase_name() == "central area" and list(s.legal_actions()) == [G.CENTRAL_A, G.CENTRAL_B]
    s.apply(G.CENTRAL_A)
    # the Catalan frame was resolved automatically: +3 at once, the free play waits
    assert s.domain_scores(0)[1] == 3
    frames = s.frames()
    assert frames[-1]["snapshot_domain"] == 1 and frames[-1]["snapshot_length"] == 2 and frames[-1]["reps"] == 1
    assert frames[-1]["items"] == {30: 1}
    s.apply(G.RESOLVE_BASE + 30)
    s.apply(G.PLAY_BASE + 34)  # Z joins the column (no reward for a Catalan play)
    assert s.columns(0)[1] == [41, 43, 34]
    # second resolution of the same snapshot: +3 again, another free play, no take_card from Z
    assert s.domain_scores(0)[1] == 6
    assert s.frames()[-1]["items"] == {30: 1} and s.frames()[-1]["reps"] == 0
    assert s.requirement(0, 35)[0] == 1 + 2 + 1 + 1  # Z's number counts for later requirements (GA-AMB-47)
    s.apply(G.DONE)  # decline the second free play: the frame closes, the second option or DONE follows
    assert s.phase_name() == "central area" and list(s.legal_actions()) == [G.CENTRAL_B, G.DONE]


def test_ga_bonus_2_once_per_kind_per_turn():
    import copy

    from tilecraft.games import gaudi
    from gaudi_fixtures import edition

    ed = copy.deepcopy(edition())
    ed["track"]["day"]["area_bonus"] = [[24, 1]] * 5  # identical icons: one kind
    gaudi.register_edition("bonus-fixture", ed)
    s = tilecraft.make("gaudi", players=4, seed=0, data="bonus-fixture")
    p = Pos(s)
    # area 0 keeps one tile of type 0 (colour 0, shape 0), area 1 one tile of type 1; the rest go to the bag
    for a in range(5):
        for t in range(16):
            keep = (a == 0 and t == 0) or (a == 1 and t == 1) or a >= 2
            if not keep and p.s["area"][a][t]:
                p.s["bag"][t] += p.s["area"][a][t]
                p.s["area"][a][t] = 0
    for a, t in ((0, 0), (1, 1)):
        if p.s["area"][a][t] == 0:
            p.s["bag"][t] -= 1
            p.s["area"][a][t] = 1
    p.set(position=[0, -1, -1, -1, -1], phase=tilecraft.GaudiState.phase_names().index("using actions"), space=0, pencils=1, hammers=0, mode=3, leader=1)
    s = p.load()
    s.apply(G.TAKE_TILE_BASE + 0)  # the last tile of area 0
    s.apply(G.PLACE_BASE + 0)  # space 0 has shape 0
    assert s.phase_name() == "resolving rewards" and s.frames()[-1]["items"] == {24: 1} and s.frames()[-1]["bonus_kind"] == 0
    s.apply(G.RESOLVE_BASE + 24)  # carry out the bonus: its kind is now used up
    s.apply(G.TAKE_TILE_BASE + 16 + 1)  # the last tile of area 1: same kind, no second bonus (GA-BONUS-2)
    s.apply(G.PLACE_BASE + 1)
    assert all(f["bonus_kind"] == -1 for f in s.frames())


def _finish_turn(s, seat):
    while not s.is_terminal() and s.current_player() == seat:
        legal = list(s.legal_actions())
        s.apply(G.DONE if G.DONE in legal else int(legal[0]))


def test_ga_fin_2_red_space_exit_and_ga_fin_3_marker_already_on_red():
    s = Pos(make_state(4, 0)).set(position=[18, 22, 5, 6, -1], anyone_finished=1).load()
    s.apply(21)  # red (fixture: 20..23) after someone finished
    _finish_turn(s, 0)
    assert s.positions()[0] == 48  # left the board, no central option
    assert s.positions()[1] == 22  # already on red: stays until its own move (GA-FIN-3)


def test_ga_chan_first_and_later_arrivals_and_start_marker():
    s = Pos(make_state(4, 0)).set(position=[-1, 3, 5, 6, -1]).load()
    s.apply(G.CENTRAL_AREA)
    assert list(s.legal_actions()) == [G.CENTRAL_A, G.CENTRAL_B] and s.marker_holder() == 0  # GA-CHAN-5
    s.apply(G.CENTRAL_B)
    while s.phase_name() != "central area":  # resolve option B's rewards (declining the items)
        s.apply(G.DONE)
    assert list(s.legal_actions()) == [G.CENTRAL_A, G.DONE]  # the other option or DONE (GA-CHAN-2)
    s.apply(G.DONE)
    assert s.current_player() == 1
    s.apply(G.CENTRAL_AREA)
    assert list(s.legal_actions()) == [G.CENTRAL_A, G.CENTRAL_B]
    s.apply(G.CENTRAL_A)  # a later arrival picks one (GA-CHAN-3)
    while not s.is_chance_node() and s.current_player() == 1 and s.phase_name() != "central area":
        s.apply(int(s.legal_actions()[0]))
    assert s.current_player() == 2 and s.marker_holder() == 0


def test_ga_amb_33_extra_turn():
    s = make_state(4, 0)
    s.apply(0)  # seat 0 enters at 0 (tile any, 1 pencil)
    count = [0] * 40
    count[36] = 1
    frames = s.to_dict()["state"]["frame_count"]
    frames[0] = count
    p = Pos(s).set(phase=tilecraft.GaudiState.phase_names().index("resolving rewards"), nframes=1, frame_count=frames, pencils=0)
    s = p.load()
    assert list(s.legal_actions()) == [G.RESOLVE_BASE + 36, G.DONE]
    s.apply(G.RESOLVE_BASE + 36)
    assert s.current_player() == 0 and s.phase_name() == "moving"  # the same seat moves again (GA-AMB-33)
    assert s.positions()[0] == 0


def test_ga_amb_12_pencil_first_and_ga_amb_13_distinct_generic_types():
    s = Pos(make_state(4, 0)).set(position=[-1, 1, 2, 3, -1]).load()
    s.apply(7)  # tile of colour 1 (entry 21), 1 pencil + 1 hammer; seat 0 leads
    assert s.leader()
    take = next(int(a) for a in s.legal_actions() if G.TAKE_TILE_BASE <= a < G.PLACE_BASE)
    s.apply(take)
    s.apply(int(s.legal_actions()[0]))
    assert s.units()[1:3] == (0, 1)  # the pencil was spent first
    # generic space 4 (two hammers): the second use must be another type
    g = Pos(make_state(4, 0)).set(position=[-1, 1, 2, 3, -1]).load()
    g.apply(4)
    tiles = [int(a) for a in g.legal_actions() if G.TAKE_TILE_BASE <= a < G.PLACE_BASE]
    g.apply(tiles[0])
    g.apply(int(g.legal_actions()[0]))
    assert not any(G.TAKE_TILE_BASE <= a < G.PLACE_BASE for a in g.legal_actions())  # GA-AMB-13
    h = Pos(make_state(4, 0, generic_distinct=False)).set(position=[-1, 1, 2, 3, -1]).load()
    h.apply(4)
    h.apply(int(h.legal_actions()[0]))
    h.apply(int(h.legal_actions()[0]))
    assert any(G.TAKE_TILE_BASE <= a < G.PLACE_BASE for a in h.legal_actions())
