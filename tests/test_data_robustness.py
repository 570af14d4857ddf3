"""Data files and saved states that are not what they should be (issue 19, findings 5 and 8, and
the per-process cache of section 2): each raises InvalidConfigError (data files, options) or
InvalidStateError (saved states), at once, naming the file or "saved state" and the JSON path;
nothing hangs, exhausts memory, or passes silently. Also: a data file is read and checked once per
process, and read again when it changes."""
import json
import os
import shutil
import subprocess
import sys
import threading

import pytest

import tilecraft
from tilecraft.games import _schema
from tilecraft.games import castle as C
from tilecraft.games import gaudi as GA
from tilecraft.games import warsaw as W

DATA = os.path.join(os.path.dirname(tilecraft.__file__), "data")
HUGE = "9" * 5000  # over Python's 4300-digit limit for int(str)


def _read(game, name):
    with open(os.path.join(DATA, game, name), encoding="utf-8") as f:
        return f.read()


def _copy_dir(tmp_path, game, names):
    d = tmp_path / game
    d.mkdir()
    for n in names:
        shutil.copy(os.path.join(DATA, game, n), d / n)
    return d


def _make_within(seconds, *args, **kwargs):
    """make(*args, **kwargs) on a thread: (finished in time, the exception it raised)."""
    out = {}

    def run():
        try:
            tilecraft.make(*args, **kwargs)
        except BaseException as e:  # noqa: BLE001 - the test inspects it
            out["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    return not t.is_alive(), out.get("error")


# ---------------------------------------------------------------- finding 5: what a data file may be

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("game", ["castle", "warsaw", "gaudi"])
def test_a_fifo_as_data_file_is_refused_at_once(tmp_path, game):
    if game == "castle":
        fifo, kwargs = tmp_path / "board.json", {}
        kwargs["board"] = str(fifo)
    else:
        d = _copy_dir(tmp_path, game, ["milestones.json"] if game == "warsaw" else [])
        fifo, kwargs = d / "cards.json", {"data": str(d)}
    os.mkfifo(fifo)
    try:
        done, error = _make_within(5, game, **kwargs)
    finally:
        if not done:  # today's code blocks in open(): a writer that closes at once lets it go
            with open(fifo, "w"):
                pass
    assert done, "make() blocked on a FIFO"
    assert isinstance(error, tilecraft.InvalidConfigError), repr(error)
    assert str(fifo) in str(error) and "FIFO" in str(error) and "regular file" in str(error)


def test_a_device_as_data_file_is_refused_without_reading_it(tmp_path):
    # In a child with a 2 GiB address-space limit, so that today's read-until-memory-runs-out ends.
    code = ("import resource, tilecraft\n"
            "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
            "try:\n"
            "    tilecraft.make('castle', tiles='/dev/zero')\n"
            "except tilecraft.InvalidConfigError as e:\n"
            "    print('REFUSED', e)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert r.stdout.startswith("REFUSED castle /dev/zero: cannot read: it is a device"), (r.stdout, r.stderr[-500:])


def test_a_data_file_over_the_size_cap_is_refused(tmp_path):
    tiles = json.loads(_read("castle", "tiles.json"))
    text = json.dumps(tiles)
    path = tmp_path / "tiles.json"
    path.write_text(text + " " * (_schema.MAX_FILE_BYTES + 1 - len(text)))  # valid JSON, one byte too long
    with pytest.raises(tilecraft.InvalidConfigError, match=r"has 4194305 bytes; a data file may have at most 4194304"):
        tilecraft.make("castle", tiles=str(path))
    path.write_text(text + " " * (_schema.MAX_FILE_BYTES - len(text)))  # exactly at the cap: fine
    tilecraft.make("castle", tiles=str(path))


def test_a_directory_as_data_file_is_refused(tmp_path):
    with pytest.raises(tilecraft.InvalidConfigError, match=r"castle .*: cannot read: it is a directory"):
        tilecraft.make("castle", board=str(tmp_path))


@pytest.mark.parametrize("kind", ["broken", "loop"])
def test_gaudi_cards_json_as_a_bad_symlink_is_an_error_not_the_default(tmp_path, kind):
    link = tmp_path / "cards.json"
    if kind == "broken":
        os.symlink(tmp_path / "nowhere.json", link)
    else:
        os.symlink(link, link)  # a loop
    with pytest.raises(tilecraft.InvalidConfigError, match=r"gaudi .*cards\.json: cannot read: .*symlink"):
        tilecraft.make("gaudi", data=str(tmp_path))


def test_a_symlink_to_a_regular_file_is_read(tmp_path):
    os.symlink(os.path.join(DATA, "castle", "tiles.json"), tmp_path / "tiles.json")
    assert tilecraft.make("castle", tiles=str(tmp_path / "tiles.json"), seed=3) == tilecraft.make("castle", seed=3)


def test_castle_files_refuse_unknown_keys_at_every_level(tmp_path):
    board, tiles = json.loads(_read("castle", "board.json")), json.loads(_read("castle", "tiles.json"))
    cases = [
        ("tiles", dict(tiles, padding="x" * 1000), r"tiles\.json.*: \$: Additional properties are not allowed \('padding'"),
        ("tiles", dict(tiles, tiles=[dict(tiles["tiles"][0], colour="red")] + tiles["tiles"][1:]),
         r"\$\.tiles\[0\]: Additional properties are not allowed \('colour'"),
        ("board", dict(board, extra=1), r"board\.json.*: \$: Additional properties are not allowed \('extra'"),
        ("board", dict(board, gates=[dict(board["gates"][0], width=2)] + board["gates"][1:]),
         r"\$\.gates\[0\]: Additional properties are not allowed \('width'"),
        ("board", dict(board, corners=[dict(board["corners"][0], x=2)] + board["corners"][1:]),
         r"\$\.corners\[0\]: Additional properties are not allowed \('x'"),
    ]
    for kind, data, message in cases:
        path = tmp_path / f"{kind}.json"
        path.write_text(json.dumps(data))
        with pytest.raises(tilecraft.InvalidConfigError, match=message):
            tilecraft.make("castle", **{kind: str(path)})
        with pytest.raises(tilecraft.InvalidConfigError, match=message.split(".*", 1)[-1]):
            tilecraft.make("castle", **{kind: data})  # the same schema for a parsed dict


# ---------------------------------------------------------------- repeated keys (data files and saved states)

@pytest.mark.parametrize("game,name,old,new,where", [
    ("castle", "tiles.json", '"format"', '"version": 1, "format"', r"castle .*tiles\.json: \$\.version: the key 'version' appears twice"),
    ("warsaw", "cards.json", '"era": 1,', '"era": 1, "era": 2,', r"warsaw cards\.json: \$\.cards\[0\]\.era: the key 'era' appears twice"),
    ("gaudi", "cards.json", '"domain": "religion",', '"domain": "religion", "domain": "nature",',
     r"gaudi .*cards\.json: \$\.cards\[\d+\]\.domain: the key 'domain' appears twice"),
])
def test_repeated_keys_in_a_data_file_are_refused(tmp_path, game, name, old, new, where):
    text = _read(game, name)
    assert old in text
    text = text.replace(old, new, 1)
    if game == "castle":
        path = tmp_path / name
        path.write_text(text)
        kwargs = {"tiles": str(path)}
    else:
        d = _copy_dir(tmp_path, game, ["milestones.json"] if game == "warsaw" else [])
        (d / name).write_text(text)
        kwargs = {"data": str(d)}
    with pytest.raises(tilecraft.InvalidConfigError, match=where):
        tilecraft.make(game, **kwargs)


def _saved(game="castle"):
    return tilecraft.make(game, seed=5).to_json()


@pytest.mark.parametrize("load", [tilecraft.from_json, tilecraft.CastleState.from_json])
def test_repeated_keys_in_a_saved_state_are_refused(load):
    text = _saved()
    top = text.replace('"format":1', '"format":1,"format":1', 1)
    with pytest.raises(tilecraft.InvalidStateError, match=r"saved state: \$\.format: the key 'format' appears twice"):
        load(top)
    d = json.loads(text)
    field = next(iter(d["config"]))
    nested = text.replace(f'"config":{{"{field}":', f'"config":{{"{field}":0,"{field}":', 1)
    assert nested != text
    with pytest.raises(tilecraft.InvalidStateError, match=rf"saved state: \$\.config\.{field}: the key '{field}' appears twice"):
        load(nested)
    assert load(text) == tilecraft.make("castle", seed=5)  # the unchanged text still loads


# ---------------------------------------------------------------- finding 8: errors that name the file or field

@pytest.mark.parametrize("game,name", [("castle", "tiles.json"), ("warsaw", "cards.json"), ("gaudi", "track.json")])
def test_invalid_utf8_names_the_file(tmp_path, game, name):
    raw = _read(game, name).encode("utf-8").replace(b'"format"', b'"form\xff\xfeat"', 1)
    if game == "castle":
        path = tmp_path / name
        kwargs = {"tiles": str(path)}
    else:
        d = _copy_dir(tmp_path, game, ["milestones.json"] if game == "warsaw" else [])
        path, kwargs = d / name, {"data": str(d)}
    path.write_bytes(raw)
    with pytest.raises(tilecraft.InvalidConfigError, match=rf"{game} .*{name}: not UTF-8 text \(byte \d+ is b'\\xff'\)"):
        tilecraft.make(game, **kwargs)


@pytest.mark.parametrize("depth", [70, 900, 100000])
@pytest.mark.parametrize("game", ["castle", "warsaw"])
def test_deep_nesting_in_a_data_file_names_the_file(tmp_path, game, depth):
    nested = "[" * depth + "]" * depth
    if game == "castle":
        path = tmp_path / "board.json"
        path.write_text('{"format": 1, "rows": ' + nested + "}")
        kwargs = {"board": str(path)}
        name = r"board\.json"
    else:
        d = _copy_dir(tmp_path, game, ["milestones.json"])
        (d / "cards.json").write_text('{"cards": ' + nested + "}")
        kwargs, name = {"data": str(d)}, r"cards\.json"
    with pytest.raises(tilecraft.InvalidConfigError, match=rf"{game} .*{name}: \$(\.\w+(\[0\])*)?: nested (far )?more than 64 levels"):
        tilecraft.make(game, **kwargs)


def test_nesting_up_to_the_limit_is_parsed():
    assert _schema.parse("[" * 64 + "]" * 64, "x.json") == eval("[" * 64 + "]" * 64)  # noqa: S307 - a literal
    text = json.dumps({"a": "[" * 72 + "\\\"{" * 72})  # brackets inside a string do not nest
    assert _schema.parse(text, "x") == json.loads(text)


@pytest.mark.parametrize("game,name,old", [("castle", "tiles.json", '"count": 4'), ("warsaw", "cards.json", '"price": 2')])
def test_huge_integers_name_the_file_and_path(tmp_path, game, name, old):
    text = _read(game, name)
    assert old in text
    text = text.replace(old, old.split(":")[0] + ": " + HUGE, 1)
    if game == "castle":
        path = tmp_path / name
        path.write_text(text)
        kwargs = {"tiles": str(path)}
    else:
        d = _copy_dir(tmp_path, game, ["milestones.json"])
        (d / name).write_text(text)
        kwargs = {"data": str(d)}
    key = old.split(":")[0].strip('"')
    with pytest.raises(tilecraft.InvalidConfigError,
                       match=rf"{game} .*{name}: \$\.\w+\[\d+\]\.{key}: an integer of 5000 digits \(over Python's limit"):
        tilecraft.make(game, **kwargs)


@pytest.mark.parametrize("game,option", [("castle", "board"), ("castle", "tiles"), ("warsaw", "data"), ("gaudi", "data")])
def test_a_nul_byte_in_a_path_names_the_option(game, option):
    with pytest.raises(tilecraft.InvalidConfigError, match=rf"{game}: option {option}=.*NUL character"):
        tilecraft.make(game, **{option: "/tmp/a\0b"})


def test_nan_and_infinity_are_not_json(tmp_path):
    path = tmp_path / "tiles.json"
    path.write_text(_read("castle", "tiles.json").replace('"count": 4', '"count": NaN', 1))
    with pytest.raises(tilecraft.InvalidConfigError, match=r"\$\.tiles\[\d+\]\.count: NaN is not a JSON value"):
        tilecraft.make("castle", tiles=str(path))


@pytest.mark.parametrize("load", [tilecraft.from_json, tilecraft.WarsawState.from_json])
def test_saved_states_deep_huge_or_not_utf8(load):
    text = _saved("warsaw")
    d = json.loads(text)
    field = next(iter(d["state"]))
    for depth in (100, 900, 100000):
        deep = text.replace(f'"state":{{"{field}":', f'"state":{{"{field}":' + "[" * depth + "]" * depth + ",\"x\":", 1)
        with pytest.raises(tilecraft.InvalidStateError, match=r"saved state: \$.*: nested (far )?more than 64 levels"):
            load(deep)
    huge = text.replace('"format":1', '"format":' + HUGE, 1)
    with pytest.raises(tilecraft.InvalidStateError, match=r"saved state: \$\.format: an integer of 5000 digits"):
        load(huge)
    with pytest.raises(tilecraft.InvalidStateError, match=r"saved state: not valid JSON"):
        load(text[:-3])


def test_from_json_bytes_that_are_not_utf8():
    text = _saved("azul").encode("utf-8")
    assert tilecraft.from_json(text) == tilecraft.make("azul", seed=5)  # UTF-8 bytes load as before
    with pytest.raises(tilecraft.InvalidStateError, match=r"saved state: not UTF-8 text \(byte 0 is b'\\xff'\)"):
        tilecraft.from_json(b"\xff" + text)


# ---------------------------------------------------------------- section 2: read once per process, again when changed

@pytest.mark.parametrize("game", ["castle", "warsaw", "gaudi"])
def test_a_warm_make_reads_no_file(monkeypatch, game):
    tilecraft.make(game, seed=1)
    calls = []
    for name in ("read_bytes", "validate"):
        real = getattr(_schema, name)
        monkeypatch.setattr(_schema, name, lambda *a, _real=real, _name=name, **k: calls.append(_name) or _real(*a, **k))
    for seed in range(5):
        tilecraft.make(game, seed=seed)
    assert calls == []


@pytest.mark.parametrize("game,players,options", [
    ("azul", 3, {}), ("castle", 2, {"first_player": -1, "chance": "explicit"}), ("warsaw", 4, {"returns_mode": "win_loss"}),
    ("gaudi", 1, {"difficulty": "hard"}), ("gaudi", 3, {"mode": "expert"}),
])
def test_a_warm_make_is_the_game_the_constructor_makes(game, players, options):
    spec = tilecraft.game_spec(game)
    for seed in (0, 7, 2**64 - 1):
        warm = tilecraft.make(game, players, seed, **options)
        tilecraft.make(game, players, seed + 1 if seed < 2**64 - 1 else 0, **options)
        fresh = spec.state_class(tilecraft.make_config(game, players, **options), seed)
        assert warm == fresh and warm.to_json() == fresh.to_json()
        assert warm.history() == [] and warm.config() == fresh.config()
    a, b = tilecraft.make(game, players, 3, **options), tilecraft.make(game, players, 3, **options)
    a.apply(int(a.legal_actions()[0]))  # states made from one prototype are independent
    assert b == tilecraft.make(game, players, 3, **options) and a != b


def test_a_changed_castle_file_is_read_again(tmp_path):
    path = tmp_path / "tiles.json"
    tiles = json.loads(_read("castle", "tiles.json"))
    path.write_text(json.dumps(tiles))
    first = tilecraft.make("castle", tiles=str(path))
    tiles["tiles"][0]["count"] += 1
    tiles["total"] += 1
    path.write_text(json.dumps(tiles, indent=1))  # another size: a new stamp even within one clock tick
    second = tilecraft.make("castle", tiles=str(path))
    counts = lambda s: s.config()["type_count"]  # noqa: E731
    assert counts(second)[0] == counts(first)[0] + 1
    path.write_text(json.dumps(dict(tiles, padding=1)))
    with pytest.raises(tilecraft.InvalidConfigError, match="padding"):
        tilecraft.make("castle", tiles=str(path))


def test_a_changed_warsaw_file_is_read_again(tmp_path):
    d = _copy_dir(tmp_path, "warsaw", ["cards.json", "milestones.json"])
    cards = json.loads((d / "cards.json").read_text())
    first = tilecraft.make("warsaw", data=str(d))
    cards["cards"][0]["price"] += 1
    (d / "cards.json").write_text(json.dumps(cards, indent=3))
    second = tilecraft.make("warsaw", data=str(d))
    assert second.config()["card_price"][0] == first.config()["card_price"][0] + 1
    (d / "cards.json").write_text(json.dumps(cards)[:-1])
    with pytest.raises(tilecraft.InvalidConfigError, match=r"warsaw cards\.json: not valid JSON"):
        tilecraft.make("warsaw", data=str(d))


def test_a_changed_gaudi_file_is_read_again(tmp_path):
    d = tmp_path / "edition"
    d.mkdir()
    tilecraft.make("gaudi", data=str(d))  # an empty folder: the default files
    text = _read("gaudi", "track.json")
    (d / "track.json").write_text(text)
    assert tilecraft.make("gaudi", data=str(d), seed=2) == tilecraft.GaudiState(tilecraft.make_config("gaudi", data=str(d)), 2)
    (d / "track.json").write_text(text.replace('"format"', '"format": 1, "format"', 1))
    with pytest.raises(tilecraft.InvalidConfigError, match=r"track\.json: \$\.format: the key 'format' appears twice"):
        tilecraft.make("gaudi", data=str(d))
    os.remove(d / "track.json")
    tilecraft.make("gaudi", data=str(d))  # back to the default track


def test_what_cannot_be_keyed_is_never_cached(monkeypatch):
    assert GA.data_key({"data": "default"}) is not None
    monkeypatch.setitem(GA._EDITIONS, "mine", {})
    assert GA.data_key({"data": "mine"}) is None  # a registered edition: a dict that may change
    assert C.data_key({"board": {"rows": []}, "tiles": None}) is None  # a parsed dict: never cached
    assert W.data_key({"data": "/nonexistent/dir"}) is None


def _open_objects(schema, path="#"):
    """Object schemas that would accept a key they do not list (conditions inside if/then excluded)."""
    if isinstance(schema, list):
        for i, s in enumerate(schema):
            yield from _open_objects(s, f"{path}/{i}")
        return
    if not isinstance(schema, dict):
        return
    if schema.get("type") == "object" or "properties" in schema:
        closed = schema.get("additionalProperties") is False or "propertyNames" in schema
        # one closed key set per kind: {"type": "object", "allOf": [{"if": ..., "then": {"propertyNames": ...}}]}
        branches = [b for b in schema.get("allOf", []) if isinstance(b, dict) and "then" in b]
        closed = closed or (bool(branches) and all("propertyNames" in b["then"] for b in branches))
        if not closed:
            yield path
    for k, v in schema.items():
        if k not in ("if", "then", "else"):
            yield from _open_objects(v, f"{path}/{k}")


def test_every_schema_object_lists_its_keys():
    import glob

    open_ = []
    for p in sorted(glob.glob(os.path.join(DATA, "*", "*.schema.json"))):
        with open(p, encoding="utf-8") as f:
            open_ += [f"{os.path.relpath(p, DATA)} {where}" for where in _open_objects(json.load(f))]
    assert open_ == []


@pytest.mark.parametrize("kind,value", [("tile", "gold"), ("nonexistent", None)])
def test_gaudi_kinded_objects_refuse_unknown_keys(tmp_path, kind, value):
    track = json.loads(_read("gaudi", "track.json"))
    action = track["day"]["spaces"][0]["action"]
    action.clear()
    action.update({"type": kind, "sparkle": 1} if value is None else {"type": kind, "glitter": value})
    (tmp_path / "track.json").write_text(json.dumps(track))
    with pytest.raises(tilecraft.InvalidConfigError, match=r"track\.json: \$\.day\.spaces\[0\]\.action"):
        tilecraft.make("gaudi", data=str(tmp_path))
