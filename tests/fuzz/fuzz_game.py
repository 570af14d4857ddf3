"""atheris fuzzer for one target: python tests/fuzz/fuzz_game.py NAME [libFuzzer flags], NAME being a
registered game or another target of targets.py (network-files, bot-specs); see docs/testing.md.
Coverage guidance comes from the Python layer (instrumented by atheris); the extension itself is not
instrumented (docs/testing.md, "Fuzzing")."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print("usage: python tests/fuzz/fuzz_game.py NAME [libFuzzer flags] (NAME: a game or a target)",
              file=sys.stderr)
        return 2
    import atheris

    with atheris.instrument_imports(include=["tilecraft", "harness", "targets", "network_files", "bot_specs"]):
        import targets

    try:
        test_one_input = targets.find(argv[1])
    except KeyError as e:
        print(f"fuzz_game.py: {e.args[0]}", file=sys.stderr)
        return 2
    atheris.Setup([argv[0]] + argv[2:], test_one_input)  # libFuzzer sees its own flags only
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
