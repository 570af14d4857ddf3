"""``final_scoring(seat)`` on a finished Gaudí game returns the result recorded when the game ended
(GA-SCORE-*, GA-EX-3), not the end scoring applied a second time (issue 19, section 3).

The positions are the hand-checked endgames of test_gaudi_rules_score_final.py: seat 1 does not
act, seat 0 moves to the central area and takes option B (+2 Nature), and the game ends."""
from __future__ import annotations

from gaudi_helpers_score import endgame, finish_game
from test_gaudi_rules_score_final import EX3_BOARD  # the hand-checked GA-EX-3 board


def _finished(**parts):
    s = endgame(2, None, **parts)
    finish_game(s)
    assert s.is_terminal()
    return s


def test_religion_card_is_not_scored_twice():
    """GA-SCORE-1, GA-REL-1: Religion card 66 scores 1 per category-3 card in seat 1's columns (3, 13,
    43 -> 3). Domains (10, 10, 0) become (10, 10, 3) at the end: final 3 + 10 = 13, tie-break 10 (the
    highest domain, left out of the total). Scoring the card again would give Religion 6."""
    s = _finished(columns={1: [[3, 13], [43], [66]]}, hands={0: [], 1: [23]}, discards=[53],
                  scores={1: (10, 10, 0)})
    assert s.final_scoring(1) == (13, (10, 10, 3), 10)
    assert s.final_scoring(1) == s.final_scoring(1)  # asking twice changes nothing


def test_ex3_final_scoring_after_the_end():
    """GA-EX-3: Nature 12 (10 + 2 from the central option), Catalan 8, Religion 15; groups
    [6, 4, 4, 2]: base 8 + 12 = 20, tile bonus 4 + 4 = 8: final 28, tie-break 15."""
    s = _finished(scores={0: (10, 8, 15)}, boards={0: EX3_BOARD})
    assert s.final_scoring(0) == (28, (12, 8, 15), 15)
    assert s.scores()[0] == 28
