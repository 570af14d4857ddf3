"""Checks a component data file against the JSON Schema shipped beside it (one way for every
data-driven game). Errors name the file and the JSON path of the offending value, so a user
authoring an edition can find the problem; the schemas themselves are what an editor understands.
Games keep in code only the cross-field checks a schema cannot express, and raise those through
``problem`` so that every message has the same form."""
from __future__ import annotations

import functools
import json
import os
import pathlib
from typing import Any, Iterable, Union

from .._core import InvalidConfigError


def json_path(parts: Iterable[Union[str, int]]) -> str:
    """``['cards', 17, 'requirement']`` -> ``$.cards[17].requirement``."""
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def problem(game: str, label: str, path: Iterable[Union[str, int]], message: str) -> InvalidConfigError:
    """The error for a data file: ``castle tiles.json: $.tiles[3].count: must be ...``."""
    return InvalidConfigError(f"{game} {label}: {json_path(path)}: {message}")


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
