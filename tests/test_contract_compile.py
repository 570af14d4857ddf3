"""check_contract<S>() (cpp/core/contract.hpp) refuses, at compile time and with a readable message,
a State that breaks the contract of cpp/core/game.hpp, and accepts the four games' States. Needs a
C++17 compiler (skipped without one); compiles with -fsyntax-only."""
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
HERE = ROOT / "tests" / "contract"
CXX = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")

pytestmark = pytest.mark.skipif(CXX is None or not (ROOT / "cpp" / "core" / "contract.hpp").exists(),
                                reason="needs a C++ compiler and the C++ sources")


def _compile(name: str) -> subprocess.CompletedProcess:
    return subprocess.run([CXX, "-std=c++17", "-fsyntax-only", "-I", str(ROOT / "cpp"), str(HERE / name)],
                          capture_output=True, text=True, timeout=120)


def test_a_broken_state_fails_with_the_contract_messages():
    r = _compile("broken_state.cpp")
    assert r.returncode != 0
    # each way BrokenState breaks the contract is named
    assert "State must be trivially copyable" in r.stderr
    assert "static constexpr int kMaxActions" in r.stderr
    assert "void apply(int32_t action)" in r.stderr
    assert "static constexpr int kObservationVersion" in r.stderr  # what a trained network is checked against
    # the game's words (cpp/core/vocab.hpp)
    assert "static constexpr const char* const* kPhaseNames" in r.stderr
    assert "void action_ranges(ActionRange* out) const" in r.stderr
    # and what it does have is not complained about
    assert "kMaxChanceOutcomes`" not in r.stderr
    assert "Config must be trivially copyable" not in r.stderr
    assert "static constexpr int kNumPhases`" not in r.stderr


@pytest.mark.slow
def test_the_four_games_meet_the_contract():
    r = _compile("game_states.cpp")
    assert r.returncode == 0, r.stderr[-4000:]
