"""Writes the configurations the C++ self-play checker plays (one per game, player count and option
value) as plain text the checker reads without a JSON library:

    config <game> <label>
    <field> <count> <value> ...     (every Config field, arrays flattened, as the C++ visit names them)
    end

Usage: PYTHONPATH=python python3 cpp/tools/configs.py > build/configs.txt [game ...]
Options with a fixed set of choices are varied one at a time from their defaults (chance and
first_player together), so every mode, chance setting and rule variant of every game is covered
as the registry declares them (new Gaudí modes appear here when they land).
"""
import itertools
import sys

from tilecraft.games import game_spec, list_games, make_config


def flatten(v):
    if isinstance(v, (list, tuple)):
        for x in v:
            yield from flatten(x)
    elif isinstance(v, bool):
        yield int(v)
    else:
        yield v


def variants(spec):
    names = {o.name for o in spec.options}
    chance = spec.option("chance").choices if "chance" in names else (None,)
    first = (0, -1) if "first_player" in names else (None,)
    # chance x first_player: every combination (a random first player is a chance node).
    for c, f in itertools.product(chance, first):
        yield {k: v for k, v in (("chance", c), ("first_player", f)) if v is not None}
    # every other rule variant with a fixed set of choices, one at a time from the defaults.
    for o in spec.options:
        if o.choices is not None and o.name not in ("chance", "first_player"):
            for c in o.choices:
                if c != o.default:
                    yield {o.name: c}


def main(argv):
    games = argv[1:] or list(list_games())
    out = sys.stdout
    for g in games:
        spec = game_spec(g)
        for players in spec.players:
            done = set()
            for opts in variants(spec):
                key = tuple(sorted(opts.items()))
                if key in done:
                    continue
                done.add(key)
                try:
                    cfg = make_config(g, players, **opts)
                except Exception as e:  # an option value not allowed for this player count
                    print(f"# skipped {g} players={players} {opts}: {e}", file=sys.stderr)
                    continue
                label = f"players={players}" + "".join(f",{k}={v}" for k, v in sorted(opts.items()))
                out.write(f"config {g} {label.replace(' ', '')}\n")
                for name, value in cfg.items():
                    flat = list(flatten(value))
                    out.write(f"{name} {len(flat)} {' '.join(str(x) for x in flat)}\n")
                out.write("end\n")


if __name__ == "__main__":
    main(sys.argv)
