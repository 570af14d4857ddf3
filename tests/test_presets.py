"""The search presets (tilecraft/agents/presets.json, issue 47 item 2): one schema-checked table says how
each shipped baseline and each game's MCTS/ISMCTS search unless a spec says otherwise; network files
hold weights and how they were made, and no search settings."""
import copy
import json
import pathlib

import numpy as np
import pytest

import tilecraft
from tilecraft import baselines, presets
from tilecraft.bots import BaselineBot, make_bot

SHIPPED = json.loads(presets.PATH.read_text())


def test_every_shipped_network_has_one_preset_and_every_preset_a_network():
    files = {pathlib.Path(a["path"]).name: a for a in baselines.available()}
    entries = presets.load()["baseline"]["networks"]
    assert sorted(e["network"] for e in entries) == sorted(files)
    for e in entries:  # the preset names the configuration the file's own metadata serves
        a = files[e["network"]]
        assert (a["game"], a["players"], a["mode"]) == (e["game"], [e["players"]], e.get("mode"))


def test_network_files_hold_no_search_settings():
    for a in baselines.available():
        assert "search" not in baselines.load(a["game"], a["players"][0], a["mode"]).meta, a["path"]


@pytest.mark.parametrize("game, players, expect", [
    ("castle", 2, dict(determinize="hidden", simulations=1600, batch_size=8, c_puct=1.25)),
    ("gaudi", 2, dict(determinize="hidden-iteration", simulations=6400, batch_size=1, prior_temperature=2.0)),
    ("warsaw", 2, dict(simulations=400, batch_size=1, determinize="search")),
    ("azul", 2, dict(c_puct=0.5, prior_heuristic=0.0, rollout_mix=0.75, simulations=200)),
])
def test_the_baseline_bot_searches_with_its_configurations_preset(game, players, expect):
    state = tilecraft.make(game, players=players, seed=1)
    options = BaselineBot().puct(state).options
    assert {k: options[k] for k in expect} == expect
    assert BaselineBot(simulations=50, determinize="search").puct(state).options["simulations"] == 50  # the spec wins
    assert make_bot("baseline:determinize=iteration").puct(state).options["determinize"] == "iteration"


def test_a_network_of_ones_own_plays_with_its_configurations_preset_and_ignores_old_search_metadata(tmp_path):
    """A file of one's own for 2-player Azul searches with Azul's 2-player preset, whatever its
    metadata says (files written before the presets carried search settings: they are not read)."""
    net = baselines.load("azul", 2)
    path = tmp_path / "mine.npz"
    baselines.save(str(path), net.arrays, dict(net.meta, search=dict(simulations=7, c_puct=9.0)), dtype=np.float16)
    state = tilecraft.make("azul", seed=2)
    options = BaselineBot(path=str(path)).puct(state).options
    assert (options["simulations"], options["c_puct"]) == (200, 0.5)


def test_the_mcts_presets_fill_what_a_bot_leaves_unset():
    assert make_bot("mcts")._resolved("warsaw")["rollout_depth"] == 8
    assert make_bot("ismcts")._resolved("warsaw")["eval_scale"] == 20.0
    assert make_bot("mcts")._resolved("azul")["rollout_depth"] == presets.mcts_defaults(None)["rollout_depth"] == 4
    assert make_bot("mcts:rollout_depth=3")._resolved("warsaw")["rollout_depth"] == 3  # given: it wins
    assert presets.mcts_defaults("gaudi") == dict(exploration=0.4, rollout="greedy", rollout_depth=8, eval_scale=10.0)


def _bad(tmp_path, edit):
    data = copy.deepcopy(SHIPPED)
    edit(data)
    path = tmp_path / "presets.json"
    path.write_text(json.dumps(data))
    with pytest.raises(presets.PresetError) as e:
        presets.load(str(path))
    return str(e.value)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.pop("mcts"), r"presets\.json.*'mcts' is a required property"),
    (lambda d: d["baseline"]["networks"][0].pop("network"), r"presets\.json.*\$\.baseline\.networks\[0\].*'network'"),
    (lambda d: d["baseline"]["networks"][0].update(players="two"), r"\$\.baseline\.networks\[0\]\.players"),
    (lambda d: d["baseline"]["networks"][3]["search"].update(simulations=0),
     r"\$\.baseline\.networks\[3\]\.search\.simulations: PUCTBot: simulations must be in 1\.\.10000000, got 0"),
    (lambda d: d["baseline"]["networks"][3]["search"].update(determinize="always"),
     r"\$\.baseline\.networks\[3\]\.search\.determinize: PUCTBot: determinize must be"),
    (lambda d: d["baseline"]["networks"][0]["search"].update(worlds=9, simulations=8),
     r"\$\.baseline\.networks\[0\]\.search: PUCTBot: worlds \(9\) must be at most simulations \(8\)"),
    (lambda d: d["baseline"]["networks"][0]["search"].update(iterations=5),
     r"\$\.baseline\.networks\[0\]\.search\.iterations: .*iterations"),
    (lambda d: d["baseline"]["defaults"].update(eval_scale=0),
     r"\$\.baseline\.defaults\.eval_scale: PUCTBot: eval_scale must be in \[0\.001, 1e\+06\]"),
    (lambda d: d["mcts"]["games"]["warsaw"].update(eval_scale=1e-9),
     r"\$\.mcts\.games\.warsaw\.eval_scale: MCTSBot: eval_scale must be in"),
    (lambda d: d["mcts"]["defaults"].update(rollout="smart"), r"\$\.mcts\.defaults\.rollout: .*'random' or 'greedy'"),
    (lambda d: d["baseline"]["networks"].append(dict(d["baseline"]["networks"][0])),
     r"\$\.baseline\.networks\[10\]: a second preset for azul, 2 players"),
])
def test_a_bad_presets_file_names_the_file_the_json_path_and_the_range(tmp_path, edit, message):
    import re

    text = _bad(tmp_path, edit)
    assert re.search(message, text), text
