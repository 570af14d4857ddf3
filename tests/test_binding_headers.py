"""Each binding header (bindings/*.hpp) stands on its own: it compiles alone (-fsyntax-only), with
what it uses included at its top, and none includes another at its end. Needs a C++17 compiler
and the pybind11 headers (skipped without them)."""
import os
import pathlib
import re
import shutil
import subprocess
import sysconfig

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINDINGS = ROOT / "bindings"
CXX = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
HEADERS = sorted(p.name for p in BINDINGS.glob("*.hpp")) if BINDINGS.exists() else []


def _pybind11_include():
    try:
        import pybind11
    except ImportError:
        return None
    return pybind11.get_include()


def test_the_binding_headers_are_the_known_ones():
    if not HEADERS:
        pytest.skip("the C++ sources are not next to the tests")
    assert {"bind_common.hpp", "bind_game.hpp", "bind_search.hpp", "bind_puct.hpp", "bind_vector.hpp"} <= set(HEADERS)


@pytest.mark.parametrize("header", HEADERS)
def test_no_header_includes_another_after_its_code(header):
    lines = (BINDINGS / header).read_text(encoding="utf-8").splitlines()
    code = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith(("//", "#"))]
    includes = [i for i, line in enumerate(lines) if re.match(r"\s*#\s*include\b", line)]
    assert code and includes, header
    late = [lines[i] for i in includes if i > code[0]]
    assert late == [], f"{header} includes after its first line of code: {late}"


@pytest.mark.slow  # a pybind11 parse per header, several seconds each
@pytest.mark.parametrize("header", HEADERS)
def test_each_binding_header_compiles_alone(header, tmp_path):
    include = _pybind11_include()
    if CXX is None or include is None:
        pytest.skip("needs a C++ compiler and pybind11")
    unit = tmp_path / "alone.cpp"
    unit.write_text(f'#include "{header}"\n', encoding="utf-8")
    r = subprocess.run([CXX, "-std=c++17", "-fsyntax-only", "-fvisibility=hidden", "-I", str(BINDINGS), "-I", str(ROOT / "cpp"),
                        "-I", include, "-I", sysconfig.get_paths()["include"], str(unit)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-4000:]
