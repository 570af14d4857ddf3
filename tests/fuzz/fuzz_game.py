"""atheris fuzzer for any registered game: python tests/fuzz/fuzz_game.py GAME [libFuzzer flags]
(see docs/testing.md). Coverage guidance comes from the Python layer (instrumented by atheris); the
extension itself is not instrumented (docs/testing.md, "Fuzzing")."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print("usage: python tests/fuzz/fuzz_game.py GAME [libFuzzer flags]", file=sys.stderr)
        return 2
    import atheris

    with atheris.instrument_imports(include=["tilecraft", "harness"]):
        import harness
        import tilecraft

    game = argv[1]
    if game not in tilecraft.list_games():
        print(f"fuzz_game.py: unknown game {game!r}; the games are: {', '.join(tilecraft.list_games())}",
              file=sys.stderr)
        return 2

    def test_one_input(data: bytes) -> None:
        harness.one_input(game, data)

    atheris.Setup([argv[0]] + argv[2:], test_one_input)  # libFuzzer sees its own flags only
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
