"""Gaudí rule tests, action 2 (take a card), the hand, emptied-area bonuses and refills
(GA-CARD-*, GA-HAND-1/2, GA-AMB-28, GA-AMB-46, GA-BONUS-*, GA-AMB-31, GA-REFILL-*).
Positions on the spec's placeholder edition (gaudi_helpers_score.py). Seat 0 of a 2-player game
moves first and alone, so it leads. Placeholder card ids: Nature 0..32, Catalan 33..65,
Religion 66..98. Track spaces used: 1 card-any (0 pencils, 1 hammer), 3 Nature card (2 pencils),
8 Catalan card (2 pencils), 0 tile-any (1 pencil)."""
from __future__ import annotations

import pytest

from gaudi_helpers_score import (DISCARD, FRAME, ITEM, MOVE, PLACE, USES, apply_all, legal, make, position, rejected,
                                 set_space, vp)
from tilecraft.games import gaudi as G

WINDOWS = [[0, 1, 2], [33, 34, 35], [66, 67, 68]]


def card_takes(state):
    return sorted(a - G.TAKE_CARD_BASE for a in legal(state) if G.TAKE_CARD_BASE <= a < G.PLAY_BASE)


def game(edit=None, **parts):
    parts.setdefault("windows", WINDOWS)
    parts.setdefault("hands", {0: [], 1: []})
    return position(make(2, edit), **parts)


def test_domain_card_icon_takes_only_from_that_window():
    """GA-CARD-1: on a Nature card space only the 3 Nature window cards may be taken; a Catalan
    or Religion window card is rejected."""
    s = game()
    s.apply(3)
    assert card_takes(s) == [0, 1, 2]
    rejected(s, G.take_card(34))
    rejected(s, G.take_card(66))


def test_any_domain_card_icon_takes_from_every_window():
    """GA-CARD-1: on a card-any space every card of the 3 windows may be taken."""
    s = game()
    s.apply(1)
    assert card_takes(s) == [0, 1, 2, 33, 34, 35, 66, 67, 68]


def test_each_use_takes_exactly_one_card():
    """GA-CARD-1, GA-AMB-46: a use (pencil) takes 1 card: after the first of 2 pencils the hand
    holds 1 card, the window 2, and one pencil is left."""
    s = game()
    s.apply(3)
    s.apply(G.take_card(0))
    assert s.hand(0) == [0]
    assert s.windows()[0] == [1, 2]
    assert s.phase() == USES and s.units()[1] == 1
    s.apply(G.take_card(2))
    assert sorted(s.hand(0)) == [0, 2] and s.windows()[0] == [1]


def test_any_card_in_a_window_may_be_taken():
    """GA-CARD-2: not only the top card: the first-revealed card (0) and the middle one (1) are
    taken, the last-revealed (2) stays."""
    s = game()
    s.apply(3)
    s.apply(G.take_card(1))
    assert s.windows()[0] == [0, 2]
    s.apply(G.take_card(0))
    assert sorted(s.hand(0)) == [0, 1]


def two_card_any(d):
    set_space(d, 1, pencils=2, hammers=0)


def test_any_icon_cards_may_come_from_the_same_window():
    """GA-CARD-3: a card-any space with 2 pencils: both cards from the Catalan window."""
    s = game(two_card_any)
    s.apply(1)
    s.apply(G.take_card(33))
    assert 35 in card_takes(s) and 0 in card_takes(s)
    s.apply(G.take_card(35))
    assert sorted(s.hand(0)) == [33, 35]


def test_any_icon_cards_may_come_from_different_windows():
    """GA-CARD-3: a card-any space with 2 pencils: one Nature card and one Religion card."""
    s = game(two_card_any)
    s.apply(1)
    s.apply(G.take_card(2))
    s.apply(G.take_card(67))
    assert sorted(s.hand(0)) == [2, 67]


