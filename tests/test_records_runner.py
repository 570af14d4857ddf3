"""The runner (tilecraft/runner.py) and the records module (tilecraft/records.py), through what a
user sees: a game in the browser is seeded as play_match seeds it, so the same seed and moves give
the same game; replay and results files fail with a message naming the file and line."""
import json
import time

import pytest

import tilecraft
from tilecraft import InvalidStateError
from tilecraft.match import check_replay, check_tournament_file, play_match, write_replay
from tilecraft.runner import chance_rng, seat_seed
from tilecraft.web.games import Game


def test_a_browser_game_is_the_play_match_game_of_its_seed():
    """docs/engine.md: a game depends only on its seed and its bots. The server seeds its bot and its
    chance sampler as play_match does: a person who makes seat 1's moves of a play_match game
    (Azul with explicit chance nodes, so the sampler's draws count) gets that game, move for move."""
    options = {"chance": "explicit"}
    recorded = play_match("azul", ["greedy", "greedy"], seed=11, **options)
    assert -2 in recorded.actors  # chance outcomes were drawn by the runner
    game = Game("g", "azul", 2, 1, ["greedy", None], 11, options)
    try:
        deadline = time.monotonic() + 60
        while True:
            with game.lock:
                assert game.error is None, game.error
                if game.state.is_terminal():
                    break
                mine = game.state.current_player() == 1
                version = game.version
            if mine:
                assert recorded.actors[version] == 1, f"seat 1 to act at move {version + 1}, play_match had seat " \
                                                      f"{recorded.actors[version]}"
                game.move(recorded.actions[version], version)
            else:
                assert time.monotonic() < deadline, "the server's bot did not move within 60 s"
                time.sleep(0.005)
        assert game.actions == recorded.actions
        assert [float(x) for x in game.state.scores()] == recorded.scores
    finally:
        game.stop()


def test_an_unknown_seeding_is_refused_by_name():
    for call in (lambda: seat_seed(1, 0, "numpy"), lambda: chance_rng(1, "numpy")):
        with pytest.raises(ValueError, match="seeding must be one of 'match', 'adapters', got 'numpy'"):
            call()


def test_a_replay_line_nested_too_deep_is_an_error_naming_the_file_and_line(tmp_path):
    """Bad input never crashes: a line of JSON nested beyond what Python's parser takes was a bare
    RecursionError; it is 'FILE:LINE: not JSON' like any other damaged line."""
    good = play_match("azul", ["random", "random"], seed=2)
    path = tmp_path / "deep.jsonl"
    write_replay(good, str(path))
    with open(path, "a", encoding="utf-8") as f:
        f.write("[" * 100_000 + "]" * 100_000 + "\n")
    last = len(path.read_text(encoding="utf-8").splitlines())
    with pytest.raises(InvalidStateError, match=rf"deep\.jsonl:{last}: not JSON"):
        check_replay(str(path))


def _tamper(path, number, change):
    lines = path.read_text(encoding="utf-8").splitlines()
    item = json.loads(lines[number])
    change(item)
    lines[number] = json.dumps(item)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_game_that_ends_otherwise_names_the_result_line(tmp_path):
    path = tmp_path / "r.jsonl"
    play_match("azul", ["random", "random"], seed=4, replay=str(path))
    play_match("azul", ["random", "random"], seed=5, replay=str(path))
    last = len(path.read_text(encoding="utf-8").splitlines())
    _tamper(path, last - 1, lambda item: item.update(scores=[-1.0, -1.0]))  # Azul never scores below 0
    with pytest.raises(InvalidStateError, match=rf"r\.jsonl:{last}: game 2: replay gives scores"):
        check_replay(str(path))


def test_both_formats_report_a_recorded_illegal_action_the_same_way(tmp_path):
    """One re-run checks both formats: an action that is not legal where it was recorded is
    'FILE:LINE: <game>, step K: action A is not legal here' in a replay (the action's line) and
    in a results file (the game record's line)."""
    replay = tmp_path / "r.jsonl"
    result = play_match("azul", ["random", "random"], seed=3, replay=str(replay))
    state = tilecraft.make("azul", players=2, seed=3)
    for a in result.actions[:2]:
        state.apply(a)
    bad = next(a for a in range(state.num_distinct_actions()) if not state.is_legal(a))
    _tamper(replay, 3, lambda item: item.update(action=bad, name=None))  # line 4: the third action
    with pytest.raises(InvalidStateError, match=rf"r\.jsonl:4: game 1, step 3: action {bad} is not legal here"):
        check_replay(str(replay))

    out = tmp_path / "t.jsonl"
    tilecraft.tournament("azul", ["random", "greedy"], games_per_pairing=1, workers=1, out=str(out))
    _tamper(out, 1, lambda item: item["actions"].__setitem__(0, 10_000))
    with pytest.raises(InvalidStateError, match=r"t\.jsonl:2: tournament game 0, step 1: action 10000 is not legal here"):
        check_tournament_file(str(out))
