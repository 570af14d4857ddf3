"""End-game choices (GA-AMB-34/35): every choice (Gaudí's-life categories, end_add domains, end_swap
pairs or no swap) is made jointly, maximising (final score, tie-break), with the effects applied in
the GA-AMB-34 order. Hand-built positions on edits of the test fixture edition."""
import copy

import tilecraft
from tilecraft.games import gaudi

import gaudi_fixtures
from test_gaudi_rules_engine import Pos


def _edition(nature_end, catalan_end):
    ed = copy.deepcopy(gaudi_fixtures.edition())
    for t in ed["chimneys"]:
        for face in ("day", "night"):
            for i, sp in enumerate(t[face]):
                sp["end"] = None
                if t["domain"] == 0 and i == 0:
                    sp["end"] = nature_end
                if t["domain"] == 1 and i == 1:
                    sp["end"] = catalan_end
    return ed


def _position(name, ed, scores, nature, catalan):
    gaudi.register_edition(name, ed)
    p = Pos(tilecraft.make("gaudi", players=2, seed=0, data=name))
    p.s["score"][0] = list(scores)
    p.s["chimney"][0] = [nature, catalan, 0]
    return p.load()


def test_ga_amb_34_35_swap_then_domain_effect():
    # Catalan chimney 2nd space: end_swap (step 3); Nature chimney 1st space: end_vp(Nature, 10)
    # (step 4, after the swap). Scores N 5, C 3, R 8, no tiles (bonus 0), basic scoring.
    #   no swap:  N 15, C 3, R 8  -> 3 + 8 = 11 (tb 15)
    #   swap N,C: N 3 + 10 = 13, C 5, R 8 -> 5 + 8 = 13 (tb 13)   <- best
    #   swap N,R: N 8 + 10 = 18, C 3, R 5 -> 3 + 5 = 8
    #   swap C,R: N 15, C 8, R 3 -> 3 + 8 = 11
    s = _position("end-swap-test", _edition([0, 0, 10, 0, 0], [3, 0, 0, 0, 0]), (5, 3, 8), 1, 2)
    final, domains, tie = s.final_scoring(0)
    assert (final, domains, tie) == (13, (13, 5, 8), 13)
    # without the swap reached, the Nature VP alone: N 15, C 3, R 8 -> 11
    s = _position("end-swap-test", _edition([0, 0, 10, 0, 0], [3, 0, 0, 0, 0]), (5, 3, 8), 1, 1)
    assert s.final_scoring(0)[0] == 11


def test_ga_amb_35_add_and_swap_chosen_jointly():
    # Catalan 2nd space: end_swap (step 3); Nature 1st space: end_add 4 (step 4).
    # Scores N 10, C 2, R 6. Best: no swap (a swap keeps the multiset {10, 6, 2}), then +4 on C:
    # (10, 6, 6) -> 6 + 6 = 12, tb 10.  (+4 on R: (10, 2, 10) -> 12, tb 10, the same pair; the
    # engine keeps the first best found, Nature before Catalan before Religion.)
    s = _position("end-add-test", _edition([2, 0, 4, 0, 0], [3, 0, 0, 0, 0]), (10, 2, 6), 1, 2)
    final, domains, tie = s.final_scoring(0)
    assert final == 12 and tie == 10 and sorted(domains) in ([6, 6, 10], [2, 10, 10])