def test_taken_card_goes_to_the_hand():
    """GA-CARD-4: the taken card is in the taker's hand (location 2, owner seat 0)."""
    s = game(hands={0: [40], 1: []})
    s.apply(8)
    s.apply(G.take_card(34))
    assert sorted(s.hand(0)) == [34, 40]
    assert s.card_location(34) == (2, 0)


def test_empty_window_cannot_be_taken_from():
    """GA-CARD-4: the Nature window is empty: the Nature space offers nothing, so its uses are
    skipped and the turn passes to seat 1 with the hand unchanged (and the deck then refills the
    window at the end of the turn, GA-REFILL-1)."""
    s = game(windows=[[], [33, 34, 35], [66, 67, 68]])
    s.apply(3)
    assert s.phase() == MOVE and s.current_player() == 1
    assert s.hand(0) == []


def test_full_hand_takes_then_discards_one_of_the_old_four():
    """GA-HAND-1 (basic), GA-AMB-28: with 4 cards in hand a take is allowed; the player then
    discards exactly one of the 4 cards held before the take (never the new one). The hand is back
    to 4 and the discard is public, out of the game."""
    s = game(hands={0: [0, 1, 2, 33], 1: []}, windows=[[3, 4, 5], [34, 35, 36], [66, 67, 68]])
    s.apply(8)
    s.apply(G.take_card(35))
    assert s.phase() == DISCARD
    assert sorted(a - G.DISCARD_BASE for a in legal(s)) == [0, 1, 2, 33]
    rejected(s, G.discard(35))
    rejected(s, G.DONE)  # exactly one card is discarded
    s.apply(G.discard(1))
    assert sorted(s.hand(0)) == [0, 2, 33, 35]
    assert s.discards() == [1]
    assert s.card_location(1) == (4, 0)


def test_hand_never_exceeds_four_after_several_takes():
    """GA-HAND-1: two takes into a full hand: each is followed by a discard; the hand stays at 4."""
    s = game(hands={0: [10, 11, 40, 80], 1: []})
    s.apply(8)
    s.apply(G.take_card(34))
    s.apply(G.discard(10))
    assert len(s.hand(0)) == 4
    s.apply(G.take_card(35))
    s.apply(G.discard(11))
    assert sorted(s.hand(0)) == [34, 35, 40, 80]
    assert sorted(s.discards()) == [10, 11]


def test_exhausted_deck_leaves_only_the_window_cards():
    """GA-HAND-2: the Nature deck is empty and the window holds 0 and 1: both can be taken; the
    emptied window is not refilled (nothing remains) and Nature cards can no longer be taken."""
    s = game(windows=[[0, 1], [33, 34, 35], [66, 67, 68]], deck_only={0: []})
    assert s.deck_sizes()[0] == 0
    s.apply(3)
    s.apply(G.take_card(0))
    s.apply(G.take_card(1))
    assert s.phase() == MOVE and s.current_player() == 1
    assert s.windows()[0] == [] and s.deck_sizes()[0] == 0
    s.apply(18)  # seat 1: space 18 is a Nature card space (2 pencils): nothing to take
    assert s.hand(1) == []
    assert s.phase() == MOVE and s.current_player() == 0


def test_short_deck_refills_the_window_with_what_remains():
    """GA-HAND-2, GA-REFILL-1: the Nature deck holds only cards 5 and 6; taking the window's last
    card empties it; at the end of the turn it is refilled with those 2 cards, not 3."""
    s = game(windows=[[0], [33, 34, 35], [66, 67, 68]], deck_only={0: [5, 6]})
    s.apply(3)
    s.apply(G.take_card(0))
    assert s.phase() == MOVE and s.current_player() == 1
    assert sorted(s.windows()[0]) == [5, 6]
    assert s.deck_sizes()[0] == 0


# ---------------------------------------------------------------- refills

