"""Reads data files and saved states, the one safe way (read_bytes, parse: docs/data-files.md), and
checks a component data file against the JSON Schema shipped beside it (one way for every
data-driven game). Errors name the file and the JSON path of the offending value, so a user
authoring an edition can find the problem; the schemas themselves are what an editor understands.
Games keep in code only the cross-field checks a schema cannot express, and raise those through
``problem`` so that every message has the same form."""
from __future__ import annotations

import functools
import itertools
import json
import os
import pathlib
import re
import sys
from typing import Any, Callable, Dict, Hashable, Iterable, List, Optional, Tuple, Type, Union

from .._core import InvalidConfigError, InvalidStateError
from .._files import UnreadableFile, read_regular

# A data file holds at most this many bytes (the shipped files are all under 100 kB); anything larger is
# refused before it is read, so a huge or endless file cannot exhaust memory.
MAX_FILE_BYTES = 4 * 1024 * 1024
# JSON nesting deeper than this is refused (the shipped data files nest at most 9 deep, saved states 7),
# so no reader, validator or message ever recurses without bound.
MAX_DEPTH = 64


def json_path(parts: Iterable[Union[str, int]]) -> str:
    """``['cards', 17, 'requirement']`` -> ``$.cards[17].requirement``."""
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def problem(game: str, label: str, path: Iterable[Union[str, int]], message: str) -> InvalidConfigError:
    """The error for a data file: ``castle tiles.json: $.tiles[3].count: must be ...``."""
    return InvalidConfigError(f"{game} {label}: {json_path(path)}: {message}")


class _Dup(dict):
    """An object whose text repeats a key (``key`` is the first repeated one); see parse."""

    key: str = ""


class _Bad:
    """A value that JSON does not allow here: NaN/Infinity, or an integer of over 4300 digits."""

    def __init__(self, text: str, message: str):
        self.text, self.message = text, message


class _Hooks:
    """The json.loads hooks of one parse: they mark (never raise) what parse refuses, so that the
    fault can then be reported with its JSON path; ``marked`` says whether a walk is needed."""

    def __init__(self) -> None:
        self.marked = False

    def pairs(self, pairs: List[Tuple[str, Any]]) -> dict:
        d = dict(pairs)
        if len(d) == len(pairs):
            return d
        seen = set()
        for k, _ in pairs:
            if k in seen:
                break
            seen.add(k)
        out = _Dup(pairs)
        out.key = k
        self.marked = True
        return out

    def constant(self, text: str) -> _Bad:
        self.marked = True
        return _Bad(text, f"{text} is not a JSON value (use a number)")

    def integer(self, text: str) -> Any:
        digits, limit = len(text.lstrip("-")), _int_digits_limit()
        if limit and digits > limit:
            self.marked = True
            return _Bad(text, f"an integer of {digits} digits (over Python's limit of {limit}); the values here are "
                              f"small integers")
        return int(text)


def _int_digits_limit() -> int:
    return getattr(sys, "get_int_max_str_digits", lambda: 0)()


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')  # a JSON string literal, escapes included
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")
_STEP = [0] * 256
for _c in b"[{":
    _STEP[_c] = 1
for _c in b"]}":
    _STEP[_c] = -1


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings, at C speed (no Python loop per character)."""
    b = text.encode("utf-8", "surrogatepass")
    if b'"' in b:
        b = _STRING.sub(b"", b)
    return max(itertools.accumulate(map(_STEP.__getitem__, b.translate(None, _NOT_BRACKETS))), default=0)


def _first_fault(data: Any) -> Optional[Tuple[List[Union[str, int]], str]]:
    """(JSON path, message) of the first fault in document order that parse refuses: a repeated
    key, a non-JSON value, or nesting deeper than MAX_DEPTH; None if there is none."""
    stack: List[Tuple[Any, List[Union[str, int]]]] = [(data, [])]
    while stack:
        node, path = stack.pop()
        if len(path) >= MAX_DEPTH and isinstance(node, (dict, list)):
            return path, f"nested more than {MAX_DEPTH} levels deep"
        if isinstance(node, _Bad):
            return path, node.message
        if isinstance(node, dict):
            if isinstance(node, _Dup):
                return path + [node.key], f"the key {node.key!r} appears twice in this object (JSON keys must be unique)"
            stack.extend((v, path + [k]) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, path + [i]) for i, v in reversed(list(enumerate(node))))
    return None


def parse(text: Union[str, bytes, bytearray], where: str, error: Type[ValueError] = InvalidConfigError) -> Any:
    """The one JSON reader of data files and saved states. Refuses, with ``error`` naming ``where``
    (a file, "saved state") and the JSON path: text that is not UTF-8, malformed JSON, repeated keys
    in an object, NaN/Infinity, integers over Python's digit limit (4300), nesting over MAX_DEPTH."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise error(f"{where}: not UTF-8 text (byte {e.start} is {bytes(text[e.start:e.start + 1])!r}); "
                        f"save it as UTF-8") from None
    if not isinstance(text, str):
        raise error(f"{where}: the JSON text must be a str or UTF-8 bytes, got {type(text).__name__}")
    deep = _depth(text) > MAX_DEPTH
    hooks = _Hooks()
    try:
        data = json.loads(text, object_pairs_hook=hooks.pairs, parse_constant=hooks.constant)
    except json.JSONDecodeError as e:
        raise error(f"{where}: not valid JSON: {e}") from None
    except RecursionError:  # the scan above found the nesting, but too deep for even the parser
        raise error(f"{where}: $: nested far more than {MAX_DEPTH} levels deep") from None
    except ValueError:  # an integer over Python's digit limit: parse again with the hook that marks it
        try:
            data = json.loads(text, object_pairs_hook=hooks.pairs, parse_constant=hooks.constant,
                              parse_int=hooks.integer)
        except RecursionError:
            raise error(f"{where}: $: nested far more than {MAX_DEPTH} levels deep") from None
    if deep or hooks.marked:
        fault = _first_fault(data)
        if fault is not None:
            raise error(f"{where}: {json_path(fault[0])}: {fault[1]}")
    return data


