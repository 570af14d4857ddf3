"""Checks a component data file against the JSON Schema shipped beside it (one way for every
data-driven game). Errors name the file and the JSON path of the offending value, so a user
authoring an edition can find the problem; the schemas themselves are what an editor understands.
Games keep in code only the cross-field checks a schema cannot express, and raise those through
``problem`` so that every message has the same form."""
from __future__ import annotations

import functools
import json
import os
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


@functools.lru_cache(maxsize=None)
def _validator(schema_path: str):
    import jsonschema

    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def validate(game: str, data: Any, schema_path: str, label: str) -> None:
    """Raises InvalidConfigError for the first schema violation (the shallowest, then in document
    order), naming ``game``, the file ``label`` and the JSON path."""
    validator = _validator(os.fspath(schema_path))
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), [str(p) for p in e.absolute_path]))
    if errors:
        e = errors[0]
        raise problem(game, label, e.absolute_path, e.message)
