"""resample_hidden during WWII (WA-WAR-2, WA-AMB-14): a seat between its two removals has made a
hidden first removal that no other seat can see, so for every other observer the state before and
after that removal look the same and must resample to the same game."""
import json

import numpy as np
import pytest

from conformance import check_lookalikes_resample_alike
from tilecraft.games import warsaw as W
from test_warsaw_helpers import Fixture, sell_out, set_district, to_era


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    return Fixture(str(tmp_path_factory.mktemp("wfx")))


@pytest.mark.parametrize("players", [2, 3])
def test_wa_amb_14_first_removal_is_forgotten_by_other_observers(fx, players):
    r = [c for c in fx.ids("RRRR@1") if fx.era[c] < 4]  # earlier eras: not in this era's hands
    s = to_era(fx.make(players), 4)
    for seat in range(players):
        s = set_district(s, seat, {(x, 0): [(r[3 * seat + x], 0)] for x in range(3)})
    sell_out(s)
    assert s.phase_name() == "war removals" and s.current_player() == 0 and s.removals_needed(0) == 2
    before = s.clone()
    s.apply(W.remove_action(0, 0))  # seat 0's first removal: hidden, not yet "chosen"
    assert s.phase_name() == "war removals" and s.current_player() == 0 and json.loads(s.to_json())["state"]["chosen"] == 0
    for observer in range(1, players):
        assert np.array_equal(before.observation(observer), s.observation(observer))
        check_lookalikes_resample_alike(before, s, observer)
        # the resampled seat 0 may remove any end again: its first removal is not kept
        t = s.clone()
        t.resample_hidden(observer, 5)
        assert W.remove_action(0, 0) in list(t.legal_actions())
        assert json.loads(t.to_json())["state"]["pending_count"][0] == 0
    # seat 0 itself still knows what it removed
    own = s.clone()
    own.resample_hidden(0, 5)
    assert list(own.legal_actions()) == list(s.legal_actions())
    assert W.remove_action(0, 0) not in list(own.legal_actions())