def parse_saved_state(text: Any, game: str = "") -> Any:
    """parse() for a saved state (tilecraft.from_json and each state class's from_json)."""
    return parse(text, f"{game} saved state" if game else "saved state", InvalidStateError)


def _check_path(path: Any, game: str, label: str) -> str:
    try:
        path = os.fspath(path)
    except TypeError:
        raise InvalidConfigError(f"{game} {label}: a data file path must be a str or os.PathLike, got "
                                 f"{type(path).__name__}") from None
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if "\0" in path:
        raise InvalidConfigError(f"{game} {label}: the path {path!r} holds a NUL character; give a file path")
    return path


def read_bytes(path: Any, game: str, label: str) -> bytes:
    """The bytes of a data file: a regular file (after symlinks are followed) of at most
    MAX_FILE_BYTES. A missing file, a broken symlink or a loop, a directory, a FIFO, a device or a
    socket, or a larger file raises InvalidConfigError naming it, at once (a FIFO is opened without
    waiting for a writer)."""
    path = _check_path(path, game, label)
    shown = "" if label == path else f" {path!r}"  # the label may already be the path
    try:
        return read_regular(path, MAX_FILE_BYTES)
    except UnreadableFile as e:
        if e.kind:
            raise InvalidConfigError(f"{game} {label}: cannot read{shown}: it is {e.kind}; a data file must be a "
                                     f"regular file") from None
        if e.size is not None:
            raise InvalidConfigError(f"{game} {label}:{shown} has {'more than ' + str(MAX_FILE_BYTES) if e.grew else e.size}"
                                     f" bytes; a data file may have at most {MAX_FILE_BYTES}"
                                     + ("" if e.grew else f" ({MAX_FILE_BYTES // (1024 * 1024)} MiB)")) from None
        raise InvalidConfigError(f"{game} {label}: cannot read{shown}: {e.why}") from None


def read_json(path: Any, game: str, label: str) -> Any:
    """A data file, read (read_bytes) and parsed (parse); errors name ``game`` and ``label``."""
    return parse(read_bytes(path, game, label), f"{game} {label}")


def stamp(path: Any) -> Optional[Hashable]:
    """What identifies a data file's content for the per-process caches: its absolute path, device,
    inode, size and modification time in ns (so an edited, replaced or touched file is read again);
    None when it cannot be stat'ed (the loader then raises the error)."""
    try:
        path = os.path.abspath(os.fspath(path))
        st = os.stat(path)
    except (OSError, TypeError, ValueError):
        return None
    return (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def cached(cache: Dict[Any, Any], key: Optional[Hashable], load: Callable[[], Any]) -> Any:
    """``load()``, kept in ``cache`` under ``key`` (the files' stamps); a None key (a dict given, or
    a file that cannot be stat'ed) caches nothing, so the loader runs and raises its own error."""
    if key is not None and key in cache:
        return cache[key]
    value = load()
    if key is not None:
        cache[key] = value
    return value


def _load_schema(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    # The file's own URI is its base, so a relative "$ref": "common.schema.json#/$defs/effect"
    # resolves to the file beside it, for jsonschema as for an editor.
    schema.setdefault("$id", pathlib.Path(path).resolve().as_uri())
    return schema


@functools.lru_cache(maxsize=None)
def _validator(schema_path: str):
    import jsonschema
    from referencing import Registry, Resource

    schema = _load_schema(schema_path)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    # "integer" means a JSON integer as written (2, not 2.0), as the loaders always required: the
    # values go to C++ ints. (JSON Schema would otherwise accept 2.0 as an integer.)
    integer = lambda checker, x: isinstance(x, int) and not isinstance(x, bool)  # noqa: E731
    cls = jsonschema.validators.extend(cls, type_checker=cls.TYPE_CHECKER.redefine("integer", integer))
    # Every schema beside this one, registered and crawled once: refs then resolve without I/O.
    folder = os.path.dirname(os.path.abspath(schema_path))
    resources = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".schema.json"):
            other = _load_schema(os.path.join(folder, name))
            resources.append((other["$id"], Resource.from_contents(other)))
    return cls(schema, registry=Registry().with_resources(resources).crawl())


def validate(game: str, data: Any, schema_path: str, label: str) -> None:
    """Raises InvalidConfigError for the first schema violation (the shallowest, then in document
    order), naming ``game``, the file ``label`` and the JSON path."""
    validator = _validator(os.fspath(schema_path))
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), [str(p) for p in e.absolute_path]))
    if errors:
        e = errors[0]
        message = e.message
        if e.validator in ("not", "oneOf", "anyOf") and isinstance(e.schema, dict) and e.schema.get("description"):
            message = f"must match: {e.schema['description']}"
        elif e.validator in ("minItems", "maxItems") and isinstance(e.instance, list):
            bound = "at least" if e.validator == "minItems" else "at most"
            message = f"has {len(e.instance)} items; it must have {bound} {e.validator_value}"
        elif len(message) > 300:
            message = message[:300] + "..."
        raise problem(game, label, e.absolute_path, message)