def test_empty_area_and_window_refilled_partial_ones_not():
    """GA-REFILL-1, GA-REFILL-2: seat 0 takes the only tile of area 0 on space 0. At the end of the
    turn area 0 holds 5 tiles drawn from the bag (bag - 5); areas 1 (2 tiles) and 2 (3 tiles) are
    not topped up."""
    s = game(areas=[{0: 1}, {1: 2}, {2: 3}, {4: 5}, {5: 5}])
    bag = sum(s.bag())
    s.apply(0)
    s.apply(G.take_tile(0, 0, 0))
    s.apply(G.place(0))  # space 0 has shape 0
    assert s.phase() == MOVE and s.current_player() == 1
    a = s.areas()
    assert [sum(x) for x in a] == [5, 2, 3, 5, 5]
    assert a[1][1] == 2 and a[2][2] == 3
    assert sum(s.bag()) == bag - 5


def test_empty_window_refilled_with_three_partial_window_not():
    """GA-REFILL-1, GA-REFILL-2: seat 0 takes the only Nature window card; at the end of the turn
    the Nature window holds 3 new cards; the Catalan window (2 cards) keeps its 2."""
    s = game(windows=[[0], [33, 34], [66, 67, 68]])
    decks = s.deck_sizes()
    s.apply(3)
    s.apply(G.take_card(0))
    assert s.phase() == MOVE and s.current_player() == 1
    w = s.windows()
    assert len(w[0]) == 3 and 0 not in w[0]
    assert w[1] == [33, 34]
    assert s.deck_sizes() == (decks[0] - 3, decks[1], decks[2])


