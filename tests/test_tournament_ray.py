"""The Ray backend on a local 2-CPU Ray instance gives exactly the local backend's games."""
import pytest

import tilecraft
from tilecraft.tournament import load_results

ray = pytest.importorskip("ray", reason="the Ray backend needs the 'ray' extra (pip install 'tilecraft[ray]')")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _strip(games):
    return [{k: v for k, v in g.items() if k != "seconds"} for g in games]


@pytest.mark.slow  # starting a local Ray instance takes seconds
def test_ray_backend_equals_local_backend(local_ray, tmp_path):
    bots = ["random", "greedy", "mcts:iterations=30"]
    out = str(tmp_path / "ray.jsonl")
    remote = tilecraft.tournament("azul", bots, games_per_pairing=2, workers=2, backend="ray", seed=9, out=out)
    local = tilecraft.tournament("azul", bots, games_per_pairing=2, workers=1, backend="local", seed=9)
    assert remote.complete and len(remote.games) == 6
    assert _strip(remote.games) == _strip(local.games)
    assert _strip(load_results(out)) == _strip(local.games)
    # Resuming the finished file on Ray plays nothing more.
    again = tilecraft.tournament("azul", bots, games_per_pairing=2, workers=2, backend="ray", seed=9, out=out)
    assert _strip(again.games) == _strip(local.games)
