"""atheris fuzzer for castle: python tests/fuzz/fuzz_castle.py [libFuzzer flags] (see docs/testing.md)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# atheris' libFuzzer must be visible to the extension when it was built with coverage
# instrumentation (TILECRAFT_FUZZ_COVERAGE, docs/testing.md): load atheris with global symbols.
sys.setdlopenflags(sys.getdlopenflags() | ctypes.RTLD_GLOBAL)
import atheris  # noqa: E402

with atheris.instrument_imports(include=["tilecraft", "harness"]):
    import harness  # noqa: E402


def test_one_input(data: bytes) -> None:
    harness.one_input("castle", data)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
