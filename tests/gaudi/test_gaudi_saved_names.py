"""Gaudí's saved names equal its member names (issue 20, item 4): in cpp/gaudi/*.hpp every
`v.field("NAME", MEMBER)` of the State saves the member `NAME_` (a sub-object such as the RNG's
words, `rng_.s`, counts by its owning member), and every field of a Config struct (public
members) saves the member `NAME`. Reading the source keeps the saved names and the code's names
from drifting apart, so a saved state reads the same words a reader of the engine sees."""
import pathlib
import re

import pytest

_SRC = pathlib.Path(__file__).resolve().parents[2] / "cpp" / "gaudi"
_FIELD = re.compile(r'\bfield\(\s*"([A-Za-z0-9_]+)"\s*,\s*([A-Za-z0-9_.\[\]]+)\s*\)')
_TYPE = re.compile(r"^\s*(class|struct)\s+([A-Za-z0-9_]+)\b[^;]*$", re.M)


def _fields():
    """(file, enclosing type, saved name, member expression) for every field() call."""
    out = []
    for path in sorted(_SRC.glob("*.hpp")):
        text = path.read_text(encoding="utf-8")
        types = [(m.start(), m.group(2)) for m in _TYPE.finditer(text)]
        for m in _FIELD.finditer(text):
            owner = None
            for pos, name in types:
                if pos < m.start():
                    owner = name
            out.append((path.name, owner, m.group(1), m.group(2)))
    return out


def test_the_headers_save_fields():
    owners = {owner for _, owner, _, _ in _fields()}
    assert {"State", "Config"} <= owners
    # the State's visit() lists 61 fields
    assert sum(1 for _, owner, _, _ in _fields() if owner == "State") == 61


@pytest.mark.parametrize(
    "where,owner,name,member", [pytest.param(*f, id=f"{f[1]}.{f[2]}") for f in _fields()]
)
def test_member_is_the_saved_name(where, owner, name, member):
    if owner == "State":
        assert member.split(".")[0] == name + "_", f"{where}: State saves {member} as {name!r}"
    else:
        assert member == name, f"{where}: {owner} saves {member} as {name!r}"
