"""atheris fuzzer for azul: python tests/fuzz/fuzz_azul.py [libFuzzer flags] (see docs/testing.md).
Coverage guidance comes from the Python layer (instrumented by atheris); the extension itself is
not instrumented (docs/testing.md, "Fuzzing")."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import atheris  # noqa: E402

with atheris.instrument_imports(include=["tilecraft", "harness"]):
    import harness  # noqa: E402


def test_one_input(data: bytes) -> None:
    harness.one_input("azul", data)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