def test_area_refill_short_bag_places_what_is_left():
    """GA-REFILL-1: the bag holds 4 tiles when area 0 empties: area 0 gets those 4, the bag is empty.
    Seat 0's board lacks only space 0 (shape 0), seat 1's is full; areas 1..4 hold 5 tiles each."""
    def colours(seat):
        out = {}
        for s_ in range(4):
            spaces = [b for b in range(36) if (b % 6 + 2 * (b // 6)) % 4 == s_]
            for i, b in enumerate(spaces):
                out[b] = (i + 2 * seat) % 4
        return out

    b0, b1 = colours(0), colours(1)
    del b0[0]  # space 0 (shape 0) stays empty; it would have held colour 0
    used = [0] * 16
    for b in (b0, b1):
        for sp, c in b.items():
            used[4 * c + (sp % 6 + 2 * (sp // 6)) % 4] += 1
    left = [6 - u for u in used]
    assert left[0] >= 1
    left[0] -= 1
    pool = [t for t in range(16) for _ in range(left[t])]
    areas = [{0: 1}] + [{} for _ in range(4)]
    for a in range(1, 5):
        for t in pool[5 * (a - 1):5 * a]:
            areas[a][t] = areas[a].get(t, 0) + 1
    s = game(boards={0: b0, 1: b1}, areas=areas)
    assert sum(s.bag()) == 4
    s.apply(0)
    s.apply(G.take_tile(0, 0, 0))
    s.apply(G.place(0))
    assert s.phase() == MOVE and s.current_player() == 1
    assert sum(s.areas()[0]) == 4
    assert sum(s.bag()) == 0


# ---------------------------------------------------------------- bonuses

def bonuses(area=(None,) * 5, window=None):
    def edit(d):
        set_space(d, 0, pencils=2, hammers=0)  # tile-any, 2 pencils
        d["track"]["day"]["area_bonus"] = list(area)
        d["track"]["day"]["window_bonus"] = dict({"nature": None, "catalan": None, "religion": None}, **(window or {}))
    return edit


def test_last_tile_of_an_area_gives_its_bonus_at_once():
    """GA-BONUS-1: area 0 carries +2 Nature VP, area 1 +5 Catalan VP. Taking the last tile of
    area 0 gives +2 at once (one pencil still left, area 0 still empty until the end of the turn);
    taking a tile that leaves area 1 non-empty gives nothing."""
    s = game(bonuses(area=[vp("nature", 2), vp("catalan", 5), None, None, None]),
             areas=[{0: 1}, {1: 2}, {2: 5}, {3: 5}, {5: 5}])
    s.apply(0)
    s.apply(G.take_tile(0, 0, 0))
    s.apply(G.place(0))
    assert s.domain_scores(0) == (2, 0, 0)
    assert s.phase() == USES and sum(s.areas()[0]) == 0  # refills wait for the end of the turn (GA-AMB-31)
    s.apply(G.take_tile(1, 0, 1))
    s.apply(G.place(1))  # space 1 has shape 1
    assert s.domain_scores(0) == (2, 0, 0)


def test_last_card_of_a_window_gives_its_bonus():
    """GA-BONUS-1: the Nature window carries +1 Religion VP; taking its last card gives it."""
    s = game(bonuses(window={"nature": vp("religion", 1)}), windows=[[0, 1], [33, 34, 35], [66, 67, 68]])
    s.apply(3)
    s.apply(G.take_card(0))
    assert s.domain_scores(0) == (0, 0, 0)
    s.apply(G.take_card(1))
    assert s.domain_scores(0) == (0, 0, 1)


def test_same_bonus_kind_triggers_once_per_turn():
    """GA-BONUS-2: areas 0 and 1 carry the identical bonus +2 Nature VP; emptying both in one
    turn gives it once: Nature 2, not 4."""
    s = game(bonuses(area=[vp("nature", 2), vp("nature", 2), None, None, None]),
             areas=[{0: 1}, {1: 1}, {2: 5}, {3: 5}, {5: 5}])
    s.apply(0)
    apply_all(s, G.take_tile(0, 0, 0), G.place(0), G.take_tile(1, 0, 1), G.place(1))
    assert s.domain_scores(0) == (2, 0, 0)


def test_different_bonus_kinds_each_trigger():
    """GA-BONUS-2: areas 0 (+2 Nature) and 1 (+3 Catalan) both emptied in one turn: both bonuses."""
    s = game(bonuses(area=[vp("nature", 2), vp("catalan", 3), None, None, None]),
             areas=[{0: 1}, {1: 1}, {2: 5}, {3: 5}, {5: 5}])
    s.apply(0)
    apply_all(s, G.take_tile(0, 0, 0), G.place(0), G.take_tile(1, 0, 1), G.place(1))
    assert s.domain_scores(0) == (2, 3, 0)


def test_bonus_is_optional_and_lost_when_declined():
    """GA-BONUS-1 (may), GA-AMB-31: area 2 carries take_card(any). After emptying it the player may
    carry it out or decline (DONE); declined, it is gone: back to the uses, hand unchanged, and
    no later chance to take it."""
    s = game(bonuses(area=[None, None, {"type": "take_card"}, None, None]),
             areas=[{0: 5}, {1: 5}, {2: 1}, {3: 5}, {5: 5}])
    s.apply(0)
    apply_all(s, G.take_tile(2, 0, 2), G.place(2))  # space 2 has shape 2
    assert s.phase() == FRAME
    assert set(legal(s)) == {G.resolve(28), G.DONE}
    s.apply(G.DONE)
    assert s.phase() == USES and s.hand(0) == [] and s.frames() == []
    rejected(s, G.resolve(28))  # now or never


def test_bonus_carried_out_takes_a_card():
    """GA-BONUS-1, GA-AMB-31: the take_card(any) bonus of area 2, carried out: one window card
    joins the hand."""
    s = game(bonuses(area=[None, None, {"type": "take_card"}, None, None]),
             areas=[{0: 5}, {1: 5}, {2: 1}, {3: 5}, {5: 5}])
    s.apply(0)
    apply_all(s, G.take_tile(2, 0, 2), G.place(2), G.resolve(28))
    assert 67 in card_takes(s) and 0 in card_takes(s)
    s.apply(G.take_card(67))
    assert s.hand(0) == [67]


def test_declined_bonus_does_not_use_up_its_kind():
    """GA-AMB-31: areas 2 and 3 carry the same take_card(any) bonus. Declined after emptying area 2,
    it is offered again when area 3 is emptied in the same turn."""
    card = {"type": "take_card"}
    s = game(bonuses(area=[None, None, card, dict(card), None]),
             areas=[{0: 5}, {1: 5}, {2: 1}, {3: 1}, {5: 5}])
    s.apply(0)
    apply_all(s, G.take_tile(2, 0, 2), G.place(2), G.DONE)
    apply_all(s, G.take_tile(3, 0, 3), G.place(3))  # space 3 has shape 3
    assert s.phase() == FRAME and G.resolve(28) in legal(s)
    apply_all(s, G.resolve(28), G.take_card(33))
    assert s.hand(0) == [33]


def test_area_emptied_by_a_reward_take_gives_its_bonus():
    """GA-AMB-31, GA-BONUS-1: a take made through a reward also triggers the bonus. A chimney reward
    collect_tile(any) takes the last tile of area 0 (bonus +2 Nature): Nature 2 (plus the chimney's
    own +0)."""
    from gaudi_helpers_score import chimney_space, set_chimney_day

    def edit(d):
        bonuses(area=[vp("nature", 2), None, None, None, None])(d)
        set_chimney_day(d, "religion", [chimney_space("s0", 1, [{"type": "collect_tile"}]), chimney_space("s1", 2, [])])
    s = game(edit, areas=[{1: 1}, {1: 5}, {2: 5}, {3: 5}, {5: 5}], boards={0: {0: 3}})
    s.apply(1)  # card-any, 1 hammer: advance the Religion chimney
    apply_all(s, G.advance(2), G.resolve(24), G.take_tile(0, 0, 1), G.place(1))
    assert s.domain_scores(0) == (2, 0, 0)


def test_same_non_vp_bonus_kind_carried_out_once_per_turn():
    """GA-BONUS-2, GA-AMB-31: areas 2 and 3 carry the same take_card(any) bonus. Carried out after
    emptying area 2, it is not offered again when area 3 is emptied in the same turn."""
    card = {"type": "take_card"}
    s = game(bonuses(area=[None, None, card, dict(card), None]),
             areas=[{0: 5}, {1: 5}, {2: 1}, {3: 1}, {5: 5}])
    s.apply(0)
    apply_all(s, G.take_tile(2, 0, 2), G.place(2), G.resolve(28), G.take_card(33))
    apply_all(s, G.take_tile(3, 0, 3), G.place(3))
    assert s.frames() == []
    assert s.hand(0) == [33]
    assert s.phase() == MOVE and s.current_player() == 1


def test_card_reward_from_an_empty_window_is_skipped():
    """GA-CARD-4: a take_card(Religion) bonus while the Religion window is empty cannot be carried
    out: it is not offered (the frame closes on its own) and the hand is unchanged."""
    s = game(bonuses(area=[{"type": "take_card", "domain": "religion"}, None, None, None, None]),
             areas=[{0: 1}, {1: 5}, {2: 5}, {3: 5}, {5: 5}], windows=[[0, 1, 2], [33, 34, 35], []])
    s.apply(0)
    apply_all(s, G.take_tile(0, 0, 0), G.place(0))
    assert s.frames() == [] and s.phase() == USES
    assert G.resolve(27) not in legal(s)
    assert s.hand(0) == []


def test_bonus_chosen_then_declined_does_not_use_up_its_kind():
    """GA-AMB-31, GA-ORDER-2: areas 2 and 3 carry the same take_card(any) bonus. After emptying area
    2 the player picks the bonus (RESOLVE 28) and then declines the take itself (DONE, which
    "declines the item", spec §11.2): nothing was carried out, so the bonus was declined and its
    kind is not used up: emptying area 3 in the same turn offers it again."""
    card = {"type": "take_card"}
    s = game(bonuses(area=[None, None, card, dict(card), None]),
             areas=[{0: 5}, {1: 5}, {2: 1}, {3: 1}, {5: 5}])
    s.apply(0)
    apply_all(s, G.take_tile(2, 0, 2), G.place(2), G.resolve(28))
    assert s.phase() == ITEM
    s.apply(G.DONE)
    assert s.hand(0) == [] and s.phase() == USES
    apply_all(s, G.take_tile(3, 0, 3), G.place(3))
    assert s.phase() == FRAME and G.resolve(28) in legal(s)
